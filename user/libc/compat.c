/* The smaller functions of POSIX, XSI and the usual BSD/GNU extensions
 * that newlib's headers declare and its build leaves to the system:
 * path names (basename, dirname), the host's and the process's identity
 * (gethostname, getlogin, issetugid, ...), descriptor variants (dup3,
 * pipe2), the older time interfaces (utimes, ftime), each over the
 * port's calls, as glibc builds them. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timeb.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "abi/uts.h"
#include "arbor_sys.h"

/* <libgen.h>'s basename (symbol "basename", POSIX): the last component,
 * trailing slashes removed in place; "/" for "/", "." for NULL or "". */
char *__xpg_basename(char *path) __asm__("basename");
char *__xpg_basename(char *path)
{
	if (!path || !*path)
		return ".";
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = 0;
	if (n == 1 && path[0] == '/')
		return path;
	char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* <string.h>'s GNU basename (symbol "__gnu_basename"): what follows the
 * last '/', never modifying the string ("" for "dir/"). */
char *__gnu_basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return (char *)(s ? s + 1 : path);
}

/* POSIX dirname: the parent of the last component, in place. */
char *dirname(char *path)
{
	if (!path || !*path)
		return ".";
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n == 0)
		return ".";
	while (n > 1 && path[n - 1] == '/')
		n--;
	path[n] = 0;
	return path;
}

/* newlib's name for wait (<sys/wait.h>). */
pid_t _wait(int *status)
{
	return wait(status);
}

/* The controlling terminal's name, always /dev/tty (devfs), as glibc. */
char *ctermid(char *s)
{
	static char buf[L_ctermid];
	char *d = s ? s : buf;
	strcpy(d, "/dev/tty");
	return d;
}

/* The effective user's name (legacy SUSv2): "" when it has none. */
char *cuserid(char *s)
{
	static char buf[L_cuserid];
	struct passwd *pw = getpwuid(geteuid());
	char *d = s ? s : buf;
	if (!pw) {
		d[0] = 0;
		return s ? d : NULL;
	}
	snprintf(d, L_cuserid, "%s", pw->pw_name);
	return d;
}

/* BSD daemon: into the background, a new session, / and /dev/null
 * unless told not to. */
int daemon(int nochdir, int noclose)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0)
		_exit(0);
	if (setsid() < 0)
		return -1;
	if (!nochdir && chdir("/") < 0)
		return -1;
	if (!noclose) {
		int fd = open("/dev/null", O_RDWR);
		if (fd < 0)
			return -1;
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	return 0;
}

/* Linux dup3: dup2 with O_CLOEXEC given to the new descriptor at once
 * (the kernel's handle_dup2 takes the flag); EINVAL for the same
 * descriptor or another flag. */
int dup3(int fd, int target, int flags)
{
	if (fd == target || (flags & ~O_CLOEXEC))
		return (int)__sys_ret(-EINVAL);
	if (target < 0 || target >= (int)sysconf(_SC_OPEN_MAX))
		return (int)__sys_ret(-EBADF);
	return (int)__sys_ret(sys_handle_dup2(fd, target, (flags & O_CLOEXEC) ? HANDLE_CLOEXEC : 0));
}

/* Linux pipe2: a pipe with O_CLOEXEC and O_NONBLOCK set on both ends
 * before it is returned (set after the kernel makes it: a fork+exec in
 * another thread at that instant could still inherit the ends). */
int pipe2(int fds[2], int flags)
{
	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return (int)__sys_ret(-EINVAL);
	int p[2];
	if (pipe(p) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		if (((flags & O_CLOEXEC) && fcntl(p[i], F_SETFD, FD_CLOEXEC) < 0) ||
		    ((flags & O_NONBLOCK) && fcntl(p[i], F_SETFL, O_NONBLOCK) < 0)) {
			int e = errno;
			close(p[0]);
			close(p[1]);
			errno = e;
			return -1;
		}
	}
	fds[0] = p[0];
	fds[1] = p[1];
	return 0;
}

/* access with the effective ids (GNU). */
int euidaccess(const char *path, int mode)
{
	return faccessat(AT_FDCWD, path, mode, AT_EACCESS);
}

int eaccess(const char *path, int mode)
{
	return euidaccess(path, mode);
}

#define COMPAT_MAX_ARGS 256

/* newlib's execlpe: execlp with an environment after the NULL. */
int execlpe(const char *file, const char *arg0, ...)
{
	char *argv[COMPAT_MAX_ARGS + 1];
	va_list ap;
	va_start(ap, arg0);
	int n = 0;
	for (const char *a = arg0; a; a = va_arg(ap, const char *)) {
		if (n == COMPAT_MAX_ARGS) {
			va_end(ap);
			errno = E2BIG;
			return -1;
		}
		argv[n++] = (char *)a;
	}
	argv[n] = NULL;
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return execvpe(file, argv, envp);
}

/* Legacy ftime: the real-time clock in seconds and milliseconds; no time
 * zone is kept (UTC), as on a Linux system without one. */
int ftime(struct timeb *tb)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return -1;
	tb->time = ts.tv_sec;
	tb->millitm = (unsigned short)(ts.tv_nsec / 1000000);
	tb->timezone = 0;
	tb->dstflag = 0;
	return 0;
}

/* The timeval pairs of utimes & co. as utimensat's timespecs; NULL is
 * "now". EINVAL for a microsecond field out of range. */
static int tv_to_ts(const struct timeval tv[2], struct timespec ts[2])
{
	for (int i = 0; i < 2; i++) {
		if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000) {
			errno = EINVAL;
			return -1;
		}
		ts[i].tv_sec = tv[i].tv_sec;
		ts[i].tv_nsec = tv[i].tv_usec * 1000;
	}
	return 0;
}

int futimesat(int dirfd, const char *path, const struct timeval tv[2])
{
	struct timespec ts[2];
	if (tv && tv_to_ts(tv, ts) < 0)
		return -1;
	return utimensat(dirfd, path, tv ? ts : NULL, 0);
}

int utimes(const char *path, const struct timeval *tv)
{
	return futimesat(AT_FDCWD, path, tv);
}

int lutimes(const char *path, const struct timeval *tv)
{
	struct timespec ts[2];
	if (tv && tv_to_ts(tv, ts) < 0)
		return -1;
	return utimensat(AT_FDCWD, path, tv ? ts : NULL, AT_SYMLINK_NOFOLLOW);
}

int futimes(int fd, const struct timeval *tv)
{
	struct timespec ts[2];
	if (tv && tv_to_ts(tv, ts) < 0)
		return -1;
	return futimens(fd, tv ? ts : NULL);
}

/* GNU: the working directory in malloc'd memory ($PWD when it names the
 * same directory, as glibc). */
char *get_current_dir_name(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;
	if (pwd && stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return strdup(pwd);
	return getcwd(NULL, 0);
}

/* Legacy getwd: buf holds at least PATH_MAX bytes; on failure it holds
 * the error's text. */
char *getwd(char *buf)
{
	if (!buf) {
		errno = EINVAL;
		return NULL;
	}
	if (getcwd(buf, PATH_MAX))
		return buf;
	snprintf(buf, PATH_MAX, "%s", strerror(errno));
	return NULL;
}

int getdtablesize(void)
{
	return (int)sysconf(_SC_OPEN_MAX);
}

int getpagesize(void)
{
	return (int)sysconf(_SC_PAGESIZE);
}

/* The node name uname reports; ENAMETOOLONG when len cannot hold it and
 * its terminator, as glibc. */
int gethostname(char *name, size_t len)
{
	struct utsname u;
	if (uname(&u) < 0)
		return -1;
	size_t n = strlen(u.nodename) + 1;
	if (n > len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(name, u.nodename, n);
	return 0;
}

/* sethostname(2): root's; len at most HOST_NAME_MAX (64), else EINVAL,
 * as glibc passes len on to Linux (as an int: a len past INT_MAX wraps as
 * there). */
int sethostname(const char *name, size_t len)
{
	/* LAB 01 BEGIN */
	return (int)__sys_ret(sys_hostname(HOSTNAME_SET, (char *)name, (int)len));
	/* LAB 01 STUB
	(void)name;
	(void)len;
	errno = ENOSYS;
	return -1;
	LAB 01 END */
}

/* /etc/hostid's four bytes, as glibc; 0 without the file (glibc then
 * derives one from the host's address, and Arbor has no network). */
long gethostid(void)
{
	int fd = open("/etc/hostid", O_RDONLY | O_CLOEXEC);
	int32_t id = 0;
	if (fd >= 0) {
		if (read(fd, &id, sizeof(id)) != (ssize_t)sizeof(id))
			id = 0;
		close(fd);
	}
	return (long)id;
}

/* The login name: $LOGNAME, which the console's login shell sets (as
 * musl; glibc reads utmp, which Arbor does not keep). ENXIO without one. */
char *getlogin(void)
{
	char *n = getenv("LOGNAME");
	if (!n || !*n) {
		errno = ENXIO;
		return NULL;
	}
	return n;
}

int getlogin_r(char *buf, size_t len)
{
	char *n = getlogin();
	if (!n)
		return errno;
	if (strlen(n) + 1 > len)
		return ERANGE;
	strcpy(buf, n);
	return 0;
}

pid_t getsid(pid_t pid)
{
	return (pid_t)__sys_ret(sys_getsid(pid));
}

/* Whether the process's ids differ from what it was started with: real
 * and effective ids apart (Arbor's exec has no set-id bits, so only a
 * seteuid/setegid of the process itself makes them differ). */
int issetugid(void)
{
	return getuid() != geteuid() || getgid() != getegid();
}

char *secure_getenv(const char *name)
{
	return issetugid() ? NULL : getenv(name);
}

/* XSI setpgrp: setpgid(0, 0). */
pid_t setpgrp(void)
{
	return setpgid(0, 0) < 0 ? -1 : getpgrp();
}

/* vfork as fork (which POSIX allowed and glibc once did): the child has
 * its own copy of memory, so every use correct for vfork is correct; and
 * with vfork's other promise, as Linux: the parent is suspended until the
 * child calls execve or ends. The child alone holds the write end of a
 * close-on-exec pipe, which its execve or end closes: the parent's read
 * then sees end of file. (Linux 6.1's test_cgfreezer_vfork counts both
 * processes: with the parent gone at once it raced.) Without a descriptor
 * to spare, fork alone. */
pid_t vfork(void)
{
	int p[2], saved = errno;
	if (pipe2(p, O_CLOEXEC) < 0) {
		errno = saved;
		return fork();
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		return 0;
	}
	int fork_errno = errno;
	close(p[1]);
	char c;
	while (pid > 0 && read(p[0], &c, 1) < 0 && errno == EINTR) {
	}
	close(p[0]);
	errno = pid < 0 ? fork_errno : saved;
	return pid;
}

#define GETPASS_MAX 128 /* glibc's PASS_MAX */

/* Legacy getpass: prompt on the controlling terminal (else stderr and
 * stdin), read a line with echo off, put the terminal back. The line,
 * without its newline, in a static buffer; NULL if nothing could be read. */
char *getpass(const char *prompt)
{
	static char buf[GETPASS_MAX + 1];
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC), in = fd >= 0 ? fd : 0, out = fd >= 0 ? fd : 2;
	struct termios old, quiet;
	int restore = tcgetattr(in, &old) == 0;
	if (restore) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet.c_lflag |= ICANON;
		tcsetattr(in, TCSAFLUSH, &quiet);
	}
	if (prompt)
		write(out, prompt, strlen(prompt));
	size_t n = 0;
	char c;
	ssize_t r;
	while ((r = read(in, &c, 1)) == 1 && c != '\n')
		if (n < GETPASS_MAX)
			buf[n++] = c;
	buf[n] = 0;
	if (restore) {
		tcsetattr(in, TCSAFLUSH, &old);
		write(out, "\n", 1);
	}
	if (fd >= 0)
		close(fd);
	return r < 0 && n == 0 ? NULL : buf;
}
