package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/picture"
)

// TestE2ESliceValuesComputedByThePage: the slice page computes the values
// its canvases show (protocol v2 sends none): static/fill.js, run in
// Chromium on the meta the server sends, must give byte for byte the
// input buffer picture.FillInput fills, the output compute.Slice copies
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
			_, v, _ := picture.ResolveSlice(q)
			if v.Slice == nil {
				t.Fatalf("invalid: %v", v.Errors)
			}
			_, _, p, err := picture.DrawSlice(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Meta.Fill {
				t.Fatal("the meta does not let the page fill")
			}
			in := v.Slice.Input
			e := in.DataType.Bits() / 8
			wantBuf := make([]byte, p.Meta.Cells*e)
			if err := picture.FillInput(context.Background(), wantBuf[:(in.IndexOfLastElement()+1)*e], in, v.Values); err != nil {
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
			got := pageFill(t, ctx, string(meta))
			for _, c := range []struct {
				what      string
				got, want []byte
			}{{"input buffer", got[0], wantBuf}, {"output", got[1], wantOut}, {"output into a used array", got[3], wantOut}, {"counts", got[2], wantCounts}} {
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
// the counts and the output written into an array of junk of its type and
// length (as an edit reuses the last output's), as raw bytes.
func pageFill(t *testing.T, ctx context.Context, meta string) [4][]byte {
	t.Helper()
	expr := fmt.Sprintf(`(async () => {
  const { offsetsOf } = await import('/static/live.js');
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
  return [b64(buf), b64(f.sliceOutput(meta, buf)), b64(f.cellCounts(meta.cells, off)), b64(into)];
})()`, meta)
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fill.js: %v", err)
	}
	var out [4][]byte
	for i, s := range res {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// TestE2EInputCodesMatchAnElementByElementReference: canvas.js's
// inputCodes, which works a pixel and 32 copied elements at a time, gives
// every pixel of the slice input's canvas the class an element-by-element
// pass gives it (copied 3, in the window 2, outside 1, the highest where
// elements share a pixel), on panels and strips, one element a pixel and
// several, windows of every shape and copied bitmaps with whole words,
// partial words and none.
func TestE2EInputCodesMatchAnElementByElementReference(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?preset=example2")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
  const { strip, panels, inputCodes } = await import('/static/canvas.js');
  let seed = 7;
  const rnd = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; }; // xorshift32
  const bad = [];
  let cases = 0;
  for (let c = 0; c < 400 && bad.length < 5; c++) {
    const r = 1 + rnd(4), sizes = Array.from({ length: r }, () => 1 + rnd(r === 1 ? 300 : r === 2 ? 70 : 9));
    const n = sizes.reduce((a, b) => a * b, 1);
    const inWin = sizes.map((s) => { const a = new Uint8Array(s), lo = rnd(s), hi = lo + 1 + rnd(s - lo); a.fill(1, lo, hi); return a; });
    if (rnd(5) === 0) inWin[rnd(r)].fill(0);
    const W = 1 + rnd(120), H = 1 + rnd(80);
    const L = (r > 1 && rnd(3) > 0 && panels(n / (sizes[r - 1] * sizes[r - 2]), sizes[r - 2], sizes[r - 1], W, H, rnd(2) ? 14 : 0)) || strip(n, r > 1 ? sizes[r - 1] : 0, W, H);
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
})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got != "ok 400" {
		t.Error(got)
	}
}
