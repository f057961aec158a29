// stridescope: what the explorers' canvases (explorer.js,
// slice-canvas.js) share for views above the DOM limit: their pointer and
// keys, their labels, marks and colours. Where each item goes is
// canvas-layout.js's; zooming and panning canvas-zoom.js's.

import { coordOf as coordIn, indexOf, moveCoord, offsetOf } from './layout.js';
import { clamp, pixelRuns, captionOf } from './canvas-layout.js';

// canvasKey is where a key moves a canvas's cursor from item k of n: over
// a tensor's elements (sizes given) as in the DOM grids (moveCoord), over
// buffer cells by one, by a row of the strip (L.step), by sixteen rows
// (PageUp, PageDown) or to the row's ends. -1: the key does not move.
export function canvasKey(key, k, n, L, sizes) {
  if (sizes) { const co = coordIn(sizes, k); return moveCoord(sizes, co, key) ? indexOf(sizes, co) : -1; }
  const row = k - (k % L.step);
  const to = { ArrowRight: k + 1, ArrowLeft: k - 1, ArrowDown: k + L.step, ArrowUp: k - L.step,
    PageDown: k + 16 * L.step, PageUp: k - 16 * L.step, Home: row, End: Math.min(row + L.step, n) - 1 }[key];
  return to === undefined ? -1 : clamp(to, 0, n - 1);
}
// NAV_KEYS are the keys a canvas takes rather than the page (no scrolling).
export const NAV_KEYS = new Set(['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End']);
// canvasLinks makes a canvas's pointer and keys link as the grids' cells
// do: pick(k, focus) shows item k (focus: clicked, or reached with the
// keys, so it stays). c is the canvas's record ({L, cursor}); sizes()
// the tensor's sizes when its items are elements, at the time of the key
// (null: buffer cells).
export function canvasLinks(cv, c, n, sizes, pick) {
  const L = c.L;
  // The image's box, whatever its zoom: the canvas's less its border.
  const at = (e) => {
    const r = cv.getBoundingClientRect(), x = (e.clientX - r.left - cv.clientLeft) / cv.clientWidth, y = (e.clientY - r.top - cv.clientTop) / cv.clientHeight;
    return x < 0 || y < 0 || x >= 1 || y >= 1 ? -1 : L.fromPixel(Math.floor(x * L.w), Math.floor(y * L.h));
  };
  // One lookup per frame, of the latest position (a buffer cell's
  // holders scan every offset): a fast pointer is not left behind.
  let raf = 0, last = -1;
  cv.onpointermove = (e) => {
    last = at(e);
    if (last >= 0 && !raf) raf = requestAnimationFrame(() => { raf = 0; if (last >= 0) pick(last, false); });
  };
  cv.onclick = (e) => { const k = at(e); if (k >= 0) { c.cursor = k; pick(k, true); } };
  // The keys move as in the DOM grids; #dot, a live region, names the
  // cell reached.
  cv.onkeydown = (e) => {
    if (!NAV_KEYS.has(e.key) || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) return; // Shift pans (canvas-zoom.js)
    e.preventDefault();
    // With nothing selected yet the first key (or arrow button)
    // selects the first element rather than moving past it.
    const k = c.cursor < 0 ? 0 : canvasKey(e.key, c.cursor, n, L, sizes());
    if (k >= 0) { c.cursor = k; pick(k, true); }
  };
  cv.onfocus = () => pick(Math.max(0, c.cursor), true);
}
// offsetRamp colours each pixel of layout L (n elements of a layout of
// the given sizes and strides) by its element's buffer offset over span,
// into px32. offsets holds them, or is null: then they are worked out,
// along a run of pixels by one step of the last dimension's stride where
// a run keeps to one row of it (small multiples, one dimension).
export function offsetRamp(px32, L, n, sizes, strides, offsets, span) {
  const bin = L.bin, r = sizes.length;
  if (offsets) { pixelRuns(L, n, (p, i0, len) => { for (let j = 0, i = i0; j < len; j++, i += bin) px32[p + j] = rampPacked(offsets[i] / span); }); return; }
  if (L.panelAt || r === 1) {
    const ds = bin * strides[r - 1];
    pixelRuns(L, n, (p, i0, len) => { for (let j = 0, o = offsetOf(sizes, strides, i0); j < len; j++, o += ds) px32[p + j] = rampPacked(o / span); });
  } else pixelRuns(L, n, (p, i0, len) => { for (let j = 0, i = i0; j < len; j++, i += bin) px32[p + j] = rampPacked(offsetOf(sizes, strides, i) / span); });
}
// place puts an element of class cls over the image pixels [x, x+w) x [y, y+h).
export function place(ov, L, cls, x, y, w, h, text = '') {
  const el = document.createElement('span');
  el.className = cls;
  if (text) el.textContent = text;
  Object.assign(el.style, { left: (100 * x) / L.w + '%', top: (100 * y) / L.h + '%', width: (100 * w) / L.w + '%', height: (100 * h) / L.h + '%' });
  ov.append(el);
  return el;
}
// panelCaptions names each small multiple by its outer coordinates, as
// the DOM view does ("N=0, C=1"; size-1 dimensions say nothing; from
// three on shortened, "d2..d5 = 0,1,0,1"), and a band of a grid's rows
// by them too ("H=0..31"). A caption takes its panel's slot, which the
// layout made wide enough for it.
export function panelCaptions(ov, L, sizes, labels) {
  if (!L.cap) return;
  const outer = sizes.slice(0, sizes.length - 2);
  for (let b = 0; b < L.P; b++) {
    const [p, r0, r1] = L.band(b), [x, y] = L.panelAt(b);
    const text = captionOf(outer, labels, p, L.nch > 1 ? [r0, r1] : null);
    place(ov, L, 'cv-cap', x, y - L.cap, L.sx - L.gap, L.cap, text).dataset.testid = 'canvas-caption';
  }
}
// markPixels draws marks over a canvas's image: groups are [items, rgb]
// pairs, each item a red (or yellow) pixel, ringed when the cells are
// small and few. Only the pixels the last marks covered are put back
// from the image (c.dirty), not the whole image: a hover on a canvas of a
// million cells repaints a few pixels, not four megabytes.
export function markPixels(c, groups) {
  const ctx = c.ctx, L = c.L;
  if (!c.dirty) ctx.putImageData(c.img, 0, 0);
  else for (const [x, y, w, h] of c.dirty) ctx.putImageData(c.img, 0, 0, x, y, w, h);
  const dirty = [], z = c.view ? c.view.z : L.px;
  // A ring of about 12 CSS pixels at the view's zoom.
  const r = Math.max(4.5, 6 / z), lw = Math.max(1.5, 2 / z), e = Math.ceil(r + lw);
  let first = null;
  for (const [ks, col] of groups) {
    if (!ks || !ks.length) continue;
    ctx.fillStyle = ctx.strokeStyle = `rgb(${col})`;
    const ring = z < 4 && ks.length <= 64;
    first = ks[0];
    for (const k of ks.slice(0, 100000)) {
      const [x, y] = L.toPixel(k);
      ctx.fillRect(x, y, 1, 1);
      if (ring) { ctx.lineWidth = lw; ctx.strokeRect(x + 0.5 - r, y + 0.5 - r, 2 * r, 2 * r); }
      if (dirty.length <= 256) dirty.push(ring ? [x - e, y - e, 2 * e + 1, 2 * e + 1] : [x, y, 1, 1]); // past 256: the whole image
    }
  }
  // Many marks: the whole image next time, as cheap as many rectangles.
  c.dirty = dirty.length <= 256 ? dirty : null;
  // What each group marks, kept for the browser tests: what a canvas
  // lights is read from it, not guessed from its pixels' colours.
  c.marks = groups.map(([ks]) => ks || []);
  // The last group's first mark (the selection) is brought into sight
  // on a view zoomed past its box.
  if (first !== null && c.view) c.view.reveal(...L.toPixel(first));
}
// itemBox is item k of a canvas (its record c) as the step-through
// (copy-steps.js) takes a lit cell: its box on the screen, at least the
// ring's 12 CSS pixels about its pixel, and whether it is on the page;
// it is kept clear of the bar as a cell is.
export function itemBox(c, k) {
  return {
    get isConnected() { return c.cv.isConnected; },
    getBoundingClientRect() {
      const cv = c.cv, r = cv.getBoundingClientRect(), [x, y] = c.L.toPixel(k);
      const sx = cv.clientWidth / c.L.w, sy = cv.clientHeight / c.L.h, w = Math.max(12, sx), h = Math.max(12, sy);
      return new DOMRect(r.left + cv.clientLeft + (x + 0.5) * sx - w / 2, r.top + cv.clientTop + (y + 0.5) * sy - h / 2, w, h);
    },
  };
}
// rgba packs a colour as one pixel of a Uint32Array over ImageData
// (little-endian, as every browser is).
export const rgba = ([r, g, b]) => (r | (g << 8) | (b << 16) | (255 << 24)) >>> 0;
// RAMP_STEPS levels of ramp, packed: a canvas of millions of values looks
// each one up rather than building a colour per pixel. Neighbouring levels
// differ by at most one unit of a channel; both ends are exact.
// The table is made on first use: a page without a canvas never needs it,
// and making it was 3-5 ms of every page's module start on a slow core.
const RAMP_STEPS = 4096;
let RAMP = null;
export function rampPacked(t) {
  RAMP ??= Uint32Array.from({ length: RAMP_STEPS + 1 }, (_, k) => rgba(ramp(k / RAMP_STEPS)));
  if (!(t > 0)) return RAMP[0]; // NaN too, as in ramp
  return RAMP[t >= 1 ? RAMP_STEPS : (t * RAMP_STEPS + 0.5) | 0]; // Math.round, as a canvas's millions of calls inline it
}
// rowPixels calls f(i0, len, p0, off) for each row of the last dimension
// (len = C items from item i0): item i0 + j is drawn at image pixel
// p0 + floor((off + j) / L.bin), so that a canvas of millions of items
// needs no pixel lookup per item.
export function rowPixels(L, n, C, f) {
  for (let i = 0; i < n; i += C) {
    const len = Math.min(C, n - i);
    if (L.panelAt) f(i, len, L.at(i), 0); // a row starts a panel's row of pixels
    else f(i, len, 0, i); // a strip: item k at pixel floor(k / bin)
  }
}
// inputCodes classes each pixel of the slice input's layout L (n elements
// of the given sizes, rows of the last dimension): 3 where an element the
// slice copies is (bit i of the Uint32Array copied, null for none), else 2
// where an element inside the window is (inWin[d][v]: coordinate v of
// dimension d is inside it), else 1; 0 where no element is. Where elements
// share a pixel the highest class shows. It works a pixel, not an element,
// at a time on the window and 32 elements at a time on the copied bitmap:
// 2^24 elements on a 1024 x 1024 image cost about a million steps.
export function inputCodes(L, n, sizes, inWin, copied) {
  const r = sizes.length, C = r ? sizes[r - 1] : 1, last = r ? inWin[r - 1] : [1], bin = L.bin;
  const code = new Uint8Array(L.w * L.h), co = new Array(r).fill(0);
  // cum[j]: the columns before j inside the window, so that a pixel's
  // columns [a, b) hold one iff cum[b] > cum[a].
  const cum = new Uint32Array(C + 1);
  for (let j = 0; j < C; j++) cum[j + 1] = cum[j] + (last[j] ? 1 : 0);
  const rowIn = bin === 1 ? Uint8Array.from({ length: C }, (_, j) => (last[j] ? 2 : 1)) : null;
  let outer = 0; // outer coordinates of this row outside the window
  for (let d = 0; d < r - 1; d++) if (!inWin[d][0]) outer++;
  // The rows of a panel that share a row of pixels give it the same
  // window classes unless one is inside the window where another is not:
  // each pixel row's window part is worked out once (twice at most), not
  // once per element row.
  let doneAt = -1, doneIn = false;
  rowPixels(L, n, C, (i0, len, p0, off) => {
    // Element i0 + j is at pixel p0 + floor((off + j) / bin).
    const again = L.panelAt && p0 === doneAt && (doneIn || outer);
    if (p0 !== doneAt) { doneAt = p0; doneIn = false; }
    doneIn ||= !outer;
    if (again) { // the window part is there
    } else if (bin === 1) {
      if (outer) code.fill(1, p0 + off, p0 + off + len);
      else code.set(len === C ? rowIn : rowIn.subarray(0, len), p0 + off);
    } else {
      for (let x = Math.floor(off / bin), xe = Math.floor((off + len - 1) / bin); x <= xe; x++) {
        const a = Math.max(x * bin - off, 0), b = Math.min((x + 1) * bin - off, len);
        const v = !outer && cum[b] > cum[a] ? 2 : 1;
        if (v > code[p0 + x]) code[p0 + x] = v;
      }
    }
    if (copied) {
      const end = i0 + len;
      // Whole words next to each other make one run of pixels, filled once.
      let runA = 0, runB = -1;
      for (let w = i0 >>> 5, we = (end - 1) >>> 5; w <= we; w++) {
        let bits = copied[w];
        if (!bits) continue;
        const lo = w * 32;
        if (lo < i0) bits &= ~0 << (i0 - lo); // bits of the row only
        if (lo + 32 > end) bits &= ~0 >>> (lo + 32 - end);
        if (bits === -1 || bits === 0xffffffff) { // 32 elements, a run of pixels
          const a = p0 + Math.floor((off + lo - i0) / bin), b = p0 + Math.floor((off + lo + 31 - i0) / bin) + 1;
          if (a > runB) { if (runB > runA) code.fill(3, runA, runB); runA = a; }
          runB = b;
          continue;
        }
        while (bits) {
          const b = 31 - Math.clz32(bits & -bits); // the lowest set bit
          bits &= bits - 1;
          code[p0 + Math.floor((off + lo + b - i0) / bin)] = 3;
        }
      }
      if (runB > runA) code.fill(3, runA, runB);
    }
    for (let d = r - 2; d >= 0; d--) { // the next row's outer coordinate
      if (!inWin[d][co[d]]) outer--;
      if (++co[d] < sizes[d]) { if (!inWin[d][co[d]]) outer++; break; }
      co[d] = 0;
      if (!inWin[d][0]) outer++;
    }
  });
  return code;
}
// paintStrip colours a strip layout's image px (RGBA bytes) from codeOf(k),
// the class of each of n items: cols[code] packed (rgba); where items share
// a pixel the highest code shows, and pixels past the items take cols[0].
export function paintStrip(px, L, n, codeOf, cols) {
  const px32 = new Uint32Array(px.buffer), bin = L.bin;
  if (bin === 1) { // strip pixels are in item order
    for (let k = 0; k < n; k++) px32[k] = cols[codeOf(k)];
    px32.fill(cols[0], n);
    return;
  }
  // Each pixel's items in one run, stopping at the top code: no division
  // per item, and a pixel of read cells costs one look.
  const top = cols.length - 1;
  let p = 0;
  for (let k = 0; k < n; p++) {
    const end = Math.min(k + bin, n);
    let v = 0;
    for (; k < end; k++) { const c = codeOf(k); if (c > v) { v = c; if (v === top) { k = end; break; } } }
    px32[p] = cols[v];
  }
  px32.fill(cols[0], p);
}
// paintCounts colours a buffer strip's image px from counts, how many
// elements each of its cells holds: cols[3] where a pixel's cells hold a
// shared one, else cols[2] where they hold an element, else cols[1] (a
// hole) up to cell last, cols[0] past it. A pixel's code is its cells'
// largest count, found in one pass over the bytes with no call per cell:
// 2^24 cells cost one scan.
export function paintCounts(px, L, counts, last, cols) {
  const px32 = new Uint32Array(px.buffer), bin = L.bin, n = counts.length;
  // Four cells a word where a pixel's cells start on one: a byte of 2 or
  // more sets a bit of 0xFE.
  const c32 = bin % 4 === 0 && counts.byteOffset % 4 === 0 ? new Uint32Array(counts.buffer, counts.byteOffset, n >>> 2) : null;
  let p = 0;
  for (let k = 0; k < n; p++) {
    const end = Math.min(k + bin, n), k0 = k;
    let v = 0;
    if (c32) {
      for (let j = k >>> 2, je = end >>> 2; j < je; j++) {
        const w = c32[j];
        if (w & 0xfefefefe) { v = 2; break; }
        if (w) v = 1;
      }
      k = v > 1 ? end : end & ~3;
    }
    for (; k < end; k++) if (counts[k] > v) { v = counts[k]; if (v > 1) { k = end; break; } }
    px32[p] = cols[v > 1 ? 3 : v === 1 ? 2 : k0 <= last ? 1 : 0];
  }
  px32.fill(cols[0], p);
}
// anyBit says whether a bitmap of 32-bit words (compute's, from the
// frames) has a bit set in [a, b): a word at a time.
export function anyBit(w, a, b) {
  if (a >= b) return false;
  let i = a >>> 5;
  const j = (b - 1) >>> 5, lo = ~0 << (a & 31), hi = ~0 >>> (31 - ((b - 1) & 31));
  if (i === j) return (w[i] & lo & hi) !== 0;
  if (w[i] & lo) return true;
  for (i++; i < j; i++) if (w[i]) return true;
  return (w[j] & hi) !== 0;
}
// paintBits colours a buffer strip's image px (n cells) from bitmaps:
// layers are [bits, colour] pairs (packed, rgba), the first whose bitmap
// has a bit among a pixel's cells showing; else hole up to cell last,
// tail past it. The bitmaps are the frames' own words, looked at a pixel
// at a time: no array of a byte per cell is made, and 2^24 cells cost
// about one step per pixel and layer.
export function paintBits(px, L, n, last, layers, hole, tail) {
  const px32 = new Uint32Array(px.buffer), bin = L.bin;
  let p = 0, k = 0;
  if (32 % bin === 0) [p, k] = wordPixels(px32, bin, n, last, layers, hole, tail);
  for (; k < n; k += bin, p++) {
    const end = Math.min(k + bin, n);
    let col = k <= last ? hole : tail;
    for (const [bits, c] of layers) if (bits && anyBit(bits, k, end)) { col = c; break; }
    px32[p] = col;
  }
  px32.fill(tail, p);
}
// wordPixels is paintBits over the whole words of the bitmaps where a
// pixel's cells lie in one word (bin divides 32): a word of none or all
// of one layer's bits is a run of pixels filled at once. It returns the
// pixel and the cell it stopped at.
function wordPixels(px32, bin, n, last, layers, hole, tail) {
  const ppw = 32 / bin, mask = bin === 32 ? ~0 : (1 << bin) - 1, words = n >>> 5, L = layers.filter(([b]) => b);
  const [a, ca] = L[0] || [null, 0], [b, cb] = L[1] || [null, 0];
  if (L.length > 2) return [0, 0];
  // Words of one colour next to each other are one fill: a packed
  // buffer of 2^24 cells is one call, not half a million.
  let runP = 0, runC = -1;
  const flush = (p) => { if (runC >= 0 && p > runP) px32.fill(runC, runP, p); runC = -1; };
  for (let i = 0, p = 0; i <= words; i++, p += ppw) {
    if (i === words) { flush(p); break; }
    const x = a ? a[i] : 0, y = b ? b[i] : 0, k = i << 5;
    const c = x === 0xffffffff ? ca : x === 0 && y === 0xffffffff ? cb : x === 0 && y === 0 && k + 31 <= last ? hole : -1;
    if (c >= 0) { if (c !== runC) { flush(p); runC = c; runP = p; } continue; }
    flush(p);
    for (let q = 0, sh = 0; q < ppw; q++, sh += bin) {
      px32[p + q] = (x >>> sh) & mask ? ca : (y >>> sh) & mask ? cb : k + sh <= last ? hole : tail;
    }
  }
  return [words * ppw, words << 5];
}
// ramp maps 0..1 to a dark-blue -> teal -> yellow scale.
const RAMP_STOPS = [[29, 53, 87], [33, 113, 181], [42, 157, 143], [233, 196, 106]];
export function ramp(t) {
  if (Number.isNaN(t)) t = 0; // a NaN value (FLOAT16 NaN) takes the low end rather than breaking the index
  const s = RAMP_STOPS, x = Math.min(Math.max(t, 0), 1) * (s.length - 1), k = Math.min(Math.floor(x), s.length - 2), f = x - k;
  return s[k].map((v, j) => Math.round(v + (s[k + 1][j] - v) * f));
}
