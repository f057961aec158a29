// The DirectML types stridescope's C++ exports use, declared as
// Microsoft's documentation of DirectML.h gives them
// (learn.microsoft.com/windows/win32/api/directml/: the
// DML_BUFFER_TENSOR_DESC, DML_TENSOR_DESC, DML_OPERATOR_DESC,
// DML_SCALE_BIAS and operator pages): each name, member and member type
// as the pages print it, so that an export that misspells a member, gives
// it the wrong type (a signed stride in a UINT array, a value that does not
// fit) or forgets a declaration does not compile.
//
// This is not Microsoft's header. Enumerator values other than those the
// pages give are not declared here: exports use the names only.
// interop's TestCPPExportsCompile compiles against the real DirectML.h
// instead when DIRECTML_INCLUDE names a directory holding it (with the
// d3d12.h and Windows types it needs, as a Windows SDK or the DirectX-Headers
// repository's include/directx and include/wsl give them).
//
// An operator whose export declares a new desc adds its DML_OPERATOR_
// name and its struct here, from its page's Syntax section.

#ifndef STRIDESCOPE_DIRECTML_DECLS_H
#define STRIDESCOPE_DIRECTML_DECLS_H

#include <stdint.h>

// The Windows types DirectML.h uses (Windows Data Types page).
typedef uint32_t UINT;
typedef int32_t INT;
typedef uint64_t UINT64;
typedef float FLOAT;

enum DML_TENSOR_DATA_TYPE {
    DML_TENSOR_DATA_TYPE_UNKNOWN,
    DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT8,
    DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_UINT64,
    DML_TENSOR_DATA_TYPE_INT64,
    // From DML_FEATURE_LEVEL_6_3 (its history page); a DirectML.h older
    // than that lacks them, and so the layout explorer's 4-bit exports.
    DML_TENSOR_DATA_TYPE_UINT4,
    DML_TENSOR_DATA_TYPE_INT4,
};

enum DML_TENSOR_TYPE {
    DML_TENSOR_TYPE_INVALID,
    DML_TENSOR_TYPE_BUFFER,
};

enum DML_TENSOR_FLAGS {
    DML_TENSOR_FLAG_NONE = 0x0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1,
};

struct DML_BUFFER_TENSOR_DESC {
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT* Sizes;
    const UINT* Strides;
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
};

struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type;
    const void* Desc;
};

enum DML_OPERATOR_TYPE {
    DML_OPERATOR_INVALID,
    DML_OPERATOR_ELEMENT_WISE_IDENTITY,
    DML_OPERATOR_SLICE,
    DML_OPERATOR_SLICE1,
    DML_OPERATOR_DEPTH_TO_SPACE1,
    DML_OPERATOR_SPACE_TO_DEPTH1,
    DML_OPERATOR_JOIN,
    DML_OPERATOR_SPLIT,
};

struct DML_OPERATOR_DESC {
    DML_OPERATOR_TYPE Type;
    const void* Desc;
};

struct DML_SCALE_BIAS {
    FLOAT Scale;
    FLOAT Bias;
};

struct DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_SCALE_BIAS* ScaleBias;
};

struct DML_SLICE1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* InputWindowOffsets;
    const UINT* InputWindowSizes;
    const INT* InputWindowStrides;
};

// DML_DEPTH_SPACE_ORDER, DML_DEPTH_TO_SPACE1_OPERATOR_DESC and
// DML_SPACE_TO_DEPTH1_OPERATOR_DESC, as their pages' Syntax sections give
// them (DML_FEATURE_LEVEL_2_1).
enum DML_DEPTH_SPACE_ORDER {
    DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW,
    DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH,
};

struct DML_DEPTH_TO_SPACE1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
};

struct DML_SPACE_TO_DEPTH1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
};

struct DML_JOIN_OPERATOR_DESC {
    UINT InputCount;
    const DML_TENSOR_DESC* InputTensors;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
};

struct DML_SPLIT_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    UINT OutputCount;
    const DML_TENSOR_DESC* OutputTensors;
    UINT Axis;
};

#endif
