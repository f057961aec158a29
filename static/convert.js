// stridescope layout conversion explorer (DML_ELEMENT_WISE_IDENTITY). The
// page is complete without this module (the server renders it from the
// URL); this makes it live: every edit goes to the server over /ws with
// "page":"convert" (docs/protocol.md, "The conversion explorer"), which
// validates it with core, describes the copy with compute and answers
// with the picture's fragment. The edits, the socket, the URL and the
// room are the edit client's (client.js); this module is the view: its
// form, the fragments swapped in, and the cells linked: a logical
// element, the input cell it is read from and the output cell it is
// written to, by pointer, tap and keyboard, both ways.

import { editClient, drawingModule } from './client.js';
import { $, $$, put, queryOf, swapIn, patchIn, gridLinks, formVals, liveSubmit, afterDrawing } from './live.js';
import { dimRows } from './dims.js';
import { t, num } from './words.js';
import { coordOf, offsetOf, holdersAt, bufferMove } from './layout.js';

export function start() {
  const form = $('#controls'), picture = $('#picture');
  const st = { meta: null, focus: null };
  const client = editClient(form, picture, {
    page: 'convert', what: 'convert', pushes: ['dt', 'imode', 'omode'],
    formQuery, onForm, onResult, onFrame: () => {}, onDone,
    presetQuery: (a) => queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value]]),
    focus: { focused: () => st.focus, show: (id) => shown(...parse(id)), clear: unlink },
  });

  // ---- the answers ----
  function onForm(m, sent) {
    refill(m.form, !!(sent.structural || sent.push));
    const h = m.html;
    // The rows hold the boxes being typed in: patched, not replaced, so
    // that the box under the cursor keeps its focus and what is typed.
    if (h) patchIn($('#convert-dims'), h.dims, (h.keys || {}).dims);
  }
  function onResult(m) {
    const h = m.html;
    if (h) swapIn($('#convert-picture'), h.picture, (h.keys || {}).picture);
    st.meta = m.meta;
  }
  // onDone draws the canvases (the first time a picture needs them, once
  // their module is in) and shows the kept focus again.
  function onDone() {
    return afterDrawing(st, (m) => [m.logicalMode, m.inputMode, m.outputMode].includes('canvas'), canvases, () => {
      cvs.draw();
      if (st.focus) show(...parse(st.focus), false);
    });
  }

  // ---- the form ----
  function formQuery() {
    const f = form.elements, vals = (name) => formVals(form, name);
    const p = [['dt', f.dt.value], ['sizes', vals('sizes').join(',')]];
    for (const s of ['i', 'o']) {
      const mode = f[s + 'mode'].value;
      p.push([s + 'mode', mode]);
      if (mode === 'explicit') p.push([s + 'strides', vals(s + 'strides').join(',')]);
      for (const k of ['total', 'align']) if (f[s + k].value.trim()) p.push([s + k, f[s + k].value.trim()]);
    }
    for (const k of ['scale', 'bias']) if (f[k].value.trim()) p.push([k, f[k].value.trim()]);
    return queryOf(p);
  }
  // refill writes the server's form back: every input after an example,
  // a rank or a mode change (all); the strides a mode computes always.
  function refill(f, all) {
    const n = f.sizes.length, e = form.elements;
    dimRows(form, n, f.dimLabels, (row, i) => {
      if (all) put($('[name=sizes]', row), 'value', f.sizes[i] ?? '');
      for (const [s, list] of [['i', f.istrides], ['o', f.ostrides]]) {
        const box = $(`[name=${s}strides]`, row), explicit = f[s + 'mode'] === 'explicit';
        if (!box) continue;
        put(box, 'readOnly', !explicit);
        if (all || !explicit) put(box, 'value', list[i] ?? '');
      }
    });
    if (!all) return;
    put(e.dt, 'value', f.dt); put(e.rank, 'value', String(n)); put(e.imode, 'value', f.imode); put(e.omode, 'value', f.omode);
    for (const k of ['itotal', 'ialign', 'ototal', 'oalign', 'scale', 'bias']) put(e[k], 'value', f[k]);
  }
  form.addEventListener('input', (e) => {
    if (e.target.type === 'text') client.soon(() => client.send(formQuery()));
  });
  liveSubmit(form, client, () => client.send(formQuery(), { structural: true }));

  // ---- the cells linked ----
  // An item of a view: an element of the logical tensor (lg), a cell of
  // the input (ib) or the output (ob) buffer; a DOM cell's id is
  // kind-item. The sizes and each side's strides give every element's
  // offsets and each cell's elements (layout.js), for the grids and the
  // canvases (convert-canvas.js) alike.
  // The canvases come with their module (convert-canvas.js): at once on
  // a page drawn on canvases, else after the first frame (client.js
  // drawingModule, issue #38); until then there is no canvas to mark.
  let cvs = { draw() {}, mark() {}, canvasOf: () => undefined };
  const canvases = drawingModule(picture, () => import('./convert-canvas.js').then((mod) => {
    cvs = mod.convertCanvases({ st, pick: (kind, k, keep) => show(kind, k, keep), target });
  }));
  const strides = (kind) => (kind === 'ob' ? st.meta.outStrides : st.meta.inStrides);
  const offset = (kind, i) => offsetOf(st.meta.sizes, strides(kind), i);
  // holders are the elements at item k of a view: the first, how many,
  // and the first max of them.
  const holders = (kind, k, max = 0) => (kind === 'lg' ? { first: k, count: 1, list: [k] } : holdersAt(st.meta.sizes, strides(kind), st.meta.count, k, max));
  // target is the item of view `to` that item k of view `kind` links.
  function target(kind, k, to) {
    const i = holders(kind, k).first;
    return i < 0 ? -1 : to === 'lg' ? i : offset(to, i);
  }
  const parse = (id) => [id.slice(0, 2), +id.slice(3)];
  // shown shows the room's focus, an item of a view, if the view has it,
  // and returns its canvas if it is drawn on one (to bring into view).
  const items = (kind) => ({ lg: st.meta?.count, ib: st.meta?.inCells, ob: st.meta?.outCells })[kind];
  function shown(kind, k) {
    if (!(Number.isInteger(k) && k >= 0 && k < items(kind))) return unlink();
    show(kind, k, false);
    return cvs.canvasOf(kind);
  }
  function unlink() {
    for (const c of $$('.linked, .sel', picture)) c.classList.remove('linked', 'sel');
    cvs.mark({});
  }
  function show(kind, k, keep) {
    if (!st.meta) return;
    unlink();
    const h = holders(kind, k), i = h.first, dot = $('#dot');
    document.getElementById(kind + '-' + k)?.classList.add('sel');
    if (keep) st.focus = kind + '-' + k;
    client.room.publish({ focus: kind + '-' + k }); // the room's focus, a canvas's item too
    if (i < 0) {
      const side = kind === 'ob' ? t('js.convert.side.out') : t('js.convert.side.in');
      dot.textContent = t('js.convert.unused', { side, offset: num(k) });
      cvs.mark({ [kind]: [k] });
      return;
    }
    const from = offset('ib', i), to = offset('ob', i), readers = holders('ib', from, 4096);
    for (const j of readers.list) document.getElementById('lg-' + j)?.classList.add('linked');
    for (const id of ['lg-' + i, 'ib-' + from, 'ob-' + to]) document.getElementById(id)?.classList.add('linked');
    cvs.mark({ lg: kind === 'lg' ? [i] : readers.list, ib: [from], ob: [to], cursor: { [kind]: k } });
    dot.textContent = kind === 'ib' && h.count > 1
      ? t('js.convert.in', { offset: num(from), n: num(h.count) })
      : t('js.convert.element', { coord: coordOf(st.meta.sizes, i).join(','), in: num(from), out: num(to), step: num(i + 1) });
  }
  const link = (c, keep) => { if (c) show(...parse(c.id), keep); };
  // Arrow keys move within a grid: a logical panel by its row of cells,
  // a buffer by its rows of columns; Enter jumps to the linked cell.
  function move(c, key) {
    if (key === 'Enter') return document.getElementById(c.dataset.link || '');
    const grid = c.closest('[role=grid]'), cells = $$('.lc, .bc', grid), k = cells.indexOf(c);
    const cols = c.classList.contains('bc') ? +c.closest('.buffer').dataset.cols : $$('.lc', c.closest('.lrow')).length;
    const next = bufferMove(key, k, cols, cells.length);
    return next === undefined ? null : cells[next] || null;
  }
  gridLinks(picture, '[role=grid]', () => !!st.meta, link, move);
  picture.addEventListener('pointerleave', () => { if (!st.focus) unlink(); });

  client.start();
}
