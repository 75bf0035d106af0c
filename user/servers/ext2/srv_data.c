/* The ext2 server's open inodes and their data in the kernel's page
 * cache (docs/fs.md, "File data: the page cache and the pager"). A
 * regular file opened for the first time (and at most cache_max bytes)
 * gets a PCACHE_BACKED object of its size with no page in it; every
 * descriptor on the file is attached to it, so reads, writes, lseek,
 * fstat and mmap are the kernel's, and the kernel asks the pager threads
 * (e2_pager) for the pages that are not in memory. The kernel marks the
 * pages clients write dirty; the server asks for them (pcache_dirty) and
 * writes them to the disk through the core at fsync, at the last close,
 * at sync, at umount and when the kernel asks (a WRITEBACK request), with
 * the object's size and times, and tells the kernel (pcache_done), after
 * which clean pages may be evicted. At the last close the object stays,
 * in the mount's inode cache (an LRU of closed nodes, at most keep_max):
 * a re-open finds its pages; it goes when the bound pushes it out, at
 * unlink of the last name and at umount.
 * Everything here runs under the mount's lock (ext2_srv.h), but the
 * pager threads take it themselves. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "abi/pcache.h"
#include "arbor_sys.h"
#include "ext2_srv.h"

#define E2_PAGE 4096u
#define E2_DIRTY_BATCH 64
/* A batch of an owner io.max is throttling (its budget waited): its
 * writes, made under the mount's lock, hold another cgroup's fsync back
 * for at most this many pages' device time (docs/writeback.md). */
#define E2_DIRTY_BATCH_THROTTLED 16

static struct e2node **e2_bucket(struct e2inst *in, uint32_t ino)
{
	return &in->nodes[ino % E2_NODE_HASH];
}

struct e2node *e2_node_find(struct e2inst *in, uint32_t ino)
{
	for (struct e2node *n = *e2_bucket(in, ino); n; n = n->next)
		if (n->ino == ino)
			return n;
	return NULL;
}

/* ---- the inode cache: closed nodes kept with their objects ---- */

static void e2_lru_del(struct e2inst *in, struct e2node *n)
{
	if (n->lru_prev)
		n->lru_prev->lru_next = n->lru_next;
	else
		in->lru_head = n->lru_next;
	if (n->lru_next)
		n->lru_next->lru_prev = n->lru_prev;
	else
		in->lru_tail = n->lru_prev;
	n->lru_prev = n->lru_next = NULL;
	n->kept = false;
	in->kept--;
}

static void e2_lru_add(struct e2inst *in, struct e2node *n)
{
	n->lru_prev = in->lru_tail;
	n->lru_next = NULL;
	if (in->lru_tail)
		in->lru_tail->lru_next = n;
	else
		in->lru_head = n;
	in->lru_tail = n;
	n->kept = true;
	in->kept++;
}

void e2_node_hold(struct e2inst *in, struct e2node *n)
{
	if (n->kept)
		e2_lru_del(in, n);
	n->opens++;
	n->used = true;
}

struct e2node *e2_node_get(struct e2inst *in, uint32_t ino)
{
	struct e2node *n = e2_node_find(in, ino);
	if (!n) {
		n = calloc(1, sizeof(*n));
		if (!n)
			return NULL;
		n->ino = ino;
		n->next = *e2_bucket(in, ino);
		*e2_bucket(in, ino) = n;
	}
	e2_node_hold(in, n);
	return n;
}

static void e2_node_unhook(struct e2inst *in, struct e2node *n)
{
	struct e2node **pp = e2_bucket(in, n->ino);
	while (*pp != n)
		pp = &(*pp)->next;
	*pp = n->next;
	free(n);
}

/* The attributes the kernel answers fstat with, from the disk inode. */
static void e2_push_attr(struct e2inst *in, uint64_t pc, const struct ext2_stat *st, bool times)
{
	struct pcache_attr a = {
		.dev = in->st_dev, .ino = st->ino, .rdev = st->rdev, .mode = st->mode, .nlink = st->nlink,
		.uid = st->uid, .gid = st->gid, .atime = e2_ns_of(st->atime), .mtime = e2_ns_of(st->mtime),
		.ctime = e2_ns_of(st->ctime),
	};
	a.blocks = st->blocks;
	uint32_t mask = PCACHE_ATTR_IDS | PCACHE_ATTR_MODE | PCACHE_ATTR_NLINK | PCACHE_ATTR_OWNER | PCACHE_ATTR_CTIME |
			PCACHE_ATTR_BLOCKS;
	if (times)
		mask |= PCACHE_ATTR_ATIME | PCACHE_ATTR_MTIME;
	sys_pcache_attr(fssrv_endpoint(), pc, &a, mask, NULL);
}

/* A directory's attributes, all of them (the disk's: no client changes
 * a directory but through the server), to its attribute-only object:
 * current again in the kernel. */
static void e2_push_meta(struct e2inst *in, struct e2node *n, const struct ext2_stat *st)
{
	struct pcache_attr a = {
		.dev = in->st_dev, .ino = st->ino, .rdev = st->rdev, .mode = st->mode, .nlink = st->nlink,
		.uid = st->uid, .gid = st->gid, .atime = e2_ns_of(st->atime), .mtime = e2_ns_of(st->mtime),
		.ctime = e2_ns_of(st->ctime), .size = st->size, .blocks = st->blocks,
	};
	if (sys_pcache_attr(fssrv_endpoint(), n->meta, &a, PCACHE_ATTR_ALL & ~(PCACHE_ATTR_NAMES | PCACHE_ATTR_STALE),
			    NULL) == 0)
		n->kstale = false;
}

void e2_node_push(struct e2inst *in, uint32_t ino)
{
	struct e2node *n = e2_node_find(in, ino);
	struct ext2_stat st;
	if (!n || (!n->pc && !n->meta) || ext2_stat(in->fs, ino, &st))
		return;
	if (n->pc)
		e2_push_attr(in, n->pc, &st, false);
	if (n->meta)
		e2_push_meta(in, n, &st);
}

void e2_node_push_blocks(struct e2inst *in, struct e2node *n)
{
	struct ext2_stat st;
	if (!n->pc || ext2_stat(in->fs, n->ino, &st))
		return;
	struct pcache_attr a = { .blocks = st.blocks };
	sys_pcache_attr(fssrv_endpoint(), n->pc, &a, PCACHE_ATTR_BLOCKS, NULL);
}

void e2_dir_changed(struct e2inst *in, uint32_t dir)
{
	struct e2node *n = e2_node_find(in, dir);
	/* a walk the mount's lock was let go in the middle of (an open's
	 * truncation, a wait for a fill) may have seen the names before
	 * this: it installs nothing (e2_trail_install) */
	in->nc_changes++;
	/* once per run of changes: no name is installed in it until a walk
	 * pushes its attributes again (e2_node_obj), which clears kstale */
	if (n)
		n->listed = false;
	if (!n || !n->meta || n->kstale)
		return;
	struct pcache_attr a = { 0 };
	n->kstale = true;
	sys_pcache_attr(fssrv_endpoint(), n->meta, &a, PCACHE_ATTR_NAMES | PCACHE_ATTR_STALE, NULL);
}

/* ---- object ids -> (mount, inode), for the pager threads ----
 * Changed under the mount's lock by opens and last closes, read by the
 * pager threads under the skeleton's lock: a lock of its own. */

struct e2_pcent {
	uint64_t id;
	struct e2inst *in;
	uint32_t ino;
	struct e2_pcent *next;
};

static struct e2_pcent *e2_pcmap[E2_NODE_HASH];
static srvlock_t e2_pcmap_lock = SRVLOCK_INIT;

static int e2_pcmap_add(struct e2inst *in, uint32_t ino, uint64_t id)
{
	struct e2_pcent *e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	*e = (struct e2_pcent){ .id = id, .in = in, .ino = ino };
	srvlock_lock(&e2_pcmap_lock);
	e->next = e2_pcmap[id % E2_NODE_HASH];
	e2_pcmap[id % E2_NODE_HASH] = e;
	srvlock_unlock(&e2_pcmap_lock);
	return 0;
}

static void e2_pcmap_del(uint64_t id)
{
	srvlock_lock(&e2_pcmap_lock);
	struct e2_pcent **pp = &e2_pcmap[id % E2_NODE_HASH], *e = NULL;
	while (*pp && (*pp)->id != id)
		pp = &(*pp)->next;
	if (*pp) {
		e = *pp;
		*pp = e->next;
	}
	srvlock_unlock(&e2_pcmap_lock);
	free(e);
}

static bool e2_pcmap_find(uint64_t id, struct e2inst **in, uint32_t *ino)
{
	srvlock_lock(&e2_pcmap_lock);
	struct e2_pcent *e = e2_pcmap[id % E2_NODE_HASH];
	while (e && e->id != id)
		e = e->next;
	if (e) {
		*in = e->in;
		*ino = e->ino;
	}
	srvlock_unlock(&e2_pcmap_lock);
	return e != NULL;
}

void e2_node_wait(struct e2inst *in, struct e2node *n)
{
	while (n->filling) { /* another open of the same file is making its object */
		srvlock_unlock(&in->lock);
		sys_sleep_ns(1000000);
		srvlock_lock(&in->lock);
	}
}

/* Whether a regular file of st gets a page cache object (cache_max=0:
 * none at all, an empty (new) file included). */
static bool e2_cacheable(const struct e2inst *in, const struct ext2_stat *st)
{
	return (st->mode & EXT2_S_IFMT) == EXT2_S_IFREG && in->cache_max && st->size <= in->cache_max;
}

/* n's page cache object (a regular file's, st its attributes): 0 or
 * -errno. */
static int e2_node_make_pc(struct e2inst *in, struct e2node *n, const struct ext2_stat *st)
{
	uint64_t max = ext2_max_file_size(in->fs) & ~(uint64_t)(E2_PAGE - 1);
	if (max > PCACHE_MAX_BYTES)
		max = PCACHE_MAX_BYTES;
	int ep = fssrv_endpoint();
	long id = sys_pcache_create(ep, PCACHE_BACKED, max);
	if (id < 0)
		return id == -ENOMEM ? -ENOMEM : -ENFILE;
	/* nothing is read now: the pager brings pages in as they are wanted */
	long r = st->size ? sys_pcache_truncate(ep, (uint64_t)id, st->size) : 0;
	if (!r)
		r = e2_pcmap_add(in, n->ino, (uint64_t)id);
	if (r) {
		sys_pcache_free(ep, (uint64_t)id);
		return (int)r;
	}
	n->pc = (uint64_t)id;
	e2_push_attr(in, n->pc, st, true);
	return 0;
}

int e2_node_fill(struct e2inst *in, struct e2node *n, const struct ext2_stat *st)
{
	e2_node_wait(in, n);
	if (n->pc)
		return 0; /* kept in the inode cache, or open: its pages are there */
	if (n->opens > 1 || !e2_cacheable(in, st))
		return 0; /* decided by the first open: the object, or the server */
	int r = e2_node_make_pc(in, n, st);
	if (!r)
		e2_resv_grant(in, n, E2_RESV_NONE); /* clients' writes take from it */
	return r;
}

/* ---- objects for the kernel's name cache (docs/fs.md, "Names in the
 * kernel") ---- */

static struct e2node *e2_node_new(struct e2inst *in, uint32_t ino)
{
	struct e2node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->ino = ino;
	n->next = *e2_bucket(in, ino);
	*e2_bucket(in, ino) = n;
	return n;
}

static void e2_keep_trim(struct e2inst *in);

/* A directory's attribute-only object, its attributes pushed: 0 or
 * -errno. */
static int e2_node_make_meta(struct e2inst *in, struct e2node *n, const struct ext2_stat *st)
{
	long id = sys_pcache_create(fssrv_endpoint(), PCACHE_META, 4096);
	if (id < 0)
		return (int)id;
	n->meta = (uint64_t)id;
	n->listed = false;
	e2_push_meta(in, n, st);
	return 0;
}

uint64_t e2_node_obj(struct e2inst *in, uint32_t ino, bool pin)
{
	struct ext2_stat st;
	struct e2node *n = e2_node_find(in, ino);
	if (n && (n->filling || n->gone))
		return 0;
	uint64_t id = n ? (n->meta ? n->meta : n->pc) : 0;
	if (id && !(n->meta && n->kstale)) {
		/* the common case, a walk through names met before: no stat */
		if (n->kept) { /* recently used: the trim's last choice */
			e2_lru_del(in, n);
			e2_lru_add(in, n);
		}
		n->pin += pin;
		return id;
	}
	if (ext2_stat(in->fs, ino, &st))
		return 0;
	bool dir = (st.mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
	if (!n && (!in->keep_max || (!dir && !e2_cacheable(in, &st))))
		return 0; /* no inode cache, or a file the server serves */
	bool made = !n;
	if (made && !(n = e2_node_new(in, ino)))
		return 0;
	if (dir && !n->meta)
		e2_node_make_meta(in, n, &st); /* failing, the server answers */
	else if (dir)
		e2_push_meta(in, n, &st); /* its names changed since: current again */
	else if (made)
		e2_node_make_pc(in, n, &st);
	id = dir ? n->meta : n->pc;
	if (made && !id) {
		e2_node_unhook(in, n);
		return 0;
	}
	if (n->kept) {
		e2_lru_del(in, n);
		e2_lru_add(in, n);
	} else if (made) { /* closed, with an object: the inode cache's */
		e2_keep_trim(in);
		e2_lru_add(in, n);
	}
	if (id)
		n->pin += pin;
	return id;
}

void e2_node_unpin(struct e2inst *in, uint32_t ino)
{
	struct e2node *n = e2_node_find(in, ino);
	if (n && n->pin)
		n->pin--;
}

int e2_node_root(struct e2inst *in)
{
	struct ext2_stat st;
	int r = ext2_stat(in->fs, E2_ROOT_INO, &st);
	struct e2node *n = r ? NULL : e2_node_get(in, E2_ROOT_INO); /* held while mounted */
	if (!r && !n)
		r = -ENOMEM;
	if (!r && (r = e2_node_make_meta(in, n, &st)))
		e2_node_put(in, n);
	if (!r)
		in->root = n;
	return r;
}

/* ---- the pager threads ---- */

/* A request nobody can answer: the fill fails (its readers get EIO), a
 * writeback is let go. */
static void e2_pager_refuse(int ep, const struct pcache_req *req, int err)
{
	if (req->kind == PCACHE_REQ_FILL)
		sys_pcache_fill(ep, req->id, req->first, req->count, NULL, err);
	else
		sys_pcache_done(ep, req->id, 0, 0, req->seq);
}

/* A fill with no copy (docs/fs.md "Zero-copy fills"): the request's
 * pages, lent to the disk's driver, get the file's blocks from the device
 * itself (ext2_read_grant); true once they are filled. False when the
 * window is not all on the disk (a hole, a cached block, the size within
 * it) or the driver cannot: nothing was lent or the pages wait again, to
 * be filled by copy. Under the mount's lock. */
static bool e2_fill_grant(struct e2inst *in, uint32_t ino, const struct pcache_req *req)
{
	int ep = fssrv_endpoint();
	if (in->no_grant || req->count > PCACHE_FILL_MAX || (req->first + req->count) * E2_PAGE > req->size)
		return false;
	if (sys_pcache_grant(ep, req->id, req->first, req->count, PCACHE_GRANT_LEND) != 0)
		return false;
	int64_t got = ext2_read_grant(in->fs, ino, req->first * E2_PAGE, (size_t)req->count * E2_PAGE);
	bool ok = got == (int64_t)req->count * E2_PAGE;
	sys_pcache_grant(ep, req->id, req->first, req->count, ok ? PCACHE_GRANT_FILLED : PCACHE_GRANT_RETURN);
	if (got == -EOPNOTSUPP)
		in->no_grant = true;
	return ok;
}

/* One request, with buf (PCACHE_FILL_MAX pages): a fill reads the pages
 * from the disk (ext2_read_direct: a device call per run of contiguous
 * blocks, holes zeroed) and gives them under the mount's lock, so the
 * object cannot be freed and its id reused meanwhile. */
static void e2_pager_serve(const struct pcache_req *req, uint8_t *buf)
{
	int ep = fssrv_endpoint();
	struct e2inst *in = NULL;
	uint32_t ino = 0;
	fssrv_lock();
	bool found = e2_pcmap_find(req->id, &in, &ino) && !in->dying;
	if (!found) {
		fssrv_unlock();
		e2_pager_refuse(ep, req, -EIO);
		return;
	}
	/* not one of the mount's users (a umount is not refused for a
	 * fill in progress: it waits for it, e2_umount) */
	in->pagers++;
	fssrv_unlock();
	__atomic_add_fetch(&in->waiters, 1, __ATOMIC_ACQ_REL); /* as e2_enter: a pause lets it in */
	srvlock_lock(&in->lock);
	__atomic_sub_fetch(&in->waiters, 1, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&in->grants, 1, __ATOMIC_RELEASE);
	struct e2node *n = e2_node_find(in, ino);
	if (!n || n->pc != req->id) {
		e2_pager_refuse(ep, req, -EIO);
	} else if (req->kind == PCACHE_REQ_FILL && e2_fill_grant(in, ino, req)) {
		/* filled by the device: nothing to copy */
	} else if (req->kind == PCACHE_REQ_FILL) {
		size_t len = (size_t)req->count * E2_PAGE;
		int64_t got = req->count <= PCACHE_FILL_MAX ? ext2_read_direct(in->fs, ino, req->first * E2_PAGE, buf, len)
							    : -EINVAL;
		if (got >= 0 && (size_t)got < len)
			memset(buf + got, 0, len - (size_t)got); /* past the disk's end: zeros */
		/* the pages are given without the mount's lock, the node held
		 * (its object cannot be freed, nor its id reused, meanwhile):
		 * the other pager thread reads the next window from the disk
		 * while this one copies (a sequential reader's readahead) */
		e2_node_hold(in, n);
		srvlock_unlock(&in->lock);
		sys_pcache_fill(ep, req->id, req->first, req->count, got < 0 ? NULL : buf, got < 0 ? -EIO : 0);
		__atomic_add_fetch(&in->waiters, 1, __ATOMIC_ACQ_REL);
		srvlock_lock(&in->lock);
		__atomic_sub_fetch(&in->waiters, 1, __ATOMIC_ACQ_REL);
		__atomic_add_fetch(&in->grants, 1, __ATOMIC_RELEASE);
		e2_node_put(in, n);
	} else {
		/* paced (it lets other requests in between its batches: a
		 * writer throttled by its io.max holds up no other cgroup's
		 * fsync for its backlog), so its node is held meanwhile (a last
		 * close waits for the put) */
		uint64_t size;
		e2_node_hold(in, n);
		e2_node_writeback_paced(in, n, true, &size);
		e2_node_put(in, n);
		/* a RESERVE's units are blocks now: a new budget, after the put
		 * (the put of a closed file, kept by the inode cache, takes its
		 * budget back) if the node and its object are still there */
		n = req->kind == PCACHE_REQ_RESERVE ? e2_node_find(in, ino) : NULL;
		if (n && n->pc == req->id)
			e2_resv_grant(in, n, req->first);
		sys_pcache_done(ep, req->id, 0, 0, req->seq);
	}
	srvlock_unlock(&in->lock);
	fssrv_lock();
	in->pagers--;
	fssrv_unlock();
}

long __arbor_thread_start(long (*fn)(void *), void *arg);

/* The pager threads: started (E2_PAGERS by the skeleton, more by
 * e2_pager_grow) and of them idle (waiting for a request). */
static int e2_pagers = E2_PAGERS, e2_pagers_idle = E2_PAGERS;

/* A request was taken by the last idle pager thread: one more starts
 * (up to E2_PAGERS_MAX), so that a long request (a paced writeback
 * waiting for its owner's io.max) holds up no other request. */
static void e2_pager_grow(void)
{
	fssrv_lock();
	bool more = e2_pagers < E2_PAGERS_MAX && __atomic_load_n(&e2_pagers_idle, __ATOMIC_ACQUIRE) == 0;
	if (more) {
		e2_pagers++;
		__atomic_add_fetch(&e2_pagers_idle, 1, __ATOMIC_ACQ_REL);
	}
	fssrv_unlock();
	if (more && __arbor_thread_start(e2_pager, NULL) < 0)
		__atomic_sub_fetch(&e2_pagers_idle, 1, __ATOMIC_ACQ_REL); /* counted as busy for good */
}

long e2_pager(void *arg)
{
	(void)arg;
	int ep = fssrv_endpoint();
	uint8_t *buf = malloc((size_t)PCACHE_FILL_MAX * E2_PAGE);
	struct pcache_req req;
	if (!buf) {
		__atomic_sub_fetch(&e2_pagers_idle, 1, __ATOMIC_ACQ_REL);
		return 1;
	}
	for (;;) {
		long r = sys_pcache_pager_wait(ep, &req, 0);
		if (r == -EIO)
			return 0; /* the endpoint is gone */
		if (r != 0)
			continue;
		if (__atomic_sub_fetch(&e2_pagers_idle, 1, __ATOMIC_ACQ_REL) == 0)
			e2_pager_grow();
		e2_pager_serve(&req, buf);
		__atomic_add_fetch(&e2_pagers_idle, 1, __ATOMIC_ACQ_REL);
	}
}

/* Whose account the thread's disk calls go to from now on (pcache_wb_as):
 * the owner of page idx of n's object, or (n NULL) the root for metadata.
 * The cgroup id, or -errno: then the call it serves, as before. */
static long e2_wb_as(int ep, const struct e2node *n, uint64_t idx)
{
	long who = n ? sys_pcache_wb_as(ep, n->pc, idx, PCACHE_WB_OWNER) : sys_pcache_wb_as(ep, 0, 0, PCACHE_WB_META);
	if (who < 0)
		sys_pcache_wb_as(ep, 0, 0, PCACHE_WB_SELF);
	return who;
}

/* Page idx of n (size bytes long) into the core; whether it is there. */
static bool e2_wb_page(struct e2inst *in, struct e2node *n, uint64_t idx, uint64_t size, uint8_t *buf,
		       struct ext2_time now, int *err)
{
	uint64_t off = idx * E2_PAGE;
	if (off >= size)
		return true;
	size_t len = size - off < E2_PAGE ? (size_t)(size - off) : E2_PAGE;
	long got = sys_pcache_read(fssrv_endpoint(), n->pc, off, buf, len);
	int64_t w = got > 0 ? ext2_write(in->fs, n->ino, off, buf, (size_t)got, now) : got;
	if (w < got && !*err)
		*err = w < 0 ? (int)w : -ENOSPC; /* stays in the cache; fsync reports it */
	return w >= got;
}

/* Pages [first, first + count) of n (size bytes long) written by the disk
 * straight from the page cache (pcache_grant LEND_WB, ext2_write_grant:
 * docs/fs.md "Zero-copy writeback"), as the thread's current owner:
 * whether they are on the disk. False, nothing lent any more, when the
 * last page is not whole inside the size (its tail is not the file's),
 * or the core or the driver cannot (a block it holds dirty, a full disk,
 * no scatter-gather): then the copy through the core does it. */
static bool e2_wb_grant(struct e2inst *in, struct e2node *n, uint64_t first, uint64_t count, uint64_t size,
			struct ext2_time now)
{
	int ep = fssrv_endpoint();
	if (in->no_grant || count > PCACHE_FILL_MAX || (first + count) * E2_PAGE > size)
		return false;
	if (sys_pcache_grant(ep, n->pc, first, (uint32_t)count, PCACHE_GRANT_LEND_WB) != 0)
		return false;
	int64_t w = ext2_write_grant(in->fs, n->ino, first * E2_PAGE, (size_t)(count * E2_PAGE), now);
	sys_pcache_grant(ep, n->pc, first, (uint32_t)count, PCACHE_GRANT_WRITTEN);
	if (w == -EOPNOTSUPP)
		in->no_grant = true;
	return w == (int64_t)(count * E2_PAGE);
}

/* Pages idx[0..cnt) (ascending, under writeback) to the disk: each run
 * of neighbouring pages with one owner is written as that owner (io.stat,
 * io.max and io.weight are the dirtier's, docs/writeback.md): by the disk
 * straight from the page cache (e2_wb_grant), else copied into the core
 * and its data blocks sent at once; the metadata the writes change stays
 * in the core for later, the root's. pcache_done for the pages written or
 * in the core (one that failed stays under writeback, kept). With held,
 * the last run of pages is only copied into the core: its blocks are
 * held's to send (an fsync's, with the device flush when nothing else is
 * left: one device call), and its pages held's to mark done after. */
struct e2_held {
	uint64_t first, count;		/* pages; count 0: none */
};

static void e2_wb_batch(struct e2inst *in, struct e2node *n, const uint64_t *idx, long cnt, uint64_t size,
			uint8_t *buf, struct ext2_time now, int *err, struct e2_held *held)
{
	int ep = fssrv_endpoint();
	bool ok[E2_DIRTY_BATCH];
	for (long i = 0, j; i < cnt; i = j) {
		long who = e2_wb_as(ep, n, idx[i]);
		for (j = i + 1; j < cnt && e2_wb_as(ep, n, idx[j]) == who; j++)
			;
		if (j < cnt)
			e2_wb_as(ep, n, idx[i]); /* back to the group's owner, for its data */
		for (long k = i, r; k < j; k = r) { /* each run of neighbouring pages */
			for (r = k + 1; r < j && idx[r] == idx[r - 1] + 1; r++)
				;
			bool hold = held && r == cnt;
			if (!hold && e2_wb_grant(in, n, idx[k], (uint64_t)(r - k), size, now)) {
				for (long m = k; m < r; m++)
					ok[m] = true;
				continue;
			}
			bool all = true;
			for (long m = k; m < r; m++)
				all = (ok[m] = e2_wb_page(in, n, idx[m], size, buf, now, err)) && all;
			if (hold && all) { /* under writeback until sent: still its owner's */
				*held = (struct e2_held){ .first = idx[k], .count = (uint64_t)(r - k) };
				for (long m = k; m < r; m++)
					ok[m] = false;
				continue;
			}
			int e = ext2_write_data_back(in->fs, n->ino, idx[k] * E2_PAGE, (uint64_t)(idx[r - 1] - idx[k] + 1) * E2_PAGE);
			if (e && !*err)
				*err = e; /* still dirty in the core: written later */
		}
		/* on the disk or in the core now: the pages may be evicted again */
		for (long k = i, r; k < j; k = r) {
			if (!ok[k]) {
				r = k + 1;
				continue;
			}
			for (r = k + 1; r < j && ok[r] && idx[r] == idx[r - 1] + 1; r++)
				;
			sys_pcache_done(ep, n->pc, idx[k], (uint32_t)(r - k), 0);
		}
	}
}

/* Before each batch of a paced (background) writeback, which may go at
 * its owner's io.max for a long time: the mount's lock goes, so another
 * request waiting for it (another cgroup's fsync) goes first, after one
 * batch, not after the whole backlog; and meanwhile, without the lock,
 * the thread waits for the turn (io.max, io.weight) of the owner of the
 * next dirty page, a batch's worth (BLK_BUDGET), so the batch's writes,
 * made under the lock, do not sleep on io.max while others wait for the
 * lock (docs/writeback.md). No page is under writeback meanwhile (an
 * fsync finds every page either written or still dirty). */
enum e2_pace { E2_PACE_GO, E2_PACE_NONE, E2_PACE_GONE };

/* E2_PACE_GO: a batch of *ask pages from from may be taken (their budget
 * is paid), and *ask is the next batch's: E2_DIRTY_BATCH_THROTTLED while
 * io.max throttles the owner (a budget must be what is written: one
 * claimed and not written is paid again), else E2_DIRTY_BATCH;
 * E2_PACE_NONE: no page from from is dirty now (one dirtied later is its
 * writer's next writeback: taken now, it would be written without its
 * owner's turn, under the lock); E2_PACE_GONE: n's object went meanwhile. */
static enum e2_pace e2_wb_pace(struct e2inst *in, struct e2node *n, uint64_t from, long *ask)
{
	int ep = fssrv_endpoint();
	struct e2_pause ps;
	uint64_t pc = n->pc;
	ext2_use_promised(in->fs, false); /* others' allocations meanwhile: not these */
	e2_node_push_blocks(in, n); /* a stat meanwhile: the disk's (the last batch's blocks) */
	e2_pause_begin(in, &ps);
	bool any = sys_pcache_wb_as(ep, pc, from, PCACHE_WB_NEXT) > 0;
	if (any) {
		bool throttled = e2_disk_budget(in, (uint64_t)*ask * E2_PAGE) == 1;
		*ask = throttled ? E2_DIRTY_BATCH_THROTTLED : E2_DIRTY_BATCH;
		sys_pcache_wb_as(ep, 0, 0, PCACHE_WB_SELF);
	}
	e2_pause_end(in, &ps);
	if (n->pc != pc || n->gone)
		return E2_PACE_GONE;
	ext2_use_promised(in->fs, true);
	return any ? E2_PACE_GO : E2_PACE_NONE;
}

int e2_node_writeback(struct e2inst *in, struct e2node *n)
{
	uint64_t size;
	return e2_node_writeback_paced(in, n, false, &size);
}

/* e2_node_writeback_paced; with held (an fsync), the last batch's last
 * run of pages is left in the core for the caller to send (e2_wb_batch). */
static int e2_wb_node(struct e2inst *in, struct e2node *n, bool pace, uint64_t *size, struct e2_held *held)
{
	int ep = fssrv_endpoint(), err = 0;
	uint64_t idx[E2_DIRTY_BATCH], from = 0;
	struct pcache_attr a;
	uint8_t *buf;
	long cnt = 0, batch, ask = E2_DIRTY_BATCH;
	*size = UINT64_MAX;
	if (!n->pc || n->gone || in->rdonly || !n->used)
		return 0; /* never opened since its object was made: clean */
	if (sys_pcache_attr(ep, n->pc, NULL, 0, &a) < 0 || !(buf = malloc(E2_PAGE)))
		return -EIO;
	*size = a.size;
	/* the data changed when the kernel says (the times it keeps for the
	 * file, set at the end): so a rewrite within the tick of the last
	 * leaves the inode as it was */
	struct ext2_time now = e2_time_of(a.mtime);
	ext2_use_promised(in->fs, true); /* what the reservations were for */
	do {
		batch = ask; /* what the pace pays for */
		enum e2_pace go = pace ? e2_wb_pace(in, n, from, &ask) : E2_PACE_GO;
		if (go == E2_PACE_GONE) { /* its file went meanwhile */
			free(buf);
			return err;
		}
		if (go == E2_PACE_NONE)
			break;
		cnt = sys_pcache_dirty(ep, n->pc, from, idx, (uint32_t)batch);
		/* the size now covers every page just taken (a write grows it
		 * with the page's dirtying, under the object's lock): an older
		 * size would pass over pages a writer added meanwhile (a
		 * background writeback runs beside the writer), and mark them
		 * clean unwritten */
		if (cnt > 0 && sys_pcache_attr(ep, n->pc, NULL, 0, &a) < 0)
			cnt = -EIO;
		e2_wb_batch(in, n, idx, cnt, a.size, buf, now, &err, cnt < batch ? held : NULL);
		if (cnt > 0)
			from = idx[cnt - 1] + 1;
	} while (cnt == batch);
	ext2_use_promised(in->fs, false);
	e2_resv_update(in, n, false);
	/* the inode and what follows: metadata, the root's (Linux's rule) */
	e2_wb_as(ep, NULL, 0);
	free(buf);
	/* the size now, not the last batch's: another writeback of this node
	 * may have run in a pause (pace) and grown the disk's size past it,
	 * which an older size would cut back (freeing its blocks) */
	if (sys_pcache_attr(ep, n->pc, NULL, 0, &a) < 0 && !err)
		err = -EIO;
	*size = a.size;
	if (cnt < 0 && !err)
		err = (int)cnt;
	struct ext2_stat st;
	int r = ext2_stat(in->fs, n->ino, &st);
	if (!r && st.size != a.size)
		r = ext2_truncate(in->fs, n->ino, a.size, now); /* growth past the last page written: a hole */
	if (!r && (e2_ns_of(st.mtime) != a.mtime || e2_ns_of(st.atime) != a.atime ||
		   e2_ns_of(st.ctime) != a.ctime)) {
		struct ext2_setattr sa = { .mask = EXT2_SET_ATIME | EXT2_SET_MTIME, .atime = e2_time_of(a.atime),
					   .mtime = e2_time_of(a.mtime) };
		r = ext2_setattr(in->fs, n->ino, &sa, e2_time_of(a.ctime)); /* the kernel's times */
	}
	e2_node_push_blocks(in, n); /* what the name cache's stat says */
	return err ? err : r;
}

int e2_node_writeback_paced(struct e2inst *in, struct e2node *n, bool pace, uint64_t *size)
{
	return e2_wb_node(in, n, pace, size, NULL);
}

int e2_node_fsync(struct e2inst *in, struct e2node *n)
{
	int ep = fssrv_endpoint();
	uint64_t size;
	struct e2_held held = { 0 };
	ext2_set_caller(in->fs, 0, 0); /* pages the kernel accepted: no reservation check */
	int e = n->pc ? e2_wb_node(in, n, true, &size, &held) : 0;
	ext2_set_caller(in->fs, 0, 0); /* others' requests may have run in a pause */
	int s = 0;
	if (held.count) { /* the owner's again, for its data and the flush */
		e2_wb_as(ep, n, held.first);
		s = ext2_write_data_sync(in->fs, n->ino, held.first * E2_PAGE, held.count * E2_PAGE);
		e2_wb_as(ep, NULL, 0);
		/* in the core or on the disk: a failed write stays dirty there */
		sys_pcache_done(ep, n->pc, held.first, (uint32_t)held.count, 0);
	}
	/* all of it on the medium with the flush already (1), or the rest
	 * and the flush now */
	if (s == 1) {
		s = 0;
	} else {
		int f = ext2_sync_flush(in->fs);
		s = s < 0 ? s : f;
	}
	return e ? e : s;
}

/* The end of a node with no open: its object freed (written back first
 * if wb, unless gone), a gone inode released. */
static void e2_node_end(struct e2inst *in, struct e2node *n, bool wb)
{
	if (n->kept)
		e2_lru_del(in, n);
	if (n->pc) {
		if (wb)
			e2_node_writeback(in, n);
		e2_resv_update(in, n, true); /* its promise ends with its object */
		sys_pcache_free(fssrv_endpoint(), n->pc);
		e2_pcmap_del(n->pc);
	}
	if (n->meta) /* the kernel forgets the names in it and naming it */
		sys_pcache_free(fssrv_endpoint(), n->meta);
	if (n == in->root)
		in->root = NULL;
	if (n->gone)
		ext2_release(in->fs, n->ino);
	e2_node_unhook(in, n);
}

/* Whether a program runs from a kept node's object (ETXTBSY holds while
 * it runs, docs/memory.md, so the object must stay): a truncation to its
 * own size says so, changing nothing. */
static bool e2_node_busy(struct e2node *n, uint64_t size)
{
	return sys_pcache_truncate(fssrv_endpoint(), n->pc, size) == -ETXTBSY;
}

/* Kept nodes looked at for one with no page left, then for any no
 * program runs from: each look is a system call or two, at every close
 * once the cache is full. */
#define E2_TRIM_SCAN_EMPTY 16
#define E2_TRIM_SCAN_IDLE 64

/* Room in the inode cache for one more: past the bound, one of the 16
 * oldest kept nodes with no page left in memory (reclaim took them, or
 * it is empty, or a directory's) goes, else the oldest of the 64 oldest
 * no program runs from (if every one runs, the cache grows past its
 * bound by the running programs). Nodes a walk's trail names now are
 * passed over (e2_node_obj). */
static void e2_keep_trim(struct e2inst *in)
{
	if (in->kept < in->keep_max)
		return;
	int ep = fssrv_endpoint(), looked = 0;
	struct e2node *victim = NULL;
	struct pcache_attr a;
	for (struct e2node *n = in->lru_head; n && looked < E2_TRIM_SCAN_EMPTY && !victim; n = n->lru_next, looked++)
		if (!n->pin && (!n->pc || (sys_pcache_attr(ep, n->pc, NULL, 0, &a) == 0 && !a.blocks &&
					   !e2_node_busy(n, a.size))))
			victim = n;
	looked = 0;
	for (struct e2node *n = in->lru_head; n && looked < E2_TRIM_SCAN_IDLE && !victim; n = n->lru_next, looked++)
		if (!n->pin && sys_pcache_attr(ep, n->pc, NULL, 0, &a) == 0 && !e2_node_busy(n, a.size))
			victim = n;
	if (victim)
		e2_node_end(in, victim, true);
}

long e2_fifo_node(struct e2inst *in, uint32_t ino)
{
	for (struct e2fifo *f = in->fifos; f; f = f->next)
		if (f->ino == ino)
			return f->node;
	struct e2fifo *f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	long h = sys_fifo_create();
	if (h < 0) {
		free(f);
		return h;
	}
	*f = (struct e2fifo){ .ino = ino, .node = (int)h, .next = in->fifos };
	in->fifos = f;
	return h;
}

void e2_fifo_forget(struct e2inst *in, uint32_t ino)
{
	for (struct e2fifo **p = &in->fifos; *p;) {
		struct e2fifo *f = *p;
		if (ino && f->ino != ino) {
			p = &f->next;
			continue;
		}
		*p = f->next;
		sys_handle_close(f->node); /* open ends keep their pipe */
		free(f);
	}
}

void e2_gone(struct e2inst *in, uint32_t ino)
{
	if (!ino)
		return;
	e2_fifo_forget(in, ino);
	struct e2node *n = e2_node_find(in, ino);
	if (n && !n->opens) {
		n->gone = true; /* kept, closed: its pages and inode go now */
		e2_node_end(in, n, true);
	} else if (n) {
		n->gone = true;
		e2_node_push(in, ino); /* fstat shows 0 links */
	} else {
		ext2_release(in->fs, ino);
	}
}

void e2_node_put(struct e2inst *in, struct e2node *n)
{
	if (--n->opens)
		return;
	uint64_t size;
	if ((n->pc || n->meta) && !n->gone && !in->dying && in->keep_max && n != in->root) {
		/* kept: the dirty pages to the disk now as before (nothing
		 * lost if the machine stops), the clean ones stay; an empty
		 * file's object holds nothing worth keeping (a re-open makes
		 * one as cheaply), so creating many files costs what it did */
		if (n->pc) {
			e2_node_writeback_paced(in, n, false, &size);
			if (!size) {
				e2_node_end(in, n, false); /* just written back */
				return;
			}
			e2_resv_drop(in, n); /* a closed file promises nothing */
		}
		e2_keep_trim(in);
		e2_lru_add(in, n);
		return;
	}
	e2_node_end(in, n, true);
}

void e2_node_drop_all(struct e2inst *in)
{
	while (in->lru_head)
		e2_node_end(in, in->lru_head, true);
	if (in->root && in->root->opens == 1) { /* no open beside the mount's own */
		in->root->opens = 0;
		e2_node_end(in, in->root, true);
	}
}

int e2_sync_all(struct e2inst *in, bool flush)
{
	int err = 0;
	for (int i = 0; i < E2_NODE_HASH; i++)
		for (struct e2node *n = in->nodes[i]; n; n = n->next) {
			int r = e2_node_writeback(in, n);
			if (r && !err)
				err = r;
		}
	int r = in->rdonly ? 0 : flush ? ext2_sync_flush(in->fs) : ext2_sync(in->fs);
	return err ? err : r;
}

int e2_stat(struct e2inst *in, uint32_t ino, struct ext2_stat *st)
{
	int r = ext2_stat(in->fs, ino, st);
	struct e2node *n = r ? NULL : e2_node_find(in, ino);
	struct pcache_attr a;
	if (n && n->pc && !n->filling && sys_pcache_attr(fssrv_endpoint(), n->pc, NULL, 0, &a) == 0) {
		st->size = a.size; /* the kernel's writes are ahead of the disk */
		st->atime = e2_time_of(a.atime);
		st->mtime = e2_time_of(a.mtime);
		st->ctime = e2_time_of(a.ctime);
	}
	return r;
}

void e2_fill_stat(const struct e2inst *in, const struct ext2_stat *e, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = in->st_dev;
	st->st_ino = e->ino;
	st->st_mode = e->mode;
	st->st_nlink = e->nlink;
	st->st_uid = e->uid;
	st->st_gid = e->gid;
	st->st_rdev = e->rdev;
	st->st_size = (off_t)e->size;
	st->st_blksize = 4096;
	st->st_blocks = (blkcnt_t)e->blocks;
	st->st_atim.tv_sec = e->atime.sec;
	st->st_atim.tv_nsec = e->atime.nsec;
	st->st_mtim.tv_sec = e->mtime.sec;
	st->st_mtim.tv_nsec = e->mtime.nsec;
	st->st_ctim.tv_sec = e->ctime.sec;
	st->st_ctim.tv_nsec = e->ctime.nsec;
}

int e2_truncate(struct e2inst *in, uint32_t ino, uint64_t size)
{
	struct e2node *n = e2_node_find(in, ino);
	struct pcache_attr a;
	/* a running program is not truncated (ETXTBSY): the cache says so
	 * (a truncation to the size it has) before the disk changes */
	if (n && n->pc && sys_pcache_attr(fssrv_endpoint(), n->pc, NULL, 0, &a) == 0) {
		int busy = (int)sys_pcache_truncate(fssrv_endpoint(), n->pc, a.size);
		if (busy == -ETXTBSY)
			return busy;
	}
	int r = ext2_truncate(in->fs, ino, size, e2_now());
	if (n && n->pc) {
		e2_node_push_blocks(in, n); /* before the pause: a stat meanwhile sees these */
		e2_resv_grant(in, n, E2_RESV_NONE); /* blocks freed, or pages past the end: recounted */
	}
	if (!r && n && n->pc) {
		/* without the mount's lock: the object's write lock may be a
		 * client's, whose partial-page write waits for a fill that
		 * needs the mount's lock (the pager thread) */
		struct e2_pause ps;
		e2_node_hold(in, n); /* held: its object (and id) stay meanwhile */
		e2_pause_begin(in, &ps);
		r = (int)sys_pcache_truncate(fssrv_endpoint(), n->pc, size);
		e2_pause_end(in, &ps);
		e2_node_put(in, n);
	}
	return r;
}
