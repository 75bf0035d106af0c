/* Reclaim of page cache pages from a cgroup subtree (reclaim.h): Linux's
 * memcg reclaim (mm/vmscan.c: do_try_to_free_pages, shrink_node_memcgs,
 * get_scan_count, shrink_lruvec) over Arbor's per-cgroup LRU lists
 * (kernel/pcache/lru.c), and where it runs: a charge over memory.max,
 * a page fault whose charge was refused, memory.high on the way to user
 * mode, the page allocator short of frames, memory.reclaim, and a lowered
 * memory.max or memory.high.
 *
 * One call makes passes at decreasing priority (12 down to 0): each pass
 * walks the subtree top-down, computing every cgroup's effective
 * protection (page_counter_calculate_protection) and scanning
 * lru_size >> priority pages of each cgroup's file lists, less in
 * proportion to its protection (get_scan_count); a cgroup's scan stops
 * once it gave what the call wants (shrink_lruvec's nr_to_reclaim), but a
 * pass visits every cgroup of the subtree, however much the first ones
 * gave (Linux since 5.5: bailing out early would take from the first
 * cgroups of the walk more than from their siblings, which upsets how
 * memory.min and memory.low share the pressure), and passes end when
 * enough is freed.
 * Cgroups within their effective memory.min are skipped; those within
 * memory.low too, and if a whole call freed too little while skipping
 * some, it runs again reclaiming them, each counting a "low" event
 * (cgroup-v2.rst "memory.low"). Pages go in batches of 32 (Linux's
 * SWAP_CLUSTER_MAX) with a chance to switch between batches; the walk
 * holds cg_lock only to pick the next cgroups, the scan pcache_lru_lock
 * only to take a batch off a list, and evicting a page takes its object's
 * lock (the pager's pcache_page_evict): a charging caller holding any of
 * them must not reclaim (memcg_may_reclaim), so every charge under a
 * spinlock (a page fault under its address space's lock) leaves it to
 * the fault handler, which holds none. */
#include "reclaim.h"
#include "abi/errno.h"
#include "arch/x86.h"
#include "cgroup.h"
#include "charge_stock.h"
#include "memcg.h"
#include "pcache.h"
#include "percpu.h"
#include "pmm.h"
#include "proc.h"
#include "sched.h"

#define RECLAIM_BATCH 32		/* pages per scan batch (SWAP_CLUSTER_MAX) */
#define RECLAIM_DEF_PRIORITY 12		/* first pass scans lru_size >> 12 */
#define RECLAIM_WALK_BATCH 16		/* cgroups picked per cg_lock hold */
#define RECLAIM_RETRIES 16		/* Linux's MAX_RECLAIM_RETRIES */
#define RECLAIM_WB_TIMEOUT_NS 2000000000ull /* a server's writeback of one object */
/* Frames free below which an allocation first reclaims from the root
 * (a direct-reclaim watermark: Arbor has no kswapd). */
#define RECLAIM_FREE_LOW 1024

struct reclaim_ctl {
	struct cgroup *target;
	uint64_t want, freed;
	unsigned flags;
	int priority;
	bool low_pass;		/* reclaiming cgroups within memory.low too */
	bool low_skipped;	/* some were skipped for it */
	bool killed;		/* the caller is being killed: stop */
	bool found;		/* a pass met a cgroup holding file pages */
};

/* ---- the walk ---- */

static uint64_t reclaim_lru_len(const struct memcg_pcache *b, enum memcg_stat s)
{
	int64_t v = __atomic_load_n(&b->stat[s - MEMCG_NR_STATS], __ATOMIC_RELAXED);
	return v > 0 ? (uint64_t)v : 0;
}

static bool reclaim_has_file(const struct cgroup *c)
{
	const struct memcg_pcache *b = __atomic_load_n(&c->mem_pcache, __ATOMIC_ACQUIRE);
	return b && reclaim_lru_len(b, MEMCG_STAT_INACTIVE_FILE) + reclaim_lru_len(b, MEMCG_STAT_ACTIVE_FILE) > 0;
}

/* c's effective protection (its parent's was computed before it: the
 * walk is pre-order), and its children's protected usage for theirs. */
static void reclaim_protection(struct reclaim_ctl *rc, struct cgroup *c)
{
	struct page_counter_prot *prot = memcg_prot_of(c);
	page_counter_calculate_protection(&rc->target->memory, &c->memory, prot,
					  c->parent ? memcg_prot_of(c->parent) : NULL, false);
	page_counter_children_reset(prot);
	for (struct list_head *e = c->children.next; e != &c->children; e = e->next)
		page_counter_children_add(prot, &container_of(e, struct cgroup, sibling)->memory);
}

/* Up to max cgroups of the subtree holding file pages or within their
 * memory.low (its event), after *pos (NULL:
 * from the target), each with a reference, into out. *pos becomes the
 * next cgroup to look at (a reference) or NULL when the walk is over; a
 * resume point removed meanwhile ends the walk (this pass). */
static uint32_t reclaim_collect(struct reclaim_ctl *rc, struct cgroup **pos, struct cgroup **out, uint32_t max)
{
	uint32_t n = 0;
	struct cgroup *old = *pos, *c;
	cg_lock();
	if (!old)
		c = rc->target;
	else
		c = __atomic_load_n(&old->dead, __ATOMIC_ACQUIRE) ? NULL : old;
	while (c && n < max) {
		reclaim_protection(rc, c);
		/* one without file pages but within memory.low is visited too:
		 * Linux's walk (shrink_node_memcgs) meets every cgroup and
		 * counts its low event whatever it holds */
		const struct page_counter_prot *prot = memcg_prot_of(c);
		bool file = reclaim_has_file(c);
		bool low = !page_counter_below_min(&rc->target->memory, &c->memory, prot) &&
			   page_counter_below_low(&rc->target->memory, &c->memory, prot);
		if (file || low) {
			rc->found |= file;
			cg_get(c);
			out[n++] = c;
		}
		c = cg_next_pre(c, rc->target);
	}
	if (c)
		cg_get(c);
	*pos = c;
	cg_unlock();
	if (old)
		cg_put(old);
	return n;
}

/* ---- one cgroup ---- */

/* Linux's get_scan_count for a cgroup's file lists: all of them, less
 * in proportion to the protection it is still within (elow on the first
 * round, emin on the low pass), at least a batch; shifted by priority. */
static uint64_t reclaim_scan_count(const struct reclaim_ctl *rc, struct cgroup *c,
				   const struct page_counter_prot *prot, uint64_t size)
{
	uint64_t scan = size;
	if (c != rc->target) {
		uint64_t p = (!rc->low_pass && prot->elow > prot->emin) ? prot->elow : prot->emin;
		if (p) {
			uint64_t cgsize = MAX(page_counter_read(&c->memory), p);
			scan = size - MIN(size, page_counter_mul_div(size, p, cgsize + 1));
			scan = MAX(scan, (uint64_t)RECLAIM_BATCH);
		}
	}
	return scan >> rc->priority;
}

/* p was evicted by a reclaim of rc->target. */
static bool reclaim_evict(struct reclaim_ctl *rc, struct pcache_page *p)
{
	if (!pcache_page_evict(p, memcg_workingset_shadow(rc->target)))
		return false;
	memcg_workingset_evicted(rc->target);
	return true;
}

/* Evicts what it can of up to nr pages from c's inactive tail; dirty
 * ones, if allowed, after their objects' servers wrote them back (one
 * request per object, synchronous: Linux leaves them to the flushers). */
static void reclaim_batch(struct reclaim_ctl *rc, struct cgroup *c, uint32_t nr)
{
	struct pcache_page *cand[RECLAIM_BATCH], *dirty[RECLAIM_BATCH];
	uint32_t n = pcache_lru_isolate(c, MIN(nr, (uint32_t)RECLAIM_BATCH), cand), nd = 0;
	uint64_t stolen = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct pcache_page *p = cand[i];
		/* read without the object's lock: pcache_page_evict decides */
		if (__atomic_load_n(&p->state, __ATOMIC_RELAXED) & (PCP_DIRTY | PCP_WRITEBACK)) {
			if (rc->flags & RECLAIM_WRITEBACK)
				dirty[nd++] = p;
			else
				pcache_page_unpin(p); /* stays, rotated */
			continue;
		}
		stolen += reclaim_evict(rc, p);
	}
	for (uint32_t i = 0; i < nd; i++) {
		bool asked = false;
		for (uint32_t j = 0; j < i && !asked; j++)
			asked = dirty[j]->obj == dirty[i]->obj;
		if (!asked)
			(void)pcache_writeback_request(dirty[i]->obj, RECLAIM_WB_TIMEOUT_NS);
		stolen += reclaim_evict(rc, dirty[i]);
	}
	if (stolen)
		memcg_pcache_stat_add(c, MEMCG_STAT_PGSTEAL, (int64_t)stolen);
	rc->freed += stolen;
}

static void reclaim_cgroup(struct reclaim_ctl *rc, struct cgroup *c)
{
	const struct page_counter *target = &rc->target->memory;
	struct page_counter_prot prot = *memcg_prot_of(c); /* as the walk left it */
	if (page_counter_below_min(target, &c->memory, &prot))
		return; /* hard protection */
	if (page_counter_below_low(target, &c->memory, &prot)) {
		if (!rc->low_pass) {
			rc->low_skipped = true;
			return;
		}
		memcg_event(c, MEMCG_LOW);
	}
	struct memcg_pcache *b = __atomic_load_n(&c->mem_pcache, __ATOMIC_ACQUIRE);
	if (!b)
		return; /* visited for its low event only: no file page ever */
	uint64_t scan = reclaim_scan_count(rc, c, &prot,
					   reclaim_lru_len(b, MEMCG_STAT_INACTIVE_FILE) +
					   reclaim_lru_len(b, MEMCG_STAT_ACTIVE_FILE));
	struct thread *self = current_thread();
	uint64_t start = rc->freed;
	while (scan && rc->freed - start < rc->want && !rc->killed) {
		uint32_t batch = (uint32_t)MIN(scan, (uint64_t)RECLAIM_BATCH);
		scan -= batch;
		/* Linux's inactive_is_low (ratio 1 below 1 GiB): refill the
		 * inactive list from the active tail first */
		if (reclaim_lru_len(b, MEMCG_STAT_INACTIVE_FILE) < reclaim_lru_len(b, MEMCG_STAT_ACTIVE_FILE))
			pcache_lru_deactivate(c, batch);
		reclaim_batch(rc, c, batch);
		sched_cond_resched();
		if (self && thread_fatal_signal(self))
			rc->killed = true;
	}
}

/* One pass over the subtree at rc->priority. */
static void reclaim_pass(struct reclaim_ctl *rc)
{
	struct cgroup *pos = NULL, *batch[RECLAIM_WALK_BATCH];
	do {
		uint32_t n = reclaim_collect(rc, &pos, batch, RECLAIM_WALK_BATCH);
		for (uint32_t i = 0; i < n; i++) {
			if (!rc->killed)
				reclaim_cgroup(rc, batch[i]);
			cg_put(batch[i]);
		}
	} while (pos && !rc->killed);
	if (pos)
		cg_put(pos);
}

uint64_t memcg_reclaim(struct cgroup *target, uint64_t nr, unsigned flags)
{
	struct thread *self = current_thread();
	struct reclaim_ctl rc = {
		.target = target,
		.want = MAX(nr, (uint64_t)RECLAIM_BATCH),
		.flags = flags,
	};
	bool nested = self && self->mem_reclaiming;
	if (self)
		self->mem_reclaiming = true;
	/* the shadows name the target's workingset clock: it needs a block */
	(void)memcg_pcache_of(target);
	for (;;) {
		for (rc.priority = RECLAIM_DEF_PRIORITY; rc.priority >= 0; rc.priority--) {
			reclaim_pass(&rc);
			/* no file page anywhere below: no pass can do more */
			if (rc.freed >= rc.want || rc.killed || !rc.found)
				break;
		}
		/* Linux's do_try_to_free_pages: too little while cgroups were
		 * skipped for memory.low: again, taking from them too */
		if (rc.freed >= rc.want || rc.killed || !rc.low_skipped || rc.low_pass)
			break;
		rc.low_pass = true;
	}
	if (self)
		self->mem_reclaiming = nested;
	return rc.freed;
}

/* ---- where it runs ---- */

bool memcg_may_reclaim(void)
{
	struct thread *t = current_thread();
	return t && !t->mem_reclaiming && spin_preempt_count() == 0 && (read_rflags() & RFLAGS_IF);
}

/* Writeback is asked of a server and waited for: not by a thread
 * serving a call (it may be the very server, or one it waits on). */
static unsigned reclaim_flags_here(void)
{
	struct thread *t = current_thread();
	return t && !t->ipc_caller ? RECLAIM_WRITEBACK : 0;
}

bool memcg_reclaim_and_charge(struct cgroup *cg, struct cgroup *over, uint64_t nr)
{
	unsigned flags = reclaim_flags_here();
	for (int i = 0; i < RECLAIM_RETRIES; i++) {
		uint64_t got = memcg_reclaim(over, nr, flags);
		struct page_counter *fail = NULL;
		uint64_t f = irq_save();
		bool ok = charge_stock_try_charge(&this_cpu()->stock, &cg->memory, nr, &fail);
		irq_restore(f);
		if (ok) {
			/* the charge met memory.max: Linux counts the event
			 * before reclaiming, whatever comes of it (a refusal
			 * after all is counted where it is settled) */
			memcg_event(over, MEMCG_MAX);
			return true;
		}
		if (!got)
			return false; /* nothing reclaimable: the caller's OOM path */
		over = container_of(fail, struct cgroup, memory);
	}
	return false;
}

void memcg_reclaim_high(struct cgroup *cg)
{
	unsigned flags = reclaim_flags_here();
	for (struct cgroup *a = cg; a; a = a->parent) {
		uint64_t usage = page_counter_read(&a->memory);
		uint64_t high = __atomic_load_n(&a->memory.high, __ATOMIC_RELAXED);
		if (usage > high)
			(void)memcg_reclaim(a, usage - high, flags);
	}
}

uint64_t memcg_reclaim_global(uint64_t nr)
{
	return memcg_reclaim(&cg_root, nr, 0); /* see memcg_reclaim_watermark */
}

/* Clean pages only (memcg_reclaim_global): the allocating thread may be
 * a driver a server's writeback would wait on. */
void memcg_reclaim_watermark(void)
{
	if (pmm_free_pages() < RECLAIM_FREE_LOW && memcg_may_reclaim())
		(void)memcg_reclaim_global(RECLAIM_BATCH);
}

int memcg_reclaim_request(struct cgroup *cg, uint64_t nr)
{
	struct thread *self = current_thread();
	unsigned flags = reclaim_flags_here();
	int retries = RECLAIM_RETRIES;
	uint64_t done = 0;
	while (done < nr) {
		if (self && thread_has_work(self))
			return -EINTR; /* Linux: signal_pending */
		/* a batch a call (Linux 6.3's fix of memory.reclaim): each
		 * call takes up to its want from every cgroup of the subtree */
		uint64_t got = memcg_reclaim(cg, MIN(nr - done, (uint64_t)RECLAIM_BATCH), flags);
		if (!got && !retries--)
			return -EAGAIN;
		done += got;
	}
	return 0;
}

void memcg_shrink_to_high(struct cgroup *cg)
{
	struct thread *self = current_thread();
	int retries = RECLAIM_RETRIES;
	mem_drain_stock(cg);
	for (;;) {
		uint64_t usage = page_counter_read(&cg->memory);
		uint64_t high = __atomic_load_n(&cg->memory.high, __ATOMIC_RELAXED);
		if (usage <= high || (self && thread_has_work(self)))
			break;
		if (!memcg_reclaim(cg, usage - high, reclaim_flags_here()) && !retries--)
			break;
	}
}
