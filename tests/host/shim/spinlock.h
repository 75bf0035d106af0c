/* Host stand-in for the kernel's spinlocks (host unit tests): one thread, so a
 * lock is a flag, and taking a held lock aborts (it would deadlock). */
#ifndef ARBOR_SPINLOCK_H
#define ARBOR_SPINLOCK_H

#include <assert.h>
#include "types.h"

struct spinlock {
	volatile uint32_t locked;
	const char *name;
};

#define SPINLOCK_INIT(n) { .locked = 0, .name = (n) }

static inline void spin_lock(struct spinlock *l)
{
	assert(!l->locked && "lock taken twice");
	l->locked = 1;
}

static inline void spin_unlock(struct spinlock *l)
{
	assert(l->locked && "unlock of a free lock");
	l->locked = 0;
}

static inline bool spin_held(const struct spinlock *l)
{
	return l->locked != 0;
}

#endif
