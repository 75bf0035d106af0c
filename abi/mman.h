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

/* fd_mmap's flags and msync's (mem_sync), Linux's values. */
#define K_MAP_SHARED          0x01
#define K_MAP_PRIVATE         0x02
#define K_MAP_SHARED_VALIDATE 0x03
#define K_MAP_TYPE            0x0f
#define K_MAP_FIXED           0x10
#define K_MS_ASYNC      1
#define K_MS_INVALIDATE 2
#define K_MS_SYNC       4
/* mem_lock's how: mlock, munlock, mlockall (addr holds the MCL_* flags),
 * munlockall; and mlockall's flags, Linux's. */
#define K_MLOCK       0
#define K_MUNLOCK     1
#define K_MLOCK_ALL   2
#define K_MUNLOCK_ALL 3
#define K_MCL_CURRENT 1
#define K_MCL_FUTURE  2
#define K_MCL_ONFAULT 4

#endif
