/* The VFS server: one name space over the mounted file systems. It owns
 * the mount table and nothing else: each request about a path goes to the
 * file-system server of the mount the path lies in (abi/fs.h), and a file
 * opened there is the client's own channel to that server. */
#ifndef ARBOR_VFS_H
#define ARBOR_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "abi/fs.h"
#include "abi/ipc.h"

#define VFS_PATH_MAX 4096
#define VFS_MOUNTS_MAX 32

/* What a request needs of a mount: small, so a lookup copies little. */
struct vfs_route {
	uint64_t seq;			/* mount order, for /proc/mounts */
	uint64_t flags;			/* MS_* */
	size_t tlen;			/* strlen(target) */
	int h;				/* the file-system server's endpoint */
	uint32_t inst;			/* its instance for this mount */
	bool cgroup2;			/* served by the VFS itself */
	bool walks;			/* the server walks paths as written (FS_MNT_WALKS) */
	bool nested;			/* other mounts lie below this one */
	long magic;			/* statfs's f_type (FS_MOUNT's reply) */
};

struct vfs_mount {
	bool used;
	struct vfs_route r;
	char target[256];		/* normalized: "/", "/dev" */
	char source[64], type[28], data[128];
};

/* Lexically resolves ".", ".." and repeated slashes of the absolute path
 * in into out (at least VFS_PATH_MAX bytes): "/" or "/a/b". */
size_t vfs_normalize(const char *in, char *out);
/* Whether normalized path p (of length plen) is mount target t (of
 * length tlen) or lies below it. */
bool vfs_path_under(const char *p, size_t plen, const char *t, size_t tlen);

/* The walk (docs/vfs.md, "Links"). Paths are absolute, VFS_PATH_MAX at
 * most.
 *
 * The components of p before its first ".." (none of "" and ".") as a
 * normal path into out; *dotdot says whether a ".." stopped it. Returns
 * its length. The mount that holds it is the one the walk starts in: a
 * ".." must be walked (a symlink may precede it), so nothing past one
 * can choose a mount. */
size_t vfs_lexical_prefix(const char *p, char *out, bool *dotdot);
/* The offset in p just past the components that make up the first tlen
 * bytes of its lexical prefix: where the path inside a mount of target
 * length tlen starts (0 for "/"). */
size_t vfs_prefix_end(const char *p, size_t tlen);
/* For file systems that do not walk ".." (FS_MNT_WALKS unset): the path
 * inside the mount in with "." and ".." resolved into out (a trailing
 * slash kept); its length, or -1 if a ".." climbs above the mount's root
 * (*rest: the offset in `in` just past that ".."), -2 if too long. */
long vfs_inner_normalize(const char *in, char *out, size_t *rest);
/* out = base (a physical directory: normal, no links) joined with rest,
 * whose leading "", "." and ".." components are resolved against base
 * (safe: base has no links) and the rest of which is kept as written.
 * out may not overlap rest. Its length, or -1 if too long. */
long vfs_join(const char *base, const char *rest, char *out);
/* Cuts normal path p (of length len) to its parent ("/" stays); the new
 * length. */
size_t vfs_parent(char *p, size_t len);

/* The route to the mount that holds normalized path p (of length plen);
 * false if nothing is mounted at "/". */
bool vfs_mount_find(const char *p, size_t plen, struct vfs_route *out);
/* Whether normalized path p (of length plen) is a mount point. */
bool vfs_is_mountpoint(const char *p, size_t plen);
long vfs_mount(const struct ipc_info *info, uint64_t flags, char *buf, size_t len);
long vfs_umount(const struct ipc_info *info, const char *path, uint64_t flags);
/* The table as /proc/mounts text into the caller's receive buffer;
 * returns its full length. */
long vfs_mounts_text(void);

/* A request to the file system of mount mt for the caller of info: the
 * label and w0, w1 as the client sent them, path inside mt. */
long vfs_forward(const struct vfs_route *mt, const struct ipc_info *info, struct ipc_msg *m,
		 const char *path, size_t path_len, void *rcv, size_t rcv_len);
/* The same with FS_WALK_* flags: the reply's label (0, -errno or
 * FS_HANDBACK). */
long vfs_forward_walk(const struct vfs_route *mt, const struct ipc_info *info, struct ipc_msg *m,
		      uint64_t walk, const char *path, size_t path_len, void *rcv, size_t rcv_len);
/* path (absolute) with every symlink followed, physical, into out
 * (VFS_PATH_MAX): its length or -errno (mount(2)'s target). */
long vfs_realpath(const struct ipc_info *info, const char *path, char *out);

#endif
