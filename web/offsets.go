package web

import "github.com/stridescope/stridescope/core"

// layoutOffsets and sliceOffsets list per-element buffer offsets for the
// JSON answers (callers bound the count by MaxListedElements).
func layoutOffsets(l *core.Layout) []int64 {
	o, _ := l.Offsets(MaxListedElements)
	return o
}

func sliceOffsets(s *core.Slice1) []int64 {
	o, _ := s.InputOffsets(MaxListedElements)
	return o
}
