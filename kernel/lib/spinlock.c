#include "spinlock.h"
#include "arch/x86.h"
#include "percpu.h"

/* Holding a spinlock disables preemption: the holder must not be switched
 * out while another thread on this CPU could spin on the same lock. */
void spin_lock(struct spinlock *l)
{
	this_cpu()->preempt_count++;
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (l->locked)
			cpu_pause();
}

void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	this_cpu()->preempt_count--;
}

bool spin_held(const struct spinlock *l)
{
	return l->locked != 0;
}

uint64_t spin_lock_irqsave(struct spinlock *l)
{
	uint64_t f = irq_save();
	spin_lock(l);
	return f;
}

void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags)
{
	spin_unlock(l);
	irq_restore(flags);
}
