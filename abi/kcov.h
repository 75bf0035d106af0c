/* Kernel coverage (the kcov system call) for the fuzzer, as Linux's kcov:
 * in a kernel built with KCOV=1 every basic block calls
 * __sanitizer_cov_trace_pc, which appends its address to the buffer of
 * the thread that enabled recording. Other kernels answer -ENOSYS. */
#ifndef ARBOR_ABI_KCOV_H
#define ARBOR_ABI_KCOV_H

#define KCOV_ENABLE  1
#define KCOV_COLLECT 2
#define KCOV_DISABLE 3
#define KCOV_FUNC    4

/* Entries are 32-bit offsets from the kernel's link address. */
#define KCOV_BASE    0xffffffff80000000ull
#define KCOV_ENTRIES (1u << 15)

#endif
