/* The *at calls: a relative path with a directory descriptor resolves
 * from that directory. The file system that holds the directory tells
 * its current absolute path (FILE_GETPATH: where it is mounted plus the
 * directory's place in it, computed afresh, so a renamed directory is
 * followed), and the call goes on as its plain form with that path in
 * front. AT_FDCWD, or an absolute path, is the plain call itself. */
#define _GNU_SOURCE 1 /* AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"
#include "ufault.h"

long __vfs_path_call_at(uint64_t label, const char *path, uint64_t w0, uint64_t w1, uint64_t w2,
			void *rcv, size_t rcv_len, uint64_t *out);
long __vfs_two_call(uint64_t label, const char *a, const char *b, bool b_is_path, uint64_t w0);
long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv, size_t rcv_len,
		     uint64_t *out);
long __vfs_mount_of(const char *p, bool reload, char *target, uint32_t *gen);
mode_t __umask_now(void);

#define PRIVATE_HANDLES 200

/* Directory descriptor fd's absolute path into buf: its length; -EBADF
 * for no descriptor, -ENOTDIR for one that is not a directory. */
long __dir_path(int fd, char *buf, size_t cap)
{
	if (fd < 0 || fd >= PRIVATE_HANDLES)
		return -EBADF;
	long type = sys_handle_type(fd);
	if (type < 0)
		return -EBADF;
	if (type == HANDLE_PIPE || type == HANDLE_CGFS_FILE || type == HANDLE_INOTIFY)
		return -ENOTDIR;
	struct ipc_msg m = { .label = FILE_GETPATH };
	long r = __file_call(fd, &m, NULL, 0, buf, cap);
	if (r == 0)
		r = (long)m.label;
	if (r == -EBADF || r == -ENOENT || r == -ENAMETOOLONG)
		return r;
	if (r < 0)
		return -ENOTDIR; /* a terminal, a server without directories */
	return (long)m.w[0];
}

/* The path an *at call means, into buf (PATH_MAX), or path itself. */
static long at_path(int dirfd, const char *path, char *buf, const char **out)
{
	long len = __arbor_ustrnlen(path, 4096); /* -EFAULT for a bad pointer */
	if (len < 0)
		return len;
	*out = path;
	if (path[0] == '/' || dirfd == AT_FDCWD)
		return 0;
	if (!*path)
		return -ENOENT;
	long n = __dir_path(dirfd, buf, 4096);
	if (n < 0)
		return n;
	if ((size_t)n + 1 + (size_t)len >= 4096)
		return -ENAMETOOLONG;
	buf[n] = '/';
	memcpy(buf + n + 1, path, (size_t)len + 1);
	*out = buf;
	return 0;
}

#define AT_PATH(dirfd, path, p)                                     \
	char at_buf_[4096];                                         \
	const char *p;                                              \
	do {                                                        \
		long e_ = at_path(dirfd, path, at_buf_, &p);        \
		if (e_ < 0)                                         \
			return (int)__sys_ret(e_);                  \
	} while (0)

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	AT_PATH(dirfd, path, p);
	return open(p, flags, mode);
}

int fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return (int)__sys_ret(-EINVAL);
	if ((flags & AT_EMPTY_PATH) && __arbor_ustrnlen(path, 1) == 0)
		return dirfd == AT_FDCWD ? stat(".", st) : fstat(dirfd, st);
	AT_PATH(dirfd, path, p);
	return (flags & AT_SYMLINK_NOFOLLOW) ? lstat(p, st) : stat(p, st);
}

int mknodat(int dirfd, const char *path, mode_t mode, dev_t dev)
{
	AT_PATH(dirfd, path, p);
	return mknod(p, mode, dev);
}

int mkfifoat(int dirfd, const char *path, mode_t mode)
{
	AT_PATH(dirfd, path, p);
	return mkfifo(p, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
	AT_PATH(dirfd, path, p);
	return mkdir(p, mode);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	if (flags & ~AT_REMOVEDIR)
		return (int)__sys_ret(-EINVAL);
	AT_PATH(dirfd, path, p);
	return (flags & AT_REMOVEDIR) ? rmdir(p) : unlink(p);
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
	char buf2[4096];
	const char *q;
	AT_PATH(olddirfd, oldpath, p);
	long e = at_path(newdirfd, newpath, buf2, &q);
	return e < 0 ? (int)__sys_ret(e) : rename(p, q);
}

ssize_t readlinkat(int dirfd, const char *restrict path, char *restrict buf, size_t size)
{
	AT_PATH(dirfd, path, p);
	return readlink(p, buf, size);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW))
		return (int)__sys_ret(-EINVAL);
	if (mode & ~(R_OK | W_OK | X_OK))
		return (int)__sys_ret(-EINVAL);
	AT_PATH(dirfd, path, p);
	return (int)__sys_ret(__vfs_path_call_at(VFS_ACCESS, p, (uint64_t)mode, 0,
						 (uint64_t)flags & (VFS_AT_EACCESS | VFS_AT_NOFOLLOW),
						 NULL, 0, NULL));
}

/* Linux has no lchmod: with AT_SYMLINK_NOFOLLOW a link is EOPNOTSUPP
 * (as glibc's fchmodat), anything else is changed. */
int fchmodat(int dirfd, const char *path, mode_t mode, int flags)
{
	if (flags & ~AT_SYMLINK_NOFOLLOW)
		return (int)__sys_ret(-EINVAL);
	AT_PATH(dirfd, path, p);
	if (flags & AT_SYMLINK_NOFOLLOW) {
		struct stat st;
		if (lstat(p, &st) < 0)
			return -1;
		if (S_ISLNK(st.st_mode))
			return (int)__sys_ret(-EOPNOTSUPP);
	}
	return chmod(p, mode);
}

int fchownat(int dirfd, const char *path, uid_t uid, gid_t gid, int flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return (int)__sys_ret(-EINVAL);
	if ((flags & AT_EMPTY_PATH) && __arbor_ustrnlen(path, 1) == 0)
		return dirfd == AT_FDCWD ? chown(".", uid, gid) : fchown(dirfd, uid, gid);
	AT_PATH(dirfd, path, p);
	return (flags & AT_SYMLINK_NOFOLLOW) ? lchown(p, uid, gid) : chown(p, uid, gid);
}

/* FILE_LINKAT's send buffer for new name q: "target\0inner\0", the
 * mount q's directory lies in (every link in it followed) and the name's
 * path inside it; its length, or -errno (the walk's to the directory). */
static long link_fd_names(const char *q, bool reload, char *buf, size_t cap, uint32_t *gen)
{
	char dir[4096], real[4096], target[256];
	size_t n = strlen(q), end = n, start;
	while (end > 1 && q[end - 1] == '/')
		end--;
	for (start = end; start > 0 && q[start - 1] != '/'; start--)
		;
	if (start == end)
		return -EEXIST; /* "/": it exists */
	memcpy(dir, start ? q : ".", start ? start : 1);
	dir[start ? start : 1] = '\0';
	long r = __vfs_path_call(VFS_REALPATH, dir, 0, 0, real, sizeof(real), NULL);
	if (r < 0)
		return r;
	r = __vfs_mount_of(real, reload, target, gen);
	struct stat st;
	if (r == -EROFS && lstat(q, &st) == 0)
		return -EEXIST; /* Linux's filename_create: EEXIST, then EROFS, then EXDEV */
	if (r < 0)
		return r;
	size_t tl = strlen(target), rl = strlen(real);
	const char *in = tl > 1 ? real + tl : real; /* "" at the mount's root */
	size_t il = tl > 1 ? rl - tl : (rl == 1 ? 0 : rl), nl = n - start;
	if (tl + 1 + il + 1 + nl + 1 > cap)
		return -ENAMETOOLONG;
	char *o = buf;
	memcpy(o, target, tl + 1);
	o += tl + 1;
	memcpy(o, in, il);
	o += il;
	*o++ = '/';
	memcpy(o, q + start, nl + 1);
	return (long)(o - buf) + (long)nl + 1;
}

/* linkat(fd, "", ..., AT_EMPTY_PATH): the file fd is open on gets the
 * name q (an O_TMPFILE file too), asked of its server (FILE_LINKAT),
 * which refuses a name in another mount (EXDEV). */
static long link_fd(int fd, const char *q, bool procfd)
{
	char buf[2 * 4096 + 256];
	if (fd == AT_FDCWD)
		return __vfs_two_call(VFS_LINK, ".", q, true, 0); /* the directory: EPERM */
	long type = fd < 0 || fd >= PRIVATE_HANDLES ? -EBADF : sys_handle_type(fd);
	if (type < 0)
		return -EBADF;
	if (!*q)
		return -ENOENT;
	for (int tries = 0; tries < 3; tries++) {
		uint32_t gen = 0;
		long n = link_fd_names(q, tries > 0, buf, sizeof(buf), &gen);
		if (n == -EAGAIN)
			continue;
		if (n < 0)
			return n;
		long r = -EXDEV; /* pipefs, kernfs, anon inodes: never the name's mount */
		if (type != HANDLE_PIPE && type != HANDLE_CGFS_FILE && type != HANDLE_INOTIFY) {
			struct ipc_msg m = { .label = FILE_LINKAT, .w = { gen, procfd ? FILE_LINKAT_PROCFD : 0 } };
			r = __file_call(fd, &m, buf, (size_t)n, NULL, 0);
			r = r < 0 ? r : (long)m.label;
		}
		if (r == -ESTALE)
			continue; /* a mount or umount since: the new table */
		if (r == -EINVAL || r == -ENOSYS || r == -EOPNOTSUPP || r == -EBADF)
			r = -EXDEV; /* not a file of a file system (a socket, the terminal) */
		struct stat st;
		if (r == -EXDEV && lstat(q, &st) == 0)
			r = -EEXIST; /* Linux makes the name's place first */
		return r;
	}
	return -EXDEV;
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	char buf2[4096];
	const char *q;
	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return (int)__sys_ret(-EINVAL);
	if ((flags & AT_EMPTY_PATH) && geteuid() != 0)
		return (int)__sys_ret(-ENOENT); /* Linux 6.1: it needs CAP_DAC_READ_SEARCH */
	if ((flags & AT_EMPTY_PATH) && __arbor_ustrnlen(oldpath, 1) == 0) {
		long e = at_path(newdirfd, newpath, buf2, &q);
		return (int)__sys_ret(e < 0 ? e : link_fd(olddirfd, q, false));
	}
	AT_PATH(olddirfd, oldpath, p);
	long e = at_path(newdirfd, newpath, buf2, &q);
	if (e < 0)
		return (int)__sys_ret(e);
	if (flags & AT_SYMLINK_FOLLOW) {
		/* /proc/PID/fd/N followed is the file itself (Linux's magic
		 * link), which may have no name: procfs gives a copy of the
		 * descriptor (FS_OPEN_MAGIC), and the file's server links it as
		 * for AT_EMPTY_PATH, without the privilege (Linux's way for an
		 * O_TMPFILE file). Any other path: the walk below. */
		uint64_t h = 0;
		long r = __vfs_path_call(VFS_OPEN, p, O_PATH, 0, NULL, 0, &h);
		if (r == FS_OPEN_MAGIC) {
			r = link_fd((int)h, q, true);
			sys_handle_close((int)h);
			return (int)__sys_ret(r);
		}
		if (r >= 0)
			sys_handle_close((int)h);
	}
	return (int)__sys_ret(__vfs_two_call(VFS_LINK, p, q, true, (uint64_t)flags & AT_SYMLINK_FOLLOW));
}

int symlinkat(const char *target, int dirfd, const char *path)
{
	AT_PATH(dirfd, path, p);
	return symlink(target, p);
}

/* A timespec as the VFS takes it: ns, or VFS_UTIME_NOW / _OMIT; -EINVAL
 * for a bad tv_nsec. */
static long utime_word(const struct timespec *t, uint64_t *out)
{
	if (t && __arbor_uread(t, sizeof(*t)))
		return -EFAULT;
	if (!t || t->tv_nsec == UTIME_NOW) {
		*out = VFS_UTIME_NOW;
		return 0;
	}
	if (t->tv_nsec == UTIME_OMIT) {
		*out = VFS_UTIME_OMIT;
		return 0;
	}
	if (t->tv_nsec < 0 || t->tv_nsec >= 1000000000 || t->tv_sec < 0)
		return -EINVAL;
	*out = (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
	return 0;
}

static long utime_words(const struct timespec *t, uint64_t w[2])
{
	long e = utime_word(t ? &t[0] : NULL, &w[0]);
	return e ? e : utime_word(t ? &t[1] : NULL, &w[1]);
}

int utimensat(int dirfd, const char *path, const struct timespec *times, int flags)
{
	uint64_t w[2];
	if (flags & ~AT_SYMLINK_NOFOLLOW)
		return (int)__sys_ret(-EINVAL);
	long e = utime_words(times, w);
	if (e)
		return (int)__sys_ret(e);
	if (!path) /* Linux: the descriptor itself */
		return futimens(dirfd, times);
	AT_PATH(dirfd, path, p);
	return (int)__sys_ret(__vfs_path_call_at(VFS_UTIMES, p, w[0], w[1],
						 (uint64_t)flags & VFS_AT_NOFOLLOW, NULL, 0, NULL));
}

int futimens(int fd, const struct timespec *times)
{
	uint64_t w[2];
	long e = utime_words(times, w);
	if (e)
		return (int)__sys_ret(e);
	long type = sys_handle_type(fd);
	if (type < 0)
		return (int)__sys_ret(-EBADF);
	if (type == HANDLE_INOTIFY)
		return 0; /* Linux: an anonymous inode takes the times */
	struct ipc_msg m = { .label = FILE_UTIMES, .w = { w[0], w[1] } };
	long r = __file_call(fd, &m, NULL, 0, NULL, 0);
	if (r == -EBADF && type == HANDLE_PIPE)
		return 0; /* a pipe's (a FIFO's end reached its file): pipefs's inode takes them */
	return (int)__sys_ret(r < 0 ? r : (long)m.label);
}
