/* Path operations, through the VFS server. */
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"
#include "ufault.h"
#include "arbor/vfs_path.h"
#include "arbor/hot.h"

long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv,
		     size_t rcv_len, uint64_t *out);
long __vfs_handle(void);
long __vfs_path_call_at(uint64_t label, const char *path, uint64_t w0, uint64_t w1, uint64_t w2,
			void *rcv, size_t rcv_len, uint64_t *out);
long __vfs_abs_path(const char *path, char *out, size_t cap);
long __vfs_direct2(uint64_t label, const char *a, const char *b, bool b_is_path, uint64_t w0);
mode_t __umask_now(void);

ARBOR_HOT int stat(const char *path, struct stat *st)
{
	long r = __vfs_path_call(VFS_STAT, path, 0, 0, st, sizeof(*st), NULL);
	return (int)__sys_ret(r == 0 && !st ? -EFAULT : r); /* NULL: no reply buffer for the call */
}

int lstat(const char *path, struct stat *st)
{
	return (int)__sys_ret(__vfs_path_call_at(VFS_STAT, path, 0, 0, VFS_AT_NOFOLLOW, st, sizeof(*st), NULL));
}

ssize_t readlink(const char *restrict path, char *restrict buf, size_t size)
{
	uint64_t n = 0;
	if (size == 0)
		return __sys_ret(-EINVAL);
	long r = __vfs_path_call(VFS_READLINK, path, 0, 0, buf, size, &n);
	return r < 0 ? __sys_ret(r) : (ssize_t)n;
}

/* Two paths (or a path and a link's text) for the VFS: "a\0b\0"; a
 * relative path is made absolute, rel2 says whether b is a path. */
ARBOR_HOT long __vfs_two_call(uint64_t label, const char *a, const char *b, bool b_is_path, uint64_t w0)
{
	char buf[8192];
	/* the caller's strings: -EFAULT for a bad one, as Linux's copies */
	if (__arbor_ustrnlen(a, 4096) < 0 || __arbor_ustrnlen(b, 4096) < 0)
		return -EFAULT;
	if (!*a || !*b)
		return -ENOENT;
	size_t la, lb;
	bool fast = b_is_path && vfs_path_normal(a, &la) && vfs_path_normal(b, &lb);
	if (fast) { /* two normal absolute paths: no copy for the direct call */
		long d = __vfs_direct2(label, a, b, true, w0);
		if (d != 1) /* 1: not for a direct call (direct.c) */
			return d;
	}
	long n = __vfs_abs_path(a, buf, 4096);
	if (n < 0)
		return n;
	size_t at = (size_t)n + 1;
	if (b_is_path) {
		n = __vfs_abs_path(b, buf + at, 4096);
		if (n < 0)
			return n;
	} else {
		n = (long)strlen(b);
		if (n >= 4096)
			return -ENAMETOOLONG;
		memcpy(buf + at, b, (size_t)n + 1);
	}
	at += (size_t)n + 1;
	long d = fast ? 1 : __vfs_direct2(label, buf, buf + strlen(buf) + 1, b_is_path, w0);
	if (d != 1) /* 1: not for a direct call (direct.c) */
		return d;
	long v = __vfs_handle();
	if (v < 0)
		return -ENOSYS;
	struct ipc_msg m = { .label = label, .w = { w0 } };
	long r = __file_call((int)v, &m, buf, at, NULL, 0);
	return r < 0 ? r : (long)m.label;
}

int symlink(const char *target, const char *path)
{
	/* the VFS gets "linkpath\0target": the target is text, never resolved */
	return (int)__sys_ret(__vfs_two_call(VFS_SYMLINK, path, target, false, 0));
}

int link(const char *from, const char *to)
{
	return (int)__sys_ret(__vfs_two_call(VFS_LINK, from, to, true, 0));
}

ARBOR_HOT int mkdir(const char *path, mode_t mode)
{
	mode &= ~__umask_now();
	return (int)__sys_ret(__vfs_path_call(VFS_MKDIR, path, mode, 0, NULL, 0, NULL));
}

ARBOR_HOT int rmdir(const char *path)
{
	return (int)__sys_ret(__vfs_path_call(VFS_RMDIR, path, 0, 0, NULL, 0, NULL));
}

ARBOR_HOT int unlink(const char *path)
{
	return (int)__sys_ret(__vfs_path_call(VFS_UNLINK, path, 0, 0, NULL, 0, NULL));
}

int chmod(const char *path, mode_t mode)
{
	return (int)__sys_ret(__vfs_path_call(VFS_CHMOD, path, mode, 0, NULL, 0, NULL));
}

int chown(const char *path, uid_t uid, gid_t gid)
{
	return (int)__sys_ret(__vfs_path_call(VFS_CHOWN, path, (uint32_t)uid, (uint32_t)gid, NULL, 0, NULL));
}

int lchown(const char *path, uid_t uid, gid_t gid)
{
	return (int)__sys_ret(__vfs_path_call_at(VFS_CHOWN, path, (uint32_t)uid, (uint32_t)gid,
						 VFS_AT_NOFOLLOW, NULL, 0, NULL));
}

int access(const char *path, int mode)
{
	if (mode & ~(R_OK | W_OK | X_OK))
		return (int)__sys_ret(-EINVAL);
	return (int)__sys_ret(__vfs_path_call(VFS_ACCESS, path, (uint64_t)mode, 0, NULL, 0, NULL));
}

static long file_simple(int fd, uint64_t label, uint64_t w0, uint64_t w1)
{
	struct ipc_msg m = { .label = label, .w = { w0, w1 } };
	long r = __file_call(fd, &m, NULL, 0, NULL, 0);
	return r < 0 ? r : (long)m.label;
}

int fchmod(int fd, mode_t mode) { return (int)__sys_ret(file_simple(fd, FILE_FCHMOD, mode, 0)); }
int fchown(int fd, uid_t u, gid_t g) { return (int)__sys_ret(file_simple(fd, FILE_FCHOWN, (uint32_t)u, (uint32_t)g)); }
/* Linux: a cgroup file opened for writing truncates to any length and
 * keeps its text (kernfs ignores the size); pipes and inotify instances,
 * and files not open for writing, are EINVAL. */
int ftruncate(int fd, off_t len)
{
	long type = sys_handle_type(fd);
	if (type < 0)
		return (int)__sys_ret(type);
	if (len < 0 || type == HANDLE_PIPE || type == HANDLE_INOTIFY)
		return (int)__sys_ret(-EINVAL);
	/* Linux: a descriptor not open for writing is EINVAL, not EBADF */
	long fl = sys_fd_flags(fd, -1);
	if (fl < 0)
		return (int)__sys_ret(fl);
	if (fl & O_PATH) /* not a file to work on: Linux's fdget fails */
		return (int)__sys_ret(-EBADF);
	if ((fl & O_ACCMODE) == O_RDONLY)
		return (int)__sys_ret(-EINVAL);
	if (type == HANDLE_CGFS_FILE)
		return 0;
	return (int)__sys_ret(file_simple(fd, FILE_TRUNCATE, (uint64_t)len, 0));
}

int truncate(const char *path, off_t len)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	int r = ftruncate(fd, len);
	close(fd);
	return r;
}

ARBOR_HOT int rename(const char *from, const char *to)
{
	return (int)__sys_ret(__vfs_two_call(VFS_RENAME, from, to, true, 0));
}

int __fd_limit(void); /* io.c */

/* Past RLIMIT_NOFILE (user/libc/io.c), EMFILE. */
int pipe(int fds[2])
{
	long r = sys_pipe(fds); /* a bad fds: the kernel's EFAULT */
	if (r == 0 && (fds[0] >= __fd_limit() || fds[1] >= __fd_limit())) {
		sys_handle_close(fds[0]);
		sys_handle_close(fds[1]);
		r = -EMFILE;
	}
	return (int)__sys_ret(r);
}

/* The working directory is kept physical (every link resolved), as
 * Linux's getcwd shows it: then a relative ".." is the physical parent. */
int chdir(const char *path)
{
	char abs[4096];
	struct stat st;
	if (__arbor_ustrnlen(path, 1) < 0) /* Linux: EFAULT, also for NULL */
		return (int)__sys_ret(-EFAULT);
	if (!realpath(path, abs))
		return -1;
	if (stat(abs, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return (int)__sys_ret(-ENOTDIR);
	if (access(abs, X_OK) < 0)
		return -1;
	return (int)__sys_ret(sys_cwd(abs, NULL, 0) < 0 ? -ENAMETOOLONG : 0);
}

long __dir_path(int fd, char *buf, size_t cap); /* at.c */

int fchdir(int fd)
{
	char abs[4096];
	long n = __dir_path(fd, abs, sizeof(abs));
	if (n < 0)
		return (int)__sys_ret(n);
	return chdir(abs);
}

char *getcwd(char *buf, size_t size)
{
	char tmp[4096];
	long n = sys_cwd(NULL, tmp, sizeof(tmp));
	if (!buf) {
		size = size ? size : (size_t)n + 1;
		buf = malloc(size);
		if (!buf)
			return NULL;
	}
	if ((size_t)n + 1 > size) {
		errno = size ? ERANGE : EINVAL;
		return NULL;
	}
	if (__arbor_ucopy(buf, tmp, (size_t)n + 1)) { /* Linux's copy-out: EFAULT */
		errno = EFAULT;
		return NULL;
	}
	return buf;
}

/* Every link followed, "." and ".." resolved: the VFS's walk says
 * where it ended (VFS_REALPATH). */
char *realpath(const char *restrict path, char *restrict out)
{
	char tmp[PATH_MAX];
	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	long r = __vfs_path_call(VFS_REALPATH, path, 0, 0, tmp, sizeof(tmp), NULL);
	if (r < 0) {
		errno = (int)-r;
		return NULL;
	}
	char *res = out ? out : malloc(strlen(tmp) + 1);
	if (!res)
		return NULL;
	strcpy(res, tmp);
	return res;
}

/* The process's umask, read once: only umask() below changes it, fork
 * keeps it and execve starts a fresh copy of this cache. Saves open and
 * mkdir a system call each. */
static int umask_cache = -1;

mode_t __umask_now(void)
{
	int m = __atomic_load_n(&umask_cache, __ATOMIC_RELAXED);
	if (m < 0) {
		m = (int)sys_umask(-1);
		__atomic_store_n(&umask_cache, m, __ATOMIC_RELAXED);
	}
	return (mode_t)m;
}

mode_t umask(mode_t mask)
{
	mode_t old = (mode_t)sys_umask((int)(mask & 0777));
	__atomic_store_n(&umask_cache, (int)(mask & 0777), __ATOMIC_RELAXED);
	return old;
}

/* Appends s and its NUL to buf at *at; -1 if it does not fit. */
static int put_part(char *buf, size_t cap, size_t *at, const char *s)
{
	size_t len = strlen(s) + 1;
	if (*at + len > cap)
		return -1;
	memcpy(buf + *at, s, len);
	*at += len;
	return 0;
}

int mount(const char *source, const char *target, const char *fstype, unsigned long flags,
	  const void *data)
{
	char msg[2 * 4096], abs[4096];
	size_t at = 0;
	if (!target || !fstype)
		return (int)__sys_ret(-EFAULT);
	long n = __vfs_abs_path(target, abs, sizeof(abs));
	if (n < 0)
		return (int)__sys_ret(n);
	/* "source\0target\0fstype\0data\0" */
	if (put_part(msg, sizeof(msg), &at, source ? source : "") ||
	    put_part(msg, sizeof(msg), &at, abs) || put_part(msg, sizeof(msg), &at, fstype) ||
	    put_part(msg, sizeof(msg), &at, data ? (const char *)data : ""))
		return (int)__sys_ret(-EINVAL);
	long v = __vfs_handle();
	if (v < 0)
		return (int)__sys_ret(-ENOSYS);
	struct ipc_msg m = { .label = VFS_MOUNT, .w = { flags } };
	long r = __file_call((int)v, &m, msg, at, NULL, 0);
	return (int)__sys_ret(r < 0 ? r : (long)m.label);
}

int umount2(const char *target, int flags)
{
	if (flags & ~UMOUNT_NOFOLLOW)
		return (int)__sys_ret(-EINVAL); /* forced and lazy unmounts are not supported */
	return (int)__sys_ret(__vfs_path_call(VFS_UMOUNT, target, 0, 0, NULL, 0, NULL));
}

int umount(const char *target)
{
	return umount2(target, 0);
}

int statfs(const char *path, struct statfs *st)
{
	return (int)__sys_ret(__vfs_path_call(VFS_STATFS, path, 0, 0, st, sizeof(*st), NULL));
}

/* Pipes, cgroup files and inotify instances are the kernel's: Linux's
 * pipefs, cgroup2 and anon_inodefs numbers, no counts. A FIFO's end is
 * its file's, whose server answers through the end (fifo_open's file). */
int fstatfs(int fd, struct statfs *st)
{
	long type = sys_handle_type(fd);
	if (type < 0)
		return (int)__sys_ret(type);
	if (type == HANDLE_PIPE) {
		struct ipc_msg m = { .label = FILE_STATFS };
		long r = __file_call(fd, &m, NULL, 0, st, sizeof(*st));
		if (r == 0 || r == -EFAULT)
			return (int)__sys_ret(r < 0 ? r : (long)m.label);
	}
	if (type == HANDLE_PIPE || type == HANDLE_CGFS_FILE || type == HANDLE_INOTIFY) {
		memset(st, 0, sizeof(*st));
		st->f_type = type == HANDLE_PIPE ? 0x50495045 : type == HANDLE_CGFS_FILE ? 0x63677270 : 0x09041934;
		st->f_bsize = st->f_frsize = 4096;
		st->f_namelen = 255;
		st->f_flags = ST_VALID;
		return 0;
	}
	struct ipc_msg m = { .label = FILE_STATFS };
	long r = __file_call(fd, &m, NULL, 0, st, sizeof(*st));
	return (int)__sys_ret(r < 0 ? r : (long)m.label);
}

static void statvfs_from(const struct statfs *f, struct statvfs *v)
{
	memset(v, 0, sizeof(*v));
	v->f_bsize = (unsigned long)f->f_bsize;
	v->f_frsize = (unsigned long)(f->f_frsize ? f->f_frsize : f->f_bsize);
	v->f_blocks = f->f_blocks;
	v->f_bfree = f->f_bfree;
	v->f_bavail = f->f_bavail;
	v->f_files = f->f_files;
	v->f_ffree = f->f_ffree;
	v->f_favail = f->f_ffree;
	v->f_fsid = (unsigned long)(unsigned)f->f_fsid.__val[0] |
		    (unsigned long)(unsigned)f->f_fsid.__val[1] << 32;
	v->f_flag = (unsigned long)f->f_flags & ~(unsigned long)ST_VALID;
	v->f_namemax = (unsigned long)f->f_namelen;
}

int statvfs(const char *restrict path, struct statvfs *restrict v)
{
	struct statfs f;
	if (statfs(path, &f) < 0)
		return -1;
	statvfs_from(&f, v);
	return 0;
}

int fstatvfs(int fd, struct statvfs *v)
{
	struct statfs f;
	if (fstatfs(fd, &f) < 0)
		return -1;
	statvfs_from(&f, v);
	return 0;
}
