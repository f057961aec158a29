// stridescope: where the canvases of the explorers put each item (an
// element or a buffer cell), DOM-free. A layout maps item k to a pixel of
// a w x h image and back; when there are more items than an image may
// hold, bin items share one. px is the CSS pixels an image pixel takes at
// the view's first zoom (canvas-zoom.js zooms and pans from there).
//
// The layouts are chosen for a readable cell: at least box.min CSS pixels
// (more on a touch screen), at most box.max. A long vector wraps into a
// block, a tall matrix into bands of its rows side by side, small
// multiples as many to a row as fit, each at least as wide as its
// caption. What cannot fit at box.min is laid out for the box's shape and
// shown whole (its cells smaller, the view zoomable), or at box.min with
// a little to pan when that is at most PAN_AT times the box.

// An image gives each item its own pixel up to EXACT_PIXELS items; past
// that, items share pixels, in bins sized for about as many pixels as the
// screen shows of the box (binnedPixels), at most BINNED_PIXELS: a
// picture that cannot show every item is no more readable for bins
// smaller than a screen pixel, and every edit of it paints, puts and
// scales down every pixel it has (a 4096x4096 layout's keystroke ->
// painted, 70 ms at 2^21 pixels, 52 at 2^20).
const EXACT_PIXELS = 1 << 21;
const BINNED_PIXELS = 1 << 20;

// binnedPixels is the most pixels a binned image of box b gets: the
// device pixels of the box, within [2^16, BINNED_PIXELS].
function binnedPixels(b) {
  const dpr = typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1;
  return clamp(Math.round(b.W * b.H * dpr * dpr), 1 << 16, BINNED_PIXELS);
}
// PAN_AT: a view up to this many boxes wide or tall at the smallest cell
// opens at that cell (and pans); a larger one opens whole.
const PAN_AT = 3;
// GAP and CAP are CSS pixels between small multiples and of a caption.
const GAP = 6, CAP = 16;

export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

// stripOf wraps n items in order into rows of cols pixels, bin items a
// pixel.
export function stripOf(n, cols, bin = 1) {
  const pixels = Math.ceil(n / bin), w = Math.max(1, Math.min(cols, pixels));
  return { w, h: Math.ceil(pixels / w), px: 1, bin, step: w * bin,
    toPixel: (k) => { const p = Math.floor(k / bin); return [p % w, Math.floor(p / w)]; },
    at: (k) => Math.floor(k / bin),
    fromPixel: (x, y) => { const k = (y * w + x) * bin; return x < w && k < n ? k : -1; } };
}

// panelsOf lays out P grids of R x C items (the last two dimensions, one
// grid per index of the outer ones), each cut into bands of k rows (k = R:
// whole), pc bands to a row, bin items a pixel each way. Each band's slot
// is sw >= its width pixels wide (room for its caption), gap pixels
// apart, with cap pixels above it for the caption.
export function panelsOf({ P, R, C, k = R, pc, bin = 1, sw = 0, gap = 1, cap = 0 }) {
  const nch = Math.ceil(R / k), B = P * nch, pw = Math.ceil(C / bin), ph = Math.ceil(k / bin);
  const sx = Math.max(sw, pw) + gap, py = ph + gap + cap;
  pc = clamp(pc, 1, B);
  const pr = Math.ceil(B / pc), w = pc * sx - gap, h = pr * py - gap;
  const place = (i) => {
    const p = Math.floor(i / (R * C)), q = i % (R * C), row = Math.floor(q / C), b = p * nch + Math.floor(row / k);
    return [(b % pc) * sx + Math.floor((q % C) / bin), Math.floor(b / pc) * py + cap + Math.floor((row % k) / bin)];
  };
  return { w, h, px: 1, bin, step: C, P: B, P0: P, R, C, k, nch, pw, ph, cap, pc, sx, py, gap,
    panelAt: (b) => [(b % pc) * sx, Math.floor(b / pc) * py + cap],
    // The rows of the grid band b shows: [grid, first row, end row).
    band: (b) => { const p = Math.floor(b / nch), r0 = (b % nch) * k; return [p, r0, Math.min(R, r0 + k)]; },
    toPixel: place,
    at: (i) => { const [x, y] = place(i); return y * w + x; },
    fromPixel: (x, y) => {
      const xi = x % sx, yi = (y % py) - cap, b = Math.floor(y / py) * pc + Math.floor(x / sx);
      if (x >= w || xi >= pw || yi < 0 || yi >= ph || b >= B || xi * bin >= C) return -1;
      const p = Math.floor(b / nch), r0 = (b % nch) * k, row = r0 + yi * bin;
      return row >= Math.min(R, r0 + k) ? -1 : p * R * C + row * C + xi * bin;
    } };
}

// pixelRuns calls f(p, k0, len) for each run of image pixels p .. p+len-1
// that show items k0, k0+bin, k0+2*bin, ... (a pixel shows its first
// item, as L.fromPixel says; pixels that show none are skipped): a canvas
// of a million pixels is drawn without a lookup per pixel.
export function pixelRuns(L, n, f) {
  const bin = L.bin;
  if (!L.panelAt) {
    for (let y = 0; y < L.h; y++) {
      const k0 = y * L.w * bin, len = Math.min(L.w, Math.ceil((n - k0) / bin));
      if (len > 0) f(y * L.w, k0, len);
    }
    return;
  }
  const { R, C, k, nch, pc, py, pw, ph, cap, P, sx } = L;
  for (let y = 0; y < L.h; y++) {
    const yi = (y % py) - cap;
    if (yi < 0 || yi >= ph) continue;
    for (let c = 0, b = Math.floor(y / py) * pc; c < pc && b < P; c++, b++) {
      const r0 = (b % nch) * k, row = r0 + yi * bin;
      if (row < Math.min(R, r0 + k)) f(y * L.w + c * sx, Math.floor(b / nch) * R * C + row * C, pw);
    }
  }
}

// box is what a view may take, in CSS pixels: W x H, cells of min to max
// (more for a finger than for a mouse).
export function box(W, H) {
  const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return { W, H, min: touch ? 10 : 8, max: 20 };
}

// openAt is the zoom a layout of w x h pixels opens at in the box: the
// largest that shows it whole, or box.min a cell when that is near.
function openAt(L, b) {
  const fit = Math.min(b.W / L.w, b.H / L.h), min = b.min * L.bin;
  return L.bin === 1 && fit < min && min / fit <= PAN_AT ? min : Math.min(fit, b.max);
}

// stripLayout wraps n items into a block: at the largest cell from
// b.max down to b.min at which the block fits the box, in rows of a
// multiple of pitch (a buffer's row pitch, so that padded rows line up
// under each other as in the DOM view) or of 8; else in rows that make
// it about the box's shape.
export function stripLayout(n, pitch, b) {
  const round = (cols) => (pitch > 1 && cols >= pitch ? pitch * Math.floor(cols / pitch) : cols >= 16 && !(pitch > 1) ? 8 * Math.floor(cols / 8) : cols);
  for (let s = b.max; s >= b.min; s--) {
    const cols = Math.min(n, round(Math.floor(b.W / s)));
    if (cols >= 1 && Math.ceil(n / cols) * s <= b.H) return Object.assign(stripOf(n, cols), { px: s });
  }
  const bin = n <= EXACT_PIXELS ? 1 : Math.ceil(n / binnedPixels(b)), pixels = Math.ceil(n / bin);
  let cols = Math.max(1, Math.round(Math.sqrt((pixels * b.W) / b.H)));
  if (bin === 1 && pitch > 1 && pitch <= pixels) cols = pitch * Math.max(1, Math.round(cols / pitch));
  const L = stripOf(n, cols, bin);
  L.px = openAt(L, b);
  return L;
}

// panelLayout lays P grids of R x C out, captioned (capW: the widest
// caption's CSS width, 0 for none; bandW(k): with bands of k rows), at
// the largest cell that fits the box, whole grids before bands of rows;
// else at the pixel a cell (or the bin) that shows them about in the
// box's shape. null when there are too many grids for a pixel each.
export function panelLayout(P, R, C, b, capW, bandW) {
  const fit = (s, k) => {
    const gap = Math.max(1, Math.ceil(GAP / s)), cw = k < R ? bandW(k) : capW, cap = cw ? Math.ceil(CAP / s) : 0;
    const sw = Math.ceil(cw / s), slot = Math.max(C, sw) + gap, pc = Math.min(P * Math.ceil(R / k), Math.floor((b.W / s + gap) / slot));
    if (pc < 1) return null;
    return Object.assign(panelsOf({ P, R, C, k, pc, sw, gap, cap }), { px: s });
  };
  // Bands of a divisor of R or a multiple of 8 rows: captions of round numbers.
  const ks = [R];
  for (let k = R - 1; k >= 2; k--) if (R % k === 0 || k % 8 === 0) ks.push(k);
  for (let s = b.max; s >= b.min; s--) {
    for (const k of ks) {
      if (k < R && C * s * 2 > b.W) break; // bands side by side only
      const L = fit(s, k);
      if (L && L.h * s <= b.H) return L;
    }
  }
  // At the smallest cell, the shortest that is at most PAN_AT boxes tall.
  let low = null;
  for (const k of ks) {
    if (k < R && C * b.min * 2 > b.W) break;
    const L = fit(b.min, k);
    if (L && (!low || L.h < low.h)) low = L;
  }
  if (low && low.h * b.min <= PAN_AT * b.H && low.P <= 512) return low;
  let bin = 1;
  const most = P * R * C <= EXACT_PIXELS ? EXACT_PIXELS : binnedPixels(b);
  while (P * Math.ceil(R / bin) * Math.ceil(C / bin) > most) bin++;
  const pw = Math.ceil(C / bin), ph = Math.ceil(R / bin);
  if (pw === 1 && ph === 1 && P > EXACT_PIXELS / 4) return null;
  // As many grids to a row as make the image about the box's shape; the
  // captions' room at the zoom that gives (two tries: it depends on it).
  let s = b.min * bin, best = null;
  for (let t = 0; t < 2; t++) {
    const gap = Math.max(1, Math.ceil(GAP / s)), cap = capW && P <= 512 ? Math.ceil(CAP / s) : 0, sw = cap ? Math.ceil(capW / s) : 0;
    best = null;
    for (let pc = 1, score = Infinity; pc <= P; pc++) {
      const L = panelsOf({ P, R, C, pc, bin, sw, gap, cap }), sc = Math.max(L.w / b.W, L.h / b.H);
      if (sc < score) { score = sc; best = L; }
      if (L.w / b.W > L.h / b.H) break;
    }
    s = openAt(best, b);
  }
  // Opening at the smallest cell, it pans one way only when it can.
  if (s >= b.min && low) return low;
  best.px = s;
  return best;
}

// captionOf names grid p of a tensor's outer dimensions (outer: their
// sizes) by its coordinates, as the DOM view does, size-1 dimensions
// left out: "C=1", "N=0, C=1", and from three on shortened: "d2..d5 =
// 0,1,0,1" (consecutive dimensions), "N,C,D = 0,1,2". rows, when the grid
// is cut into bands, adds the band's rows: "H=0..31".
export function captionOf(outer, labels, p, rows) {
  const ds = [], vs = [];
  for (let d = outer.length - 1, q = p; d >= 0; d--) {
    const v = q % outer[d];
    q = Math.floor(q / outer[d]);
    if (outer[d] > 1) { ds.unshift(d); vs.unshift(v); }
  }
  let s = ds.length < 3 ? ds.map((d, j) => `${labels[d]}=${vs[j]}`).join(', ')
    : ds.every((d, j) => j === 0 || d === ds[j - 1] + 1) && labels[ds[0]].length > 1 ? `${labels[ds[0]]}..${labels[ds.at(-1)]} = ${vs.join(',')}`
      : `${ds.map((d) => labels[d]).join(',')} = ${vs.join(',')}`;
  if (rows) s += (s ? ' ' : '') + `${labels[outer.length]}=${rows[0]}..${rows[1] - 1}`;
  return s;
}

// tensorLayout lays a tensor's n elements out as the DOM grids do: small
// multiples of its last two dimensions (captioned when it has outer
// ones, measure(text) their CSS width), else, when there are too many of
// them, or it has one dimension, a block of its rows.
export function tensorLayout(sizes, n, labels, b, measure) {
  const r = sizes.length;
  if (r < 2 || (sizes[r - 2] === 1 && r === 2)) return stripLayout(n, 0, b);
  const R = sizes[r - 2], C = sizes[r - 1], outer = sizes.slice(0, r - 2), P = n / (R * C);
  // The widest caption: the last grid's (the largest coordinates).
  const cap = P > 1 ? captionOf(outer, labels, P - 1) : '';
  const capW = cap ? measure(cap) : 0;
  const bandW = (k) => measure(captionOf(outer, labels, P - 1, [R - k, R]) || '0');
  return panelLayout(P, R, C, b, capW, bandW) || stripLayout(n, C, b);
}

// bufferStrip lays a layout's buffer (m: sizes, strides, cells) out in
// rows of its smallest stride past 1 that spans a dimension, so that a
// padded row's cells line up under each other as the rows do.
export function bufferStrip(m, b) {
  const pitches = m.strides.filter((v, d) => v > 1 && m.sizes[d] > 1);
  return stripLayout(m.cells, pitches.length ? Math.min(...pitches) : 0, b);
}
