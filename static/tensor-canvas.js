// stridescope: one tensor drawn on its canvas, pixel by pixel, for the
// explorers whose canvases are worked out from the answer's meta (the
// axis maps', the join and split's): the canvas's layout, its captions,
// its zoom and minimap, and the pointer and keys that pick an element.

import { panelCaptions, canvasLinks } from './canvas.js';
import { clamp, box, pixelRuns, tensorLayout } from './canvas-layout.js';
import { canvasRecord, measureCaption, redrawMini } from './canvas-zoom.js';

// drawTensor draws a tensor of sizes (dimensions named labels) on cv as
// wide as its slot, element i in the colour paint(i) (a packed RGBA),
// and calls pick(i, focus) when the pointer or the keys reach element
// i. It returns the canvas's record (cursor, marks: canvas.js; n, its
// element count).
export function drawTensor(cv, sizes, labels, paint, pick) {
  const slot = cv.closest('.canvas-slot'), w = slot ? slot.clientWidth - 2 : 300;
  const b = box(clamp(w, 200, 1100), clamp(Math.round(innerHeight * 0.6), 280, 560));
  const n = sizes.reduce((a, s) => a * s, 1);
  const L = tensorLayout(sizes, n, labels, b, measureCaption);
  const c = canvasRecord(cv, L, b, (ov) => panelCaptions(ov, L, sizes, labels));
  c.n = n;
  const px32 = new Uint32Array(c.img.data.buffer);
  pixelRuns(L, n, (p, i0, len) => { for (let j = 0, i = i0; j < len; j++, i += L.bin) px32[p + j] = paint(i); });
  c.ctx.putImageData(c.img, 0, 0);
  redrawMini(c.view);
  canvasLinks(cv, c, n, () => sizes, pick);
  return c;
}
