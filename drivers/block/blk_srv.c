/* A disk's server: its endpoint ("blk.NAME"), worker threads (each with
 * its bounce buffer, so several clients' calls are in progress at once),
 * and its open files. The pool grows on demand: a worker that takes a call
 * when no other is idle starts another (up to BLK_WORKERS_MAX), so calls
 * that wait long (io.max holds their requests) never take the last worker
 * other clients' calls need; and one cgroup's transfers hold at most
 * BLK_PER_CGROUP workers, the rest wait deferred (below), so no client can
 * take the pool. devfs opens the disk for a client (BLK_OPEN, after
 * checking the client may open /dev/NAME) and passes the channel on; from
 * then on the client's descriptor talks to this server directly, with the
 * file protocol of abi/fs.h, and the kernel tells us who calls. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "abi/blk.h"
#include "abi/fs.h"
#include "abi/ipc.h"
#include "blk_io.h"

#define WORKERS 6	/* started at once, with BLK_BOUNCE each */
#define BLK_PER_CGROUP 8	/* transfers one cgroup may have in service */
#define BLK_BACKLOG_MAX 192	/* deferred transfers (each holds a reply handle) */
#define FILES_MAX 64
/* The status flags a file keeps and F_SETFL changes (Linux's for a block
 * device, less O_ASYNC and O_NOATIME). */
#define BLK_SETFL (O_APPEND | O_NONBLOCK | O_DIRECT)

long __arbor_thread_start(long (*fn)(void *), void *arg);

struct blk_file {
	uint64_t badge;		/* 0: free slot */
	int flags;		/* O_ACCMODE | O_APPEND | O_NONBLOCK | O_DIRECT */
	uint64_t offset;
};

static struct blk_dev *dev;
static int endpoint;
static srvlock_t files_lock;
static struct blk_file files[FILES_MAX];
static uint64_t next_badge = 1;
static struct blk_worker workers[BLK_WORKERS_MAX];
/* The pool: nworkers started (under grow_lock), idle of them not in a
 * call (waiting to receive one, or about to). */
static srvlock_t grow_lock;
static int nworkers, idle;
static bool grow_stopped;	/* a start failed: no more tries */

static long blk_worker_loop(void *arg);

static struct blk_file *file_find(uint64_t badge)
{
	for (int i = 0; i < FILES_MAX; i++)
		if (badge && files[i].badge == badge)
			return &files[i];
	return NULL;
}

/* BLK_OPEN: a channel for a new open file, given to the caller (devfs). */
static long blk_open(const struct ipc_info *info, int flags)
{
	if (info->euid != 0)
		return -EPERM;
	if ((flags & O_ACCMODE) == 3)
		return -EINVAL;
	if (dev->read_only && (flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	srvlock_lock(&files_lock);
	struct blk_file *f = NULL;
	for (int i = 0; i < FILES_MAX && !f; i++)
		if (!files[i].badge)
			f = &files[i];
	uint64_t badge = next_badge++;
	if (f)
		*f = (struct blk_file){ badge, flags & (O_ACCMODE | BLK_SETFL), 0 };
	srvlock_unlock(&files_lock);
	if (!f)
		return -ENFILE;
	long ch = sys_chan_create(endpoint, badge);
	/* The kernel answers poll (a disk is always ready), the status flags
	 * and whether it seeks (it does) itself. */
	if (ch >= 0 && sys_ipc_fstate((int)ch, IPC_FST_SEEKABLE, POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM,
				      (uint32_t)(flags & (O_ACCMODE | BLK_SETFL)), BLK_SETFL) < 0) {
		sys_handle_close((int)ch);
		ch = -ENOMEM;
	}
	long h = ch < 0 ? ch : sys_ipc_give((int)ch);
	if (ch >= 0)
		sys_handle_close((int)ch);	/* if the give failed, this was the last: CLOSED frees f */
	else
		f->badge = 0;
	return h;
}

static void blk_stat(struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = BLK_DEVFS_DEV;
	st->st_ino = BLK_DEVFS_INO + dev->minor / BLK_MINORS_PER_DISK;
	st->st_mode = S_IFBLK | BLK_DEVFS_MODE;
	st->st_nlink = 1;
	st->st_gid = BLK_DISK_GID;
	st->st_rdev = (dev_t)(dev->major << 8 | dev->minor);
	st->st_blksize = 4096;
}

/* lseek on a disk: the end is its size; past it is EINVAL (Linux). */
static long blk_seek(struct blk_file *f, int64_t off, int whence)
{
	int64_t size = (int64_t)(dev->sectors * BLK_SECTOR);
	int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)f->offset :
		       whence == SEEK_END ? size : -1;
	if (base < 0 || base + off < 0 || base + off > size)
		return -EINVAL;
	f->offset = (uint64_t)(base + off);
	return (long)f->offset;
}

/* O_DIRECT (Linux 6.1's rule for a block device): the offset, the length
 * and the buffer's address (w2: its offset in its page, from the kernel)
 * must be multiples of the logical block size, or the call is EINVAL.
 * What needs no transfer comes first, as on Linux: a length of 0, a read
 * at or past the end (0), a write there (ENOSPC). */
static bool blk_direct_misaligned(int flags, uint64_t pos, uint64_t len, uint64_t addr)
{
	if (!(flags & O_DIRECT) || len == 0 || pos >= dev->sectors * BLK_SECTOR)
		return false;
	return (pos | len | addr) % BLK_SECTOR != 0;
}

/* Reads and writes at the file's offset (w1 == 1: at w0, pread/pwrite). */
static long blk_file_rw(struct blk_worker *w, struct blk_file *f, const struct ipc_msg *m,
			const struct ipc_info *info)
{
	struct blk_who who = { info->for_cgroup_id, info->for_pid };
	bool wr = m->label == FILE_WRITE, at = m->w[1] == 1;
	uint64_t len = wr ? info->snd_len : info->rcv_len;
	srvlock_lock(&files_lock);
	int flags = f->flags;
	uint64_t pos = at ? m->w[0] : f->offset;
	srvlock_unlock(&files_lock);
	int acc = flags & O_ACCMODE;
	if (wr ? acc == O_RDONLY : acc == O_WRONLY)
		return -EBADF;
	if (blk_direct_misaligned(flags, pos, len, m->w[2]))
		return -EINVAL;
	long r = wr ? blk_write(w, pos, len, &who) : blk_read(w, pos, len, &who);
	if (r > 0 && !at) {
		srvlock_lock(&files_lock);
		f->offset = pos + (uint64_t)r;
		srvlock_unlock(&files_lock);
	}
	return r;
}

static long blk_file_request(struct blk_worker *w, struct blk_file *f, struct ipc_msg *m,
			     const struct ipc_info *info)
{
	struct stat st;
	struct blk_who who = { info->for_cgroup_id, info->for_pid };
	long r;
	switch (m->label) {
	case FILE_READ:
	case FILE_WRITE:
		if (m->w[3] & FILE_W3_FLAGS) { /* the kernel keeps them (fcntl) */
			srvlock_lock(&files_lock);
			f->flags = (f->flags & ~BLK_SETFL) | ((int)m->w[3] & BLK_SETFL);
			srvlock_unlock(&files_lock);
		}
		return blk_file_rw(w, f, m, info);
	case FILE_SEEK:
		srvlock_lock(&files_lock);
		r = blk_seek(f, (int64_t)m->w[0], (int)m->w[1]);
		srvlock_unlock(&files_lock);
		return r;
	case FILE_FSTAT:
		blk_stat(&st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case FILE_GETFL:
		return f->flags;
	case FILE_SETFL:
		srvlock_lock(&files_lock);
		f->flags = (f->flags & ~BLK_SETFL) | ((int)m->w[0] & BLK_SETFL);
		srvlock_unlock(&files_lock);
		return 0;
	case FILE_POLL: /* a disk is always ready */
		return (short)m->w[0] & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	case FILE_FSYNC:
		return blk_flush(w, &who);
	case BLK_WRITEV:
		if ((f->flags & O_ACCMODE) == O_RDONLY)
			return -EBADF;
		return blk_writev(w, m->w[0] > BLK_WRITEV_SEGS ? 0 : (uint32_t)m->w[0], info->snd_len,
				  m->w[1] & BLK_WRITEV_FLUSH, &who);
	case BLK_READ_GRANT:
	case BLK_WRITE_GRANT: {
		bool write = m->label == BLK_WRITE_GRANT;
		if ((f->flags & O_ACCMODE) == (write ? O_RDONLY : O_WRONLY))
			return -EBADF;
		if (w->reply >= 0) /* served from the backlog: not its caller's grant */
			return -EOPNOTSUPP;
		return blk_grant_io(w, m->w[0], m->w[1], m->w[2], write ? BLK_OP_WRITE : BLK_OP_READ, &who);
	}
	case BLK_BUDGET:
		if ((f->flags & O_ACCMODE) == O_RDONLY)
			return -EBADF;
		if (m->w[0] == 0 || m->w[0] > BLK_BUDGET_MAX)
			return -EINVAL;
		w->reqs[0].notif = w->notif;
		return blk_budget(dev, &w->reqs[0], &who, m->w[0]);
	case FILE_GETDENTS:
		return -ENOTDIR;
	case FILE_TRUNCATE:
		return -EINVAL;
	default:
		return -EPERM;
	}
}

static void blk_request(struct blk_worker *w, struct ipc_msg *m, const struct ipc_info *info)
{
	long r;
	uint64_t l = m->label;
	if (l == IPC_LABEL_CLOSED) {
		srvlock_lock(&files_lock);
		struct blk_file *f = file_find(info->badge);
		if (f)
			f->badge = 0;
		srvlock_unlock(&files_lock);
		r = 0;
	} else if (info->badge) {
		struct blk_file *f = file_find(info->badge);
		r = f ? blk_file_request(w, f, m, info) : -EBADF;
	} else if (l == BLK_INFO) {
		m->w[0] = dev->major, m->w[1] = dev->minor;
		m->w[2] = dev->sectors * BLK_SECTOR, m->w[3] = BLK_SECTOR;
		r = 0;
	} else if (l == BLK_OPEN) {
		r = blk_open(info, (int)m->w[0]);
	} else {
		r = -EINVAL;
	}
	bool value = l == BLK_OPEN || (info->badge && (l == FILE_READ || l == FILE_WRITE || l == BLK_WRITEV || l == BLK_READ_GRANT || l == BLK_WRITE_GRANT ||
		     l == BLK_BUDGET || l == FILE_SEEK || l == FILE_GETFL || l == FILE_POLL));
	if (r >= 0 && value)
		m->w[0] = (uint64_t)r;
	m->label = (uint64_t)(r < 0 ? r : 0);
}

/* Starts one more worker, with a BLK_BOUNCE_EXTRA buffer, unless the
 * pool is at its cap (then calls wait in the endpoint for a worker to
 * finish, as with a fixed pool) or a start failed before. It counts as
 * idle from now on, so the callers that find none idle meanwhile do not
 * start one each. Workers stay (a blocked receive cannot time out); the
 * cap bounds their memory: 58 more buffers of 128 KiB, 7.25 MiB. */
static void blk_grow(void)
{
	srvlock_lock(&grow_lock);
	if (nworkers < BLK_WORKERS_MAX && !grow_stopped) {
		struct blk_worker *w = &workers[nworkers];
		if (blk_worker_init(w, dev, nworkers, BLK_BOUNCE_EXTRA) == 0) {
			__atomic_add_fetch(&idle, 1, __ATOMIC_ACQ_REL);
			if (__arbor_thread_start(blk_worker_loop, w) >= 0) {
				nworkers++;
			} else {
				__atomic_sub_fetch(&idle, 1, __ATOMIC_ACQ_REL);
				grow_stopped = true;	/* its buffer stays: the slot is not reused */
			}
		} else {
			grow_stopped = true;
		}
		if (grow_stopped)
			printf("%s: cannot start more workers (%d)\n", dev->name, nworkers);
	}
	srvlock_unlock(&grow_lock);
}

/* ---- each cgroup's share of the workers ----
 * A transfer may wait long (io.max holds it, the disk is slow), and holds
 * its worker meanwhile. So that one cgroup's calls cannot take every
 * worker, a cgroup has at most BLK_PER_CGROUP transfers in service; its
 * further calls are deferred (ipc_defer: they wait without a worker) in
 * the backlog, and a worker that finishes a transfer takes the oldest
 * backlogged call whose cgroup is under its share, through its reply
 * handle. A backlogged caller that goes (a signal, a kill) is dropped at
 * once (IPC_LABEL_ABANDONED). */

struct blk_held {
	uint64_t cgroup_id;
	int n;			/* 0: a free entry */
};

struct blk_backlog {
	int reply;
	uint64_t cookie;
	struct ipc_msg m;
	struct ipc_info info;
};

static srvlock_t share_lock;
static struct blk_held held[BLK_WORKERS_MAX];	/* one entry per worker at most */
static struct blk_backlog backlog[BLK_BACKLOG_MAX];
static int nbacklog;
static uint64_t next_cookie = 1;

/* A call that moves data (and may wait for the disk or io.max). */
static bool blk_is_transfer(const struct ipc_msg *m, const struct ipc_info *info)
{
	return info->badge && info->pid &&
	       (m->label == FILE_READ || m->label == FILE_WRITE || m->label == FILE_FSYNC ||
		m->label == BLK_WRITEV || m->label == BLK_BUDGET);
}

/* One more transfer in service for cgroup id, unless it is at its share
 * (share_lock held). */
static bool held_take(uint64_t id)
{
	struct blk_held *free = NULL;
	for (int i = 0; i < BLK_WORKERS_MAX; i++) {
		if (held[i].n && held[i].cgroup_id == id) {
			if (held[i].n >= BLK_PER_CGROUP)
				return false;
			held[i].n++;
			return true;
		}
		if (!held[i].n && !free)
			free = &held[i];
	}
	if (!free)
		return false;
	*free = (struct blk_held){ id, 1 };
	return true;
}

static void held_drop(uint64_t id)
{
	srvlock_lock(&share_lock);
	for (int i = 0; i < BLK_WORKERS_MAX; i++)
		if (held[i].n && held[i].cgroup_id == id) {
			held[i].n--;
			break;
		}
	srvlock_unlock(&share_lock);
}

/* A backlogged caller went: forget its call (the handle is closed by
 * cookie, never by the event's handle number, which may be reused). */
static void backlog_drop(uint64_t cookie)
{
	srvlock_lock(&share_lock);
	for (int i = 0; i < nbacklog; i++) {
		if (backlog[i].cookie != cookie)
			continue;
		sys_handle_close(backlog[i].reply);
		for (int j = i + 1; j < nbacklog; j++)
			backlog[j - 1] = backlog[j];
		nbacklog--;
		break;
	}
	srvlock_unlock(&share_lock);
}

/* Serves backlogged calls whose cgroups are under their share now. */
static void backlog_serve(struct blk_worker *w)
{
	for (;;) {
		srvlock_lock(&share_lock);
		int pick = -1;
		for (int i = 0; i < nbacklog && pick < 0; i++)
			if (held_take(backlog[i].info.for_cgroup_id))
				pick = i;
		if (pick < 0) {
			srvlock_unlock(&share_lock);
			return;
		}
		struct blk_backlog b = backlog[pick];
		for (int i = pick + 1; i < nbacklog; i++) /* oldest first stays */
			backlog[i - 1] = backlog[i];
		nbacklog--;
		srvlock_unlock(&share_lock);
		w->reply = b.reply;
		blk_request(w, &b.m, &b.info);
		w->reply = -1;
		held_drop(b.info.for_cgroup_id);
		sys_ipc_reply_to(b.reply, &b.m); /* -ESRCH: it went meanwhile */
	}
}

/* The call just received: served now (true: m is its answer), or
 * deferred into the backlog (false: nothing to answer). *counted: it
 * holds a share of its cgroup until it is answered. */
static bool blk_take_call(struct blk_worker *w, struct ipc_msg *m, struct ipc_info *info, bool *counted)
{
	*counted = false;
	if (m->label == IPC_LABEL_ABANDONED && info->pid == 0) {
		backlog_drop(m->w[0]);
		return true; /* nobody to answer: reply_recv just receives */
	}
	if (blk_is_transfer(m, info)) {
		srvlock_lock(&share_lock);
		*counted = held_take(info->for_cgroup_id);
		if (!*counted && nbacklog < BLK_BACKLOG_MAX) {
			uint64_t cookie = next_cookie++;
			long h = sys_ipc_defer(endpoint, cookie);
			if (h >= 0) {
				backlog[nbacklog++] = (struct blk_backlog){ (int)h, cookie, *m, *info };
				srvlock_unlock(&share_lock);
				return false;
			}
		}
		srvlock_unlock(&share_lock);
		/* over its share with the backlog full (or no handle left):
		 * served anyway, as before there were shares */
	}
	blk_request(w, m, info);
	return true;
}

static long blk_worker_loop(void *arg)
{
	struct blk_worker *w = arg;
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	long r = sys_ipc_recv(endpoint, &m, &info);
	for (;;) {
		bool answer = true, counted = false;
		if (r == 0) {
			/* the last idle worker took this call: another keeps
			 * the endpoint served while it lasts */
			if (__atomic_sub_fetch(&idle, 1, __ATOMIC_ACQ_REL) == 0)
				blk_grow();
			answer = blk_take_call(w, &m, &info, &counted);
			__atomic_add_fetch(&idle, 1, __ATOMIC_ACQ_REL);
		}
		if (counted) {
			held_drop(info.for_cgroup_id);
			if (__atomic_load_n(&nbacklog, __ATOMIC_ACQUIRE)) {
				/* answer ours first, then what waits for a share */
				sys_ipc_reply(&m);
				backlog_serve(w);
				answer = false;
			}
		}
		r = answer ? sys_ipc_reply_recv(endpoint, &m, &info) : sys_ipc_recv(endpoint, &m, &info);
	}
	return 0;
}

int blk_serve(struct blk_dev *d)
{
	char name[32];
	dev = d;
	long ep = sys_ep_create();
	if (ep < 0)
		return 1;
	endpoint = (int)ep;
	sys_ipc_mark_io(endpoint); /* our clients wait for the disk: io pressure */
	if (blk_queue_start(d)) {
		printf("%s: cannot start its queue\n", d->name);
		return 1;
	}
	for (int i = 0; i < WORKERS; i++) {
		if (blk_worker_init(&workers[i], d, i, BLK_BOUNCE)) {
			printf("%s: cannot start its workers\n", d->name);
			return 1;
		}
		__atomic_add_fetch(&idle, 1, __ATOMIC_ACQ_REL);
		nworkers++;
		if (i > 0 && __arbor_thread_start(blk_worker_loop, &workers[i]) < 0) {
			printf("%s: cannot start its workers\n", d->name);
			return 1;
		}
	}
	snprintf(name, sizeof(name), "%s%s", BLK_NAME_PREFIX, d->name);
	if (sys_ns_register(name, endpoint)) {
		printf("%s: the name %s is taken\n", d->name, name);
		return 1;
	}
	blk_worker_loop(&workers[0]);
	return 0;
}
