/* ext2: linear directories. A directory is a sequence of blocks, each
 * filled exactly by records (inode, rec_len, name_len, file_type, name)
 * aligned to 4 bytes; inode 0 marks an unused record. Every record is
 * checked before use (length, alignment, fit in the block, name inside
 * the record, inode number in range): a bad one is -EIO naming the
 * directory. Hash-tree (dir_index) directories read as linear ones, since
 * their index blocks look like unused records. */
#include <string.h>
#include "ext2_priv.h"

unsigned ext2_mode_to_ft(uint32_t mode)
{
	switch (mode & EXT2_S_IFMT) {
	case EXT2_S_IFREG: return EXT2_FT_REG_FILE;
	case EXT2_S_IFDIR: return EXT2_FT_DIR;
	case EXT2_S_IFCHR: return EXT2_FT_CHRDEV;
	case EXT2_S_IFBLK: return EXT2_FT_BLKDEV;
	case EXT2_S_IFIFO: return EXT2_FT_FIFO;
	case EXT2_S_IFSOCK: return EXT2_FT_SOCK;
	case EXT2_S_IFLNK: return EXT2_FT_SYMLINK;
	}
	return EXT2_FT_UNKNOWN;
}

/* DT_* values of readdir, by ext2 file type. */
static const uint8_t ft_to_dt[EXT2_FT_MAX] = { 0, 8, 4, 2, 6, 1, 12, 10 };

int ext2_check_name(const char *name, size_t len)
{
	if (!name || len == 0)
		return -ENOENT;
	if (len > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	if (memchr(name, '/', len) || memchr(name, '\0', len))
		return -EINVAL;
	return 0;
}

void ext2_dir_unindex(struct ext2_inode *dir)
{
	dir->i_flags &= ~(uint32_t)EXT2_INDEX_FL;
}

static bool has_filetype(const struct ext2_fs *fs)
{
	return fs->sb.s_feature_incompat & EXT2_FEATURE_INCOMPAT_FILETYPE;
}

/* Visits one record; returns 0 to go on, 1 to stop, or -errno. */
typedef int (*visit_fn)(struct ext2_fs *fs, void *ctx, struct ext2_buf *b, uint32_t lblk,
			uint32_t off, uint32_t prev_off, struct ext2_dirent *de);

static int check_record(struct ext2_fs *fs, uint32_t dino, const uint8_t *data,
			uint32_t lblk, uint32_t off)
{
	const struct ext2_dirent *de = (const struct ext2_dirent *)(data + off);
	uint32_t rec = de->rec_len;

	if (off + EXT2_DIRENT_HEAD > fs->bs || rec < EXT2_DIRENT_LEN(1) || (rec & 3) ||
	    off + rec > fs->bs || EXT2_DIRENT_HEAD + de->name_len > rec)
		return ext2_corrupt(fs, dino, "bad directory entry in block %u at offset %u: "
				    "rec_len %u, name_len %u", lblk, off, rec, de->name_len);
	if (de->inode > fs->sb.s_inodes_count)
		return ext2_corrupt(fs, dino, "directory entry in block %u at offset %u names "
				    "inode %u, out of range", lblk, off, de->inode);
	if (de->inode && de->name_len == 0)
		return ext2_corrupt(fs, dino, "directory entry in block %u at offset %u has "
				    "no name", lblk, off);
	return 0;
}

static int dir_blocks(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		      uint32_t *n)
{
	uint64_t size = ext2_isize(dir);

	*n = 0;
	if ((dir->i_mode & EXT2_S_IFMT) != EXT2_S_IFDIR)
		return -ENOTDIR;
	if (size % fs->bs || size / fs->bs > UINT32_MAX)
		return ext2_corrupt(fs, dino, "directory size %llu is not whole blocks",
				    (unsigned long long)size);
	*n = (uint32_t)(size / fs->bs);
	return 0;
}

/* Checks every record of a directory block once; the buffer remembers it
 * until something else changes the block. */
static int check_block(struct ext2_fs *fs, uint32_t dino, struct ext2_buf *b, uint32_t lblk)
{
	uint32_t off;
	int err;

	if (b->dir_ok)
		return 0;
	for (off = 0; off < fs->bs; off += ((struct ext2_dirent *)(b->data + off))->rec_len) {
		err = check_record(fs, dino, b->data, lblk, off);
		if (err)
			return err;
	}
	b->dir_ok = true;
	return 0;
}

int ext2_dir_block(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		   uint32_t lblk, struct ext2_buf **b)
{
	struct ext2_inode copy = *dir;  /* bmap without create does not change it */
	uint32_t pblk;
	int err = ext2_bmap(fs, dino, &copy, lblk, false, &pblk, NULL);

	if (err)
		return err;
	if (!pblk)
		return ext2_corrupt(fs, dino, "hole in directory at block %u", lblk);
	err = ext2_bread(fs, pblk, b);
	if (err)
		return err;
	err = check_block(fs, dino, *b, lblk);
	if (err)
		ext2_brelse(fs, *b);
	return err;
}

/* Walks the records from block `from`, offset `from_off`, calling visit. */
static int dir_walk(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		    uint32_t from, uint32_t from_off, visit_fn visit, void *ctx)
{
	uint32_t n, lblk, off, prev;
	struct ext2_buf *b;
	int err = dir_blocks(fs, dino, dir, &n), r = 0;

	if (err)
		return err;
	for (lblk = from; lblk < n && !r; lblk++) {
		err = ext2_dir_block(fs, dino, dir, lblk, &b);
		if (err)
			return err;
		for (off = prev = 0; off < fs->bs && !r; ) {
			struct ext2_dirent *de = (struct ext2_dirent *)(b->data + off);

			if (lblk > from || off >= from_off)
				r = visit(fs, ctx, b, lblk, off, prev, de);
			prev = off;
			off += de->rec_len;
		}
		ext2_brelse(fs, b);
	}
	return r < 0 ? r : 0;
}

/* Whether the record has slack for a new record of `need` bytes. */
static bool has_room(const struct ext2_dirent *de, uint32_t need)
{
	uint32_t used = de->inode ? EXT2_DIRENT_LEN(de->name_len) : 0;

	return de->rec_len >= used + need;
}

/* Looks for name in block lblk (and, with room, for the first record
 * there with slack for it): 0 and *pos, -ENOENT, or -errno. */
static int find_in_block(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
			 uint32_t lblk, const char *name, size_t len, struct ext2_dirpos *pos,
			 struct ext2_dirpos *room)
{
	uint32_t off, prev, need = EXT2_DIRENT_LEN(len);
	struct ext2_buf *b;
	int err = ext2_dir_block(fs, dino, dir, lblk, &b);

	if (err)
		return err;
	for (off = prev = 0; off < fs->bs; prev = off, off += ((struct ext2_dirent *)
							       (b->data + off))->rec_len) {
		const struct ext2_dirent *de = (const struct ext2_dirent *)(b->data + off);

		if (room && !room->valid && has_room(de, need))
			*room = (struct ext2_dirpos){ .lblk = lblk, .off = off, .valid = true };
		if (!name || de->name_len != len || !de->inode || memcmp(de->name, name, len))
			continue;
		*pos = (struct ext2_dirpos){ .lblk = lblk, .off = off, .prev_off = prev, .ino = de->inode,
					     .ftype = has_filetype(fs) ? de->file_type : 0 };
		ext2_brelse(fs, b);
		return 0;
	}
	ext2_brelse(fs, b);
	return -ENOENT;
}

#define DI_CANDIDATES 8

/* ext2_dir_find through the directory's name index: only the blocks the
 * name's hash points to are read, and room comes from the slack table.
 * 1 if the index cannot answer (too many candidates, out of step): the
 * caller scans. */
static int find_indexed(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
			struct ext2_dindex *d, const char *name, size_t len,
			struct ext2_dirpos *pos, struct ext2_dirpos *room)
{
	uint32_t cand[DI_CANDIDATES], k = ext2_dindex_candidates(d, name, len, cand, DI_CANDIDATES);
	int err;

	if (k == DI_CANDIDATES)
		return 1;
	for (uint32_t i = 0; i < k; i++) {
		err = find_in_block(fs, dino, dir, cand[i], name, len, pos, NULL);
		if (err != -ENOENT)
			return err;
	}
	if (room) {
		int64_t at = ext2_dindex_room(d, EXT2_DIRENT_LEN(len));

		if (at >= 0) {
			err = find_in_block(fs, dino, dir, (uint32_t)at, NULL, len, pos, room);
			if (err != -ENOENT)
				return err;
			if (!room->valid) {
				ext2_dindex_drop(fs, dino); /* the slack table was wrong */
				return 1;
			}
		}
	}
	return -ENOENT;
}

/* The hot loop of every lookup and creation, written out rather than
 * through dir_walk's callback. A directory of EXT2_DI_MIN_BLOCKS blocks
 * or more goes through its name index (dindex.c) instead: a
 * 10,000-entry directory would be scanned whole for each new name. */
int ext2_dir_find(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		  const char *name, size_t len, struct ext2_dirpos *pos,
		  struct ext2_dirpos *room)
{
	uint32_t n, lblk, off, prev, need = EXT2_DIRENT_LEN(len);
	struct ext2_dindex *d;
	struct ext2_buf *b;
	int err = dir_blocks(fs, dino, dir, &n);

	if (room)
		room->valid = false;
	if (err)
		return err;
	d = ext2_dindex_get(fs, dino, dir, n);
	if (d) {
		err = find_indexed(fs, dino, dir, d, name, len, pos, room);
		if (err <= 0)
			return err;
		if (room)
			room->valid = false;
	}
	for (lblk = 0; lblk < n; lblk++) {
		err = ext2_dir_block(fs, dino, dir, lblk, &b);
		if (err)
			return err;
		for (off = prev = 0; off < fs->bs; prev = off, off += ((struct ext2_dirent *)
								       (b->data + off))->rec_len) {
			const struct ext2_dirent *de = (const struct ext2_dirent *)(b->data + off);

			if (room && !room->valid && has_room(de, need)) {
				room->lblk = lblk;
				room->off = off;
				room->valid = true;
			}
			if (de->name_len != len || !de->inode || memcmp(de->name, name, len))
				continue;
			pos->lblk = lblk;
			pos->off = off;
			pos->prev_off = prev;
			pos->ino = de->inode;
			pos->ftype = has_filetype(fs) ? de->file_type : 0;
			ext2_brelse(fs, b);
			return 0;
		}
		ext2_brelse(fs, b);
	}
	return -ENOENT;
}

int ext2_lookup(struct ext2_fs *fs, uint32_t dir, const char *name, size_t len,
		uint32_t *ino)
{
	struct ext2_inode in;
	struct ext2_dirpos pos;
	int err = ext2_check_name(name, len);

	if (err)
		return err;
	err = ext2_iget(fs, dir, &in);
	if (!err)
		err = ext2_dir_find(fs, dir, &in, name, len, &pos, NULL);
	if (err)
		return err;
	/* An entry naming a deleted inode (free, or with a deletion time and
	 * no links) is corruption; Linux's ext2_iget refuses it too. */
	err = ext2_iget(fs, pos.ino, &in);
	if (err)
		return err;
	if (!in.i_links_count && (!in.i_mode || in.i_dtime))
		return ext2_corrupt(fs, dir, "entry \"%.*s\" names deleted inode %u",
				    (int)len, name, pos.ino);
	*ino = pos.ino;
	return 0;
}

static void put_record(struct ext2_fs *fs, struct ext2_dirent *de, uint32_t rec_len,
		       const char *name, size_t len, uint32_t ino, unsigned ftype)
{
	de->inode = ino;
	de->rec_len = (uint16_t)rec_len;
	de->name_len = (uint8_t)len;
	de->file_type = has_filetype(fs) ? (uint8_t)ftype : 0;
	memcpy(de->name, name, len);
}

/* Puts a new record into the slack of the (checked) record at off of
 * block lblk of directory dino, and tells its name index. */
static void insert_at(struct ext2_fs *fs, uint32_t dino, uint32_t lblk, struct ext2_buf *b,
		      uint32_t off, const char *name, size_t len, uint32_t ino, unsigned ftype)
{
	struct ext2_dirent *de = (struct ext2_dirent *)(b->data + off);
	uint32_t used = de->inode ? EXT2_DIRENT_LEN(de->name_len) : 0;
	uint32_t rec = de->rec_len;

	if (used) {
		de->rec_len = (uint16_t)used;
		de = (struct ext2_dirent *)(b->data + off + used);
		rec -= used;
	}
	put_record(fs, de, rec, name, len, ino, ftype);
	ext2_bdirty(fs, b);
	b->dir_ok = true;
	ext2_dindex_added(fs, dino, lblk, b->data, name, len);
}

struct add_ctx {
	uint32_t dino;
	const char *name;
	size_t len;
	uint32_t ino;
	unsigned ftype;
	bool done;      /* the entry went into an existing record's slack */
};

static int add_visit(struct ext2_fs *fs, void *ctx, struct ext2_buf *b, uint32_t lblk,
		     uint32_t off, uint32_t prev_off, struct ext2_dirent *de)
{
	struct add_ctx *c = ctx;

	(void)prev_off;
	if (!has_room(de, EXT2_DIRENT_LEN(c->len)))
		return 0;
	insert_at(fs, c->dino, lblk, b, off, c->name, c->len, c->ino, c->ftype);
	c->done = true;
	return 1;
}

/* Inserts at a room hint if that record still has the space. */
static int add_at_hint(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		       const struct ext2_dirpos *room, struct add_ctx *c)
{
	struct ext2_buf *b;
	uint32_t off;
	int err = ext2_dir_block(fs, dino, dir, room->lblk, &b);

	if (err)
		return err;
	/* the hint must still start a record */
	for (off = 0; off < room->off; off += ((struct ext2_dirent *)(b->data + off))->rec_len)
		;
	if (off == room->off && has_room((struct ext2_dirent *)(b->data + off),
					 EXT2_DIRENT_LEN(c->len))) {
		insert_at(fs, dino, room->lblk, b, off, c->name, c->len, c->ino, c->ftype);
		c->done = true;
	}
	ext2_brelse(fs, b);
	return 0;
}

int ext2_dir_add(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
		 const char *name, size_t len, uint32_t ino, unsigned ftype,
		 const struct ext2_dirpos *room)
{
	struct add_ctx c = { dino, name, len, ino, ftype, false };
	uint32_t n, pblk;
	struct ext2_buf *b;
	int err = dir_blocks(fs, dino, dir, &n);

	if (err)
		return err;
	if (room && room->valid && room->lblk < n) {
		err = add_at_hint(fs, dino, dir, room, &c);
		if (err || c.done)
			return err;
	}
	err = dir_walk(fs, dino, dir, 0, 0, add_visit, &c);
	if (err || c.done)
		return err;
	/* No room: a new block at the end holding just this entry. On
	 * failure the inode is still written: the map may hold a new
	 * indirect block. */
	err = ext2_bmap(fs, dino, dir, n, true, &pblk, NULL);
	if (!err)
		err = ext2_bzero(fs, pblk, &b);
	if (err) {
		ext2_iput(fs, dino, dir);
		return err;
	}
	put_record(fs, (struct ext2_dirent *)b->data, fs->bs, name, len, ino, ftype);
	b->dir_ok = true;
	ext2_dindex_added(fs, dino, n, b->data, name, len);
	ext2_brelse(fs, b);
	ext2_set_isize(fs, dir, (uint64_t)(n + 1) * fs->bs);
	return ext2_iput(fs, dino, dir);
}

int ext2_dir_remove(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		    const struct ext2_dirpos *pos)
{
	struct ext2_dirent *de, *prev;
	struct ext2_buf *b;
	int err = ext2_dir_block(fs, dino, dir, pos->lblk, &b);

	if (err)
		return err;
	de = (struct ext2_dirent *)(b->data + pos->off);
	char name[EXT2_NAME_LEN];
	size_t len = de->name_len;
	memcpy(name, de->name, len); /* for the name index, once the record is gone */
	if (pos->prev_off != pos->off) {
		prev = (struct ext2_dirent *)(b->data + pos->prev_off);
		prev->rec_len = (uint16_t)(prev->rec_len + de->rec_len);
	} else {
		de->inode = 0;
	}
	ext2_bdirty(fs, b);
	b->dir_ok = true;
	ext2_dindex_removed(fs, dino, pos->lblk, b->data, name, len);
	ext2_brelse(fs, b);
	return 0;
}

int ext2_dir_retarget(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
		      const struct ext2_dirpos *pos, uint32_t ino, unsigned ftype)
{
	struct ext2_dirent *de;
	struct ext2_buf *b;
	int err = ext2_dir_block(fs, dino, dir, pos->lblk, &b);

	if (err)
		return err;
	de = (struct ext2_dirent *)(b->data + pos->off);
	de->inode = ino;
	de->file_type = has_filetype(fs) ? (uint8_t)ftype : 0;
	ext2_bdirty(fs, b);
	b->dir_ok = true;
	ext2_brelse(fs, b);
	return 0;
}

static bool is_dot(const struct ext2_dirent *de)
{
	return (de->name_len == 1 && de->name[0] == '.') ||
		(de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.');
}

static int empty_visit(struct ext2_fs *fs, void *ctx, struct ext2_buf *b, uint32_t lblk,
		       uint32_t off, uint32_t prev_off, struct ext2_dirent *de)
{
	(void)fs; (void)b; (void)lblk; (void)off; (void)prev_off;
	if (!de->inode || is_dot(de))
		return 0;
	*(bool *)ctx = false;
	return 1;
}

int ext2_dir_empty(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir)
{
	bool empty = true;
	int err = dir_walk(fs, dino, dir, 0, 0, empty_visit, &empty);

	return err ? err : empty;
}

int ext2_dir_init(struct ext2_fs *fs, uint32_t dino, struct ext2_inode *dir,
		  uint32_t parent)
{
	struct ext2_dirent *de;
	struct ext2_buf *b;
	uint32_t pblk;
	int err = ext2_bmap(fs, dino, dir, 0, true, &pblk, NULL);

	if (err)
		return err;
	err = ext2_bzero(fs, pblk, &b);
	if (err)
		return err;
	de = (struct ext2_dirent *)b->data;
	put_record(fs, de, EXT2_DIRENT_LEN(1), ".", 1, dino, EXT2_FT_DIR);
	de = (struct ext2_dirent *)(b->data + EXT2_DIRENT_LEN(1));
	put_record(fs, de, fs->bs - EXT2_DIRENT_LEN(1), "..", 2, parent, EXT2_FT_DIR);
	b->dir_ok = true;
	ext2_brelse(fs, b);
	ext2_set_isize(fs, dir, fs->bs);
	return 0;
}

struct readdir_ctx {
	ext2_filldir_fn fill;
	void *ctx;
	uint64_t *cookie;
	bool stopped;
};

static int readdir_visit(struct ext2_fs *fs, void *ctx, struct ext2_buf *b, uint32_t lblk,
			 uint32_t off, uint32_t prev_off, struct ext2_dirent *de)
{
	struct readdir_ctx *c = ctx;
	uint64_t here = (uint64_t)lblk * fs->bs + off, next = here + de->rec_len;
	unsigned dt = 0;
	struct ext2_inode in;

	(void)b;
	(void)prev_off;
	if (de->inode) {
		if (has_filetype(fs))
			dt = de->file_type < EXT2_FT_MAX ? ft_to_dt[de->file_type] : 0;
		else if (ext2_iget(fs, de->inode, &in) == 0)
			dt = ft_to_dt[ext2_mode_to_ft(in.i_mode)];
		if (c->fill(c->ctx, de->name, de->name_len, de->inode, dt, next)) {
			c->stopped = true;
			return 1;
		}
	}
	*c->cookie = next;
	return 0;
}

int ext2_readdir(struct ext2_fs *fs, uint32_t dir, uint64_t *cookie,
		 ext2_filldir_fn fill, void *ctx)
{
	struct readdir_ctx c = { fill, ctx, cookie, false };
	struct ext2_inode in;
	uint64_t size;
	int err;

	if (!cookie || !fill)
		return -EINVAL;
	err = ext2_iget(fs, dir, &in);
	if (err)
		return err;
	if ((in.i_mode & EXT2_S_IFMT) != EXT2_S_IFDIR)
		return -ENOTDIR;
	size = ext2_isize(&in);
	if (*cookie >= size)
		return 0;
	/* A cookie may point inside a record that changed since it was
	 * handed out: the walk resumes at the first record starting at or
	 * after it. */
	err = dir_walk(fs, dir, &in, (uint32_t)(*cookie / fs->bs),
		       (uint32_t)(*cookie % fs->bs), readdir_visit, &c);
	if (err)
		return err;
	if (!c.stopped)
		*cookie = size;
	return 0;
}
