// stridescope depth-space explorer (DML_DEPTH_TO_SPACE1 and
// DML_SPACE_TO_DEPTH1). The page is complete without this module (the
// server renders it from the URL); this makes it live: every edit goes to
// the server over /ws with "page":"depthspace" (docs/protocol.md, "The
// depth-space explorer"), which validates it with core and answers with
// the picture's fragment and, for each output element in each order, the
// input element it reads. The edits, the socket, the URL and the room
// are the edit client's (client.js); this module is the view: its form,
// the fragment swapped in, and the three grids linked: an input element
// and where the DCR and the CRD orders each put it, by pointer, tap and
// keyboard, from any of the three.

import { editClient, drawingModule } from './client.js';
import { $, $$, put, queryOf, swapIn, gridLinks, formVals, liveSubmit, afterDrawing } from './live.js';
import { t, num } from './words.js';
import { coordOf, indexOf, moveCoord, offsetOf } from './layout.js';
import { copySteps } from './copy-steps.js';
import { depthSpaceLines } from './copy-formulas.js';

export function start() {
  const picture = $('#picture'), form = $('#controls');
  const st = { focus: null, meta: null };
  const client = editClient(form, picture, {
    page: 'depthspace', what: 'depthspace', pushes: ['op', 'dt', 'imode'],
    formQuery, onForm, onResult, onFrame: () => {}, onDone, applyRoom: (s) => steps.take(s.step),
    presetQuery: (a) => queryOf([['preset', a.dataset.preset]]),
    focus: { focused: () => st.focus, show: (id) => shown(...parse(id)), clear: unlink },
  });

  // ---- the answers ----
  function onForm(m, sent) { refill(m.form, !!(sent.structural || sent.push)); }
  function onResult(m) {
    const h = m.html;
    if (h) swapIn($('#depthspace-picture'), h.picture, (h.keys || {}).picture);
    st.meta = m.meta || null; st.steps = m.steps;
  }
  // onDone draws the canvases (the first time a picture needs them, once
  // their module is in) and shows the kept focus again.
  function onDone() {
    return afterDrawing(st, (m) => m.mode === 'canvas', canvases, () => {
      cvs.draw();
      if (st.focus) show(...parse(st.focus), false);
      steps.refresh();
    });
  }

  // ---- the form ----
  function formQuery() {
    const f = form.elements, typed = (name) => formVals(form, name).join(',');
    const p = [['op', f.op.value], ['dt', f.dt.value], ['sizes', typed('sizes')], ['imode', f.imode.value]];
    if (f.imode.value === 'explicit') p.push(['istrides', typed('istrides')]);
    p.push(['block', f.block.value.trim()]);
    const values = f.vals.value.trim();
    if (values) p.push(['vals', values.replace(/\s+/g, '')]);
    return queryOf(p);
  }
  // refill writes the server's form back: every input after an example
  // or a select's change (all); the strides a mode computes always.
  function refill(f, all) {
    const e = form.elements, explicit = f.imode === 'explicit';
    $$('tr.dim', form).forEach((row, i) => {
      if (all) put($('[name=sizes]', row), 'value', f.sizes[i] ?? '');
      const box = $('[name=istrides]', row);
      put(box, 'readOnly', !explicit);
      if (all || !explicit) put(box, 'value', f.istrides[i] ?? '');
    });
    if (!all) return;
    for (const k of ['op', 'dt', 'imode', 'block', 'vals']) put(e[k], 'value', f[k === 'imode' ? 'imode' : k]);
  }
  form.addEventListener('input', (e) => {
    if (e.target.type === 'text' || e.target.tagName === 'TEXTAREA') client.soon(() => client.send(formQuery()));
  });
  liveSubmit(form, client, () => client.send(formQuery(), { structural: true }));

  // ---- the cells linked ----
  // A cell's id is grid-index: in-k an input element, dcr-j and crd-j
  // an output element of each order, row-major; on the canvases too, so
  // that the id is the room's focus whichever a viewer's page draws.
  const parse = (id) => { const d = id.indexOf('-'); return [id.slice(0, d), +id.slice(d + 1)]; };
  // shown shows the room's focus, an element of a grid, if there is one,
  // and returns its canvas if it is drawn on one (to bring into view).
  function shown(grid, i) {
    if (!(['in', 'dcr', 'crd'].includes(grid) && Number.isInteger(i) && i >= 0 && i < st.meta?.count)) return unlink();
    show(grid, i, false);
    return cvs.canvasOf(grid);
  }
  const sizesOf = (grid) => (grid === 'in' ? st.meta.inSizes : st.meta.outSizes);
  // The input element output j of an order reads, and the output
  // element of an order that reads input k: the meta's index maps.
  const source = (o, j) => offsetOf(st.meta.views[o].to.sizes, st.meta.views[o].to.strides, j);
  const reader = (o, k) => offsetOf(st.meta.views[o].back.sizes, st.meta.views[o].back.strides, k);
  const target = (grid, i, to) => { const k = grid === 'in' ? i : source(grid, i); return to === 'in' ? k : reader(to, k); };
  // The canvases come with their module (depthspace-canvas.js): at once
  // on a page drawn on canvases, else after the first frame (client.js
  // drawingModule, issue #38); until then there is no canvas to mark.
  let cvs = { draw() {}, box: () => null, canvasOf: () => undefined, mark() {} };
  const canvases = drawingModule(picture, () => import('./depthspace-canvas.js').then((mod) => {
    cvs = mod.depthSpaceCanvases({ st, pick: (grid, k, keep) => show(grid, k, keep), target });
  }));
  function unlink() {
    $$('.linked, .sel', picture).forEach((c) => c.classList.remove('linked', 'sel'));
    cvs.mark({});
  }
  function show(grid, i, keep) {
    const m = st.meta;
    if (!m || !m.views?.dcr) return;
    unlink();
    const k = target(grid, i, 'in');
    const at = { in: k, dcr: reader('dcr', k), crd: reader('crd', k) };
    for (const g of ['in', 'dcr', 'crd']) document.getElementById(g + '-' + at[g])?.classList.add('linked');
    document.getElementById(grid + '-' + i)?.classList.add('sel');
    cvs.mark(at, { [grid]: i });
    if (keep) st.focus = grid + '-' + i;
    client.room.publish({ focus: grid + '-' + i }); // a cell's id, a canvas's element too
    const value = m.values ? m.values[k] : k;
    $('#dot').textContent = t('js.depthspace.element', {
      coord: coordOf(m.inSizes, k).join(','), value: num(value), offset: num(m.inOffsets ? m.inOffsets[k] : offsetOf(m.inSizes, m.inStrides, k)),
      dcr: coordOf(m.outSizes, at.dcr).join(','), crd: coordOf(m.outSizes, at.crd).join(','),
    });
  }
  // The arrows move within a grid by its coordinates (PageUp/PageDown
  // along the channels); Enter jumps to the linked cell: an output's
  // input element, an input's DCR cell.
  function step(cell, key) {
    const [grid, i] = parse(cell.id);
    if (key === 'Enter') return $('#' + (cell.dataset.link || 'none'));
    const sizes = sizesOf(grid), co = coordOf(sizes, i);
    return moveCoord(sizes, co, key) ? $('#' + grid + '-' + indexOf(sizes, co)) : null;
  }
  gridLinks(picture, '[role=grid]', () => !!st.meta, (cell, keep) => cell && show(...parse(cell.id), keep), step);
  picture.addEventListener('pointerleave', () => { if (!st.focus) unlink(); });

  // ---- the step-through: output element k of both orders ----
  const cell = (id) => document.getElementById(id);
  const steps = copySteps(picture, {
    room: () => client.room,
    count: () => (st.steps && ['dom', 'canvas'].includes(st.meta?.mode) ? st.meta.count : 0),
    light(k) {
      show('dcr', k, false);
      return { out: [cell('dcr-' + k), cell('crd-' + k)], src: [cell('in-' + source('dcr', k)), cell('in-' + source('crd', k))], lead: cvs.box('dcr', k) };
    },
    caption: (k) => depthSpaceLines(st.steps, k, { dcr: coordOf(st.meta.inSizes, source('dcr', k)), crd: coordOf(st.meta.inSizes, source('crd', k)) }),
  });

  client.start();
}
