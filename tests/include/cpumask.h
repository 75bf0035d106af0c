/* CPU affinity as bit masks (bit i: CPU i, CPUs 0..30) for the test
 * programs on the C library that pin threads (tests/sched/affinity.c,
 * tests/cgroup/cpuset.c); they define _GNU_SOURCE before any include. */
#ifndef ARBOR_TESTS_CPUMASK_H
#define ARBOR_TESTS_CPUMASK_H

#include <sched.h>
#include <sys/types.h>

/* pid's sched_getaffinity as a mask, or -1. */
static inline int mask_of(pid_t pid)
{
	cpu_set_t s;
	if (sched_getaffinity(pid, sizeof(s), &s))
		return -1;
	int m = 0;
	for (int i = 0; i < 31; i++)
		if (CPU_ISSET(i, &s))
			m |= 1 << i;
	return m;
}

/* sched_setaffinity of pid to the CPUs of mask m: 0, or -1 with errno. */
static inline int set_mask(pid_t pid, int m)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	for (int i = 0; i < 31; i++)
		if (m & (1 << i))
			CPU_SET(i, &s);
	return sched_setaffinity(pid, sizeof(s), &s);
}

#endif
