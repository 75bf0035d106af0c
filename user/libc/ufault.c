/* The C library's reads and writes of a caller's memory that must fail
 * with EFAULT instead of killing the program (docs/abi.md, "Bad
 * pointers"): where Linux's kernel copies a path or an array and returns
 * EFAULT for a bad pointer, Arbor's library often does the work itself.
 * The routines below are the only code in [__arbor_ufault_start,
 * __arbor_ufault_end), which start-up registers with the kernel
 * (ufault_fixup): a fault there that would be SIGSEGV or SIGBUS resumes
 * at __arbor_ufault_fix with rax = -EFAULT, as the kernel's own usercopy
 * does with its exception table. Each routine is a leaf that pushes
 * nothing, so the fixup's `ret` returns to its caller. */
#include <stdint.h>
#include "arbor_sys.h"
#include "ufault.h"

__asm__(
	".text\n"
	".balign 16\n"
	".globl __arbor_ufault_start\n"
	"__arbor_ufault_start:\n"

	/* long __arbor_ustrnlen(const char *s, size_t max): aligned 8-byte
	 * words (one never crosses a page, so nothing past the string's
	 * page is touched), the bytes before s in the first word forced
	 * nonzero; the lowest zero byte by the (x - 0x01..) & ~x & 0x80..
	 * test, exact for the lowest one. */
	".globl __arbor_ustrnlen\n"
	".type __arbor_ustrnlen, @function\n"
	"__arbor_ustrnlen:\n"
	"	movq	%rdi, %rdx\n"
	"	movl	%edi, %ecx\n"
	"	andl	$7, %ecx\n"
	"	shll	$3, %ecx\n"
	"	movq	$-1, %r10\n"
	"	shlq	%cl, %r10\n"
	"	notq	%r10\n"
	"	andq	$-8, %rdi\n"
	"	movabsq	$0x0101010101010101, %r8\n"
	"	movabsq	$0x8080808080808080, %r9\n"
	"	movq	(%rdi), %rax\n"
	"	orq	%r10, %rax\n"
	"	jmp	2f\n"
	"1:	addq	$8, %rdi\n"
	"	movq	(%rdi), %rax\n"
	"2:	movq	%rax, %r11\n"
	"	subq	%r8, %r11\n"
	"	notq	%rax\n"
	"	andq	%rax, %r11\n"
	"	andq	%r9, %r11\n"
	"	jnz	3f\n"
	"	leaq	8(%rdi), %rax\n"
	"	subq	%rdx, %rax\n"
	"	cmpq	%rsi, %rax\n"
	"	jb	1b\n"
	"	movq	%rsi, %rax\n"
	"	ret\n"
	"3:	bsfq	%r11, %r11\n"
	"	shrq	$3, %r11\n"
	"	leaq	(%rdi,%r11), %rax\n"
	"	subq	%rdx, %rax\n"
	"	cmpq	%rsi, %rax\n"
	"	cmovaq	%rsi, %rax\n"
	"	ret\n"

	/* long __arbor_ucopy(void *dst, const void *src, size_t n) */
	".globl __arbor_ucopy\n"
	".type __arbor_ucopy, @function\n"
	"__arbor_ucopy:\n"
	"	movq	%rdx, %rcx\n"
	"	rep movsb\n"
	"	xorl	%eax, %eax\n"
	"	ret\n"

	/* long __arbor_uread(const void *p, size_t n): a byte of each page
	 * of [p, p+n) read. */
	".globl __arbor_uread\n"
	".type __arbor_uread, @function\n"
	"__arbor_uread:\n"
	"	xorl	%eax, %eax\n"
	"	testq	%rsi, %rsi\n"
	"	jz	5f\n"
	"	leaq	-1(%rdi,%rsi), %rsi\n"	/* the last byte */
	"	cmpq	%rdi, %rsi\n"
	"	jb	6f\n"			/* wraps around: not user memory */
	"4:	movb	(%rdi), %cl\n"
	"	orq	$4095, %rdi\n"
	"	incq	%rdi\n"			/* the next page's first byte */
	"	jz	7f\n"
	"	cmpq	%rsi, %rdi\n"
	"	jbe	4b\n"
	"7:	movb	(%rsi), %cl\n"
	"5:	ret\n"
	"6:	movq	$-14, %rax\n"
	"	ret\n"

	/* long __arbor_uwrite(void *p, size_t n): each page of [p, p+n)
	 * written with an atomic or of 0: a write fault where the caller
	 * could not write, nothing changed where it can (even with another
	 * thread storing there). */
	".globl __arbor_uwrite\n"
	".type __arbor_uwrite, @function\n"
	"__arbor_uwrite:\n"
	"	xorl	%eax, %eax\n"
	"	testq	%rsi, %rsi\n"
	"	jz	9f\n"
	"	leaq	-1(%rdi,%rsi), %rsi\n"
	"	cmpq	%rdi, %rsi\n"
	"	jb	6b\n"
	"8:	lock orb	$0, (%rdi)\n"
	"	orq	$4095, %rdi\n"
	"	incq	%rdi\n"
	"	jz	10f\n"
	"	cmpq	%rsi, %rdi\n"
	"	jbe	8b\n"
	"10:	lock orb	$0, (%rsi)\n"
	"9:	ret\n"

	".globl __arbor_ufault_end\n"
	"__arbor_ufault_end:\n"
	".globl __arbor_ufault_fix\n"
	"__arbor_ufault_fix:\n"
	"	ret\n");

extern const char __arbor_ufault_start[], __arbor_ufault_end[], __arbor_ufault_fix[];

void __arbor_ufault_init(void)
{
	sys_ufault_fixup((uint64_t)__arbor_ufault_start, (uint64_t)__arbor_ufault_end,
			 (uint64_t)__arbor_ufault_fix);
}
