/* Kernel context switch: only callee-saved registers need saving, since
 * the switch is an ordinary function call for both threads. */

	.text
/* void switch_context(uint64_t *save_sp, uint64_t new_sp) */
	.globl switch_context
	.type switch_context, @function
switch_context:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret

/* First code of a new thread (see thread_prepare_stack): r12 = function,
 * r13 = argument. Finishes the switch that started it, then runs fn(arg). */
	.globl thread_trampoline
	.type thread_trampoline, @function
thread_trampoline:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	call	sched_switch_finish
	movq	%r13, %rdi
	call	*%r12
	movq	%rax, %rdi
	call	thread_exit
	ud2
	.cfi_endproc

/* void enter_user(struct trap_frame *tf): leave for user mode with the
 * registers in tf, which sits at the top of this thread's kernel stack. */
	.globl enter_user
	.type enter_user, @function
enter_user:
	movq	%rdi, %rsp
	cli
	jmp	trap_return

	.section .note.GNU-stack, "", @progbits
