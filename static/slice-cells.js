// stridescope: the slice explorer's cells linked (slice.js's view): an
// output cell, the input cell it copies and that cell's buffer cell; an
// input cell, its buffer cell and the output cell it is copied to; a
// buffer cell, every input element stored there and where they go. The
// pointer, the focus and the keys link them in the grids as on the
// canvases (slice-canvas.js), and a room shares what is linked.

import { $, $$, reveal, gridLinks } from './live.js';
import { listOf, t as tr } from './words.js';
import { moveCoord, bufferMove, coordOf, indexOf, offsetOf, holderOf } from './layout.js';

// bit is bit k of a bitmap of 32-bit words (compute's, from the frames),
// 0 without one.
export const bit = (bm, k) => bm !== null && (bm[k >>> 5] >>> (k & 31)) & 1;

// sliceCells links the cells of the view S (slice.js), through S.paint
// for the canvases' marks; it returns what the other parts use.
export function sliceCells(S) {
  const { picture, dot, st } = S;
  // A target is a cell of a view, DOM or canvas: {kind: 'in' | 'out' | 'b', i};
  // its id (in-5, out-2, b-5) is the DOM cell's, and what rooms share.
  const cellOf = (kind, i) => document.getElementById(kind + '-' + i);
  const mark = (el, cls) => el && el.classList.add(cls);
  const idOf = (t) => t.kind + '-' + t.i;
  const limit = { in: () => st.meta.inputCount, out: () => st.meta.outputCount, b: () => st.meta.cells };
  function targetOf(id) {
    const g = /^(in|out|b)-(\d+)$/.exec(id || '');
    return g && st.meta && +g[2] < limit[g[1]]() ? { kind: g[1], i: +g[2] } : null;
  }
  const label = (el) => el && $('.lbl', el).textContent;
  // Each fact of a cell from its DOM cell when the view is a grid, else
  // from the frames, else worked out from the meta; a value the canvases'
  // module computed is written by its valueAt (S.valueAt).
  function inOffset(i) {
    const c = cellOf('in', i);
    if (c) return +c.dataset.o;
    if (st.data.offsets) return st.data.offsets[i];
    return offsetOf(st.meta.sizes, st.meta.strides, i);
  }
  const bufValue = (o) => label(cellOf('b', o)) ?? (st.data.bufAt ? S.valueAt(st.data.bufAt(o)) : '·');
  const inValue = (i) => label(cellOf('in', i)) ?? bufValue(inOffset(i));
  const outValue = (k) => label(cellOf('out', k)) ?? (k < st.meta.values.length ? st.meta.values[k] : st.data.outAt ? S.valueAt(st.data.outAt(k)) : '·');
  const srcCoord = (oc) => oc.map((v, d) => st.meta.copyStart[d] + st.meta.windowStrides[d] * v);
  const inWindow = (ic) => ic.every((v, d) => v >= st.meta.windowOffsets[d] && v < st.meta.windowOffsets[d] + st.meta.windowSizes[d]);
  // copyOrder is the output element that copies input element i, or -1:
  // whether it is copied comes from the grid or compute's bitmap, which
  // one from CopyStart + InputWindowStrides * OutputCoordinates.
  function copyOrder(i) {
    const c = cellOf('in', i), m = st.meta;
    if (c) return c.dataset.link === undefined ? -1 : +c.dataset.link;
    if (st.data.copied && !bit(st.data.copied, i)) return -1;
    const ic = coordOf(m.sizes, i), oc = [];
    for (let d = 0; d < ic.length; d++) {
      const q = (ic[d] - m.copyStart[d]) / m.windowStrides[d];
      if (!Number.isInteger(q) || q < 0 || q >= m.outputSizes[d]) return -1;
      oc.push(q);
    }
    return indexOf(m.outputSizes, oc);
  }
  // holders are the input elements stored at buffer offset o.
  function holders(o) {
    if (st.meta.inputMode === 'dom') return $$(`#slice-input .lc[data-o="${o}"]`).map((h) => +h.dataset.i);
    const offs = st.data.offsets, out = [];
    if (offs) { for (let i = 0; i < offs.length; i++) if (offs[i] === o) out.push(i); }
    else if (st.data.apart) { const i = holderOf(st.meta.sizes, st.meta.strides, o); if (i >= 0 && i < st.meta.inputCount) out.push(i); }
    return out;
  }
  const isRead = (o) => { const c = cellOf('b', o); return c ? c.classList.contains('read') : !!bit(st.data.read, o); };

  function clearLinks() {
    for (const el of $$('.lc.linked, .bc.linked, .lc.sel, .bc.sel', picture)) el.classList.remove('linked', 'sel');
    for (const k of ['in', 'out', 'b']) { st.marks[k].sel = []; st.marks[k].linked = []; S.paint(k); }
  }
  // unlink clears the links: the page as when nothing is pointed at.
  const hint = $('.hint', dot)?.cloneNode(true);
  function unlink() { clearLinks(); dot.replaceChildren(...(hint ? [hint.cloneNode(true)] : [])); }
  // link shows where a cell's value comes from or goes: an output cell,
  // the input cell it copies and that cell's buffer cell; an input cell,
  // its buffer cell and the output cell it is copied to; a buffer cell,
  // every input element stored there and where they go.
  function link(t, isFocus) {
    if (!t || !st.meta) return;
    clearLinks();
    const m = st.meta, marks = { in: [], out: [], b: [] };
    if (t.kind === 'out') {
      const oc = coordOf(m.outputSizes, t.i), ic = srcCoord(oc), src = indexOf(m.sizes, ic), o = inOffset(src);
      marks.in.push(src); marks.b.push(o);
      dot.textContent = tr('js.slice.out', { oc: `{${oc}}`, ic: `{${ic}}`, v: outValue(t.i), o });
    } else if (t.kind === 'in') {
      const ic = coordOf(m.sizes, t.i), o = inOffset(t.i), k = copyOrder(t.i);
      marks.b.push(o);
      if (k >= 0) marks.out.push(k);
      dot.textContent = tr('js.slice.in', { ic, v: inValue(t.i), o }) +
        (k >= 0 ? tr('js.slice.copied', { oc: `{${coordOf(m.outputSizes, k)}}`, k })
          : inWindow(ic) ? tr('js.slice.skipped') : tr('js.slice.outside'));
    } else {
      const hs = holders(t.i), outs = hs.map(copyOrder).filter((k) => k >= 0);
      marks.in = hs; marks.out = outs;
      dot.textContent = hs.length === 0
        ? (t.i > m.last ? tr('js.slice.buf.unused', { o: t.i }) : tr('js.slice.buf.padding', { o: t.i }))
        : tr('js.slice.buf.holds', { o: t.i, v: bufValue(t.i), list: listOf(hs, (i) => `(${coordOf(m.sizes, i)})`) }) +
          (outs.length > 1 ? tr('js.slice.readby.many', { list: listOf(outs, String) })
            : outs.length ? tr('js.slice.readby.one', { list: listOf(outs, String) })
              : isRead(t.i) ? tr('js.slice.read') : tr('js.slice.notread'));
    }
    cellOf(t.kind, t.i)?.classList.add('sel');
    st.marks[t.kind].sel = [t.i];
    if (st.canvases[t.kind]) st.canvases[t.kind].cursor = t.i;
    for (const k of ['in', 'out', 'b']) {
      for (const i of marks[k].slice(0, 4096)) cellOf(k, i)?.classList.add('linked');
      st.marks[k].linked = marks[k];
      S.paint(k);
    }
    // Once every mark is written: reveal reads the layout.
    for (const k of ['in', 'out', 'b']) if (marks[k].length) reveal(cellOf(k, marks[k][0]), picture);
    if (isFocus) st.focus = idOf(t);
    S.room.publish({ focus: idOf(t) });
  }
  gridLinks(picture, '#slice-input, #slice-output, #slice-buffer', () => !!st.meta, (c, isFocus) => link(targetOf(c.id), isFocus), (c, key, e) => {
    if (c.classList.contains('lc')) {
      const out = c.id.startsWith('out-'), sizes = out ? st.meta.outputSizes : st.meta.sizes, co = coordOf(sizes, +c.dataset.i);
      if (moveCoord(sizes, co, key)) return cellOf(out ? 'out' : 'in', indexOf(sizes, co));
      // Enter jumps to the linked cell of the other grid.
      if (key === 'Enter' || key === ' ') return cellOf(out ? 'in' : 'out', c.dataset.link);
      if (key.startsWith('Arrow') || key.startsWith('Page')) e.preventDefault();
      return null;
    }
    const to = bufferMove(key, +c.dataset.o, +$('#slice-buffer .buffer').dataset.cols, st.meta.cells);
    return to === undefined ? null : cellOf('b', to) || c;
  });
  return { cellOf, mark, targetOf, link, unlink, inOffset, srcCoord };
}
