/* Pressure stall information for CPU, memory and io (cpu.pressure,
 * memory.pressure, io.pressure, the files of /proc/pressure), as Linux's PSI.
 *
 * For each cgroup (the root stands for the system), on each CPU: CPU
 * "some" while one of its threads counted there is runnable but not
 * running, "full" while threads are runnable there and none of them runs
 * (a group squeezed out, or throttled by cpu.max; the system's is 0, as
 * on Linux). Memory "some" while one is stalled on memory (slowed by
 * memory.high, waiting for an OOM victim to free its pages), "full" while
 * some are and none is runnable; io the same for threads waiting for a
 * disk. A thread counts on the CPU it last ran on (Linux: the run queue
 * it waits on; Arbor has one queue, whose waiting threads have no CPU of
 * their own) and moves there when it runs elsewhere. At each moment the
 * group stalls by the share of its non-idle CPUs that stall (Linux's
 * aggregation, tSOME = sum(tSOME[i] * tNONIDLE[i]) / sum(tNONIDLE[i]),
 * taken moment by moment instead of per 2 s sample: Linux's samples count
 * a thread stalled on one CPU, then on another within one sample, as
 * stalled half the time, and Arbor's one queue moves threads between CPUs
 * far more often than Linux's balancer), so that a group's one waiting
 * thread among four running on four CPUs is a quarter of "some", not all
 * of it, and a thread stalled all along is stalled all along wherever it
 * ran.
 * Counted exactly: every queue change of a thread (sched_psi_queued,
 * from the fair-queueing core) and every switch of a CPU's running
 * thread (sched_psi_switch) updates the groups on its path. Totals are in
 * ns (with the rest in ns / 840: exact for 1 to 8 CPUs); the averages
 * decay over 10, 60 and 300 s, updated per window with Linux's factors,
 * in fixed point (FIXED_1 = 2048) as Linux keeps them. A running entity
 * on loan to a server (IPC) counts for the caller, whose work the server
 * does. All under sched_lock. */
#include "sched.h"
#include "percpu.h"
#include "proc.h"
#include "timer.h"

_Static_assert(SCHED_PSI_CPUS >= MAX_CPUS, "a pressure slot per CPU");

#define PSI_WINDOW_NS 2000000000ull
#define FIXED_1 2048u
#define PSI_BIT(kind) (1u << (kind))

/* What a thread counts on its CPU (thread->psi_counts) */
#define PSI_T_QUEUED  1u
#define PSI_T_MEMSTALL 2u
#define PSI_T_IOWAIT  4u

/* e^(-2/10), e^(-2/60), e^(-2/300) in 1/2048 */
static const uint64_t psi_exp[3] = { 1677, 1981, 2034 };

/* Time split among 1 to 8 non-idle CPUs is exact in ns / PSI_SCALE
 * (840 = lcm(1..8)): the totals keep the ns and the rest in those units. */
#define PSI_SCALE 840u

/* The time since state_start up to t, in ns x PSI_SCALE, that kind k
 * stalled: each moment the share of the non-idle CPUs in state k. */
static uint64_t psi_scaled_since(const struct sched_psi *p, int k, uint64_t t)
{
	if (!p->ncpus[PSI_NONIDLE] || t <= p->state_start)
		return 0;
	return (t - p->state_start) * p->ncpus[k] * (PSI_SCALE / p->ncpus[PSI_NONIDLE]);
}

/* Stall time of kind k up to t (t at or after the last change): each
 * moment weighs in as the share of the group's non-idle CPUs in that
 * state then. */
static uint64_t psi_stall_at(const struct sched_psi *p, int k, uint64_t t)
{
	return p->total[k] + (p->rest[k] + psi_scaled_since(p, k, t)) / PSI_SCALE;
}

/* Windows that ended by now feed the averages. */
static void psi_catch_up(struct sched_psi *p, uint64_t now)
{
	if (!p->win_end) { /* the first use */
		p->win_end = now + PSI_WINDOW_NS;
		p->state_start = now;
		return;
	}
	for (int n = 0; now >= p->win_end; n++) {
		if (n == 1000) { /* idle for over half an hour: all decayed */
			uint64_t skip = (now - p->win_end) / PSI_WINDOW_NS * PSI_WINDOW_NS;
			p->win_end += skip;
		}
		for (int k = 0; k < PSI_KINDS; k++) {
			uint64_t at = psi_stall_at(p, k, p->win_end);
			uint64_t pct = MIN(at - p->win_base[k], PSI_WINDOW_NS) * 100 * FIXED_1 / PSI_WINDOW_NS;
			for (int i = 0; i < 3; i++)
				p->avg[k][i] = (p->avg[k][i] * psi_exp[i] + pct * (FIXED_1 - psi_exp[i]) + FIXED_1 / 2) /
					       FIXED_1;
			p->win_base[k] = at;
		}
		p->win_end += PSI_WINDOW_NS;
	}
}

/* CPU slot cpu of p: its stall state from its counts, and the group's
 * counts of CPUs in each state. Time is accounted only when they change
 * (in between, psi_stall_at derives it), so most events cost a few
 * instructions per group. *now is read from the clock on first use.
 * (The system's CPU "full" is always 0, as Linux reports it.) */
static void psi_settle(struct sched_psi *p, unsigned cpu, uint64_t *now)
{
	struct sched_psi_cpu *c = &p->cpu[cpu];
	uint32_t state = (c->nr_queued > c->running ? PSI_BIT(PSI_CPU_SOME) : 0) |
			 (c->nr_queued && !c->running && p != sched_root->psi ? PSI_BIT(PSI_CPU_FULL) : 0) |
			 (c->nr_memstall ? PSI_BIT(PSI_MEM_SOME) : 0) |
			 (c->nr_memstall && !c->nr_queued ? PSI_BIT(PSI_MEM_FULL) : 0) |
			 (c->nr_iowait ? PSI_BIT(PSI_IO_SOME) : 0) |
			 (c->nr_iowait && !c->nr_queued ? PSI_BIT(PSI_IO_FULL) : 0) |
			 (c->nr_queued || c->nr_memstall || c->nr_iowait ? PSI_BIT(PSI_NONIDLE) : 0);
	if (state == c->state && p->win_end)
		return;
	if (!*now)
		*now = clock_ns();
	psi_catch_up(p, *now);
	for (int k = 0; k < PSI_KINDS; k++) {
		uint64_t add = p->rest[k] + psi_scaled_since(p, k, *now);
		p->total[k] += add / PSI_SCALE;
		p->rest[k] = (uint16_t)(add % PSI_SCALE);
	}
	p->state_start = MAX(p->state_start, *now); /* (CPUs' clocks) */
	for (int s = 0; s <= PSI_NONIDLE; s++)
		p->ncpus[s] += (uint8_t)(!!(state & PSI_BIT(s)) - !!(c->state & PSI_BIT(s)));
	c->state = state;
}

/* Changes of a thread's counts on one CPU: queued, running, stalled on
 * memory or io. */
struct psi_delta {
	int queued, running, memstall, iowait;
};

static void psi_add(struct sched_psi *p, unsigned cpu, const struct psi_delta *d)
{
	struct sched_psi_cpu *c = &p->cpu[cpu];
	c->nr_queued += (uint32_t)d->queued;
	c->running += (uint32_t)d->running;
	c->nr_memstall += (uint32_t)d->memstall;
	c->nr_iowait += (uint32_t)d->iowait;
	p->nr_queued += (uint32_t)d->queued;
	p->nr_iowait += (uint32_t)d->iowait;
}

/* The groups above thread entity se (the root last) on cpu: counts, then
 * states. Counting both paths of a switch before settling either means
 * groups on both (their running count goes -1 +1) see no change at all. */
static void psi_count(struct sched_entity *se, unsigned cpu, struct psi_delta d)
{
	for (struct sched_entity *e = se->parent->owner; e; e = e->parent->owner)
		psi_add(sched_group_of_entity(e)->psi, cpu, &d);
	psi_add(sched_root->psi, cpu, &d);
}

static void psi_settle_path(struct sched_entity *se, unsigned cpu, uint64_t *now)
{
	for (struct sched_entity *e = se->parent->owner; e; e = e->parent->owner)
		psi_settle(sched_group_of_entity(e)->psi, cpu, now);
	psi_settle(sched_root->psi, cpu, now);
}

static struct thread *psi_thread(struct sched_entity *se)
{
	return container_of(se, struct thread, se);
}

/* se's thread runs on cpu: what it counts moves there from its last CPU. */
static void psi_move(struct sched_entity *se, unsigned cpu, uint64_t *now)
{
	struct thread *t = psi_thread(se);
	unsigned from = (unsigned)t->psi_cpu;
	if (from == cpu)
		return;
	t->psi_cpu = (int8_t)cpu;
	uint8_t n = t->psi_counts;
	if (!n)
		return;
	struct psi_delta d = { .queued = !!(n & PSI_T_QUEUED), .memstall = !!(n & PSI_T_MEMSTALL),
			       .iowait = !!(n & PSI_T_IOWAIT) };
	psi_count(se, cpu, d);
	psi_count(se, from, (struct psi_delta){ -d.queued, 0, -d.memstall, -d.iowait });
	psi_settle_path(se, from, now);
}

/* Thread entity se's count `bit` starts (delta 1) or ends (-1) on its CPU. */
static void psi_thread_count(struct sched_entity *se, uint8_t bit, int delta)
{
	struct thread *t = psi_thread(se);
	uint64_t now = 0;
	if (delta > 0 && t == this_cpu()->current)
		psi_move(se, this_cpu()->id, &now); /* it stalls where it runs */
	unsigned cpu = (unsigned)t->psi_cpu;
	if (delta > 0)
		t->psi_counts |= bit;
	else
		t->psi_counts &= (uint8_t)~bit;
	psi_count(se, cpu, (struct psi_delta){ .queued = bit == PSI_T_QUEUED ? delta : 0,
					       .memstall = bit == PSI_T_MEMSTALL ? delta : 0,
					       .iowait = bit == PSI_T_IOWAIT ? delta : 0 });
	psi_settle_path(se, cpu, &now);
}

void sched_psi_queued(struct sched_entity *se, int delta)
{
	psi_thread_count(se, PSI_T_QUEUED, delta);
}

void sched_psi_switch(struct sched_entity *from, struct sched_entity *to, unsigned cpu)
{
	uint64_t now = 0;
	if (from == to)
		return;
	if (to)
		psi_move(to, cpu, &now);
	if (from)
		psi_count(from, cpu, (struct psi_delta){ .running = -1 });
	if (to)
		psi_count(to, cpu, (struct psi_delta){ .running = 1 });
	if (from)
		psi_settle_path(from, cpu, &now);
	if (to && (!from || to->parent != from->parent))
		psi_settle_path(to, cpu, &now); /* siblings share every group */
}

void sched_psi_memstall_locked(struct sched_entity *se, int delta)
{
	spin_assert_held(&sched_lock);
	psi_thread_count(se, PSI_T_MEMSTALL, delta);
}

void sched_psi_iowait_locked(struct sched_entity *se, int delta)
{
	spin_assert_held(&sched_lock);
	psi_thread_count(se, PSI_T_IOWAIT, delta);
}

void sched_memstall(bool enter)
{
	struct thread *t = current_thread();
	uint64_t f = spin_lock_irqsave(&sched_lock);
	if (t->memstall != enter) {
		t->memstall = enter;
		sched_psi_memstall_locked(&t->se, enter ? 1 : -1);
	}
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_wbstall(bool enter)
{
	struct thread *t = current_thread();
	uint64_t f = spin_lock_irqsave(&sched_lock);
	if (t->memstall != enter) {
		t->memstall = enter;
		sched_psi_memstall_locked(&t->se, enter ? 1 : -1);
	}
	sched_iowait_locked(t, enter);
	spin_unlock_irqrestore(&sched_lock, f);
}

uint64_t sched_psi_total_locked(struct sched_psi *p, int kind, uint64_t now)
{
	psi_catch_up(p, now);
	return psi_stall_at(p, kind, now);
}

void sched_group_pressure(const struct sched_group *g, struct sched_pressure *out)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	uint64_t now = clock_ns();
	struct sched_psi *p = g->psi;
	psi_catch_up(p, now);
	for (int k = 0; k < PSI_KINDS; k++) {
		out->total[k] = psi_stall_at(p, k, now);
		for (int i = 0; i < 3; i++)
			out->avg[k][i] = p->avg[k][i];
	}
	spin_unlock_irqrestore(&sched_lock, f);
}
