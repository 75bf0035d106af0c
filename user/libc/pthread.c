/* POSIX threads on kernel threads (thread_create): creation, join and
 * detach, exit with cleanup handlers and thread-specific-data
 * destructors, attributes, keys and fork handlers. pthread_t indexes a
 * table of thread records that grows as needed (pthread_table.c); the
 * main thread is 0. The synchronization
 * objects are in pthread_sync.c, cancellation in pthread_cancel.c.
 * Errors are glibc's: join of an unknown (or already joined) thread
 * ESRCH, of a detached one EINVAL, of itself EDEADLK. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include "arbor_sys.h"
#include "newlib_lock.h"
#include "pthread_impl.h"

#define DEFAULT_STACK (256 * 1024)
#define MAX_ATFORK 32

volatile int __pthread_cancel_armed;
static volatile uint32_t table_lock;
/* Live threads, the main one included: the last to end exits the process. */
static volatile int live_threads = 1;

static struct {
	void (*dtor)(void *);
	uint32_t gen;		/* odd: in use; a value set under another gen is stale */
} keys[PT_KEYS];

static struct { void (*prepare)(void), (*parent)(void), (*child)(void); } atfork[MAX_ATFORK];
static int atfork_n;
static uint32_t fork_self;	/* the forking thread's index, for the child */
/* Detached threads not yet freed: the first one's index + 1, on through
 * their records' link. */
static uint32_t detached_head;
static bool main_tid_set;	/* entry 0's tid is the main thread's (joinable) */

void __arbor_thread_entry(void);

extern int __mlock_future; /* mman.c */

static void lock_table(void)
{
	while (__atomic_exchange_n(&table_lock, 1, __ATOMIC_ACQUIRE))
		sys_yield();
}

static void unlock_table(void)
{
	__atomic_store_n(&table_lock, 0, __ATOMIC_RELEASE);
}

/* Main's stack lies above this (set at the first pthread_create: the
 * kernel gives the main thread an 8 MiB stack at the top of user space;
 * mapped memory, thread stacks included, lies far below). */
static uint64_t main_sp_floor = UINT64_MAX;

/* The calling thread's entry, without a system call in the common cases:
 * the stack pointer lies in one thread's stack (a look-up in the stack
 * map, whatever the number of threads), or in main's. Otherwise (a signal
 * handler on an alternate stack) by the kernel's thread id. */
static uint32_t self_index(void)
{
	/* no thread made yet: the main thread, with no look at the table
	 * (a fork pays for each page it touches) */
	if (!main_tid_set)
		return 0;
	uint64_t sp = (uint64_t)__builtin_frame_address(0);
	int i = __pthread_index_by_sp(sp);
	if (i >= 0)
		return (uint32_t)i;
	if (sp >= main_sp_floor)
		return 0;
	i = __pthread_index_by_tid((uint32_t)sys_gettid());
	return i > 0 ? (uint32_t)i : 0;
}

struct pthread_rec *__pthread_self_rec(void)
{
	return __pthread_rec_any(self_index());
}

struct _reent *__getreent(void)
{
	/* the main thread, and any thread this library did not make (a raw
	 * clone), use newlib's own */
	struct pthread_rec *r = __pthread_rec_any(self_index());
	return r->reent ? r->reent : _impure_ptr;
}

pthread_t pthread_self(void)
{
	return (pthread_t)self_index();
}

int pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}

int __pthread_timeout(clockid_t clock, const struct timespec *abstime, uint64_t *ns, uint32_t *flags)
{
	if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L)
		return EINVAL;
	struct timespec now;
	if (clock_gettime(clock, &now) != 0)
		return EINVAL;
	if (abstime->tv_sec < now.tv_sec || (abstime->tv_sec == now.tv_sec && abstime->tv_nsec <= now.tv_nsec))
		return ETIMEDOUT;
	/* the kernel keeps a wall-clock time as it is, so that a step of
	 * the clock moves the wait's end, as Linux's FUTEX_CLOCK_REALTIME;
	 * a monotonic one goes as the time left. Past 2^64 ns: no end. */
	bool real = clock == CLOCK_REALTIME;
	time_t from = real ? 0 : now.tv_sec;
	long from_ns = real ? 0 : now.tv_nsec;
	uint64_t sec = (uint64_t)(abstime->tv_sec - from);
	*flags = real ? K_FUTEX_REALTIME : 0;
	if (sec >= UINT64_MAX / 1000000000u) {
		*ns = UINT64_MAX;
		return 0;
	}
	*ns = sec * 1000000000u + (uint64_t)abstime->tv_nsec - (uint64_t)from_ns;
	return 0;
}

/* --- thread-specific data --- */

int pthread_key_create(pthread_key_t *k, void (*dtor)(void *))
{
	lock_table();
	for (int i = 0; i < PT_KEYS; i++) {
		if (keys[i].gen & 1)
			continue;
		keys[i].gen++;
		keys[i].dtor = dtor;
		*k = (pthread_key_t)i;
		unlock_table();
		return 0;
	}
	unlock_table();
	return EAGAIN;
}

int pthread_key_delete(pthread_key_t k)
{
	lock_table();
	int r = k < PT_KEYS && (keys[k].gen & 1) ? 0 : EINVAL;
	if (r == 0) {
		keys[k].gen++; /* values set under the old generation read as NULL */
		keys[k].dtor = NULL;
	}
	unlock_table();
	return r;
}

void *pthread_getspecific(pthread_key_t k)
{
	if (k >= PT_KEYS || !(keys[k].gen & 1))
		return NULL;
	struct pthread_rec *r = __pthread_self_rec();
	return r->specific[k].gen == keys[k].gen ? (void *)r->specific[k].value : NULL;
}

int pthread_setspecific(pthread_key_t k, const void *v)
{
	if (k >= PT_KEYS || !(keys[k].gen & 1))
		return EINVAL;
	struct pthread_rec *r = __pthread_self_rec();
	r->specific[k].value = v;
	r->specific[k].gen = keys[k].gen;
	return 0;
}

/* POSIX: each non-NULL value with a destructor is set to NULL and the
 * destructor called with it, for up to PTHREAD_DESTRUCTOR_ITERATIONS
 * rounds while destructors set new values. */
static void run_key_destructors(struct pthread_rec *r)
{
	for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		bool ran = false;
		for (int k = 0; k < PT_KEYS; k++) {
			void (*dtor)(void *) = keys[k].dtor;
			const void *v = r->specific[k].value;
			if (!dtor || !v || r->specific[k].gen != keys[k].gen)
				continue;
			r->specific[k].value = NULL;
			dtor((void *)v);
			ran = true;
		}
		if (!ran)
			break;
	}
}

/* --- creation, exit, join --- */

void __pthread_exit(void *ret)
{
	struct pthread_rec *r = __pthread_self_rec();
	r->exiting = 1;
	r->cancel_disabled = 1;
	while (r->cleanup) {
		struct _pthread_cleanup_context *c = r->cleanup;
		r->cleanup = c->_previous;
		c->_routine(c->_arg);
	}
	run_key_destructors(r);
	r->ret = ret;
	if (__atomic_sub_fetch(&live_threads, 1, __ATOMIC_ACQ_REL) == 0)
		exit(0); /* the last thread: as glibc, the process exits normally */
	if (r->reent) /* what it allocated (dtoa's buffers, strtok's state); the struct is on the stack */
		_reclaim_reent(r->reent);
	if (r->index == 0) {
		/* The main thread's stack is the process's: only say it ended. */
		__atomic_store_n(&r->tid, 0, __ATOMIC_RELEASE);
		sys_futex_wake((uint32_t *)&r->tid, INT_MAX);
	}
	for (;;)
		sys_exit_thread(0);
}

void pthread_exit(void *ret)
{
	__pthread_exit(ret);
}

/* thread_create's entry calls this with arg and the thread's tid (rsi):
 * the thread may run before pthread_create has stored the tid, and
 * pthread_kill(pthread_self()) must find it (it used to signal nobody). */
static long pthread_start(void *arg, long tid)
{
	struct pthread_rec *r = arg;
	__atomic_compare_exchange_n(&r->tid, &(uint32_t){ 0xffffffffu }, (uint32_t)tid, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	__pthread_tid_note(r, (uint32_t)tid);
	uint32_t g; /* PTHREAD_EXPLICIT_SCHED: its creator sets its policy first */
	while ((g = __atomic_load_n(&r->start_gate, __ATOMIC_ACQUIRE)) == 1)
		sys_futex_wait((uint32_t *)&r->start_gate, 1, 0, 0);
	if (g == 2)
		__pthread_exit(NULL); /* that failed: pthread_create returned the error */
	__pthread_exit(r->fn(r->arg));
}

/* Frees r, an ended thread's record, and its stack. Table lock held. */
static void release(struct pthread_rec *r)
{
	__pthread_stack_unregister(r);
	r->reent = NULL; /* it was on the stack */
	if (r->stack_size)
		sys_mem_unmap(r->stack, r->stack_size);
	__pthread_rec_free(r);
}

/* Frees the records (and stacks) of detached threads that have ended:
 * nobody joins them. Only the detached list is walked, not the table.
 * Table lock held. */
static void reap_detached(void)
{
	uint32_t *link = &detached_head;
	while (*link) {
		struct pthread_rec *r = __pthread_rec_any(*link - 1);
		if (__atomic_load_n(&r->tid, __ATOMIC_ACQUIRE) == 0) {
			*link = r->link;
			release(r);
		} else {
			link = &r->link;
		}
	}
}

static void detached_add(struct pthread_rec *r)
{
	r->link = detached_head;
	detached_head = r->index + 1;
}

int pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	if (!out || !fn || (attr && !attr->is_initialized))
		return EINVAL;
	uint64_t size = attr ? (uint64_t)attr->stacksize : DEFAULT_STACK;
	size = (size + 4095) & ~4095ull;
	lock_table();
	__pthread_cancel_armed = 1;
	if (!main_tid_set) { /* the first creation: by the main thread */
		__pthread_rec_any(0)->tid = (uint32_t)sys_gettid();
		main_tid_set = true;
		uint64_t sp = (uint64_t)__builtin_frame_address(0);
		if (main_sp_floor == UINT64_MAX && sp > (16ull << 20))
			main_sp_floor = sp - (16ull << 20); /* twice the most main's stack grows */
	}
	reap_detached();
	struct pthread_rec *r = __pthread_rec_alloc();
	unlock_table();
	if (!r)
		return EAGAIN; /* glibc's for a failed allocation */
	long stack;
	if (attr && attr->stackaddr) {
		stack = (long)(uintptr_t)attr->stackaddr;
		size = attr->stacksize & ~15ull;
	} else {
		/* a guard (pthread_attr_setguardsize, a page by default, as
		 * glibc's) below the stack: an overflow faults instead of
		 * writing over whatever lies there */
		uint64_t guard = attr ? (uint64_t)attr->guardsize : 4096;
		guard = (guard + 4095) & ~4095ull;
		if (guard > (1ull << 40))
			guard = 1ull << 40;
		stack = sys_mem_map(0, size + guard, PROT_READ | PROT_WRITE);
		if (stack >= 0 && guard && sys_mem_protect((uint64_t)stack, guard, PROT_NONE) < 0) {
			sys_mem_unmap((uint64_t)stack, size + guard);
			stack = -ENOMEM;
		}
		if (stack < 0) {
			lock_table();
			__pthread_rec_free(r);
			unlock_table();
			return EAGAIN;
		}
		r->stack = (uint64_t)stack;
		r->stack_size = size + guard;
		r->guard = guard;
		stack += (long)guard;
		if (__mlock_future) /* mlockall(MCL_FUTURE) */
			sys_mem_lock((uint64_t)stack, size, K_MLOCK);
	}
	r->sp_lo = (uint64_t)stack;
	r->sp_hi = (uint64_t)stack + size;
	/* its struct _reent at the top of its stack (glibc keeps its thread
	 * descriptor there too, also in a stack the caller gave) */
	uint64_t re_at = ((uint64_t)stack + size - sizeof(struct _reent)) & ~63ull;
	if (re_at < (uint64_t)stack + 4096) {
		r->sp_hi = r->sp_lo; /* nothing registered */
		lock_table();
		release(r);
		unlock_table();
		return EINVAL; /* no room for it and a page of stack */
	}
	r->reent = (struct _reent *)re_at;
	memset(r->reent, 0, sizeof(struct _reent));
	_REENT_INIT_PTR(r->reent);
	size = re_at - (uint64_t)stack;
	lock_table();
	int e = __pthread_stack_register(r);
	if (e) {
		r->sp_hi = r->sp_lo; /* nothing registered */
		release(r);
		unlock_table();
		return EAGAIN;
	}
	unlock_table();
	r->fn = fn;
	r->arg = arg;
	/* read back from here on only through this copy: the new thread
	 * may run first (a real-time one does) and pthread_detach itself,
	 * which lists it already */
	bool detached = attr && attr->detachstate == PTHREAD_CREATE_DETACHED;
	r->detached = detached;
	uint64_t *top = (uint64_t *)(stack + (long)size) - 2;
	top[0] = (uint64_t)pthread_start;
	top[1] = (uint64_t)r;
	bool explicit_sched = attr && attr->inheritsched == PTHREAD_EXPLICIT_SCHED;
	r->start_gate = explicit_sched;
	r->explicit_sched = explicit_sched;
	r->tid = 0xffffffffu; /* "starting": the kernel zeroes it at the end */
	__atomic_add_fetch(&live_threads, 1, __ATOMIC_ACQ_REL);
	__libc_set_threaded();
	/* the id before the thread runs, as glibc stores it: the new thread
	 * may run at once on another CPU and compare pthread_self() with
	 * the variable its creator passed (diff_manythreads.c does) */
	*out = (pthread_t)r->index;
	long tid = sys_thread_create((uint64_t)__arbor_thread_entry, (uint64_t)top, (uint64_t)top,
				     (uint32_t *)&r->tid);
	if (tid < 0) {
		__atomic_sub_fetch(&live_threads, 1, __ATOMIC_ACQ_REL);
		lock_table();
		release(r);
		unlock_table();
		return tid == -ENOMEM ? EAGAIN : (int)-tid;
	}
	__atomic_compare_exchange_n(&r->tid, &(uint32_t){ 0xffffffffu }, (uint32_t)tid, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	__pthread_tid_note(r, (uint32_t)tid);
	if (explicit_sched) {
		int e = __pthread_sched_apply(r, attr, (int)tid);
		__atomic_store_n(&r->start_gate, e ? 2 : 0, __ATOMIC_RELEASE);
		sys_futex_wake((uint32_t *)&r->start_gate, 1);
		if (e) { /* it ends at once; a later pthread_create frees it */
			lock_table();
			r->detached = 1;
			detached_add(r);
			unlock_table();
			return e;
		}
	}
	if (detached) {
		lock_table();
		detached_add(r);
		unlock_table();
	}
	return 0;
}

static void join_cancelled(void *arg)
{
	__atomic_store_n(&((struct pthread_rec *)arg)->joining, 0, __ATOMIC_RELEASE);
}

int pthread_join(pthread_t t, void **ret)
{
	struct pthread_rec *r = __pthread_rec(t);
	if (!r)
		return ESRCH;
	if (r->detached)
		return EINVAL;
	if (t == pthread_self())
		return EDEADLK;
	if (__atomic_exchange_n(&r->joining, 1, __ATOMIC_ACQ_REL))
		return EINVAL; /* another thread joins it already (glibc) */
	uint32_t v;
	/* a joiner cancelled while it waits leaves the thread joinable */
	pthread_cleanup_push(join_cancelled, r);
	while ((v = __atomic_load_n(&r->tid, __ATOMIC_ACQUIRE)) != 0) {
		int cp = __pthread_cp_begin();
		sys_futex_wait((uint32_t *)&r->tid, v, 0, 0);
		__pthread_cp_end(cp);
	}
	pthread_cleanup_pop(0);
	if (ret)
		*ret = r->ret;
	if (t == 0) { /* the main thread's record stays: it is the process's */
		r->vacant = 1;
		return 0;
	}
	lock_table();
	release(r);
	unlock_table();
	return 0;
}

int pthread_detach(pthread_t t)
{
	lock_table();
	struct pthread_rec *r = __pthread_rec(t);
	int e = !r ? ESRCH : r->detached ? EINVAL : 0;
	if (e == 0) {
		r->detached = 1; /* freed by a later pthread_create once it ended */
		if (t != 0)
			detached_add(r);
	}
	unlock_table();
	return e;
}


/* --- attributes --- */

int pthread_attr_init(pthread_attr_t *a)
{
	if (!a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->is_initialized = 1;
	a->stacksize = DEFAULT_STACK;
	a->detachstate = PTHREAD_CREATE_JOINABLE;
	a->guardsize = 4096; /* a page, as glibc's */
	return 0;
}

int pthread_attr_destroy(pthread_attr_t *a)
{
	if (!a)
		return EINVAL;
	a->is_initialized = 0;
	return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *a, int s)
{
	if (!a || (s != PTHREAD_CREATE_JOINABLE && s != PTHREAD_CREATE_DETACHED))
		return EINVAL;
	a->detachstate = s;
	return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *a, int *s)
{
	if (!a || !s)
		return EINVAL;
	*s = a->detachstate;
	return 0;
}

int pthread_attr_setstacksize(pthread_attr_t *a, size_t s)
{
	if (!a || s < PTHREAD_STACK_MIN)
		return EINVAL;
	a->stacksize = s;
	return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *a, size_t *s)
{
	if (!a || !s)
		return EINVAL;
	*s = a->stacksize;
	return 0;
}

int pthread_attr_setstack(pthread_attr_t *a, void *addr, size_t s)
{
	if (!a || s < PTHREAD_STACK_MIN)
		return EINVAL;
	a->stackaddr = addr;
	a->stacksize = s;
	return 0;
}

int pthread_attr_getstack(const pthread_attr_t *a, void **addr, size_t *s)
{
	if (!a || !addr || !s)
		return EINVAL;
	*addr = a->stackaddr;
	*s = a->stacksize;
	return 0;
}

/* --- fork handlers --- */

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	lock_table();
	if (atfork_n == MAX_ATFORK) {
		unlock_table();
		return ENOMEM;
	}
	atfork[atfork_n].prepare = prepare;
	atfork[atfork_n].parent = parent;
	atfork[atfork_n].child = child;
	atfork_n++;
	unlock_table();
	return 0;
}

/* POSIX: prepare handlers in the reverse order of registration, parent
 * and child handlers in the order. The table lock is held across the
 * fork so that the child's copy of the table is consistent. */
/* Whether fork_prepare took the table's lock: only a program that made
 * a thread needs it. After the fork every page is shared copy-on-write,
 * so each store into one costs the parent or the child a page copy:
 * with no thread ever made, neither side stores into the table (fork +
 * execve + wait paid some 20 page copies for the loop over 64 records),
 * and the parent stores nothing here either: fork_locked only when it
 * changes, fork_self (the child's, read only under fork_locked) only with
 * the lock (each of the parent's stores lands on a page the last fork
 * made copy-on-write: a fault per fork, 3 instead of 2 per fork + _exit). */
static bool fork_locked;

void __pthread_fork_prepare(void)
{
	for (int i = atfork_n - 1; i >= 0; i--)
		if (atfork[i].prepare)
			atfork[i].prepare();
	bool locked = main_tid_set;
	if (fork_locked != locked)
		fork_locked = locked;
	if (locked) {
		fork_self = self_index();
		lock_table();
	}
}

void __pthread_fork_parent(void)
{
	if (fork_locked)
		unlock_table();
	for (int i = 0; i < atfork_n; i++)
		if (atfork[i].parent)
			atfork[i].parent();
}

/* The child has one thread, the forking one: its record gets the new tid,
 * the others are gone (their memory stays, as on Linux). Only what is
 * not so already is stored (fork_locked's comment). */
void __pthread_fork_child(void)
{
	if (fork_locked) {
		uint32_t n = __pthread_high();
		for (uint32_t i = 1; i < n; i++) {
			struct pthread_rec *r = __pthread_rec_any(i);
			if (i != fork_self && !r->vacant) {
				__pthread_stack_unregister(r);
				r->vacant = 1;
			}
		}
		__pthread_rec_free_list_rebuild();
		struct pthread_rec *self = __pthread_rec_any(fork_self);
		detached_head = 0;
		if (fork_self && self->detached)
			detached_add(self);
		__pthread_rec_any(0)->tid = 0; /* the main thread: gone, or the caller */
		main_tid_set = fork_self != 0;
		if (fork_self) {
			self->tid = (uint32_t)sys_gettid();
			__pthread_tid_note(self, self->tid);
		}
		live_threads = 1;
		unlock_table();
	}
	for (int i = 0; i < atfork_n; i++)
		if (atfork[i].child)
			atfork[i].child();
}

/* The kernel's id of thread t while it runs (pthread_kill,
 * pthread_getcpuclockid), else 0. */
uint32_t __arbor_pthread_tid(pthread_t t)
{
	if (t == 0 && !main_tid_set)
		return (uint32_t)sys_getpid(); /* the main thread, before any other */
	struct pthread_rec *r = __pthread_rec(t);
	if (r) {
		uint32_t tid = r->tid; /* 0: gone */
		return tid == 0xffffffffu ? 0 : tid;
	}
	return 0;
}

/* Whether t names a thread whose ID is still valid: running, or ended
 * but not yet joined (POSIX: an ID's lifetime ends at the join). */
int __arbor_pthread_known(pthread_t t)
{
	return (t == 0 && !main_tid_set) || __pthread_rec(t) != NULL;
}
