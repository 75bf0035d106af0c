/* The block layer: a library linked into each disk driver (docs/block.md).
 * A driver describes its disk in a struct blk_dev with one operation,
 * queue_rq; the library serves the disk's endpoint (the file protocol with
 * byte offsets, read-modify-write of partial sectors) and turns every
 * client call into sector requests that all pass through blk_submit, where
 * the per-cgroup I/O scheduler (blk_sched.c: io.max, io.weight) orders
 * them. Each request carries the
 * cgroup and pid of the process it is done for, from the kernel's IPC
 * identity, never from the client's message. */
#ifndef ARBOR_BLK_H
#define ARBOR_BLK_H

#include <stdbool.h>
#include <stdint.h>
#include "arbor/syscalls.h"
#include "abi/blk.h"
#include "abi/pcache.h"
#include "arbor/srvlock.h"

#define BLK_SECTOR 512u

/* The server's threads' locks are futex mutexes (arbor/srvlock.h): a
 * waiter sleeps rather than spinning, so a holder serving a call on a
 * throttled caller's context does not make waiters burn their callers'
 * time (docs/ipc.md). Threads block only in IPC and on notifications,
 * never while holding one. */

enum blk_op { BLK_OP_READ, BLK_OP_WRITE, BLK_OP_FLUSH };

/* Whom a request is for: the kernel-attested caller. */
struct blk_who {
	uint64_t cgroup_id;
	int32_t pid;
};

struct blk_cg;
struct blk_req {
	enum blk_op op;
	uint64_t sector;	/* in BLK_SECTOR units */
	uint32_t bytes;		/* a multiple of BLK_SECTOR (0 for a flush) */
	void *buf;		/* DMA memory: virtual and physical address */
	uint64_t phys;
	/* or (nsg not 0) these physical pieces, bytes in all: a page
	 * cache fill's frames (BLK_READ_GRANT, ipc_dma_grant) */
	const struct pcache_dma_seg *sg;
	uint32_t nsg;
	struct blk_who who;
	int status;		/* 0 or -EIO, valid once done */
	volatile int done;
	int notif;		/* signalled (bit 1) on completion */
	struct blk_req *next;	/* the pending list */
	/* io.max (blk_queue.c): its buckets were charged; else not to be
	 * offered before this clock_ns (0: any time) */
	bool charged;
	uint64_t not_before;
	/* BLK_BUDGET (blk_budget): a pseudo-request, never sent to the
	 * device, that waits its turn (io.max, io.weight) for bytes of its
	 * cgroup's writes to come; prepaid: a write that budget paid for */
	bool budget, prepaid;
	struct blk_cg *cg;	/* io.weight (blk_sched.c): its cgroup's entry */
};

/* io.weight (blk_sched.c): a requesting cgroup's place in the fair queue. */
#define BLK_CGS 64		/* cgroups active at once on a disk */
struct blk_cg {
	uint64_t id;		/* the cgroup id requests carry */
	uint64_t vtime;		/* virtual time: cost / share, summed */
	uint64_t fetched_ns;	/* when path was asked (0: free entry) */
	uint32_t active;	/* requests pending or in flight */
	uint32_t inflight;	/* of them, at the device */
	uint64_t last_ns;	/* its last request entered or completed */
	uint64_t think_ns;	/* mean gap between going idle and its next request */
	bool in_set;		/* counted in the shares (busy) */
	uint32_t hweight;	/* share of the disk, BLK_HW_ONE = all */
	int depth;
	struct blkio_node path[BLKIO_DEPTH_MAX];	/* top-level cgroup down */
};
struct blk_sched {
	struct blk_cg cg[BLK_CGS];
	uint64_t vnow;		/* the vtime of the last dispatch */
	uint64_t now;		/* the clock at the last update */
	bool dirty;		/* shares to recompute */
};

/* Write budget a cgroup took in advance (BLK_BUDGET, blk_queue.c). */
#define BLK_CREDITS 16
struct blk_credit {
	uint64_t cgroup_id;
	uint64_t bytes;		/* paid for, not written yet (0, claimed 0, holds 0: free) */
	uint64_t claimed;	/* of them, what budget calls answered for their writes */
	/* granted budgets whose writes are still to come count as in flight
	 * in the fair queue (blk_sched.c), at most BLK_BUDGET_HOLD_NS each */
	struct blk_cg *held;
	uint32_t holds;
	uint64_t held_ns;
};

struct blk_dev;
struct blk_ops {
	/* Starts r on the device: 0, or -EBUSY when it has no room now (the
	 * request stays queued and is offered again after a completion). */
	int (*queue_rq)(struct blk_dev *d, struct blk_req *r);
};

struct blk_dev {
	char name[8];		/* "vda": published as "blk.vda", /dev/vda */
	unsigned major, minor;
	uint64_t sectors;	/* capacity in BLK_SECTOR units */
	bool read_only, can_flush;
	/* scatter-gather: data pieces per request at most (0: the driver
	 * takes one contiguous buffer only: no BLK_READ_GRANT) and bytes
	 * per piece at most */
	uint32_t sg_max, sg_bytes;
	const struct blk_ops *ops;
	void *priv;		/* the driver's */
	/* the queue (blk_queue.c) */
	srvlock_t lock;
	struct blk_req *pending, *pending_tail;
	unsigned inflight;
	bool io_cg;		/* the kernel's io controller knows the disk */
	int timer_notif;	/* wakes the throttle timer thread */
	uint64_t next_due;	/* the earliest not_before pending (0: none) */
	struct blk_sched sched;	/* io.weight */
	struct blk_credit credit[BLK_CREDITS];	/* io.max budget paid in advance */
};

/* blk_queue.c: submission and completion. blk_queue_start registers the
 * disk with the kernel's io controller and starts the thread that
 * dispatches throttled requests when they are due: 0 or -errno. */
int blk_queue_start(struct blk_dev *d);
void blk_submit(struct blk_dev *d, struct blk_req *r);
void blk_complete(struct blk_dev *d, struct blk_req *r, int status);
/* Waits until every request in rs[0..n) on d is done (and reports each
 * to the io controller): 0 or the first error. */
int blk_wait(struct blk_dev *d, struct blk_req *rs, int n);
/* BLK_BUDGET: waits until who's cgroup may write bytes under io.max and
 * io.weight, as a write of that many would (r, with its notif, is the
 * worker's request to wait with), and takes that in advance (its advance
 * topped up to bytes): its next writes up to that many go to the device
 * without waiting for either, ahead of other requests. 1 when io.max held
 * it back (the cgroup is being throttled), else 0. */
int blk_budget(struct blk_dev *d, struct blk_req *r, const struct blk_who *who, uint64_t bytes);

/* blk_sched.c, with d->lock held: r becomes pending (enter) and has
 * completed (leave); update recomputes shares; charge is r's dispatch. */
void blk_sched_enter(struct blk_dev *d, struct blk_req *r);
void blk_sched_leave(struct blk_dev *d, struct blk_req *r);
void blk_sched_update(struct blk_dev *d);
void blk_sched_charge(struct blk_dev *d, struct blk_req *r);
/* Whether r, the pending request of the smallest vtime, may go now: not
 * while a cgroup with requests in flight lags far behind it. */
bool blk_sched_may_go(struct blk_dev *d, const struct blk_req *r, uint64_t *due);

/* blk_srv.c: serves d forever (workers, the endpoint, open files);
 * returns only if it cannot start. */
int blk_serve(struct blk_dev *d);

#endif
