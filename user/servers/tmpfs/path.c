/* Requests that name a path, forwarded by the VFS: open, stat, mkdir,
 * rmdir, unlink, rename, chmod, chown, access. Paths start at the
 * instance's root; permissions use the identity the VFS had from the
 * kernel. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "tmpfs_srv.h"

static long path_open(struct tmpfs *fs, const char *path, int flags, uint32_t mode,
		      const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	int acc = flags & O_ACCMODE;
	long r;

	if (acc == 3)
		return -EINVAL;
	if (flags & O_CREAT)
		r = tmpfs_create_node(fs, path, TMPFS_S_IFREG | (mode & 07777), 0, c, fssrv_now(),
				      (flags & O_EXCL) != 0, &ino);
	else
		r = tmpfs_lookup(fs, path, c, &ino);
	if (r < 0)
		return r;
	uint32_t type = tmpfs_mode(ino) & TMPFS_S_IFMT;
	if ((flags & O_DIRECTORY) && type != TMPFS_S_IFDIR)
		return -ENOTDIR;
	if (type == TMPFS_S_IFDIR && (acc != O_RDONLY || (flags & O_TRUNC)))
		return -EISDIR;
	int need = (acc != O_WRONLY ? TMPFS_R_OK : 0) | (acc != O_RDONLY ? TMPFS_W_OK : 0);
	bool created = (flags & O_CREAT) && r == 1;
	if (!created) { /* a file we just created is ours whatever its mode */
		long a = tmpfs_access(ino, need, c);
		if (a < 0)
			return a;
	}
	if ((flags & O_TRUNC) && acc != O_RDONLY && type == TMPFS_S_IFREG)
		tmpfs_truncate(ino, 0, fssrv_now());
	struct fs_file *f = fssrv_file_new(fs, flags);
	if (!f)
		return -ENOMEM;
	f->node = ino;
	f->pcache = tmpfs_data_id(ino); /* the kernel serves its data */
	tmpfs_open_ref(ino);
	return fssrv_file_give(f);
}

static long path_stat(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	struct stat st;
	long r = tmpfs_lookup(fs, path, c, &ino);
	if (r < 0)
		return r;
	tmpfs_srv_fill_stat(ino, &st);
	return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
}

long tmpfs_srv_path(const struct fs_req *r, struct ipc_msg *m)
{
	struct tmpfs *fs = r->inst;
	struct tmpfs_cred c = { .uid = r->uid, .gid = r->gid };
	struct tmpfs_inode *ino;
	const char *path = r->path;
	long e;

	switch (m->label) {
	case VFS_OPEN:
		e = path_open(fs, path, (int)m->w[0], (uint32_t)m->w[1], &c);
		if (e >= 0)
			m->w[0] = (uint64_t)e;
		return e < 0 ? e : 0;
	case VFS_STAT:
		return path_stat(fs, path, &c);
	case VFS_MKDIR:
		return tmpfs_mkdir(fs, path, (uint32_t)m->w[0] & 07777, &c, fssrv_now());
	case VFS_RMDIR:
		return tmpfs_rmdir(fs, path, &c, fssrv_now());
	case VFS_UNLINK:
		return tmpfs_unlink(fs, path, &c, fssrv_now());
	case VFS_RENAME:
		return tmpfs_rename(fs, path, r->path2, &c, fssrv_now());
	case VFS_CHMOD:
		e = tmpfs_lookup(fs, path, &c, &ino);
		return e < 0 ? e : tmpfs_chmod(ino, (uint32_t)m->w[0], &c, fssrv_now());
	case VFS_CHOWN:
		e = tmpfs_lookup(fs, path, &c, &ino);
		return e < 0 ? e : tmpfs_chown(ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1],
					       &c, fssrv_now());
	case VFS_ACCESS: {
		/* access(2) asks about the real ids, not the effective. */
		struct tmpfs_cred real = { .uid = r->ruid, .gid = r->rgid };
		e = tmpfs_lookup(fs, path, &real, &ino);
		return e < 0 ? e : tmpfs_access(ino, (int)m->w[0], &real);
	}
	default:
		return -EINVAL;
	}
}
