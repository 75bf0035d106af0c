/* Linux's event descriptors: epoll, eventfd, timerfd and signalfd, each a
 * kernel object (kernel/ipc/epoll.c, eventfd.c, timerfd.c, signalfd.c;
 * docs/poll.md); here only the calls' shapes: timeouts to nanoseconds,
 * the eventfd_read/eventfd_write helpers. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "pthread_impl.h"
#include "abi/signal.h"

_Static_assert(sizeof(struct epoll_event) == 12, "Linux's packed struct epoll_event");
_Static_assert(sizeof(struct signalfd_siginfo) == sizeof(struct k_signalfd_siginfo), "Linux's struct signalfd_siginfo");
#define SFD_SAME(f) _Static_assert(offsetof(struct signalfd_siginfo, f) == offsetof(struct k_signalfd_siginfo, f), #f)
SFD_SAME(ssi_signo);
SFD_SAME(ssi_code);
SFD_SAME(ssi_pid);
SFD_SAME(ssi_uid);
SFD_SAME(ssi_status);
SFD_SAME(ssi_int);
SFD_SAME(ssi_ptr);
SFD_SAME(ssi_utime);
SFD_SAME(ssi_stime);
SFD_SAME(ssi_addr);
SFD_SAME(ssi_syscall);
SFD_SAME(ssi_arch);
_Static_assert(sizeof(struct itimerspec) == 4 * sizeof(int64_t), "Linux's struct itimerspec");

int epoll_create1(int flags)
{
	return (int)__sys_ret(sys_epoll_create(flags));
}

/* Linux: size is ignored but must be positive. */
int epoll_create(int size)
{
	if (size <= 0)
		return (int)__sys_ret(-EINVAL);
	return epoll_create1(0);
}

int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	return (int)__sys_ret(sys_epoll_ctl(epfd, op, fd, ev));
}

int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout_ms, const sigset_t *mask)
{
	int64_t ns = timeout_ms < 0 ? -1 : (int64_t)timeout_ms * 1000000;
	int cp = __pthread_cp_begin();
	long r = sys_epoll_wait(epfd, ev, max, ns, (const uint64_t *)mask);
	__pthread_cp_end(cp);
	return (int)__sys_ret(r);
}

int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout_ms)
{
	return epoll_pwait(epfd, ev, max, timeout_ms, NULL);
}

int eventfd(unsigned int initval, int flags)
{
	return (int)__sys_ret(sys_eventfd(initval, flags));
}

int eventfd_read(int fd, eventfd_t *value)
{
	return read(fd, value, sizeof(*value)) == sizeof(*value) ? 0 : -1;
}

int eventfd_write(int fd, eventfd_t value)
{
	return write(fd, &value, sizeof(value)) == sizeof(value) ? 0 : -1;
}

int timerfd_create(clockid_t clock, int flags)
{
	return (int)__sys_ret(sys_timerfd_create((int)clock, flags));
}

int timerfd_settime(int fd, int flags, const struct itimerspec *nv, struct itimerspec *ov)
{
	return (int)__sys_ret(sys_timerfd_settime(fd, flags, (const int64_t *)nv, (int64_t *)ov));
}

int timerfd_gettime(int fd, struct itimerspec *cur)
{
	return (int)__sys_ret(sys_timerfd_gettime(fd, (int64_t *)cur));
}

int signalfd(int fd, const sigset_t *mask, int flags)
{
	return (int)__sys_ret(sys_signalfd(fd, (const uint64_t *)mask, sizeof(uint64_t), flags));
}
