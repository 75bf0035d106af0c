/* Pipes in the kernel, and the descriptor calls that reach them.
 *
 * A pipe is a 64 KiB ring of 16 page slots, with two ends: kernel objects
 * held by handles, so dup, fork, close-on-exec and exit give POSIX's
 * semantics. A slot has a page only while it holds unread bytes: the
 * write that needs one allocates it, charged to the writer's cgroup (as
 * Linux charges pipe pages to the writer, __GFP_ACCOUNT: memory.stat
 * "kernel"), and the read that empties it frees it, but for the emptied
 * pages a pipe keeps for its next writes (Linux's tmp_page): the page an
 * empty pipe's head is in and one spare, kept only where the pipe's maker
 * pays for them (it pays for the pipe's other parts too; Linux leaves its
 * tmp_page charged to whoever first wrote it). A write fills those before
 * it takes pages of its own: the writer pays for every page past them. A
 * FIFO keeps none. A write the writer's cgroup cannot pay for is ENOMEM
 * (Linux OOM-kills in the writer's cgroup instead: memory.md). Data never passes through a server: a round trip
 * between two processes is two switches. Writes of up to PIPE_BUF (4096)
 * bytes are atomic; a reader waits while the pipe is empty and a writer
 * exists (end of file otherwise); a writer waits while it is full and a
 * reader exists; with no reader left it gets EPIPE and SIGPIPE.
 *
 * A FIFO (a named pipe, mkfifo) is the same pipe behind a node: a handle
 * the file system's server keeps for the file (fifo_create) and opens
 * ends of (fifo_open) that it gives to the opener. The pipe's buffer
 * lives while an end is open; with none left its data is gone, as
 * Linux's. An open for reading waits for a writer to have come (and the
 * other way round): the opener's C library does that wait (fifo_wait)
 * once it has the end, counting opens as Linux's r_counter/w_counter, so
 * a writer that came and went meanwhile still ends it. An end may carry
 * a channel to its file in the server (fifo_open's file): fstat,
 * fstatfs, fchmod, fchown and futimens of the end go there
 * (pipe_file_endpoint), so they reach the FIFO file's inode as Linux's
 * do, where a pipe's show pipefs.
 *
 * read/write/poll/getfl/setfl/fstat on a descriptor: the kernel serves a
 * pipe end itself, and turns the call into the file protocol's IPC call
 * (abi/fs.h) to the server behind any other descriptor. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/fs.h"
#include "abi/pcache.h"
#include "abi/poll.h"
#include "abi/signal.h"
#include "heap.h"
#include "ipc.h"
#include "kobj.h"
#include "kstring.h"
#include "memcg.h"
#include "pmm.h"
#include "poll.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

#define PIPE_SLOTS 16			/* pages: 64 KiB */
#define PIPE_SIZE (PAGE_SIZE * PIPE_SLOTS)
#define PIPE_BUF 4096			/* atomic writes up to this */
_Static_assert(PIPE_BUF <= PAGE_SIZE, "a chunk spans at most two slots");

struct kpipe {
	struct spinlock lock;
	/* the ring's pages: byte i of the ring is in slot i / PAGE_SIZE,
	 * which has a page while one of its bytes is unread (or, in an empty
	 * pipe, while the head is in it and the maker pays for it) */
	struct page *slot[PIPE_SLOTS];
	char *va[PIPE_SLOTS];		/* their addresses (the copies' hot path) */
	struct page *spare;		/* an emptied page kept for a next write, the maker's */
	struct cgroup *maker;		/* pays for the spare (a reference); NULL: a FIFO, no spare */
	size_t head, len;
	int readers, writers;
	int nodes;			/* a FIFO's node handle (1 while its file has one) */
	uint64_t rgen, wgen;		/* a FIFO's opens for reading, for writing so far */
	struct waitq rwait, wwait;
	struct waitq owait;		/* FIFO opens waiting for the other side */
	struct pollq pollq;		/* pollers of either end */
	/* its inode in Linux's pipefs, which fstat of an end without a file
	 * shows (pipe_fd_stat) and /proc/PID/fd names: a number of its own
	 * (kobj_next_ino, shared with sockets as Linux's get_next_ino), its
	 * creator's effective ids (an anonymous pipe is 0600, its owner's to
	 * open anew), when it was made */
	uint64_t ino;
	uint32_t uid, gid;
	uint64_t made;
};

#define PIPEFS_DEV 12			/* st_dev of every pipe (Linux: pipefs's anonymous device) */

struct pipe_end {
	struct kobj obj;
	struct kpipe *pipe;
	bool write;			/* writes (only: read too if rdwr) */
	bool rdwr;			/* a FIFO opened O_RDWR: both */
	bool node;			/* a FIFO's node: neither */
	bool fifo;			/* an end of a FIFO */
	uint64_t seen;			/* a FIFO end's other side's opens when it opened */
	int flags;			/* O_NONBLOCK */
	struct channel *file;		/* a FIFO end's file in its server (a reference), or NULL */
};

static bool end_reads(const struct pipe_end *e)
{
	return !e->node && (!e->write || e->rdwr);
}

static bool end_writes(const struct pipe_end *e)
{
	return !e->node && (e->write || e->rdwr);
}

/* Frees n pages taken out of a pipe (each uncharges its writer). */
static void pipe_pages_free(struct page **pages, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		mem_free_pages(pages[i], 0);
}

/* Takes every page out of p (its data and its spare) into out (room for
 * PIPE_SLOTS + 1): their number. p->lock held. */
static unsigned pipe_empty_locked(struct kpipe *p, struct page **out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < PIPE_SLOTS; i++) {
		if (p->slot[i])
			out[n++] = p->slot[i];
		p->slot[i] = NULL;
	}
	if (p->spare)
		out[n++] = p->spare;
	p->spare = NULL;
	p->head = p->len = 0;
	return n;
}

static void pipe_end_release(struct kobj *o)
{
	struct pipe_end *e = container_of(o, struct pipe_end, obj);
	struct kpipe *p = e->pipe;
	if (e->file)
		kobj_put(&e->file->obj); /* its server hears of the close */
	if (!p)
		return; /* fifo_open's end that never joined its pipe */
	spin_lock(&p->lock);
	if (e->node)
		p->nodes--;
	if (end_writes(e))
		p->writers--;
	if (end_reads(e))
		p->readers--;
	bool ends = p->readers || p->writers;
	bool last = !ends && p->nodes == 0;
	struct page *drop[PIPE_SLOTS + 1];
	unsigned ndrop = 0;
	if (!ends) /* no end open (a FIFO's node may stay): the data goes */
		ndrop = pipe_empty_locked(p, drop);
	/* The wake-ups happen under p->lock (sched_lock nests inside it):
	 * once it is let go, this end no longer touches p, which the other
	 * end's release may free at once. Woken outside the lock, a waker
	 * preempted after the unlock (an interrupt at waitq_wake_all's
	 * irq_restore, with the reader it woke due to run) let that reader
	 * see end of file, close the last end and free p, and the waker
	 * then walked a freed wait queue (a page fault in sched_wake_locked
	 * from exec's close-on-exec). */
	waitq_wake_all(&p->rwait, 0);
	waitq_wake_all(&p->wwait, 0);
	pollq_wake(&p->pollq); /* a hang-up (POLLHUP, POLLERR) */
	spin_unlock(&p->lock);
	pipe_pages_free(drop, ndrop);
	if (last) {
		if (p->maker)
			cg_put(p->maker);
		kfree(p);
	}
}

static void pipe_init(struct kpipe *p)
{
	const struct proc *self = current_thread()->proc;
	p->ino = kobj_next_ino();
	p->uid = self->cred.euid;
	p->gid = self->cred.egid;
	p->made = clock_file_ns();
	p->lock = (struct spinlock)SPINLOCK_INIT("pipe");
	waitq_init(&p->rwait);
	waitq_init(&p->wwait);
	waitq_init(&p->owait);
	pollq_init(&p->pollq);
}

uint64_t pipe_ino(struct kobj *o)
{
	return container_of(o, struct pipe_end, obj)->pipe->ino;
}

long sys_pipe(int *ufds)
{
	struct proc *self = current_thread()->proc;
	struct kpipe *p = kzalloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	pipe_init(p);
	p->maker = memcg_requester();
	struct pipe_end *r = kobj_alloc(sizeof(*r), KOBJ_PIPE, self->cgroup, pipe_end_release);
	struct pipe_end *w = r ? kobj_alloc(sizeof(*w), KOBJ_PIPE, self->cgroup, pipe_end_release) : NULL;
	if (!w) {
		if (r) {
			kobj_put(&r->obj); /* frees the pipe with it */
		} else {
			cg_put(p->maker);
			kfree(p);
		}
		return -ENOMEM;
	}
	r->pipe = w->pipe = p;
	w->write = true;
	p->readers = p->writers = 1;
	int fds[2] = { handle_install(self, &r->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ),
		       handle_install(self, &w->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_WRITE) };
	kobj_put(&r->obj);
	kobj_put(&w->obj);
	if (fds[0] < 0 || fds[1] < 0 || copy_to_user(ufds, fds, sizeof(fds))) {
		if (fds[0] >= 0)
			handle_close(self, fds[0]);
		if (fds[1] >= 0)
			handle_close(self, fds[1]);
		return fds[0] < 0 || fds[1] < 0 ? -EMFILE : -EFAULT;
	}
	return 0;
}

/* The byte at ring position pos (its slot has a page). */
static char *pipe_byte(struct kpipe *p, size_t pos)
{
	return p->va[pos / PAGE_SIZE] + pos % PAGE_SIZE;
}

/* memcpy, but a few bytes (a pipe's usual message) without the call. */
static inline void pipe_memcpy(char *dst, const char *src, size_t n)
{
	if (n > 16) {
		memcpy(dst, src, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
}

/* Copies n unread bytes from the head (p->lock held). A run at a time:
 * up to the end of a page. */
static void pipe_copy_out(struct kpipe *p, char *dst, size_t n)
{
	for (size_t pos = p->head, done = 0; done < n;) {
		size_t run = MIN(n - done, PAGE_SIZE - pos % PAGE_SIZE);
		pipe_memcpy(dst + done, pipe_byte(p, pos), run);
		done += run;
		pos = (pos + run) % PIPE_SIZE;
	}
}

/* Copies n bytes in after the unread ones (their slots have pages). */
static void pipe_copy_in(struct kpipe *p, const char *src, size_t n)
{
	for (size_t pos = (p->head + p->len) % PIPE_SIZE, done = 0; done < n;) {
		size_t run = MIN(n - done, PAGE_SIZE - pos % PAGE_SIZE);
		pipe_memcpy(pipe_byte(p, pos), src + done, run);
		done += run;
		pos = (pos + run) % PIPE_SIZE;
	}
}

/* n bytes at the head were read: the slots left with no unread byte
 * give their pages up, into drop (room for 2, as n <= PIPE_BUF), for
 * pipe_page_retire once p->lock is let go, but for one already charged to
 * the maker, which becomes the spare at once. An empty pipe keeps the
 * page its head is in if it is the maker's (a pipe used back and forth
 * then costs no page work at all); else it starts again at 0, so the
 * next write fills one page, not the ends of two. p->lock held. */
static unsigned pipe_consume_locked(struct kpipe *p, size_t n, struct page **drop)
{
	unsigned first = (unsigned)(p->head / PAGE_SIZE), ndrop = 0;
	p->head = (p->head + n) % PIPE_SIZE;
	p->len -= n;
	unsigned keep = (unsigned)(p->head / PAGE_SIZE); /* holds the next unread byte */
	if (p->len == 0) {
		struct page *pg = p->slot[keep];
		if (!pg || !p->maker || pg->charge != p->maker) {
			keep = PIPE_SLOTS; /* none */
			p->head = 0;
		}
	}
	/* n <= PAGE_SIZE: the bytes read span first and at most the slot
	 * after it */
	for (unsigned i = 0, s = first; i < 2 && s != keep; i++, s = (s + 1) % PIPE_SLOTS) {
		struct page *pg = p->slot[s];
		p->slot[s] = NULL;
		if (pg && !p->spare && p->maker && pg->charge == p->maker)
			p->spare = pg;
		else if (pg)
			drop[ndrop++] = pg;
	}
	return ndrop;
}

/* Gives every slot the chunk of n bytes after the unread ones will use
 * a page, if got[] (*ngot pages, taken from the end) and the spare are
 * enough for all of them: true. Else nothing changes and *want is how
 * many pages got[] must hold for them. p->lock held. */
static bool pipe_slots_ready_locked(struct kpipe *p, size_t n, struct page **got, unsigned *ngot, unsigned *want)
{
	size_t tail = (p->head + p->len) % PIPE_SIZE;
	unsigned s0 = (unsigned)(tail / PAGE_SIZE), s1 = (unsigned)(((tail + n - 1) % PIPE_SIZE) / PAGE_SIZE);
	unsigned empty = !p->slot[s0] + (s1 != s0 && !p->slot[s1]);
	if (!empty)
		return true;
	unsigned from_spare = p->spare != NULL;
	*want = empty - from_spare;
	if (*ngot < *want)
		return false;
	unsigned todo[2] = { s0, s1 };
	for (unsigned i = 0; i < (s1 != s0 ? 2u : 1u); i++) {
		unsigned s = todo[i];
		if (p->slot[s])
			continue;
		if (from_spare) {
			p->slot[s] = p->spare;
			p->spare = NULL;
			from_spare = 0;
		} else {
			p->slot[s] = got[--*ngot];
		}
		p->va[s] = page_to_virt(p->slot[s]);
	}
	return true;
}

/* Moves pg's charge (a kernel page) to cg: 0, or -ENOMEM if cg cannot
 * pay (pg unchanged). */
static int pipe_page_recharge(struct page *pg, struct cgroup *cg)
{
	struct cgroup *old = pg->charge;
	if (old == cg)
		return 0;
	if (mem_charge_no_oom(cg, 1, MEMCG_STAT_KERNEL_OTHER)) /* only where it can pay: no OOM kill */
		return -ENOMEM;
	pg->charge = cg;
	if (old)
		mem_uncharge(old, 1, MEMCG_STAT_KERNEL_OTHER);
	return 0;
}

/* A page a read emptied: p's spare if it has none and its maker can pay
 * for it, freed otherwise. p->lock not held. */
static void pipe_page_retire(struct kpipe *p, struct page *pg)
{
	if (p->maker && !__atomic_load_n(&p->spare, __ATOMIC_RELAXED) && !pipe_page_recharge(pg, p->maker)) {
		spin_lock(&p->lock);
		if (!p->spare) {
			p->spare = pg;
			pg = NULL;
		}
		spin_unlock(&p->lock);
	}
	if (pg)
		mem_free_pages(pg, 0);
}

/* Transfers of up to PIPE_SMALL bytes bounce through the kernel stack:
 * a page from the allocator per call cost more than the copy, and how
 * much depended on the buddy allocator's state (pipe_round_trip moved by
 * 150 instructions with unrelated changes to the kernel). */
#define PIPE_SMALL 256

/* The bounce buffer for a transfer of len bytes: small (on the caller's
 * stack) or a page from the heap; NULL without memory. */
static char *pipe_tmp(char *small, size_t len)
{
	return len <= PIPE_SMALL ? small : kmalloc(PIPE_BUF);
}

static void pipe_tmp_free(char *tmp, const char *small)
{
	if (tmp != small)
		kfree(tmp);
}

static long pipe_read(struct pipe_end *e, char *ubuf, size_t len)
{
	struct kpipe *p = e->pipe;
	char small[PIPE_SMALL];
	char *tmp = pipe_tmp(small, len);
	if (!tmp)
		return -ENOMEM;
	spin_lock(&p->lock);
	while (p->len == 0) {
		long r = p->writers == 0 ? 0 : (e->flags & O_NONBLOCK) ? -EAGAIN : 1;
		if (r <= 0) {
			spin_unlock(&p->lock);
			pipe_tmp_free(tmp, small);
			return r;
		}
		r = waitq_wait(&p->rwait, &p->lock, 0);
		if (r == -EINTR) {
			pipe_tmp_free(tmp, small);
			return -EINTR;
		}
		spin_lock(&p->lock);
	}
	/* As much as is there, up to len (Linux's pipe_read), a bounce
	 * buffer's worth at a time: the copy to the caller may fault, so it
	 * is made without the lock. */
	size_t done = 0;
	long r;
	for (;;) {
		size_t n = MIN(MIN(len - done, p->len), (size_t)PIPE_BUF);
		bool was_full = p->len == PIPE_SIZE;
		pipe_copy_out(p, tmp, n);
		struct page *drop[2];
		unsigned ndrop = pipe_consume_locked(p, n, drop);
		bool more = p->len > 0;
		spin_unlock(&p->lock);
		for (unsigned i = 0; i < ndrop; i++)
			pipe_page_retire(p, drop[i]);
		if (waitq_has_waiters(&p->wwait)) /* writers sleep under p->lock */
			waitq_wake_all(&p->wwait, 0);
		if (was_full) /* POLLOUT now, as Linux's pipe_read wakes writers */
			pollq_wake_ev(&p->pollq, POLLOUT | POLLWRNORM);
		if (copy_to_user(ubuf + done, tmp, n)) {
			r = done ? (long)done : -EFAULT;
			break;
		}
		done += n;
		r = (long)done;
		if (done == len || !more)
			break;
		spin_lock(&p->lock);
		if (p->len == 0) { /* another reader took it */
			spin_unlock(&p->lock);
			break;
		}
	}
	pipe_tmp_free(tmp, small);
	return r;
}

/* Adds pages to got[] (*ngot now) until it has want, each charged to the
 * writer's cgroup (memory.stat "kernel"). 0, or -ENOMEM (what was got
 * stays in got[]). */
static int pipe_pages_get(struct page **got, unsigned *ngot, unsigned want)
{
	struct cgroup *cg = memcg_requester();
	int err = 0;
	while (*ngot < want && !err) {
		struct page *pg = mem_alloc_pages(cg, 0, MEMCG_STAT_KERNEL_OTHER);
		if (pg)
			got[(*ngot)++] = pg;
		else
			err = -ENOMEM;
	}
	cg_put(cg);
	return err;
}

static long pipe_write(struct pipe_end *e, const char *ubuf, size_t len)
{
	struct kpipe *p = e->pipe;
	char small[PIPE_SMALL];
	char *tmp = pipe_tmp(small, len);
	size_t done = 0;
	struct page *got[2];
	unsigned ngot = 0, want;
	if (!tmp)
		return -ENOMEM;
	while (done < len) {
		size_t n = MIN(len - done, (size_t)PIPE_BUF);
		if (copy_from_user(tmp, ubuf + done, n)) {
			pipe_tmp_free(tmp, small);
			return done ? (long)done : -EFAULT;
		}
		spin_lock(&p->lock);
		for (;;) {
			if (p->readers == 0) {
				spin_unlock(&p->lock);
				pipe_pages_free(got, ngot);
				pipe_tmp_free(tmp, small);
				signal_send(current_thread()->proc, SIGPIPE, current_thread()->proc); /* SI_USER, as Linux */
				return done ? (long)done : -EPIPE;
			}
			if (PIPE_SIZE - p->len >= n && pipe_slots_ready_locked(p, n, got, &ngot, &want))
				break; /* room for the whole chunk: it goes in at once */
			if (PIPE_SIZE - p->len >= n) {
				/* pages for it, charged to the writer, made with the
				 * lock let go (the charge may reclaim); then all is
				 * looked at again */
				spin_unlock(&p->lock);
				if (pipe_pages_get(got, &ngot, want)) {
					pipe_pages_free(got, ngot);
					pipe_tmp_free(tmp, small);
					return done ? (long)done : -ENOMEM;
				}
				spin_lock(&p->lock);
				continue;
			}
			if (e->flags & O_NONBLOCK) {
				spin_unlock(&p->lock);
				pipe_pages_free(got, ngot);
				pipe_tmp_free(tmp, small);
				return done ? (long)done : -EAGAIN;
			}
			if (waitq_wait(&p->wwait, &p->lock, 0) == -EINTR) {
				pipe_pages_free(got, ngot);
				pipe_tmp_free(tmp, small);
				return done ? (long)done : -EINTR;
			}
			spin_lock(&p->lock);
		}
		pipe_copy_in(p, tmp, n);
		p->len += n;
		spin_unlock(&p->lock);
		if (waitq_has_waiters(&p->rwait)) /* readers sleep under p->lock */
			waitq_wake_all(&p->rwait, 0);
		pollq_wake_ev(&p->pollq, POLLIN | POLLRDNORM); /* every write, as Linux's once polled */
		done += n;
	}
	pipe_pages_free(got, ngot);
	pipe_tmp_free(tmp, small);
	return (long)done;
}

static short pipe_poll(struct pipe_end *e, short events)
{
	struct kpipe *p = e->pipe;
	short r = 0;
	spin_lock(&p->lock);
	if (e->node) {
		spin_unlock(&p->lock);
		return POLLNVAL;
	}
	if (end_reads(e)) {
		if (p->len)
			r |= events & (POLLIN | POLLRDNORM);
		/* Linux: a FIFO reader that has seen no writer yet is no hang-up */
		if (p->writers == 0 && (!e->fifo || p->wgen != e->seen))
			r |= POLLHUP;
	}
	if (end_writes(e)) {
		/* Linux: room means POLLOUT even with no reader left; that
		 * adds POLLERR (a write would fail with EPIPE). */
		if (p->len < PIPE_SIZE)
			r |= events & (POLLOUT | POLLWRNORM);
		if (p->readers == 0)
			r |= POLLERR;
	}
	spin_unlock(&p->lock);
	return r;
}

/* The descriptor operations on a pipe end (kernel/ipc/fd.c calls them). */
long pipe_fd_read(struct kobj *o, void *buf, size_t len)
{
	struct pipe_end *e = container_of(o, struct pipe_end, obj);
	return !end_reads(e) ? -EBADF : !user_range_ok((uint64_t)buf, len) ? -EFAULT :
	       len == 0 ? 0 : pipe_read(e, buf, len);
}

long pipe_fd_write(struct kobj *o, const void *buf, size_t len)
{
	struct pipe_end *e = container_of(o, struct pipe_end, obj);
	return !end_writes(e) ? -EBADF : !user_range_ok((uint64_t)buf, len) ? -EFAULT :
	       len == 0 ? 0 : pipe_write(e, buf, len);
}

long pipe_fd_poll(struct kobj *o, int events)
{
	return pipe_poll(container_of(o, struct pipe_end, obj), (short)events);
}

struct pollq *pipe_pollq(struct kobj *o)
{
	return &container_of(o, struct pipe_end, obj)->pipe->pollq;
}

/* Status flags: a pipe end keeps O_NONBLOCK. */
long pipe_fd_flags(struct kobj *o, int set)
{
	struct pipe_end *e = container_of(o, struct pipe_end, obj);
	if (set >= 0)
		e->flags = set & O_NONBLOCK;
	return e->flags | (e->rdwr ? O_RDWR : e->write ? O_WRONLY : O_RDONLY);
}

long sys_fifo_create(void)
{
	struct proc *self = current_thread()->proc;
	struct kpipe *p = kzalloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	pipe_init(p);
	struct pipe_end *n = kobj_alloc(sizeof(*n), KOBJ_PIPE, self->cgroup, pipe_end_release);
	if (!n) {
		kfree(p);
		return -ENOMEM;
	}
	n->pipe = p;
	n->node = true;
	p->nodes = 1;
	int h = handle_install(self, &n->obj, HANDLE_RIGHTS_BASIC);
	kobj_put(&n->obj);
	return h < 0 ? -EMFILE : h;
}

/* The pipe end behind handle h of the caller (a reference), or NULL with
 * *err: -EBADF, -EINVAL (another kind of handle). */
static struct pipe_end *pipe_end_get(int h, long *err)
{
	struct kobj *o = handle_get(current_thread()->proc, h, KOBJ_ANY);
	*err = o ? -EINVAL : -EBADF;
	if (o && o->type == KOBJ_PIPE)
		return container_of(o, struct pipe_end, obj);
	if (o)
		kobj_put(o);
	return NULL;
}

long sys_fifo_open(int h, int flags, int file)
{
	struct proc *self = current_thread()->proc;
	long err;
	int acc = flags & O_ACCMODE;
	if ((flags & ~(O_ACCMODE | O_NONBLOCK)) || acc == O_ACCMODE)
		return -EINVAL;
	struct kobj *fo = NULL; /* the file's channel: its callers reach the server through the end */
	if (file >= 0 && !(fo = handle_get_rights(self, file, KOBJ_KIND(KOBJ_CHANNEL), HANDLE_RIGHT_CALL, &err)))
		return err;
	struct pipe_end *n = pipe_end_get(h, &err);
	if (!n) {
		if (fo)
			kobj_put(fo);
		return err;
	}
	struct kpipe *p = n->pipe;
	/* a node, or any end: a new end of its pipe (/proc/PID/fd/N), which
	 * Linux opens as an inode of mode 0600 owned by the pipe's maker */
	if (!n->node && !n->fifo && self->cred.euid != 0 && self->cred.euid != p->uid) {
		kobj_put(&n->obj);
		if (fo)
			kobj_put(fo);
		return -EACCES;
	}
	/* no buffer to make: its pages come with the writes */
	struct pipe_end *e = kobj_alloc(sizeof(*e), KOBJ_PIPE, self->cgroup, pipe_end_release);
	spin_lock(&p->lock);
	err = !e ? -ENOMEM : 0;
	if (!err && acc == O_WRONLY && (flags & O_NONBLOCK) && p->readers == 0)
		err = -ENXIO; /* no reader: Linux's answer to a non-blocking writer */
	if (!err) {
		e->pipe = p;
		e->fifo = n->node || n->fifo; /* an anonymous pipe's new end stays one */
		e->write = acc != O_RDONLY;
		e->rdwr = acc == O_RDWR;
		e->flags = flags & O_NONBLOCK;
		if (end_reads(e)) {
			p->readers++;
			p->rgen++;
		}
		if (end_writes(e)) {
			p->writers++;
			p->wgen++;
		}
		/* Linux checks for the other side within the open; here the
		 * wait is a second call (fifo_wait), and a writer that was open
		 * then may have written and closed before it: such an end has
		 * seen one already (and a reader then hangs up when it goes). */
		e->seen = acc == O_RDONLY ? p->wgen - (p->writers > 0) : p->rgen - (p->readers > 0);
		waitq_wake_all(&p->owait, 0); /* openers waiting for this side */
		waitq_wake_all(&p->rwait, 0);
		pollq_wake(&p->pollq);
	}
	spin_unlock(&p->lock);
	kobj_put(&n->obj);
	if (err) {
		if (e)
			kobj_put(&e->obj); /* no pipe yet: its release does nothing */
		if (fo)
			kobj_put(fo);
		return err;
	}
	e->file = fo ? container_of(fo, struct channel, obj) : NULL; /* the end's reference now */
	uint32_t rights = HANDLE_RIGHTS_BASIC | (end_reads(e) ? HANDLE_RIGHT_READ : 0) |
			  (end_writes(e) ? HANDLE_RIGHT_WRITE : 0);
	int r = handle_install(self, &e->obj, rights);
	kobj_put(&e->obj);
	return r < 0 ? -EMFILE : r;
}

void pipe_fd_stat(struct kobj *o, struct pcache_attr *a)
{
	const struct kpipe *p = container_of(o, struct pipe_end, obj)->pipe;
	*a = (struct pcache_attr){ .dev = PIPEFS_DEV, .ino = p->ino, .mode = 010600, .nlink = 1, .uid = p->uid,
				   .gid = p->gid, .atime = p->made, .mtime = p->made, .ctime = p->made };
}

struct endpoint *pipe_file_endpoint(int h, uint64_t label, uint64_t *badge)
{
	/* what Linux does to a FIFO's inode through an open end; never its
	 * data, which is the pipe's */
	if (label != FILE_FSTAT && label != FILE_STATFS && label != FILE_FCHMOD && label != FILE_FCHOWN &&
	    label != FILE_UTIMES)
		return NULL;
	long err;
	struct pipe_end *e = pipe_end_get(h, &err);
	if (!e)
		return NULL;
	struct endpoint *ep = NULL;
	if (e->file) { /* set before the end had a handle, never changed */
		ep = e->file->ep;
		kobj_get(&ep->obj);
		*badge = e->file->badge;
	}
	kobj_put(&e->obj);
	return ep;
}

long sys_fifo_wait(int fd)
{
	long err;
	struct pipe_end *e = pipe_end_get(fd, &err);
	if (!e)
		return err;
	struct kpipe *p = e->pipe;
	long r = 0;
	if (!e->fifo || e->rdwr) {
		r = e->fifo ? 0 : -EINVAL; /* read before the reference goes */
		kobj_put(&e->obj);
		return r;
	}
	spin_lock(&p->lock);
	for (;;) {
		bool other = e->write ? p->readers > 0 || p->rgen != e->seen :
					p->writers > 0 || p->wgen != e->seen;
		if (other)
			break;
		r = waitq_wait_signals(&p->owait, &p->lock, 0);
		if (r == -EINTR)
			break;
		spin_lock(&p->lock);
	}
	if (r != -EINTR)
		spin_unlock(&p->lock);
	kobj_put(&e->obj);
	return r == -EINTR ? -EINTR : 0;
}
