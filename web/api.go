package web

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

func (s *Server) postLayout(c echo.Context) error {
	var req picture.LayoutRequest
	if err := decodeStrict(c.Request().Body, &req); err != nil {
		return err
	}
	l, err := req.Layout()
	if err != nil {
		return err
	}
	if err := budget.Take(c.Request().Context(), picture.LayoutAPICost(l)); err != nil {
		return err
	}
	resp := picture.NewLayoutResponse(l)
	resp.Warnings = i18n.LocaleOf(c.Request().Context()).Violations(resp.Warnings)
	return c.JSON(http.StatusOK, resp)
}

func (s *Server) postSlice1(c echo.Context) error {
	var req picture.Slice1Request
	if err := decodeStrict(c.Request().Body, &req); err != nil {
		return err
	}
	sl, err := req.Slice1()
	if err != nil {
		return err
	}
	if err := budget.Take(c.Request().Context(), picture.SliceAPICost(sl)); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, localSlice1Response(c, sl))
}

func (s *Server) postSliceV1(c echo.Context) error {
	var req picture.SliceV1Request
	if err := decodeStrict(c.Request().Body, &req); err != nil {
		return err
	}
	sl, err := req.SliceV1()
	if err != nil {
		return err
	}
	if err := budget.Take(c.Request().Context(), picture.SliceAPICost(sl)); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, picture.SliceV1Response{
		Slice1: picture.Slice1Window{
			InputWindowOffsets: sl.WindowOffsets, InputWindowSizes: sl.WindowSizes,
			InputWindowStrides: sl.WindowStrides, OutputSizes: sl.OutputSizes,
		},
		Slice1Response: localSlice1Response(c, sl),
	})
}

func (s *Server) postSlice1Numpy(c echo.Context) error {
	var req picture.NumpyRequest
	if err := decodeStrict(c.Request().Body, &req); err != nil {
		return err
	}
	var vs []core.Violation
	if req.Expression == "" {
		vs = append(vs, core.NewMsg("numpy.required", "expression is required (e.g. \"x[1:4, ::-2]\")", nil).At("expression"))
	}
	// The input sizes obey the tensor rules; report them all together.
	if _, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: req.InputSizes}); err != nil {
		for _, v := range picture.CoreViolations(err) {
			vs = append(vs, v.Renamed("input"+i18n.UpperFirst(v.Field)))
		}
	}
	if len(vs) > 0 {
		return invalid(vs...)
	}
	w, err := core.ParseNumpy(req.InputSizes, req.Expression)
	if err != nil {
		return invalid(core.ViolationOf("expression", err))
	}
	return c.JSON(http.StatusOK, picture.NumpyResponse{
		InputWindowOffsets: w.WindowOffsets,
		InputWindowSizes:   w.WindowSizes,
		InputWindowStrides: w.WindowStrides,
		OutputSizes:        w.OutputSizes,
		DroppedAxes:        append([]int{}, w.DroppedAxes...),
		PythonSliceIndices: pythonIndices(w),
		NumPy:              core.FormatNumpy(w.WindowOffsets, w.WindowSizes, w.WindowStrides, w.OutputSizes),
	})
}

// localSlice1Response is sl's response with its warnings in the request's
// language.
func localSlice1Response(c echo.Context, sl *core.Slice1) picture.Slice1Response {
	resp := picture.NewSlice1Response(sl)
	resp.Warnings = i18n.LocaleOf(c.Request().Context()).Violations(resp.Warnings)
	return resp
}

// pythonIndices is w's Python slice.indices as JSON numbers, exact however
// large a step was written.
func pythonIndices(w *core.NumpyWindow) [][3]json.Number {
	out := make([][3]json.Number, 0, len(w.Indices))
	for _, ix := range w.PythonIndices() {
		out = append(out, [3]json.Number{json.Number(ix[0]), json.Number(ix[1]), json.Number(ix[2])})
	}
	return out
}
