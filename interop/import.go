package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/ops/convert"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/ops/tile"
	"github.com/stridescope/stridescope/picture"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/strictjson"
)

// What other tools hand a DirectML developer, brought into the explorers:
// a DxDispatch model, an ONNX Slice, a PyTorch or NumPy view.

// ImportRequest is the body of POST /api/v1/import: exactly one of its
// fields.
type ImportRequest struct {
	DxDispatch json.RawMessage `json:"dxdispatch"`
	ONNX       json.RawMessage `json:"onnx"`
	Torch      json.RawMessage `json:"torch"`
	NumPy      json.RawMessage `json:"numpy"`
	// Text is what PyTorch prints: torch.Size([2, 3]) and the stride
	// tuple (3, 1), optionally a dtype (torch.float16) and a storage
	// offset (storage_offset=4).
	Text *string `json:"text"`
}

// ONNXImport is an ONNX Slice (opset 13) on an input of a given shape.
type ONNXImport struct {
	InputShape []int64 `json:"inputShape"`
	Starts     []int64 `json:"starts"`
	Ends       []int64 `json:"ends"`
	Axes       []int64 `json:"axes"`
	Steps      []int64 `json:"steps"`
	// DataType is a DirectML or ONNX type name; default FLOAT32.
	DataType string `json:"dataType"`
}

// TorchImport is a PyTorch tensor view: strides in elements.
type TorchImport struct {
	Dtype         string  `json:"dtype"`
	Size          []int64 `json:"size"`
	Stride        []int64 `json:"stride"`
	StorageOffset int64   `json:"storage_offset"`
}

// NumpyImport is a NumPy array view: strides and offset in bytes.
type NumpyImport struct {
	Dtype   string  `json:"dtype"`
	Shape   []int64 `json:"shape"`
	Strides []int64 `json:"strides"`
	Offset  int64   `json:"offset"`
}

// ImportResponse is what an import found: the page to open, its URL, the
// body of /api/v1/layout or /api/v1/slice1 that describes it, and notes on
// what was converted.
type ImportResponse struct {
	Page   string                 `json:"page"`
	URL    string                 `json:"url"`
	Layout *picture.LayoutRequest `json:"layout,omitempty"`
	Slice1 *slice1.Request        `json:"slice1,omitempty"`
	// Identity is the body of /api/v1/identity, for the conversion page.
	Identity *convert.Request `json:"identity,omitempty"`
	// DepthSpace is the body of /api/v1/depthtospace1 or
	// /api/v1/spacetodepth1 (Page "depthspace").
	DepthSpace *depthspace.Request `json:"depthspace,omitempty"`
	// Join and Split are the bodies of /api/v1/join and /api/v1/split,
	// for the join and split page.
	Join  *join.JoinRequest  `json:"join,omitempty"`
	Split *join.SplitRequest `json:"split,omitempty"`
	// Padding1 and Tile are the bodies of /api/v1/padding1 and
	// /api/v1/tile, for their pages.
	Padding1 *padding1.Request `json:"padding1,omitempty"`
	Tile     *tile.Request     `json:"tile,omitempty"`
	Notes    []string          `json:"notes"`
	notes    []core.Msg        // Notes by code, for Localize
}

// Localize is r with its notes in l (English, the default, is what
// Import writes).
func (r *ImportResponse) Localize(l i18n.Locale) *ImportResponse {
	out := *r
	out.Notes = make([]string, len(r.notes))
	for i, m := range r.notes {
		out.Notes[i] = l.T(i18n.Key(m.Code), m.Args) // a note's "storage_offset 3 elements" too
	}
	return &out
}

// englishNotes is each note's English.
func englishNotes(ms []core.Msg) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Error()
	}
	return out
}

// ImportError is an import DirectML cannot express, or input that is not
// what the format allows: every violation, each at its field.
type ImportError struct {
	Violations []core.Violation
	// TooLarge: the body holds more than an import can use
	// (CheckImportSize), refused before it was decoded.
	TooLarge bool
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("import: %v", e.Violations)
}

func importErr(field, code, tmpl string, args core.Args) *ImportError {
	return &ImportError{Violations: []core.Violation{core.NewMsg(code, tmpl, args).At(field)}}
}

// decodeInto reads a value of the request (a format, a model's desc) into
// v with strictjson's rules, the API bodies' own: every fault at once, at
// its path under prefix (numpy.strides[1]); open passes over keys v does
// not name.
func decodeInto(raw json.RawMessage, prefix string, v any, open bool) *ImportError {
	if vs := strictjson.DecodeValue(raw, prefix, v, open); vs != nil {
		return &ImportError{Violations: vs}
	}
	return nil
}

// Import converts the request's one format.
func Import(req ImportRequest) (*ImportResponse, *ImportError) {
	var given []string
	for name, set := range map[string]bool{"dxdispatch": req.DxDispatch != nil, "onnx": req.ONNX != nil, "torch": req.Torch != nil, "numpy": req.NumPy != nil, "text": req.Text != nil} {
		if set {
			given = append(given, name)
		}
	}
	slices.Sort(given)
	if len(given) != 1 {
		return nil, importErr("", "import.format.count", "give exactly one of dxdispatch, onnx, torch, numpy or text; got {count} ({given})", core.Args{"count": len(given), "given": strings.Join(given, ", ")})
	}
	switch given[0] {
	case "dxdispatch":
		return importDx(req.DxDispatch)
	case "onnx":
		var o ONNXImport
		if err := decodeInto(req.ONNX, "onnx", &o, false); err != nil {
			return nil, err
		}
		return importONNX(o)
	case "torch":
		var t TorchImport
		if err := decodeInto(req.Torch, "torch", &t, false); err != nil {
			return nil, err
		}
		return importTorch(t, "torch.")
	case "numpy":
		var n NumpyImport
		if err := decodeInto(req.NumPy, "numpy", &n, false); err != nil {
			return nil, err
		}
		return importNumpy(n)
	}
	t, err := parseTorchText(*req.Text)
	if err != nil {
		return nil, err
	}
	return importTorch(t, "text.")
}

func importONNX(o ONNXImport) (*ImportResponse, *ImportError) {
	dt := "FLOAT32"
	if o.DataType != "" {
		d, ok := onnxTypes[strings.ToLower(o.DataType)]
		if !ok {
			p, err := core.ParseDataType(o.DataType)
			if err != nil {
				return nil, importErr("onnx.dataType", "import.onnx.datatype", "{name:q} is neither a DirectML data type nor an ONNX tensor type (float, float16, double, int8 ... uint64)", core.Args{"name": o.DataType})
			}
			d = p
		}
		dt = d.String()
	}
	w, vs := core.ONNXSliceWindow(o.InputShape, o.Starts, o.Ends, o.Axes, o.Steps, "onnx.")
	if vs != nil {
		return nil, &ImportError{Violations: vs}
	}
	req := slice1.Request{DataType: dt, InputSizes: o.InputShape, Window: slice1.Window{
		InputWindowOffsets: w.WindowOffsets, InputWindowSizes: w.WindowSizes, InputWindowStrides: w.WindowStrides, OutputSizes: w.OutputSizes,
	}}
	notes := []core.Msg{core.NewMsg("import.note.onnx", "ONNX Slice clamps starts and ends into the input (opset 13); the DML_SLICE1 window is the tight one that copies the same elements in the same order.", nil)}
	if o.DataType == "" {
		notes = append(notes, core.NewMsg("import.note.float32", "no dataType given: FLOAT32 assumed.", nil))
	}
	return sliceImport(req, func(vs []core.Violation) []core.Violation {
		return renameAll(vs, map[string]string{"inputSizes": "inputShape"}, "onnx.")
	}, notes)
}

// sliceImport validates a slice with core and answers with its page;
// rename gives core's violations the import's field names.
func sliceImport(req slice1.Request, rename func([]core.Violation) []core.Violation, notes []core.Msg) (*ImportResponse, *ImportError) {
	s, inv := req.Slice1()
	if inv != nil {
		return nil, &ImportError{Violations: rename(inv.Violations)}
	}
	st := slice1.StateOf(slice1.Validated{Slice: s, T: -1})
	return &ImportResponse{Page: "slice", URL: "/slice?" + st.CanonicalQuery(false), Slice1: &req, Notes: englishNotes(notes), notes: notes}, nil
}

// layoutImport validates a layout with core and answers with its page.
func layoutImport(req picture.LayoutRequest, fields map[string]string, notes []core.Msg) (*ImportResponse, *ImportError) {
	l, inv := req.Layout()
	if inv != nil {
		return nil, &ImportError{Violations: renameAll(inv.Violations, fields, "")}
	}
	st := picture.LayoutStateOf(l, "")
	return &ImportResponse{Page: "layout", URL: "/?" + st.CanonicalQuery(false), Layout: &req, Notes: englishNotes(notes), notes: notes}, nil
}

// renameField maps a core field ("strides[1]") to the import's name for it
// ("torch.stride[1]").
func renameField(field string, names map[string]string) string {
	base, index, _ := strings.Cut(field, "[")
	if n, ok := names[base]; ok {
		if index != "" {
			return n + "[" + index
		}
		return n
	}
	return field
}

var onnxTypes = map[string]core.DataType{
	"float": core.Float32, "float32": core.Float32, "float16": core.Float16, "double": core.Float64, "float64": core.Float64,
	"int8": core.Int8, "uint8": core.UInt8, "int16": core.Int16, "uint16": core.UInt16,
	"int32": core.Int32, "uint32": core.UInt32, "int64": core.Int64, "uint64": core.UInt64,
}

// torchTypes are PyTorch's dtypes that DirectML has.
var torchTypes = map[string]core.DataType{
	"float32": core.Float32, "float": core.Float32, "float16": core.Float16, "half": core.Float16, "float64": core.Float64, "double": core.Float64,
	"int8": core.Int8, "uint8": core.UInt8, "int16": core.Int16, "short": core.Int16, "uint16": core.UInt16,
	"int32": core.Int32, "int": core.Int32, "uint32": core.UInt32, "int64": core.Int64, "long": core.Int64, "uint64": core.UInt64,
}

func importTorch(t TorchImport, prefix string) (*ImportResponse, *ImportError) {
	var vs []core.Violation
	name := strings.TrimPrefix(strings.TrimSpace(t.Dtype), "torch.")
	dt, ok := torchTypes[name]
	switch {
	case t.Dtype == "":
		dt = core.Float32
	case name == "bool":
		vs = append(vs, core.NewMsg("import.torch.bool", "torch.bool has no DirectML data type; view the storage as torch.uint8 (one byte an element, as bool is stored)", nil).At(prefix+"dtype"))
	case name == "bfloat16":
		vs = append(vs, core.NewMsg("import.torch.bfloat16", "torch.bfloat16 has no DirectML data type (DML_TENSOR_DATA_TYPE has FLOAT16, FLOAT32 and FLOAT64)", nil).At(prefix+"dtype"))
	case !ok:
		vs = append(vs, core.NewMsg("import.torch.dtype", "{name:q} is not a PyTorch dtype DirectML has (torch.float16, torch.float32, torch.float64, torch.int8 ... torch.uint64)", core.Args{"name": t.Dtype}).At(prefix+"dtype"))
	}
	for i, s := range t.Stride {
		if s < 0 {
			vs = append(vs, core.NewMsg("import.torch.stride", "stride[{axis}] = {value}: DirectML strides are UINT, so a layout cannot step backwards (a DML_SLICE1 with a negative InputWindowStrides can read it reversed)", core.Args{"axis": i, "value": s}).At(fmt.Sprintf("%sstride[%d]", prefix, i)))
		}
	}
	width := int64(1)
	if ok {
		width = max(dt.Bits()/8, 1)
	}
	switch {
	case t.StorageOffset < 0:
		vs = append(vs, core.NewMsg("import.torch.offset", "storage_offset = {value}: an offset into the storage is never negative", core.Args{"value": t.StorageOffset}).At(prefix+"storage_offset"))
	case t.StorageOffset > math.MaxInt64/width:
		// The note would tell the user to bind at the byte offset, which
		// wrapped: past 2^63-1 bytes it is no offset any buffer has.
		vs = append(vs, core.NewMsg("import.torch.offset.range", "storage_offset = {value} elements of {width}: the byte offset is past the 64-bit range the import reads (at most 9223372036854775807 bytes)", core.Args{"value": t.StorageOffset, "width": core.Count{N: width, Unit: "bytes"}}).At(prefix+"storage_offset"))
	}
	names := map[string]string{"dataType": prefix + "dtype", "sizes": prefix + "size", "strides": prefix + "stride"}
	if len(vs) > 0 {
		// The sizes are judged on their own too, so that what is wrong
		// with them comes with the rest, all at once.
		if _, err := layoutImport(picture.LayoutRequest{DataType: core.Float32.String(), Sizes: t.Size}, names, nil); err != nil {
			for _, v := range err.Violations {
				if strings.HasPrefix(v.Field, prefix+"size") {
					vs = append(vs, v)
				}
			}
		}
		return nil, &ImportError{Violations: vs}
	}
	var notes []core.Msg
	if t.Dtype == "" {
		notes = append(notes, core.NewMsg("import.note.torch.float32", "no dtype given: torch.float32 assumed.", nil))
	}
	if t.StorageOffset > 0 {
		notes = append(notes, offsetNote(t.StorageOffset*(dt.Bits()/8), core.NewMsg("import.note.storage", "storage_offset {count}", core.Args{"count": core.Count{N: t.StorageOffset, Unit: "elements"}})))
	}
	req := picture.LayoutRequest{DataType: dt.String(), Sizes: t.Size, Strides: t.Stride}
	return layoutImport(req, names, notes)
}

// offsetNote explains where a view's offset goes in DirectML: not into the
// tensor description but into the buffer binding.
func offsetNote(bytes int64, what any) core.Msg {
	args := core.Args{"what": what, "size": core.Count{N: bytes, Unit: "bytes"}, "bytes": bytes}
	if bytes%16 != 0 {
		return core.NewMsg("import.note.offset.unaligned", "{what} = {size}: DirectML tensor descriptions have no offset; bind the buffer at that byte offset (DML_BUFFER_BINDING::Offset = {bytes}) and the description below applies from there. DirectML requires binding offsets that are multiples of DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT (16 bytes), and {bytes} is not: copy the view into a buffer of its own first.", args)
	}
	return core.NewMsg("import.note.offset", "{what} = {size}: DirectML tensor descriptions have no offset; bind the buffer at that byte offset (DML_BUFFER_BINDING::Offset = {bytes}) and the description below applies from there.", args)
}

// numpyTypes maps NumPy dtype names and array-interface codes ('<f4') to
// DirectML's types.
var numpyTypes = map[string]core.DataType{
	"float16": core.Float16, "half": core.Float16, "f2": core.Float16, "e": core.Float16,
	"float32": core.Float32, "single": core.Float32, "f4": core.Float32, "f": core.Float32,
	"float64": core.Float64, "double": core.Float64, "float": core.Float64, "f8": core.Float64, "d": core.Float64,
	"int8": core.Int8, "i1": core.Int8, "b": core.Int8, "uint8": core.UInt8, "u1": core.UInt8, "B": core.UInt8,
	"int16": core.Int16, "i2": core.Int16, "h": core.Int16, "uint16": core.UInt16, "u2": core.UInt16, "H": core.UInt16,
	"int32": core.Int32, "i4": core.Int32, "i": core.Int32, "uint32": core.UInt32, "u4": core.UInt32, "I": core.UInt32,
	"int64": core.Int64, "i8": core.Int64, "q": core.Int64, "uint64": core.UInt64, "u8": core.UInt64, "Q": core.UInt64,
}

func importNumpy(n NumpyImport) (*ImportResponse, *ImportError) {
	var vs []core.Violation
	name := strings.TrimPrefix(strings.TrimSpace(n.Dtype), "np.")
	name = strings.TrimPrefix(name, "numpy.")
	var dt core.DataType
	switch {
	case strings.HasPrefix(name, ">"):
		vs = append(vs, core.NewMsg("import.numpy.endian", "{name:q} is big-endian; DirectML buffers are little-endian (use arr.astype(arr.dtype.newbyteorder('<')))", core.Args{"name": n.Dtype}).At("numpy.dtype"))
		// Its element size still judges the strides and the offset, so
		// that every violation is reported at once.
		dt = numpyTypes[strings.TrimPrefix(name, ">")]
	case n.Dtype == "":
		dt = core.Float32
	default:
		d, ok := numpyTypes[strings.TrimLeft(name, "<=|")]
		if !ok {
			vs = append(vs, core.NewMsg("import.numpy.dtype", "{name:q} is not a NumPy dtype DirectML has (float16, float32, float64, int8 ... uint64, or codes such as '<f4')", core.Args{"name": n.Dtype}).At("numpy.dtype"))
		}
		dt = d
	}
	elem := max(dt.Bits()/8, 1)
	strides := make([]int64, len(n.Strides))
	for i, s := range n.Strides {
		switch {
		case s < 0:
			vs = append(vs, core.NewMsg("import.numpy.stride.negative", "strides[{axis}] = {value}: DirectML strides are UINT, so a layout cannot step backwards (a DML_SLICE1 with a negative InputWindowStrides can read the base array reversed)", core.Args{"axis": i, "value": core.Count{N: s, Unit: "bytes"}}).At(fmt.Sprintf("numpy.strides[%d]", i)))
		case dt.Valid() && s%elem != 0:
			vs = append(vs, core.NewMsg("import.numpy.stride.element", "strides[{axis}] = {value} is not a multiple of the {element}-byte element: DirectML strides count elements", core.Args{"axis": i, "value": core.Count{N: s, Unit: "bytes"}, "element": elem}).At(fmt.Sprintf("numpy.strides[%d]", i)))
		default:
			strides[i] = s / elem
		}
	}
	if n.Offset < 0 || (dt.Valid() && n.Offset%elem != 0) {
		vs = append(vs, core.NewMsg("import.numpy.offset", "offset = {value} must be a non-negative multiple of the {element}-byte element", core.Args{"value": core.Count{N: n.Offset, Unit: "bytes"}, "element": elem}).At("numpy.offset"))
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: vs}
	}
	var notes []core.Msg
	if n.Dtype == "" {
		notes = append(notes, core.NewMsg("import.note.numpy.float32", "no dtype given: float32 assumed.", nil))
	}
	if len(n.Strides) > 0 {
		notes = append(notes, core.NewMsg("import.note.numpy.bytes", "NumPy strides are in bytes; DirectML's count elements: divided by the element size, {bytes}.", core.Args{"bytes": core.Count{N: elem, Unit: "bytes"}}))
	}
	if n.Offset > 0 {
		notes = append(notes, offsetNote(n.Offset, "offset"))
	}
	var st []int64
	if n.Strides != nil {
		st = strides
	}
	req := picture.LayoutRequest{DataType: dt.String(), Sizes: n.Shape, Strides: st}
	return layoutImport(req, map[string]string{"dataType": "numpy.dtype", "sizes": "numpy.shape", "strides": "numpy.strides"}, notes)
}

var (
	torchSizeRE   = regexp.MustCompile(`torch\.Size\(\s*\[([^\]]*)\]\s*\)`)
	torchTupleRE  = regexp.MustCompile(`\(\s*(-?[0-9]+(?:\s*,\s*-?[0-9]+)*\s*,?)\s*\)`)
	torchDtypeRE  = regexp.MustCompile(`torch\.([a-z0-9]+)\b`)
	torchOffsetRE = regexp.MustCompile(`storage_offset\s*(?:\(\s*\))?\s*[=:]?\s*(-?[0-9]+)`)
)

// parseTorchText reads what PyTorch prints for t.size(), t.stride(),
// t.dtype and t.storage_offset().
func parseTorchText(text string) (TorchImport, *ImportError) {
	var t TorchImport
	if len(text) > 4096 {
		return t, importErr("text", "import.text.length", "the text is {length} characters long; at most 4096 are read", core.Args{"length": len(text)})
	}
	m := torchSizeRE.FindStringSubmatchIndex(text)
	if m == nil {
		return t, importErr("text", "import.text.size", "no torch.Size([...]) in the text: paste what t.size() and t.stride() print, e.g. torch.Size([2, 3]) (3, 1)", nil)
	}
	var err error
	if t.Size, err = intList(text[m[2]:m[3]]); err != nil {
		return t, importErr("text", "import.text.size.list", "torch.Size: {detail}", core.Args{"detail": err})
	}
	if len(t.Size) == 0 {
		return t, importErr("text", "import.text.rank0", "torch.Size([]) is a scalar: a DirectML tensor has at least one dimension", nil)
	}
	rest := text[:m[0]] + " " + text[m[1]:]
	if o := torchOffsetRE.FindStringSubmatch(rest); o != nil {
		v, err := strconv.ParseInt(o[1], 10, 64)
		if err != nil && strings.HasPrefix(o[1], "-") {
			// Negative is what is wrong with it, however large.
			return t, importErr("text", "import.torch.offset", "storage_offset = {value}: an offset into the storage is never negative", core.Args{"value": o[1]})
		}
		if err != nil {
			return t, importErr("text", "import.text.offset", "storage_offset: {detail}", core.Args{"detail": core.NewMsg("import.text.range", "{text:q} is past the 64-bit range the import reads (at most 9223372036854775807)", core.Args{"text": o[1]})})
		}
		t.StorageOffset = v
		rest = strings.Replace(rest, o[0], " ", 1)
	}
	tuple := torchTupleRE.FindStringSubmatch(rest)
	if tuple == nil {
		return t, importErr("text", "import.text.stride", "no stride tuple in the text: paste what t.stride() prints, e.g. (3, 1)", nil)
	}
	if t.Stride, err = intList(tuple[1]); err != nil {
		return t, importErr("text", "import.text.stride.list", "stride: {detail}", core.Args{"detail": err})
	}
	for _, d := range torchDtypeRE.FindAllStringSubmatch(rest, -1) {
		if d[1] != "size" && d[1] != "tensor" {
			t.Dtype = "torch." + d[1]
			break
		}
	}
	return t, nil
}

func intList(s string) ([]int64, error) {
	var out []int64
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseInt(f, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, core.NewMsg("import.text.range", "{text:q} is past the 64-bit range the import reads (at most 9223372036854775807)", core.Args{"text": f})
		}
		if err != nil {
			return nil, core.NewMsg("import.text.whole", "{text:q} is not a whole number", core.Args{"text": f})
		}
		out = append(out, v)
	}
	if len(out) > core.MaxDimensionCount {
		return nil, core.NewMsg("import.text.count", "{count} numbers; a DirectML tensor has at most {max} dimensions", core.Args{"count": len(out), "max": core.MaxDimensionCount})
	}
	return out, nil
}

// dxOrdered lists an object's members in the order the file gives them
// (encoding/json's maps lose it): a model's first dispatchable is the one
// written first.
func dxOrdered(raw json.RawMessage, field string) ([]string, map[string]json.RawMessage, *ImportError) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, nil, importErr(field, "import.json.object", "{field} must be a JSON object: {detail}", core.Args{"field": field, "detail": strictjson.Detail(err)})
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var order []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				// A member's key: its value is read whole, so every string
				// seen at this depth is a key.
				order = append(order, tok)
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return nil, nil, importErr(field, "import.json", "{detail}", core.Args{"detail": strictjson.Detail(err)})
				}
			}
		}
	}
	return order, members, nil
}

// dxTensorIn is a DML_TENSOR_DESC as a model may write it: the short
// buffer form, or {"Type": "DML_TENSOR_TYPE_BUFFER", "Desc": {...}}.
type dxTensorIn struct {
	Type                          string          `json:"Type"`
	Desc                          json.RawMessage `json:"Desc"`
	DataType                      string          `json:"DataType"`
	Flags                         string          `json:"Flags"`
	DimensionCount                *int64          `json:"DimensionCount"`
	Sizes                         []int64         `json:"Sizes"`
	Strides                       []int64         `json:"Strides"`
	TotalTensorSizeInBytes        *int64          `json:"TotalTensorSizeInBytes"`
	GuaranteedBaseOffsetAlignment int64           `json:"GuaranteedBaseOffsetAlignment"`
}

func (t *dxTensorIn) read(raw json.RawMessage, path string) *ImportError {
	if len(raw) == 0 {
		return importErr(path, "import.required", "{field} is required", core.Args{"field": path})
	}
	if err := decodeInto(raw, path, t, false); err != nil {
		return err
	}
	if t.Desc != nil {
		if tt := strings.TrimPrefix(t.Type, "DML_TENSOR_TYPE_"); tt != "BUFFER" && tt != "" {
			return importErr(path+".Type", "import.dx.tensortype", "{field} is {type:q}; DirectML operators here take DML_TENSOR_TYPE_BUFFER", core.Args{"field": path + ".Type", "type": t.Type})
		}
		// The long form has one level: {"Type", "Desc": {short form}}.
		inner := dxTensorIn{}
		if err := decodeInto(t.Desc, path+".Desc", &inner, false); err != nil {
			return err
		}
		if inner.Desc != nil {
			return importErr(path+".Desc.Desc", "import.dx.nested", "{path}.Desc holds another Desc: a DML_TENSOR_DESC has one level, Type and Desc", core.Args{"path": path})
		}
		*t = inner
	}
	if t.DimensionCount != nil && *t.DimensionCount != int64(len(t.Sizes)) {
		return importErr(path+".DimensionCount", "import.dx.rank", "{path}.DimensionCount = {rank} but Sizes has {count}", core.Args{"path": path, "rank": *t.DimensionCount, "count": core.Count{N: int64(len(t.Sizes)), Unit: "values"}})
	}
	return nil
}

// dxOperatorIn holds the fields of the operator descs that import reads.
type dxOperatorIn struct {
	InputTensor        json.RawMessage `json:"InputTensor"`
	OutputTensor       json.RawMessage `json:"OutputTensor"`
	DimensionCount     *int64          `json:"DimensionCount"`
	InputWindowOffsets []int64         `json:"InputWindowOffsets"`
	InputWindowSizes   []int64         `json:"InputWindowSizes"`
	InputWindowStrides []int64         `json:"InputWindowStrides"`
	Offsets            []int64         `json:"Offsets"`
	Sizes              []int64         `json:"Sizes"`
	Strides            []int64         `json:"Strides"`
}

// dxDispatchable is one dispatchable of a model as import reads it.
type dxDispatchable struct {
	Type    string          `json:"type"`
	Desc    json.RawMessage `json:"desc"`
	DescAlt json.RawMessage `json:"Desc"`
}

// dxModelIn is a model's dispatchables in the file's order and its
// commands, read strictly where import reads them.
type dxModelIn struct {
	order []string
	ds    map[string]dxDispatchable
	cmds  []dxCommandIn
}

type dxCommandIn struct {
	Type         string `json:"type"`
	Dispatchable string `json:"dispatchable"`
}

// readDxModel reads the dispatchables and commands of a model. The
// dispatchables' and commands' fields the importer reads are read
// strictly (a "type" of 5 is said, not taken for no type); the others
// (an ONNX dispatchable's sourcePath, a print's resource) are passed
// over.
func readDxModel(raw json.RawMessage) (*dxModelIn, *ImportError) {
	var model struct {
		Dispatchables json.RawMessage   `json:"dispatchables"`
		Commands      []json.RawMessage `json:"commands"`
		Resources     json.RawMessage   `json:"resources"`
		Schema        string            `json:"$schema"`
	}
	if err := decodeInto(raw, "dxdispatch", &model, false); err != nil {
		return nil, err
	}
	if model.Dispatchables == nil {
		return nil, importErr("dxdispatch.dispatchables", "import.dx.none", "the model has no dispatchables", nil)
	}
	order, members, err := dxOrdered(model.Dispatchables, "dxdispatch.dispatchables")
	if err != nil {
		return nil, err
	}
	var vs []core.Violation
	m := &dxModelIn{order: order, ds: map[string]dxDispatchable{}, cmds: make([]dxCommandIn, len(model.Commands))}
	for _, name := range order {
		var d dxDispatchable
		if err := decodeInto(members[name], "dxdispatch.dispatchables."+name, &d, true); err != nil {
			vs = append(vs, err.Violations...)
		}
		m.ds[name] = d
	}
	for i, c := range model.Commands {
		if err := decodeInto(c, fmt.Sprintf("dxdispatch.commands[%d]", i), &m.cmds[i], true); err != nil {
			vs = append(vs, err.Violations...)
		}
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: vs}
	}
	return m, nil
}

// dxImporter reads the desc of one dispatchable of its operator type:
// path is the desc's field ("dxdispatch.dispatchables.s.desc").
type dxImporter func(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError)

// dxImporters are the operators import and the check read, by their
// DML_OPERATOR_ name without the prefix. An operator the site shows adds
// its entry here; the import box, POST /api/v1/import and POST
// /api/v1/check then read it.
var dxImporters = map[string]dxImporter{
	"SLICE1":                importDxSlice,
	"SLICE":                 importDxSlice,
	"ELEMENT_WISE_IDENTITY": importDxIdentity,
	"DEPTH_TO_SPACE1":       importDxDepthSpace,
	"SPACE_TO_DEPTH1":       importDxDepthSpace,
	"JOIN":                  importDxJoin,
	"SPLIT":                 importDxSplit,
	"PADDING1":              importDxPadding1,
	"TILE":                  importDxTile,
}

// DxOperators are the operator types the importer and the check read,
// with the DML_OPERATOR_ prefix, sorted.
func DxOperators() []string {
	out := make([]string, 0, len(dxImporters))
	for name := range dxImporters {
		out = append(out, "DML_OPERATOR_"+name)
	}
	slices.Sort(out)
	return out
}

// known reports whether the check and import read a dispatchable type.
func known(t string) bool {
	_, ok := dxImporters[dxOperatorName(t)]
	return ok
}

// importDx reads a model's first dispatchable of an operator the site
// shows: the one its commands dispatch first, else the first in the file.
func importDx(raw json.RawMessage) (*ImportResponse, *ImportError) {
	m, err := readDxModel(raw)
	if err != nil {
		return nil, err
	}
	chosen := ""
	for _, cmd := range m.cmds {
		if cmd.Type == "dispatch" && known(m.ds[cmd.Dispatchable].Type) {
			chosen = cmd.Dispatchable
			break
		}
	}
	if chosen == "" {
		for _, name := range m.order {
			if known(m.ds[name].Type) {
				chosen = name
				break
			}
		}
	}
	if chosen == "" {
		types := make([]string, len(m.order))
		for i, name := range m.order {
			types[i] = name + " (" + m.ds[name].Type + ")"
		}
		return nil, importErr("dxdispatch.dispatchables", "import.dx.operator", "none of the operators the site shows ({known}) among the model's dispatchables ({types})", core.Args{"known": strings.Join(DxOperators(), ", "), "types": strings.Join(types, ", ")})
	}
	return importDispatchable(chosen, m.ds[chosen])
}

// importDispatchable reads dispatchable name of a known type.
func importDispatchable(name string, d dxDispatchable) (*ImportResponse, *ImportError) {
	path := "dxdispatch.dispatchables." + name + ".desc"
	desc := d.Desc
	if desc == nil {
		desc = d.DescAlt
	}
	if desc == nil {
		return nil, importErr(path, "import.required", "{field} is required", core.Args{"field": path})
	}
	return dxImporters[dxOperatorName(d.Type)](name, d.Type, path, desc)
}

// fromNote is the note every import of a model starts with.
func fromNote(name, opType string) core.Msg {
	return core.NewMsg("import.note.dx.from", "from dispatchable {name:q} ({type}); initial values are not imported: the explorers fill the input with 1..N.", core.Args{"name": name, "type": opType})
}

// importDxIdentity reads a DML_ELEMENT_WISE_IDENTITY into the layout
// conversion's page: both tensors as described, and the ScaleBias.
func importDxIdentity(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op struct {
		InputTensor  json.RawMessage `json:"InputTensor"`
		OutputTensor json.RawMessage `json:"OutputTensor"`
		ScaleBias    *struct {
			Scale *float64 `json:"Scale"`
			Bias  *float64 `json:"Bias"`
		} `json:"ScaleBias"`
	}
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	var vs []core.Violation
	var in, out dxTensorIn
	inErr := in.read(op.InputTensor, path+".InputTensor")
	if inErr != nil {
		vs = append(vs, inErr.Violations...)
	}
	outErr := out.read(op.OutputTensor, path+".OutputTensor")
	if outErr != nil {
		vs = append(vs, outErr.Violations...)
	}
	if inErr == nil && outErr == nil {
		vs = append(vs, dxOutputOf(op.OutputTensor, path+".OutputTensor", opType, in, in.Sizes)...)
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: vs}
	}
	total := func(t *int64) *int64 {
		if t != nil && *t == 0 {
			return nil // DxDispatch's default: computed
		}
		return t
	}
	req := convert.Request{DataType: dxTypeName(in.DataType), Sizes: in.Sizes, InputStrides: in.Strides, OutputStrides: out.Strides,
		InputTotalTensorSizeInBytes: total(in.TotalTensorSizeInBytes), InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment,
		OutputTotalTensorSizeInBytes: total(out.TotalTensorSizeInBytes), OutputGuaranteedBaseOffsetAlignment: out.GuaranteedBaseOffsetAlignment}
	if op.ScaleBias != nil {
		req.ScaleBias = &convert.ScaleBiasRequest{Scale: op.ScaleBias.Scale, Bias: op.ScaleBias.Bias}
	}
	id, inv := req.Identity()
	if inv != nil {
		prefix := path + "."
		return nil, &ImportError{Violations: renameAll(inv.Violations, map[string]string{
			"dataType": "InputTensor.DataType", "sizes": "InputTensor.Sizes",
			"inputStrides": "InputTensor.Strides", "outputStrides": "OutputTensor.Strides",
			"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
			"outputTotalTensorSizeInBytes": "OutputTensor.TotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment": "OutputTensor.GuaranteedBaseOffsetAlignment",
			"scaleBias.scale": "ScaleBias.Scale", "scaleBias.bias": "ScaleBias.Bias",
		}, prefix)}
	}
	mode := func(strides []int64) string {
		if strides == nil {
			return convert.ModePacked
		}
		return convert.ModeExplicit
	}
	st := convert.StateOf(convert.Validated{ID: id, State: convert.State{In: convert.Side{Mode: mode(in.Strides)}, Out: convert.Side{Mode: mode(out.Strides)}}})
	notes := []core.Msg{fromNote(name, opType)}
	return &ImportResponse{Page: "convert", URL: "/convert?" + st.CanonicalQuery(false), Identity: &req, Notes: englishNotes(notes), notes: notes}, nil
}

// importDxSlice reads a DML_SLICE1 or a DML_SLICE (converted to its
// DML_SLICE1) into the slice page.
func importDxSlice(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op dxOperatorIn
	// Operator descs carry fields stridescope does not read (FusedActivation,
	// ...): those are passed over, what is read is strict.
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	var in dxTensorIn
	inErr := in.read(op.InputTensor, path+".InputTensor")
	if inErr != nil && dxOperatorName(opType) != "SLICE1" {
		return nil, inErr
	}
	dt := dxTypeName(in.DataType)
	notes := []core.Msg{fromNote(name, opType)}
	buf := slice1.InputBuffer{InputTotalTensorSizeInBytes: in.TotalTensorSizeInBytes, InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment}
	if buf.InputTotalTensorSizeInBytes != nil && *buf.InputTotalTensorSizeInBytes == 0 {
		buf.InputTotalTensorSizeInBytes = nil // DxDispatch's default: computed
	}
	prefix := path + "."
	if dxOperatorName(opType) == "SLICE" {
		v1 := slice1.V1Request{DataType: dt, InputSizes: in.Sizes, InputStrides: in.Strides, InputBuffer: buf, Offsets: op.Offsets, Sizes: op.Sizes, Strides: op.Strides}
		s, inv := v1.SliceV1()
		outVs := dxOutputOf(op.OutputTensor, path+".OutputTensor", opType, in, op.Sizes)
		if inv != nil {
			return nil, &ImportError{Violations: append(dxFields(inv.Violations, prefix), outVs...)}
		}
		if outVs != nil {
			return nil, &ImportError{Violations: outVs}
		}
		notes = append(notes, core.NewMsg("import.note.dx.slice", "DML_SLICE's Sizes are the output sizes: the DML_SLICE1 window of each axis spans (Sizes[i] - 1) * Strides[i] + 1 input elements.", nil))
		req := slice1.Request{DataType: dt, InputSizes: in.Sizes, InputStrides: in.Strides, InputBuffer: buf, Window: slice1.Window{
			InputWindowOffsets: s.WindowOffsets, InputWindowSizes: s.WindowSizes, InputWindowStrides: s.WindowStrides, OutputSizes: s.OutputSizes,
		}}
		return sliceImport(req, func(vs []core.Violation) []core.Violation { return dxFields(vs, prefix) }, notes)
	}
	// Every violation at once: both tensors, then the operator's rank.
	var vs []core.Violation
	if inErr != nil {
		vs = inErr.Violations
	}
	var out dxTensorIn
	if err := out.read(op.OutputTensor, path+".OutputTensor"); err != nil {
		vs = append(vs, err.Violations...)
	}
	if inErr == nil && op.DimensionCount != nil && *op.DimensionCount != int64(len(in.Sizes)) {
		vs = append(vs, core.NewMsg("import.dx.op.rank", "DimensionCount = {rank} but InputTensor.Sizes has {count}", core.Args{"rank": *op.DimensionCount, "count": core.Count{N: int64(len(in.Sizes)), Unit: "values"}}).At(prefix+"DimensionCount"))
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: vs}
	}
	// The explorer's output is packed: an output laid out otherwise is
	// said, not silently dropped.
	if packed, ok := packedStridesFit(out.Sizes); ok && out.Strides != nil && len(out.Strides) == len(out.Sizes) && !slices.Equal(out.Strides, packed) {
		notes = append(notes, core.NewMsg("import.note.dx.outstrides", "OutputTensor.Strides {strides} are not packed: the explorer writes the output packed ({packed}), so they are left out; the elements copied and their order are the same.",
			core.Args{"strides": "{" + picture.JoinCoord(out.Strides) + "}", "packed": "{" + picture.JoinCoord(packed) + "}"}))
	}
	req := slice1.Request{DataType: dt, OutputDataType: dxTypeName(out.DataType), InputSizes: in.Sizes, InputStrides: in.Strides, InputBuffer: buf, Window: slice1.Window{
		InputWindowOffsets: op.InputWindowOffsets, InputWindowSizes: op.InputWindowSizes, InputWindowStrides: op.InputWindowStrides, OutputSizes: out.Sizes,
	}}
	return sliceImport(req, func(vs []core.Violation) []core.Violation { return dxFields(vs, prefix) }, notes)
}

// dxOutputOf checks the OutputTensor of a desc, which the explorers do
// not read but DirectML does: the operator writes an output of the
// input's data type and of sizes (the input's, DML_SLICE's Sizes, the
// ones the operator derives; nil when they cannot be derived, and then
// not judged). Nil when it fits, or is not given.
func dxOutputOf(raw json.RawMessage, path, opType string, in dxTensorIn, sizes []int64) []core.Violation {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var out dxTensorIn
	if err := out.read(raw, path); err != nil {
		return err.Violations
	}
	var vs []core.Violation
	if sizes != nil && !slices.Equal(out.Sizes, sizes) {
		vs = append(vs, core.NewMsg("import.dx.output.sizes", "{field} = {got}, but {op} writes an output of sizes {want}",
			core.Args{"field": path + ".Sizes", "got": "{" + picture.JoinCoord(out.Sizes) + "}", "op": opType, "want": "{" + picture.JoinCoord(sizes) + "}"}).At(path+".Sizes"))
	}
	if got, want := dxTypeName(out.DataType), dxTypeName(in.DataType); got != want && want != "" {
		vs = append(vs, core.NewMsg("import.dx.output.type", "{field} = {got}, but {op} writes {want}, its input's data type",
			core.Args{"field": path + ".DataType", "got": got, "op": opType, "want": want}).At(path+".DataType"))
	}
	return vs
}

// dxWritten judges an OutputTensor the explorers draw packed as DirectML
// reads it: its own tensor rules (a strides count, a buffer below
// DMLCalcBufferTensorSize, an alignment) and no two elements in one
// cell. A data type the site does not know is left to dxOutputOf.
func dxWritten(out dxTensorIn, path string) []core.Violation {
	if _, err := core.ParseDataType(dxTypeName(out.DataType)); err != nil {
		return nil
	}
	return renameAll(core.CheckWritten(out.desc()), map[string]string{
		"outputDataType": "DataType", "outputSizes": "Sizes", "outputStrides": "Strides",
		"outputTotalTensorSizeInBytes": "TotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment": "GuaranteedBaseOffsetAlignment",
	}, path+".")
}

// distinct drops a violation said twice at one field in the same words:
// an output rule both the operator (of the sizes it derives) and the
// model's own OutputTensor (dxWritten) break.
func distinct(vs []core.Violation) []core.Violation {
	var out []core.Violation
	for _, v := range vs {
		if !slices.ContainsFunc(out, func(w core.Violation) bool { return w.Field == v.Field && w.Message == v.Message }) {
			out = append(out, v)
		}
	}
	return out
}

// packedStridesFit is core.PackedStrides of sizes when every size is
// positive and the product fits in 64 bits (the slice checks refuse the
// rest).
func packedStridesFit(sizes []int64) ([]int64, bool) {
	p := int64(1)
	for _, n := range sizes {
		if n <= 0 || p > math.MaxInt64/n {
			return nil, false
		}
		p *= n
	}
	return core.PackedStrides(sizes), true
}

// dxFields renames core's slice fields to the desc's own.
func dxFields(vs []core.Violation, prefix string) []core.Violation {
	names := map[string]string{
		"dataType": "InputTensor.DataType", "outputDataType": "OutputTensor.DataType",
		"inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
		"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
		"inputWindowOffsets": "InputWindowOffsets", "inputWindowSizes": "InputWindowSizes", "inputWindowStrides": "InputWindowStrides",
		"outputSizes": "OutputTensor.Sizes", "offsets": "Offsets", "sizes": "Sizes", "strides": "Strides",
	}
	return renameAll(vs, names, prefix)
}

// renameAll renames every violation's field (renameField) under prefix,
// and a message that names its field with it.
func renameAll(vs []core.Violation, names map[string]string, prefix string) []core.Violation {
	out := make([]core.Violation, len(vs))
	for i, v := range vs {
		out[i] = v.Renamed(prefix + renameField(v.Field, names))
		if of, ok := v.Args["of"].(string); ok {
			out[i] = out[i].WithArg("of", prefix+renameField(of, names))
		}
	}
	return out
}

// ImportRequestOf reads what was pasted into an explorer's import box as
// the page's script does: JSON that names its format as is, a DxDispatch
// model (it has dispatchables) wrapped, anything else as PyTorch's text.
// JSON is read by the API bodies' rules (strictjson): the violations say
// what is wrong with it, every one at once.
func ImportRequestOf(pasted string) (ImportRequest, []core.Violation) {
	trimmed := []byte(strings.TrimSpace(pasted))
	var obj map[string]json.RawMessage
	if json.Unmarshal(trimmed, &obj) == nil && obj != nil {
		for _, k := range []string{"dxdispatch", "onnx", "torch", "numpy", "text"} {
			if _, ok := obj[k]; ok {
				var req ImportRequest
				return req, strictjson.Decode(trimmed, &req)
			}
		}
		if _, ok := obj["dispatchables"]; ok {
			// Named as the API's body names it: inside dxdispatch.
			return ImportRequest{DxDispatch: json.RawMessage(trimmed)}, strictjson.Duplicates(trimmed, "dxdispatch")
		}
	}
	return ImportRequest{Text: &pasted}, nil
}
