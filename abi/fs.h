/* The file protocol: what every file server answers over IPC (the file
 * system servers, the console driver for the terminal). A file descriptor is a handle to a channel whose badge names
 * the open file description in its server; its offset and status flags
 * live there, shared by dup and fork as POSIX requires. Replies carry 0
 * or a negative errno in the label. */
#ifndef ARBOR_ABI_FS_H
#define ARBOR_ABI_FS_H

#include <stdint.h>

#define VFS_NAME "vfs"

/* File times (mtime, ctime, atime set to "now") are the time of day cut
 * down to a multiple of this, by the kernel's page cache and by every
 * file server alike: Linux's current_time() reads the clock of the last
 * tick (4 ms at its HZ 250), so writes within one tick leave the times,
 * and the inode, as they were (an fsync then has no inode to write). */
#define FS_TIME_GRAN_NS 4000000ull

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
#define VFS_MOUNT   10	/* send buffer "source\0target\0fstype\0data\0", w0 MS_* flags; root only */
#define VFS_UMOUNT  11	/* the target; w0 flags (must be 0); root only */
#define VFS_MOUNTS  12	/* the mount table as /proc/mounts text into the receive buffer: reply w0 = its length */
#define VFS_READLINK 13	/* the link's text (cut to the receive buffer, no NUL): reply w0 = bytes */
#define VFS_SYMLINK 14	/* send buffer "linkpath\0target" */
#define VFS_LINK    15	/* send buffer "from\0to", w0 AT_SYMLINK_FOLLOW: follow from's last link */
#define VFS_REALPATH 16	/* the path with every link followed, physical: into the receive
			   buffer, NUL-terminated; reply w0 = its length */
#define VFS_UTIMES  17	/* w0 atime, w1 mtime: ns since the epoch, or VFS_UTIME_NOW / _OMIT */
#define VFS_STATFS  18	/* struct statfs into the receive buffer */
/* The mount table for direct calls (docs/vfs.md, "Direct calls"): struct
 * fs_route records, longest target first, into the receive buffer; reply
 * w0 = the table's generation, w1 = the number of records. */
#define VFS_ROUTES  19
/* sync(2): every mounted file system that keeps data for a disk writes
 * it back (FS_SYNC to each mount's server); any caller may ask. */
#define VFS_SYNC    20
#define FS_ROUTES_MAX 32
#define FS_RT_WALKS   1		/* the server walks paths as written (FS_MNT_WALKS) */
#define FS_RT_NESTED  2		/* other mounts lie below this one */
#define FS_RT_CGROUP2 4		/* served by the VFS itself */
#define FS_RT_CGSUB   8		/* a cgroup2 mount rooted below the hierarchy's root (made
				   inside a cgroup namespace): not the library's to take to
				   the kernel itself (cgfs_direct's paths are the hierarchy's) */
struct fs_route {
	uint64_t flags;		/* MS_* */
	uint32_t inst;		/* the instance, for w2 */
	uint16_t tlen;		/* strlen(target) */
	uint8_t kind;		/* FS_RT_* */
	uint8_t pad;
	char type[28];		/* the server is FS_NAME_PREFIX + type */
	char target[256];	/* normalized: "/", "/dev" */
};
/* w2 of a path request from a client: AT_SYMLINK_NOFOLLOW (0x100: the
 * last component is not followed; stat: lstat, chown: lchown, utimes,
 * access) and AT_EACCESS (0x200, access: the effective ids). Opening
 * takes O_NOFOLLOW in w0. */
#define VFS_AT_NOFOLLOW 0x100
#define VFS_AT_EACCESS  0x200
#define VFS_UTIME_NOW   (~0ull)
#define VFS_UTIME_OMIT  (~0ull - 1)

/* Mount flags (Linux's values). */
#define MS_RDONLY    1
#define MS_NOSUID    2
#define MS_NODEV     4
#define MS_NOEXEC    8

/* The file-system server protocol. A file system is a server that
 * publishes its endpoint as FS_NAME_PREFIX + its type ("fs.tmpfs"). The
 * VFS resolves a path to a mount and forwards the request (the VFS_* label
 * and w0, w1 unchanged) with the path relative to the mount's root ("/" is
 * the root itself) and the caller's kernel-attested identity in w2..w4.
 * File systems believe identity words only from root callers (the VFS runs
 * as root), so an ordinary process cannot claim another identity; a
 * direct call (FS_WALK_DIRECT) from anyone carries the kernel's. Open
 * replies w0 = a handle given to the VFS, which passes it on to the
 * client: from then on the client's descriptor talks to the file system
 * directly, with its own identity. */
#define FS_NAME_PREFIX "fs."
#define FS_MOUNT   0x201	/* send buffer "source\0data\0target\0", w0 MS_* flags: reply w0 =
				   instance, w1 FS_MNT_* */
#define FS_UMOUNT  0x202	/* w2 instance: -EBUSY while it has open files */
#define FS_GEN     0x203	/* w0 the mount table's new generation (from root: the VFS) */
#define FS_SYNC    0x204	/* w2 instance: everything of it to stable storage (from root: the
				   VFS's sync(2)) */
#define FS_W_WHO   2	/* w2: instance | FS_WALK_* | pid << 32 */
#define FS_W_CRED  3	/* w3: euid | egid << 32 */
#define FS_W_RCRED 4	/* w4: uid | gid << 32 (for access) */

#define FS_W_INST  0xffffull	/* the instance's bits of w2 */
/* How the file system walks the path (bits of w2). */
#define FS_WALK_NOFOLLOW    (1ull << 16)	/* the last component is not followed */
#define FS_WALK_DOTDOT_ROOT (1ull << 17)	/* ".." at the mount's root hands back */
#define FS_WALK_DOTDOT_ALL  (1ull << 18)	/* every ".." hands back (mounts lie below) */
#define FS_WALK_PARENT      (1ull << 19)	/* VFS_STAT: walk only to the parent, write nothing */
#define FS_WALK_EACCESS     (1ull << 20)	/* VFS_ACCESS with the effective ids */
/* A direct call (docs/vfs.md, "Direct calls"): the client itself sends
 * the path request, having resolved the mount from the VFS's table. The
 * identity is the kernel's (struct ipc_info), never w3/w4; w2's high half
 * is the generation of the table the client used: a server that knows a
 * newer one answers -ESTALE (the client reloads the table). A request
 * that would change a read-only mount is -EROFS. */
#define FS_WALK_DIRECT      (1ull << 21)
/* The kernel's name cache could not answer this stat or access
 * (ncache_lookup said NCACHE_MISS): the server installs the names its
 * walk sees (ncache_add), so the next one is answered by the kernel. */
#define FS_WALK_NCMISS      (1ull << 22)
/* VFS_OPEN with O_DIRECTORY (a direct call: opendir): the server may send
 * the first FILE_GETDENTS batch into the receive buffer with the open, one
 * round trip less per listing; then the reply's w2 is FS_DENTS_SENT (|
 * FS_DENTS_END if it reached the end) and w1 its bytes. */
#define FS_WALK_DENTS       (1ull << 23)
#define FS_DENTS_SENT 1
#define FS_DENTS_END  2
/* The reply label of a walk that needs the VFS (docs/vfs.md, "Links"):
 * w0 FS_HB_LINK (follow the symlink at the component; its text in the
 * receive buffer, w4 bytes) or FS_HB_DOTDOT (the component is ".."), w1
 * which path (0, or 1: rename's and link's second), w2 the component's
 * offset in that path, w3 its length. */
#define FS_HANDBACK 1
/* The reply label of an open that gave a FIFO's end (w0): the opener
 * waits for the other side with fifo_wait (docs/vfs.md, "FIFOs"). */
#define FS_OPEN_FIFO 2
#define FS_HB_LINK   1
#define FS_HB_DOTDOT 2
/* FS_MOUNT's reply w1: the server walks paths itself and hands back
 * links and "..": the VFS sends paths as written. Others get paths with
 * "." and ".." resolved. */
#define FS_MNT_WALKS 1
/* FS_MOUNT's reply w2: the file system's magic number (statfs f_type).
 * w3: cgroup2's root, the id of the cgroup the mount shows as its root
 * (the mounter's cgroup namespace root; 0 the hierarchy's): the VFS gives
 * the kernel's cgfs calls its paths as "@ID/path" (abi/cgroup.h). */

/* On a file channel. */
#define FILE_READ    0x101	/* w0 offset, w1 1 = at w0 (pread), w2 the buffer's address mod 4096
				   (from the kernel: O_DIRECT's alignment): receive buffer; reply w0 = bytes */
#define FILE_WRITE   0x102	/* w0 offset, w1 1 = at w0 (pwrite), w2 as FILE_READ's: send buffer;
				   reply w0 = bytes */
#define FILE_SEEK    0x103	/* w0 offset, w1 whence: reply w0 = new offset */
#define FILE_FSTAT   0x104	/* struct stat into the receive buffer */
/* Directory entries in batches, as Linux's getdents64: from the open
 * description's offset (the position cookie lseek(SEEK_SET) sets), as many
 * records as fit into the receive buffer, each a struct fs_dirent64
 * (Linux's struct linux_dirent64) padded to 8 bytes; the offset moves past
 * the last one. d_off is the cookie of the entry after it: stable while
 * other entries come and go. Reply w0 = bytes (0: the end), w1 = 1 if
 * these reached the end (a hint that saves readdir the call that would
 * return 0); -EINVAL if the next entry does not fit the buffer, -ENOTDIR,
 * -EFAULT. */
#define FILE_GETDENTS 0x105
#define FILE_GETFL   0x106	/* reply w0 = O_* status flags */
#define FILE_SETFL   0x107	/* w0 O_APPEND | O_NONBLOCK | O_DIRECT (a server keeps those it knows) */
#define FILE_TRUNCATE 0x108	/* w0 length */
#define FILE_FCHMOD  0x109	/* w0 mode */
#define FILE_FCHOWN  0x10a	/* w0 uid, w1 gid */
#define FILE_POLL    0x10b	/* w0 events: reply w0 = revents now (never blocks) */
/* w3 of a FILE_READ / FILE_WRITE the kernel makes: FILE_W3_FLAGS | the
 * description's status flags (O_APPEND, O_NONBLOCK, O_DIRECT), which the
 * kernel keeps for a channel whose server published them (ipc_fstate). */
#define FILE_W3_FLAGS 0x100000000ull
#define FILE_FSYNC   0x10c	/* data to stable storage (block devices); memory file systems: 0 */
#define FILE_GETPATH 0x10d	/* a directory's absolute path (for the *at calls) into the receive
				   buffer, NUL-terminated: reply w0 = its length; -ENOTDIR for others;
				   with w0 FILE_GETPATH_ANY any file's, as /proc/PID/fd shows it
				   (" (deleted)" after an unlinked one's), where the file system
				   knows one */
#define FILE_GETPATH_ANY 1
#define FILE_UTIMES  0x10e	/* w0 atime, w1 mtime as VFS_UTIMES */
#define FILE_STATFS  0x10f	/* struct statfs (Linux's) of the file's file system into the
				   receive buffer */
#define FILE_SYNCFS  0x110	/* syncfs(2): the whole file system of the file to stable storage */
/* linkat(fd, "", dir, name, AT_EMPTY_PATH): a new name for the file (an
 * O_TMPFILE one too). Send buffer "target\0inner\0": the mount the name
 * lies in (its target, as the C library's table has it: the server
 * refuses another mount than the file's with -EXDEV) and the name's path
 * inside it, its directories without links or "."/".." (the library
 * resolved them); w0 the table's generation (-ESTALE: reload it). Only
 * for a caller with euid 0 (Linux: CAP_DAC_READ_SEARCH), else -ENOENT. */
#define FILE_LINKAT  0x111
/* w1 of FILE_LINKAT: the file came through /proc/PID/fd/N with
 * AT_SYMLINK_FOLLOW (Linux's unprivileged way: no euid 0 needed). Any
 * holder may say so: it could take that way itself. */
#define FILE_LINKAT_PROCFD 1
/* open("/proc/PID/fd/N", flags) of this file (Linux's magic link): a new
 * open file description of the same file, w0 the open flags, checked
 * against the caller's identity as an open of it by name would be (but no
 * walk); reply w0 = the new descriptor given to the caller. -ENXIO where
 * the file system cannot. */
#define FILE_REOPEN  0x112
/* The reply label of an open of /proc/PID/fd/N (procfs): w0 is a copy of
 * that descriptor, which the C library opens anew (FILE_REOPEN, a pipe's
 * new end) and closes. */
#define FS_OPEN_MAGIC 3


/* One FILE_GETDENTS record: 19 bytes of header, the name and its NUL,
 * padding up to d_reclen (a multiple of 8). */
struct fs_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
};
#define FS_DIRENT_HDR 19
#define FS_DIRENT_RECLEN(namelen) ((FS_DIRENT_HDR + (namelen) + 1 + 7) & ~7ul)

#endif
