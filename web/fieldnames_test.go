package web

import (
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
)

// fieldNameCases break a tensor's rules on every endpoint that reports
// them, under the endpoint's own name for the tensor's fields.
var fieldNameCases = []struct {
	name, path, body string
	want             map[string]string // field -> its English message
}{
	{"layout", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[0,3],"strides":[1]}`, map[string]string{
		"sizes[0]": "sizes[0] == 0: specifying a size of zero in any dimension is invalid",
		"strides":  "strides must have DimensionCount entries (2), got 1 entry",
	}},
	{"slice1", "/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[2,3],"inputStrides":[1],"inputWindowOffsets":[0,0],"inputWindowSizes":[2,3],"inputWindowStrides":[1,1]}`, map[string]string{
		"inputStrides": "inputStrides must have DimensionCount entries (2), got 1 entry",
	}},
	{"slice1/numpy", "/api/v1/slice1/numpy", `{"inputSizes":[0,6],"expression":"x[1]"}`, map[string]string{
		"inputSizes[0]": "inputSizes[0] == 0: specifying a size of zero in any dimension is invalid",
	}},
	{"slice", "/api/v1/slice", `{"dataType":"FLOAT32","inputSizes":[4,0],"inputStrides":[1],"offsets":[0],"sizes":[1],"strides":[1,1]}`, map[string]string{
		"inputSizes[1]": "inputSizes[1] == 0: specifying a size of zero in any dimension is invalid",
		"inputStrides":  "inputStrides must have DimensionCount entries (2), got 1 entry",
		"offsets":       "as DML_SLICE1: offsets has 1 entry: DimensionCount must match the DimensionCount of the input and output tensors (2)",
		"sizes":         "as DML_SLICE1: sizes has 1 entry: DimensionCount must match the DimensionCount of the input and output tensors (2)",
	}},
	{"import torch", "/api/v1/import", `{"torch":{"size":[2,0],"stride":[1]}}`, map[string]string{
		"torch.size[1]": "torch.size[1] == 0: specifying a size of zero in any dimension is invalid",
		"torch.stride":  "torch.stride must have DimensionCount entries (2), got 1 entry",
	}},
	{"import text", "/api/v1/import", `{"text":"torch.Size([2, 0]) (1,)"}`, map[string]string{
		"text.size[1]": "text.size[1] == 0: specifying a size of zero in any dimension is invalid",
		"text.stride":  "text.stride must have DimensionCount entries (2), got 1 entry",
	}},
	{"import numpy", "/api/v1/import", `{"numpy":{"dtype":"float32","shape":[2,0],"strides":[4]}}`, map[string]string{
		"numpy.shape[1]": "numpy.shape[1] == 0: specifying a size of zero in any dimension is invalid",
		"numpy.strides":  "numpy.strides must have DimensionCount entries (2), got 1 entry",
	}},
	{"import dxdispatch", "/api/v1/import", `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{
		"InputTensor":{"DataType":"FLOAT32","Sizes":[4,0],"Strides":[1]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[1,1]},
		"InputWindowOffsets":[0,0],"InputWindowSizes":[1,1],"InputWindowStrides":[1,1]}}}}}`, map[string]string{
		"dxdispatch.dispatchables.s.desc.InputTensor.Sizes[1]": "dxdispatch.dispatchables.s.desc.InputTensor.Sizes[1] == 0: specifying a size of zero in any dimension is invalid",
		"dxdispatch.dispatchables.s.desc.InputTensor.Strides":  "dxdispatch.dispatchables.s.desc.InputTensor.Strides must have DimensionCount entries (2), got 1 entry",
	}},
	{"dxdispatch layout", "/api/v1/dxdispatch", `{"dataType":"FLOAT32","sizes":[0,3],"strides":[1]}`, map[string]string{
		"sizes[0]": "sizes[0] == 0: specifying a size of zero in any dimension is invalid",
		"strides":  "strides must have DimensionCount entries (2), got 1 entry",
	}},
	{"dxdispatch slice", "/api/v1/dxdispatch", `{"dataType":"FLOAT32","inputSizes":[0,3],"inputStrides":[1],"inputWindowOffsets":[0,0],"inputWindowSizes":[1,1],"inputWindowStrides":[1,1]}`, map[string]string{
		"inputSizes[0]": "inputSizes[0] == 0: specifying a size of zero in any dimension is invalid",
		"inputStrides":  "inputStrides must have DimensionCount entries (2), got 1 entry",
	}},
}

// TestMessagesNameTheirFieldOnEveryEndpoint: a violation's message names
// the field its report gives, on every endpoint and in every language,
// however the endpoint names the tensor's fields.
func TestMessagesNameTheirFieldOnEveryEndpoint(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range fieldNameCases {
		for _, l := range i18n.Locales {
			_, vs := postLang(t, ts, c.path, "?lang="+string(l), "", c.body)
			got := map[string]bool{}
			for _, v := range vs {
				got[v.Field] = true
				if want, ok := c.want[v.Field]; ok && l == i18n.English && v.Message != want {
					t.Errorf("%s: %s: %q\nwant %q", c.name, v.Field, v.Message, want)
				}
				// A message written from a template that names its field
				// ({field}) or that nests one at a DML_SLICE field must
				// name this field, whatever the language.
				names := strings.Contains(i18n.English.T(i18n.Key(v.Code), nil), "{field}") ||
					v.Code == "slice.as.slice1" && strings.Contains(c.want[v.Field], v.Field+" has")
				if names && !strings.Contains(v.Message, v.Field) {
					t.Errorf("%s (%s): the message at %s names another field: %q", c.name, l, v.Field, v.Message)
				}
			}
			for f := range c.want {
				if !got[f] {
					t.Errorf("%s (%s): no violation at %s: %v", c.name, l, f, vs)
				}
			}
		}
	}
}
