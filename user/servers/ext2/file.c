/* ext2: regular files' data: read and write at any offset through the
 * block map and the block cache, truncate. Bytes past the size in the last
 * block are kept zero (zeroed when the size moves down or up across them),
 * so a later extension reads zeros there as in a hole. */
#include <stdlib.h>
#include <string.h>
#include "ext2_priv.h"

static int regular(const struct ext2_inode *in)
{
	uint32_t t = in->i_mode & EXT2_S_IFMT;

	if (t == EXT2_S_IFDIR)
		return -EISDIR;
	return t == EXT2_S_IFREG ? 0 : -EINVAL;
}

/* How many whole blocks from logical block lblk (at pblk, not cached) are
 * also consecutive on the disk, valid and not cached, up to max: a run a
 * read moves in one device call straight into the caller's buffer. */
static uint32_t direct_run(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t lblk,
			   uint32_t pblk, uint32_t max)
{
	uint32_t n = 1, next;

	while (n < max && n < EXT2_RUN_MAX) {
		if (ext2_bmap(fs, ino, in, lblk + n, false, &next, NULL) || next != pblk + n ||
		    !ext2_block_valid(fs, next) || ext2_bcached(fs, next))
			break;
		n++;
	}
	return n;
}

/* A read's inode (*in, a regular file) and how many of len bytes at off
 * it has (*n, at most INT64_MAX): 1, or 0 at or past the end, or -errno. */
static int read_span(struct ext2_fs *fs, uint32_t ino, uint64_t off, size_t len, struct ext2_inode *in,
		     uint64_t *n)
{
	int err = ext2_iget(fs, ino, in);
	if (!err)
		err = regular(in);
	if (err)
		return err;
	uint64_t size = ext2_isize(in);
	if (off >= size)
		return 0;
	*n = size - off < len ? size - off : len;
	if (*n > INT64_MAX)
		*n = INT64_MAX;
	return 1;
}

int64_t ext2_read(struct ext2_fs *fs, uint32_t ino, uint64_t off, void *buf, size_t len)
{
	struct ext2_inode in;
	struct ext2_buf *b;
	uint64_t n, done = 0;
	uint32_t pblk, boff, chunk;
	int err;

	if (!buf && len)
		return -EFAULT;
	err = read_span(fs, ino, off, len, &in, &n);
	if (err <= 0)
		return err;
	while (done < n) {
		boff = (uint32_t)((off + done) & (fs->bs - 1));
		chunk = fs->bs - boff;
		if (chunk > n - done)
			chunk = (uint32_t)(n - done);
		err = ext2_bmap(fs, ino, &in, (off + done) >> fs->log_bs, false, &pblk, NULL);
		if (err)
			return done ? (int64_t)done : err;
		if (!pblk) {
			memset((uint8_t *)buf + done, 0, chunk);
		} else if (boff == 0 && chunk == fs->bs && ext2_block_valid(fs, pblk) &&
			   !ext2_bcached(fs, pblk)) {
			/* Whole blocks not in the cache: read straight into buf, a
			 * run of them at once, leaving the cache to the metadata
			 * (the page cache holds file data). */
			uint64_t whole = (n - done) >> fs->log_bs;
			uint32_t run = direct_run(fs, ino, &in, (off + done) >> fs->log_bs, pblk,
						  whole < EXT2_RUN_MAX ? (uint32_t)whole : EXT2_RUN_MAX);
			err = ext2_dev_rw(fs, false, pblk, run, (uint8_t *)buf + done);
			if (err)
				return done ? (int64_t)done : -EIO;
			chunk = run << fs->log_bs;
		} else {
			err = ext2_bread(fs, pblk, &b);
			if (err)
				return done ? (int64_t)done : err;
			memcpy((uint8_t *)buf + done, b->data + boff, chunk);
			ext2_brelse(fs, b);
		}
		done += chunk;
	}
	return (int64_t)done;
}

/* Longest run of data blocks of the file from logical block lb on (at
 * most max) that lie one after another on the disk from *pblk and are
 * not in the block cache; *pblk is lb's block (0: a hole, a run of 1;
 * cached: a run of 1 with *cached). */
static int data_run(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t lb, uint64_t max,
		    uint32_t *pblk, bool *cached, uint64_t *run)
{
	uint32_t next;
	int err = ext2_bmap(fs, ino, in, lb, false, pblk, NULL);

	*run = 1;
	*cached = false;
	if (err || !*pblk)
		return err;
	if (ext2_bcached(fs, *pblk)) {
		*cached = true;
		return 0;
	}
	while (*run < max) {
		err = ext2_bmap(fs, ino, in, lb + *run, false, &next, NULL);
		if (err)
			return err;
		if (next != *pblk + *run || ext2_bcached(fs, next))
			break;
		(*run)++;
	}
	return 0;
}

int64_t ext2_read_direct(struct ext2_fs *fs, uint32_t ino, uint64_t off, void *buf, size_t len)
{
	struct ext2_inode in;
	uint64_t n, lb, end, run;
	uint32_t pblk;
	bool cached;
	int err;

	if (!buf && len)
		return -EFAULT;
	if (off & (fs->bs - 1))
		return -EINVAL;
	err = read_span(fs, ino, off, len, &in, &n);
	if (err <= 0)
		return err;
	lb = off >> fs->log_bs;
	end = (off + n + fs->bs - 1) >> fs->log_bs;
	for (uint64_t at = lb; at < end; at += run) {
		uint8_t *dst = (uint8_t *)buf + ((at - lb) << fs->log_bs);
		err = data_run(fs, ino, &in, at, end - at, &pblk, &cached, &run);
		if (!err && !pblk)
			memset(dst, 0, fs->bs);
		else if (!err && cached)
			memcpy(dst, ext2_bcached(fs, pblk), fs->bs);
		else if (!err && ext2_dev_rw(fs, false, pblk, (uint32_t)run, dst))
			err = -EIO;
		if (err) {
			uint64_t done = (at - lb) << fs->log_bs;
			return done ? (int64_t)(done < n ? done : n) : err;
		}
	}
	if ((end - lb) << fs->log_bs > n) /* the last block's bytes past the size */
		memset((uint8_t *)buf + n, 0, ((end - lb) << fs->log_bs) - n);
	return (int64_t)n;
}

int64_t ext2_read_grant(struct ext2_fs *fs, uint32_t ino, uint64_t off, size_t len)
{
	struct ext2_inode in;
	uint64_t n, lb, end, run;
	uint32_t pblk;
	bool cached;
	int err;

	if (!fs->dev->read_grant)
		return -EOPNOTSUPP;
	if ((off | len) & (fs->bs - 1))
		return -EINVAL;
	err = read_span(fs, ino, off, len, &in, &n);
	if (err < 0)
		return err;
	if (err == 0 || n != len)
		return -EAGAIN; /* past the size: zeros the device does not give */
	lb = off >> fs->log_bs;
	end = lb + (len >> fs->log_bs);
	/* all of it on the disk and not cached, before any is read */
	for (uint64_t at = lb; at < end; at += run) {
		err = data_run(fs, ino, &in, at, end - at, &pblk, &cached, &run);
		if (err)
			return err;
		if (!pblk || cached || !ext2_block_valid(fs, pblk))
			return -EAGAIN;
	}
	for (uint64_t at = lb; at < end; at += run) {
		err = data_run(fs, ino, &in, at, end - at, &pblk, &cached, &run);
		if (err)
			return err;
		uint64_t sector = (uint64_t)pblk * fs->sectors_per_block, count = run * fs->sectors_per_block;
		if (count > UINT32_MAX || sector + count > fs->dev->nsectors)
			return -EIO;
		err = fs->dev->read_grant(fs->dev->ctx, sector, (uint32_t)count, (at - lb) << fs->log_bs);
		if (err)
			return err;
	}
	return (int64_t)len;
}

/* Zeroes the bytes from `size` to the end of its block, if mapped. */
static int zero_tail(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t size)
{
	uint32_t boff = (uint32_t)(size & (fs->bs - 1)), pblk;
	struct ext2_buf *b;
	int err;

	if (!boff)
		return 0;
	err = ext2_bmap(fs, ino, in, size >> fs->log_bs, false, &pblk, NULL);
	if (err || !pblk)
		return err;
	err = ext2_bread(fs, pblk, &b);
	if (err)
		return err;
	memset(b->data + boff, 0, fs->bs - boff);
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	return 0;
}

int64_t ext2_write_grant(struct ext2_fs *fs, uint32_t ino, uint64_t off, size_t len, struct ext2_time now)
{
	struct ext2_inode in;
	uint64_t lb, end, at, run, size;
	uint32_t pblk;
	bool cached;
	int err, werr;

	if (!fs->dev->write_grant)
		return -EOPNOTSUPP;
	if (fs->rdonly)
		return -EROFS;
	if (len == 0 || ((off | len) & (fs->bs - 1)))
		return -EINVAL;
	err = ext2_iget(fs, ino, &in);
	if (!err)
		err = regular(&in);
	if (err)
		return err;
	if (off >= ext2_max_file_size(fs) || len > ext2_max_file_size(fs) - off)
		return -EFBIG;
	lb = off >> fs->log_bs;
	end = lb + (len >> fs->log_bs);
	/* a block the cache holds dirty or in use: its bytes are not the
	 * caller's to overwrite from under it; before anything changes */
	for (at = lb; at < end; at++) {
		err = ext2_bmap(fs, ino, &in, at, false, &pblk, NULL);
		if (err)
			return err;
		if (pblk && ext2_bbusy(fs, pblk))
			return -EAGAIN;
	}
	size = ext2_isize(&in);
	if (off > size) {
		err = zero_tail(fs, ino, &in, size);
		if (err)
			return err;
	}
	/* the map first: a new block's zeroed buffer, and an old block's
	 * clean one, would be stale once the device wrote it */
	for (at = lb; at < end; at++) {
		err = ext2_bmap(fs, ino, &in, at, true, &pblk, NULL);
		if (err)
			break;
		ext2_bforget(fs, pblk);
	}
	for (at = lb; !err && at < end; at += run) {
		err = data_run(fs, ino, &in, at, end - at, &pblk, &cached, &run);
		if (err)
			break;
		uint64_t sector = (uint64_t)pblk * fs->sectors_per_block, count = run * fs->sectors_per_block;
		/* every block mapped, none cached (dropped above) */
		if (!pblk || cached || !ext2_block_valid(fs, pblk) || count > UINT32_MAX ||
		    sector + count > fs->dev->nsectors)
			err = -EIO;
		else
			err = fs->dev->write_grant(fs->dev->ctx, sector, (uint32_t)count, (at - lb) << fs->log_bs);
	}
	if (!err && off + len > size)
		ext2_set_isize(fs, &in, off + len);
	if (!err)
		ext2_stamp(&in, EXT2_T_M | EXT2_T_C, now);
	werr = ext2_iput(fs, ino, &in); /* even on failure: the map may have grown */
	return err ? err : werr ? werr : (int64_t)len;
}

/* Writes one block's part of the data; whole blocks are not read first. */
static int write_block(struct ext2_fs *fs, uint32_t pblk, uint32_t boff,
		       const uint8_t *src, uint32_t chunk)
{
	struct ext2_buf *b;
	int err;

	/* A block just allocated is zero (and cached) already. */
	err = chunk == fs->bs ? ext2_bzero(fs, pblk, &b) : ext2_bread(fs, pblk, &b);
	if (err)
		return err;
	memcpy(b->data + boff, src, chunk);
	ext2_bdirty(fs, b);
	ext2_brelse(fs, b);
	return 0;
}

int64_t ext2_write(struct ext2_fs *fs, uint32_t ino, uint64_t off, const void *buf,
		   size_t len, struct ext2_time now)
{
	struct ext2_inode in;
	uint64_t size, max = ext2_max_file_size(fs), done = 0;
	uint32_t pblk, boff, chunk;
	int err, werr;

	if (!buf && len)
		return -EFAULT;
	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, ino, &in);
	if (err)
		return err;
	err = regular(&in);
	if (err)
		return err;
	if (len == 0)
		return 0;
	if (off >= max)
		return -EFBIG;
	if (len > max - off)
		len = (size_t)(max - off);
	if (len > INT64_MAX)
		len = INT64_MAX;
	size = ext2_isize(&in);
	if (off > size) {
		err = zero_tail(fs, ino, &in, size);
		if (err)
			return err;
	}
	while (done < len) {
		boff = (uint32_t)((off + done) & (fs->bs - 1));
		chunk = fs->bs - boff;
		if (chunk > len - done)
			chunk = (uint32_t)(len - done);
		err = ext2_bmap(fs, ino, &in, (off + done) >> fs->log_bs, true, &pblk, NULL);
		if (!err)
			err = write_block(fs, pblk, boff, (const uint8_t *)buf + done, chunk);
		if (err)
			break;
		done += chunk;
	}
	if (done && off + done > size)
		ext2_set_isize(fs, &in, off + done);
	if (done)
		ext2_stamp(&in, EXT2_T_M | EXT2_T_C, now);
	/* The inode is written even on failure: the map may have grown. */
	werr = ext2_iput(fs, ino, &in);
	if (done)
		return werr ? werr : (int64_t)done;
	return err ? err : werr;
}

/* The disk blocks of the file's bytes [off, off+len), ascending, holes
 * left out: *out (malloc'ed, NULL when none) and their count, or an error. */
static int data_blocks(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len, uint32_t **out, uint32_t *count)
{
	struct ext2_inode in;
	uint64_t first, last, l;
	uint32_t *blks, n = 0, pblk;
	int err;

	*out = NULL;
	*count = 0;
	if (len == 0)
		return 0;
	err = ext2_iget(fs, ino, &in);
	if (err)
		return err;
	first = off >> fs->log_bs;
	last = (off + len - 1) >> fs->log_bs;
	if (last - first >= (1u << 16))
		return -EINVAL;
	blks = malloc((size_t)(last - first + 1) * sizeof(*blks));
	if (!blks)
		return -ENOMEM;
	for (l = first; l <= last; l++) {
		err = ext2_bmap(fs, ino, &in, l, false, &pblk, NULL);
		if (err) {
			free(blks);
			return err;
		}
		if (pblk) /* a hole has nothing to write */
			blks[n++] = pblk;
	}
	/* ascending for runs: a file's blocks mostly are already */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t k = i; k > 0 && blks[k - 1] > blks[k]; k--) {
			uint32_t t = blks[k];

			blks[k] = blks[k - 1];
			blks[k - 1] = t;
		}
	*out = blks;
	*count = n;
	return 0;
}

int ext2_write_data_back(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len)
{
	uint32_t *blks, n;
	int err = data_blocks(fs, ino, off, len, &blks, &n);

	if (!err && n)
		err = ext2_bwrite_blocks(fs, blks, n);
	free(blks);
	return err;
}

int ext2_write_data_sync(struct ext2_fs *fs, uint32_t ino, uint64_t off, uint64_t len)
{
	uint32_t *blks, n;
	int err = data_blocks(fs, ino, off, len, &blks, &n);

	if (!err && n && fs->dev->writev && ext2_bonly_dirty(fs, blks, n)) {
		/* all that is dirty: ext2_sync_flush sends them, the flush
		 * with the last call (as the caller acts now: their owner) */
		free(blks);
		err = ext2_sync_flush(fs);
		return err ? err : 1;
	}
	if (!err && n)
		err = ext2_bwrite_blocks(fs, blks, n);
	free(blks);
	return err;
}

int ext2_truncate(struct ext2_fs *fs, uint32_t ino, uint64_t size, struct ext2_time now)
{
	struct ext2_inode in;
	uint64_t old;
	int err;

	if (fs->rdonly)
		return -EROFS;
	err = ext2_iget(fs, ino, &in);
	if (err)
		return err;
	err = regular(&in);
	if (err)
		return err;
	if (size > ext2_max_file_size(fs))
		return -EFBIG;
	old = ext2_isize(&in);
	if (size < old) {
		err = ext2_free_blocks_from(fs, ino, &in, (size + fs->bs - 1) >> fs->log_bs);
		if (!err)
			err = zero_tail(fs, ino, &in, size);
	} else if (size > old) {
		err = zero_tail(fs, ino, &in, old);
	}
	if (!err)
		ext2_set_isize(fs, &in, size);
	ext2_stamp(&in, EXT2_T_M | EXT2_T_C, now);
	{
		int werr = ext2_iput(fs, ino, &in);

		return err ? err : werr;
	}
}
