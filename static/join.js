// stridescope join and split explorer (DML_JOIN, DML_SPLIT). The page is
// complete without this module (the server renders it from the URL);
// this makes it live: every edit goes to the server over /ws with
// "page":"join" (docs/protocol.md, "The join and split explorer"),
// which validates it with core and answers with the picture's fragment
// and, after a change of operator or of the number of inputs, the
// tensors' boxes. The edits, the socket, the URL and the room are the
// edit client's (client.js); this module is the view: its form and the
// cells linked, an output cell to the input cell it is copied from and
// back, by pointer, tap and keyboard.

import { editClient } from './client.js';
import { $, $$, queryOf, swapIn, gridLinks, liveSubmit } from './live.js';
import { bufferMove } from './layout.js';
import { joinCanvases } from './join-canvas.js';
import { copySteps } from './copy-steps.js';
import { joinLines } from './copy-formulas.js';

export function start() {
  const form = $('#controls'), picture = $('#picture');
  const st = { focus: null, ready: false, meta: null };
  const canvases = joinCanvases(st, () => client.room);
  const client = editClient(form, picture, {
    page: 'joinsplit', what: 'join', pushes: ['op', 'dt', 'fl'],
    formQuery, onForm, onResult, onFrame: () => {}, onDone, applyRoom: (s) => steps.take(s.step),
    presetQuery: (a) => queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value]]),
    focus: { focused: () => st.focus, show: shown, clear: () => { unlink(); canvases.show(''); } },
  });

  // ---- the answers ----
  // The boxes change with the operator and the count only: typing into
  // one must not replace it under the cursor.
  function onForm(m, sent) {
    const h = m.html;
    if (h && (sent.structural || sent.push)) swapIn($('#join-tensors'), h.tensors, (h.keys || {}).tensors);
  }
  function onResult(m) {
    const h = m.html;
    if (h) swapIn($('#join-picture'), h.picture, (h.keys || {}).picture);
    st.meta = m.meta;
    st.ready = true; st.steps = m.meta?.drawn || m.meta?.canvas ? m.steps : null;
  }
  function onDone() {
    canvases.draw();
    if (st.focus) shown(st.focus);
    steps.refresh();
  }

  // ---- the form ----
  // Each tensor's boxes hold a comma list as typed: sent as they are.
  function formQuery() {
    const f = form.elements, vals = (name) => $$(`[name=${name}]`, form).map((el) => el.value.trim());
    const p = [['op', f.op.value], ['dt', f.dt.value], ['axis', f.axis.value.trim()]];
    const ins = vals('in'), sts = vals('st');
    ins.forEach((v, i) => p.push(['in', v], ['st', sts[i] ?? '']));
    if (f.op.value === 'split' && f.outs) p.push(['outs', f.outs.value.trim()]);
    if (f.fl.value) p.push(['fl', f.fl.value]);
    return queryOf(p);
  }
  form.addEventListener('change', (e) => {
    if (e.target.name === 'n') client.send(formQuery() + '&n=' + e.target.value, { structural: true, push: true });
  });
  // Typing coalesces into one edit a round trip (client.soon); the
  // Apply button, offline, submits the GET form itself.
  const typedEdit = () => client.send(formQuery());
  form.addEventListener('input', ({ target }) => target.matches('input[type=text]') && client.soon(typedEdit));
  liveSubmit(form, client, () => { client.send(formQuery(), { structural: true }); });

  // ---- the cells linked ----
  // A cell's data-link is the cell of the other side it is copied from
  // (an output's) or to (an input's); its accessible name says both,
  // and the line under the form repeats it.
  function unlink() {
    for (const c of $$('.linked, .sel', picture)) c.classList.remove('linked', 'sel');
  }
  function show(c, keep) {
    if (!c) return;
    unlink();
    c.classList.add('sel');
    document.getElementById(c.dataset.link || '')?.classList.add('linked');
    if (keep) st.focus = c.id;
    client.room.publish({ focus: c.id });
    const dot = $('#dot');
    if (dot) dot.textContent = c.getAttribute('aria-label');
  }
  // shown shows an element by its id (the room's focus, the one kept):
  // its cell, else its canvas's pixel (join-canvas.js), and returns the
  // canvas lit, for the room to bring into view.
  function shown(id) {
    const c = document.getElementById(id);
    if (c?.matches('.lc')) return show(c, false);
    unlink();
    return canvases.show(id);
  }
  // Arrow keys move within a grid by its rows of cells; Enter jumps to
  // the linked cell.
  function move(c, key) {
    if (key === 'Enter') return document.getElementById(c.dataset.link || '');
    const grid = c.closest('[role=grid]'), cells = $$('.lc', grid), k = cells.indexOf(c);
    const next = bufferMove(key, k, $$('.lc', c.closest('.lrow')).length, cells.length);
    return next === undefined ? null : cells[next] || null;
  }
  gridLinks(picture, '[role=grid]', () => st.ready, show, move);
  picture.addEventListener('pointerleave', () => { if (!st.focus) unlink(); });

  // ---- the step-through: every output element in order, a split's
  // output after output; on the grids, the grid an id names (o1-5:
  // output 1) and data-c; past them, the canvases' own (join-canvas.js) ----
  const outCells = () => $$('[data-testid=join-outputs] .lc', picture);
  const gridOf = (c) => +c.id.slice(1, c.id.indexOf('-'));
  const coord = (c) => c.dataset.c.split(',').map(Number);
  const onCanvas = () => !!st.meta?.canvas;
  const steps = copySteps(picture, {
    room: () => client.room,
    count: () => (!st.steps ? 0 : onCanvas() ? canvases.count() : outCells().length),
    light(k) {
      if (onCanvas()) return { out: [], src: [], lead: canvases.light(k) };
      const c = outCells()[k];
      show(c, false);
      return { out: [c], src: [document.getElementById(c.dataset.link)] };
    },
    caption(k) {
      if (onCanvas()) { const s = canvases.stepOf(k); return joinLines(st.steps, s.which, s.c, s.from); }
      const c = outCells()[k], from = document.getElementById(c.dataset.link);
      return joinLines(st.steps, gridOf(st.steps.op === 'split' ? c : from), coord(c), coord(from));
    },
  });

  client.start();
}
