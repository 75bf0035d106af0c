/* Workingset detection (reclaim.h): Linux's mm/workingset.c over Arbor's
 * cgroups. Each cgroup's page cache block keeps a clock,
 * nonresident_age, that ticks with every page a reclaim of that cgroup's
 * subtree evicts (at the reclaim's target and each ancestor) and every
 * activation below it. An evicted page leaves a shadow in its object's
 * slot (the pager keeps it) naming the reclaim's target and its clock
 * then. When the page is read again, the refault distance (the clock now
 * minus the one in the shadow: the evictions and activations since) is
 * compared with the workingset, the target's subtree's active file list:
 * a page evicted more recently than the active list is long would have
 * stayed had the inactive list been that much longer, so it comes back
 * active (workingset_activate_file) instead of being evicted again first.
 *
 * Shadow layout (bits 0..62 kept by the pager): bit 0 set (never 0),
 * bits 1..20 the target's cgroup id (low 20 bits), bits 21..62 its clock
 * (42 bits, compared modulo 2^42). The evicting cgroup is looked for
 * among the refaulting cgroup and its ancestors (a reclaim's target is
 * one of them unless the page's cgroup moved): a shadow naming none of
 * them counts the refault only. */
#include "reclaim.h"
#include "cgroup.h"
#include "memcg.h"
#include "pcache.h"

#define WS_ID_BITS 20
#define WS_AGE_BITS 42
#define WS_ID_MASK ((1ull << WS_ID_BITS) - 1)
#define WS_AGE_MASK ((1ull << WS_AGE_BITS) - 1)

static uint64_t ws_clock(const struct memcg_pcache *b)
{
	return __atomic_load_n(&b->nonresident_age, __ATOMIC_RELAXED);
}

uint64_t memcg_workingset_shadow(struct cgroup *target)
{
	struct memcg_pcache *b = __atomic_load_n(&target->mem_pcache, __ATOMIC_ACQUIRE);
	uint64_t age = b ? ws_clock(b) & WS_AGE_MASK : 0;
	return 1 | ((target->id & WS_ID_MASK) << 1) | (age << (1 + WS_ID_BITS));
}

void memcg_workingset_age(struct cgroup *cg, uint64_t n)
{
	/* the chain of a charged or targeted cgroup stays while it does;
	 * an ancestor without a block holds no page and no shadow of it */
	for (struct cgroup *a = cg; a; a = a->parent) {
		struct memcg_pcache *b = __atomic_load_n(&a->mem_pcache, __ATOMIC_ACQUIRE);
		if (b)
			__atomic_add_fetch(&b->nonresident_age, n, __ATOMIC_RELAXED);
	}
}

void memcg_workingset_evicted(struct cgroup *target)
{
	memcg_workingset_age(target, 1);
}

/* The active file pages of cg's subtree (Linux's lruvec_page_state of
 * a memcg's lruvec, hierarchical): summed under cg_lock. */
static uint64_t ws_active_file(struct cgroup *cg)
{
	int64_t sum = 0;
	cg_lock();
	for (struct cgroup *c = cg; c; c = cg_next_pre(c, cg)) {
		const struct memcg_pcache *b = __atomic_load_n(&c->mem_pcache, __ATOMIC_ACQUIRE);
		if (b)
			sum += __atomic_load_n(&b->stat[MEMCG_STAT_ACTIVE_FILE - MEMCG_NR_STATS], __ATOMIC_RELAXED);
	}
	cg_unlock();
	return sum > 0 ? (uint64_t)sum : 0;
}

void memcg_workingset_refault(struct cgroup *cg, uint64_t shadow, struct pcache_page *p)
{
	if (!cg)
		cg = p->pg->charge;
	if (!cg || !(shadow & 1))
		return;
	memcg_pcache_stat_add(cg, MEMCG_STAT_WORKINGSET_REFAULT_FILE, 1);
	uint64_t id = (shadow >> 1) & WS_ID_MASK;
	uint64_t age = (shadow >> (1 + WS_ID_BITS)) & WS_AGE_MASK;
	struct cgroup *ev = cg;
	while (ev && (ev->id & WS_ID_MASK) != id)
		ev = ev->parent;
	struct memcg_pcache *b = ev ? __atomic_load_n(&ev->mem_pcache, __ATOMIC_ACQUIRE) : NULL;
	if (!b)
		return;
	uint64_t distance = (ws_clock(b) - age) & WS_AGE_MASK;
	if (distance > ws_active_file(ev))
		return;
	if (pcache_lru_activate(p)) {
		memcg_workingset_age(cg, 1);
		memcg_pcache_stat_add(cg, MEMCG_STAT_WORKINGSET_ACTIVATE_FILE, 1);
	}
}
