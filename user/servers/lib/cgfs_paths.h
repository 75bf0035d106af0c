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

/* One VFS_* request about r->path in the hierarchy: 0, -errno or
 * CGFS_PATHS_FORWARD; an open gives its handle to the current caller and
 * sets m->w[0]. A stat writes struct stat into the caller's buffer. */
long cgfs_path_request(const struct fs_req *r, struct ipc_msg *m,
		       long (*open_dir)(const struct fs_req *r, int flags));
void cgfs_fill_stat(const struct k_cgnode *n, struct stat *st);

#endif
