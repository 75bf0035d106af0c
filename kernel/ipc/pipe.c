/* Pipes in the kernel, and the descriptor calls that reach them.
 *
 * A pipe is a 64 KiB ring charged to its creator's cgroup, with two ends:
 * kernel objects held by handles, so dup, fork, close-on-exec and exit
 * give POSIX's semantics. Data never passes through a server: a round trip
 * between two processes is two switches. Writes of up to PIPE_BUF (4096)
 * bytes are atomic; a reader waits while the pipe is empty and a writer
 * exists (end of file otherwise); a writer waits while it is full and a
 * reader exists; with no reader left it gets EPIPE and SIGPIPE.
 *
 * read/write/poll/getfl/setfl/fstat on a descriptor: the kernel serves a
 * pipe end itself, and turns the call into the file protocol's IPC call
 * (abi/fs.h) to the server behind any other descriptor. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/fs.h"
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

#define PIPE_ORDER 4			/* 16 pages = 64 KiB */
#define PIPE_SIZE (PAGE_SIZE << PIPE_ORDER)
#define PIPE_BUF 4096			/* atomic writes up to this */

struct kpipe {
	struct spinlock lock;
	char *buf;
	struct page *pages;
	size_t head, len;
	int readers, writers;
	struct waitq rwait, wwait;
	struct pollq pollq;		/* pollers of either end */
};

struct pipe_end {
	struct kobj obj;
	struct kpipe *pipe;
	bool write;
	int flags;			/* O_NONBLOCK */
};

static void pipe_end_release(struct kobj *o)
{
	struct pipe_end *e = container_of(o, struct pipe_end, obj);
	struct kpipe *p = e->pipe;
	spin_lock(&p->lock);
	if (e->write)
		p->writers--;
	else
		p->readers--;
	bool last = p->readers == 0 && p->writers == 0;
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
	if (last) {
		mem_free_pages(p->pages, PIPE_ORDER);
		kfree(p);
	}
}

long sys_pipe(int *ufds)
{
	struct proc *self = current_thread()->proc;
	struct kpipe *p = kzalloc(sizeof(*p));
	struct page *pages = p ? mem_alloc_pages(self->cgroup, PIPE_ORDER, MEMCG_STAT_KERNEL_OTHER) : NULL;
	if (!pages) {
		kfree(p);
		return -ENOMEM;
	}
	p->pages = pages;
	p->buf = page_to_virt(pages);
	p->lock = (struct spinlock)SPINLOCK_INIT("pipe");
	waitq_init(&p->rwait);
	waitq_init(&p->wwait);
	pollq_init(&p->pollq);
	struct pipe_end *r = kobj_alloc(sizeof(*r), KOBJ_PIPE, self->cgroup, pipe_end_release);
	struct pipe_end *w = r ? kobj_alloc(sizeof(*w), KOBJ_PIPE, self->cgroup, pipe_end_release) : NULL;
	if (!w) {
		if (r)
			kobj_put(&r->obj); /* frees the pipe with it */
		else {
			mem_free_pages(pages, PIPE_ORDER);
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
	size_t n = MIN(MIN(len, p->len), (size_t)PIPE_BUF);
	bool was_full = p->len == PIPE_SIZE;
	for (size_t i = 0; i < n; i++)
		tmp[i] = p->buf[(p->head + i) % PIPE_SIZE];
	p->head = (p->head + n) % PIPE_SIZE;
	p->len -= n;
	spin_unlock(&p->lock);
	if (waitq_has_waiters(&p->wwait)) /* writers sleep under p->lock */
		waitq_wake_all(&p->wwait, 0);
	if (was_full) /* POLLOUT now, as Linux's pipe_read wakes writers */
		pollq_wake_ev(&p->pollq, POLLOUT | POLLWRNORM);
	long r = copy_to_user(ubuf, tmp, n) ? -EFAULT : (long)n;
	pipe_tmp_free(tmp, small);
	return r;
}

static long pipe_write(struct pipe_end *e, const char *ubuf, size_t len)
{
	struct kpipe *p = e->pipe;
	char small[PIPE_SMALL];
	char *tmp = pipe_tmp(small, len);
	size_t done = 0;
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
				pipe_tmp_free(tmp, small);
				signal_send(current_thread()->proc, SIGPIPE, current_thread()->proc); /* SI_USER, as Linux */
				return done ? (long)done : -EPIPE;
			}
			if (PIPE_SIZE - p->len >= n)
				break; /* room for the whole chunk: it goes in at once */
			if (e->flags & O_NONBLOCK) {
				spin_unlock(&p->lock);
				pipe_tmp_free(tmp, small);
				return done ? (long)done : -EAGAIN;
			}
			if (waitq_wait(&p->wwait, &p->lock, 0) == -EINTR) {
				pipe_tmp_free(tmp, small);
				return done ? (long)done : -EINTR;
			}
			spin_lock(&p->lock);
		}
		for (size_t i = 0; i < n; i++)
			p->buf[(p->head + p->len + i) % PIPE_SIZE] = tmp[i];
		p->len += n;
		spin_unlock(&p->lock);
		if (waitq_has_waiters(&p->rwait)) /* readers sleep under p->lock */
			waitq_wake_all(&p->rwait, 0);
		pollq_wake_ev(&p->pollq, POLLIN | POLLRDNORM); /* every write, as Linux's once polled */
		done += n;
	}
	pipe_tmp_free(tmp, small);
	return (long)done;
}

static short pipe_poll(struct pipe_end *e, short events)
{
	struct kpipe *p = e->pipe;
	short r = 0;
	spin_lock(&p->lock);
	if (!e->write) {
		if (p->len)
			r |= events & (POLLIN | POLLRDNORM);
		if (p->writers == 0)
			r |= POLLHUP;
	} else {
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
	return e->write ? -EBADF : !user_range_ok((uint64_t)buf, len) ? -EFAULT :
	       len == 0 ? 0 : pipe_read(e, buf, len);
}

long pipe_fd_write(struct kobj *o, const void *buf, size_t len)
{
	struct pipe_end *e = container_of(o, struct pipe_end, obj);
	return !e->write ? -EBADF : !user_range_ok((uint64_t)buf, len) ? -EFAULT :
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
	return e->flags | (e->write ? 1 : 0); /* O_WRONLY or O_RDONLY */
}
