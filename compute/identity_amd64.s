#include "textflag.h"

// The 16 x 16 transpose of 4-byte elements in AVX-512 registers for the
// identity's tiled copies (identity_tile.go). Z0-Z15 hold the block's 16
// source rows; four rounds of shuffles (unpack by 4 and 8 bytes, then
// 128-bit lanes twice) leave column c of the block in Z(c) again, via
// Z16-Z31.

#define LOADROWS \
	MOVQ	SI, R8; \
	VMOVUPS	(R8), Z0; \
	VMOVUPS	(R8)(R9*1), Z1; \
	VMOVUPS	(R8)(R9*2), Z2; \
	VMOVUPS	(R8)(R12*1), Z3; \
	LEAQ	(R8)(R9*4), R8; \
	VMOVUPS	(R8), Z4; \
	VMOVUPS	(R8)(R9*1), Z5; \
	VMOVUPS	(R8)(R9*2), Z6; \
	VMOVUPS	(R8)(R12*1), Z7; \
	LEAQ	(R8)(R9*4), R8; \
	VMOVUPS	(R8), Z8; \
	VMOVUPS	(R8)(R9*1), Z9; \
	VMOVUPS	(R8)(R9*2), Z10; \
	VMOVUPS	(R8)(R12*1), Z11; \
	LEAQ	(R8)(R9*4), R8; \
	VMOVUPS	(R8), Z12; \
	VMOVUPS	(R8)(R9*1), Z13; \
	VMOVUPS	(R8)(R9*2), Z14; \
	VMOVUPS	(R8)(R12*1), Z15

#define TRANSPOSE16 \
	VUNPCKLPS	Z1, Z0, Z16; \
	VUNPCKHPS	Z1, Z0, Z17; \
	VUNPCKLPS	Z3, Z2, Z18; \
	VUNPCKHPS	Z3, Z2, Z19; \
	VUNPCKLPS	Z5, Z4, Z20; \
	VUNPCKHPS	Z5, Z4, Z21; \
	VUNPCKLPS	Z7, Z6, Z22; \
	VUNPCKHPS	Z7, Z6, Z23; \
	VUNPCKLPS	Z9, Z8, Z24; \
	VUNPCKHPS	Z9, Z8, Z25; \
	VUNPCKLPS	Z11, Z10, Z26; \
	VUNPCKHPS	Z11, Z10, Z27; \
	VUNPCKLPS	Z13, Z12, Z28; \
	VUNPCKHPS	Z13, Z12, Z29; \
	VUNPCKLPS	Z15, Z14, Z30; \
	VUNPCKHPS	Z15, Z14, Z31; \
	VUNPCKLPD	Z18, Z16, Z0; \
	VUNPCKHPD	Z18, Z16, Z1; \
	VUNPCKLPD	Z19, Z17, Z2; \
	VUNPCKHPD	Z19, Z17, Z3; \
	VUNPCKLPD	Z22, Z20, Z4; \
	VUNPCKHPD	Z22, Z20, Z5; \
	VUNPCKLPD	Z23, Z21, Z6; \
	VUNPCKHPD	Z23, Z21, Z7; \
	VUNPCKLPD	Z26, Z24, Z8; \
	VUNPCKHPD	Z26, Z24, Z9; \
	VUNPCKLPD	Z27, Z25, Z10; \
	VUNPCKHPD	Z27, Z25, Z11; \
	VUNPCKLPD	Z30, Z28, Z12; \
	VUNPCKHPD	Z30, Z28, Z13; \
	VUNPCKLPD	Z31, Z29, Z14; \
	VUNPCKHPD	Z31, Z29, Z15; \
	VSHUFF32X4	$0x88, Z4, Z0, Z16; \
	VSHUFF32X4	$0xdd, Z4, Z0, Z20; \
	VSHUFF32X4	$0x88, Z5, Z1, Z17; \
	VSHUFF32X4	$0xdd, Z5, Z1, Z21; \
	VSHUFF32X4	$0x88, Z6, Z2, Z18; \
	VSHUFF32X4	$0xdd, Z6, Z2, Z22; \
	VSHUFF32X4	$0x88, Z7, Z3, Z19; \
	VSHUFF32X4	$0xdd, Z7, Z3, Z23; \
	VSHUFF32X4	$0x88, Z12, Z8, Z24; \
	VSHUFF32X4	$0xdd, Z12, Z8, Z28; \
	VSHUFF32X4	$0x88, Z13, Z9, Z25; \
	VSHUFF32X4	$0xdd, Z13, Z9, Z29; \
	VSHUFF32X4	$0x88, Z14, Z10, Z26; \
	VSHUFF32X4	$0xdd, Z14, Z10, Z30; \
	VSHUFF32X4	$0x88, Z15, Z11, Z27; \
	VSHUFF32X4	$0xdd, Z15, Z11, Z31; \
	VSHUFF32X4	$0x88, Z24, Z16, Z0; \
	VSHUFF32X4	$0xdd, Z24, Z16, Z8; \
	VSHUFF32X4	$0x88, Z25, Z17, Z1; \
	VSHUFF32X4	$0xdd, Z25, Z17, Z9; \
	VSHUFF32X4	$0x88, Z26, Z18, Z2; \
	VSHUFF32X4	$0xdd, Z26, Z18, Z10; \
	VSHUFF32X4	$0x88, Z27, Z19, Z3; \
	VSHUFF32X4	$0xdd, Z27, Z19, Z11; \
	VSHUFF32X4	$0x88, Z28, Z20, Z4; \
	VSHUFF32X4	$0xdd, Z28, Z20, Z12; \
	VSHUFF32X4	$0x88, Z29, Z21, Z5; \
	VSHUFF32X4	$0xdd, Z29, Z21, Z13; \
	VSHUFF32X4	$0x88, Z30, Z22, Z6; \
	VSHUFF32X4	$0xdd, Z30, Z22, Z14; \
	VSHUFF32X4	$0x88, Z31, Z23, Z7; \
	VSHUFF32X4	$0xdd, Z31, Z23, Z15

#define STOREROWS(OP) \
	MOVQ	DI, R8; \
	OP	Z0, (R8); \
	OP	Z1, (R8)(R10*1); \
	OP	Z2, (R8)(R10*2); \
	OP	Z3, (R8)(R13*1); \
	LEAQ	(R8)(R10*4), R8; \
	OP	Z4, (R8); \
	OP	Z5, (R8)(R10*1); \
	OP	Z6, (R8)(R10*2); \
	OP	Z7, (R8)(R13*1); \
	LEAQ	(R8)(R10*4), R8; \
	OP	Z8, (R8); \
	OP	Z9, (R8)(R10*1); \
	OP	Z10, (R8)(R10*2); \
	OP	Z11, (R8)(R13*1); \
	LEAQ	(R8)(R10*4), R8; \
	OP	Z12, (R8); \
	OP	Z13, (R8)(R10*1); \
	OP	Z14, (R8)(R10*2); \
	OP	Z15, (R8)(R13*1)

// func transpose16x16s4(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool)
// For k < blocks, it transposes the 16 x 16 block of 4-byte elements
// whose row r is the 64 bytes at src + k*srcStep + r*srcRow into the
// block whose row c is the 64 bytes at dst + k*dstStep + c*dstRow: the
// element at src + k*srcStep + r*srcRow + c*4 goes to dst + k*dstStep +
// c*dstRow + r*4. nt: with non-temporal stores, which need every dst
// row 64-byte aligned.
TEXT ·transpose16x16s4(SB), NOSPLIT, $0-57
	MOVQ	dst+0(FP), DI
	MOVQ	dstRow+8(FP), R10
	MOVQ	dstStep+16(FP), R11
	MOVQ	src+24(FP), SI
	MOVQ	srcRow+32(FP), R9
	MOVQ	srcStep+40(FP), R14
	MOVQ	blocks+48(FP), CX
	MOVB	nt+56(FP), AX
	LEAQ	(R9)(R9*2), R12
	LEAQ	(R10)(R10*2), R13
	TESTQ	CX, CX
	JZ	done
	TESTB	AL, AL
	JZ	plain
ntloop:
	LOADROWS
	TRANSPOSE16
	STOREROWS(VMOVNTPS)
	ADDQ	R14, SI
	ADDQ	R11, DI
	DECQ	CX
	JNZ	ntloop
	JMP	done
plain:
	LOADROWS
	TRANSPOSE16
	STOREROWS(VMOVUPS)
	ADDQ	R14, SI
	ADDQ	R11, DI
	DECQ	CX
	JNZ	plain
done:
	VZEROUPPER
	RET

// The 8 x 8 transpose of 8-byte elements: Z0-Z7 hold the block's 8
// source rows; unpacks by 8 bytes, then 128-bit lanes twice, leave
// column c in Z(c) again, via Z16-Z23.
#define LOAD8 \
	MOVQ	SI, R8; \
	VMOVUPD	(R8), Z0; \
	VMOVUPD	(R8)(R9*1), Z1; \
	VMOVUPD	(R8)(R9*2), Z2; \
	VMOVUPD	(R8)(R12*1), Z3; \
	LEAQ	(R8)(R9*4), R8; \
	VMOVUPD	(R8), Z4; \
	VMOVUPD	(R8)(R9*1), Z5; \
	VMOVUPD	(R8)(R9*2), Z6; \
	VMOVUPD	(R8)(R12*1), Z7

#define TRANSPOSE8 \
	VUNPCKLPD	Z1, Z0, Z16; \
	VUNPCKHPD	Z1, Z0, Z17; \
	VUNPCKLPD	Z3, Z2, Z18; \
	VUNPCKHPD	Z3, Z2, Z19; \
	VUNPCKLPD	Z5, Z4, Z20; \
	VUNPCKHPD	Z5, Z4, Z21; \
	VUNPCKLPD	Z7, Z6, Z22; \
	VUNPCKHPD	Z7, Z6, Z23; \
	VSHUFF64X2	$0x88, Z18, Z16, Z0; \
	VSHUFF64X2	$0xdd, Z18, Z16, Z1; \
	VSHUFF64X2	$0x88, Z19, Z17, Z2; \
	VSHUFF64X2	$0xdd, Z19, Z17, Z3; \
	VSHUFF64X2	$0x88, Z22, Z20, Z4; \
	VSHUFF64X2	$0xdd, Z22, Z20, Z5; \
	VSHUFF64X2	$0x88, Z23, Z21, Z6; \
	VSHUFF64X2	$0xdd, Z23, Z21, Z7; \
	VSHUFF64X2	$0x88, Z4, Z0, Z16; \
	VSHUFF64X2	$0xdd, Z4, Z0, Z20; \
	VSHUFF64X2	$0x88, Z5, Z1, Z18; \
	VSHUFF64X2	$0xdd, Z5, Z1, Z22; \
	VSHUFF64X2	$0x88, Z6, Z2, Z17; \
	VSHUFF64X2	$0xdd, Z6, Z2, Z21; \
	VSHUFF64X2	$0x88, Z7, Z3, Z19; \
	VSHUFF64X2	$0xdd, Z7, Z3, Z23

#define STORE8(OP) \
	MOVQ	DI, R8; \
	OP	Z16, (R8); \
	OP	Z17, (R8)(R10*1); \
	OP	Z18, (R8)(R10*2); \
	OP	Z19, (R8)(R13*1); \
	LEAQ	(R8)(R10*4), R8; \
	OP	Z20, (R8); \
	OP	Z21, (R8)(R10*1); \
	OP	Z22, (R8)(R10*2); \
	OP	Z23, (R8)(R13*1)

// func transpose8x8s8(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool)
// transpose16x16s4 for 8 x 8 blocks of 8-byte elements: the element at
// src + k*srcStep + r*srcRow + c*8 goes to dst + k*dstStep + c*dstRow +
// r*8 (r, c < 8).
TEXT ·transpose8x8s8(SB), NOSPLIT, $0-57
	MOVQ	dst+0(FP), DI
	MOVQ	dstRow+8(FP), R10
	MOVQ	dstStep+16(FP), R11
	MOVQ	src+24(FP), SI
	MOVQ	srcRow+32(FP), R9
	MOVQ	srcStep+40(FP), R14
	MOVQ	blocks+48(FP), CX
	MOVB	nt+56(FP), AX
	LEAQ	(R9)(R9*2), R12
	LEAQ	(R10)(R10*2), R13
	TESTQ	CX, CX
	JZ	done8
	TESTB	AL, AL
	JZ	plain8
ntloop8:
	LOAD8
	TRANSPOSE8
	STORE8(VMOVNTPD)
	ADDQ	R14, SI
	ADDQ	R11, DI
	DECQ	CX
	JNZ	ntloop8
	JMP	done8
plain8:
	LOAD8
	TRANSPOSE8
	STORE8(VMOVUPD)
	ADDQ	R14, SI
	ADDQ	R11, DI
	DECQ	CX
	JNZ	plain8
done8:
	VZEROUPPER
	RET
