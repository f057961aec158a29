package interop

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/picture"
)

// dxArrayOpIn holds the fields of DML_JOIN_OPERATOR_DESC and
// DML_SPLIT_OPERATOR_DESC that import reads.
type dxArrayOpIn struct {
	InputTensor   json.RawMessage   `json:"InputTensor"`
	InputTensors  []json.RawMessage `json:"InputTensors"`
	InputCount    *int64            `json:"InputCount"`
	OutputTensor  json.RawMessage   `json:"OutputTensor"`
	OutputTensors []json.RawMessage `json:"OutputTensors"`
	OutputCount   *int64            `json:"OutputCount"`
	Axis          *int64            `json:"Axis"`
}

// desc is a model's tensor as core reads it: a total of 0 is
// DxDispatch's default, the minimum.
func (t dxTensorIn) desc() core.TensorDesc {
	dt, _ := core.ParseDataType(dxTypeName(t.DataType))
	total := t.TotalTensorSizeInBytes
	if total != nil && *total == 0 {
		total = nil
	}
	return core.TensorDesc{DataType: dt, Sizes: t.Sizes, Strides: t.Strides, TotalTensorSizeInBytes: total, GuaranteedBaseOffsetAlignment: t.GuaranteedBaseOffsetAlignment}
}

// readTensors reads an array of tensor descs at path[k].
func readTensors(raws []json.RawMessage, path string) ([]dxTensorIn, []core.Violation) {
	var vs []core.Violation
	out := make([]dxTensorIn, len(raws))
	for k, raw := range raws {
		if err := out[k].read(raw, fmt.Sprintf("%s[%d]", path, k)); err != nil {
			vs = append(vs, err.Violations...)
		}
	}
	return out, vs
}

// countOf checks an array's count (InputCount, OutputCount) against the
// array when the model gives one. It is a rule of its own: the
// operator's rules are judged beside it.
func countOf(count *int64, n int, countField, path string) []core.Violation {
	if count == nil || *count == int64(n) {
		return nil
	}
	return []core.Violation{core.NewMsg("import.dx.op.count", "{field} = {n} but {array} has {count}", core.Args{"field": countField, "n": *count, "array": path, "count": core.Count{N: int64(n), Unit: "values"}}).At(countField)}
}

// dataTypeOf reads a tensor's DataType as core does, saying one it does
// not know at its field.
func dataTypeOf(t dxTensorIn, field string) []core.Violation {
	if _, err := core.ParseDataType(dxTypeName(t.DataType)); err != nil {
		return []core.Violation{core.ViolationOf(field, err)}
	}
	return nil
}

// coreTensorField is one of core's join and split fields: inputs[2].sizes[1].
var coreTensorField = regexp.MustCompile(`^(inputs|outputs)\[(\d+)\]\.(\w+)(.*)$`)

// dxJoinSplitFields are core's names of the one tensor's fields, as the
// desc names them.
var dxJoinSplitFields = map[string]string{
	"outputDataType": "OutputTensor.DataType", "outputSizes": "OutputTensor.Sizes", "outputStrides": "OutputTensor.Strides",
	"outputTotalTensorSizeInBytes": "OutputTensor.TotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment": "OutputTensor.GuaranteedBaseOffsetAlignment",
	"inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
	"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
	"axis": "Axis", "inputs": "InputTensors", "outputs": "OutputTensors",
}

// renameJoinSplit renames core's fields to the desc's: inputs[2].sizes[1]
// is InputTensors[2].Sizes[1]; the data type all the tensors share,
// dataType, is the first tensor's (first).
func renameJoinSplit(vs []core.Violation, prefix, first string) []core.Violation {
	name := func(f string) string {
		if f == "dataType" {
			return first
		}
		if m := coreTensorField.FindStringSubmatch(f); m != nil {
			array := "InputTensors"
			if m[1] == "outputs" {
				array = "OutputTensors"
			}
			return array + "[" + m[2] + "]." + strings.ToUpper(m[3][:1]) + m[3][1:] + m[4]
		}
		return renameField(f, dxJoinSplitFields)
	}
	out := make([]core.Violation, len(vs))
	for i, v := range vs {
		out[i] = v.Renamed(prefix + name(v.Field))
		if of, ok := v.Args["of"].(string); ok && of != "" && !strings.Contains(of, "Tensor") {
			out[i] = out[i].WithArg("of", prefix+name(of))
		}
	}
	return out
}

func axisOrZero(a *int64, path string) (int64, []core.Violation) {
	if a == nil {
		return 0, []core.Violation{core.NewMsg("import.required", "{field} is required", core.Args{"field": path + ".Axis"}).At(path + ".Axis")}
	}
	return *a, nil
}

// importDxJoin reads a DML_JOIN into the join and split page: every
// tensor as described, the output too (the page writes it packed, and
// says so of one that is not).
func importDxJoin(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op dxArrayOpIn
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	ins, vs := readTensors(op.InputTensors, path+".InputTensors")
	var out dxTensorIn
	if err := out.read(op.OutputTensor, path+".OutputTensor"); err != nil {
		vs = append(vs, err.Violations...)
	}
	axis, avs := axisOrZero(op.Axis, path)
	vs = append(vs, avs...)
	for k, in := range ins {
		vs = append(vs, dataTypeOf(in, fmt.Sprintf("%s.InputTensors[%d].DataType", path, k))...)
	}
	vs = append(vs, dataTypeOf(out, path+".OutputTensor.DataType")...)
	// A wrong count is said beside the operator's rules; what core cannot
	// judge (a tensor unread, no Axis, an unknown type) stops here.
	counts := countOf(op.InputCount, len(ins), path+".InputCount", path+".InputTensors")
	if len(vs) > 0 {
		return nil, &ImportError{Violations: append(vs, counts...)}
	}
	d := core.JoinDesc{Axis: axis}
	for _, in := range ins {
		d.Inputs = append(d.Inputs, in.desc())
	}
	o := out.desc()
	d.Output = &o
	j, err := core.NewJoin(d)
	if err != nil || counts != nil {
		return nil, &ImportError{Violations: append(counts, renameJoinSplit(picture.CoreViolations(err), path+".", "InputTensors[0].DataType")...)}
	}
	st := join.State{Op: join.OpJoin, DT: j.Output.DataType.String(), Axis: strconv.Itoa(j.Axis)}
	req := &join.JoinRequest{DataType: st.DT, Axis: &axis}
	for _, in := range ins {
		st.Sizes = append(st.Sizes, picture.JoinCoord(in.Sizes))
		strides := ""
		if in.Strides != nil {
			strides = picture.JoinCoord(in.Strides)
		}
		st.Strides = append(st.Strides, strides)
		req.Inputs = append(req.Inputs, join.Tensor{Sizes: in.Sizes, Strides: in.Strides})
	}
	notes := []core.Msg{fromNote(name, opType)}
	notes = append(notes, unpackedNotes(path+".OutputTensor", j.Output)...)
	if len(ins) > join.MaxPageTensors {
		st.Sizes, st.Strides = st.Sizes[:join.MaxPageTensors], st.Strides[:join.MaxPageTensors]
		notes = append(notes, core.NewMsg("import.note.dx.join.many", "{n} inputs: the page joins at most {max}, so it shows the first {max}; POST /api/v1/join takes them all.", core.Args{"n": len(ins), "max": join.MaxPageTensors}))
	}
	return &ImportResponse{Page: "joinsplit", URL: "/joinsplit?" + st.CanonicalQuery(false), Join: req, Notes: englishNotes(notes), notes: notes}, nil
}

// importDxSplit reads a DML_SPLIT into the join and split page.
func importDxSplit(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op dxArrayOpIn
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	var in dxTensorIn
	var vs []core.Violation
	if err := in.read(op.InputTensor, path+".InputTensor"); err != nil {
		vs = append(vs, err.Violations...)
	}
	outs, ovs := readTensors(op.OutputTensors, path+".OutputTensors")
	vs = append(vs, ovs...)
	axis, avs := axisOrZero(op.Axis, path)
	vs = append(vs, avs...)
	vs = append(vs, dataTypeOf(in, path+".InputTensor.DataType")...)
	for k, o := range outs {
		vs = append(vs, dataTypeOf(o, fmt.Sprintf("%s.OutputTensors[%d].DataType", path, k))...)
	}
	counts := countOf(op.OutputCount, len(outs), path+".OutputCount", path+".OutputTensors")
	if len(vs) > 0 {
		return nil, &ImportError{Violations: append(vs, counts...)}
	}
	d := core.SplitDesc{Input: in.desc(), Axis: axis}
	for _, o := range outs {
		d.Outputs = append(d.Outputs, o.desc())
	}
	s, err := core.NewSplit(d)
	if err != nil || counts != nil {
		return nil, &ImportError{Violations: append(counts, renameJoinSplit(picture.CoreViolations(err), path+".", "InputTensor.DataType")...)}
	}
	along := make([]int64, len(s.Outputs))
	notes := []core.Msg{fromNote(name, opType)}
	for k, o := range s.Outputs {
		along[k] = o.Sizes[s.Axis]
		notes = append(notes, unpackedNotes(fmt.Sprintf("%s.OutputTensors[%d]", path, k), o)...)
	}
	strides := ""
	if in.Strides != nil {
		strides = picture.JoinCoord(in.Strides)
	}
	st := join.State{Op: join.OpSplit, DT: s.Input.DataType.String(), Axis: strconv.Itoa(s.Axis),
		Sizes: []string{picture.JoinCoord(in.Sizes)}, Strides: []string{strides}, Outs: picture.JoinCoord(along)}
	req := &join.SplitRequest{DataType: st.DT, InputSizes: in.Sizes, InputStrides: in.Strides, Axis: &axis, OutputSizes: along}
	return &ImportResponse{Page: "joinsplit", URL: "/joinsplit?" + st.CanonicalQuery(false), Split: req, Notes: englishNotes(notes), notes: notes}, nil
}

// unpackedNotes say of a written tensor laid out otherwise than packed
// that the page writes it packed: the elements and where they come from
// are the same.
func unpackedNotes(field string, l *core.Layout) []core.Msg {
	if l.StridesImplicit || slices.Equal(l.Strides, core.PackedStrides(l.Sizes)) {
		return nil
	}
	return []core.Msg{core.NewMsg("import.note.dx.joinsplit.strides", "{field}.Strides {strides} are not packed: the page writes it packed ({packed}); which input element each output element holds is the same.",
		core.Args{"field": field, "strides": "{" + picture.JoinCoord(l.Strides) + "}", "packed": "{" + picture.JoinCoord(core.PackedStrides(l.Sizes)) + "}"})}
}
