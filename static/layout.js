// stridescope: the layout maths the live pages share, free of the DOM:
// coordinates and indices, buffer offsets from sizes and strides, which
// element a buffer cell holds, whether a layout's elements overlap.

// moveCoord moves a row-major coordinate of a tensor of the given sizes by
// an arrow key (the last dimension across, the one before it down,
// PageUp/PageDown the third-innermost), Home or End. It returns false
// when the key does not move.
export function moveCoord(sizes, co, key) {
  const r = sizes.length;
  const step = (d, by) => { if (d >= 0 && co[d] + by >= 0 && co[d] + by < sizes[d]) { co[d] += by; return true; } return false; };
  const moves = { ArrowRight: () => step(r - 1, 1), ArrowLeft: () => step(r - 1, -1), ArrowDown: () => step(r - 2, 1), ArrowUp: () => step(r - 2, -1),
    PageDown: () => step(r - 3, 1), PageUp: () => step(r - 3, -1), Home: () => { co[r - 1] = 0; return true; }, End: () => { co[r - 1] = sizes[r - 1] - 1; return true; } };
  return moves[key] ? moves[key]() : false;
}

// bufferMove is the buffer cell a key moves to from cell o of a buffer
// of n cells drawn in rows of cols (the arrows by one and by a row, Home
// and End to the row's ends); undefined for a key that does not move.
// A cell past the ends is not in the grid: the focus stays.
export const bufferMove = (key, o, cols, n) => ({ ArrowRight: o + 1, ArrowLeft: o - 1, ArrowDown: o + cols, ArrowUp: o - cols, Home: o - (o % cols), End: Math.min(o - (o % cols) + cols, n) - 1 })[key];

export const coordOf = (sizes, i) => { const c = new Array(sizes.length); for (let d = sizes.length - 1; d >= 0; d--) { c[d] = i % sizes[d]; i = Math.floor(i / sizes[d]); } return c; };
export const indexOf = (sizes, c) => c.reduce((i, v, d) => i * sizes[d] + v, 0);
// dotText is the dot product that finds a buffer offset, as the server writes it.
export const dotText = (c, strides) => `{${c}} · {${strides}} = ${c.map((v, k) => v + '×' + strides[k]).join(' + ')} = ${c.reduce((s, v, k) => s + v * strides[k], 0)}`;

// offsetsOf computes the buffer offset of each of the first n logical
// elements, row-major, from a layout's sizes and strides (protocol v2
// sends no offsets: every DirectML layout is strided, so they follow from
// these). A valid layout's offsets are below 2^32.
export function offsetsOf(sizes, strides, n) {
  const out = new Uint32Array(n);
  forRows(sizes, strides, n, (i0, o0, len, s) => { for (let j = 0, o = o0; j < len; j++, o += s) out[i0 + j] = o; });
  return out;
}

// offsetOf is element i's buffer offset (row-major i, a layout's sizes
// and strides): the dot product of its coordinates and the strides.
export function offsetOf(sizes, strides, i) {
  let o = 0;
  for (let d = sizes.length - 1; d >= 0; d--) { o += (i % sizes[d]) * strides[d]; i = Math.floor(i / sizes[d]); }
  return o;
}

// forRows calls f(i0, o0, len, s) for each row of the last dimension of
// the first n elements of a layout: elements i0 .. i0+len-1, row-major,
// at buffer offsets o0, o0+s, o0+2s, ...
export function forRows(sizes, strides, n, f) {
  const r = sizes.length;
  if (n === 0) return;
  if (r === 0) { f(0, 0, 1, 0); return; }
  const at = new Array(r).fill(0), s = strides[r - 1], nL = sizes[r - 1];
  for (let i = 0, off = 0; i < n;) {
    const len = Math.min(nL, n - i);
    f(i, off, len, s);
    i += len;
    for (let d = r - 2; d >= 0; d--) {
      off += strides[d];
      if (++at[d] < sizes[d]) break;
      off -= strides[d] * sizes[d]; at[d] = 0;
    }
  }
}

// holderOf is the element at buffer offset o of a disjoint layout (the
// one element whose coordinates times the strides make o), or -1 for a
// cell no element holds. Taken by stride from the largest, each
// coordinate is the whole number of that stride in what is left, as the
// smaller strides together reach less than it.
export function holderOf(sizes, strides, o) {
  const dims = sizes.map((size, d) => d).filter((d) => sizes[d] > 1).sort((a, b) => strides[b] - strides[a]);
  const co = new Array(sizes.length).fill(0);
  let rest = o;
  for (const d of dims) {
    const c = Math.floor(rest / strides[d]);
    if (c >= sizes[d]) return -1;
    co[d] = c; rest -= c * strides[d];
  }
  if (rest !== 0 || sizes.some((s) => s === 0)) return -1;
  return co.reduce((i, v, d) => i * sizes[d] + v, 0);
}

// disjoint says no two elements of the layout share a cell: taken by
// stride, each dimension's stride passes every offset the dimensions of
// smaller strides reach. (Layouts it refuses may still be disjoint: they
// take the long way.)
export function disjoint(sizes, strides) {
  const dims = sizes.map((s, d) => [strides[d], s]).filter(([, s]) => s > 1).sort((a, b) => a[0] - b[0]);
  let reach = 0;
  for (const [stride, size] of dims) {
    if (stride <= reach) return false;
    reach += stride * (size - 1);
  }
  return true;
}

// holdersAt finds the elements at buffer offset o of the first n
// elements of a layout of any strides (a broadcast's cells hold
// several): the first (-1: none), how many, and the first max of them.
// It looks at each row of the last dimension once, not at each element.
export function holdersAt(sizes, strides, n, o, max = 0) {
  const h = { first: -1, count: 0, list: [] };
  const add = (i, k) => {
    if (h.first < 0) h.first = i;
    h.count += k;
    for (let j = 0; j < k && h.list.length < max; j++) h.list.push(i + j);
  };
  forRows(sizes, strides, n, (i0, o0, len, s) => {
    if (s === 0) { if (o0 === o) add(i0, len); return; }
    const d = o - o0;
    if (d >= 0 && d % s === 0 && d / s < len) add(i0 + d / s, 1);
  });
  return h;
}
