// Package interop is what other tools describe, brought into the
// explorers and taken back out: a DxDispatch model (its first
// DML_SLICE1, DML_SLICE or element-wise identity), an ONNX Slice, a
// PyTorch or NumPy view, and the DxDispatch model file that runs an
// explorer's state (DxLayoutModel, DxSlice1Model).
//
// An import is read in two steps: CheckImportSize walks its bytes and
// refuses a body past what an import can use before anything decodes it,
// then Import decodes it strictly (package strictjson) and converts it
// into the body of the layout or slice API (picture's request types),
// every DirectML rule the result breaks reported at the imported
// format's own field. The package knows no HTTP.
package interop
