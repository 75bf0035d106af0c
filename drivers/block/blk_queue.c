/* Request submission and completion, with the io controller's io.max.
 * blk_submit is the single entry for every request of every client.
 * The kernel keeps io.max and its token buckets (cgroup/controllers/io_dev.c): before
 * a read or write goes to the device, blk_dispatch asks it whether the
 * requester's cgroup (r->who, from the kernel's IPC identity) and all its
 * ancestors may pass now; if not, the request waits in the pending list
 * until the time the kernel named, and the timer thread dispatches it
 * then. Requests of other cgroups pass it (work-conserving); within one
 * cgroup and direction the order stays FIFO. Each completed request is
 * reported to the kernel for io.stat (by blk_wait). Flushes are neither
 * limited nor counted (docs/block.md). */
#include <errno.h>
#include "blk.h"

#define BLK_SKIP_MAX 32	/* throttled (cgroup, direction) pairs per pass */
/* Requests in flight at most: beyond this they wait in the pending list,
 * where io.weight orders them (a deep device queue would serve them in
 * arrival order, whatever the weights). */
#define BLK_DEPTH 8
/* A held request asks the kernel again after at most this long, even if
 * its buckets fill later: a raised or removed io.max applies to
 * requests already waiting within this time (not at the old limit's
 * time, which at a tiny limit may be minutes away). The kernel charges
 * nothing while it holds a request, so asking again costs a system call
 * per held cgroup and direction, 50 a second at most. */
#define BLK_REASK_NS 20000000ull

long __arbor_thread_start(long (*fn)(void *), void *arg);

struct blk_skip {
	uint64_t cgroup_id;
	enum blk_op op;
};

static bool blk_skipped(const struct blk_skip *s, int n, const struct blk_req *r)
{
	for (int i = 0; i < n; i++)
		if (s[i].cgroup_id == r->who.cgroup_id && s[i].op == r->op)
			return true;
	return false;
}

/* ---- write budget taken in advance (BLK_BUDGET) ----
 * A file system's writeback waits for its owner's turn without its own
 * locks (docs/writeback.md): a budget request of bytes waits in the
 * pending list as a write of that many would, for io.max (its buckets are
 * charged) and for io.weight (its cgroup's vtime moves on by the cost),
 * and is then done at once, leaving the bytes as the cgroup's advance.
 * Its writes that follow take from the advance instead: they go to the
 * device ahead of the others, neither throttled nor charged again. */

/* A granted budget holds its cgroup's place in the fair queue (counted in
 * flight, so that a cgroup behind in virtual time holds the others back,
 * blk_sched_may_go) until its writes came, its cgroup asks again, or
 * this long: long enough for a file system to make the batch's writes
 * after its turn, so that two cgroups' writebacks alternate by their
 * weights rather than by who asks first. */
#define BLK_BUDGET_HOLD_NS 50000000ull

/* c's granted budgets stop counting as in flight. d->lock held. */
static void blk_credit_release(struct blk_credit *c)
{
	uint64_t now = (uint64_t)sys_clock_ns();
	for (; c->holds; c->holds--) {
		c->held->inflight--;
		c->held->active--;
		c->held->last_ns = now;
	}
}

/* The advance entry of cgroup id, or (make) a free or the smallest one
 * (an advance lost is only paid twice). d->lock held. */
static struct blk_credit *blk_credit_of(struct blk_dev *d, uint64_t id, bool make)
{
	struct blk_credit *least = &d->credit[0];
	for (int i = 0; i < BLK_CREDITS; i++) {
		struct blk_credit *c = &d->credit[i];
		if ((c->bytes || c->claimed || c->holds) && c->cgroup_id == id)
			return c;
		if (c->bytes + c->claimed + c->holds < least->bytes + least->claimed + least->holds)
			least = c;
	}
	if (!make)
		return NULL;
	blk_credit_release(least);
	*least = (struct blk_credit){ .cgroup_id = id };
	return least;
}

/* Releases the holds older than BLK_BUDGET_HOLD_NS; the earliest time
 * another one is due to be (0: none). d->lock held. */
static uint64_t blk_credit_expire(struct blk_dev *d, uint64_t now)
{
	uint64_t due = 0;
	for (int i = 0; i < BLK_CREDITS; i++) {
		struct blk_credit *c = &d->credit[i];
		if (!c->holds)
			continue;
		if (now - c->held_ns >= BLK_BUDGET_HOLD_NS)
			blk_credit_release(c);
		else if (!due || c->held_ns + BLK_BUDGET_HOLD_NS < due)
			due = c->held_ns + BLK_BUDGET_HOLD_NS;
	}
	return due;
}

/* Whether write r is paid for by its cgroup's advance. d->lock held. */
static bool blk_credit_covers(struct blk_dev *d, const struct blk_req *r)
{
	struct blk_credit *c = r->op == BLK_OP_WRITE && !r->budget ? blk_credit_of(d, r->who.cgroup_id, false) : NULL;
	return c && c->bytes >= r->bytes;
}

/* Write r takes its bytes from its cgroup's advance (it covers them). */
static void blk_credit_take(struct blk_dev *d, const struct blk_req *r)
{
	struct blk_credit *c = blk_credit_of(d, r->who.cgroup_id, false);
	c->bytes -= r->bytes;
	c->claimed = c->claimed > r->bytes ? c->claimed - r->bytes : 0;
	if (!c->claimed) /* the budgets' writes came */
		blk_credit_release(c);
}

/* The first pending request an advance pays for (*prevp: the one
 * before it), or NULL. d->lock held. */
static struct blk_req **blk_pick_prepaid(struct blk_dev *d, struct blk_req **prevp)
{
	struct blk_req *prev = NULL;
	for (struct blk_req **link = &d->pending; *link; prev = *link, link = &(*link)->next)
		if (blk_credit_covers(d, *link)) {
			*prevp = prev;
			return link;
		}
	return NULL;
}

/* Budget request r passed io.max and io.weight: done now, its bytes
 * added to the cgroup's advance, claimed by its caller. d->lock held. */
static void blk_budget_grant(struct blk_dev *d, struct blk_req *r)
{
	struct blk_credit *c = blk_credit_of(d, r->who.cgroup_id, true);
	c->bytes += r->bytes;
	c->claimed += r->bytes;
	blk_sched_charge(d, r); /* in flight (and active) until released */
	if (c->holds && c->held != r->cg)
		blk_credit_release(c);
	c->held = r->cg;
	c->holds++;
	c->held_ns = (uint64_t)sys_clock_ns();
	r->status = 0;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	sys_notif_signal(r->notif, 1);
}

/* Each call claims its bytes of the advance for the writes that follow
 * it: what is paid and not claimed (a batch smaller than its budget)
 * serves the next call, but two calls at once (two writebacks of one
 * cgroup) each pay for their own. 1 when io.max held the budget back
 * (the cgroup is being throttled), else 0. */
int blk_budget(struct blk_dev *d, struct blk_req *r, const struct blk_who *who, uint64_t bytes)
{
	srvlock_lock(&d->lock);
	struct blk_credit *c = blk_credit_of(d, who->cgroup_id, false);
	if (c) /* asking again: the last budget's batch is over */
		blk_credit_release(c);
	uint64_t spare = c && c->bytes > c->claimed ? c->bytes - c->claimed : 0;
	uint64_t take = spare < bytes ? spare : bytes;
	if (c)
		c->claimed += take;
	srvlock_unlock(&d->lock);
	if (take == bytes || !d->io_cg)
		return 0;
	*r = (struct blk_req){ .op = BLK_OP_WRITE, .bytes = (uint32_t)(bytes - take), .who = *who,
			       .notif = r->notif, .budget = true };
	blk_submit(d, r);
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
		sys_notif_wait(r->notif, 0);
	r->budget = false;
	return r->not_before ? 1 : 0; /* io.max held it back at least once */
}

/* Whether r may go to the device now under io.max (charging the
 * buckets if so); otherwise r->not_before says when to ask again. An
 * error from the kernel (a disk it does not know) lets r go: accounting
 * must never stop I/O. A write its cgroup's advance covers goes (and
 * takes it). */
static bool blk_may_go(struct blk_dev *d, struct blk_req *r, uint64_t *now)
{
	if (r->op == BLK_OP_FLUSH || r->charged || !d->io_cg)
		return true;
	if (blk_credit_covers(d, r)) {
		blk_credit_take(d, r);
		r->charged = r->prepaid = true;
		return true;
	}
	if (r->not_before) {
		if (!*now)
			*now = (uint64_t)sys_clock_ns();
		if (*now < r->not_before)
			return false;
	}
	long wait = sys_blkio_throttle(r->who.cgroup_id, d->major, d->minor, r->op == BLK_OP_WRITE, r->bytes);
	if (wait > 0) {
		if (!*now)
			*now = (uint64_t)sys_clock_ns();
		r->not_before = *now + ((uint64_t)wait < BLK_REASK_NS ? (uint64_t)wait : BLK_REASK_NS);
		return false;
	}
	r->charged = true;
	return true;
}

/* The pending request to send next: the first (FIFO within a cgroup)
 * of the cgroup with the smallest vtime, among those io.max does not
 * hold; NULL if none. *prevp is the request before it. */
static struct blk_req **blk_pick(struct blk_dev *d, const struct blk_skip *skip, int nskip,
				 struct blk_req **prevp)
{
	struct blk_req **best = NULL, **link = &d->pending, *prev = NULL;
	for (; *link; prev = *link, link = &(*link)->next) {
		struct blk_req *r = *link;
		if (blk_skipped(skip, nskip, r) || (best && (*best)->cg->vtime <= r->cg->vtime))
			continue;
		best = link;
		*prevp = prev;
	}
	return best;
}

static void blk_dispatch(struct blk_dev *d)
{
	struct blk_skip skip[BLK_SKIP_MAX];
	int nskip = 0;
	uint64_t now = 0, due = 0;
	srvlock_lock(&d->lock);
	uint64_t was_due = d->next_due;
	due = blk_credit_expire(d, (uint64_t)sys_clock_ns());
	blk_sched_update(d);
	while (d->inflight < BLK_DEPTH) {
		/* what an advance paid for goes first, as admitted already */
		struct blk_req *prev = NULL, **link = blk_pick_prepaid(d, &prev);
		bool paid = link != NULL;
		if (!link)
			link = blk_pick(d, skip, nskip, &prev);
		if (!link)
			break;
		struct blk_req *r = *link;
		uint64_t idle_due = 0;
		if (!paid && !blk_sched_may_go(d, r, &idle_due)) {
			if (idle_due && (!due || idle_due < due))
				due = idle_due;	/* the timer thread dispatches then */
			break;
		}
		if (!blk_may_go(d, r, &now)) {
			if (!due || r->not_before < due)
				due = r->not_before;
			if (nskip == BLK_SKIP_MAX)
				break;	/* the rest on the next pass */
			skip[nskip++] = (struct blk_skip){ r->who.cgroup_id, r->op };
			continue;
		}
		if (r->budget) { /* its turn: nothing for the device */
			*link = r->next;
			if (d->pending_tail == r)
				d->pending_tail = prev;
			blk_budget_grant(d, r);
			continue;
		}
		if (d->ops->queue_rq(d, r) != 0)
			break;	/* full: retried when a request completes */
		*link = r->next;
		if (d->pending_tail == r)
			d->pending_tail = prev;
		d->inflight++;
		blk_sched_charge(d, r);
	}
	d->next_due = due;
	srvlock_unlock(&d->lock);
	if (due && (!was_due || due < was_due))
		sys_notif_signal(d->timer_notif, 1);	/* sooner than it waits for */
}

/* Dispatches throttled requests when they are due. */
static long blk_timer_thread(void *arg)
{
	struct blk_dev *d = arg;
	for (;;) {
		uint64_t due = __atomic_load_n(&d->next_due, __ATOMIC_RELAXED);
		uint64_t now = (uint64_t)sys_clock_ns();
		if (due && due <= now) {
			blk_dispatch(d);
			continue;
		}
		sys_notif_wait(d->timer_notif, due ? due - now : 0);
		blk_dispatch(d);
	}
	return 0;
}

int blk_queue_start(struct blk_dev *d)
{
	d->io_cg = sys_blkio_register(d->major, d->minor) == 0;
	long n = sys_notif_create();
	if (n < 0)
		return (int)n;
	d->timer_notif = (int)n;
	return __arbor_thread_start(blk_timer_thread, d) < 0 ? -ENOMEM : 0;
}

void blk_submit(struct blk_dev *d, struct blk_req *r)
{
	r->done = 0;
	r->status = 0;
	r->next = NULL;
	r->charged = r->prepaid = false;
	r->not_before = 0;
	srvlock_lock(&d->lock);
	blk_sched_enter(d, r);
	if (d->pending_tail)
		d->pending_tail->next = r;
	else
		d->pending = r;
	d->pending_tail = r;
	srvlock_unlock(&d->lock);
	blk_dispatch(d);
}

/* From the driver's interrupt thread, without the driver's locks held. */
void blk_complete(struct blk_dev *d, struct blk_req *r, int status)
{
	srvlock_lock(&d->lock);
	d->inflight--;
	blk_sched_leave(d, r);
	srvlock_unlock(&d->lock);
	r->status = status;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	sys_notif_signal(r->notif, 1);
	blk_dispatch(d);
}

/* The waiting worker, not the interrupt thread, reports each completed
 * request for io.stat: the count is in before the client's call returns,
 * and completions are not slowed by it (measured: reporting from the
 * interrupt thread cost a third of the 4 KiB request rate). */
int blk_wait(struct blk_dev *d, struct blk_req *rs, int n)
{
	int err = 0;
	for (int i = 0; i < n; i++) {
		/* done is set before the signal, so no wake-up is lost */
		while (!__atomic_load_n(&rs[i].done, __ATOMIC_ACQUIRE))
			sys_notif_wait(rs[i].notif, 0);
		if (d->io_cg && rs[i].op != BLK_OP_FLUSH)
			(void)sys_blkio_done(rs[i].who.cgroup_id, d->major, d->minor, rs[i].op == BLK_OP_WRITE,
					     rs[i].bytes);
		if (rs[i].status && !err)
			err = rs[i].status;
	}
	return err;
}
