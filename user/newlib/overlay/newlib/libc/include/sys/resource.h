/* Arbor overlay: newlib 3.3.0's <sys/resource.h> (which only had RUSAGE_*,
   a two-field struct rusage and getrusage) extended for Arbor with Linux
   x86_64 values and layouts: the full 144-byte struct rusage, RUSAGE_THREAD,
   PRIO_* and get/setpriority, struct rlimit, RLIMIT_* and get/setrlimit.  */
#ifndef _SYS_RESOURCE_H_
#define _SYS_RESOURCE_H_

#include <sys/types.h>
#include <sys/time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	RUSAGE_SELF	0		/* calling process */
#define	RUSAGE_CHILDREN	-1		/* terminated child processes */
#if __GNU_VISIBLE
#define	RUSAGE_THREAD	1		/* calling thread */
#endif

struct rusage {
  	struct timeval ru_utime;	/* user time used */
	struct timeval ru_stime;	/* system time used */
	long	ru_maxrss;		/* maximum resident set size (KiB) */
	long	ru_ixrss;		/* integral shared memory size */
	long	ru_idrss;		/* integral unshared data size */
	long	ru_isrss;		/* integral unshared stack size */
	long	ru_minflt;		/* page reclaims (soft faults) */
	long	ru_majflt;		/* page faults (hard faults) */
	long	ru_nswap;		/* swaps */
	long	ru_inblock;		/* block input operations */
	long	ru_oublock;		/* block output operations */
	long	ru_msgsnd;		/* IPC messages sent */
	long	ru_msgrcv;		/* IPC messages received */
	long	ru_nsignals;		/* signals received */
	long	ru_nvcsw;		/* voluntary context switches */
	long	ru_nivcsw;		/* involuntary context switches */
};

/* getpriority/setpriority "which" values.  */
#define	PRIO_MIN	-20
#define	PRIO_MAX	20
#define	PRIO_PROCESS	0
#define	PRIO_PGRP	1
#define	PRIO_USER	2

/* Resource limits.  */
typedef unsigned long rlim_t;
#define	RLIM_INFINITY	(~0UL)
#define	RLIM_SAVED_MAX	RLIM_INFINITY
#define	RLIM_SAVED_CUR	RLIM_INFINITY

struct rlimit {
	rlim_t	rlim_cur;		/* soft limit */
	rlim_t	rlim_max;		/* hard limit */
};

#define	RLIMIT_CPU	0		/* CPU time in seconds */
#define	RLIMIT_FSIZE	1		/* maximum file size */
#define	RLIMIT_DATA	2		/* data segment size */
#define	RLIMIT_STACK	3		/* stack size */
#define	RLIMIT_CORE	4		/* core file size */
#define	RLIMIT_RSS	5		/* resident set size */
#define	RLIMIT_NPROC	6		/* number of processes */
#define	RLIMIT_NOFILE	7		/* number of open files */
#define	RLIMIT_MEMLOCK	8		/* locked-in-memory address space */
#define	RLIMIT_AS	9		/* address space size */
#define	RLIMIT_LOCKS	10		/* file locks */
#define	RLIMIT_SIGPENDING 11		/* pending signals */
#define	RLIMIT_MSGQUEUE	12		/* bytes in POSIX message queues */
#define	RLIMIT_NICE	13		/* nice priority ceiling */
#define	RLIMIT_RTPRIO	14		/* real-time priority ceiling */
#define	RLIMIT_RTTIME	15		/* real-time CPU time (us) */
#define	RLIMIT_NLIMITS	16
#define	RLIM_NLIMITS	RLIMIT_NLIMITS

int	getrusage (int, struct rusage*);
int	getpriority (int, id_t);
int	setpriority (int, id_t, int);
int	getrlimit (int, struct rlimit *);
int	setrlimit (int, const struct rlimit *);

#ifdef __cplusplus
}
#endif

#endif
