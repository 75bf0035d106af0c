/* The pthread synchronization objects, each built on 32-bit futex words
 * (kernel/ipc/futex.c): mutexes (normal, recursive, error-checking),
 * condition variables (with a clock for timedwait), once, read-write
 * locks, spin locks and barriers. Nothing in an object is an address, so
 * each works between processes in MAP_SHARED memory
 * (PTHREAD_PROCESS_SHARED): the kernel keys such a futex on the shared
 * page. Errors follow glibc's (checked side by side by
 * tests/proc/diff_pthread.c). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "abi/sched.h"
#include "arbor_sys.h"
#include "pthread_impl.h"

#define KIND_TYPE(k) ((k) & 3u)
#define KIND_PSHARED 0x10u
#define KIND_PROTO(k) (((k) >> 5) & 3u)	/* PTHREAD_PRIO_NONE, INHERIT, PROTECT */
#define KIND_CEIL(k) ((int)(((k) >> 8) & 0x7fu))
#define KIND_CEIL_MASK (0x7fu << 8)
#define FIFO_MIN 1			/* sched_get_priority_min(SCHED_FIFO) */
#define FIFO_MAX 99

static bool pshared_ok(int v)
{
	return v == PTHREAD_PROCESS_PRIVATE || v == PTHREAD_PROCESS_SHARED;
}

/* --- mutex attributes --- */

int pthread_mutexattr_init(pthread_mutexattr_t *a)
{
	if (!a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->is_initialized = 1;
	return 0;
}

/* glibc's destroy touches nothing and returns 0, NULL included. */
int pthread_mutexattr_destroy(pthread_mutexattr_t *a)
{
	if (a)
		a->is_initialized = 0;
	return 0;
}

int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
	if (!a || type < PTHREAD_MUTEX_NORMAL || type > PTHREAD_MUTEX_ERRORCHECK)
		return EINVAL;
	a->type = type;
	return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type)
{
	if (!a || !type)
		return EINVAL;
	*type = a->type;
	return 0;
}

int pthread_mutexattr_setpshared(pthread_mutexattr_t *a, int v)
{
	if (!a || !pshared_ok(v))
		return EINVAL;
	a->process_shared = v;
	return 0;
}

int pthread_mutexattr_getpshared(const pthread_mutexattr_t *a, int *v)
{
	if (!a || !v)
		return EINVAL;
	*v = a->process_shared;
	return 0;
}

int pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int protocol)
{
	if (!a || (protocol != PTHREAD_PRIO_NONE && protocol != PTHREAD_PRIO_INHERIT &&
		   protocol != PTHREAD_PRIO_PROTECT))
		return EINVAL;
	a->protocol = protocol;
	return 0;
}

int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *protocol)
{
	if (!a || !protocol)
		return EINVAL;
	*protocol = a->protocol;
	return 0;
}

/* The ceiling is a SCHED_FIFO priority (glibc). */
int pthread_mutexattr_setprioceiling(pthread_mutexattr_t *a, int ceiling)
{
	if (!a || ceiling < FIFO_MIN || ceiling > FIFO_MAX)
		return EINVAL;
	a->prioceiling = ceiling;
	return 0;
}

/* One never set reads as the lowest FIFO priority, as glibc's. */
int pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *a, int *ceiling)
{
	if (!a || !ceiling)
		return EINVAL;
	*ceiling = a->prioceiling ? a->prioceiling : FIFO_MIN;
	return 0;
}

/* --- mutexes: __lock 0 free, 1 held, 2 held with (maybe) waiters; a
 * priority-inheritance one's holds its owner's tid (| K_FUTEX_WAITERS),
 * which the kernel reads to boost the owner and writes at a hand-over --- */

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	if (!m)
		return EINVAL;
	memset(m, 0, sizeof(*m));
	if (a) {
		m->__kind = (uint32_t)a->type | (a->process_shared ? KIND_PSHARED : 0) |
			    (uint32_t)a->protocol << 5;
		if (a->protocol == PTHREAD_PRIO_PROTECT)
			m->__kind |= (uint32_t)(a->prioceiling ? a->prioceiling : FIFO_MIN) << 8;
	}
	return 0;
}

int pthread_mutex_getprioceiling(const pthread_mutex_t *m, int *ceiling)
{
	if (!m || !ceiling || KIND_PROTO(m->__kind) != PTHREAD_PRIO_PROTECT)
		return EINVAL;
	*ceiling = KIND_CEIL(m->__kind);
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	if (!m)
		return EINVAL;
	return __atomic_load_n(&m->__lock, __ATOMIC_RELAXED) ? EBUSY : 0;
}

static bool lock_try(pthread_mutex_t *m)
{
	uint32_t expected = 0;
	return __atomic_compare_exchange_n(&m->__lock, &expected, 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* Takes the lock word, sleeping while it is held: 0, or ETIMEDOUT/EINVAL
 * for a timed lock past abstime (on CLOCK_REALTIME). */
static int lock_word(pthread_mutex_t *m, const struct timespec *abstime)
{
	if (lock_try(m))
		return 0;
	while (__atomic_exchange_n(&m->__lock, 2, __ATOMIC_ACQUIRE) != 0) {
		uint64_t ns = 0;
		uint32_t fl = 0;
		if (abstime) {
			int e = __pthread_timeout(CLOCK_REALTIME, abstime, &ns, &fl);
			if (e)
				return e;
		}
		sys_futex_wait(&m->__lock, 2, ns, fl);
	}
	return 0;
}

static void unlock_word(pthread_mutex_t *m)
{
	if (__atomic_exchange_n(&m->__lock, 0, __ATOMIC_RELEASE) == 2)
		sys_futex_wake(&m->__lock, 1);
}

/* A priority-inheritance mutex's word (docs/scheduler.md "Priority
 * inheritance"): free is 0, held is the owner's tid; a waiter sets
 * K_FUTEX_WAITERS and sleeps with K_FUTEX_PI, lending its priority to
 * the owner the word names; the unlock hands the lock over in the
 * kernel (K_FUTEX_UNLOCK_PI): the word then names the woken waiter. */
static int lock_word_pi(pthread_mutex_t *m, uint32_t tid, const struct timespec *abstime)
{
	for (;;) {
		uint32_t v = __atomic_load_n(&m->__lock, __ATOMIC_ACQUIRE);
		if (v == 0) {
			if (__atomic_compare_exchange_n(&m->__lock, &v, tid, false, __ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED))
				return 0;
			continue;
		}
		if (!(v & K_FUTEX_WAITERS)) {
			if (!__atomic_compare_exchange_n(&m->__lock, &v, v | K_FUTEX_WAITERS, false,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
				continue;
			v |= K_FUTEX_WAITERS;
		}
		uint64_t ns = 0;
		uint32_t fl = 0;
		if (abstime) {
			int e = __pthread_timeout(CLOCK_REALTIME, abstime, &ns, &fl);
			if (e)
				return e;
		}
		long r = sys_futex_wait(&m->__lock, v, ns, fl | K_FUTEX_PI);
		if (r == 0 && (__atomic_load_n(&m->__lock, __ATOMIC_ACQUIRE) & K_FUTEX_TID_MASK) == tid)
			return 0; /* handed over to us */
	}
}

static void unlock_word_pi(pthread_mutex_t *m, uint32_t tid)
{
	uint32_t v = tid;
	if (!__atomic_compare_exchange_n(&m->__lock, &v, 0, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		sys_futex_wake(&m->__lock, K_FUTEX_UNLOCK_PI);
}

/* Takes m's lock word as its protocol says, for tid. */
static int lock_proto(pthread_mutex_t *m, uint32_t tid, const struct timespec *abstime)
{
	uint32_t proto = KIND_PROTO(m->__kind);
	if (proto == PTHREAD_PRIO_INHERIT)
		return lock_word_pi(m, tid, abstime);
	if (proto != PTHREAD_PRIO_PROTECT)
		return lock_word(m, abstime);
	/* glibc: a caller above the ceiling is EINVAL; else it runs at the
	 * ceiling while it holds the lock */
	int ceiling = KIND_CEIL(m->__kind);
	if (__pthread_current_priority() > ceiling)
		return EINVAL;
	int e = __pthread_tpp_change(-1, ceiling);
	if (e)
		return e;
	e = lock_word(m, abstime);
	if (e)
		__pthread_tpp_change(ceiling, -1);
	return e;
}

static bool trylock_proto(pthread_mutex_t *m, uint32_t tid, int *err)
{
	uint32_t proto = KIND_PROTO(m->__kind);
	*err = 0;
	if (proto == PTHREAD_PRIO_INHERIT) {
		uint32_t zero = 0;
		return __atomic_compare_exchange_n(&m->__lock, &zero, tid, false, __ATOMIC_ACQUIRE,
						   __ATOMIC_RELAXED);
	}
	if (proto != PTHREAD_PRIO_PROTECT)
		return lock_try(m);
	int ceiling = KIND_CEIL(m->__kind);
	if (__pthread_current_priority() > ceiling) {
		*err = EINVAL;
		return false;
	}
	if ((*err = __pthread_tpp_change(-1, ceiling)))
		return false;
	if (lock_try(m))
		return true;
	__pthread_tpp_change(ceiling, -1);
	return false;
}

static void unlock_proto(pthread_mutex_t *m, uint32_t tid)
{
	uint32_t proto = KIND_PROTO(m->__kind);
	if (proto == PTHREAD_PRIO_INHERIT) {
		unlock_word_pi(m, tid);
		return;
	}
	unlock_word(m);
	if (proto == PTHREAD_PRIO_PROTECT)
		__pthread_tpp_change(KIND_CEIL(m->__kind), -1);
}

/* The ceiling changes under the lock (taken unless the caller holds it:
 * an error-checking mutex is EDEADLK then, as glibc's). */
int pthread_mutex_setprioceiling(pthread_mutex_t *m, int ceiling, int *old)
{
	if (!m || KIND_PROTO(m->__kind) != PTHREAD_PRIO_PROTECT || ceiling < FIFO_MIN ||
	    ceiling > FIFO_MAX)
		return EINVAL;
	uint32_t tid = (uint32_t)sys_gettid();
	bool held = __atomic_load_n(&m->__lock, __ATOMIC_RELAXED) &&
		    __atomic_load_n(&m->__owner, __ATOMIC_RELAXED) == tid;
	if (held && KIND_TYPE(m->__kind) == PTHREAD_MUTEX_ERRORCHECK)
		return EDEADLK;
	if (!held)
		lock_word(m, NULL);
	if (old)
		*old = KIND_CEIL(m->__kind);
	m->__kind = (m->__kind & ~KIND_CEIL_MASK) | (uint32_t)ceiling << 8;
	if (!held)
		unlock_word(m);
	return 0;
}

/* The checks of error-checking and recursive mutexes before blocking: -1
 * to go on and take the lock, else the result (0 for a recursive relock). */
static int lock_owned(pthread_mutex_t *m, uint32_t tid, bool try)
{
	uint32_t type = KIND_TYPE(m->__kind);
	if (type == PTHREAD_MUTEX_NORMAL || __atomic_load_n(&m->__owner, __ATOMIC_RELAXED) != tid ||
	    !__atomic_load_n(&m->__lock, __ATOMIC_RELAXED))
		return -1;
	if (type == PTHREAD_MUTEX_ERRORCHECK) /* glibc: a PI or PP one's trylock says EDEADLK too */
		return try && KIND_PROTO(m->__kind) == PTHREAD_PRIO_NONE ? EBUSY : EDEADLK;
	if (m->__count == UINT32_MAX)
		return EAGAIN;
	m->__count++;
	return 0;
}

static int mutex_lock(pthread_mutex_t *m, const struct timespec *abstime)
{
	if (!m)
		return EINVAL;
	if (m->__kind == PTHREAD_MUTEX_NORMAL) /* the common case: no owner kept */
		return lock_word(m, abstime);
	uint32_t tid = (uint32_t)sys_gettid();
	int r = lock_owned(m, tid, false);
	if (r >= 0)
		return r;
	r = lock_proto(m, tid, abstime);
	if (r == 0) {
		m->__owner = tid;
		m->__count = 0;
	}
	return r;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	return mutex_lock(m, NULL);
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)
{
	if (!abstime)
		return EINVAL;
	return mutex_lock(m, abstime);
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	if (!m)
		return EINVAL;
	uint32_t kind = m->__kind, tid = 0;
	if (kind != PTHREAD_MUTEX_NORMAL) {
		tid = (uint32_t)sys_gettid();
		int r = lock_owned(m, tid, true);
		if (r >= 0)
			return r;
	}
	int err = 0;
	if (kind == PTHREAD_MUTEX_NORMAL ? !lock_try(m) : !trylock_proto(m, tid, &err))
		return err ? err : EBUSY;
	if (kind != PTHREAD_MUTEX_NORMAL) {
		m->__owner = tid;
		m->__count = 0;
	}
	return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (!m)
		return EINVAL;
	if (KIND_TYPE(m->__kind) != PTHREAD_MUTEX_NORMAL) {
		if (!__atomic_load_n(&m->__lock, __ATOMIC_RELAXED) || m->__owner != (uint32_t)sys_gettid())
			return EPERM;
		if (m->__count) {
			m->__count--;
			return 0;
		}
	}
	if (m->__kind == PTHREAD_MUTEX_NORMAL) {
		unlock_word(m);
		return 0;
	}
	uint32_t tid = m->__owner;
	m->__owner = 0;
	unlock_proto(m, tid);
	return 0;
}

/* --- condition variables --- */

int pthread_condattr_init(pthread_condattr_t *a)
{
	if (!a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->is_initialized = 1;
	a->clock = CLOCK_REALTIME;
	return 0;
}

int pthread_condattr_destroy(pthread_condattr_t *a)
{
	if (a)
		a->is_initialized = 0;
	return 0;
}

int pthread_condattr_setclock(pthread_condattr_t *a, clockid_t clock)
{
	if (!a || (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC))
		return EINVAL;
	a->clock = (int)clock;
	return 0;
}

int pthread_condattr_getclock(const pthread_condattr_t *a, clockid_t *clock)
{
	if (!a || !clock)
		return EINVAL;
	*clock = (clockid_t)a->clock;
	return 0;
}

int pthread_condattr_setpshared(pthread_condattr_t *a, int v)
{
	if (!a || !pshared_ok(v))
		return EINVAL;
	a->process_shared = v;
	return 0;
}

int pthread_condattr_getpshared(const pthread_condattr_t *a, int *v)
{
	if (!a || !v)
		return EINVAL;
	*v = a->process_shared;
	return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a)
{
	if (!c)
		return EINVAL;
	memset(c, 0, sizeof(*c));
	if (a) {
		c->__clock = (uint32_t)a->clock;
		c->__pshared = (uint32_t)a->process_shared;
	}
	return 0;
}

/* A waiter counts itself in __wrefs from before it lets the mutex go
 * until its futex wait has returned, and destroy waits for none to be
 * left (as glibc's): POSIX lets a program destroy, even overwrite and
 * init again, a condition variable right after its broadcast, while the
 * threads it woke are still in pthread_cond_wait (the Open POSIX suite's
 * pthread_cond_destroy/2-1). Without that wait, a waiter that had let
 * the mutex go but not yet reached its futex wait would find __seq back
 * at the value it read (init zeroes it) and sleep through the broadcast
 * meant for it. */
int pthread_cond_destroy(pthread_cond_t *c)
{
	if (!c)
		return EINVAL;
	uint32_t v = __atomic_load_n(&c->__wrefs, __ATOMIC_ACQUIRE);
	while (v >> 1) {
		if (!(v & 1) && !__atomic_compare_exchange_n(&c->__wrefs, &v, v | 1, false, __ATOMIC_ACQ_REL,
							     __ATOMIC_ACQUIRE))
			continue; /* v is the word now */
		sys_futex_wait(&c->__wrefs, v | 1, 0, 0);
		v = __atomic_load_n(&c->__wrefs, __ATOMIC_ACQUIRE);
	}
	return 0;
}

/* The waiter is out of its wait: c is no longer touched after this but
 * for waking a destroy that waits (a wake of a word that destroy's caller
 * may have reused is at most a spurious wake-up, as glibc's). */
static void cond_leave(pthread_cond_t *c)
{
	if (__atomic_sub_fetch(&c->__wrefs, 2, __ATOMIC_RELEASE) == 1)
		sys_futex_wake(&c->__wrefs, INT_MAX);
}

/* A cancelled waiter leaves the wait and holds the mutex again before its
 * cleanup handlers run (POSIX); a recursive one at its depth. */
struct cond_wait_state {
	pthread_cond_t *c;
	pthread_mutex_t *m;
	uint32_t count;
};

static void cond_relock(struct cond_wait_state *s)
{
	mutex_lock(s->m, NULL);
	s->m->__count = s->count;
}

static void cond_cancelled(void *arg)
{
	struct cond_wait_state *s = arg;
	cond_leave(s->c);
	cond_relock(s);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	if (!c || !m)
		return EINVAL;
	uint64_t ns = 0;
	uint32_t fl = 0;
	int e = abstime ? __pthread_timeout((clockid_t)c->__clock, abstime, &ns, &fl) : 0;
	if (e == EINVAL)
		return EINVAL;
	uint32_t type = KIND_TYPE(m->__kind);
	if (type != PTHREAD_MUTEX_NORMAL &&
	    (!__atomic_load_n(&m->__lock, __ATOMIC_RELAXED) || m->__owner != (uint32_t)sys_gettid()))
		return EPERM;
	pthread_testcancel();
	struct cond_wait_state s = { c, m, m->__count };
	__atomic_add_fetch(&c->__wrefs, 2, __ATOMIC_ACQ_REL);
	uint32_t seq = __atomic_load_n(&c->__seq, __ATOMIC_ACQUIRE);
	m->__count = 0;
	pthread_mutex_unlock(m);
	long r = 0;
	if (e == 0) {
		pthread_cleanup_push(cond_cancelled, &s);
		int cp = __pthread_cp_begin();
		r = sys_futex_wait(&c->__seq, seq, ns, fl);
		__pthread_cp_end(cp);
		pthread_cleanup_pop(0);
	}
	cond_leave(c);
	cond_relock(&s);
	/* A wake-up of another kind (-EINTR, -EAGAIN) is a spurious one. */
	return e == ETIMEDOUT || r == -ETIMEDOUT ? ETIMEDOUT : 0;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return pthread_cond_timedwait(c, m, NULL);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	if (!c)
		return EINVAL;
	__atomic_add_fetch(&c->__seq, 1, __ATOMIC_RELEASE);
	sys_futex_wake(&c->__seq, 1);
	return 0;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	if (!c)
		return EINVAL;
	__atomic_add_fetch(&c->__seq, 1, __ATOMIC_RELEASE);
	sys_futex_wake(&c->__seq, INT_MAX);
	return 0;
}

/* --- once: the word 0 not run, 1 running, 2 done, 3 running with waiters --- */

static void once_cancelled(void *arg)
{
	uint32_t *w = arg;
	/* the routine was cancelled: another caller runs it (POSIX) */
	if (__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) == 3)
		sys_futex_wake(w, INT_MAX);
}

int pthread_once(pthread_once_t *o, void (*fn)(void))
{
	if (!o || !fn)
		return EINVAL;
	uint32_t *w = (uint32_t *)o;
	for (;;) {
		uint32_t v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
		if (v == 2)
			return 0;
		if (v == 0) {
			if (!__atomic_compare_exchange_n(w, &v, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				continue;
			pthread_cleanup_push(once_cancelled, w);
			fn();
			pthread_cleanup_pop(0);
			if (__atomic_exchange_n(w, 2, __ATOMIC_RELEASE) == 3)
				sys_futex_wake(w, INT_MAX);
			return 0;
		}
		if (v == 1 && !__atomic_compare_exchange_n(w, &v, 3, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue;
		sys_futex_wait(w, 3, 0, 0);
	}
}

/* --- spin locks --- */

int pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
	(void)pshared; /* glibc accepts any value: a spin lock is one word either way */
	if (!s)
		return EINVAL;
	*s = 0;
	return 0;
}

int pthread_spin_destroy(pthread_spinlock_t *s)
{
	return s ? 0 : EINVAL;
}

int pthread_spin_trylock(pthread_spinlock_t *s)
{
	if (!s)
		return EINVAL;
	return __atomic_exchange_n(s, 1, __ATOMIC_ACQUIRE) ? EBUSY : 0;
}

int pthread_spin_lock(pthread_spinlock_t *s)
{
	if (!s)
		return EINVAL;
	for (unsigned n = 0; __atomic_exchange_n(s, 1, __ATOMIC_ACQUIRE); n++) {
		while (__atomic_load_n(s, __ATOMIC_RELAXED)) {
			__builtin_ia32_pause();
			/* the holder may be preempted on a loaded machine: let it run */
			if (++n % 1024 == 0)
				sys_yield();
		}
	}
	return 0;
}

int pthread_spin_unlock(pthread_spinlock_t *s)
{
	if (!s)
		return EINVAL;
	__atomic_store_n(s, 0, __ATOMIC_RELEASE);
	return 0;
}

/* --- barriers --- */

int pthread_barrierattr_init(pthread_barrierattr_t *a)
{
	if (!a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->is_initialized = 1;
	return 0;
}

int pthread_barrierattr_destroy(pthread_barrierattr_t *a)
{
	if (a)
		a->is_initialized = 0;
	return 0;
}

int pthread_barrierattr_setpshared(pthread_barrierattr_t *a, int v)
{
	if (!a || !pshared_ok(v))
		return EINVAL;
	a->process_shared = v;
	return 0;
}

int pthread_barrierattr_getpshared(const pthread_barrierattr_t *a, int *v)
{
	if (!a || !v)
		return EINVAL;
	*v = a->process_shared;
	return 0;
}

int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned count)
{
	if (!b || count == 0 || count > INT_MAX)
		return EINVAL;
	memset(b, 0, sizeof(*b));
	b->__count = count;
	b->__pshared = a ? (uint32_t)a->process_shared : 0;
	return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
	if (!b)
		return EINVAL;
	return __atomic_load_n(&b->__arrived, __ATOMIC_ACQUIRE) ? EBUSY : 0;
}

/* The last of a round to arrive resets the count, then starts the next
 * round (__seq): the others, asleep on the round they arrived in, go. */
int pthread_barrier_wait(pthread_barrier_t *b)
{
	if (!b)
		return EINVAL;
	uint32_t seq = __atomic_load_n(&b->__seq, __ATOMIC_ACQUIRE);
	if (__atomic_add_fetch(&b->__arrived, 1, __ATOMIC_ACQ_REL) == b->__count) {
		__atomic_store_n(&b->__arrived, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->__seq, 1, __ATOMIC_RELEASE);
		sys_futex_wake(&b->__seq, INT_MAX);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (__atomic_load_n(&b->__seq, __ATOMIC_ACQUIRE) == seq)
		sys_futex_wait(&b->__seq, seq, 0, 0);
	return 0;
}

/* --- read-write locks: __state readers, or RW_WRITER; readers first
 * (glibc's default, PTHREAD_RWLOCK_PREFER_READER_NP) --- */

#define RW_WRITER 0xffffffffu

int pthread_rwlockattr_init(pthread_rwlockattr_t *a)
{
	if (!a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->is_initialized = 1;
	return 0;
}

int pthread_rwlockattr_destroy(pthread_rwlockattr_t *a)
{
	if (a)
		a->is_initialized = 0;
	return 0;
}

int pthread_rwlockattr_setpshared(pthread_rwlockattr_t *a, int v)
{
	if (!a || !pshared_ok(v))
		return EINVAL;
	a->process_shared = v;
	return 0;
}

int pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *a, int *v)
{
	if (!a || !v)
		return EINVAL;
	*v = a->process_shared;
	return 0;
}

int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a)
{
	(void)a;
	if (!l)
		return EINVAL;
	memset(l, 0, sizeof(*l));
	return 0;
}

/* glibc checks nothing (destroying a held lock is undefined): neither. */
int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
	return l ? 0 : EINVAL;
}

static bool rw_try(pthread_rwlock_t *l, bool write)
{
	uint32_t s = __atomic_load_n(&l->__state, __ATOMIC_RELAXED);
	for (;;) {
		uint32_t want;
		if (write)
			want = s == 0 ? RW_WRITER : 0;
		else
			want = s < RW_WRITER - 1 ? s + 1 : 0;
		if (!want)
			return false;
		if (__atomic_compare_exchange_n(&l->__state, &s, want, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	}
}

/* Takes l for reading or writing, waiting until abstime (CLOCK_REALTIME)
 * if given. A waiter counts itself in __waiters before it reads __seq and
 * tries: a release that follows its failed try sees it and bumps __seq. */
static int rw_lock(pthread_rwlock_t *l, bool write, const struct timespec *abstime)
{
	if (!l)
		return EINVAL;
	if (abstime && (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L))
		return EINVAL; /* checked first, as glibc */
	uint32_t tid = (uint32_t)sys_gettid();
	if (__atomic_load_n(&l->__state, __ATOMIC_RELAXED) == RW_WRITER && l->__writer == tid)
		return EDEADLK;
	while (!rw_try(l, write)) {
		uint64_t ns = 0;
		uint32_t fl = 0;
		int e = abstime ? __pthread_timeout(CLOCK_REALTIME, abstime, &ns, &fl) : 0;
		if (e)
			return e;
		__atomic_add_fetch(&l->__waiters, 1, __ATOMIC_SEQ_CST);
		uint32_t seq = __atomic_load_n(&l->__seq, __ATOMIC_SEQ_CST);
		bool got = rw_try(l, write);
		if (!got)
			sys_futex_wait(&l->__seq, seq, ns, fl);
		__atomic_sub_fetch(&l->__waiters, 1, __ATOMIC_SEQ_CST);
		if (got)
			break;
	}
	if (write)
		l->__writer = tid;
	return 0;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l) { return rw_lock(l, false, NULL); }
int pthread_rwlock_wrlock(pthread_rwlock_t *l) { return rw_lock(l, true, NULL); }

int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abstime)
{
	return abstime ? rw_lock(l, false, abstime) : EINVAL;
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abstime)
{
	return abstime ? rw_lock(l, true, abstime) : EINVAL;
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	if (!l)
		return EINVAL;
	return rw_try(l, false) ? 0 : EBUSY;
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	if (!l)
		return EINVAL;
	if (!rw_try(l, true))
		return EBUSY;
	l->__writer = (uint32_t)sys_gettid();
	return 0;
}

/* Unlocking a lock not held returns 0 and changes nothing (glibc's
 * outcome for that undefined case). */
int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	if (!l)
		return EINVAL;
	uint32_t s = __atomic_load_n(&l->__state, __ATOMIC_RELAXED);
	for (;;) {
		if (s == 0)
			return 0;
		uint32_t want = s == RW_WRITER ? 0 : s - 1;
		if (s == RW_WRITER)
			l->__writer = 0;
		if (__atomic_compare_exchange_n(&l->__state, &s, want, false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			break;
	}
	if (__atomic_load_n(&l->__waiters, __ATOMIC_SEQ_CST)) {
		__atomic_add_fetch(&l->__seq, 1, __ATOMIC_SEQ_CST);
		sys_futex_wake(&l->__seq, INT_MAX);
	}
	return 0;
}
