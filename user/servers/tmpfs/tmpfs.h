/* tmpfs: the VFS server's in-memory file system core. Pure logic: no libc,
 * no system calls; memory comes from the caller's alloc/free callbacks and
 * time from the `now` (nanoseconds) argument of each mutating call.
 *
 * Semantics follow Linux (tmpfs plus the VFS checks in fs/namei.c) and every
 * error is a negative Linux errno (abi/errno.h):
 *
 *   - Paths are absolute, resolved from the fs root: "" is -ENOENT, a path
 *     not starting with '/' is -EINVAL, 4096 bytes or more (no NUL within
 *     PATH_MAX) is -ENAMETOOLONG, as is a component over 255 bytes. Empty
 *     components and "." are skipped, ".." goes to the parent (the root's
 *     parent is the root). Walking through a directory needs search (x)
 *     permission on it, walking through a non-directory is -ENOTDIR, and a
 *     trailing slash makes the path name a directory.
 *   - Symbolic links (S_IFLNK, mode 0777, the target kept in the inode,
 *     size = its length) are never followed here: the core cannot know
 *     where an absolute target leads (another mount, maybe). A walk that
 *     must follow one returns TMPFS_HANDBACK and tmpfs_handback() tells
 *     the caller which component of which path it is and the target; the
 *     VFS then restarts the walk from a new path (docs/vfs.md). A link in
 *     the middle of a path is always followed; the last component only by
 *     the calls that say so (lookup with follow, open(O_CREAT) without
 *     O_EXCL) or when a slash follows it, as Linux.
 *   - ".." is walked here by default (the root's parent is the root), but
 *     tmpfs_set_walk() can make it hand back too: at the root only (a
 *     mount's root: the VFS knows the mount point's parent), or everywhere
 *     (mounts lie below this one, and only the VFS knows where).
 *   - Permissions are Linux's generic_permission: exactly one class of
 *     owner / group (gid or a supplementary group) / other applies; uid 0
 *     may read and write anything, search any directory and execute a file
 *     with at least one x bit.
 *   - Creating or removing an entry needs write and search permission on
 *     the directory; in a sticky (S_ISVTX) directory only the entry's
 *     owner, the directory's owner or root may remove or rename it (-EPERM).
 *   - Inode numbers are never reused during the fs lifetime. An inode lives
 *     while it has a name (nlink > 0) or an open reference
 *     (tmpfs_open_ref); an unlinked file stays fully usable until its last
 *     tmpfs_close_ref. A directory's nlink is 2 + its subdirectories.
 *   - File data lives in 4 KiB pages; a page never written is a hole that
 *     reads as zeros, and bytes past EOF are kept zero, so extending by a
 *     write past EOF or by truncate reads back zeros. Files are limited to
 *     TMPFS_MAX_FILE bytes (-EFBIG). An allocation failure is -ENOSPC and
 *     leaves the tree unchanged (a write may instead return a short count).
 *
 * Inode pointers returned by lookups stay valid until the next call that
 * can remove an entry, unless held with tmpfs_open_ref. Not thread-safe:
 * the VFS server serialises calls. */
#ifndef ARBOR_VFS_TMPFS_H
#define ARBOR_VFS_TMPFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TMPFS_NAME_MAX   255
#define TMPFS_PATH_MAX   4096          /* including the terminating NUL */
#define TMPFS_MAX_FILE   (1ull << 30)  /* 1 GiB */

#define TMPFS_S_IFMT     0170000
#define TMPFS_S_IFREG    0100000
#define TMPFS_S_IFDIR    0040000
#define TMPFS_S_IFCHR    0020000
#define TMPFS_S_IFLNK    0120000
#define TMPFS_S_IFSOCK   0140000
#define TMPFS_S_IFIFO    0010000
#define TMPFS_S_IFBLK    0060000
#define TMPFS_S_ISUID    04000
#define TMPFS_S_ISGID    02000
#define TMPFS_S_ISVTX    01000

#define TMPFS_R_OK       4
#define TMPFS_W_OK       2
#define TMPFS_X_OK       1

#define TMPFS_DT_CHR     2
#define TMPFS_DT_DIR     4
#define TMPFS_DT_REG     8
#define TMPFS_DT_LNK     10
#define TMPFS_DT_SOCK    12

/* Returned (never an errno) when the walk needs the VFS: see above. */
#define TMPFS_HANDBACK   (-10000)
#define TMPFS_HB_LINK    1           /* follow the symlink at the component */
#define TMPFS_HB_DOTDOT  2           /* the component is "..": resolve it above */

/* tmpfs_set_walk flags. */
#define TMPFS_WALK_DOTDOT_ROOT 1     /* ".." at the root hands back */
#define TMPFS_WALK_DOTDOT_ALL  2     /* every ".." hands back */

/* tmpfs_create_node flags (true still means exclusive). */
#define TMPFS_EXCL       1
#define TMPFS_NOFOLLOW   2           /* a final symlink is -ELOOP */

/* utimes: special values of a time argument. */
#define TMPFS_UTIME_NOW  (~0ull)
#define TMPFS_UTIME_OMIT (~0ull - 1)

/* Why the last call returned TMPFS_HANDBACK. */
struct tmpfs_handback {
	int kind;                   /* TMPFS_HB_* */
	uint32_t which;             /* 0: the (first) path, 1: rename's or link's second */
	uint32_t off, len;          /* the component's place in that path */
	const char *target;         /* TMPFS_HB_LINK: the link's text (valid until the next change) */
	uint32_t tlen;
};

struct tmpfs;
struct tmpfs_inode;
struct tmpfs_stat;

/* An external store for regular files' data (the server's: the kernel's
 * page cache objects, which clients read and write without the server).
 * Each file's store is named by an id. The store keeps the data, the
 * size, the blocks and the times (reads set atime, writes and truncation
 * mtime and ctime); the core pushes the rest of the inode (ino, mode,
 * nlink, owner, ctime) with attr after each change, and the times too on
 * creation (TMPFS_ATTR_TIMES). Directories have an attribute-only object
 * too (create_meta), pushed likewise with their size, and with
 * TMPFS_ATTR_NAMES whenever an entry is added, removed or repointed. */
/* attr's what: which of the pushed fields matter beyond ino, mode,
 * nlink, owner and ctime. */
#define TMPFS_ATTR_TIMES 1   /* atime and mtime too (creation, utimes) */
#define TMPFS_ATTR_SIZE  2   /* the size (a directory's: the store keeps a file's) */
#define TMPFS_ATTR_NAMES 4   /* a directory's names changed (the kernel's name
				cache forgets them, before the change is answered,
				and takes the directory's attributes as out of
				date until a push with TMPFS_ATTR_TIMES: once per
				run of changes, not every time) */
#define TMPFS_ATTR_CURRENT 8 /* with NAMES: the names go, but the attributes
				pushed (with TIMES: all of them) are current */

struct tmpfs_data_ops {
	int (*create)(void *ctx, uint64_t *id);      /* 0, -ENOSPC, -ENOMEM */
	/* 0, or -EBUSY: descriptors the kernel opened itself hold a regular
	 * file's object (it stays; tmpfs_kclosed frees the inode later). */
	/* Optional: an attribute-only object for a directory (the kernel's
	 * name cache names it); 0, or -errno (the directory then has none). */
	int (*create_meta)(void *ctx, uint64_t *id);
	int (*destroy)(void *ctx, uint64_t id);
	long (*read)(void *ctx, uint64_t id, uint64_t off, void *buf, size_t len);
	long (*write)(void *ctx, uint64_t id, uint64_t off, const void *buf, size_t len);
	int (*truncate)(void *ctx, uint64_t id, uint64_t size);
	/* fills size, blocks, atime, mtime and ctime of *st */
	void (*stat)(void *ctx, uint64_t id, struct tmpfs_stat *st);
	void (*attr)(void *ctx, uint64_t id, const struct tmpfs_stat *st, unsigned what);
};

struct tmpfs_ops {
	void *(*alloc)(size_t size);  /* NULL when out of memory */
	void (*free)(void *p);
	/* File data pages, if set (else alloc and free): a zeroed 4 KiB
	 * page in *page, or -ENOMEM / -ENOSPC (the server charges them to
	 * the client that writes, whose limit may refuse). */
	int (*page_alloc)(void **page);
	void (*page_free)(void *page);
	/* If set, regular files' data lives there instead of in pages of
	 * the core's own (page_alloc and the byte counts are then unused). */
	const struct tmpfs_data_ops *data;
	void *data_ctx;
	/* If set, called when a FIFO's inode goes with the handle its server
	 * kept for it (tmpfs_fifo_set; the kernel's FIFO node). */
	void (*fifo_drop)(int64_t handle);
};

/* The caller's identity (fsuid/fsgid and supplementary groups). The
 * groups are the ngroups at groups, and, if member is set, those member
 * says pid is in (the server asks the kernel: only when a check needs
 * them, see permission()). */
struct tmpfs_cred {
	uint32_t uid, gid;
	uint32_t ngroups;
	const uint32_t *groups;
	int32_t pid;
	bool (*member)(int32_t pid, uint32_t gid);
};

struct tmpfs_stat {
	uint64_t ino, nlink, size, blocks;  /* blocks: 512-byte units */
	uint32_t mode, uid, gid, rdev;
	uint64_t atime, mtime, ctime;
};

struct tmpfs_dirent {
	uint64_t ino;
	uint32_t type;                      /* TMPFS_DT_* */
	char name[TMPFS_NAME_MAX + 1];
};

/* NULL if out of memory. The root directory gets mode
 * S_IFDIR | (root_mode & 07777) and times 0. */
struct tmpfs *tmpfs_create(const struct tmpfs_ops *ops, uint32_t root_mode,
			   uint32_t root_uid, uint32_t root_gid);
/* Frees every inode, including unlinked ones still held open. */
void tmpfs_destroy(struct tmpfs *fs);
struct tmpfs_inode *tmpfs_root(struct tmpfs *fs);

/* Sets how the following calls walk ".." (TMPFS_WALK_*; 0: here). */
void tmpfs_set_walk(struct tmpfs *fs, unsigned flags);
/* After TMPFS_HANDBACK: the reason. */
const struct tmpfs_handback *tmpfs_handback(const struct tmpfs *fs);

/* Follows a final symlink (TMPFS_HANDBACK); tmpfs_lookup_nofollow gives
 * the link itself (lstat), unless a slash follows it. */
int tmpfs_lookup(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
		 struct tmpfs_inode **out);
int tmpfs_lookup_nofollow(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
			  struct tmpfs_inode **out);
/* Resolves all but the last component, which is copied to name (it may be
 * "." or "..", or "" for "/"). Needs search permission on *dir unless the
 * name is "". Returns 1 if the last component had a trailing slash, else
 * 0, or a negative errno. */
int tmpfs_lookup_parent(struct tmpfs *fs, const char *path,
			const struct tmpfs_cred *c, struct tmpfs_inode **dir,
			char name[TMPFS_NAME_MAX + 1]);

/* open(O_CREAT) for a regular file (type bits S_IFREG or 0) and mknod for
 * S_IFCHR or S_IFBLK (always exclusive, root only: EPERM; rdev is stored
 * for stat), S_IFIFO (mkfifo: exclusive, no privilege needed) or S_IFSOCK (a
 * Unix socket's file, which bind makes: exclusive, no privilege needed). mode has the
 * umask applied already. Returns 1 if it created the node, 0 if it found
 * an existing non-directory (regular type, !excl only; the caller then
 * checks open permission, which Linux skips for a file it just created),
 * or a negative errno. *out may be NULL. */
/* A final symlink: -EEXIST if exclusive, -ELOOP with TMPFS_NOFOLLOW,
 * else followed (TMPFS_HANDBACK: a dangling link creates its target). */
int tmpfs_create_node(struct tmpfs *fs, const char *path, uint32_t mode,
		      uint32_t rdev, const struct tmpfs_cred *c, uint64_t now,
		      unsigned flags, struct tmpfs_inode **out);
/* symlink(target, path): -ENOENT for an empty target, -ENAMETOOLONG for
 * one of TMPFS_PATH_MAX bytes or more, -EEXIST if path exists (a
 * dangling link too). */
int tmpfs_symlink(struct tmpfs *fs, const char *target, const char *path,
		  const struct tmpfs_cred *c, uint64_t now);
/* The link's text, cut to len bytes without a NUL: its length, or
 * -EINVAL for anything but a symlink. */
long tmpfs_readlink(const struct tmpfs_inode *ino, char *buf, size_t len);
/* link(from, to); follow: AT_SYMLINK_FOLLOW (from's final link is
 * followed, else linked itself). -EPERM for a directory, -EEXIST if to
 * exists; Linux's protected_hardlinks: a caller who neither owns from nor
 * may read and write it (or it is not a regular file, or it is setuid or
 * setgid-executable) gets -EPERM. Handbacks about to have which = 1. */
int tmpfs_link(struct tmpfs *fs, const char *from, const char *to, bool follow,
	       const struct tmpfs_cred *c, uint64_t now);
/* linkat(fd, "", dir, name, AT_EMPTY_PATH): a name to for inode ino (held
 * open by the caller), with link's checks of the new name and the
 * file; -ENOENT for a file whose last name went, unless it is an unnamed
 * linkable one (tmpfs_tmpfile without excl), which then has a name and
 * is linkable no more. Handbacks about to have which = 0. */
int tmpfs_link_inode(struct tmpfs *fs, struct tmpfs_inode *ino, const char *to,
		     const struct tmpfs_cred *c, uint64_t now);
/* open(path, O_TMPFILE): an unnamed regular file (nlink 0, mode S_IFREG |
 * perm, owned as a new file in the directory) in the directory path names
 * (a final symlink followed unless TMPFS_NOFOLLOW): -ENOTDIR if it is
 * none, -EACCES without write and search permission on it. TMPFS_EXCL
 * (O_EXCL): never linkable. The
 * caller takes its open reference (tmpfs_open_ref) before anything else:
 * its last tmpfs_close_ref frees it. */
int tmpfs_tmpfile(struct tmpfs *fs, const char *path, uint32_t perm, unsigned flags,
		  const struct tmpfs_cred *c, uint64_t now, struct tmpfs_inode **out);
/* utimensat: atime/mtime in ns, or TMPFS_UTIME_NOW / TMPFS_UTIME_OMIT.
 * Explicit times need the owner or root (-EPERM); "now" needs the owner,
 * root or write permission (-EACCES); both omitted changes nothing. */
int tmpfs_utimes(struct tmpfs_inode *ino, uint64_t atime, uint64_t mtime,
		 const struct tmpfs_cred *c, uint64_t now);
/* /proc/PID/fd's text for inode ino, inside its mount, NUL-ended in buf:
 * a directory's path (tmpfs_dir_path), a named file's first name found
 * from the root, an unnamed one's last path (an O_TMPFILE one's
 * "DIR/#INO", and always for tmpfile: a descriptor of the O_TMPFILE open
 * itself, whose dentry that stays on Linux even once the file is named)
 * and " (deleted)", as Linux's d_path. Its length, or
 * -ENOENT (no path known), -ENAMETOOLONG. */
long tmpfs_file_path(const struct tmpfs_inode *ino, bool tmpfile, char *buf, size_t cap);
/* The directory's path from the fs root ("/" or "/a/b") into buf of cap
 * bytes: its length, -ENOENT for a removed one, -ENOTDIR for a
 * non-directory, -ENAMETOOLONG if it does not fit. */
long tmpfs_dir_path(const struct tmpfs_inode *dir, char *buf, size_t cap);
int tmpfs_mkdir(struct tmpfs *fs, const char *path, uint32_t perm,
		const struct tmpfs_cred *c, uint64_t now);
int tmpfs_rmdir(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
		uint64_t now);
int tmpfs_unlink(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
		 uint64_t now);
int tmpfs_rename(struct tmpfs *fs, const char *from, const char *to,
		 const struct tmpfs_cred *c, uint64_t now);
/* A rename the kernel already made in its name cache (ncache_rename,
 * docs/vfs.md "Renames without a round trip"): regular file from, whose
 * store id is id, takes the absent name to in the same directory, no
 * longer than its name; the directory's mtime and ctime and the file's
 * ctime become now. Needs no memory and tells the store nothing (it made
 * the change). -ESTALE if the tree disagrees (nothing changed; the
 * kernel is then told the directory's names are out of date). */
int tmpfs_renamed(struct tmpfs *fs, const char *from, const char *to, uint64_t id,
		  uint64_t now);
/* An unlink (dir false: a regular file's name) or rmdir (dir true: an
 * empty directory) the kernel already made in its name cache
 * (ncache_unlink, docs/vfs.md "Unlink and rmdir without a round trip"):
 * path's entry, whose inode's store id is id, goes as tmpfs_unlink or
 * tmpfs_rmdir would remove it, with now as the directory's mtime and
 * ctime and the inode's ctime; an inode left with no name and no opener
 * is freed. Tells the store nothing of the attributes (the kernel set
 * them). -ESTALE if the tree disagrees (nothing changed; the kernel is
 * then told the directory's names are out of date). */
int tmpfs_removed(struct tmpfs *fs, const char *path, bool dir, uint64_t id, uint64_t now);

int tmpfs_chmod(struct tmpfs_inode *ino, uint32_t perm,
		const struct tmpfs_cred *c, uint64_t now);
/* uid/gid -1 leave that id unchanged. As on Linux since 2.2.13, changing
 * a non-directory clears S_ISUID (and S_ISGID when group-executable) even
 * for root. */
int tmpfs_chown(struct tmpfs_inode *ino, int64_t uid, int64_t gid,
		const struct tmpfs_cred *c, uint64_t now);
/* mask: TMPFS_R_OK | TMPFS_W_OK | TMPFS_X_OK, or 0 (always allowed). */
int tmpfs_access(const struct tmpfs_inode *ino, int mask,
		 const struct tmpfs_cred *c);
void tmpfs_stat(const struct tmpfs_inode *ino, struct tmpfs_stat *st);

/* Data I/O: no permission checks (the VFS checked them at open). -EISDIR
 * for a directory, -EINVAL for a device node. read sets atime, and write
 * and truncate set mtime and ctime. write past TMPFS_MAX_FILE is cut
 * short, starting at or past it is -EFBIG. */
long tmpfs_read(struct tmpfs_inode *ino, uint64_t off, void *buf, size_t len,
		uint64_t now);
long tmpfs_write(struct tmpfs_inode *ino, uint64_t off, const void *buf,
		 size_t len, uint64_t now);
int tmpfs_truncate(struct tmpfs_inode *ino, uint64_t size, uint64_t now);

/* Directory listing by position cookie (a slight change from an index, so
 * that removing an entry mid-listing never skips another): start with
 * *pos = 0; each call fills *out with the first entry at or after *pos,
 * advances *pos past it and returns 1, or returns 0 at the end. "." and
 * ".." come first, then entries in creation order (a renamed entry moves
 * to the end). Entries present for the whole listing are returned exactly
 * once; ones added or removed meanwhile may or may not be. *pos values
 * stay meaningful, so they can serve as telldir/seekdir offsets.
 * -ENOTDIR for a non-directory, -ENOENT for a removed directory. */
int tmpfs_readdir(struct tmpfs_inode *dir, uint64_t *pos,
		  struct tmpfs_dirent *out);

/* The trail: the names the lookups between tmpfs_trail_start and
 * tmpfs_trail_take met, as (directory's object, name) -> the child's
 * object, or 0 for a name that does not exist. Only names whose
 * directory and child have objects (directories and regular files) are
 * recorded, at most TMPFS_TRAIL_MAX; name points into the path looked up.
 * The server installs them in the kernel's name cache (docs/vfs.md). */
#define TMPFS_TRAIL_MAX 64
struct tmpfs_trail_step {
	uint64_t dir, child;
	const char *name;
	uint32_t len;
};
void tmpfs_trail_start(struct tmpfs *fs);
/* Stops recording: the steps since tmpfs_trail_start, and their count. */
uint32_t tmpfs_trail_take(struct tmpfs *fs, const struct tmpfs_trail_step **out);
/* The object id of a regular file (its data store) or a directory
 * (create_meta), else 0. */
uint64_t tmpfs_obj_id(const struct tmpfs_inode *ino);
/* The regular file whose object is id (a descriptor the kernel opened
 * names it so), or NULL. Linear in the inodes. */
struct tmpfs_inode *tmpfs_inode_by_obj(struct tmpfs *fs, uint64_t id);
/* The last descriptor the kernel opened on object id closed: a file kept
 * for them (destroy said -EBUSY) with no name and no opener goes now. */
void tmpfs_kclosed(struct tmpfs *fs, uint64_t id);

/* An open file description holds its inode; the last close of an
 * unlinked inode frees it. */
void tmpfs_open_ref(struct tmpfs_inode *ino);
/* The data store id of a regular file (tmpfs_ops.data), else 0. */
uint64_t tmpfs_data_id(const struct tmpfs_inode *ino);
/* The attribute-only object of a socket file (create_meta), else 0: an
 * O_PATH descriptor of the file carries it, for the kernel's socket calls
 * (docs/sockets.md). */
uint64_t tmpfs_sock_obj(const struct tmpfs_inode *ino);
void tmpfs_close_ref(struct tmpfs_inode *ino);

uint64_t tmpfs_ino(const struct tmpfs_inode *ino);
uint32_t tmpfs_mode(const struct tmpfs_inode *ino);
/* A FIFO's handle kept by the server (the kernel's FIFO node), or -1 if
 * it has none yet; tmpfs_fifo_set gives it one, which the inode's end
 * hands to ops.fifo_drop. */
int64_t tmpfs_fifo_get(const struct tmpfs_inode *ino);
void tmpfs_fifo_set(struct tmpfs_inode *ino, int64_t handle);
/* Bytes currently allocated for inodes, entries, indexes and file data
 * (everything but the struct tmpfs itself), and live inodes. */
uint64_t tmpfs_bytes_used(const struct tmpfs *fs);
uint64_t tmpfs_inodes_used(const struct tmpfs *fs);

#endif /* ARBOR_VFS_TMPFS_H */
