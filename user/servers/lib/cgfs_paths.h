/* cgroup2 path requests over the cgfs_* system calls, shared by the
 * cgfs server and the VFS, which serves a cgroup2 mount's path
 * requests itself (the cgroup state is the kernel's either way; only
 * directory listings need the server's channels). */
#ifndef ARBOR_CGFS_PATHS_H
#define ARBOR_CGFS_PATHS_H

#include <sys/stat.h>
#include "abi/cgroup.h"
#include "fssrv.h"

/* What cgfs_path_request returns for the open of a directory when no
 * open_dir is given: the caller forwards it to the cgfs server. */
#define CGFS_PATHS_FORWARD 1

/* Room for a path inside a mount with its root prefix (cgfs_kpath). */
#define CGFS_KPATH_MAX (4096 + 24)

/* The kernel's form of path (inside a mount whose root is the cgroup of
 * id root, FS_MOUNT's reply w3; 0 the hierarchy's root): path itself, or
 * "@ROOT" and path in buf (cap bytes). NULL if it does not fit. */
const char *cgfs_kpath(uint64_t root, const char *path, char *buf, size_t cap);

/* One VFS_* request about r->path in a mount whose root is the cgroup
 * of id root (0: the hierarchy's): 0, -errno or CGFS_PATHS_FORWARD; an
 * open gives its handle to the current caller and sets m->w[0]. A stat
 * writes struct stat into the caller's buffer. */
long cgfs_path_request(const struct fs_req *r, uint64_t root, struct ipc_msg *m,
		       long (*open_dir)(const struct fs_req *r, int flags));
void cgfs_fill_stat(const struct k_cgnode *n, struct stat *st);

#endif
