/* A server's internal lock (the file servers, the block layer): a futex
 * mutex (0 free, 1 held, 2 held with waiters) whose unlock hands it to
 * the most entitled waiter (K_FUTEX_HANDOFF) rather than freeing it: with
 * several CPUs, the unlocking thread's next request took a freed lock
 * again and again before the woken waiter got to run on another CPU (a
 * probe at cpu.weight 10000 waited out 7 to 17 requests of a weight-1
 * flood). A waiter sleeps instead of
 * spinning with sys_yield: a holder that runs on a caller's scheduling
 * context (docs/ipc.md) may not run for a while (its caller's cpu.max),
 * and spinning waiters then burn their own callers' time for nothing. A
 * waiter's futex_wait also tells the kernel that the holder is waited
 * for, and a call it serves on a throttled context goes on on the
 * server's own (sched_donors_waiting). Never hold one across a call to
 * another server or anything that waits for a client. */
#ifndef SRVLOCK_H
#define SRVLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "arbor/syscalls.h"
#include "abi/sched.h"

typedef struct { uint32_t v; } srvlock_t;

#define SRVLOCK_INIT { 0 }

static inline void srvlock_lock(srvlock_t *l)
{
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&l->v, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	for (;;) {
		if (__atomic_exchange_n(&l->v, 2, __ATOMIC_ACQUIRE) == 0)
			return;
		if (sys_futex_wait(&l->v, 2, 0, 0) == 0) {
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			return; /* handed over to us (srvlock_unlock) */
		}
	}
}

static inline void srvlock_unlock(srvlock_t *l)
{
	uint32_t c = 1;
	if (!__atomic_compare_exchange_n(&l->v, &c, 0, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		sys_futex_wake(&l->v, K_FUTEX_HANDOFF);
}

#endif
