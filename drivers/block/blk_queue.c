/* Request submission and completion. blk_submit is the single entry for
 * every request of every client, so that the io controller can later put
 * its per-cgroup scheduling here (io.max throttling, io.weight shares,
 * io.stat counts: r->who says whose request it is). Today the pending list
 * is dispatched in arrival order as long as the device takes requests. */
#include <errno.h>
#include "blk.h"

static void blk_dispatch(struct blk_dev *d)
{
	blk_lock(&d->lock);
	while (d->pending) {
		struct blk_req *r = d->pending;
		if (d->ops->queue_rq(d, r) != 0)
			break;	/* full: retried when a request completes */
		d->pending = r->next;
		if (!d->pending)
			d->pending_tail = NULL;
		d->inflight++;
	}
	blk_unlock(&d->lock);
}

void blk_submit(struct blk_dev *d, struct blk_req *r)
{
	r->done = 0;
	r->status = 0;
	r->next = NULL;
	blk_lock(&d->lock);
	if (d->pending_tail)
		d->pending_tail->next = r;
	else
		d->pending = r;
	d->pending_tail = r;
	blk_unlock(&d->lock);
	blk_dispatch(d);
}

/* From the driver's interrupt thread, without the driver's locks held. */
void blk_complete(struct blk_dev *d, struct blk_req *r, int status)
{
	blk_lock(&d->lock);
	d->inflight--;
	blk_unlock(&d->lock);
	r->status = status;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	sys_notif_signal(r->notif, 1);
	blk_dispatch(d);
}

int blk_wait(struct blk_req *rs, int n)
{
	int err = 0;
	for (int i = 0; i < n; i++) {
		/* done is set before the signal, so no wake-up is lost */
		while (!__atomic_load_n(&rs[i].done, __ATOMIC_ACQUIRE))
			sys_notif_wait(rs[i].notif, 0);
		if (rs[i].status && !err)
			err = rs[i].status;
	}
	return err;
}
