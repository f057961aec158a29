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
// file is cached), and prints the minimum, median and maximum of each,
// and of navigation -> drawn for the explorers' pages: a comparison of
// pages or builds made in the same minutes.
func compareFCP(tab context.Context, c config, pages []string, out io.Writer) error {
	urls := make([]string, len(pages))
	for i, p := range pages {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "http://") && !strings.HasPrefix(p, "https://") {
			p = c.url + p
		}
		urls[i] = p
	}
	fcps, drawn, err := firstPaints(tab, c, urls)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "First contentful paint and, for a page with a picture, navigation -> drawn (as in the table), %d navigations each, alternating; load %s.\n\n", c.runs, loadAvg())
	fmt.Fprintln(out, "| page | FCP min | median | max | drawn min | median | max |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	for i, u := range urls {
		f, d := fcps[i], drawn[i]
		row := fmt.Sprintf("| %s | %s | %s | %s |", u, ms(f.min()), ms(f.median()), ms(f.max()))
		if len(d) == 0 {
			row += " | | |"
		} else {
			row += fmt.Sprintf(" %s | %s | %s |", ms(d.min()), ms(d.median()), ms(d.max()))
		}
		fmt.Fprintln(out, row)
	}
	return nil
}

// firstContentfulPaint is the page's first contentful paint, once there
// is one; else 0.
const firstContentfulPaint = `(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0`

// firstPaints navigates to each URL c.runs times, the URLs alternating
// after one untimed round (so that every static file is cached), and
// gives each one's first contentful paints and, where the page has a
// #picture and modules to link it, its navigation -> drawn (never
// before its FCP).
func firstPaints(tab context.Context, c config, urls []string) (fcps, drawn []timings, err error) {
	got := make([]timings, len(urls))
	drawn = make([]timings, len(urls))
	for run := 0; run <= c.runs; run++ {
		for i, u := range urls {
			if err := step(tab, c.timeout, chromedp.Navigate("about:blank")); err != nil {
				return nil, nil, err
			}
			if err := step(tab, c.timeout, chromedp.Navigate(u)); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", u, err)
			}
			fcp, err := waitValue[float64](tab, c.timeout, firstContentfulPaint)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: first contentful paint: %w", u, err)
			}
			picture, err := eval[bool](tab, c.timeout, `!!document.querySelector('#picture') && !!document.querySelector('script[type=module]')`)
			if err != nil {
				return nil, nil, err
			}
			var at float64
			if picture {
				if at, err = waitValue[float64](tab, c.timeout, drawnAndLive); err != nil {
					return nil, nil, fmt.Errorf("%s: not drawn and live: %w", u, err)
				}
			}
			if run > 0 {
				got[i] = append(got[i], fcp)
				if picture {
					drawn[i] = append(drawn[i], max(at, fcp))
				}
			}
		}
	}
	return got, drawn, nil
}

// floorPaint navigates to the floor page and gives its first contentful
// paint.
func floorPaint(tab context.Context, c config) (float64, error) {
	if err := step(tab, c.timeout, chromedp.Navigate("about:blank")); err != nil {
		return 0, err
	}
	if err := step(tab, c.timeout, chromedp.Navigate(c.url+floorPage)); err != nil {
		return 0, fmt.Errorf("the floor page: %w", err)
	}
	fcp, err := waitValue[float64](tab, c.timeout, firstContentfulPaint)
	if err != nil {
		return 0, fmt.Errorf("the floor page: first contentful paint: %w", err)
	}
	return fcp, nil
}
