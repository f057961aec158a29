package live

import (
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
