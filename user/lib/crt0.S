#include "syscall_nr.h"
/* Process entry: the kernel leaves argc, argv[], NULL, envp[], NULL and the
 * auxiliary vector on the stack (System V x86_64 ABI), rsp 16-aligned. */
	.text
	.globl _start
	.type _start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	%rsp, %rdi
	andq	$-16, %rsp
	call	__arbor_start
	ud2
	.cfi_endproc

/* New threads start here (thread_create), rdi = &{fn, arg} at the top of
 * their stack, rsp 16-byte aligned. */
	.globl __arbor_thread_entry
	.type __arbor_thread_entry, @function
__arbor_thread_entry:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	(%rdi), %rax
	movq	8(%rdi), %rdi
	call	*%rax
	movq	%rax, %rdi
	call	__arbor_thread_exit
	ud2
	.cfi_endproc

/* Signal handlers return here: back to the interrupted code. */
	.globl __arbor_sigreturn
	.type __arbor_sigreturn, @function
__arbor_sigreturn:
	movl	$SYS_sigreturn, %eax
	syscall
	ud2

	.section .note.GNU-stack, "", @progbits
