/* Interrupt and exception entry: one stub per vector pushes a uniform
 * frame (see struct trap_frame) and calls trap_dispatch(frame). */

/* Vectors where the CPU pushes an error code itself. */

	.text
	.altmacro
.macro isr_stub v
	.balign 16
isr_stub_\v:
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
1:	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	cld
	movq	%rsp, %rdi
	call	trap_dispatch

	.globl trap_return
trap_return:
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
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
