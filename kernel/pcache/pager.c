/* The pager (pcache.h, docs/vfs.md "The pager", docs/fs.md "The pager
 * protocol"): pages of PCACHE_BACKED objects that are not in memory are
 * asked of the server that owns the object, and eviction of clean ones.
 *
 * A reader (read, a partial-page write, a mapping's fault) that meets a
 * missing page within the size puts "placeholder" pages in the tree for
 * a readahead window from it (not uptodate; frames charged to the
 * reader's cgroup, as Linux charges the page cache to whoever brings a
 * page in), queues one FILL request for the window on the server's
 * endpoint, and sleeps on the pager's wait queue until its page is
 * uptodate, failed, detached by a truncation, or the server died.
 * Others wanting a page of the window find its placeholder and sleep
 * too: one request per missing range. The server's pager threads take
 * requests with pcache_pager_wait and answer with pcache_fill (bytes, or
 * an errno for the range: the readers get -EIO, the pages go).
 *
 * Each endpoint has one pager: a ring of PCACHE_PAGER_QMAX requests, the
 * only memory requests take (no allocation per request); a reader finding
 * it full waits for room, killably. The pager is referenced by the
 * endpoint's table and by each backed object, so an object that outlives
 * its table (a descriptor keeps it) still finds it dead. Its lock is
 * never held with an object's lock.
 *
 * Readahead follows Linux's on-demand readahead: a miss at page 0 or
 * right where the last window ended is sequential and doubles the window
 * (up to PCACHE_FILL_MAX pages); any other miss is random and asks for
 * the reader's own request only (at least PAGER_RA_MIN pages), which
 * resets the window. A sequential window carries a marker page
 * (PCP_READAHEAD, Linux's PG_readahead): the first page past what the
 * reader asked for, or, when the reader wants the whole window, the
 * next window is asked for at once. A reader that meets a marker
 * (present or still being filled) clears it and asks for the next
 * window without waiting for it (pcache_pager_ahead), whose first page
 * carries the next marker: a sequential reader keeps one window in
 * flight ahead of it. Asynchronous windows are charged and accounted
 * to the reader as its own misses are, take a ring slot only while the
 * ring is at most half full (never waiting: a reader's own misses, and
 * other clients', always find room), and are dropped as any request
 * when the object is truncated, freed or its server dies. A window
 * stops at the first page present and at the size. */
#include "pcache.h"
#include "internal.h"
#include "abi/errno.h"
#include "cgroup.h"
#include "heap.h"
#include "ipc.h"
#include "kstring.h"
#include "memcg.h"
#include "pmm.h"
#include "proc.h"
#include "syscall.h"
#include "timer.h"

#define PAGER_RA_MIN 4
/* Asynchronous windows take a slot only while fewer are queued. */
#define PAGER_RA_RING (PCACHE_PAGER_QMAX / 2)

/* Counters for /proc/vmstat (pcache_pager_stats): FILL requests queued,
 * their pages, and of them the asynchronous windows. */
static uint64_t pager_nfills, pager_nfill_pages, pager_nra_async, pager_nra_async_pages;

void pcache_pager_stats(struct pcache_pager_stats *out)
{
	out->fills = __atomic_load_n(&pager_nfills, __ATOMIC_RELAXED);
	out->fill_pages = __atomic_load_n(&pager_nfill_pages, __ATOMIC_RELAXED);
	out->ra_async = __atomic_load_n(&pager_nra_async, __ATOMIC_RELAXED);
	out->ra_async_pages = __atomic_load_n(&pager_nra_async_pages, __ATOMIC_RELAXED);
}

struct pager_req {
	struct pcache_obj *obj;		/* a reference */
	uint64_t first, seq;
	uint32_t count, kind;
	uint64_t for_cg;		/* who asked (its cgroup's id, its pid): the */
	int32_t for_pid;		/* server's disk I/O for it is charged to them */
};

struct pcache_pager {
	uint32_t refs;			/* the table's and each backed object's (atomic) */
	struct spinlock lock;
	bool dead;			/* its endpoint died */
	uint32_t head, n;		/* the ring's queued requests */
	uint32_t reserved;		/* slots promised to requesters filling their windows */
	struct pager_req ring[PCACHE_PAGER_QMAX];
	struct waitq wait_req;		/* pager threads */
	struct waitq wait_room;		/* requesters, for a free slot */
	struct waitq wait_fill;		/* readers of its objects and writeback requests */
};

struct pcache_pager *pcache_pager_new(void)
{
	struct pcache_pager *pg = kzalloc(sizeof(*pg));
	if (!pg)
		return NULL;
	pg->refs = 1;
	pg->lock = (struct spinlock)SPINLOCK_INIT("pcache_pager");
	waitq_init(&pg->wait_req);
	waitq_init(&pg->wait_room);
	waitq_init(&pg->wait_fill);
	return pg;
}

void pcache_pager_get(struct pcache_pager *pg)
{
	__atomic_add_fetch(&pg->refs, 1, __ATOMIC_RELAXED);
}

void pcache_pager_put(struct pcache_pager *pg)
{
	if (__atomic_sub_fetch(&pg->refs, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(pg); /* dead and drained: the table killed it first */
}

void pcache_pager_wake(struct pcache_obj *o)
{
	waitq_wake_all(&o->pager->wait_fill, 0);
}

static bool pager_dead(struct pcache_pager *pg)
{
	return __atomic_load_n(&pg->dead, __ATOMIC_ACQUIRE);
}

void pcache_pager_kill(struct pcache_pager *pg)
{
	struct pager_req drop[PCACHE_PAGER_QMAX];
	spin_lock(&pg->lock);
	__atomic_store_n(&pg->dead, true, __ATOMIC_RELEASE);
	uint32_t n = pg->n;
	for (uint32_t i = 0; i < n; i++)
		drop[i] = pg->ring[(pg->head + i) % PCACHE_PAGER_QMAX];
	pg->n = 0;
	spin_unlock(&pg->lock);
	for (uint32_t i = 0; i < n; i++)
		pcache_obj_put(drop[i].obj);
	waitq_wake_all(&pg->wait_req, -EIO);
	waitq_wake_all(&pg->wait_room, -EIO);
	waitq_wake_all(&pg->wait_fill, -EIO);
}

/* ---- the queue ---- */

/* A slot for one request, waited for while the ring is full: 0, -EIO
 * (the server died), -EINTR (a fatal signal), -ETIMEDOUT (deadline). */
static int pager_reserve(struct pcache_pager *pg, uint64_t deadline)
{
	struct thread *self = current_thread();
	spin_lock(&pg->lock);
	while (!pg->dead && pg->n + pg->reserved >= PCACHE_PAGER_QMAX) {
		if (thread_fatal_signal(self)) {
			spin_unlock(&pg->lock);
			return -EINTR;
		}
		if (waitq_wait(&pg->wait_room, &pg->lock, deadline) == -ETIMEDOUT)
			return -ETIMEDOUT;
		spin_lock(&pg->lock);
	}
	int r = pg->dead ? -EIO : 0;
	if (!r)
		pg->reserved++;
	spin_unlock(&pg->lock);
	return r;
}

/* A slot for an asynchronous window, only while the ring is at most
 * half full (no wait): whether one was taken. */
static bool pager_reserve_ahead(struct pcache_pager *pg)
{
	spin_lock(&pg->lock);
	bool ok = !pg->dead && pg->n + pg->reserved < PAGER_RA_RING;
	if (ok)
		pg->reserved++;
	spin_unlock(&pg->lock);
	return ok;
}

static void pager_unreserve(struct pcache_pager *pg)
{
	spin_lock(&pg->lock);
	pg->reserved--;
	spin_unlock(&pg->lock);
	waitq_wake_all(&pg->wait_room, 0);
}

/* Queues a request in the slot reserved for it (the object's reference
 * taken here); a dead pager drops it. */
static void pager_submit(struct pcache_pager *pg, struct pcache_obj *o, uint64_t first, uint32_t count,
			 uint32_t kind, uint64_t seq)
{
	struct proc *me = current_thread()->proc;
	uint64_t for_cg = me->cgroup->id;
	pcache_obj_get(o);
	spin_lock(&pg->lock);
	pg->reserved--;
	bool dead = pg->dead;
	if (!dead) {
		pg->ring[(pg->head + pg->n) % PCACHE_PAGER_QMAX] =
			(struct pager_req){ .obj = o, .first = first, .count = count, .kind = kind, .seq = seq,
					    .for_cg = for_cg, .for_pid = me->pid };
		pg->n++;
	}
	spin_unlock(&pg->lock);
	if (dead)
		pcache_obj_put(o);
	else
		waitq_wake_all(&pg->wait_req, 0);
}

/* ---- readers ---- */

/* Waits until p (referenced) is uptodate: 0; 1 if it was detached before
 * its fill (a truncation: look again); -EIO (its fill failed, the server
 * died), -EINTR (fatal signal). Drops the reference unless 0. */
static int pager_wait_page(struct pcache_obj *o, struct pcache_page *p)
{
	struct thread *self = current_thread();
	struct pcache_pager *pg = o->pager;
	int r;
	spin_lock(&o->lock);
	for (;;) {
		if (p->state & PCP_UPTODATE) {
			r = 0;
			break;
		}
		if (o->dead || (p->state & PCP_ERROR) || pager_dead(pg)) {
			r = -EIO;
			break;
		}
		if (p->state & PCP_GONE) {
			r = 1;
			break;
		}
		if (thread_fatal_signal(self)) {
			r = -EINTR;
			break;
		}
		waitq_wait(&pg->wait_fill, &o->lock, 0); /* a signal: look again */
		spin_lock(&o->lock);
	}
	spin_unlock(&o->lock);
	if (r)
		pcache_page_put(p);
	return r;
}

/* The window to ask for at a miss at index (see the top of the file):
 * its size, and whether the miss continues a sequential stream. */
static uint32_t pager_window(struct pcache_obj *o, uint64_t index, uint32_t want, bool *seq)
{
	uint32_t win = want < PAGER_RA_MIN ? PAGER_RA_MIN : want;
	spin_lock(&o->lock);
	*seq = index == 0 || (o->ra_win && index == o->ra_next);
	if (*seq && index && o->ra_win * 2 > win)
		win = o->ra_win * 2;
	spin_unlock(&o->lock);
	return win > PCACHE_FILL_MAX ? PCACHE_FILL_MAX : win;
}

void pcache_refault(struct pcache_page *p, uint64_t shadow)
{
	memcg_workingset_refault(p->pg->charge, shadow, p);
}

/* Puts up to n placeholder pages (pages[], made by the caller) in the
 * tree from index on, stopping at a present page or the size: how many
 * (0: index itself is present now, or past the size, or dead). The
 * first one gets a reference for the caller; shadows[i] what page i
 * replaced; page mark (if put in) carries the readahead marker. */
static uint32_t pager_insert(struct pcache_obj *o, uint64_t index, struct pcache_page **pages, uint32_t n,
			     uint64_t *shadows, uint32_t mark)
{
	uint32_t done = 0;
	spin_lock(&o->lock);
	uint64_t end = (o->attr.size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	while (!o->dead && done < n && index + done < end && !pcache_tree_present(o, index + done)) {
		struct pcache_page *p = pages[done];
		p->state = done == mark ? PCP_READAHEAD : 0; /* not uptodate: its fill comes */
		if (pcache_tree_insert(o, p, &shadows[done]))
			break;
		done++;
	}
	if (done) {
		__atomic_add_fetch(&pages[0]->refs, 1, __ATOMIC_RELAXED);
		o->ra_next = index + done;
		o->ra_win = n;
	}
	spin_unlock(&o->lock);
	return done;
}

/* Frames for up to win placeholder pages of o from index, charged to
 * the reader (none under a lock; past its limit fewer): how many. */
static uint32_t pager_frames(struct pcache_obj *o, uint64_t index, uint32_t win, struct pcache_page **pages)
{
	struct cgroup *cg = memcg_requester();
	uint32_t made = 0;
	while (made < win && (pages[made] = pcache_page_new(o, index + made, cg, false)))
		made++;
	cg_put(cg);
	return made;
}

/* The n pages put in go on their LRU lists and the request for them is
 * queued (in the slot reserved for it) and counted. */
static void pager_queue_fill(struct pcache_obj *o, uint64_t index, struct pcache_page **pages, uint32_t n,
			     const uint64_t *shadows)
{
	for (uint32_t i = 0; i < n; i++) {
		pcache_lru_add(pages[i]);
		if (shadows[i])
			pcache_refault(pages[i], shadows[i]);
	}
	__atomic_add_fetch(&pager_nfills, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&pager_nfill_pages, n, __ATOMIC_RELAXED);
	pager_submit(o->pager, o, index, n, PCACHE_REQ_FILL, 0);
}

void pcache_pager_ahead(struct pcache_obj *o, uint64_t index)
{
	struct pcache_pager *pg = o->pager;
	struct pcache_page *pages[PCACHE_FILL_MAX];
	uint64_t shadows[PCACHE_FILL_MAX];
	if (!(o->flags & PCACHE_BACKED) || !pager_reserve_ahead(pg))
		return;
	spin_lock(&o->lock);
	/* the stream the marker belongs to: its next window starts past
	 * the marker, within two windows of it (else another reader moved
	 * the state meanwhile: no guess) */
	uint64_t start = o->ra_next;
	uint32_t win = o->ra_win * 2 > PCACHE_FILL_MAX ? PCACHE_FILL_MAX : o->ra_win * 2;
	bool go = !o->dead && o->ra_win && start > index && start - index <= 2 * PCACHE_FILL_MAX;
	spin_unlock(&o->lock);
	uint32_t made = go ? pager_frames(o, start, win < PAGER_RA_MIN ? PAGER_RA_MIN : win, pages) : 0;
	uint32_t n = made ? pager_insert(o, start, pages, made, shadows, 0) : 0;
	for (uint32_t i = n; i < made; i++)
		pcache_page_put(pages[i]);
	if (!n) {
		pager_unreserve(pg);
		return;
	}
	__atomic_add_fetch(&pager_nra_async, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&pager_nra_async_pages, n, __ATOMIC_RELAXED);
	pager_queue_fill(o, start, pages, n, shadows);
	pcache_page_put(pages[0]); /* the reference pager_insert took: nobody waits here */
}

/* Asks for a window from index: 0 with *out (the first page, a
 * reference, not yet uptodate), 1 if another brought index in meanwhile
 * (look again), 2 past the size, -errno. A sequential miss marks the
 * first page past the reader's want, or (it wants the whole window)
 * sets *ahead: the caller asks for the next window at once (not from
 * here: two windows' arrays on the kernel stack). */
static int pager_request(struct pcache_obj *o, uint64_t index, uint32_t want, struct pcache_page **out,
			 bool *ahead)
{
	struct pcache_pager *pg = o->pager;
	struct pcache_page *pages[PCACHE_FILL_MAX];
	uint64_t shadows[PCACHE_FILL_MAX];
	bool seq;
	uint32_t win = pager_window(o, index, want, &seq);
	int r = pager_reserve(pg, 0);
	if (r)
		return r;
	uint32_t made = pager_frames(o, index, win, pages);
	if (!made) {
		pager_unreserve(pg);
		return -ENOMEM;
	}
	uint32_t mark = seq && want < made ? want : UINT32_MAX;
	uint32_t n = pager_insert(o, index, pages, made, shadows, mark);
	for (uint32_t i = n; i < made; i++)
		pcache_page_put(pages[i]);
	if (!n) {
		pager_unreserve(pg);
		spin_lock(&o->lock);
		bool past = index >= (o->attr.size + PAGE_SIZE - 1) >> PAGE_SHIFT, dead = o->dead;
		bool there = pcache_tree_present(o, index);
		spin_unlock(&o->lock);
		/* neither brought in by another nor past the end: no memory
		 * for a tree node */
		return dead ? -EIO : past ? 2 : there ? 1 : -ENOMEM;
	}
	pager_queue_fill(o, index, pages, n, shadows);
	*ahead = seq && want >= made && n == made;
	*out = pages[0];
	return 0;
}

int pcache_backed_get(struct pcache_obj *o, uint64_t index, uint32_t want, struct pcache_page **out)
{
	for (;;) {
		spin_lock(&o->lock);
		if (o->dead) {
			spin_unlock(&o->lock);
			return -EIO;
		}
		if (index >= (o->attr.size + PAGE_SIZE - 1) >> PAGE_SHIFT) {
			spin_unlock(&o->lock);
			return 1;
		}
		struct pcache_page *p = pcache_tree_lookup(o, index);
		bool ahead = p && (p->state & PCP_READAHEAD);
		if (p)
			__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
		if (ahead) /* one reader asks for the next window */
			p->state &= (uint8_t)~PCP_READAHEAD;
		spin_unlock(&o->lock);
		int r;
		if (ahead)
			pcache_pager_ahead(o, index); /* before waiting for p */
		if (!p) {
			r = pager_request(o, index, want, &p, &ahead);
			if (r == 2)
				return 1;
			if (r == 1)
				continue;
			if (r < 0)
				return r;
			if (ahead)
				pcache_pager_ahead(o, index);
		}
		r = pager_wait_page(o, p);
		if (r == 0) {
			*out = p;
			return 0;
		}
		if (r < 0)
			return r;
		/* detached before its fill: look again */
	}
}

/* ---- writeback for reclaim ---- */

/* Queues a request of kind (WRITEBACK or RESERVE, for page first) for o
 * and waits for its pcache_done (until deadline: 0 none). */
static int pager_ask(struct pcache_obj *o, uint32_t kind, uint64_t first, uint64_t deadline)
{
	struct pcache_pager *pg = o->pager;
	struct thread *self = current_thread();
	int r = pager_reserve(pg, deadline);
	if (r)
		return r;
	spin_lock(&o->lock);
	uint64_t seq = ++o->wb_seq;
	spin_unlock(&o->lock);
	pager_submit(pg, o, first, 0, kind, seq);
	spin_lock(&o->lock);
	for (;;) {
		if (o->wb_done >= seq) {
			r = 0;
			break;
		}
		if (o->dead || pager_dead(pg)) {
			r = -EIO;
			break;
		}
		if (thread_fatal_signal(self)) {
			r = -EINTR;
			break;
		}
		if (waitq_wait(&pg->wait_fill, &o->lock, deadline) == -ETIMEDOUT)
			return -ETIMEDOUT;
		spin_lock(&o->lock);
	}
	spin_unlock(&o->lock);
	return r;
}

int pcache_writeback_request(struct pcache_obj *o, uint64_t timeout_ns)
{
	if (!(o->flags & PCACHE_BACKED))
		return -EINVAL;
	return pager_ask(o, PCACHE_REQ_WRITEBACK, 0, clock_ns() + (timeout_ns ? timeout_ns : 1));
}

int pcache_resv_ask(struct pcache_obj *o, uint64_t index)
{
	return pager_ask(o, PCACHE_REQ_RESERVE, index, 0);
}

void pcache_writeback_kick(struct pcache_obj *o)
{
	struct pcache_pager *pg = o->pager;
	spin_lock(&o->lock);
	bool busy = o->wb_seq > o->wb_done || o->dead;
	spin_unlock(&o->lock);
	if (busy || !pg || pager_reserve(pg, clock_ns()) != 0)
		return;
	spin_lock(&o->lock);
	uint64_t seq = ++o->wb_seq;
	spin_unlock(&o->lock);
	pager_submit(pg, o, 0, 0, PCACHE_REQ_WRITEBACK, seq);
}

/* ---- eviction ---- */

bool pcache_page_tryget(struct pcache_page *p)
{
	/* under pcache_lru_lock: a listed page is in its object's tree, and
	 * an object frees its pages (taking each off its list under this
	 * lock) before it is freed, so both may be looked at */
	if (!(p->lru_state & PCP_ON_LRU))
		return false;
	struct pcache_obj *o = p->obj;
	uint32_t r = __atomic_load_n(&o->refs, __ATOMIC_RELAXED);
	do {
		if (r == 0)
			return false; /* being freed */
	} while (!__atomic_compare_exchange_n(&o->refs, &r, r + 1, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	r = __atomic_load_n(&p->refs, __ATOMIC_RELAXED);
	do {
		if (r == 0) {
			/* its last put is on its way: not ours (the object's
			 * reference we took cannot be the last: the page's
			 * tree still counted on it a moment ago) */
			__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL);
			return false;
		}
	} while (!__atomic_compare_exchange_n(&p->refs, &r, r + 1, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	return true;
}

void pcache_page_unpin(struct pcache_page *p)
{
	struct pcache_obj *o = p->obj;
	pcache_page_put(p);
	pcache_obj_put(o);
}

bool pcache_page_evict(struct pcache_page *p, uint64_t shadow)
{
	struct pcache_obj *o = p->obj;
	bool ok = false;
	spin_lock(&o->lock);
	/* references: the tree's and the pin; with o->lock held nobody can
	 * take another (lookups take theirs under it) */
	if ((o->flags & PCACHE_BACKED) && !o->dead && !pager_dead(o->pager) && shadow &&
	    (p->state & (uint8_t)~PCP_READAHEAD) == PCP_UPTODATE && __atomic_load_n(&p->refs, __ATOMIC_ACQUIRE) == 2 &&
	    __atomic_load_n(&p->mapcount, __ATOMIC_RELAXED) == 0 && pcache_tree_lookup(o, p->index) == p) {
		pcache_tree_remove(o, p, shadow & (UINT64_MAX >> 1));
		ok = true;
	}
	spin_unlock(&o->lock);
	if (ok) {
		pcache_lru_del(p);
		pcache_page_put(p); /* the tree's */
	}
	pcache_page_unpin(p); /* the last: its frame is freed and uncharged */
	return ok;
}

/* ---- the server's calls ---- */

/* The pager of the endpoint behind h (MANAGE), or NULL with *err. */
static struct pcache_pager *pager_of_handle(int h, struct endpoint **epp, long *err)
{
	struct kobj *ko = handle_get_rights(current_thread()->proc, h, KOBJ_KIND(KOBJ_ENDPOINT), HANDLE_RIGHT_MANAGE,
					    err);
	if (!ko)
		return NULL;
	struct endpoint *ep = container_of(ko, struct endpoint, obj);
	struct pcache_pager *pg = pcache_table_pager(ep);
	if (!pg) {
		kobj_put(ko);
		*err = -ENOMEM;
		return NULL;
	}
	*epp = ep;
	return pg;
}

/* A request taken for an object that left its table or died: its
 * placeholders fail (their readers get -EIO). */
static void pager_fail_range(struct pcache_obj *o, uint64_t first, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		spin_lock(&o->lock);
		struct pcache_page *p = pcache_tree_lookup(o, first + i);
		bool fail = p && !(p->state & (PCP_UPTODATE | PCP_FILLING));
		if (fail) {
			pcache_tree_remove(o, p, 0);
			p->state |= PCP_ERROR;
		}
		spin_unlock(&o->lock);
		if (fail) {
			pcache_lru_del(p);
			pcache_page_put(p);
		}
	}
	pcache_pager_wake(o);
}

/* A request nobody will answer: a fill's readers get -EIO, a writeback's
 * waiter is let go. */
static void pager_drop(struct pcache_obj *o, const struct pager_req *q)
{
	if (q->kind == PCACHE_REQ_FILL) {
		pager_fail_range(o, q->first, q->count);
		return;
	}
	spin_lock(&o->lock);
	if (q->seq > o->wb_done)
		o->wb_done = q->seq;
	spin_unlock(&o->lock);
	pcache_pager_wake(o);
}

int pcache_pager_take(struct pcache_pager *pg, uint64_t deadline, struct pcache_req *out, struct pcache_obj **obj)
{
	for (;;) {
		spin_lock(&pg->lock);
		while (!pg->dead && pg->n == 0) {
			int r = waitq_wait(&pg->wait_req, &pg->lock, deadline);
			if (r == -ETIMEDOUT || r == -EINTR)
				return r;
			spin_lock(&pg->lock);
		}
		if (pg->dead) {
			spin_unlock(&pg->lock);
			return -EIO;
		}
		struct pager_req q = pg->ring[pg->head];
		pg->head = (pg->head + 1) % PCACHE_PAGER_QMAX;
		pg->n--;
		spin_unlock(&pg->lock);
		waitq_wake_all(&pg->wait_room, 0);
		spin_lock(&q.obj->lock);
		bool stale = q.obj->untabled || q.obj->dead;
		*out = (struct pcache_req){ .id = q.obj->id, .first = q.first, .count = q.count, .kind = q.kind,
					    .seq = q.seq, .size = q.obj->attr.size };
		spin_unlock(&q.obj->lock);
		if (!stale) {
			/* the server's disk I/O for it is the asker's */
			ipc_act_for(current_thread(), q.for_cg, q.for_pid);
			*obj = q.obj;
			return 0;
		}
		pager_drop(q.obj, &q);
		pcache_obj_put(q.obj);
	}
}

void pcache_pager_untake(struct pcache_obj *o, const struct pcache_req *req)
{
	struct pager_req q = { .obj = o, .first = req->first, .count = req->count, .kind = req->kind, .seq = req->seq };
	pager_drop(o, &q);
}

long sys_pcache_pager_wait(int ep_h, struct pcache_req *ureq, uint64_t timeout_ns)
{
	struct pcache_req req = { 0 };
	if (copy_to_user(ureq, &req, sizeof(req)))
		return -EFAULT; /* before any request is taken */
	struct endpoint *ep;
	long r;
	struct pcache_pager *pg = pager_of_handle(ep_h, &ep, &r);
	if (!pg)
		return r;
	struct pcache_obj *o;
	ipc_act_for(current_thread(), 0, 0); /* done with the last request */
	r = pcache_pager_take(pg, timeout_ns ? clock_ns() + timeout_ns : 0, &req, &o);
	if (r == 0) {
		/* the server unmapped the buffer meanwhile: the request is
		 * failed rather than lost (its readers would wait forever) */
		if (copy_to_user(ureq, &req, sizeof(req))) {
			pcache_pager_untake(o, &req);
			r = -EFAULT;
		}
		pcache_obj_put(o);
	}
	kobj_put(&ep->obj);
	return r;
}

long pcache_fill_range(struct pcache_obj *o, uint64_t first, uint32_t count, const void *buf, int err, bool user)
{
	long filled = 0, r = 0;
	for (uint32_t i = 0; i < count; i++) {
		spin_lock(&o->lock);
		struct pcache_page *p = pcache_tree_lookup(o, first + i);
		/* only a page waiting for its fill: never one a client wrote */
		bool mine = p && !(p->state & (PCP_UPTODATE | PCP_FILLING | PCP_ERROR));
		if (mine && err) {
			pcache_tree_remove(o, p, 0);
			p->state |= PCP_ERROR;
		} else if (mine) {
			p->state |= PCP_FILLING;
			__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
		}
		spin_unlock(&o->lock);
		if (!mine)
			continue;
		if (err) {
			pcache_lru_del(p);
			pcache_page_put(p);
			filled++;
			continue;
		}
		const uint8_t *src = (const uint8_t *)buf + (size_t)i * PAGE_SIZE;
		bool bad = false;
		if (user)
			bad = copy_from_user(page_to_virt(p->pg), src, PAGE_SIZE);
		else
			memcpy(page_to_virt(p->pg), src, PAGE_SIZE);
		spin_lock(&o->lock);
		p->state &= (uint8_t)~PCP_FILLING;
		bool in = pcache_tree_lookup(o, first + i) == p;
		if (!bad)
			p->state |= PCP_UPTODATE;
		else if (in) { /* a bad buffer: its readers get -EIO */
			pcache_tree_remove(o, p, 0);
			p->state |= PCP_ERROR;
		}
		spin_unlock(&o->lock);
		if (bad) {
			if (in) {
				pcache_lru_del(p);
				pcache_page_put(p);
			}
			r = -EFAULT;
		} else {
			filled++;
		}
		pcache_page_put(p);
		if (bad)
			break;
		sched_cond_resched();
	}
	pcache_pager_wake(o);
	return filled ? filled : r;
}

long sys_pcache_fill(int ep_h, uint64_t id, uint64_t first, uint32_t count, const void *buf, int err)
{
	if (count == 0 || count > PCACHE_FILL_MAX || err > 0 || err < -4095)
		return -EINVAL;
	if (!err && !user_range_ok((uint64_t)buf, (size_t)count * PAGE_SIZE))
		return -EFAULT;
	for (uint32_t i = 0; !err && i < count; i++) { /* a bad buffer fails before any page is taken */
		uint8_t b[2];
		const uint8_t *at = (const uint8_t *)buf + (size_t)i * PAGE_SIZE;
		if (copy_from_user(&b[0], at, 1) || copy_from_user(&b[1], at + PAGE_SIZE - 1, 1))
			return -EFAULT;
	}
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r);
	if (!o)
		return r;
	if (!(o->flags & PCACHE_BACKED) || first >= PCACHE_MAX_BYTES >> PAGE_SHIFT ||
	    count > (PCACHE_MAX_BYTES >> PAGE_SHIFT) - first)
		r = -EINVAL;
	else
		r = pcache_fill_range(o, first, count, buf, err, true);
	pcache_obj_put(o);
	return r;
}

void pcache_done_range(struct pcache_obj *o, uint64_t first, uint32_t count, uint64_t seq)
{
	uint64_t end = count > UINT64_MAX - first ? UINT64_MAX : first + count;
	uint64_t from = first;
	while (from < end) {
		spin_lock(&o->lock); /* one page found per hold: a bounded walk */
		struct pcache_page *p = pcache_tree_next_page(o, from);
		struct cgroup *was = NULL;
		if (p && p->index < end) {
			from = p->index + 1;
			was = pcache_page_set_state(p, 0, PCP_WRITEBACK);
			if (p->state & PCP_RESV) { /* its blocks are the store's now */
				p->state &= (uint8_t)~PCP_RESV;
				o->resv_held--;
			}
		} else {
			from = end;
		}
		spin_unlock(&o->lock);
		cg_put(was);
		sched_cond_resched();
	}
	if (seq) {
		spin_lock(&o->lock);
		if (seq > o->wb_done && seq <= o->wb_seq)
			o->wb_done = seq;
		spin_unlock(&o->lock);
		pcache_pager_wake(o);
	}
}

long sys_pcache_done(int ep_h, uint64_t id, uint64_t first, uint32_t count, uint64_t seq)
{
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r);
	if (!o)
		return r;
	r = 0;
	if (!(o->flags & PCACHE_BACKED))
		r = -EINVAL;
	else
		pcache_done_range(o, first, count, seq);
	pcache_obj_put(o);
	return r;
}

long sys_pcache_reserve(int ep_h, uint64_t id, const struct pcache_resv *uset, struct pcache_resv *uget)
{
	long r;
	struct pcache_resv set, old;
	if (uset && copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	if (uset && set.root > set.budget)
		return -EINVAL;
	struct kobj *ko = handle_get_rights(current_thread()->proc, ep_h, KOBJ_KIND(KOBJ_ENDPOINT), HANDLE_RIGHT_MANAGE,
					    &r);
	if (!ko)
		return r;
	struct pcache_obj *o = pcache_table_get(container_of(ko, struct endpoint, obj), id);
	kobj_put(ko);
	if (!o)
		return -EBADF;
	r = 0;
	if (!(o->flags & PCACHE_BACKED))
		r = -EINVAL;
	else
		pcache_resv_swap(o, uset ? &set : NULL, &old);
	pcache_obj_put(o);
	if (r == 0 && uget && copy_to_user(uget, &old, sizeof(old)))
		r = -EFAULT;
	return r;
}

/* The owner of page index of o while it is dirty or under writeback: its
 * cgroup id and writer's pid, or -ENOENT (clean, or not there). With
 * next: of the first dirty page at or past index (the walk of
 * pcache_obj_dirty: the lock held per page, preemptible between). */
static long pager_page_owner(struct pcache_obj *o, uint64_t index, bool next, int32_t *pid)
{
	long r = -ENOENT;
	for (bool first = true; r == -ENOENT && (next || first); first = false) {
		if (!first)
			sched_cond_resched();
		spin_lock(&o->lock);
		struct pcache_page *p = o->dead || index >= PCACHE_MAX_BYTES >> PAGE_SHIFT ? NULL
					: next ? pcache_tree_next_page(o, index)
					       : pcache_tree_lookup(o, index);
		if (p && (next ? (p->state & PCP_DIRTY) : (p->state & (PCP_DIRTY | PCP_WRITEBACK)))) {
			r = (long)pcache_page_owner(p)->id;
			*pid = p->owner_pid;
		}
		index = p ? p->index + 1 : PCACHE_MAX_BYTES >> PAGE_SHIFT;
		spin_unlock(&o->lock);
		if (!p)
			break;
	}
	return r;
}

long sys_pcache_wb_as(int ep_h, uint64_t id, uint64_t index, uint32_t how)
{
	if (how != PCACHE_WB_OWNER && how != PCACHE_WB_META && how != PCACHE_WB_SELF && how != PCACHE_WB_NEXT)
		return -EINVAL;
	long r;
	struct thread *self = current_thread();
	struct kobj *ko = handle_get_rights(self->proc, ep_h, KOBJ_KIND(KOBJ_ENDPOINT), HANDLE_RIGHT_MANAGE, &r);
	if (!ko)
		return r;
	struct endpoint *ep = container_of(ko, struct endpoint, obj);
	if (how == PCACHE_WB_SELF) {
		ipc_wb_for(self, 0, 0);
		r = 0;
	} else if (how == PCACHE_WB_META) {
		/* the root's account has no limits: only a server that is in
		 * the root itself may charge it (no escape from its own io.max) */
		if (__atomic_load_n(&self->proc->cgroup, __ATOMIC_ACQUIRE) != &cg_root) {
			r = -EPERM;
		} else {
			ipc_wb_for(self, cg_root.id, 0);
			r = (long)cg_root.id;
		}
	} else {
		struct pcache_obj *o = pcache_table_get(ep, id);
		int32_t pid = 0;
		if (!o)
			r = -EBADF;
		else if (!(o->flags & PCACHE_BACKED))
			r = -EINVAL;
		else if ((r = pager_page_owner(o, index, how == PCACHE_WB_NEXT, &pid)) > 0)
			ipc_wb_for(self, (uint64_t)r, pid);
		if (o)
			pcache_obj_put(o);
	}
	kobj_put(ko);
	return r;
}
