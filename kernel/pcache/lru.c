/* Per-cgroup LRU lists of page cache pages (pcache.h). A page sits on a
 * list of the cgroup it is charged to (page->charge) from its insertion
 * to its freeing: inactive first, active from its second touch (Linux's
 * mark_page_accessed, without the per-CPU batches). Shmem pages use the
 * anon lists, others the file lists, as on Linux. memory.stat's
 * inactive_* / active_* are the lists' lengths. Reclaim (kernel/mm/
 * reclaim.c) takes file pages from the inactive tail (pcache_lru_isolate)
 * and refills the inactive list from the active tail
 * (pcache_lru_deactivate), counting Linux's pgscan, pgactivate, pgrefill
 * and pgdeactivate here. One lock for every list (one CPU schedules
 * today). The lists are in the cgroup's page cache block (memcg_pcache_of), which a dying cgroup keeps while
 * pages are charged to it (memcg_keep), with empty lists: at its removal
 * its pages join its live ancestor's lists (pcache_lru_splice), where
 * reclaim finds them. */
#include "pcache.h"
#include "internal.h"
#include "cgroup.h"
#include "memcg.h"
#include "page.h"
#include "reclaim.h"

struct spinlock pcache_lru_lock = SPINLOCK_INIT("pcache_lru");

/* File (not shmem) pages on any cgroup's lists: the machine's reclaimable
 * page cache, which the dirty limits count as memory a writer may dirty
 * (Linux's global_dirtyable_memory: free pages plus the file LRU). */
static uint64_t pcache_lru_files;

uint64_t pcache_lru_file_pages(void)
{
	return __atomic_load_n(&pcache_lru_files, __ATOMIC_RELAXED);
}

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

/* The block whose lists a page charged to cg goes on: cg's, or once cg
 * is removed its live ancestor's (memory_offline spliced its lists
 * there). */
static struct memcg_pcache *pcache_lru_block(struct cgroup *cg)
{
	return __atomic_load_n(&memcg_live(cg)->mem_pcache, __ATOMIC_ACQUIRE);
}

void pcache_lru_add(struct pcache_page *p)
{
	struct cgroup *cg = p->pg->charge, *live;
	struct memcg_pcache *b;
	/* its cgroup's block first (no lock: it allocates); a page whose
	 * block cannot be made stays off the lists (unevictable). The
	 * cgroup may be removed meanwhile: then again, at its ancestor. */
	for (;;) {
		live = cg ? memcg_live(cg) : NULL;
		b = live ? memcg_pcache_of(live) : NULL;
		if (!b)
			return;
		spin_lock(&pcache_lru_lock);
		if (memcg_live(cg) == live)
			break;
		spin_unlock(&pcache_lru_lock);
	}
	/* active already if a refault found it in the workingset */
	p->lru_state = PCP_ON_LRU | (p->lru_state & PCP_ACTIVE);
	enum pcache_lru l = pcache_lru_of(p);
	list_add(&p->lru, &b->lru[l]);
	memcg_pcache_stat_add(cg, pcache_lru_stat(l), 1);
	if (!p->shmem)
		__atomic_add_fetch(&pcache_lru_files, 1, __ATOMIC_RELAXED);
	spin_unlock(&pcache_lru_lock);
}

void pcache_lru_del(struct pcache_page *p)
{
	spin_lock(&pcache_lru_lock);
	if (p->lru_state & PCP_ON_LRU) {
		list_del(&p->lru);
		memcg_pcache_stat_add(p->pg->charge, pcache_lru_stat(pcache_lru_of(p)), -1);
		if (!p->shmem)
			__atomic_sub_fetch(&pcache_lru_files, 1, __ATOMIC_RELAXED);
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
			list_add(&p->lru, &pcache_lru_block(cg)->lru[to]);
			memcg_pcache_stat_add(cg, pcache_lru_stat(to), 1);
			memcg_pcache_stat_add(cg, MEMCG_STAT_PGACTIVATE, 1);
			memcg_workingset_age(cg, 1); /* Linux's workingset_activation */
		} else {
			p->lru_state |= PCP_REFERENCED;
		}
	}
	spin_unlock(&pcache_lru_lock);
}

/* Moves p (on list from of cg's block b, lock held) to the head of list to
 * with the lru state bits set; the lengths follow. */
static void pcache_lru_move(struct cgroup *cg, struct memcg_pcache *b, struct pcache_page *p,
			    enum pcache_lru from, enum pcache_lru to, uint8_t state)
{
	list_del(&p->lru);
	memcg_pcache_stat_add(cg, pcache_lru_stat(from), -1);
	p->lru_state = state;
	list_add(&p->lru, &b->lru[to]);
	memcg_pcache_stat_add(cg, pcache_lru_stat(to), 1);
}

uint32_t pcache_lru_isolate(struct cgroup *cg, uint32_t nr, struct pcache_page **out)
{
	struct memcg_pcache *b = __atomic_load_n(&cg->mem_pcache, __ATOMIC_ACQUIRE);
	uint32_t n = 0, scanned = 0, activated = 0;
	if (!b)
		return 0;
	spin_lock(&pcache_lru_lock);
	struct list_head *l = &b->lru[PCACHE_LRU_INACTIVE_FILE];
	struct pcache_page *first = NULL; /* the first rotated: back at the tail, all were seen */
	while (scanned < nr && !list_empty(l)) {
		struct pcache_page *p = container_of(l->prev, struct pcache_page, lru);
		if (p == first)
			break;
		scanned++;
		/* mapped by a process: Linux's referenced PTEs make it active
		 * (and the pager does not take mapped pages). A page only
		 * touched once by a read or write (PCP_REFERENCED) is taken
		 * all the same, as Linux's folio_check_references reclaims a
		 * clean referenced file folio: the second touch, not reclaim,
		 * promotes it, so a file read once streams through the
		 * inactive list without pushing the active pages out. */
		if (__atomic_load_n(&p->mapcount, __ATOMIC_RELAXED)) {
			pcache_lru_move(cg, b, p, PCACHE_LRU_INACTIVE_FILE, PCACHE_LRU_ACTIVE_FILE,
					PCP_ON_LRU | PCP_ACTIVE);
			activated++;
			continue;
		}
		list_del(&p->lru);
		list_add(&p->lru, l); /* rotated: tried again after the rest */
		if (!first)
			first = p;
		/* pinned (the pager's pcache_page_tryget) unless it or its
		 * object is being freed */
		if (pcache_page_tryget(p))
			out[n++] = p;
	}
	memcg_pcache_stat_add(cg, MEMCG_STAT_PGSCAN, scanned);
	memcg_pcache_stat_add(cg, MEMCG_STAT_PGACTIVATE, activated);
	memcg_workingset_age(cg, activated);
	spin_unlock(&pcache_lru_lock);
	return n;
}

uint32_t pcache_lru_deactivate(struct cgroup *cg, uint32_t nr)
{
	struct memcg_pcache *b = __atomic_load_n(&cg->mem_pcache, __ATOMIC_ACQUIRE);
	uint32_t moved = 0;
	if (!b)
		return 0;
	spin_lock(&pcache_lru_lock);
	struct list_head *l = &b->lru[PCACHE_LRU_ACTIVE_FILE];
	/* Linux's shrink_active_list keeps only executable mapped pages
	 * active: every scanned file page goes, its referenced bit cleared
	 * (a new touch gives it a second chance on the inactive list) */
	while (moved < nr && !list_empty(l)) {
		struct pcache_page *p = container_of(l->prev, struct pcache_page, lru);
		pcache_lru_move(cg, b, p, PCACHE_LRU_ACTIVE_FILE, PCACHE_LRU_INACTIVE_FILE, PCP_ON_LRU);
		moved++;
	}
	memcg_pcache_stat_add(cg, MEMCG_STAT_PGREFILL, moved);
	memcg_pcache_stat_add(cg, MEMCG_STAT_PGDEACTIVATE, moved);
	spin_unlock(&pcache_lru_lock);
	return moved;
}

bool pcache_lru_activate(struct pcache_page *p)
{
	bool done = false;
	spin_lock(&pcache_lru_lock);
	if (!(p->lru_state & PCP_ACTIVE)) {
		struct cgroup *cg = p->pg->charge;
		struct memcg_pcache *b = cg ? pcache_lru_block(cg) : NULL;
		if ((p->lru_state & PCP_ON_LRU) && b) {
			enum pcache_lru from = pcache_lru_of(p);
			pcache_lru_move(cg, b, p, from, (enum pcache_lru)(from + 1), PCP_ON_LRU | PCP_ACTIVE);
		} else {
			p->lru_state |= PCP_ACTIVE; /* pcache_lru_add keeps it */
		}
		done = true;
	}
	spin_unlock(&pcache_lru_lock);
	return done;
}

bool pcache_lru_unused(const struct list_head *lists)
{
	for (int i = 0; i < PCACHE_LRU_NR; i++)
		if (!list_empty(&lists[i]))
			return false;
	return true;
}

void pcache_lru_splice(struct list_head *from, struct list_head *to)
{
	spin_lock(&pcache_lru_lock);
	/* whole lists, at the tails (the removed cgroup's pages are the
	 * first its ancestor's reclaim meets), in their order */
	for (int i = 0; i < PCACHE_LRU_NR; i++) {
		if (list_empty(&from[i]))
			continue;
		struct list_head *first = from[i].next, *last = from[i].prev;
		first->prev = to[i].prev;
		to[i].prev->next = first;
		last->next = &to[i];
		to[i].prev = last;
		list_init(&from[i]);
	}
	spin_unlock(&pcache_lru_lock);
}
