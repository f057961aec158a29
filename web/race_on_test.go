//go:build race

package web

// raceEnabled: the race detector allows 8128 live goroutines, so tests
// that open thousands of websockets run a scaled-down variant under it.
const raceEnabled = true
