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
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "abi/pcache.h"
#include "arbor_sys.h"
#include "ufault.h"

__asm__(
	".text\n"
	".balign 16\n"
	".globl __arbor_ufault_start\n"
	"__arbor_ufault_start:\n"

	/* long __arbor_ustrnlen(const char *s, size_t max): aligned 8-byte
	 * words (one never crosses a page, so no page past the string's, or
	 * past s + max, is touched), the bytes before s in the first word
	 * forced nonzero; the lowest zero byte by the (x - 0x01..) & ~x &
	 * 0x80.. test (exact for the lowest one), found with bsf. */
	".globl __arbor_ustrnlen\n"
	".type __arbor_ustrnlen, @function\n"
	"__arbor_ustrnlen:\n"
	"	movq	%rdi, %rdx\n"
	"	leaq	(%rdi,%rsi), %r10\n"		/* s + max: no word from there */
	"	movl	%edi, %ecx\n"
	"	andl	$7, %ecx\n"
	"	shll	$3, %ecx\n"
	"	movq	$-1, %r9\n"
	"	shlq	%cl, %r9\n"
	"	notq	%r9\n"
	"	andq	$-8, %rdi\n"
	"	movabsq	$0xfefefefefefefeff, %r8\n"	/* - 0x0101010101010101 */
	"	movabsq	$0x8080808080808080, %r11\n"
	"	movq	(%rdi), %rax\n"
	"	orq	%r9, %rax\n"
	"	jmp	2f\n"
	"1:	movq	(%rdi), %rax\n"
	"2:	leaq	(%rax,%r8), %rcx\n"
	"	notq	%rax\n"
	"	andq	%rax, %rcx\n"
	"	testq	%r11, %rcx\n"
	"	jnz	3f\n"
	"	addq	$8, %rdi\n"
	"	cmpq	%r10, %rdi\n"
	"	jb	1b\n"
	"	movq	%rsi, %rax\n"
	"	ret\n"
	"3:	andq	%r11, %rcx\n"
	"	bsfq	%rcx, %rcx\n"
	"	shrq	$3, %rcx\n"
	"	leaq	(%rdi,%rcx), %rax\n"
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

	/* long __arbor_stat_from_attr(const struct pcache_attr *a, struct
	 * stat *st): the page cache's attributes as Linux's struct stat
	 * (offsets checked below), stored straight into the caller's st: its
	 * first store faults for a bad st, so the copy-out needs no probe. */
	".globl __arbor_stat_from_attr\n"
	".type __arbor_stat_from_attr, @function\n"
	"__arbor_stat_from_attr:\n"
	"	movq	0(%rdi), %rax\n"	/* dev */
	"	movq	%rax, 0(%rsi)\n"
	"	movq	8(%rdi), %rax\n"	/* ino */
	"	movq	%rax, 8(%rsi)\n"
	"	movl	44(%rdi), %eax\n"	/* nlink, widened */
	"	movq	%rax, 16(%rsi)\n"
	"	movl	40(%rdi), %eax\n"	/* mode */
	"	movl	%eax, 24(%rsi)\n"
	"	movq	48(%rdi), %rax\n"	/* uid and gid, side by side in both */
	"	movq	%rax, 28(%rsi)\n"
	"	movl	$0, 36(%rsi)\n"
	"	movq	16(%rdi), %rax\n"	/* rdev */
	"	movq	%rax, 40(%rsi)\n"
	"	movq	24(%rdi), %rax\n"	/* size */
	"	movq	%rax, 48(%rsi)\n"
	"	movq	$4096, 56(%rsi)\n"	/* blksize */
	"	movq	32(%rdi), %rax\n"	/* blocks */
	"	movq	%rax, 64(%rsi)\n"
	"	movq	%rdi, %r8\n"
	"	movl	$1000000000, %ecx\n"
	"	movq	56(%r8), %rax\n"	/* atime: seconds, nanoseconds */
	"	xorl	%edx, %edx\n"
	"	divq	%rcx\n"
	"	movq	%rax, 72(%rsi)\n"
	"	movq	%rdx, 80(%rsi)\n"
	"	movq	64(%r8), %rax\n"	/* mtime */
	"	xorl	%edx, %edx\n"
	"	divq	%rcx\n"
	"	movq	%rax, 88(%rsi)\n"
	"	movq	%rdx, 96(%rsi)\n"
	"	movq	72(%r8), %rax\n"	/* ctime */
	"	xorl	%edx, %edx\n"
	"	divq	%rcx\n"
	"	movq	%rax, 104(%rsi)\n"
	"	movq	%rdx, 112(%rsi)\n"
	"	xorl	%eax, %eax\n"
	"	movq	%rax, 120(%rsi)\n"
	"	movq	%rax, 128(%rsi)\n"
	"	movq	%rax, 136(%rsi)\n"
	"	ret\n"

	".globl __arbor_ufault_end\n"
	"__arbor_ufault_end:\n"
	".globl __arbor_ufault_fix\n"
	"__arbor_ufault_fix:\n"
	"	ret\n");

/* __arbor_stat_from_attr's offsets: Linux's x86_64 struct stat and
 * abi/pcache.h's struct pcache_attr. */
#define UF_AT(T, f, off) _Static_assert(offsetof(struct T, f) == (off), #T "." #f)
UF_AT(stat, st_dev, 0); UF_AT(stat, st_ino, 8); UF_AT(stat, st_nlink, 16); UF_AT(stat, st_mode, 24);
UF_AT(stat, st_uid, 28); UF_AT(stat, st_gid, 32); UF_AT(stat, st_rdev, 40); UF_AT(stat, st_size, 48);
UF_AT(stat, st_blksize, 56); UF_AT(stat, st_blocks, 64); UF_AT(stat, st_atim, 72);
UF_AT(stat, st_mtim, 88); UF_AT(stat, st_ctim, 104);
_Static_assert(sizeof(struct stat) == 144 && sizeof(nlink_t) == 8 && sizeof(blksize_t) == 8,
	       "Linux's x86_64 struct stat");
UF_AT(pcache_attr, dev, 0); UF_AT(pcache_attr, ino, 8); UF_AT(pcache_attr, rdev, 16);
UF_AT(pcache_attr, size, 24); UF_AT(pcache_attr, blocks, 32); UF_AT(pcache_attr, mode, 40);
UF_AT(pcache_attr, nlink, 44); UF_AT(pcache_attr, uid, 48); UF_AT(pcache_attr, gid, 52);
UF_AT(pcache_attr, atime, 56); UF_AT(pcache_attr, mtime, 64); UF_AT(pcache_attr, ctime, 72);

extern const char __arbor_ufault_start[], __arbor_ufault_end[], __arbor_ufault_fix[];

void __arbor_ufault_init(void)
{
	sys_ufault_fixup((uint64_t)__arbor_ufault_start, (uint64_t)__arbor_ufault_end,
			 (uint64_t)__arbor_ufault_fix);
}
