/* Differential test: FIFOs (mkfifo, mkfifoat, mknod) with their errno
 * values: the file's type and mode, open's waits and O_NONBLOCK rules
 * (ENXIO for a writer without a reader), pipe semantics after the opens
 * (end of file, EPIPE with SIGPIPE ignored), poll, unlink while open, the
 * data gone once every end closed, an open interrupted by a signal,
 * mknod's types and privilege, and what fstat and fstatfs of an end show
 * (the FIFO file's inode and file system, kept while an end is open;
 * pipefs for a pipe's) and that fchmod, fchown and futimens of an end
 * change the file. Works in /tmp, or in DIR (argv[1]); "DIR
 * DEV TYPE" first mounts DEV there (the runner's run on an ext2 disk in
 * Arbor) and unmounts it at the end, leaving one FIFO on the disk for
 * e2fsck to look at. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[96];

static const char *in(const char *name)
{
	static char path[2][160];
	static int which;
	which ^= 1;
	snprintf(path[which], sizeof(path[which]), "%s/%s", dir, name);
	return path[which];
}

/* errno's name: the C libraries' strerror texts differ */
static const char *ename(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" }, { ENXIO, "ENXIO" },
		{ EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { EACCES, "EACCES" }, { EEXIST, "EEXIST" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" }, { ESPIPE, "ESPIPE" },
		{ EPIPE, "EPIPE" }, { ENOSYS, "ENOSYS" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	return "another errno";
}

static void report(const char *what, long r)
{
	printf("%-44s %s\n", what, r < 0 ? ename(errno) : "ok");
}

static void got(const char *what, int fd)
{
	char buf[64];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		printf("%-44s %s\n", what, ename(errno));
		return;
	}
	buf[n] = 0;
	printf("%-44s %zd \"%s\"\n", what, n, buf);
}

static void polled(const char *what, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n = poll(&p, 1, 0);
	printf("%-44s %d%s%s%s%s\n", what, n, (p.revents & POLLIN) ? " IN" : "", (p.revents & POLLOUT) ? " OUT" : "",
	       (p.revents & POLLHUP) ? " HUP" : "", (p.revents & POLLERR) ? " ERR" : "");
}

/* fstat of FIFO end fd against stat of its file (path; NULL: unlinked,
 * against *was, the file's stat when it had a name): the same inode,
 * with its attributes now */
static void fstat_end(const char *what, int fd, const char *path, const struct stat *was)
{
	struct stat fs, ps;
	if (fstat(fd, &fs) < 0) {
		printf("%-44s %s\n", what, ename(errno));
		return;
	}
	if (path && stat(path, &ps) < 0) {
		printf("%-44s stat %s\n", what, ename(errno));
		return;
	}
	const struct stat *p = path ? &ps : was;
	printf("%-44s fifo %d mode %o nlink %d size %lld mine %d same ino %d dev %d rdev %d\n", what,
	       S_ISFIFO(fs.st_mode), fs.st_mode & 07777, (int)fs.st_nlink, (long long)fs.st_size,
	       fs.st_uid == geteuid() && fs.st_gid == getegid(), fs.st_ino == p->st_ino, fs.st_dev == p->st_dev,
	       fs.st_rdev == p->st_rdev);
}

/* fstat and fstatfs of a pipe's end: pipefs's own inode, not a file's */
static void pipe_stat(void)
{
	int p[2], q[2];
	struct stat a, b, c, d;
	struct statfs sf;
	time_t now = time(NULL);
	report("pipe", pipe(p));
	report("fstat a pipe's end", fstat(p[0], &a));
	fstat(p[1], &b);
	stat(dir, &d);
	printf("pipe: fifo %d mode %o size %lld nlink %d mine %d both ends one inode %d not the directory's device %d\n",
	       S_ISFIFO(a.st_mode), a.st_mode & 07777, (long long)a.st_size, (int)a.st_nlink,
	       a.st_uid == geteuid() && a.st_gid == getegid(), a.st_ino == b.st_ino, a.st_dev != d.st_dev);
	pipe(q);
	fstat(q[0], &c);
	printf("another pipe: another inode %d, the same device %d; made now %d\n", c.st_ino != a.st_ino,
	       c.st_dev == a.st_dev, a.st_mtime >= now - 5 && a.st_mtime <= now + 5 && a.st_ctime == a.st_mtime);
	close(q[0]);
	close(q[1]);
	report("fstatfs a pipe's end", fstatfs(p[0], &sf));
	printf("pipefs %d\n", sf.f_type == 0x50495045);
	close(p[0]);
	close(p[1]);
}

static void on_usr1(int s)
{
	(void)s;
}

static void types(void)
{
	struct stat st;
	report("mkfifo", mkfifo(in("f"), 0666));
	report("stat", stat(in("f"), &st));
	printf("fifo %d mode %o size %lld nlink %d\n", S_ISFIFO(st.st_mode), st.st_mode & 07777,
	       (long long)st.st_size, (int)st.st_nlink);
	report("lstat", lstat(in("f"), &st));
	printf("fifo %d\n", S_ISFIFO(st.st_mode));
	report("mkfifo again", mkfifo(in("f"), 0666));
	report("mkfifo in a missing directory", mkfifo(in("none/f"), 0666));
	report("mkfifo on a trailing slash", mkfifo(in("g/"), 0666));
	report("mknod S_IFIFO", mknod(in("n"), S_IFIFO | 0600, 0));
	report("stat", stat(in("n"), &st));
	printf("fifo %d mode %o\n", S_ISFIFO(st.st_mode), st.st_mode & 07777);
	report("mknod type 0 (a regular file)", mknod(in("r"), 0640, 0));
	report("stat", stat(in("r"), &st));
	printf("regular %d mode %o size %lld\n", S_ISREG(st.st_mode), st.st_mode & 07777, (long long)st.st_size);
	report("mknod S_IFDIR", mknod(in("d"), S_IFDIR | 0755, 0));
	report("mknod a bad type", mknod(in("b"), 0150000 | 0644, 0));
	report("mknod S_IFIFO existing", mknod(in("n"), S_IFIFO | 0600, 0));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	report("mkfifoat", mkfifoat(dfd, "at", 0600));
	report("mknodat S_IFIFO", mknodat(dfd, "at2", S_IFIFO | 0600, 0));
	report("fstatat", fstatat(dfd, "at", &st, 0));
	printf("fifo %d\n", S_ISFIFO(st.st_mode));
	close(dfd);
	report("unlink at", unlink(in("at")));
	report("unlink at2", unlink(in("at2")));
	report("unlink n", unlink(in("n")));
	report("unlink r", unlink(in("r")));
	/* device nodes: root's alone (CAP_MKNOD); as nobody here, in a
	 * directory anyone may write */
	report("mkdir open", mkdir(in("open"), 0777));
	chmod(in("open"), 0777);
	pid_t c = fork();
	if (c == 0) {
		if (geteuid() == 0 && setuid(65534) < 0)
			_exit(3);
		errno = 0;
		int r = mknod(in("open/cdev"), S_IFCHR | 0600, (1 << 8 | 3));
		int e = errno;
		int r2 = mknod(in("open/bdev"), S_IFBLK | 0600, (7 << 8));
		_exit(r == -1 && e == EPERM && r2 == -1 && errno == EPERM ? 0 : 4);
	}
	int status;
	waitpid(c, &status, 0);
	printf("mknod of device nodes unprivileged: EPERM %d\n", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	report("rmdir open", rmdir(in("open")));
}

static void nonblocking(void)
{
	int w = open(in("f"), O_WRONLY | O_NONBLOCK);
	report("open O_WRONLY|O_NONBLOCK, no reader", w);
	int r = open(in("f"), O_RDONLY | O_NONBLOCK);
	report("open O_RDONLY|O_NONBLOCK", r);
	got("read, no writer ever", r);
	polled("poll the reader, no writer ever", r, POLLIN);
	w = open(in("f"), O_WRONLY | O_NONBLOCK);
	report("open O_WRONLY|O_NONBLOCK with a reader", w);
	struct stat st;
	report("fstat the reader", fstat(r, &st));
	printf("fifo %d\n", S_ISFIFO(st.st_mode));
	fstat_end("fstat the reader is the file's", r, in("f"), NULL);
	fstat_end("fstat the writer is the file's", w, in("f"), NULL);
	report("chmod the file 0600", chmod(in("f"), 0600));
	fstat_end("fstat follows the chmod", r, in("f"), NULL);
	report("link the file", link(in("f"), in("f2")));
	fstat_end("fstat sees two links", w, in("f"), NULL);
	report("unlink the link", unlink(in("f2")));
	fstat_end("one again", w, in("f"), NULL);
	report("fchmod the writer 0640", fchmod(w, 0640));
	fstat_end("the file's mode follows", r, in("f"), NULL);
	report("fchown the reader to my own ids", fchown(r, geteuid(), getegid()));
	struct timespec times[2] = { { 1000000000, 0 }, { 1200000000, 500 } };
	report("futimens the reader", futimens(r, times));
	struct stat ts;
	stat(in("f"), &ts);
	printf("the file's atime %lld mtime %lld.%09ld\n", (long long)ts.st_atime, (long long)ts.st_mtime,
	       ts.st_mtim.tv_nsec);
	chmod(in("f"), 0644);
	struct statfs sf, df;
	report("fstatfs the reader", fstatfs(r, &sf));
	statfs(dir, &df);
	printf("the file's file system %d (not pipefs %d)\n", sf.f_type == df.f_type, sf.f_type != 0x50495045);
	report("lseek", lseek(r, 0, SEEK_SET));
	got("read, a writer, no data", r);
	polled("poll the writer", w, POLLOUT);
	report("write hello", write(w, "hello", 5));
	polled("poll the reader", r, POLLIN);
	got("read", r);
	report("read on the writer", read(w, (char[4]){ 0 }, 4));
	report("write on the reader", write(r, "x", 1));
	report("write bye", write(w, "bye", 3));
	report("close the writer", close(w));
	polled("poll the reader, writer gone", r, POLLIN);
	got("read what was left", r);
	got("read at the end", r);
	/* a writer whose reader is gone: EPIPE (SIGPIPE ignored) */
	w = open(in("f"), O_WRONLY | O_NONBLOCK);
	report("open O_WRONLY|O_NONBLOCK again", w);
	report("close the reader", close(r));
	polled("poll the writer, reader gone", w, POLLOUT);
	signal(SIGPIPE, SIG_IGN);
	report("write, no reader", write(w, "x", 1));
	signal(SIGPIPE, SIG_DFL);
	report("close", close(w));
	/* O_RDWR never waits; the data goes with the last end */
	int rw = open(in("f"), O_RDWR);
	report("open O_RDWR", rw);
	report("write to O_RDWR", write(rw, "kept?", 5));
	report("close it", close(rw));
	r = open(in("f"), O_RDONLY | O_NONBLOCK);
	rw = open(in("f"), O_RDWR);
	got("reopened: the data went with the last end", r);
	report("write", write(rw, "abc", 3));
	got("read on the O_RDONLY end", r);
	close(rw);
	close(r);
}

static void blocking(void)
{
	/* the reader waits for a writer; the writer for a reader */
	pid_t c = fork();
	if (c == 0) { /* "." in the path: through the VFS server's walk */
		int w = open(in("./f"), O_WRONLY);
		if (w < 0)
			_exit(5);
		dprintf(w, "from the child");
		_exit(0);
	}
	int r = open(in("f"), O_RDONLY);
	report("open O_RDONLY waits for the writer", r);
	fstat_end("fstat the end opened through the walk", r, in("f"), NULL);
	char buf[64];
	size_t n = 0;
	ssize_t k;
	while ((k = read(r, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)k;
	buf[n] = 0;
	printf("read until the end: \"%s\"\n", buf);
	int status;
	waitpid(c, &status, 0);
	printf("child exit %d\n", WEXITSTATUS(status));
	close(r);
	c = fork();
	if (c == 0) {
		int rr = open(in("f"), O_RDONLY);
		if (rr < 0)
			_exit(6);
		char b[16];
		ssize_t m = read(rr, b, sizeof(b));
		_exit(m == 2 && memcmp(b, "ok", 2) == 0 ? 0 : 7);
	}
	int w = open(in("f"), O_WRONLY);
	report("open O_WRONLY waits for the reader", w);
	report("write ok", write(w, "ok", 2));
	close(w);
	waitpid(c, &status, 0);
	printf("child exit %d\n", WEXITSTATUS(status));
	/* a signal's handler (no SA_RESTART) ends the wait: EINTR */
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	pid_t me = getpid();
	c = fork();
	if (c == 0) {
		for (;;) {
			struct timespec t = { 0, 50000000 };
			nanosleep(&t, NULL);
			kill(me, SIGUSR1);
		}
	}
	r = open(in("f"), O_RDONLY);
	report("open O_RDONLY, a signal meanwhile", r);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	signal(SIGUSR1, SIG_DFL);
}

static void unlinked(void)
{
	int r = open(in("f"), O_RDONLY | O_NONBLOCK);
	int w = open(in("f"), O_WRONLY);
	report("both ends open", r < 0 || w < 0 ? -1 : 0);
	struct stat was;
	stat(in("f"), &was);
	report("unlink while open", unlink(in("f")));
	fstat_end("fstat after unlink: the same inode, no link", r, NULL, &was);
	struct stat st;
	report("stat after unlink", stat(in("f"), &st));
	report("write after unlink", write(w, "still", 5));
	got("read after unlink", r);
	report("mkfifo the name again", mkfifo(in("f"), 0600));
	int r2 = open(in("f"), O_RDONLY | O_NONBLOCK);
	report("write to the old one", write(w, "old", 3));
	got("the new one is another FIFO", r2);
	got("the old one has it", r);
	fstat_end("fstat the new one's end: the new file", r2, in("f"), NULL);
	fstat_end("fstat the old one's end: not the new file", r, in("f"), NULL);
	close(r);
	close(w);
	close(r2);
	report("unlink", unlink(in("f")));
}

int main(int argc, char **argv)
{
	const char *base = argc > 1 ? argv[1] : "/tmp";
	if (argc > 3) {
		mkdir(base, 0755);
		if (mount(argv[2], base, argv[3], 0, "")) {
			perror("mount");
			return 2;
		}
	}
	umask(022);
	snprintf(dir, sizeof(dir), "%s/arbor-fifo-%d", base, (int)getpid());
	report("mkdir", mkdir(dir, 0755));
	types();
	nonblocking();
	blocking();
	unlinked();
	pipe_stat();
	if (argc > 1) { /* one left on the disk for e2fsck */
		report("mkfifo kept", mkfifo(in("kept"), 0640));
	} else {
		report("rmdir", rmdir(dir));
	}
	if (argc > 3 && umount(base)) {
		perror("umount");
		return 2;
	}
	return 0;
}
