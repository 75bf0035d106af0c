/* /proc/stat's per-CPU times and counts (kernel/include/cpustat.h). Each
 * CPU adds to its own struct cpu_stat (percpu.h), so no counter is shared
 * between CPUs; a reader sums them racily, as Linux's show_stat does.
 *
 * The times are nanoseconds, as Linux's kcpustat with tick-based
 * accounting and IRQ_TIME_ACCOUNTING: the scheduler's clock says how long
 * each CPU ran threads, ran its idle thread, or idled while a thread
 * waited for a disk (core.c, sched_account_cpu); the trap path measures
 * each interrupt handler. At each tick the CPU folds what accrued since
 * the last one into the times shown: busy time into user, nice or system
 * as the tick samples it (as Linux's tick charges a whole tick), the
 * interrupts' time out of what they interrupted and into irq. Shown times
 * so only grow, and a CPU's six add up to the time it has scheduled, up
 * to its last tick (4 ms ago at most). */
#include "cpustat.h"
#include "abi/procinfo.h"
#include "cgroup.h"
#include "sched.h"
#include "sched_fair.h"
#include "sched_group.h"
#include "smp.h"
#include "timer.h"
#include "trap.h"

_Static_assert(K_CPUS_MAX == MAX_CPUS, "abi/procinfo.h's K_CPUS_MAX is the kernel's MAX_CPUS");
_Static_assert(K_IRQ_LINES == CPU_IRQ_LINES, "abi/procinfo.h's K_IRQ_LINES is percpu.h's");

/* Adds n to a counter of this CPU's that others read. */
static inline void cpustat_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

uint64_t cpustat_irq_enter(uint64_t vector)
{
	struct cpu_stat *st = &this_cpu()->stat;
	cpustat_add(&st->intr, 1);
	if (vector - IRQ_VECTOR_BASE < CPU_IRQ_LINES)
		cpustat_add(&st->irqs[vector - IRQ_VECTOR_BASE], 1);
	return clock_ns();
}

void cpustat_irq_exit(uint64_t start)
{
	struct cpu *c = this_cpu();
	uint64_t now = clock_ns(), d = now > start ? now - start : 0;
	cpustat_add(&c->stat.irq_ns, d);
	if (c->rq && sched_idle_running()) /* a parked CPU (no rq) has no idle time */
		cpustat_add(&c->stat.irq_idle_ns, d);
}

/* What accrued of a raw time since its last fold; marks it folded. */
static uint64_t cpustat_take(uint64_t raw, uint64_t *done)
{
	uint64_t d = raw - *done;
	*done = raw;
	return d;
}

void cpustat_tick(struct cpu_stat *st, enum cpustat_kind sample)
{
	uint64_t busy = cpustat_take(st->busy_ns, &st->busy_done);
	uint64_t idle = cpustat_take(st->idle_ns, &st->idle_done);
	uint64_t iowait = cpustat_take(st->iowait_ns, &st->iowait_done);
	/* the interrupts' time since the last fold, as far as the clock has
	 * accounted the time they interrupted (the rest waits for the next
	 * tick): first from the idle thread's time as much as interrupted
	 * it, then from the busy time, the rest from the idle thread's */
	uint64_t irq_raw = st->irq_ns, irq_idle_raw = st->irq_idle_ns; /* (this CPU's: interrupts are off) */
	uint64_t irq = MIN(irq_raw - st->irq_done, busy + idle + iowait);
	uint64_t irq_idle = irq_idle_raw - st->irq_idle_done;
	uint64_t from_idle = MIN(MIN(irq_idle, irq), idle + iowait);
	uint64_t from_busy = MIN(irq - from_idle, busy);
	from_idle = irq - from_busy;
	st->irq_done += irq;
	st->irq_idle_done += MIN(irq_idle, from_idle);
	if (irq_idle_raw - st->irq_idle_done > irq_raw - st->irq_done) /* a hint, never more than is left */
		st->irq_idle_done = irq_idle_raw - (irq_raw - st->irq_done);
	if (sample != CPUSTAT_IDLE)
		st->last = sample;
	uint64_t from_i = MIN(from_idle, idle);
	cpustat_add(&st->out[CPUSTAT_IRQ], irq);
	cpustat_add(&st->out[st->last], busy - from_busy);
	cpustat_add(&st->out[CPUSTAT_IDLE], idle - from_i);
	cpustat_add(&st->out[CPUSTAT_IOWAIT], iowait - (from_idle - from_i));
}

static uint64_t cpustat_load(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

void cpustat_read(struct k_meminfo *k)
{
	k->cpus_possible = smp_possible();
	k->cpus_sched = sched_cpus_mask();
	k->tsc_hz = clock_tsc_hz();
	const struct sched_psi *ps = cg_root.sched.psi;
	k->nr_running = __atomic_load_n(&ps->nr_queued, __ATOMIC_RELAXED);
	k->nr_iowait = __atomic_load_n(&ps->nr_iowait, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		if (!(k->cpus_sched & (1u << i)))
			continue; /* a parked CPU is as an offline one: not counted */
		const struct cpu_stat *st = &cpu_get(i)->stat;
		for (unsigned l = 0; l < CPU_IRQ_LINES; l++)
			k->irqs[l] += cpustat_load(&st->irqs[l]);
		struct k_cpustat *c = &k->cpus[i];
		c->user_ns = cpustat_load(&st->out[CPUSTAT_USER]);
		c->nice_ns = cpustat_load(&st->out[CPUSTAT_NICE]);
		c->system_ns = cpustat_load(&st->out[CPUSTAT_SYSTEM]);
		c->idle_ns = cpustat_load(&st->out[CPUSTAT_IDLE]);
		c->iowait_ns = cpustat_load(&st->out[CPUSTAT_IOWAIT]);
		c->irq_ns = cpustat_load(&st->out[CPUSTAT_IRQ]);
		c->intr = cpustat_load(&st->intr);
		c->ctxt = cpustat_load(&st->ctxt);
	}
}
