/* Loader headers. One ELF carries both, so the same kernel boots from GRUB
 * (multiboot2) and directly through `qemu -kernel` (PVH entry note). */
#include "boot.h"

	.section .multiboot2, "a"
	.balign 8
mb2_header:
	.long MB2_HEADER_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long -(MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	/* End tag: no optional requests; GRUB passes the memory map, the
	 * command line and modules anyway. */
	.balign 8
	.short 0, 0
	.long 8
mb2_header_end:

	/* XEN_ELFNOTE_PHYS32_ENTRY: QEMU enters here in 32-bit protected
	 * mode, paging off, %ebx = physical address of hvm_start_info. */
	.section .note.Xen, "a"
	.balign 4
	.long 4			/* name size: "Xen\0" */
	.long 4			/* descriptor size */
	.long 18		/* XEN_ELFNOTE_PHYS32_ENTRY */
	.asciz "Xen"
	.balign 4
	.long boot_entry32
	.balign 4

	.section .note.GNU-stack, "", @progbits
