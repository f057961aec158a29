//go:build race

package live

// raceEnabled: tests that allocate hundreds of MiB skip under the race
// detector, whose shadow memory multiplies it.
const raceEnabled = true
