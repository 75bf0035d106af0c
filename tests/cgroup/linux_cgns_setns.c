/* Cgroup namespaces as Linux 6.1 has them, the parts beyond
 * linux_cgns.c: a cgroup2 mount made inside a namespace has the
 * namespace's root as its root (its files, listing and paths are that
 * cgroup's, nothing above it is reachable, ".." at its root leaves the
 * mount), /proc/PID/ns/cgroup (the link's text cgroup:[INO], the initial
 * namespace's 4026531835, stat through it the nsfs inode, open a
 * descriptor naming the namespace) and setns(2) with such a descriptor or
 * a pidfd: Linux's errors in order (EBADF, EINVAL for a wrong nstype or a
 * descriptor that names no namespace, ESRCH for a pidfd whose process has
 * ended, EPERM for a user, EACCES for another user's link). Run as root
 * with cgroup2 at /sys/fs/cgroup: the same program on Linux 6.1
 * (linux-run) and on Arbor prints the same (tests/cgroup/
 * linux_cgns_setns.out, recorded by tools/record-linux.sh). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup/cgns_setns"
#define MNT "/tmp/cgns_setns_mnt"
#define INIT_LINK "cgroup:[4026531835]"

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EBADF: return "EBADF";
	case ESRCH: return "ESRCH";
	case ELOOP: return "ELOOP";
	case ENOTDIR: return "ENOTDIR";
	default: return "E?";
	}
}

static const char *res(int r)
{
	return r == 0 ? "0" : ename(errno);
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

/* The text of path (newlines as '|'), or the errno's name. */
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

/* readlink of path, or the errno's name. */
static const char *link_of(const char *path)
{
	static char buf[2][128];
	static int k;
	char *b = buf[k++ & 1];
	ssize_t n = readlink(path, b, sizeof(buf[0]) - 1);
	if (n < 0)
		return ename(errno);
	b[n] = '\0';
	return b;
}

/* The number in a cgroup:[INO] text, 0 if it is not one. */
static unsigned long long ino_in(const char *t)
{
	unsigned long long v = 0;
	char end = 0;
	return sscanf(t, "cgroup:[%llu%c", &v, &end) == 2 && end == ']' ? v : 0;
}

static int wait_exit(pid_t pid)
{
	int st = 0;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The directories in dir, sorted, space-separated. */
static const char *subdirs(const char *dir)
{
	static char out[512];
	char names[16][64];
	int n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return ename(errno);
	struct dirent *e;
	while ((e = readdir(d)) && n < 16) {
		char p[512];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(names[n++], sizeof(names[0]), "%s", e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? " " : "", names[i]);
	return n ? out : "(none)";
}

static const char *yes(int c)
{
	return c ? "yes" : "no";
}

/* Whether text (cgroup.procs') lists pid. */
static int lists(const char *t, pid_t pid)
{
	char want[24];
	snprintf(want, sizeof(want), "%d|", (int)pid);
	for (const char *p = t; (p = strstr(p, want)); p++)
		if (p == t || p[-1] == '|')
			return 1;
	return 0;
}

/* In CG/a, inside a new namespace: a cgroup2 mount shows CG/a as its root. */
static int mount_in_ns(void)
{
	struct stat m, a, up, tmp;
	if (put(CG "/a/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP))
		return 2;
	printf("ns mount: %s\n", res(mount("none", MNT, "cgroup2", 0, "")));
	printf("  /proc/self/cgroup %s\n", text("/proc/self/cgroup"));
	printf("  directories: %s\n", subdirs(MNT));
	printf("  root's inode is a's: %s\n",
	       yes(stat(MNT, &m) == 0 && stat(CG "/a", &a) == 0 && m.st_ino == a.st_ino));
	printf("  cgroup.type (no root's file): %s\n", text(MNT "/cgroup.type"));
	printf("  cgroup.procs lists self: %s\n", yes(lists(text(MNT "/cgroup.procs"), getpid())));
	printf("  c (a's sibling): %s\n", access(MNT "/c", F_OK) == 0 ? "0" : ename(errno));
	printf("  .. is the mount point's parent: %s\n",
	       yes(stat(MNT "/..", &up) == 0 && stat("/tmp", &tmp) == 0 && up.st_ino == tmp.st_ino &&
		   up.st_dev == tmp.st_dev));
	printf("  b/../cgroup.type: %s\n", text(MNT "/b/../cgroup.type"));
	printf("  mkdir x: %s", res(mkdir(MNT "/x", 0755)));
	printf(", seen as a/x: %s", yes(stat(CG "/a/x", &a) == 0 && S_ISDIR(a.st_mode)));
	printf(", rmdir x: %s\n", res(rmdir(MNT "/x")));
	printf("  rmdir of the mount: %s\n", res(rmdir(MNT)));
	printf("  into b: %s", ename(put(MNT "/b/cgroup.procs", "0")));
	printf(", /proc/self/cgroup %s", text("/proc/self/cgroup"));
	printf(", a/b lists self: %s", yes(lists(text(CG "/a/b/cgroup.procs"), getpid())));
	printf(", back: %s\n", ename(put(MNT "/cgroup.procs", "0")));
	printf("  umount: %s\n", res(umount(MNT)));
	return 0;
}

static void mounts(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(mount_in_ns());
	printf("ns mount child: %d\n", wait_exit(pid));
	printf("initial mount: %s\n", res(mount("none", MNT, "cgroup2", 0, "")));
	printf("  directories of cgns_setns: %s\n", subdirs(MNT "/cgns_setns"));
	printf("  cgroup.type: %s\n", text(MNT "/cgroup.type"));
	printf("  umount: %s\n", res(umount(MNT)));
}

/* The link and the descriptors of the caller's own namespace. */
static void links(void)
{
	struct stat l, s, f;
	char self[128];
	snprintf(self, sizeof(self), "%s", link_of("/proc/self/ns/cgroup"));
	printf("self link: %s\n", self);
	printf("pid 1's link: %s\n", link_of("/proc/1/ns/cgroup"));
	char tl[64];
	snprintf(tl, sizeof(tl), "/proc/self/task/%d/ns/cgroup", (int)getpid());
	printf("the main thread's link is the process's: %s\n", yes(strcmp(link_of(tl), self) == 0));
	int lr = lstat("/proc/self/ns/cgroup", &l);
	printf("lstat: %s, link %s mode %o\n", res(lr), yes(S_ISLNK(l.st_mode)), (unsigned)(l.st_mode & 07777));
	int fd = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	printf("open: %s\n", fd >= 0 ? "ok" : ename(errno));
	int sr = stat("/proc/self/ns/cgroup", &s), fr = fstat(fd, &f);
	printf("stat %s fstat %s: mode %o, regular %s, inode the link's %s, same as fstat %s, nlink %lu, uid %u, "
	       "dev %u:%u, size %lld, blksize %ld\n",
	       res(sr), res(fr), (unsigned)(f.st_mode & 07777), yes(S_ISREG(f.st_mode)),
	       yes(f.st_ino == ino_in(self)), yes(s.st_ino == f.st_ino && s.st_dev == f.st_dev),
	       (unsigned long)f.st_nlink, (unsigned)f.st_uid, major(f.st_dev), minor(f.st_dev), (long long)f.st_size,
	       (long)f.st_blksize);
	char p[64], b[8];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	printf("fd link: %s\n", link_of(p));
	printf("read: %s", read(fd, b, sizeof(b)) < 0 ? ename(errno) : "data");
	printf(", write: %s", write(fd, "x", 1) < 0 ? ename(errno) : "written");
	printf(", lseek: %s", lseek(fd, 0, SEEK_SET) < 0 ? (errno == ESPIPE ? "ESPIPE" : ename(errno)) : "0");
	printf(", F_GETFL %o", (unsigned)fcntl(fd, F_GETFL));
	struct pollfd pf = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
	int pr = poll(&pf, 1, 0);
	printf(", poll %d revents %#x\n", pr, (unsigned)pf.revents);
	errno = 0;
	printf("open O_NOFOLLOW: %s\n", open("/proc/self/ns/cgroup", O_RDONLY | O_NOFOLLOW) >= 0 ? "ok" : ename(errno));
	printf("ns/cgroup/x: %s\n", access("/proc/self/ns/cgroup/x", F_OK) == 0 ? "0" : ename(errno));
	printf("ns/nope: %s\n", access("/proc/self/ns/nope", F_OK) == 0 ? "0" : ename(errno));
	struct stat d;
	int dr = stat("/proc/self/ns", &d);
	printf("ns dir: %s, directory %s mode %o\n", res(dr), yes(S_ISDIR(d.st_mode)), (unsigned)(d.st_mode & 07777));
	printf("setns into its own: %s\n", res(setns(fd, CLONE_NEWCGROUP)));
	printf("self link still the initial one: %s\n", yes(strcmp(link_of("/proc/self/ns/cgroup"), INIT_LINK) == 0));
	close(fd);
}

/* The errors of setns, before and after a namespace change. */
static void setns_errors(void)
{
	int fd = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	int pipefd[2];
	if (fd < 0 || pipe(pipefd))
		return;
	int file = open("/proc/self/cgroup", O_RDONLY);
	printf("setns(-1, 0): %s\n", res(setns(-1, 0)));
	printf("setns(closed, 0): %s\n", res(setns(1000, 0)));
	printf("setns(ns, CLONE_NEWUTS): %s\n", res(setns(fd, CLONE_NEWUTS)));
	printf("setns(ns, CLONE_NEWNS): %s\n", res(setns(fd, CLONE_NEWNS)));
	printf("setns(ns, 0): %s\n", res(setns(fd, 0)));
	printf("setns(pipe, CLONE_NEWCGROUP): %s\n", res(setns(pipefd[0], CLONE_NEWCGROUP)));
	printf("setns(pipe, 0): %s\n", res(setns(pipefd[0], 0)));
	printf("setns(proc file, CLONE_NEWCGROUP): %s\n", res(setns(file, CLONE_NEWCGROUP)));
	close(pipefd[0]);
	close(pipefd[1]);
	close(file);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) { /* a user: its own link and namespace, not root's */
		if (setuid(65534))
			_exit(2);
		int own = open("/proc/self/ns/cgroup", O_RDONLY);
		printf("user: own link %s, open %s", link_of("/proc/self/ns/cgroup"), own >= 0 ? "ok" : ename(errno));
		printf(", setns(own, CLONE_NEWCGROUP) %s", res(setns(own, CLONE_NEWCGROUP)));
		printf(", setns(own, CLONE_NEWUTS) %s", res(setns(own, CLONE_NEWUTS)));
		printf(", setns(root's, 0) %s", res(setns(fd, 0)));
		printf(", pid 1's link %s", link_of("/proc/1/ns/cgroup"));
		errno = 0;
		printf(", open %s\n", open("/proc/1/ns/cgroup", O_RDONLY) >= 0 ? "ok" : ename(errno));
		fflush(stdout);
		_exit(0);
	}
	wait_exit(pid);
	close(fd);
}

/* A child in a new namespace rooted at CG/a: the parent joins it through
 * /proc/CHILD/ns/cgroup and a pidfd, and comes back. */
static void join(void)
{
	int go[2], ready[2];
	char c = 0;
	if (pipe(go) || pipe(ready))
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (put(CG "/a/cgroup.procs", "0") || unshare(CLONE_NEWCGROUP))
			_exit(2);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(3);
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		return;
	char p[64];
	snprintf(p, sizeof(p), "/proc/%d/ns/cgroup", (int)pid);
	char child[128];
	snprintf(child, sizeof(child), "%s", link_of(p));
	printf("child's link differs: %s, a number: %s\n", yes(strcmp(child, INIT_LINK) != 0), yes(ino_in(child) != 0));
	int self = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC);
	int ns = open(p, O_RDONLY | O_CLOEXEC);
	struct stat st;
	printf("child's fstat inode is its link's: %s\n", yes(fstat(ns, &st) == 0 && st.st_ino == ino_in(child)));
	printf("setns(child's, CLONE_NEWCGROUP): %s\n", res(setns(ns, CLONE_NEWCGROUP)));
	printf("  /proc/self/cgroup %s\n", text("/proc/self/cgroup"));
	printf("  self link is the child's: %s\n", yes(strcmp(link_of("/proc/self/ns/cgroup"), child) == 0));
	snprintf(p, sizeof(p), "/proc/%d/cgroup", (int)pid);
	printf("  the child's cgroup: %s\n", text(p));
	printf("  a mount now: %s", res(mount("none", MNT, "cgroup2", 0, "")));
	printf(", its directories %s", subdirs(MNT));
	printf(", umount %s\n", res(umount(MNT)));
	printf("setns(initial, 0): %s\n", res(setns(self, 0)));
	printf("  /proc/self/cgroup is back: %s\n", yes(strstr(text("/proc/self/cgroup"), "/..") == NULL));
	printf("  self link %s\n", link_of("/proc/self/ns/cgroup"));
	int pfd = pidfd_open(pid, 0);
	printf("pidfd: %s\n", pfd >= 0 ? "ok" : ename(errno));
	printf("setns(pidfd, 0): %s\n", res(setns(pfd, 0)));
	printf("setns(pidfd, CLONE_NEWCGROUP): %s", res(setns(pfd, CLONE_NEWCGROUP)));
	printf(", self link is the child's: %s\n", yes(strcmp(link_of("/proc/self/ns/cgroup"), child) == 0));
	printf("setns(initial, CLONE_NEWCGROUP): %s\n", res(setns(self, CLONE_NEWCGROUP)));
	if (write(go[1], "g", 1) != 1)
		return;
	printf("child: %d\n", wait_exit(pid));
	printf("setns(pidfd of a reaped process, CLONE_NEWCGROUP): %s\n", res(setns(pfd, CLONE_NEWCGROUP)));
	printf("setns(the ended child's ns, 0): %s", res(setns(ns, 0)));
	printf(", self link is the child's: %s", yes(strcmp(link_of("/proc/self/ns/cgroup"), child) == 0));
	printf(", back %s\n", res(setns(self, 0)));
	close(ns);
	close(self);
	close(pfd);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	char home[256];
	snprintf(home, sizeof(home), "%s", text("/proc/self/cgroup"));
	mkdir("/tmp", 01777);
	rmdir(CG "/a/b");
	rmdir(CG "/a");
	rmdir(CG "/c");
	rmdir(CG);
	rmdir(MNT);
	if (mkdir(CG, 0755) || mkdir(CG "/a", 0755) || mkdir(CG "/a/b", 0755) || mkdir(CG "/c", 0755) ||
	    mkdir(MNT, 0755)) {
		printf("mkdir: %s\n", ename(errno));
		return 1;
	}
	/* in CG, so that the views from CG/a are the same wherever it started */
	printf("self into cgns_setns: %s\n", ename(put(CG "/cgroup.procs", "0")));
	mounts();
	links();
	setns_errors();
	join();
	char back[300];
	snprintf(back, sizeof(back), "/sys/fs/cgroup%s", strchr(home, '/'));
	*strrchr(back, '|') = '\0'; /* the newline */
	snprintf(strrchr(back, '\0'), 16, "/cgroup.procs");
	printf("home: %s\n", ename(put(back, "0")));
	int b = rmdir(CG "/a/b"), a = rmdir(CG "/a"), c = rmdir(CG "/c");
	printf("rmdir: %d %d %d %d %d\n", b, a, c, rmdir(CG), rmdir(MNT));
	return 0;
}
