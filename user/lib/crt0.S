/* Process entry for both user runtimes (the small one in user/lib and the
 * C library's port in user/libc, which builds this file with
 * -DCRT0_START=__libc_start). The kernel leaves argc, argv[], NULL, envp[],
 * NULL and the auxiliary vector on a 16-byte aligned stack. */
#include "syscall_nr.h"

#ifndef CRT0_START
#define CRT0_START __arbor_start
#endif

	.text
	.globl _start
	.type _start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	%rsp, %rdi
	andq	$-16, %rsp
	call	CRT0_START
	ud2
	.cfi_endproc

/* New threads start here (thread_create): rdi = &{fn, arg} at the top of
 * their stack, rsi = their tid (fn's second argument), rsp 16-byte
 * aligned. fn's result ends the thread. */
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
	movl	$SYS_exit_thread, %eax
	syscall
	ud2
	.cfi_endproc

/* Signal handlers return here: sigreturn restores the interrupted state
 * (flags included). Each return is counted in __arbor_handlers_run, so a
 * call the C library loops in (poll, select) sees that a handler ran and
 * fails with EINTR, as Linux's do. */
	.globl __arbor_sigreturn
	.type __arbor_sigreturn, @function
__arbor_sigreturn:
	lock incl __arbor_handlers_run(%rip)
	movl	$SYS_sigreturn, %eax
	syscall
	ud2

	.bss
	.globl __arbor_handlers_run
	.type __arbor_handlers_run, @object
	.size __arbor_handlers_run, 4
	.align 4
__arbor_handlers_run:
	.zero 4

	.section .note.GNU-stack, "", @progbits
