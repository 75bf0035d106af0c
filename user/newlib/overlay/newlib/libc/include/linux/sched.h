/* Arbor overlay: <linux/sched.h>, Linux's uapi header for clone3 (which
   programs call as syscall(SYS_clone3, &args, sizeof(args))): struct
   clone_args and the one flag Arbor's clone3 performs. clone3 is
   fork-like only (no CLONE_VM threads: ENOSYS for any other flag, so a
   program falls back to fork), with CLONE_INTO_CGROUP.  */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <stdint.h>

/* The child starts in the cgroup whose directory descriptor is
   clone_args.cgroup (the checks of a write to its cgroup.procs).  */
#define CLONE_INTO_CGROUP	0x200000000ULL

struct clone_args {
	uint64_t flags __attribute__((aligned(8)));
	uint64_t pidfd __attribute__((aligned(8)));
	uint64_t child_tid __attribute__((aligned(8)));
	uint64_t parent_tid __attribute__((aligned(8)));
	uint64_t exit_signal __attribute__((aligned(8)));
	uint64_t stack __attribute__((aligned(8)));
	uint64_t stack_size __attribute__((aligned(8)));
	uint64_t tls __attribute__((aligned(8)));
	uint64_t set_tid __attribute__((aligned(8)));
	uint64_t set_tid_size __attribute__((aligned(8)));
	uint64_t cgroup __attribute__((aligned(8)));
};

#define CLONE_ARGS_SIZE_VER0	64
#define CLONE_ARGS_SIZE_VER1	80
#define CLONE_ARGS_SIZE_VER2	88

#endif /* _LINUX_SCHED_H */
