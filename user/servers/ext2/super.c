/* ext2: mounting (superblock and group-descriptor checks, features),
 * syncing, unmounting, statfs and the error report. Only the primary
 * superblock and descriptors are written, as Linux's ext2 does: the
 * sparse_super backups in groups 0, 1 and powers of 3, 5 and 7 are left
 * as mke2fs wrote them (e2fsck uses them only for recovery). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ext2_priv.h"
#include "format.h"

#define DEFAULT_CACHE_BLOCKS 2048u

int ext2_corrupt(struct ext2_fs *fs, uint32_t ino, const char *fmt, ...)
{
	char msg[256];
	int n;
	va_list ap;

	if (ino)
		n = fmt_snprintf(msg, sizeof(msg), "ext2: inode %u: ", ino);
	else
		n = fmt_snprintf(msg, sizeof(msg), "ext2: ");
	va_start(ap, fmt);
	fmt_vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	if (fs->dev->log)
		fs->dev->log(fs->dev->ctx, msg);
	if (!fs->rdonly && !(fs->sb.s_state & EXT2_ERROR_FS)) {
		fs->sb.s_state |= EXT2_ERROR_FS;
		fs->sb_dirty = true;
	}
	return -EIO;
}

bool ext2_block_valid(const struct ext2_fs *fs, uint32_t blk)
{
	return blk >= fs->sb.s_first_data_block && blk < fs->sb.s_blocks_count;
}

void ext2_gd_dirty(struct ext2_fs *fs, uint32_t group)
{
	fs->gd_dirty[group * sizeof(struct ext2_group_desc) / fs->bs] = true;
	fs->sb_dirty = true;    /* the free counts move together */
}

void ext2_set_ro_compat(struct ext2_fs *fs, uint32_t bit)
{
	if (!(fs->sb.s_feature_ro_compat & bit)) {
		/* Feature fields exist from revision 1 on: a revision 0 file
		 * system is upgraded first, as Linux's ext2_update_dynamic_rev
		 * does (its inodes and first inode stay what revision 0 fixed). */
		if (fs->sb.s_rev_level == EXT2_GOOD_OLD_REV) {
			fs->sb.s_rev_level = EXT2_DYNAMIC_REV;
			fs->sb.s_first_ino = EXT2_GOOD_OLD_FIRST_INO;
			fs->sb.s_inode_size = EXT2_GOOD_OLD_INODE_SIZE;
		}
		fs->sb.s_feature_ro_compat |= bit;
		fs->sb_dirty = true;
	}
}

bool ext2_is_rdonly(const struct ext2_fs *fs) { return fs->rdonly; }

void ext2_set_caller(struct ext2_fs *fs, uint32_t uid, uint32_t gid)
{
	fs->reserved_ok = uid == 0 || uid == fs->sb.s_def_resuid || gid == fs->sb.s_def_resgid;
}

void ext2_set_promised(struct ext2_fs *fs, uint64_t blocks)
{
	fs->promised = blocks;
}

void ext2_use_promised(struct ext2_fs *fs, bool use)
{
	fs->promised_ok = use;
}
uint32_t ext2_block_size(const struct ext2_fs *fs) { return fs->bs; }

uint64_t ext2_map_blocks(const struct ext2_fs *fs)
{
	uint64_t a = fs->apb;

	return EXT2_NDIR_BLOCKS + a + a * a + a * a * a;
}

/* As Linux's ext2_max_size: the map's reach, bounded by i_blocks (32 bits
 * of 512-byte units) less the indirect blocks such a file needs. */
uint64_t ext2_max_file_size(const struct ext2_fs *fs)
{
	uint64_t a = fs->apb;
	uint64_t limit = (((uint64_t)1 << 32) - 1) >> (fs->log_bs - 9);
	uint64_t meta = 1 + (1 + a) + (1 + a + a * a);
	uint64_t blocks = ext2_map_blocks(fs);

	if (blocks > limit - meta)
		blocks = limit - meta;
	return blocks << fs->log_bs;
}

static bool is_power(uint32_t g, uint32_t base)
{
	uint64_t n = base;

	while (n < g)
		n *= base;
	return n == g;
}

/* Whether group g holds a superblock backup (and descriptor copy). */
static bool group_has_super(const struct ext2_fs *fs, uint32_t g)
{
	if (!(fs->sb.s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	return g <= 1 || is_power(g, 3) || is_power(g, 5) || is_power(g, 7);
}

void ext2_statfs(struct ext2_fs *fs, struct ext2_statfs *st)
{
	uint64_t overhead = fs->sb.s_first_data_block;
	uint32_t g;

	for (g = 0; g < fs->ngroups; g++) {
		if (group_has_super(fs, g))
			overhead += 1 + fs->gdt_blocks + fs->sb.s_reserved_gdt_blocks;
		overhead += 2 + fs->itb_per_group;
	}
	memset(st, 0, sizeof(*st));
	st->bsize = fs->bs;
	st->blocks = fs->sb.s_blocks_count - overhead;
	st->bfree = fs->sb.s_free_blocks_count;
	st->bavail = st->bfree > fs->sb.s_r_blocks_count ?
		st->bfree - fs->sb.s_r_blocks_count : 0;
	st->files = fs->sb.s_inodes_count;
	st->ffree = fs->sb.s_free_inodes_count;
	st->namemax = EXT2_NAME_LEN;
}

static int refuse(const struct ext2_dev *dev, const char *why)
{
	char msg[128];

	if (dev->log) {
		fmt_snprintf(msg, sizeof(msg), "ext2: cannot mount: %s", why);
		dev->log(dev->ctx, msg);
	}
	return -EINVAL;
}

/* The geometry checks: everything later code relies on without checking
 * again (block size, group sizes, inode size, counts). */
static int check_super(const struct ext2_dev *dev, const struct ext2_super *sb)
{
	uint32_t bs, groups, isize;

	if (sb->s_magic != EXT2_SUPER_MAGIC)
		return refuse(dev, "bad magic number");
	if (sb->s_rev_level > EXT2_DYNAMIC_REV)
		return refuse(dev, "unknown revision");
	if (sb->s_log_block_size > 2)
		return refuse(dev, "block size is not 1, 2 or 4 KiB");
	bs = 1024u << sb->s_log_block_size;
	if (sb->s_first_data_block != (bs == 1024 ? 1u : 0u))
		return refuse(dev, "bad first data block");
	if (sb->s_blocks_per_group < 8 || sb->s_blocks_per_group > bs * 8 ||
	    (sb->s_blocks_per_group & 7) || sb->s_inodes_per_group < 8 ||
	    sb->s_inodes_per_group > bs * 8 || (sb->s_inodes_per_group & 7))
		return refuse(dev, "bad group size");
	if (sb->s_blocks_count <= sb->s_first_data_block)
		return refuse(dev, "bad block count");
	groups = (sb->s_blocks_count - sb->s_first_data_block + sb->s_blocks_per_group - 1) /
		sb->s_blocks_per_group;
	if ((uint64_t)groups * sb->s_inodes_per_group != sb->s_inodes_count)
		return refuse(dev, "inode count does not match the groups");
	if (sb->s_rev_level == EXT2_DYNAMIC_REV) {
		isize = sb->s_inode_size;
		if (isize < EXT2_GOOD_OLD_INODE_SIZE || isize > bs || (isize & (isize - 1)))
			return refuse(dev, "bad inode size");
		if (sb->s_first_ino < EXT2_GOOD_OLD_FIRST_INO ||
		    sb->s_first_ino >= sb->s_inodes_count)
			return refuse(dev, "bad first inode");
		if (sb->s_feature_incompat & ~EXT2_KNOWN_INCOMPAT)
			return refuse(dev, "unsupported incompatible features");
	}
	if (sb->s_free_blocks_count > sb->s_blocks_count ||
	    sb->s_free_inodes_count > sb->s_inodes_count ||
	    sb->s_r_blocks_count > sb->s_blocks_count)
		return refuse(dev, "bad free counts");
	if ((uint64_t)sb->s_blocks_count * (bs / EXT2_SECTOR_SIZE) > dev->nsectors)
		return refuse(dev, "the device is smaller than the file system");
	return 0;
}

/* Linux's ext2_check_descriptors: each group's bitmaps and inode table lie
 * inside the group. */
static int check_groups(struct ext2_fs *fs)
{
	uint32_t g, first, last;
	struct ext2_group_desc *d;

	for (g = 0; g < fs->ngroups; g++) {
		d = &fs->gd[g];
		first = ext2_group_first_block(fs, g);
		last = g == fs->ngroups - 1 ? fs->sb.s_blocks_count - 1 : first + fs->bpg - 1;
		if (d->bg_block_bitmap < first || d->bg_block_bitmap > last ||
		    d->bg_inode_bitmap < first || d->bg_inode_bitmap > last ||
		    d->bg_inode_table < first ||
		    (uint64_t)d->bg_inode_table + fs->itb_per_group - 1 > last ||
		    d->bg_free_blocks_count > fs->bpg || d->bg_free_inodes_count > fs->ipg)
			return refuse(fs->dev, "group descriptors corrupted");
	}
	return 0;
}

static int write_super(struct ext2_fs *fs)
{
	int err = fs->dev->write(fs->dev->ctx, EXT2_SUPER_OFFSET / EXT2_SECTOR_SIZE,
				 EXT2_SUPER_SIZE / EXT2_SECTOR_SIZE, &fs->sb);

	if (!err)
		fs->sb_dirty = false;
	return err;
}

static void fs_free(struct ext2_fs *fs)
{
	ext2_dindex_destroy(fs);
	ext2_bcache_destroy(fs);
	free(fs->gd);
	free(fs->gd_dirty);
	free(fs);
}

static int load_groups(struct ext2_fs *fs)
{
	uint32_t i, bytes = fs->gdt_blocks * fs->bs;
	int err;

	fs->gd = malloc(bytes);
	fs->gd_dirty = calloc(fs->gdt_blocks, sizeof(bool));
	if (!fs->gd || !fs->gd_dirty)
		return -ENOMEM;
	for (i = 0; i < fs->gdt_blocks; i++) {
		err = ext2_dev_rw(fs, false, fs->sb.s_first_data_block + 1 + i, 1,
				  (uint8_t *)fs->gd + (size_t)i * fs->bs);
		if (err)
			return -EIO;
	}
	return check_groups(fs);
}

/* The superblock free counts are the sum of the groups', as Linux's ext2
 * recounts them at mount. */
static void recount(struct ext2_fs *fs)
{
	uint64_t fb = 0, fi = 0;
	uint32_t g;

	for (g = 0; g < fs->ngroups; g++) {
		fb += fs->gd[g].bg_free_blocks_count;
		fi += fs->gd[g].bg_free_inodes_count;
	}
	if (fb != fs->sb.s_free_blocks_count || fi != fs->sb.s_free_inodes_count) {
		fs->sb.s_free_blocks_count = (uint32_t)fb;
		fs->sb.s_free_inodes_count = (uint32_t)fi;
		fs->sb_dirty = true;
	}
}

int ext2_mount(const struct ext2_dev *dev, unsigned flags, uint32_t cache_blocks,
	       struct ext2_fs **out)
{
	struct ext2_fs *fs;
	int err;

	if (!dev || !out || !dev->read || !dev->write)
		return -EINVAL;
	if (dev->nsectors < (EXT2_SUPER_OFFSET + EXT2_SUPER_SIZE) / EXT2_SECTOR_SIZE)
		return refuse(dev, "device too small");
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	fs->dev = dev;
	fs->reserved_ok = true; /* root's until ext2_set_caller says otherwise */
	err = dev->read(dev->ctx, EXT2_SUPER_OFFSET / EXT2_SECTOR_SIZE,
			EXT2_SUPER_SIZE / EXT2_SECTOR_SIZE, &fs->sb);
	if (err) {
		free(fs);
		return -EIO;
	}
	err = check_super(dev, &fs->sb);
	if (err) {
		free(fs);
		return err;
	}
	fs->log_bs = 10 + fs->sb.s_log_block_size;
	fs->bs = 1u << fs->log_bs;
	fs->apb = fs->bs / 4;
	fs->sectors_per_block = fs->bs / EXT2_SECTOR_SIZE;
	fs->bpg = fs->sb.s_blocks_per_group;
	fs->ipg = fs->sb.s_inodes_per_group;
	if (fs->sb.s_rev_level == EXT2_GOOD_OLD_REV) {
		fs->inode_size = EXT2_GOOD_OLD_INODE_SIZE;
		fs->first_ino = EXT2_GOOD_OLD_FIRST_INO;
	} else {
		fs->inode_size = fs->sb.s_inode_size;
		fs->first_ino = fs->sb.s_first_ino;
	}
	fs->itb_per_group = (uint32_t)(((uint64_t)fs->ipg * fs->inode_size + fs->bs - 1) / fs->bs);
	fs->ngroups = fs->sb.s_inodes_count / fs->ipg;
	fs->gdt_blocks = (uint32_t)(((uint64_t)fs->ngroups * sizeof(struct ext2_group_desc) +
				     fs->bs - 1) / fs->bs);
	fs->rdonly = (flags & EXT2_MOUNT_RDONLY) ||
		(fs->sb.s_feature_ro_compat & ~EXT2_KNOWN_RO_COMPAT);
	err = ext2_bcache_init(fs, cache_blocks ? cache_blocks : DEFAULT_CACHE_BLOCKS);
	if (!err)
		err = load_groups(fs);
	if (err) {
		fs_free(fs);
		return err;
	}
	recount(fs);
	/* As Linux: a file system not cleanly unmounted, or with errors
	 * recorded, still mounts, with a warning that e2fsck should see it. */
	if (dev->log && !(fs->sb.s_state & EXT2_VALID_FS))
		dev->log(dev->ctx, "ext2: warning: mounting a file system that was not cleanly "
			 "unmounted; running e2fsck is recommended");
	else if (dev->log && (fs->sb.s_state & EXT2_ERROR_FS))
		dev->log(dev->ctx, "ext2: warning: mounting a file system with errors; running "
			 "e2fsck is recommended");
	if (!fs->rdonly) {
		/* Not clean while mounted: a crash leaves e2fsck a reason to look. */
		fs->sb.s_state &= (uint16_t)~EXT2_VALID_FS;
		fs->sb.s_mnt_count++;
		err = write_super(fs);
		if (err) {
			fs_free(fs);
			return -EIO;
		}
	}
	*out = fs;
	return 0;
}

int ext2_sync(struct ext2_fs *fs)
{
	int err, first;
	uint32_t i;

	if (fs->rdonly)
		return 0;
	first = ext2_bcache_flush(fs);
	for (i = 0; i < fs->gdt_blocks; i++) {
		if (!fs->gd_dirty[i])
			continue;
		err = ext2_dev_rw(fs, true, fs->sb.s_first_data_block + 1 + i, 1,
				  (uint8_t *)fs->gd + (size_t)i * fs->bs);
		if (err && !first)
			first = err;
		if (!err)
			fs->gd_dirty[i] = false;
	}
	if (fs->sb_dirty) {
		err = write_super(fs);
		if (err && !first)
			first = err;
	}
	if (!first && fs->io_error)
		first = fs->io_error;
	fs->io_error = 0;
	return first;
}

int ext2_sync_flush(struct ext2_fs *fs)
{
	struct ext2_wvec v = { 0 };
	int err, e;
	uint32_t i;

	if (fs->rdonly)
		return 0;
	if (!fs->dev->writev) {
		err = ext2_sync(fs);
		e = fs->dev->flush ? fs->dev->flush(fs->dev->ctx) : 0;
		return err ? err : e;
	}
	err = ext2_bcache_flush_vec(fs, &v);
	for (i = 0; i < fs->gdt_blocks; i++)
		if (fs->gd_dirty[i] && (e = ext2_wvec_add(fs, &v, EXT2_WV_GD, i, 1,
							  (uint64_t)(fs->sb.s_first_data_block + 1 + i) *
								  fs->sectors_per_block,
							  fs->sectors_per_block, (uint8_t *)fs->gd + (size_t)i * fs->bs)) &&
		    !err)
			err = e;
	if (fs->sb_dirty && (e = ext2_wvec_add(fs, &v, EXT2_WV_SUPER, 0, 1, EXT2_SUPER_OFFSET / EXT2_SECTOR_SIZE,
					       EXT2_SUPER_SIZE / EXT2_SECTOR_SIZE, &fs->sb)) && !err)
		err = e;
	/* the last vector carries the flush (or a flush alone) */
	e = ext2_wvec_send(fs, &v, true);
	if (e && !err)
		err = e;
	if (!err && fs->io_error)
		err = fs->io_error;
	fs->io_error = 0;
	return err;
}

int ext2_unmount(struct ext2_fs *fs)
{
	int err = 0;

	if (!fs)
		return -EINVAL;
	if (!fs->rdonly) {
		err = ext2_sync(fs);
		if (!err && !(fs->sb.s_state & EXT2_ERROR_FS)) {
			fs->sb.s_state |= EXT2_VALID_FS;
			err = write_super(fs);
		}
	}
	fs_free(fs);
	return err;
}
