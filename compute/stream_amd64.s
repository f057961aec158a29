#include "textflag.h"

// func ntCopy(dst, src unsafe.Pointer, n int)
// Copies n bytes (a multiple of 64) to a 16-byte aligned dst with
// non-temporal stores; callers fence with sfence before dst is shared.
TEXT ·ntCopy(SB), NOSPLIT, $0-24
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	n+16(FP), CX
	SHRQ	$6, CX
	JZ	done
loop:
	MOVOU	0(SI), X0
	MOVOU	16(SI), X1
	MOVOU	32(SI), X2
	MOVOU	48(SI), X3
	MOVNTO	X0, 0(DI)
	MOVNTO	X1, 16(DI)
	MOVNTO	X2, 32(DI)
	MOVNTO	X3, 48(DI)
	ADDQ	$64, SI
	ADDQ	$64, DI
	DECQ	CX
	JNZ	loop
done:
	RET

// func sfence()
TEXT ·sfence(SB), NOSPLIT, $0-0
	SFENCE
	RET

// func copyRows(dst, src unsafe.Pointer, chunks, rows, srcStride int, wide bool)
// Copies rows rows of chunks*16 bytes, row r from src + r*srcStride, to the
// contiguous, 16-byte aligned dst with non-temporal stores. The stores go
// out in address order, so the write-combining buffers assemble whole
// lines across the ends of rows. wide (the CPU has AVX): 32-byte stores,
// two to a line (from a 32-byte boundary), while 128 bytes remain (C1
// with 2-byte elements 0.80 -> 0.87 x memcpy, C2 0.86 -> 0.95).
TEXT ·copyRows(SB), NOSPLIT, $0-41
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), R9
	MOVQ	chunks+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	srcStride+32(FP), R12
	MOVBLZX	wide+40(FP), R13
	TESTQ	R10, R10
	JZ	done
	TESTQ	R11, R11
	JZ	done
row:
	MOVQ	R9, SI
	MOVQ	R10, CX
	TESTQ	R13, R13
	JZ	four0
	// VMOVNTDQ needs a 32-byte aligned dst: one 16-byte store first when
	// it is not, if 8 chunks remain after it.
	TESTQ	$16, DI
	JZ	aligned
	CMPQ	CX, $9
	JB	four0
	MOVOU	(SI), X0
	MOVNTO	X0, (DI)
	ADDQ	$16, SI
	ADDQ	$16, DI
	DECQ	CX
	JMP	eight
aligned:
	CMPQ	CX, $8
	JB	four0
eight:
	VMOVDQU	0(SI), Y0
	VMOVDQU	32(SI), Y1
	VMOVDQU	64(SI), Y2
	VMOVDQU	96(SI), Y3
	VMOVNTDQ	Y0, 0(DI)
	VMOVNTDQ	Y1, 32(DI)
	VMOVNTDQ	Y2, 64(DI)
	VMOVNTDQ	Y3, 96(DI)
	ADDQ	$128, SI
	ADDQ	$128, DI
	SUBQ	$8, CX
	CMPQ	CX, $8
	JAE	eight
	VZEROUPPER	// before the SSE2 code below: no AVX-SSE transition cost
four0:
	CMPQ	CX, $4
	JB	one
four:
	MOVOU	0(SI), X0
	MOVOU	16(SI), X1
	MOVOU	32(SI), X2
	MOVOU	48(SI), X3
	MOVNTO	X0, 0(DI)
	MOVNTO	X1, 16(DI)
	MOVNTO	X2, 32(DI)
	MOVNTO	X3, 48(DI)
	ADDQ	$64, SI
	ADDQ	$64, DI
	SUBQ	$4, CX
	CMPQ	CX, $4
	JAE	four
one:
	TESTQ	CX, CX
	JZ	next
	MOVOU	(SI), X0
	MOVNTO	X0, (DI)
	ADDQ	$16, SI
	ADDQ	$16, DI
	DECQ	CX
	JMP	one
next:
	ADDQ	R12, R9
	DECQ	R11
	JNZ	row
done:
	RET

// The revLines kernels write rows rows of lines*64 bytes each to a 64-byte
// aligned dst with non-temporal stores: row r holds the elements of the
// lines*64 bytes from srcLow + r*srcStride in reverse order. They
// read src upwards, from its lowest line, and write dst's lines from the
// last one down: the hardware prefetcher follows rising reads, not falling
// ones, in rows of a few KiB.

#define REV2(x) \
	PSHUFLW	$0x1B, x, x \
	PSHUFHW	$0x1B, x, x \
	PSHUFD	$0x4E, x, x

#define REV1(x, t) \
	REV2(x) \
	MOVO	x, t \
	PSLLW	$8, x \
	PSRLW	$8, t \
	POR	t, x

#define REV4(x) PSHUFD $0x1B, x, x
#define REV8(x) PSHUFD $0x4E, x, x

// SETUP points DI (dst) at dst's last line; CX holds the number of lines.
#define SETUP \
	MOVQ	CX, AX \
	SHLQ	$6, AX \
	ADDQ	AX, DI \
	SUBQ	$64, DI

#define LOAD \
	MOVOU	48(SI), X0 \
	MOVOU	32(SI), X1 \
	MOVOU	16(SI), X2 \
	MOVOU	0(SI), X3

#define STORE \
	MOVNTO	X0, 0(DI) \
	MOVNTO	X1, 16(DI) \
	MOVNTO	X2, 32(DI) \
	MOVNTO	X3, 48(DI) \
	ADDQ	$64, SI \
	SUBQ	$64, DI \
	DECQ	CX

// REVROWS is the body of a revLines kernel once its arguments are in
// R8-R12, REV reversing X0-X3 (labels are local to each TEXT; the
// arguments are loaded outside the macro, where vet can check them).
#define REVROWS(REV) \
	TESTQ	R10, R10 \
	JZ	done \
	TESTQ	R11, R11 \
	JZ	done \
row: \
	MOVQ	R8, DI \
	MOVQ	R9, SI \
	MOVQ	R10, CX \
	SETUP \
loop: \
	LOAD \
	REV \
	STORE \
	JNZ	loop \
	MOVQ	R10, AX \
	SHLQ	$6, AX \
	ADDQ	AX, R8 \
	ADDQ	R12, R9 \
	DECQ	R11 \
	JNZ	row \
done: \
	RET

#define REVX1 REV1(X0, X4); REV1(X1, X5); REV1(X2, X6); REV1(X3, X7)
#define REVX2 REV2(X0); REV2(X1); REV2(X2); REV2(X3)
#define REVX4 REV4(X0); REV4(X1); REV4(X2); REV4(X3)
#define REVX8 REV8(X0); REV8(X1); REV8(X2); REV8(X3)

// func revLines1(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)
TEXT ·revLines1(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), R8
	MOVQ	srcLow+8(FP), R9
	MOVQ	lines+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	srcStride+32(FP), R12
	REVROWS(REVX1)

// func revLines2(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)
TEXT ·revLines2(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), R8
	MOVQ	srcLow+8(FP), R9
	MOVQ	lines+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	srcStride+32(FP), R12
	REVROWS(REVX2)

// func revLines4(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)
TEXT ·revLines4(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), R8
	MOVQ	srcLow+8(FP), R9
	MOVQ	lines+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	srcStride+32(FP), R12
	REVROWS(REVX4)

// func revLines8(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)
TEXT ·revLines8(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), R8
	MOVQ	srcLow+8(FP), R9
	MOVQ	lines+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	srcStride+32(FP), R12
	REVROWS(REVX8)

// GROUP transposes the 4x4 block of 4-byte elements at rows R8,
// R8+R9, R8+2*R9, R8+R12 (R12 = 3*R9) and writes its rows to dst rows DI,
// DI+R10, DI+2*R10, DI+R13 (R13 = 3*R10) at byte off, with non-temporal
// stores.
#define GROUP(off) \
	MOVOU	(R8), X0 \
	MOVOU	(R8)(R9*1), X1 \
	MOVOU	(R8)(R9*2), X2 \
	MOVOU	(R8)(R12*1), X3 \
	MOVO	X0, X4 \
	UNPCKLPS	X1, X4 \
	UNPCKHPS	X1, X0 \
	MOVO	X2, X5 \
	UNPCKLPS	X3, X5 \
	UNPCKHPS	X3, X2 \
	MOVO	X4, X1 \
	MOVLHPS	X5, X1 \
	MOVHLPS	X4, X5 \
	MOVO	X0, X3 \
	MOVLHPS	X2, X3 \
	MOVHLPS	X0, X2 \
	MOVNTO	X1, off(DI) \
	MOVNTO	X5, off(DI)(R10*1) \
	MOVNTO	X3, off(DI)(R10*2) \
	MOVNTO	X2, off(DI)(R13*1)

// func transpose4x16(dst unsafe.Pointer, dstRow int, src unsafe.Pointer, srcRow, na int)
// For a < na (a multiple of 4) and b < 16, it copies the 4-byte element at
// src + b*srcRow + a*4 to dst + a*dstRow + b*4, with non-temporal stores:
// each dst row receives one 64-byte line, which must be 16-byte aligned.
TEXT ·transpose4x16(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), DI
	MOVQ	dstRow+8(FP), R10
	MOVQ	src+16(FP), SI
	MOVQ	srcRow+24(FP), R9
	MOVQ	na+32(FP), CX
	LEAQ	(R9)(R9*2), R12
	LEAQ	(R10)(R10*2), R13
	SHRQ	$2, CX
	JZ	tdone
tloop:
	MOVQ	SI, R8
	GROUP(0)
	LEAQ	(R8)(R9*4), R8
	GROUP(16)
	LEAQ	(R8)(R9*4), R8
	GROUP(32)
	LEAQ	(R8)(R9*4), R8
	GROUP(48)
	ADDQ	$16, SI
	LEAQ	(DI)(R10*4), DI
	DECQ	CX
	JNZ	tloop
tdone:
	RET

// func revChunks4(dst, srcLow unsafe.Pointer, chunks, rows, srcStride int)
// Writes rows rows of chunks*16 bytes to the contiguous dst with plain
// stores: row r holds the 4-byte elements of the chunks*16 bytes from
// srcLow + r*srcStride, last first.
TEXT ·revChunks4(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), DI
	MOVQ	srcLow+8(FP), R9
	MOVQ	chunks+16(FP), R10
	MOVQ	rows+24(FP), R11
	TESTQ	R10, R10
	JZ	rcdone
	TESTQ	R11, R11
	JZ	rcdone
	// R9: the end of row 0 (in a register only: it may be one past src).
	MOVQ	R10, AX
	SHLQ	$4, AX
	ADDQ	AX, R9
rcrow:
	MOVQ	R9, SI
	MOVQ	R10, CX
rcchunk:
	MOVOU	-16(SI), X0
	PSHUFD	$0x1B, X0, X0
	MOVOU	X0, (DI)
	SUBQ	$16, SI
	ADDQ	$16, DI
	DECQ	CX
	JNZ	rcchunk
	ADDQ	srcStride+32(FP), R9
	DECQ	R11
	JNZ	rcrow
rcdone:
	RET

// func gatherRows4(dst, src unsafe.Pointer, chunks, rows, srcStride, step int)
// Writes rows rows of chunks*16 bytes to the contiguous, 16-byte aligned
// dst with non-temporal stores: row r holds the 4-byte elements at
// src + r*srcStride + j*step, j < 4*chunks. It loads only those elements.
TEXT ·gatherRows4(SB), NOSPLIT, $0-48
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), R9
	MOVQ	chunks+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	step+40(FP), BX
	TESTQ	R10, R10
	JZ	g4done
	TESTQ	R11, R11
	JZ	g4done
	LEAQ	(BX)(BX*2), R12
g4row:
	MOVQ	R9, SI
	MOVQ	R10, CX
g4chunk:
	MOVSS	(SI), X0
	MOVSS	(SI)(BX*1), X1
	MOVSS	(SI)(BX*2), X2
	MOVSS	(SI)(R12*1), X3
	UNPCKLPS	X1, X0
	UNPCKLPS	X3, X2
	MOVLHPS	X2, X0
	MOVNTO	X0, (DI)
	LEAQ	(SI)(BX*4), SI
	ADDQ	$16, DI
	DECQ	CX
	JNZ	g4chunk
	ADDQ	srcStride+32(FP), R9
	DECQ	R11
	JNZ	g4row
g4done:
	RET

// func evenLines4(dst, src unsafe.Pointer, lines, rows, srcStride int)
// Writes rows rows of lines*64 bytes to the contiguous, 64-byte aligned dst
// with non-temporal stores, AVX-512 F: row r holds the 4-byte elements at
// src + r*srcStride + 8*j, j < 16*lines. Each line is two 64-byte loads,
// the elements between those kept read too, narrowed by VPMOVQD (the low
// half of every 8-byte lane is the even element).
TEXT ·evenLines4(SB), NOSPLIT, $0-40
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), R9
	MOVQ	lines+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	srcStride+32(FP), R12
	TESTQ	R10, R10
	JZ	e4done
	TESTQ	R11, R11
	JZ	e4done
e4row:
	MOVQ	R9, SI
	MOVQ	R10, CX
e4line:
	VMOVDQU64	(SI), Z0
	VMOVDQU64	64(SI), Z1
	VPMOVQD	Z0, Y2
	VPMOVQD	Z1, Y3
	VINSERTI64X4	$1, Y3, Z2, Z2
	VMOVNTDQ	Z2, (DI)
	ADDQ	$128, SI
	ADDQ	$64, DI
	DECQ	CX
	JNZ	e4line
	ADDQ	R12, R9
	DECQ	R11
	JNZ	e4row
	VZEROUPPER
e4done:
	RET

// func gatherRows8(dst, src unsafe.Pointer, chunks, rows, srcStride, step int)
// gatherRows4 for 8-byte elements: two per 16-byte chunk.
TEXT ·gatherRows8(SB), NOSPLIT, $0-48
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), R9
	MOVQ	chunks+16(FP), R10
	MOVQ	rows+24(FP), R11
	MOVQ	step+40(FP), BX
	TESTQ	R10, R10
	JZ	g8done
	TESTQ	R11, R11
	JZ	g8done
g8row:
	MOVQ	R9, SI
	MOVQ	R10, CX
g8chunk:
	MOVSD	(SI), X0
	MOVHPS	(SI)(BX*1), X0
	MOVNTO	X0, (DI)
	LEAQ	(SI)(BX*2), SI
	ADDQ	$16, DI
	DECQ	CX
	JNZ	g8chunk
	ADDQ	srcStride+32(FP), R9
	DECQ	R11
	JNZ	g8row
g8done:
	RET

// func hasAVX() bool
// Reports whether the CPU has AVX and the OS saves the YMM registers
// (CPUID.1:ECX.OSXSAVE and .AVX, XCR0 bits 1 and 2).
TEXT ·hasAVX(SB), NOSPLIT, $0-1
	MOVL	$1, AX
	XORL	CX, CX
	CPUID
	ANDL	$0x18000000, CX
	CMPL	CX, $0x18000000
	JNE	no
	XORL	CX, CX
	XGETBV
	ANDL	$6, AX
	CMPL	AX, $6
	JNE	no
	MOVB	$1, ret+0(FP)
	RET
no:
	MOVB	$0, ret+0(FP)
	RET

// func prefetchRows(p unsafe.Pointer, offs *int32, n, step int)
// PREFETCHT1 (into L2) of the lines at p+offs[0], p+offs[step], ... (n of
// them).
TEXT ·prefetchRows(SB), NOSPLIT, $0-32
	MOVQ	p+0(FP), SI
	MOVQ	offs+8(FP), DI
	MOVQ	n+16(FP), CX
	MOVQ	step+24(FP), DX
	SHLQ	$2, DX
	TESTQ	CX, CX
	JLE	done
loop:
	MOVLQSX	(DI), AX
	PREFETCHT1	(SI)(AX*1)
	ADDQ	DX, DI
	DECQ	CX
	JNZ	loop
done:
	RET
