// Package compute is the fast strided-copy engine behind DML_SLICE1 and the
// buffer highlights: it turns a layout or a slice into a normalised Walk and
// executes it on real buffers.
//
// A call builds a plan on the stack (at most 8 dimensions after
// normalisation, fixed-size arrays, no heap allocation): size-1 dimensions
// are dropped and adjacent dimensions whose strides chain are merged, so a
// full packed copy becomes one memmove. The plan then picks one of four
// executions:
//
//   - rows: a division-free odometer over the outer dimensions hands whole
//     batches of inner rows to a kernel specialised by element size and
//     inner step: copy() for +1, a reverse kernel for -1 (8-byte loads,
//     byte/lane swaps, the source read upwards), a step-2 kernel for 1-
//     and 2-byte elements, an unrolled gather otherwise. Rows up to 4 KiB
//     read one byte of each 64-byte line of dst 4 KiB ahead of the writes
//     (a prefetch for writing; measured +10 % on short rows), longer rows
//     are cut into 4 KiB pieces for the same reason, except unit-step rows
//     of 16 KiB or more, which are one copy(). From 4 MiB of output,
//     unit-step rows are written with non-temporal stores instead
//     (stream.go, stream_amd64.s): the lines go to memory without first
//     being read into the cache. Reversed rows too, reversed in SSE
//     registers, and rows of 4- and 8-byte elements at any other step,
//     gathered in SSE registers (4-byte elements at a step of 2 with
//     AVX-512 where the CPU has it: each line of dst two 64-byte loads
//     narrowed by VPMOVQD, stream_amd64.s evenLines4);
//   - table: when the inner run is short (< 16 elements), the trailing
//     dimensions form a block of at most 128 elements whose byte offsets
//     are tabulated once per call, and each outer step gathers the block
//     through the table. When every element of the block is on a line of
//     its own, the outer dimension whose neighbours share a line joins the
//     block, innermost, with a second table for its dst offsets (from 4 MiB
//     of output the block is gathered into a buffer and its runs streamed);
//   - permute (perm.go, perm_amd64.s; CPUs with AVX-512 F and BW, VBMI
//     too for 1-byte elements): where a short inner run's trailing
//     dimensions hold at least 4 elements within one 64-byte window of
//     src, each such group is one masked load of the window, one lane
//     permute and one masked store, the group starts tabulated once per
//     call as in the table mode (S2: 255 -> about 140 ns per call). The
//     masked load reads only the lanes between the group's lowest and
//     highest offset, so it stays inside src, and masked-off lanes never
//     fault;
//   - tile: when each inner element is on its own cache line and an outer
//     dimension has neighbours on the same line (a transpose), tiles of
//     128 bytes along that dimension by 256 inner elements are copied, the
//     tiles along the small-stride dimension innermost, so that the reads
//     and the writes stay in a few cache lines and TLB entries. From 4 MiB
//     of output the plane is cut into blocks whose pages fit the TLB, and
//     each tile is gathered into a buffer in L1 (4-byte elements
//     contiguous along the tile dimension: 4x4 transposes in SSE
//     registers instead) and written out with non-temporal stores, while
//     the next tile's lines are read ahead. A dimension takes part in a
//     tile only if its elements fill a cache line.
//
// CopyParallel splits the flattened unit range of the same plan (elements,
// blocks or tiles) across goroutines from 1 MiB of output.
//
// Identity (DML_ELEMENT_WISE_IDENTITY: a copy from one strided layout to
// another, identity_tile.go) plans both walks together: size-1
// dimensions dropped, the dimensions by decreasing output stride, merged
// where both sides chain, so that a packed copy is one copy(). Rows
// contiguous on both sides are copy()s; a permuting copy (NCHW -> NHWC,
// a transpose) goes in blocks of the plane of the dimension it reads
// along and the one it writes along, 4 KiB by 4 KiB, in tiles of one
// input line by the block: 4-byte elements contiguous on both sides in
// 16 x 16 transposes in AVX-512 registers (identity_amd64.s), written
// with non-temporal stores from 4 MiB of output; a packed output of other
// element sizes goes through Copy's plan above. dst and src in one buffer,
// or an output two elements may share, run in row-major order instead.
//
// AxisCopy (axismap.go) runs a separable index map, DML_PADDING1's (and
// DML_TILE's): per output axis a table of input coordinates, -1 for the
// fill value. The innermost table is cut once into runs of consecutive
// source elements and fills, so that a padded row is a copy() of its
// middle and a few of its edges; an odometer over the outer axes' offset
// tables gives each row's source. From 4 MiB of output the long runs
// and the fill rows are written with non-temporal stores (streamTo).
//
// The highlights (Touched, CellCounts) plan the set of offsets instead,
// in any order: Touched sets whole words per row, CellCounts adds a
// unit-step row as two entries of a difference array when no count can
// saturate. Their Into variants write into the caller's
// memory, so that a websocket edit reuses it.
//
// Unsafe code is confined to kernels_fast.go, stream.go and the assembly
// beside them (stream_amd64.s, perm_amd64.s, identity_amd64.s). Every
// kernel there is only reached after Copy has proven, once per call, that
// the smallest and the largest offset of the walk lie inside src and that
// dst has exactly the output size (Identity: that the largest offset of
// each side lies inside its buffer, every stride being non-negative); the
// kernels only read offsets of the walk (or bytes between two offsets of
// the same row) and write inside dst. The kernels are used
// on little-endian architectures that allow unaligned loads (amd64,
// arm64); elsewhere, and when the tests ask for it, safe kernels run.
//
// The tests exercise every kernel, mode and element size against a naive
// reference and are meant to pass under
//
//	go test -race ./compute
//	go test -gcflags=all=-d=checkptr ./compute
//
// as well as plainly.
package compute
