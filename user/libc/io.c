/* File descriptors. A descriptor is a kernel handle to a channel of a file
 * server (abi/fs.h): the VFS server for files and pipes, the console driver
 * for the terminal. Reads and writes are IPC calls with the caller's buffer
 * offered to the server; dup, fork and close are the kernel's handle
 * operations, so their POSIX semantics come for free. Programs the kernel
 * starts directly have no descriptors: 0, 1 and 2 then reach the console
 * driver by name, or (output, before the driver runs) the kernel's console. */
#define _GNU_SOURCE 1 /* O_PATH */
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <limits.h>
#include <stdbool.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"
#include "pthread_impl.h"
#include "ufault.h"
#include "arbor/hot.h"

mode_t __umask_now(void); /* path.c */

#define PRIVATE_HANDLES 200	/* the library's own handles live above this */

/* A name-service lookup kept as a private, close-on-exec handle. */
long __private_lookup(long *cache, const char *name)
{
	if (*cache >= 0)
		return *cache;
	long h = sys_ns_lookup(name);
	if (h < 0)
		return h;
	*cache = sys_handle_dup((int)h, PRIVATE_HANDLES, HANDLE_CLOEXEC);
	sys_handle_close((int)h);
	return *cache;
}

static long console_h = -1, vfs_h = -1;

long __vfs_handle(void)
{
	return __private_lookup(&vfs_h, VFS_NAME);
}

/* One file-protocol call: the reply's label is 0 or -errno, w[0] the result. */
/* 1 if the kernel's console has a serial line of its own (console=ttyS1,
 * as tools/arbor-run boots; init then starts the servers without
 * descriptors 0-2): their messages go there, not into the program's output.
 * Worked out once; threads racing compute the same. */
static int system_line = -1;

static int on_system_line(void)
{
	if (system_line < 0) {
		char cmdline[512];
		int on = 0;
		if (sys_cmdline(cmdline, sizeof(cmdline)) >= 0) {
			/* A word before "run=" (the rest is the program's). */
			char *save;
			for (char *w = strtok_r(cmdline, " ", &save); w && strncmp(w, "run=", 4);
			     w = strtok_r(NULL, " ", &save))
				on |= !strcmp(w, "console=ttyS1");
		}
		system_line = on;
	}
	return system_line;
}

static long file_call(int fd, uint64_t label, uint64_t w0, uint64_t w1, const void *snd,
		      size_t snd_len, void *rcv, size_t rcv_len)
{
	struct ipc_msg m = { .label = label, .w = { w0, w1 } };
	long r = __file_call(fd, &m, snd, snd_len, rcv, rcv_len);
	if (r == -EBADF && fd >= 0 && fd <= 2) {
		if (label == FILE_WRITE && fd > 0 && on_system_line())
			return sys_debug_write(snd, snd_len);
		/* No descriptor: the console, as for programs the kernel starts. */
		long h = __private_lookup(&console_h, CONSOLE_NAME);
		if (h < 0 && label == FILE_WRITE)
			return sys_debug_write(snd, snd_len); /* no driver: the kernel's console */
		if (h < 0)
			return -EBADF;
		r = __file_call((int)h, &m, snd, snd_len, rcv, rcv_len);
		if (r == -EHOSTDOWN) {
			sys_handle_close((int)h);
			console_h = -1;
		}
	}
	if (r < 0)
		return r;
	return (long)m.label < 0 ? (long)m.label : (long)m.w[0];
}

long __fd_call(int fd, uint64_t label, uint64_t w0, uint64_t w1, const void *snd, size_t snd_len,
	       void *rcv, size_t rcv_len)
{
	return file_call(fd, label, w0, w1, snd, snd_len, rcv, rcv_len);
}

long __console_write(const char *buf, size_t len)
{
	long r = file_call(1, FILE_WRITE, 0, 0, buf, len, NULL, 0);
	return r < 0 ? sys_debug_write(buf, len) : r;
}

long __console_read(char *buf, size_t len)
{
	return file_call(0, FILE_READ, 0, 0, NULL, 0, buf, len);
}

/* read and write are system calls: the kernel serves pipes itself and
 * makes the file-protocol call for everything else. fd_rw is the call
 * itself (pos < 0: at the descriptor's offset). */
static inline long fd_rw(int fd, void *buf, size_t len, off_t pos, bool wr)
{
	long r = wr ? (pos < 0 ? sys_fd_write(fd, buf, len) : sys_fd_pwrite(fd, buf, len, pos))
		    : (pos < 0 ? sys_fd_read(fd, buf, len) : sys_fd_pread(fd, buf, len, pos));
	if (r == -EBADF && fd >= 0 && fd <= 2)
		r = wr ? file_call(fd, FILE_WRITE, (uint64_t)(pos < 0 ? 0 : pos), pos >= 0, buf, len, NULL, 0)
		       : file_call(fd, FILE_READ, (uint64_t)(pos < 0 ? 0 : pos), pos >= 0, NULL, 0, buf, len);
	return r;
}

/* The same as a cancellation point (pthread_cancel.c): only once the
 * program has made a thread or cancelled one. Kept out of line so the
 * plain call pays one load and a branch for it, not two calls (pipe
 * round trip 4182 -> 4348 guest instructions when every call paid). */
static __attribute__((noinline)) long fd_rw_cp(int fd, void *buf, size_t len, off_t pos, bool wr)
{
	int cp = __pthread_cp_begin();
	long r = fd_rw(fd, buf, len, pos, wr);
	__pthread_cp_end(cp);
	return r;
}

ssize_t read(int fd, void *buf, size_t len)
{
	if (__builtin_expect(__pthread_cancel_armed, 0))
		return __sys_ret(fd_rw_cp(fd, buf, len, -1, false));
	return __sys_ret(fd_rw(fd, buf, len, -1, false));
}

ssize_t write(int fd, const void *buf, size_t len)
{
	if (__builtin_expect(__pthread_cancel_armed, 0))
		return __sys_ret(fd_rw_cp(fd, (void *)buf, len, -1, true));
	return __sys_ret(fd_rw(fd, (void *)buf, len, -1, true));
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	if (off < 0)
		return __sys_ret(-EINVAL);
	if (__builtin_expect(__pthread_cancel_armed, 0))
		return __sys_ret(fd_rw_cp(fd, buf, len, off, false));
	return __sys_ret(fd_rw(fd, buf, len, off, false));
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (off < 0)
		return __sys_ret(-EINVAL);
	if (__builtin_expect(__pthread_cancel_armed, 0))
		return __sys_ret(fd_rw_cp(fd, (void *)buf, len, off, true));
	return __sys_ret(fd_rw(fd, (void *)buf, len, off, true));
}

off_t lseek(int fd, off_t off, int whence)
{
	if (whence < SEEK_SET || whence > SEEK_END)
		return __sys_ret(-EINVAL);
	long r = sys_fd_seek(fd, off, whence);
	if (r == -EBADF && fd >= 0 && fd <= 2)
		r = file_call(fd, FILE_SEEK, (uint64_t)off, (uint64_t)whence, NULL, 0, NULL, 0);
	return __sys_ret(r);
}

int fstat(int fd, struct stat *st)
{
	long type = sys_handle_type(fd);
	/* every answer the library makes goes out through
	 * __arbor_stat_from_attr: EFAULT for a bad st, after EBADF (Linux) */
	if (type == HANDLE_CGFS_FILE) { /* served by the kernel */
		struct k_cgnode n;
		long r = sys_cgfs_fstat(fd, &n);
		if (r < 0)
			return (int)__sys_ret(r);
		struct pcache_attr a = { .dev = 5, .ino = n.ino, .mode = S_IFREG | n.mode, .nlink = 1,
					 .uid = n.uid, .gid = n.gid };
		return (int)__sys_ret(__arbor_stat_from_attr(&a, st));
	}
	if (type == HANDLE_CGNS) { /* a namespace: Linux's nsfs inode, the kernel's answer */
		struct pcache_attr a;
		long r = sys_fd_stat(fd, &a);
		return (int)__sys_ret(r < 0 ? r : __arbor_stat_from_attr(&a, st));
	}
	if (type == HANDLE_SOCKET) { /* a Unix socket: as Linux's sockfs (the kernel's inode number) */
		struct pcache_attr a = { .mode = S_IFSOCK | 0777 };
		long r = sys_fd_stat(fd, &a);
		if (r < 0)
			return (int)__sys_ret(r);
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFSOCK | 0777;
		st->st_ino = a.ino;
		st->st_nlink = 1;
		st->st_blksize = 4096;
		return 0;
	}
	if (type == HANDLE_PIPE) {
		/* a FIFO's end: its file's inode, which its server answers
		 * through the end (fifo_open's file), as Linux's; a pipe's
		 * (no file: EBADF), pipefs's answer */
		struct ipc_msg m = { .label = FILE_FSTAT };
		long r = __file_call(fd, &m, NULL, 0, st, sizeof(*st));
		if (r == 0 || r == -EFAULT)
			return (int)__sys_ret(r < 0 ? r : (long)m.label);
		struct pcache_attr a;
		r = sys_fd_stat(fd, &a);
		return (int)__sys_ret(r < 0 ? r : __arbor_stat_from_attr(&a, st));
	}
	if (type == HANDLE_CHANNEL) { /* a page cache file: the kernel answers */
		struct pcache_attr a;
		long r = sys_fd_stat(fd, &a);
		if (r == 0)
			return (int)__sys_ret(__arbor_stat_from_attr(&a, st));
		if (r != -EOPNOTSUPP)
			return (int)__sys_ret(r);
	}
	long r = file_call(fd, FILE_FSTAT, 0, 0, NULL, 0, st, sizeof(*st));
	if (r == -EINVAL) { /* a server without stat (the console): a terminal */
		struct pcache_attr a = { .mode = S_IFCHR | 0620, .rdev = (5 << 8) | 1 };
		r = __arbor_stat_from_attr(&a, st);
		if (r == 0)
			st->st_blksize = 1024;
	}
	return (int)__sys_ret(r);
}

/* Data to stable storage: a disk flushes its write cache; the memory
 * file systems have nothing to do; pipes, cgroup files, inotify instances
 * and the terminal cannot (EINVAL, as Linux). */
int fsync(int fd)
{
	__pthread_cp_check();
	long type = sys_handle_type(fd);
	if (type < 0)
		return (int)__sys_ret(type);
	if (type == HANDLE_PIPE || type == HANDLE_CGFS_FILE || type == HANDLE_INOTIFY || type == HANDLE_SOCKET)
		return (int)__sys_ret(-EINVAL);
	return (int)__sys_ret(file_call(fd, FILE_FSYNC, 0, 0, NULL, 0, NULL, 0));
}

/* The data and what reading it needs: the same work here, since a disk
 * file system's fsync writes the size and blocks with the data anyway. */
int fdatasync(int fd)
{
	return fsync(fd);
}

/* Every file system's data to stable storage: the VFS asks each mount's
 * server (VFS_SYNC). Like Linux's, it cannot fail. */
void sync(void)
{
	long v = __vfs_handle();
	if (v < 0)
		return;
	struct ipc_msg m = { .label = VFS_SYNC };
	__file_call((int)v, &m, NULL, 0, NULL, 0);
}

/* The file system of fd to stable storage; descriptors of no file
 * system (pipes, cgroup files, inotify) have nothing to write: 0, as
 * Linux's syncfs on pipefs. A write-back that failed is EIO. */
int syncfs(int fd)
{
	long type = sys_handle_type(fd);
	if (type < 0)
		return (int)__sys_ret(type);
	if (type == HANDLE_PIPE || type == HANDLE_CGFS_FILE || type == HANDLE_INOTIFY)
		return 0;
	long r = file_call(fd, FILE_SYNCFS, 0, 0, NULL, 0, NULL, 0);
	/* servers of no file system (the console, a disk's block server)
	 * do not know the request: nothing to write, as Linux's syncfs of
	 * their pseudo file systems */
	return (int)__sys_ret(r == -EINVAL ? 0 : r);
}


ARBOR_HOT int close(int fd)
{
	if (fd >= PRIVATE_HANDLES)
		return (int)__sys_ret(-EBADF);
	__pthread_cp_check();
	return (int)__sys_ret(sys_handle_close(fd));
}

/* RLIMIT_NOFILE's soft limit (the kernel keeps it: prlimit), read once
 * per program and updated by setrlimit; at most PRIVATE_HANDLES. */
static int fd_limit = -1;

int __fd_limit(void)
{
	if (fd_limit < 0) {
		struct k_rlimit l;
		fd_limit = sys_prlimit(K_RLIMIT_NOFILE, NULL, &l) == 0 && l.cur < PRIVATE_HANDLES ?
				   (int)l.cur : PRIVATE_HANDLES;
	}
	return fd_limit;
}

void __fd_limit_set(uint64_t cur)
{
	fd_limit = cur < PRIVATE_HANDLES ? (int)cur : PRIVATE_HANDLES;
}

/* A descriptor the kernel gave at or above RLIMIT_NOFILE: closed, and
 * the call fails with EMFILE, as Linux's. */
static int fd_over_max(int h)
{
	sys_handle_close(h);
	return (int)__sys_ret(-EMFILE);
}

int dup(int fd)
{
	long h = sys_handle_dup(fd, 0, 0);
	return h >= __fd_limit() ? fd_over_max((int)h) : (int)__sys_ret(h);
}

int dup2(int fd, int target)
{
	if (target >= __fd_limit())
		return (int)__sys_ret(-EBADF);
	return (int)__sys_ret(sys_handle_dup2(fd, target, 0));
}

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	long arg = va_arg(ap, long);
	va_end(ap);
	switch (cmd) {
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW: { /* record locks: the kernel's (fd_lock); F_SETLKW a cancellation point */
		int cp = cmd == F_SETLKW ? __pthread_cp_begin() : -1;
		long r = sys_fd_lock(fd, cmd, (struct k_flock *)arg);
		__pthread_cp_end(cp);
		return (int)__sys_ret(r);
	}
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg < 0 || arg >= __fd_limit())
			return (int)__sys_ret(-EINVAL);
		long h = sys_handle_dup(fd, (int)arg, cmd == F_DUPFD_CLOEXEC ? HANDLE_CLOEXEC : 0);
		return h >= __fd_limit() ? fd_over_max((int)h) : (int)__sys_ret(h);
	case F_GETFD:
		return (int)__sys_ret(sys_handle_flags(fd, -1));
	case F_SETFD:
		return (int)__sys_ret(sys_handle_flags(fd, (arg & FD_CLOEXEC) ? HANDLE_CLOEXEC : 0) < 0 ? -EBADF : 0);
	case F_GETFL: {
		long r = sys_fd_flags(fd, -1);
		return (int)__sys_ret(r == -EINVAL ? O_RDWR : r);
	}
	case F_SETFL: {
		long r = sys_fd_flags(fd, (int)(arg & (O_APPEND | O_NONBLOCK | O_DIRECT)));
		return (int)__sys_ret(r < 0 ? r : 0);
	}
	default:
		return (int)__sys_ret(-EINVAL);
	}
}

/* Absolute path for the VFS: relative paths start at the working directory. */
long __vfs_abs_path(const char *path, char *out, size_t cap)
{
	long len = __arbor_ustrnlen(path, cap); /* -EFAULT for a bad pointer */
	if (len < 0)
		return len;
	if (!*path)
		return -ENOENT;
	size_t n = (size_t)len;
	if (path[0] == '/') {
		if (n >= cap)
			return -ENAMETOOLONG;
		memcpy(out, path, n + 1);
		return (long)n;
	}
	long c = sys_cwd(NULL, out, cap);
	if (c < 0)
		return c;
	if ((size_t)c + 1 + n >= cap)
		return -ENAMETOOLONG;
	out[c] = '/';
	memcpy(out + c + 1, path, n + 1);
	return c + 1 + (long)n;
}

long __vfs_direct(const char *path, uint64_t label, uint64_t w0, uint64_t w1, uint64_t at, void *rcv,
		  size_t rcv_len, uint64_t *out); /* direct.c */

/* A request about one path: straight to its file system when the
 * library can resolve the mount (direct.c), else to the VFS. */
static ARBOR_HOT long vfs_call(const char *abs, size_t n, uint64_t label, uint64_t w0, uint64_t w1,
		     uint64_t w2, void *rcv, size_t rcv_len, uint64_t *out)
{
	long d = __vfs_direct(abs, label, w0, w1, w2, rcv, rcv_len, out);
	if (d != 1) /* 1: not for a direct call */
		return d;
	long v = __vfs_handle();
	if (v < 0)
		return -ENOSYS; /* no VFS server running */
	struct ipc_msg m = { .label = label, .w = { w0, w1, w2 } };
	long r = __file_call((int)v, &m, abs, n, rcv, rcv_len);
	if (r < 0)
		return r;
	if (out)
		*out = m.w[0];
	return (long)m.label;
}

/* A relative path is made absolute in a buffer of this call's own (so
 * threads never share one), kept out of the common absolute case's frame. */
static __attribute__((noinline)) long vfs_call_relative(const char *path, uint64_t label, uint64_t w0,
							 uint64_t w1, uint64_t w2, void *rcv,
							 size_t rcv_len, uint64_t *out)
{
	char abs[4096];
	long n = __vfs_abs_path(path, abs, sizeof(abs));
	return n < 0 ? n : vfs_call(abs, (size_t)n, label, w0, w1, w2, rcv, rcv_len, out);
}

/* w2: VFS_AT_* flags (abi/fs.h). */
ARBOR_HOT long __vfs_path_call_at(uint64_t label, const char *path, uint64_t w0, uint64_t w1, uint64_t w2,
			void *rcv, size_t rcv_len, uint64_t *out)
{
	/* The one read of the caller's path that may fault (-EFAULT, as
	 * Linux's kernel copy); the rest reads what it has measured. */
	long n = __arbor_ustrnlen(path, 4096);
	if (n < 0 || n >= 4096)
		return n < 0 ? n : -ENAMETOOLONG;
	if (path[0] != '/')
		return vfs_call_relative(path, label, w0, w1, w2, rcv, rcv_len, out);
	return vfs_call(path, (size_t)n, label, w0, w1, w2, rcv, rcv_len, out); /* absolute: as it is */
}

ARBOR_HOT long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv,
		     size_t rcv_len, uint64_t *out)
{
	return __vfs_path_call_at(label, path, w0, w1, 0, rcv, rcv_len, out);
}

/* open without RLIMIT_NOFILE's check: the library's own descriptor that
 * no program sees (execve's program file: Linux's exec takes none). */
int __open_unlimited(const char *path, int flags)
{
	uint64_t h = 0;
	long r = __vfs_path_call(VFS_OPEN, path, (uint64_t)flags, 0, NULL, 0, &h);
	if (r < 0)
		return (int)__sys_ret(r);
	if (flags & O_CLOEXEC)
		sys_handle_flags((int)h, HANDLE_CLOEXEC);
	return (int)h;
}

/* open of a FIFO waits for the other side (a cancellation point, and a
 * signal's handler ends it: EINTR, as Linux's, never restarted); the
 * descriptor goes if it fails. */
static __attribute__((noinline)) long fifo_wait(int h)
{
	int cp = __pthread_cp_begin();
	long r = sys_fifo_wait(h);
	__pthread_cp_end(cp);
	if (r < 0)
		sys_handle_close(h);
	return r;
}

/* open of /proc/PID/fd/N (Linux's magic link): h is a copy of that
 * descriptor, which procfs gave; a new open file description of the same
 * file with flags: its server's FILE_REOPEN, a new end of a pipe (no wait
 * for a partner: an anonymous pipe's other side was there), the
 * terminal's handle again, a cgroup file opened by its path (link is the
 * /proc path: its text; kernfs has no unlinked files); ENXIO for a socket
 * and the kernel's anonymous files (eventfd, epoll...), as Linux. h is
 * closed. */
static long open_magic(int h, int flags, const char *link)
{
	long type = sys_handle_type(h);
	long r;
	if (type == HANDLE_CHANNEL) {
		struct ipc_msg m = { .label = FILE_REOPEN, .w = { (uint64_t)flags } };
		r = __file_call(h, &m, NULL, 0, NULL, 0);
		if (r == 0)
			r = (long)m.label < 0 ? (long)m.label : (long)m.w[0];
	} else if (type == HANDLE_PIPE) {
		r = (flags & O_PATH) ? sys_handle_dup(h, 0, 0) :
				       sys_fifo_open(h, flags & (O_ACCMODE | O_NONBLOCK), -1);
	} else if (type == HANDLE_ENDPOINT) {
		r = sys_handle_dup(h, 0, 0); /* the console: one description */
	} else if (type == HANDLE_CGFS_FILE) {
		char text[4096];
		uint64_t nh = 0;
		r = __vfs_path_call(VFS_READLINK, link, 0, 0, text, sizeof(text) - 1, &nh);
		if (r >= 0) {
			text[nh] = '\0';
			r = __vfs_path_call(VFS_OPEN, text, (uint64_t)flags & ~(uint64_t)(O_CREAT | O_EXCL), 0, NULL, 0, &nh);
			r = r < 0 ? r : r == FS_OPEN_MAGIC ? -ENXIO : (long)nh;
		}
	} else {
		r = -ENXIO;
	}
	sys_handle_close(h);
	return r;
}

ARBOR_HOT int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) { /* as glibc's __OPEN_NEEDS_MODE */
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	uint64_t h = 0;
	__pthread_cp_check();
	mode &= ~__umask_now();
	if (flags & O_PATH) /* Linux ignores every other flag with O_PATH */
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	else if ((flags & O_TMPFILE & ~O_DIRECTORY) && ((flags & (O_TMPFILE | O_CREAT)) != O_TMPFILE ||
						(flags & O_ACCMODE) == O_RDONLY))
		return (int)__sys_ret(-EINVAL); /* Linux's build_open_flags, before any walk */
	long r = __vfs_path_call(VFS_OPEN, path, (uint64_t)flags, mode, NULL, 0, &h);
	if (r < 0)
		return (int)__sys_ret(r);
	if (r == FS_OPEN_FIFO && !(flags & O_NONBLOCK) && (r = fifo_wait((int)h)) < 0)
		return (int)__sys_ret(r);
	if (r == FS_OPEN_MAGIC) {
		if ((r = open_magic((int)h, flags, path)) < 0)
			return (int)__sys_ret(r);
		h = (uint64_t)r;
	}
	if (h >= (uint64_t)__fd_limit()) /* RLIMIT_NOFILE (at most OPEN_MAX: close() refuses more) */
		return fd_over_max((int)h);
	if (flags & O_CLOEXEC)
		sys_handle_flags((int)h, HANDLE_CLOEXEC);
	return (int)h;
}

int creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

/* readv/writev with Linux's argument rules: a count below 0 or above
 * IOV_MAX, or lengths whose sum overflows ssize_t, is EINVAL before any
 * transfer. The vectors go one read/write each, stopping at a short one. */
static ssize_t io_vector(int fd, const struct iovec *iov, int cnt, bool wr)
{
	if (cnt < 0 || cnt > IOV_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (__arbor_uread(iov, (size_t)cnt * sizeof(*iov))) { /* Linux copies the array */
		errno = EFAULT;
		return -1;
	}
	size_t total = 0;
	for (int i = 0; i < cnt; i++) {
		if (iov[i].iov_len > (SIZE_MAX >> 1) - total) {
			errno = EINVAL;
			return -1;
		}
		total += iov[i].iov_len;
	}
	ssize_t done = 0;
	for (int i = 0; i < cnt; i++) {
		if (!iov[i].iov_len)
			continue;
		ssize_t r = wr ? write(fd, iov[i].iov_base, iov[i].iov_len)
			       : read(fd, iov[i].iov_base, iov[i].iov_len);
		if (r < 0)
			return done ? done : -1;
		done += r;
		if ((size_t)r < iov[i].iov_len)
			break;
	}
	return done;
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
	return io_vector(fd, iov, cnt, false);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	return io_vector(fd, iov, cnt, true);
}
