/* POSIX threads on kernel threads (thread_create) and futexes.
 * pthread_t indexes a table of thread records; the main thread is 0.
 * Mutexes are the 32-bit futex word newlib's pthread_mutex_t is:
 * 0 or 0xFFFFFFFF (the static initializer) unlocked, 1 locked, 2 locked
 * with waiters. Condition variables are a sequence word. Recursive mutexes
 * and cancellation are not supported yet. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "arbor_sys.h"

#define MAX_THREADS 64
#define MAX_KEYS 32
#define DEFAULT_STACK (256 * 1024)

struct pthread_rec {
	int used;
	volatile uint32_t tid;		/* cleared by the kernel when the thread is gone */
	void *(*fn)(void *);
	void *arg;
	void *ret;
	uint64_t stack, stack_size;
	int detached;
	const void *specific[MAX_KEYS];
};

static struct pthread_rec threads[MAX_THREADS] = { [0] = { .used = 1 } };
static volatile uint32_t table_lock;
static void (*key_dtors[MAX_KEYS])(void *);
static int keys_used;

void __arbor_thread_entry(void);

static void lock_table(void)
{
	while (__atomic_exchange_n(&table_lock, 1, __ATOMIC_ACQUIRE))
		sys_yield();
}

static void unlock_table(void)
{
	__atomic_store_n(&table_lock, 0, __ATOMIC_RELEASE);
}

pthread_t pthread_self(void)
{
	uint32_t tid = (uint32_t)sys_gettid();
	for (int i = 1; i < MAX_THREADS; i++)
		if (threads[i].used && threads[i].tid == tid)
			return (pthread_t)i;
	return 0;
}

int pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}

static long pthread_start(void *arg)
{
	struct pthread_rec *r = arg;
	r->ret = r->fn(r->arg);
	return 0;
}

int pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	uint64_t size = attr && attr->stacksize > 0 ? (uint64_t)attr->stacksize : DEFAULT_STACK;
	size = (size + 4095) & ~4095ull;
	lock_table();
	int i = 1;
	while (i < MAX_THREADS && threads[i].used)
		i++;
	if (i == MAX_THREADS) {
		unlock_table();
		return EAGAIN;
	}
	struct pthread_rec *r = &threads[i];
	memset(r, 0, sizeof(*r));
	r->used = 1;
	unlock_table();
	long stack = sys_mem_map(0, size, PROT_READ | PROT_WRITE);
	if (stack < 0) {
		r->used = 0;
		return EAGAIN;
	}
	r->fn = fn;
	r->arg = arg;
	r->stack = (uint64_t)stack;
	r->stack_size = size;
	r->detached = attr && attr->detachstate == PTHREAD_CREATE_DETACHED;
	uint64_t *top = (uint64_t *)(stack + (long)size) - 2;
	top[0] = (uint64_t)pthread_start;
	top[1] = (uint64_t)r;
	r->tid = 0xffffffffu; /* "starting": the kernel zeroes it at the end */
	long tid = sys_thread_create((uint64_t)__arbor_thread_entry, (uint64_t)top, (uint64_t)top,
				     (uint32_t *)&r->tid);
	if (tid < 0) {
		sys_mem_unmap(r->stack, size);
		r->used = 0;
		return tid == -ENOMEM ? EAGAIN : (int)-tid;
	}
	__atomic_compare_exchange_n(&r->tid, &(uint32_t){ 0xffffffffu }, (uint32_t)tid, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	*out = (pthread_t)i;
	return 0;
}

int pthread_join(pthread_t t, void **ret)
{
	if (t == 0 || t >= MAX_THREADS || !threads[t].used || threads[t].detached)
		return EINVAL;
	if (t == pthread_self())
		return EDEADLK;
	struct pthread_rec *r = &threads[t];
	uint32_t v;
	while ((v = r->tid) != 0)
		sys_futex_wait((uint32_t *)&r->tid, v, 0);
	if (ret)
		*ret = r->ret;
	sys_mem_unmap(r->stack, r->stack_size);
	r->used = 0;
	return 0;
}

int pthread_detach(pthread_t t)
{
	if (t == 0 || t >= MAX_THREADS || !threads[t].used)
		return ESRCH;
	threads[t].detached = 1; /* its stack stays mapped: no one will join */
	return 0;
}

void pthread_exit(void *ret)
{
	pthread_t self = pthread_self();
	threads[self].ret = ret;
	if (self == 0)
		exit(0);
	for (;;)
		sys_exit_thread(0);
}

int pthread_attr_init(pthread_attr_t *a)
{
	memset(a, 0, sizeof(*a));
	a->is_initialized = 1;
	a->stacksize = DEFAULT_STACK;
	a->detachstate = PTHREAD_CREATE_JOINABLE;
	return 0;
}

int pthread_attr_destroy(pthread_attr_t *a) { a->is_initialized = 0; return 0; }
int pthread_attr_setdetachstate(pthread_attr_t *a, int s) { a->detachstate = s; return 0; }
int pthread_attr_getdetachstate(const pthread_attr_t *a, int *s) { *s = a->detachstate; return 0; }

int pthread_attr_setstacksize(pthread_attr_t *a, size_t s)
{
	if (s < 16384)
		return EINVAL;
	a->stacksize = (int)s;
	return 0;
}

/* --- mutexes --- */

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	(void)attr;
	*m = 0;
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	return *m == 1 || *m == 2 ? EBUSY : 0;
}

static uint32_t mutex_cas(pthread_mutex_t *m, uint32_t from, uint32_t to)
{
	uint32_t expected = from;
	__atomic_compare_exchange_n((uint32_t *)m, &expected, to, false, __ATOMIC_ACQUIRE,
				    __ATOMIC_RELAXED);
	return expected;
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	uint32_t v = mutex_cas(m, 0, 1);
	if (v == 0xffffffffu)
		v = mutex_cas(m, 0xffffffffu, 1);
	return v == 0 || v == 0xffffffffu ? 0 : EBUSY;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (pthread_mutex_trylock(m) == 0)
		return 0;
	/* Contended: mark waiters (2) and sleep until the holder wakes us. */
	while (__atomic_exchange_n((uint32_t *)m, 2, __ATOMIC_ACQUIRE) & 3)
		sys_futex_wait((uint32_t *)m, 2, 0);
	return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (__atomic_exchange_n((uint32_t *)m, 0, __ATOMIC_RELEASE) == 2)
		sys_futex_wake((uint32_t *)m, 1);
	return 0;
}

int pthread_mutexattr_init(pthread_mutexattr_t *a) { memset(a, 0, sizeof(*a)); a->is_initialized = 1; return 0; }
int pthread_mutexattr_destroy(pthread_mutexattr_t *a) { a->is_initialized = 0; return 0; }

/* --- condition variables --- */

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	(void)attr;
	*c = 0;
	return 0;
}

int pthread_cond_destroy(pthread_cond_t *c)
{
	(void)c;
	return 0;
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	uint32_t seq = __atomic_load_n((uint32_t *)c, __ATOMIC_ACQUIRE);
	uint64_t timeout = 0;
	if (abstime) {
		uint64_t end = (uint64_t)abstime->tv_sec * 1000000000u + (uint64_t)abstime->tv_nsec;
		uint64_t now = (uint64_t)sys_clock_real() /* abstime is CLOCK_REALTIME (POSIX default) */;
		if (end <= now)
			return ETIMEDOUT;
		timeout = end - now;
	}
	pthread_mutex_unlock(m);
	long r = sys_futex_wait((uint32_t *)c, seq, timeout);
	pthread_mutex_lock(m);
	return r == -ETIMEDOUT ? ETIMEDOUT : 0;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return pthread_cond_timedwait(c, m, NULL);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	__atomic_add_fetch((uint32_t *)c, 1, __ATOMIC_RELEASE);
	sys_futex_wake((uint32_t *)c, 1);
	return 0;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	__atomic_add_fetch((uint32_t *)c, 1, __ATOMIC_RELEASE);
	sys_futex_wake((uint32_t *)c, 1 << 30);
	return 0;
}

int pthread_condattr_init(pthread_condattr_t *a) { memset(a, 0, sizeof(*a)); return 0; }
int pthread_condattr_destroy(pthread_condattr_t *a) { (void)a; return 0; }

/* --- once and thread-specific data --- */

int pthread_once(pthread_once_t *o, void (*fn)(void))
{
	static pthread_mutex_t once_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&once_lock);
	if (!o->init_executed) {
		o->init_executed = 1;
		fn();
	}
	pthread_mutex_unlock(&once_lock);
	return 0;
}

int pthread_key_create(pthread_key_t *k, void (*dtor)(void *))
{
	lock_table();
	if (keys_used == MAX_KEYS) {
		unlock_table();
		return EAGAIN;
	}
	key_dtors[keys_used] = dtor;
	*k = (pthread_key_t)keys_used++;
	unlock_table();
	return 0;
}

int pthread_key_delete(pthread_key_t k)
{
	return k < (pthread_key_t)keys_used ? 0 : EINVAL;
}

void *pthread_getspecific(pthread_key_t k)
{
	return k < MAX_KEYS ? (void *)threads[pthread_self()].specific[k] : NULL;
}

int pthread_setspecific(pthread_key_t k, const void *v)
{
	if (k >= (pthread_key_t)keys_used)
		return EINVAL;
	threads[pthread_self()].specific[k] = v;
	return 0;
}

/* The kernel's id of thread t while it runs (pthread_kill,
 * pthread_getcpuclockid), else 0. */
uint32_t __arbor_pthread_tid(pthread_t t)
{
	if (t == 0)
		return (uint32_t)sys_getpid(); /* the main thread */
	if (t >= MAX_THREADS || !threads[t].used)
		return 0;
	uint32_t tid = threads[t].tid;
	return tid == 0xffffffffu ? 0 : tid;
}
