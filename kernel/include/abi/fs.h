/* The file protocol: what every file server answers over IPC (the VFS
 * server for its file systems and pipes, the console driver for the
 * terminal). A file descriptor is a handle to a channel whose badge names
 * the open file description in its server; its offset and status flags
 * live there, shared by dup and fork as POSIX requires. Replies carry 0
 * or a negative errno in the label. */
#ifndef ARBOR_ABI_FS_H
#define ARBOR_ABI_FS_H

#define VFS_NAME "vfs"

/* On the VFS endpoint. The path (absolute) is the call's send buffer. */
#define VFS_OPEN     1	/* w0 O_* flags, w1 mode (umask applied): reply w0 = handle */
#define VFS_STAT     2	/* w0 1 = lstat: struct stat into the receive buffer */
#define VFS_MKDIR    3	/* w0 mode */
#define VFS_RMDIR    4
#define VFS_UNLINK   5
#define VFS_RENAME   6	/* send buffer "from\0to" */
#define VFS_CHMOD    7	/* w0 mode */
#define VFS_CHOWN    8	/* w0 uid, w1 gid ((uint64_t)-1: unchanged) */
#define VFS_ACCESS   9	/* w0 R_OK|W_OK|X_OK */

/* On a file channel. */
#define FILE_READ    0x101	/* w0 offset, w1 1 = at w0 (pread): receive buffer; reply w0 = bytes */
#define FILE_WRITE   0x102	/* w0 offset, w1 1 = at w0 (pwrite): send buffer; reply w0 = bytes */
#define FILE_SEEK    0x103	/* w0 offset, w1 whence: reply w0 = new offset */
#define FILE_FSTAT   0x104	/* struct stat into the receive buffer */
#define FILE_READDIR 0x105	/* w0 index: reply w0 = next index, struct dirent into the buffer; w1 0 = end */
#define FILE_GETFL   0x106	/* reply w0 = O_* status flags */
#define FILE_SETFL   0x107	/* w0 O_APPEND | O_NONBLOCK */
#define FILE_TRUNCATE 0x108	/* w0 length */
#define FILE_FCHMOD  0x109	/* w0 mode */
#define FILE_FCHOWN  0x10a	/* w0 uid, w1 gid */
#define FILE_POLL    0x10b	/* w0 events: reply w0 = revents now (never blocks) */

#endif
