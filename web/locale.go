package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/i18n"
)

// langCookie remembers the language a ?lang= chose.
const langCookie = "lang"

// redirectKeepingLang redirects to target with the request's ?lang=, if
// it has one: a shared link in a language leads to pages in it even where
// no cookie of ours goes along (another browser, an embed).
func redirectKeepingLang(c echo.Context, status int, target string) error {
	return c.Redirect(status, keepingLang(c, target))
}

// keepingLang is target with the request's ?lang=, if it has one.
func keepingLang(c echo.Context, target string) string {
	return i18n.WithAsked(c.Request().Context(), target)
}

// localeMiddleware puts the request's locale in its context: ?lang=
// wins (and, on a page, is remembered in the lang cookie), then that cookie, then the
// Accept-Language header matched against the catalogs' locales; English
// when none fits. Pages, API messages and errors read it from there.
func localeMiddleware() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if strings.HasPrefix(r.URL.Path, "/static/") {
				return next(c) // the assets are the same in every language
			}
			loc, ok := i18n.Parse(r.URL.Query().Get("lang"))
			if !ok {
				// The lang cookie chooses as much as the header: a shared
				// cache (the SVG pictures are public) keeps one answer per
				// both. With ?lang= the address alone says the language.
				c.Response().Header().Add("Vary", "Accept-Language")
				c.Response().Header().Add("Vary", "Cookie")
			}
			// Only a page a person opens remembers the language: the API,
			// the SVG pictures and the embeds are fetched by other sites'
			// pages and cached publicly, and must not set a cookie.
			remember := !strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, "/embed/")
			if ok && remember {
				c.SetCookie(&http.Cookie{
					Name: langCookie, Value: string(loc), Path: "/",
					MaxAge: 365 * 24 * 3600, HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteLaxMode,
				})
			}
			if !ok {
				if ck, err := r.Cookie(langCookie); err == nil {
					loc, ok = i18n.Parse(ck.Value)
				}
			}
			if !ok {
				loc = i18n.Match(r.Header.Values("Accept-Language")...)
			}
			c.SetRequest(r.WithContext(i18n.WithURL(i18n.WithLocale(r.Context(), loc), r.URL)))
			return next(c)
		}
	}
}
