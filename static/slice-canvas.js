// stridescope: the slice explorer's views of more than 4,096 cells, drawn
// on canvases (slice.js's view): the input with its window, CopyStart and
// the copied elements (compute's bitmap, from the frames), the output
// coloured by value (fill.js), the buffer with the cells read. Their
// pointer and keys link as the grids' cells do (slice-cells.js).

import { $ } from './live.js';
import { coordOf, indexOf, offsetsOf, disjoint, holderOf } from './layout.js';
import { outputEnds, sourceEnds, sourceOf, elementNum, halves, fillInput, sliceOutput, cellCounts, elementRaw, heldBits, rawText, ARRAYS } from './fill.js';
import { place, panelCaptions, rgba, rampPacked, rowPixels, inputCodes, paintStrip, paintBits, markPixels, canvasLinks } from './canvas.js';
import { clamp, box, pixelRuns, tensorLayout, bufferStrip } from './canvas-layout.js';
import { canvasRecord, measureCaption, redrawMini } from './canvas-zoom.js';

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
    const w = picture.clientWidth, H = clamp(Math.round(innerHeight * 0.7), 320, kind === 'b' ? 420 : 480);
    // Where two views do not fit side by side (a phone), each has a row
    // of its own: half the width would only make its elements smaller.
    if (kind === 'b' || wide || Math.floor(w / 2) - 60 < 240) return box(clamp(w - 60, 200, 1100), H);
    return box(clamp(Math.floor(w / 2) - 60, 240, 900), H);
  }
  // gridLayout lays a tensor out as the layout explorer's canvas does:
  // small multiples of its last two dimensions, else a block. A tensor
  // that would not be readable at half the width (a 224×224 image's
  // three channels) gets the whole width instead: its view then wraps to
  // a row of its own.
  function gridLayout(kind, sizes) {
    const n = sizes.reduce((a, b) => a * b, 1);
    const lay = (b) => [b, tensorLayout(sizes, n, st.meta.labels, b, measureCaption)];
    const [b, L] = lay(bounds(kind));
    // One that would pan at half the width (64 captioned grids, three
    // to a row) is shown whole, or pans less, at the whole width.
    const pans = L.w * L.px > b.W + 0.5 || L.h * L.px > b.H + 0.5;
    return L.bin > 1 || L.px < b.min || pans ? lay(bounds(kind, true)) : [b, L];
  }
  // setup draws a canvas: fill(rgba) paints its image, decorate(ov, view)
  // places its labels (again at each zoom); its pointer and keys link
  // like the grids' cells.
  //
  // same ({key, bits, keep}) says what the image is drawn from: when the
  // last edit's canvas is still on the page (the fragment was the same)
  // with the same key and bitmap, its image is the one this would paint,
  // and it is kept rather than painted and put again: a window turned
  // around repaints the output alone. keep(bits) then lets the page hold
  // one copy of the bitmap, not two.
  function setup(kind, [b, L], n, fill, decorate, same = null) {
    const cv = $(`#${SLOT[kind]}-canvas`);
    if (!cv) return null;
    const old = st.lastCanvases?.[kind];
    if (same && old?.same && old.cv === cv && old.same.key === same.key && sameWords(old.same.bits, same.bits)) {
      same.keep(old.same.bits);
      st.canvases[kind] = old;
      // Its labels (CopyStart, the copy order) are this edit's.
      const V = old.view;
      V.decorate = decorate;
      V.ov.replaceChildren();
      decorate?.(V.ov, V);
      paint(kind);
      return old;
    }
    // canvasRecord makes it cv.drawn too, where a test finds an
    // element's pixel, whatever the layout.
    const c = st.canvases[kind] = canvasRecord(cv, L, b, decorate);
    c.same = same;
    cv.dataset.paints = (+cv.dataset.paints || 0) + 1; // the tests tell a kept image from one painted again
    fill(c.img.data);
    paint(kind);
    redrawMini(c.view);
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
    const m = st.meta, s = m.sizes, r = s.length, n = m.inputCount, bL = gridLayout('in', s), L = bL[1];
    const inWin = s.map((size, d) => { const a = new Uint8Array(size); a.fill(1, m.windowOffsets[d], m.windowOffsets[d] + m.windowSizes[d]); return a; });
    // What the image is drawn from (its labels are placed again).
    const same = { key: JSON.stringify([L.w, L.h, L.bin, L.px, s, m.windowOffsets, m.windowSizes]),
      bits: st.data.copied, keep: (bits) => { st.data.copied = bits; } };
    setup('in', bL, n, (px) => {
      const code = inputCodes(L, n, s, inWin, st.data.copied);
      const px32 = new Uint32Array(px.buffer), cols = [0, rgba(C.outside), rgba(C.win), rgba(C.copied)];
      for (let p = 0; p < code.length; p++) if (code[p]) px32[p] = cols[code[p]];
    }, (ov, view) => {
      panelCaptions(ov, L, s, m.labels);
      if (L.panelAt) {
        // The window on each small multiple (or band of its rows) whose
        // outer coordinates and rows are in it.
        const outer = s.slice(0, r - 2), bin = L.bin, wo = m.windowOffsets[r - 2], we = wo + m.windowSizes[r - 2];
        const x0 = Math.floor(m.windowOffsets[r - 1] / bin), x1 = Math.floor((m.windowOffsets[r - 1] + m.windowSizes[r - 1] - 1) / bin) + 1;
        let drawn = 0;
        for (let b = 0; b < L.P && drawn < 256; b++) {
          const [p, r0, r1] = L.band(b), a = Math.max(wo, r0), e = Math.min(we, r1);
          if (a >= e || !coordOf(outer, p).every((v, d) => inWin[d][v])) continue;
          const [x, y] = L.panelAt(b), y0 = Math.floor((a - r0) / bin);
          place(ov, L, 'cv-win', x + x0, y + y0, x1 - x0, Math.floor((e - 1 - r0) / bin) + 1 - y0);
          drawn++;
        }
      }
      const [sx, sy] = L.toPixel(indexOf(s, m.copyStart));
      place(ov, L, 'cv-start', sx, sy, 1, 1).title = 'CopyStart';
      // Copy-order numbers where a cell is wide enough for them (zoom in
      // for more).
      if (L.bin === 1 && view.z >= 12 && m.outputCount <= 4096) {
        for (let k = 0; k < m.outputCount; k++) {
          const t = String(k);
          if (t.length * 6 + 2 > view.z) continue;
          const [x, y] = L.toPixel(indexOf(s, S.srcCoord(coordOf(m.outputSizes, k))));
          place(ov, L, 'cv-num', x, y, 1, 1, t);
        }
      }
    }, same);
  }
  // drawOutput colours the output by value (its legend gives the range);
  // values the page did not compute leave it plain. On a disjoint input
  // the values are worked out for the pixels drawn (each shows its first
  // element) from the input elements they copy: no output array.
  function drawOutput() {
    const m = st.meta, n = m.outputCount, bL = gridLayout('out', m.outputSizes), L = bL[1], D = st.data, vals = D.outVals;
    const h16 = m.dataType === 'FLOAT16' ? halves() : null, num = h16 ? (k) => h16[D.outAt(k)] : (k) => Number(D.outAt(k));
    // Numbers straight from the typed array, without a call per element,
    // unless they are halves' bits or BigInts.
    const plainNums = vals && !h16 && !(vals instanceof BigInt64Array || vals instanceof BigUint64Array);
    // The ramp spans the finite values: FLOAT16 turns values past 65504
    // into infinities, which take the ramp's ends.
    const [lo, hi, loK, hiK] = vals ? outputEnds(m, vals) : D.outAt ? sourceEnds(m) : [Infinity, -Infinity, 0, 0];
    setup('out', bL, n, (px) => {
      const px32 = new Uint32Array(px.buffer), plain = rgba(C.plain), span = hi - lo, bin = L.bin;
      const colour = !D.outAt ? () => plain : span > 0 ? (k) => rampPacked((num(k) - lo) / span) : () => rampPacked(0.5);
      if (!vals && D.outAt && span > 0) {
        const src = sourceOf(m), at = elementNum(m), ds = bin * src.step, rows = L.panelAt || m.outputSizes.length < 2;
        if (rows) pixelRuns(L, n, (p, k0, len) => { for (let j = 0, i = src(k0); j < len; j++, i += ds) px32[p + j] = rampPacked((at(i) - lo) / span); });
        else pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = rampPacked((at(src(k)) - lo) / span); });
        return;
      }
      if (L.bin === 1) {
        const os = m.outputSizes, row = os.length ? os[os.length - 1] : 1;
        if (plainNums && span > 0) rowPixels(L, n, row, (k0, len, p0, off) => { for (let j = 0; j < len; j++) px32[p0 + off + j] = rampPacked((vals[k0 + j] - lo) / span); });
        else rowPixels(L, n, row, (k0, len, p0, off) => { for (let j = 0; j < len; j++) px32[p0 + off + j] = colour(k0 + j); });
        return;
      }
      // Several elements a pixel: each pixel shows its first.
      if (plainNums && span > 0) pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = rampPacked((vals[k] - lo) / span); });
      else pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = colour(k); });
    }, (ov) => panelCaptions(ov, L, m.outputSizes, m.labels));
    const legend = $('[data-testid=slice-out-legend]');
    if (legend) {
      $('.vals', legend).hidden = !D.outAt;
      if (D.outAt) { $('.vmin', legend).textContent = S.valueAt(D.outAt(loK)); $('.vmax', legend).textContent = S.valueAt(D.outAt(hiK)); }
    }
  }
  // drawBuffer colours each buffer cell: read by the slice (compute's
  // bitmap), holding one input element or several, padding, unused tail.
  function drawBuffer() {
    const m = st.meta, b = bounds('b'), L = bufferStrip(m, b), D = st.data;
    setup('b', [b, L], m.cells, (px) => {
      const cols = [C.tail, C.hole, C.held, C.shared, C.copied].map(rgba);
      // A disjoint input's cells held, one bit each, beside the read ones.
      if (D.held) { paintBits(px, L, m.cells, m.last, [[D.read, cols[4]], [D.held, cols[2]]], cols[1], cols[0]); return; }
      const counts = D.counts, read = D.read, last = m.last;
      const codeOf = (k) => { const h = counts[k]; return read !== null && (read[k >>> 5] >>> (k & 31)) & 1 ? 4 : h > 1 ? 3 : h === 1 ? 2 : k <= last ? 1 : 0; };
      paintStrip(px, L, m.cells, codeOf, cols);
    }, null, { key: JSON.stringify([L.w, L.h, L.bin, L.px, m.sizes, m.strides, m.cells, m.last, m.dataType, m.pattern || '']), bits: D.read, keep: (bits) => { D.read = bits; } });
  }
  // sameWords says whether two bitmaps (or none) are the same.
  function sameWords(a, b) {
    if (!a || !b) return a === b;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  // canvasData completes st.data (slice.js keeps the frames' bitmaps in
  // it) with what the canvases are drawn from, computed from the meta.
  // The input's offsets, values and cell counts depend on the input
  // alone: an edit of the window or the output reuses them.
  let input = null, lastOut = null;
  function canvasData() {
    const meta = st.meta, D = st.data;
    const inCv = meta.inputMode === 'canvas', bufCv = meta.bufferMode === 'canvas', outCv = meta.outputMode === 'canvas';
    const vals = meta.fill && (inCv || bufCv || outCv);
    const key = JSON.stringify([meta.dataType, meta.sizes, meta.strides, meta.inputCount, meta.cells, meta.pattern || '']);
    if (input?.key !== key) input = { key };
    // A disjoint layout (each element a cell of its own) needs no array
    // of offsets, values or counts: its rows are walked, its holders
    // worked out, and each value follows from its element's index
    // (fill.js elementRaw), computed for the pixels drawn and the cells
    // named. Other layouts fill their buffer as the server does.
    const apart = input.apart ??= disjoint(meta.sizes, meta.strides);
    if (apart) {
      const raw = vals ? (input.raw ??= elementRaw(meta)) : null, src = raw ? sourceOf(meta) : null, zero = new ARRAYS[meta.dataType](1)[0];
      Object.assign(D, {
        offsets: null, apart, counts: null, held: bufCv ? (input.held ??= heldBits(meta)) : null,
        bufAt: raw && ((o) => { const h = holderOf(meta.sizes, meta.strides, o); return h >= 0 && h < meta.inputCount ? raw(h) : zero; }),
        outAt: raw && ((k) => raw(src(k))),
      });
      return;
    }
    const offsets = inCv || bufCv || vals ? (input.offsets ??= offsetsOf(meta.sizes, meta.strides, meta.inputCount)) : null;
    const inVals = vals ? (input.values ??= fillInput(meta, offsets)) : null, outVals = vals && outCv ? (lastOut = sliceOutput(meta, inVals, lastOut)) : null;
    Object.assign(D, {
      offsets, apart, counts: bufCv ? (input.counts ??= cellCounts(meta.cells, offsets, meta)) : null,
      inVals, outVals, bufAt: inVals && ((o) => inVals[o]), outAt: outVals && ((k) => outVals[k]),
    });
  }
  const valueAt = (v) => rawText(st.meta.dataType, v);
  return { paint, drawInput, drawOutput, drawBuffer, canvasData, valueAt };
}
