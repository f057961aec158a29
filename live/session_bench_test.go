package live

import (
	"context"
	"testing"
)

// BenchmarkEdit is the server side of one explorer edit, without the
// network: decode the message and its query, Validate with core, compute
// the picture, offsets and highlight with compute, and encode the JSON
// result and every binary frame. Sizes are logical elements; 256 is the
// largest DOM picture (views.MaxDOMCells), above it the views are canvases
// fed by binary frames.
//
//	go test -run '^$' -bench Edit -benchtime 10x ./live
func BenchmarkEdit(b *testing.B) {
	cases := []struct{ name, page, query string }{
		{"6", "", "dt=FLOAT32&sizes=2,3"},                                               // the smallest picture
		{"256", "", "dt=FLOAT32&sizes=16,16"},                                           // the largest DOM picture
		{"4K", "", "dt=FLOAT32&sizes=64,64"},                                            // canvases, touched bitmap
		{"4K-overlap", "", "dt=FLOAT32&sizes=64,64&strides=1,1"},                        // a canvas, and a DOM buffer of 127 cells
		{"64K", "", "dt=FLOAT32&sizes=256,256&strides=260,1"},                           // padded rows, touched bitmap
		{"1M", "", "dt=FLOAT32&sizes=1024,1024"},                                        // canvas, packed
		{"16M", "", "dt=FLOAT32&sizes=4096,4096"},                                       // 2^24 elements, packed
		{"16M-NHWC", "", "dt=FLOAT16&sizes=1,16,1024,1024&strides=16777216,1,16384,16"}, // channels innermost
		{"16M-overlap", "", "dt=FLOAT32&sizes=4096,4096&strides=1,1"},                   // saturated counts per cell
		{"slice-4K", "slice", "dt=FLOAT32&sizes=64,64&woff=0,0&wsize=64,64&wstride=1,1"},
		{"slice-1M", "slice", "dt=FLOAT32&sizes=1024,1024&woff=0,0&wsize=512,512&wstride=2,2"},
	}
	h := &Hub{}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			data := mustJSON(clientMsg{V: ProtocolVersion, Type: "edit", Seq: 1, Query: bc.query, Page: bc.page})
			var sent, frames int64
			emit := func(f frame) error {
				sent += int64(len(f.data))
				frames++
				if f.pooled != nil {
					*f.pooled = (*f.pooled)[:0]
					framePool.Put(f.pooled)
				}
				return nil
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				msg, problem := decodeClientMsg(data)
				if problem != "" {
					b.Fatal(problem)
				}
				if err := h.runEdit(ctx, msg, emit); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sent)/float64(b.N), "B-sent/edit")
			b.ReportMetric(float64(frames)/float64(b.N), "frames/edit")
		})
	}
}
