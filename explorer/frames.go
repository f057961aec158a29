package explorer

import (
	"context"
	"sync"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/views"
)

// Scratch that grows with the tensor, reused across edits rather than
// allocated per edit: every frame copies out of it (and the answers
// cache clones frames), so it is free again once the stream function
// that took it returns. sync.Pool drops it when the heap is collected,
// so a 16M edit's counts are not kept for ever.
var (
	bitsPool   sync.Pool // *[]uint64, compute.TouchedInto's bitmap
	countsPool sync.Pool // *[]uint32, compute.CellCountsInto's counts
)

// Touched is compute.Touched into a pooled bitmap; put returns it.
func Touched(ctx context.Context, w compute.Walk, cells int64) (bm []uint64, put func(), err error) {
	bp, _ := bitsPool.Get().(*[]uint64)
	if bp == nil {
		bp = new([]uint64)
	}
	bm, err = compute.TouchedInto(ctx, w, cells, *bp)
	if err != nil {
		bitsPool.Put(bp)
		return nil, nil, err
	}
	*bp = bm
	return bm, func() { bitsPool.Put(bp) }, nil
}

// CellCounts is compute.CellCounts into a pooled slice; put returns it.
func CellCounts(ctx context.Context, w compute.Walk, cells int64) (counts []uint32, put func(), err error) {
	cp, _ := countsPool.Get().(*[]uint32)
	if cp == nil {
		cp = new([]uint32)
	}
	counts, err = compute.CellCountsInto(ctx, w, cells, *cp)
	if err != nil {
		countsPool.Put(cp)
		return nil, nil, err
	}
	*cp = counts
	return counts, func() { countsPool.Put(cp) }, nil
}

// Fragments are the keys of an answer's HTML fragments by name (the
// result's html.keys): the page leaves a container whose data-key is
// already the same.
type Fragments map[string]string

// Render renders c as the fragment name and returns its HTML, keeping
// its key: a fragment that fails to render is sent empty and without a
// key.
func (f Fragments) Render(ctx context.Context, name string, c templ.Component) string {
	fr, err := views.RenderFragment(ctx, c)
	if err != nil || fr.HTML == "" {
		return ""
	}
	f[name] = fr.Key
	return fr.HTML
}
