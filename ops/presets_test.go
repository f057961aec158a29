package ops_test

import (
	"context"
	"testing"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/layout"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/ops/tile"
	"github.com/stridescope/stridescope/picture"
)

// TestPresetTitlesAreInTheCatalogs: every example's title has a catalog
// entry whose English is the title itself, so the pages can show it in
// every locale and English pages read as before.
func TestPresetTitlesAreInTheCatalogs(t *testing.T) {
	ctx := context.Background()
	fr := i18n.WithLocale(ctx, i18n.French)
	ps := append(layout.PresetLinks(picture.LayoutState{}, false), slice1.PresetLinks(slice1.State{}, false)...)
	ps = append(ps, join.PresetLinks(join.DefaultState(), false)...)
	ps = append(ps, padding1.PresetLinks(padding1.State{}, false)...)
	ps = append(ps, tile.PresetLinks(tile.State{}, false)...)
	for _, p := range append(ps, depthspace.PresetLinks(depthspace.State{}, false)...) {
		if got := i18n.T(ctx, i18n.Key(p.Key)); got != p.Title {
			t.Errorf("%s: catalog English %q, title %q", p.Key, got, p.Title)
		}
		if got := i18n.T(fr, i18n.Key(p.Key)); got == p.Title && p.Name != "NCDHW" {
			t.Errorf("%s: not translated into French", p.Key)
		}
	}
}
