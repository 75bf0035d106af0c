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
