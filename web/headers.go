package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"github.com/stridescope/stridescope/explorer"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// contentSecurityPolicy is the policy of every response; only
// frame-ancestors differs between the embeds and every other page.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors %s; base-uri 'none'; form-action 'self'"

// DefaultFrameAncestors lets any site frame the embeds.
const DefaultFrameAncestors = "*"

// frameableRoutes are the routes other sites may frame: every
// explorer's embed and SVG picture (which documentation may show in an
// <object> or an <iframe> as well as an <img>). They are matched by
// route, never by a prefix of the raw path.
func frameableRoutes(ks explorer.Kinds) map[string]bool {
	routes := map[string]bool{}
	for _, k := range ks {
		r := k.Routes()
		routes[r.Embed], routes[r.SVG] = true, true
	}
	return routes
}

// securityHeaders sets the security headers of every response. Every page
// refuses to be framed (CSP frame-ancestors 'none' and X-Frame-Options
// DENY) except the frameable routes, whose frame-ancestors is
// frameAncestors (and which send no X-Frame-Options, which cannot allow
// a list of sites). An invalid frameAncestors fails closed: 'none'.
func securityHeaders(log *slog.Logger, frameAncestors string, frameableRoutes map[string]bool) echo.MiddlewareFunc {
	frameable := func(c echo.Context) bool { return frameableRoutes[c.Path()] }
	if frameAncestors == "" {
		frameAncestors = DefaultFrameAncestors
	}
	if err := CheckFrameAncestors(frameAncestors); err != nil {
		log.Error("embeds may not be framed", "err", err)
		frameAncestors = "'none'"
	}
	base := middleware.SecureConfig{XSSProtection: "0", ContentTypeNosniff: "nosniff", ReferrerPolicy: "no-referrer"}
	page, embed := base, base
	page.Skipper = frameable
	page.XFrameOptions = "DENY"
	page.ContentSecurityPolicy = fmt.Sprintf(contentSecurityPolicy, "'none'")
	embed.Skipper = func(c echo.Context) bool { return !frameable(c) }
	embed.ContentSecurityPolicy = fmt.Sprintf(contentSecurityPolicy, frameAncestors)
	pageMW, embedMW := middleware.SecureWithConfig(page), middleware.SecureWithConfig(embed)
	return func(next echo.HandlerFunc) echo.HandlerFunc { return pageMW(embedMW(next)) }
}

// sourceExpression is one CSP source: a scheme ("https:") or a host with
// an optional scheme, port and path ("https://*.example.com:8443/docs/").
var sourceExpression = regexp.MustCompile(`(?i)^(?:[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*://)?(?:\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(?:[0-9]{1,5}|\*))?(?:/[^\s;,'"]*)?)$`)

// CheckFrameAncestors validates the value of the frame-ancestors
// directive the embeds send: *, 'self', 'none' alone, or a space-separated
// list of 'self' and sources such as https://docs.example.com. Anything
// that could end the directive or inject another one is refused.
func CheckFrameAncestors(v string) error {
	for _, r := range v {
		if r < ' ' || r > '~' {
			return fmt.Errorf("frame-ancestors %q: only printable ASCII separated by spaces is allowed", v)
		}
	}
	fields := strings.Fields(v)
	if len(fields) == 0 {
		return fmt.Errorf("frame-ancestors is empty: give *, 'none', 'self' or origins such as https://docs.example.com")
	}
	for _, f := range fields {
		switch {
		case strings.EqualFold(f, "'none'"):
			if len(fields) > 1 {
				return fmt.Errorf("frame-ancestors: 'none' must stand alone")
			}
		case strings.EqualFold(f, "'self'"), f == "*":
		case !sourceExpression.MatchString(f):
			return fmt.Errorf("frame-ancestors: %q is not a CSP source (expected *, 'self', 'none', a scheme such as https: or an origin such as https://docs.example.com)", f)
		}
	}
	return nil
}

// apiCORS lets other sites' pages call the API from script (a
// documentation page that draws a layout it computes, a notebook in the
// browser): the API answers from the request alone and neither sets nor
// needs a cookie, so any origin may read its answers, and browsers send no
// credentials with them. The pages, the rooms and the websocket stay
// same-origin.
func apiCORS() echo.MiddlewareFunc {
	return middleware.CORSWithConfig(middleware.CORSConfig{
		Skipper:      func(c echo.Context) bool { return !strings.HasPrefix(c.Request().URL.Path, "/api/") },
		AllowOrigins: []string{"*"},
		AllowMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost},
		AllowHeaders: []string{echo.HeaderContentType, echo.HeaderAccept, "Accept-Language"},
		MaxAge:       86400,
	})
}
