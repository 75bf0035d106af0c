/* The ext2 server's requests on open files: what the kernel does not
 * serve itself. For a file with a page cache object that is ftruncate,
 * fchmod, fchown, futimens, fsync and statfs; a directory is listed
 * (getdents) and sought; a file too large to copy into the cache at open
 * (E2_PCACHE_FILL_MAX) is read and written here through the core, a chunk
 * per hold of the mount's lock. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "ext2_srv.h"

/* Read or written per hold of the mount's lock for a file the server
 * serves: as large as one block-server call (E2_IO_MAX), so a 1 MiB read
 * is two device calls (64 KiB made it sixteen: 256 MiB read at 167 MiB/s,
 * 639 MiB/s now); another request waits at most one chunk. */
#define E2_CHUNK (512u * 1024)

static bool e2_can_read(const struct fs_file *f)
{
	return (f->flags & O_ACCMODE) != O_WRONLY;
}

static bool e2_can_write(const struct fs_file *f)
{
	return (f->flags & O_ACCMODE) != O_RDONLY;
}

/* O_DIRECT (Linux's ext2 on a disk with 512-byte logical blocks): the
 * offset, the length and the buffer's address (w2: its offset in its
 * page, from the kernel) must be multiples of 512, or EINVAL; a length
 * of 0 moves nothing first. Then the file's cached pages, if another
 * descriptor has them, go to the disk first, so the transfer sees the
 * latest data (and a direct write is not undone by an older dirty
 * page's write-back later). 0, 1 (nothing to move) or -errno. */
static long e2_direct_begin(struct e2inst *in, struct fs_file *f, uint64_t off, uint64_t len, uint64_t addr)
{
	struct e2node *n = f->node;
	if (f->flags & O_DIRECT) {
		if (!len)
			return 1;
		if ((off | len | addr) % EXT2_SECTOR_SIZE)
			return -EINVAL;
	}
	/* Any descriptor the server serves (O_DIRECT, or one that was and
	 * fcntl cleared it) beside cached ones: the disk first gets their
	 * pages. */
	return n->pc && len ? e2_node_writeback(in, n) : 0;
}

/* After a server-served write of len bytes from buf at off: the file's cached
 * pages, if any, get those bytes too (a server's write leaves them
 * clean), so cached readers see what the disk now holds. */
static void e2_direct_written(struct fs_file *f, uint64_t off, const void *buf, size_t len)
{
	struct e2node *n = f->node;
	if (n->pc && len) {
		sys_pcache_write(fssrv_endpoint(), n->pc, off, buf, len);
		e2_node_push_blocks(f->inst, n); /* the blocks it allocated */
	}
}

/* FILE_READ of a file the server serves: the mount's lock is let go
 * while the data goes to the caller. */
static long e2_read(struct e2inst *in, struct fs_file *f, const struct ipc_msg *m, const struct ipc_info *info)
{
	struct e2node *n = f->node;
	bool positional = m->w[1] == 1;
	uint64_t off = positional ? m->w[0] : f->offset;
	long done = 0;
	if (!e2_can_read(f))
		return -EBADF;
	long d = e2_direct_begin(in, f, off, info->rcv_len, m->w[2]);
	if (d)
		return d < 0 ? d : 0;
	char *buf = malloc(E2_CHUNK);
	if (!buf)
		return -ENOMEM;
	while ((uint64_t)done < info->rcv_len) {
		uint64_t want = info->rcv_len - (uint64_t)done < E2_CHUNK ? info->rcv_len - (uint64_t)done : E2_CHUNK;
		int64_t got = ext2_read(in->fs, n->ino, off + (uint64_t)done, buf, (size_t)want);
		if (got <= 0) {
			if (got < 0 && !done)
				done = (long)got;
			break;
		}
		struct e2_pause ps;
		e2_pause_begin(in, &ps);
		long w = sys_ipc_write((uint64_t)done, buf, (size_t)got);
		e2_pause_end(in, &ps);
		if (w <= 0) {
			if (w < 0 && !done)
				done = w; /* a bad buffer: EFAULT */
			break;
		}
		done += w;
		if (w < got)
			break;
	}
	free(buf);
	if (done > 0 && !positional)
		f->offset += (uint64_t)done;
	return done;
}

static long e2_write(struct e2inst *in, struct fs_file *f, const struct ipc_msg *m, const struct ipc_info *info)
{
	struct e2node *n = f->node;
	struct ext2_stat st;
	bool positional = m->w[1] == 1;
	uint64_t off = positional ? m->w[0] : f->offset;
	long done = 0;
	if (!e2_can_write(f))
		return -EBADF;
	long d = e2_direct_begin(in, f, off, info->snd_len, m->w[2]);
	if (d)
		return d < 0 ? d : 0;
	if (!positional && (f->flags & O_APPEND)) {
		int e = ext2_stat(in->fs, n->ino, &st);
		if (e)
			return e;
		off = st.size;
	}
	char *buf = malloc(E2_CHUNK);
	if (!buf)
		return -ENOMEM;
	while ((uint64_t)done < info->snd_len) {
		uint64_t want = info->snd_len - (uint64_t)done < E2_CHUNK ? info->snd_len - (uint64_t)done : E2_CHUNK;
		struct e2_pause ps;
		e2_pause_begin(in, &ps);
		long got = sys_ipc_read((uint64_t)done, buf, (size_t)want);
		e2_pause_end(in, &ps);
		if (got <= 0) {
			if (got < 0 && !done)
				done = got;
			break;
		}
		ext2_set_caller(in->fs, info->euid, info->egid); /* others ran during the pause */
		int64_t w = ext2_write(in->fs, n->ino, off + (uint64_t)done, buf, (size_t)got, e2_now());
		if (w < 0) {
			if (!done)
				done = (long)w;
			break;
		}
		e2_direct_written(f, off + (uint64_t)done, buf, (size_t)w);
		done += (long)w;
		if (w < got)
			break;
	}
	free(buf);
	/* O_DIRECT: on the device when the call returns, as Linux's (the
	 * blocks, and the inode and entries that reach them, leave the
	 * server's block cache now; no device flush, as Linux) */
	if (done > 0 && (f->flags & O_DIRECT)) {
		int s = ext2_sync(in->fs);
		if (s)
			return s;
	}
	if (done > 0 && !positional)
		f->offset = off + (uint64_t)done;
	return done;
}

static long e2_seek(struct e2inst *in, struct fs_file *f, int64_t off, int whence)
{
	struct e2node *n = f->node;
	struct ext2_stat st;
	int64_t base = 0;
	if (whence == SEEK_CUR) {
		base = (int64_t)f->offset;
	} else if (whence == SEEK_END) {
		int e = e2_stat(in, n->ino, &st);
		if (e)
			return e;
		base = (int64_t)st.size;
	} else if (whence != SEEK_SET) {
		return -EINVAL;
	}
	if (base + off < 0)
		return -EINVAL;
	f->offset = (uint64_t)(base + off);
	return (long)f->offset;
}

/* Entries a listing names in the kernel at most per getdents (one call
 * gives a few thousand at most: its buffer is the client's), and their
 * names' bytes; past them the rest are named by the lookups, as before. */
#define E2_PLUS_MAX 2048
#define E2_PLUS_NAMES (64u << 10)

struct e2_plus {
	uint32_t n, used;
	bool partial;		/* an entry given was left out (the bounds, or the client's buffer) */
	struct { uint32_t ino, off, len; } e[E2_PLUS_MAX];
	char names[E2_PLUS_NAMES];
};

struct e2_dirfill {
	struct fssrv_dents *b;
	struct e2_plus *plus;	/* the entries given, to name in the kernel (NULL: not) */
};

/* A listing's entries into the kernel's name cache, with an object for
 * each (e2_node_obj: links and devices have none and are left out), as a
 * walk's names are (e2_trail_install): the lstat of each that a
 * find-style walk makes next is the kernel's. Under the mount's lock,
 * right after the listing, so no change of names comes between. True
 * if every entry given is named now. */
static bool e2_plus_install(struct e2inst *in, uint32_t dir, const struct e2_plus *p)
{
	struct ncache_rec rec[NCACHE_ADD_MAX];
	uint32_t pinned[NCACHE_ADD_MAX];
	bool all = true;
	uint64_t d = e2_node_obj(in, dir, true);
	if (!d)
		return false;
	for (uint32_t i = 0; i < p->n;) {
		uint32_t n = 0, from = p->e[i].off;
		for (; i < p->n && n < NCACHE_ADD_MAX && p->e[i].off + p->e[i].len - from <= 4096; i++) {
			uint64_t ch = e2_node_obj(in, p->e[i].ino, true);
			if (!ch) {
				all = false; /* a link, a device: the server's */
				continue;
			}
			pinned[n] = p->e[i].ino;
			rec[n++] = (struct ncache_rec){ .dir = (uint32_t)d, .child = (uint32_t)ch,
							.off = (uint16_t)(p->e[i].off - from), .len = (uint16_t)p->e[i].len };
		}
		uint32_t end = i < p->n ? p->e[i].off : p->used;
		if (n && sys_ncache_add(fssrv_endpoint(), p->names + from, end - from, rec, n) < 0)
			all = false;
		for (uint32_t k = 0; k < n; k++)
			e2_node_unpin(in, pinned[k]);
	}
	e2_node_unpin(in, dir);
	return all;
}

static int e2_dent(void *ctx, const char *name, size_t len, uint32_t ino, unsigned dtype, uint64_t next)
{
	struct e2_dirfill *d = ctx;
	char nm[E2_NAME_MAX + 1];
	if (len > E2_NAME_MAX)
		len = E2_NAME_MAX;
	memcpy(nm, name, len);
	nm[len] = '\0';
	struct e2_plus *p = d->plus;
	if (!fssrv_dent(d->b, ino, dtype, nm, next)) {
		if (p)
			p->partial = true;
		return 1; /* the client's buffer is full */
	}
	bool dot = (len == 1 && nm[0] == '.') || (len == 2 && nm[0] == '.' && nm[1] == '.');
	if (p && !dot && p->n < E2_PLUS_MAX && len <= E2_PLUS_NAMES - p->used) {
		p->e[p->n++] = (typeof(p->e[0])){ ino, p->used, (uint32_t)len };
		memcpy(p->names + p->used, nm, len);
		p->used += (uint32_t)len;
	} else if (p && !dot) {
		p->partial = true;
	}
	return 0;
}

/* The mount whose lock the current FILE_GETDENTS holds (its fill runs
 * inside fssrv_getdents, which knows only the file). */
static struct e2inst *e2_getdents_in(struct fs_file *f)
{
	return f->inst;
}

static long e2_dir_fill(struct fs_file *f, uint64_t pos, struct fssrv_dents *b)
{
	struct e2inst *in = e2_getdents_in(f);
	struct e2node *n = f->node;
	struct ext2_stat st;
	int e = ext2_stat(in->fs, n->ino, &st);
	if (e)
		return e;
	if ((st.mode & EXT2_S_IFMT) != EXT2_S_IFDIR)
		return -ENOTDIR;
	if (!st.nlink || n->gone)
		return -ENOENT; /* removed while open, as Linux (IS_DEADDIR) */
	if (pos == 0) { /* a new listing: are the last one's names being looked up? */
		in->plus_dir = n->ino;
		in->plus_seen = 0;
	}
	/* only for a directory with an object (the kernel's names hang on
	 * it) on a mount with the inode cache */
	bool plus = in->plus && in->root && in->keep_max && !n->listed;
	struct e2_dirfill d = { .b = b, .plus = plus ? malloc(sizeof(*d.plus)) : NULL };
	if (d.plus) {
		d.plus->n = d.plus->used = 0;
		d.plus->partial = false;
	}
	uint64_t cookie = pos;
	long r = ext2_readdir(in->fs, n->ino, &cookie, e2_dent, &d);
	if (r >= 0 && d.plus && e2_plus_install(in, n->ino, d.plus) && pos == 0 && !d.plus->partial)
		n->listed = true; /* all of it in one call: the next listing names nothing again */
	free(d.plus);
	return r;
}

static long e2_fsync(struct e2inst *in, struct e2node *n)
{
	if (in->rdonly)
		return 0;
	/* paced: a throttled owner's fsync lets the mount's lock go between
	 * batches and waits for its io.max without it (the open file holds
	 * the node meanwhile), so other cgroups' requests do not wait for its
	 * budget (docs/writeback.md) */
	return e2_node_fsync(in, n);
}

static long e2_file_locked(struct e2inst *in, struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	struct e2node *n = f->node;
	struct ext2_stat st;
	struct stat ust;
	long e;
	switch (m->label) {
	case FILE_READ:
	case FILE_WRITE:
		if ((e = ext2_stat(in->fs, n->ino, &st)))
			return e;
		if ((st.mode & EXT2_S_IFMT) == EXT2_S_IFDIR)
			return -EISDIR;
		if (f->pcache)
			return -EIO; /* the kernel serves it: a call here is not the kernel's */
		return m->label == FILE_READ ? e2_read(in, f, m, info) : e2_write(in, f, m, info);
	case FILE_SEEK:
		return e2_seek(in, f, (int64_t)m->w[0], (int)m->w[1]);
	case FILE_FSTAT:
		if ((e = e2_stat(in, n->ino, &st)))
			return e;
		e2_fill_stat(in, &st, &ust);
		return sys_ipc_write(0, &ust, sizeof(ust)) == sizeof(ust) ? 0 : -EFAULT;
	case FILE_GETDENTS:
		return fssrv_getdents(f, m, info, e2_dir_fill);
	case FILE_TRUNCATE:
		if (!e2_can_write(f))
			return -EBADF;
		if (in->rdonly)
			return -EROFS;
		return e2_truncate(in, n->ino, m->w[0]);
	case FILE_FCHMOD:
		return e2_chmod(in, n->ino, (uint32_t)m->w[0], info->euid, info->egid);
	case FILE_FCHOWN:
		return e2_chown(in, n->ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1], info->euid,
				info->egid);
	case FILE_UTIMES:
		return e2_utimes(in, n->ino, m->w[0], m->w[1], info->euid, info->egid, info->pid);
	case FILE_FSYNC:
		return e2_fsync(in, n);
	default:
		return -EINVAL;
	}
}

long e2_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	struct e2inst *in = f->inst;
	if (m->label == FILE_POLL) /* always as ready as it will be */
		return (short)m->w[0] & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	long e = e2_enter(in);
	if (e)
		return e;
	ext2_set_caller(in->fs, info->euid, info->egid); /* root's reserved blocks */
	e = e2_file_locked(in, f, m, info);
	ext2_set_caller(in->fs, 0, 0); /* write-back is for data already accepted */
	e2_leave(in);
	return e;
}

void e2_release(struct fs_file *f)
{
	struct e2inst *in = f->inst;
	if (!f->node || e2_enter(in))
		return;
	e2_node_put(in, f->node);
	e2_leave(in);
}
