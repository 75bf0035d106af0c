/* ext2: operations on names: creating files, directories, device nodes
 * and symbolic links, hard links, unlink, rmdir and rename, keeping link
 * counts as ext2 defines them (a directory has 2 plus one per
 * subdirectory, whose ".." names it). Each operation checks everything
 * that can fail before its first change where it can; an allocation that
 * fails half-way is undone. */
#include <string.h>
#include "ext2_priv.h"

static bool is_dir(const struct ext2_inode *in)
{
	return (in->i_mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
}

static bool is_dot_name(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* Reads a directory that may receive or lose entries. */
static int get_dir(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir)
{
	int err;

	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, dino, dir);
	if (err)
		return err;
	if (!is_dir(dir))
		return -ENOTDIR;
	if (!dir->i_links_count)
		return -ENOENT;         /* removed, still open */
	return 0;
}

/* Stamps a changed directory and writes it back, without a hash index. */
static int dir_done(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir, int nlink_delta,
		    struct ext2_time now)
{
	dir->i_links_count = (uint16_t)(dir->i_links_count + nlink_delta);
	ext2_dir_unindex(dir);
	ext2_stamp(dir, EXT2_T_M | EXT2_T_C, now);
	return ext2_iput(fs, dino, dir);
}

/* Frees an inode allocated by a creation that then failed. */
static void undo_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	ext2_free_blocks_from(fs, ino, in, 0);
	in->i_links_count = 0;
	in->i_dtime = in->i_ctime ? in->i_ctime : 1;
	ext2_set_isize(fs, in, 0);
	ext2_iput(fs, ino, in);
	ext2_free_inode(fs, ino, is_dir(in));
}

/* The checks every creation shares: name, directory, no such entry; notes
 * in *room where the new entry fits. */
static int prepare_create(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
			  const char *name, size_t len, struct ext2_dirpos *room)
{
	struct ext2_dirpos pos;
	int err = ext2_check_name(name, len);

	if (err)
		return err;
	err = get_dir(fs, dino, dir);
	if (err)
		return err;
	err = ext2_dir_find(fs, dino, dir, name, len, &pos, room);
	if (err == 0)
		return -EEXIST;
	return err == -ENOENT ? 0 : err;
}

/* Allocates and writes a new inode, then names it in dir; undoes the
 * inode if the name cannot be added. fill sets up the type's content. */
static int create_common(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
			 const struct ext2_dirpos *room, const char *name, size_t len, uint32_t mode, uint32_t uid, uint32_t gid,
			 struct ext2_time now, int (*fill)(struct ext2_fs *, uint32_t,
							   struct ext2_inode *, const void *),
			 const void *arg, uint32_t *out)
{
	struct ext2_inode in;
	uint32_t ino;
	int err = ext2_new_inode(fs, dino, is_dir(&(struct ext2_inode){ .i_mode = (uint16_t)mode }),
				 &ino);

	if (err)
		return err;
	ext2_inode_init(fs, &in, mode, uid, gid, now);
	in.i_links_count = 1;
	err = ext2_iclear(fs, ino);
	if (!err && fill)
		err = fill(fs, ino, &in, arg);
	if (!err)
		err = ext2_iput(fs, ino, &in);
	if (!err)
		err = ext2_dir_add(fs, dino, dir, name, len, ino, ext2_mode_to_ft(mode), room);
	if (err) {
		undo_inode(fs, ino, &in);
		return err;
	}
	if (out)
		*out = ino;
	return 0;
}

static int fill_dev(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, const void *arg)
{
	uint32_t rdev = *(const uint32_t *)arg;
	uint32_t major = (rdev >> 8) & 0xfff, minor = (rdev & 0xff) | ((rdev >> 12) & 0xfff00);

	(void)fs;
	(void)ino;
	/* Linux's encoding: the old 16-bit form in i_block[0] when it fits,
	 * else the 32-bit form in i_block[1]. */
	if (major < 256 && minor < 256)
		in->i_block[0] = major << 8 | minor;
	else
		in->i_block[1] = rdev;
	return 0;
}

int ext2_mknod(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
	       uint32_t mode, uint32_t rdev, uint32_t uid, uint32_t gid,
	       struct ext2_time now, uint32_t *ino)
{
	struct ext2_inode d;
	struct ext2_dirpos room;
	uint32_t t = mode & EXT2_S_IFMT;
	bool dev = t == EXT2_S_IFCHR || t == EXT2_S_IFBLK;
	int err;

	if (t != EXT2_S_IFREG && t != EXT2_S_IFIFO && t != EXT2_S_IFSOCK && !dev)
		return -EINVAL;
	if (mode & ~(uint32_t)(EXT2_S_IFMT | 07777))
		return -EINVAL;
	err = prepare_create(fs, dir, &d, name, len, &room);
	if (!err)
		err = create_common(fs, dir, &d, &room, name, len, mode, uid, gid, now,
				    dev ? fill_dev : NULL, &rdev, ino);
	if (!err)
		err = dir_done(fs, dir, &d, 0, now);
	return err;
}

static int fill_dir(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, const void *arg)
{
	in->i_links_count = 2;
	return ext2_dir_init(fs, ino, in, *(const uint32_t *)arg);
}

int ext2_mkdir(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
	       uint32_t mode, uint32_t uid, uint32_t gid, struct ext2_time now,
	       uint32_t *ino)
{
	struct ext2_inode d;
	struct ext2_dirpos room;
	int err = prepare_create(fs, dir, &d, name, len, &room);

	if (err)
		return err;
	if (d.i_links_count >= EXT2_LINK_MAX)
		return -EMLINK;
	err = create_common(fs, dir, &d, &room, name, len, EXT2_S_IFDIR | (mode & 07777), uid, gid,
			    now, fill_dir, &dir, ino);
	if (!err)
		err = dir_done(fs, dir, &d, 1, now);
	return err;
}

struct target { const char *s; size_t len; };

static int fill_symlink(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in,
			const void *arg)
{
	const struct target *t = arg;
	struct ext2_buf *b;
	uint32_t pblk;
	int err;

	ext2_set_isize(fs, in, t->len);
	if (t->len <= EXT2_FAST_SYMLINK_MAX) {
		memcpy(in->i_block, t->s, t->len);
		return 0;
	}
	err = ext2_bmap(fs, ino, in, 0, true, &pblk, NULL);
	if (err)
		return err;
	err = ext2_bread(fs, pblk, &b);
	if (err)
		return err;
	memcpy(b->data, t->s, t->len);
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	return 0;
}

int ext2_symlink(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
		 const char *target, size_t tlen, uint32_t uid, uint32_t gid,
		 struct ext2_time now, uint32_t *ino)
{
	struct ext2_inode d;
	struct ext2_dirpos room;
	struct target t = { target, tlen };
	int err;

	if (!target || tlen == 0)
		return -ENOENT;
	if (tlen >= fs->bs)
		return -ENAMETOOLONG;
	if (memchr(target, '\0', tlen))
		return -EINVAL;
	err = prepare_create(fs, dir, &d, name, len, &room);
	if (!err)
		err = create_common(fs, dir, &d, &room, name, len, EXT2_S_IFLNK | 0777, uid, gid, now,
				    fill_symlink, &t, ino);
	if (!err)
		err = dir_done(fs, dir, &d, 0, now);
	return err;
}

int ext2_readlink(struct ext2_fs *fs, uint32_t ino, char *buf, size_t size)
{
	struct ext2_inode in;
	struct ext2_buf *b;
	uint64_t len;
	uint32_t pblk;
	int err = ext2_iget(fs, ino, &in);

	if (err)
		return err;
	if ((in.i_mode & EXT2_S_IFMT) != EXT2_S_IFLNK)
		return -EINVAL;
	len = ext2_isize(&in);
	if (ext2_fast_symlink(fs, &in)) {
		if (len > EXT2_FAST_SYMLINK_MAX)
			return ext2_corrupt(fs, ino, "fast symlink of %llu bytes",
					    (unsigned long long)len);
		if (len > size)
			len = size;
		memcpy(buf, in.i_block, (size_t)len);
		return (int)len;
	}
	if (len == 0 || len >= fs->bs)
		return ext2_corrupt(fs, ino, "symlink of %llu bytes", (unsigned long long)len);
	err = ext2_bmap(fs, ino, &in, 0, false, &pblk, NULL);
	if (err)
		return err;
	if (!pblk)
		return ext2_corrupt(fs, ino, "symlink without a data block");
	err = ext2_bread(fs, pblk, &b);
	if (err)
		return err;
	if (len > size)
		len = size;
	memcpy(buf, b->data, (size_t)len);
	ext2_brelse(fs, b);
	return (int)len;
}

/* ext2_link, and with unnamed (an O_TMPFILE inode) for one with no link. */
static int link_common(struct ext2_fs *fs, uint32_t ino, uint32_t dir, const char *name,
		       size_t len, struct ext2_time now, bool unnamed)
{
	struct ext2_inode in, d;
	struct ext2_dirpos room;
	int err;

	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, ino, &in);
	if (err)
		return err;
	if (is_dir(&in))
		return -EPERM;
	if (!in.i_links_count && !unnamed)
		return -ENOENT;
	if (in.i_links_count >= EXT2_LINK_MAX)
		return -EMLINK;
	err = prepare_create(fs, dir, &d, name, len, &room);
	if (err)
		return err;
	err = ext2_dir_add(fs, dir, &d, name, len, ino, ext2_mode_to_ft(in.i_mode), &room);
	if (err)
		return err;
	in.i_links_count++;
	ext2_stamp(&in, EXT2_T_C, now);
	err = ext2_iput(fs, ino, &in);
	if (!err)
		err = dir_done(fs, dir, &d, 0, now);
	return err;
}

int ext2_link(struct ext2_fs *fs, uint32_t ino, uint32_t dir, const char *name,
	      size_t len, struct ext2_time now)
{
	return link_common(fs, ino, dir, name, len, now, false);
}

int ext2_link_unnamed(struct ext2_fs *fs, uint32_t ino, uint32_t dir, const char *name,
		      size_t len, struct ext2_time now)
{
	return link_common(fs, ino, dir, name, len, now, true);
}

int ext2_tmpfile(struct ext2_fs *fs, uint32_t dir, uint32_t mode, uint32_t uid, uint32_t gid,
		 struct ext2_time now, uint32_t *out)
{
	struct ext2_inode d, in;
	uint32_t ino;
	int err;

	if ((mode & EXT2_S_IFMT) != EXT2_S_IFREG || (mode & ~(uint32_t)(EXT2_S_IFMT | 07777)))
		return -EINVAL;
	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, dir, &d);
	if (err)
		return err;
	if (!is_dir(&d))
		return -ENOTDIR;
	err = ext2_new_inode(fs, dir, false, &ino);
	if (err)
		return err;
	ext2_inode_init(fs, &in, mode, uid, gid, now);
	in.i_links_count = 0; /* in use (no dtime), named by nothing */
	err = ext2_iclear(fs, ino);
	if (!err)
		err = ext2_iput(fs, ino, &in);
	if (err) {
		undo_inode(fs, ino, &in);
		return err;
	}
	*out = ino;
	return 0;
}

/* Drops one link of an inode; reports it in *gone when none is left. */
static int drop_link(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, bool all,
		     struct ext2_time now, uint32_t *gone)
{
	if (all || in->i_links_count <= 1)
		in->i_links_count = 0;
	else
		in->i_links_count--;
	ext2_stamp(in, EXT2_T_C, now);
	if (!in->i_links_count && gone)
		*gone = ino;
	return ext2_iput(fs, ino, in);
}

/* Looks a name up for removal: the directory, the entry and its inode. */
static int find_victim(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
		       const char *name, size_t len, struct ext2_dirpos *pos,
		       struct ext2_inode *in)
{
	int err = ext2_check_name(name, len);

	if (err)
		return err;
	err = get_dir(fs, dino, dir);
	if (!err)
		err = ext2_dir_find(fs, dino, dir, name, len, pos, NULL);
	if (!err)
		err = ext2_iget(fs, pos->ino, in);
	if (!err && !in->i_links_count && pos->ino != dino)
		err = ext2_corrupt(fs, dino, "entry names inode %u, which is free", pos->ino);
	return err;
}

int ext2_unlink(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
		struct ext2_time now, uint32_t *gone)
{
	struct ext2_inode d, in;
	struct ext2_dirpos pos;
	int err;

	if (gone)
		*gone = 0;
	err = find_victim(fs, dir, &d, name, len, &pos, &in);
	if (err)
		return err;
	if (is_dir(&in))
		return -EISDIR;
	err = ext2_dir_remove(fs, dir, &d, &pos);
	if (!err)
		err = drop_link(fs, pos.ino, &in, false, now, gone);
	if (!err)
		err = dir_done(fs, dir, &d, 0, now);
	return err;
}

int ext2_rmdir(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
	       struct ext2_time now, uint32_t *gone)
{
	struct ext2_inode d, in;
	struct ext2_dirpos pos;
	int err;

	if (gone)
		*gone = 0;
	if (name && len == 1 && name[0] == '.')
		return -EINVAL;
	if (name && len == 2 && name[0] == '.' && name[1] == '.')
		return -ENOTEMPTY;
	err = find_victim(fs, dir, &d, name, len, &pos, &in);
	if (err)
		return err;
	if (!is_dir(&in))
		return -ENOTDIR;
	err = ext2_dir_empty(fs, pos.ino, &in);
	if (err <= 0)
		return err ? err : -ENOTEMPTY;
	err = ext2_dir_remove(fs, dir, &d, &pos);
	if (!err)
		err = drop_link(fs, pos.ino, &in, true, now, gone);
	if (!err)
		err = dir_done(fs, dir, &d, -1, now);
	return err;
}

/* -EINVAL if directory `dir` is src or lies under it. Walks ".." up to
 * the root; more steps than inodes means a loop in the tree (-EIO). */
static int check_not_under(struct ext2_fs *fs, uint32_t src, uint32_t dir)
{
	uint32_t cur = dir, parent, steps;
	int err;

	for (steps = 0; steps <= fs->sb.s_inodes_count; steps++) {
		if (cur == src)
			return -EINVAL;
		if (cur == EXT2_ROOT_INO)
			return 0;
		err = ext2_lookup(fs, cur, "..", 2, &parent);
		if (err)
			return err == -ENOENT ?
				ext2_corrupt(fs, cur, "directory without \"..\"") : err;
		cur = parent;
	}
	return ext2_corrupt(fs, dir, "loop in the directory tree");
}

int ext2_rename(struct ext2_fs *fs, uint32_t odir, const char *oname, size_t olen,
		uint32_t ndir, const char *nname, size_t nlen, struct ext2_time now,
		uint32_t *gone)
{
	struct ext2_inode od, nd, src, tgt;
	struct ext2_dirpos opos, npos, dotdot, room;
	bool cross = odir != ndir, has_tgt, src_dir, tgt_dir = false;
	uint32_t sino;
	int err;

	if (gone)
		*gone = 0;
	err = ext2_check_name(nname, nlen);
	if (err)
		return err;
	if (is_dot_name(oname, olen) || is_dot_name(nname, nlen))
		return -EBUSY;
	err = find_victim(fs, odir, &od, oname, olen, &opos, &src);
	if (err)
		return err;
	sino = opos.ino;
	src_dir = is_dir(&src);
	err = get_dir(fs, ndir, &nd);
	if (err)
		return err;
	err = ext2_dir_find(fs, ndir, &nd, nname, nlen, &npos, &room);
	if (err && err != -ENOENT)
		return err;
	has_tgt = !err;
	if (has_tgt) {
		if (npos.ino == sino)
			return 0;               /* two names of one inode: nothing */
		err = ext2_iget(fs, npos.ino, &tgt);
		if (err)
			return err;
		tgt_dir = is_dir(&tgt);
		if (src_dir && !tgt_dir)
			return -ENOTDIR;
		if (!src_dir && tgt_dir)
			return -EISDIR;
		if (tgt_dir) {
			err = ext2_dir_empty(fs, npos.ino, &tgt);
			if (err <= 0)
				return err ? err : -ENOTEMPTY;
		}
	}
	if (src_dir && cross) {
		err = check_not_under(fs, sino, ndir);
		if (err)
			return err;
		if (!tgt_dir && nd.i_links_count >= EXT2_LINK_MAX)
			return -EMLINK;
	}

	/* The new name first: if it cannot be added, nothing has changed. */
	if (has_tgt) {
		err = ext2_dir_retarget(fs, ndir, &nd, &npos, sino, ext2_mode_to_ft(src.i_mode));
		if (!err)
			err = drop_link(fs, npos.ino, &tgt, tgt_dir, now, gone);
	} else {
		err = ext2_dir_add(fs, ndir, &nd, nname, nlen, sino, ext2_mode_to_ft(src.i_mode),
				   &room);
	}
	if (err)
		return err;
	/* Then the old one, found again: adding may have split the record
	 * before it. */
	err = ext2_iget(fs, odir, &od);
	if (!err)
		err = ext2_dir_find(fs, odir, &od, oname, olen, &opos, NULL);
	if (!err)
		err = ext2_dir_remove(fs, odir, &od, &opos);
	if (!err && src_dir && cross) {
		err = ext2_dir_find(fs, sino, &src, "..", 2, &dotdot, NULL);
		if (!err)
			err = ext2_dir_retarget(fs, sino, &src, &dotdot, ndir, EXT2_FT_DIR);
	}
	if (err)
		return err;
	ext2_stamp(&src, EXT2_T_C, now);
	err = ext2_iput(fs, sino, &src);
	if (!err)
		err = dir_done(fs, odir, &od, (src_dir && cross ? -1 : 0) - (!cross && tgt_dir), now);
	if (!err && cross) {
		err = ext2_iget(fs, ndir, &nd);
		if (!err)
			err = dir_done(fs, ndir, &nd, (src_dir ? 1 : 0) - tgt_dir, now);
	}
	return err;
}
