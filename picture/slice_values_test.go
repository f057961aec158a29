package picture

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"math"
	"net/url"
	"runtime"
	"testing"
)

// The page and the edit draw the same picture and read only the cells
// they show; the canvases' values are the page's to compute, from the
// meta's fill flag and pattern.
func TestSliceMetaTellsThePageHowToFill(t *testing.T) {
	tests := []struct {
		name, query string
		fill        bool
		pattern     []byte // the typed values' raw elements
	}{
		{name: "example 2", query: "preset=example2", fill: true},
		{name: "typed values", query: "preset=example2&vals=10,20,30", fill: true, pattern: f32s(10, 20, 30)},
		{name: "broadcast typed values", query: "preset=broadcast&vals=1,2,3", fill: true, pattern: f32s(1, 2, 3)},
		{name: "UINT8 wraps", query: "dt=UINT8&sizes=16,16&woff=0,0&wsize=16,16&wstride=1,1", fill: true},
		{name: "FLOAT16", query: "dt=FLOAT16&sizes=2&woff=0&wsize=2&wstride=-1&vals=0.1,65504", fill: true, pattern: []byte{0x66, 0x2e, 0xff, 0x7b}},
		{name: "INT16 negative", query: "dt=INT16&sizes=300,40&vals=-2,7", fill: true, pattern: []byte{0xfe, 0xff, 7, 0}},
		{name: "canvases", query: "sizes=300,300&woff=5,7&wsize=200,250&wstride=-3,2&vals=4,-2,9", fill: true, pattern: f32s(4, -2, 9)},
		{name: "buffer too large to fill", query: "dt=FLOAT64&sizes=3,3&strides=5000000,1", fill: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			_, v, _ := ResolveSlice(q)
			if v.Slice == nil {
				t.Fatal("invalid query")
			}
			_, _, p, err := DrawSlice(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			if p.Meta.Fill != tt.fill {
				t.Errorf("fill %v, want %v", p.Meta.Fill, tt.fill)
			}
			if want := base64.StdEncoding.EncodeToString(tt.pattern); p.Meta.Pattern != want {
				t.Errorf("pattern %q, want %q", p.Meta.Pattern, want)
			}
			if tt.fill && len(p.Meta.Values) == 0 {
				t.Error("no values")
			}
		})
	}
}

func f32s(vs ...float32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// F1: the page of a 4096×4096 slice filled 16.7 M values (64 MiB in, 64
// MiB out) for canvases the stream draws; it now allocates a few MiB.
func TestSlicePageOfALargeSliceAllocatesLittle(t *testing.T) {
	q, _ := url.ParseQuery("sizes=4096,4096")
	_, v, _ := ResolveSlice(q)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	_, _, pg, err := DrawSlice(context.Background(), v)
	runtime.ReadMemStats(&ms1)
	if err != nil {
		t.Fatal(err)
	}
	alloc := int64(ms1.TotalAlloc - ms0.TotalAlloc)
	t.Logf("allocated %d bytes", alloc)
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes, want under 16 MiB", alloc)
	}
	if len(pg.Meta.Values) != 4096 || pg.Meta.Values[4095] != "4096" {
		t.Errorf("%d values, the last %q", len(pg.Meta.Values), pg.Meta.Values[len(pg.Meta.Values)-1])
	}
}
