/* newlib's malloc lock. newlib (built without retargetable locks) leaves
 * __malloc_lock and __malloc_unlock empty, so two threads in malloc at
 * once on two CPUs broke the heap: one thread's sbrk could shrink the
 * break under the other's new top chunk (a SIGSEGV in malloc_extend_top).
 * These replace newlib's (start.c's reference links them before libc.a's
 * mlock.o can be). The lock is recursive, as newlib needs (realloc and
 * memalign call malloc with it held): a futex word plus the holder's tid
 * and depth. A process that never made a thread takes no lock at all:
 * __libc_threaded is set before the first thread is made, by the thread
 * that makes it, and never cleared. */
#include <reent.h>
#include <stdint.h>
#include "arbor_sys.h"
#include "malloc_lock.h"

int __libc_threaded;
static uint32_t malloc_word;	/* 0 free, 1 held, 2 held with waiters (a futex word) */
static uint32_t malloc_owner;	/* the holder's tid, 0 when free */
static unsigned malloc_depth;	/* the holder's nested takes */

void __libc_set_threaded(void)
{
	__atomic_store_n(&__libc_threaded, 1, __ATOMIC_RELEASE);
}

void __malloc_lock(struct _reent *r)
{
	(void)r;
	if (!__atomic_load_n(&__libc_threaded, __ATOMIC_ACQUIRE))
		return;
	uint32_t me = (uint32_t)sys_gettid();
	if (__atomic_load_n(&malloc_owner, __ATOMIC_RELAXED) == me) {
		malloc_depth++;
		return;
	}
	uint32_t c = 0;
	if (!__atomic_compare_exchange_n(&malloc_word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		while (__atomic_exchange_n(&malloc_word, 2, __ATOMIC_ACQUIRE) != 0)
			sys_futex_wait(&malloc_word, 2, 0, 0);
	__atomic_store_n(&malloc_owner, me, __ATOMIC_RELAXED);
	malloc_depth = 1;
}

/* Does not check the owner: fork's child lets go of what its parent's
 * thread took in fork (another tid). */
void __malloc_unlock(struct _reent *r)
{
	(void)r;
	if (!__atomic_load_n(&__libc_threaded, __ATOMIC_ACQUIRE) || --malloc_depth)
		return;
	__atomic_store_n(&malloc_owner, 0, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&malloc_word, 0, __ATOMIC_RELEASE) == 2)
		sys_futex_wake(&malloc_word, 1);
}
