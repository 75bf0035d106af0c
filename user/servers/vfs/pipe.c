/* Pipes: a 64 KiB ring between a read end and a write end, each an open
 * file of its own. Readers wait while it is empty and writers exist;
 * writers wait while it is full and readers exist; a write with no reader
 * left fails with EPIPE and the writer gets SIGPIPE. A waiting worker
 * releases the server's lock and sleeps on the pipe's notification (with a
 * short timeout, so a wake-up meant for another waiter is never lost). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "arbor_sys.h"
#include "vfs.h"

#define PIPE_SIZE 65536
#define PIPE_WAIT_NS 20000000ull

static void pipe_wait(struct pipe *p)
{
	int n = p->notif;
	vfs_unlock();
	sys_notif_wait(n, PIPE_WAIT_NS);
	vfs_lock();
}

static void pipe_wake(struct pipe *p)
{
	sys_notif_signal(p->notif, 1);
}

long pipe_create(long *rh, long *wh)
{
	struct pipe *p = calloc(1, sizeof(*p));
	char *buf = malloc(PIPE_SIZE);
	long n = sys_notif_create();
	if (!p || !buf || n < 0) {
		free(p);
		free(buf);
		if (n >= 0)
			sys_handle_close((int)n);
		return -ENOMEM;
	}
	p->buf = buf;
	p->notif = (int)sys_handle_dup((int)n, 200, HANDLE_CLOEXEC);
	sys_handle_close((int)n);
	struct ofile *r = ofile_new(OF_PIPE_R, O_RDONLY), *w = ofile_new(OF_PIPE_W, O_WRONLY);
	if (!r || !w)
		return -ENOMEM;
	r->pipe = w->pipe = p;
	p->readers = p->writers = 1;
	*rh = ofile_give(r);
	*wh = ofile_give(w);
	return *rh < 0 ? *rh : *wh < 0 ? *wh : 0;
}

long pipe_read(struct ofile *of, uint64_t len, const struct ipc_info *info)
{
	struct pipe *p = of->pipe;
	(void)info;
	while (p->len == 0) {
		if (p->writers == 0)
			return 0;	/* end of file */
		if (of->flags & O_NONBLOCK)
			return -EAGAIN;
		pipe_wait(p);
	}
	uint64_t n = len < p->len ? len : p->len;
	uint64_t first = PIPE_SIZE - p->head < n ? PIPE_SIZE - p->head : n;
	long w = sys_ipc_write(0, p->buf + p->head, first);
	if (w == (long)first && n > first)
		w += sys_ipc_write(first, p->buf, n - first);
	if (w < 0)
		return w;
	p->head = (p->head + (uint64_t)w) % PIPE_SIZE;
	p->len -= (uint64_t)w;
	pipe_wake(p);
	return w;
}

long pipe_write(struct ofile *of, uint64_t len, const struct ipc_info *info)
{
	struct pipe *p = of->pipe;
	uint64_t done = 0;
	while (done < len) {
		if (p->readers == 0) {
			sys_kill(info->pid, SIGPIPE);
			return done ? (long)done : -EPIPE;
		}
		if (p->len == PIPE_SIZE) {
			if (of->flags & O_NONBLOCK)
				return done ? (long)done : -EAGAIN;
			pipe_wait(p);
			continue;
		}
		uint64_t tail = (p->head + p->len) % PIPE_SIZE;
		uint64_t room = PIPE_SIZE - p->len;
		uint64_t n = len - done < room ? len - done : room;
		if (n > PIPE_SIZE - tail)
			n = PIPE_SIZE - tail;
		long r = sys_ipc_read(done, p->buf + tail, n);
		if (r <= 0)
			return done ? (long)done : r;
		p->len += (uint64_t)r;
		done += (uint64_t)r;
		pipe_wake(p);
	}
	return (long)done;
}

void pipe_end_closed(struct ofile *of)
{
	struct pipe *p = of->pipe;
	if (of->kind == OF_PIPE_R)
		p->readers--;
	else
		p->writers--;
	pipe_wake(p);
	if (p->readers == 0 && p->writers == 0) {
		sys_handle_close(p->notif);
		free(p->buf);
		free(p);
	}
}

short pipe_poll(const struct ofile *of, short events)
{
	const struct pipe *p = of->pipe;
	short r = 0;
	if (of->kind == OF_PIPE_R) {
		if (p->len)
			r |= events & (POLLIN | POLLRDNORM);
		if (p->writers == 0)
			r |= POLLHUP;
	} else {
		if (p->readers == 0)
			r |= POLLERR;
		else if (p->len < PIPE_SIZE)
			r |= events & (POLLOUT | POLLWRNORM);
	}
	return r;
}
