#include "syscall_nr.h"
/* Entry of programs linked with the C library (newlib): the kernel leaves
 * argc, argv[], NULL, envp[], NULL on a 16-byte aligned stack. */
	.text
	.globl _start
	.type _start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	%rsp, %rdi
	andq	$-16, %rsp
	call	__libc_start
	ud2
	.cfi_endproc

/* New threads (__arbor_thread_start) begin here: rdi = &{fn, arg}. */
	.globl __libc_thread_entry
	.type __libc_thread_entry, @function
__libc_thread_entry:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	(%rdi), %rax
	movq	8(%rdi), %rdi
	call	*%rax
	movq	%rax, %rdi
	movl	$SYS_exit_thread, %eax
	syscall
	ud2
	.cfi_endproc

/* Signal handlers return here; sigreturn restores the interrupted state. */
	.globl __libc_sigreturn
	.type __libc_sigreturn, @function
__libc_sigreturn:
	movl	$SYS_sigreturn, %eax
	syscall
	ud2

	.section .note.GNU-stack, "", @progbits
