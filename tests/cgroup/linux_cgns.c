/* Cgroup namespaces, nsdelegate and /sys/kernel/cgroup as Linux 6.1 has
 * them: unshare(CLONE_NEWCGROUP) and clone(CLONE_NEWCGROUP) (root only:
 * EPERM), /proc/PID/cgroup seen from a namespace's root ("/", "/d",
 * "/../c"), and with nsdelegate (a cgroup2 mount with that option sets it
 * for the whole hierarchy, a mount without clears it) migrations across
 * the namespace's boundary (ENOENT) and the root's own files (EPERM but
 * the delegatable ones). Run as root with cgroup2 at /sys/fs/cgroup: the
 * same program on Linux 6.1 (linux-run) and on Arbor prints the same
 * (tests/cgroup/linux_cgns.out, recorded by tools/record-linux.sh).
 * lesser_ns_open is Linux's selftest test_cgcore_lesser_ns_open without
 * its CLONE_VM | CLONE_FILES (Arbor has no processes sharing memory): the
 * child opens the file in its namespace and passes the descriptor over a
 * Unix socket; the namespace at the open decides, not the writer's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup/cgns"

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case ESRCH: return "ESRCH";
	default: return "E?";
	}
}

/* One write of text to path: 0 or the errno. */
static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	int err = write(fd, text, strlen(text)) < 0 ? errno : 0;
	close(fd);
	return err;
}

static int put_pid(const char *path, pid_t pid)
{
	char b[16];
	snprintf(b, sizeof(b), "%d", (int)pid);
	return put(path, b);
}

/* The text of path (newlines as '|'), or "ERRNO". */
static const char *text(const char *path)
{
	static char buf[512];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return ename(errno);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = '|';
	return buf;
}

static const char *cgroup_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	return text(path);
}

static int wait_exit(pid_t pid)
{
	int st = 0;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int clone_child(void *arg)
{
	(void)arg;
	printf("  clone(CLONE_NEWCGROUP) child: self %s\n", cgroup_of(getpid()));
	fflush(stdout);
	return 0;
}

static void sysfs_files(void)
{
	printf("delegate: %s\n", text("/sys/kernel/cgroup/delegate"));
	const char *f = text("/sys/kernel/cgroup/features");
	printf("features lists nsdelegate: %d\n", strncmp(f, "nsdelegate|", 11) == 0);
	struct stat st = { 0 };
	int err = stat("/sys/kernel/cgroup/features", &st) == 0 ? 0 : errno;
	printf("features stat: %s mode %o size %ld\n", ename(err), (unsigned)st.st_mode, (long)st.st_size);
	int fd = open("/sys/kernel/cgroup/features", O_WRONLY);
	printf("features open for writing: %s\n", fd < 0 ? ename(errno) : "0");
	if (fd >= 0)
		close(fd);
	DIR *d = opendir("/sys/kernel/cgroup");
	char names[4][256];
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' && n < 4)
			snprintf(names[n++], sizeof(names[0]), "%s", e->d_name);
	if (d)
		closedir(d);
	if (n == 2 && strcmp(names[0], names[1]) > 0) {
		char t[256];
		memcpy(t, names[0], sizeof(t));
		memcpy(names[0], names[1], sizeof(t));
		memcpy(names[1], t, sizeof(t));
	}
	printf("/sys/kernel/cgroup:");
	for (int i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
}

/* As uid 65534: unshare and clone with CLONE_NEWCGROUP. */
static void unprivileged(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		static char stack[16384];
		if (setuid(65534) != 0)
			_exit(2);
		printf("user: unshare(CLONE_NEWCGROUP) %s\n", unshare(CLONE_NEWCGROUP) == 0 ? "0" : ename(errno));
		int c = clone(clone_child, stack + sizeof(stack), CLONE_NEWCGROUP | SIGCHLD, NULL);
		printf("user: clone(CLONE_NEWCGROUP) %s\n", c >= 0 ? "made" : ename(errno));
		fflush(stdout);
		_exit(0);
	}
	printf("user child: %d\n", wait_exit(pid));
}

/* A child in a new namespace rooted at CG/b, its views. */
static void views(pid_t sleeper)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		printf("  unshare: %s\n", unshare(CLONE_NEWCGROUP) == 0 ? "0" : ename(errno));
		printf("  self %s\n", cgroup_of(getpid()));
		printf("  parent %s\n", cgroup_of(getppid()));
		printf("  sleeper %s\n", cgroup_of(sleeper));
		printf("  into b/d: %s\n", ename(put(CG "/b/d/cgroup.procs", "0")));
		printf("  self %s\n", cgroup_of(getpid()));
		printf("  into the root: %s\n", ename(put("/sys/fs/cgroup/cgroup.procs", "0")));
		printf("  self %s\n", cgroup_of(getpid()));
		printf("  back into b/d: %s\n", ename(put(CG "/b/d/cgroup.procs", "0")));
		fflush(stdout);
		pid_t g = fork(); /* a grandchild: the namespace is inherited */
		if (g == 0) {
			printf("  grandchild self %s\n", cgroup_of(getpid()));
			fflush(stdout);
			_exit(0);
		}
		wait_exit(g);
		fflush(stdout);
		_exit(0);
	}
	printf("views child: %d\n", wait_exit(pid));
	static char stack[16384];
	fflush(stdout);
	pid = clone(clone_child, stack + sizeof(stack), CLONE_NEWCGROUP | SIGCHLD, NULL);
	printf("clone(CLONE_NEWCGROUP) child: %d\n", pid > 0 ? wait_exit(pid) : -1);
}

/* A child in a namespace rooted at CG/b, with nsdelegate as it is. */
static void delegation(pid_t sleeper)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		unshare(CLONE_NEWCGROUP);
		printf("  itself into c: %s\n", ename(put(CG "/c/cgroup.procs", "0")));
		printf("  self %s\n", cgroup_of(getpid()));
		printf("  itself into b/d: %s\n", ename(put(CG "/b/d/cgroup.procs", "0")));
		printf("  the sleeper into b: %s\n", ename(put_pid(CG "/b/cgroup.procs", sleeper)));
		printf("  b/cgroup.max.depth: %s\n", ename(put(CG "/b/cgroup.max.depth", "5")));
		printf("  b/cgroup.freeze: %s\n", ename(put(CG "/b/cgroup.freeze", "0")));
		printf("  b/cgroup.subtree_control: %s\n", ename(put(CG "/b/cgroup.subtree_control", "-pids")));
		printf("  b/d/cgroup.max.depth: %s\n", ename(put(CG "/b/d/cgroup.max.depth", "5")));
		printf("  itself into b: %s\n", ename(put(CG "/b/cgroup.procs", "0")));
		fflush(stdout);
		_exit(0);
	}
	printf("delegation child: %d\n", wait_exit(pid));
	printf("the parent moves the sleeper into b/d: %s\n", ename(put_pid(CG "/b/d/cgroup.procs", sleeper)));
	printf("and back into c: %s\n", ename(put_pid(CG "/c/cgroup.procs", sleeper)));
	printf("the parent writes b/cgroup.max.depth: %s\n", ename(put(CG "/b/cgroup.max.depth", "max")));
}

static void send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	sendmsg(sock, &m, 0);
}

static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	int fd = -1;
	if (h && h->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(h), sizeof(int));
	return fd;
}

/* A child in a namespace rooted at CG/b opens b's cgroup.procs and hands
 * it over; the parent (initial namespace), having moved to c, writes its
 * own pid through it; then the same with a descriptor the parent opened. */
static void lesser_ns_open(void)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		printf("socketpair: %s\n", ename(errno));
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		unshare(CLONE_NEWCGROUP);
		int fd = open(CG "/b/cgroup.procs", O_RDWR);
		send_fd(sv[1], fd);
		_exit(fd < 0);
	}
	int fd = recv_fd(sv[0]);
	printf("lesser_ns_open child: %d, descriptor %s\n", wait_exit(pid), fd >= 0 ? "received" : "lost");
	printf("  the parent into c: %s\n", ename(put(CG "/c/cgroup.procs", "0")));
	int err = fd >= 0 && write(fd, "0", 1) < 0 ? errno : 0;
	printf("  back into b through the child's descriptor: %s\n", ename(err));
	printf("  self %s\n", cgroup_of(getpid()));
	printf("  through its own open: %s\n", ename(put(CG "/b/cgroup.procs", "0")));
	printf("  self %s\n", cgroup_of(getpid()));
	if (fd >= 0)
		close(fd);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	char home[256];
	snprintf(home, sizeof(home), "%s", text("/proc/self/cgroup"));
	sysfs_files();
	unprivileged();
	rmdir(CG "/b/d");
	rmdir(CG "/b");
	rmdir(CG "/c");
	rmdir(CG);
	if (mkdir(CG, 0755) || mkdir(CG "/b", 0755) || mkdir(CG "/b/d", 0755) || mkdir(CG "/c", 0755)) {
		printf("mkdir: %s\n", ename(errno));
		return 1;
	}
	fflush(stdout);
	pid_t sleeper = fork();
	if (sleeper == 0) {
		for (;;)
			pause();
	}
	printf("sleeper into c: %s\n", ename(put_pid(CG "/c/cgroup.procs", sleeper)));
	printf("self into b: %s\n", ename(put(CG "/b/cgroup.procs", "0")));
	printf("self %s\n", cgroup_of(getpid()));
	views(sleeper);
	mkdir("/tmp/cgns_on", 0755);
	mkdir("/tmp/cgns_off", 0755);
	printf("nsdelegate off:\n");
	delegation(sleeper);
	printf("mount -o nsdelegate: %s\n",
	       mount("cgroup2", "/tmp/cgns_on", "cgroup2", 0, "nsdelegate") == 0 ? "0" : ename(errno));
	printf("nsdelegate on:\n");
	delegation(sleeper);
	lesser_ns_open();
	printf("a mount without it: %s\n", mount("cgroup2", "/tmp/cgns_off", "cgroup2", 0, "") == 0 ? "0" : ename(errno));
	printf("nsdelegate off again:\n");
	delegation(sleeper);
	lesser_ns_open();
	umount("/tmp/cgns_on");
	umount("/tmp/cgns_off");
	rmdir("/tmp/cgns_on");
	rmdir("/tmp/cgns_off");
	kill(sleeper, SIGKILL);
	wait_exit(sleeper);
	char back[300];
	snprintf(back, sizeof(back), "/sys/fs/cgroup%s/cgroup.procs", strchr(home, '/'));
	*strrchr(back, '|') = '\0'; /* the newline */
	snprintf(strrchr(back, '\0'), 16, "/cgroup.procs");
	int err = put(back, "0");
	printf("home: %s\n", ename(err));
	int d = rmdir(CG "/b/d"), b = rmdir(CG "/b"), c = rmdir(CG "/c");
	printf("rmdir: %d %d %d %d\n", d, b, c, rmdir(CG));
	return 0;
}
