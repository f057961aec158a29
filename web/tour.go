package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// tourStep is one step of the guided tour through the two DirectML pages:
// a live explorer state (query) or a DML_SLICE1 example (slice).
type tourStep struct {
	key   string // its texts' catalog keys: key.title, .p1, .p2, .q (question), .a (answer)
	query string // the layout explorer's state
	slice *tourSliceStep
}

// text is the step's text field f in ctx's locale.
func (st tourStep) text(ctx context.Context, f string) string {
	return i18n.T(ctx, i18n.Key(st.key+"."+f))
}

// tourSliceStep is one of the DML_SLICE1 page's examples.
type tourSliceStep struct {
	preset string // the slice explorer's example
	desc   core.Slice1Desc
	errata []string
}

// sliceExample is the input of the DML_SLICE1 page's examples: 4×4,
// FLOAT32, values 1..16, the window of rows 0-3 and columns 1-3.
func sliceExample(strides ...int64) core.Slice1Desc {
	return core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.Float32, Sizes: []int64{1, 1, 4, 4}},
		WindowOffsets: []int64{0, 0, 0, 1},
		WindowSizes:   []int64{1, 1, 4, 3},
		WindowStrides: strides,
	}
}

// The errata of the DML_SLICE1 page the tour points out, by name; their
// text is the catalogs' tour.e1 ... tour.e3.
const (
	erratumE1 = "E1"
	erratumE2 = "E2"
	erratumE3 = "E3"
)

// tourSteps walk through the strides page in its order, then the two
// examples of the DML_SLICE1 page.
var tourSteps = []tourStep{
	{
		key: "tour.1",
		// B is selected: the step asks for E, whose answer it does not show.
		query: "dt=FLOAT32&sizes=2,3&strides=3,1&sel=0,1",
	},
	{
		key:   "tour.2",
		query: "preset=HW",
	},
	{
		key:   "tour.3",
		query: "preset=WH",
	},
	{
		key:   "tour.4",
		query: "preset=DHW",
	},
	{
		key:   "tour.5",
		query: "dt=FLOAT32&sizes=2,2,3",
	},
	{
		key:   "tour.6",
		query: "dt=FLOAT32&sizes=2,3&strides=0,1&cell=1",
	},
	{
		key:   "tour.7",
		query: "preset=padded",
	},
	{
		key:   "tour.8",
		query: "preset=NCHW",
	},
	{
		key:   "tour.9",
		query: "preset=NHWC",
	},
	{
		key:   "tour.10",
		slice: &tourSliceStep{preset: "example1", desc: sliceExample(1, 1, 2, 2), errata: []string{erratumE3}},
	},
	{
		key:   "tour.11",
		slice: &tourSliceStep{preset: "example2", desc: sliceExample(1, 1, -2, 2), errata: []string{erratumE1, erratumE2}},
	},
}

// getTourStart sends /tour to the first step.
func (s *Server) getTourStart(c echo.Context) error {
	return redirectKeepingLang(c, http.StatusFound, tourHref(1))
}

func tourHref(n int) string { return "/tour/" + strconv.Itoa(n) }

// getTourStep is /tour/N. A layout step shows the live explorer on the
// step's state, or on the state in the URL once it has been edited.
func (s *Server) getTourStep(c echo.Context) error {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 || n > len(tourSteps) || c.Param("n") != strconv.Itoa(n) {
		return echo.ErrNotFound
	}
	if done, err := formRedirect(c, s.tourKind(tourSteps[n-1])); done || err != nil {
		return err
	}
	t, err := s.tourModel(c, n)
	if err != nil {
		return err
	}
	return renderTranslated(c, http.StatusOK, views.TourPage(t))
}

func (s *Server) tourModel(c echo.Context, n int) (views.Tour, error) {
	ctx := c.Request().Context()
	step := tourSteps[n-1]
	t := views.Tour{
		N: n, Total: len(tourSteps), Title: step.text(ctx, "title"), Text: []string{step.text(ctx, "p1"), step.text(ctx, "p2")},
		Question: step.text(ctx, "q"), Answer: step.text(ctx, "a"), Reset: tourHref(n),
	}
	for i, st := range tourSteps {
		t.Steps = append(t.Steps, views.TourLink{N: i + 1, Title: st.text(ctx, "title"), Href: tourHref(i + 1), Current: i+1 == n})
	}
	if n > 1 {
		t.Prev = tourHref(n - 1)
	}
	if n < len(tourSteps) {
		t.Next, t.NextTitle = tourHref(n+1), tourSteps[n].text(ctx, "title")
	} else {
		t.Next, t.NextTitle = "/slice?preset=example2", i18n.T(ctx, "tour.next.slice")
	}
	if step.slice != nil {
		ts, err := tourSlice(ctx, step.slice)
		if err != nil {
			return t, err
		}
		t.Slice = &ts
	}
	var err error
	t.Explorer, err = s.showExplorer(c, s.tourKind(step), step.own(), tourHref(n), explorer.InTour)
	return t, err
}

// tourKind is the explorer a step shows.
func (s *Server) tourKind(st tourStep) explorer.Kind {
	name := "layout"
	if st.slice != nil {
		name = "slice"
	}
	k, _ := s.kinds.Find(name)
	return k
}

// own is the state a step shows when its URL has none.
func (st tourStep) own() string {
	if st.slice != nil {
		return "preset=" + st.slice.preset
	}
	return st.query
}

// tourSlice works a DML_SLICE1 example out with core and the slice engine.
func tourSlice(ctx context.Context, st *tourSliceStep) (views.TourSlice, error) {
	s, err := core.NewSlice1(st.desc)
	if err != nil {
		return views.TourSlice{}, err
	}
	d, err := slice1.Diagram(ctx, s, nil)
	if err != nil {
		return views.TourSlice{}, err
	}
	brace := func(v []int64) string { return "{" + picture.JoinCoord(v) + "}" }
	return views.TourSlice{
		Href: "/slice?preset=" + st.preset,
		Numbers: []views.Fact{
			{Name: "InputTensor", Value: "FLOAT32 " + brace(s.Input.Sizes) + ", " + i18n.T(ctx, "tour.values"), TestID: "tour-input"},
			{Name: "InputWindowOffsets", Value: brace(s.WindowOffsets), TestID: "tour-offsets"},
			{Name: "InputWindowSizes", Value: brace(s.WindowSizes), TestID: "tour-sizes"},
			{Name: "InputWindowStrides", Value: brace(s.WindowStrides), TestID: "tour-strides"},
			{Name: "CopyStart", Value: brace(s.CopyStart), Hint: i18n.T(ctx, "tour.hint.copystart"), TestID: "tour-copystart"},
			{Name: "MaxCopiedElements", Value: brace(s.MaxCopied), Hint: "1 + (size − 1) / |stride|", TestID: "tour-maxcopied"},
			{Name: "OutputTensor", Value: "FLOAT32 " + brace(s.OutputSizes), TestID: "tour-outsizes"},
			{Name: "Output", Value: nested(s.OutputSizes, d.Output), Hint: i18n.T(ctx, "tour.hint.engine"), TestID: "tour-output"},
		},
		Errata: errata(ctx, st.errata),
	}, nil
}

// nested writes row-major values in brackets, leaving out leading size-1
// dimensions: [[2, 4], [10, 12]].
func nested(sizes []int64, vals []string) string {
	for len(sizes) > 1 && sizes[0] == 1 {
		sizes = sizes[1:]
	}
	var write func(sizes []int64, vals []string) string
	write = func(sizes []int64, vals []string) string {
		if len(sizes) == 1 {
			return "[" + strings.Join(vals, ", ") + "]"
		}
		per := int64(len(vals)) / sizes[0]
		parts := make([]string, sizes[0])
		for i := range parts {
			parts[i] = write(sizes[1:], vals[int64(i)*per:int64(i+1)*per])
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return write(sizes, vals)
}

// errata are the named errata with their text in ctx's locale.
func errata(ctx context.Context, names []string) []views.Fact {
	out := make([]views.Fact, len(names))
	for i, n := range names {
		out[i] = views.Fact{Name: n, Value: i18n.T(ctx, i18n.Key("tour."+strings.ToLower(n))), TestID: "erratum-" + n}
	}
	return out
}

// docsRoutes are the pages and pictures made for documentation: the
// guided tour (the explorers add their embeds and SVG pictures,
// explorerRoutes). headers.go lets other sites frame the embeds and the
// pictures, and only them.
func (s *Server) docsRoutes() {
	e := s.echo
	e.GET("/tour", s.getTourStart)
	e.GET("/tour/:n", s.budgeted(asPage, s.getTourStep))
}
