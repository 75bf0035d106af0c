/* Pressure stall information for CPU and memory (cpu.pressure,
 * memory.pressure, /proc/pressure/cpu and memory), as Linux's PSI.
 *
 * For each cgroup (the root stands for the system): CPU "some" is the
 * time at least one of its threads was runnable but not running, "full"
 * the time threads were runnable and none of them ran (a group squeezed
 * out, or throttled by cpu.max; the system's is 0, as on Linux). Memory
 * "some" is the time at least one thread was stalled on memory (slowed
 * by memory.high, waiting for an OOM victim to free its pages), "full"
 * the time threads were stalled on memory and none was runnable.
 * Counted exactly: every queue change of a thread (sched_psi_queued,
 * from the fair-queueing core) and every switch of the running thread
 * (sched_psi_switch) updates the groups on its path. Totals are in ns;
 * the averages decay over 10, 60 and 300 s, updated per 2 s window with
 * Linux's factors, in fixed point (FIXED_1 = 2048) as Linux keeps them.
 * A running entity on loan to a server (IPC) counts for the caller, whose
 * work the server does. All under sched_lock. */
#include "sched.h"
#include "percpu.h"
#include "proc.h"
#include "timer.h"

#define PSI_WINDOW_NS 2000000000ull
#define FIXED_1 2048u
#define PSI_BIT(kind) (1u << (kind))

/* e^(-2/10), e^(-2/60), e^(-2/300) in 1/2048 */
static const uint64_t psi_exp[3] = { 1677, 1981, 2034 };

/* Stall time of kind k up to t (t at or after the last change). */
static uint64_t psi_stall_at(const struct sched_psi *p, int k, uint64_t t)
{
	return p->total[k] + ((p->state & (1u << k)) ? t - p->state_start : 0);
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

/* p's stall state from its counts. Time is accounted only when it
 * changes (in between, psi_stall_at derives it), so most events cost a
 * few instructions per group. *now is read from the clock on first use.
 * (The system's "full" is always 0: with threads runnable, one runs.) */
static void psi_settle(struct sched_psi *p, uint64_t *now)
{
	uint32_t state = (p->nr_queued > p->running ? PSI_BIT(PSI_CPU_SOME) : 0) |
			 (p->nr_queued && !p->running && p != sched_root->psi ? PSI_BIT(PSI_CPU_FULL) : 0) |
			 (p->nr_memstall ? PSI_BIT(PSI_MEM_SOME) : 0) |
			 (p->nr_memstall && !p->nr_queued ? PSI_BIT(PSI_MEM_FULL) : 0) |
			 (p->nr_iowait ? PSI_BIT(PSI_IO_SOME) : 0) |
			 (p->nr_iowait && !p->nr_queued ? PSI_BIT(PSI_IO_FULL) : 0);
	if (state == p->state && p->win_end)
		return;
	if (!*now)
		*now = clock_ns();
	psi_catch_up(p, *now);
	for (int k = 0; k < PSI_KINDS; k++)
		p->total[k] = psi_stall_at(p, k, *now);
	p->state_start = *now;
	p->state = state;
}

/* Changes of a thread's counts: queued, running, stalled on memory or io. */
struct psi_delta {
	int queued, running, memstall, iowait;
};

static void psi_add(struct sched_psi *p, const struct psi_delta *d)
{
	p->nr_queued += (uint32_t)d->queued;
	p->running += (uint32_t)d->running;
	p->nr_memstall += (uint32_t)d->memstall;
	p->nr_iowait += (uint32_t)d->iowait;
}

/* The groups above thread entity se (the root last): counts, then states.
 * Counting both paths of a switch before settling either means groups on
 * both (their running count goes -1 +1) see no change at all. */
static void psi_count(struct sched_entity *se, struct psi_delta d)
{
	for (struct sched_entity *e = se->parent->owner; e; e = e->parent->owner)
		psi_add(sched_group_of_entity(e)->psi, &d);
	psi_add(sched_root->psi, &d);
}

static void psi_settle_path(struct sched_entity *se, uint64_t *now)
{
	for (struct sched_entity *e = se->parent->owner; e; e = e->parent->owner)
		psi_settle(sched_group_of_entity(e)->psi, now);
	psi_settle(sched_root->psi, now);
}

void sched_psi_queued(struct sched_entity *se, int delta)
{
	uint64_t now = 0;
	psi_count(se, (struct psi_delta){ .queued = delta });
	psi_settle_path(se, &now);
}

void sched_psi_switch(struct sched_entity *from, struct sched_entity *to)
{
	uint64_t now = 0;
	if (from == to)
		return;
	if (from)
		psi_count(from, (struct psi_delta){ .running = -1 });
	if (to)
		psi_count(to, (struct psi_delta){ .running = 1 });
	if (from)
		psi_settle_path(from, &now);
	if (to && (!from || to->parent != from->parent))
		psi_settle_path(to, &now); /* siblings share every group */
}

void sched_psi_memstall_locked(struct sched_entity *se, int delta)
{
	spin_assert_held(&sched_lock);
	uint64_t now = 0;
	psi_count(se, (struct psi_delta){ .memstall = delta });
	psi_settle_path(se, &now);
}

void sched_psi_iowait_locked(struct sched_entity *se, int delta)
{
	spin_assert_held(&sched_lock);
	uint64_t now = 0;
	psi_count(se, (struct psi_delta){ .iowait = delta });
	psi_settle_path(se, &now);
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

uint64_t sched_psi_total_locked(const struct sched_psi *p, int kind, uint64_t now)
{
	return psi_stall_at(p, kind, now);
}

void sched_group_pressure(const struct sched_group *g, struct sched_psi *out)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	uint64_t now = clock_ns();
	struct sched_psi *p = g->psi;
	psi_catch_up(p, now);
	*out = *p;
	for (int k = 0; k < PSI_KINDS; k++)
		out->total[k] = psi_stall_at(p, k, now);
	spin_unlock_irqrestore(&sched_lock, f);
}
