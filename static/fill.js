// stridescope: the values the slice explorer's canvases show, computed by
// the page from the result's meta rather than sent (protocol v2): the
// input buffer filled with the values and the output the slice reads from
// it, and the values written as the server writes them. The server's
// picture.FillInput and compute.Slice are the reference;
// e2e/fill_test.go checks this module against them in Chromium.

import { forRows, disjoint, offsetOf } from './layout.js';

// ARRAYS are the typed arrays of each data type's raw elements (FLOAT16
// as its bits).
export const ARRAYS = { FLOAT32: Float32Array, FLOAT64: Float64Array, FLOAT16: Uint16Array, INT8: Int8Array, UINT8: Uint8Array, INT16: Int16Array,
  UINT16: Uint16Array, INT32: Int32Array, UINT32: Uint32Array, INT64: BigInt64Array, UINT64: BigUint64Array };

// halfBits rounds a whole number 0 <= x <= 2^24 to the nearest IEEE half
// (ties to even; 65520 and above are +Inf), as Go's float32 -> half does
// for the values 1..N (exact in a float32): from the float32's bits, so
// that filling 2^24 of them costs a few operations each.
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
export function halfBits(x) {
  if (x === 0) return 0;
  f32[0] = x;
  const b = u32[0], e = (b >>> 23) - 127, rest = b & 0x1fff;
  if (e > 15) return 0x7c00;
  let m = (b & 0x7fffff) >>> 13;
  if (rest > 0x1000 || (rest === 0x1000 && (m & 1))) m++;
  const h = ((e + 15) << 10) + m; // a mantissa that rounds up to 1024 carries into the exponent
  return h >= 0x7c00 ? 0x7c00 : h;
}

// valueOf is element i's value as its typed array stores it: the typed
// pattern repeating, or i+1 (integers wrap at their width, as the typed
// array's conversion does).
function valueOf(dt, pattern) {
  if (pattern) return (i) => pattern[i % pattern.length];
  if (dt === 'FLOAT16') return (i) => halfBits(i + 1);
  if (dt === 'INT64' || dt === 'UINT64') return (i) => BigInt(i + 1);
  return (i) => i + 1;
}

// patternOf decodes meta.pattern (base64 of raw little-endian elements).
export function patternOf(meta) {
  if (!meta.pattern) return null;
  const bin = atob(meta.pattern), b = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) b[k] = bin.charCodeAt(k);
  return new ARRAYS[meta.dataType](b.buffer);
}

// fillInput fills the input's buffer of meta.cells cells: element i
// (row-major, at offsets[i]) gets its value, written last to first so
// that a cell several elements share holds the first one's. Padding
// stays 0. Without offsets the layout must be disjoint: each element is
// written where the layout's rows put it, and no array of 2^24 offsets
// is made (a fresh array of that size costs more than the filling).
export function fillInput(meta, offsets = null) {
  const buf = new ARRAYS[meta.dataType](meta.cells), value = valueOf(meta.dataType, patternOf(meta));
  if (offsets) for (let i = meta.inputCount - 1; i >= 0; i--) buf[offsets[i]] = value(i);
  else forRows(meta.sizes, meta.strides, meta.inputCount, (i0, o0, len, s) => { for (let j = 0, o = o0; j < len; j++, o += s) buf[o] = value(i0 + j); });
  return buf;
}

// sliceOutput is the output DML_SLICE1 copies from buf: output element k
// (row-major) reads the input element at CopyStart + InputWindowStrides x
// its coordinate. It writes into into when that is an array of buf's type
// and the output's length (an edit's output replaces the last one's),
// else into a new one. Rows of 16 or more elements at a step of +1 or -1
// are copied (and reversed) by the typed arrays' own methods: at 2^24
// elements that is several times faster than element by element. The
// rows are visited with the outer dimension of the smallest input step
// innermost: an NHWC input read as NCHW then reads each of its rows once
// for all its channels, not once per channel (16 passes over 32 MiB at
// 1x16x1024x1024).
export function sliceOutput(meta, buf, into = null) {
  const sz = meta.outputSizes, r = sz.length, n = meta.outputCount;
  const out = into && into.constructor === buf.constructor && into.length === n ? into : new buf.constructor(n);
  if (n === 0) return out;
  const step = meta.windowStrides.map((w, d) => w * meta.strides[d]);
  const nL = sz[r - 1], sL = step[r - 1], whole = nL >= 16 && (sL === 1 || sL === -1);
  // ostep[d]: the output elements from one index of dimension d to the next.
  const ostep = new Array(r);
  for (let d = r - 1, p = 1; d >= 0; d--) { ostep[d] = p; p *= sz[d]; }
  // The outer dimensions, largest input step outermost.
  const order = sz.slice(0, r - 1).map((_, d) => d).sort((a, b) => Math.abs(step[b]) - Math.abs(step[a]) || a - b);
  const at = new Array(r).fill(0);
  let off = meta.copyStart.reduce((s, c, d) => s + c * meta.strides[d], 0), k = 0;
  for (let rows = n / nL; rows > 0; rows--) {
    if (!whole) for (let j = 0, o = off, q = k; j < nL; j++, o += sL) out[q++] = buf[o];
    else if (sL === 1) out.set(buf.subarray(off, off + nL), k);
    else { out.set(buf.subarray(off - nL + 1, off + 1), k); out.subarray(k, k + nL).reverse(); }
    for (let i = order.length - 1; i >= 0; i--) {
      const d = order[i];
      off += step[d]; k += ostep[d];
      if (++at[d] < sz[d]) break;
      off -= step[d] * sz[d]; k -= ostep[d] * sz[d]; at[d] = 0;
    }
  }
  return out;
}

// half widens an IEEE half's bits.
export function half(h) {
  const e = (h >> 10) & 31, f = h & 1023, s = h & 0x8000 ? -1 : 1;
  if (e === 31) return f ? NaN : s * Infinity;
  return e ? s * 2 ** (e - 15) * (1 + f / 1024) : s * 2 ** -14 * (f / 1024);
}
// halves is every half's value by its bits, built once: the output of a
// FLOAT16 slice looks up millions of them.
let halfTable = null;
export function halves() {
  if (!halfTable) { halfTable = new Float64Array(65536); for (let h = 0; h < 65536; h++) halfTable[h] = half(h); }
  return halfTable;
}

// valueText writes element k of a data type's raw elements (arr, as
// ARRAYS holds them) as the server writes values: floats as Go's
// strconv 'g' does, the integers in full.
export function valueText(dataType, arr, k) { return rawText(dataType, arr[k]); }
// rawText writes one raw element v (as ARRAYS holds it) as valueText does.
export function rawText(dataType, v) {
  if (dataType === 'FLOAT16') return goText(half(v), true);
  return dataType === 'FLOAT32' ? goText(v, true) : dataType === 'FLOAT64' ? goText(v, false) : String(v);
}

// goText writes a float as the server does (Go's strconv 'g', shortest;
// f32: the shortest that reads back as the same float32).
export function goText(x, f32) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  let t = x.toExponential();
  if (f32) for (let p = 0; p < 9; p++) { t = x.toExponential(p); if (Math.fround(+t) === x) break; }
  let [m, e] = t.split('e');
  const neg = m[0] === '-', d = m.replace('-', '').replace('.', ''), exp = +e;
  if (exp < -4 || exp >= 6) m = d[0] + (d.length > 1 ? '.' + d.slice(1) : '') + 'e' + (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0');
  else if (exp < 0) m = '0.' + '0'.repeat(-exp - 1) + d;
  else m = d.length > exp + 1 ? d.slice(0, exp + 1) + '.' + d.slice(exp + 1) : d + '0'.repeat(exp + 1 - d.length);
  return (neg ? '-' : '') + m;
}

// outputEnds is [lo, hi, loK, hiK] of the output vals (sliceOutput's, of
// meta): its least and greatest finite values and an output element that
// holds each (lo Infinity and hi -Infinity when none is finite).
//
// With the values 1, 2, 3 ... N (no pattern) on an input whose elements
// have cells of their own, element e's cell holds e+1 as its type stores
// it, which never decreases as e grows while the type does not wrap. The
// output reads element CopyStart + InputWindowStrides x its coordinate,
// which is least and greatest at two corners of the output: the ends are
// there, and 2^24 values need not be looked at. Otherwise (and when a
// corner's value is not finite) every value is.
export function outputEnds(meta, vals) {
  const h16 = meta.dataType === 'FLOAT16' ? halves() : null, n = meta.outputCount, num = h16 ? (k) => h16[vals[k]] : (k) => Number(vals[k]);
  if (n > 0 && !meta.pattern && meta.inputCount <= (WRAP[meta.dataType] ?? 0) && disjoint(meta.sizes, meta.strides)) {
    const os = meta.outputSizes, ws = meta.windowStrides, r = os.length;
    let loK = 0, hiK = 0;
    for (let d = 0, step = n; d < r; d++) {
      step /= os[d];
      const far = (os[d] - 1) * step; // the output's last index along d
      if (ws[d] < 0) loK += far; else hiK += far;
    }
    const lo = num(loK), hi = num(hiK);
    if (Number.isFinite(lo) && Number.isFinite(hi)) return [lo, hi, loK, hiK];
  }
  const plain = !h16 && !(vals instanceof BigInt64Array || vals instanceof BigUint64Array);
  const ends = plain ? finiteEnds(vals, n) : h16 ? halfEnds(vals, n, h16) : null;
  if (ends) return ends;
  let lo = Infinity, hi = -Infinity, loK = 0, hiK = 0;
  for (let k = 0; k < n; k++) { const v = num(k); if (!Number.isFinite(v)) continue; if (v < lo) { lo = v; loK = k; } if (v > hi) { hi = v; hiK = k; } }
  return [lo, hi, loK, hiK];
}

// WRAP is the most elements each type numbers 1 ... N without wrapping.
const WRAP = { FLOAT32: Infinity, FLOAT64: Infinity, FLOAT16: Infinity, INT8: 127, UINT8: 255, INT16: 32767, UINT16: 65535,
  INT32: 2 ** 31 - 1, UINT32: 2 ** 32 - 1, INT64: Infinity, UINT64: Infinity };

// finiteEnds is [lo, hi, loK, hiK]: the least and greatest of the first n
// numbers of vals and the first index of each, or null when one of them
// is not finite (the caller's element-by-element pass then skips those).
// Math.min and Math.max over two lanes, then the typed array's own
// indexOf: at 2^24 values several times faster than comparing and
// keeping indices element by element.
export function finiteEnds(vals, n) {
  let lo0 = Infinity, hi0 = -Infinity, lo1 = Infinity, hi1 = -Infinity, k = 0;
  for (; k + 1 < n; k += 2) { const v = vals[k], w = vals[k + 1]; lo0 = Math.min(lo0, v); hi0 = Math.max(hi0, v); lo1 = Math.min(lo1, w); hi1 = Math.max(hi1, w); }
  if (k < n) { lo0 = Math.min(lo0, vals[k]); hi0 = Math.max(hi0, vals[k]); }
  const lo = Math.min(lo0, lo1), hi = Math.max(hi0, hi1);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return null; // NaN, an infinity, or no values
  const sub = n === vals.length ? vals : vals.subarray(0, n);
  return [lo, hi, sub.indexOf(lo), sub.indexOf(hi)];
}
// halfEnds is finiteEnds for FLOAT16 bits (h16: each half's value by its
// bits): which of the 65,536 halves occur, then the finite least and
// greatest among them; null when none is finite.
export function halfEnds(bits, n, h16) {
  const seen = new Uint8Array(65536);
  for (let k = 0; k < n; k++) seen[bits[k]] = 1;
  let lo = Infinity, hi = -Infinity;
  for (let h = 0; h < 65536; h++) if (seen[h]) { const v = h16[h]; if (v - v === 0) { if (v < lo) lo = v; if (v > hi) hi = v; } }
  if (lo > hi) return null;
  const sub = n === bits.length ? bits : bits.subarray(0, n), first = (v) => {
    let at = -1; // the first element of value v, whichever of its bits (±0) it has
    for (let h = 0; h < 65536; h++) if (seen[h] && h16[h] === v) { const i = sub.indexOf(h); if (i >= 0 && (at < 0 || i < at)) at = i; }
    return at;
  };
  return [lo, hi, first(lo), first(hi)];
}
// cellCounts is how many elements each buffer cell holds, 255 meaning
// 255 or more. Without offsets the layout (meta's) must be disjoint:
// each cell its rows reach holds one.
export function cellCounts(cells, offsets, meta = null) {
  const c = new Uint8Array(cells);
  if (offsets) for (let i = 0; i < offsets.length; i++) { if (c[offsets[i]] < 255) c[offsets[i]]++; }
  else forRows(meta.sizes, meta.strides, meta.inputCount, (i0, o0, len, s) => { if (s === 1) c.fill(1, o0, o0 + len); else for (let j = 0, o = o0; j < len; j++, o += s) c[o] = 1; });
  return c;
}

// ---- values worked out where they are drawn ----
// On an input whose elements have cells of their own (disjoint), a cell
// holds its one element's value, so an input or output element's value
// follows from its index: the canvases ask for the ones their pixels
// show, and no buffer or output of 2^24 values is made.

// elementRaw is (i) => element i's value as its typed array stores it
// (the type's own conversion: integers wrap, FLOAT16 as its bits).
export function elementRaw(meta) {
  const cell = new ARRAYS[meta.dataType](1), value = valueOf(meta.dataType, patternOf(meta));
  return (i) => { cell[0] = value(i); return cell[0]; };
}
// elementNum is (i) => element i's value as a number: i + 1 itself where
// the type holds 1..N exactly.
export function elementNum(meta) {
  const dt = meta.dataType;
  if (!meta.pattern && meta.inputCount <= (WRAP[dt] ?? 0) && dt !== 'FLOAT16' && dt !== 'INT64' && dt !== 'UINT64') return dt === 'FLOAT32' ? (i) => Math.fround(i + 1) : (i) => i + 1;
  const raw = elementRaw(meta), h16 = dt === 'FLOAT16' ? halves() : null;
  return h16 ? (i) => h16[raw(i)] : (i) => Number(raw(i));
}
// sourceOf is (k) => the input element (row-major) output element k
// copies: CopyStart + InputWindowStrides x k's coordinate; step is the
// input elements between two neighbours along the output's last axis.
export function sourceOf(meta) {
  const sz = meta.sizes, r = sz.length, pitch = new Array(r);
  for (let d = r - 1, p = 1; d >= 0; d--) { pitch[d] = p; p *= sz[d]; }
  const base = meta.copyStart.reduce((a, c, d) => a + c * pitch[d], 0), steps = meta.windowStrides.map((w, d) => w * pitch[d]);
  const f = (k) => base + offsetOf(meta.outputSizes, steps, k);
  f.step = r ? steps[r - 1] : 0;
  f.rows = (g) => forRows(meta.outputSizes, steps, meta.outputCount, (k0, o0, len, s) => g(k0, base + o0, len, s));
  return f;
}
// sourceEnds is outputEnds for a disjoint input without its values: the
// corners where they tell, else which values occur, by key: the values
// repeat with a period (a typed pattern, integers that wrap), or are
// +Inf from element 65519 on (FLOAT16's 1..N), so one pass over the
// output's source indices marks the keys met, with no array per element.
export function sourceEnds(meta) {
  const n = meta.outputCount, num = elementNum(meta), src = sourceOf(meta), dt = meta.dataType;
  if (n > 0 && !meta.pattern && meta.inputCount <= (WRAP[dt] ?? 0)) {
    const os = meta.outputSizes, ws = meta.windowStrides;
    let loK = 0, hiK = 0;
    for (let d = 0, step = n; d < os.length; d++) {
      step /= os[d];
      const far = (os[d] - 1) * step;
      if (ws[d] < 0) loK += far; else hiK += far;
    }
    const lo = num(src(loK)), hi = num(src(hiK));
    if (Number.isFinite(lo) && Number.isFinite(hi)) return [lo, hi, loK, hiK];
  }
  const P = meta.pattern ? patternOf(meta).length : { INT8: 256, UINT8: 256, INT16: 65536, UINT16: 65536 }[dt] ?? 0;
  if (!P && dt !== 'FLOAT16') { // not met by a canvas's 2^24 elements: INT32 and wider do not wrap there
    let lo = Infinity, hi = -Infinity, loK = 0, hiK = 0;
    src.rows((k0, i0, len, s) => { for (let j = 0, i = i0; j < len; j++, i += s) { const v = num(i); if (v < lo) { lo = v; loK = k0 + j; } if (v > hi) { hi = v; hiK = k0 + j; } } });
    return [lo, hi, loK, hiK];
  }
  const keys = P || 65520, first = new Int32Array(keys).fill(-1);
  src.rows((k0, i0, len, s) => {
    for (let j = 0, i = i0; j < len; j++, i += s) { const q = P ? i % P : Math.min(i, keys - 1); if (first[q] < 0) first[q] = k0 + j; }
  });
  let lo = Infinity, hi = -Infinity, loK = 0, hiK = 0;
  for (let q = 0; q < keys; q++) {
    const k = first[q];
    if (k < 0) continue;
    const v = num(q);
    if (!Number.isFinite(v)) continue;
    if (v < lo || (v === lo && k < loK)) { lo = v; loK = k; }
    if (v > hi || (v === hi && k < hiK)) { hi = v; hiK = k; }
  }
  return [lo, hi, loK, hiK];
}
// heldBits is a disjoint layout's cells that hold an element, one bit a
// cell (2 MiB at 2^24 cells, where counts take a byte each).
export function heldBits(meta) {
  const w = new Uint32Array(Math.ceil(meta.cells / 32));
  forRows(meta.sizes, meta.strides, meta.inputCount, (i0, o0, len, s) => {
    if (s === 1) { setRun(w, o0, o0 + len); return; }
    for (let j = 0, o = o0; j < len; j++, o += s) w[o >>> 5] |= 1 << (o & 31);
  });
  return w;
}
// setRun sets bits [a, b) of a bitmap of 32-bit words, whole words at once.
export function setRun(w, a, b) {
  for (; a < b && a & 31; a++) w[a >>> 5] |= 1 << (a & 31);
  const whole = (b - a) >>> 5;
  if (whole) { w.fill(~0, a >>> 5, (a >>> 5) + whole); a += whole << 5; }
  for (; a < b; a++) w[a >>> 5] |= 1 << (a & 31);
}
