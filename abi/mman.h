/* Memory protection bits of mem_map, mem_protect and shm_map: Linux's
 * PROT_* values (the kernel's VM_READ/VM_WRITE/VM_EXEC are these). The C
 * library defines the same names with the same values (checked at compile
 * time by user/libc/abi_check.c): its definitions win when both are
 * seen. */
#ifndef ARBOR_ABI_MMAN_H
#define ARBOR_ABI_MMAN_H

#ifndef PROT_NONE
#define PROT_NONE  0x0
#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4
#endif

#endif
