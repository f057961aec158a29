package layout

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"testing"

	"github.com/stridescope/stridescope/explorer"
)

func TestQuestions(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		ask         explorer.Ask
		want        explorer.Posed
		err         bool
	}{
		{
			name: "padded preset, element (1,2) picked on the buffer", query: "preset=padded",
			ask: explorer.Ask{Kind: QuestionCell, Element: []int64{1, 2}},
			// 1×5 + 2×1 = 7; the packed layout's 1×3 + 2 = 5 is named; the
			// reversed strides' 11 and the byte offset 28 are past the
			// 10-cell buffer, so nobody can pick them.
			want: explorer.Posed{Kind: QuestionCell, Element: []int64{1, 2}, Max: 9, Cells: true, Correct: 7, Explain: "1×5 + 2×1 = 7",
				Wrong: []explorer.Named{{Value: 5, Name: "question.wrong.packed"}}},
		},
		{
			name: "padded preset, element (1,2) typed", query: "preset=padded",
			ask: explorer.Ask{Kind: QuestionOffset, Element: []int64{1, 2}},
			want: explorer.Posed{Kind: QuestionOffset, Element: []int64{1, 2}, Max: maxTyped, Correct: 7, Explain: "1×5 + 2×1 = 7",
				Wrong: []explorer.Named{{Value: 5, Name: "question.wrong.packed"}, {Value: 11, Name: "question.wrong.reversed"}, {Value: 28, Name: "question.wrong.bytes"}}},
		},
		{
			name: "padded preset, DMLCalcBufferTensorSize", query: "preset=padded",
			ask: explorer.Ask{Kind: QuestionBytes},
			// (7 + 1) × 32 bits = 32 bytes; 8 elements, the packed 24 and
			// the 40-byte buffer given are the slips named.
			want: explorer.Posed{Kind: QuestionBytes, Max: maxTyped, Correct: 32, Explain: "(7 + 1) × 32 bits = 256 bits = 32 B → 32 B",
				Wrong: []explorer.Named{{Value: 8, Name: "question.wrong.elements"}, {Value: 24, Name: "question.wrong.packedSize"}, {Value: 40, Name: "question.wrong.total"}}},
		},
		{
			name: "4-bit packed 3 elements: 2 bytes before the rounding to 4", query: "dt=UINT4&sizes=3",
			ask: explorer.Ask{Kind: QuestionBytes},
			want: explorer.Posed{Kind: QuestionBytes, Max: maxTyped, Correct: 4, Explain: "3 × 4 bits = 12 bits = 2 B → 4 B",
				Wrong: []explorer.Named{{Value: 3, Name: "question.wrong.elements"}, {Value: 2, Name: "question.wrong.unrounded"}}},
		},
		{
			name: "padded preset, the element of cell 7", query: "preset=padded",
			ask: explorer.Ask{Kind: QuestionElement, Cell: ptr(7)},
			// (1,2) is element 5 in row-major order; a student who takes
			// the buffer for packed picks element 7, past the six.
			want: explorer.Posed{Kind: QuestionElement, Cell: ptr(7), Elements: true, Sizes: []int64{2, 3}, Max: 5, Correct: 5, Explain: "1×5 + 2×1 = 7"},
		},
		{
			name: "padded preset, the element of cell 5", query: "preset=padded",
			ask: explorer.Ask{Kind: QuestionElement, Cell: ptr(5)},
			want: explorer.Posed{Kind: QuestionElement, Cell: ptr(5), Elements: true, Sizes: []int64{2, 3}, Max: 5, Correct: 3, Explain: "1×5 + 0×1 = 5",
				Wrong: []explorer.Named{{Value: 5, Name: "question.wrong.packedElement"}}},
		},
		{name: "a padding cell holds no element", query: "preset=padded", ask: explorer.Ask{Kind: QuestionElement, Cell: ptr(3)}, err: true},
		{name: "a cell past the buffer", query: "preset=padded", ask: explorer.Ask{Kind: QuestionElement, Cell: ptr(10)}, err: true},
		{name: "a broadcast cell holds several", query: "sizes=2,3&strides=0,1", ask: explorer.Ask{Kind: QuestionElement, Cell: ptr(1)}, err: true},
		{name: "no cell", query: "preset=padded", ask: explorer.Ask{Kind: QuestionElement}, err: true},
		{name: "element outside the tensor", query: "preset=padded", ask: explorer.Ask{Kind: QuestionCell, Element: []int64{2, 0}}, err: true},
		{name: "element of another rank", query: "preset=padded", ask: explorer.Ask{Kind: QuestionCell, Element: []int64{1}}, err: true},
		{name: "unknown kind", query: "preset=padded", ask: explorer.Ask{Kind: "reads"}, err: true},
		{name: "a tensor with errors", query: "sizes=2,3&strides=5", ask: explorer.Ask{Kind: QuestionBytes}, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			got, err := Kind{}.Question(context.Background(), q, tc.ask)
			if tc.err {
				if !errors.Is(err, explorer.ErrNoQuestion) {
					t.Fatalf("err %v, want ErrNoQuestion", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func ptr(n int64) *int64 { return &n }
