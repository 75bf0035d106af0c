/* CPU bandwidth control: cpu.max and cpu.max.burst, as Linux's CFS
 * bandwidth.
 *
 * A limited cgroup may run `quota` ns per `period` (its whole subtree,
 * and servers working for it: time is charged along the running entity's
 * chain, which is the caller's during an IPC call). Run time is charged as
 * it is accounted (every switch and tick); when a group's runtime for the
 * period is used up it is throttled: its entity leaves its parent's queue
 * (sched_throttle) with everything below it. Each limit on the path
 * applies, so a child is throttled by its parent's quota too. At each
 * period boundary the runtime is refilled by one quota per elapsed
 * period, up to quota + burst: unused time carries over as far as the
 * burst allows. The moment a running group's runtime runs out and the
 * moment a throttled group's period ends are timer events
 * (sched_bw_next_event, timer_event), not the next tick: a 1 ms quota is
 * kept to the interrupt's latency, not to the tick's 4 ms; what overrun
 * remains is paid back, so the long-run share is exact.
 * Statistics: periods elapsed while active, times throttled, time spent
 * throttled, periods that used burst and the burst time used; and for
 * cpu.stat.local, the time a group spent throttled by itself or by any
 * ancestor (a throttle walks the subtree below it, as Linux's
 * throttle_count does, over the groups' own tree, sched_group.h). All
 * under sched_lock. */
#include "sched.h"
#include "abi/errno.h"
#include "percpu.h"
#include "timer.h"

static struct list_head bw_groups = LIST_HEAD_INIT(bw_groups);
unsigned sched_nr_bw_groups; /* 0: nothing to charge, the common case */

/* The next group after pos in a pre-order walk of root's subtree (root
 * first), NULL at the end. */
static struct sched_group *bw_next_pre(struct sched_group *pos, struct sched_group *root)
{
	if (!list_empty(&pos->children))
		return list_entry(pos->children.next, struct sched_group, sibling);
	for (; pos != root; pos = sched_group_of_queue(pos->se.parent)) {
		struct sched_group *parent = sched_group_of_queue(pos->se.parent);
		if (pos->sibling.next != &parent->children)
			return list_entry(pos->sibling.next, struct sched_group, sibling);
	}
	return NULL;
}

/* One more (delta 1) or one fewer (-1) throttled group above every
 * group of g's subtree: stretches of local throttling start and end. */
static void bw_path_throttle(struct sched_group *g, int delta, uint64_t now)
{
	for (struct sched_group *d = g; d; d = bw_next_pre(d, g)) {
		struct sched_bandwidth *b = &d->bw;
		if (delta > 0 && b->path_throttled++ == 0)
			b->local_at = now;
		else if (delta < 0 && --b->path_throttled == 0)
			b->local_ns += now - b->local_at;
	}
}

static void bw_throttle(struct sched_group *g, uint64_t now)
{
	sched_throttle(&g->se);
	sched_donors_throttled_locked();
	g->bw.throttled_at = now;
	g->bw.nr_throttled++;
	bw_path_throttle(g, 1, now);
}

static void bw_unthrottle(struct sched_group *g, uint64_t now)
{
	sched_unthrottle(&g->se);
	g->bw.throttled_ns += now - g->bw.throttled_at;
	bw_path_throttle(g, -1, now);
}

bool sched_bw_charge(struct sched_entity *leaf, uint64_t delta, uint64_t now)
{
	bool throttled = false;
	if (!sched_nr_bw_groups)
		return false;
	for (struct sched_entity *e = leaf->parent->owner; e; e = e->parent->owner) {
		struct sched_bandwidth *b = &sched_group_of_entity(e)->bw;
		if (b->quota == SCHED_QUOTA_MAX)
			continue;
		b->runtime -= (int64_t)delta;
		b->used += delta;
		if (b->runtime <= 0 && !e->throttled && !b->dying) {
			bw_throttle(sched_group_of_entity(e), now);
			throttled = true;
		}
	}
	return throttled;
}

void sched_bw_dying_locked(struct sched_entity *se, int delta)
{
	spin_assert_held(&sched_lock);
	uint64_t now = clock_ns();
	for (struct sched_entity *e = se->parent ? se->parent->owner : NULL; e; e = e->parent->owner) {
		struct sched_group *g = sched_group_of_entity(e);
		g->bw.dying += delta;
		if (delta > 0 && e->throttled)
			bw_unthrottle(g, now);
	}
}

/* The periods that ended by now: refill, count, maybe unthrottle. */
static bool bw_refresh(struct sched_group *g, uint64_t now)
{
	struct sched_bandwidth *b = &g->bw;
	uint64_t n = (now - b->period_end) / b->period + 1;
	b->period_end += n * b->period;
	if (b->used || g->se.throttled || g->rq.nr_queued)
		b->nr_periods += n;
	if (b->burst && b->used > b->quota) {
		b->nr_bursts++;
		b->burst_ns += b->used - b->quota;
	}
	b->used = 0;
	/* a debt is at most a tick's overrun: four quotas cover any */
	int64_t cap = (int64_t)(b->quota + b->burst);
	b->runtime = MIN(b->runtime + (int64_t)(MIN(n, 4u) * b->quota), cap);
	if (!g->se.throttled || b->runtime <= 0)
		return false;
	bw_unthrottle(g, now);
	return true;
}

bool sched_bw_tick(uint64_t now)
{
	bool woke = false;
	struct list_head *pos;
	list_for_each(pos, &bw_groups) {
		struct sched_group *g = list_entry(pos, struct sched_group, bw.link);
		if (now >= g->bw.period_end)
			woke |= bw_refresh(g, now);
	}
	return woke;
}

uint64_t sched_bw_next_event(const struct sched_entity *leaf, uint64_t since)
{
	if (!sched_nr_bw_groups)
		return UINT64_MAX;
	uint64_t at = UINT64_MAX;
	for (const struct sched_entity *e = leaf ? leaf->parent->owner : NULL; e; e = e->parent->owner) {
		const struct sched_bandwidth *b = &sched_group_of_entity((struct sched_entity *)e)->bw;
		if (b->quota != SCHED_QUOTA_MAX && b->runtime > 0)
			at = MIN(at, since + (uint64_t)b->runtime);
	}
	struct list_head *pos;
	list_for_each(pos, &bw_groups) {
		struct sched_group *g = list_entry(pos, struct sched_group, bw.link);
		if (g->se.throttled)
			at = MIN(at, g->bw.period_end);
	}
	return at;
}

/* A new limit starts a period now with a full quota. sched_lock held. */
static void bw_set_locked(struct sched_group *g, uint64_t quota, uint64_t period, uint64_t burst)
{
	struct sched_bandwidth *b = &g->bw;
	bool was = b->quota != SCHED_QUOTA_MAX, now_limited = quota != SCHED_QUOTA_MAX;
	b->quota = quota;
	b->period = period;
	b->burst = burst;
	if (now_limited) {
		b->runtime = (int64_t)quota;
		b->used = 0;
		b->period_end = clock_ns() + period;
	}
	if (now_limited && !was) {
		list_add_tail(&b->link, &bw_groups);
		sched_nr_bw_groups++;
	} else if (!now_limited && was) {
		list_del(&b->link);
		sched_nr_bw_groups--;
	}
	if (g->se.throttled && (!now_limited || b->runtime > 0))
		bw_unthrottle(g, clock_ns());
}

int sched_group_set_max(struct sched_group *g, uint64_t quota, uint64_t period, uint64_t burst)
{
	if (g == sched_root)
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&sched_lock);
	bw_set_locked(g, quota, period, burst);
	sched_resched_check();
	spin_unlock_irqrestore(&sched_lock, f);
	return 0;
}

void sched_group_bandwidth(const struct sched_group *g, struct sched_bandwidth *out)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	*out = g->bw;
	/* the current stretches count too */
	if (g->se.throttled)
		out->throttled_ns += clock_ns() - g->bw.throttled_at;
	if (g->bw.path_throttled)
		out->local_ns += clock_ns() - g->bw.local_at;
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_bw_link_locked(struct sched_group *g, struct sched_group *parent)
{
	spin_assert_held(&sched_lock);
	list_add_tail(&g->sibling, &parent->children);
	g->bw.path_throttled = parent->bw.path_throttled; /* a child of a throttled group starts throttled */
	g->bw.local_at = clock_ns();
}

void sched_bw_unlink_locked(struct sched_group *g)
{
	spin_assert_held(&sched_lock);
	if (g->bw.quota != SCHED_QUOTA_MAX)
		bw_set_locked(g, SCHED_QUOTA_MAX, g->bw.period, 0);
	list_del(&g->sibling);
	list_init(&g->sibling); /* again: harmless */
}
