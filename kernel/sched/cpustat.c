/* /proc/stat's per-CPU times and counts (kernel/include/cpustat.h). Each
 * CPU adds to its own struct cpu_stat (percpu.h), so no counter is shared
 * between CPUs; a reader sums them racily, as Linux's show_stat does.
 *
 * The times are nanoseconds, as Linux's kcpustat with its tick-based
 * accounting plus IRQ_TIME_ACCOUNTING: the scheduler's clock says how long
 * each CPU ran threads, ran its idle thread, or idled with a thread
 * waiting for a disk (core.c, sched_account_cpu); the tick's samples
 * split the busy time into user, nice (user mode, nice > 0) and system;
 * the trap path measures each interrupt handler, and that irq time is
 * taken out of what it interrupted, so a CPU's six times add up to the
 * time since it began to schedule. */
#include "cpustat.h"
#include "abi/procinfo.h"
#include "cgroup.h"
#include "percpu.h"
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

static uint64_t cpustat_load(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* n less what of it went elsewhere (at most n: the reads are racy). */
static uint64_t cpustat_less(uint64_t n, uint64_t taken)
{
	return n > taken ? n - taken : 0;
}

/* CPU id's times (it schedules). */
static void cpustat_cpu(unsigned id, struct k_cpustat *out)
{
	const struct cpu_stat *st = &cpu_get(id)->stat;
	uint64_t busy, idle, iowait;
	sched_cpu_times(id, &busy, &idle, &iowait);
	uint64_t irq = cpustat_load(&st->irq_ns), irq_idle = cpustat_load(&st->irq_idle_ns);
	uint64_t irq_busy = cpustat_less(irq, irq_idle);
	/* the interrupts' time leaves the time they interrupted: idle first,
	 * then iowait (both the idle thread's) */
	out->irq_ns = MIN(irq_busy, busy) + MIN(irq_idle, idle + iowait);
	busy = cpustat_less(busy, irq_busy);
	iowait = cpustat_less(iowait, cpustat_less(irq_idle, idle));
	idle = cpustat_less(idle, irq_idle);
	uint64_t u = cpustat_load(&st->user_ticks), n = cpustat_load(&st->nice_ticks);
	uint64_t s = cpustat_load(&st->system_ticks), ticks = u + n + s;
	/* no tick saw it yet: all system (only the kernel's own threads run
	 * before the first tick of a thread in user mode could) */
	out->user_ns = ticks ? mul_div_u64(busy, u, ticks) : 0;
	out->nice_ns = ticks ? mul_div_u64(busy, n, ticks) : 0;
	out->system_ns = busy - out->user_ns - out->nice_ns;
	out->idle_ns = idle;
	out->iowait_ns = iowait;
	out->intr = cpustat_load(&st->intr);
	out->ctxt = cpustat_load(&st->ctxt);
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
		if (!smp_cpu_online(i) && i)
			continue;
		const struct cpu_stat *st = &cpu_get(i)->stat;
		for (unsigned l = 0; l < CPU_IRQ_LINES; l++)
			k->irqs[l] += cpustat_load(&st->irqs[l]);
		if (k->cpus_sched & (1u << i))
			cpustat_cpu(i, &k->cpus[i]);
	}
}
