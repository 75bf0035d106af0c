/* The ext2 server's open inodes and their data in the kernel's page
 * cache. A regular file opened for the first time (and at most
 * E2_PCACHE_FILL_MAX bytes) gets a page cache object, filled from the
 * disk before the open returns (holes stay holes, and pages the server
 * writes are clean); every descriptor on the file is then attached to it,
 * so reads, writes, lseek, fstat and mmap are the kernel's. The kernel
 * marks the pages clients write dirty; the server asks for them
 * (pcache_dirty) and writes them to the disk through the core at fsync,
 * at the last close, at sync and at umount, with the object's size and
 * times. The object goes at the last close. Everything here runs under
 * the mount's lock (ext2_srv.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "abi/pcache.h"
#include "arbor_sys.h"
#include "ext2_srv.h"

#define E2_PAGE 4096u
#define E2_FILL_CHUNK (64u * 1024)	/* read from the disk per hold of the lock */
#define E2_DIRTY_BATCH 64

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
	n->opens++;
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
	uint32_t mask = PCACHE_ATTR_IDS | PCACHE_ATTR_MODE | PCACHE_ATTR_NLINK | PCACHE_ATTR_OWNER | PCACHE_ATTR_CTIME;
	if (times)
		mask |= PCACHE_ATTR_ATIME | PCACHE_ATTR_MTIME;
	sys_pcache_attr(fssrv_endpoint(), pc, &a, mask, NULL);
}

void e2_node_push(struct e2inst *in, uint32_t ino)
{
	struct e2node *n = e2_node_find(in, ino);
	struct ext2_stat st;
	if (n && n->pc && ext2_stat(in->fs, ino, &st) == 0)
		e2_push_attr(in, n->pc, &st, false);
}

static bool e2_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Copies the file's bytes into object pc: a chunk read under the lock,
 * written to the object without it (the pages are charged to the client
 * whose open this is). Zero pages are left holes. */
static int e2_fill(struct e2inst *in, uint32_t ino, uint64_t pc, uint64_t size)
{
	int ep = fssrv_endpoint();
	uint8_t *buf = malloc(E2_FILL_CHUNK);
	if (!buf)
		return -ENOMEM;
	long r = sys_pcache_truncate(ep, pc, size);
	for (uint64_t off = 0; r >= 0 && off < size; off += E2_FILL_CHUNK) {
		int64_t got = ext2_read(in->fs, ino, off, buf, E2_FILL_CHUNK);
		if (got <= 0) {
			r = got < 0 ? got : -EIO; /* the size said there was more */
			break;
		}
		struct e2_pause ps;
		e2_pause_begin(in, &ps); /* others' requests between chunks */
		for (int64_t p = 0; r >= 0 && p < got; p += E2_PAGE) {
			size_t n = (size_t)(got - p < E2_PAGE ? got - p : E2_PAGE);
			if (!e2_zero(buf + p, n))
				r = sys_pcache_write(ep, pc, off + (uint64_t)p, buf + p, n);
		}
		e2_pause_end(in, &ps);
	}
	free(buf);
	return r < 0 ? (int)r : 0;
}

void e2_node_wait(struct e2inst *in, struct e2node *n)
{
	while (n->filling) { /* another open of the same file is filling it */
		srvlock_unlock(&in->lock);
		sys_sleep_ns(1000000);
		srvlock_lock(&in->lock);
	}
}

int e2_node_fill(struct e2inst *in, struct e2node *n, const struct ext2_stat *st)
{
	e2_node_wait(in, n);
	/* cache_max=0: no object at all, an empty (new) file included */
	if (n->opens > 1 || (st->mode & EXT2_S_IFMT) != EXT2_S_IFREG || !in->cache_max || st->size > in->cache_max)
		return 0; /* decided by the first open: the object, or the server */
	uint64_t max = ext2_max_file_size(in->fs) & ~(uint64_t)(E2_PAGE - 1);
	if (max > PCACHE_MAX_BYTES)
		max = PCACHE_MAX_BYTES;
	long id = sys_pcache_create(fssrv_endpoint(), PCACHE_SHMEM, max);
	if (id < 0)
		return id == -ENOMEM ? -ENOMEM : -ENFILE;
	n->pc = (uint64_t)id;
	n->filling = true;
	int r = e2_fill(in, n->ino, n->pc, st->size);
	n->filling = false;
	struct ext2_stat now;
	if (!r)
		r = ext2_stat(in->fs, n->ino, &now); /* a chmod may have come meanwhile */
	if (!r)
		e2_push_attr(in, n->pc, &now, true);
	if (r) {
		sys_pcache_free(fssrv_endpoint(), n->pc);
		n->pc = 0;
	}
	return r;
}

int e2_node_writeback(struct e2inst *in, struct e2node *n)
{
	int ep = fssrv_endpoint(), err = 0;
	uint64_t idx[E2_DIRTY_BATCH], from = 0;
	struct pcache_attr a;
	uint8_t *buf;
	long cnt;
	if (!n->pc || n->gone || in->rdonly)
		return 0;
	if (sys_pcache_attr(ep, n->pc, NULL, 0, &a) < 0 || !(buf = malloc(E2_PAGE)))
		return -EIO;
	struct ext2_time now = e2_now();
	do {
		cnt = sys_pcache_dirty(ep, n->pc, from, idx, E2_DIRTY_BATCH);
		for (long i = 0; i < cnt; i++) {
			uint64_t off = idx[i] * E2_PAGE;
			if (off >= a.size)
				continue;
			size_t len = a.size - off < E2_PAGE ? (size_t)(a.size - off) : E2_PAGE;
			long got = sys_pcache_read(ep, n->pc, off, buf, len);
			int64_t w = got > 0 ? ext2_write(in->fs, n->ino, off, buf, (size_t)got, now) : got;
			if (w < got && !err)
				err = w < 0 ? (int)w : -ENOSPC; /* stays in the cache; fsync reports it */
		}
		if (cnt > 0)
			from = idx[cnt - 1] + 1;
	} while (cnt == E2_DIRTY_BATCH);
	free(buf);
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
	return err ? err : r;
}

void e2_gone(struct e2inst *in, uint32_t ino)
{
	if (!ino)
		return;
	struct e2node *n = e2_node_find(in, ino);
	if (n) {
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
	if (n->pc) {
		e2_node_writeback(in, n);
		sys_pcache_free(fssrv_endpoint(), n->pc);
	}
	if (n->gone)
		ext2_release(in->fs, n->ino);
	e2_node_unhook(in, n);
}

int e2_sync_all(struct e2inst *in)
{
	int err = 0;
	for (int i = 0; i < E2_NODE_HASH; i++)
		for (struct e2node *n = in->nodes[i]; n; n = n->next) {
			int r = e2_node_writeback(in, n);
			if (r && !err)
				err = r;
		}
	int r = in->rdonly ? 0 : ext2_sync(in->fs);
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
	if (!r && n && n->pc)
		r = (int)sys_pcache_truncate(fssrv_endpoint(), n->pc, size);
	return r;
}
