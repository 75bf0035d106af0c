/* poll and select: every descriptor is asked what is ready now (the
 * kernel for pipes and cgroup files, the server for the rest); until
 * something is, we look again every millisecond. Servers do not yet wake
 * pollers, so this is a loop. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include "arbor_sys.h"
#include "ufault.h"

int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	if (n > (nfds_t)65536) /* Linux: more than RLIMIT_NOFILE allows */
		return (int)__sys_ret(-EINVAL);
	if (__arbor_uwrite(fds, n * sizeof(*fds))) /* read, and revents written */
		return (int)__sys_ret(-EFAULT);
	uint64_t end = timeout_ms < 0 ? UINT64_MAX : (uint64_t)sys_clock_ns() + (uint64_t)timeout_ms * 1000000u;
	for (;;) {
		int ready = 0;
		for (nfds_t i = 0; i < n; i++) {
			fds[i].revents = 0;
			if (fds[i].fd < 0)
				continue;
			long r = sys_fd_poll(fds[i].fd, fds[i].events);
			fds[i].revents = r < 0 ? (r == -EBADF ? POLLNVAL : POLLERR) : (short)r;
			ready += fds[i].revents != 0;
		}
		if (ready || (uint64_t)sys_clock_ns() >= end)
			return ready;
		if (sys_sleep_ns(1000000) == -EINTR)
			return (int)__sys_ret(-EINTR);
	}
}

/* select on top of the same question: Linux's mapping of poll bits to the
 * three sets (readable: IN, HUP, ERR; writable: OUT, ERR; exceptional:
 * PRI). A descriptor in no set is not asked. */
static int select_scan(int n, fd_set *rd, fd_set *wr, fd_set *ex, fd_set *out)
{
	int ready = 0;
	for (int fd = 0; fd < n; fd++) {
		bool r = rd && FD_ISSET(fd, rd), w = wr && FD_ISSET(fd, wr), x = ex && FD_ISSET(fd, ex);
		if (!r && !w && !x)
			continue;
		short ask = (short)((r ? POLLIN : 0) | (w ? POLLOUT : 0) | (x ? POLLPRI : 0));
		long got = sys_fd_poll(fd, ask);
		if (got < 0)
			return (int)got;	/* EBADF: not an open descriptor */
		if (r && (got & (POLLIN | POLLRDNORM | POLLHUP | POLLERR)))
			FD_SET(fd, &out[0]), ready++;
		if (w && (got & (POLLOUT | POLLWRNORM | POLLERR)))
			FD_SET(fd, &out[1]), ready++;
		if (x && (got & POLLPRI))
			FD_SET(fd, &out[2]), ready++;
	}
	return ready;
}

static int select_ns(int n, fd_set *rd, fd_set *wr, fd_set *ex, int64_t timeout_ns, int64_t *left_ns)
{
	if (n < 0 || timeout_ns < -1)
		return (int)__sys_ret(-EINVAL);
	if (n > FD_SETSIZE)
		n = FD_SETSIZE;	/* Linux: past the open files, as if n were smaller */
	/* Linux copies the sets in and out: the longs that hold n bits */
	size_t bytes = ((size_t)n + 63) / 64 * 8;
	if ((rd && __arbor_uwrite(rd, bytes)) || (wr && __arbor_uwrite(wr, bytes)) ||
	    (ex && __arbor_uwrite(ex, bytes)))
		return (int)__sys_ret(-EFAULT);
	uint64_t now = (uint64_t)sys_clock_ns();
	uint64_t end = timeout_ns < 0 ? UINT64_MAX : now + (uint64_t)timeout_ns;
	fd_set out[3];
	for (;;) {
		FD_ZERO(&out[0]);
		FD_ZERO(&out[1]);
		FD_ZERO(&out[2]);
		int ready = select_scan(n, rd, wr, ex, out);
		if (ready < 0)
			return (int)__sys_ret(ready);
		now = (uint64_t)sys_clock_ns();
		if (ready || now >= end) {
			if (rd)
				*rd = out[0];
			if (wr)
				*wr = out[1];
			if (ex)
				*ex = out[2];
			if (left_ns)
				*left_ns = now >= end ? 0 : (int64_t)(end - now);
			return ready;
		}
		if (sys_sleep_ns(1000000) == -EINTR)
			return (int)__sys_ret(-EINTR);
	}
}

/* Linux writes the time left back into *tv; POSIX allows it. */
int select(int n, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv)
{
	if (tv && (tv->tv_sec < 0 || tv->tv_usec < 0 || tv->tv_usec >= 1000000))
		return (int)__sys_ret(-EINVAL);
	int64_t left, ns = tv ? (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000 : -1;
	int r = select_ns(n, rd, wr, ex, ns, &left);
	if (r >= 0 && tv) {
		tv->tv_sec = left / 1000000000;
		tv->tv_usec = (left % 1000000000) / 1000;
	}
	return r;
}

/* The mask is set for the wait and put back after (not atomically: a
 * signal unblocked by it arriving just before the wait runs its handler
 * then, and the wait goes on to its timeout). */
int pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *ts, const sigset_t *mask)
{
	if (ts && (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000))
		return (int)__sys_ret(-EINVAL);
	sigset_t old;
	if (mask && sigprocmask(SIG_SETMASK, mask, &old))
		return -1;
	int r = select_ns(n, rd, wr, ex, ts ? (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec : -1, NULL);
	int e = errno;
	if (mask)
		sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}
