/* cgroup2 path requests (cgfs_paths.h): the cgfs server's, and the
 * VFS's own for a cgroup2 mount (one IPC hop less). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fcntl.h"
#include "arbor_sys.h"
#include "cgfs_paths.h"

#define CGROUPFS_DEV 5

void cgfs_fill_stat(const struct k_cgnode *n, struct stat *st)
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

const char *cgfs_kpath(uint64_t root, const char *path, char *buf, size_t cap)
{
	if (!root)
		return path;
	int n = snprintf(buf, cap, "@%llu%s", (unsigned long long)root, path);
	return n < 0 || (size_t)n >= cap ? NULL : buf;
}

static long cgfs_open_node(const struct fs_req *r, const char *kpath, const struct k_cgnode *n, int flags,
			   long (*open_dir)(const struct fs_req *r, int flags))
{
	int acc = flags & O_ACCMODE;
	if (acc == 3)
		return -EINVAL;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (flags & K_O_TMPFILE_BIT) /* kernfs makes no unnamed files */
		return fssrv_no_tmpfile(flags, (n->kind == CGFS_DIR ? S_IFDIR : S_IFREG) | n->mode, n->uid, n->gid, r);
	if (n->kind == CGFS_DIR && acc != O_RDONLY)
		return -EISDIR;
	if (n->kind == CGFS_FILE && (flags & O_DIRECTORY))
		return -ENOTDIR;
	int want = (acc != O_WRONLY ? R_OK : 0) | (acc != O_RDONLY ? W_OK : 0);
	if (!fssrv_may(n->mode, n->uid, n->gid, r, want))
		return -EACCES;
	if (n->kind == CGFS_DIR)
		return open_dir ? open_dir(r, flags) : CGFS_PATHS_FORWARD;
	/* A file: a kernel object serves it from now on, to the caller. */
	long h = sys_cgfs_open(kpath, flags & (O_ACCMODE | O_APPEND | O_NONBLOCK), r->uid, r->gid, r->pid);
	long given = h < 0 ? h : sys_ipc_give((int)h);
	if (h >= 0)
		sys_handle_close((int)h);
	return given;
}

long cgfs_path_request(const struct fs_req *r, uint64_t root, struct ipc_msg *m,
		       long (*open_dir)(const struct fs_req *r, int flags))
{
	struct k_cgnode n;
	struct stat st;
	long e;
	char buf[CGFS_KPATH_MAX];
	const char *kpath = cgfs_kpath(root, r->path, buf, sizeof(buf));
	if (!kpath)
		return -ENAMETOOLONG;
	if (m->label == VFS_MKDIR) /* the kernel checks the parent's permission */
		return sys_cgfs_mkdir(kpath, r->uid, r->gid);
	if (m->label == VFS_RMDIR)
		return sys_cgfs_rmdir(kpath, r->uid, r->gid);
	e = sys_cgfs_stat(kpath, &n);
	if (e < 0)
		return m->label == VFS_OPEN && (m->w[0] & O_CREAT) && e == -ENOENT ? -EACCES : e;
	switch (m->label) {
	case VFS_OPEN:
		e = cgfs_open_node(r, kpath, &n, (int)m->w[0], open_dir);
		if (e >= 0 && e != CGFS_PATHS_FORWARD)
			m->w[0] = (uint64_t)e;
		return e < 0 || e == CGFS_PATHS_FORWARD ? e : 0;
	case VFS_STAT:
		cgfs_fill_stat(&n, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case VFS_ACCESS: {
		struct fs_req real = *r;
		real.uid = r->ruid, real.gid = r->rgid;
		return fssrv_may(n.mode, n.uid, n.gid, &real, (int)m->w[0]) ? 0 : -EACCES;
	}
	case VFS_UNLINK:
		return n.kind == CGFS_DIR ? -EISDIR : -EPERM;
	case VFS_CHOWN: { /* delegation: only root gives away; an owner may change the group to its own */
		int64_t uid = (int32_t)m->w[0], gid = (int32_t)m->w[1];
		if (r->uid != 0 && ((uid >= 0 && (uint32_t)uid != n.uid) || r->uid != n.uid ||
				    (gid >= 0 && (uint32_t)gid != r->gid && (uint32_t)gid != n.gid)))
			return -EPERM;
		return sys_cgfs_setattr(kpath, uid, gid, -1);
	}
	case VFS_CHMOD:
		if (r->uid != 0 && r->uid != n.uid)
			return -EPERM;
		return sys_cgfs_setattr(kpath, -1, -1, (int32_t)(m->w[0] & 07777));
	default: /* rename */
		return -EPERM;
	}
}
