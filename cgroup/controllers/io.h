/* The io controller (Linux's cgroup v2 "io"): the kernel keeps its
 * configuration (io.max, io.weight) and statistics (io.stat) per cgroup
 * and device; the block layer in each disk driver enforces it, asking
 * the kernel before it dispatches a request and reporting each one it
 * completed (cgroup/controllers/io_blkio.c, docs/block.md). */
#ifndef ARBOR_CG_IO_H
#define ARBOR_CG_IO_H

#include "cgroup.h"

#define IO_DEVS_MAX 8			/* devices the kernel knows (vda .. vdh) */
#define IO_UNLIMITED UINT64_MAX		/* "max" in io.max */
#define IO_REQ_BYTES_MAX (1ull << 30)	/* one request, as the syscalls accept it */

enum io_dir { IO_READ, IO_WRITE, IO_DISCARD, IO_DIRS };
enum io_limit { IO_RBPS, IO_WBPS, IO_RIOPS, IO_WIOPS, IO_LIMITS };

/* A token bucket that is paid before: a request goes once its bucket
 * holds its cost (bytes, or one io), which it then takes; an idle bucket
 * saves up to a burst (100 ms of the limit) or, while a bigger request
 * waits, that request's cost, so any request size passes. A new limit
 * starts with an empty bucket: from the moment io.max is set, no window
 * of time sees more than the limit times its length go (plus the one
 * burst an idle bucket saved). */
struct io_bucket {
	int64_t tokens;		/* bytes or ios */
	uint64_t frac;		/* the part of a token earned, in 1e-9 */
	uint64_t last_ns;	/* last refill */
};

/* One cgroup's state for one device, made on first use. */
/* io.stat's counters of one cgroup on one device: a per-CPU object
 * (kernel/mm/percpu_alloc.c), each CPU adding to its own copy at every
 * I/O, io.stat summing the copies (Linux's blkg iostat_cpu). */
struct io_stat_pcpu {
	int64_t bytes[IO_DIRS], ios[IO_DIRS];	/* this subtree's */
};

struct io_dev_state {
	struct io_stat_pcpu *stat;		/* io.stat (per CPU) */
	uint64_t limit[IO_LIMITS];		/* io.max, IO_UNLIMITED: none */
	struct io_bucket bucket[IO_LIMITS];
	uint32_t weight;			/* io.weight override, 0: none */
};

struct io_state {
	struct io_dev_state *dev[IO_DEVS_MAX];
	uint32_t weight_default;		/* io.weight "default", 100 */
};

struct io_state *io_of(const struct cgroup *cg);

/* The device table: index of MAJ:MIN, or -1 if not registered. */
int io_dev_index(uint32_t major, uint32_t minor);
/* MAJ:MIN of device i (false if the slot is free). */
bool io_dev_number(int i, uint32_t *major, uint32_t *minor);
/* A driver's device: its index (the same for the same number again),
 * -ENOSPC if the table is full. */
int io_dev_register(uint32_t major, uint32_t minor);
/* cg's state for device i, made if missing (the allocation outside
 * cg_lock): NULL if out of memory. cg is referenced by the caller. */
struct io_dev_state *io_dev_state_get(struct cgroup *cg, int i);
/* Frees cg's device states (the cgroup is being freed). */
void io_dev_states_free(struct io_state *s);

/* The block layer's calls (cgroup/controllers/io_blkio.c). The cgroup id names the
 * requester's cgroup; an unknown one (removed) counts at the root. */
/* A request of bytes in direction dir for cgroup id on device i may go
 * now: 0, and every io.max bucket on the cgroup's path is charged; or
 * the nanoseconds until it may, nothing charged. */
uint64_t io_throttle(uint64_t cgroup_id, int i, enum io_dir dir, uint64_t bytes, uint64_t now_ns);
/* A request completed: io.stat of the cgroup and each ancestor. 0 or
 * -ENOMEM. */
int io_account(uint64_t cgroup_id, int i, enum io_dir dir, uint64_t bytes);
struct blkio_node;
/* io.weight along the path of cgroup id on device i, from the top-level
 * cgroup down (at most max levels, the deeper ones counting as the last):
 * the number of levels, 0 for the root. */
int io_weights(uint64_t cgroup_id, int i, struct blkio_node *out, int max);
/* The least io.max wbps on cg's path, over every disk: IO_UNLIMITED if
 * none (the page cache's dirty limit, kernel/pcache/dirty.c). Takes
 * cg_lock. */
uint64_t io_wbps_least(struct cgroup *cg);
/* A new limit: the bucket starts empty. cg_lock held. */
void io_bucket_reset(struct io_bucket *b, uint64_t limit, uint64_t now_ns);
/* cg was removed: forget it in the id cache. */
void io_forget(struct cgroup *cg);

#endif
