// stridescope: the slice explorer's views of more than 4,096 cells, drawn
// on canvases (slice.js's view): the input with its window, CopyStart and
// the copied elements (compute's bitmap, from the frames), the output
// coloured by value (fill.js), the buffer with the cells read. Their
// pointer and keys link as the grids' cells do (slice-cells.js).

import { $ } from './live.js';
import { coordOf, indexOf } from './layout.js';
import { outputEnds, halves } from './fill.js';
import { clamp, place, overlayOf, panelCaptions, rgba, rampPacked, rowPixels, pixelRuns, inputCodes, paintStrip, markPixels, tensorLayout, bufferStrip, canvasLinks } from './canvas.js';

// The canvases' colours (slice.css gives the legends' swatches the same).
const C = { outside: [233, 236, 239], win: [189, 215, 245], copied: [42, 157, 143], held: [173, 190, 209], shared: [244, 162, 97],
  hole: [222, 226, 230], tail: [250, 251, 252], plain: [168, 218, 220], cur: [255, 224, 102], mark: [230, 57, 70] };

// sliceCanvases draws the canvases of the view S (slice.js); it returns
// what the other parts use.
export function sliceCanvases(S) {
  const { picture, st } = S;
  const SLOT = { in: 'slice-in', out: 'slice-out', b: 'slice-buf' };
  // bounds is the most a canvas may take, in image pixels. The buffer has
  // the picture's width, as the layout explorer's canvases do; the input
  // and the output share a row (.io wraps them) unless one needs more.
  function bounds(kind, wide = false) {
    const w = picture.clientWidth;
    // Where two views do not fit side by side (a phone), each has a row
    // of its own: half the width would only make its elements smaller.
    if (kind === 'b' || wide || Math.floor(w / 2) - 60 < 240) return { W: clamp(w - 60, 320, 1100), H: kind === 'b' ? 420 : 480 };
    return { W: clamp(Math.floor(w / 2) - 60, 240, 900), H: 480 };
  }
  // gridLayout lays a tensor out as the layout explorer's canvas does:
  // small multiples of its last two dimensions, else a strip. A tensor
  // that would need several cells a pixel at half the width (a 224×224
  // image's three channels) gets the whole width instead: its view then
  // wraps to a row of its own.
  function gridLayout(kind, sizes) {
    const n = sizes.reduce((a, b) => a * b, 1);
    const lay = ({ W, H }) => tensorLayout(sizes, n, W, H);
    const L = lay(bounds(kind));
    return L.bin > 1 ? lay(bounds(kind, true)) : L;
  }
  // setup draws a canvas: fill(rgba) paints its image; its pointer and
  // keys link like the grids' cells.
  function setup(kind, L, n, fill) {
    const cv = $(`#${SLOT[kind]}-canvas`);
    if (!cv) return null;
    const ov = overlayOf(cv, L), ctx = cv.getContext('2d'), img = ctx.createImageData(L.w, L.h);
    fill(img.data);
    const c = st.canvases[kind] = { cv, ctx, img, L, ov, cursor: -1 }; // -1: nothing selected on it yet
    paint(kind);
    canvasLinks(cv, c, n, () => (kind === 'b' ? null : kind === 'in' ? st.meta.sizes : st.meta.outputSizes), (k, isFocus) => S.link({ kind, i: k }, isFocus));
    return c;
  }
  // paint puts a canvas's image back with its marks: the step's cells
  // yellow, the linked and the pointed-at ones red (ringed when the
  // cells are small and few).
  function paint(kind) {
    const c = st.canvases[kind], mk = st.marks[kind];
    if (!c || !mk) return;
    markPixels(c, [[mk.cur, C.cur], [mk.linked, C.mark], [mk.sel, C.mark]]);
  }
  // drawInput colours each input element: copied (compute's bitmap), in
  // the window, or outside; frames the window on every small multiple
  // inside it, marks CopyStart and numbers the copied cells when they are
  // large enough to read.
  function drawInput() {
    const m = st.meta, s = m.sizes, r = s.length, n = m.inputCount, L = gridLayout('in', s);
    const inWin = s.map((size, d) => { const a = new Uint8Array(size); a.fill(1, m.windowOffsets[d], m.windowOffsets[d] + m.windowSizes[d]); return a; });
    const c = setup('in', L, n, (px) => {
      const code = inputCodes(L, n, s, inWin, st.data.copied);
      const px32 = new Uint32Array(px.buffer), cols = [0, rgba(C.outside), rgba(C.win), rgba(C.copied)];
      for (let p = 0; p < code.length; p++) if (code[p]) px32[p] = cols[code[p]];
    });
    if (!c) return;
    panelCaptions(c.ov, L, s, m.labels);
    if (L.panelAt) {
      // The window on each small multiple whose outer coordinates are in it.
      const outer = s.slice(0, r - 2), b = L.bin;
      const y0 = Math.floor(m.windowOffsets[r - 2] / b), y1 = Math.floor((m.windowOffsets[r - 2] + m.windowSizes[r - 2] - 1) / b) + 1;
      const x0 = Math.floor(m.windowOffsets[r - 1] / b), x1 = Math.floor((m.windowOffsets[r - 1] + m.windowSizes[r - 1] - 1) / b) + 1;
      let drawn = 0;
      for (let p = 0; p < L.P && drawn < 256; p++) {
        if (!coordOf(outer, p).every((v, d) => inWin[d][v])) continue;
        const [x, y] = L.panelAt(p);
        place(c.ov, L, 'cv-win', x + x0, y + y0, x1 - x0, y1 - y0);
        drawn++;
      }
    }
    const start = indexOf(s, m.copyStart), [sx, sy] = L.toPixel(start);
    place(c.ov, L, 'cv-start', sx, sy, 1, 1).title = 'CopyStart';
    // Copy-order numbers where a cell is wide enough for them.
    if (L.bin === 1 && L.px >= 12 && m.outputCount <= 4096) {
      for (let k = 0; k < m.outputCount; k++) {
        const i = indexOf(s, S.srcCoord(coordOf(m.outputSizes, k))), t = String(k);
        if (t.length * 6 + 2 > L.px) continue;
        const [x, y] = L.toPixel(i);
        place(c.ov, L, 'cv-num', x, y, 1, 1, t);
      }
    }
  }
  // drawOutput colours the output by value (its legend gives the range);
  // values the page did not compute leave it plain.
  function drawOutput() {
    const m = st.meta, n = m.outputCount, L = gridLayout('out', m.outputSizes), vals = st.data.outVals;
    const h16 = m.dataType === 'FLOAT16' ? halves() : null, num = h16 ? (k) => h16[vals[k]] : (k) => Number(vals[k]);
    // Numbers straight from the typed array, without a call per element,
    // unless they are halves' bits or BigInts.
    const plainNums = vals && !h16 && !(vals instanceof BigInt64Array || vals instanceof BigUint64Array);
    // The ramp spans the finite values: FLOAT16 turns values past 65504
    // into infinities, which take the ramp's ends.
    const [lo, hi, loK, hiK] = vals ? outputEnds(m, vals) : [Infinity, -Infinity, 0, 0];
    const c = setup('out', L, n, (px) => {
      const px32 = new Uint32Array(px.buffer), plain = rgba(C.plain), span = hi - lo;
      const colour = !vals ? () => plain : span > 0 ? (k) => rampPacked((num(k) - lo) / span) : () => rampPacked(0.5);
      if (L.bin === 1) {
        const os = m.outputSizes, row = os.length ? os[os.length - 1] : 1;
        if (plainNums && span > 0) rowPixels(L, n, row, (k0, len, p0, off) => { for (let j = 0; j < len; j++) px32[p0 + off + j] = rampPacked((vals[k0 + j] - lo) / span); });
        else rowPixels(L, n, row, (k0, len, p0, off) => { for (let j = 0; j < len; j++) px32[p0 + off + j] = colour(k0 + j); });
        return;
      }
      // Several elements a pixel: each pixel shows its first.
      const bin = L.bin;
      if (plainNums && span > 0) pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = rampPacked((vals[k] - lo) / span); });
      else pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = colour(k); });
    });
    if (c) panelCaptions(c.ov, L, m.outputSizes, m.labels);
    const legend = $('[data-testid=slice-out-legend]');
    if (legend) {
      $('.vals', legend).hidden = !vals;
      if (vals) { $('.vmin', legend).textContent = S.valueAt(vals, loK); $('.vmax', legend).textContent = S.valueAt(vals, hiK); }
    }
  }
  // drawBuffer colours each buffer cell: read by the slice (compute's
  // bitmap), holding one input element or several, padding, unused tail.
  function drawBuffer() {
    const m = st.meta, { W, H } = bounds('b'), L = bufferStrip(m, W, H), D = st.data;
    setup('b', L, m.cells, (px) => {
      const counts = D.counts, read = D.read, last = m.last;
      const codeOf = (k) => { const h = counts[k]; return read !== null && (read[k >>> 5] >>> (k & 31)) & 1 ? 4 : h > 1 ? 3 : h === 1 ? 2 : k <= last ? 1 : 0; };
      paintStrip(px, L, m.cells, codeOf, [C.tail, C.hole, C.held, C.shared, C.copied].map(rgba));
    });
  }
  return { paint, drawInput, drawOutput, drawBuffer };
}
