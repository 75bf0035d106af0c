/* poll, ppoll, select and pselect: all one system call (poll), which
 * sleeps in the kernel until a descriptor has an event, a signal or the
 * timeout (docs/ipc.md, "Waiting for descriptors"); select and pselect
 * turn their fd_sets into a pollfd array and back, as Linux's kernel
 * does inside. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include "arbor_sys.h"
#include "pthread_impl.h"
#include "ufault.h"

#define POLL_MAX_FDS 256	/* the kernel's handle table (RLIMIT_NOFILE) */

#define SIGCANCEL 32	/* pthread_cancel's signal: never blocked (pthread_cancel.c) */

/* The kernel's poll as a cancellation point: the mask (ppoll, pselect)
 * never blocks the cancel's signal, as sigprocmask's never does. */
static long poll_cp(struct pollfd *fds, uint32_t n, int64_t ns, const sigset_t *mask)
{
	uint64_t m;
	if (mask) {
		long e = __arbor_ucopy(&m, mask, sizeof(m)); /* EFAULT, not SIGSEGV */
		if (e)
			return e;
		m &= ~(1ull << (SIGCANCEL - 1));
	}
	int cp = __pthread_cp_begin();
	long r = sys_poll(fds, n, ns, mask ? &m : NULL);
	__pthread_cp_end(cp);
	return r;
}

/* nfds_t is wider than the kernel's count: past it is EINVAL there too. */
static int poll_ns(struct pollfd *fds, nfds_t n, int64_t ns, const sigset_t *mask)
{
	if (n > UINT32_MAX)
		return (int)__sys_ret(-EINVAL);
	return (int)__sys_ret(poll_cp(fds, (uint32_t)n, ns, mask));
}

int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	return poll_ns(fds, n, timeout_ms < 0 ? -1 : (int64_t)timeout_ms * 1000000, NULL);
}

static bool ts_bad(const struct timespec *ts)
{
	return ts && (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000);
}

/* A timespec as nanoseconds; NULL (no limit) -1; huge ones saturate. */
static int64_t ts_ns(const struct timespec *ts)
{
	if (!ts)
		return -1;
	if (ts->tv_sec >= INT64_MAX / 1000000000 - 1)
		return INT64_MAX;
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	if (ts_bad(ts))
		return (int)__sys_ret(-EINVAL);
	return poll_ns(fds, n, ts_ns(ts), mask);
}

/* Linux's mapping of poll bits to select's three sets: readable is IN,
 * HUP or ERR; writable OUT or ERR; exceptional PRI. A descriptor in no
 * set is not asked; one that is not open fails the call with EBADF. */
#define SEL_IN (POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR)
#define SEL_OUT (POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR)
#define SEL_EX POLLPRI

static int select_ns(int n, fd_set *rd, fd_set *wr, fd_set *ex, int64_t ns, int64_t *left_ns,
		     const sigset_t *mask)
{
	if (n < 0)
		return (int)__sys_ret(-EINVAL);
	if (n > FD_SETSIZE)
		n = FD_SETSIZE; /* Linux: past the open files, as if n were smaller */
	/* Linux copies the sets in and out (the longs that hold n bits): a
	 * bad one is EFAULT, not a fault in the program */
	size_t bytes = ((size_t)n + 63) / 64 * 8;
	if ((rd && __arbor_uwrite(rd, bytes)) || (wr && __arbor_uwrite(wr, bytes)) ||
	    (ex && __arbor_uwrite(ex, bytes)))
		return (int)__sys_ret(-EFAULT);
	struct pollfd pfd[POLL_MAX_FDS];
	unsigned k = 0;
	for (int fd = 0; fd < n; fd++) {
		bool r = rd && FD_ISSET(fd, rd), w = wr && FD_ISSET(fd, wr), x = ex && FD_ISSET(fd, ex);
		if (!r && !w && !x)
			continue;
		if (fd >= POLL_MAX_FDS)
			return (int)__sys_ret(-EBADF); /* cannot be open */
		pfd[k++] = (struct pollfd){ fd, (short)((r ? POLLIN : 0) | (w ? POLLOUT : 0) | (x ? POLLPRI : 0)), 0 };
	}
	int64_t start = ns > 0 ? sys_clock_ns() : 0;
	long got = poll_cp(pfd, k, ns, mask);
	if (got < 0)
		return (int)__sys_ret(got);
	int ready = 0;
	for (unsigned i = 0; i < k; i++)
		if (pfd[i].revents & POLLNVAL)
			return (int)__sys_ret(-EBADF);
	if (rd)
		FD_ZERO(rd);
	if (wr)
		FD_ZERO(wr);
	if (ex)
		FD_ZERO(ex);
	for (unsigned i = 0; i < k; i++) {
		short ask = pfd[i].events, ev = pfd[i].revents;
		if ((ask & POLLIN) && (ev & SEL_IN))
			FD_SET(pfd[i].fd, rd), ready++;
		if ((ask & POLLOUT) && (ev & SEL_OUT))
			FD_SET(pfd[i].fd, wr), ready++;
		if ((ask & POLLPRI) && (ev & SEL_EX))
			FD_SET(pfd[i].fd, ex), ready++;
	}
	if (left_ns) {
		int64_t spent = ns > 0 ? sys_clock_ns() - start : 0;
		*left_ns = ns <= 0 || spent >= ns || ready == 0 ? 0 : ns - spent;
	}
	return ready;
}

/* Linux writes the time left back into *tv; POSIX allows it. */
int select(int n, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv)
{
	if (tv && (tv->tv_sec < 0 || tv->tv_usec < 0 || tv->tv_usec >= 1000000))
		return (int)__sys_ret(-EINVAL);
	int64_t left, ns = -1;
	if (tv)
		ns = tv->tv_sec >= INT64_MAX / 1000000000 - 1 ? INT64_MAX :
		     (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
	int r = select_ns(n, rd, wr, ex, ns, &left, NULL);
	if (r >= 0 && tv) {
		tv->tv_sec = left / 1000000000;
		tv->tv_usec = (left % 1000000000) / 1000;
	}
	return r;
}

/* The mask is the kernel's to put in force and back, atomically with the
 * wait: a signal it unblocks that is already pending interrupts at once. */
int pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *ts, const sigset_t *mask)
{
	if (ts_bad(ts))
		return (int)__sys_ret(-EINVAL);
	return select_ns(n, rd, wr, ex, ts_ns(ts), NULL, mask);
}
