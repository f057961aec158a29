package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataSecret: a server with -data and no -room-secret keeps one secret
// beside its rooms, and refuses to replace a broken one (which would make
// every stored room unreadable).
func TestDataSecret(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	first, err := dataSecret(dir)
	if err != nil || len(first) != 64 {
		t.Fatalf("first secret %q, %v", first, err)
	}
	info, err := os.Stat(filepath.Join(dir, "room-secret"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v, mode %v", err, info.Mode())
	}
	if again, err := dataSecret(dir); err != nil || again != first {
		t.Errorf("the second start read %q (%v), want the first secret", again, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "room-secret"), []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := dataSecret(dir); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("a short secret: %v, want a refusal", err)
	}
}
