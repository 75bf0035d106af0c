/* The ext2 server's path requests (forwarded by the VFS or direct):
 * open, stat, mkdir, rmdir, unlink, rename, chmod, chown, access,
 * symlink, readlink, link, utimes, statfs. The core takes one name in a
 * directory; the walk is here, with tmpfs's rules (docs/vfs.md, "Links"):
 * search permission on every directory, a link in the middle of a path or
 * a final one to follow handed back with its text, ".." walked on the disk
 * except where the VFS resolves it (FS_WALK_DOTDOT_*). Permissions are
 * Linux's generic_permission, sticky directories and protected hard links
 * included, for the identity the skeleton decoded (the kernel's for a
 * direct call). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fcntl.h"
#include "arbor_sys.h"
#include "ext2_srv.h"

#define E2_HANDBACK 1000	/* a walk result, never an errno */
#define E2_FIFO 1001		/* e2_open found a FIFO to open: e2ctx.fifo_node, its node */

/* One step of a walk, for the kernel's name cache: name (in the
 * request's path) in directory dir is child, or (0) no such name. */
struct e2trail {
	uint32_t dir, child;
	const char *name;
	uint32_t len;
};

/* One request's walk. */
struct e2ctx {
	struct e2inst *in;
	uint32_t uid, gid;
	int32_t pid;		/* the caller (its supplementary groups) */
	uint64_t walk;		/* FS_WALK_* */
	uint32_t which;		/* the path being walked (0, or 1: rename's and link's second) */
	const char *path;
	bool trail;		/* recording the names the walk meets (FS_WALK_NCMISS) */
	uint64_t nc_at;		/* in->nc_changes when the walk began */
	uint32_t ntrail;
	struct e2trail steps[E2_TRAIL_MAX];
	long fifo_node;		/* E2_FIFO: our duplicate of the FIFO's node handle */
};

struct e2pw {
	uint32_t dir;
	const char *name;
	uint32_t len;
	bool slash;
};

enum { E2_NORM, E2_ROOT, E2_DOT, E2_DOTDOT };

static int e2_name_type(const char *n, uint32_t len)
{
	if (len == 0)
		return E2_ROOT;
	if (len == 1 && n[0] == '.')
		return E2_DOT;
	if (len == 2 && n[0] == '.' && n[1] == '.')
		return E2_DOTDOT;
	return E2_NORM;
}

static bool e2_isdir(const struct ext2_stat *st)
{
	return (st->mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
}

static bool e2_islnk(const struct ext2_stat *st)
{
	return (st->mode & EXT2_S_IFMT) == EXT2_S_IFLNK;
}

int e2_permission(const struct ext2_stat *st, int mask, uint32_t uid, uint32_t gid, int32_t pid)
{
	uint32_t mode = st->mode;
	if (uid == st->uid)
		mode >>= 6;
	else if (gid == st->gid ||
		 /* pid's supplementary groups (a system call) only when the
		  * group's bits and the others' differ for mask */
		 ((((mode >> 3) ^ mode) & (unsigned)mask & 7) && fssrv_in_group(pid, st->gid)))
		mode >>= 3;
	if (!(mask & ~mode & 7))
		return 0;
	if (uid != 0)
		return -EACCES;
	if (!(mask & X_OK) || e2_isdir(st) || (st->mode & 0111))
		return 0;
	return -EACCES;
}

static int e2_perm(struct e2ctx *c, uint32_t ino, int mask)
{
	struct ext2_stat st;
	int r = ext2_stat(c->in->fs, ino, &st);
	return r ? r : e2_permission(&st, mask, c->uid, c->gid, c->pid);
}

/* Records a handback (the link's text read now) for the reply. */
static int e2_hb(struct e2ctx *c, int kind, const char *comp, uint32_t len, uint32_t link)
{
	struct e2inst *in = c->in;
	in->hb.kind = kind;
	in->hb.which = c->which;
	in->hb.off = (uint32_t)(comp - c->path);
	in->hb.len = len;
	in->hb.tlen = 0;
	if (link) {
		int n = ext2_readlink(in->fs, link, in->hb.target, sizeof(in->hb.target));
		if (n < 0)
			return n;
		in->hb.tlen = (uint32_t)n;
	}
	return E2_HANDBACK;
}

static bool e2_dotdot_hands_back(const struct e2ctx *c, uint32_t dir)
{
	return (c->walk & FS_WALK_DOTDOT_ALL) || ((c->walk & FS_WALK_DOTDOT_ROOT) && dir == E2_ROOT_INO);
}

static int e2_step(struct e2ctx *c, uint32_t dir, const char *name, uint32_t len, uint32_t *out)
{
	if (len > E2_NAME_MAX)
		return -ENAMETOOLONG;
	if (e2_name_type(name, len) == E2_DOT) {
		*out = dir;
		return 0;
	}
	int r = ext2_lookup(c->in->fs, dir, name, len, out); /* ".." is on the disk */
	if (c->trail && c->which == 0 && (r == 0 || r == -ENOENT) && c->ntrail < E2_TRAIL_MAX &&
	    e2_name_type(name, len) == E2_NORM)
		c->steps[c->ntrail++] = (struct e2trail){ .dir = dir, .child = r ? 0 : *out, .name = name, .len = len };
	return r;
}

static int e2_path_check(const char *path)
{
	if (!*path)
		return -ENOENT;
	if (*path != '/')
		return -EINVAL;
	return strnlen(path, E2_PATH_MAX) < E2_PATH_MAX ? 0 : -ENAMETOOLONG;
}

/* All but the last component of path (tmpfs's walk_parent_of). */
static int e2_walk_parent(struct e2ctx *c, const char *path, uint32_t which, struct e2pw *w)
{
	uint32_t dir = E2_ROOT_INO, next;
	struct ext2_stat st;
	int err = e2_path_check(path);
	c->which = which;
	c->path = path;
	if (err)
		return err;
	const char *p = path;
	while (*p == '/')
		p++;
	*w = (struct e2pw){ .dir = dir, .name = p, .len = 0 };
	while (*p) {
		uint32_t len = (uint32_t)strcspn(p, "/");
		const char *rest = p + len;
		while (*rest == '/')
			rest++;
		if ((err = e2_perm(c, dir, X_OK)))
			return err;
		if (!*rest) {
			*w = (struct e2pw){ .dir = dir, .name = p, .len = len, .slash = rest != p + len };
			return len > E2_NAME_MAX ? -ENAMETOOLONG : 0;
		}
		if (e2_name_type(p, len) == E2_DOTDOT && e2_dotdot_hands_back(c, dir))
			return e2_hb(c, FS_HB_DOTDOT, p, len, 0);
		if ((err = e2_step(c, dir, p, len, &next)) || (err = ext2_stat(c->in->fs, next, &st)))
			return err;
		if (e2_islnk(&st))
			return e2_hb(c, FS_HB_LINK, p, len, next);
		if (!e2_isdir(&st))
			return -ENOTDIR;
		dir = next;
		p = rest;
	}
	return 0;
}

/* The last component: "..", when the VFS resolves it, and a link to
 * follow (a slash after it forces that) hand back. */
static int e2_last(struct e2ctx *c, const struct e2pw *w, bool follow, uint32_t *ino, struct ext2_stat *st)
{
	int err;
	uint32_t i = w->dir;
	if (w->len && e2_name_type(w->name, w->len) == E2_DOTDOT && e2_dotdot_hands_back(c, w->dir))
		return e2_hb(c, FS_HB_DOTDOT, w->name, w->len, 0);
	if (w->len && (err = e2_step(c, w->dir, w->name, w->len, &i)))
		return err;
	if ((err = e2_stat(c->in, i, st)))
		return err;
	if (e2_islnk(st) && (follow || w->slash))
		return e2_hb(c, FS_HB_LINK, w->name, w->len, i);
	if (w->slash && !e2_isdir(st))
		return -ENOTDIR;
	*ino = i;
	return 0;
}

static int e2_lookup(struct e2ctx *c, const char *path, bool follow, uint32_t *ino, struct ext2_stat *st)
{
	struct e2pw w;
	int err = e2_walk_parent(c, path, 0, &w);
	return err ? err : e2_last(c, &w, follow, ino, st);
}

/* The name at w, if it exists: 0 and *ino, or -ENOENT. */
static int e2_find(struct e2ctx *c, const struct e2pw *w, uint32_t *ino)
{
	return ext2_lookup(c->in->fs, w->dir, w->name, w->len, ino);
}

static int e2_may_create(struct e2ctx *c, uint32_t dir)
{
	struct ext2_stat st;
	int r = ext2_stat(c->in->fs, dir, &st);
	if (r)
		return r;
	if (!st.nlink)
		return -ENOENT; /* a removed directory */
	r = e2_permission(&st, W_OK | X_OK, c->uid, c->gid, c->pid);
	return r ? r : c->in->rdonly ? -EROFS : 0;
}

/* Linux's may_delete of victim's entry in dir. */
static int e2_may_delete(struct e2ctx *c, uint32_t dir, uint32_t victim, bool isdir)
{
	struct ext2_stat d, v;
	int r = ext2_stat(c->in->fs, dir, &d);
	if (!r)
		r = ext2_stat(c->in->fs, victim, &v);
	if (!r)
		r = e2_permission(&d, W_OK | X_OK, c->uid, c->gid, c->pid);
	if (r)
		return r;
	if ((d.mode & S_ISVTX) && c->uid != 0 && c->uid != v.uid && c->uid != d.uid)
		return -EPERM;
	if (isdir && !e2_isdir(&v))
		return -ENOTDIR;
	if (!isdir && e2_isdir(&v))
		return -EISDIR;
	return c->in->rdonly ? -EROFS : 0;
}

/* A new name at w (Linux's filename_create order). */
static int e2_may_make(struct e2ctx *c, const struct e2pw *w)
{
	uint32_t i;
	if (e2_name_type(w->name, w->len) != E2_NORM || e2_find(c, w, &i) == 0)
		return -EEXIST;
	if (w->slash)
		return -ENOENT;
	return e2_may_create(c, w->dir);
}

/* The owner of a new inode in dir: the caller, or the group of a setgid
 * directory (a new directory keeps setgid). */
static void e2_owner(struct e2ctx *c, uint32_t dir, uint32_t *mode, uint32_t *gid)
{
	struct ext2_stat d;
	*gid = c->gid;
	if (ext2_stat(c->in->fs, dir, &d) || !(d.mode & S_ISGID))
		return;
	*gid = d.gid;
	if ((*mode & EXT2_S_IFMT) == EXT2_S_IFDIR)
		*mode |= S_ISGID;
	else if ((*mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && c->uid != 0 && c->gid != d.gid)
		*mode &= ~(uint32_t)S_ISGID;
}

/* open(O_CREAT): 1 and *ino if it made the file, 0 if it exists. */
static int e2_open_create(struct e2ctx *c, const struct e2pw *w, int flags, uint32_t perm, uint32_t *ino)
{
	bool excl = flags & O_EXCL;
	struct ext2_stat st;
	if (e2_name_type(w->name, w->len) != E2_NORM)
		return excl ? -EEXIST : -EISDIR;
	if (w->slash)
		return -EISDIR;
	int r = e2_find(c, w, ino);
	if (r == 0) {
		if (excl)
			return -EEXIST;
		if ((r = ext2_stat(c->in->fs, *ino, &st)))
			return r;
		if (e2_islnk(&st) && (flags & O_NOFOLLOW))
			return -ELOOP;
		if (e2_islnk(&st)) /* a dangling one creates its target */
			return e2_hb(c, FS_HB_LINK, w->name, w->len, *ino);
		return e2_isdir(&st) ? -EISDIR : 0;
	}
	if (r != -ENOENT || (r = e2_may_create(c, w->dir)))
		return r;
	uint32_t mode = EXT2_S_IFREG | (perm & 07777), gid;
	e2_owner(c, w->dir, &mode, &gid);
	e2_dir_changed(c->in, w->dir);
	r = ext2_mknod(c->in->fs, w->dir, w->name, w->len, mode, 0, c->uid, gid, e2_now(), ino);
	return r ? r : 1;
}

/* mknod through open(O_CREAT | O_EXCL | O_PATH) with the type in mode
 * (and a device's number in its high half): 1 and *ino, or -errno in
 * Linux's order (the name, the directory's permission, then CAP_MKNOD
 * for a device). */
static int e2_mknod_node(struct e2ctx *c, const struct e2pw *w, uint64_t mode, uint32_t *ino)
{
	uint32_t type = (uint32_t)mode & EXT2_S_IFMT, gid;
	if (e2_name_type(w->name, w->len) != E2_NORM || e2_find(c, w, ino) == 0)
		return -EEXIST;
	if (w->slash)
		return -ENOENT;
	int r = e2_may_create(c, w->dir);
	if (r)
		return r;
	bool dev = type == EXT2_S_IFCHR || type == EXT2_S_IFBLK;
	if (dev && c->uid != 0)
		return -EPERM;
	uint32_t m = type | ((uint32_t)mode & 07777);
	e2_owner(c, w->dir, &m, &gid);
	e2_dir_changed(c->in, w->dir);
	r = ext2_mknod(c->in->fs, w->dir, w->name, w->len, m, dev ? (uint32_t)(mode >> 32) : 0, c->uid, gid,
		       e2_now(), ino);
	return r ? r : 1;
}

/* Whether an open's flags and mode ask e2_mknod_node. */
static bool e2_is_mknod(int flags, uint64_t mode)
{
	uint32_t t = (uint32_t)mode & EXT2_S_IFMT;
	return (flags & (O_CREAT | O_EXCL | O_PATH)) == (O_CREAT | O_EXCL | O_PATH) &&
	       (t == EXT2_S_IFIFO || t == EXT2_S_IFCHR || t == EXT2_S_IFBLK || t == EXT2_S_IFSOCK ||
		t == EXT2_S_IFREG);
}

/* An open of FIFO ino (st its attributes): its node (*out, one more
 * open: the end's file of the inode, which its fstat, fchmod and the
 * like reach, keeps it while an end is open, as Linux's) and a handle
 * of ours to the kernel's pipe behind it (c->fifo_node, a duplicate: an
 * unlink after e2_leave may close the list's), whose end e2_path makes
 * and gives (docs/vfs.md, "FIFOs"). */
static int e2_fifo_open(struct e2ctx *c, uint32_t ino, const struct ext2_stat *st, struct e2node **out)
{
	long node = e2_fifo_node(c->in, ino);
	if (node < 0)
		return (int)node;
	struct e2node *n = e2_node_get(c->in, ino);
	if (!n)
		return -ENOMEM;
	int e = e2_node_fill(c->in, n, st);
	long d = e ? e : sys_handle_dup((int)node, 0, HANDLE_CLOEXEC);
	if (d < 0) {
		e2_node_put(c->in, n);
		return (int)d;
	}
	c->fifo_node = d;
	*out = n;
	return E2_FIFO;
}

/* open(O_TMPFILE) in directory dino (st its attributes): Linux's checks
 * after the walk (ENOTDIR, EROFS, write and search permission), then an
 * unnamed inode of the caller's (*ino, *st). */
static int e2_tmpfile(struct e2ctx *c, uint32_t dino, struct ext2_stat *st, uint64_t perm, uint32_t *ino)
{
	if ((st->mode & EXT2_S_IFMT) != EXT2_S_IFDIR)
		return -ENOTDIR;
	if (c->in->rdonly)
		return -EROFS;
	int e = e2_permission(st, W_OK | X_OK, c->uid, c->gid, c->pid);
	if (e)
		return e;
	uint32_t mode = EXT2_S_IFREG | ((uint32_t)perm & 07777), gid;
	e2_owner(c, dino, &mode, &gid);
	e = ext2_tmpfile(c->in->fs, dino, mode, c->uid, gid, e2_now(), ino);
	if (!e && (e = e2_stat(c->in, *ino, st)))
		ext2_release(c->in->fs, *ino);
	return e;
}

/* VFS_OPEN up to the node (the descriptor is made after e2_leave). */
static int e2_open(struct e2ctx *c, const struct fs_req *r, int flags, uint64_t perm, struct e2node **out)
{
	struct ext2_stat st;
	struct e2pw w;
	uint32_t ino;
	int acc = flags & O_ACCMODE, e;
	if (acc == 3)
		return -EINVAL;
	if ((flags & K_O_TMPFILE_BIT) && (e = (int)fssrv_tmpfile_flags(flags)))
		return e;
	if (flags & O_CREAT) {
		e = e2_walk_parent(c, r->path, 0, &w);
		if (!e)
			e = e2_is_mknod(flags, perm) ? e2_mknod_node(c, &w, perm, &ino) :
						     e2_open_create(c, &w, flags, (uint32_t)perm, &ino);
		if (e >= 0 && e != E2_HANDBACK) {
			int s = e2_stat(c->in, ino, &st); /* an open file's size is its object's */
			e = s ? s : e;
		}
	} else {
		e = e2_lookup(c, r->path, !(flags & O_NOFOLLOW), &ino, &st);
	}
	if (e < 0 || e == E2_HANDBACK)
		return e;
	bool created = e == 1, tmpfile = flags & K_O_TMPFILE_BIT;
	if (tmpfile && (e = e2_tmpfile(c, ino, &st, perm, &ino)))
		return e;
	uint32_t type = st.mode & EXT2_S_IFMT;
	if (tmpfile) { /* a new unnamed file: no more checks (nothing may fail before its node) */
		struct e2node *n = e2_node_get(c->in, ino);
		if (!n) {
			ext2_release(c->in->fs, ino);
			return -ENOMEM;
		}
		n->gone = true; /* no name: released at its last close */
		n->linkable = !(flags & O_EXCL);
		if ((e = e2_node_fill(c->in, n, &st))) {
			e2_node_put(c->in, n);
			return e;
		}
		*out = n;
		return 0;
	}
	if (type == EXT2_S_IFLNK)
		return -ELOOP; /* O_NOFOLLOW on a link */
	if ((flags & O_DIRECTORY) && type != EXT2_S_IFDIR)
		return -ENOTDIR;
	if (type == EXT2_S_IFDIR && (acc != O_RDONLY || (flags & O_TRUNC)))
		return -EISDIR;
	bool special = type != EXT2_S_IFDIR && type != EXT2_S_IFREG;
	if (special && type != EXT2_S_IFIFO && !(flags & O_PATH))
		return -ENXIO; /* device nodes, sockets: no driver behind them here */
	if ((acc != O_RDONLY || (flags & O_TRUNC)) && c->in->rdonly)
		return -EROFS;
	int need = (acc != O_WRONLY ? R_OK : 0) | (acc != O_RDONLY ? W_OK : 0);
	if (!created && (e = e2_permission(&st, need, c->uid, c->gid, c->pid)))
		return e;
	if (type == EXT2_S_IFIFO && !(flags & O_PATH))
		return e2_fifo_open(c, ino, &st, out);
	struct e2node *n = e2_node_get(c->in, ino);
	if (!n)
		return -ENOMEM;
	e2_node_wait(c->in, n); /* not truncated under a fill */
	if ((flags & O_TRUNC) && acc != O_RDONLY && type == EXT2_S_IFREG && st.size &&
	    ((e = e2_truncate(c->in, ino, 0)) || (e = e2_stat(c->in, ino, &st)))) {
		e2_node_put(c->in, n);
		return e;
	}
	if ((e = e2_node_fill(c->in, n, &st))) {
		e2_node_put(c->in, n);
		return e;
	}
	*out = n;
	return 0;
}

static int e2_mkdir(struct e2ctx *c, const char *path, uint32_t perm)
{
	struct e2pw w;
	uint32_t ino, gid, mode = EXT2_S_IFDIR | (perm & 01777);
	int e = e2_walk_parent(c, path, 0, &w);
	if (e)
		return e;
	if (e2_name_type(w.name, w.len) != E2_NORM || e2_find(c, &w, &ino) == 0)
		return -EEXIST;
	if ((e = e2_may_create(c, w.dir))) /* a trailing slash is fine: "a/" */
		return e;
	e2_owner(c, w.dir, &mode, &gid);
	e2_dir_changed(c->in, w.dir);
	return ext2_mkdir(c->in->fs, w.dir, w.name, w.len, mode & 07777, c->uid, gid, e2_now(), &ino);
}

static int e2_rmdir(struct e2ctx *c, const char *path)
{
	struct e2pw w;
	uint32_t ino, gone = 0;
	int e = e2_walk_parent(c, path, 0, &w);
	if (e)
		return e;
	switch (e2_name_type(w.name, w.len)) {
	case E2_DOTDOT:
		return -ENOTEMPTY;
	case E2_DOT:
		return -EINVAL;
	case E2_ROOT:
		return -EBUSY;
	}
	if ((e = e2_find(c, &w, &ino)) || (e = e2_may_delete(c, w.dir, ino, true)))
		return e;
	e2_dir_changed(c->in, w.dir);
	e = ext2_rmdir(c->in->fs, w.dir, w.name, w.len, e2_now(), &gone);
	e2_gone(c->in, gone);
	return e;
}

static int e2_unlink(struct e2ctx *c, const char *path)
{
	struct e2pw w;
	struct ext2_stat st;
	uint32_t ino, gone = 0;
	int e = e2_walk_parent(c, path, 0, &w);
	if (e)
		return e;
	if (e2_name_type(w.name, w.len) != E2_NORM)
		return -EISDIR;
	if ((e = e2_find(c, &w, &ino)) || (e = ext2_stat(c->in->fs, ino, &st)))
		return e;
	if (w.slash)
		return e2_isdir(&st) ? -EISDIR : -ENOTDIR;
	if ((e = e2_may_delete(c, w.dir, ino, false)))
		return e;
	e2_dir_changed(c->in, w.dir);
	e = ext2_unlink(c->in->fs, w.dir, w.name, w.len, e2_now(), &gone);
	if (!e) {
		e2_node_push(c->in, ino); /* one link fewer */
		e2_gone(c->in, gone);
	}
	return e;
}

static int e2_rename(struct e2ctx *c, const char *from, const char *to)
{
	struct e2pw ow, nw;
	struct ext2_stat s;
	uint32_t src, dst = 0, gone = 0;
	int e = e2_walk_parent(c, from, 0, &ow);
	if (!e)
		e = e2_walk_parent(c, to, 1, &nw);
	if (e)
		return e;
	if (e2_name_type(ow.name, ow.len) != E2_NORM || e2_name_type(nw.name, nw.len) != E2_NORM)
		return -EBUSY;
	if ((e = e2_find(c, &ow, &src)) || (e = ext2_stat(c->in->fs, src, &s)))
		return e;
	e = e2_find(c, &nw, &dst);
	if (e && e != -ENOENT)
		return e;
	bool isdir = e2_isdir(&s);
	if (!isdir && (ow.slash || nw.slash))
		return -ENOTDIR;
	if (dst == src)
		return 0; /* two names of one inode: nothing to do, as Linux */
	if ((e = e2_may_delete(c, ow.dir, src, isdir)))
		return e;
	e = dst ? e2_may_delete(c, nw.dir, dst, isdir) : e2_may_create(c, nw.dir);
	if (!e && isdir && ow.dir != nw.dir)
		e = e2_permission(&s, W_OK, c->uid, c->gid, c->pid); /* its ".." changes */
	if (e)
		return e;
	e2_dir_changed(c->in, ow.dir);
	e2_dir_changed(c->in, nw.dir);
	e = ext2_rename(c->in->fs, ow.dir, ow.name, ow.len, nw.dir, nw.name, nw.len, e2_now(), &gone);
	if (!e)
		e2_node_push(c->in, src); /* its ctime; a directory's ".." */
	if (!e && dst) {
		e2_node_push(c->in, dst);
		e2_gone(c->in, gone);
	}
	return e;
}

static int e2_symlink(struct e2ctx *c, const char *target, const char *path)
{
	struct e2pw w;
	size_t tlen = strnlen(target, E2_PATH_MAX);
	uint32_t ino, gid, mode = EXT2_S_IFLNK | 0777;
	if (!tlen)
		return -ENOENT;
	if (tlen >= E2_PATH_MAX)
		return -ENAMETOOLONG;
	int e = e2_walk_parent(c, path, 0, &w);
	if (!e)
		e = e2_may_make(c, &w);
	if (e)
		return e;
	e2_owner(c, w.dir, &mode, &gid);
	e2_dir_changed(c->in, w.dir);
	return ext2_symlink(c->in->fs, w.dir, w.name, w.len, target, tlen, c->uid, gid, e2_now(), &ino);
}

/* Linux's may_linkat with fs.protected_hardlinks = 1. */
static int e2_may_hardlink(struct e2ctx *c, const struct ext2_stat *st)
{
	if (c->uid == 0 || c->uid == st->uid)
		return 0;
	if ((st->mode & EXT2_S_IFMT) != EXT2_S_IFREG || (st->mode & S_ISUID) ||
	    (st->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		return -EPERM;
	return e2_permission(st, R_OK | W_OK, c->uid, c->gid, c->pid) ? -EPERM : 0;
}

static int e2_link(struct e2ctx *c, const char *from, const char *to, bool follow)
{
	struct ext2_stat st;
	struct e2pw w;
	uint32_t ino;
	int e = e2_lookup(c, from, follow, &ino, &st);
	if (!e)
		e = e2_walk_parent(c, to, 1, &w);
	if (!e)
		e = e2_may_make(c, &w);
	if (!e)
		e = e2_may_hardlink(c, &st);
	if (e)
		return e;
	if (e2_isdir(&st))
		return -EPERM;
	if (!st.nlink)
		return -ENOENT;
	e2_dir_changed(c->in, w.dir);
	e = ext2_link(c->in->fs, ino, w.dir, w.name, w.len, e2_now());
	if (!e)
		e2_node_push(c->in, ino);
	return e;
}

long e2_linkat(struct fs_file *f, const char *path, const struct ipc_info *info)
{
	struct e2inst *in = f->inst;
	struct e2node *n = f->node;
	struct e2ctx c = { .in = in, .uid = info->euid, .gid = info->egid, .pid = info->pid };
	struct ext2_stat st;
	struct e2pw w;
	if (!n)
		return -EPERM;
	long e = e2_enter(in);
	if (e)
		return e;
	e = e2_stat(in, n->ino, &st);
	if (!e)
		e = e2_walk_parent(&c, path, 0, &w);
	if (!e)
		e = e2_may_make(&c, &w);
	if (!e)
		e = e2_may_hardlink(&c, &st);
	if (!e && e2_isdir(&st))
		e = -EPERM;
	if (!e && !st.nlink && !n->linkable)
		e = -ENOENT;
	if (!e) {
		e2_dir_changed(in, w.dir);
		e = n->linkable ? ext2_link_unnamed(in->fs, n->ino, w.dir, w.name, w.len, e2_now()) :
				  ext2_link(in->fs, n->ino, w.dir, w.name, w.len, e2_now());
	}
	if (!e) {
		n->linkable = false;
		n->gone = false; /* named: it stays after its last close */
		e2_node_push(in, n->ino);
	}
	e2_leave(in);
	return e == E2_HANDBACK ? -ESTALE : e; /* a link on the way: the library resolves again */
}

int e2_chmod(struct e2inst *in, uint32_t ino, uint32_t perm, uint32_t uid, uint32_t gid)
{
	struct ext2_stat st;
	int e = ext2_stat(in->fs, ino, &st);
	if (e)
		return e;
	if (uid != 0 && uid != st.uid)
		return -EPERM;
	if (in->rdonly)
		return -EROFS;
	perm &= 07777;
	if ((perm & S_ISGID) && uid != 0 && gid != st.gid)
		perm &= ~(uint32_t)S_ISGID;
	struct ext2_setattr sa = { .mask = EXT2_SET_MODE, .mode = perm };
	e = ext2_setattr(in->fs, ino, &sa, e2_now());
	if (!e)
		e2_node_push(in, ino);
	return e;
}

static bool e2_bad_id(int64_t id)
{
	return id < -1 || id >= (int64_t)UINT32_MAX;
}

int e2_chown(struct e2inst *in, uint32_t ino, int64_t nuid, int64_t ngid, uint32_t uid, uint32_t gid)
{
	struct ext2_stat st;
	int e = ext2_stat(in->fs, ino, &st);
	if (e)
		return e;
	bool root = uid == 0, owner = uid == st.uid, grp = root || gid == st.gid;
	if (e2_bad_id(nuid) || e2_bad_id(ngid))
		return -EINVAL;
	if (nuid != -1 && !root && !(owner && (uint32_t)nuid == st.uid))
		return -EPERM;
	if (ngid != -1 && !root && !(owner && ((uint32_t)ngid == st.gid || (uint32_t)ngid == gid)))
		return -EPERM;
	uint32_t mode = st.mode;
	if (!e2_isdir(&st)) { /* setuid always goes; setgid if group-executable */
		mode &= ~(uint32_t)S_ISUID;
		if ((mode & S_ISGID) && ((mode & S_IXGRP) || !grp))
			mode &= ~(uint32_t)S_ISGID;
	}
	if (mode != st.mode && !root && !owner)
		return -EPERM;
	if (in->rdonly)
		return -EROFS;
	struct ext2_setattr sa = { .mask = EXT2_SET_MODE, .mode = mode };
	if (nuid != -1) {
		sa.mask |= EXT2_SET_UID;
		sa.uid = (uint32_t)nuid;
	}
	if (ngid != -1) {
		sa.mask |= EXT2_SET_GID;
		sa.gid = (uint32_t)ngid;
	}
	e = ext2_setattr(in->fs, ino, &sa, e2_now());
	if (!e)
		e2_node_push(in, ino);
	return e;
}

int e2_utimes(struct e2inst *in, uint32_t ino, uint64_t at, uint64_t mt, uint32_t uid, uint32_t gid,
	      int32_t pid)
{
	struct ext2_stat st;
	bool set = (at != VFS_UTIME_NOW && at != VFS_UTIME_OMIT) || (mt != VFS_UTIME_NOW && mt != VFS_UTIME_OMIT);
	if (at == VFS_UTIME_OMIT && mt == VFS_UTIME_OMIT)
		return 0;
	int e = ext2_stat(in->fs, ino, &st);
	if (e)
		return e;
	bool owner = uid == 0 || uid == st.uid;
	if (set && !owner)
		return -EPERM;
	if (!set && !owner && e2_permission(&st, W_OK, uid, gid, pid))
		return -EACCES;
	if (in->rdonly)
		return -EROFS;
	struct e2node *n = e2_node_find(in, ino);
	if (n && n->pc && (e = e2_node_writeback(in, n))) /* the kernel's times first */
		return e;
	struct ext2_time now = e2_now();
	struct ext2_setattr sa = { 0 };
	if (at != VFS_UTIME_OMIT) {
		sa.mask |= EXT2_SET_ATIME;
		sa.atime = at == VFS_UTIME_NOW ? now : e2_time_of(at);
	}
	if (mt != VFS_UTIME_OMIT) {
		sa.mask |= EXT2_SET_MTIME;
		sa.mtime = mt == VFS_UTIME_NOW ? now : e2_time_of(mt);
	}
	e = ext2_setattr(in->fs, ino, &sa, now);
	if (!e && !(n && n->pc))
		e2_node_push(in, ino); /* a directory's object */
	if (!e && n && n->pc && !ext2_stat(in->fs, ino, &st)) {
		struct pcache_attr a = { .atime = e2_ns_of(st.atime), .mtime = e2_ns_of(st.mtime),
					 .ctime = e2_ns_of(st.ctime) };
		sys_pcache_attr(fssrv_endpoint(), n->pc, &a, PCACHE_ATTR_ATIME | PCACHE_ATTR_MTIME | PCACHE_ATTR_CTIME,
				NULL);
	}
	return e;
}

/* The handback into the reply (the link's text to the caller's buffer). */
static long e2_handback(struct e2inst *in, struct ipc_msg *m)
{
	if (in->hb.kind == FS_HB_LINK && sys_ipc_write(0, in->hb.target, in->hb.tlen) != (long)in->hb.tlen)
		return -ENAMETOOLONG; /* a direct stat's small buffer: the library asks the VFS */
	m->w[0] = (uint64_t)in->hb.kind;
	m->w[1] = in->hb.which;
	m->w[2] = in->hb.off;
	m->w[3] = in->hb.len;
	m->w[4] = in->hb.tlen;
	return FSSRV_HANDBACK;
}

static long e2_readlink(struct e2ctx *c, const char *path, struct ipc_msg *m)
{
	struct ext2_stat st;
	uint32_t ino;
	char *buf = malloc(E2_PATH_MAX);
	long e = buf ? e2_lookup(c, path, false, &ino, &st) : -ENOMEM;
	if (!e)
		e = ext2_readlink(c->in->fs, ino, buf, E2_PATH_MAX);
	if (e >= 0 && e != E2_HANDBACK) {
		long w = sys_ipc_write(0, buf, (size_t)e);
		m->w[0] = (uint64_t)(w < 0 ? 0 : w);
		e = w < 0 ? w : 0;
	}
	free(buf);
	return e;
}

/* The kernel's name cache missed this stat, access or open
 * (FS_WALK_NCMISS): the names the walk met go into it (ncache_add), with
 * an object for each inode they name (e2_node_obj: links and devices
 * have none, so they are never cached), under the mount's lock, which
 * orders every change of names (each drops its directory's entries
 * first, e2_dir_changed): the next lookup of the path is the kernel's
 * (docs/fs.md, "Names in the kernel"). */
static void e2_trail_install(struct e2ctx *c, const char *path)
{
	struct ncache_rec rec[E2_TRAIL_MAX];
	uint32_t pinned[2 * E2_TRAIL_MAX], np = 0, n = 0;
	struct e2inst *in = c->in;
	size_t plen = strlen(path);
	if (in->nc_changes != c->nc_at)
		return; /* names changed while the lock was let go: maybe these */
	for (uint32_t i = 0; i < c->ntrail && plen < E2_PATH_MAX; i++) {
		const struct e2trail *t = &c->steps[i];
		uint64_t d = e2_node_obj(in, t->dir, true);
		if (d)
			pinned[np++] = t->dir;
		uint64_t ch = d && t->child ? e2_node_obj(in, t->child, true) : 0;
		if (ch)
			pinned[np++] = t->child;
		if (!d || (t->child && !ch))
			continue; /* no object: the server answers it */
		rec[n++] = (struct ncache_rec){ .dir = (uint32_t)d, .child = (uint32_t)ch,
						.off = (uint16_t)(t->name - path), .len = (uint16_t)t->len };
		/* a name of the directory just listed: a walk stats what it
		 * lists, and the next listings name their entries themselves */
		if (t->dir == in->plus_dir && t->child && ++in->plus_seen >= E2_PLUS_AFTER)
			in->plus = true;
	}
	if (n)
		sys_ncache_add(fssrv_endpoint(), path, plen, rec, n);
	for (uint32_t i = 0; i < np; i++)
		e2_node_unpin(in, pinned[i]);
}

/* The requests served wholly under the mount's lock. */
static long e2_request(struct e2ctx *c, const struct fs_req *r, struct ipc_msg *m)
{
	struct ext2_stat st;
	struct stat ust;
	struct e2pw w;
	uint32_t ino;
	long e;
	bool nofollow = r->walk & FS_WALK_NOFOLLOW;
	switch (m->label) {
	case VFS_STAT:
		if (r->walk & FS_WALK_PARENT) /* where the parent lies */
			return e2_walk_parent(c, r->path, 0, &w);
		if ((e = e2_lookup(c, r->path, !nofollow, &ino, &st)))
			return e;
		e2_fill_stat(c->in, &st, &ust);
		return sys_ipc_write(0, &ust, sizeof(ust)) == sizeof(ust) ? 0 : -EFAULT;
	case VFS_MKDIR:
		return e2_mkdir(c, r->path, (uint32_t)m->w[0]);
	case VFS_RMDIR:
		return e2_rmdir(c, r->path);
	case VFS_UNLINK:
		return e2_unlink(c, r->path);
	case VFS_RENAME:
		return e2_rename(c, r->path, r->path2);
	case VFS_SYMLINK: /* "linkpath\0target" */
		return e2_symlink(c, r->path2, r->path);
	case VFS_LINK:
		return e2_link(c, r->path, r->path2, (m->w[0] & 0x400) != 0);
	case VFS_READLINK:
		return e2_readlink(c, r->path, m);
	case VFS_CHMOD:
		e = e2_lookup(c, r->path, !nofollow, &ino, &st);
		return e ? e : e2_chmod(c->in, ino, (uint32_t)m->w[0], c->uid, c->gid);
	case VFS_CHOWN:
		e = e2_lookup(c, r->path, !nofollow, &ino, &st);
		return e ? e : e2_chown(c->in, ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1], c->uid, c->gid);
	case VFS_UTIMES:
		e = e2_lookup(c, r->path, !nofollow, &ino, &st);
		return e ? e : e2_utimes(c->in, ino, m->w[0], m->w[1], c->uid, c->gid, c->pid);
	case VFS_STATFS:
		return e2_lookup(c, r->path, true, &ino, &st);
	case VFS_ACCESS: {
		int mask = (int)m->w[0];
		if (!(r->walk & FS_WALK_EACCESS)) { /* access(2): the real ids */
			c->uid = r->ruid;
			c->gid = r->rgid;
		}
		if ((e = e2_lookup(c, r->path, !nofollow, &ino, &st)))
			return e;
		if (mask & ~(R_OK | W_OK | X_OK))
			return -EINVAL;
		if ((mask & W_OK) && c->in->rdonly)
			return -EROFS;
		return e2_permission(&st, mask, c->uid, c->gid, c->pid);
	}
	default:
		return -EINVAL;
	}
}

long e2_path(const struct fs_req *r, struct ipc_msg *m)
{
	struct e2inst *in = r->inst;
	struct e2ctx c = { .in = in, .uid = r->uid, .gid = r->gid, .pid = r->pid, .walk = r->walk };
	struct e2node *n = NULL;
	c.trail = in->root && (r->walk & FS_WALK_NCMISS) && !(r->walk & FS_WALK_PARENT) &&
		  (m->label == VFS_STAT || m->label == VFS_ACCESS || (m->label == VFS_OPEN && !(m->w[0] & O_CREAT)));
	long e = e2_enter(in);
	if (e)
		return e;
	ext2_set_caller(in->fs, r->uid, r->gid); /* root's reserved blocks */
	c.nc_at = in->nc_changes;
	if (m->label == VFS_OPEN)
		e = e2_open(&c, r, (int)m->w[0], m->w[1], &n);
	else
		e = e2_request(&c, r, m);
	if (c.trail)
		e2_trail_install(&c, r->path);
	if (e == E2_HANDBACK)
		e = e2_handback(in, m);
	ext2_set_caller(in->fs, 0, 0); /* write-back is for data already accepted */
	e2_leave(in);
	if (e < 0 || e == FSSRV_HANDBACK)
		return e;
	if (e == E2_FIFO) { /* the end, with a file of the inode (under the skeleton's lock) */
		struct fs_file *f = fssrv_file_new_at(in, (int)m->w[0] & O_ACCMODE, r->inst_id, r->path);
		if (f) {
			f->node = n;
			e = fssrv_fifo_give(f, (int)c.fifo_node, (int)m->w[0]);
		} else if (!e2_enter(in)) {
			e2_node_put(in, n);
			e2_leave(in);
		}
		sys_handle_close((int)c.fifo_node);
		if (!f)
			return -ENOMEM;
		if (e < 0)
			return e;
		m->w[0] = (uint64_t)e;
		return FSSRV_OPEN_FIFO;
	}
	if (m->label == VFS_STATFS)
		return fssrv_statfs_write(r->inst_id);
	if (m->label != VFS_OPEN)
		return e;
	/* the descriptor, under the skeleton's lock (an O_TMPFILE file's is
	 * no directory's, whatever its flags say) */
	int oflags = (int)m->w[0];
	if (oflags & K_O_TMPFILE_BIT)
		oflags &= ~O_DIRECTORY;
	struct fs_file *f = fssrv_file_new_at(in, oflags, r->inst_id, r->path);
	if (f && (oflags & K_O_TMPFILE_BIT))
		f->flags |= K_O_TMPFILE_BIT | O_DIRECTORY; /* F_GETFL shows O_TMPFILE, as Linux's */
	if (!f) {
		if (!e2_enter(in)) {
			e2_node_put(in, n);
			e2_leave(in);
		}
		return -ENOMEM;
	}
	f->node = n;
	/* the kernel serves its data, but for O_DIRECT (the server, past
	 * the page cache) */
	f->pcache = (f->flags & O_DIRECT) ? 0 : n->pc;
	e = fssrv_file_give(f);
	if (e < 0)
		return e;
	m->w[0] = (uint64_t)e;
	return 0;
}
