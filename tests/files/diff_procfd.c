/* Differential test: /proc/PID/fd and /proc/PID/fdinfo. readlink of each
 * kind of descriptor (a file, a directory, an unlinked file's
 * " (deleted)", an O_TMPFILE's "#INO (deleted)", pipe:[INO], socket:[INO],
 * the anon_inode names), lstat of a link (its mode from the access mode,
 * size 64) and stat through it (the file itself), the listing; open
 * through a link (a new open file description of the same file, with new
 * flags and its own offset, an unlinked file's too; access and chmod
 * through a link, a name in a directory's link, ENOTDIR past a pipe's;
 * a pipe's read end
 * reopened for writing; ENXIO for a socket and an eventfd), linkat of an
 * O_TMPFILE through /proc/self/fd as uid 1000 (AT_SYMLINK_FOLLOW; ENOENT
 * for an O_EXCL one); the errors: ENOENT for a closed descriptor and a
 * reaped process, ELOOP (O_NOFOLLOW), ENOTDIR (a file's link with more
 * path), EACCES for another user's process (as uid 1000). Inode numbers
 * are printed as INO, after checking them against fstat. Run as root. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIRP "/tmp/procfd.d"

static const char *name(int e)
{
	switch (e) {
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case ENXIO: return "ENXIO";
	case ELOOP: return "ELOOP";
	case EPERM: return "EPERM";
	default: return "other";
	}
}

static void show(const char *what, long r)
{
	printf("%s: %s\n", what, r >= 0 ? "ok" : name(errno));
}

/* The link's text of descriptor fd of process pid (0: self) with digits
 * after "[" or "#" replaced by INO, checked against ino when not 0. */
static void link_of(const char *what, int pid, int fd, unsigned long long ino)
{
	char path[64], buf[512], out[512];
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	else
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0) {
		printf("%s: readlink %s\n", what, name(errno));
		return;
	}
	buf[n] = '\0';
	size_t o = 0;
	unsigned long long got = 0;
	for (ssize_t i = 0; i < n && o < sizeof(out) - 4; i++) {
		out[o++] = buf[i];
		if ((buf[i] == '[' || buf[i] == '#') && i + 1 < n && buf[i + 1] >= '0' && buf[i + 1] <= '9') {
			got = strtoull(buf + i + 1, NULL, 10);
			while (i + 1 < n && buf[i + 1] >= '0' && buf[i + 1] <= '9')
				i++;
			memcpy(out + o, "INO", 3);
			o += 3;
		}
	}
	out[o] = '\0';
	printf("%s: %s%s\n", what, out, ino && got != ino ? " (not fstat's inode)" : "");
}

static unsigned long long ino_of(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

static void lmode(const char *what, int fd)
{
	char path[64];
	struct stat ls, st, fs;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (lstat(path, &ls) < 0 || stat(path, &st) < 0 || fstat(fd, &fs) < 0) {
		printf("%s: %s\n", what, name(errno));
		return;
	}
	printf("%s: lstat %s %04o size %lld; stat the file's: %s\n", what, S_ISLNK(ls.st_mode) ? "link" : "not a link",
	       (unsigned)(ls.st_mode & 07777), (long long)ls.st_size,
	       st.st_ino == fs.st_ino && st.st_dev == fs.st_dev && st.st_mode == fs.st_mode && st.st_size == fs.st_size ?
	       "yes" : "no");
}

/* /proc/self/fdinfo/fd's pos and flags lines (mnt_id and ino differ). */
static void fdinfo(const char *what, int fd)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	int fi = open(path, O_RDONLY);
	ssize_t got = fi < 0 ? -1 : read(fi, buf, sizeof(buf) - 1);
	buf[got > 0 ? got : 0] = '\0';
	close(fi);
	char *pos = strstr(buf, "pos:"), *fl = strstr(buf, "flags:");
	printf("fdinfo %s: %.*s, %.*s\n", what, pos ? (int)strcspn(pos, "\n") : 4, pos ? pos : "none",
	       fl ? (int)strcspn(fl, "\n") : 4, fl ? fl : "none");
}

static char inherited[256];	/* open when main began (the runner's) */

static void kinds(void)
{
	int f = open(DIRP "/file", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(f, "hello", 5);
	int r = open(DIRP "/file", O_RDONLY), w = open(DIRP "/file", O_WRONLY), d = open(DIRP, O_RDONLY | O_DIRECTORY);
	int p[2], s[2];
	pipe(p);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	link_of("file rdwr", 0, f, 0);
	link_of("directory", 0, d, 0);
	link_of("pipe read end", 0, p[0], ino_of(p[0]));
	link_of("pipe write end", 0, p[1], ino_of(p[0]));
	link_of("socket", 0, s[0], ino_of(s[0]));
	lmode("file O_RDWR", f);
	lmode("file O_RDONLY", r);
	lmode("file O_WRONLY", w);
	lmode("directory", d);
	lmode("pipe read end", p[0]);
	lmode("pipe write end", p[1]);
	int ev = eventfd(0, 0), ep = epoll_create1(0), tf = timerfd_create(CLOCK_MONOTONIC, 0), in = inotify_init1(0);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	int sf = signalfd(-1, &set, 0);
	link_of("eventfd", 0, ev, 0);
	link_of("epoll", 0, ep, 0);
	link_of("timerfd", 0, tf, 0);
	link_of("signalfd", 0, sf, 0);
	link_of("inotify", 0, in, 0);

	/* the listing: exactly the descriptors open (those above 2) */
	DIR *dir = opendir("/proc/self/fd");
	int listed[256] = { 0 }, dfd = dir ? dirfd(dir) : -1;
	struct dirent *e;
	while (dir && (e = readdir(dir)))
		if (e->d_name[0] != '.' && atoi(e->d_name) < 256)
			listed[atoi(e->d_name)] = e->d_type == DT_LNK ? 1 : 2;
	int want[] = { f, r, w, d, p[0], p[1], s[0], s[1], ev, ep, tf, sf, in, dfd };
	int ok = 1, n = 0;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ok &= listed[want[i]] == 1;
	for (int i = 3; i < 256; i++)
		n += listed[i] != 0 && !inherited[i];
	printf("listing: every descriptor a link: %s; %d above 2 (want %zu)\n", ok ? "yes" : "no", n,
	       sizeof(want) / sizeof(want[0]));
	if (dir)
		closedir(dir);

	/* fdinfo */
	lseek(f, 3, SEEK_SET);
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", f);
	ssize_t got;
	fdinfo("file O_RDWR at 3", f);
	int pc[2];
	pipe2(pc, O_CLOEXEC | O_NONBLOCK);
	fdinfo("pipe2 O_CLOEXEC|O_NONBLOCK read end", pc[0]);
	int dn = open("/dev/null", O_WRONLY | O_APPEND);
	fdinfo("/dev/null O_WRONLY|O_APPEND", dn);
	link_of("/dev/null", 0, dn, 0);
	lmode("/dev/null", dn);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", dn);
	int dn2 = open(path, O_RDONLY);
	show("reopen /dev/null O_RDONLY", dn2);
	printf("  reads %zd bytes, flags O_RDONLY: %s\n", dn2 < 0 ? (ssize_t)-1 : read(dn2, buf, 4),
	       dn2 >= 0 && (fcntl(dn2, F_GETFL) & O_ACCMODE) == O_RDONLY ? "yes" : "no");
	close(dn2);
	close(dn);
	close(pc[0]);
	close(pc[1]);

	/* open through the link: a new description of the same file */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", r);
	int again = open(path, O_RDWR);
	show("reopen O_RDONLY descriptor O_RDWR", again);
	if (again >= 0) {
		printf("  flags O_RDWR: %s; same inode: %s; own offset: %s\n",
		       (fcntl(again, F_GETFL) & O_ACCMODE) == O_RDWR ? "yes" : "no",
		       ino_of(again) == ino_of(r) ? "yes" : "no", lseek(again, 0, SEEK_CUR) == 0 ? "yes" : "no");
		printf("  write through it seen by the old: %s\n",
		       pwrite(again, "J", 1, 0) == 1 && pread(r, buf, 5, 0) == 5 && !memcmp(buf, "Jello", 5) ? "yes" : "no");
		close(again);
	}
	show("reopen O_NOFOLLOW", open(path, O_RDONLY | O_NOFOLLOW));
	show("access through a link", access(path, R_OK | W_OK));
	struct stat cs;
	show("chmod through a link", chmod(path, 0640));
	printf("  the file's mode: %04o\n", fstat(r, &cs) == 0 ? (unsigned)(cs.st_mode & 07777) : 0u);
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d/file", d);
	show("stat a name in a directory's link", stat(buf, &cs));
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d/x", p[0]);
	show("stat past a pipe's link", stat(buf, &cs));
	snprintf(buf, sizeof(buf), "%s/x", path);
	struct stat st;
	show("stat link/x of a file", stat(buf, &st));
	unlink(DIRP "/file");
	link_of("unlinked file", 0, f, 0);
	again = open(path, O_RDONLY);
	show("reopen an unlinked file", again);
	if (again >= 0) {
		got = read(again, buf, 5);
		printf("  reads %.*s\n", (int)(got > 0 ? got : 0), buf);
		close(again);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	again = open(path, O_WRONLY);
	show("reopen a pipe's read end O_WRONLY", again);
	if (again >= 0) {
		printf("  write, read from the pipe: %s\n",
		       write(again, "pq", 2) == 2 && read(p[0], buf, 2) == 2 && !memcmp(buf, "pq", 2) ? "yes" : "no");
		close(again);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", s[0]);
	show("reopen a socket", open(path, O_RDWR));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", ev);
	show("reopen an eventfd", open(path, O_RDWR));

	int closed = d;
	close(d);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", closed);
	show("readlink a closed descriptor", readlink(path, buf, sizeof(buf)));
	show("stat a closed descriptor", stat(path, &st));
	show("open a closed descriptor", open(path, O_RDONLY));
	show("readlink fd/01 (a leading zero)", readlink("/proc/self/fd/01", buf, sizeof(buf)));
	show("readlink of fd (a directory)", readlink("/proc/self/fd", buf, sizeof(buf)));
	int all[] = { f, r, w, p[0], p[1], s[0], s[1], ev, ep, tf, sf, in };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		close(all[i]);
}

/* As uid 1000: an O_TMPFILE named through /proc/self/fd; another user's
 * process's descriptors refused. */
static void as_user(int root_pid)
{
	char path[64], buf[256];
	if (setgid(1000) < 0 || setuid(1000) < 0) {
		printf("setuid: %s\n", name(errno));
		return;
	}
	int t = open(DIRP, O_TMPFILE | O_RDWR, 0600);
	show("uid 1000: O_TMPFILE", t);
	if (t < 0)
		return;
	write(t, "tmp", 3);
	link_of("uid 1000: O_TMPFILE", 0, t, ino_of(t));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", t);
	show("uid 1000: linkat AT_SYMLINK_FOLLOW", linkat(AT_FDCWD, path, AT_FDCWD, DIRP "/named", AT_SYMLINK_FOLLOW));
	struct stat st;
	int n = open(DIRP "/named", O_RDONLY);
	ssize_t got = n < 0 ? -1 : read(n, buf, sizeof(buf));
	printf("uid 1000: named: nlink %d, reads %.*s, same inode %s\n", stat(DIRP "/named", &st) == 0 ? (int)st.st_nlink : -1,
	       (int)(got > 0 ? got : 0), buf, ino_of(n) == ino_of(t) ? "yes" : "no");
	link_of("uid 1000: O_TMPFILE once named", 0, t, 0);
	close(n);
	close(t);
	t = open(DIRP, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", t);
	show("uid 1000: linkat an O_EXCL O_TMPFILE", linkat(AT_FDCWD, path, AT_FDCWD, DIRP "/never", AT_SYMLINK_FOLLOW));
	close(t);
	snprintf(path, sizeof(path), "/proc/%d/fd", root_pid);
	show("uid 1000: opendir root's fd", opendir(path) ? 0 : -1);
	snprintf(path, sizeof(path), "/proc/%d/fd/1", root_pid);
	show("uid 1000: readlink root's fd/1", readlink(path, buf, sizeof(buf)));
	show("uid 1000: stat root's fd/1", stat(path, &st));
	show("uid 1000: open root's fd/1", open(path, O_RDONLY));
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/1", root_pid);
	show("uid 1000: open root's fdinfo/1", open(path, O_RDONLY));
	show("uid 1000: readlink its own fd/1", readlink("/proc/self/fd/1", buf, sizeof(buf)));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 3; i < 256; i++)
		inherited[i] = fcntl(i, F_GETFD) >= 0;
	mkdir(DIRP, 0777);
	chmod(DIRP, 0777);
	kinds();
	int root = getpid();
	pid_t c = fork();
	if (c == 0) {
		as_user(root);
		_exit(0);
	}
	waitpid(c, NULL, 0);

	/* a process that ended: its directory goes */
	int p[2];
	pipe(p);
	c = fork();
	if (c == 0) {
		char b;
		read(p[0], &b, 1);
		_exit(0);
	}
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", c, p[0]);
	link_of("child's pipe end", c, p[0], ino_of(p[0]));
	write(p[1], "x", 1);
	waitpid(c, NULL, 0);
	show("readlink after it was reaped", readlink(path, buf, sizeof(buf)));
	unlink(DIRP "/named");
	rmdir(DIRP);
	return 0;
}
