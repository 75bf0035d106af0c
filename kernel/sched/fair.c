/* Hierarchical weighted fair queueing; semantics in sched_fair.h.
 *
 * Invariants maintained for every queue q (the host test checks them):
 *   - q->timeline holds exactly q's runnable entities, running ones too;
 *   - q->nr_queued and q->load count them;
 *   - q->nr_busy counts those whose busy flag is set, and an entity's
 *     busy flag is entity_busy() of it (a thread some CPU runs, a group
 *     whose queued entities are all busy): nothing in it to pick;
 *   - an entity's nr_running is the number of running chains through it;
 *   - a group entity is runnable iff its my_q->nr_queued > 0;
 *   - q->min_vruntime never decreases (modulo 2^64).
 * Walking "up" from an entity goes se->parent->owner; the root queue's
 * owner is NULL. */
#include "sched_fair.h"

const uint32_t sched_nice_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */  9548,  7620,  6100,  4904,  3906,
	/*  -5 */  3121,  2501,  1991,  1586,  1277,
	/*   0 */  1024,   820,   655,   526,   423,
	/*   5 */   335,   272,   215,   172,   137,
	/*  10 */   110,    87,    70,    56,    45,
	/*  15 */    36,    29,    23,    18,    15,
};

uint32_t sched_weight_from_nice(int nice)
{
	nice = MAX(SCHED_NICE_MIN, MIN(SCHED_NICE_MAX, nice));
	return sched_nice_to_weight[nice - SCHED_NICE_MIN] << SCHED_LOAD_SHIFT;
}

uint32_t sched_weight_from_cpu_weight(uint32_t cpu_weight)
{
	cpu_weight = MAX(1u, MIN(10000u, cpu_weight));
	return (uint32_t)(((uint64_t)cpu_weight * SCHED_NICE0_WEIGHT + 50) / 100);
}

uint32_t sched_cpu_weight_from_weight(uint32_t weight)
{
	return (uint32_t)(((uint64_t)weight * 100 + SCHED_NICE0_WEIGHT / 2) / SCHED_NICE0_WEIGHT);
}

int sched_nice_from_weight(uint32_t weight)
{
	/* the table falls steeply: the first entry no closer than the one
	 * before it ends the search, as Linux's cpu.weight.nice does */
	uint32_t best = UINT32_MAX;
	int i = 0;
	for (; i < 40; i++) {
		uint32_t w = sched_nice_to_weight[i] << SCHED_LOAD_SHIFT;
		uint32_t d = w > weight ? w - weight : weight - w;
		if (d >= best)
			break;
		best = d;
	}
	return i - 1 + SCHED_NICE_MIN;
}

/* ---- vruntime arithmetic (wrap-safe) ---- */

static int64_t vdiff(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static bool vbefore(uint64_t a, uint64_t b)
{
	return vdiff(a, b) < 0;
}

/* delta * SCHED_NICE0_WEIGHT / weight without overflow for any delta whose result fits,
 * and without 128-bit division: split delta = q * weight + r. */
static uint64_t to_vruntime(uint64_t delta, uint32_t weight)
{
	if (weight == SCHED_NICE0_WEIGHT)
		return delta;
	return delta / weight * SCHED_NICE0_WEIGHT +
	       delta % weight * SCHED_NICE0_WEIGHT / weight;
}

/* ---- timeline helpers ---- */

static bool entity_less(const struct rb_node *a, const struct rb_node *b)
{
	return vbefore(rb_entry(a, struct sched_entity, node)->vruntime,
		       rb_entry(b, struct sched_entity, node)->vruntime);
}

static struct sched_entity *leftmost(const struct sched_queue *q)
{
	struct rb_node *n = rb_first_cached(&q->timeline);

	return n ? rb_entry(n, struct sched_entity, node) : NULL;
}

static void tl_insert(struct sched_queue *q, struct sched_entity *se)
{
	rb_insert_cached(&q->timeline, &se->node, entity_less);
}

static void tl_erase(struct sched_queue *q, struct sched_entity *se)
{
	rb_erase_cached(&q->timeline, &se->node);
}

static struct sched_entity *parent_entity(const struct sched_entity *se)
{
	return se->parent->owner;
}

/* Raise the floor to the smallest runnable vruntime, never lowering it. */
static void update_min_vruntime(struct sched_queue *q)
{
	struct sched_entity *first = leftmost(q);

	if (first && vbefore(q->min_vruntime, first->vruntime))
		q->min_vruntime = first->vruntime;
}

/* A queued entity's key grows (it ran): it keeps its place unless it
 * reaches its successor's key (then it goes after its equals, FIFO). */
static void tl_advance(struct sched_queue *q, struct sched_entity *se, uint64_t v)
{
	struct rb_node *next = rb_next(&se->node);

	if (next && !vbefore(v, rb_entry(next, struct sched_entity, node)->vruntime)) {
		tl_erase(q, se);
		se->vruntime = v;
		tl_insert(q, se);
	} else {
		se->vruntime = v;
	}
}

/* ---- busy entities: nothing to pick in them ---- */

/* A thread some CPU runs, or a group whose queued entities are all busy
 * (an empty group's too: it is about to leave its queue). */
static bool entity_busy(const struct sched_entity *se)
{
	if (!se->my_q)
		return se->nr_running > 0;
	return se->my_q->nr_busy >= se->my_q->nr_queued;
}

/* se's busy flag may have changed: update it and its queue's count, and
 * so on up while the flags change. On one CPU this is a walk up the
 * running chain at each pick and put_prev. */
static void busy_refresh(struct sched_entity *se)
{
	for (; se; se = parent_entity(se)) {
		bool b = entity_busy(se);
		if (b == se->busy)
			return;
		se->busy = b;
		if (!se->on_rq)
			return; /* counted when it is queued again */
		if (b)
			se->parent->nr_busy++;
		else
			se->parent->nr_busy--;
	}
}

/* The leftmost entity of q that is neither busy nor skip. Busy entities
 * of one queue have disjoint running chains below them, so at most one
 * per running chain comes before it: one per CPU, and the few a pick
 * holds counted while it passes them over (core.c, SCHED_SKIP_MAX). */
static struct sched_entity *first_pickable(const struct sched_queue *q, const struct sched_entity *skip)
{
	for (struct rb_node *n = rb_first_cached(&q->timeline); n; n = rb_next(n)) {
		struct sched_entity *e = rb_entry(n, struct sched_entity, node);
		if (e != skip && !e->busy)
			return e;
	}
	return NULL;
}

bool sched_queue_pickable(const struct sched_queue *q)
{
	return q->nr_busy < q->nr_queued;
}

/* ---- init ---- */

void sched_queue_init(struct sched_queue *q, struct sched_entity *owner)
{
	rb_root_cached_init(&q->timeline);
	q->min_vruntime = 0;
	q->nr_queued = 0;
	q->nr_busy = 0;
	q->load = 0;
	q->owner = owner;
}

void sched_entity_init(struct sched_entity *se, struct sched_queue *parent,
		       struct sched_queue *my_q, uint32_t weight)
{
	se->node.parent = se->node.left = se->node.right = NULL;
	se->node.color = RB_BLACK;
	se->vruntime = parent->min_vruntime;
	se->weight = MAX(1u, weight);
	se->on_rq = false;
	se->parent = parent;
	se->my_q = my_q;
	se->exec_start = 0;
	se->sum_exec = 0;
	se->throttled = false;
	se->nr_running = 0;
	se->busy = false;
}

/* ---- queue membership ---- */

/* A waking entity may lag the floor by at most the bonus: sleep earns a
 * little latency credit, never a long CPU monopoly. */
static void place_entity(struct sched_queue *q, struct sched_entity *se)
{
	uint64_t floor = q->min_vruntime - SCHED_SLEEPER_BONUS_NS;

	if (vbefore(se->vruntime, floor))
		se->vruntime = floor;
}

static void queue_add(struct sched_queue *q, struct sched_entity *se)
{
	place_entity(q, se);
	tl_insert(q, se);
	se->on_rq = true;
	q->nr_queued++;
	q->load += se->weight;
	se->busy = entity_busy(se);
	q->nr_busy += se->busy;
	update_min_vruntime(q);
	if (!se->my_q)
		sched_psi_queued(se, 1);
	busy_refresh(q->owner);
}

/* A running thread's chain is put back first (sched_dequeue); a running
 * group (throttled) keeps its chains' counts until their CPUs put them
 * back. */
static void queue_remove(struct sched_queue *q, struct sched_entity *se)
{
	tl_erase(q, se);
	se->on_rq = false;
	q->nr_queued--;
	q->load -= se->weight;
	q->nr_busy -= se->busy;
	update_min_vruntime(q);
	if (!se->my_q)
		sched_psi_queued(se, -1);
	busy_refresh(q->owner);
}

/* Queues e and each ancestor group that was not runnable, stopping at a
 * runnable one (its own weight in its parent does not depend on how many
 * children run) or at a throttled one (it stays out). */
static void enqueue_chain(struct sched_entity *e)
{
	for (;;) {
		queue_add(e->parent, e);
		e = parent_entity(e);
		if (!e || e->on_rq || e->throttled)
			return;
	}
}

/* Removes e (runnable, not a running thread) and each ancestor group its
 * removal empties: work conservation, an idle group leaves its parent's
 * queue. */
static void dequeue_chain(struct sched_entity *e)
{
	for (; e && e->on_rq; e = e->parent->owner) {
		struct sched_queue *q = e->parent;
		queue_remove(q, e);
		if (q->nr_queued)
			return;
	}
}

void sched_enqueue(struct sched_entity *se)
{
	if (sched_entity_is_group(se) || se->on_rq)
		return;
	enqueue_chain(se);
}

void sched_dequeue(struct sched_entity *se)
{
	if (sched_entity_is_group(se) || !se->on_rq)
		return;
	if (sched_entity_running(se))
		sched_put_prev(se);
	dequeue_chain(se);
}

void sched_throttle(struct sched_entity *group)
{
	if (group->throttled)
		return;
	group->throttled = true;
	if (!group->on_rq)
		return;
	dequeue_chain(group);
}

void sched_unthrottle(struct sched_entity *group)
{
	if (!group->throttled)
		return;
	group->throttled = false;
	if (!group->on_rq && group->my_q->nr_queued)
		enqueue_chain(group);
}

/* ---- running chains ---- */

/* One more (+1) or one fewer (-1) CPU runs leaf, through each ancestor. */
static void chain_run(struct sched_entity *leaf, int delta)
{
	for (struct sched_entity *e = leaf; e; e = parent_entity(e))
		e->nr_running += (uint32_t)delta;
	busy_refresh(leaf);
}

void sched_put_prev(struct sched_entity *leaf)
{
	/* A waiting thread may share ancestors with a running chain: those
	 * must stay counted, so do nothing unless leaf itself runs. */
	if (!sched_entity_running(leaf))
		return;
	chain_run(leaf, -1);
}

struct sched_entity *sched_pick_next(struct sched_queue *root, struct sched_entity *prev, uint64_t now_ns)
{
	struct sched_entity *e = NULL;

	if (prev)
		sched_put_prev(prev);
	/* A group that is not busy has a pickable entity in its queue, so
	 * each level has one until we reach a thread. */
	for (struct sched_queue *q = root; q; q = e->my_q) {
		e = first_pickable(q, NULL);
		if (!e)
			return NULL;
		e->exec_start = now_ns;
	}
	chain_run(e, 1);
	return e;
}

/* ---- accounting and preemption ---- */

void sched_account(struct sched_entity *leaf, uint64_t delta_ns)
{
	for (struct sched_entity *e = leaf; e; e = parent_entity(e)) {
		uint64_t v = e->vruntime + to_vruntime(delta_ns, e->weight);

		e->sum_exec += delta_ns;
		if (e->on_rq)
			tl_advance(e->parent, e, v);
		else
			e->vruntime = v;
		update_min_vruntime(e->parent);
	}
}

/* LATENCY scaled by the leaf's share at each level, floored at MIN_GRAN.
 * slice * weight < 2^23 * 2^32 cannot overflow (nor the remainder's
 * r * SCHED_NICE0_WEIGHT < 2^32 * 2^20 in to_vruntime). */
static uint64_t leaf_slice(const struct sched_entity *leaf)
{
	uint64_t slice = SCHED_LATENCY_NS;

	for (const struct sched_entity *e = leaf; e; e = parent_entity(e))
		if (e->parent->load > e->weight)
			slice = slice * e->weight / e->parent->load;
	return MAX(slice, SCHED_MIN_GRAN_NS);
}

uint64_t sched_slice_ns(const struct sched_entity *leaf)
{
	uint64_t slice = SCHED_LATENCY_NS;

	for (const struct sched_entity *e = leaf; e; e = parent_entity(e)) {
		/* one not queued now is counted as if it were (Linux's sched_slice) */
		uint64_t load = e->parent->load + (e->on_rq ? 0 : e->weight);
		if (load > e->weight)
			slice = slice * e->weight / load;
	}
	return MAX(slice, SCHED_MIN_GRAN_NS);
}

/* Is some pickable entity at a level of leaf's running chain behind the
 * chain's entity there by more than the granularity (0 once the slice is
 * used up)? */
static bool sched_chain_behind(struct sched_entity *leaf, bool slice_used)
{
	for (struct sched_entity *e = leaf; e; e = parent_entity(e)) {
		struct sched_entity *first = first_pickable(e->parent, e);
		int64_t gran;

		if (!first)
			continue;
		gran = slice_used ? 0 :
			(int64_t)to_vruntime(SCHED_WAKEUP_GRAN_NS, e->weight);
		if (vdiff(e->vruntime, first->vruntime) > gran)
			return true;
	}
	return false;
}

bool sched_should_preempt(struct sched_entity *leaf, uint64_t now_ns)
{
	/* LAB 03 BEGIN */
	uint64_t ran;

	if (!sched_entity_running(leaf))
		return true;
	ran = now_ns - leaf->exec_start;
	if (ran < SCHED_MIN_GRAN_NS)
		return false;
	return sched_chain_behind(leaf, ran >= leaf_slice(leaf));
	/* LAB 03 STUB
	(void)now_ns;
	(void)leaf_slice;
	return !sched_entity_running(leaf);
	LAB 03 END */
}

bool sched_behind_now(struct sched_entity *leaf)
{
	if (!sched_entity_running(leaf))
		return true;
	return sched_chain_behind(leaf, true);
}

/* se and every ancestor are runnable: none is under a throttled group. */
static bool sched_chain_queued(const struct sched_entity *se)
{
	for (; se; se = parent_entity(se))
		if (!se->on_rq)
			return false;
	return true;
}

static int entity_depth(const struct sched_entity *se)
{
	int d = 0;
	for (; se; se = parent_entity(se))
		d++;
	return d;
}

bool sched_wakeup_preempts(struct sched_entity *curr, struct sched_entity *woken, uint64_t pending_ns)
{
	if (!sched_entity_running(curr))
		return true;
	if (!sched_chain_queued(woken))
		return false; /* under a throttled group: it cannot run now */
	int dc = entity_depth(curr), dw = entity_depth(woken);
	for (; dc > dw; dc--)
		curr = parent_entity(curr);
	for (; dw > dc; dw--)
		woken = parent_entity(woken);
	while (curr->parent != woken->parent) {
		curr = parent_entity(curr);
		woken = parent_entity(woken);
	}
	if (curr == woken)
		return false; /* the woken thread's group is the running one */
	return vdiff(curr->vruntime + to_vruntime(pending_ns, curr->weight), woken->vruntime) >
	       (int64_t)to_vruntime(SCHED_WAKEUP_GRAN_NS, woken->weight);
}

/* ---- reconfiguration ---- */

void sched_set_weight(struct sched_entity *se, uint32_t weight)
{
	weight = MAX(1u, weight);
	if (se->on_rq)
		se->parent->load = se->parent->load - se->weight + weight;
	se->weight = weight;
}

void sched_move(struct sched_entity *se, struct sched_queue *to)
{
	struct sched_queue *from = se->parent;
	bool runnable = se->on_rq, running = sched_entity_running(se);

	if (sched_entity_is_group(se) || to == from)
		return;
	if (runnable)
		sched_dequeue(se);
	/* Keep the offset from the floor: the two queues' vruntime bases
	 * are unrelated, only distances within a queue mean anything. */
	se->vruntime = se->vruntime - from->min_vruntime + to->min_vruntime;
	se->parent = to;
	if (runnable)
		sched_enqueue(se);
	/* It runs on only if its new path is queued all the way up: under a
	 * throttled group (cpu.max) it waits in that group's queue, and the
	 * caller picks again (issue 16: making that chain curr left the
	 * root's curr a group out of every queue, and the next pick faulted). */
	if (running && sched_chain_queued(se))
		chain_run(se, 1);
}

/* sched_yield: at the lowest level of the running chain where another
 * entity waits, move the running entity just behind the first waiter, so
 * that waiter runs next. The yielder loses only the lead it had, not its
 * share. */
void sched_yield_entity(struct sched_entity *leaf)
{
	for (struct sched_entity *se = leaf; se; se = parent_entity(se)) {
		if (!sched_entity_running(se))
			return;
		struct sched_entity *first = first_pickable(se->parent, se);
		if (first) {
			if (vbefore(first->vruntime, se->vruntime))
				return;
			if (se->on_rq)
				tl_advance(se->parent, se, first->vruntime + 1);
			else /* a throttled group: out of its queue */
				se->vruntime = first->vruntime + 1;
			return;
		}
	}
}
