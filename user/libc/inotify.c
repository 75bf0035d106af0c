/* inotify: watches are set on an open file, so inotify_add_watch opens the
 * path (which needs read permission, as on Linux) and hands the kernel
 * the descriptor. Today the kernel watches cgroup files; other files give
 * EOPNOTSUPP. */
#include <fcntl.h>
#include <sys/inotify.h>
#include <unistd.h>
#include "arbor_sys.h"

int inotify_init1(int flags)
{
	if (flags & ~(IN_NONBLOCK | IN_CLOEXEC))
		return (int)__sys_ret(-EINVAL);
	long h = sys_inotify_init1(flags & IN_NONBLOCK);
	if (h >= 0 && (flags & IN_CLOEXEC))
		sys_handle_flags((int)h, HANDLE_CLOEXEC);
	return (int)__sys_ret(h);
}

int inotify_init(void)
{
	return inotify_init1(0);
}

int inotify_add_watch(int fd, const char *path, uint32_t mask)
{
	int f = open(path, O_RDONLY | ((mask & IN_ONLYDIR) ? O_DIRECTORY : 0));
	if (f < 0)
		return -1;
	long r = sys_inotify_watch_fd(fd, f, mask);
	close(f);
	return (int)__sys_ret(r);
}

int inotify_rm_watch(int fd, int wd)
{
	return (int)__sys_ret(sys_inotify_rm_watch(fd, wd));
}
