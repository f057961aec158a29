package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/chromedp/chromedp"
)

// compareFCP times the first contentful paint of each page c.runs times,
// the pages alternating (after one untimed round, so that every static
// file is cached), and prints the minimum, median and maximum of each:
// a comparison of pages or builds made in the same minutes.
func compareFCP(tab context.Context, c config, pages []string, out io.Writer) error {
	urls := make([]string, len(pages))
	for i, p := range pages {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "http://") && !strings.HasPrefix(p, "https://") {
			p = c.url + p
		}
		urls[i] = p
	}
	got, err := firstPaints(tab, c, urls)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "First contentful paint, %d navigations each, alternating; load %s.\n\n", c.runs, loadAvg())
	fmt.Fprintln(out, "| page | min | median | max |")
	fmt.Fprintln(out, "|---|---|---|---|")
	for i, u := range urls {
		t := got[i]
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", u, ms(t.min()), ms(t.median()), ms(t.max()))
	}
	return nil
}

// firstPaints navigates to each URL c.runs times, the URLs alternating
// after one untimed round (so that every static file is cached), and
// gives each one's first contentful paints.
func firstPaints(tab context.Context, c config, urls []string) ([]timings, error) {
	got := make([]timings, len(urls))
	for run := 0; run <= c.runs; run++ {
		for i, u := range urls {
			if err := step(tab, c.timeout, chromedp.Navigate("about:blank")); err != nil {
				return nil, err
			}
			if err := step(tab, c.timeout, chromedp.Navigate(u)); err != nil {
				return nil, fmt.Errorf("%s: %w", u, err)
			}
			fcp, err := waitValue[float64](tab, c.timeout, `(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0`)
			if err != nil {
				return nil, fmt.Errorf("%s: first contentful paint: %w", u, err)
			}
			if run > 0 {
				got[i] = append(got[i], fcp)
			}
		}
	}
	return got, nil
}
