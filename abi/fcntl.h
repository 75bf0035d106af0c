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

#endif
