// stridescope DML_PADDING1 explorer. The page is complete without this
// module (the server renders it from the URL); this makes it live: every
// edit goes to the server over /ws with "page":"padding"
// (docs/protocol.md, "The padding explorer"), which validates it with
// core and answers with the picture's fragment and, in the meta, the
// input element each output element reads (-1: the padding value). The
// edits, the socket, the URL and the room are the edit client's
// (client.js); this module is the view: its form and the fragments
// swapped in; the grids are linked by axismap.js.

import { editClient } from './client.js';
import { $, put, queryOf, swapIn, patchIn, formVals, liveSubmit } from './live.js';
import { dimRows } from './dims.js';
import { mapLinks, mapSteps, mapFocus, mapCanvasesLater, mapDone } from './axismap.js';
import { paddingLines } from './copy-formulas.js';

export function start() {
  // The answer's meta, and the element the room or the keys hold.
  const st = { meta: null, focus: null };
  const form = $('#controls');
  const picture = $('#picture');
  const room = () => client.room;
  const links = mapLinks(picture, st, room), cvs = mapCanvasesLater(picture, st, 'pad', room), steps = mapSteps(picture, st, links, cvs, paddingLines, room);
  const focus = mapFocus(st, links, cvs);
  const client = editClient(form, picture, {
    page: 'padding', what: 'padding', pushes: ['dt', 'fl'],
    formQuery, onForm, onResult, onFrame: () => {}, onDone, applyRoom: (s) => steps.take(s.step),
    presetQuery: (a) => queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value]]),
    focus,
  });

  // ---- the answers ----
  function onForm(m, sent) {
    const h = m.html, whole = !!(sent.structural || sent.push);
    refill(m.form, whole);
    // The rows hold the boxes being typed in: patched, not replaced, so
    // that the box under the cursor keeps its focus and what is typed.
    if (h) patchIn($('#padding-dims'), h.dims, (h.keys || {}).dims);
  }
  function onResult(m) {
    const h = m.html;
    if (h) swapIn($('#padding-picture'), h.picture, (h.keys || {}).picture);
    st.meta = m.meta; st.steps = m.steps;
    st.start = m.form?.start?.map(Number); // the canvas draws the padding paler
  }
  function onDone() { return mapDone(st, cvs, focus, steps); }

  // ---- the form ----
  function formQuery() {
    const f = form.elements, vals = (name) => formVals(form, name);
    const p = [['dt', f.dt.value]];
    if (f.fl.value) p.push(['fl', f.fl.value]);
    p.push(['sizes', vals('sizes').join(',')]);
    const strides = vals('strides');
    if (strides.some((s) => s !== '')) p.push(['strides', strides.join(',')]);
    p.push(['mode', f.mode.value]);
    if (f.value.value.trim()) p.push(['value', f.value.value.trim()]);
    p.push(['start', vals('start').join(',')], ['end', vals('end').join(',')]);
    if (f.values.value.trim()) p.push(['values', f.values.value.trim()]);
    return queryOf(p);
  }
  // refill writes the server's form back after an example, a rank or a
  // select's change (all): every box of the rows shown.
  function refill(f, all) {
    if (!all) return;
    const e = form.elements;
    dimRows(form, f.sizes.length, f.dimLabels, (row, i) => {
      for (const [name, list] of [['sizes', f.sizes], ['strides', f.strides], ['start', f.start], ['end', f.end]]) {
        put($(`[name=${name}]`, row), 'value', list[i] ?? '');
      }
    });
    put(e.dt, 'value', f.dt); put(e.fl, 'value', f.fl); put(e.mode, 'value', f.mode);
    put(e.rank, 'value', String(f.sizes.length)); put(e.value, 'value', f.value); put(e.values, 'value', f.values);
  }
  // A box typed in sends the state once typing pauses; the form's
  // submit (Enter, the button) sends it at once.
  const typed = () => client.send(formQuery());
  form.addEventListener('input', (e) => { if (e.target.type === 'text') client.soon(typed); });
  liveSubmit(form, client, () => client.send(formQuery(), { structural: true }));

  client.start();
}
