/* Requests that name a path, forwarded by the VFS: open, stat, mkdir,
 * rmdir, unlink, rename, chmod, chown, access, symlink, readlink, link,
 * utimes, statfs. Paths start at the instance's root; permissions use
 * the identity the VFS had from the kernel. A walk that meets a symlink to
 * follow or a ".." the VFS resolves (FS_WALK_DOTDOT_*) replies
 * FS_HANDBACK with where it stopped (abi/fs.h), and the VFS walks on. */
#define _GNU_SOURCE 1 /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fcntl.h"
#include "arbor_sys.h"
#include "tmpfs_srv.h"
#include "arbor/hot.h"

/* TMPFS_HANDBACK into the reply (and the link's text into the VFS's
 * receive buffer). */
/* path_open's mark on a FIFO end's handle (never a handle's own bit) */
#define TMPFS_OPEN_FIFO (1l << 40)

static long handback(struct tmpfs *fs, struct ipc_msg *m)
{
	const struct tmpfs_handback *hb = tmpfs_handback(fs);
	if (hb->kind == TMPFS_HB_LINK && sys_ipc_write(0, hb->target, hb->tlen) != (long)hb->tlen)
		return -ENAMETOOLONG; /* the VFS offers a whole path's room: never */
	m->w[0] = hb->kind == TMPFS_HB_LINK ? FS_HB_LINK : FS_HB_DOTDOT;
	m->w[1] = hb->which;
	m->w[2] = hb->off;
	m->w[3] = hb->len;
	m->w[4] = hb->tlen;
	return FSSRV_HANDBACK;
}

/* Whether an open with flags is answered with a descriptor the kernel
 * makes (ncache_give): a regular file's, with no status flag but the open
 * mode and O_APPEND for the kernel to keep (what ncache_open makes). */
static ARBOR_HOT bool kfile_flags(int flags)
{
	return !(flags & ~(O_ACCMODE | O_APPEND | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_LARGEFILE |
			   O_NOCTTY));
}

/* An open of FIFO ino for reading, writing or both: an end of the
 * kernel's pipe behind it (made with the first open), given to the
 * caller, who waits for the other side (fifo_wait) when it sees
 * TMPFS_OPEN_FIFO. The end keeps a file of ino, which its fstat, fchmod
 * and the like reach (so the inode lives while an end is open, as
 * Linux's). */
static long fifo_open(struct tmpfs *fs, struct tmpfs_inode *ino, int flags)
{
	int64_t node = tmpfs_fifo_get(ino);
	if (node < 0) {
		node = sys_fifo_create();
		if (node < 0)
			return node;
		tmpfs_fifo_set(ino, node);
	}
	struct fs_file *f = fssrv_file_new(fs, flags & O_ACCMODE);
	if (!f)
		return -ENOMEM;
	f->node = ino;
	tmpfs_open_ref(ino);
	long h = fssrv_fifo_give(f, (int)node, flags);
	return h < 0 ? h : TMPFS_OPEN_FIFO | h;
}

/* open(path, O_TMPFILE | O_WRONLY or O_RDWR [| O_EXCL], mode): an
 * unnamed file in the directory path names, on a descriptor of ours (its
 * data in the kernel's page cache as any file's, so charged as shmem to
 * whoever writes it; freed with its last descriptor). */
static long tmpfile_open(struct tmpfs *fs, const char *path, int flags, uint64_t mode,
			 const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	long e = fssrv_tmpfile_flags(flags);
	if (e < 0)
		return e;
	e = tmpfs_tmpfile(fs, path, (uint32_t)mode & 07777,
			  ((flags & O_EXCL) ? TMPFS_EXCL : 0) | ((flags & O_NOFOLLOW) ? TMPFS_NOFOLLOW : 0), c,
			  fssrv_now(), &ino);
	if (e < 0)
		return e;
	tmpfs_open_ref(ino); /* ours from now on: the last close frees it */
	struct fs_file *f = fssrv_file_new(fs, flags & ~O_DIRECTORY);
	if (!f) {
		tmpfs_close_ref(ino);
		return -ENOMEM;
	}
	f->flags |= K_O_TMPFILE_BIT | O_DIRECTORY; /* F_GETFL shows O_TMPFILE, as Linux's */
	f->node = ino;
	f->pcache = tmpfs_data_id(ino); /* the kernel serves its data */
	return fssrv_file_give(f);
}

static ARBOR_HOT long open_inode(struct tmpfs *fs, uint32_t inst_id, struct tmpfs_inode *ino, int flags,
				 const struct tmpfs_cred *c, bool created);

static ARBOR_HOT long path_open(struct tmpfs *fs, const struct fs_req *r0, const char *path, int flags, uint64_t mode,
		      const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	int acc = flags & O_ACCMODE;
	long r;

	if (acc == 3)
		return -EINVAL;
	if (flags & K_O_TMPFILE_BIT)
		return tmpfile_open(fs, path, flags, mode, c);
	/* O_CREAT | O_EXCL | O_PATH with S_IFSOCK in mode: the C library's
	 * bind making a socket's file (docs/sockets.md); an O_PATH
	 * descriptor of it answers, for its fstat. */
	/* The same with S_IFIFO, S_IFCHR or S_IFBLK: mknod (the device number
	 * in mode's high half); S_IFREG: mknod of a regular file. */
	uint32_t mtype = mode & TMPFS_S_IFMT;
	bool node = (flags & (O_CREAT | O_EXCL | O_PATH)) == (O_CREAT | O_EXCL | O_PATH) &&
		    (mtype == TMPFS_S_IFSOCK || mtype == TMPFS_S_IFIFO || mtype == TMPFS_S_IFCHR ||
		     mtype == TMPFS_S_IFBLK || mtype == TMPFS_S_IFREG);
	if (node)
		r = tmpfs_create_node(fs, path, mtype | (mode & 07777), (uint32_t)(mode >> 32), c, fssrv_now(),
				      TMPFS_EXCL, &ino);
	else if (flags & O_CREAT)
		r = tmpfs_create_node(fs, path, TMPFS_S_IFREG | (mode & 07777), 0, c, fssrv_now(),
				      ((flags & O_EXCL) ? TMPFS_EXCL : 0) |
				      ((flags & O_NOFOLLOW) ? TMPFS_NOFOLLOW : 0), &ino);
	else if (flags & O_NOFOLLOW)
		r = tmpfs_lookup_nofollow(fs, path, c, &ino);
	else
		r = tmpfs_lookup(fs, path, c, &ino);
	if (r < 0)
		return r;
	return open_inode(fs, r0->inst_id, ino, flags, c, (flags & O_CREAT) && r == 1);
}

/* The open of inode ino (found by a walk, or by FILE_REOPEN) with flags
 * for c; created: c just made it (no permission check). */
static ARBOR_HOT long open_inode(struct tmpfs *fs, uint32_t inst_id, struct tmpfs_inode *ino, int flags,
				 const struct tmpfs_cred *c, bool created)
{
	int acc = flags & O_ACCMODE;
	uint32_t type = tmpfs_mode(ino) & TMPFS_S_IFMT;
	bool path_only = flags & O_PATH; /* names the file: no access to it */
	if (type == TMPFS_S_IFLNK && !path_only)
		return -ELOOP; /* O_NOFOLLOW on a link (with O_PATH: the link itself) */
	if ((flags & O_DIRECTORY) && type != TMPFS_S_IFDIR)
		return -ENOTDIR;
	if (path_only) { /* the walk checked search permission: that is all */
		struct fs_file *f = fssrv_file_new(fs, flags);
		if (!f)
			return -ENOMEM;
		f->node = ino;
		if (type == TMPFS_S_IFREG)
			f->pcache = tmpfs_data_id(ino); /* fstat from the kernel */
		else if (type == TMPFS_S_IFSOCK) /* the kernel's bind and connect */
			f->pcache = tmpfs_sock_obj(ino);
		tmpfs_open_ref(ino);
		return fssrv_file_give(f);
	}
	if (type == TMPFS_S_IFDIR && (acc != O_RDONLY || (flags & O_TRUNC)))
		return -EISDIR;
	if (type == TMPFS_S_IFSOCK || type == TMPFS_S_IFCHR || type == TMPFS_S_IFBLK)
		return -ENXIO; /* a socket's file is not opened, as Linux; nor a device
				  node: no driver answers to device numbers here */
	int need = (acc != O_WRONLY ? TMPFS_R_OK : 0) | (acc != O_RDONLY ? TMPFS_W_OK : 0);
	if (!created) { /* a file we just created is ours whatever its mode */
		long a = tmpfs_access(ino, need, c);
		if (a < 0)
			return a;
	}
	if (type == TMPFS_S_IFIFO)
		return fifo_open(fs, ino, flags);
	if ((flags & O_TRUNC) && acc != O_RDONLY && type == TMPFS_S_IFREG) {
		long t = tmpfs_truncate(ino, 0, fssrv_now());
		if (t < 0)
			return t; /* a running program: ETXTBSY (the kernel's) */
	}
	if (type == TMPFS_S_IFREG && tmpfs_data_id(ino) && kfile_flags(flags)) {
		/* the kernel's descriptor: its close costs no call to us (the
		 * kernel counts it; pcache_free waits for it, tmpfs_kclosed);
		 * ETXTBSY for writing to a running program is the kernel's */
		long h = sys_ncache_give(fssrv_endpoint(), inst_id, tmpfs_data_id(ino),
					(uint32_t)flags & (O_ACCMODE | O_APPEND));
		if (h != -ENOENT)
			return h;
	}
	struct fs_file *f = fssrv_file_new(fs, flags);
	if (!f)
		return -ENOMEM;
	f->node = ino;
	f->pcache = tmpfs_data_id(ino); /* the kernel serves its data */
	tmpfs_open_ref(ino);
	return fssrv_file_give(f);
}

static ARBOR_HOT int lookup(struct tmpfs *fs, const struct fs_req *r, const struct tmpfs_cred *c,
		  struct tmpfs_inode **ino)
{
	return (r->walk & FS_WALK_NOFOLLOW) ? tmpfs_lookup_nofollow(fs, r->path, c, ino) :
					      tmpfs_lookup(fs, r->path, c, ino);
}

static ARBOR_HOT long path_stat(struct tmpfs *fs, const struct fs_req *r, const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	struct stat st;
	if (r->walk & FS_WALK_PARENT) { /* the VFS asks where the parent lies */
		char name[TMPFS_NAME_MAX + 1];
		int e = tmpfs_lookup_parent(fs, r->path, c, &ino, name);
		return e < 0 ? e : 0;
	}
	long e = lookup(fs, r, c, &ino);
	if (e < 0)
		return e;
	tmpfs_srv_fill_stat(ino, &st);
	return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
}

static long path_readlink(struct tmpfs *fs, const struct fs_req *r, const struct tmpfs_cred *c,
			  struct ipc_msg *m)
{
	struct tmpfs_inode *ino;
	char buf[TMPFS_PATH_MAX];
	long e = tmpfs_lookup_nofollow(fs, r->path, c, &ino);
	if (e >= 0)
		e = tmpfs_readlink(ino, buf, sizeof(buf));
	if (e < 0)
		return e;
	long w = sys_ipc_write(0, buf, (size_t)e);
	if (w < 0)
		return w;
	m->w[0] = (uint64_t)w;
	return 0;
}

/* The kernel's name cache missed this stat or access (FS_WALK_NCMISS):
 * the names the walk met go into it, under the lock that orders every
 * change of names, so the next lookup of the path is the kernel's
 * (docs/vfs.md, "The name cache"). */
static ARBOR_HOT void trail_install(struct tmpfs *fs, const char *path, size_t len)
{
	const struct tmpfs_trail_step *t;
	struct ncache_rec rec[TMPFS_TRAIL_MAX];
	uint32_t n = tmpfs_trail_take(fs, &t);
	for (uint32_t i = 0; i < n; i++)
		rec[i] = (struct ncache_rec){ .dir = (uint32_t)t[i].dir, .child = (uint32_t)t[i].child,
					      .off = (uint16_t)(t[i].name - path), .len = (uint16_t)t[i].len };
	if (n)
		sys_ncache_add(fssrv_endpoint(), path, len, rec, n);
}

static ARBOR_HOT long path_request(struct tmpfs *fs, const struct fs_req *r, struct ipc_msg *m)
{
	struct tmpfs_cred c = { .uid = r->uid, .gid = r->gid, .pid = r->pid, .member = fssrv_in_group };
	struct tmpfs_inode *ino;
	const char *path = r->path;
	long e;

	switch (m->label) {
	case VFS_OPEN:
		e = path_open(fs, r, path, (int)m->w[0], m->w[1], &c);
		if (e >= 0)
			m->w[0] = (uint64_t)e & ~TMPFS_OPEN_FIFO;
		return e < 0 ? e : (e & TMPFS_OPEN_FIFO) ? FSSRV_OPEN_FIFO : 0;
	case VFS_STAT:
		return path_stat(fs, r, &c);
	case VFS_MKDIR:
		return tmpfs_mkdir(fs, path, (uint32_t)m->w[0] & 07777, &c, fssrv_now());
	case VFS_RMDIR:
		return tmpfs_rmdir(fs, path, &c, fssrv_now());
	case VFS_UNLINK:
		return tmpfs_unlink(fs, path, &c, fssrv_now());
	case VFS_RENAME:
		return tmpfs_rename(fs, path, r->path2, &c, fssrv_now());
	case VFS_SYMLINK: /* "linkpath\0target" */
		return tmpfs_symlink(fs, r->path2, path, &c, fssrv_now());
	case VFS_LINK:
		return tmpfs_link(fs, path, r->path2, (m->w[0] & 0x400) != 0, &c, fssrv_now());
	case VFS_READLINK:
		return path_readlink(fs, r, &c, m);
	case VFS_CHMOD:
		e = lookup(fs, r, &c, &ino);
		return e < 0 ? e : tmpfs_chmod(ino, (uint32_t)m->w[0], &c, fssrv_now());
	case VFS_CHOWN:
		e = lookup(fs, r, &c, &ino);
		return e < 0 ? e : tmpfs_chown(ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1],
					       &c, fssrv_now());
	case VFS_UTIMES:
		e = lookup(fs, r, &c, &ino);
		return e < 0 ? e : tmpfs_utimes(ino, m->w[0], m->w[1], &c, fssrv_now());
	case VFS_STATFS:
		e = lookup(fs, r, &c, &ino);
		return e < 0 ? e : fssrv_statfs_write(r->inst_id);
	case VFS_ACCESS: {
		/* access(2) asks about the real ids, faccessat(AT_EACCESS)
		 * the effective ones. */
		struct tmpfs_cred real = { .uid = r->ruid, .gid = r->rgid, .pid = r->pid, .member = fssrv_in_group };
		const struct tmpfs_cred *who = (r->walk & FS_WALK_EACCESS) ? &c : &real;
		e = lookup(fs, r, who, &ino);
		return e < 0 ? e : tmpfs_access(ino, (int)m->w[0], who);
	}
	default:
		return -EINVAL;
	}
}

ARBOR_HOT long tmpfs_srv_path(const struct fs_req *r, struct ipc_msg *m)
{
	struct tmpfs *fs = r->inst;
	tmpfs_set_walk(fs, ((r->walk & FS_WALK_DOTDOT_ROOT) ? TMPFS_WALK_DOTDOT_ROOT : 0) |
			   ((r->walk & FS_WALK_DOTDOT_ALL) ? TMPFS_WALK_DOTDOT_ALL : 0));
	bool trail = (r->walk & FS_WALK_NCMISS) && !(r->walk & FS_WALK_PARENT) &&
		     (m->label == VFS_STAT || m->label == VFS_ACCESS ||
		      (m->label == VFS_OPEN && !(m->w[0] & O_CREAT)));
	/* a rename the kernel's name cache could not make (it did not know
	 * the names, or its log was full): the names it settles go into the
	 * cache, so that the next rename between them is the kernel's
	 * (docs/vfs.md, "Renames without a round trip") */
	bool renamed = m->label == VFS_RENAME && r->path2;
	/* a name made or removed: the kernel learns it (make_node,
	 * remove_entry) instead of forgetting the directory's names, so that
	 * the next unlink or rmdir there can be the kernel's (docs/vfs.md,
	 * "Unlink and rmdir without a round trip") */
	bool made = m->label == VFS_MKDIR || m->label == VFS_UNLINK || m->label == VFS_RMDIR ||
		    (m->label == VFS_OPEN && (m->w[0] & O_CREAT));
	if (trail || renamed || made)
		tmpfs_trail_start(fs);
	long e = path_request(fs, r, m);
	if (trail || made)
		trail_install(fs, r->path, strlen(r->path));
	else if (renamed)
		trail_install(fs, r->path, (size_t)(r->path2 - r->path) + strlen(r->path2));
	return e == TMPFS_HANDBACK ? handback(fs, m) : e;
}

long tmpfs_srv_dirpath(struct fs_file *f, char *buf, size_t cap)
{
	return tmpfs_dir_path(f->node, buf, cap);
}

long tmpfs_srv_filepath(struct fs_file *f, char *buf, size_t cap)
{
	return tmpfs_file_path(f->node, (f->flags & K_O_TMPFILE_BIT) != 0, buf, cap);
}

long tmpfs_srv_reopen(struct fs_file *f, int flags, const struct ipc_info *info)
{
	struct tmpfs_cred c = { .uid = info->euid, .gid = info->egid, .pid = info->pid, .member = fssrv_in_group };
	if ((flags & O_ACCMODE) == 3)
		return -EINVAL;
	return open_inode(f->inst, f->inst_id, f->node, flags & ~(O_CREAT | O_EXCL | K_O_TMPFILE_BIT), &c, false);
}
