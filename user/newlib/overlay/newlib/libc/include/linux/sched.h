/* Linux's <linux/sched.h> (its UAPI): clone's flags, clone3's argument
 * structure and the scheduling policies, Linux's values. Arbor's clone3
 * (programs call it as syscall(SYS_clone3, &args, sizeof(args))) is
 * fork-like only, with CLONE_INTO_CGROUP (the child starts in the cgroup
 * whose directory descriptor is clone_args.cgroup, with the checks of a
 * write to its cgroup.procs); any other flag is ENOSYS, so a program falls
 * back to fork. Guarded where the C library's <sched.h> has the same names; clone's
 * flags come from <sys/_clone.h>, which <sched.h> shares (_GNU_SOURCE). */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/types.h>

#include <sys/_clone.h> /* clone's flags, which <sched.h> has too */

/* clone3 only */
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#define CLONE_INTO_CGROUP 0x200000000ULL
#define CLONE_NEWTIME 0x00000080

/* clone3's argument, in its versions' sizes */
struct clone_args {
	__aligned_u64 flags;
	__aligned_u64 pidfd;
	__aligned_u64 child_tid;
	__aligned_u64 parent_tid;
	__aligned_u64 exit_signal;
	__aligned_u64 stack;
	__aligned_u64 stack_size;
	__aligned_u64 tls;
	__aligned_u64 set_tid;
	__aligned_u64 set_tid_size;
	__aligned_u64 cgroup;
};

#define CLONE_ARGS_SIZE_VER0 64
#define CLONE_ARGS_SIZE_VER1 80
#define CLONE_ARGS_SIZE_VER2 88

#ifndef SCHED_NORMAL
#define SCHED_NORMAL 0
#endif
#ifndef SCHED_FIFO
#define SCHED_FIFO 1
#endif
#ifndef SCHED_RR
#define SCHED_RR 2
#endif
#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#define SCHED_RESET_ON_FORK 0x40000000

#endif
