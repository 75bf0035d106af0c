/* io.weight: proportional sharing of the disk among the active cgroups
 * (docs/block.md). A weighted fair queue in virtual time, as Linux's
 * iocost: each requesting cgroup has a vtime that advances by a request's
 * cost (a model of the device's time, below) divided by the cgroup's
 * hierarchical weight share, and blk_dispatch sends the pending request
 * of the cgroup with the smallest vtime. The share is the product, at
 * every level of the cgroup's path, of its weight over the sum of the
 * weights of its *active* siblings (those with requests pending or in
 * flight), so an idle cgroup holds nothing (work-conserving). A cgroup
 * that becomes active starts at the current virtual time: idling saves
 * no credit. The weights are the kernel's (blkio_weights), cached per
 * cgroup and asked again after BLK_WEIGHT_TTL_NS. Called with d->lock. */
#include "blk.h"

/* The cost model, measured on QEMU's virtio-blk (docs/block.md): a
 * request costs a fixed part (the virtqueue round trip, the interrupt)
 * plus its bytes at the device's streaming rate. */
#define BLK_COST_REQ_NS 30000ull	/* per request */
#define BLK_COST_READ_PS 1000ull	/* per byte read: ~1 GB/s */
#define BLK_COST_WRITE_PS 2200ull	/* per byte written: ~450 MB/s */

#define BLK_HW_ONE (1u << 16)			/* a share of the whole disk */
#define BLK_WEIGHT_TTL_NS 100000000ull		/* io.weight changes apply within 100 ms */
#define BLK_ROOT_ID 0				/* the root cgroup's I/O, as a top-level node */
#define BLK_ROOT_WEIGHT 100

static uint64_t blk_cost_ns(const struct blk_req *r)
{
	uint64_t ps = r->op == BLK_OP_WRITE ? BLK_COST_WRITE_PS : BLK_COST_READ_PS;
	return BLK_COST_REQ_NS + r->bytes * ps / 1000;
}

/* Asks the kernel for c's path and weights; the root's I/O (no path)
 * competes as one top-level cgroup of the default weight. */
static void blk_cg_fetch(struct blk_dev *d, struct blk_cg *c, uint64_t now)
{
	long n = d->io_cg ? sys_blkio_weights(c->id, d->major, d->minor, c->path, BLKIO_DEPTH_MAX) : 0;
	if (n <= 0) {
		c->path[0] = (struct blkio_node){ .id = BLK_ROOT_ID, .weight = BLK_ROOT_WEIGHT };
		n = 1;
	}
	c->depth = (int)n;
	c->fetched_ns = now;
	d->sched.dirty = true;
}

/* The entry of cgroup id: its own, else a free or idle one (the least
 * recently used). With every entry active, cgroups share one. */
static struct blk_cg *blk_cg_find(struct blk_dev *d, uint64_t id)
{
	struct blk_cg *victim = NULL;
	for (int i = 0; i < BLK_CGS; i++) {
		struct blk_cg *c = &d->sched.cg[i];
		if (c->fetched_ns && c->id == id)
			return c;
		if (!c->active && (!victim || c->fetched_ns < victim->fetched_ns))
			victim = c;
	}
	if (!victim)
		return &d->sched.cg[id % BLK_CGS];
	*victim = (struct blk_cg){ .id = id };
	return victim;
}

/* Anticipation (as BFQ's idling): a cgroup stays in the shares for a
 * while after its last request, since a client issues its next one only
 * after copying the last one's data; without it the heavier cgroup would
 * drop out between requests and the lighter take the disk. The window is
 * three times the cgroup's own mean think time (the gap from going idle
 * to its next request), at least BLK_IDLE_NS and at most BLK_IDLE_MAX_NS:
 * when the host is loaded the clients' copies take longer in wall time,
 * and a fixed window would then expire between a heavy cgroup's requests. */
#define BLK_IDLE_NS 2000000ull
#define BLK_IDLE_MAX_NS 20000000ull

static uint64_t blk_idle_window(const struct blk_cg *c)
{
	uint64_t w = 3 * c->think_ns;
	return w < BLK_IDLE_NS ? BLK_IDLE_NS : w > BLK_IDLE_MAX_NS ? BLK_IDLE_MAX_NS : w;
}

static bool blk_cg_busy(const struct blk_cg *c, uint64_t now)
{
	return c->active || (c->fetched_ns && now - c->last_ns < blk_idle_window(c));
}

/* A gap longer than the longest window is a pause, not thinking: it
 * leaves the mean alone. */
static void blk_cg_think(struct blk_cg *c, uint64_t now)
{
	uint64_t gap = now - c->last_ns;
	if (c->fetched_ns && !c->active && gap < BLK_IDLE_MAX_NS)
		c->think_ns = (7 * c->think_ns + gap) / 8;
}

/* A request of r's cgroup is now pending: r->cg is set and counted. */
void blk_sched_enter(struct blk_dev *d, struct blk_req *r)
{
	struct blk_cg *c = blk_cg_find(d, r->who.cgroup_id);
	uint64_t now = (uint64_t)sys_clock_ns();
	r->cg = c;
	bool was_busy = blk_cg_busy(c, now);
	blk_cg_think(c, now);
	c->active++;
	c->last_ns = now;
	if (was_busy)
		return;
	if (!c->fetched_ns || now - c->fetched_ns > BLK_WEIGHT_TTL_NS)
		blk_cg_fetch(d, c, now);
	if (c->vtime < d->sched.vnow)
		c->vtime = d->sched.vnow;	/* no credit for idling */
}

/* r completed. */
void blk_sched_leave(struct blk_dev *d, struct blk_req *r)
{
	r->cg->inflight--;
	r->cg->active--;
	r->cg->last_ns = (uint64_t)sys_clock_ns();
	(void)d;
}

/* Whether an active entry before a[k] has the same node at level j (so
 * its weight is counted once). */
static bool blk_node_seen(struct blk_cg *const *a, int k, int j)
{
	for (int i = 0; i < k; i++)
		if (a[i]->depth > j && a[i]->path[j].id == a[k]->path[j].id)
			return true;
	return false;
}

/* c's share of the disk among the busy entries a[0..n): the product of
 * weight / busy siblings' weights at each level, in BLK_HW_ONE units. */
static uint32_t blk_hweight(struct blk_cg *const *a, int n, const struct blk_cg *c)
{
	uint64_t hw = BLK_HW_ONE;
	for (int j = 0; j < c->depth; j++) {
		uint64_t sum = 0;
		for (int k = 0; k < n; k++)
			if (a[k]->depth > j && (j == 0 || a[k]->path[j - 1].id == c->path[j - 1].id) &&
			    !blk_node_seen(a, k, j))
				sum += a[k]->path[j].weight;
		if (sum)
			hw = hw * c->path[j].weight / sum;
	}
	return hw ? (uint32_t)hw : 1;
}

/* Recomputes the busy entries' shares when the busy set changed, and
 * refreshes stale weights. */
void blk_sched_update(struct blk_dev *d)
{
	struct blk_sched *s = &d->sched;
	uint64_t now = s->now = (uint64_t)sys_clock_ns();
	struct blk_cg *a[BLK_CGS];
	int n = 0;
	for (int i = 0; i < BLK_CGS; i++) {
		struct blk_cg *c = &s->cg[i];
		bool busy = blk_cg_busy(c, now);
		if (busy && now - c->fetched_ns > BLK_WEIGHT_TTL_NS)
			blk_cg_fetch(d, c, now);
		s->dirty |= busy != c->in_set;
		c->in_set = busy;
		if (busy)
			a[n++] = c;
	}
	if (!s->dirty)
		return;
	for (int i = 0; i < n; i++)
		a[i]->hweight = blk_hweight(a, n, a[i]);
	s->dirty = false;
}

/* r goes to the device: its cgroup's vtime moves on by its cost over
 * the cgroup's share (a write a budget request paid for: that request
 * moved it already, blk_queue.c). */
void blk_sched_charge(struct blk_dev *d, struct blk_req *r)
{
	struct blk_cg *c = r->cg;
	if (c->vtime > d->sched.vnow)
		d->sched.vnow = c->vtime;
	c->inflight++;
	if (!r->prepaid)
		c->vtime += blk_cost_ns(r) * BLK_HW_ONE / (c->hweight ? c->hweight : BLK_HW_ONE);
}

/* The disk is rarely the only bottleneck: the copies to and from the
 * clients take the CPU, so a cgroup's next request may come only after
 * the last completed. If the next pending request simply went, a heavy
 * cgroup between its requests would leave the disk to the light one and
 * the split would follow the clients' speed, not the weights. So a
 * cgroup with requests in flight, or idle for less than its window,
 * holds back the others while it lags more than BLK_SLACK_NS behind them
 * in virtual time (*due: when an idle one stops holding). One whose
 * requests io.max holds (pending, none in flight) holds nothing. */
#define BLK_SLACK_NS 500000ull

bool blk_sched_may_go(struct blk_dev *d, const struct blk_req *r, uint64_t *due)
{
	uint64_t limit = r->cg->vtime > BLK_SLACK_NS ? r->cg->vtime - BLK_SLACK_NS : 0, now = d->sched.now;
	for (int i = 0; i < BLK_CGS; i++) {
		const struct blk_cg *c = &d->sched.cg[i];
		if (c == r->cg || c->vtime >= limit)
			continue;
		if (c->inflight)
			return false;	/* its completion dispatches again */
		if (!c->active && blk_cg_busy(c, now)) {
			*due = c->last_ns + blk_idle_window(c);
			return false;
		}
	}
	return true;
}
