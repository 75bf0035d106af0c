/* Eviction of page cache pages for reclaim (kernel/pcache/pager.c,
 * pcache_page_evict), without a server: only a clean, uptodate,
 * unmapped, unreferenced page of a backed object whose server lives
 * goes; it leaves its shadow in its slot (a page brought in there finds
 * it), and its frame is uncharged. */
#include "ktest.h"
#include "../pcache/internal.h"
#include "abi/errno.h"
#include "cgroup.h"
#include "kstring.h"
#include "memcg.h"
#include "pmm.h"
#include "heap.h"
#include "proc.h"
#include "sched.h"
#include "timer.h"

#define MS 1000000ull

/* A page of o at index, bytes all `fill`, in the tree and on its list. */
static struct pcache_page *kt_page(struct pcache_obj *o, uint64_t index, struct cgroup *cg, uint8_t fill,
				   uint64_t *shadow)
{
	struct pcache_page *p = pcache_page_new(o, index, cg, false);
	if (!p)
		return NULL;
	memset(page_to_virt(p->pg), fill, PAGE_SIZE);
	spin_lock(&o->lock);
	int r = pcache_tree_insert(o, p, shadow);
	if (o->attr.size < (index + 1) * PAGE_SIZE)
		o->attr.size = (index + 1) * PAGE_SIZE;
	spin_unlock(&o->lock);
	if (r) {
		pcache_page_put(p);
		return NULL;
	}
	pcache_lru_add(p);
	return p;
}

/* What a reclaimer does: pin under the LRU lock, evict without it. */
static bool kt_evict(struct pcache_page *p, uint64_t shadow)
{
	spin_lock(&pcache_lru_lock);
	bool pinned = pcache_page_tryget(p);
	spin_unlock(&pcache_lru_lock);
	return pinned && pcache_page_evict(p, shadow);
}

static void kt_state(struct pcache_obj *o, struct pcache_page *p, uint8_t set, uint8_t clear)
{
	spin_lock(&o->lock);
	pcache_page_set_state(p, set, clear);
	spin_unlock(&o->lock);
}

static uint64_t kt_usage(struct cgroup *cg)
{
	mem_drain_stock(cg);
	return mem_usage_pages(cg);
}

KTEST(pcache_evict_clean_pages)
{
	struct cgroup *cg = NULL;
	KT_EXPECT_EQ(cg_create(&cg_root, "kt_evict", &cg), 0);
	struct pcache_obj *o = pcache_obj_new(PCACHE_BACKED, 1ull << 20);
	struct pcache_obj *sh = pcache_obj_new(PCACHE_SHMEM, 1ull << 20);
	if (!cg || !o || !sh)
		return;
	o->pager = pcache_pager_new();
	uint64_t shadow = 1;
	uint64_t base = kt_usage(cg);
	struct pcache_page *clean = kt_page(o, 0, cg, 'a', &shadow), *dirty = kt_page(o, 1, cg, 'b', NULL),
			   *held = kt_page(o, 2, cg, 'c', NULL), *mapped = kt_page(o, 3, cg, 'd', NULL),
			   *wb = kt_page(o, 4, cg, 'e', NULL), *filling = kt_page(o, 5, cg, 'f', NULL),
			   *shm = kt_page(sh, 0, cg, 'g', NULL);
	KT_EXPECT(clean && dirty && held && mapped && wb && filling && shm);
	if (!(clean && dirty && held && mapped && wb && filling && shm))
		return;
	KT_EXPECT_EQ(shadow, 0); /* a fresh slot had none */
	KT_EXPECT_EQ(kt_usage(cg), base + 7);
	kt_state(o, dirty, PCP_DIRTY, 0);
	kt_state(o, wb, PCP_WRITEBACK, 0);
	kt_state(o, filling, 0, PCP_UPTODATE);
	__atomic_add_fetch(&held->refs, 1, __ATOMIC_RELAXED); /* a reader copying it */
	__atomic_add_fetch(&mapped->mapcount, 1, __ATOMIC_RELAXED);
	/* everything but the clean page stays, unchanged */
	KT_EXPECT(!kt_evict(dirty, 11));
	KT_EXPECT(!kt_evict(held, 12));
	KT_EXPECT(!kt_evict(mapped, 13));
	KT_EXPECT(!kt_evict(wb, 14));
	KT_EXPECT(!kt_evict(filling, 15));
	KT_EXPECT(!kt_evict(shm, 16));
	KT_EXPECT(!kt_evict(clean, 0)); /* a shadow must be given */
	KT_EXPECT_EQ(o->npages, 6);
	KT_EXPECT_EQ(kt_usage(cg), base + 7);
	/* the clean one goes: uncharged, its slot holds the shadow */
	KT_EXPECT(kt_evict(clean, 0x1234));
	KT_EXPECT_EQ(o->npages, 5);
	KT_EXPECT_EQ(kt_usage(cg), base + 6);
	spin_lock(&o->lock);
	KT_EXPECT(pcache_tree_lookup(o, 0) == NULL);
	KT_EXPECT(pcache_tree_lookup(o, 1) == dirty);
	spin_unlock(&o->lock);
	/* a page brought in there finds the shadow (the refault hook's value) */
	struct pcache_page *again = kt_page(o, 0, cg, 'a', &shadow);
	KT_EXPECT(again != NULL);
	KT_EXPECT_EQ(shadow, 0x1234);
	/* the dirty page, written back and done, may go now */
	kt_state(o, dirty, 0, PCP_DIRTY);
	kt_state(o, wb, 0, PCP_WRITEBACK);
	KT_EXPECT(kt_evict(dirty, 21));
	KT_EXPECT(kt_evict(wb, 22));
	/* its server died: nothing is evicted (the object's pages go with it) */
	pcache_pager_kill(o->pager);
	KT_EXPECT(!kt_evict(again, 23));
	__atomic_sub_fetch(&mapped->mapcount, 1, __ATOMIC_RELAXED);
	pcache_page_put(held);
	pcache_obj_put(o);
	pcache_obj_put(sh);
	KT_EXPECT_EQ(kt_usage(cg), base);
	KT_EXPECT_EQ(cg_destroy(cg), 0);
}

/* ---- the pager's round trip, the server played by the test ---- */

struct kt_job {
	struct pcache_obj *o;
	uint64_t index, timeout;
	int result;
	uint8_t byte;		/* byte 7 of the page read */
	volatile int done;
};

static long kt_reader(void *arg)
{
	struct kt_job *j = arg;
	struct pcache_page *p;
	j->result = pcache_backed_get(j->o, j->index, 1, &p);
	if (j->result == 0) {
		j->byte = ((uint8_t *)page_to_virt(p->pg))[7];
		pcache_page_put(p);
	}
	__atomic_store_n(&j->done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static long kt_writeback(void *arg)
{
	struct kt_job *j = arg;
	j->result = pcache_writeback_request(j->o, j->timeout);
	__atomic_store_n(&j->done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* Starts fn on j; true if it is waiting (not done) after 20 ms. */
static bool kt_start(long (*fn)(void *), struct kt_job *j)
{
	int err;
	j->done = 0;
	if (!kthread_create("kt_pager", fn, j, NULL, &err))
		return false;
	sched_sleep_until(clock_ns() + 20 * MS);
	return !__atomic_load_n(&j->done, __ATOMIC_SEQ_CST);
}

static bool kt_finished(struct kt_job *j)
{
	for (int i = 0; i < 500 && !__atomic_load_n(&j->done, __ATOMIC_SEQ_CST); i++)
		sched_sleep_until(clock_ns() + 10 * MS);
	sched_sleep_until(clock_ns() + 10 * MS); /* its stack reaped */
	return j->done;
}

static uint8_t kt_byte(uint64_t index, size_t off)
{
	return (uint8_t)(index * 3 + off);
}

/* Takes the next request: its kind, first, count. */
static int kt_take(struct pcache_obj *o, struct pcache_req *req)
{
	struct pcache_obj *got = NULL;
	int r = pcache_pager_take(o->pager, clock_ns() + 5000 * MS, req, &got);
	if (got)
		pcache_obj_put(got);
	return r;
}

static long kt_fill(struct pcache_obj *o, const struct pcache_req *req, uint8_t *buf)
{
	for (uint32_t i = 0; i < req->count; i++)
		for (size_t k = 0; k < PAGE_SIZE; k++)
			buf[i * PAGE_SIZE + k] = kt_byte(req->first + i, k);
	return pcache_fill_range(o, req->first, req->count, buf, 0, false);
}

KTEST(pcache_pager_round_trip)
{
	struct pcache_obj *o = pcache_obj_new(PCACHE_BACKED, 1ull << 20);
	uint8_t *buf = kmalloc(PCACHE_FILL_MAX * PAGE_SIZE);
	KT_EXPECT(o && buf);
	if (!o || !buf)
		return;
	o->pager = pcache_pager_new();
	o->attr.size = 64 * PAGE_SIZE;
	struct pcache_req req;
	struct kt_job j = { .o = o, .index = 10 };
	/* a missing page: one FILL request for a window; the reader waits for it */
	KT_EXPECT(kt_start(kt_reader, &j));
	KT_EXPECT_EQ(kt_take(o, &req), 0);
	KT_EXPECT_EQ(req.kind, PCACHE_REQ_FILL);
	KT_EXPECT_EQ(req.first, 10);
	KT_EXPECT_EQ(req.count, 4);
	KT_EXPECT_EQ(kt_fill(o, &req, buf), 4);
	KT_EXPECT(kt_finished(&j));
	KT_EXPECT_EQ(j.result, 0);
	KT_EXPECT_EQ(j.byte, kt_byte(10, 7));
	/* evicted, then read again: a new request for just that page, the same bytes */
	spin_lock(&o->lock);
	struct pcache_page *p = pcache_tree_lookup(o, 10);
	spin_unlock(&o->lock);
	KT_EXPECT(p && kt_evict(p, 99));
	KT_EXPECT_EQ(o->npages, 3);
	KT_EXPECT(kt_start(kt_reader, &j));
	KT_EXPECT_EQ(kt_take(o, &req), 0);
	KT_EXPECT_EQ(req.first, 10);
	KT_EXPECT_EQ(req.count, 1); /* the window stops at the pages present */
	KT_EXPECT_EQ(kt_fill(o, &req, buf), 1);
	KT_EXPECT(kt_finished(&j));
	KT_EXPECT_EQ(j.result, 0);
	KT_EXPECT_EQ(j.byte, kt_byte(10, 7));
	KT_EXPECT_EQ(o->npages, 4);
	/* a failed fill: -EIO to that reader */
	j.index = 20;
	KT_EXPECT(kt_start(kt_reader, &j));
	KT_EXPECT_EQ(kt_take(o, &req), 0);
	KT_EXPECT_EQ(pcache_fill_range(o, req.first, req.count, NULL, -EIO, false), 4);
	KT_EXPECT(kt_finished(&j));
	KT_EXPECT_EQ(j.result, -EIO);
	KT_EXPECT_EQ(o->npages, 4);
	/* reclaim's writeback request: answered by done with its seq */
	j.timeout = 5000 * MS;
	KT_EXPECT(kt_start(kt_writeback, &j));
	KT_EXPECT_EQ(kt_take(o, &req), 0);
	KT_EXPECT_EQ(req.kind, PCACHE_REQ_WRITEBACK);
	KT_EXPECT_EQ(req.seq, 1);
	pcache_done_range(o, 0, 0, req.seq);
	KT_EXPECT(kt_finished(&j));
	KT_EXPECT_EQ(j.result, 0);
	/* unanswered, it times out */
	j.timeout = 30 * MS;
	kt_start(kt_writeback, &j);
	KT_EXPECT(kt_finished(&j));
	KT_EXPECT_EQ(j.result, -ETIMEDOUT);
	KT_EXPECT_EQ(kt_take(o, &req), 0); /* (its request is still queued) */
	/* the server dies: a waiting reader gets -EIO at once */
	j.index = 30;
	KT_EXPECT(kt_start(kt_reader, &j));
	KT_EXPECT_EQ(kt_take(o, &req), 0);
	pcache_pager_kill(o->pager);
	KT_EXPECT(kt_finished(&j));
	KT_EXPECT_EQ(j.result, -EIO);
	kfree(buf);
	pcache_obj_put(o);
}
