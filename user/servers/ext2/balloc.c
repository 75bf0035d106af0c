/* ext2: block and inode allocation through the groups' bitmaps, keeping
 * the free counts of the group descriptors and the superblock in step.
 *
 * Policy (a simple form of Linux's ext2): a data block goes to the first
 * free block at or after a goal (the block after the file's previous one,
 * or the start of the inode's group), then to the following groups; a
 * directory's inode goes to a group with at least the average number of
 * free inodes and, among those, the most free blocks (spreading the
 * tree); any other inode to its parent's group, else the next with one. */
#include <string.h>
#include "ext2_priv.h"

static uint32_t blocks_in_group(const struct ext2_fs *fs, uint32_t g)
{
	uint32_t first = ext2_group_first_block(fs, g);
	uint32_t left = fs->sb.s_blocks_count - first;

	return left < fs->bpg ? left : fs->bpg;
}

/* The first clear bit in [from, to) of a bitmap, or `to`. */
static uint32_t find_clear(const uint8_t *map, uint32_t from, uint32_t to)
{
	uint32_t i = from;

	while (i < to) {
		if ((i & 7) == 0 && i + 8 <= to && map[i >> 3] == 0xff) {
			i += 8;
			continue;
		}
		if (!(map[i >> 3] & (1u << (i & 7))))
			return i;
		i++;
	}
	return to;
}

static int take_block_in_group(struct ext2_fs *fs, uint32_t g, uint32_t start, uint32_t *blk)
{
	struct ext2_group_desc *d = &fs->gd[g];
	uint32_t n = blocks_in_group(fs, g), bit;
	struct ext2_buf *b;
	int err;

	if (!d->bg_free_blocks_count)
		return -ENOSPC;
	err = ext2_bread(fs, d->bg_block_bitmap, &b);
	if (err)
		return err;
	if (start >= n)
		start = 0;
	bit = find_clear(b->data, start, n);
	if (bit == n && find_clear(b->data, 0, start) < start)
		bit = find_clear(b->data, 0, start);
	if (bit >= n) {
		ext2_brelse(fs, b);
		return ext2_corrupt(fs, 0, "group %u: free block count %u but a full bitmap",
				    g, d->bg_free_blocks_count);
	}
	b->data[bit >> 3] |= (uint8_t)(1u << (bit & 7));
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	d->bg_free_blocks_count--;
	fs->sb.s_free_blocks_count--;
	ext2_gd_dirty(fs, g);
	*blk = ext2_group_first_block(fs, g) + bit;
	return 0;
}

int ext2_new_block(struct ext2_fs *fs, uint32_t goal, uint32_t *blk)
{
	uint32_t g, i, start;
	int err;

	if (fs->rdonly)
		return -EROFS;
	/* the last s_r_blocks_count free blocks are root's (ext2_set_caller),
	 * and blocks promised to the page cache's writers are theirs */
	if (fs->sb.s_free_blocks_count < (fs->reserved_ok ? 0 : (uint64_t)fs->sb.s_r_blocks_count) +
						 (fs->promised_ok ? 0 : fs->promised) + 1)
		return -ENOSPC;
	if (!ext2_block_valid(fs, goal))
		goal = fs->sb.s_first_data_block;
	g = (goal - fs->sb.s_first_data_block) / fs->bpg;
	start = goal - ext2_group_first_block(fs, g);
	for (i = 0; i < fs->ngroups; i++) {
		err = take_block_in_group(fs, (g + i) % fs->ngroups, i ? 0 : start, blk);
		if (err != -ENOSPC)
			return err;
	}
	return -ENOSPC;
}

int ext2_free_block(struct ext2_fs *fs, uint32_t ino, uint32_t blk)
{
	uint32_t g, bit;
	struct ext2_buf *b;
	int err;

	if (!ext2_block_valid(fs, blk))
		return ext2_corrupt(fs, ino, "freeing block %u outside the file system", blk);
	g = (blk - fs->sb.s_first_data_block) / fs->bpg;
	bit = blk - ext2_group_first_block(fs, g);
	err = ext2_bread(fs, fs->gd[g].bg_block_bitmap, &b);
	if (err)
		return err;
	if (!(b->data[bit >> 3] & (1u << (bit & 7)))) {
		ext2_brelse(fs, b);
		return ext2_corrupt(fs, ino, "freeing block %u, which is already free", blk);
	}
	b->data[bit >> 3] &= (uint8_t)~(1u << (bit & 7));
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	fs->gd[g].bg_free_blocks_count++;
	fs->sb.s_free_blocks_count++;
	ext2_gd_dirty(fs, g);
	ext2_bforget(fs, blk);
	return 0;
}

static uint32_t pick_dir_group(struct ext2_fs *fs)
{
	uint32_t avg = fs->sb.s_free_inodes_count / fs->ngroups, g, best = UINT32_MAX;

	for (g = 0; g < fs->ngroups; g++) {
		const struct ext2_group_desc *d = &fs->gd[g];

		if (!d->bg_free_inodes_count || d->bg_free_inodes_count < avg)
			continue;
		if (best == UINT32_MAX ||
		    d->bg_free_blocks_count > fs->gd[best].bg_free_blocks_count)
			best = g;
	}
	return best == UINT32_MAX ? 0 : best;
}

static int take_inode_in_group(struct ext2_fs *fs, uint32_t g, bool is_dir, uint32_t *ino)
{
	struct ext2_group_desc *d = &fs->gd[g];
	uint32_t bit, first = 0, base = g * fs->ipg;
	struct ext2_buf *b;
	int err;

	if (!d->bg_free_inodes_count)
		return -ENOSPC;
	if (base + 1 < fs->first_ino)
		first = fs->first_ino - 1 - base;       /* never a reserved inode */
	if (first >= fs->ipg)
		return -ENOSPC;
	err = ext2_bread(fs, d->bg_inode_bitmap, &b);
	if (err)
		return err;
	bit = find_clear(b->data, first, fs->ipg);
	if (bit == fs->ipg) {
		ext2_brelse(fs, b);
		return ext2_corrupt(fs, 0, "group %u: free inode count %u but a full bitmap",
				    g, d->bg_free_inodes_count);
	}
	b->data[bit >> 3] |= (uint8_t)(1u << (bit & 7));
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	d->bg_free_inodes_count--;
	fs->sb.s_free_inodes_count--;
	if (is_dir)
		d->bg_used_dirs_count++;
	ext2_gd_dirty(fs, g);
	*ino = base + bit + 1;
	return 0;
}

int ext2_new_inode(struct ext2_fs *fs, uint32_t parent, bool is_dir, uint32_t *ino)
{
	uint32_t g, i;
	int err;

	if (fs->rdonly)
		return -EROFS;
	if (!fs->sb.s_free_inodes_count)
		return -ENOSPC;
	g = is_dir ? pick_dir_group(fs) : ext2_group_of_ino(fs, parent);
	for (i = 0; i < fs->ngroups; i++) {
		err = take_inode_in_group(fs, (g + i) % fs->ngroups, is_dir, ino);
		if (err != -ENOSPC)
			return err;
	}
	return -ENOSPC;
}

int ext2_free_inode(struct ext2_fs *fs, uint32_t ino, bool is_dir)
{
	uint32_t g = ext2_group_of_ino(fs, ino), bit = (ino - 1) % fs->ipg;
	struct ext2_buf *b;
	int err;

	if (is_dir)
		ext2_dindex_drop(fs, ino); /* the number may come back as another directory */
	err = ext2_bread(fs, fs->gd[g].bg_inode_bitmap, &b);
	if (err)
		return err;
	if (!(b->data[bit >> 3] & (1u << (bit & 7)))) {
		ext2_brelse(fs, b);
		return ext2_corrupt(fs, ino, "freeing an inode that is already free");
	}
	b->data[bit >> 3] &= (uint8_t)~(1u << (bit & 7));
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	fs->gd[g].bg_free_inodes_count++;
	fs->sb.s_free_inodes_count++;
	if (is_dir && fs->gd[g].bg_used_dirs_count)
		fs->gd[g].bg_used_dirs_count--;
	ext2_gd_dirty(fs, g);
	return 0;
}
