/* cgroup2 path requests (cgfs_paths.h): the cgfs server's, and the
 * VFS's own for a cgroup2 mount (one IPC hop less). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
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

/* The mode of n as stat shows it (type bits too: fssrv_may lets root
 * search a directory whatever its x bits). */
static uint32_t cgfs_mode(const struct k_cgnode *n)
{
	return (n->kind == CGFS_DIR ? S_IFDIR : S_IFREG) | n->mode;
}

/* The node of path's parent directory (path has a '/' past its first),
 * path relative to the mount whose root is root (cgfs_kpath). */
static long cgfs_parent(uint64_t root, const char *path, struct k_cgnode *n)
{
	char buf[CGFS_KPATH_MAX], kbuf[CGFS_KPATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t len = slash && slash != path ? (size_t)(slash - path) : 1;
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len);
	buf[len] = '\0';
	const char *k = cgfs_kpath(root, buf, kbuf, sizeof(kbuf));
	return k ? sys_cgfs_stat(k, n) : -ENAMETOOLONG;
}

/* Linux's may_delete for victim v in directory d: write and search in d,
 * the sticky bit, and the type the rename wants (dir: it moves a directory). */
static long cgfs_may_delete(const struct fs_req *r, const struct k_cgnode *d, const struct k_cgnode *v, bool dir)
{
	if (!fssrv_may(cgfs_mode(d), d->uid, d->gid, r, W_OK | X_OK))
		return -EACCES;
	if ((d->mode & S_ISVTX) && r->uid != 0 && r->uid != v->uid && r->uid != d->uid)
		return -EPERM;
	if (dir && v->kind != CGFS_DIR)
		return -ENOTDIR;
	if (!dir && v->kind == CGFS_DIR)
		return -EISDIR;
	return 0;
}

/* rename(from, to), from existing as src: Linux's checks in its order
 * (do_renameat2, then vfs_rename; the walks of both parents are the
 * caller's, first), then kernfs's answer for cgroup2, which has no rename
 * operation: EPERM. */
static long cgfs_rename(const struct fs_req *r, uint64_t root, const char *from, const char *to,
			const struct k_cgnode *src)
{
	size_t fl = strlen(from), tl = strlen(to);
	struct k_cgnode dst, fdir, tdir;
	char kbuf[CGFS_KPATH_MAX];
	const char *kto = cgfs_kpath(root, to, kbuf, sizeof(kbuf));
	if (!kto)
		return -ENAMETOOLONG;
	bool target = sys_cgfs_stat(kto, &dst) == 0;
	/* the source an ancestor of the target: EINVAL; the target of the source: ENOTEMPTY */
	if (tl > fl && !strncmp(to, from, fl) && to[fl] == '/')
		return -EINVAL;
	if (fl > tl && !strncmp(from, to, tl) && (from[tl] == '/' || tl == 1))
		return -ENOTEMPTY;
	if (!strcmp(from, to))
		return 0; /* vfs_rename: source == target */
	long e = cgfs_parent(root, from, &fdir);
	if (e < 0)
		return e;
	bool dir = src->kind == CGFS_DIR;
	if ((e = cgfs_may_delete(r, &fdir, src, dir)) < 0)
		return e;
	if ((e = cgfs_parent(root, to, &tdir)) < 0)
		return e;
	if (target)
		e = cgfs_may_delete(r, &tdir, &dst, dir);
	else if (!fssrv_may(cgfs_mode(&tdir), tdir.uid, tdir.gid, r, W_OK | X_OK))
		e = -EACCES; /* may_create */
	if (e < 0)
		return e;
	if (dir && tdir.ino != fdir.ino && !fssrv_may(cgfs_mode(src), src->uid, src->gid, r, W_OK))
		return -EACCES; /* a directory changing parents: its ".." */
	return -EPERM;
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
	case VFS_RENAME:
		return r->path2 ? cgfs_rename(r, root, r->path, r->path2, &n) : -EINVAL;
	default:
		return -EPERM;
	}
}
