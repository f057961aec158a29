// Package core holds the DirectML tensor model and its exact rules: data
// types, DML_BUFFER_TENSOR_DESC validation and layout facts,
// DMLCalcBufferTensorSize, named layouts, DML_SLICE1 validation and
// addressing, NumPy slicing, and the C++ text of the descriptions.
//
// It uses only the standard library and does no I/O. All arithmetic on
// sizes, strides and offsets is 64-bit and checked, so no input can make it
// wrap, and nothing here enumerates a tensor unless the caller asks for its
// offsets under an explicit limit.
package core
