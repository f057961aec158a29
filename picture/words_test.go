package picture

import (
	"testing"

	"github.com/stridescope/stridescope/core"
)

func TestInWords(t *testing.T) {
	for _, c := range []struct {
		v    core.Violation
		rank int
		want string
	}{
		{core.Violation{Field: "sizes[1]", Message: "sizes[1] == 0: specifying a size of zero in any dimension is invalid"}, 2,
			"The size of dimension W is 0: no dimension may be empty — sizes[1] == 0: specifying a size of zero in any dimension is invalid"},
		{core.Violation{Field: "inputStrides[0]", Message: "inputStrides[0] = -3: negative"}, 4,
			"The stride of dimension N is negative (-3): a tensor's strides cannot be; a slice's window strides can reverse — inputStrides[0] = -3: negative"},
		{core.Violation{Field: "inputWindowStrides[2]", Message: "axis 2: InputWindowStrides[2] == 0 (strides may not be 0)"}, 4,
			"The window's stride on axis 2 (H) is 0: the window must step forwards or backwards — axis 2: InputWindowStrides[2] == 0 (strides may not be 0)"},
		{core.Violation{Field: "totalTensorSizeInBytes", Message: "totalTensorSizeInBytes 8 < DMLCalcBufferTensorSize 16777216: the buffer must hold every element"}, 2,
			"TotalTensorSizeInBytes is 8 bytes, fewer than the 16\u202f777\u202f216 the tensor's elements need — totalTensorSizeInBytes 8 < DMLCalcBufferTensorSize 16777216: the buffer must hold every element"},
		{core.Violation{Field: "inputWindowOffsets[0]", Message: "InputWindowOffsets[0] = -1 is not a UINT (0 to 2^32-1)"}, 2,
			"The window's offset on axis 0 (H) is negative (-1) — InputWindowOffsets[0] = -1 is not a UINT (0 to 2^32-1)"},
		{core.Violation{Field: "inputWindowStrides[1]", Message: "InputWindowStrides[1] = -3000000000 is not an INT (-2^31 to 2^31-1)"}, 2,
			"The window's stride on axis 1 (W) is out of the range DirectML takes — InputWindowStrides[1] = -3000000000 is not an INT (-2^31 to 2^31-1)"},
		{core.Violation{Field: "sizes[0]", Message: "sizes[0] = 4294967296 exceeds the UINT maximum 2^32-1"}, 1,
			"The size of dimension W is out of the range DirectML takes — sizes[0] = 4294967296 exceeds the UINT maximum 2^32-1"},
		// Rules that read well as they are stay as they are.
		{core.Violation{Field: "dataType", Message: "choose a data type (e.g. FLOAT32)"}, 2, "choose a data type (e.g. FLOAT32)"},
	} {
		if got := InWords([]core.Violation{c.v}, c.rank)[0].Message; got != c.want {
			t.Errorf("%s: %q\nwant %q", c.v.Field, got, c.want)
		}
	}
}
