/* Arbor: <pthread.h>, in place of newlib's.  It declares exactly what
   Arbor's C library implements (user/libc/pthread.c, pthread_sync.c,
   pthread_cancel.c; docs/libc.md), so a program either links or is told
   at compile time that a function is missing.  The types and constants
   are in <sys/_pthreadtypes.h>; the values are Linux's.  */
#ifndef __PTHREAD_h
#define __PTHREAD_h

#include <unistd.h>

#if defined(_POSIX_THREADS)

#include <sys/types.h>
#include <time.h>
#include <sched.h>
#include <sys/cdefs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads */
int	pthread_create(pthread_t *__th, const pthread_attr_t *__attr,
		       void *(*__start)(void *), void *__arg);
int	pthread_join(pthread_t __th, void **__value);
int	pthread_detach(pthread_t __th);
void	pthread_exit(void *__value) __dead2;
pthread_t pthread_self(void);
int	pthread_equal(pthread_t __t1, pthread_t __t2);
int	pthread_atfork(void (*__prepare)(void), void (*__parent)(void), void (*__child)(void));

int	pthread_attr_init(pthread_attr_t *__attr);
int	pthread_attr_destroy(pthread_attr_t *__attr);
int	pthread_attr_setdetachstate(pthread_attr_t *__attr, int __state);
int	pthread_attr_getdetachstate(const pthread_attr_t *__attr, int *__state);
int	pthread_attr_setstacksize(pthread_attr_t *__attr, size_t __size);
int	pthread_attr_getstacksize(const pthread_attr_t *__attr, size_t *__size);
int	pthread_attr_setstack(pthread_attr_t *__attr, void *__addr, size_t __size);
int	pthread_attr_getstack(const pthread_attr_t *__attr, void **__addr, size_t *__size);
int	pthread_attr_setguardsize(pthread_attr_t *__attr, size_t __guardsize);
int	pthread_attr_getguardsize(const pthread_attr_t *__attr, size_t *__guardsize);
int	pthread_attr_setinheritsched(pthread_attr_t *__attr, int __inherit);
int	pthread_attr_getinheritsched(const pthread_attr_t *__attr, int *__inherit);
int	pthread_attr_setschedpolicy(pthread_attr_t *__attr, int __policy);
int	pthread_attr_getschedpolicy(const pthread_attr_t *__attr, int *__policy);
int	pthread_attr_setschedparam(pthread_attr_t *__attr, const struct sched_param *__param);
int	pthread_attr_getschedparam(const pthread_attr_t *__attr, struct sched_param *__param);
int	pthread_attr_setscope(pthread_attr_t *__attr, int __scope);
int	pthread_attr_getscope(const pthread_attr_t *__attr, int *__scope);

/* Scheduling of a thread (user/libc/pthread_sched.c) */
int	pthread_setschedparam(pthread_t __th, int __policy, const struct sched_param *__param);
int	pthread_getschedparam(pthread_t __th, int *__policy, struct sched_param *__param);
int	pthread_setschedprio(pthread_t __th, int __prio);
/* The thread's CPU-time clock (user/libc/timer.c) */
int	pthread_getcpuclockid(pthread_t __th, clockid_t *__clock_id);
#if __GNU_VISIBLE
/* glibc's: thread's attributes as they are (stack, guard, detach state,
   policy), into an attribute object to destroy after; its CPU set.  */
int	pthread_getattr_np(pthread_t __th, pthread_attr_t *__attr);
int	pthread_setaffinity_np(pthread_t __th, size_t __cpusetsize, const cpu_set_t *__cpuset);
int	pthread_getaffinity_np(pthread_t __th, size_t __cpusetsize, cpu_set_t *__cpuset);
#endif

/* Mutexes */
#define PTHREAD_MUTEX_INITIALIZER _PTHREAD_MUTEX_INITIALIZER
int	pthread_mutexattr_init(pthread_mutexattr_t *__attr);
int	pthread_mutexattr_destroy(pthread_mutexattr_t *__attr);
int	pthread_mutexattr_settype(pthread_mutexattr_t *__attr, int __type);
int	pthread_mutexattr_gettype(const pthread_mutexattr_t *__attr, int *__type);
int	pthread_mutexattr_setpshared(pthread_mutexattr_t *__attr, int __pshared);
int	pthread_mutexattr_getpshared(const pthread_mutexattr_t *__attr, int *__pshared);
int	pthread_mutexattr_setprotocol(pthread_mutexattr_t *__attr, int __protocol);
int	pthread_mutexattr_getprotocol(const pthread_mutexattr_t *__attr, int *__protocol);
int	pthread_mutexattr_setprioceiling(pthread_mutexattr_t *__attr, int __prioceiling);
int	pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *__attr, int *__prioceiling);
int	pthread_mutex_setprioceiling(pthread_mutex_t *__mutex, int __prioceiling, int *__old);
int	pthread_mutex_getprioceiling(const pthread_mutex_t *__mutex, int *__prioceiling);
int	pthread_mutex_init(pthread_mutex_t *__mutex, const pthread_mutexattr_t *__attr);
int	pthread_mutex_destroy(pthread_mutex_t *__mutex);
int	pthread_mutex_lock(pthread_mutex_t *__mutex);
int	pthread_mutex_trylock(pthread_mutex_t *__mutex);
int	pthread_mutex_timedlock(pthread_mutex_t *__mutex, const struct timespec *__abstime);
int	pthread_mutex_unlock(pthread_mutex_t *__mutex);

/* Condition variables */
#define PTHREAD_COND_INITIALIZER _PTHREAD_COND_INITIALIZER
int	pthread_condattr_init(pthread_condattr_t *__attr);
int	pthread_condattr_destroy(pthread_condattr_t *__attr);
int	pthread_condattr_setclock(pthread_condattr_t *__attr, clockid_t __clock);
int	pthread_condattr_getclock(const pthread_condattr_t *__restrict __attr,
				  clockid_t *__restrict __clock);
int	pthread_condattr_setpshared(pthread_condattr_t *__attr, int __pshared);
int	pthread_condattr_getpshared(const pthread_condattr_t *__attr, int *__pshared);
int	pthread_cond_init(pthread_cond_t *__cond, const pthread_condattr_t *__attr);
int	pthread_cond_destroy(pthread_cond_t *__cond);
int	pthread_cond_signal(pthread_cond_t *__cond);
int	pthread_cond_broadcast(pthread_cond_t *__cond);
int	pthread_cond_wait(pthread_cond_t *__cond, pthread_mutex_t *__mutex);
int	pthread_cond_timedwait(pthread_cond_t *__cond, pthread_mutex_t *__mutex,
			       const struct timespec *__abstime);

/* Once and thread-specific data */
#define PTHREAD_ONCE_INIT _PTHREAD_ONCE_INIT
int	pthread_once(pthread_once_t *__once, void (*__init)(void));
int	pthread_key_create(pthread_key_t *__key, void (*__destructor)(void *));
int	pthread_key_delete(pthread_key_t __key);
int	pthread_setspecific(pthread_key_t __key, const void *__value);
void	*pthread_getspecific(pthread_key_t __key);

/* Cancellation */
#define PTHREAD_CANCEL_ENABLE		0
#define PTHREAD_CANCEL_DISABLE		1
#define PTHREAD_CANCEL_DEFERRED		0
#define PTHREAD_CANCEL_ASYNCHRONOUS	1
#define PTHREAD_CANCELED ((void *)-1)
int	pthread_setcancelstate(int __state, int *__old);
int	pthread_setcanceltype(int __type, int *__old);
int	pthread_cancel(pthread_t __th);
void	pthread_testcancel(void);

/* A cleanup handler's record lives in the frame of the function that
   pushes it; push and pop are macros opening and closing one block, as
   POSIX allows.  */
struct _pthread_cleanup_context {
	void (*_routine)(void *);
	void *_arg;
	int _canceltype;
	struct _pthread_cleanup_context *_previous;
};
void	_pthread_cleanup_push(struct _pthread_cleanup_context *__ctx,
			      void (*__routine)(void *), void *__arg);
void	_pthread_cleanup_pop(struct _pthread_cleanup_context *__ctx, int __execute);
#define pthread_cleanup_push(_routine, _arg) \
	do { \
		struct _pthread_cleanup_context _pthread_clup_ctx; \
		_pthread_cleanup_push(&_pthread_clup_ctx, (_routine), (_arg))
#define pthread_cleanup_pop(_execute) \
		_pthread_cleanup_pop(&_pthread_clup_ctx, (_execute)); \
	} while (0)

/* Barriers */
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
int	pthread_barrierattr_init(pthread_barrierattr_t *__attr);
int	pthread_barrierattr_destroy(pthread_barrierattr_t *__attr);
int	pthread_barrierattr_setpshared(pthread_barrierattr_t *__attr, int __pshared);
int	pthread_barrierattr_getpshared(const pthread_barrierattr_t *__attr, int *__pshared);
int	pthread_barrier_init(pthread_barrier_t *__barrier, const pthread_barrierattr_t *__attr,
			     unsigned __count);
int	pthread_barrier_destroy(pthread_barrier_t *__barrier);
int	pthread_barrier_wait(pthread_barrier_t *__barrier);

/* Spin locks */
int	pthread_spin_init(pthread_spinlock_t *__lock, int __pshared);
int	pthread_spin_destroy(pthread_spinlock_t *__lock);
int	pthread_spin_lock(pthread_spinlock_t *__lock);
int	pthread_spin_trylock(pthread_spinlock_t *__lock);
int	pthread_spin_unlock(pthread_spinlock_t *__lock);

/* Read-write locks */
#define PTHREAD_RWLOCK_INITIALIZER _PTHREAD_RWLOCK_INITIALIZER
int	pthread_rwlockattr_init(pthread_rwlockattr_t *__attr);
int	pthread_rwlockattr_destroy(pthread_rwlockattr_t *__attr);
int	pthread_rwlockattr_setpshared(pthread_rwlockattr_t *__attr, int __pshared);
int	pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *__attr, int *__pshared);
int	pthread_rwlock_init(pthread_rwlock_t *__lock, const pthread_rwlockattr_t *__attr);
int	pthread_rwlock_destroy(pthread_rwlock_t *__lock);
int	pthread_rwlock_rdlock(pthread_rwlock_t *__lock);
int	pthread_rwlock_tryrdlock(pthread_rwlock_t *__lock);
int	pthread_rwlock_timedrdlock(pthread_rwlock_t *__lock, const struct timespec *__abstime);
int	pthread_rwlock_wrlock(pthread_rwlock_t *__lock);
int	pthread_rwlock_trywrlock(pthread_rwlock_t *__lock);
int	pthread_rwlock_timedwrlock(pthread_rwlock_t *__lock, const struct timespec *__abstime);
int	pthread_rwlock_unlock(pthread_rwlock_t *__lock);

#if __GNU_VISIBLE
/* GNU: thread's real attributes (its stack, the main thread's too, and
   its detach state), as glibc under _GNU_SOURCE.  */
int	pthread_getattr_np(pthread_t __th, pthread_attr_t *__attr);
#endif

#ifdef __cplusplus
}
#endif

#endif /* defined(_POSIX_THREADS) */

#endif /* __PTHREAD_h */
