//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// lockFileName is the lock file in -data: it holds the PID and the address
// of the process that has the directory, for the message of a second one.
const lockFileName = "lock"

// lockDataDir makes this process the only one using dir: two servers on
// one directory each run an embedded NATS server over the same JetStream
// files and lose each other's rooms (issue #35: 39 of 40 rooms gone after
// two stopped and one restarted). The lock is flock(2) on dir/lock, which
// the kernel releases when the process ends however it ends, so a crash
// never leaves a stale lock behind. The file stays open (and locked) for
// the life of the process; it is never removed, since removing it would
// let a third process lock a fresh file while the second still holds the
// old one.
func lockDataDir(dir, addr string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("-data %s: %w", dir, err)
	}
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("-data %s: open the lock file: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("-data %s: lock %s: %w", dir, path, err)
		}
		return fmt.Errorf("-data %s is in use by another stridescope (%s): one process per data directory, "+
			"or they lose each other's rooms; stop that one, or give this one another -data (-data \"\" keeps rooms in memory)",
			dir, holder(f))
	}
	// The holder's PID and address, for a second process's message.
	// Written after the lock is ours: a second process reading meanwhile
	// may find it empty, and says so.
	note := fmt.Sprintf("pid %d, serving %s, since %s\n", os.Getpid(), addr, time.Now().UTC().Format(time.RFC3339))
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(note), 0)
	}
	// f is kept open on purpose: closing it would release the lock.
	lockFile = f
	return nil
}

// lockFile is the open, locked file of -data, held until the process ends.
var lockFile *os.File

// holder is what the lock file says of the process that holds it.
func holder(f *os.File) string {
	b := make([]byte, 256)
	n, _ := f.ReadAt(b, 0)
	s := strings.TrimSpace(string(bytes.ToValidUTF8(b[:n], nil)))
	if s == "" {
		return "it has not written its PID yet"
	}
	if pid, _, ok := strings.Cut(strings.TrimPrefix(s, "pid "), ","); ok {
		if _, err := strconv.Atoi(pid); err == nil {
			return s
		}
	}
	return "its lock file says " + strconv.Quote(s)
}
