/* The tmpfs server: the in-memory file system core (tmpfs.h) behind the
 * file-system server skeleton (fssrv.h). Each mount is a struct tmpfs. */
#ifndef ARBOR_TMPFS_SRV_H
#define ARBOR_TMPFS_SRV_H

#include <sys/stat.h>
#include "fssrv.h"
#include "tmpfs.h"

long tmpfs_srv_path(const struct fs_req *r, struct ipc_msg *m);
/* FILE_GETPATH: the directory's path in its mount. */
long tmpfs_srv_dirpath(struct fs_file *f, char *buf, size_t cap);
/* FILE_GETPATH_ANY: any open file's, as /proc/PID/fd shows it. */
long tmpfs_srv_filepath(struct fs_file *f, char *buf, size_t cap);
/* FILE_REOPEN: open(/proc/PID/fd/N) of f's inode anew, for the caller. */
long tmpfs_srv_reopen(struct fs_file *f, int flags, const struct ipc_info *info);
long tmpfs_srv_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info);
void tmpfs_srv_fill_stat(const struct tmpfs_inode *ino, struct stat *st);
/* Fills fs from the boot archive; 0 or -errno. */
int tmpfs_srv_populate(struct tmpfs *fs);
/* File data in the kernel's page cache (data.c): tmpfs_ops.data. */
extern const struct tmpfs_data_ops tmpfs_srv_data_ops;
/* st_dev of every tmpfs file (the server's stat and the kernel's fstat). */
#define TMPFS_SRV_DEV 1

#endif
