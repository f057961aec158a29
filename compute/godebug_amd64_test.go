package compute

import (
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
)

func TestGodebugOffReadsTheRuntimesSettings(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"cpu.avx=off", true},
		{"cpu.avx2=off", false},
		{"madvdontneed=1,cpu.avx=off", true},
		{"cpu.all=off", true},
		{"cpu.all=off,cpu.avx=on", false},
		{"cpu.avx=off,cpu.all=on", false},
		{"cpu.avx=on", false},
		{" cpu.avx=off ", true},
		{"cpu.avx", false},
	} {
		if got := godebugOff(c.godebug, "avx"); got != c.want {
			t.Errorf("godebugOff(%q, avx) = %v, want %v", c.godebug, got, c.want)
		}
	}
}

// TestUseAVXFollowsGODEBUG runs this test binary again with
// GODEBUG=cpu.avx=off: the AVX paths must be off in that process.
func TestUseAVXFollowsGODEBUG(t *testing.T) {
	if os.Getenv("STRIDESCOPE_REPORT_AVX") == "1" {
		fmt.Printf("useAVX=%v\n", useAVX)
		return
	}
	if !hasAVX() {
		t.Skip("this CPU has no AVX: nothing to turn off")
	}
	cmd := osexec.Command(os.Args[0], "-test.run=^TestUseAVXFollowsGODEBUG$")
	cmd.Env = append(os.Environ(), "STRIDESCOPE_REPORT_AVX=1", "GODEBUG=cpu.avx=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(string(out), "useAVX=false") {
		t.Errorf("with GODEBUG=cpu.avx=off the child reports %q, want useAVX=false", out)
	}
}
