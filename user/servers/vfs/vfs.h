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
#include "../../include/arbor/vfs_path.h"

#define VFS_MOUNTS_MAX 32

/* What a request needs of a mount: small, so a lookup copies little. */
struct vfs_route {
	uint64_t seq;			/* mount order, for /proc/mounts */
	uint64_t flags;			/* MS_* */
	size_t tlen;			/* strlen(target) */
	int h;				/* the file-system server's endpoint */
	uint32_t inst;			/* its instance for this mount */
	bool cgroup2;			/* served by the VFS itself */
	uint64_t cgroot;		/* cgroup2: its root cgroup's id (FS_MOUNT's w3; 0 the hierarchy's) */
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

/* The route to the mount that holds normalized path p (of length plen);
 * false if nothing is mounted at "/". */
bool vfs_mount_find(const char *p, size_t plen, struct vfs_route *out);
/* Whether normalized path p (of length plen) is a mount point. */
bool vfs_is_mountpoint(const char *p, size_t plen);
long vfs_mount(const struct ipc_info *info, uint64_t flags, char *buf, size_t len);
long vfs_umount(const struct ipc_info *info, const char *path, uint64_t flags);
/* VFS_ROUTES: the table as struct fs_route records into the caller's
 * receive buffer; m->w[0] = its generation, w[1] = the count. */
long vfs_routes(struct ipc_msg *m);
/* VFS_SYNC (sync(2)): FS_SYNC to every mount's server, one after the
 * other, without the lock. 0, or -EIO if one failed to write back. */
long vfs_sync(void);
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
