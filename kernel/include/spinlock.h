/* Spinlocks. Arbor runs on one CPU today, but every piece of shared kernel
 * state is guarded by a lock anyway (lock order: docs/locking.md) so that
 * SMP needs no rewrite. The irqsave variants also keep interrupt handlers
 * that take the same lock from deadlocking on this CPU. */
#ifndef ARBOR_SPINLOCK_H
#define ARBOR_SPINLOCK_H

#include "types.h"

struct spinlock {
	volatile uint32_t locked;
	const char *name;
};

#define SPINLOCK_INIT(n) { .locked = 0, .name = (n) }

void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
bool spin_held(const struct spinlock *l);
uint64_t spin_lock_irqsave(struct spinlock *l);
void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags);

#endif
