/* User-memory copies. The instructions that touch user memory are listed
 * in the exception table (.ex_table: pairs of faulting address, fixup
 * address); a page fault there that cannot be resolved resumes at the
 * fixup, which returns -EFAULT instead of crashing the kernel. */
#include "abi/errno.h"

	.text
/* int __copy_user(void *dst, const void *src, size_t n): 0 or -EFAULT.
 * The caller has checked that the user side lies in user space. */
	.globl __copy_user
	.type __copy_user, @function
__copy_user:
	movq	%rdx, %rcx
	shrq	$3, %rcx
1:	rep movsq		/* 8 bytes at a time, then the rest */
	movq	%rdx, %rcx
	andq	$7, %rcx
7:	rep movsb
	xorl	%eax, %eax
	ret
2:	movl	$-EFAULT, %eax
	ret

/* long __strncpy_user(char *dst, const char *usrc, size_t max): the length
 * copied (excluding the NUL), max if no NUL came, or -EFAULT. */
	.globl __strncpy_user
	.type __strncpy_user, @function
__strncpy_user:
	xorl	%eax, %eax
3:	cmpq	%rdx, %rax
	je	5f
4:	movb	(%rsi, %rax), %cl
	movb	%cl, (%rdi, %rax)
	testb	%cl, %cl
	je	5f
	incq	%rax
	jmp	3b
5:	ret
6:	movq	$-EFAULT, %rax
	ret

	.section .ex_table, "a"
	.balign 8
	.quad 1b, 2b
	.quad 7b, 2b
	.quad 4b, 6b

	.section .note.GNU-stack, "", @progbits
