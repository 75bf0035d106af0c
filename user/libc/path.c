/* Path operations, through the VFS server. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"

long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv,
		     size_t rcv_len, uint64_t *out);
long __vfs_handle(void);
long __vfs_abs_path(const char *path, char *out, size_t cap);
mode_t __umask_now(void);

int stat(const char *path, struct stat *st)
{
	return (int)__sys_ret(__vfs_path_call(VFS_STAT, path, 0, 0, st, sizeof(*st), NULL));
}

int lstat(const char *path, struct stat *st)
{
	return (int)__sys_ret(__vfs_path_call(VFS_STAT, path, 1, 0, st, sizeof(*st), NULL));
}

int mkdir(const char *path, mode_t mode)
{
	mode &= ~__umask_now();
	return (int)__sys_ret(__vfs_path_call(VFS_MKDIR, path, mode, 0, NULL, 0, NULL));
}

int rmdir(const char *path)
{
	return (int)__sys_ret(__vfs_path_call(VFS_RMDIR, path, 0, 0, NULL, 0, NULL));
}

int unlink(const char *path)
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
	return chown(path, uid, gid); /* no symbolic links yet */
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
	long r = sys_ipc_call(fd, &m, NULL, 0, NULL, 0);
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
	if (type == HANDLE_CGFS_FILE) {
		long fl = sys_fd_flags(fd, -1);
		return (int)__sys_ret(fl < 0 ? fl : (fl & O_ACCMODE) == O_RDONLY ? -EINVAL : 0);
	}
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

int rename(const char *from, const char *to)
{
	static char buf[8192];
	char cwd[4096];
	long c = sys_cwd(NULL, cwd, sizeof(cwd));
	size_t a = strlen(from), b = strlen(to);
	if (!*from || !*to)
		return (int)__sys_ret(-ENOENT);
	size_t pa = from[0] == '/' ? 0 : (size_t)c + 1, pb = to[0] == '/' ? 0 : (size_t)c + 1;
	if (pa + a + pb + b + 2 > sizeof(buf))
		return (int)__sys_ret(-ENAMETOOLONG);
	char *p = buf;
	if (pa) { memcpy(p, cwd, (size_t)c); p[c] = '/'; p += pa; }
	memcpy(p, from, a + 1);
	p += a + 1;
	if (pb) { memcpy(p, cwd, (size_t)c); p[c] = '/'; p += pb; }
	memcpy(p, to, b + 1);
	p += b + 1;
	long v = __vfs_handle();
	if (v < 0)
		return (int)__sys_ret(-ENOSYS);
	struct ipc_msg m = { .label = VFS_RENAME };
	long r = sys_ipc_call((int)v, &m, buf, (size_t)(p - buf), NULL, 0);
	return (int)__sys_ret(r < 0 ? r : (long)m.label);
}

int pipe(int fds[2])
{
	return (int)__sys_ret(sys_pipe(fds));
}

int chdir(const char *path)
{
	char abs[4096];
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return (int)__sys_ret(-ENOTDIR);
	if (access(path, X_OK) < 0)
		return -1;
	/* Keep the absolute path, with "." and ".." resolved. */
	if (!realpath(path, abs))
		return -1;
	return (int)__sys_ret(sys_cwd(abs, NULL, 0) < 0 ? -ENAMETOOLONG : 0);
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
	memcpy(buf, tmp, (size_t)n + 1);
	return buf;
}

/* Lexical: there are no symbolic links. */
char *realpath(const char *path, char *out)
{
	char cwd[4096], tmp[4096];
	size_t len = 0;
	if (!path || !*path) {
		errno = path ? ENOENT : EINVAL;
		return NULL;
	}
	if (path[0] != '/') {
		long c = sys_cwd(NULL, cwd, sizeof(cwd));
		if (c < 0 || (size_t)c + strlen(path) + 2 > sizeof(tmp)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		strcpy(tmp, cwd);
		strcat(tmp, "/");
		strcat(tmp, path);
	} else if (strlen(path) < sizeof(tmp)) {
		strcpy(tmp, path);
	} else {
		errno = ENAMETOOLONG;
		return NULL;
	}
	char *res = out ? out : malloc(PATH_MAX);
	if (!res)
		return NULL;
	res[0] = '\0';
	for (char *seg = strtok(tmp, "/"); seg; seg = strtok(NULL, "/")) {
		if (strcmp(seg, ".") == 0)
			continue;
		if (strcmp(seg, "..") == 0) {
			char *slash = strrchr(res, '/');
			len = slash ? (size_t)(slash - res) : 0;
			res[len] = '\0';
			continue;
		}
		size_t n = strlen(seg);
		if (len + n + 2 > PATH_MAX) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		res[len++] = '/';
		memcpy(res + len, seg, n + 1);
		len += n;
	}
	if (len == 0)
		strcpy(res, "/");
	struct stat st;
	if (stat(res, &st) < 0) {
		if (!out)
			free(res);
		return NULL;
	}
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
	long r = sys_ipc_call((int)v, &m, msg, at, NULL, 0);
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
