// stridescope: the conversion explorer's views above the DOM limit,
// drawn on canvases (convert.js's view): the logical tensor and both
// buffers, each coloured by copy step as the DOM view's badges number
// them. Everything is worked out from the meta (the sizes and both
// sides' strides give every offset; docs/protocol.md, "The conversion
// explorer"): no frame comes for them. Their pointer and keys link as
// the grids' cells do; Enter goes to the linked cell's canvas.

import { $ } from './live.js';
import { forRows } from './layout.js';
import { panelCaptions, rgba, rampPacked, markPixels, canvasLinks } from './canvas.js';
import { clamp, box, pixelRuns, tensorLayout, bufferStrip } from './canvas-layout.js';
import { canvasRecord, measureCaption, redrawMini } from './canvas-zoom.js';

// Padding, the unused tail and the marks, as the layout explorer's
// canvases colour them (app.css gives the legend's swatches the same).
const C = { hole: [205, 212, 220], tail: [244, 246, 248], mark: [230, 57, 70] };
// The canvases' slots (views.CanvasSlot: id + '-canvas'), by view.
export const SLOTS = { lg: 'convert-lg', ib: 'convert-ib', ob: 'convert-ob' };
// Enter on a canvas goes where the DOM cells' data-link does.
const JUMP = { lg: 'ob', ib: 'ob', ob: 'ib' };

// convertCanvases draws the canvases of the view S ({st, pick(kind, k,
// focus), target(kind, k)}): st.meta the answer's meta; pick shows
// item k of a view (an element of lg, a cell of ib and ob); target(kind,
// k) is the cell of the view Enter goes to.
export function convertCanvases(S) {
  const cvs = {};
  function bounds(kind) {
    const slot = $(`#${SLOTS[kind]}-canvas`)?.closest('.canvas-slot'), w = slot ? slot.clientWidth - 2 : 300;
    return box(clamp(w, 200, 1100), clamp(Math.round(innerHeight * 0.6), 280, 560));
  }
  function setup(kind, L, b, n, paint, decorate) {
    const cv = $(`#${SLOTS[kind]}-canvas`);
    if (!cv) return;
    const c = cvs[kind] = canvasRecord(cv, L, b, decorate);
    paint(new Uint32Array(c.img.data.buffer));
    c.ctx.putImageData(c.img, 0, 0);
    redrawMini(c.view);
    canvasLinks(cv, c, n, () => (kind === 'lg' ? S.st.meta.sizes : null), (k, focus) => S.pick(kind, k, focus));
    cv.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || c.cursor < 0) return;
      const to = JUMP[kind], d = cvs[to], k = S.target(kind, c.cursor, to);
      if (!d || k < 0) return;
      e.preventDefault();
      d.cursor = k;
      d.cv.focus();
    });
  }
  // step is element i's colour: its copy step over the ramp.
  const stepOf = (n) => { const span = Math.max(1, n - 1); return (i) => rampPacked(i / span); };
  function drawLogical() {
    const m = S.st.meta, n = m.count, b = bounds('lg'), L = tensorLayout(m.sizes, n, m.labels, b, measureCaption), step = stepOf(n);
    setup('lg', L, b, n, (px32) => {
      pixelRuns(L, n, (p, i0, len) => { for (let j = 0, i = i0; j < len; j++, i += L.bin) px32[p + j] = step(i); });
    }, (ov) => panelCaptions(ov, L, m.sizes, m.labels));
  }
  // drawBuffer colours each cell of a side's buffer by the first step
  // that reaches it (row-major order: the first element to land on a
  // pixel is its earliest), else as padding or the unused tail.
  function drawBuffer(kind) {
    const m = S.st.meta, side = kind === 'ib' ? 'in' : 'out', strides = m[side + 'Strides'], cells = m[side + 'Cells'], last = m[side + 'Last'];
    const n = m.count, b = bounds(kind), L = bufferStrip({ sizes: m.sizes, strides, cells }, b), step = stepOf(n);
    setup(kind, L, b, cells, (px32) => {
      const edge = Math.floor(last / L.bin) + 1, seen = new Uint8Array(px32.length);
      px32.fill(rgba(C.hole), 0, edge);
      px32.fill(rgba(C.tail), edge);
      forRows(m.sizes, strides, n, (i0, o0, len, s) => {
        for (let j = 0, o = o0; j < len; j++, o += s) {
          const p = L.at(o);
          if (!seen[p]) { seen[p] = 1; px32[p] = step(i0 + j); }
        }
      });
    });
  }
  // mark shows the items of each view that marks names ({lg, ib, ob}:
  // arrays of items), the rest as drawn.
  function mark(marks) {
    for (const [kind, c] of Object.entries(cvs)) {
      markPixels(c, [[marks[kind] || [], C.mark]]);
      if (marks.cursor?.[kind] !== undefined) c.cursor = marks.cursor[kind];
    }
  }
  return {
    draw() {
      for (const k of Object.keys(cvs)) delete cvs[k];
      const m = S.st.meta;
      if (m.logicalMode === 'canvas') drawLogical();
      if (m.inputMode === 'canvas') drawBuffer('ib');
      if (m.outputMode === 'canvas') drawBuffer('ob');
    },
    mark,
    // canvasOf is the canvas element of a view drawn on one, else undefined.
    canvasOf: (kind) => cvs[kind]?.cv,
  };
}
