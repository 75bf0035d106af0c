/* The first code an application processor runs. A started CPU is in real
 * mode at SIPI vector * 4096: smp.c copies smp_tramp_start..end to
 * SMP_TRAMP_BASE and fills in its parameters first. The trampoline goes
 * to protected mode, turns on long mode with the boot page tables (which
 * still identity-map low memory and map the kernel image), and jumps to
 * smp_ap_entry in the kernel proper, which loads the kernel's own page
 * tables and stack and calls smp_ap_main. */
#include "arch/smp_boot.h"

/* the address a trampoline symbol has once copied */
#define T(x) ((x) - smp_tramp_start + SMP_TRAMP_BASE)

	.section .rodata.smp_tramp, "a"
	.balign 16
	.code16
	.globl smp_tramp_start
smp_tramp_start:
	cli
	cld
	xorw	%ax, %ax
	movw	%ax, %ds
	lgdtl	T(tramp_gdt_ptr)
	movl	%cr0, %eax
	orl	$1, %eax		/* CR0.PE */
	movl	%eax, %cr0
	ljmpl	$0x08, $T(tramp_32)

	.code32
tramp_32:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movl	%cr4, %eax
	orl	$(1 << 5), %eax		/* CR4.PAE */
	movl	%eax, %cr4
	movl	T(smp_tramp_cr3), %eax
	movl	%eax, %cr3
	movl	$0xc0000080, %ecx	/* EFER: LME, NXE (the kernel's tables use NX) */
	rdmsr
	orl	$((1 << 8) | (1 << 11)), %eax
	wrmsr
	movl	%cr0, %eax
	orl	$((1 << 31) | (1 << 16)), %eax	/* CR0.PG, CR0.WP */
	andl	$~((1 << 30) | (1 << 29)), %eax	/* caches on: INIT set CR0.CD and NW */
	movl	%eax, %cr0
	ljmpl	$0x18, $T(tramp_64)

	.code64
tramp_64:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorw	%ax, %ax
	movw	%ax, %fs
	movw	%ax, %gs
	movq	T(smp_tramp_entry), %rax
	jmp	*%rax

	.balign 8
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
	.quad 0x00af9a000000ffff	/* 0x18: 64-bit code */
tramp_gdt_ptr:
	.short tramp_gdt_ptr - tramp_gdt - 1
	.long T(tramp_gdt)
	.balign 8
	.globl smp_tramp_cr3, smp_tramp_entry
smp_tramp_cr3:		/* physical address of the boot PML4 (below 4 GiB) */
	.quad 0
smp_tramp_entry:	/* smp_ap_entry's address */
	.quad 0
	.globl smp_tramp_end
smp_tramp_end:

	.text
/* Long mode, on the boot page tables, interrupts off. smp_ap_cr3,
 * smp_ap_stack, smp_ap_gs and smp_ap_id (smp.c) say where to go: one CPU
 * starts at a time. %gs is set before any C runs: the debug kernel's
 * coverage hook reads the current thread through it in every block. */
	.globl smp_ap_entry
	.type smp_ap_entry, @function
smp_ap_entry:
	.cfi_startproc
	.cfi_undefined rip
	movq	smp_ap_cr3(%rip), %rax
	movq	%rax, %cr3
	movq	smp_ap_stack(%rip), %rsp
	movl	$0xc0000101, %ecx	/* MSR_GS_BASE */
	movl	smp_ap_gs(%rip), %eax
	movl	smp_ap_gs + 4(%rip), %edx
	wrmsr
	xorl	%ebp, %ebp
	movl	smp_ap_id(%rip), %edi
	call	smp_ap_main
1:	cli
	hlt
	jmp	1b
	.cfi_endproc

	.section .note.GNU-stack, "", @progbits
