/* Process descriptors (<sys/pidfd.h>): the kernel's pidfd_open and
 * pidfd_send_signal; the descriptor is close-on-exec, as Linux's. */
#include <errno.h>
#include <sys/pidfd.h>
#include "arbor_sys.h"

int pidfd_open(pid_t pid, unsigned int flags)
{
	long h = sys_pidfd_open((int)pid, flags);
	if (h >= 0)
		sys_handle_flags((int)h, HANDLE_CLOEXEC);
	return (int)__sys_ret(h);
}

int pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	return (int)__sys_ret(sys_pidfd_send_signal(pidfd, sig, info, flags));
}
