package convert

import (
	"context"
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// scaleBiasShown is how many values the ScaleBias line works out.
const scaleBiasShown = 6

// scaleBiasValues says what the ScaleBias makes of the values 1, 2, ...
// (up to scaleBiasShown, at most the tensor's count) in the tensor's data
// type, as compute.IdentityOf computes them when it copies: a FLOAT16
// result rounded to a half, Scale and Bias taken as FLOATs. An integer
// tensor gets a note instead, since DirectML's pages do not say how its
// result is rounded or saturated. "" without a ScaleBias.
func scaleBiasValues(ctx context.Context, id *core.Identity) string {
	sb, dt := id.ScaleBias, id.Input.DataType
	if sb == nil {
		return ""
	}
	if !dt.IsFloat() {
		return i18n.T(ctx, "convert.scalebias.int")
	}
	k := min(id.Input.LogicalElementCount(), scaleBiasShown)
	one, err := core.NewIdentity(core.IdentityDesc{
		Input:  core.TensorDesc{DataType: dt, Sizes: []int64{k}},
		Output: core.TensorDesc{DataType: dt, Sizes: []int64{k}}, ScaleBias: sb,
	})
	if err != nil {
		return ""
	}
	e := int(dt.Bits() / 8)
	src := make([]byte, one.Input.BufferSizeInBytes())
	for i := range int(k) {
		putFloat(src[i*e:], dt, float64(i+1))
	}
	dst := make([]byte, one.Output.BufferSizeInBytes())
	if err := compute.IdentityOf(ctx, dst, src, one); err != nil {
		return ""
	}
	in, out := make([]string, k), make([]string, k)
	for i := range int(k) {
		in[i] = strconv.Itoa(i + 1)
		out[i] = floatText(dst[i*e:], dt)
	}
	more := ""
	if id.Input.LogicalElementCount() > k {
		more = ", …"
	}
	return i18n.T(ctx, "convert.scalebias.values", i18n.Args{
		"in": "{" + strings.Join(in, ", ") + more + "}", "out": "{" + strings.Join(out, ", ") + more + "}", "dt": dt.String()})
}

// putFloat stores v, a small whole number every float type holds
// exactly, as one element of dt.
func putFloat(b []byte, dt core.DataType, v float64) {
	switch dt {
	case core.Float16:
		binary.LittleEndian.PutUint16(b, compute.F32ToF16(float32(v)))
	case core.Float32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case core.Float64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	}
}

// floatText is one element of dt as the shortest decimal that reads back
// to it, as C++ and NumPy print it.
func floatText(b []byte, dt core.DataType) string {
	switch dt {
	case core.Float16:
		return halfText(binary.LittleEndian.Uint16(b))
	case core.Float32:
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', -1, 32)
	}
	return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', -1, 64)
}

// halfText is the shortest decimal that rounds back to the half h (0.1,
// not the float32 0.099975586 it widens to), as NumPy prints a float16.
func halfText(h uint16) string {
	v := float64(compute.F16ToF32(h))
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for prec := 1; prec < 17; prec++ {
		s := strconv.FormatFloat(v, 'g', prec, 64)
		if x, err := strconv.ParseFloat(s, 64); err == nil && compute.F32ToF16(float32(x)) == h {
			return strconv.FormatFloat(x, 'g', -1, 64) // 1000, not 1e+03
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
