/* clone3 (syscall(SYS_clone3), <linux/sched.h>) as Arbor has it:
 * fork-like, with CLONE_INTO_CGROUP placing the child in another cgroup
 * from birth, under the checks of a write to that cgroup's cgroup.procs
 * (EACCES for a user who may not write it), and Linux's argument errors
 * (EINVAL, E2BIG, EBADF); ENOSYS for the forms Arbor does not do, so a
 * program falls back to fork. Run as /posix/clone3 in
 * /sys/fs/cgroup/posix_clone3, with the servers up. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_clone3"

static long clone3_into(int cgfd, uint64_t flags, size_t size)
{
	struct clone_args a = { .flags = flags, .exit_signal = SIGCHLD, .cgroup = (uint64_t)cgfd };
	return syscall(SYS_clone3, &a, size);
}

/* The child's exit code: 0 if its /proc/self/cgroup was want. */
static int child_in(long pid)
{
	int st = 0;
	if (pid <= 0 || waitpid((pid_t)pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int in_cgroup(const char *want)
{
	char buf[128];
	return slurp("/proc/self/cgroup", buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0;
}

int main(void)
{
	check(in_cgroup("0::/posix_clone3\n"), "the test runs in posix_clone3");
	check(mkdir(BASE "/a", 0755) == 0, "mkdir posix_clone3/a");
	int cg = open(BASE "/a", O_RDONLY | O_DIRECTORY);
	check(cg >= 0, "open posix_clone3/a as a directory");
	fflush(stdout);
	long pid = clone3_into(cg, CLONE_INTO_CGROUP, sizeof(struct clone_args));
	if (pid == 0)
		_exit(in_cgroup("0::/posix_clone3/a\n") ? 0 : 1);
	check(child_in(pid) == 0, "CLONE_INTO_CGROUP: the child starts in posix_clone3/a");
	check(in_cgroup("0::/posix_clone3\n"), "the parent stays where it was");
	fflush(stdout);
	pid = clone3_into(cg, 0, CLONE_ARGS_SIZE_VER0);
	if (pid == 0)
		_exit(in_cgroup("0::/posix_clone3\n") ? 0 : 1);
	check(child_in(pid) == 0, "clone3 without flags: a fork, the child in the parent's cgroup");

	check_errno(clone3_into(cg, CLONE_INTO_CGROUP, 10), EINVAL, "a size below CLONE_ARGS_SIZE_VER0: EINVAL");
	check_errno(clone3_into(cg, CLONE_INTO_CGROUP, 8192), E2BIG, "a size over a page: E2BIG");
	struct { struct clone_args a; uint64_t extra; } big = { { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD,
								  .cgroup = (uint64_t)cg }, 1 };
	check_errno(syscall(SYS_clone3, &big, sizeof(big)), E2BIG, "a nonzero byte past the known structure: E2BIG");
	check_errno(syscall(SYS_clone3, (void *)8, sizeof(struct clone_args)), EFAULT, "a bad pointer: EFAULT");
	int file = open("/proc/self/stat", O_RDONLY);
	check_errno(clone3_into(file, CLONE_INTO_CGROUP, sizeof(struct clone_args)), EBADF,
		    "CLONE_INTO_CGROUP with a descriptor that is not a cgroup: EBADF");
	check_errno(clone3_into(150, CLONE_INTO_CGROUP, sizeof(struct clone_args)), EBADF,
		    "CLONE_INTO_CGROUP with no descriptor: EBADF");
	check_errno(clone3_into(cg, 0x100 /* CLONE_VM */, sizeof(struct clone_args)), ENOSYS,
		    "a thread (CLONE_VM): ENOSYS, the program falls back");

	/* a user who may not write posix_clone3/a's cgroup.procs */
	fflush(stdout);
	pid_t u = fork();
	if (u == 0) {
		if (setgid(1000) || setuid(1000))
			_exit(2);
		long r = clone3_into(cg, CLONE_INTO_CGROUP, sizeof(struct clone_args));
		if (r == 0)
			_exit(0);
		_exit(r == -1 && errno == EACCES ? 0 : 3);
	}
	check(child_in(u) == 0, "CLONE_INTO_CGROUP by a user without write permission: EACCES");
	close(cg);
	close(file);
	check(rmdir(BASE "/a") == 0, "posix_clone3/a removed (its children are gone)");
	printf("1..%d\n", n);
	return failed != 0;
}
