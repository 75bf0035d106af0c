/* Arbor: the POSIX thread types (included by <sys/types.h>), in place of
   newlib's.  Written for Arbor's C library (user/libc/pthread.c), whose
   synchronization objects are futex words: a mutex needs its owner and
   type beside the lock word (error-checking and recursive mutexes), a
   condition variable its clock, a barrier its count.  Every object may
   live in MAP_SHARED memory (PTHREAD_PROCESS_SHARED): the kernel's futex
   keys such words on the shared page, so nothing in them is an address.
   The constants are Linux's (glibc's) values.  */
#ifndef _SYS__PTHREADTYPES_H_
#define _SYS__PTHREADTYPES_H_

#if defined(_POSIX_THREADS) || __POSIX_VISIBLE >= 199506

#include <sys/sched.h>

typedef __uint32_t pthread_t;		/* an index into the library's thread table */

#define PTHREAD_CREATE_JOINABLE	0
#define PTHREAD_CREATE_DETACHED	1

#define PTHREAD_PROCESS_PRIVATE	0
#define PTHREAD_PROCESS_SHARED	1

#define PTHREAD_MUTEX_NORMAL		0
#define PTHREAD_MUTEX_RECURSIVE		1
#define PTHREAD_MUTEX_ERRORCHECK	2
#define PTHREAD_MUTEX_DEFAULT		PTHREAD_MUTEX_NORMAL

/* Linux's limits (glibc's <bits/local_lim.h>).  */
#ifndef PTHREAD_STACK_MIN
#define PTHREAD_STACK_MIN		16384
#endif
#ifndef PTHREAD_KEYS_MAX
#define PTHREAD_KEYS_MAX		128	/* POSIX's minimum; Linux has 1024 */
#endif
#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS	4
#endif

/* Scheduling attributes (glibc's values).  */
#define PTHREAD_INHERIT_SCHED	0
#define PTHREAD_EXPLICIT_SCHED	1
#define PTHREAD_SCOPE_SYSTEM	0
#define PTHREAD_SCOPE_PROCESS	1	/* not supported, as on Linux: ENOTSUP */
#define PTHREAD_PRIO_NONE	0
#define PTHREAD_PRIO_INHERIT	1
#define PTHREAD_PRIO_PROTECT	2

typedef struct {
	int is_initialized;
	void *stackaddr;	/* pthread_attr_setstack: the caller's stack */
	__size_t stacksize;
	int detachstate;
	int inheritsched;	/* PTHREAD_INHERIT_SCHED (the default) or EXPLICIT */
	int schedpolicy;
	struct sched_param schedparam;
	int scope;
	int schedflags;		/* which of policy (1) and param (2) were set */
	__size_t guardsize;	/* bytes of PROT_NONE below a stack the library maps */
} pthread_attr_t;

typedef struct {
	__uint32_t __lock;	/* futex word: 0 free, 1 held, 2 held with waiters */
	__uint32_t __owner;	/* the holder's thread id (kernel tid) */
	__uint32_t __count;	/* a recursive mutex's depth beyond the first */
	__uint32_t __kind;	/* type, PTHREAD_PROCESS_SHARED << 4, protocol << 5,
				   priority ceiling << 8 */
} pthread_mutex_t;

#define _PTHREAD_MUTEX_INITIALIZER { 0, 0, 0, 0 }

typedef struct {
	int is_initialized;
	int type;
	int process_shared;
	int protocol;		/* PTHREAD_PRIO_NONE, INHERIT or PROTECT */
	int prioceiling;	/* 0: not set (reads as the lowest FIFO priority) */
} pthread_mutexattr_t;

typedef struct {
	__uint32_t __seq;	/* futex word: bumped by every signal and broadcast */
	__uint32_t __clock;	/* the clock of timedwait's abstime (clockid_t) */
	__uint32_t __pshared;
	__uint32_t __wrefs;	/* 2 per thread within a wait; bit 0: a destroy waits for them */
} pthread_cond_t;

#define _PTHREAD_COND_INITIALIZER { 0, 0, 0, 0 }

typedef struct {
	int is_initialized;
	int clock;		/* clockid_t: CLOCK_REALTIME or CLOCK_MONOTONIC */
	int process_shared;
} pthread_condattr_t;

typedef __uint32_t pthread_key_t;

/* An int as glibc's, so that PTHREAD_ONCE_INIT (0) can be assigned as
   well as used to initialize; the futex word: 0 not run, 1 running,
   2 done (3: running with waiters). */
typedef int pthread_once_t;

#define _PTHREAD_ONCE_INIT 0

typedef struct {
	__uint32_t __count;	/* threads to wait for */
	__uint32_t __arrived;	/* of this round */
	__uint32_t __seq;	/* futex word: the round */
	__uint32_t __pshared;
} pthread_barrier_t;

typedef struct {
	int is_initialized;
	int process_shared;
} pthread_barrierattr_t;

typedef __uint32_t pthread_spinlock_t;

typedef struct {
	__uint32_t __state;	/* readers holding it, or 0xffffffff: a writer */
	__uint32_t __writer;	/* the writer's thread id */
	__uint32_t __seq;	/* futex word: bumped by a release with waiters */
	__uint32_t __waiters;	/* threads asleep on __seq */
} pthread_rwlock_t;

#define _PTHREAD_RWLOCK_INITIALIZER { 0, 0, 0, 0 }

typedef struct {
	int is_initialized;
	int process_shared;
} pthread_rwlockattr_t;

#endif /* defined(_POSIX_THREADS) || __POSIX_VISIBLE >= 199506 */

#endif /* ! _SYS__PTHREADTYPES_H_ */
