/* Open-file flags as system calls take them (fd_flags, cgfs_open,
 * inotify_init1, the VFS_OPEN and FILE_SETFL words of abi/fs.h): Linux's
 * x86_64 values. The C library defines the same names with the same
 * values (checked at compile time by user/libc/abi_check.c): its
 * definitions win when both are seen. */
#ifndef ARBOR_ABI_FCNTL_H
#define ARBOR_ABI_FCNTL_H

#ifndef O_RDONLY
#define O_RDONLY   0
#define O_WRONLY   1
#define O_RDWR     2
#define O_ACCMODE  3		/* the access mode's bits */
#define O_APPEND   02000
#define O_NONBLOCK 04000
#define O_CLOEXEC  02000000
#endif
/* A descriptor naming a file without opening it for reading or writing
 * (Linux's O_PATH, docs/vfs.md "O_PATH descriptors"): fstat, fchdir, a
 * dirfd, dup, close and fcntl(F_GETFL) work; read, write, mmap and the
 * calls that change the file are EBADF. */
#ifndef O_PATH
#define O_PATH 010000000
#endif
/* Linux's __O_TMPFILE bit: O_TMPFILE is it with O_DIRECTORY (an old
 * kernel opens the directory and fails with EISDIR: the caller learns it
 * has none). open(dir, O_TMPFILE | O_WRONLY or O_RDWR, mode) makes an
 * unnamed regular file in dir's file system (docs/vfs.md "O_TMPFILE"). */
#define K_O_TMPFILE_BIT 020000000
/* Path lookup (VFS_OPEN's w0, the *at calls; docs/vfs.md "Links"). */
#ifndef O_DIRECTORY
#define O_DIRECTORY 0200000	/* must be a directory */
#define O_NOFOLLOW  0400000	/* a final symlink is ELOOP */
#endif
#ifndef AT_FDCWD
#define AT_FDCWD            -100	/* the working directory */
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR        0x200
#define AT_EACCESS          0x200	/* faccessat's: shares AT_REMOVEDIR's bit */
#define AT_SYMLINK_FOLLOW   0x400
#define AT_EMPTY_PATH       0x1000
#endif

/* Record locks (fd_lock, docs/vfs.md "Record locks"): Linux's struct
 * flock (x86_64 layout) and its commands and types. */
#include <stdint.h>
struct k_flock {
	int16_t type;		/* K_F_RDLCK, K_F_WRLCK, K_F_UNLCK */
	int16_t whence;		/* 0 SEEK_SET, 1 SEEK_CUR, 2 SEEK_END */
	int32_t pad0;
	int64_t start;
	int64_t len;		/* 0: to the end of the file, however long; < 0: before start */
	int32_t pid;		/* F_GETLK: the holder */
	int32_t pad1;
};
#define K_F_GETLK  5
#define K_F_SETLK  6
#define K_F_SETLKW 7
#define K_F_RDLCK  0
#define K_F_WRLCK  1
#define K_F_UNLCK  2

#endif
