/* A server's internal lock (the file servers, the block layer): a futex
 * mutex (0 free, 1 held, 2 held with waiters). A waiter sleeps instead of
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

typedef struct { uint32_t v; } srvlock_t;

#define SRVLOCK_INIT { 0 }

static inline void srvlock_lock(srvlock_t *l)
{
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&l->v, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&l->v, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		sys_futex_wait(&l->v, 2, 0, 0);
		c = __atomic_exchange_n(&l->v, 2, __ATOMIC_ACQUIRE);
	}
}

static inline void srvlock_unlock(srvlock_t *l)
{
	if (__atomic_exchange_n(&l->v, 0, __ATOMIC_RELEASE) == 2)
		sys_futex_wake(&l->v, 1);
}

#endif
