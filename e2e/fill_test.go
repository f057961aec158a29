package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/slice1"
)

// TestE2ESliceValuesComputedByThePage: the slice page computes the values
// its canvases show (protocol v2 sends none): static/fill.js, run in
// Chromium on the meta the server sends, must give byte for byte the
// input buffer slice1.FillInput fills, the output compute.Slice copies
// from it and the counts compute.CellCounts finds, for every data type,
// typed values, broadcast inputs (a shared cell holds the first
// element's value), negative window strides and FLOAT16's rounding.
func TestE2ESliceValuesComputedByThePage(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?preset=example2")
	for _, tc := range []struct{ name, query string }{
		{"FLOAT32 padded rows", "dt=FLOAT32&sizes=100,100&strides=104,1&np=" + url.QueryEscape("x[10:90, ::-2]") + "&use=np"},
		{"FLOAT16 1..N rounds above 2048", "dt=FLOAT16&sizes=100,100&woff=0,0&wsize=100,100&wstride=-1,3"},
		{"FLOAT16 past 65504 is +Inf", "dt=FLOAT16&sizes=70000&woff=0&wsize=70000&wstride=7"},
		{"FLOAT16 typed", "dt=FLOAT16&sizes=30,30&vals=" + url.QueryEscape("0.1, 65504, -2.5, 1e-7")},
		{"FLOAT64 reversed", "dt=FLOAT64&sizes=2,3,50&woff=0,0,0&wsize=2,3,50&wstride=-1,-2,-3"},
		{"INT8 wraps", "dt=INT8&sizes=20,30"},
		{"INT8 below its wrap, reversed", "dt=INT8&sizes=10,12&woff=0,0&wsize=10,12&wstride=-1,-3"},
		{"FLOAT32 rows copied whole", "dt=FLOAT32&sizes=6,40&strides=48,1&woff=1,3&wsize=5,30&wstride=2,1"},
		{"UINT16 rows reversed whole", "dt=UINT16&sizes=3,5,33&woff=0,1,0&wsize=3,4,33&wstride=-1,1,-1"},
		{"INT32 permuted, outer dimensions reordered", "dt=INT32&sizes=5,4,6&strides=1,30,5&woff=1,0,2&wsize=3,4,4&wstride=-1,2,1"},
		{"FLOAT32 whole rows, outer dimensions reordered", "dt=FLOAT32&sizes=4,3,40&strides=40,160,1&woff=0,0,2&wsize=4,3,36&wstride=1,-1,-1"},
		{"UINT8 wraps", "dt=UINT8&sizes=300,3&strides=3,1"},
		{"INT16 broadcast typed", "dt=INT16&sizes=300,50&strides=0,1&woff=0,0&wsize=300,50&wstride=-3,2&vals=" + url.QueryEscape("7,-8,9")},
		{"UINT16 NHWC", "dt=UINT16&sizes=1,3,20,20&strides=1200,1,60,3&woff=0,1,2,0&wsize=1,2,18,20&wstride=1,1,1,-1"},
		{"INT32 overlapping", "dt=INT32&sizes=40,40&strides=1,1"},
		{"UINT32 typed", "dt=UINT32&sizes=17,19&vals=" + url.QueryEscape("4294967295, 0, 12")},
		{"INT64 1..N", "dt=INT64&sizes=20,20&woff=3,0&wsize=17,20&wstride=2,-1"},
		{"UINT64 typed", "dt=UINT64&sizes=16,16&vals=" + url.QueryEscape("18446744073709551615, 1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			_, v, _ := slice1.Resolve(q)
			if v.Slice == nil {
				t.Fatalf("invalid: %v", v.Errors)
			}
			_, _, p, err := slice1.Draw(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Meta.Fill {
				t.Fatal("the meta does not let the page fill")
			}
			in := v.Slice.Input
			e := in.DataType.Bits() / 8
			wantBuf := make([]byte, p.Meta.Cells*e)
			if err := slice1.FillInput(context.Background(), wantBuf[:(in.IndexOfLastElement()+1)*e], in, v.Values); err != nil {
				t.Fatal(err)
			}
			wantOut := make([]byte, v.Slice.OutputElementCount()*e)
			if err := compute.Slice(wantOut, wantBuf, v.Slice); err != nil {
				t.Fatal(err)
			}
			counts, err := compute.CellCounts(context.Background(), compute.LayoutWalk(in), p.Meta.Cells)
			if err != nil {
				t.Fatal(err)
			}
			wantCounts := make([]byte, len(counts))
			for i, c := range counts {
				wantCounts[i] = byte(min(c, 255))
			}

			meta, err := json.Marshal(p.Meta)
			if err != nil {
				t.Fatal(err)
			}
			got, ends, worked := pageFill(t, ctx, string(meta))
			checkEnds(t, ends, in.DataType, wantOut)
			if worked != "" {
				checkEnds(t, worked, in.DataType, wantOut)
			}
			for _, c := range []struct {
				what      string
				got, want []byte
			}{{"input buffer", got[0], wantBuf}, {"output", got[1], wantOut}, {"output into a used array", got[3], wantOut}, {"counts", got[2], wantCounts},
				{"input buffer by rows", got[4], wantBuf}, {"counts by rows", got[5], wantCounts},
				{"output worked out by element", got[6], wantOut}, {"output worked out by rows", got[7], wantOut}, {"held bits by rows", got[8], wantCounts}} {
				if c.got == nil && (c.what[len(c.what)-4:] == "rows" || c.what[len(c.what)-7:] == "element") {
					continue // an overlapping layout: offsets only
				}
				if !bytes.Equal(c.got, c.want) {
					k := 0
					for k < min(len(c.got), len(c.want)) && c.got[k] == c.want[k] {
						k++
					}
					t.Errorf("%s: %d bytes, want %d; first difference at byte %d (element %d)", c.what, len(c.got), len(c.want), k, int64(k)/e)
				}
			}
		})
	}
}

// pageFill runs fill.js in the page on meta: the input buffer, the output,
// the counts, the output written into an array of junk of its type and
// length (as an edit reuses the last output's), and for a disjoint layout
// the input buffer and the counts made without offsets (else nil), as
// raw bytes; and the output's ends (outputEnds), as JSON.
func pageFill(t *testing.T, ctx context.Context, meta string) ([9][]byte, string, string) {
	t.Helper()
	expr := fmt.Sprintf(`(async () => {
  const { offsetsOf } = await import('/static/layout.js');
  const f = await import('/static/fill.js');
  const meta = JSON.parse(%q);
  const off = offsetsOf(meta.sizes, meta.strides, meta.inputCount);
  const buf = f.fillInput(meta, off);
  const b64 = (a) => {
    const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    let s = '';
    for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const used = new buf.constructor(meta.outputCount);
  new Uint8Array(used.buffer).fill(0x5a);
  const into = f.sliceOutput(meta, buf, used);
  if (into !== used) throw new Error('sliceOutput did not write into the array it was given');
  const ends = f.outputEnds(meta, into);
  // A disjoint layout is filled and counted by walking its rows, without
  // the offsets: the same bytes.
  const apart = (await import('/static/layout.js')).disjoint(meta.sizes, meta.strides);
  return [b64(buf), b64(f.sliceOutput(meta, buf)), b64(f.cellCounts(meta.cells, off)), b64(into), JSON.stringify([String(ends[0]), String(ends[1]), ends[2], ends[3]]),
    apart ? b64(f.fillInput(meta)) : '', apart ? b64(f.cellCounts(meta.cells, null, meta)) : '', ...(apart ? worked() : ['', '', '', ''])];
  // A disjoint input's values worked out where they are drawn (no
  // buffer): each output element from the input element it copies, by
  // element and by rows; the cells held as a bitmap, written as counts;
  // the output's ends without the output.
  function worked() {
    const raw = f.elementRaw(meta), src = f.sourceOf(meta), num = f.elementNum(meta), n = meta.outputCount;
    const one = new buf.constructor(n), rows = new buf.constructor(n);
    for (let k = 0; k < n; k++) one[k] = raw(src(k));
    src.rows((k0, i0, len, s) => { for (let j = 0; j < len; j++) rows[k0 + j] = raw(i0 + j * s); });
    for (let i = 0; i < meta.inputCount; i++) {
      const v = raw(i), want = meta.dataType === 'FLOAT16' ? f.half(v) : Number(v);
      if (!Object.is(num(i), want) && !(Number.isNaN(want) && Number.isNaN(num(i)))) throw new Error('elementNum(' + i + ') = ' + num(i) + ', want ' + want);
    }
    const held = f.heldBits(meta), c = new Uint8Array(meta.cells);
    for (let o = 0; o < meta.cells; o++) c[o] = (held[o >>> 5] >>> (o & 31)) & 1;
    const e = f.sourceEnds(meta);
    return [b64(one), b64(rows), b64(c), JSON.stringify([String(e[0]), String(e[1]), e[2], e[3]])];
  }
})()`, meta)
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fill.js: %v", err)
	}
	var out [9][]byte
	for i, s := range append(res[:4:4], res[5:10]...) {
		if s == "" {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out, res[4], res[10]
}

// checkEnds checks the page's outputEnds (JSON: lo and hi as JavaScript
// writes numbers, then an output index holding each) against the least
// and greatest finite values of out, the output compute.Slice copied.
func checkEnds(t *testing.T, ends string, dt core.DataType, out []byte) {
	t.Helper()
	var got []any
	if err := json.Unmarshal([]byte(ends), &got); err != nil || len(got) != 4 {
		t.Fatalf("outputEnds: %s (%v)", ends, err)
	}
	e := dt.Bits() / 8
	at := func(k int64) float64 {
		b := out[k*e : (k+1)*e]
		switch dt {
		case core.Float16:
			return float64(f16(binary.LittleEndian.Uint16(b)))
		case core.Float32:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		case core.Float64:
			return math.Float64frombits(binary.LittleEndian.Uint64(b))
		case core.Int8:
			return float64(int8(b[0]))
		case core.UInt8:
			return float64(b[0])
		case core.Int16:
			return float64(int16(binary.LittleEndian.Uint16(b)))
		case core.UInt16:
			return float64(binary.LittleEndian.Uint16(b))
		case core.Int32:
			return float64(int32(binary.LittleEndian.Uint32(b)))
		case core.UInt32:
			return float64(binary.LittleEndian.Uint32(b))
		case core.Int64:
			return float64(int64(binary.LittleEndian.Uint64(b)))
		default:
			return float64(binary.LittleEndian.Uint64(b))
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	n := int64(len(out)) / e
	for k := range n {
		if v := at(k); !math.IsInf(v, 0) && !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	gotLo, err1 := strconv.ParseFloat(got[0].(string), 64)
	gotHi, err2 := strconv.ParseFloat(got[1].(string), 64)
	loK, hiK := int64(got[2].(float64)), int64(got[3].(float64))
	if err1 != nil || err2 != nil || gotLo != lo || gotHi != hi {
		t.Errorf("outputEnds: lo %v, hi %v; want %v, %v", got[0], got[1], lo, hi)
	}
	if lo <= hi && (loK < 0 || loK >= n || hiK < 0 || hiK >= n || at(loK) != lo || at(hiK) != hi) {
		t.Errorf("outputEnds: elements %d and %d do not hold %v and %v", loK, hiK, lo, hi)
	}
}

// f16 widens an IEEE half's bits.
func f16(h uint16) float32 {
	sign, exp, frac := uint32(h>>15), uint32(h>>10)&31, uint32(h&1023)
	switch {
	case exp == 31:
		return math.Float32frombits(sign<<31 | 0xff<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign << 31)
	case exp == 0:
		return float32(math.Ldexp(float64(frac), -24)) * float32(1-2*int(sign))
	}
	return math.Float32frombits(sign<<31 | (exp+112)<<23 | frac<<13)
}

// TestE2EInputCodesMatchAnElementByElementReference: canvas.js's
// inputCodes, which works a pixel and 32 copied elements at a time, gives
// every pixel of the slice input's canvas the class an element-by-element
// pass gives it (copied 3, in the window 2, outside 1, the highest where
// elements share a pixel), on panels and strips, one element a pixel and
// several, windows of every shape and copied bitmaps with whole words,
// partial words and none.
func TestE2EInputCodesMatchAnElementByElementReference(t *testing.T) {
	got := onSlicePage(t, `(async () => {
  const { inputCodes } = await import('/static/canvas.js');
  const { stripOf, panelsOf } = await import('/static/canvas-layout.js');
  let seed = 7;
  const rnd = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; }; // xorshift32
  // A layout of every kind the canvases draw: a block of W pixels a row,
  // or small multiples so many to a row, with or without caption bands,
  // wide slots, bands of rows; one item a pixel or several.
  const lay = (r, sizes, n, W, H) => {
    const bin = rnd(3) === 0 ? 2 + rnd(4) : 1;
    if (r < 2 || rnd(3) === 0) return stripOf(n, W, bin);
    const R = sizes[r - 2], C = sizes[r - 1], P = n / (R * C);
    return panelsOf({ P, R, C, k: bin === 1 && rnd(2) ? 1 + rnd(R) : R, pc: 1 + rnd(Math.max(1, Math.min(P * R, H))), bin, sw: rnd(3) ? 0 : rnd(2 * C + 2), gap: 1 + rnd(3), cap: rnd(2) ? rnd(4) : 0 });
  };
  const bad = [];
  let cases = 0;
  for (let c = 0; c < 400 && bad.length < 5; c++) {
    const r = 1 + rnd(4), sizes = Array.from({ length: r }, () => 1 + rnd(r === 1 ? 300 : r === 2 ? 70 : 9));
    const n = sizes.reduce((a, b) => a * b, 1);
    const inWin = sizes.map((s) => { const a = new Uint8Array(s), lo = rnd(s), hi = lo + 1 + rnd(s - lo); a.fill(1, lo, hi); return a; });
    if (rnd(5) === 0) inWin[rnd(r)].fill(0);
    const W = 1 + rnd(120), H = 1 + rnd(80);
    const L = lay(r, sizes, n, W, H);
    const words = new Uint32Array(2 * Math.ceil(n / 64));
    const kind = rnd(4); // none, random bits, whole words, the window's elements
    for (let i = 0; i < n; i++) {
      let co = i, inside = true;
      for (let d = r - 1; d >= 0; d--) { inside = inside && !!inWin[d][co % sizes[d]]; co = Math.floor(co / sizes[d]); }
      const on = kind === 1 ? rnd(3) === 0 : kind === 2 ? (i >>> 5) % 3 !== 1 : kind === 3 ? inside : false;
      if (on) words[i >>> 5] |= 1 << (i & 31);
    }
    const copied = kind === 0 && rnd(2) ? null : words;
    const want = new Uint8Array(L.w * L.h);
    for (let i = 0; i < n; i++) {
      let co = i, inside = true;
      for (let d = r - 1; d >= 0; d--) { inside = inside && !!inWin[d][co % sizes[d]]; co = Math.floor(co / sizes[d]); }
      const v = copied && (copied[i >>> 5] >>> (i & 31)) & 1 ? 3 : inside ? 2 : 1;
      const p = L.panelAt ? L.at(i) : Math.floor(i / L.bin);
      if (v > want[p]) want[p] = v;
    }
    const got = inputCodes(L, n, sizes, inWin, copied);
    cases++;
    const k = want.findIndex((v, p) => got[p] !== v);
    if (got.length !== want.length || k >= 0) bad.push('sizes ' + sizes + ' bin ' + L.bin + (L.panelAt ? ' panels' : ' strip') + ' copied ' + kind + ': pixel ' + k + ' is ' + got[k] + ', want ' + want[k]);
  }
  return bad.length ? bad.join('; ') : 'ok ' + cases;
})()`)
	if got != "ok 400" {
		t.Error(got)
	}
}

// TestE2EPixelRunsMatchFromPixel: canvas.js's pixelRuns, which the
// canvases are drawn with, names every pixel's item as L.fromPixel does
// (and no pixel that fromPixel leaves empty), on panels with and without
// caption bands and on strips, one item a pixel and several.
func TestE2EPixelRunsMatchFromPixel(t *testing.T) {
	got := onSlicePage(t, `(async () => {
  const { stripOf, panelsOf, pixelRuns } = await import('/static/canvas-layout.js');
  let seed = 11;
  const rnd = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; }; // xorshift32
  // A layout of every kind the canvases draw: a block of W pixels a row,
  // or small multiples so many to a row, with or without caption bands,
  // wide slots, bands of rows; one item a pixel or several.
  const lay = (r, sizes, n, W, H) => {
    const bin = rnd(3) === 0 ? 2 + rnd(4) : 1;
    if (r < 2 || rnd(3) === 0) return stripOf(n, W, bin);
    const R = sizes[r - 2], C = sizes[r - 1], P = n / (R * C);
    return panelsOf({ P, R, C, k: bin === 1 && rnd(2) ? 1 + rnd(R) : R, pc: 1 + rnd(Math.max(1, Math.min(P * R, H))), bin, sw: rnd(3) ? 0 : rnd(2 * C + 2), gap: 1 + rnd(3), cap: rnd(2) ? rnd(4) : 0 });
  };
  const bad = [];
  let cases = 0, binned = 0, paneled = 0;
  for (let c = 0; c < 400 && bad.length < 5; c++) {
    const r = 1 + rnd(4), sizes = Array.from({ length: r }, () => 1 + rnd(r === 1 ? 3000 : r === 2 ? 200 : 20));
    const n = sizes.reduce((a, b) => a * b, 1);
    const W = 1 + rnd(120), H = 1 + rnd(80);
    const L = lay(r, sizes, n, W, H);
    const want = new Float64Array(L.w * L.h).fill(-1), got = new Float64Array(L.w * L.h).fill(-1);
    for (let y = 0; y < L.h; y++) for (let x = 0; x < L.w; x++) want[y * L.w + x] = L.fromPixel(x, y);
    let twice = -1;
    pixelRuns(L, n, (p, k0, len) => { for (let j = 0; j < len; j++) { if (got[p + j] !== -1) twice = p + j; got[p + j] = k0 + j * L.bin; } });
    cases++; if (L.bin > 1) binned++; if (L.panelAt) paneled++;
    const k = want.findIndex((v, p) => got[p] !== v);
    if (k >= 0 || twice >= 0) bad.push('sizes ' + sizes + ' bin ' + L.bin + (L.panelAt ? ' panels' : ' strip') + ': pixel ' + (k >= 0 ? k + ' is ' + got[k] + ', want ' + want[k] : twice + ' drawn twice'));
  }
  return bad.length ? bad.join('; ') : 'ok ' + cases + ' ' + (binned > 20 && paneled > 20 && binned < cases ? 'mixed' : 'one-sided ' + binned + ' ' + paneled);
})()`)
	if got != "ok 400 mixed" {
		t.Error(got)
	}
}

// TestE2EValueEndsMatchAnElementByElementPass: fill.js's finiteEnds and
// halfEnds, which give the output legend its least and greatest values,
// find the finite ends and the first index of each as a pass that
// compares element by element does, with NaNs, infinities, -0 and +0,
// every typed array the slice explorer fills, halves among them.
func TestE2EValueEndsMatchAnElementByElementPass(t *testing.T) {
	got := onSlicePage(t, `(async () => {
  const { finiteEnds, halfEnds } = await import('/static/fill.js');
  const half = (h) => { const e = (h >> 10) & 31, f = h & 1023, s = h & 0x8000 ? -1 : 1; if (e === 31) return f ? NaN : s * Infinity; return e ? s * 2 ** (e - 15) * (1 + f / 1024) : s * 2 ** -14 * (f / 1024); };
  const h16 = Float64Array.from({ length: 65536 }, (_, h) => half(h));
  let seed = 5;
  const rnd = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; }; // xorshift32
  const specials = [NaN, Infinity, -Infinity, 0, -0];
  const bad = [];
  let cases = 0, nulls = 0;
  const want = (n, num) => {
    let lo = Infinity, hi = -Infinity, loK = 0, hiK = 0;
    for (let k = 0; k < n; k++) { const v = num(k); if (!Number.isFinite(v)) continue; if (v < lo) { lo = v; loK = k; } if (v > hi) { hi = v; hiK = k; } }
    return [lo, hi, loK, hiK];
  };
  const same = (a, b) => a.every((v, i) => Object.is(v, b[i]) || (v === 0 && b[i] === 0 && i < 2));
  for (let c = 0; c < 300 && bad.length < 5; c++) {
    const len = 1 + rnd(300), n = rnd(3) ? len : rnd(len + 1);
    if (c % 3 === 2) { // halves
      const bits = Uint16Array.from({ length: len }, () => (rnd(4) ? rnd(65536) : [0x7c00, 0xfc00, 0x7e00, 0, 0x8000][rnd(5)]));
      const w = want(n, (k) => h16[bits[k]]), g = halfEnds(bits, n, h16);
      cases++;
      if (g === null) { nulls++; if (w[0] !== Infinity) bad.push('halves: null, want ' + w); }
      else if (!same(g, w)) bad.push('halves n ' + n + ': ' + g + ', want ' + w);
      continue;
    }
    const T = [Float32Array, Float64Array, Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array][rnd(8)];
    const vals = new T(len);
    for (let k = 0; k < len; k++) vals[k] = rnd(8) ? rnd(2000) - 1000 + (rnd(2) ? 0.5 : 0) : specials[rnd(5)];
    const w = want(n, (k) => vals[k]), g = finiteEnds(vals, n);
    cases++;
    if (g === null) { nulls++; continue; } // the caller passes element by element
    if (!same(g, w)) bad.push(T.name + ' n ' + n + ': ' + g + ', want ' + w);
  }
  return bad.length ? bad.join('; ') : 'ok ' + cases + (nulls > 10 && nulls < cases / 2 ? ' mixed' : ' nulls ' + nulls);
})()`)
	if got != "ok 300 mixed" {
		t.Error(got)
	}
}

// TestE2EHolderOfMatchesTheOffsets: on disjoint layouts (layout.js's
// disjoint says so), holderOf names the element every buffer cell holds,
// and -1 for padding, as a scan of the offsets does; disjoint refuses
// every layout where two elements share a cell.
func TestE2EHolderOfMatchesTheOffsets(t *testing.T) {
	got := onSlicePage(t, `(async () => {
  const { offsetsOf, disjoint, holderOf } = await import('/static/layout.js');
  let seed = 3;
  const rnd = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; }; // xorshift32
  const bad = [];
  let apart = 0, shared = 0;
  for (let c = 0; c < 600 && bad.length < 5; c++) {
    const r = 1 + rnd(4), sizes = Array.from({ length: r }, () => 1 + rnd(6));
    // Packed strides in a random order of dimensions, padded at random; or any strides.
    let strides;
    if (rnd(2)) {
      const order = sizes.map((_, d) => d).sort(() => rnd(3) - 1);
      strides = new Array(r);
      let p = 1 + rnd(2);
      for (const d of order) { strides[d] = p; p = p * sizes[d] + rnd(3); }
    } else strides = sizes.map(() => rnd(12));
    const n = sizes.reduce((a, b) => a * b, 1), off = offsetsOf(sizes, strides, n);
    const cells = Math.max(...off) + 3, holders = new Array(cells).fill(-1), count = new Array(cells).fill(0);
    for (let i = n - 1; i >= 0; i--) { holders[off[i]] = i; count[off[i]]++; }
    const overlap = count.some((k) => k > 1);
    if (!disjoint(sizes, strides)) { shared++; continue; }
    apart++;
    if (overlap) { bad.push('sizes ' + sizes + ' strides ' + strides + ': disjoint, but cells are shared'); continue; }
    for (let o = 0; o < cells; o++) if (holderOf(sizes, strides, o) !== holders[o]) { bad.push('sizes ' + sizes + ' strides ' + strides + ': cell ' + o + ' held by ' + holderOf(sizes, strides, o) + ', want ' + holders[o]); break; }
  }
  return bad.length ? bad.join('; ') : 'ok ' + (apart > 100 && shared > 100 ? 'both' : apart + ' ' + shared);
})()`)
	if got != "ok both" {
		t.Error(got)
	}
}

// onSlicePage runs script (an async function's call that imports the
// page's modules and returns a string) on a live slice page in Chromium.
func onSlicePage(t *testing.T, script string) string {
	t.Helper()
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?preset=example2")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestE2EOffsetRampWithoutOffsets: canvas.js's offsetRamp colours the
// layout explorer's logical canvas by each element's buffer offset the
// same with the offsets given and, for a disjoint layout (which the page
// draws without making them), worked out from the sizes and strides, on
// panels and strips, one element a pixel and several.
func TestE2EOffsetRampWithoutOffsets(t *testing.T) {
	got := onSlicePage(t, `(async () => {
  const { offsetRamp } = await import('/static/canvas.js');
  const { stripOf, panelsOf } = await import('/static/canvas-layout.js');
  const { offsetsOf, disjoint } = await import('/static/layout.js');
  let seed = 9;
  const rnd = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; }; // xorshift32
  // A layout of every kind the canvases draw: a block of W pixels a row,
  // or small multiples so many to a row, with or without caption bands,
  // wide slots, bands of rows; one item a pixel or several.
  const lay = (r, sizes, n, W, H) => {
    const bin = rnd(3) === 0 ? 2 + rnd(4) : 1;
    if (r < 2 || rnd(3) === 0) return stripOf(n, W, bin);
    const R = sizes[r - 2], C = sizes[r - 1], P = n / (R * C);
    return panelsOf({ P, R, C, k: bin === 1 && rnd(2) ? 1 + rnd(R) : R, pc: 1 + rnd(Math.max(1, Math.min(P * R, H))), bin, sw: rnd(3) ? 0 : rnd(2 * C + 2), gap: 1 + rnd(3), cap: rnd(2) ? rnd(4) : 0 });
  };
  const bad = [];
  let cases = 0, binned = 0, paneled = 0;
  for (let c = 0; c < 300 && bad.length < 5; c++) {
    const r = 1 + rnd(4), sizes = Array.from({ length: r }, () => 1 + rnd(r === 1 ? 3000 : r === 2 ? 120 : 14));
    const order = sizes.map((_, d) => d).sort(() => rnd(3) - 1), strides = new Array(r);
    let p = 1 + rnd(2);
    for (const d of order) { strides[d] = p; p = p * sizes[d] + rnd(4); }
    if (!disjoint(sizes, strides)) continue;
    const n = sizes.reduce((a, b) => a * b, 1), off = offsetsOf(sizes, strides, n), span = Math.max(1, Math.max(...off));
    const W = 1 + rnd(120), H = 1 + rnd(80);
    const L = lay(r, sizes, n, W, H);
    const want = new Uint32Array(L.w * L.h), got = new Uint32Array(L.w * L.h);
    offsetRamp(want, L, n, sizes, strides, off, span);
    offsetRamp(got, L, n, sizes, strides, null, span);
    cases++; if (L.bin > 1) binned++; if (L.panelAt) paneled++;
    const k = want.findIndex((v, q) => got[q] !== v);
    if (k >= 0) bad.push('sizes ' + sizes + ' strides ' + strides + ' bin ' + L.bin + (L.panelAt ? ' panels' : ' strip') + ': pixel ' + k);
  }
  return bad.length ? bad.join('; ') : 'ok ' + (cases > 200 && binned > 20 && paneled > 20 && binned < cases ? 'mixed' : cases + ' ' + binned + ' ' + paneled);
})()`)
	if got != "ok mixed" {
		t.Error(got)
	}
}
