// stridescope DML_PADDING1 explorer. The page is complete without this
// module (the server renders it from the URL); this makes it live: every
// edit goes to the server over /ws with "page":"padding"
// (docs/protocol.md, "The padding explorer"), which validates it with
// core and answers with the picture's fragment and, in the meta, the
// input element each output element reads (-1: the padding value). The
// edits, the socket, the URL and the room are the edit client's
// (client.js); this module is the view: its form, the fragments swapped
// in, and the two grids linked by pointer, tap and keyboard, both ways:
// an output cell to the input element it reads (and the other output
// cells that read it), an input element to every output cell that
// reads it.

import { editClient } from './client.js';
import { t, num } from './words.js';
import { $, $$, put, queryOf, swapIn, gridLinks, formVals, dimRows, liveSubmit } from './live.js';
import { bufferMove } from './layout.js';

export function start() {
  const picture = $('#picture'), form = $('#controls');
  const st = { focus: null, meta: null };
  const client = editClient(form, picture, {
    page: 'padding', what: 'padding', pushes: ['dt', 'fl'],
    formQuery, onForm, onResult, onFrame: () => {}, onDone,
    presetQuery: (a) => queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value]]),
    focus: { focused: () => st.focus, show: (id) => show(document.getElementById(id), false), clear: unlink },
  });

  // ---- the answers ----
  function onForm(m, sent) {
    const h = m.html, whole = !!(sent.structural || sent.push);
    refill(m.form, whole);
    if (h) swapIn($('#padding-dims'), h.dims, (h.keys || {}).dims);
  }
  function onResult(m) {
    const h = m.html;
    if (h) swapIn($('#padding-picture'), h.picture, (h.keys || {}).picture);
    st.meta = m.meta;
  }
  function onDone() {
    if (st.focus) show(document.getElementById(st.focus), false);
  }

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

  // ---- the cells linked ----
  function unlink() {
    for (const c of $$('.linked, .sel', picture)) c.classList.remove('linked', 'sel');
  }
  const labelOf = (c) => c.querySelector('.lbl')?.textContent ?? '';
  // readers lists the output elements that read input element i.
  const readers = (i) => (st.meta.sources || []).flatMap((s, j) => (s === i ? [j] : []));
  function show(c, keep) {
    if (!c || !st.meta) return;
    unlink();
    c.classList.add('sel');
    if (keep) st.focus = c.id;
    const k = +c.dataset.i, dot = $('#dot');
    if (c.id.startsWith('out-')) {
      const i = (st.meta.sources || [])[k];
      if (i === undefined || i < 0) {
        dot.textContent = t('js.padding.pad', { coord: c.dataset.c, value: labelOf(c) });
        return;
      }
      const from = document.getElementById('in-' + i);
      from?.classList.add('linked');
      for (const j of readers(i)) if (j !== k) document.getElementById('out-' + j)?.classList.add('linked');
      dot.textContent = t('js.padding.out', { coord: c.dataset.c, value: labelOf(c), from: from?.dataset.c ?? '' });
      return;
    }
    const rs = readers(k);
    for (const j of rs) document.getElementById('out-' + j)?.classList.add('linked');
    dot.textContent = t('js.padding.in', { coord: c.dataset.c, value: labelOf(c), n: num(rs.length) });
  }
  // Arrow keys move within a grid by its rows of cells; Enter jumps to
  // the linked cell of the other grid.
  function move(c, key) {
    if (key === 'Enter') return document.getElementById(c.dataset.link || '');
    const grid = c.closest('[role=grid]'), cells = $$('.lc', grid), k = cells.indexOf(c);
    const next = bufferMove(key, k, $$('.lc', c.closest('.lrow')).length, cells.length);
    return next === undefined ? null : cells[next] || null;
  }
  gridLinks(picture, '[role=grid]', () => !!st.meta, (c, keep) => show(c, keep), move);
  picture.addEventListener('pointerleave', () => { if (!st.focus) unlink(); });

  client.start();
}
