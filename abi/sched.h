/* Scheduling policies with Linux's numbers (include/uapi/linux/sched.h)
 * and the operations of the sched_policy system call: the kernel's
 * real-time class (kernel/sched/rt.c) and the C library's <sched.h>. */
#ifndef ARBOR_ABI_SCHED_H
#define ARBOR_ABI_SCHED_H

#define K_SCHED_OTHER		0
#define K_SCHED_FIFO		1
#define K_SCHED_RR		2
#define K_SCHED_BATCH		3
#define K_SCHED_IDLE		5
#define K_SCHED_RESET_ON_FORK	0x40000000
#define K_SCHED_PRIO_MAX	99	/* FIFO and RR: 1..99 */
#define K_SCHED_RR_SLICE_NS	100000000ull	/* Linux's RR_TIMESLICE, 100 ms */

/* sched_policy(op, tid, policy, int *param): tid 0 is the calling thread. */
#define SCHED_OP_SETSCHEDULER	0	/* policy (| K_SCHED_RESET_ON_FORK), prio */
#define SCHED_OP_SETPARAM	1	/* prio; policy unchanged */
#define SCHED_OP_GETSCHEDULER	2	/* returns policy | K_SCHED_RESET_ON_FORK */
#define SCHED_OP_GETPARAM	3	/* returns the static priority */
#define SCHED_OP_RT_LIMITS	4	/* root: policy = period µs, tid = runtime µs (-1: none), param NULL */
#define SCHED_OP_RT_GET		5	/* *param = policy 0: period µs; 1: runtime µs (-1 none); 2: throttlings */
#define SCHED_OP_GETAFFINITY	6	/* returns tid's mask (bit per CPU) of CPUs that schedule */
#define SCHED_OP_SETAFFINITY	7	/* policy: the mask's first 31 CPUs (none that schedules: -EINVAL) */
#define SCHED_OP_GETCPU		8	/* returns the CPU the caller runs on */
#define SCHED_OP_ONLINE		9	/* returns the mask of CPUs that schedule */

/* futex_wait flag: the word holds its owner's tid in bits 0..29
 * (K_FUTEX_TID_MASK); while waiting, the caller lends its real-time
 * priority to that thread (priority inheritance). */
#define K_FUTEX_PI		2
#define K_FUTEX_TID_MASK	0x3fffffffu
#define K_FUTEX_WAITERS		0x80000000u
/* futex_wake's n for a priority-inheritance unlock: the kernel hands the
 * lock to the best waiter (the word becomes its tid, | K_FUTEX_WAITERS
 * if others still wait, which now boost it; 0 if none waits) and wakes it. */
#define K_FUTEX_UNLOCK_PI	(-2147483647 - 1)

#endif
