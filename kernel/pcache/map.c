/* File mappings of page cache objects (pcache.h, docs/memory.md "File
 * mappings"). A PTE of a file mapping holds a reference on its
 * pcache_page (so a truncation that detaches the page cannot free the
 * frame under it) and counts in the page's mapcount; the page's cgroup
 * counts it in file_mapped while its mapcount is above zero (Linux counts
 * shmem pages there too). The reverse map is a list per object of the
 * address spaces with areas mapping it: truncation and a server's death
 * walk each one's areas of the object and unmap the pages past the end. */
#include "pcache.h"
#include "internal.h"
#include "abi/errno.h"
#include "addrspace.h"
#include "heap.h"
#include "kstring.h"
#include "memcg.h"
#include "pmm.h"
#include "timer.h"

struct pcache_mapper {
	struct list_head link;		/* in obj->mappers */
	struct addrspace *as;		/* not a reference: its areas unregister first */
	uint32_t areas;			/* its areas mapping the object */
	uint64_t pass;			/* the last unmap pass that handled it */
};

static struct pcache_mapper *pcache_mapper_find(struct pcache_obj *o, struct addrspace *as)
{
	struct list_head *pos;
	list_for_each(pos, &o->mappers) {
		struct pcache_mapper *m = list_entry(pos, struct pcache_mapper, link);
		if (m->as == as)
			return m;
	}
	return NULL;
}

int pcache_map_add(struct pcache_obj *o, struct addrspace *as)
{
	struct pcache_mapper *fresh = kzalloc(sizeof(*fresh));
	spin_lock(&o->mlock);
	struct pcache_mapper *m = pcache_mapper_find(o, as);
	if (!m && fresh) {
		m = fresh;
		fresh = NULL;
		m->as = as;
		list_add_tail(&m->link, &o->mappers);
	}
	if (m)
		m->areas++;
	spin_unlock(&o->mlock);
	kfree(fresh);
	return m ? 0 : -ENOMEM;
}

void pcache_map_dup(struct pcache_obj *o, struct addrspace *as)
{
	spin_lock(&o->mlock);
	struct pcache_mapper *m = pcache_mapper_find(o, as);
	if (m)
		m->areas++;
	spin_unlock(&o->mlock);
}

void pcache_map_del(struct pcache_obj *o, struct addrspace *as)
{
	spin_lock(&o->mlock);
	struct pcache_mapper *m = pcache_mapper_find(o, as);
	if (m && --m->areas == 0)
		list_del(&m->link);
	else
		m = NULL;
	spin_unlock(&o->mlock);
	kfree(m);
}

/* One more PTE maps p: the first counts the page in file_mapped. */
static void pcache_mapcount_inc(struct pcache_page *p)
{
	if (__atomic_add_fetch(&p->mapcount, 1, __ATOMIC_RELAXED) == 1)
		memcg_pcache_stat_add(p->pg->charge, MEMCG_STAT_FILE_MAPPED, 1);
}

int pcache_map_get(struct pcache_obj *o, uint64_t index, struct cgroup *cg, bool shared, struct page **out)
{
	struct pcache_page *fresh = NULL;
	for (;;) {
		spin_lock(&o->lock);
		if (o->dead || index >= (o->attr.size + PAGE_SIZE - 1) >> PAGE_SHIFT) {
			spin_unlock(&o->lock);
			if (fresh)
				pcache_page_put(fresh);
			return -EIO;
		}
		struct pcache_page *p = pcache_tree_lookup(o, index);
		if ((o->flags & PCACHE_BACKED) && (!p || !(p->state & PCP_UPTODATE))) {
			spin_unlock(&o->lock); /* the server's: asked without as->lock */
			return -EAGAIN;
		}
		int r = 0;
		if (!p && fresh && (r = pcache_tree_insert(o, fresh, NULL)) == 0) {
			p = fresh; /* the tree's reference: fresh's own */
			fresh = NULL;
			__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
			spin_unlock(&o->lock);
			pcache_lru_add(p);
		} else {
			if (p)
				__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
			spin_unlock(&o->lock);
		}
		if (p) {
			if (fresh)
				pcache_page_put(fresh); /* another fault or a write won */
			pcache_mapcount_inc(p);
			if (shared)
				__atomic_add_fetch(&p->smapcount, 1, __ATOMIC_RELAXED);
			pcache_lru_touch(p);
			*out = p->pg;
			return 0;
		}
		if (r) { /* no node for it */
			pcache_page_put(fresh);
			return r;
		}
		/* a hole inside the size: a zero page, then look again */
		if (!(fresh = pcache_page_new(o, index, cg, true)))
			return -ENOMEM;
	}
}

void pcache_map_stored(struct pcache_obj *o)
{
	uint64_t now = clock_file_ns();
	spin_lock(&o->lock);
	o->attr.mtime = o->attr.ctime = now;
	spin_unlock(&o->lock);
}

int pcache_map_prefault(struct pcache_obj *o, uint64_t index)
{
	struct pcache_page *p;
	int r = pcache_backed_get(o, index, 1, &p);
	if (r == 0)
		pcache_page_put(p);
	return r == 1 ? -EIO : r; /* past the end: SIGBUS */
}

int pcache_map_copy(struct pcache_obj *o, uint64_t index, void *dst)
{
	spin_lock(&o->lock);
	if (o->dead || index >= (o->attr.size + PAGE_SIZE - 1) >> PAGE_SHIFT) {
		spin_unlock(&o->lock);
		return -EIO;
	}
	struct pcache_page *p = pcache_tree_lookup(o, index);
	if ((o->flags & PCACHE_BACKED) && (!p || !(p->state & PCP_UPTODATE))) {
		spin_unlock(&o->lock);
		return -EAGAIN;
	}
	if (p)
		__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
	spin_unlock(&o->lock);
	if (!p) {
		memset(dst, 0, PAGE_SIZE);
		return 0;
	}
	memcpy(dst, page_to_virt(p->pg), PAGE_SIZE);
	pcache_page_put(p);
	return 0;
}

void pcache_map_put(struct page *pg, bool shared)
{
	struct pcache_page *p = pg->private;
	if (shared)
		__atomic_sub_fetch(&p->smapcount, 1, __ATOMIC_RELAXED);
	if (__atomic_sub_fetch(&p->mapcount, 1, __ATOMIC_RELAXED) == 0)
		memcg_pcache_stat_add(pg->charge, MEMCG_STAT_FILE_MAPPED, -1);
	pcache_page_put(p);
}

/* At most this many address spaces per pass of the reverse map (the
 * list lock is dropped while each is unmapped). */
#define PCACHE_UNMAP_BATCH 16

void pcache_map_unmap_from(struct pcache_obj *o, uint64_t first)
{
	/* Each call marks the mappers it has handled with its own pass
	 * number, so that records added or removed while the lock is down
	 * neither hide one from it nor make it start over. Only truncation
	 * (one at a time: the write lock) and the server's death (once)
	 * call this, so two passes at most ever interleave. A mapper that
	 * comes meanwhile maps nothing past the size (its faults see the
	 * new one); handling it too is harmless. */
	struct addrspace *batch[PCACHE_UNMAP_BATCH];
	spin_lock(&o->mlock);
	uint64_t pass = ++o->unmap_pass;
	spin_unlock(&o->mlock);
	for (;;) {
		int n = 0;
		spin_lock(&o->mlock);
		struct list_head *pos;
		list_for_each(pos, &o->mappers) {
			struct pcache_mapper *m = list_entry(pos, struct pcache_mapper, link);
			if (m->pass == pass)
				continue;
			m->pass = pass;
			if (vm_as_tryget(m->as))
				batch[n++] = m->as;
			if (n == PCACHE_UNMAP_BATCH)
				break;
		}
		spin_unlock(&o->mlock);
		if (n == 0)
			return;
		for (int i = 0; i < n; i++) {
			vm_file_unmap(batch[i], o, first);
			vm_as_destroy(batch[i]); /* the reference taken above */
		}
	}
}
