/*
 *  Written by Joel Sherrill <joel@OARcorp.com>.
 *
 *  COPYRIGHT (c) 1989-2010.
 *  On-Line Applications Research Corporation (OAR).
 *
 *  Permission to use, copy, modify, and distribute this software for any
 *  purpose without fee is hereby granted, provided that this entire notice
 *  is included in all copies of any software which is or includes a copy
 *  or modification of this software.
 *
 *  THIS SOFTWARE IS BEING PROVIDED "AS IS", WITHOUT ANY EXPRESS OR IMPLIED
 *  WARRANTY.  IN PARTICULAR,  THE AUTHOR MAKES NO REPRESENTATION
 *  OR WARRANTY OF ANY KIND CONCERNING THE MERCHANTABILITY OF THIS
 *  SOFTWARE OR ITS FITNESS FOR ANY PARTICULAR PURPOSE.
 *
 *  $Id$
 */

#ifndef _SCHED_H_
#define _SCHED_H_

#include <sys/types.h>
#include <sys/sched.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_POSIX_PRIORITY_SCHEDULING)
/*
 *  XBD 13 - Set Scheduling Parameters, P1003.1b-2008, p. 1803
 */
int sched_setparam(
  pid_t                     __pid,
  const struct sched_param *__param
);

/*
 *  XBD 13 - Set Scheduling Parameters, P1003.1b-2008, p. 1800
 */
int sched_getparam(
  pid_t                     __pid,
  struct sched_param       *__param
);

/*
 *  XBD 13 - Set Scheduling Policy and Scheduling Parameters,
 *         P1003.1b-2008, p. 1805
 */
int sched_setscheduler(
  pid_t                     __pid,
  int                       __policy,
  const struct sched_param *__param
);

/*
 *  XBD 13 - Get Scheduling Policy, P1003.1b-2008, p. 1801
 */
int sched_getscheduler(
  pid_t                     __pid
);

/*
 *  XBD 13 - Get Scheduling Parameter Limits, P1003.1b-2008, p. 1799
 */
int sched_get_priority_max(
  int __policy
);

int sched_get_priority_min(
  int  __policy
);

/*
 *  XBD 13 - Get Scheduling Parameter Limits, P1003.1b-2008, p. 1802
 */
int sched_rr_get_interval(
  pid_t             __pid,
  struct timespec  *__interval
);
#endif /* _POSIX_PRIORITY_SCHEDULING */

#if defined(_POSIX_THREADS) || defined(_POSIX_PRIORITY_SCHEDULING)

/*
 *  XBD 13 - Yield Processor, P1003.1b-2008, p. 1807
 */
int sched_yield( void );

#endif /* _POSIX_THREADS or _POSIX_PRIORITY_SCHEDULING */

/* Linux's other policies (SCHED_OTHER, FIFO and RR are <sys/sched.h>'s).  */
#define SCHED_BATCH	3
#define SCHED_IDLE	5

#if __GNU_VISIBLE
#define SCHED_RESET_ON_FORK	0x40000000

int sched_getcpu(void);

/* CPU sets, glibc's: 1024 CPUs in a fixed set, or any number in one from
   CPU_ALLOC (the _S macros take its size in bytes).  Arbor runs on one
   processor, CPU 0.  */
#define CPU_SETSIZE	1024
#define __NCPUBITS	(8 * sizeof(__cpu_mask))
typedef unsigned long __cpu_mask;
typedef struct {
	__cpu_mask __bits[CPU_SETSIZE / (8 * sizeof(unsigned long))];
} cpu_set_t;

#define __CPUELT(cpu)	((cpu) / __NCPUBITS)
#define __CPUMASK(cpu)	((__cpu_mask)1 << ((cpu) % __NCPUBITS))
#define CPU_ALLOC_SIZE(count) \
	((((count) + __NCPUBITS - 1) / __NCPUBITS) * sizeof(__cpu_mask))
#define CPU_ALLOC(count)	__sched_cpualloc(count)
#define CPU_FREE(set)		__sched_cpufree(set)
#define CPU_ZERO_S(size, set)	__builtin_memset((set), 0, (size))
#define CPU_SET_S(cpu, size, set) \
	((__size_t)(cpu) / 8 < (size) ? \
	 ((set)->__bits[__CPUELT((__size_t)(cpu))] |= __CPUMASK((__size_t)(cpu))) : 0)
#define CPU_CLR_S(cpu, size, set) \
	((__size_t)(cpu) / 8 < (size) ? \
	 ((set)->__bits[__CPUELT((__size_t)(cpu))] &= ~__CPUMASK((__size_t)(cpu))) : 0)
#define CPU_ISSET_S(cpu, size, set) \
	((__size_t)(cpu) / 8 < (size) ? \
	 (((const __cpu_mask *)(set)->__bits)[__CPUELT((__size_t)(cpu))] & \
	  __CPUMASK((__size_t)(cpu))) != 0 : 0)
#define CPU_COUNT_S(size, set)	__sched_cpucount((size), (set))
#define CPU_EQUAL_S(size, a, b)	(__builtin_memcmp((a), (b), (size)) == 0)
#define __CPU_OP_S(size, dest, a, b, op) __extension__ ({ \
	cpu_set_t *__dest = (dest); \
	const __cpu_mask *__a = (a)->__bits, *__b = (b)->__bits; \
	for (__size_t __i = 0; __i < (size) / sizeof(__cpu_mask); __i++) \
		__dest->__bits[__i] = __a[__i] op __b[__i]; \
	__dest; })
#define CPU_AND_S(size, d, a, b)	__CPU_OP_S(size, d, a, b, &)
#define CPU_OR_S(size, d, a, b)		__CPU_OP_S(size, d, a, b, |)
#define CPU_XOR_S(size, d, a, b)	__CPU_OP_S(size, d, a, b, ^)
#define CPU_ZERO(set)		CPU_ZERO_S(sizeof(cpu_set_t), set)
#define CPU_SET(cpu, set)	CPU_SET_S(cpu, sizeof(cpu_set_t), set)
#define CPU_CLR(cpu, set)	CPU_CLR_S(cpu, sizeof(cpu_set_t), set)
#define CPU_ISSET(cpu, set)	CPU_ISSET_S(cpu, sizeof(cpu_set_t), set)
#define CPU_COUNT(set)		CPU_COUNT_S(sizeof(cpu_set_t), set)
#define CPU_EQUAL(a, b)		CPU_EQUAL_S(sizeof(cpu_set_t), a, b)
#define CPU_AND(d, a, b)	CPU_AND_S(sizeof(cpu_set_t), d, a, b)
#define CPU_OR(d, a, b)		CPU_OR_S(sizeof(cpu_set_t), d, a, b)
#define CPU_XOR(d, a, b)	CPU_XOR_S(sizeof(cpu_set_t), d, a, b)

int __sched_cpucount(__size_t __setsize, const cpu_set_t *__set);
cpu_set_t *__sched_cpualloc(__size_t __count);
void __sched_cpufree(cpu_set_t *__set);
/* The CPUs thread pid (0: the caller) may run on: Arbor has CPU 0 alone,
   so a mask without it is EINVAL, as Linux's for a mask of no online CPU. */
int sched_setaffinity(pid_t __pid, __size_t __cpusetsize, const cpu_set_t *__cpuset);
int sched_getaffinity(pid_t __pid, __size_t __cpusetsize, cpu_set_t *__cpuset);

/* Arbor: glibc's clone() and its flags (user/libc/clone.c: a child
 * process running fn(arg) on stack; what Arbor cannot share is EINVAL). */
#include <sys/_clone.h>
int clone(int (*__fn)(void *), void *__stack, int __flags, void *__arg, ...);
/* unshare(2): CLONE_NEWCGROUP only (Arbor's one namespace; root only). */
int unshare(int __flags);
/* setns(2): join the cgroup namespace fd names (an open /proc/PID/ns/cgroup,
   nstype 0 or CLONE_NEWCGROUP; or a pidfd, nstype CLONE_NEWCGROUP). */
int setns(int __fd, int __nstype);


#endif

#ifdef __cplusplus
}
#endif

#endif /* _SCHED_H_ */
