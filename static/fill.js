// stridescope: the values the slice explorer's canvases show, computed by
// the page from the result's meta rather than sent (protocol v2): the
// input buffer filled with the values and the output the slice reads from
// it. The server's picture.FillInput and compute.Slice are the reference;
// e2e/fill_test.go checks this module against them in Chromium.

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
// stays 0.
export function fillInput(meta, offsets) {
  const buf = new ARRAYS[meta.dataType](meta.cells), value = valueOf(meta.dataType, patternOf(meta));
  for (let i = meta.inputCount - 1; i >= 0; i--) buf[offsets[i]] = value(i);
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

// cellCounts is how many elements each buffer cell holds, 255 meaning
// 255 or more.
export function cellCounts(cells, offsets) {
  const c = new Uint8Array(cells);
  for (let i = 0; i < offsets.length; i++) if (c[offsets[i]] < 255) c[offsets[i]]++;
  return c;
}
