/* poll: every descriptor is asked what is ready now (the kernel for pipes,
 * the server for the rest); until something is, we look again every
 * millisecond. Servers do not yet wake pollers, so this is a loop. */
#include <errno.h>
#include <poll.h>
#include <time.h>
#include "arbor_sys.h"

int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
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
