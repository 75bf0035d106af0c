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
 * its buckets' debt lasts longer: a raised or removed io.max applies to
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

/* Whether r may go to the device now under io.max (charging the
 * buckets if so); otherwise r->not_before says when to ask again. An
 * error from the kernel (a disk it does not know) lets r go: accounting
 * must never stop I/O. */
static bool blk_may_go(struct blk_dev *d, struct blk_req *r, uint64_t *now)
{
	if (r->op == BLK_OP_FLUSH || r->charged || !d->io_cg)
		return true;
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
	blk_sched_update(d);
	while (d->inflight < BLK_DEPTH) {
		struct blk_req *prev = NULL, **link = blk_pick(d, skip, nskip, &prev);
		if (!link)
			break;
		struct blk_req *r = *link;
		uint64_t idle_due = 0;
		if (!blk_sched_may_go(d, r, &idle_due)) {
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
	r->charged = false;
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
