// stridescope: the depth-space explorer's views above the DOM limit,
// drawn on canvases (depthspace.js's view): the input coloured by each
// element's row-major index, and each order's output coloured as the
// input element it reads, so that the two orders' shuffles show as two
// patterns of one ramp. Everything comes from the meta's index maps
// (docs/protocol.md, "The depth-space explorer"): no frame comes for
// them. Their pointer and keys link as the grids' cells do; Enter goes
// to the linked canvas (an output's to the input, the input's to DCR).

import { $ } from './live.js';
import { offsetOf } from './layout.js';
import { panelCaptions, rampPacked, markPixels, canvasLinks, itemBox } from './canvas.js';
import { clamp, box, pixelRuns, tensorLayout } from './canvas-layout.js';
import { canvasRecord, measureCaption, redrawMini } from './canvas-zoom.js';

const MARK = [230, 57, 70];
const JUMP = { in: 'dcr', dcr: 'in', crd: 'in' };

// depthSpaceCanvases draws the canvases of the view S ({st, pick(grid, k,
// focus), target(grid, k, to)}): st.meta the answer's meta.
export function depthSpaceCanvases(S) {
  const cvs = {};
  function draw(grid) {
    const m = S.st.meta, n = m.count, sizes = grid === 'in' ? m.inSizes : m.outSizes;
    const cv = $(`#ds-${grid}-canvas`);
    if (!cv) return;
    const w = cv.closest('.canvas-slot')?.clientWidth - 2 || 300;
    const b = box(clamp(w, 200, 1100), clamp(Math.round(innerHeight * 0.5), 240, 480));
    const L = tensorLayout(sizes, n, m.labels, b, measureCaption), span = Math.max(1, n - 1);
    const c = cvs[grid] = canvasRecord(cv, L, b, (ov) => panelCaptions(ov, L, sizes, m.labels));
    const px32 = new Uint32Array(c.img.data.buffer), to = grid === 'in' ? null : m.views[grid].to;
    pixelRuns(L, n, (p, i0, len) => {
      for (let j = 0, i = i0; j < len; j++, i += L.bin) px32[p + j] = rampPacked((to ? offsetOf(to.sizes, to.strides, i) : i) / span);
    });
    c.ctx.putImageData(c.img, 0, 0);
    redrawMini(c.view);
    canvasLinks(cv, c, n, () => sizes, (k, focus) => S.pick(grid, k, focus));
    cv.addEventListener('keydown', (e) => {
      const d = cvs[JUMP[grid]];
      if (e.key !== 'Enter' || c.cursor < 0 || !d) return;
      e.preventDefault();
      d.cursor = S.target(grid, c.cursor, JUMP[grid]);
      d.cv.focus();
    });
  }
  return {
    // draw draws the three canvases afresh (after each answer).
    draw() {
      Object.keys(cvs).forEach((g) => delete cvs[g]);
      if (S.st.meta?.mode === 'canvas') ['in', 'dcr', 'crd'].forEach(draw);
    },
    // box is element k of canvas grid as the step-through keeps it clear
    // of its bar (canvas.js's itemBox), null with no such canvas.
    box: (grid, k) => (cvs[grid] ? itemBox(cvs[grid], k) : null),
    // canvasOf is a grid's canvas element once drawn, else undefined.
    canvasOf: (grid) => cvs[grid]?.cv,
    // mark shows item at[grid] of each canvas, the cursor's too.
    mark(at, cursor) {
      for (const [grid, c] of Object.entries(cvs)) {
        markPixels(c, [[at[grid] === undefined ? [] : [at[grid]], MARK]]);
        if (cursor?.[grid] !== undefined) c.cursor = cursor[grid];
      }
    },
  };
}
