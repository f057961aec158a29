package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// Defaults of the work budget (Config.WorkBudget, Config.WorkBudgetWait).
const (
	DefaultWorkBudget     = budget.DefaultBytes
	DefaultWorkBudgetWait = budget.DefaultWait
)

// How a refusal for want of budget is written: as a page or as the API's
// JSON errors.
const (
	asPage = iota
	asAPI
)

// budgetStatus is the HTTP status of a refusal: 503 when waiting may
// help, 413 when the request alone is larger than the whole budget.
func budgetStatus(e *budget.Error) int {
	if e.Busy {
		return http.StatusServiceUnavailable
	}
	return http.StatusRequestEntityTooLarge
}

// budgeted runs h with a grant of the work budget in its request's
// context, released when h returns (the response written, or a panic on
// its way to the recover middleware), and answers a refusal as a page or
// as API JSON, with Retry-After when waiting may help.
func (s *Server) budgeted(as int, h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.budget == nil {
			return h(c)
		}
		r := c.Request()
		// Shared fairly between client addresses, as the rate limits
		// count them: one address's heavy work slows that address first,
		// in memory (the budget's queues) and in CPU (inflight).
		addr := addrKey(c.RealIP())
		done, err := s.inflight.acquire(r.Context(), addr)
		if err != nil {
			return err // the client went away while it waited: 499
		}
		defer done()
		ctx, release := budget.WithGrant(budget.WithClient(r.Context(), addr), s.budget)
		defer release()
		c.SetRequest(r.WithContext(ctx))
		err = h(c)
		var be *budget.Error
		if !errors.As(err, &be) {
			return err
		}
		if be.Busy {
			c.Response().Header().Set("Retry-After", strconv.Itoa(budget.RetryAfter))
		}
		if as == asPage && r.Method != http.MethodHead {
			ctx := i18n.Translated(c.Request().Context())
			title := i18n.T(ctx, "error.too-large")
			if be.Busy {
				title = i18n.T(ctx, "error.busy")
			}
			msg := budgetMsg(be)
			page := errorPage(r.URL.Path)(title, i18n.Sentence(ctx, i18n.T(ctx, i18n.Key(msg.Code), msg.Args)), r.URL.RequestURI())
			c.SetRequest(c.Request().WithContext(ctx))
			return render(c, budgetStatus(be), page)
		}
		return &apiError{status: budgetStatus(be), violations: []core.Violation{budgetMsg(be).At("")}}
	}
}

// budgetMsg is be's refusal by code; its English is be.Error().
func budgetMsg(be *budget.Error) core.Msg {
	args := core.Args{"need": budget.MiB(be.Need), "limit": budget.MiB(be.Limit), "retry": budget.RetryAfter}
	if be.Busy {
		return core.NewMsg("budget.busy", "the server is busy with other heavy work: this needs {need} of its {limit} work budget; try again in {retry} seconds", args)
	}
	return core.NewMsg("budget.too-large", "this needs {need}, more than the server's whole work budget of {limit}: ask for fewer elements", args)
}
