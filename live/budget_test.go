package live

import (
	"context"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/ops/convert"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/picture"
)

// TestEditCostsCoverAllocations: the work budget's estimate of an edit
// covers all that the edit allocates, garbage included (so the live peak
// too), for the largest states the explorers stream.
func TestEditCostsCoverAllocations(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocates hundreds of MiB (the race detector's shadow memory multiplies it)")
	}
	h := &Hub{Answers: NewAnswers(DefaultAnswerBytes)}
	query := func(q string) url.Values {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	layout := func(q string) int64 {
		v := picture.Validate(picture.LayoutStateFromQuery(query(q)))
		return picture.LayoutCost(v.Layout, picture.InEdit)
	}
	slice := func(q string) int64 {
		v := slice1.Validate(slice1.StateFromQuery(query(q)))
		return slice1.Cost(v.Slice, true)
	}
	conv := func(q string) int64 {
		v := convert.Validate(convert.StateFromQuery(query(q)))
		if v.ID == nil {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return convert.Cost(v.ID, true)
	}
	joinsplit := func(q string) int64 {
		v := join.Validate(join.StateFromQuery(query(q)))
		if !v.Valid() {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return join.Cost(v, true)
	}
	join8 := "op=join&dt=FLOAT32&axis=2" + strings.Repeat("&in=2,2,4,2&st=16,8,2,1", 8)
	transpose := "dt=FLOAT32&sizes=4096,4096&imode=packed&omode=explicit&ostrides=1,4096"
	broadcast := "dt=UINT8&sizes=4096,4096&imode=explicit&istrides=0,1&omode=packed"
	full := "sizes=64,64&woff=0,0&wsize=64,64&wstride=1,1"
	for _, tt := range []struct {
		name, page, query string
		cost              int64
	}{
		{"layout edit, DOM", "layout", "sizes=64,64", layout("sizes=64,64")},
		{"layout edit, counts", "layout", "sizes=4096,4095&strides=4096,1", layout("sizes=4096,4095&strides=4096,1")},
		{"layout edit, bitmap", "layout", "sizes=4096,4096", layout("sizes=4096,4096")},
		{"slice edit, DOM", "slice", full, slice(full)},
		{"slice edit, canvas", "slice", "sizes=4096,4096", slice("sizes=4096,4096")},
		{"convert edit, DOM", "convert", "preset=nhwc-nchw", conv("preset=nhwc-nchw")},
		{"convert edit, canvas", "convert", transpose, conv(transpose)},
		{"convert edit, canvas broadcast", "convert", broadcast, conv(broadcast)},
		{"convert edit, canvas 1M in place", "convert", "dt=FLOAT32&sizes=1024,1024&imode=packed&omode=explicit&ostrides=1,1024", conv("dt=FLOAT32&sizes=1024,1024&imode=packed&omode=explicit&ostrides=1,1024")},
		{"joinsplit edit, 8 inputs", "joinsplit", join8, joinsplit(join8)},
		{"joinsplit edit, too large for the grids", "joinsplit", "op=split&dt=FLOAT32&axis=0&in=4096,4096&st=&outs=1,4095", joinsplit("op=split&dt=FLOAT32&axis=0&in=4096,4096&st=&outs=1,4095")},
		{"slice edit, broadcast", "slice", "dt=UINT8&sizes=4096,4096&strides=0,1", slice("dt=UINT8&sizes=4096,4096&strides=0,1")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ms0, ms1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			err := h.answerEdit(context.Background(), "", clientMsg{V: ProtocolVersion, Type: "edit", Seq: 1, Page: tt.page, Query: tt.query}, func(f frame) error {
				putPooled(f)
				return nil
			})
			runtime.ReadMemStats(&ms1)
			if err != nil {
				t.Fatalf("%s: %v", tt.query, err)
			}
			alloc := int64(ms1.TotalAlloc - ms0.TotalAlloc)
			t.Logf("allocated %.1f MiB, estimated %.1f MiB", float64(alloc)/(1<<20), float64(tt.cost)/(1<<20))
			if alloc > tt.cost {
				t.Errorf("allocated %d bytes, more than the estimate %d", alloc, tt.cost)
			}
		})
	}
}
