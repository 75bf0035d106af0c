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
#include "abi/fs.h"
#include "arbor_sys.h"
#include "vfs.h"

#define CHUNK 65536

void vfs_fill_stat(const struct tmpfs_inode *ino, struct stat *st)
{
	struct tmpfs_stat t;
	tmpfs_stat(ino, &t);
	memset(st, 0, sizeof(*st));
	st->st_dev = 1;
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

static void dev_stat(const struct ofile *of, struct stat *st)
{
	static const unsigned minors[] = { [OF_NULL] = 3, [OF_ZERO] = 5, [OF_URANDOM] = 9 };
	memset(st, 0, sizeof(*st));
	st->st_dev = 2;
	st->st_blksize = 4096;
	st->st_mode = S_IFCHR | 0666;
	st->st_rdev = (1u << 8) | minors[of->kind];
	st->st_ino = minors[of->kind];
}

static bool can_read(const struct ofile *of)
{
	return (of->flags & O_ACCMODE) != O_WRONLY;
}

static bool can_write(const struct ofile *of)
{
	return (of->flags & O_ACCMODE) != O_RDONLY;
}

static long tmpfs_file_read(struct ofile *of, uint64_t off, uint64_t len, bool positional)
{
	char *buf = malloc(CHUNK);
	long done = 0;
	if (!buf)
		return -ENOMEM;
	while ((uint64_t)done < len) {
		long n = tmpfs_read(of->ino, off + (uint64_t)done, buf,
				    len - (uint64_t)done < CHUNK ? len - (uint64_t)done : CHUNK, vfs_now());
		if (n <= 0) {
			if (n < 0 && done == 0)
				done = n;
			break;
		}
		long w = sys_ipc_write((uint64_t)done, buf, (size_t)n);
		if (w <= 0)
			break;
		done += w;
		if (w < n)
			break;
	}
	free(buf);
	if (done > 0 && !positional)
		of->offset += (uint64_t)done;
	return done;
}

static long tmpfs_file_write(struct ofile *of, uint64_t off, uint64_t len, bool positional)
{
	char *buf = malloc(CHUNK);
	long done = 0;
	if (!buf)
		return -ENOMEM;
	if (!positional && (of->flags & O_APPEND)) {
		struct tmpfs_stat st;
		tmpfs_stat(of->ino, &st);
		off = st.size;
	}
	while ((uint64_t)done < len) {
		long n = sys_ipc_read((uint64_t)done, buf,
				      len - (uint64_t)done < CHUNK ? len - (uint64_t)done : CHUNK);
		if (n <= 0)
			break;
		long w = tmpfs_write(of->ino, off + (uint64_t)done, buf, (size_t)n, vfs_now());
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

static long file_read(struct ofile *of, const struct ipc_msg *m, const struct ipc_info *info)
{
	bool positional = m->w[1] == 1;
	if (!can_read(of))
		return -EBADF;
	switch (of->kind) {
	case OF_TMPFS:
		return tmpfs_file_read(of, positional ? m->w[0] : of->offset, info->rcv_len, positional);
	case OF_NULL:
		return 0;
	case OF_ZERO:
	case OF_URANDOM: {
		static uint64_t seed = 0x9e3779b97f4a7c15ull;
		char buf[4096];
		uint64_t len = info->rcv_len < sizeof(buf) ? info->rcv_len : sizeof(buf);
		for (uint64_t i = 0; i < len; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			buf[i] = of->kind == OF_ZERO ? 0 : (char)(seed ^ (uint64_t)sys_clock_ns());
		}
		return sys_ipc_write(0, buf, len);
	}
	default:
		return -EBADF;
	}
}

static long file_write(struct ofile *of, const struct ipc_msg *m, const struct ipc_info *info)
{
	bool positional = m->w[1] == 1;
	if (!can_write(of))
		return -EBADF;
	switch (of->kind) {
	case OF_TMPFS:
		return tmpfs_file_write(of, positional ? m->w[0] : of->offset, info->snd_len, positional);
	case OF_NULL:
	case OF_ZERO:
	case OF_URANDOM:
		return (long)info->snd_len;
	default:
		return -EBADF;
	}
}

static long file_seek(struct ofile *of, int64_t off, int whence)
{
	if (of->kind != OF_TMPFS)
		return 0;
	struct tmpfs_stat st;
	tmpfs_stat(of->ino, &st);
	int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)of->offset :
		       whence == SEEK_END ? (int64_t)st.size : -1;
	if (base < 0 && whence != SEEK_SET)
		return -EINVAL;
	if (base + off < 0)
		return -EINVAL;
	of->offset = (uint64_t)(base + off);
	return (long)of->offset;
}

static long file_readdir(struct ofile *of, struct ipc_msg *m)
{
	if (of->kind != OF_TMPFS || !S_ISDIR(tmpfs_mode(of->ino)))
		return -ENOTDIR;
	struct tmpfs_dirent e;
	uint64_t pos = m->w[0];
	int r = tmpfs_readdir(of->ino, &pos, &e);
	if (r <= 0) {
		m->w[1] = 0;
		return r;
	}
	struct dirent d;
	memset(&d, 0, sizeof(d));
	d.d_ino = e.ino;
	d.d_off = (off_t)pos;
	d.d_reclen = sizeof(d);
	d.d_type = (unsigned char)e.type;
	memcpy(d.d_name, e.name, strnlen(e.name, sizeof(d.d_name) - 1)); /* d is zeroed */
	long w = sys_ipc_write(0, &d, sizeof(d));
	if (w < 0)
		return w;
	m->w[0] = pos;
	m->w[1] = 1;
	return 0;
}

static struct tmpfs_cred cred_of(const struct ipc_info *info)
{
	return (struct tmpfs_cred){ .uid = info->euid, .gid = info->egid };
}

void file_request(struct ofile *of, struct ipc_msg *m, const struct ipc_info *info)
{
	struct tmpfs_cred c = cred_of(info);
	long r = -EINVAL;
	switch (m->label) {
	case FILE_READ:
		r = file_read(of, m, info);
		break;
	case FILE_WRITE:
		r = file_write(of, m, info);
		break;
	case FILE_SEEK:
		r = file_seek(of, (int64_t)m->w[0], (int)m->w[1]);
		break;
	case FILE_FSTAT: {
		struct stat st;
		if (of->kind == OF_TMPFS)
			vfs_fill_stat(of->ino, &st);
		else
			dev_stat(of, &st);
		r = sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
		break;
	}
	case FILE_READDIR:
		r = file_readdir(of, m);
		break;
	case FILE_GETFL:
		r = of->flags;
		break;
	case FILE_SETFL:
		of->flags = (of->flags & ~(O_APPEND | O_NONBLOCK)) | ((int)m->w[0] & (O_APPEND | O_NONBLOCK));
		r = 0;
		break;
	case FILE_TRUNCATE:
		r = of->kind != OF_TMPFS ? -EINVAL : !can_write(of) ? -EBADF :
		    tmpfs_truncate(of->ino, m->w[0], vfs_now());
		break;
	case FILE_FCHMOD:
		r = of->kind != OF_TMPFS ? -EPERM : tmpfs_chmod(of->ino, (uint32_t)m->w[0], &c, vfs_now());
		break;
	case FILE_FCHOWN:
		r = of->kind != OF_TMPFS ? -EPERM :
		    tmpfs_chown(of->ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1], &c, vfs_now());
		break;
	case FILE_POLL: {
		short ev = (short)m->w[0];
		r = ev & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
		break;
	}
	}
	if (m->label == FILE_READ || m->label == FILE_WRITE || m->label == FILE_SEEK ||
	    m->label == FILE_GETFL || m->label == FILE_POLL) {
		if (r >= 0)
			m->w[0] = (uint64_t)r;
	}
	m->label = (uint64_t)(r < 0 ? r : 0);
}
