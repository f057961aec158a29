// stridescope DML_TILE explorer: the page is whole without this module;
// this makes it live over /ws with "page":"tile", the answers carrying
// the picture's fragment and, in the meta, the input element each
// output element reads. The socket, the URL and the room are client.js's;
// this is the form (sizes, strides, repeats) and the fragments; the
// grids are linked by axismap.js, as the padding explorer's are.

import { editClient } from './client.js';
import { mapLinks, mapSteps, mapFocus, mapCanvasesLater, mapDone } from './axismap.js';
import { tileLines } from './copy-formulas.js';
import { $, put, queryOf, swapIn, patchIn, formVals, liveSubmit } from './live.js';
import { dimRows } from './dims.js';

export function start() {
  const state = { meta: null, focus: null };
  const form = $('#controls'), pic = $('#picture');
  const room = () => client.room;
  const links = mapLinks(pic, state, room), canvases = mapCanvasesLater(pic, state, 'tile', room), steps = mapSteps(pic, state, links, canvases, tileLines, room);
  const focus = mapFocus(state, links, canvases);
  const client = editClient(form, pic, {
    page: 'tile', what: 'tile', pushes: ['dt', 'fl'],
    formQuery: query, onForm: formBack, onResult: pictureIn, onFrame: () => {}, applyRoom: (s) => steps.take(s.step),
    onDone: () => mapDone(state, canvases, focus, steps),
    presetQuery: (a) => queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value]]),
    focus,
  });

  function pictureIn(m) {
    if (m.html) swapIn($('#tile-picture'), m.html.picture, (m.html.keys || {}).picture);
    state.meta = m.meta; state.steps = m.steps;
  }
  // formBack writes the server's form back after an example, a rank or
  // a select's change; a box being typed in keeps what it holds.
  function formBack(m, sent) {
    const f = m.form, e = form.elements;
    if (sent.structural || sent.push) {
      dimRows(form, f.sizes.length, f.dimLabels, (row, i) => {
        put($('[name=sizes]', row), 'value', f.sizes[i] ?? '');
        put($('[name=strides]', row), 'value', f.strides[i] ?? '');
        put($('[name=repeats]', row), 'value', f.repeats[i] ?? '');
      });
      put(e.dt, 'value', f.dt); put(e.fl, 'value', f.fl); put(e.values, 'value', f.values);
      put(e.rank, 'value', String(f.sizes.length));
    }
    // The rows hold the boxes being typed in: patched, not replaced, so
    // that the box under the cursor keeps its focus and what is typed.
    if (m.html) patchIn($('#tile-dims'), m.html.dims, (m.html.keys || {}).dims);
  }
  function query() {
    const e = form.elements, strides = formVals(form, 'strides');
    const pairs = [['dt', e.dt.value]];
    if (e.fl.value) pairs.push(['fl', e.fl.value]);
    pairs.push(['sizes', formVals(form, 'sizes').join(',')]);
    if (strides.some((s) => s !== '')) pairs.push(['strides', strides.join(',')]);
    pairs.push(['repeats', formVals(form, 'repeats').join(',')]);
    if (e.values.value.trim()) pairs.push(['values', e.values.value.trim()]);
    return queryOf(pairs);
  }
  const send = () => client.send(query());
  form.addEventListener('input', (ev) => { if (ev.target.type === 'text') client.soon(send); });
  liveSubmit(form, client, () => client.send(query(), { structural: true }));
  client.start();
}
