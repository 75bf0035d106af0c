/* Fill grants (docs/fs.md, "Zero-copy fills"): a disk file system's pager
 * thread lends the frames of a FILL request's waiting pages to the disk
 * driver it calls next, so the device writes the file's blocks straight
 * into the page cache: no copy from the driver's DMA buffer to the server
 * and none from the server into the pages (pcache_fill), which were two
 * of the three copies of every byte a cold read made.
 *
 * pcache_grant(LEND) marks the pages PCP_FILLING (nobody else fills or
 * fails them; readers and writers wait for them as for any fill: they are
 * not uptodate) and keeps a reference on each in a grant the thread holds.
 * While that thread is in a call, the driver serving it (a process with
 * the driver capability, which may DMA anywhere anyway) asks for the
 * physical pieces of a byte range of the grant (ipc_dma_grant): that pins
 * the grant on the driver's thread until its next ipc_dma_grant or its
 * exit, so the frames outlive a server killed while the device writes.
 * The server ends the loan (FILLED, FAILED or RETURN) once its reads are
 * done; the frames were never mapped into its address space, so nothing
 * of what they held before is shown to it (they are not zeroed first).
 *
 * Writeback grants are the other direction: the pages a writeback took
 * (under writeback, so uptodate: the file's bytes) lent the same way
 * (LEND_WB), for the device to read them into the file's blocks, so a
 * buffered write's bytes are copied once, from the writer into the page
 * cache, instead of four more times through the server and the driver.
 * The loan changes no page's state (WRITTEN ends it; pcache_done marks
 * the pages written). A driver asks for a grant's pieces for one
 * direction (ipc_dma_grant's write): never a fill's frames, which hold
 * whatever they held before, for a write to the disk. */
#include "pcache.h"
#include "internal.h"
#include "abi/errno.h"
#include "heap.h"
#include "kstring.h"
#include "pmm.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

struct pcache_grant {
	uint32_t refs;			/* its server thread's, a driver thread's pin (atomic) */
	struct pcache_obj *obj;		/* a reference */
	uint64_t first;
	uint32_t count;
	bool wb;			/* lent for a writeback: the device reads them */
	struct pcache_page *pages[PCACHE_FILL_MAX];	/* a reference each */
};

/* Pages granted for fills, and of them filled by a device; pages
 * granted for their writeback (/proc/vmstat). */
static uint64_t grant_npages, grant_nfilled, grant_nwritten;

void pcache_grant_stats(uint64_t *lent, uint64_t *filled, uint64_t *written)
{
	*lent = __atomic_load_n(&grant_npages, __ATOMIC_RELAXED);
	*filled = __atomic_load_n(&grant_nfilled, __ATOMIC_RELAXED);
	*written = __atomic_load_n(&grant_nwritten, __ATOMIC_RELAXED);
}

static void grant_put(struct pcache_grant *g)
{
	if (!g || __atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (uint32_t i = 0; i < g->count; i++)
		pcache_page_put(g->pages[i]);
	pcache_obj_put(g->obj);
	kfree(g);
}

/* The loan ends: each page still in its slot becomes uptodate (how
 * FILLED), goes with PCP_ERROR (FAILED) or waits again (RETURN); pages a
 * truncation detached meanwhile were marked PCP_GONE and are left so. */
static void grant_end(struct pcache_grant *g, uint32_t how)
{
	struct pcache_obj *o = g->obj;
	for (uint32_t i = 0; i < g->count; i++) {
		struct pcache_page *p = g->pages[i];
		spin_lock(&o->lock);
		p->state &= (uint8_t)~PCP_FILLING;
		bool in = pcache_tree_lookup(o, g->first + i) == p;
		if (in && how == PCACHE_GRANT_FILLED)
			p->state |= PCP_UPTODATE;
		else if (in && how == PCACHE_GRANT_FAILED) {
			pcache_tree_remove(o, p, 0);
			p->state |= PCP_ERROR;
		}
		spin_unlock(&o->lock);
		if (in && how == PCACHE_GRANT_FAILED) {
			pcache_lru_del(p);
			pcache_page_put(p); /* the tree's reference */
		}
	}
	if (how == PCACHE_GRANT_FILLED)
		__atomic_add_fetch(&grant_nfilled, g->count, __ATOMIC_RELAXED);
	pcache_pager_wake(o);
}

/* Whether page p may be lent: waiting for its fill, or (wb) taken by a
 * writeback (PCP_WRITEBACK: uptodate, not being filled). o->lock held. */
static bool grant_page_ok(const struct pcache_page *p, bool wb)
{
	if (!p || (p->state & (PCP_FILLING | PCP_ERROR)))
		return false;
	if (wb)
		return (p->state & (PCP_UPTODATE | PCP_WRITEBACK)) == (PCP_UPTODATE | PCP_WRITEBACK);
	return !(p->state & PCP_UPTODATE);
}

/* Lends pages [first, first + count) of o, every one of them waiting for
 * its fill (a fill's pages, marked PCP_FILLING) or (wb) under writeback
 * (unchanged): 0 with *out, or -EAGAIN (one is not: nothing is lent),
 * -ENOMEM. */
static int grant_lend(struct pcache_obj *o, uint64_t first, uint32_t count, bool wb, struct pcache_grant **out)
{
	struct pcache_grant *g = kzalloc(sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->refs = 1;
	g->obj = o;
	g->first = first;
	g->wb = wb;
	spin_lock(&o->lock);
	bool ok = !o->dead;
	for (uint32_t i = 0; ok && i < count; i++) {
		struct pcache_page *p = pcache_tree_lookup(o, first + i);
		ok = grant_page_ok(p, wb);
		if (ok)
			g->pages[i] = p;
	}
	for (uint32_t i = 0; ok && i < count; i++) {
		if (!wb)
			g->pages[i]->state |= PCP_FILLING;
		__atomic_add_fetch(&g->pages[i]->refs, 1, __ATOMIC_RELAXED);
	}
	spin_unlock(&o->lock);
	if (!ok) {
		kfree(g);
		return -EAGAIN;
	}
	g->count = count;
	pcache_obj_get(o);
	__atomic_add_fetch(wb ? &grant_nwritten : &grant_npages, count, __ATOMIC_RELAXED);
	*out = g;
	return 0;
}

long sys_pcache_grant(int ep_h, uint64_t id, uint64_t first, uint32_t count, uint32_t how)
{
	struct thread *self = current_thread();
	if (how < PCACHE_GRANT_LEND || how > PCACHE_GRANT_WRITTEN)
		return -EINVAL;
	bool lend = how == PCACHE_GRANT_LEND || how == PCACHE_GRANT_LEND_WB;
	if (count == 0 || count > PCACHE_FILL_MAX || first >= PCACHE_MAX_BYTES >> PAGE_SHIFT ||
	    count > (PCACHE_MAX_BYTES >> PAGE_SHIFT) - first)
		return -EINVAL;
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r); /* the server's own: HANDLE_RIGHT_MANAGE */
	if (!o)
		return r;
	struct pcache_grant *g = self->fill_grant;
	if (lend) {
		r = g ? -EBUSY :
		    !(o->flags & PCACHE_BACKED) ? -EINVAL :
						   grant_lend(o, first, count, how == PCACHE_GRANT_LEND_WB, &g);
		if (r == 0) {
			uint64_t f = sched_lock_ipc();
			self->fill_grant = g;
			sched_unlock_ipc(f);
		}
	} else if (!g) {
		r = -ENOENT;
	} else if (g->obj != o || g->first != first || g->count != count || g->wb != (how == PCACHE_GRANT_WRITTEN)) {
		r = -EINVAL; /* not this loan, or an end of the other kind's */
	} else {
		uint64_t f = sched_lock_ipc(); /* no driver takes it from now on */
		self->fill_grant = NULL;
		sched_unlock_ipc(f);
		if (!g->wb)
			grant_end(g, how);
		grant_put(g);
		r = count;
	}
	pcache_obj_put(o);
	return r;
}

/* The pieces of bytes [off, off + len) of g: how many, or -E2BIG (more
 * than max). */
static long grant_segs(const struct pcache_grant *g, uint64_t off, uint64_t len, struct pcache_dma_seg *segs,
		       uint32_t max)
{
	uint32_t n = 0;
	for (uint64_t at = off; at < off + len;) {
		uint32_t in = (uint32_t)(at & (PAGE_SIZE - 1));
		uint32_t piece = (uint32_t)MIN((uint64_t)(PAGE_SIZE - in), off + len - at);
		uint64_t phys = page_to_phys(g->pages[at >> PAGE_SHIFT]->pg) + in;
		if (n && segs[n - 1].phys + segs[n - 1].len == phys) {
			segs[n - 1].len += piece; /* frames next to each other: one piece */
		} else {
			if (n == max)
				return -E2BIG;
			segs[n++] = (struct pcache_dma_seg){ phys, piece, 0 };
		}
		at += piece;
	}
	return n;
}

long sys_ipc_dma_grant(uint64_t off, uint64_t len, struct pcache_dma_seg *usegs, uint32_t max, uint32_t write)
{
	struct thread *self = current_thread();
	if (!(self->proc->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (!usegs) { /* unpin */
		if (off || len || max || write)
			return -EINVAL;
		struct pcache_grant *old = self->dma_pin;
		self->dma_pin = NULL;
		grant_put(old);
		return 0;
	}
	if (len == 0 || (off | len) % 512 || max == 0 || write > 1)
		return -EINVAL;
	max = MIN(max, (uint32_t)PCACHE_DMA_SEGS_MAX);
	if (!user_range_ok((uint64_t)usegs, (size_t)max * sizeof(*usegs)))
		return -EFAULT;
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	struct pcache_grant *g = c ? c->fill_grant : NULL;
	if (g && g->wb != (write == 1))
		g = NULL; /* lent for the other direction: nothing for this one */
	if (g)
		__atomic_add_fetch(&g->refs, 1, __ATOMIC_RELAXED);
	sched_unlock_ipc(f);
	if (!g)
		return c ? -ENOENT : -ESRCH;
	uint64_t size = (uint64_t)g->count << PAGE_SHIFT;
	struct pcache_dma_seg segs[PCACHE_DMA_SEGS_MAX];
	long n = off >= size || len > size - off ? -EINVAL : grant_segs(g, off, len, segs, max);
	if (n > 0 && copy_to_user(usegs, segs, (size_t)n * sizeof(segs[0])))
		n = -EFAULT;
	if (n < 0) {
		grant_put(g);
		return n;
	}
	struct pcache_grant *old = self->dma_pin;
	self->dma_pin = g; /* pinned until the next call or the thread's exit */
	grant_put(old);
	return n;
}

void pcache_grant_thread_exit(struct thread *t)
{
	/* only t itself sets either (it is ending): a thread that never
	 * filled a page or pinned a DMA grant (every one but the pagers'
	 * and drivers') takes no lock (fork + exit + wait paid 30 guest
	 * instructions here) */
	if (!t->fill_grant && !t->dma_pin)
		return;
	uint64_t f = sched_lock_ipc();
	struct pcache_grant *g = t->fill_grant;
	t->fill_grant = NULL;
	sched_unlock_ipc(f);
	if (g) { /* a fill's readers ask again; a writeback's pages stay as they are */
		if (!g->wb)
			grant_end(g, PCACHE_GRANT_FAILED);
		grant_put(g);
	}
	grant_put(t->dma_pin);
	t->dma_pin = NULL;
}
