// The grids of an axis-map explorer (DML_PADDING1, DML_TILE) linked by
// pointer, tap and keyboard, both ways: an output cell to the input
// element it reads (and the other output cells that read it), or to
// nothing where it takes the padding value; an input element to every
// output cell that reads it. st.meta.sources gives, for each output
// element (row-major), the input element it reads, -1 for the padding
// value (docs/protocol.md, "The padding explorer"). In a room (room()
// the page's, client.js's client.room) the cell shown is the presenter's
// focus, by its id, which a canvas's element shares (axismap-canvas.js).

import { drawingModule } from './client.js';
import { $, $$, gridLinks, afterDrawing } from './live.js';
import { t, num } from './words.js';
import { bufferMove, coordOf } from './layout.js';
import { copySteps } from './copy-steps.js';

// mapCanvasesLater stands for the canvases of axismap-canvas.js (its
// mapCanvases) until a picture needs them: a picture drawn as cells has
// no canvas, so that module and the four canvas modules it imports come
// after the page's first frame (client.js drawingModule), not before its
// picture is linked (issue #38); a page drawn on canvases has them
// preloaded and takes them at once. Until then show and pick mark
// nothing (no canvas is drawn); get gives the module's promise.
export function mapCanvasesLater(picture, st, slot, room) {
  let real = null;
  const get = drawingModule(picture, () => import('./axismap-canvas.js').then((mod) => { real = mod.mapCanvases(st, slot, room); }));
  return { get, draw: () => real?.draw(), show: (id) => real?.show(id), pick: (k) => real?.pick(k) };
}

// mapDone is the page's onDone: the canvases drawn (the first time a
// picture needs them, once their module is in), then the focus and the
// step-through shown again.
export function mapDone(st, cvs, focus, steps) {
  return afterDrawing(st, (m) => m.inputMode === 'canvas', cvs.get, () => {
    cvs.draw();
    if (st.focus) focus.show(st.focus);
    steps.refresh();
  });
}

export function mapLinks(picture, st, room) {
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
    room()?.publish({ focus: c.id });
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
  function step(c, key) {
    if (key === 'Enter') return document.getElementById(c.dataset.link || '');
    const cells = $$('.lc', c.closest('[role=grid]'));
    const cols = $$('.lc', c.closest('.lrow')).length;
    const to = bufferMove(key, cells.indexOf(c), cols, cells.length);
    return to === undefined ? null : cells[to] || null;
  }
  gridLinks(picture, '[role=grid]', () => !!st.meta, (c, keep) => show(c, keep), step);
  picture.addEventListener('pointerleave', () => { if (!st.focus) unlink(); });
  return { show, unlink };
}

// mapFocus is the room's focus hooks (client.js, rooms.js roomFocus) of
// the grids linked by links or the canvases cvs: an id names an element
// (out-k, in-k) whether it is a cell or a canvas's pixel.
export function mapFocus(st, links, cvs) {
  const show = (id) => {
    const c = document.getElementById(id);
    if (c?.matches('.lc')) return links.show(c, false);
    links.unlink();
    return cvs.show(id); // the canvas lit, for the room to bring into view
  };
  return { focused: () => st.focus, show, clear: () => { links.unlink(); cvs.show(''); } };
}

// mapSteps is the step-through (copy-steps.js) of the grids linked by
// mapLinks (links) or drawn on the canvases cvs (axismap-canvas.js): step
// k lights output k and the input element it reads (the meta's sources,
// or its axes' tables on canvases), lines(steps, k, from, value) its
// formula (copy-formulas.js), from null for the padding value; room()
// the page's room.
export function mapSteps(picture, st, links, cvs, lines, room) {
  const cell = (id) => document.getElementById(id), dom = () => st.meta.inputMode === 'dom';
  // from is the input coordinate output k reads, null for the value.
  function from(k) {
    const m = st.meta;
    if (dom()) return m.sources[k] >= 0 ? coordOf(st.steps.inSizes, m.sources[k]) : null;
    const co = coordOf(m.outSizes, k).map((c, d) => m.axes[d][c]);
    return co.some((c) => c < 0) ? null : co;
  }
  return copySteps(picture, {
    room,
    count() {
      const m = st.meta;
      if (!st.steps || !m) return 0;
      return m.inputMode === 'dom' ? (m.sources || []).length : m.inputMode === 'canvas' ? m.outCount : 0;
    },
    light(k) {
      if (!dom()) return { out: [], src: [], lead: cvs.pick(k) || null };
      const out = cell('out-' + k), i = st.meta.sources[k];
      links.show(out, false);
      return { out: [out], src: i >= 0 ? [cell('in-' + i)] : [] };
    },
    caption: (k) => lines(st.steps, k, from(k), dom() ? cell('out-' + k)?.querySelector('.lbl')?.textContent ?? '' : st.meta.value ?? ''),
  });
}
