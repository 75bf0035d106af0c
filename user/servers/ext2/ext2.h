/* ext2: the file-system core of the ext2 server. Pure logic with no Arbor
 * system calls: the disk is reached through struct ext2_dev (512-byte
 * sectors), memory through malloc/free, the time through the `now`
 * argument of each call that stamps an inode, and messages through the
 * device's log callback. It builds both for the server and for the host
 * test (tests/host/test_ext2.c), which checks it against e2fsprogs.
 *
 * Contract, shared by every call:
 *   - Errors are negative Linux errnos (abi/errno.h). A corrupted image
 *     (bad superblock, a block number outside the file system, a bad
 *     directory record, an inode number out of range, a loop in the tree)
 *     gives -EIO, and a message naming the inode goes to dev->log; the
 *     image is never trusted, so no input makes the core crash.
 *   - The core checks no permissions and resolves no paths: the server
 *     does (it knows the caller's credentials). It does check what the
 *     file system itself forbids (names, types, emptiness, link counts).
 *   - Inodes are named by number; directory calls take the parent's
 *     number and one name component (1..255 bytes, no '/', no NUL).
 *   - Calls that take a link away (unlink, rmdir, rename over a file)
 *     never free the inode; they report through *gone an inode whose link
 *     count reached 0 (0 if none), and the caller calls ext2_release on it
 *     once no open file uses it. Until then it is an orphan e2fsck would
 *     collect after a crash, as in Linux.
 *   - Writes go to a write-back block cache; ext2_sync writes everything
 *     back, ext2_unmount syncs and marks the file system clean.
 *   - Not thread-safe: the server serialises calls on one file system. */
#ifndef ARBOR_EXT2_H
#define ARBOR_EXT2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXT2_SECTOR_SIZE 512u

/* The disk. read/write move `count` 512-byte sectors at `sector` and
 * return 0 or a negative errno; log receives one message (no newline). */
/* One write of a vector (ext2_dev.writev). */
struct ext2_seg {
	uint64_t sector;
	uint32_t count;         /* sectors */
	const void *buf;
};
#define EXT2_VEC_SEGS 16                /* segments per writev at most */
#define EXT2_VEC_BYTES (128u << 10)     /* bytes per writev at most */

struct ext2_dev {
	void *ctx;
	uint64_t nsectors;
	int (*read)(void *ctx, uint64_t sector, uint32_t count, void *buf);
	int (*write)(void *ctx, uint64_t sector, uint32_t count, const void *buf);
	void (*log)(void *ctx, const char *msg);
	/* Optional (NULL: ext2_sync_flush writes a run per call and has no
	 * flush): n writes in one device call, all or an error, then (flush)
	 * the device's write cache to the medium; and a flush alone. */
	int (*writev)(void *ctx, const struct ext2_seg *segs, uint32_t n, bool flush);
	int (*flush)(void *ctx);
	/* Optional (NULL: ext2_read_grant is -EOPNOTSUPP): count sectors at
	 * sector into the memory the caller lent for a fill, from byte goff
	 * of it (the server: the page cache's frames, docs/fs.md "Zero-copy
	 * fills"); 0 or -errno. */
	int (*read_grant)(void *ctx, uint64_t sector, uint32_t count, uint64_t goff);
	/* Optional (NULL: ext2_write_grant is -EOPNOTSUPP): the other way,
	 * count sectors at sector from the memory the caller lent for a
	 * writeback, from byte goff of it (docs/fs.md "Zero-copy
	 * writeback"); 0 or -errno. */
	int (*write_grant)(void *ctx, uint64_t sector, uint32_t count, uint64_t goff);
};

#define EXT2_MOUNT_RDONLY 0x1

struct ext2_time {
	int64_t sec;
	uint32_t nsec;
};

/* Mode bits as Linux stores them in i_mode. */
#define EXT2_S_IFMT   0170000
#define EXT2_S_IFSOCK 0140000
#define EXT2_S_IFLNK  0120000
#define EXT2_S_IFREG  0100000
#define EXT2_S_IFBLK  0060000
#define EXT2_S_IFDIR  0040000
#define EXT2_S_IFCHR  0020000
#define EXT2_S_IFIFO  0010000

struct ext2_stat {
	uint32_t ino;
	uint32_t mode;
	uint32_t nlink;
	uint32_t uid, gid;
	uint64_t size;
	uint64_t blocks;        /* 512-byte units, as st_blocks */
	uint32_t rdev;          /* device number of a character/block node */
	uint32_t flags;         /* i_flags */
	struct ext2_time atime, mtime, ctime;
};

struct ext2_statfs {
	uint32_t bsize;
	uint64_t blocks, bfree, bavail;
	uint64_t files, ffree;
	uint32_t namemax;
};

struct ext2_fs;

/* Mounts the file system on dev (kept by pointer, must outlive the fs).
 * -EINVAL: not ext2 (bad magic), an unsupported revision or block size,
 * inconsistent geometry, an unknown incompatible feature, or a device
 * smaller than the file system. An unknown read-only-compatible feature,
 * or EXT2_MOUNT_RDONLY, mounts read-only (every change is -EROFS).
 * cache_blocks bounds the block cache (0: a default). */
int ext2_mount(const struct ext2_dev *dev, unsigned flags, uint32_t cache_blocks,
	       struct ext2_fs **out);
/* Syncs (unless read-only), marks the file system clean, frees fs.
 * Returns the first write error; fs is freed in any case. */
int ext2_unmount(struct ext2_fs *fs);
/* Writes every dirty block, inode and the superblock back. */
int ext2_sync(struct ext2_fs *fs);
/* ext2_sync, then the device's flush (fsync): with dev->writev the dirty
 * runs, descriptors and superblock go as few vectors (up to
 * EXT2_VEC_SEGS runs, EXT2_VEC_BYTES each), the last one carrying the
 * flush, so a 4 KiB write's fsync is one device call; without, ext2_sync
 * and dev->flush (if any). The first error. */
int ext2_sync_flush(struct ext2_fs *fs);
bool ext2_is_rdonly(const struct ext2_fs *fs);
/* Who the following calls are for: allocations may take the blocks
 * reserved for root (s_r_blocks_count) only for uid 0, the superblock's
 * s_def_resuid or a member of s_def_resgid (Linux's
 * ext2_has_free_blocks; the core has no other idea of the caller).
 * Others get -ENOSPC once only reserved blocks are free. A mount starts
 * as root's. */
void ext2_set_caller(struct ext2_fs *fs, uint32_t uid, uint32_t gid);
uint32_t ext2_block_size(const struct ext2_fs *fs);
/* blocks free blocks are promised elsewhere (the page cache's writers'
 * reservations, docs/fs.md "Reservations"): allocations leave them free
 * (-ENOSPC) unless ext2_use_promised(fs, true) says the following calls
 * are the write-back the promise was for. */
void ext2_set_promised(struct ext2_fs *fs, uint64_t blocks);
void ext2_use_promised(struct ext2_fs *fs, bool use);
void ext2_statfs(struct ext2_fs *fs, struct ext2_statfs *st);
/* The largest file size this file system's block map can describe. */
uint64_t ext2_max_file_size(const struct ext2_fs *fs);
/* How many blocks a write of [off, off + len) to regular file ino would
 * allocate now: its unmapped data blocks and the indirect blocks missing
 * on their paths (each counted once). 0, or -EIO for a corrupt map. The
 * page cache's reservations (docs/fs.md, "Reservations") ask it for a
 * page when no budget is left. */
int ext2_alloc_cost(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len, uint64_t *blocks);

/* -- inodes (inode.c) -- */
int ext2_stat(struct ext2_fs *fs, uint32_t ino, struct ext2_stat *st);

#define EXT2_SET_MODE  0x01     /* permission bits only; the type stays */
#define EXT2_SET_UID   0x02
#define EXT2_SET_GID   0x04
#define EXT2_SET_ATIME 0x08
#define EXT2_SET_MTIME 0x10
struct ext2_setattr {
	unsigned mask;
	uint32_t mode, uid, gid;
	struct ext2_time atime, mtime;
};
/* Changes the fields in sa->mask and sets ctime to now. */
int ext2_setattr(struct ext2_fs *fs, uint32_t ino, const struct ext2_setattr *sa,
		 struct ext2_time now);
/* Frees an inode whose link count is 0 (its blocks, its extended-attribute
 * block reference, then the inode); does nothing to a linked inode. */
int ext2_release(struct ext2_fs *fs, uint32_t ino);

/* -- file data (file.c) -- */
/* Reads up to len bytes at off from a regular file; holes read as zeros.
 * Returns the byte count (0 at or past EOF) or -errno (-EISDIR for a
 * directory, -EINVAL for any other type: symlinks go through readlink). */
int64_t ext2_read(struct ext2_fs *fs, uint32_t ino, uint64_t off, void *buf, size_t len);
/* ext2_read for bulk data (the page cache's fills): off must be a multiple
 * of the block size (-EINVAL) and buf hold len bytes rounded up to whole
 * blocks. Data blocks the block cache does not hold go from the disk
 * straight into buf, a run of contiguous blocks per device call, without
 * passing through (or evicting) the block cache; blocks it holds (maybe
 * newer than the disk) are copied from it. Bytes past the size up to the
 * end of the last block are zeroed. The byte count as ext2_read. */
int64_t ext2_read_direct(struct ext2_fs *fs, uint32_t ino, uint64_t off, void *buf, size_t len);
/* ext2_read_direct into lent memory (the device's read_grant), byte 0 of
 * it being the file's byte off: only when all of [off, off + len) is
 * inside the size and on the disk, none of it a hole or a block the block
 * cache holds (those need bytes the device cannot give): then len, every
 * byte read by the device, a run of contiguous blocks per call. -EAGAIN
 * when not so (nothing read: use ext2_read_direct), -EINVAL (off or len
 * not whole blocks), -EOPNOTSUPP (no read_grant), the device's error
 * (some of it may have been read), or ext2_read's errors. */
int64_t ext2_read_grant(struct ext2_fs *fs, uint32_t ino, uint64_t off, size_t len);
/* Writes the file's data blocks in bytes [off, off+len) that are dirty in
 * the block cache to the disk now, and nothing else (no metadata, no
 * other file's): a writeback charged to the data's owner (docs/
 * writeback.md) sends exactly its blocks. 0, -EINVAL (over 65536 blocks),
 * -ENOMEM, -EIO. */
int ext2_write_data_back(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len);
/* ext2_write_data_back for an fsync's last writes: when those blocks are
 * all the block cache holds dirty (no metadata, no descriptor, no
 * superblock: what a rewrite of a file's own blocks leaves) and the
 * device has writev, ext2_sync_flush sends them with the device's flush
 * (one device call for a small write) and the result is 1, or its error:
 * the file system is on the medium. Otherwise they are written as
 * ext2_write_data_back writes them and the result is 0, or its error. */
int ext2_write_data_sync(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len);
/* ext2_write's zero-copy counterpart for a page cache writeback: the
 * file's bytes [off, off + len) (whole blocks; the caller has them all,
 * inside its size) written by the device from the memory the caller lent
 * (dev->write_grant, byte 0 of it the file's byte off), a device call per
 * run of contiguous blocks; holes allocated first, as ext2_write
 * allocates them; the size extended to off + len, mtime/ctime stamped.
 * The block cache keeps no copy of those blocks (a clean one, stale
 * after it, is dropped). len, or -EAGAIN with nothing written or
 * allocated (a block of the range the cache holds dirty or in use: use
 * ext2_write), -EINVAL (not whole blocks), -EOPNOTSUPP (no write_grant),
 * -EROFS, ext2_write's -ENOSPC, -EFBIG and -EIO (the blocks allocated
 * before are the file's; ext2_write then meets the same), or the
 * device's error (some of it may be written). */
int64_t ext2_write_grant(struct ext2_fs *fs, uint32_t ino, uint64_t off, size_t len, struct ext2_time now);
/* Writes len bytes at off, allocating blocks near the inode, extending the
 * size, stamping mtime/ctime. Returns the byte count written; on a full
 * disk the count of bytes written before it (the file is intact up to the
 * last block written) or -ENOSPC if none. -EFBIG past the maximum size. */
int64_t ext2_write(struct ext2_fs *fs, uint32_t ino, uint64_t off, const void *buf,
		   size_t len, struct ext2_time now);
/* Sets a regular file's size: growing leaves a hole, shrinking frees the
 * blocks past the end (indirect blocks included) and zeroes the tail of the
 * last block. Stamps mtime/ctime. */
int ext2_truncate(struct ext2_fs *fs, uint32_t ino, uint64_t size, struct ext2_time now);

/* -- directories (dir.c) -- */
/* Finds name in directory dir: 0 and *ino, -ENOENT, -ENOTDIR. */
int ext2_lookup(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
		uint32_t *ino);
/* One entry: return nonzero to stop the listing before this entry (it is
 * then returned again next time). dtype is a DT_* value (0 unknown). */
typedef int (*ext2_filldir_fn)(void *ctx, const char *name, size_t len, uint32_t ino,
			       unsigned dtype, uint64_t next_cookie);
/* Lists dir from *cookie (0: the start; a cookie is a byte offset, so it
 * stays valid across changes to the directory) and leaves *cookie after
 * the last entry given. Returns 0, or -errno. */
int ext2_readdir(struct ext2_fs *fs, uint32_t dir, uint64_t *cookie,
		 ext2_filldir_fn fill, void *ctx);

/* -- names (namei.c); each stamps the directories' mtime/ctime -- */
/* Creates a regular file, FIFO, socket or device node (mode's type, rdev
 * for devices). -EEXIST if the name exists. */
int ext2_mknod(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
	       uint32_t mode, uint32_t rdev, uint32_t uid, uint32_t gid,
	       struct ext2_time now, uint32_t *ino);
int ext2_mkdir(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
	       uint32_t mode, uint32_t uid, uint32_t gid, struct ext2_time now,
	       uint32_t *ino);
/* A symbolic link to target (1..blocksize-1 bytes, else -ENAMETOOLONG):
 * shorter than 60 bytes it lives in the inode, else in a data block. */
int ext2_symlink(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
		 const char *target, size_t tlen, uint32_t uid, uint32_t gid,
		 struct ext2_time now, uint32_t *ino);
/* Copies a symlink's target (not NUL-terminated); returns its length,
 * truncated to size, or -EINVAL for a non-symlink. */
int ext2_readlink(struct ext2_fs *fs, uint32_t ino, char *buf, size_t size);
/* open(O_TMPFILE): a new regular inode of mode (S_IFREG | perm) in use
 * with no link (no dtime), allocated near directory dir, for the caller
 * to keep open and ext2_release at its last close, as an unlinked open
 * file (a crash leaves it for e2fsck, as Linux's ext2, which has no
 * orphan list). -EROFS, -ENOTDIR, -ENOSPC. */
int ext2_tmpfile(struct ext2_fs *fs, uint32_t dir, uint32_t mode, uint32_t uid, uint32_t gid,
		 struct ext2_time now, uint32_t *ino);
/* ext2_link of an O_TMPFILE inode: its first link (links 0 allowed). */
int ext2_link_unnamed(struct ext2_fs *fs, uint32_t ino, uint32_t dir, const char *name,
		      size_t len, struct ext2_time now);
/* A new name for ino (not a directory: -EPERM); -EMLINK at 32000 links. */
int ext2_link(struct ext2_fs *fs, uint32_t ino, uint32_t dir, const char *name,
	      size_t len, struct ext2_time now);
/* Removes a non-directory's name (-EISDIR for a directory). */
int ext2_unlink(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
		struct ext2_time now, uint32_t *gone);
/* Removes an empty directory (-ENOTEMPTY, -ENOTDIR; "." is -EINVAL,
 * ".." -ENOTEMPTY as Linux). */
int ext2_rmdir(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
	       struct ext2_time now, uint32_t *gone);
/* rename(2) of one entry: replaces an existing target (a directory only by
 * an empty directory: -ENOTEMPTY, -ENOTDIR, -EISDIR), moves directories
 * across parents fixing their ".." and the link counts, and refuses to move
 * a directory under itself (-EINVAL). */
int ext2_rename(struct ext2_fs *fs, uint32_t odir, const char *oname, size_t olen,
		uint32_t ndir, const char *nname, size_t nlen, struct ext2_time now,
		uint32_t *gone);

#endif
