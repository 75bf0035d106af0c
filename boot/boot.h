/* Constants shared by the boot assembly and the C boot-info parser. */
#ifndef ARBOR_BOOT_H
#define ARBOR_BOOT_H

#define MB2_HEADER_MAGIC   0xe85250d6
#define MB2_ARCH_I386      0
#define MB2_BOOT_MAGIC     0x36d76289 /* %eax after GRUB's multiboot2 entry */
#define PVH_START_MAGIC    0x336ec578 /* first u32 of hvm_start_info */

#define LOADER_UNKNOWN     0
#define LOADER_MULTIBOOT2  1
#define LOADER_PVH         2

#define KERNEL_VMA         0xffffffff80000000
#define BOOT_STACK_SIZE    16384

#endif
