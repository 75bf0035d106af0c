/* Descriptors served from the page cache (pcache.h): a channel to a file
 * server with an object attached (pcache_attach). read, write, pread,
 * pwrite, lseek and fstat on it never reach the server: the open file
 * description's offset is the channel's (shared by dup and fork, as
 * POSIX's open file description), its access mode and O_APPEND are the
 * status flags the server published (ipc_fstate; fcntl changes O_APPEND
 * there). A dead server's descriptors answer -EIO. */
#include "pcache.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "cgns.h"
#include "cgroup.h"
#include "ipc.h"
#include "memcg.h"
#include "proc.h"
#include "syscall.h"
#include "unixsock.h"

/* -EBADF if the open mode forbids the access (Linux's) or the descriptor
 * is O_PATH, -EIO if the server died, else 0. */
static long pcache_fd_check(struct channel *ch, bool write)
{
	uint32_t fl = __atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED), acc = fl & O_ACCMODE;
	if ((fl & O_PATH) || (write ? acc == O_RDONLY : acc == O_WRONLY))
		return -EBADF; /* an O_PATH descriptor reads and writes nothing */
	return __atomic_load_n(&ch->ep->dead, __ATOMIC_RELAXED) ? -EIO : 0;
}

/* Whether another may use the description's offset during this call (Linux's
 * file_count > 1 test in fdget_pos): a second reference besides the
 * caller's handle's and its lookup's (a dup, a fork's copy, a descriptor
 * given away, a sharer in a call now), or another thread of the process
 * (which could dup it or use this very descriptor). Neither can appear
 * while the only thread is here. */
static bool pcache_pos_shared(struct channel *ch)
{
	return __atomic_load_n(&ch->obj.refcount, __ATOMIC_RELAXED) > 2 ||
	       __atomic_load_n(&current_thread()->proc->nr_threads, __ATOMIC_RELAXED) > 1;
}

/* Takes the description's offset lock (Linux's f_pos_lock, held across
 * the copy: a user fault may sleep inside) if it may be shared (*held
 * says whether): 0, or -EINTR if the thread is being killed. A thread
 * that already waited takes a lock handed over (pos_given); a newcomer
 * never does, so a waiter loses the race at most once. */
static int pcache_pos_lock(struct channel *ch, bool *held)
{
	struct thread *self = current_thread();
	if (!(*held = pcache_pos_shared(ch)))
		return 0;
	bool waited = false;
	spin_lock(&ch->pos_lock);
	while (ch->pos_busy && !(waited && ch->pos_given)) {
		if (thread_fatal_signal(self)) {
			/* a lock handed to the waiters, maybe to us: to the next one */
			bool pass = ch->pos_given && !list_empty(&ch->pos_wait.waiters);
			if (ch->pos_given && !pass)
				ch->pos_busy = ch->pos_given = false;
			spin_unlock(&ch->pos_lock);
			if (pass)
				waitq_wake_one(&ch->pos_wait, 0);
			return -EINTR;
		}
		if (waited)
			ch->pos_starved = true;
		waitq_wait(&ch->pos_wait, &ch->pos_lock, 0); /* a signal: wait on */
		waited = true;
		spin_lock(&ch->pos_lock);
	}
	ch->pos_busy = true;
	ch->pos_given = false;
	spin_unlock(&ch->pos_lock);
	return 0;
}

static void pcache_pos_unlock(struct channel *ch, bool held)
{
	if (!held)
		return;
	spin_lock(&ch->pos_lock);
	/* a waiter queues itself before it lets go of pos_lock (waitq_wait) */
	bool waiters = !list_empty(&ch->pos_wait.waiters);
	if (waiters && ch->pos_starved) {
		ch->pos_given = true; /* pos_busy stays: a waiter's now */
		ch->pos_starved = false;
	} else
		ch->pos_busy = false;
	spin_unlock(&ch->pos_lock);
	if (waiters)
		waitq_wake_one(&ch->pos_wait, 0);
}

long pcache_fd_read(struct channel *ch, void *buf, size_t len, int64_t off)
{
	long r = pcache_fd_check(ch, false);
	if (r)
		return r;
	if (len && !user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	if (len > INT64_MAX)
		len = INT64_MAX;
	if (off >= 0)
		return pcache_obj_read(ch->pc, (uint64_t)off, buf, len, true);
	bool held;
	if ((r = pcache_pos_lock(ch, &held)))
		return r;
	uint64_t pos = __atomic_load_n(&ch->pos, __ATOMIC_RELAXED);
	r = pcache_obj_read(ch->pc, pos, buf, len, true);
	if (r > 0)
		__atomic_store_n(&ch->pos, pos + (uint64_t)r, __ATOMIC_RELAXED);
	pcache_pos_unlock(ch, held);
	return r;
}

long pcache_fd_write(struct channel *ch, const void *buf, size_t len, int64_t off)
{
	long r = pcache_fd_check(ch, true);
	if (r)
		return r;
	if (len && !user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	if (len > INT64_MAX)
		len = INT64_MAX;
	struct pcache_obj *o = ch->pc;
	/* the writer's cgroup pays for the pages it first touches */
	struct cgroup *cg = memcg_requester();
	bool held = false;
	if (off < 0 && (r = pcache_pos_lock(ch, &held))) {
		cg_put(cg);
		return r; /* order: the offset lock, then the write lock */
	}
	/* near its dirty limit the write goes in chunks, each after room
	 * for it (dirty.c), without the write lock a server's truncate of
	 * this file may need meanwhile */
	uint64_t ahead;
	size_t chunk = pcache_dirty_chunk(o, cg, len, &ahead);
	if (ahead)
		pcache_balance_dirty(o, cg, ahead);
	if ((r = pcache_wlock(o))) {
		pcache_pos_unlock(ch, held);
		cg_put(cg);
		return r;
	}
	/* O_APPEND writes at the end even for pwrite, as Linux (pwrite(2), BUGS) */
	bool append = __atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) & O_APPEND;
	uint64_t at = append ? PCACHE_APPEND : off >= 0 ? (uint64_t)off : __atomic_load_n(&ch->pos, __ATOMIC_RELAXED);
	uint64_t end = at, asked = 0;
	size_t done = 0;
	bool locked = true;
	for (;;) {
		size_t n = len - done < chunk ? len - done : chunk;
		r = pcache_obj_write(o, at, (const uint8_t *)buf + done, n, cg, true, &end);
		uint64_t want = o->resv_want; /* the write lock's holder's */
		o->resv_want = 0;
		if (r > 0)
			done += (size_t)r;
		if (done == len || (!want && (r < 0 || (size_t)r < n)))
			break;
		at = append ? PCACHE_APPEND : end;
		pcache_wunlock(o);
		locked = false;
		int a = 0;
		if (want) {
			/* the block reservation is spent (docs/fs.md,
			 * "Reservations"): the server is asked without the
			 * write lock, whose holder a server's request may wait
			 * for; the same page twice: ENOSPC */
			a = want == asked ? -ENOSPC : pcache_resv_ask(o, want - 1);
			asked = want;
		} else {
			pcache_balance_dirty(o, cg, ahead); /* room for the next chunk */
		}
		if (a || (a = pcache_wlock(o))) {
			r = a;
			break;
		}
		locked = true;
	}
	if (done)
		r = (long)done;
	if (off < 0 && r >= 0)
		__atomic_store_n(&ch->pos, end, __ATOMIC_RELAXED);
	if (locked)
		pcache_wunlock(o);
	pcache_pos_unlock(ch, held);
	if (r > 0)
		pcache_balance_dirty(o, cg, 0); /* past its dirty limit: it waits for its writeback */
	cg_put(cg);
	return r;
}

/* lseek's arithmetic, Linux's vfs_setpos (the offset lock held). */
static long pcache_fd_seek_locked(struct channel *ch, int64_t off, int whence)
{
	int64_t base;
	if (whence == 0) {
		base = 0;
	} else if (whence == 1) {
		base = (int64_t)__atomic_load_n(&ch->pos, __ATOMIC_RELAXED);
	} else {
		struct pcache_attr a;
		pcache_obj_getattr(ch->pc, &a);
		base = (int64_t)a.size;
	}
	int64_t to;
	/* Linux's vfs_setpos: before the start or past the largest size */
	if (__builtin_add_overflow(base, off, &to) || to < 0 || (uint64_t)to > ch->pc->max)
		return -EINVAL;
	__atomic_store_n(&ch->pos, (uint64_t)to, __ATOMIC_RELAXED);
	return to;
}

long pcache_fd_seek(struct channel *ch, int64_t off, int whence)
{
	if (__atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) & O_PATH)
		return -EBADF; /* Linux's lseek takes no O_PATH file (fdget) */
	if (__atomic_load_n(&ch->ep->dead, __ATOMIC_RELAXED))
		return -EIO;
	/* serialised with reads and writes, as Linux's lseek (fdget_pos):
	 * neither undoes the other's offset */
	bool held;
	int r = pcache_pos_lock(ch, &held);
	if (r)
		return r;
	long to = pcache_fd_seek_locked(ch, off, whence);
	pcache_pos_unlock(ch, held);
	return to;
}

void pcache_channel_release(struct channel *ch)
{
	if (ch->pc && ch->pc_writer)
		pcache_put_write(ch->pc);
	if (ch->pc)
		pcache_obj_put(ch->pc);
}

long sys_fd_stat(int fd, struct pcache_attr *out)
{
	long r;
	struct kobj *o = handle_get_rights(current_thread()->proc, fd, KOBJ_KINDS_ANY, 0, &r);
	if (!o)
		return r;
	struct channel *ch = o->type == KOBJ_CHANNEL ? container_of(o, struct channel, obj) : NULL;
	struct pcache_obj *pc = ch ? __atomic_load_n(&ch->pc, __ATOMIC_ACQUIRE) : NULL;
	struct pcache_attr a;
	if (o->type == KOBJ_PIPE)
		pipe_fd_stat(o, &a); /* a pipe's end: pipefs's inode */
	else if (o->type == KOBJ_SOCKET) /* what Linux's sockfs shows */
		a = (struct pcache_attr){ .mode = 0140777, .ino = usock_ino(o) };
	else if (o->type == KOBJ_CGNS) /* a namespace: Linux's nsfs inode */
		cgns_fd_stat(o, &a);
	else if (!pc)
		r = -EOPNOTSUPP; /* not the page cache's: its server answers */
	else if (__atomic_load_n(&ch->ep->dead, __ATOMIC_RELAXED))
		r = -EIO;
	else
		pcache_obj_getattr(pc, &a);
	kobj_put(o);
	if (r == 0 && copy_to_user(out, &a, sizeof(a)))
		r = -EFAULT;
	return r;
}
