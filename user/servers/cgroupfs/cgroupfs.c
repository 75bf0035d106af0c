/* cgroupfs: the cgroup2 file system. The hierarchy and every interface
 * file live in the kernel (cgroup/cgfs_core.c); this server translates
 * file-system requests into the cgfs_* system calls and back:
 *
 *   mkdir/rmdir            create/remove a cgroup (needs write access to
 *                          the parent directory; the new one is the
 *                          creator's)
 *   readdir                a cgroup's interface files, then its children
 *   open of a file         checks its mode and owner against the opener,
 *                          then hands over a kernel file object
 *                          (cgfs_open): read, write, pread, lseek, fstat
 *                          and poll on it never pass this server (the
 *                          kernel keeps the opener's ids for its checks)
 *   open of a directory    a channel to this server, for readdir and fstat
 *   chown, chmod           delegation: root may give a cgroup's directory
 *                          and files to a user; owners may chmod
 *   unlink, rename         EPERM: files come and go with their cgroup */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include "abi/cgroup.h"
#include "arbor_sys.h"
#include "fssrv.h"

#define CGROUPFS_DEV 5

struct cg_open {
	char *path;		/* the directory, inside the hierarchy */
};

static void cgroupfs_stat(const struct k_cgnode *n, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = CGROUPFS_DEV;
	st->st_ino = n->ino;
	st->st_mode = (n->kind == CGFS_DIR ? S_IFDIR : S_IFREG) | n->mode;
	st->st_nlink = n->kind == CGFS_DIR ? 2 : 1;
	st->st_uid = n->uid;
	st->st_gid = n->gid;
	st->st_blksize = 4096;
}

/* The directory that holds path, for mkdir/rmdir permission. */
static long cgroupfs_parent_writable(const struct fs_req *r)
{
	char parent[4096];
	struct k_cgnode n;
	size_t len = strlen(r->path);
	if (len >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, r->path, len + 1);
	while (len > 1 && parent[len - 1] == '/')
		parent[--len] = '\0';
	char *slash = strrchr(parent, '/');
	slash[slash == parent ? 1 : 0] = '\0';
	long e = sys_cgfs_stat(parent, &n);
	if (e < 0)
		return e;
	return fssrv_may(n.mode, n.uid, n.gid, r, W_OK | X_OK) ? 0 : -EACCES;
}

static long cgroupfs_open(const struct fs_req *r, const struct k_cgnode *n, int flags)
{
	int acc = flags & O_ACCMODE;
	if (acc == 3)
		return -EINVAL;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (n->kind == CGFS_DIR && acc != O_RDONLY)
		return -EISDIR;
	if (n->kind == CGFS_FILE && (flags & O_DIRECTORY))
		return -ENOTDIR;
	int want = (acc != O_WRONLY ? R_OK : 0) | (acc != O_RDONLY ? W_OK : 0);
	if (!fssrv_may(n->mode, n->uid, n->gid, r, want))
		return -EACCES;
	if (n->kind == CGFS_FILE) { /* the kernel serves it from now on */
		long h = sys_cgfs_open(r->path, flags & (O_ACCMODE | O_APPEND | O_NONBLOCK), r->uid, r->gid);
		long given = h < 0 ? h : sys_ipc_give((int)h);
		if (h >= 0)
			sys_handle_close((int)h);
		return given;
	}
	struct cg_open *o = malloc(sizeof(*o));
	char *path = strdup(r->path);
	struct fs_file *f = o && path ? fssrv_file_new(r->inst, flags) : NULL;
	if (!f) {
		free(o);
		free(path);
		return -ENOMEM;
	}
	o->path = path;
	f->node = o;
	f->kind = (int)n->kind;
	return fssrv_file_give(f);
}

static long cgroupfs_path(const struct fs_req *r, struct ipc_msg *m)
{
	struct k_cgnode n;
	struct stat st;
	long e;
	if (m->label == VFS_MKDIR) {
		if ((e = sys_cgfs_stat(r->path, &n)) == 0)
			return -EEXIST;
		e = cgroupfs_parent_writable(r);
		return e < 0 ? e : sys_cgfs_mkdir(r->path, r->uid, r->gid);
	}
	e = sys_cgfs_stat(r->path, &n);
	if (e < 0)
		return m->label == VFS_OPEN && (m->w[0] & O_CREAT) && e == -ENOENT ? -EACCES : e;
	switch (m->label) {
	case VFS_OPEN:
		e = cgroupfs_open(r, &n, (int)m->w[0]);
		if (e >= 0)
			m->w[0] = (uint64_t)e;
		return e < 0 ? e : 0;
	case VFS_STAT:
		cgroupfs_stat(&n, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case VFS_ACCESS: {
		struct fs_req real = *r;
		real.uid = r->ruid, real.gid = r->rgid;
		return fssrv_may(n.mode, n.uid, n.gid, &real, (int)m->w[0]) ? 0 : -EACCES;
	}
	case VFS_RMDIR:
		if (n.kind != CGFS_DIR)
			return -ENOTDIR;
		e = cgroupfs_parent_writable(r);
		return e < 0 ? e : sys_cgfs_rmdir(r->path);
	case VFS_UNLINK:
		return n.kind == CGFS_DIR ? -EISDIR : -EPERM;
	case VFS_CHOWN: { /* delegation: only root gives away; an owner may change the group to its own */
		int64_t uid = (int32_t)m->w[0], gid = (int32_t)m->w[1];
		if (r->uid != 0 && ((uid >= 0 && (uint32_t)uid != n.uid) || r->uid != n.uid ||
				    (gid >= 0 && (uint32_t)gid != r->gid && (uint32_t)gid != n.gid)))
			return -EPERM;
		return sys_cgfs_setattr(r->path, uid, gid, -1);
	}
	case VFS_CHMOD:
		if (r->uid != 0 && r->uid != n.uid)
			return -EPERM;
		return sys_cgfs_setattr(r->path, -1, -1, (int32_t)(m->w[0] & 07777));
	default: /* rename */
		return -EPERM;
	}
}

static long cgroupfs_readdir(struct fs_file *f, struct ipc_msg *m)
{
	const struct cg_open *o = f->node;
	struct k_cgnode n;
	uint64_t pos = m->w[0];
	if (f->kind != CGFS_DIR)
		return -ENOTDIR;
	if (pos < 2)
		return fssrv_put_dirent(m, 1, DT_DIR, pos ? ".." : ".", pos + 1);
	long next = sys_cgfs_readdir(o->path, pos - 2, &n);
	if (next <= 0) {
		m->w[1] = 0;
		return next;
	}
	return fssrv_put_dirent(m, n.ino, n.kind == CGFS_DIR ? DT_DIR : DT_REG, n.name, (uint64_t)next + 2);
}

static long cgroupfs_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	(void)info;
	const struct cg_open *o = f->node;
	struct k_cgnode n;
	struct stat st;
	long e;
	switch (m->label) {
	case FILE_READ:
		return -EISDIR; /* only directories are this server's to serve */
	case FILE_WRITE:
		return -EBADF;
	case FILE_SEEK:
		return fssrv_data_seek(f, (int64_t)m->w[0], (int)m->w[1]);
	case FILE_FSTAT:
		if ((e = sys_cgfs_stat(o->path, &n)) < 0)
			return e;
		cgroupfs_stat(&n, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case FILE_READDIR:
		return cgroupfs_readdir(f, m);
	case FILE_POLL:
		return (short)m->w[0] & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	default:
		return -EPERM;
	}
}

static void cgroupfs_release(struct fs_file *f)
{
	struct cg_open *o = f->node;
	free(o->path);
	free(o);
}

static const struct fs_type cgroupfs_type = {
	.name = "cgroup2",
	.mount = fssrv_mount_single, /* one hierarchy, whatever the mount */
	.path = cgroupfs_path,
	.file = cgroupfs_file,
	.release = cgroupfs_release,
};

int main(void)
{
	return fssrv_main(&cgroupfs_type);
}
