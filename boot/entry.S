/* 32-bit entry shared by both loaders: record who started us, build the
 * early page tables (identity + direct map of the low 4 GiB, kernel image at
 * -2 GiB), enter long mode and call kmain(loader, boot_info_phys). */
#include "boot.h"

#define PHYS(x)  ((x) - KERNEL_VMA)
#define PTE_P    0x1
#define PTE_W    0x2
#define PTE_PS   0x80

	.section .boot.text, "ax"
	.code32
	.globl boot_entry32
boot_entry32:
	cli
	cld
	/* GRUB sets %eax to its magic; on the PVH path %eax is not a magic
	 * and %ebx points at hvm_start_info, whose first word is one. */
	movl	$LOADER_MULTIBOOT2, %ecx
	cmpl	$MB2_BOOT_MAGIC, %eax
	je	1f
	movl	$LOADER_UNKNOWN, %ecx
	testl	%ebx, %ebx
	jz	1f
	cmpl	$PVH_START_MAGIC, (%ebx)
	jne	1f
	movl	$LOADER_PVH, %ecx
1:	movl	%ecx, boot_loader
	movl	%ebx, boot_info_phys

	/* Neither loader promises a zeroed .bss: clear it ourselves. */
	movl	$PHYS(__bss_start), %edi
	movl	$PHYS(__bss_end), %ecx
	subl	%edi, %ecx
	shrl	$2, %ecx
	xorl	%eax, %eax
	rep stosl

	movl	$PHYS(boot_stack_top), %esp

	call	boot_check_long_mode
	call	boot_build_page_tables

	/* CR4.PAE, EFER.LME|NXE, then CR0.PG|WP turns long mode on. */
	movl	%cr4, %eax
	orl	$(1 << 5), %eax
	movl	%eax, %cr4
	movl	$PHYS(early_pml4), %eax
	movl	%eax, %cr3
	movl	$0xc0000080, %ecx
	rdmsr
	orl	$((1 << 8) | (1 << 11)), %eax
	wrmsr
	movl	%cr0, %eax
	orl	$((1 << 31) | (1 << 16) | 1), %eax
	movl	%eax, %cr0

	lgdt	boot_gdt_ptr
	ljmp	$0x08, $boot_entry64

/* Halt with a message on COM1 if the CPU cannot run 64-bit code. */
boot_check_long_mode:
	movl	$0x80000000, %eax
	cpuid
	cmpl	$0x80000001, %eax
	jb	2f
	movl	$0x80000001, %eax
	cpuid
	testl	$(1 << 29), %edx
	jz	2f
	ret
2:	movl	$boot_no_lm_msg, %esi
3:	lodsb
	testb	%al, %al
	jz	4f
	movw	$0x3f8, %dx
	outb	%al, %dx
	jmp	3b
4:	hlt
	jmp	4b

/* pml4[0] and pml4[256] -> pdpt_low: the first 4 GiB identity mapped and in
 * the direct map; pml4[511] -> pdpt_high: -2 GiB maps physical 0..2 GiB. */
boot_build_page_tables:
	movl	$PHYS(early_pdpt_low), %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, PHYS(early_pml4)
	movl	%eax, PHYS(early_pml4) + 256 * 8
	movl	$PHYS(early_pdpt_high), %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, PHYS(early_pml4) + 511 * 8

	xorl	%ecx, %ecx		/* four page directories */
5:	movl	%ecx, %eax
	shll	$12, %eax
	addl	$PHYS(early_pd), %eax
	orl	$(PTE_P | PTE_W), %eax
	movl	%eax, PHYS(early_pdpt_low)(, %ecx, 8)
	incl	%ecx
	cmpl	$4, %ecx
	jb	5b
	movl	PHYS(early_pdpt_low), %eax
	movl	%eax, PHYS(early_pdpt_high) + 510 * 8
	movl	PHYS(early_pdpt_low) + 8, %eax
	movl	%eax, PHYS(early_pdpt_high) + 511 * 8

	xorl	%ecx, %ecx		/* 2048 entries of 2 MiB = 4 GiB */
6:	movl	%ecx, %eax
	shll	$21, %eax
	orl	$(PTE_P | PTE_W | PTE_PS), %eax
	movl	%eax, PHYS(early_pd)(, %ecx, 8)
	movl	%ecx, %eax
	shrl	$11, %eax		/* bits 32+ of the address */
	movl	%eax, PHYS(early_pd) + 4(, %ecx, 8)
	incl	%ecx
	cmpl	$2048, %ecx
	jb	6b
	ret

	.code64
boot_entry64:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorw	%ax, %ax
	movw	%ax, %fs
	movw	%ax, %gs
	movabsq	$boot_entry_high, %rax
	jmp	*%rax

	.section .boot.data, "aw"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
boot_gdt_ptr:
	.short boot_gdt_ptr - boot_gdt - 1
	.long boot_gdt
	.globl boot_loader, boot_info_phys
boot_loader:
	.long 0
boot_info_phys:
	.long 0
boot_no_lm_msg:
	.asciz "Arbor: this CPU has no 64-bit long mode; cannot boot.\r\n"

	.text
	.code64
	.cfi_sections .debug_frame	/* .eh_frame is discarded at link */
	.globl boot_entry_high
	.type boot_entry_high, @function
boot_entry_high:
	movabsq	$boot_stack_top, %rsp
	/* The outermost frame: ends backtraces and gdb's unwinding. */
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movl	boot_loader, %edi
	movl	boot_info_phys, %esi
	call	kmain
7:	cli
	hlt
	jmp	7b
	.cfi_endproc

	.bss
	.balign 4096
	.globl early_pml4
early_pml4:	.skip 4096
early_pdpt_low:	.skip 4096
early_pdpt_high: .skip 4096
early_pd:	.skip 4 * 4096
	.globl boot_stack_top, boot_stack_bottom
boot_stack_bottom:
	.skip BOOT_STACK_SIZE
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
