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
	got := make([]timings, len(urls))
	for run := 0; run <= c.runs; run++ {
		for i, u := range urls {
			if err := step(tab, c.timeout, chromedp.Navigate("about:blank")); err != nil {
				return err
			}
			if err := step(tab, c.timeout, chromedp.Navigate(u)); err != nil {
				return fmt.Errorf("%s: %w", u, err)
			}
			fcp, err := waitValue[float64](tab, c.timeout, `(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0`)
			if err != nil {
				return fmt.Errorf("%s: first contentful paint: %w", u, err)
			}
			if run > 0 {
				got[i] = append(got[i], fcp)
			}
		}
	}
	fmt.Fprintf(out, "First contentful paint, %d navigations each, alternating; load %s.\n\n", c.runs, loadAvg())
	fmt.Fprintln(out, "| page | min | median | max |")
	fmt.Fprintln(out, "|---|---|---|---|")
	for i, u := range urls {
		t := got[i]
		lo := t[0]
		for _, v := range t {
			lo = min(lo, v)
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", u, ms(lo), ms(t.median()), ms(t.max()))
	}
	return nil
}
