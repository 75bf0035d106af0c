/* Requests on an open file: read, write, seek, stat, directory listing,
 * flags, truncate, chmod, chown, poll. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "arbor_sys.h"
#include "tmpfs_srv.h"

#define CHUNK 65536

void tmpfs_srv_fill_stat(const struct tmpfs_inode *ino, struct stat *st)
{
	struct tmpfs_stat t;
	tmpfs_stat(ino, &t);
	memset(st, 0, sizeof(*st));
	st->st_dev = TMPFS_SRV_DEV;
	st->st_ino = t.ino;
	st->st_nlink = t.nlink;
	st->st_mode = t.mode;
	st->st_uid = t.uid;
	st->st_gid = t.gid;
	st->st_rdev = t.rdev;
	st->st_size = (off_t)t.size;
	st->st_blksize = 4096;
	st->st_blocks = (blkcnt_t)t.blocks;
	st->st_atim.tv_sec = (time_t)(t.atime / 1000000000u);
	st->st_atim.tv_nsec = (long)(t.atime % 1000000000u);
	st->st_mtim.tv_sec = (time_t)(t.mtime / 1000000000u);
	st->st_mtim.tv_nsec = (long)(t.mtime % 1000000000u);
	st->st_ctim.tv_sec = (time_t)(t.ctime / 1000000000u);
	st->st_ctim.tv_nsec = (long)(t.ctime % 1000000000u);
}

static bool can_read(const struct fs_file *of)
{
	return (of->flags & O_ACCMODE) != O_WRONLY;
}

static bool can_write(const struct fs_file *of)
{
	return (of->flags & O_ACCMODE) != O_RDONLY;
}

static long tmpfs_file_read(struct fs_file *of, uint64_t off, uint64_t len, bool positional)
{
	char *buf = malloc(CHUNK);
	long done = 0;
	if (!buf)
		return -ENOMEM;
	while ((uint64_t)done < len) {
		long n = tmpfs_read((struct tmpfs_inode *)of->node, off + (uint64_t)done, buf,
				    len - (uint64_t)done < CHUNK ? len - (uint64_t)done : CHUNK, fssrv_now());
		if (n <= 0) {
			if (n < 0 && done == 0)
				done = n;
			break;
		}
		long w = sys_ipc_write((uint64_t)done, buf, (size_t)n);
		if (w <= 0) {
			if (w < 0 && done == 0)
				done = w; /* a bad buffer: EFAULT, as Linux */
			break;
		}
		done += w;
		if (w < n)
			break;
	}
	free(buf);
	if (done > 0 && !positional)
		of->offset += (uint64_t)done;
	return done;
}

static long tmpfs_file_write(struct fs_file *of, uint64_t off, uint64_t len, bool positional)
{
	char *buf = malloc(CHUNK);
	long done = 0;
	if (!buf)
		return -ENOMEM;
	if (!positional && (of->flags & O_APPEND)) {
		struct tmpfs_stat st;
		tmpfs_stat((struct tmpfs_inode *)of->node, &st);
		off = st.size;
	}
	while ((uint64_t)done < len) {
		long n = sys_ipc_read((uint64_t)done, buf,
				      len - (uint64_t)done < CHUNK ? len - (uint64_t)done : CHUNK);
		if (n <= 0) {
			if (n < 0 && done == 0)
				done = n; /* a bad buffer: EFAULT, as Linux */
			break;
		}
		long w = tmpfs_write((struct tmpfs_inode *)of->node, off + (uint64_t)done, buf, (size_t)n, fssrv_now());
		if (w < 0) {
			if (done == 0)
				done = w;
			break;
		}
		done += w;
	}
	free(buf);
	if (done > 0 && !positional)
		of->offset = off + (uint64_t)done;
	return done;
}

static long file_read(struct fs_file *of, const struct ipc_msg *m, const struct ipc_info *info)
{
	bool positional = m->w[1] == 1;
	if (!can_read(of))
		return -EBADF;
	return tmpfs_file_read(of, positional ? m->w[0] : of->offset, info->rcv_len, positional);
}

static long file_write(struct fs_file *of, const struct ipc_msg *m, const struct ipc_info *info)
{
	bool positional = m->w[1] == 1;
	if (!can_write(of))
		return -EBADF;
	return tmpfs_file_write(of, positional ? m->w[0] : of->offset, info->snd_len, positional);
}

static long file_seek(struct fs_file *of, int64_t off, int whence)
{
	struct tmpfs_stat st;
	tmpfs_stat((struct tmpfs_inode *)of->node, &st);
	int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)of->offset :
		       whence == SEEK_END ? (int64_t)st.size : -1;
	if (base < 0 && whence != SEEK_SET)
		return -EINVAL;
	if (base + off < 0)
		return -EINVAL;
	of->offset = (uint64_t)(base + off);
	return (long)of->offset;
}

/* FILE_GETDENTS: tmpfs's positions (tmpfs_readdir) are the cookies. */
static long dir_fill(struct fs_file *of, uint64_t pos, struct fssrv_dents *b)
{
	struct tmpfs_dirent e;
	int r;
	if (!S_ISDIR(tmpfs_mode(of->node)))
		return -ENOTDIR;
	for (uint64_t at = pos; (r = tmpfs_readdir((struct tmpfs_inode *)of->node, &at, &e)) == 1;)
		if (!fssrv_dent(b, e.ino, e.type, e.name, at))
			break;
	return r < 0 ? r : 0; /* -ENOENT: a removed directory, as Linux (IS_DEADDIR) */
}

static struct tmpfs_cred cred_of(const struct ipc_info *info)
{
	return (struct tmpfs_cred){ .uid = info->euid, .gid = info->egid, .pid = info->pid,
				    .member = fssrv_in_group };
}

long tmpfs_srv_file(struct fs_file *of, struct ipc_msg *m, const struct ipc_info *info)
{
	struct tmpfs_cred c = cred_of(info);
	struct tmpfs_inode *ino = of->node;
	switch (m->label) {
	case FILE_READ:
		return file_read(of, m, info);
	case FILE_WRITE:
		return file_write(of, m, info);
	case FILE_SEEK:
		return file_seek(of, (int64_t)m->w[0], (int)m->w[1]);
	case FILE_FSTAT: {
		struct stat st;
		tmpfs_srv_fill_stat(ino, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	}
	case FILE_GETDENTS:
		return fssrv_getdents(of, m, info, dir_fill);
	case FILE_TRUNCATE:
		return !can_write(of) ? -EBADF : tmpfs_truncate(ino, m->w[0], fssrv_now());
	case FILE_FCHMOD:
		return tmpfs_chmod(ino, (uint32_t)m->w[0], &c, fssrv_now());
	case FILE_FCHOWN:
		return tmpfs_chown(ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1], &c, fssrv_now());
	case FILE_POLL:
		return (short)m->w[0] & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	case FILE_UTIMES: /* futimens */
		return tmpfs_utimes(ino, m->w[0], m->w[1], &c, fssrv_now());
	default:
		return -EINVAL;
	}
}
