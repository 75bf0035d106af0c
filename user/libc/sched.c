/* The POSIX scheduling interface over the kernel's policies (the
 * sched_policy call, abi/sched.h; docs/scheduler.md "Real-time
 * policies"): SCHED_OTHER, BATCH and IDLE in the fair class, SCHED_FIFO
 * and SCHED_RR (priorities 1..99) in the real-time class, per thread as
 * Linux's (a pid is its main thread's tid). The kernel checks everything
 * and gives Linux's errno; sched_setscheduler returns 0, as Linux's.
 * And the CPU sets: Arbor runs on one processor, CPU 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "abi/sched.h"
#include "arbor_sys.h"
#include "ufault.h"

_Static_assert(SCHED_FIFO == K_SCHED_FIFO && SCHED_RR == K_SCHED_RR && SCHED_OTHER == K_SCHED_OTHER &&
	       SCHED_BATCH == K_SCHED_BATCH && SCHED_IDLE == K_SCHED_IDLE &&
	       SCHED_RESET_ON_FORK == K_SCHED_RESET_ON_FORK, "<sched.h> and abi/sched.h agree");

#define SCHED_DEADLINE_LINUX 6	/* Linux's; not a policy here, but it has limits */

int sched_get_priority_max(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return K_SCHED_PRIO_MAX;
	case SCHED_OTHER:
	case SCHED_BATCH:
	case SCHED_IDLE:
	case SCHED_DEADLINE_LINUX:
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
}

int sched_get_priority_min(int policy)
{
	int r = sched_get_priority_max(policy);
	return r > 0 ? 1 : r;
}

int sched_getscheduler(pid_t pid)
{
	return (int)__sys_ret(sys_sched_policy(SCHED_OP_GETSCHEDULER, (int)pid, 0, NULL));
}

int sched_getparam(pid_t pid, struct sched_param *p)
{
	_Static_assert(sizeof(struct sched_param) == sizeof(int), "sched_param is one int");
	return (int)__sys_ret(sys_sched_policy(SCHED_OP_GETPARAM, (int)pid, 0, (int *)p));
}

int sched_setparam(pid_t pid, const struct sched_param *p)
{
	return (int)__sys_ret(sys_sched_policy(SCHED_OP_SETPARAM, (int)pid, 0, (int *)p));
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *p)
{
	return (int)__sys_ret(sys_sched_policy(SCHED_OP_SETSCHEDULER, (int)pid, policy, (int *)p));
}

/* The processor the caller runs on (a moment ago, as Linux's). */
int sched_getcpu(void)
{
	return (int)__sys_ret(sys_sched_policy(SCHED_OP_GETCPU, 0, 0, NULL));
}

/* --- CPU sets --- */

int __sched_cpucount(size_t setsize, const cpu_set_t *set)
{
	int n = 0;
	for (size_t i = 0; i < setsize / sizeof(__cpu_mask); i++)
		n += __builtin_popcountl(set->__bits[i]);
	return n;
}

cpu_set_t *__sched_cpualloc(size_t count)
{
	return malloc(CPU_ALLOC_SIZE(count));
}

void __sched_cpufree(cpu_set_t *set)
{
	free(set);
}

/* Linux's checks: the size a whole number of longs, at least one long
 * (a mask with room for every CPU); then the thread (ESRCH). The mask
 * is the kernel's (the CPUs that schedule the thread may run on), the
 * bytes after it (one long) zeroed as glibc does. */
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	if (size < sizeof(__cpu_mask) || (size & (sizeof(__cpu_mask) - 1))) {
		errno = EINVAL;
		return -1;
	}
	long r = sys_sched_policy(SCHED_OP_GETAFFINITY, (int)pid, 0, NULL);
	if (r < 0)
		return (int)__sys_ret(r);
	if (__arbor_uwrite(set, size))
		return (int)__sys_ret(-EFAULT);
	memset(set, 0, size);
	set->__bits[0] = (__cpu_mask)r;
	return 0;
}

/* The mask is read first (EFAULT), then the thread and the caller's
 * right to it (ESRCH, EPERM), then a mask with no CPU that schedules is
 * EINVAL, in Linux's order. A size under one long reads as zero-extended;
 * CPUs past the kernel's 31 are none that exist. */
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	size_t n = size < sizeof(cpu_set_t) ? size : sizeof(cpu_set_t);
	if (n && __arbor_uread(set, n))
		return (int)__sys_ret(-EFAULT);
	unsigned mask = 0;
	for (size_t i = 0; i < n && i < 4; i++)
		mask |= (unsigned)((const unsigned char *)set)[i] << (8 * i);
	return (int)__sys_ret(sys_sched_policy(SCHED_OP_SETAFFINITY, (int)pid, (int)(mask & 0x7fffffffu), NULL));
}
