/* newlib's locks (built with --enable-newlib-retargetable-locking,
 * tools/build-newlib.sh): its heap, stdio (each FILE and the list of
 * them), environment, time zone, atexit and arc4random call these. They
 * were empty before, so two threads in malloc at once on two CPUs broke
 * the heap (one thread's sbrk shrank the break under another's new top
 * chunk: the ext2 server died of SIGSEGV in malloc_extend_top).
 *
 * Each lock is recursive (newlib's realloc calls malloc with the heap's
 * lock held): a futex word, the holder's tid and its depth. A process
 * that never made a thread pays no system call: until __libc_set_threaded
 * a lock only counts, with plain stores, and its holder is "0", the
 * thread that was alone; the first thread is made by that thread, so
 * whatever it holds then stays its own (lock_self).
 *
 * These replace newlib's empty ones in misc/lock.c: start.c refers to
 * this file, so the linker takes it before it could take libc.a's. A
 * FILE's lock comes from a fixed pool (no malloc: newlib makes and drops
 * one for each unbuffered printf); when the pool runs out, a FILE shares
 * one overflow lock (still correct; only unrelated streams then wait for
 * each other). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arbor_sys.h"
#include "newlib_lock.h"

#define LOCK_NOBODY 0xffffffffu	/* owner of a free lock */
#define LOCK_POOL 256		/* FILE locks live at once before they share */

struct __lock {
	uint32_t word;	/* 0 free, 1 held, 2 held with waiters (a futex word) */
	uint32_t owner;	/* the holder's tid, 0 for the thread that was alone, LOCK_NOBODY */
	uint32_t depth;	/* the holder's nested takes */
};

#define LOCK_FREE { 0, LOCK_NOBODY, 0 }

/* newlib's static locks, by the names its sources refer to */
struct __lock __lock___sinit_recursive_mutex = LOCK_FREE;
struct __lock __lock___sfp_recursive_mutex = LOCK_FREE;
struct __lock __lock___atexit_recursive_mutex = LOCK_FREE;
struct __lock __lock___at_quick_exit_mutex = LOCK_FREE;
struct __lock __lock___malloc_recursive_mutex = LOCK_FREE;
struct __lock __lock___env_recursive_mutex = LOCK_FREE;
struct __lock __lock___tz_mutex = LOCK_FREE;
struct __lock __lock___dd_hash_mutex = LOCK_FREE;
struct __lock __lock___arc4random_mutex = LOCK_FREE;

static int lock_threaded;	/* set once, before the second thread exists */
static uint32_t lock_first_tid;	/* the thread that was alone then */
static struct __lock lock_pool[LOCK_POOL];
static uint64_t lock_pool_used[LOCK_POOL / 64];
static struct __lock lock_overflow = LOCK_FREE;

void __libc_set_threaded(void)
{
	if (__atomic_load_n(&lock_threaded, __ATOMIC_ACQUIRE))
		return;
	lock_first_tid = (uint32_t)sys_gettid();
	__atomic_store_n(&lock_threaded, 1, __ATOMIC_RELEASE);
}

/* The calling thread's owner value, and whether l is held by it. */
static uint32_t lock_self(bool threaded)
{
	return threaded ? (uint32_t)sys_gettid() : 0;
}

static bool lock_mine(const struct __lock *l, uint32_t me)
{
	uint32_t o = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	return o == me || (o == 0 && me == lock_first_tid);
}

static void lock_wait(struct __lock *l)
{
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&l->word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&l->word, 2, __ATOMIC_ACQUIRE) != 0)
		sys_futex_wait(&l->word, 2, 0, 0);
}

/* Takes l for the caller; with try, returns 0 rather than wait. 1 when held. */
static int lock_take(struct __lock *l, bool try)
{
	bool threaded = __atomic_load_n(&lock_threaded, __ATOMIC_ACQUIRE);
	uint32_t me = lock_self(threaded);
	if (l->depth && lock_mine(l, me)) {
		l->depth++;
		return 1;
	}
	if (!threaded) { /* alone: nobody else can hold it */
		l->word = 1;
	} else if (try) {
		uint32_t c = 0;
		if (!__atomic_compare_exchange_n(&l->word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
	} else {
		lock_wait(l);
	}
	__atomic_store_n(&l->owner, me, __ATOMIC_RELAXED);
	l->depth = 1;
	return 1;
}

/* The owner is not checked: fork's child lets go of what its parent's
 * thread took for it (another tid). */
static void lock_give(struct __lock *l)
{
	if (!l->depth || --l->depth)
		return;
	__atomic_store_n(&l->owner, LOCK_NOBODY, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&lock_threaded, __ATOMIC_ACQUIRE)) {
		l->word = 0;
		return;
	}
	if (__atomic_exchange_n(&l->word, 0, __ATOMIC_RELEASE) == 2)
		sys_futex_wake(&l->word, 1);
}

/* In fork's child, alone: every lock free again (glibc resets its stdio
 * locks so). A lock another thread of the parent held at the fork (say
 * stdout's, mid-printf on another CPU) would never be let go in the
 * child, whose exit then hung flushing stdout (the Open POSIX suite's
 * pthread_exit/6-1 on two CPUs); one the forking thread held is free
 * too, and its release later does nothing (depth 0). */
void __libc_fork_child_locks(void)
{
	struct __lock *statics[] = {
		&__lock___sinit_recursive_mutex, &__lock___sfp_recursive_mutex, &__lock___atexit_recursive_mutex,
		&__lock___at_quick_exit_mutex,	 &__lock___malloc_recursive_mutex, &__lock___env_recursive_mutex,
		&__lock___tz_mutex,		 &__lock___dd_hash_mutex,	 &__lock___arc4random_mutex,
		&lock_overflow,
	};
	for (size_t i = 0; i < sizeof(statics) / sizeof(statics[0]); i++)
		*statics[i] = (struct __lock)LOCK_FREE;
	for (int i = 0; i < LOCK_POOL; i++)
		lock_pool[i] = (struct __lock)LOCK_FREE;
}

void __retarget_lock_init(_LOCK_T *lock)
{
	struct __lock *l = &lock_overflow;
	for (int w = 0; w < LOCK_POOL / 64 && l == &lock_overflow; w++) {
		uint64_t used = __atomic_load_n(&lock_pool_used[w], __ATOMIC_RELAXED);
		while (~used) {
			int b = __builtin_ctzll(~used);
			if (__atomic_compare_exchange_n(&lock_pool_used[w], &used, used | (1ull << b), 0,
							__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
				l = &lock_pool[w * 64 + b];
				break;
			}
		}
	}
	if (l != &lock_overflow)
		*l = (struct __lock)LOCK_FREE;
	*lock = l;
}

void __retarget_lock_init_recursive(_LOCK_T *lock)
{
	__retarget_lock_init(lock);
}

void __retarget_lock_close(_LOCK_T lock)
{
	uintptr_t at = (uintptr_t)lock, pool = (uintptr_t)lock_pool;
	if (at < pool || at >= pool + sizeof(lock_pool))
		return; /* a static lock, or the shared overflow */
	size_t i = (at - pool) / sizeof(struct __lock);
	__atomic_fetch_and(&lock_pool_used[i / 64], ~(1ull << (i % 64)), __ATOMIC_RELEASE);
}

void __retarget_lock_close_recursive(_LOCK_T lock)
{
	__retarget_lock_close(lock);
}

void __retarget_lock_acquire(_LOCK_T lock)
{
	lock_take(lock, false);
}

void __retarget_lock_acquire_recursive(_LOCK_T lock)
{
	lock_take(lock, false);
}

int __retarget_lock_try_acquire(_LOCK_T lock)
{
	return lock_take(lock, true);
}

int __retarget_lock_try_acquire_recursive(_LOCK_T lock)
{
	return lock_take(lock, true);
}

void __retarget_lock_release(_LOCK_T lock)
{
	lock_give(lock);
}

void __retarget_lock_release_recursive(_LOCK_T lock)
{
	lock_give(lock);
}
