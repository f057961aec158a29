//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used so far (user and
// system): with -self, the server's and the loader's together.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
