/* Interrupt and exception entry: one stub per vector pushes a uniform
 * frame (see struct trap_frame) and calls trap_dispatch(frame). */

#include "frame.h"

	.text
	.altmacro
.macro isr_stub v
	.balign 16
isr_stub_\v:
	/* Vectors where the CPU pushes no error code get a 0, so every frame
	 * has the same shape. */
	.if !(\v == 8 || \v == 10 || \v == 11 || \v == 12 || \v == 13 || \v == 14 || \v == 17 || \v == 21 || \v == 29 || \v == 30)
	pushq	$0
	.endif
	pushq	$\v
	jmp	isr_common
.endm

.macro isr_addr v
	.quad isr_stub_\v
.endm

	.set i, 0
	.rept 256
	isr_stub %i
	.set i, i + 1
	.endr

isr_common:
	/* From user mode: switch %gs to the per-CPU block. cs is at 24(%rsp). */
	testb	$3, 24(%rsp)
	jz	1f
	swapgs
1:
	FRAME_PUSH_REGS
	cld
	movq	%rsp, %rdi
	call	trap_dispatch

	.globl trap_return
trap_return:
	FRAME_POP_REGS
	addq	$16, %rsp	/* vector, error */
	testb	$3, 8(%rsp)
	jz	2f
	swapgs
2:	iretq

	.section .rodata
	.balign 8
	.globl isr_stub_table
isr_stub_table:
	.set i, 0
	.rept 256
	isr_addr %i
	.set i, i + 1
	.endr

	.section .note.GNU-stack, "", @progbits
