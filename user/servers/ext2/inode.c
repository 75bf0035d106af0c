/* ext2: inodes on disk (read, write, fields kept as found), their times
 * with the extra-field nanoseconds of large inodes, stat/setattr, and
 * freeing an unlinked inode. */
#include <string.h>
#include "ext2_priv.h"

/* The byte range of the inode the core reads and writes: the base inode
 * and the extra fields the inode says it uses (i_extra_isize, bounded). */
static uint32_t known_bytes(const struct ext2_fs *fs, const struct ext2_inode *in)
{
	uint32_t extra;

	if (fs->inode_size <= EXT2_GOOD_OLD_INODE_SIZE)
		return EXT2_GOOD_OLD_INODE_SIZE;
	extra = in->i_extra_isize;
	if (extra > fs->inode_size - EXT2_GOOD_OLD_INODE_SIZE)
		extra = fs->inode_size - EXT2_GOOD_OLD_INODE_SIZE;
	if (extra > EXT2_INODE_EXTRA_END - EXT2_GOOD_OLD_INODE_SIZE)
		extra = EXT2_INODE_EXTRA_END - EXT2_GOOD_OLD_INODE_SIZE;
	return EXT2_GOOD_OLD_INODE_SIZE + (extra & ~3u);
}

static int inode_block(struct ext2_fs *fs, uint32_t ino, uint32_t *blk, uint32_t *off)
{
	uint32_t g, byte;

	if (ino == 0 || ino > fs->sb.s_inodes_count)
		return ext2_corrupt(fs, ino, "inode number out of range (%u inodes)",
				    fs->sb.s_inodes_count);
	g = ext2_group_of_ino(fs, ino);
	byte = ((ino - 1) % fs->ipg) * fs->inode_size;
	*blk = fs->gd[g].bg_inode_table + byte / fs->bs;
	*off = byte % fs->bs;
	return 0;
}

/* Before reading inode ino's table block blk: the blocks after it in
 * its group's table, up to the one holding the last inode the group may
 * use (its count of free inodes says how many are in use; allocation
 * takes the lowest free), read in the same device call. */
static void inode_ahead(struct ext2_fs *fs, uint32_t ino, uint32_t blk)
{
	uint32_t g = ext2_group_of_ino(fs, ino), ipb = fs->bs / fs->inode_size;
	uint32_t used = fs->ipg - (fs->gd[g].bg_free_inodes_count < fs->ipg ? fs->gd[g].bg_free_inodes_count : fs->ipg);
	uint32_t first = fs->gd[g].bg_inode_table, end = first + (used + ipb - 1) / ipb;

	if (blk >= first && blk + 1 < end)
		ext2_bread_ahead(fs, blk, end - blk);
}

int ext2_iget(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	uint32_t blk, off, n;
	struct ext2_buf *b;
	int err = inode_block(fs, ino, &blk, &off);

	if (err)
		return err;
	if (!ext2_bcached(fs, blk))
		inode_ahead(fs, ino, blk);
	err = ext2_bread(fs, blk, &b);
	if (err)
		return err;
	memset(in, 0, sizeof(*in));
	memcpy(in, b->data + off, EXT2_GOOD_OLD_INODE_SIZE);
	if (fs->inode_size > EXT2_GOOD_OLD_INODE_SIZE) {
		in->i_extra_isize = *(uint16_t *)(b->data + off + EXT2_GOOD_OLD_INODE_SIZE);
		n = known_bytes(fs, in);
		memcpy((uint8_t *)in + EXT2_GOOD_OLD_INODE_SIZE,
		       b->data + off + EXT2_GOOD_OLD_INODE_SIZE, n - EXT2_GOOD_OLD_INODE_SIZE);
	}
	ext2_brelse(fs, b);
	return 0;
}

int ext2_iclear(struct ext2_fs *fs, uint32_t ino)
{
	uint32_t blk, off;
	struct ext2_buf *b;
	int err = inode_block(fs, ino, &blk, &off);

	if (err)
		return err;
	err = ext2_bread(fs, blk, &b);
	if (err)
		return err;
	memset(b->data + off, 0, fs->inode_size);
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	return 0;
}

int ext2_iput(struct ext2_fs *fs, uint32_t ino, const struct ext2_inode *in)
{
	uint32_t blk, off;
	struct ext2_buf *b;
	int err;

	if (fs->rdonly)
		return -EROFS;
	err = inode_block(fs, ino, &blk, &off);
	if (err)
		return err;
	err = ext2_bread(fs, blk, &b);
	if (err)
		return err;
	/* unchanged (a rewrite of a file's own blocks within one tick):
	 * nothing for the next sync to write */
	if (memcmp(b->data + off, in, known_bytes(fs, in))) {
		memcpy(b->data + off, in, known_bytes(fs, in));
		ext2_bdirty(fs, b);
	}
	ext2_brelse(fs, b);
	return 0;
}

static bool is_reg(const struct ext2_inode *in)
{
	return (in->i_mode & EXT2_S_IFMT) == EXT2_S_IFREG;
}

uint64_t ext2_isize(const struct ext2_inode *in)
{
	uint64_t size = in->i_size;

	if (is_reg(in))
		size |= (uint64_t)in->i_size_high << 32;
	return size;
}

void ext2_set_isize(struct ext2_fs *fs, struct ext2_inode *in, uint64_t size)
{
	in->i_size = (uint32_t)size;
	if (is_reg(in)) {
		in->i_size_high = (uint32_t)(size >> 32);
		if (size > 0x7fffffffu)
			ext2_set_ro_compat(fs, EXT2_FEATURE_RO_COMPAT_LARGE_FILE);
	}
}

uint32_t ext2_iuid(const struct ext2_inode *in)
{
	return in->i_uid | (uint32_t)in->i_uid_high << 16;
}

uint32_t ext2_igid(const struct ext2_inode *in)
{
	return in->i_gid | (uint32_t)in->i_gid_high << 16;
}

static void set_ids(struct ext2_inode *in, uint32_t uid, uint32_t gid)
{
	in->i_uid = (uint16_t)uid;
	in->i_uid_high = (uint16_t)(uid >> 16);
	in->i_gid = (uint16_t)gid;
	in->i_gid_high = (uint16_t)(gid >> 16);
}

/* The extra field: nanoseconds above two bits extending the seconds past
 * 2038 (ext4's encoding, which e2fsprogs reads for ext2 too). */
static uint32_t time_extra(struct ext2_time t)
{
	return (t.nsec << 2) | (uint32_t)(((t.sec - (int32_t)t.sec) >> 32) & 3);
}

static struct ext2_time time_get(uint32_t sec, uint32_t extra, bool has_extra)
{
	struct ext2_time t = { .sec = (int32_t)sec, .nsec = 0 };

	if (has_extra) {
		t.sec += (int64_t)(extra & 3) << 32;
		t.nsec = extra >> 2;
		if (t.nsec >= 1000000000u)
			t.nsec = 0;
	}
	return t;
}

/* Whether the extra field ending at byte `end` of the inode is in use. */
static bool has_extra(const struct ext2_inode *in, uint32_t end)
{
	return in->i_extra_isize >= end - EXT2_GOOD_OLD_INODE_SIZE;
}

void ext2_stamp(struct ext2_inode *in, unsigned which, struct ext2_time now)
{
	if (which & EXT2_T_A) {
		in->i_atime = (uint32_t)now.sec;
		if (has_extra(in, 144))
			in->i_atime_extra = time_extra(now);
	}
	if (which & EXT2_T_M) {
		in->i_mtime = (uint32_t)now.sec;
		if (has_extra(in, 140))
			in->i_mtime_extra = time_extra(now);
	}
	if (which & EXT2_T_C) {
		in->i_ctime = (uint32_t)now.sec;
		if (has_extra(in, 136))
			in->i_ctime_extra = time_extra(now);
	}
}

void ext2_inode_init(struct ext2_fs *fs, struct ext2_inode *in, uint32_t mode,
		     uint32_t uid, uint32_t gid, struct ext2_time now)
{
	uint32_t extra = 0;

	memset(in, 0, sizeof(*in));
	if (fs->inode_size > EXT2_GOOD_OLD_INODE_SIZE) {
		extra = fs->sb.s_want_extra_isize ? fs->sb.s_want_extra_isize : 32;
		if (extra > fs->inode_size - EXT2_GOOD_OLD_INODE_SIZE)
			extra = fs->inode_size - EXT2_GOOD_OLD_INODE_SIZE;
		if (extra > EXT2_INODE_EXTRA_END - EXT2_GOOD_OLD_INODE_SIZE)
			extra = EXT2_INODE_EXTRA_END - EXT2_GOOD_OLD_INODE_SIZE;
		extra &= ~3u;
	}
	in->i_extra_isize = (uint16_t)extra;
	in->i_mode = (uint16_t)mode;
	set_ids(in, uid, gid);
	ext2_stamp(in, EXT2_T_A | EXT2_T_M | EXT2_T_C, now);
	if (has_extra(in, 152)) {
		in->i_crtime = (uint32_t)now.sec;
		in->i_crtime_extra = time_extra(now);
	}
	in->i_generation = (uint32_t)now.sec ^ now.nsec ^ fs->sb.s_free_inodes_count;
}

bool ext2_fast_symlink(const struct ext2_fs *fs, const struct ext2_inode *in)
{
	uint32_t ea = in->i_file_acl ? fs->bs / 512 : 0;

	return (in->i_mode & EXT2_S_IFMT) == EXT2_S_IFLNK && in->i_blocks == ea;
}

int ext2_stat(struct ext2_fs *fs, uint32_t ino, struct ext2_stat *st)
{
	struct ext2_inode in;
	int err = ext2_iget(fs, ino, &in);
	uint32_t type;

	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	st->ino = ino;
	st->mode = in.i_mode;
	st->nlink = in.i_links_count;
	st->uid = ext2_iuid(&in);
	st->gid = ext2_igid(&in);
	st->size = ext2_isize(&in);
	st->blocks = in.i_blocks;
	st->flags = in.i_flags;
	type = in.i_mode & EXT2_S_IFMT;
	if (type == EXT2_S_IFCHR || type == EXT2_S_IFBLK)
		st->rdev = in.i_block[0] ? in.i_block[0] : in.i_block[1];
	st->atime = time_get(in.i_atime, in.i_atime_extra, has_extra(&in, 144));
	st->mtime = time_get(in.i_mtime, in.i_mtime_extra, has_extra(&in, 140));
	st->ctime = time_get(in.i_ctime, in.i_ctime_extra, has_extra(&in, 136));
	return 0;
}

int ext2_setattr(struct ext2_fs *fs, uint32_t ino, const struct ext2_setattr *sa,
		 struct ext2_time now)
{
	struct ext2_inode in;
	int err;

	if (!sa)
		return -EINVAL;
	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, ino, &in);
	if (err)
		return err;
	if (sa->mask & EXT2_SET_MODE)
		in.i_mode = (uint16_t)((in.i_mode & EXT2_S_IFMT) | (sa->mode & 07777));
	if (sa->mask & EXT2_SET_UID)
		set_ids(&in, sa->uid, ext2_igid(&in));
	if (sa->mask & EXT2_SET_GID)
		set_ids(&in, ext2_iuid(&in), sa->gid);
	if (sa->mask & EXT2_SET_ATIME)
		ext2_stamp(&in, EXT2_T_A, sa->atime);
	if (sa->mask & EXT2_SET_MTIME)
		ext2_stamp(&in, EXT2_T_M, sa->mtime);
	ext2_stamp(&in, EXT2_T_C, now);
	return ext2_iput(fs, ino, &in);
}

/* Drops the inode's reference to its extended-attribute block, freeing
 * the block with its last reference (blocks are shared by refcount). */
static int drop_xattr_block(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	uint32_t blk = in->i_file_acl, *hdr;
	struct ext2_buf *b;
	int err;

	if (!blk)
		return 0;
	if (!ext2_block_valid(fs, blk))
		return ext2_corrupt(fs, ino, "extended-attribute block %u out of range", blk);
	err = ext2_bread(fs, blk, &b);
	if (err)
		return err;
	hdr = (uint32_t *)b->data;
	if (hdr[0] != EXT2_XATTR_MAGIC) {
		ext2_brelse(fs, b);
		return ext2_corrupt(fs, ino, "bad extended-attribute block %u", blk);
	}
	if (hdr[1] > 1) {
		hdr[1]--;
		ext2_bdirty(fs, b);
		ext2_brelse(fs, b);
	} else {
		ext2_brelse(fs, b);
		err = ext2_free_block(fs, ino, blk);
		if (err)
			return err;
	}
	in->i_file_acl = 0;
	in->i_blocks -= in->i_blocks >= fs->bs / 512 ? fs->bs / 512 : in->i_blocks;
	return 0;
}

/* Whether i_block holds a block map (not a device number or a target). */
static bool has_block_map(const struct ext2_fs *fs, const struct ext2_inode *in)
{
	uint32_t t = in->i_mode & EXT2_S_IFMT;

	return t == EXT2_S_IFREG || t == EXT2_S_IFDIR ||
		(t == EXT2_S_IFLNK && !ext2_fast_symlink(fs, in));
}

int ext2_release(struct ext2_fs *fs, uint32_t ino)
{
	struct ext2_inode in;
	bool is_dir;
	int err;

	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, ino, &in);
	if (err)
		return err;
	if (in.i_links_count || ino < fs->first_ino)
		return 0;
	if (in.i_dtime)
		return ext2_corrupt(fs, ino, "releasing an inode that is already deleted");
	is_dir = (in.i_mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
	if (has_block_map(fs, &in)) {
		err = ext2_free_blocks_from(fs, ino, &in, 0);
		if (err)
			return err;
	}
	err = drop_xattr_block(fs, ino, &in);
	if (err)
		return err;
	ext2_set_isize(fs, &in, 0);
	in.i_dtime = in.i_ctime ? in.i_ctime : 1;
	err = ext2_iput(fs, ino, &in);
	if (err)
		return err;
	return ext2_free_inode(fs, ino, is_dir);
}
