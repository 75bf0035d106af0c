/* statfs(2) and fstatfs(2) with Linux's x86_64 struct statfs (Arbor's
   overlay: newlib has none). f_type is the file system's magic number
   (TMPFS_MAGIC 0x01021994, PROC_SUPER_MAGIC 0x9fa0, CGROUP2_SUPER_MAGIC
   0x63677270, ...), f_flags ST_VALID and the mount's ST_* flags. */
#ifndef _SYS_STATFS_H
#define _SYS_STATFS_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { int __val[2]; } fsid_t;

struct statfs {
	long f_type;		/* the file system's magic number */
	long f_bsize;		/* the block size of f_blocks and friends */
	fsblkcnt_t f_blocks;	/* size in f_bsize blocks */
	fsblkcnt_t f_bfree;	/* free blocks */
	fsblkcnt_t f_bavail;	/* free blocks an unprivileged user may use */
	fsfilcnt_t f_files;	/* inodes */
	fsfilcnt_t f_ffree;	/* free inodes */
	fsid_t f_fsid;
	long f_namelen;		/* longest file name */
	long f_frsize;		/* fragment size */
	long f_flags;		/* ST_VALID | ST_* of the mount */
	long f_spare[4];
};

#ifndef ST_VALID
#define ST_VALID 0x0020
#endif

int statfs(const char *__path, struct statfs *__buf);
int fstatfs(int __fd, struct statfs *__buf);

#ifdef __cplusplus
}
#endif
#endif
