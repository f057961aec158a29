package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/interop"
	"github.com/stridescope/stridescope/views"
)

// postDxDispatch is POST /api/v1/dxdispatch: the body of /api/v1/slice1
// (it has inputSizes) or of /api/v1/layout (sizes), answered with a
// DxDispatch model file that runs it.
func (s *Server) postDxDispatch(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return readError(err)
	}
	plan, bad, err := interop.DxBodyPlan(body)
	if bad != nil {
		return &apiError{status: http.StatusBadRequest, violations: bad}
	}
	if err != nil {
		return err
	}
	return writeDxPlan(c, plan)
}

// dxRoutes are GET /api/v1/dxdispatch/<explorer>.json: the model of the
// explorer's state in the query, for its download link, for every
// explorer DxDispatch can run.
func (s *Server) dxRoutes(api *echo.Group) {
	for _, k := range s.kinds {
		plan, ok := interop.DxExporters[k.Name()]
		if !ok {
			continue
		}
		api.GET("/dxdispatch/"+k.Name()+".json", s.budgeted(asAPI, func(c echo.Context) error {
			q, err := parsePageQuery(c, k.MaxQuery())
			if err != nil {
				return err
			}
			p, err := plan(q)
			if err != nil {
				return err
			}
			return writeDxPlan(c, p)
		}))
	}
}

// writeDxPlan takes what building the model costs from the budget,
// builds it and answers with it.
func writeDxPlan(c echo.Context, p interop.DxPlan) error {
	ctx := c.Request().Context()
	if err := budget.Take(ctx, p.Cost); err != nil {
		return err
	}
	m, vs := p.Build(ctx)
	return writeDxModel(c, p.File, m, vs)
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
	ctx := c.Request().Context()
	body, err := s.readModelBody(c)
	if err != nil {
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

// readModelBody reads the body of an import or a check, which may carry
// a DxDispatch model: its share of the budget taken in two steps (below),
// a body holding more than an import can use refused before it decodes.
func (s *Server) readModelBody(c echo.Context) ([]byte, error) {
	ctx, n := c.Request().Context(), s.importLength(c)
	if err := budget.Take(ctx, n); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, readError(err)
	}
	if err := clientGone(ctx); err != nil {
		return nil, err
	}
	if ierr := interop.CheckImportSize(body); ierr != nil {
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, violations: ierr.Violations}
	}
	if err := s.takeDecoding(ctx, n); err != nil {
		return nil, err
	}
	return body, nil
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

// clientGone says whether the client of a request whose body has just
// been read has gone. The connection's background read, which starts
// once the body is read, is what cancels ctx then; on a busy machine it
// may not have run yet, so a moment's wait lets it before the body is
// scanned and decoded. Requests abandoned while they queued for their
// address's slots read their bodies when their turn comes: without the
// wait each scanned its 2 MiB for nothing.
func clientGone(ctx context.Context) error {
	wait := time.NewTimer(2 * time.Millisecond)
	defer wait.Stop()
	select {
	case <-ctx.Done():
	case <-wait.C:
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
	if err := clientGone(c.Request().Context()); err != nil {
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
