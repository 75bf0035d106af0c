/* Directories: getdents64 (abi/fs.h FILE_GETDENTS: many Linux
 * linux_dirent64 records per call, from the description's offset, which
 * is a position cookie) and the <dirent.h> stream functions on top of it.
 * A DIR keeps one batch; readdir hands out records from it in place (the
 * record is struct dirent's layout, its name only as long as it needs) and
 * asks the server again when it is used up, so listing a directory costs
 * one call per batch, not one per entry. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"

_Static_assert(offsetof(struct dirent, d_ino) == offsetof(struct fs_dirent64, d_ino) &&
	       offsetof(struct dirent, d_off) == offsetof(struct fs_dirent64, d_off) &&
	       offsetof(struct dirent, d_reclen) == offsetof(struct fs_dirent64, d_reclen) &&
	       offsetof(struct dirent, d_type) == offsetof(struct fs_dirent64, d_type) &&
	       offsetof(struct dirent, d_name) == FS_DIRENT_HDR,
	       "struct dirent is a FILE_GETDENTS record");

#define DIR_BATCH 32768	/* glibc's largest: 10,000 entries in a dozen calls */

struct __dirstream {
	int fd;
	size_t at, len;		/* the next record in buf, the batch's end */
	int end;		/* the batch reached the directory's end */
	long tell;		/* the cookie of the entry readdir returns next */
	_Alignas(8) char buf[DIR_BATCH];
};

/* getdents64 without errno: bytes or -errno; *end = 1 if the server says
 * these reached the directory's end (may be NULL). */
static long dir_getdents(int fd, void *buf, size_t len, int *end)
{
	struct ipc_msg m = { .label = FILE_GETDENTS };
	long r = __file_call(fd, &m, NULL, 0, buf, len);
	if (r == -EBADF && sys_handle_type(fd) >= 0)
		return -ENOTDIR; /* a descriptor, but no file server's: a pipe, a cgroup file... */
	if (r == 0)
		r = (long)m.label < 0 ? (long)m.label : (long)m.w[0];
	if (end)
		*end = r >= 0 && m.w[1] == 1;
	return r;
}

ssize_t getdents64(int fd, void *buf, size_t len)
{
	return (ssize_t)__sys_ret(dir_getdents(fd, buf, len, NULL));
}

static DIR *dir_new(int fd)
{
	DIR *d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	d->fd = fd;
	d->at = d->len = 0;
	d->end = 0;
	d->tell = 0;
	return d;
}

long __vfs_open_dents(const char *path, int flags, void *buf, size_t len, uint64_t *out);

/* The open brings the first batch when the file system can (a direct
 * call: FS_WALK_DENTS), so a small directory is listed in one round trip. */
DIR *opendir(const char *path)
{
	DIR *d = dir_new(-1);
	uint64_t w[3] = { 0, 0, 0 };
	if (!d)
		return NULL;
	long r = __vfs_open_dents(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, d->buf, sizeof(d->buf), w);
	if (r < 0) {
		free(d);
		errno = (int)-r;
		return NULL;
	}
	d->fd = (int)w[0]; /* O_DIRECTORY: no need to fstat */
	sys_handle_flags(d->fd, HANDLE_CLOEXEC);
	if (w[2] & FS_DENTS_SENT) {
		d->len = (size_t)w[1];
		d->end = (w[2] & FS_DENTS_END) != 0;
	}
	return d;
}

/* As glibc: fd must be an open directory; it is not closed on failure. */
DIR *fdopendir(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return NULL;
	}
	return dir_new(fd);
}

/* Once a batch reached the end, readdir says so without asking again
 * (entries created since may or may not be seen, as POSIX allows);
 * seekdir and rewinddir ask again. */
struct dirent *readdir(DIR *d)
{
	if (d->at >= d->len) {
		if (d->end)
			return NULL;
		long n = dir_getdents(d->fd, d->buf, sizeof(d->buf), &d->end);
		if (n < 0) {
			errno = (int)-n;
			return NULL;
		}
		if (n == 0)
			return NULL; /* the end: errno untouched */
		d->at = 0;
		d->len = (size_t)n;
	}
	struct dirent *e = (struct dirent *)(d->buf + d->at);
	d->at += e->d_reclen;
	d->tell = (long)e->d_off;
	return e;
}

int readdir_r(DIR *d, struct dirent *entry, struct dirent **result)
{
	int saved = errno;
	errno = 0;
	struct dirent *e = readdir(d);
	int err = errno;
	errno = saved;
	*result = NULL;
	if (!e)
		return err;
	memcpy(entry, e, offsetof(struct dirent, d_name));
	memcpy(entry->d_name, e->d_name, strlen(e->d_name) + 1);
	*result = entry;
	return 0;
}

long telldir(DIR *d)
{
	return d->tell;
}

void seekdir(DIR *d, long pos)
{
	if (lseek(d->fd, (off_t)pos, SEEK_SET) < 0)
		return;
	d->at = d->len = 0;
	d->end = 0;
	d->tell = pos;
}

void rewinddir(DIR *d)
{
	seekdir(d, 0);
}

int closedir(DIR *d)
{
	int r = close(d->fd);
	free(d);
	return r;
}

/* BSD: frees d, keeps and returns its descriptor. */
int fdclosedir(DIR *d)
{
	int fd = d->fd;
	free(d);
	return fd;
}

int dirfd(DIR *d)
{
	return d->fd;
}

int alphasort(const struct dirent **a, const struct dirent **b)
{
	return strcoll((*a)->d_name, (*b)->d_name);
}

int versionsort(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* A copy of e sized to its name, for scandir's caller to free. */
static struct dirent *dirent_dup(const struct dirent *e)
{
	size_t n = offsetof(struct dirent, d_name) + strlen(e->d_name) + 1;
	struct dirent *c = malloc(n < sizeof(*c) ? sizeof(*c) : n);
	if (c)
		memcpy(c, e, n);
	return c;
}

/* scandir over the open directory d, which it closes. */
static int scan_dir(DIR *d, struct dirent ***list, int (*keep)(const struct dirent *),
		    int (*cmp)(const struct dirent **, const struct dirent **))
{
	struct dirent **v = NULL, *e;
	size_t n = 0, cap = 0;
	if (!d)
		return -1;
	errno = 0;
	while ((e = readdir(d))) {
		if (keep && !keep(e))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			struct dirent **nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto fail;
			v = nv;
		}
		if (!(v[n] = dirent_dup(e)))
			goto fail;
		n++;
		errno = 0;
	}
	if (errno)
		goto fail;
	closedir(d);
	if (cmp && n > 1)
		qsort(v, n, sizeof(*v), (int (*)(const void *, const void *))cmp);
	*list = v;
	return (int)n;
fail: {
	int err = errno;
	while (n)
		free(v[--n]);
	free(v);
	closedir(d);
	errno = err;
	return -1;
	}
}

int scandir(const char *path, struct dirent ***list, int (*keep)(const struct dirent *),
	    int (*cmp)(const struct dirent **, const struct dirent **))
{
	return scan_dir(opendir(path), list, keep, cmp);
}

/* GNU scandirat: path relative to the directory open as dirfd. */
int scandirat(int dirfd, const char *path, struct dirent ***list, int (*keep)(const struct dirent *),
	      int (*cmp)(const struct dirent **, const struct dirent **))
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return scan_dir(d, list, keep, cmp);
}
