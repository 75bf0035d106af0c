/* Cgroup namespaces and /sys/kernel/cgroup as Arbor has them, beyond what
 * linux_cgns.c compares with Linux 6.1 byte for byte: the exact texts of
 * /sys/kernel/cgroup (Arbor lists only the options it has), the
 * cgroup_ns system call's argument errors, what unshare and clone refuse
 * (other namespaces, CLONE_VM: what Linux's test_cgcore_lesser_ns_open
 * needs), the mount options Arbor refuses, a thread's view; the kernel's
 * side of a mount made inside a namespace (CGNS_MOUNT's answer, the
 * "@ID/path" form of the server's calls and its errors, a mount whose root
 * was removed), the namespace descriptors (CGNS_OPEN, CGNS_INO, their
 * errors, poll, fork) and setns from one thread of several (the whole
 * process moves: Arbor's namespace is the process's). Run as /posix/cgns
 * in /sys/fs/cgroup/posix_cgns, as root, with the servers up. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
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

/* BASE/m's id, as the kernel answers CGNS_MOUNT from a namespace rooted
 * there (0 from the initial one); -1 if anything failed. */
static long mount_root_id(void)
{
	int fds[2];
	long id = -1;
	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		long r = put(BASE "/m/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP) ? -1 :
			 sys_cgroup_ns(CGNS_MOUNT, 0, 0, NULL, 0);
		_exit(write(fds[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	if (child_exit(pid) != 0 || read(fds[0], &id, sizeof(id)) != sizeof(id))
		id = -1;
	close(fds[0]);
	close(fds[1]);
	return id;
}

static void mount_roots(void)
{
	struct stat st;
	struct k_cgnode node;
	char path[64];
	check(mkdir(BASE "/m", 0755) == 0 && stat(BASE "/m", &st) == 0, "mkdir posix_cgns/m");
	check(sys_cgroup_ns(CGNS_MOUNT, 0, 0, NULL, 0) == 0, "CGNS_MOUNT from the initial namespace: root 0");
	long id = mount_root_id();
	check(id > 0 && (uint64_t)id == st.st_ino >> 8, "CGNS_MOUNT from a namespace: its root's id (its inode >> 8)");
	snprintf(path, sizeof(path), "@%ld/", id);
	check(sys_cgfs_stat(path, &node) == 0 && node.ino == st.st_ino && node.kind == CGFS_DIR,
	      "cgfs_stat(\"@ID/\"): that cgroup");
	snprintf(path, sizeof(path), "@%ld/cgroup.type", id);
	check(sys_cgfs_stat(path, &node) == 0 && node.kind == CGFS_FILE, "\"@ID/cgroup.type\": its file");
	snprintf(path, sizeof(path), "@%ld", id);
	check(sys_cgfs_stat(path, &node) == -EINVAL && sys_cgfs_stat("@/", &node) == -EINVAL &&
	      sys_cgfs_stat("@0/", &node) == -EINVAL && sys_cgfs_stat("@1x/", &node) == -EINVAL,
	      "\"@ID\" with no '/', no id, id 0, junk after it: EINVAL");
	check(sys_cgfs_stat("@99999999/", &node) == -ENOENT, "no such cgroup: ENOENT");
	snprintf(path, sizeof(path), "@%ld/", id);
	check(sys_cgfs_rmdir(path, 0, 0) == -EBUSY, "cgfs_rmdir of a mount's root: EBUSY");
	snprintf(path, sizeof(path), "@%ld/k", id);
	check(sys_cgfs_mkdir(path, 0, 0) == 0 && stat(BASE "/m/k", &st) == 0 && sys_cgfs_rmdir(path, 0, 0) == 0,
	      "cgfs_mkdir and cgfs_rmdir of \"@ID/k\": m/k");
	long h = sys_ns_lookup("fs.cgroup2");
	check(h >= 0 && sys_cgfs_direct((int)h, 0, path, CGFS_DIRECT_MKDIR) != 0 && fails(stat(BASE "/m/k", &st), ENOENT),
	      "cgfs_direct takes no \"@ID\" (the hierarchy's paths only): nothing made");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(setuid(1000) == 0 && sys_cgfs_stat(path, &node) == -EPERM ? 0 : 1);
	check(child_exit(pid) == 0, "\"@ID\" paths as a user: EPERM, as every server call");

	/* a mount whose root is removed: nothing in it any more */
	mkdir("/tmp/cgns_m", 0755);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (put(BASE "/m/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP) ||
		    mount("none", "/tmp/cgns_m", "cgroup2", 0, "") || stat("/tmp/cgns_m/cgroup.type", &st) ||
		    put(BASE "/cgroup.procs", "0"))
			_exit(2);
		_exit(0);
	}
	check(child_exit(pid) == 0, "a mount inside a namespace rooted at m, then its mounter leaves m");
	check(rmdir(BASE "/m") == 0, "rmdir m (the mount's root) from outside");
	check(fails(stat("/tmp/cgns_m/cgroup.type", &st), ENOENT) && fails(open("/tmp/cgns_m/cgroup.procs", O_RDONLY), ENOENT) &&
	      fails(mkdir("/tmp/cgns_m/n", 0755), ENOENT),
	      "its files and children are gone: ENOENT (Linux's too; its root's own stat and listing are ENOENT "
	      "here, where Linux keeps the removed directory)");
	check(umount("/tmp/cgns_m") == 0 && rmdir("/tmp/cgns_m") == 0, "umount it");
}

/* The thread that calls setns(fd) (the namespace descriptor fd). */
static int thread_fd, thread_r;
static char thread_link[64];
static void *thread_setns(void *arg)
{
	(void)arg;
	thread_r = setns(thread_fd, CLONE_NEWCGROUP);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%ld/ns/cgroup", (long)gettid());
	ssize_t n = readlink(path, thread_link, sizeof(thread_link) - 1);
	thread_link[n > 0 ? n : 0] = '\0';
	return NULL;
}

static void descriptors(void)
{
	char buf[64];
	int go[2], ready[2];
	check(sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0) == (long)CGNS_INIT_INO,
	      "CGNS_INO in the initial namespace: 4026531835 (Linux's PROC_CGROUP_INIT_INO)");
	check(sys_cgroup_ns(CGNS_INO, 999999, 0, NULL, 0) == -ESRCH && sys_cgroup_ns(CGNS_OPEN, 999999, 0, NULL, 0) == -ESRCH &&
	      sys_cgroup_ns(CGNS_OPEN, 0, 0, NULL, 0) == -ESRCH, "CGNS_INO and CGNS_OPEN of no process: ESRCH");
	check(sys_cgroup_ns(CGNS_OPEN, getpid(), 999999, NULL, 0) == -ESRCH && sys_cgroup_ns(CGNS_OPEN, getpid(), -1, NULL, 0) == -ESRCH &&
	      sys_cgroup_ns(CGNS_INO, getpid(), 1, NULL, 0) == -EINVAL,
	      "CGNS_OPEN charged to no process: ESRCH; CGNS_INO with a second argument: EINVAL");
	long h = sys_cgroup_ns(CGNS_OPEN, getpid(), 0, NULL, 0);
	struct pollfd pf = { .fd = (int)h, .events = POLLIN | POLLOUT | POLLPRI };
	check(h >= 0 && sys_handle_type((int)h) == HANDLE_CGNS && poll(&pf, 1, 0) == 1 && pf.revents == (POLLIN | POLLOUT),
	      "CGNS_OPEN: a namespace descriptor, always readable and writable for poll (nsfs's)");
	check_errno(read((int)h, buf, sizeof(buf)), EINVAL, "read of it: EINVAL (nsfs has no read)");
	check_errno(write((int)h, "x", 1), EBADF, "write: EBADF (its handle has no WRITE right: a read-only open)");
	sys_handle_close((int)h);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(setuid(1000) == 0 && sys_cgroup_ns(CGNS_OPEN, getpid(), 0, NULL, 0) == -EPERM &&
		      sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0) == -EPERM ? 0 : 1);
	check(child_exit(pid) == 0, "CGNS_OPEN and CGNS_INO as a user: EPERM (procfs's, which checks the reader)");

	/* a child in its own namespace; a fork of it shares it */
	if (pipe(go) || pipe(ready) || mkdir(BASE "/s", 0755))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char c;
		if (put(BASE "/s/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP))
			_exit(2);
		long mine = sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0);
		pid_t kid = fork();
		if (kid == 0)
			_exit(sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0) == mine ? 0 : 1);
		if (child_exit(kid) != 0)
			_exit(3);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(4);
		_exit(0);
	}
	char c;
	check(read(ready[0], &c, 1) == 1, "a child in its own namespace (its fork shares its number)");
	long other = sys_cgroup_ns(CGNS_INO, pid, 0, NULL, 0);
	check(other >= (long)CGNS_INO_FIRST, "its number is from 0xf0000000 up");
	char p[64];
	snprintf(p, sizeof(p), "/proc/%d/ns/cgroup", (int)pid);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	int self = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	fflush(stdout);
	pid_t heir = fork();
	if (heir == 0) /* the descriptor is inherited, and works */
		_exit(setns(fd, 0) == 0 && sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0) == other ? 0 : 1);
	check(child_exit(heir) == 0, "a forked child joins through the inherited descriptor");
	thread_fd = fd;
	pthread_t th;
	char want[64];
	snprintf(want, sizeof(want), "cgroup:[%ld]", other);
	check(pthread_create(&th, NULL, thread_setns, NULL) == 0 && pthread_join(th, NULL) == 0 && thread_r == 0 &&
	      sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0) == other && same("/proc/self/cgroup", "0::/..\n") &&
	      strcmp(thread_link, want) == 0,
	      "setns in a second thread: the whole process is in the namespace (Arbor's is per process; "
	      "Linux's per thread), its /proc/self/task/TID/ns/cgroup says so");
	check(setns(self, 0) == 0 && same("/proc/self/cgroup", "0::/posix_cgns\n"), "setns back to the initial one");
	if (write(go[1], "g", 1) != 1)
		return;
	int pfd = pidfd_open(pid, 0);
	struct pollfd zp = { .fd = pfd, .events = POLLIN };
	check(pfd >= 0 && poll(&zp, 1, 5000) == 1, "the child ends (a zombie, not reaped)");
	check_errno(setns(pfd, CLONE_NEWCGROUP), ESRCH, "setns through a zombie's pidfd: ESRCH (Linux: no nsproxy)");
	check(child_exit(pid) == 0, "reaped");
	check(setns(fd, CLONE_NEWCGROUP) == 0 && sys_cgroup_ns(CGNS_INO, getpid(), 0, NULL, 0) == other &&
	      setns(self, CLONE_NEWCGROUP) == 0, "its namespace outlives its processes while a descriptor holds it");
	close(pfd);
	close(fd);
	close(self);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	check(rmdir(BASE "/s") == 0, "rmdir s");
}

int main(void)
{
	check(same("/proc/self/cgroup", "0::/posix_cgns\n"), "the test runs in posix_cgns");
	texts();
	syscall_errors();
	refused();
	views();
	mount_roots();
	descriptors();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
