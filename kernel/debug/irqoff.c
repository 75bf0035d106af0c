/* The interrupts-off tracer of the debug (kcov) kernel, on with
 * lockup_warn_ms=N: a stretch with interrupts off that begins at a
 * spin_lock_irqsave (with interrupts on before it) and ends at the
 * matching spin_unlock_irqrestore, longer than N ms and than any reported
 * before, is reported with the lock and where it was taken. Such a stretch
 * holds off the timer tick, so the soft-lockup detector cannot see it and
 * every sleeper's wake-up waits for it. A timer tick proves interrupts were
 * on, so it forgets a stretch in progress (a thread switched away holding
 * none, whose successor ran with interrupts on, must not count). */
#include "ksyms.h"
#include "percpu.h"
#include "printk.h"
#include "sched.h"
#include "spinlock.h"
#include "timer.h"

#ifdef CONFIG_KCOV

static struct {
	uint64_t start;		/* clock_ns at the outermost irqsave, 0: none */
	const char *lock;
	void *where;
} irqoff_cpu[MAX_CPUS];
static uint64_t irqoff_reported_ns;

void irqoff_begin(const struct spinlock *l, void *where)
{
	unsigned c = this_cpu()->id;
	irqoff_cpu[c].start = clock_ns();
	irqoff_cpu[c].lock = l->name;
	irqoff_cpu[c].where = where;
}

void irqoff_end(void)
{
	unsigned c = this_cpu()->id;
	uint64_t start = irqoff_cpu[c].start;
	irqoff_cpu[c].start = 0;
	if (!start)
		return;
	uint64_t len = clock_ns() - start, seen = __atomic_load_n(&irqoff_reported_ns, __ATOMIC_RELAXED);
	if (len <= sched_latency_warn_ns || len <= seen ||
	    !__atomic_compare_exchange_n(&irqoff_reported_ns, &seen, len, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	uint64_t off = 0;
	const char *fn = ksyms_lookup((uint64_t)irqoff_cpu[c].where, &off);
	printk_panic("irqs-off warning: CPU %u had interrupts off for %lu us from taking lock %s in "
		     "%s+0x%lx\n", c, len / 1000, irqoff_cpu[c].lock ? irqoff_cpu[c].lock : "?",
		     fn ? fn : "?", off);
}

void irqoff_tick(void)
{
	irqoff_cpu[this_cpu()->id].start = 0;
}

#endif
