/* ext2: the core's private state and the contracts between its files.
 * Not for the server: it uses ext2.h only. */
#ifndef ARBOR_EXT2_PRIV_H
#define ARBOR_EXT2_PRIV_H

#include "ext2.h"
#include "ext2_disk.h"
#include "abi/errno.h"

/* One cached file-system block. */
struct ext2_buf {
	uint32_t blk;
	uint32_t refs;                  /* holders; a held buffer is never evicted */
	bool dirty;
	bool dir_ok;                    /* holds directory records already checked */
	struct ext2_buf *hnext;         /* hash chain */
	struct ext2_buf *prev, *next;   /* LRU list, most recent first */
	struct ext2_buf *dprev, *dnext; /* the dirty list, while dirty */
	uint8_t *data;
};

/* Blocks moved per device call at most by a file read's direct runs and a
 * write-back's runs of neighbouring dirty blocks (512 KiB at 4 KiB). */
#define EXT2_RUN_MAX 128u

struct ext2_bcache {
	struct ext2_buf **hash;
	uint32_t hmask;
	uint32_t count, cap;
	uint32_t ndirty;                /* buffers on the dirty list */
	struct ext2_buf *dirty;         /* the dirty ones: a flush walks these, not the cache */
	struct ext2_buf *head, *tail;
	uint8_t *stage;                 /* EXT2_RUN_MAX blocks: a write-back run, made on first use */
	uint8_t *ra;                    /* EXT2_RA_MAX blocks: a readahead, made on first use */
};

/* Blocks of an inode table read at once at most (ext2_bread_ahead), as
 * Linux's ext4 reads ahead 32 (inode_readahead_blks): a walk of a tree
 * reads its inodes in table order, and each device call costs a round
 * trip to the disk's driver whatever its size. */
#define EXT2_RA_MAX 32u

struct ext2_fs {
	const struct ext2_dev *dev;
	struct ext2_super sb;           /* the primary superblock, in memory */
	struct ext2_group_desc *gd;     /* every group descriptor */
	uint32_t ngroups, gdt_blocks;
	uint32_t bs, log_bs, apb;       /* block size, its log2, addresses per block */
	uint32_t sectors_per_block;
	uint32_t inode_size, ipg, bpg, itb_per_group;
	uint32_t first_ino;
	bool rdonly;
	bool reserved_ok;               /* allocations may take root's reserved blocks */
	uint64_t promised;              /* blocks promised elsewhere (ext2_set_promised) */
	bool promised_ok;               /* allocations may take them (ext2_use_promised) */
	bool sb_dirty;
	bool *gd_dirty;                 /* per descriptor block */
	int io_error;                   /* first write-back error since the last sync */
	struct ext2_bcache cache;
	struct ext2_dindex *dindex;     /* name indexes of large directories (dindex.c) */
	uint32_t ndindex;
	uint64_t dindex_tick;
};

/* -- super.c -- */
/* Logs "ext2: inode INO: <message>" (ino 0: no inode), marks the file
 * system as having errors, returns -EIO. */
int ext2_corrupt(struct ext2_fs *fs, uint32_t ino, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* True if blk may hold data or metadata: inside [first data block, end). */
bool ext2_block_valid(const struct ext2_fs *fs, uint32_t blk);
void ext2_gd_dirty(struct ext2_fs *fs, uint32_t group);
/* Sets a read-only-compatible feature bit (large_file) in the superblock. */
void ext2_set_ro_compat(struct ext2_fs *fs, uint32_t bit);

/* -- bcache.c: write-back cache of whole blocks -- */
int ext2_bcache_init(struct ext2_fs *fs, uint32_t cap);
/* Frees every buffer without writing (after ext2_bcache_flush). */
void ext2_bcache_destroy(struct ext2_fs *fs);
/* Holds block blk, reading it from the disk unless cached. -EIO (logged)
 * for a block outside the file system or a read error. */
int ext2_bread(struct ext2_fs *fs, uint32_t blk, struct ext2_buf **out);
/* Reads the blocks blk.. (at most count, EXT2_RA_MAX) that are not
 * cached, up to the first cached one, in one device call into the cache
 * (blk itself the most recently used): for ext2_bread of each next. An
 * error reads nothing (the caller's ext2_bread reports it). */
void ext2_bread_ahead(struct ext2_fs *fs, uint32_t blk, uint32_t count);
/* Holds block blk zero-filled and dirty, without reading it (a block just
 * allocated). */
int ext2_bzero(struct ext2_fs *fs, uint32_t blk, struct ext2_buf **out);
/* Marks a buffer changed. Its directory records count as unchecked again
 * (a cross-linked block in a corrupt image may be both file data and a
 * directory); directory code that keeps them valid sets dir_ok back. */
static inline void ext2_bdirty(struct ext2_fs *fs, struct ext2_buf *b)
{
	if (!b->dirty) {
		b->dprev = NULL;
		b->dnext = fs->cache.dirty;
		if (b->dnext)
			b->dnext->dprev = b;
		fs->cache.dirty = b;
		fs->cache.ndirty++;
	}
	b->dirty = true;
	b->dir_ok = false;
}
void ext2_brelse(struct ext2_fs *fs, struct ext2_buf *b);
/* Writes every dirty buffer back (in block order); returns the first error. */
int ext2_bcache_flush(struct ext2_fs *fs);
/* Writes to send in one dev->writev call (ext2_sync_flush): the
 * segments, and what each one cleans when it is written. */
struct ext2_wvec {
	uint32_t n, staged;             /* segments; stage bytes used */
	uint64_t bytes;
	struct ext2_seg seg[EXT2_VEC_SEGS];
	struct { uint8_t kind; uint32_t blk, count; } what[EXT2_VEC_SEGS];
};
#define EXT2_WV_BLOCKS 0                /* cached blocks blk..blk+count-1 */
#define EXT2_WV_GD 1                    /* descriptor block blk (fs->gd_dirty) */
#define EXT2_WV_SUPER 2                 /* the superblock */
/* Sends v (if not empty) with flush; on success what it held is clean.
 * 0 or the device's error (kept in fs->io_error too). */
int ext2_wvec_send(struct ext2_fs *fs, struct ext2_wvec *v, bool flush);
/* Adds a write of nsec sectors at sector from buf (which must not change
 * until the send), sending v first if it is full. 0 or an error of that
 * send. */
int ext2_wvec_add(struct ext2_fs *fs, struct ext2_wvec *v, uint8_t kind, uint32_t blk, uint32_t count,
		  uint64_t sector, uint32_t nsec, const void *buf);
/* ext2_bcache_flush through v: every dirty run added (runs longer than
 * EXT2_VEC_BYTES written alone). The first error. */
int ext2_bcache_flush_vec(struct ext2_fs *fs, struct ext2_wvec *v);
/* Writes back the dirty buffers of blocks blks[0..n) (ascending) and no
 * others; the first error (those stay dirty). */
int ext2_bwrite_blocks(struct ext2_fs *fs, const uint32_t *blks, uint32_t n);
/* Whether the cached buffers of blocks blks[0..n) are dirty and all that
 * is dirty: no other buffer, descriptor or superblock waits to be
 * written. */
bool ext2_bonly_dirty(struct ext2_fs *fs, const uint32_t *blks, uint32_t n);
/* Drops a freed block's buffer, if cached and not held, without writing. */
void ext2_bforget(struct ext2_fs *fs, uint32_t blk);
/* Whether block blk's buffer is cached and dirty or held (its bytes may
 * be newer than any other copy, or in use). */
bool ext2_bbusy(struct ext2_fs *fs, uint32_t blk);
/* The data of block blk if the cache holds it (maybe dirty: newer than
 * the disk), else NULL; valid until the next cache call. */
const uint8_t *ext2_bcached(struct ext2_fs *fs, uint32_t blk);
/* Raw device access in file-system blocks, bypassing the cache. */
int ext2_dev_rw(struct ext2_fs *fs, bool write, uint64_t blk, uint32_t count, void *buf);

/* -- balloc.c: bitmaps and free counts -- */
/* Allocates a free block, the first at or after goal in goal's group, then
 * the following groups. -ENOSPC when none is free. */
int ext2_new_block(struct ext2_fs *fs, uint32_t goal, uint32_t *blk);
int ext2_free_block(struct ext2_fs *fs, uint32_t ino, uint32_t blk);
/* Allocates an inode: a directory in the group with the most free inodes
 * and blocks among the least-used, anything else in the parent's group or
 * the next with a free inode. */
int ext2_new_inode(struct ext2_fs *fs, uint32_t parent, bool is_dir, uint32_t *ino);
int ext2_free_inode(struct ext2_fs *fs, uint32_t ino, bool is_dir);
static inline uint32_t ext2_group_of_ino(const struct ext2_fs *fs, uint32_t ino)
{
	return (ino - 1) / fs->ipg;
}
static inline uint32_t ext2_group_first_block(const struct ext2_fs *fs, uint32_t g)
{
	return fs->sb.s_first_data_block + g * fs->bpg;
}

/* -- inode.c -- */
/* Reads inode ino (1..s_inodes_count, else -EIO logged) into *in: the
 * base 128 bytes and, for larger inodes, the extra fields (zero when the
 * inode has none). */
int ext2_iget(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in);
/* Zeroes a newly allocated inode's whole on-disk record, so nothing of a
 * former inode (in-inode extended attributes past the known fields)
 * survives into the new one. */
int ext2_iclear(struct ext2_fs *fs, uint32_t ino);
/* Writes *in back, leaving bytes past the fields this core knows alone. */
int ext2_iput(struct ext2_fs *fs, uint32_t ino, const struct ext2_inode *in);
uint64_t ext2_isize(const struct ext2_inode *in);
/* Sets the size; a regular file past 2 GiB sets large_file. */
void ext2_set_isize(struct ext2_fs *fs, struct ext2_inode *in, uint64_t size);
#define EXT2_T_A 1
#define EXT2_T_M 2
#define EXT2_T_C 4
void ext2_stamp(struct ext2_inode *in, unsigned which, struct ext2_time now);
uint32_t ext2_iuid(const struct ext2_inode *in);
uint32_t ext2_igid(const struct ext2_inode *in);
/* Sets up a fresh inode (the extra-field size, crtime, generation). */
void ext2_inode_init(struct ext2_fs *fs, struct ext2_inode *in, uint32_t mode,
		     uint32_t uid, uint32_t gid, struct ext2_time now);
/* True for a symlink whose target lives in i_block. */
bool ext2_fast_symlink(const struct ext2_fs *fs, const struct ext2_inode *in);

/* -- bmap.c: the block map -- */
/* The physical block of logical block lblk: 0 for a hole (create false).
 * With create, allocates the missing data and indirect blocks (zeroed),
 * charging i_blocks; *fresh tells a new data block. The caller writes
 * *in back. -EFBIG past the map, -ENOSPC, -EIO for a bad pointer. */
int ext2_bmap(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t lblk,
	      bool create, uint32_t *pblk, bool *fresh);
/* Frees every data block from lblk on, and the indirect blocks left
 * empty; the caller writes *in back. */
int ext2_free_blocks_from(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in,
			  uint64_t lblk);
/* Number of logical blocks the map can address. */
uint64_t ext2_map_blocks(const struct ext2_fs *fs);

/* -- dir.c -- */
struct ext2_dirpos {
	uint32_t lblk;          /* directory block of the entry */
	uint32_t off;           /* its offset in the block */
	uint32_t prev_off;      /* the previous record in the block, or off */
	uint32_t ino;
	uint8_t ftype;
	bool valid;             /* for a room hint: a place was found */
};
unsigned ext2_mode_to_ft(uint32_t mode);
/* Checks a name component: -ENOENT (empty), -ENAMETOOLONG, -EINVAL ('/'
 * or NUL inside). */
int ext2_check_name(const char *name, size_t len);
/* Finds name in directory dino: 0 and *pos, or -ENOENT, -EIO. If room
 * is not NULL, the same pass notes in it the first record with space for
 * a new entry of this name (room->valid false if none), for ext2_dir_add. */
int ext2_dir_find(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		  const char *name, size_t len, struct ext2_dirpos *pos,
		  struct ext2_dirpos *room);
/* Adds name -> ino: at room (from ext2_dir_find, if still valid) or the
 * first record with enough slack, else in a new block at the end (the
 * directory grows; *dir is updated and written). */
int ext2_dir_add(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
		 const char *name, size_t len, uint32_t ino, unsigned ftype,
		 const struct ext2_dirpos *room);
/* Removes the entry at pos: merged into the previous record, or marked
 * unused at a block's start. */
int ext2_dir_remove(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		    const struct ext2_dirpos *pos);
/* Points the entry at pos to ino. */
int ext2_dir_retarget(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		      const struct ext2_dirpos *pos, uint32_t ino, unsigned ftype);
/* 1 if the directory holds only "." and "..", 0 if not, or -EIO. */
int ext2_dir_empty(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir);
/* Writes the first block of a new directory ("." and ".."). */
int ext2_dir_init(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
		  uint32_t parent);
/* Holds directory block lblk of directory dino (inode *dir), its records
 * checked. */
int ext2_dir_block(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		   uint32_t lblk, struct ext2_buf **b);

/* -- dindex.c: in-memory name indexes of large directories -- */
#define EXT2_DI_MIN_BLOCKS 4u   /* smaller directories are scanned */
#define EXT2_DI_MAX 64u         /* directories indexed at once */
struct ext2_dindex;
/* The index of directory dino (*dir, nblocks blocks), built now if
 * missing (one scan); NULL for a small directory or if it cannot be built
 * (no memory, a bad block): the caller then scans. */
struct ext2_dindex *ext2_dindex_get(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
				    uint32_t nblocks);
/* The blocks that may hold name (its hash's entries), at most max; max
 * returned means there may be more. */
uint32_t ext2_dindex_candidates(struct ext2_dindex *d, const char *name, size_t len,
				uint32_t *out, uint32_t max);
/* The first block with a record of at least need bytes of slack, or -1. */
int64_t ext2_dindex_room(struct ext2_dindex *d, uint32_t need);
/* dir.c changed block lblk (data: its new bytes) of directory dino: name
 * was added there (lblk may be the new last block), or removed. */
void ext2_dindex_added(struct ext2_fs *fs, uint32_t dino, uint32_t lblk, const uint8_t *data,
		       const char *name, size_t len);
void ext2_dindex_removed(struct ext2_fs *fs, uint32_t dino, uint32_t lblk, const uint8_t *data,
			 const char *name, size_t len);
/* Forgets directory dino's index (its inode is freed, or it is out of step). */
void ext2_dindex_drop(struct ext2_fs *fs, uint32_t dino);
/* Forgets every index (unmount). */
void ext2_dindex_destroy(struct ext2_fs *fs);

/* Clears EXT2_INDEX_FL before a change, since the core keeps no hash
 * tree up to date (a linear directory is valid ext2). */
void ext2_dir_unindex(struct ext2_inode *dir);

#endif
