// Package viewstest is what the tests of the views and of each
// operator's templ file share: render a component and query the HTML it
// wrote, by the data-testid hooks the pages and the browser tests use.
package viewstest

import (
	"bytes"
	"context"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
)

// Doc renders c and parses the HTML it wrote.
func Doc(t testing.TB, c templ.Component) *goquery.Document {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	d, err := goquery.NewDocumentFromReader(&b)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	// The document as a browser shows it: a template's content is inert
	// (the row a dims table keeps for a larger rank, views.DimTemplate).
	d.Find("template").Remove()
	return d
}

// TID is the selector of the elements with data-testid id.
func TID(id string) string { return `[data-testid="` + id + `"]` }
