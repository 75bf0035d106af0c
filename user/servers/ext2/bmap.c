/* ext2: the block map of an inode. i_block[0..11] point at data blocks,
 * i_block[12] at an indirect block (apb = blocksize/4 pointers to data),
 * i_block[13] at a doubly and i_block[14] at a triply indirect block. A
 * zero pointer is a hole. i_blocks counts every block in 512-byte units,
 * the indirect ones included. Every pointer read from the disk is checked
 * against the file system's size before use. */
#include <string.h>
#include "ext2_priv.h"

struct map_path {
	int depth;                      /* indirect levels: 0..3 */
	uint32_t root;                  /* index in i_block */
	uint32_t idx[3];                /* index in each indirect block */
};

static int map_path(const struct ext2_fs *fs, uint64_t lblk, struct map_path *p)
{
	uint64_t a = fs->apb;

	memset(p, 0, sizeof(*p));
	if (lblk < EXT2_NDIR_BLOCKS) {
		p->root = (uint32_t)lblk;
		return 0;
	}
	lblk -= EXT2_NDIR_BLOCKS;
	if (lblk < a) {
		p->depth = 1;
		p->root = EXT2_IND_BLOCK;
		p->idx[0] = (uint32_t)lblk;
		return 0;
	}
	lblk -= a;
	if (lblk < a * a) {
		p->depth = 2;
		p->root = EXT2_DIND_BLOCK;
		p->idx[0] = (uint32_t)(lblk / a);
		p->idx[1] = (uint32_t)(lblk % a);
		return 0;
	}
	lblk -= a * a;
	if (lblk < a * a * a) {
		p->depth = 3;
		p->root = EXT2_TIND_BLOCK;
		p->idx[0] = (uint32_t)(lblk / (a * a));
		p->idx[1] = (uint32_t)(lblk / a % a);
		p->idx[2] = (uint32_t)(lblk % a);
		return 0;
	}
	return -EFBIG;
}

static void add_blocks(const struct ext2_fs *fs, struct ext2_inode *in)
{
	in->i_blocks += fs->bs / 512;
}

static void sub_blocks(const struct ext2_fs *fs, struct ext2_inode *in)
{
	uint32_t n = fs->bs / 512;

	in->i_blocks = in->i_blocks >= n ? in->i_blocks - n : 0;
}

/* Where to look for a new block: after the nearest earlier pointer in the
 * same array, else after the block holding the array, else in the inode's
 * group. */
static uint32_t goal_for(const struct ext2_fs *fs, uint32_t ino, const uint32_t *arr,
			 uint32_t idx, uint32_t parent)
{
	uint32_t i, n = 0;

	for (i = idx; i > 0 && n < 32; i--, n++)
		if (arr[i - 1] && ext2_block_valid(fs, arr[i - 1]))
			return arr[i - 1] + 1;
	if (parent)
		return parent + 1;
	return ext2_group_first_block(fs, ext2_group_of_ino(fs, ino));
}

/* Allocates a zeroed block for slot *slot and charges it to the inode. */
static int alloc_into(struct ext2_fs *fs, struct ext2_inode *in, uint32_t goal,
		      uint32_t *slot)
{
	struct ext2_buf *b;
	uint32_t blk;
	int err = ext2_new_block(fs, goal, &blk);

	if (err)
		return err;
	err = ext2_bzero(fs, blk, &b);
	if (err) {
		ext2_free_block(fs, 0, blk);
		return err;
	}
	ext2_brelse(fs, b);
	*slot = blk;
	add_blocks(fs, in);
	return 0;
}

int ext2_bmap(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t lblk,
	      bool create, uint32_t *pblk, bool *fresh)
{
	struct map_path p;
	struct ext2_buf *b = NULL;
	uint32_t cur, parent = 0, *slot;
	int err = map_path(fs, lblk, &p), level;

	if (fresh)
		*fresh = false;
	*pblk = 0;
	if (err)
		return err;
	slot = &in->i_block[p.root];
	for (level = 0;; level++) {
		cur = *slot;
		if (!cur) {
			if (!create)
				break;
			err = alloc_into(fs, in, goal_for(fs, ino, b ? (uint32_t *)b->data :
							  in->i_block,
							  level ? p.idx[level - 1] : p.root, parent),
					 slot);
			if (err)
				break;
			if (b)
				ext2_bdirty(fs, b);
			cur = *slot;
			if (level == p.depth && fresh)
				*fresh = true;
		} else if (!ext2_block_valid(fs, cur)) {
			err = ext2_corrupt(fs, ino, "block %u past the end (logical block %llu)",
					   cur, (unsigned long long)lblk);
			break;
		}
		if (b)
			ext2_brelse(fs, b);
		b = NULL;
		if (level == p.depth) {
			*pblk = cur;
			break;
		}
		err = ext2_bread(fs, cur, &b);
		if (err)
			break;
		parent = cur;
		slot = (uint32_t *)b->data + p.idx[level];
	}
	if (b)
		ext2_brelse(fs, b);
	return err;
}

/* Frees a whole subtree of `level` indirect levels rooted at blk. */
static int free_tree(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint32_t blk,
		     int level)
{
	struct ext2_buf *b;
	uint32_t i, *ptr;
	int err;

	if (!ext2_block_valid(fs, blk))
		return ext2_corrupt(fs, ino, "block %u past the end", blk);
	if (level > 0) {
		err = ext2_bread(fs, blk, &b);
		if (err)
			return err;
		ptr = (uint32_t *)b->data;
		for (i = 0; i < fs->apb; i++) {
			if (!ptr[i])
				continue;
			err = free_tree(fs, ino, in, ptr[i], level - 1);
			if (err) {
				ext2_brelse(fs, b);
				return err;
			}
			ptr[i] = 0;
			ext2_bdirty(fs, b);
		}
		ext2_brelse(fs, b);
	}
	err = ext2_free_block(fs, ino, blk);
	if (!err)
		sub_blocks(fs, in);
	return err;
}

static uint64_t span_of(const struct ext2_fs *fs, int level)
{
	uint64_t s = 1;

	while (level-- > 0)
		s *= fs->apb;
	return s;
}

/* Frees the part of a subtree from relative logical block `from` on;
 * *empty tells whether the indirect block blk now maps nothing. */
static int free_partial(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in,
			uint32_t blk, int level, uint64_t from, bool *empty)
{
	uint64_t child = span_of(fs, level - 1);
	uint32_t i, first = (uint32_t)(from / child), *ptr;
	struct ext2_buf *b;
	bool sub_empty;
	int err;

	if (!ext2_block_valid(fs, blk))
		return ext2_corrupt(fs, ino, "block %u past the end", blk);
	err = ext2_bread(fs, blk, &b);
	if (err)
		return err;
	ptr = (uint32_t *)b->data;
	for (i = first; i < fs->apb && !err; i++) {
		if (!ptr[i])
			continue;
		if (i == first && from % child && level > 1) {
			err = free_partial(fs, ino, in, ptr[i], level - 1, from % child,
					   &sub_empty);
			if (err || !sub_empty)
				continue;
		}
		err = free_tree(fs, ino, in, ptr[i], level - 1);
		if (!err) {
			ptr[i] = 0;
			ext2_bdirty(fs, b);
		}
	}
	*empty = true;
	for (i = 0; i < fs->apb; i++)
		if (ptr[i])
			*empty = false;
	ext2_brelse(fs, b);
	return err;
}

int ext2_free_blocks_from(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in,
			  uint64_t lblk)
{
	uint64_t base = EXT2_NDIR_BLOCKS, span;
	uint32_t i, *slot;
	bool empty;
	int level, err;

	for (i = 0; i < EXT2_NDIR_BLOCKS; i++) {
		if (i < lblk || !in->i_block[i])
			continue;
		err = free_tree(fs, ino, in, in->i_block[i], 0);
		if (err)
			return err;
		in->i_block[i] = 0;
	}
	for (level = 1; level <= 3; level++, base += span) {
		span = span_of(fs, level);
		slot = &in->i_block[EXT2_IND_BLOCK + level - 1];
		if (!*slot || lblk >= base + span)
			continue;
		if (lblk <= base) {
			err = free_tree(fs, ino, in, *slot, level);
		} else {
			err = free_partial(fs, ino, in, *slot, level, lblk - base, &empty);
			if (!err && empty)
				err = free_tree(fs, ino, in, *slot, 0);
			else if (!err)
				continue;
		}
		if (err)
			return err;
		*slot = 0;
	}
	return 0;
}

/* Whether paths a and b lead through the same block at level k (the
 * block reached after k steps: the same root slot and indexes before). */
static bool same_prefix(const struct map_path *a, const struct map_path *b, int k)
{
	if (a->depth != b->depth || a->root != b->root)
		return false;
	for (int i = 0; i < k; i++)
		if (a->idx[i] != b->idx[i])
			return false;
	return true;
}

/* The first level of lblk's path whose block is missing (depth + 1: the
 * data block is mapped), walking the pointers without allocating. */
static int first_missing(struct ext2_fs *fs, uint32_t ino, const struct ext2_inode *in, uint64_t lblk,
			 const struct map_path *p, int *missing)
{
	uint32_t cur = in->i_block[p->root];
	int level;

	for (level = 0; level <= p->depth; level++) {
		struct ext2_buf *b;
		int err;

		if (!cur)
			break;
		if (!ext2_block_valid(fs, cur))
			return ext2_corrupt(fs, ino, "block %u past the end (logical block %llu)", cur,
					    (unsigned long long)lblk);
		if (level == p->depth)
			continue;
		err = ext2_bread(fs, cur, &b);
		if (err)
			return err;
		cur = ((const uint32_t *)b->data)[p->idx[level]];
		ext2_brelse(fs, b);
	}
	*missing = level;
	return 0;
}

int ext2_alloc_cost(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len, uint64_t *blocks)
{
	struct ext2_inode in;
	struct map_path prev = { 0 }, p;
	int prev_missing = -1, err = ext2_iget(fs, ino, &in);
	uint64_t lblk, last;

	*blocks = 0;
	if (err || !len)
		return err;
	last = (off + len - 1) >> fs->log_bs;
	for (lblk = off >> fs->log_bs; lblk <= last; lblk++) {
		int m = 0;

		err = map_path(fs, lblk, &p);
		if (!err)
			err = first_missing(fs, ino, &in, lblk, &p, &m);
		if (err)
			return err;
		/* each missing block from m down; an indirect block the previous
		 * block of the range also lacked is counted once */
		for (int k = m; k <= p.depth; k++)
			if (k == p.depth || prev_missing < 0 || prev_missing > k || !same_prefix(&prev, &p, k))
				(*blocks)++;
		prev = p;
		prev_missing = m;
	}
	return 0;
}
