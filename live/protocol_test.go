package live

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/stridescope/stridescope/picture"
)

// TestStreamCostsMatchTheProtocol: the work budget's estimates of an
// edit's stream (picture's cost.go) use this package's frame sizes.
func TestStreamCostsMatchTheProtocol(t *testing.T) {
	for _, c := range []struct {
		name      string
		cost, got int64
	}{
		{"frame header", picture.StreamFrameHeaderLen, FrameHeaderLen},
		{"largest answer kept", picture.StreamAnswerRecord, answerMaxEntry},
	} {
		if c.cost != c.got {
			t.Errorf("%s: the budget counts %d, the protocol uses %d", c.name, c.cost, c.got)
		}
	}
}

// TestProtocolModuleMirrorsGo: the browser's one copy of the protocol's
// numbers (static/protocol.js) says what this package says, and the
// modules that read frames take the kinds from it rather than write the
// numbers again.
func TestProtocolModuleMirrorsGo(t *testing.T) {
	js, err := os.ReadFile("../static/protocol.js")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"PROTOCOL_VERSION": ProtocolVersion, "FRAME_HEADER_LEN": FrameHeaderLen,
		"counts": FrameCounts, "touched": FrameTouched, "copied": FrameCopied,
		"raw": EncodingRaw, "runs": EncodingRuns,
	}
	for name, n := range want {
		m := regexp.MustCompile(`\b` + name + `(?: =|:) (\d+)\b`).FindSubmatch(js)
		if m == nil {
			t.Errorf("static/protocol.js does not name %s", name)
			continue
		}
		if got, _ := strconv.Atoi(string(m[1])); got != n {
			t.Errorf("static/protocol.js: %s = %d, the Go protocol says %d", name, got, n)
		}
	}
	for _, module := range []string{"explorer.js", "slice.js", "rooms.js"} {
		src, err := os.ReadFile("../static/" + module)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`\bkind === \d|\bV = \d|HDR = \d`).Find(src); m != nil {
			t.Errorf("static/%s writes a protocol number itself (%q): import it from protocol.js", module, m)
		}
	}
}
