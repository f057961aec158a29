package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/interop"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// dxCost bounds what building a model allocates: at most
// MaxDxInitialValues cells, each filled and written as text.
func dxCost(l *core.Layout) int64 {
	cells := min(l.BufferElementCount(), interop.MaxDxInitialValues)
	return cells*(l.DataType.Bits()/8+32) + 64<<10
}

// postDxDispatch is POST /api/v1/dxdispatch: the body of /api/v1/slice1
// (it has inputSizes) or of /api/v1/layout (sizes), answered with a
// DxDispatch model file that runs it.
func (s *Server) postDxDispatch(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return readError(err)
	}
	// Which of the two bodies it is; decodeStrict says what is wrong with
	// it, every fault at once.
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(body, &keys)
	ctx := c.Request().Context()
	if _, ok := keys["inputSizes"]; ok {
		var req picture.Slice1Request
		if err := decodeStrict(bytes.NewReader(body), &req); err != nil {
			return err
		}
		sl, inv := req.Slice1()
		if inv != nil {
			return inv
		}
		if err := budget.Take(ctx, dxCost(sl.Input)); err != nil {
			return err
		}
		m, vs := interop.DxSlice1Model(ctx, sl, nil)
		return writeDxModel(c, "stridescope-slice.json", m, vs)
	}
	if _, ok := keys["sizes"]; !ok {
		if err := decodeStrict(bytes.NewReader(body), &keys); err != nil {
			return err // not a JSON object at all
		}
		return badRequest("", "dxdispatch.body", "the body is neither a slice (the body of /api/v1/slice1, with inputSizes) nor a layout (the body of /api/v1/layout, with sizes)", nil)
	}
	var req picture.LayoutRequest
	if err := decodeStrict(bytes.NewReader(body), &req); err != nil {
		return err
	}
	l, inv := req.Layout()
	if inv != nil {
		return inv
	}
	if err := budget.Take(ctx, dxCost(l)); err != nil {
		return err
	}
	m, vs := interop.DxLayoutModel(ctx, l)
	return writeDxModel(c, "stridescope-layout.json", m, vs)
}

// getLayoutDx is GET /api/v1/dxdispatch/layout.json: the model of the
// layout explorer's state in the query, for its download link.
func (s *Server) getLayoutDx(c echo.Context) error {
	q, err := parsePageQuery(c, picture.MaxQueryLen)
	if err != nil {
		return err
	}
	st, qvs := picture.LayoutStateFromQuery(q)
	v := picture.Validate(st, qvs)
	if v.Layout == nil {
		return invalid(v.Errors...)
	}
	if err := budget.Take(c.Request().Context(), dxCost(v.Layout)); err != nil {
		return err
	}
	m, vs := interop.DxLayoutModel(c.Request().Context(), v.Layout)
	return writeDxModel(c, "stridescope-layout.json", m, vs)
}

// getSliceDx is GET /api/v1/dxdispatch/slice.json: the model of the slice
// explorer's state in the query, its typed values included.
func (s *Server) getSliceDx(c echo.Context) error {
	q, err := parsePageQuery(c, picture.MaxSliceQuery)
	if err != nil {
		return err
	}
	st, qvs := picture.SliceStateFromQuery(q)
	v := picture.ValidateSlice(st, qvs)
	if v.Slice == nil {
		return invalid(v.Errors...)
	}
	if err := budget.Take(c.Request().Context(), dxCost(v.Slice.Input)); err != nil {
		return err
	}
	m, vs := interop.DxSlice1Model(c.Request().Context(), v.Slice, v.Values)
	return writeDxModel(c, "stridescope-slice.json", m, vs)
}

func writeDxModel(c echo.Context, name string, m *interop.DxModel, vs []core.Violation) error {
	if vs != nil {
		return invalid(vs...)
	}
	b, err := interop.MarshalDxModel(m)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, b)
}

// postImport is POST /api/v1/import: a DxDispatch model, an ONNX Slice, a
// PyTorch or NumPy view, or PyTorch's printed text, answered with the
// explorer page and URL that show it. What DirectML cannot express is a
// 400 naming the field.
func (s *Server) postImport(c echo.Context) error {
	if err := s.takeImportBudget(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return readError(err)
	}
	if ierr := interop.CheckImportSize(body); ierr != nil {
		return &apiError{status: http.StatusRequestEntityTooLarge, violations: ierr.Violations}
	}
	// The server hears that a client went away only once its body is
	// read: an import abandoned while it waited for the budget stops
	// here, and between its two decodings.
	if err := ctx.Err(); err != nil {
		return err
	}
	var req interop.ImportRequest
	if err := decodeStrict(bytes.NewReader(body), &req); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	res, ierr := interop.Import(req)
	if ierr != nil {
		return &apiError{status: http.StatusBadRequest, violations: ierr.Violations}
	}
	// The notes in the request's language, as its errors are.
	return c.JSON(http.StatusOK, res.Localize(i18n.LocaleOf(c.Request().Context())))
}

// takeImportBudget takes an import's share of the work budget before
// its body is read, by the length the request declares (or the import
// limit, for a body sent in chunks): what decoding allocates grows with
// the body (interop.ImportCost).
func (s *Server) takeImportBudget(c echo.Context) error {
	n := c.Request().ContentLength
	if n < 0 || n > s.importLimit {
		n = s.importLimit
	}
	return budget.Take(c.Request().Context(), interop.ImportCost(n))
}

// postImportPage is POST /import, the import box without JavaScript: a
// result without notes goes straight to its page (303); notes or errors
// are shown on a page of their own.
func (s *Server) postImportPage(c echo.Context) error {
	if err := s.takeImportBudget(c); err != nil {
		return err
	}
	if err := parseForm(c); err != nil {
		return err
	}
	pasted := c.FormValue("text")
	var res *interop.ImportResponse
	ierr := interop.CheckImportSize([]byte(pasted))
	if err := c.Request().Context().Err(); err != nil {
		return err // gone while it waited (postImport)
	}
	if ierr == nil {
		req, vs := interop.ImportRequestOf(pasted)
		if vs != nil {
			ierr = &interop.ImportError{Violations: vs}
		} else {
			res, ierr = interop.Import(req)
		}
	}
	// Both answers, the notes and the errors, are written in the request's
	// language.
	ctx := i18n.Translated(c.Request().Context())
	c.SetRequest(c.Request().WithContext(ctx))
	if ierr != nil {
		errs := make([]views.ImportError, len(ierr.Violations))
		for i, v := range i18n.LocaleOf(ctx).Violations(ierr.Violations) {
			errs[i] = views.ImportError{Field: v.Field, Message: v.Message}
		}
		status := http.StatusBadRequest
		if ierr.TooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		return renderStatus(c, status, views.ImportResultPage("", nil, errs))
	}
	if len(res.Notes) == 0 {
		return redirectKeepingLang(c, http.StatusSeeOther, res.URL)
	}
	return renderStatus(c, http.StatusOK, views.ImportResultPage(keepingLang(c, res.URL), res.Localize(i18n.LocaleOf(ctx)).Notes, nil))
}
