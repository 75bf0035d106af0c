/* Per-cgroup LRU lists of page cache pages (pcache.h). A page sits on a
 * list of the cgroup it is charged to (page->charge) from its insertion
 * to its freeing: inactive first, active from its second touch (Linux's
 * mark_page_accessed, without the per-CPU batches). Shmem pages use the
 * anon lists, others the file lists, as on Linux. memory.stat's
 * inactive_* / active_* are the lists' lengths. Nothing reclaims from
 * them yet: the next issue's reclaim walks them, inactive tail first.
 * One lock for every list (one CPU today). The lists are in the cgroup's
 * page cache block (memcg_pcache_of), which a dying cgroup keeps while
 * pages are charged to it (memcg_keep). */
#include "pcache.h"
#include "cgroup.h"
#include "memcg.h"
#include "page.h"

struct spinlock pcache_lru_lock = SPINLOCK_INIT("pcache_lru");

static enum pcache_lru pcache_lru_of(const struct pcache_page *p)
{
	bool active = p->lru_state & PCP_ACTIVE;
	if (p->shmem)
		return active ? PCACHE_LRU_ACTIVE_ANON : PCACHE_LRU_INACTIVE_ANON;
	return active ? PCACHE_LRU_ACTIVE_FILE : PCACHE_LRU_INACTIVE_FILE;
}

static enum memcg_stat pcache_lru_stat(enum pcache_lru l)
{
	static const enum memcg_stat stat[PCACHE_LRU_NR] = {
		[PCACHE_LRU_INACTIVE_ANON] = MEMCG_STAT_INACTIVE_ANON,
		[PCACHE_LRU_ACTIVE_ANON] = MEMCG_STAT_ACTIVE_ANON,
		[PCACHE_LRU_INACTIVE_FILE] = MEMCG_STAT_INACTIVE_FILE,
		[PCACHE_LRU_ACTIVE_FILE] = MEMCG_STAT_ACTIVE_FILE,
	};
	return stat[l];
}

void pcache_lru_add(struct pcache_page *p)
{
	struct cgroup *cg = p->pg->charge;
	/* its cgroup's block first (no lock: it allocates); a page whose
	 * block cannot be made stays off the lists (unevictable) */
	struct memcg_pcache *b = cg ? memcg_pcache_of(cg) : NULL;
	if (!b)
		return;
	spin_lock(&pcache_lru_lock);
	p->lru_state = PCP_ON_LRU;
	enum pcache_lru l = pcache_lru_of(p);
	list_add(&p->lru, &b->lru[l]);
	memcg_pcache_stat_add(cg, pcache_lru_stat(l), 1);
	spin_unlock(&pcache_lru_lock);
}

void pcache_lru_del(struct pcache_page *p)
{
	spin_lock(&pcache_lru_lock);
	if (p->lru_state & PCP_ON_LRU) {
		list_del(&p->lru);
		memcg_pcache_stat_add(p->pg->charge, pcache_lru_stat(pcache_lru_of(p)), -1);
		p->lru_state = 0;
	}
	spin_unlock(&pcache_lru_lock);
}

void pcache_lru_touch(struct pcache_page *p)
{
	/* the common case, an active page, takes no lock */
	if (__atomic_load_n(&p->lru_state, __ATOMIC_RELAXED) & PCP_ACTIVE)
		return;
	spin_lock(&pcache_lru_lock);
	if ((p->lru_state & (PCP_ON_LRU | PCP_ACTIVE)) == PCP_ON_LRU) {
		if (p->lru_state & PCP_REFERENCED) {
			struct cgroup *cg = p->pg->charge;
			enum pcache_lru from = pcache_lru_of(p);
			list_del(&p->lru);
			memcg_pcache_stat_add(cg, pcache_lru_stat(from), -1);
			p->lru_state = PCP_ON_LRU | PCP_ACTIVE;
			enum pcache_lru to = pcache_lru_of(p);
			list_add(&p->lru, &cg->mem_pcache->lru[to]);
			memcg_pcache_stat_add(cg, pcache_lru_stat(to), 1);
		} else {
			p->lru_state |= PCP_REFERENCED;
		}
	}
	spin_unlock(&pcache_lru_lock);
}
