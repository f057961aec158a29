package picture

import (
	"context"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// TestHelperNotesExplainTheWrap drives helperNotes with what the helpers
// return for FLOAT32 {3} strides {2^31}, which validation rejects (index
// 2^32), to check the wording of the wrap note.
func TestHelperNotesExplainTheWrap(t *testing.T) {
	sizes, strides := []int64{3}, []int64{1 << 31}
	dmlx := core.PublishedHelperResult(core.Float32, sizes, strides, true)
	docPage := core.PublishedHelperResult(core.Float32, sizes, strides, false)
	if dmlx != 4 || docPage != 4 {
		t.Fatalf("helpers %d/%d, want the wrapped 4", dmlx, docPage)
	}
	s := core.BufferSizeSteps{ElementSizeInBits: 32, StridesGiven: true, IndexOfLastElement: 1 << 32, ElementCount: 1<<32 + 1,
		SizeInBits: (1<<32 + 1) * 32, BytesBeforeRounding: (1<<32 + 1) * 4, Result: (1<<32 + 1) * 4}
	notes := helperNotes(context.Background(), core.Float32, s, dmlx, docPage)
	if len(notes) != 1 || notes[0].TestID != "helper-note-directmlx" {
		t.Fatalf("notes %+v", notes)
	}
	want := "DirectMLX.h's DMLCalcBufferTensorSize returns 4 bytes for this tensor: it sums the index of the last element in a 32-bit UINT, which wraps (4294967296 mod 2^32 = 0). stridescope computes it exactly: 17179869188 bytes."
	if notes[0].Text != want {
		t.Errorf("note %q,\nwant %q", notes[0].Text, want)
	}
	if got := helperNotes(context.Background(), core.Float32, core.CalcBufferTensorSize(core.Float32, []int64{3}, nil), 12, 12); got != nil {
		t.Errorf("notes where the helpers agree: %+v", got)
	}
}
