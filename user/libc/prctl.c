/* prctl(2) (<sys/prctl.h>), and the parts of syscall() (syscall.c)
 * that need Arbor's own calls: Linux's raw forms of calls whose C
 * library wrappers translate. */
#include <errno.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "abi/prctl.h"
#include "arbor_sys.h"
#include "linux_raw.h"
#include "ufault.h"

_Static_assert(PR_SET_NAME == 15 && PR_GET_NAME == 16 && PR_SET_PDEATHSIG == 1 && PR_GET_PDEATHSIG == 2 &&
		       PR_SET_CHILD_SUBREAPER == 36 && PR_GET_CHILD_SUBREAPER == 37,
	       "<sys/prctl.h> and abi/prctl.h agree");

int prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long arg2 = va_arg(ap, unsigned long);
	va_end(ap);
	return (int)__sys_ret(sys_prctl(option, arg2));
}

long __linux_getpriority(long which, long who)
{
	/* Linux's getpriority returns 20 - nice, untranslated, for which
	 * PRIO_PROCESS (the one Arbor has) */
	return __sys_ret(which == PRIO_PROCESS ? sys_getpriority((int)who) : -EINVAL);
}

long __linux_getsid(long pid)
{
	return __sys_ret(sys_getsid((int)pid));
}

long __linux_exit(long code)
{
	for (;;)
		sys_exit_thread(code); /* SYS_exit ends the calling thread */
}

/* clone3 as Linux checks its arguments (size, unknown bytes past the
 * structure zero), fork-like only: a new process with SIGCHLD, no new
 * stack or TLS, no pid requests; CLONE_INTO_CGROUP opens the cgroup's
 * cgroup.procs for writing (the permission check of a write to it) and
 * forks into it (fork_into: the migration checks). */
long __linux_clone3(const struct clone_args *ua, size_t size)
{
	struct clone_args a;
	memset(&a, 0, sizeof(a));
	if (size < CLONE_ARGS_SIZE_VER0)
		return __sys_ret(-EINVAL);
	if (size > 4096)
		return __sys_ret(-E2BIG);
	if (__arbor_ucopy(&a, ua, size < sizeof(a) ? size : sizeof(a)))
		return __sys_ret(-EFAULT);
	for (size_t i = sizeof(a); i < size; i++) {
		char c;
		if (__arbor_ucopy(&c, (const char *)ua + i, 1))
			return __sys_ret(-EFAULT);
		if (c)
			return __sys_ret(-E2BIG); /* a newer structure's field Arbor does not know */
	}
	if ((a.flags & ~CLONE_INTO_CGROUP) || a.exit_signal != SIGCHLD || a.stack || a.stack_size || a.tls ||
	    a.set_tid || a.set_tid_size)
		return __sys_ret(-ENOSYS); /* not this clone3: the program falls back to fork */
	if (!(a.flags & CLONE_INTO_CGROUP))
		return __sys_ret(sys_fork());
	if (a.cgroup > 0x7fffffff)
		return __sys_ret(-EBADF);
	int procs = openat((int)a.cgroup, "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (procs < 0)
		return __sys_ret(errno == ENOENT || errno == ENOTDIR ? -EBADF : -errno); /* not a cgroup */
	long r = sys_fork_into(procs);
	int e = errno;
	close(procs);
	errno = e;
	return __sys_ret(r);
}
