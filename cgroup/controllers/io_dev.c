/* The io controller's kernel side of the block layer's calls: the device
 * table, finding a cgroup by the id a request carries, io.stat counting
 * and io.max token buckets along the whole ancestor path (blk-throttle's
 * model: per device and direction, in bytes/s and ios/s; a request must
 * pass every ancestor's limit and waits, never fails). */
#include "io.h"
#include "controller.h"
#include "abi/errno.h"
#include "heap.h"
#include "percpu_alloc.h"
#include "abi/blk.h"

extern struct cg_controller cg_io;

#define NS 1000000000ull
#define IO_CACHE 16

static uint32_t io_devs[IO_DEVS_MAX];	/* major << 20 | minor, 0: free */

/* Recently used cgroup ids (cg_lock): most requests come from a few
 * cgroups, so the tree is walked only on a miss. rmdir forgets. */
static struct { uint64_t id; struct cgroup *cg; } io_cache[IO_CACHE];

static uint32_t io_devt(uint32_t major, uint32_t minor)
{
	return major << 20 | (minor & 0xfffff);
}

int io_dev_index(uint32_t major, uint32_t minor)
{
	if (major == 0 || major >= 4096 || minor >= (1u << 20))
		return -1;
	for (int i = 0; i < IO_DEVS_MAX; i++)
		if (__atomic_load_n(&io_devs[i], __ATOMIC_ACQUIRE) == io_devt(major, minor))
			return i;
	return -1;
}

bool io_dev_number(int i, uint32_t *major, uint32_t *minor)
{
	uint32_t d = __atomic_load_n(&io_devs[i], __ATOMIC_ACQUIRE);
	*major = d >> 20;
	*minor = d & 0xfffff;
	return d != 0;
}

int io_dev_register(uint32_t major, uint32_t minor)
{
	int r = -ENOSPC;
	cg_lock();
	int i = io_dev_index(major, minor);
	if (i >= 0) {
		r = i;	/* a restarted driver: its device keeps its slot */
	} else {
		for (i = 0; i < IO_DEVS_MAX && r < 0; i++)
			if (!io_devs[i]) {
				__atomic_store_n(&io_devs[i], io_devt(major, minor), __ATOMIC_RELEASE);
				r = i;
			}
	}
	cg_unlock();
	return r;
}

struct io_dev_state *io_dev_state_get(struct cgroup *cg, int i)
{
	struct io_state *s = io_of(cg);
	struct io_dev_state *d = __atomic_load_n(&s->dev[i], __ATOMIC_ACQUIRE);
	if (d)
		return d;
	struct io_dev_state *fresh = kzalloc(sizeof(*fresh));
	/* not charged: Linux allocates a blkg's per-CPU stats unaccounted */
	if (fresh && !(fresh->stat = percpu_alloc(sizeof(*fresh->stat), NULL))) {
		kfree(fresh);
		fresh = NULL;
	}
	if (!fresh)
		return NULL;
	for (int k = 0; k < IO_LIMITS; k++)
		fresh->limit[k] = IO_UNLIMITED;
	if (!__atomic_compare_exchange_n(&s->dev[i], &d, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		percpu_free(fresh->stat);
		kfree(fresh);	/* another caller made it first */
		return d;
	}
	return fresh;
}

void io_dev_states_free(struct io_state *s)
{
	for (int i = 0; i < IO_DEVS_MAX; i++)
		if (s->dev[i]) { /* most cgroups have none: no call for them */
			percpu_free(s->dev[i]->stat);
			kfree(s->dev[i]);
		}
}

/* The cgroup with this id (its resource domain), or the root if it is
 * gone. cg_lock held. */
static struct cgroup *io_find_locked(uint64_t id)
{
	unsigned slot = (unsigned)(id % IO_CACHE);
	if (io_cache[slot].cg && io_cache[slot].id == id)
		return io_cache[slot].cg->dom;
	for (struct cgroup *c = &cg_root; c; c = cg_next_pre(c, &cg_root)) {
		if (c->id == id) {
			io_cache[slot].id = id;
			io_cache[slot].cg = c;
			return c->dom;
		}
	}
	return &cg_root;
}

void io_forget(struct cgroup *cg)
{
	cg_lock();
	for (int i = 0; i < IO_CACHE; i++)
		if (io_cache[i].cg == cg)
			io_cache[i].cg = NULL;
	cg_unlock();
}

/* 100 ms worth of the limit (Linux's throttle slice): what an idle
 * bucket may save up. */
static int64_t io_burst(uint64_t limit)
{
	return limit / 10 ? (int64_t)(limit / 10) : 1;
}

void io_bucket_reset(struct io_bucket *b, uint64_t limit, uint64_t now_ns)
{
	(void)limit;
	b->tokens = 0; /* nothing saved: the first request waits for its own */
	b->frac = 0;
	b->last_ns = now_ns;
}

/* Tokens earned since the last refill, exactly (fractions carried),
 * without 128-bit arithmetic: dt is split into seconds and the rest. The
 * bucket holds at most cap (at least its burst). */
static void io_refill(struct io_bucket *b, uint64_t limit, uint64_t now, int64_t cap)
{
	if (now <= b->last_ns)
		return;
	uint64_t dt = now - b->last_ns, s = dt / NS, rem = dt % NS;
	b->last_ns = now;
	if (b->tokens >= cap) /* a bigger request's savings, not taken */
		return;
	uint64_t room = (uint64_t)(cap - b->tokens);
	if (s && limit > room / s) {
		b->tokens = cap;
		b->frac = 0;
		return;
	}
	uint64_t add = limit * s + limit / NS * rem;
	uint64_t nano = limit % NS * rem + b->frac;
	add += nano / NS;
	b->frac = nano % NS;
	if (add >= room) {
		b->tokens = cap;
		b->frac = 0;
	} else {
		b->tokens += (int64_t)add;
	}
}

/* Nanoseconds until a bucket short of deficit tokens (at most a request,
 * 2^30) has them at limit per second, rounded up. */
static uint64_t io_wait_ns(uint64_t deficit, uint64_t limit)
{
	return deficit / limit * NS + (deficit % limit * NS + limit - 1) / limit;
}

uint64_t io_throttle(uint64_t cgroup_id, int i, enum io_dir dir, uint64_t bytes, uint64_t now_ns)
{
	if (dir == IO_DISCARD)
		return 0;
	int kb = dir == IO_WRITE ? IO_WBPS : IO_RBPS, ki = kb + 2;
	uint64_t wait = 0;
	cg_lock();
	struct cgroup *cg = io_find_locked(cgroup_id);
	for (struct cgroup *a = cg; a; a = a->parent) {
		struct io_dev_state *d = io_of(a)->dev[i];
		for (int k = kb; d && k <= ki; k += ki - kb) {
			if (d->limit[k] == IO_UNLIMITED)
				continue;
			int64_t cost = k == kb ? (int64_t)bytes : 1, burst = io_burst(d->limit[k]);
			io_refill(&d->bucket[k], d->limit[k], now_ns, cost > burst ? cost : burst);
			if (d->bucket[k].tokens < cost) {
				uint64_t w = io_wait_ns((uint64_t)(cost - d->bucket[k].tokens), d->limit[k]);
				wait = w > wait ? w : wait;
			}
		}
	}
	/* all or nothing: a request pays only when every level lets it go */
	for (struct cgroup *a = cg; a && !wait; a = a->parent) {
		struct io_dev_state *d = io_of(a)->dev[i];
		for (int k = kb; d && k <= ki; k += ki - kb)
			if (d->limit[k] != IO_UNLIMITED)
				d->bucket[k].tokens -= k == kb ? (int64_t)bytes : 1;
	}
	cg_unlock();
	return wait;
}

uint64_t io_wbps_least(struct cgroup *cg)
{
	uint64_t least = IO_UNLIMITED;
	cg_lock();
	for (struct cgroup *a = cg; a; a = a->parent)
		for (int i = 0; i < IO_DEVS_MAX; i++) {
			struct io_dev_state *d = io_of(a)->dev[i];
			if (d && d->limit[IO_WBPS] < least)
				least = d->limit[IO_WBPS];
		}
	cg_unlock();
	return least;
}

int io_account(uint64_t cgroup_id, int i, enum io_dir dir, uint64_t bytes)
{
	int err = 0;
	cg_lock();
	struct cgroup *cg = io_find_locked(cgroup_id);
	cg_get(cg);	/* and with it its ancestors */
	cg_unlock();
	for (struct cgroup *a = cg; a; a = a->parent) {
		struct io_dev_state *d = io_dev_state_get(a, i);
		if (!d) {
			err = -ENOMEM;
			continue;
		}
		this_cpu_add_s64(&d->stat->bytes[dir], (int64_t)bytes);
		this_cpu_add_s64(&d->stat->ios[dir], 1);
	}
	cg_put(cg);
	return err;
}

/* cg's weight on device i: its override, else its default. cg_lock. */
static uint32_t io_weight_of(const struct cgroup *cg, int i)
{
	const struct io_state *s = io_of(cg);
	const struct io_dev_state *d = s->dev[i];
	return d && d->weight ? d->weight : s->weight_default;
}

/* The cgroup whose weight cg's I/O competes with: cg itself, or, when
 * its parent does not enable io, the nearest ancestor whose parent does
 * (Linux: a cgroup without the controller is part of its parent's). */
static struct cgroup *io_weight_node(struct cgroup *cg)
{
	while (cg->parent && !(cg->parent->subtree_control & cg_io.bit))
		cg = cg->parent;
	return cg;
}

int io_weights(uint64_t cgroup_id, int i, struct blkio_node *out, int max)
{
	int depth = 0;
	cg_lock();
	struct cgroup *leaf = io_weight_node(io_find_locked(cgroup_id));
	for (struct cgroup *a = leaf; a->parent; a = a->parent)
		depth++;
	/* the path from the top-level cgroup down; levels past max merge
	 * into the last one returned */
	int n = depth < max ? depth : max, k = depth;
	for (struct cgroup *a = leaf; a->parent; a = a->parent) {
		k--;
		if (k < n)
			out[k] = (struct blkio_node){ .id = a->id, .weight = io_weight_of(a, i) };
	}
	cg_unlock();
	return n;
}
