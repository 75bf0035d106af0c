/* File memory objects: the page tree, reads, writes and truncation
 * (pcache.h). A read or write holds obj->lock for one page at a time:
 * it finds the page and takes a reference under the lock, drops it, and
 * copies to or from user memory holding only the reference (a copy may
 * fault; a truncation meanwhile detaches the page but cannot free it).
 * A long read or write reschedules between pages, so a 1 GiB copy stays
 * preemptible. */
#include "pcache.h"
#include "internal.h"
#include "abi/errno.h"
#include "cgroup.h"
#include "heap.h"
#include "kstring.h"
#include "proc.h"
#include "memcg.h"
#include "pmm.h"
#include "syscall.h"
#include "timer.h"

#define PCACHE_IDX_MAX (1ull << (PCACHE_FANOUT_SHIFT * PCACHE_LEVELS))

static const uint8_t pcache_zeros[PAGE_SIZE] __attribute__((aligned(64)));

struct pcache_obj *pcache_obj_new(uint32_t flags, uint64_t max)
{
	struct pcache_obj *o = kzalloc(sizeof(*o));
	if (!o)
		return NULL;
	o->refs = 1;
	o->flags = flags;
	o->max = max;
	o->lock = (struct spinlock)SPINLOCK_INIT("pcache_obj");
	o->mlock = (struct spinlock)SPINLOCK_INIT("pcache_map");
	list_init(&o->mappers);
	list_init(&o->nc_kids);
	list_init(&o->nc_names);
	waitq_init(&o->wwait);
	list_init(&o->flocks);
	waitq_init(&o->flock_wait);
	o->attr.nlink = 1;
	return o;
}

void pcache_obj_get(struct pcache_obj *o)
{
	__atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED);
}

/* ---- pages ---- */

void pcache_page_put(struct pcache_page *p)
{
	if (__atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pcache_lru_del(p);
	mem_free_pages(p->pg, 0);
	kfree(p);
}

struct pcache_page *pcache_page_new(struct pcache_obj *o, uint64_t index, struct cgroup *cg, bool zero)
{
	struct pcache_page *p = kzalloc(sizeof(*p));
	if (!p)
		return NULL;
	/* a backed object's pages are file pages (Linux's page cache);
	 * the others are shmem (tmpfs) */
	bool shmem = !(o->flags & PCACHE_BACKED);
	p->pg = mem_alloc_pages(cg, 0, shmem ? MEMCG_STAT_SHMEM : MEMCG_STAT_FILE);
	if (!p->pg) {
		kfree(p);
		return NULL;
	}
	if (zero)
		memset(page_to_virt(p->pg), 0, PAGE_SIZE);
	p->obj = o;
	p->index = index;
	p->refs = 1;
	p->shmem = shmem;
	p->state = PCP_UPTODATE;
	p->pg->private = p; /* a mapping's PTE finds its page (map.c) */
	list_init(&p->lru);
	return p;
}

struct cgroup *pcache_page_owner(const struct pcache_page *p)
{
	return p->owner ? p->owner : p->pg->charge;
}

struct cgroup *pcache_page_set_state(struct pcache_page *p, uint8_t set, uint8_t clear)
{
	uint8_t old = p->state;
	p->state = (uint8_t)((old & ~clear) | set);
	struct cgroup *cg = pcache_page_owner(p);
	if (!p->shmem) { /* shmem's dirty pages are not counted (Linux's noop_dirty_folio) */
		uint8_t diff = old ^ p->state;
		if (diff & PCP_DIRTY)
			memcg_pcache_stat_add(cg, MEMCG_STAT_FILE_DIRTY, (p->state & PCP_DIRTY) ? 1 : -1);
		if (diff & PCP_WRITEBACK)
			memcg_pcache_stat_add(cg, MEMCG_STAT_FILE_WRITEBACK, (p->state & PCP_WRITEBACK) ? 1 : -1);
	}
	if (!p->owner || (p->state & (PCP_DIRTY | PCP_WRITEBACK)))
		return NULL;
	cg = p->owner; /* clean: nobody's (its counts are back to zero here) */
	p->owner = NULL;
	p->owner_pid = 0;
	return cg;
}

void pcache_page_dirtied(struct pcache_page *p, struct cgroup *cg, int32_t pid)
{
	if (!(p->state & (PCP_DIRTY | PCP_WRITEBACK)) && !p->owner && cg) {
		cg_get(cg);
		p->owner = cg;
		p->owner_pid = pid;
	}
	(void)pcache_page_set_state(p, PCP_DIRTY, 0); /* dirty now: no owner let go */
}

/* ---- the tree (obj->lock held) ----
 *
 * A slot holds a page, a child node, or (at the last level) a shadow:
 * an evicted page's workingset value, stored shifted with bit 0 set
 * (pages and nodes are aligned, so bit 0 tells them apart). A shadow
 * counts as a used slot, so its node stays; it goes when a page takes
 * its slot or a walk that frees pages passes it. */

#define PCACHE_SHADOW(v) ((void *)(((uintptr_t)(v) << 1) | 1))
#define PCACHE_IS_SHADOW(e) (((uintptr_t)(e)) & 1)
#define PCACHE_SHADOW_VAL(e) (((uintptr_t)(e)) >> 1)

static unsigned pcache_slot_at(uint64_t index, int level)
{
	return (unsigned)(index >> (PCACHE_FANOUT_SHIFT * (PCACHE_LEVELS - 1 - level))) & (PCACHE_FANOUT - 1);
}

/* The last-level node holding index, or NULL. */
static struct pcache_node *pcache_tree_leaf(struct pcache_obj *o, uint64_t index)
{
	struct pcache_node *n = o->root;
	for (int l = 0; n && l < PCACHE_LEVELS - 1; l++)
		n = n->slot[pcache_slot_at(index, l)];
	return n;
}

struct pcache_page *pcache_tree_lookup(struct pcache_obj *o, uint64_t index)
{
	struct pcache_node *n = pcache_tree_leaf(o, index);
	void *e = n ? n->slot[pcache_slot_at(index, PCACHE_LEVELS - 1)] : NULL;
	return PCACHE_IS_SHADOW(e) ? NULL : e;
}

bool pcache_tree_present(struct pcache_obj *o, uint64_t index)
{
	return pcache_tree_lookup(o, index) != NULL;
}

int pcache_tree_insert(struct pcache_obj *o, struct pcache_page *p, uint64_t *shadow)
{
	if (shadow)
		*shadow = 0;
	if (!o->root && !(o->root = kzalloc(sizeof(*o->root))))
		return -ENOMEM;
	struct pcache_node *n = o->root;
	for (int l = 0; l < PCACHE_LEVELS - 1; l++) {
		unsigned s = pcache_slot_at(p->index, l);
		if (!n->slot[s]) {
			struct pcache_node *c = kzalloc(sizeof(*c));
			if (!c)
				return -ENOMEM;
			n->slot[s] = c;
			n->count++;
		}
		n = n->slot[s];
	}
	void **slot = &n->slot[pcache_slot_at(p->index, PCACHE_LEVELS - 1)];
	if (PCACHE_IS_SHADOW(*slot)) {
		if (shadow)
			*shadow = PCACHE_SHADOW_VAL(*slot);
	} else {
		n->count++;
	}
	*slot = p;
	o->npages++;
	return 0;
}

void pcache_tree_remove(struct pcache_obj *o, struct pcache_page *p, uint64_t shadow)
{
	struct pcache_node *n = pcache_tree_leaf(o, p->index);
	void **slot = &n->slot[pcache_slot_at(p->index, PCACHE_LEVELS - 1)];
	if (shadow) {
		*slot = PCACHE_SHADOW(shadow);
	} else {
		*slot = NULL;
		n->count--; /* an empty node stays until a freeing walk passes it */
	}
	o->npages--;
}

/* The first page at or after *index (updated), detached from the tree
 * (shadows and empty nodes freed on the way back), or NULL. */
static struct pcache_page *pcache_tree_take_from(struct pcache_node **at, int level, uint64_t base,
						 uint64_t *index)
{
	struct pcache_node *n = *at;
	if (!n)
		return NULL;
	uint64_t span = 1ull << (PCACHE_FANOUT_SHIFT * (PCACHE_LEVELS - 1 - level));
	unsigned s = *index > base ? (unsigned)((*index - base) / span) : 0;
	struct pcache_page *p = NULL;
	for (; s < PCACHE_FANOUT && !p; s++) {
		if (!n->slot[s])
			continue;
		uint64_t sbase = base + s * span;
		if (level == PCACHE_LEVELS - 1) {
			void *e = n->slot[s];
			n->slot[s] = NULL;
			n->count--;
			if (PCACHE_IS_SHADOW(e))
				continue; /* a shadow: gone with its range */
			p = e;
			*index = sbase;
			break;
		}
		p = pcache_tree_take_from((struct pcache_node **)&n->slot[s], level + 1, sbase, index);
		if (!n->slot[s])
			n->count--;
		if (p)
			break;
	}
	if (n->count == 0) {
		kfree(n);
		*at = NULL;
	}
	return p;
}

static void pcache_resv_drop(struct pcache_obj *o, struct pcache_page *p);

/* Detaches and frees every page at index >= first, a batch per lock hold. */
static void pcache_free_from(struct pcache_obj *o, uint64_t first)
{
	enum { BATCH = 32 };
	struct pcache_page *batch[BATCH];
	struct cgroup *owners[BATCH];
	for (;;) {
		int n = 0, nown = 0;
		uint64_t idx = first;
		spin_lock(&o->lock);
		while (n < BATCH && idx < PCACHE_IDX_MAX) {
			struct pcache_page *p = pcache_tree_take_from(&o->root, 0, 0, &idx);
			if (!p)
				break;
			struct cgroup *was = pcache_page_set_state(p, 0, PCP_DIRTY | PCP_WRITEBACK);
			if (was)
				owners[nown++] = was;
			pcache_resv_drop(o, p);
			if (!(p->state & PCP_UPTODATE))
				p->state |= PCP_GONE; /* its reader looks again */
			batch[n++] = p;
			o->npages--;
			idx++;
		}
		spin_unlock(&o->lock);
		/* off the lists at once, not at the last put: a page on a list
		 * is in its object's tree (pcache_page_tryget relies on it) */
		for (int i = 0; i < n; i++)
			pcache_lru_del(batch[i]);
		for (int i = 0; i < n; i++)
			pcache_page_put(batch[i]);
		for (int i = 0; i < nown; i++)
			cg_put(owners[i]);
		if (n && o->pager)
			pcache_pager_wake(o);
		if (n < BATCH)
			return;
		sched_cond_resched();
	}
}

void pcache_obj_put(struct pcache_obj *o)
{
	if (__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pcache_free_from(o, 0);
	if (o->pager)
		pcache_pager_put(o->pager);
	kfree(o);
}

void pcache_obj_kill(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	o->dead = true;
	spin_unlock(&o->lock);
	pcache_map_unmap_from(o, 0); /* mappers' next access: SIGBUS */
	pcache_free_from(o, 0);
	if (o->pager)
		pcache_pager_wake(o); /* readers waiting for a fill: -EIO */
}

/* ---- the write lock ---- */

int pcache_wlock(struct pcache_obj *o)
{
	struct thread *self = current_thread();
	spin_lock(&o->lock);
	while (o->wbusy) {
		if (thread_fatal_signal(self)) {
			spin_unlock(&o->lock);
			return -EINTR;
		}
		waitq_wait(&o->wwait, &o->lock, 0); /* a signal: wait on */
		spin_lock(&o->lock);
	}
	o->wbusy = true;
	spin_unlock(&o->lock);
	return 0;
}

void pcache_wunlock(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	o->wbusy = false;
	/* a waiter queues itself before it lets go of o->lock (waitq_wait) */
	bool waiters = !list_empty(&o->wwait.waiters);
	spin_unlock(&o->lock);
	if (waiters)
		waitq_wake_all(&o->wwait, 0);
}

/* ---- data ---- */

/* Copies n bytes between kernel memory k and user memory u: how many were
 * copied before the first user page that faults (Linux's partial-copy
 * rule: a read or write that runs into a bad page is short). */
static size_t pcache_copy(void *k, void *u, size_t n, bool to_user)
{
	if (!(to_user ? copy_to_user(u, k, n) : copy_from_user(k, u, n)))
		return n;
	size_t done = 0;
	while (done < n) {
		size_t step = PAGE_SIZE - (((uint64_t)u + done) & (PAGE_SIZE - 1));
		if (step > n - done)
			step = n - done;
		uint8_t *kp = (uint8_t *)k + done, *up = (uint8_t *)u + done;
		if (to_user ? copy_to_user(up, kp, step) : copy_from_user(kp, up, step))
			break;
		done += step;
	}
	return done;
}

/* Every 64 pages of a long copy: is the caller being killed? Then it
 * stops (a short count, or -EINTR if nothing was done), as Linux's
 * fatal_signal_pending: a killed thread in a cgroup held to 1 % of a
 * CPU would otherwise finish a 1 GiB copy first. */
static bool pcache_killed(uint64_t *pages)
{
	return !(++*pages % 64) && thread_fatal_signal(current_thread());
}

static size_t pcache_min(size_t a, uint64_t b)
{
	return (uint64_t)a < b ? a : (size_t)b;
}

long pcache_obj_read(struct pcache_obj *o, uint64_t off, void *ubuf, size_t len, bool fill)
{
	fill = fill && (o->flags & PCACHE_BACKED);
	size_t done = 0;
	uint64_t pages = 0;
	long err = 0;
	if (off >= o->max)
		len = 0; /* past any size (and no offset arithmetic overflows) */
	while (done < len) {
		uint64_t pos = off + done;
		size_t in = pos & (PAGE_SIZE - 1);
		if (pcache_killed(&pages)) {
			err = -EINTR;
			break;
		}
		spin_lock(&o->lock);
		if (o->dead) {
			spin_unlock(&o->lock);
			err = -EIO;
			break;
		}
		uint64_t size = o->attr.size;
		if (pos >= size) {
			spin_unlock(&o->lock);
			break;
		}
		size_t chunk = pcache_min(pcache_min(PAGE_SIZE - in, len - done), size - pos);
		struct pcache_page *p = pcache_tree_lookup(o, pos >> PAGE_SHIFT);
		if (p && !(p->state & PCP_UPTODATE))
			p = NULL; /* being filled: the server's own read sees a hole */
		bool ahead = fill && p && (p->state & PCP_READAHEAD);
		if (p)
			__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
		if (ahead) /* the next window goes now (one reader clears the mark) */
			p->state &= (uint8_t)~PCP_READAHEAD;
		spin_unlock(&o->lock);
		if (ahead)
			pcache_pager_ahead(o, pos >> PAGE_SHIFT);
		if (fill && !p) {
			/* not in memory: the server's, while we sleep */
			uint64_t want = ((off + len - 1) >> PAGE_SHIFT) - (pos >> PAGE_SHIFT) + 1;
			int r = pcache_backed_get(o, pos >> PAGE_SHIFT, want > UINT32_MAX ? UINT32_MAX : (uint32_t)want, &p);
			if (r == 1)
				break; /* shrunk meanwhile: a short read */
			if (r < 0) {
				err = r;
				break;
			}
			spin_lock(&o->lock);
			size = o->attr.size;
			spin_unlock(&o->lock);
			if (pos >= size) {
				pcache_page_put(p);
				break;
			}
			chunk = pcache_min(pcache_min(PAGE_SIZE - in, len - done), size - pos);
		}
		/* a hole reads as zeros and allocates nothing */
		const uint8_t *src = p ? (const uint8_t *)page_to_virt(p->pg) + in : pcache_zeros;
		size_t got = pcache_copy((void *)src, (uint8_t *)ubuf + done, chunk, true);
		if (p) {
			pcache_lru_touch(p);
			pcache_page_put(p);
		}
		done += got;
		if (got < chunk) {
			err = -EFAULT;
			break;
		}
		sched_cond_resched();
	}
	if (done) {
		spin_lock(&o->lock);
		o->attr.atime = clock_file_ns();
		spin_unlock(&o->lock);
	}
	return done ? (long)done : err;
}

/* The page at index, made (charged to cg) if it was a hole; a reference
 * for the caller, or NULL with *err set. *fresh: it was made unzeroed
 * (whole: the caller overwrites all of it, and zeroes what it could not
 * copy; only past the size, where no reader looks). Write lock held:
 * nobody else adds pages or moves the size. */
static struct pcache_page *pcache_page_for_write(struct pcache_obj *o, uint64_t index, struct cgroup *cg,
						 bool whole, bool fill, bool *fresh, long *err)
{
	bool whole_write = whole;
	spin_lock(&o->lock);
	struct pcache_page *p = o->dead ? NULL : pcache_tree_lookup(o, index);
	bool dead = o->dead;
	bool inside = (index << PAGE_SHIFT) < o->attr.size;
	/* unzeroed only past the size: a reader never gets there before
	 * the copy is done and the size grown (the write lock keeps it) */
	whole = whole && !inside;
	/* a backed page with bytes in the store: read it first, unless
	 * the write covers all of it (Linux's partial-page read) */
	bool need = (o->flags & PCACHE_BACKED) && p ? !(p->state & PCP_UPTODATE)
		    : (o->flags & PCACHE_BACKED) && inside && !whole_write && fill;
	if (p && !need)
		__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
	spin_unlock(&o->lock);
	if (need && !dead) {
		int r = pcache_backed_get(o, index, 1, &p);
		if (r == 0)
			return p;
		if (r < 0) {
			*err = r;
			return NULL;
		}
		p = NULL; /* past the size after all: a new page */
	}
	if (p || dead) {
		*err = -EIO;
		return p;
	}
	p = pcache_page_new(o, index, cg, !whole);
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	*fresh = whole;
	spin_lock(&o->lock);
	/* a mapping's fault may have made the page meanwhile (faults add
	 * pages without the write lock): take that one */
	struct pcache_page *had = o->dead ? NULL : pcache_tree_lookup(o, index);
	uint64_t shadow = 0;
	int r = o->dead ? -EIO : had ? 0 : pcache_tree_insert(o, p, &shadow);
	if (had) {
		bool wait = !(had->state & PCP_UPTODATE); /* a reader's fill came first */
		if (!wait)
			__atomic_add_fetch(&had->refs, 1, __ATOMIC_RELAXED);
		spin_unlock(&o->lock);
		*fresh = false;
		pcache_page_put(p);
		if (wait) {
			int w = pcache_backed_get(o, index, 1, &had);
			if (w) {
				*err = w < 0 ? w : -EIO;
				return NULL;
			}
		}
		return had;
	}
	if (r == 0)
		__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
	spin_unlock(&o->lock);
	if (r) {
		*err = r;
		pcache_page_put(p);
		return NULL;
	}
	pcache_lru_add(p);
	if (shadow)
		pcache_refault(p, shadow);
	return p;
}

/* ---- block reservations (docs/fs.md, "Reservations") ---- */

/* Before a client's write dirties page index of o: 0 with *took (a unit
 * of the budget taken for it: the caller puts it on the page or gives it
 * back, pcache_resv_settle), 0 without (none needed: reservations off,
 * below resv_from, or the page holds one), -EAGAIN (none left: the
 * server must be asked, without the write lock, pcache_fd_write). */
static int pcache_resv_take(struct pcache_obj *o, uint64_t index, bool *took)
{
	bool root = current_thread()->proc->cred.euid == 0;
	*took = false;
	spin_lock(&o->lock);
	struct pcache_page *p = o->resv_on && index >= o->resv_from ? pcache_tree_lookup(o, index) : NULL;
	int r = 0;
	if (!o->resv_on || index < o->resv_from || (p && (p->state & PCP_RESV)))
		r = 0;
	else if (o->resv > (root ? 0 : o->resv_root))
		o->resv--, *took = true;
	else
		r = -EAGAIN;
	spin_unlock(&o->lock);
	return r;
}

/* The write to p is over (copied: whether any byte was); obj->lock held.
 * The unit taken goes on the page, or back to the budget. */
static void pcache_resv_settle(struct pcache_obj *o, struct pcache_page *p, bool took, bool copied)
{
	if (!took)
		return;
	if (copied && !(p->state & PCP_RESV) && pcache_tree_lookup(o, p->index) == p) {
		p->state |= PCP_RESV;
		o->resv_held++;
	} else {
		o->resv++;
	}
}

/* A page holding a unit leaves o's tree, unwritten: the unit goes back
 * to the budget (obj->lock held). */
static void pcache_resv_drop(struct pcache_obj *o, struct pcache_page *p)
{
	if (!(p->state & PCP_RESV))
		return;
	p->state &= (uint8_t)~PCP_RESV;
	o->resv_held--;
	o->resv++;
}

int pcache_resv_map(struct pcache_obj *o, struct page *pg)
{
	struct pcache_page *p = pg->private;
	bool root = current_thread()->proc->cred.euid == 0;
	int r = 0;
	spin_lock(&o->lock);
	if (o->resv_on && p->index >= o->resv_from && !(p->state & PCP_RESV) &&
	    pcache_tree_lookup(o, p->index) == p) {
		if (o->resv > (root ? 0 : o->resv_root)) {
			o->resv--;
			p->state |= PCP_RESV;
			o->resv_held++;
		} else {
			r = -EAGAIN;
		}
	}
	spin_unlock(&o->lock);
	return r;
}

bool pcache_resv_ready(struct pcache_obj *o, uint64_t index)
{
	bool root = current_thread()->proc->cred.euid == 0;
	spin_lock(&o->lock);
	bool ready = !o->resv_on || index < o->resv_from || o->resv > (root ? 0 : o->resv_root);
	spin_unlock(&o->lock);
	return ready;
}

void pcache_resv_swap(struct pcache_obj *o, const struct pcache_resv *set, struct pcache_resv *old)
{
	spin_lock(&o->lock);
	*old = (struct pcache_resv){ .budget = o->resv, .root = o->resv_root, .from = o->resv_from,
				     .held = o->resv_held };
	if (set) {
		o->resv_on = true;
		o->resv = set->budget;
		o->resv_root = set->root;
		o->resv_from = set->from;
	}
	spin_unlock(&o->lock);
}

long pcache_obj_write(struct pcache_obj *o, uint64_t off, const void *ubuf, size_t len,
		      struct cgroup *cg, bool dirty, uint64_t *end)
{
	spin_lock(&o->lock);
	bool dead = o->dead;
	if (off == PCACHE_APPEND)
		off = o->attr.size;
	spin_unlock(&o->lock);
	*end = off;
	if (dead)
		return -EIO;
	if (len == 0)
		return 0;
	if (off >= o->max)
		return -EFBIG;
	if (len > o->max - off)
		len = (size_t)(o->max - off); /* a short write, as Linux */
	size_t done = 0;
	uint64_t pages = 0;
	long err = 0;
	while (done < len) {
		uint64_t pos = off + done;
		size_t in = pos & (PAGE_SIZE - 1);
		size_t chunk = pcache_min(PAGE_SIZE - in, len - done);
		if (pcache_killed(&pages)) {
			err = -EINTR;
			break;
		}
		bool fresh = false, took = false;
		/* a client's write takes a block reservation for a page the
		 * store may have no block for (ENOSPC: a short write) */
		if (dirty && (err = pcache_resv_take(o, pos >> PAGE_SHIFT, &took))) {
			o->resv_want = (pos >> PAGE_SHIFT) + 1; /* the writer asks (write lock held) */
			break;
		}
		/* a server's own write (clean) never asks itself for a fill: a
		 * missing page it writes part of is a zeroed one */
		struct pcache_page *p = pcache_page_for_write(o, pos >> PAGE_SHIFT, cg, chunk == PAGE_SIZE, dirty, &fresh,
							      &err);
		if (!p) {
			if (took) {
				spin_lock(&o->lock);
				o->resv++;
				spin_unlock(&o->lock);
			}
			break;
		}
		uint8_t *at = (uint8_t *)page_to_virt(p->pg) + in;
		size_t got = pcache_copy(at, (uint8_t *)ubuf + done, chunk, false);
		if (fresh && got < chunk) /* never let a fresh page show old memory */
			memset(at + got, 0, chunk - got);
		if (got) {
			spin_lock(&o->lock);
			if (dirty && !(p->state & PCP_DIRTY) && pcache_tree_lookup(o, p->index) == p)
				pcache_page_dirtied(p, cg, current_thread()->proc->pid);
			if (pos + got > o->attr.size)
				o->attr.size = pos + got;
			pcache_resv_settle(o, p, took, true);
			spin_unlock(&o->lock);
		} else if (took) {
			spin_lock(&o->lock);
			pcache_resv_settle(o, p, took, false);
			spin_unlock(&o->lock);
		}
		pcache_lru_touch(p);
		pcache_page_put(p);
		done += got;
		if (got < chunk) {
			err = -EFAULT;
			break;
		}
		sched_cond_resched();
	}
	if (done) {
		uint64_t now = clock_file_ns();
		spin_lock(&o->lock);
		o->attr.mtime = o->attr.ctime = now;
		spin_unlock(&o->lock);
	}
	*end = off + done;
	return done ? (long)done : err;
}

int pcache_obj_truncate(struct pcache_obj *o, uint64_t size)
{
	if (size > o->max)
		return -EFBIG;
	uint64_t now = clock_file_ns();
	spin_lock(&o->lock);
	if (o->dead) {
		spin_unlock(&o->lock);
		return -EIO;
	}
	uint64_t old = o->attr.size;
	o->attr.size = size; /* readers stop here from now on */
	o->attr.mtime = o->attr.ctime = now;
	struct pcache_page *last = NULL;
	if (size < old && (size & (PAGE_SIZE - 1))) {
		last = pcache_tree_lookup(o, size >> PAGE_SHIFT);
		if (last)
			__atomic_add_fetch(&last->refs, 1, __ATOMIC_RELAXED);
	}
	spin_unlock(&o->lock);
	if (size >= old)
		return 0; /* growth needs nothing: holes read as zeros */
	/* mappings lose the pages past the end first (their next access
	 * faults: SIGBUS), so that freeing them frees their frames */
	pcache_map_unmap_from(o, (size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	pcache_free_from(o, (size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	if (last) { /* bytes past the end stay zero for a later extension */
		size_t tail = size & (PAGE_SIZE - 1);
		memset((uint8_t *)page_to_virt(last->pg) + tail, 0, PAGE_SIZE - tail);
		pcache_page_put(last);
	}
	return 0;
}

/* The first present page at or after `from` in the subtree n (of level
 * level, whose first index is base), or NULL: visits only what exists. */
static struct pcache_page *pcache_tree_next(struct pcache_node *n, int level, uint64_t base, uint64_t from)
{
	if (!n)
		return NULL;
	uint64_t span = 1ull << (PCACHE_FANOUT_SHIFT * (PCACHE_LEVELS - 1 - level));
	for (unsigned s = from > base ? (unsigned)((from - base) / span) : 0; s < PCACHE_FANOUT; s++) {
		if (!n->slot[s])
			continue;
		if (level == PCACHE_LEVELS - 1) {
			if (PCACHE_IS_SHADOW(n->slot[s]))
				continue;
			return n->slot[s];
		}
		struct pcache_page *p = pcache_tree_next(n->slot[s], level + 1, base + s * span, from);
		if (p)
			return p;
	}
	return NULL;
}

struct pcache_page *pcache_tree_next_page(struct pcache_obj *o, uint64_t from)
{
	return pcache_tree_next(o->root, 0, 0, from);
}

uint32_t pcache_obj_dirty(struct pcache_obj *o, uint64_t from, uint64_t *out, uint32_t max)
{
	uint32_t n = 0;
	while (n < max && from < PCACHE_IDX_MAX) {
		spin_lock(&o->lock); /* one page found per hold: a bounded walk */
		struct pcache_page *p = o->dead ? NULL : pcache_tree_next(o->root, 0, 0, from);
		bool want = false;
		struct cgroup *was = NULL;
		if (p) {
			from = p->index + 1;
			want = (p->state & PCP_DIRTY) || __atomic_load_n(&p->smapcount, __ATOMIC_RELAXED);
			/* a backed page stays unevictable until its server has it
			 * (and keeps its owner: the server's writeback of it is
			 * charged there, pcache_wb_as) */
			was = pcache_page_set_state(p, want && (o->flags & PCACHE_BACKED) ? PCP_WRITEBACK : 0, PCP_DIRTY);
		}
		spin_unlock(&o->lock);
		cg_put(was);
		if (!p)
			break;
		if (want)
			out[n++] = p->index; /* p may be freed now: only its index kept */
		sched_cond_resched();
	}
	return n;
}

void pcache_obj_getattr(struct pcache_obj *o, struct pcache_attr *out)
{
	spin_lock(&o->lock);
	*out = o->attr;
	out->blocks = o->npages * (PAGE_SIZE / 512);
	spin_unlock(&o->lock);
}

void pcache_obj_setattr(struct pcache_obj *o, const struct pcache_attr *a, uint32_t mask)
{
	spin_lock(&o->lock);
	if (mask & PCACHE_ATTR_IDS) {
		o->attr.dev = a->dev;
		o->attr.ino = a->ino;
		o->attr.rdev = a->rdev;
	}
	if (mask & PCACHE_ATTR_MODE)
		o->attr.mode = a->mode;
	if (mask & PCACHE_ATTR_NLINK)
		o->attr.nlink = a->nlink;
	if (mask & PCACHE_ATTR_OWNER) {
		o->attr.uid = a->uid;
		o->attr.gid = a->gid;
	}
	if (mask & PCACHE_ATTR_ATIME)
		o->attr.atime = a->atime;
	if (mask & PCACHE_ATTR_MTIME)
		o->attr.mtime = a->mtime;
	if (mask & PCACHE_ATTR_CTIME)
		o->attr.ctime = a->ctime;
	if (mask & PCACHE_ATTR_SIZE) /* an attribute-only object's (the caller checked) */
		o->attr.size = a->size;
	if (mask & PCACHE_ATTR_BLOCKS) {
		o->nc_blocks = a->blocks;
		o->nc_srv_blocks = true;
	}
	if (mask & PCACHE_ATTR_STALE)
		o->nc_stale = true;
	else if (mask & PCACHE_ATTR_MTIME) /* a whole push: current again */
		o->nc_stale = false;
	spin_unlock(&o->lock);
}
