package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// tourStep is one step of the guided tour through the two DirectML pages:
// a live explorer (page) in a state (query), with one of its examples worked out beside it (example).
type tourStep struct {
	key   string // its texts' catalog keys: key.title, .p1, .p2, .q (question), .a (answer)
	page  string // the explorer shown: "" is the layout explorer
	query string // the explorer's state
	// example is the explorer's example the step works out beside it
	// (explorer.TourExampler), or "".
	example string
	// ask is the step's question (.q) as a room question its explorer
	// checks exactly (explorer.Questioner), when it has one answer: the
	// presenter's bar asks it of the class.
	ask *explorer.Ask
}

// text is the step's text field f in ctx's locale.
func (st tourStep) text(ctx context.Context, f string) string {
	return i18n.T(ctx, i18n.Key(st.key+"."+f))
}

// tourSteps walk through the strides page in its order, then the two
// examples of the DML_SLICE1 page, then a layout conversion
// (DML_ELEMENT_WISE_IDENTITY from NCHW to NHWC), which puts the strides
// of steps 8 and 9 to work.
var tourSteps = []tourStep{
	{
		key: "tour.1",
		// B is selected: the step asks for E, whose answer it does not show.
		query: "dt=FLOAT32&sizes=2,3&strides=3,1&sel=0,1",
		ask:   &explorer.Ask{Kind: "offset", Element: []int64{1, 1}},
	},
	{
		key:   "tour.2",
		query: "preset=HW",
	},
	{
		key:   "tour.3",
		query: "preset=WH",
		ask:   &explorer.Ask{Kind: "element", Cell: &tourCell3},
	},
	{
		key:   "tour.4",
		query: "preset=DHW",
		ask:   &explorer.Ask{Kind: "cell", Element: []int64{1, 1, 2}},
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
		ask:   &explorer.Ask{Kind: "bytes"},
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
		key:  "tour.10",
		page: "slice", query: "preset=example1", example: "example1",
	},
	{
		key:  "tour.11",
		page: "slice", query: "preset=example2", example: "example2",
	},
	{
		key:  "tour.12",
		page: "convert", query: "dt=FLOAT32&sizes=1,2,2,3&imode=packed&omode=NHWC",
	},
	{
		key:  "tour.13",
		page: "padding", query: "preset=pad-ex3",
	},
	{
		key:  "tour.14",
		page: "depthspace", query: "op=d2s&dt=UINT32&sizes=1,8,1,1&imode=packed&block=2&vals=0,9,18,27,36,45,54,63",
	},
	{
		key:  "tour.15",
		page: "tile", query: "dt=FLOAT32&sizes=1,1,2,3&repeats=1,1,3,2&values=1,2,3,4,5,6",
	},
	{
		key:  "tour.16",
		page: "joinsplit", query: "op=split&dt=FLOAT32&axis=3&in=1,1,2,6&st=&outs=2,1,3",
	},
}

// tourCell3 is the buffer cell step 3 asks about.
var tourCell3 = int64(3)

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
	}
	k := s.tourKind(step)
	if n == len(tourSteps) {
		// The last step leads on to its explorer's own page, on the
		// step's example: tour.next.<kind> names it.
		t.Next, t.NextTitle = k.Routes().Page+"?"+step.query, i18n.T(ctx, i18n.Key("tour.next."+k.Name()))
	}
	if ex, ok := k.(explorer.TourExampler); ok && step.example != "" {
		ts, err := ex.TourExample(ctx, step.example)
		if err != nil {
			return t, err
		}
		t.Slice = &ts
	}
	var err error
	t.Explorer, err = s.showExplorer(c, k, step.query, tourHref(n), explorer.InTour)
	return t, err
}

// tourKind is the explorer a step shows.
func (s *Server) tourKind(st tourStep) explorer.Kind {
	name := st.page
	if name == "" {
		name = "layout"
	}
	k, _ := s.kinds.Find(name)
	return k
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

// pages are the pages a room can show: every explorer's and the tour's
// steps.
func (s *Server) pages() explorer.Pages {
	return explorer.Pages{Kinds: s.kinds, TourSteps: len(tourSteps), TourStep: func(n int) (string, string, *explorer.Ask) {
		st := tourSteps[n-1]
		return s.tourKind(st).Name(), st.query, st.ask
	}}
}
