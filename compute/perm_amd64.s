#include "textflag.h"

// permGroups gathers n groups of e-byte elements (n >= 1): group j is the
// window of 64 bytes at src + starts[j] (only the lanes in lmask are read,
// and a masked-off lane never faults), permuted by the lane indexes in
// *ctl, of which the lanes in smask are written to dst + j*dstep.

// func permGroups(dst, src unsafe.Pointer, starts *int32, n int, ctl *[64]byte, dstep int, lmask, smask uint64, e int)
TEXT ·permGroups(SB), NOSPLIT, $0-72
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	starts+16(FP), BX
	MOVQ	n+24(FP), CX
	MOVQ	ctl+32(FP), AX
	MOVQ	dstep+40(FP), DX
	KMOVQ	lmask+48(FP), K1
	KMOVQ	smask+56(FP), K2
	MOVQ	e+64(FP), R9
	VMOVDQU64	(AX), Z0
	CMPQ	R9, $2
	JEQ	loop2
	JLT	loop1
	CMPQ	R9, $4
	JEQ	loop4
loop8:
	MOVLQSX	(BX), R8
	VMOVDQU64.Z	(SI)(R8*1), K1, Z1
	VPERMQ	Z1, Z0, Z2
	VMOVDQU64	Z2, K2, (DI)
	ADDQ	$4, BX
	ADDQ	DX, DI
	DECQ	CX
	JNZ	loop8
	JMP	done
loop4:
	MOVLQSX	(BX), R8
	VMOVDQU32.Z	(SI)(R8*1), K1, Z1
	VPERMD	Z1, Z0, Z2
	VMOVDQU32	Z2, K2, (DI)
	ADDQ	$4, BX
	ADDQ	DX, DI
	DECQ	CX
	JNZ	loop4
	JMP	done
loop2:
	MOVLQSX	(BX), R8
	VMOVDQU16.Z	(SI)(R8*1), K1, Z1
	VPERMW	Z1, Z0, Z2
	VMOVDQU16	Z2, K2, (DI)
	ADDQ	$4, BX
	ADDQ	DX, DI
	DECQ	CX
	JNZ	loop2
	JMP	done
loop1:
	MOVLQSX	(BX), R8
	VMOVDQU8.Z	(SI)(R8*1), K1, Z1
	VPERMB	Z1, Z0, Z2
	VMOVDQU8	Z2, K2, (DI)
	ADDQ	$4, BX
	ADDQ	DX, DI
	DECQ	CX
	JNZ	loop1
done:
	VZEROUPPER
	RET

// func hasAVX512() (bw, vbmi bool)
// bw: the CPU has AVX-512 F and BW and the OS saves the opmask and ZMM
// registers (CPUID.1:ECX.OSXSAVE, XCR0 bits 1, 2 and 5-7); vbmi: VBMI too.
TEXT ·hasAVX512(SB), NOSPLIT, $0-2
	MOVB	$0, bw+0(FP)
	MOVB	$0, vbmi+1(FP)
	MOVL	$0, AX
	XORL	CX, CX
	CPUID
	CMPL	AX, $7
	JLT	no
	MOVL	$1, AX
	XORL	CX, CX
	CPUID
	ANDL	$0x08000000, CX
	JZ	no
	XORL	CX, CX
	XGETBV
	ANDL	$0xE6, AX
	CMPL	AX, $0xE6
	JNE	no
	MOVL	$7, AX
	XORL	CX, CX
	CPUID
	ANDL	$0x40010000, BX
	CMPL	BX, $0x40010000
	JNE	no
	MOVB	$1, bw+0(FP)
	ANDL	$2, CX
	JZ	no
	MOVB	$1, vbmi+1(FP)
no:
	RET
