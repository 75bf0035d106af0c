/* The real-time scheduling class: SCHED_FIFO and SCHED_RR, as Linux's
 * rt class without CONFIG_RT_GROUP_SCHED. One queue per CPU holds a list
 * for each priority 1..99 and a bitmap of the non-empty ones; a runnable
 * real-time thread's entity sits there instead of in the fair tree, and
 * the CPU always runs the first thread of the highest non-empty list
 * before any fair (SCHED_OTHER, BATCH, IDLE) one. The running thread
 * stays in its list, at its head: a FIFO thread preempted by a higher one
 * resumes first; an RR thread that used its slice (K_SCHED_RR_SLICE_NS)
 * goes to its list's tail. cgroups do not govern real-time threads
 * (cpu.max, cpu.weight), but their run time is in cpu.stat's usage.
 *
 * The throttle (Linux's sched_rt_period_us / sched_rt_runtime_us, 1 s
 * and 0.95 s) is per CPU, as Linux's (without RT_RUNTIME_SHARE, off in
 * 6.1): the real-time threads a CPU runs run at most the runtime in each
 * period there; past it the class is throttled on that CPU, which gives
 * the fair class (the shell, the servers) the rest of the period, or
 * idles if nothing fair is runnable, as Linux's does. (One budget for the
 * whole machine ran out in half a period with two CPUs busy.)
 *
 * Everything here runs with sched_lock held (core.c calls it). */
#include "sched.h"
#include "abi/sched.h"
#include "proc.h"
#include "percpu.h"

struct sched_rt_rq {
	struct list_head q[K_SCHED_PRIO_MAX + 1];	/* by priority; 0 unused */
	uint64_t bitmap[2];				/* bit p: q[p] not empty */
	uint32_t nr;
	uint64_t period_start;		/* this period's start */
	uint64_t rt_time[MAX_CPUS];	/* each CPU's real-time run in it */
	bool throttled[MAX_CPUS];
};

static struct sched_rt_rq rt_rq;
uint64_t sched_rt_period_ns = 1000000000ull;
int64_t sched_rt_runtime_ns = 950000000ll;
uint64_t sched_rt_throttle_count;

static void rt_rq_init(void)
{
	static bool ready;
	if (ready)
		return;
	for (int i = 0; i <= K_SCHED_PRIO_MAX; i++)
		list_init(&rt_rq.q[i]);
	ready = true;
}

void sched_rt_enqueue(struct thread *t, bool head)
{
	rt_rq_init();
	unsigned p = t->rt_eff;
	if (head)
		list_add(&t->rt_link, &rt_rq.q[p]);
	else
		list_add_tail(&t->rt_link, &rt_rq.q[p]);
	rt_rq.bitmap[p / 64] |= 1ull << (p % 64);
	rt_rq.nr++;
	t->rt_on = true;
	t->se.on_rq = true;
	sched_psi_queued(&t->se, 1);
}

void sched_rt_dequeue(struct thread *t)
{
	unsigned p = t->rt_eff;
	list_del(&t->rt_link);
	if (list_empty(&rt_rq.q[p]))
		rt_rq.bitmap[p / 64] &= ~(1ull << (p % 64));
	rt_rq.nr--;
	t->rt_on = false;
	t->se.on_rq = false;
	sched_psi_queued(&t->se, -1);
}

struct thread *sched_rt_first(unsigned cpu)
{
	if (!rt_rq.nr || rt_rq.throttled[cpu])
		return NULL;
	unsigned p = rt_rq.bitmap[1] ? 64 + 63 - (unsigned)__builtin_clzll(rt_rq.bitmap[1]) :
				       63 - (unsigned)__builtin_clzll(rt_rq.bitmap[0]);
	return list_first_entry(&rt_rq.q[p], struct thread, rt_link);
}

struct thread *sched_rt_first_if(unsigned cpu, bool (*ok)(const struct thread *t, const void *arg),
				  const void *arg)
{
	if (!rt_rq.nr || rt_rq.throttled[cpu])
		return NULL;
	int looked = 0;
	for (int p = K_SCHED_PRIO_MAX; p > 0; p--) {
		if (!(rt_rq.bitmap[p / 64] & (1ull << (p % 64))))
			continue;
		struct list_head *pos;
		list_for_each(pos, &rt_rq.q[p]) {
			struct thread *t = list_entry(pos, struct thread, rt_link);
			if (ok(t, arg))
				return t;
			if (++looked == SCHED_RT_SCAN_MAX)
				return NULL; /* under sched_lock: bounded, whatever root queued */
		}
	}
	return NULL;
}

bool sched_rt_queued(void)
{
	return rt_rq.nr != 0;
}

void sched_rt_requeue_tail(struct thread *t)
{
	list_del(&t->rt_link);
	list_add_tail(&t->rt_link, &rt_rq.q[t->rt_eff]);
}

/* A new period may have begun at now: forgive each CPU one runtime per
 * elapsed period (Linux's do_sched_rt_period_timer). True if the class
 * was throttled on a CPU and may run there again. */
static bool rt_period_roll(uint64_t now)
{
	if (!rt_rq.period_start)
		rt_rq.period_start = now;
	if (now - rt_rq.period_start < sched_rt_period_ns)
		return false;
	uint64_t n = (now - rt_rq.period_start) / sched_rt_period_ns;
	rt_rq.period_start += n * sched_rt_period_ns;
	uint64_t forgive = sched_rt_runtime_ns < 0 ? UINT64_MAX :
			   (uint64_t)sched_rt_runtime_ns * n;
	bool back = false;
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		rt_rq.rt_time[c] = rt_rq.rt_time[c] > forgive ? rt_rq.rt_time[c] - forgive : 0;
		if (rt_rq.throttled[c] &&
		    (sched_rt_runtime_ns < 0 || rt_rq.rt_time[c] < (uint64_t)sched_rt_runtime_ns)) {
			rt_rq.throttled[c] = false;
			back = true;
		}
	}
	return back;
}

void sched_rt_account(struct thread *t, uint64_t delta, uint64_t now)
{
	/* cpu.stat's usage: the thread and every group above it (the root's
	 * own sum is core.c's), but no virtual time: the fair class's
	 * shares are not the real-time class's business. */
	t->se.sum_exec += delta;
	for (struct sched_queue *q = t->se.parent; q && q->owner; q = q->owner->parent)
		q->owner->sum_exec += delta;
	rt_period_roll(now);
	unsigned cpu = this_cpu()->id;
	rt_rq.rt_time[cpu] += delta;
	if (sched_rt_runtime_ns >= 0 && !rt_rq.throttled[cpu] &&
	    rt_rq.rt_time[cpu] >= (uint64_t)sched_rt_runtime_ns) {
		rt_rq.throttled[cpu] = true;
		sched_rt_throttle_count++;
		this_cpu()->need_resched = 1;
	}
	if (t->policy == K_SCHED_RR && t->rt_on) {
		t->rr_used += delta;
		if (t->rr_used >= K_SCHED_RR_SLICE_NS) {
			t->rr_used = 0;
			/* a fresh slice; the tail of its list if others wait there */
			if (rt_rq.q[t->rt_eff].next != rt_rq.q[t->rt_eff].prev) {
				sched_rt_requeue_tail(t);
				this_cpu()->need_resched = 1;
			}
		}
	}
}

bool sched_rt_tick(uint64_t now)
{
	return rt_period_roll(now) && rt_rq.nr;
}

bool sched_rt_throttled(unsigned cpu)
{
	return rt_rq.throttled[cpu];
}

int sched_rt_target_prio(const struct thread *t)
{
	int p = (t->policy == K_SCHED_FIFO || t->policy == K_SCHED_RR) ? t->rt_prio : 0;
	const struct list_head *pos;
	list_for_each(pos, &t->pi_waiters) {
		const struct thread *w = list_entry(pos, struct thread, pi_link);
		if (w->rt_eff > p)
			p = w->rt_eff;
	}
	return p;
}
