/* statvfs(3) and fstatvfs(3) (POSIX), Linux's x86_64 layout (Arbor's
   overlay: newlib has none); made from statfs(2) as glibc does. */
#ifndef _SYS_STATVFS_H
#define _SYS_STATVFS_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct statvfs {
	unsigned long f_bsize;		/* the file system's block size */
	unsigned long f_frsize;		/* the unit of f_blocks, f_bfree, f_bavail */
	fsblkcnt_t f_blocks;
	fsblkcnt_t f_bfree;
	fsblkcnt_t f_bavail;
	fsfilcnt_t f_files;
	fsfilcnt_t f_ffree;
	fsfilcnt_t f_favail;
	unsigned long f_fsid;
	unsigned long f_flag;		/* ST_* */
	unsigned long f_namemax;
	int __f_spare[6];
};

/* f_flag bits: Linux's values (the MS_* of the mount). */
#define ST_RDONLY 1
#define ST_NOSUID 2
#define ST_NODEV  4
#define ST_NOEXEC 8

int statvfs(const char *__restrict __path, struct statvfs *__restrict __buf);
int fstatvfs(int __fd, struct statvfs *__buf);

#ifdef __cplusplus
}
#endif
#endif
