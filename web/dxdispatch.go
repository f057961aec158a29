package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/interop"
	"github.com/stridescope/stridescope/ops/slice1"
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
		var req slice1.Request
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
	q, err := parsePageQuery(c, slice1.MaxQueryLen)
	if err != nil {
		return err
	}
	st, qvs := slice1.StateFromQuery(q)
	v := slice1.Validate(st, qvs)
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
	ctx, n := c.Request().Context(), s.importLength(c)
	if err := budget.Take(ctx, n); err != nil {
		return err
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return readError(err)
	}
	if ierr := interop.CheckImportSize(body); ierr != nil {
		return &apiError{status: http.StatusRequestEntityTooLarge, violations: ierr.Violations}
	}
	if err := s.takeDecoding(ctx, n); err != nil {
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

// An import takes its share of the work budget (interop.ImportCost of
// the length its request declares, or of the import limit for a body
// sent in chunks) in two steps: the body's bytes before it is read, and
// the rest, what decoding allocates, once it is read and checked. The
// server hears that a client went away only once its body is read, so
// an import abandoned while it waits for the second share stops waiting
// at once (its context ends), and takes no decoding.

// importLength is the body length an import's budget is counted from.
func (s *Server) importLength(c echo.Context) int64 {
	n := c.Request().ContentLength
	if n < 0 || n > s.importLimit {
		n = s.importLimit
	}
	return n
}

// takeDecoding takes the rest of the import's share, for a body of n
// bytes whose bytes are held already, and says whether its client is
// still there.
func (s *Server) takeDecoding(ctx context.Context, n int64) error {
	if err := budget.Take(ctx, interop.ImportCost(n)-n); err != nil {
		return err
	}
	return ctx.Err()
}

// postImportPage is POST /import, the import box without JavaScript: a
// result without notes goes straight to its page (303); notes or errors
// are shown on a page of their own.
func (s *Server) postImportPage(c echo.Context) error {
	n := s.importLength(c)
	if err := budget.Take(c.Request().Context(), n); err != nil {
		return err
	}
	if err := parseForm(c); err != nil {
		return err
	}
	pasted := c.FormValue("text")
	var res *interop.ImportResponse
	ierr := interop.CheckImportSize([]byte(pasted))
	if ierr == nil {
		if err := s.takeDecoding(c.Request().Context(), n); err != nil {
			return err
		}
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
