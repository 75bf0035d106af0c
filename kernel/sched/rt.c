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
 * The global throttle (Linux's sched_rt_period_us / sched_rt_runtime_us,
 * 1 s and 0.95 s): real-time threads together run at most the runtime in
 * each period; past it the class is throttled, the fair class (the shell,
 * the servers) gets the rest of the period, and if nothing fair is
 * runnable the CPU idles, as Linux's does.
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
	uint64_t period_start, rt_time;	/* this period's start, run time in it */
	bool throttled;
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

struct thread *sched_rt_first(void)
{
	if (!rt_rq.nr || rt_rq.throttled)
		return NULL;
	unsigned p = rt_rq.bitmap[1] ? 64 + 63 - (unsigned)__builtin_clzll(rt_rq.bitmap[1]) :
				       63 - (unsigned)__builtin_clzll(rt_rq.bitmap[0]);
	return list_first_entry(&rt_rq.q[p], struct thread, rt_link);
}

struct thread *sched_rt_first_if(bool (*ok)(const struct thread *t, const void *arg), const void *arg)
{
	if (!rt_rq.nr || rt_rq.throttled)
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

/* A new period may have begun at now: forgive one runtime per elapsed
 * period (Linux's do_sched_rt_period_timer). True if the class was
 * throttled and may run again. */
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
	rt_rq.rt_time = rt_rq.rt_time > forgive ? rt_rq.rt_time - forgive : 0;
	if (rt_rq.throttled && (sched_rt_runtime_ns < 0 || rt_rq.rt_time < (uint64_t)sched_rt_runtime_ns)) {
		rt_rq.throttled = false;
		return true;
	}
	return false;
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
	rt_rq.rt_time += delta;
	if (sched_rt_runtime_ns >= 0 && !rt_rq.throttled &&
	    rt_rq.rt_time >= (uint64_t)sched_rt_runtime_ns) {
		rt_rq.throttled = true;
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

bool sched_rt_throttled(void)
{
	return rt_rq.throttled;
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
