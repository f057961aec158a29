//go:build !unix

package main

// lockDataDir does not lock on systems without flock(2): there, run one
// process per -data directory yourself (see docs/operations.md).
func lockDataDir(dir, addr string) error { return nil }
