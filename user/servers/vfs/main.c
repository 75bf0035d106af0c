/* The VFS server: every path request comes here, is resolved to the
 * mount it lies in and goes on to that file system's server with the
 * path inside the mount and the caller's kernel-attested identity. An open
 * file is a channel to the file system itself, handed through to the
 * caller: reads and writes never pass this server.
 *
 * Paths are made absolute by the C library. The walk (docs/vfs.md,
 * "Links"): the mount is chosen by the components before the first "..";
 * a file system that meets a symlink to follow or a ".." it cannot
 * resolve (it may lead to another mount) hands the walk back
 * (FS_HANDBACK) with where it stopped, and the VFS rewrites the path from
 * the physical directory reached and routes it again. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "abi/fcntl.h"
#include "arbor_sys.h"
#include "cgfs_paths.h"
#include "vfs.h"

#define WORKERS 6
#define BUF_MAX (2 * VFS_PATH_MAX + 2)	/* rename: "from\0to\0" */

long __arbor_thread_start(long (*fn)(void *), void *arg);

static int endpoint;

/* statfs of a cgroup2 mount (the VFS serves its paths): Linux's kernfs
 * shows no counts. */
static long cgroup2_statfs(const struct vfs_route *mt)
{
	struct statfs st;
	memset(&st, 0, sizeof(st));
	st.f_type = 0x63677270; /* CGROUP2_SUPER_MAGIC */
	st.f_bsize = st.f_frsize = 4096;
	st.f_namelen = 255;
	st.f_flags = ST_VALID | (long)mt->flags;
	return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
}

/* One path's place in the walk: the mount its next step is in and the
 * path that step gives that mount's server. */
struct hop {
	struct vfs_route mt;
	const char *inner;		/* inside the mount */
	size_t ilen;
	const char *path;		/* the whole path it routed */
	bool mount_root;		/* the path names the mount itself */
	bool dotdot;			/* it has a ".." */
	const char *raw;		/* inside the mount, as written (not normalized) */
};

struct worker_bufs {
	char req[BUF_MAX + 1];		/* what the client sent */
	char path[2][VFS_PATH_MAX];	/* the paths being walked, once rewritten */
	char inner[2][VFS_PATH_MAX];	/* paths inside mounts that do not walk */
	char norm[VFS_PATH_MAX], tmp[VFS_PATH_MAX], tmp2[VFS_PATH_MAX];
	char fwd[BUF_MAX + 2];		/* what the file system gets */
	char scratch[VFS_PATH_MAX];	/* what it answers (stat, link text) */
	char walked[VFS_PATH_MAX];	/* flat_walk_check's directory so far */
	struct hop hop[2];
};

long vfs_forward_walk(const struct vfs_route *mt, const struct ipc_info *info, struct ipc_msg *m,
		      uint64_t walk, const char *path, size_t path_len, void *rcv, size_t rcv_len)
{
	m->w[FS_W_WHO] = (mt->inst & FS_W_INST) | walk | (uint64_t)(uint32_t)info->pid << 32;
	m->w[FS_W_CRED] = info->euid | (uint64_t)info->egid << 32;
	m->w[FS_W_RCRED] = info->uid | (uint64_t)info->gid << 32;
	/* On the client's behalf (the kernel attests it to the file system,
	 * which charges the disk I/O it does for the call to the client);
	 * as ourselves if the client is gone meanwhile (-ESRCH). */
	long r = sys_ipc_call(mt->h | IPC_CALL_FOR, m, path, path_len, rcv, rcv_len);
	if (r == -ESRCH)
		r = sys_ipc_call(mt->h, m, path, path_len, rcv, rcv_len);
	if (r < 0)
		return -EIO; /* the file system's server is gone */
	return (long)m->label;
}

long vfs_forward(const struct vfs_route *mt, const struct ipc_info *info, struct ipc_msg *m,
		 const char *path, size_t path_len, void *rcv, size_t rcv_len)
{
	return vfs_forward_walk(mt, info, m, 0, path, path_len, rcv, rcv_len);
}

/* Whether the request's last component is followed when it is a link. */
static bool follows_last(const struct ipc_msg *m, uint64_t at_flags)
{
	switch (m->label) {
	case VFS_OPEN:
		return !(m->w[0] & O_NOFOLLOW);
	case VFS_STAT: case VFS_CHMOD: case VFS_CHOWN: case VFS_ACCESS: case VFS_UTIMES:
		return !(at_flags & VFS_AT_NOFOLLOW);
	case VFS_REALPATH: case VFS_STATFS:
		return true;
	default:
		return false;
	}
}

/* A request on a cgroup2 mount, path inside it, served by the kernel's
 * cgfs calls; CGFS_PATHS_FORWARD for a directory opened for listing,
 * which the cgfs server serves. */
static long cgroup2_request(const struct vfs_route *mt, struct ipc_msg *m, const struct ipc_info *info,
			    const char *path)
{
	struct fs_req r = { .path = path, .uid = info->euid, .gid = info->egid,
			    .ruid = info->uid, .rgid = info->gid, .pid = info->pid };
	uint64_t label = m->label;
	if (label == VFS_RENAME) /* "from\0to" */
		r.path2 = path + strlen(path) + 1;
	switch (label) {
	case VFS_REALPATH: case VFS_READLINK: case VFS_STATFS: { /* it exists? */
		struct ipc_msg probe = { .label = VFS_ACCESS };
		long e = cgfs_path_request(&r, mt->cgroot, &probe, NULL);
		return e < 0 ? e : label == VFS_READLINK ? -EINVAL : 0;
	}
	case VFS_SYMLINK: case VFS_LINK: case VFS_UTIMES:
		return -EPERM; /* kernfs makes no links; times are not kept */
	default:
		return cgfs_path_request(&r, mt->cgroot, m, NULL);
	}
}

#define HOP_AGAIN 1			/* the path changed: route again */
#define MAXSYMLINKS 40			/* Linux's */

/* The type and owner of path (from the mount's root) in mount h, which
 * does not walk: 0 or -errno. */
static long flat_stat(const struct hop *h, const struct ipc_info *info, const char *path, size_t len,
		      uint32_t *mode, uint32_t *uid, uint32_t *gid)
{
	if (h->mt.cgroup2) {
		struct k_cgnode n;
		char buf[CGFS_KPATH_MAX];
		const char *kpath = cgfs_kpath(h->mt.cgroot, path, buf, sizeof(buf));
		long e = kpath ? sys_cgfs_stat(kpath, &n) : -ENAMETOOLONG;
		if (e < 0)
			return e;
		*mode = (n.kind == CGFS_DIR ? S_IFDIR : S_IFREG) | n.mode;
		*uid = n.uid, *gid = n.gid;
		return 0;
	}
	struct stat st;
	struct ipc_msg m = { .label = VFS_STAT };
	long e = vfs_forward(&h->mt, info, &m, path, len, &st, sizeof(st));
	if (e < 0)
		return e;
	*mode = st.st_mode, *uid = st.st_uid, *gid = st.st_gid;
	return 0;
}

/* Linux's walk, for a mount whose server takes normalized paths (procfs,
 * devfs, cgroup2: it would resolve "null/.." without looking at null, and
 * answers a request by what it makes of the whole path, as creating under
 * a missing directory EACCES): every component of raw (the path inside
 * the mount, as written) before the last must be a directory the caller
 * may search. 0 if so, else ENOENT, ENOTDIR or EACCES for the first that
 * is not. A ".." above the mount's root ends the check: the rest is
 * walked in the mount it leads to. Costs one stat per directory. */
static long flat_walk_check(struct worker_bufs *b, const struct hop *h, const char *raw,
			    const struct ipc_info *info)
{
	struct fs_req who = { .uid = info->euid, .gid = info->egid };
	char *cur = b->walked;
	size_t n = 0;
	for (const char *p = raw;;) {
		while (*p == '/')
			p++;
		const char *c = p;
		while (*p && *p != '/')
			p++;
		size_t len = (size_t)(p - c);
		const char *next = p;
		while (*next == '/')
			next++;
		if (!len || !*next)
			return 0; /* the last component is the request's own */
		if (len == 1 && c[0] == '.')
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			if (n == 0)
				return 0; /* above the mount's root */
			while (n > 0 && cur[--n] != '/')
				;
			continue;
		}
		if (n + 1 + len >= VFS_PATH_MAX)
			return -ENAMETOOLONG;
		cur[n++] = '/';
		memcpy(cur + n, c, len);
		n += len;
		cur[n] = '\0';
		uint32_t mode, uid, gid;
		long e = flat_stat(h, info, cur, n, &mode, &uid, &gid);
		if (e < 0)
			return e;
		if (!S_ISDIR(mode))
			return -ENOTDIR;
		if (!fssrv_may(mode, uid, gid, &who, X_OK))
			return -EACCES;
	}
}

/* A failed request r on a mount that does not walk: the walk's error if
 * the walk fails (Linux's first check), else r. */
static long flat_error(struct worker_bufs *b, const struct hop *h, const struct ipc_info *info, long r)
{
	if (r >= 0 || h->mt.walks)
		return r;
	long e = flat_walk_check(b, h, h->raw, info);
	return e < 0 ? e : r;
}

/* flat_error for a failed rename or link: the source's walk's error
 * first, then the target's, else r. */
static long flat_error2(struct worker_bufs *b, const struct hop h[2], const struct ipc_info *info, long r)
{
	for (int i = 0; i < 2; i++) {
		long e = flat_walk_check(b, &h[i], h[i].raw, info);
		if (e < 0)
			return e;
	}
	return r;
}

/* Routes path p (number i of the walk). */
static long route(struct worker_bufs *b, int i, const char **pp, struct hop *h,
		  const struct ipc_info *info)
{
	const char *p = *pp;
	size_t plen = vfs_lexical_prefix(p, b->norm, &h->dotdot);
	if (!vfs_mount_find(b->norm, plen, &h->mt))
		return -ENOENT; /* nothing mounted yet */
	h->mount_root = !h->dotdot && plen == h->mt.tlen;
	h->path = p;
	size_t off = vfs_prefix_end(p, h->mt.tlen);
	h->raw = p + off;
	if (h->mt.walks) { /* as written: the server walks "." and ".." itself */
		h->inner = p[off] ? p + off : "/";
		h->ilen = strlen(h->inner);
		return 0;
	}
	/* Normalizing resolves "." and "..": the walk must be made first.
	 * And for a caller other than root (who may search anything), the
	 * cgroup tree's directories may be closed to it (chmod). */
	if (vfs_has_dot_component(h->raw) || (h->mt.cgroup2 && info->euid != 0)) {
		long e = flat_walk_check(b, h, h->raw, info);
		if (e < 0)
			return e;
	}
	size_t rest;
	long n = vfs_inner_normalize(p + off, b->inner[i], &rest);
	if (n == -2)
		return -ENAMETOOLONG;
	if (n >= 0) {
		h->inner = b->inner[i];
		h->ilen = (size_t)n;
		return 0;
	}
	/* ".." above this mount's root: on from the mount point's parent */
	memcpy(b->tmp, b->norm, h->mt.tlen);
	vfs_parent(b->tmp, h->mt.tlen);
	n = vfs_join(b->tmp, p + off + rest, b->tmp2);
	if (n < 0)
		return -ENAMETOOLONG;
	memcpy(b->path[i], b->tmp2, (size_t)n + 1);
	*pp = b->path[i];
	return HOP_AGAIN;
}

/* The physical directory the component at off of h's inner path lies
 * in: mount target + inner[0..off), normalized, into out. */
static void hop_base(const struct hop *h, size_t off, char *out, char *tmp)
{
	bool dd;
	vfs_lexical_prefix(h->path, out, &dd); /* the mount's target is its start */
	size_t t = h->mt.tlen == 1 ? 0 : h->mt.tlen;
	memcpy(tmp, out, t);
	memcpy(tmp + t, h->inner, off);
	tmp[t + off] = '\0';
	if (t + off == 0)
		strcpy(tmp, "/");
	vfs_normalize(tmp, out);
}

/* A file system's FS_HANDBACK for path i: rewrites it (the arithmetic is
 * the C library's too, which walks direct calls: vfs_handback_path). */
static long handback(struct worker_bufs *b, int i, const char **pp, const struct hop *h,
		     const struct ipc_msg *m, const char *target, int *links)
{
	uint64_t kind = m->w[0], off = m->w[2], clen = m->w[3], tlen = m->w[4];
	bool dd;
	if (off + clen > h->ilen || (kind != FS_HB_LINK && kind != FS_HB_DOTDOT) ||
	    tlen >= VFS_PATH_MAX || (kind == FS_HB_LINK && tlen == 0))
		return -EIO; /* a confused server */
	if (kind == FS_HB_LINK && ++*links > MAXSYMLINKS)
		return -ELOOP;
	vfs_lexical_prefix(h->path, b->tmp, &dd); /* the mount's target is its start */
	b->tmp[h->mt.tlen] = '\0';
	_Static_assert(sizeof(b->fwd) >= 2 * VFS_PATH_MAX, "scratch for the hand-back");
	long n = vfs_handback_path(b->tmp, h->inner, off, clen, kind == FS_HB_LINK ? target : NULL,
				   tlen, b->path[i], b->fwd);
	if (n < 0)
		return n;
	*pp = b->path[i];
	return HOP_AGAIN;
}

/* The mount's walk flags for its server. */
static uint64_t walk_flags(const struct hop *h, const struct ipc_msg *m, uint64_t at_flags)
{
	/* every server hears whether the last component is followed
	 * (procfs's /proc/PID/fd links are its own: lstat, readlink) */
	uint64_t w = follows_last(m, at_flags) ? 0 : FS_WALK_NOFOLLOW;
	if (!h->mt.walks)
		return w;
	if (h->mt.nested)
		w |= FS_WALK_DOTDOT_ALL;
	else if (h->mt.tlen > 1)
		w |= FS_WALK_DOTDOT_ROOT;
	if (m->label == VFS_ACCESS && (at_flags & VFS_AT_EACCESS))
		w |= FS_WALK_EACCESS;
	return w;
}

/* The state of one request's walk. */
struct walk {
	struct ipc_msg orig;		/* the client's words */
	uint64_t at;			/* its VFS_AT_* flags */
	const char *p[2];		/* the paths: the request's, or rewritten ones */
	int links;
	const char *extra;		/* symlink's target: passed on as it is */
	bool internal;			/* the VFS's own (mount's target): no reply to write */
};

/* Asks h's server whether path i's parent (or, following, the whole
 * path) resolves without a hand-back: 0, HOP_AGAIN after rewriting path
 * i, or -errno. */
static long probe(struct worker_bufs *b, struct walk *w, int i, const struct hop *h,
		  const struct ipc_info *info, bool whole)
{
	if (!h->mt.walks)
		return flat_walk_check(b, h, h->raw, info); /* the parent */
	struct ipc_msg m = { .label = VFS_STAT };
	uint64_t fl = walk_flags(h, &w->orig, w->at) | (whole ? 0 : FS_WALK_PARENT | FS_WALK_NOFOLLOW);
	long r = vfs_forward_walk(&h->mt, info, &m, fl, h->inner, h->ilen, b->scratch, sizeof(b->scratch));
	if (r == FS_HANDBACK) {
		if (m.w[1] != 0)
			return -EIO;
		return handback(b, i, &w->p[i], h, &m, b->scratch, &w->links);
	}
	return r;
}

/* open(O_CREAT) on a read-only mount: fine for a file that exists. */
static long open_read_only(struct worker_bufs *b, const struct hop *h, const struct ipc_info *info,
			   struct ipc_msg *m, uint64_t fl)
{
	uint64_t flags = m->w[0];
	m->w[0] &= ~(uint64_t)(O_CREAT | O_EXCL);
	if (flags & K_O_TMPFILE_BIT) /* Linux: the walk to the directory, then EROFS */
		m->w[0] = O_PATH | O_DIRECTORY | (flags & O_NOFOLLOW);
	long r = vfs_forward_walk(&h->mt, info, m, fl, h->inner, h->ilen, b->scratch, sizeof(b->scratch));
	if (r >= 0 && r != FS_HANDBACK && (flags & K_O_TMPFILE_BIT)) {
		sys_handle_close((int)m->w[0]);
		return -EROFS;
	}
	if (r == -ENOENT && (flags & O_CREAT))
		return -EROFS;
	if (r == 0 && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		sys_handle_close((int)m->w[0]);
		return -EEXIST;
	}
	return r;
}

/* What a successful step answers the client. */
static long finish(struct worker_bufs *b, struct ipc_msg *m, const struct ipc_info *info,
		   const struct hop *h, uint64_t label)
{
	switch (label) {
	case VFS_OPEN: { /* hand the channel on */
		long ch = sys_ipc_give((int)m->w[0]);
		sys_handle_close((int)m->w[0]);
		if (ch < 0)
			return ch;
		m->w[0] = (uint64_t)ch;
		return 0;
	}
	case VFS_STAT:
		return sys_ipc_write(0, b->scratch, sizeof(struct stat)) == sizeof(struct stat) ? 0 : -EFAULT;
	case VFS_READLINK: {
		size_t n = m->w[0] < info->rcv_len ? m->w[0] : info->rcv_len;
		if (n > sizeof(b->scratch))
			return -EIO;
		long wr = sys_ipc_write(0, b->scratch, n);
		if (wr < 0)
			return wr;
		m->w[0] = (uint64_t)wr;
		return 0;
	}
	case VFS_STATFS:
		return sys_ipc_write(0, b->scratch, sizeof(struct statfs)) == sizeof(struct statfs) ? 0 : -EFAULT;
	case VFS_REALPATH: {
		hop_base(h, h->ilen, b->tmp2, b->tmp);
		size_t n = strlen(b->tmp2);
		if (n + 1 > info->rcv_len)
			return -ENAMETOOLONG;
		if (sys_ipc_write(0, b->tmp2, n + 1) != (long)(n + 1))
			return -EFAULT;
		m->w[0] = n;
		return 0;
	}
	default:
		return 0;
	}
}

/* One step of a one-path request: HOP_AGAIN if the path changed. */
static long step_one(struct worker_bufs *b, struct walk *w, struct ipc_msg *m,
		     const struct ipc_info *info)
{
	struct hop *h = &b->hop[0];
	long r = route(b, 0, &w->p[0], h, info);
	if (r)
		return r;
	uint64_t label = w->orig.label;
	*m = w->orig;
	if ((label == VFS_RMDIR || label == VFS_UNLINK) && h->mount_root)
		return -EBUSY;
	if (h->mt.cgroup2) {
		long e = cgroup2_request(&h->mt, m, info, h->inner);
		if (e != CGFS_PATHS_FORWARD) { /* else: a directory opened for listing */
			if (label == VFS_REALPATH && e == 0 && !w->internal)
				return finish(b, m, info, h, label);
			if (label == VFS_STATFS && e == 0)
				return cgroup2_statfs(&h->mt);
			return flat_error(b, h, info, e);
		}
		*m = w->orig;
	}
	uint64_t fl = walk_flags(h, m, w->at);
	bool ro = (h->mt.flags & MS_RDONLY) && vfs_changes_fs(m->label, m->w[0], false);
	if (ro && label != VFS_OPEN) { /* EROFS once the walk is known to end here */
		bool whole = follows_last(m, w->at);
		r = probe(b, w, 0, h, info, whole);
		return r == HOP_AGAIN ? r : (r < 0 && whole) ? r : -EROFS;
	}
	const char *snd = h->inner;
	size_t slen = h->ilen;
	if (w->extra) { /* "linkpath\0target" */
		size_t e = strlen(w->extra);
		if (h->ilen + 1 + e + 1 > sizeof(b->fwd))
			return -ENAMETOOLONG;
		memcpy(b->fwd, h->inner, h->ilen + 1);
		memcpy(b->fwd + h->ilen + 1, w->extra, e + 1);
		snd = b->fwd;
		slen = h->ilen + 1 + e + 1;
	}
	if (label == VFS_REALPATH)
		m->label = VFS_STAT; /* it exists: then its path is the walk's */
	r = ro ? open_read_only(b, h, info, m, fl)
	       : vfs_forward_walk(&h->mt, info, m, fl, snd, slen, b->scratch, sizeof(b->scratch));
	if (r == FS_HANDBACK)
		return m->w[1] == 0 ? handback(b, 0, &w->p[0], h, m, b->scratch, &w->links) : -EIO;
	if (r < 0)
		return flat_error(b, h, info, r);
	if (w->internal)
		return 0;
	long f = finish(b, m, info, h, label);
	/* the opener waits (a FIFO), or opens anew (/proc/PID/fd/N) */
	return f == 0 && label == VFS_OPEN && (r == FS_OPEN_FIFO || r == FS_OPEN_MAGIC) ? r : f;
}

/* One step of rename or link: both paths must end in one mount, which
 * only their walks can tell (a link or a ".." may lead anywhere). */
static long step_two(struct worker_bufs *b, struct walk *w, struct ipc_msg *m,
		     const struct ipc_info *info)
{
	struct hop *h = b->hop;
	for (int i = 0; i < 2; i++) {
		long r = route(b, i, &w->p[i], &h[i], info);
		if (r)
			return r;
	}
	*m = w->orig;
	if (w->orig.label == VFS_RENAME && (h[0].mount_root || h[1].mount_root))
		return -EBUSY;
	if (h[0].mt.seq != h[1].mt.seq) {
		for (int i = 0; i < 2; i++) { /* settle both parents: then it is EXDEV */
			long r = probe(b, w, i, &h[i], info, false);
			if (r)
				return r;
		}
		return -EXDEV;
	}
	if (h[0].mt.cgroup2) {
		size_t a = h[0].ilen + 1;
		memcpy(b->fwd, h[0].inner, a);
		memcpy(b->fwd + a, h[1].inner, h[1].ilen + 1);
		long e = cgroup2_request(&h[0].mt, m, info, b->fwd);
		e = e == CGFS_PATHS_FORWARD ? -EPERM : e;
		/* a rename of a cgroup to itself succeeds, once the walks do */
		return e < 0 || w->orig.label == VFS_RENAME ? flat_error2(b, h, info, e) : e;
	}
	if ((h[0].mt.flags & MS_RDONLY)) {
		for (int i = 0; i < 2; i++) {
			long r = probe(b, w, i, &h[i], info, false);
			if (r == HOP_AGAIN)
				return r;
		}
		return -EROFS;
	}
	memcpy(b->fwd, h[0].inner, h[0].ilen + 1);
	memcpy(b->fwd + h[0].ilen + 1, h[1].inner, h[1].ilen + 1);
	uint64_t fl = walk_flags(&h[0], m, w->at);
	long r = vfs_forward_walk(&h[0].mt, info, m, fl, b->fwd, h[0].ilen + h[1].ilen + 2,
				  b->scratch, sizeof(b->scratch));
	if (r == FS_HANDBACK) {
		int i = m->w[1] == 1;
		if (m->w[1] > 1)
			return -EIO;
		return handback(b, i, &w->p[i], &h[i], m, b->scratch, &w->links);
	}
	return r < 0 && !h[0].mt.walks ? flat_error2(b, h, info, r) : r;
}

/* Walks until a file system answers; ELOOP past MAXSYMLINKS links (the
 * ".." steps shorten the path, so they end by themselves; the bound on
 * rounds is only a guard). */
static long walk_request(struct worker_bufs *b, struct walk *w, struct ipc_msg *m,
			 const struct ipc_info *info, bool two)
{
	for (int round = 0; round < 4 * VFS_PATH_MAX; round++) {
		long r = two ? step_two(b, w, m, info) : step_one(b, w, m, info);
		if (r != HOP_AGAIN)
			return r;
	}
	return -ELOOP;
}

long vfs_realpath(const struct ipc_info *info, const char *path, char *out)
{
	struct worker_bufs *b = malloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	struct walk w = { .orig = { .label = VFS_REALPATH }, .internal = true };
	struct ipc_msg m;
	size_t n = strlen(path);
	long r = -ENAMETOOLONG;
	if (n < VFS_PATH_MAX) {
		w.p[0] = path;
		r = walk_request(b, &w, &m, info, false);
	}
	if (r == 0) {
		struct hop *h = &b->hop[0];
		/* the walk ended: route gives the final mount and path */
		r = route(b, 0, &w.p[0], h, info);
		if (r == 0) {
			hop_base(h, h->ilen, out, b->tmp);
			r = (long)strlen(out);
		} else if (r > 0) {
			r = -EIO;
		}
	}
	free(b);
	return r;
}

static long path_request(struct ipc_msg *m, const struct ipc_info *info, struct worker_bufs *b)
{
	if (info->snd_len == 0)
		return -ENOENT;
	bool two = m->label == VFS_RENAME || m->label == VFS_LINK || m->label == VFS_SYMLINK;
	if (info->snd_len >= (two ? BUF_MAX : VFS_PATH_MAX))
		return -ENAMETOOLONG;
	/* A short path is in b->req already (the worker's inbox). */
	long n = info->snd_inline ? (long)info->snd_len : sys_ipc_read(0, b->req, info->snd_len);
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	b->req[n] = '\0';
	const char *path = b->req, *path2 = NULL;
	if (two) {
		const char *to = memchr(b->req, '\0', (size_t)n);
		if (!to || to + 1 >= b->req + n || b->req[n - 1] != '\0')
			return m->label == VFS_SYMLINK && to && to + 1 >= b->req + n - 1 ? -ENOENT : -EINVAL;
		path2 = to + 1;
		if (strlen(path) >= VFS_PATH_MAX || strlen(path2) >= VFS_PATH_MAX)
			return -ENAMETOOLONG;
		if (!*path2)
			return -ENOENT;
		if (m->label != VFS_SYMLINK && path2[0] != '/')
			return -EINVAL;
	} else if (memchr(b->req, '\0', (size_t)n)) {
		return -EINVAL; /* a NUL inside */
	}
	if (path[0] != '/')
		return -EINVAL;
	if (m->label == VFS_UMOUNT)
		return vfs_umount(info, path, m->w[0]);
	struct walk w = { .orig = *m, .at = m->w[2], .p = { path, path2 } };
	if (m->label == VFS_SYMLINK) {
		w.p[1] = NULL;
		w.extra = path2; /* in b->req, which the walk leaves alone */
		return walk_request(b, &w, m, info, false);
	}
	return walk_request(b, &w, m, info, path2 != NULL);
}

static long request(struct ipc_msg *m, const struct ipc_info *info, struct worker_bufs *b)
{
	if (info->badge)
		return -EBADF; /* the VFS hands out no channels of its own */
	switch (m->label) {
	case VFS_MOUNT: {
		if (info->snd_len > BUF_MAX)
			return -EINVAL;
		long n = sys_ipc_read(0, b->req, info->snd_len);
		return n < 0 ? n : vfs_mount(info, m->w[0], b->req, (size_t)n);
	}
	case VFS_ROUTES:
		return vfs_routes(m);
	case VFS_SYNC:
		return vfs_sync();
	case VFS_MOUNTS: {
		long n = vfs_mounts_text();
		if (n >= 0)
			m->w[0] = (uint64_t)n;
		return n < 0 ? n : 0;
	}
	case VFS_OPEN: case VFS_STAT: case VFS_MKDIR: case VFS_RMDIR: case VFS_UNLINK:
	case VFS_RENAME: case VFS_CHMOD: case VFS_CHOWN: case VFS_ACCESS: case VFS_UMOUNT:
	case VFS_READLINK: case VFS_SYMLINK: case VFS_LINK: case VFS_REALPATH: case VFS_UTIMES:
	case VFS_STATFS:
		return path_request(m, info, b);
	default:
		return -EINVAL;
	}
}

static long worker(void *arg)
{
	struct worker_bufs *b = arg;
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	sys_ipc_inbox(b->req, IPC_INLINE_MAX); /* short paths arrive with the call */
	long r = sys_ipc_recv(endpoint, &m, &info);
	for (;;) {
		if (r == 0 && m.label != IPC_LABEL_CLOSED) {
			uint64_t asked = m.label;
			long e = request(&m, &info, b);
			m.label = (uint64_t)(e < 0 ? e : asked == VFS_OPEN && (e == FS_OPEN_FIFO || e == FS_OPEN_MAGIC) ? e : 0);
		}
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return 0;
}

int main(void)
{
	struct worker_bufs *bufs[WORKERS];
	long ep = sys_ep_create();
	if (ep < 0) {
		printf("vfs: cannot start\n");
		return 1;
	}
	/* Our own handles stay out of the way of descriptor numbers. */
	endpoint = (int)sys_handle_dup((int)ep, 200, HANDLE_CLOEXEC);
	sys_handle_close((int)ep);
	for (int i = 0; i < WORKERS; i++) {
		bufs[i] = malloc(sizeof(*bufs[i]));
		if (!bufs[i] || (i > 0 && __arbor_thread_start(worker, bufs[i]) < 0)) {
			printf("vfs: cannot start its workers\n");
			return 1;
		}
	}
	if (sys_ns_register(VFS_NAME, endpoint)) {
		printf("vfs: the name is taken\n");
		return 1;
	}
	worker(bufs[0]);
	return 0;
}
