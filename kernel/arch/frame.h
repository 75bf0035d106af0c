/* Assembly macros that save and restore the general registers in the
 * order of struct trap_frame (kernel/include/trap.h): shared by interrupt
 * entry and system-call entry, so both build the same frame. */
#ifndef ARBOR_ARCH_FRAME_H
#define ARBOR_ARCH_FRAME_H

.macro FRAME_PUSH_REGS
	pushq	%rax
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
.endm

.macro FRAME_POP_REGS
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
.endm

#endif
