/* Cgroup namespaces and /sys/kernel/cgroup as Arbor has them, beyond what
 * linux_cgns.c compares with Linux 6.1 byte for byte: the exact texts of
 * /sys/kernel/cgroup (Arbor lists only the options it has), the
 * cgroup_ns system call's argument errors, what unshare and clone refuse
 * (other namespaces, CLONE_VM: what Linux's test_cgcore_lesser_ns_open
 * needs), the mount options Arbor refuses, a thread's view. Run as
 * /posix/cgns in /sys/fs/cgroup/posix_cgns, as root, with the servers up. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "abi/cgroup.h"
#include "arbor_sys.h"
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_cgns"

static int child_exit(pid_t pid)
{
	int st = 0;
	if (pid <= 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int same(const char *path, const char *want)
{
	char buf[512];
	long n = slurp(path, buf, sizeof(buf));
	if (n < 0 || strcmp(buf, want) != 0)
		printf("# %s: \"%s\", want \"%s\"\n", path, n < 0 ? "(error)" : buf, want);
	return n >= 0 && strcmp(buf, want) == 0;
}

static int nothing(void *arg)
{
	(void)arg;
	return 0;
}

/* A thread moves itself into a/t (threaded) and reads its own file. */
static int thread_ok;
static void *thread_view(void *arg)
{
	(void)arg;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%ld/cgroup", (long)gettid());
	thread_ok = put(BASE "/a/t/cgroup.threads", "0") == 0 && same(path, "0::/t\n") &&
		    same("/proc/thread-self/cgroup", "0::/t\n") && same("/proc/self/cgroup", "0::/\n");
	return NULL;
}

static void texts(void)
{
	check(same("/sys/kernel/cgroup/features", "nsdelegate\n"),
	      "/sys/kernel/cgroup/features: the one of Linux's options Arbor has");
	check(same("/sys/kernel/cgroup/delegate",
		   "cgroup.procs\ncgroup.threads\ncgroup.subtree_control\nmemory.oom.group\nmemory.reclaim\n"),
	      "/sys/kernel/cgroup/delegate: Linux 6.1's list");
	struct stat st;
	check(stat("/sys/fs/cgroup", &st) == 0 && S_ISDIR(st.st_mode) && stat("/sys/kernel", &st) == 0 &&
	      S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0755, "/sys is sysfs: kernel/ and fs/cgroup/ are there");
	check_errno(open("/sys/kernel/cgroup/features", O_RDWR), EACCES, "features open O_RDWR as root: EACCES");
	check_errno(open("/sys/kernel/cgroup/nope", O_RDONLY), ENOENT, "a name sysfs does not have: ENOENT");
	check_errno(open("/sys/kernel/cgroup/features/x", O_RDONLY), ENOTDIR, "below a file: ENOTDIR");
	check_errno(mkdir("/sys/kernel/x", 0755), EPERM, "mkdir in sysfs: EPERM");
	check_errno(open("/sys/kernel/cgroup/new", O_CREAT | O_WRONLY, 0644), EACCES, "creating a file in sysfs: EACCES");
}

static void syscall_errors(void)
{
	char buf[64];
	check(sys_cgroup_ns(99, 0, 0, NULL, 0) == -EINVAL, "cgroup_ns with an unknown op: EINVAL");
	check(sys_cgroup_ns(CGNS_UNSHARE, 1, 0, NULL, 0) == -EINVAL, "CGNS_UNSHARE with a pid: EINVAL");
	check(sys_cgroup_ns(CGNS_PATH, 0, 0, buf, sizeof(buf)) == -ESRCH, "CGNS_PATH of pid 0: ESRCH");
	check(sys_cgroup_ns(CGNS_PATH, 999999, 0, buf, sizeof(buf)) == -ESRCH, "CGNS_PATH of no process: ESRCH");
	check(sys_cgroup_ns(CGNS_PATH, getpid(), 999999, buf, sizeof(buf)) == -ESRCH,
	      "CGNS_PATH for a reader that does not exist: ESRCH");
	check(sys_cgroup_ns(CGNS_PATH, getpid(), 0, (char *)8, 64) == -EFAULT, "CGNS_PATH to a bad buffer: EFAULT");
	long n = sys_cgroup_ns(CGNS_PATH, getpid(), 0, buf, 4);
	check(n == (long)strlen("/posix_cgns") && strcmp(buf, "/po") == 0, "CGNS_PATH cut to the room, its whole length returned");
	check(sys_cgroup_ns(CGNS_MOUNT, 2, 0, NULL, 0) == -EINVAL, "CGNS_MOUNT with an unknown option: EINVAL");
	check(sys_cgroup_ns(CGNS_MOUNT_FLAGS, 0, 0, NULL, 0) == 0, "nsdelegate is off (the boot's mount)");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (setuid(1000))
			_exit(2);
		_exit(sys_cgroup_ns(CGNS_MOUNT, CGNS_NSDELEGATE, 0, NULL, 0) == -EPERM &&
		      sys_cgroup_ns(CGNS_UNSHARE, 0, 0, NULL, 0) == -EPERM &&
		      sys_cgroup_ns(CGNS_FEATURES, 0, 0, buf, sizeof(buf)) == 11 ? 0 : 1);
	}
	check(child_exit(pid) == 0, "as a user: CGNS_MOUNT and CGNS_UNSHARE EPERM, the texts readable");
}

static void refused(void)
{
	static char stack[16384];
	check_errno(unshare(CLONE_NEWNS), EINVAL, "unshare(CLONE_NEWNS): EINVAL (no mount namespaces)");
	check_errno(unshare(CLONE_NEWCGROUP | CLONE_NEWPID), EINVAL, "unshare with another namespace: EINVAL, nothing done");
	check(same("/proc/self/cgroup", "0::/posix_cgns\n"), "... still in the initial namespace");
	check(unshare(0) == 0, "unshare(0): 0");
	check_errno(clone(nothing, stack + sizeof(stack), CLONE_NEWCGROUP | CLONE_VM | SIGCHLD, NULL), EINVAL,
		    "clone(CLONE_NEWCGROUP | CLONE_VM): EINVAL (no processes sharing memory)");
	check_errno(clone(nothing, stack + sizeof(stack), CLONE_NEWCGROUP | CLONE_FILES | SIGCHLD, NULL), EINVAL,
		    "clone(CLONE_NEWCGROUP | CLONE_FILES): EINVAL (no shared descriptor tables)");
	check_errno(mount("cgroup2", "/tmp", "cgroup2", 0, "nsdelegate,memory_recursiveprot"), EINVAL,
		    "mount -o memory_recursiveprot (Linux has it, Arbor not): EINVAL");
	check_errno(mount("cgroup2", "/tmp", "cgroup2", 0, "bogus"), EINVAL, "an unknown option: EINVAL");
	check(sys_cgroup_ns(CGNS_MOUNT_FLAGS, 0, 0, NULL, 0) == 0, "a refused mount changes nothing");
}

static void views(void)
{
	check(mkdir(BASE "/a", 0755) == 0 && mkdir(BASE "/a/t", 0755) == 0, "mkdir posix_cgns/a and a/t");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (put(BASE "/a/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP))
			_exit(2);
		char parent[64];
		snprintf(parent, sizeof(parent), "/proc/%d/cgroup", (int)getppid());
		if (!same("/proc/self/cgroup", "0::/\n") || !same(parent, "0::/..\n"))
			_exit(3);
		/* a thread moved into a/t (a threaded cgroup): its own view */
		if (put(BASE "/a/t/cgroup.type", "threaded"))
			_exit(4);
		pthread_t th;
		if (pthread_create(&th, NULL, thread_view, NULL) || pthread_join(th, NULL))
			_exit(5);
		_exit(thread_ok ? 0 : 6);
	}
	check(child_exit(pid) == 0,
	      "in a namespace: itself /, its parent /..; a thread in a threaded child t: /t in its own file, "
	      "the process (its main thread) / in /proc/self/cgroup");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (put(BASE "/a/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP) ||
		    put(BASE "/cgroup.procs", "0"))
			_exit(2);
		char me[64];
		snprintf(me, sizeof(me), "/proc/%d/cgroup", (int)getpid());
		_exit(same("/proc/self/cgroup", "0::/..\n") && same(me, "0::/..\n") ? 0 : 3);
	}
	check(child_exit(pid) == 0, "moved out of its namespace's root: /.. (one level up)");
	check(rmdir(BASE "/a/t") == 0 && rmdir(BASE "/a") == 0, "rmdir a/t and a");
}

int main(void)
{
	check(same("/proc/self/cgroup", "0::/posix_cgns\n"), "the test runs in posix_cgns");
	texts();
	syscall_errors();
	refused();
	views();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
