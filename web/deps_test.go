package web

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDependencyFloors fails when a dependency is older than the version
// whose fixes the server relies on (gorilla/websocket 1.5.3: close-frame
// and read-limit fixes; Echo 4.15: security fixes in the router and
// middleware).
func TestDependencyFloors(t *testing.T) {
	// Test binaries carry no dependency list, so read the module's
	// requirements: with module graph pruning go.mod names the version
	// every build selects.
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	floors := map[string][3]int{
		"github.com/gorilla/websocket": {1, 5, 3},
		"github.com/labstack/echo/v4":  {4, 15, 0},
	}
	found := map[string]bool{}
	for _, line := range strings.Split(string(gomod), "\n") {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(fields) < 2 {
			continue
		}
		floor, ok := floors[fields[0]]
		if !ok {
			continue
		}
		if strings.Contains(string(gomod), "replace "+fields[0]) {
			t.Errorf("%s is replaced; check the replacement's version by hand", fields[0])
		}
		found[fields[0]] = true
		v, err := parseSemver(fields[1])
		if err != nil {
			t.Fatalf("%s: %v", fields[0], err)
		}
		if less(v, floor) {
			t.Errorf("%s %s is older than the floor v%d.%d.%d", fields[0], fields[1], floor[0], floor[1], floor[2])
		}
	}
	for path := range floors {
		if !found[path] {
			t.Errorf("%s is not required by go.mod", path)
		}
	}
}

func parseSemver(v string) ([3]int, error) {
	var out [3]int
	core, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), "-")
	parts := strings.SplitN(core, ".", 3)
	for i := range parts {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return out, err
		}
		out[i] = n
	}
	return out, nil
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
