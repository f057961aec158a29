package picture

import (
	"context"
	"net/url"
	"reflect"
	"runtime"
	"testing"
)

// A page reads only the cells it shows; an edit fills the whole buffer
// for its canvases. Both must show the same values, notes and warnings.
func TestSlicePageReadsOnlyTheCellsItShows(t *testing.T) {
	tests := []struct {
		name, query string
		filled      bool // the edit fills the buffer for a canvas
	}{
		{name: "example 2", query: "preset=example2"},
		{name: "typed values", query: "preset=example2&vals=10,20,30"},
		{name: "broadcast typed values", query: "preset=broadcast&vals=1,2,3,4,5,6,7,8,9,10,11,12"},
		{name: "UINT8 wraps", query: "dt=UINT8&sizes=16,16&woff=0,0&wsize=16,16&wstride=1,1"},
		{name: "reversed FLOAT16", query: "dt=FLOAT16&sizes=2&woff=0&wsize=2&wstride=-1&vals=0.1,65504"},
		{name: "canvases", query: "sizes=300,300&woff=5,7&wsize=200,250&wstride=-3,2&vals=4,-2,9", filled: true},
		{name: "strided buffer", query: "sizes=100,100&strides=1000,3&woff=0,0&wsize=100,100&wstride=7,-5", filled: true},
		{name: "broadcast canvas", query: "dt=INT16&sizes=3000,40&strides=0,1&woff=1,0&wsize=2999,40&wstride=2,3", filled: true},
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
			_, _, pg, err := DrawSlice(context.Background(), v, false)
			if err != nil {
				t.Fatal(err)
			}
			_, _, ed, err := DrawSlice(context.Background(), v, true)
			if err != nil {
				t.Fatal(err)
			}
			if pg.Buf != nil || pg.Out != nil {
				t.Errorf("the page filled %d buffer and %d output bytes", len(pg.Buf), len(pg.Out))
			}
			if got := ed.Buf != nil; got != tt.filled {
				t.Errorf("the edit filled the buffer: %v, want %v", got, tt.filled)
			}
			if len(pg.Meta.Values) == 0 {
				t.Error("no values")
			}
			if !reflect.DeepEqual(pg.View, ed.View) || !reflect.DeepEqual(pg.Meta, ed.Meta) || !reflect.DeepEqual(pg.Warnings, ed.Warnings) {
				t.Errorf("the page and the edit differ:\npage values %v warnings %v\nedit values %v warnings %v",
					pg.Meta.Values[:min(8, len(pg.Meta.Values))], pg.Warnings, ed.Meta.Values[:min(8, len(ed.Meta.Values))], ed.Warnings)
			}
		})
	}
}

// F1: the page of a 4096×4096 slice filled 16.7 M values (64 MiB in, 64
// MiB out) for canvases the stream draws; it now allocates a few MiB.
func TestSlicePageOfALargeSliceAllocatesLittle(t *testing.T) {
	q, _ := url.ParseQuery("sizes=4096,4096")
	_, v, _ := ResolveSlice(q)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	_, _, pg, err := DrawSlice(context.Background(), v, false)
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
