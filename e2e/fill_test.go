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
			}{{"input buffer", got[0], wantBuf}, {"output", got[1], wantOut}, {"counts", got[2], wantCounts}} {
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

// pageFill runs fill.js in the page on meta: the input buffer, the output
// and the counts, as raw bytes.
func pageFill(t *testing.T, ctx context.Context, meta string) [3][]byte {
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
  return [b64(buf), b64(f.sliceOutput(meta, buf)), b64(f.cellCounts(meta.cells, off))];
})()`, meta)
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fill.js: %v", err)
	}
	var out [3][]byte
	for i, s := range res {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}
