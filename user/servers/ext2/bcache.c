/* ext2: a write-back cache of whole file-system blocks. Every metadata
 * access (superblock excepted) and file data go through it; buffers are
 * found through a hash table and evicted least-recently-used first,
 * written back on eviction when dirty. Held buffers are never evicted, so
 * the cache may exceed its bound briefly while many are held. */
#include <stdlib.h>
#include <string.h>
#include "ext2_priv.h"

int ext2_dev_rw(struct ext2_fs *fs, bool write, uint64_t blk, uint32_t count, void *buf)
{
	uint64_t sector = blk * fs->sectors_per_block;
	uint64_t n = (uint64_t)count * fs->sectors_per_block;

	if (n > UINT32_MAX || sector + n > fs->dev->nsectors)
		return -EIO;
	if (write)
		return fs->dev->write(fs->dev->ctx, sector, (uint32_t)n, buf);
	return fs->dev->read(fs->dev->ctx, sector, (uint32_t)n, buf);
}

int ext2_bcache_init(struct ext2_fs *fs, uint32_t cap)
{
	struct ext2_bcache *c = &fs->cache;
	uint32_t n = 64;

	while (n < cap && n < (1u << 20))
		n <<= 1;
	memset(c, 0, sizeof(*c));
	c->hash = calloc(n, sizeof(*c->hash));
	if (!c->hash)
		return -ENOMEM;
	c->hmask = n - 1;
	c->cap = cap;
	return 0;
}

static void lru_unlink(struct ext2_bcache *c, struct ext2_buf *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		c->head = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		c->tail = b->prev;
	b->prev = b->next = NULL;
}

static void lru_push(struct ext2_bcache *c, struct ext2_buf *b)
{
	b->prev = NULL;
	b->next = c->head;
	if (c->head)
		c->head->prev = b;
	c->head = b;
	if (!c->tail)
		c->tail = b;
}

static void hash_remove(struct ext2_bcache *c, struct ext2_buf *b)
{
	struct ext2_buf **pp = &c->hash[b->blk & c->hmask];

	while (*pp != b)
		pp = &(*pp)->hnext;
	*pp = b->hnext;
}

/* b written (or its block freed): not dirty any more. */
static void buf_clean(struct ext2_fs *fs, struct ext2_buf *b)
{
	if (!b->dirty)
		return;
	if (b->dprev)
		b->dprev->dnext = b->dnext;
	else
		fs->cache.dirty = b->dnext;
	if (b->dnext)
		b->dnext->dprev = b->dprev;
	fs->cache.ndirty--;
	b->dirty = false;
}

static int cmp_blk(const void *a, const void *b);

/* The dirty buffers into a new array, in block order: how many, or
 * -ENOMEM (*out NULL when none). */
static long dirty_sorted(struct ext2_fs *fs, struct ext2_buf ***out)
{
	struct ext2_buf **list, *b;
	uint32_t n = 0;

	*out = NULL;
	if (!fs->cache.ndirty)
		return 0;
	list = malloc(fs->cache.ndirty * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (b = fs->cache.dirty; b; b = b->dnext)
		list[n++] = b;
	qsort(list, n, sizeof(*list), cmp_blk);
	*out = list;
	return n;
}

static void buf_free(struct ext2_fs *fs, struct ext2_buf *b)
{
	buf_clean(fs, b);
	hash_remove(&fs->cache, b);
	lru_unlink(&fs->cache, b);
	fs->cache.count--;
	free(b);
}

static struct ext2_buf *lookup(struct ext2_fs *fs, uint32_t blk);

/* The dirty buffers of the blocks right after b's (b's own first), at most
 * EXT2_RUN_MAX: a write-back sends them in one device call. */
static uint32_t dirty_run(struct ext2_fs *fs, struct ext2_buf *b, struct ext2_buf **run)
{
	uint32_t n = 0;

	run[n++] = b;
	while (n < EXT2_RUN_MAX && b->blk + n < fs->sb.s_blocks_count) {
		struct ext2_buf *next = lookup(fs, b->blk + n);

		if (!next || !next->dirty)
			break;
		run[n++] = next;
	}
	return n;
}

/* Writes run[0..n) (neighbouring blocks on the disk, n >= 1) in one
 * device call, through the staging buffer when n > 1; on success they
 * are clean, on failure they stay dirty and fs->io_error keeps the first
 * error. 0 or that error. */
static int run_write(struct ext2_fs *fs, struct ext2_buf *const *run, uint32_t n)
{
	int err;

	if (n == 1) {
		err = ext2_dev_rw(fs, true, run[0]->blk, 1, run[0]->data);
	} else {
		for (uint32_t i = 0; i < n; i++)
			memcpy(fs->cache.stage + (size_t)i * fs->bs, run[i]->data, fs->bs);
		err = ext2_dev_rw(fs, true, run[0]->blk, n, fs->cache.stage);
	}
	if (err) {
		if (!fs->io_error)
			fs->io_error = err;
		return err;
	}
	for (uint32_t i = 0; i < n; i++)
		buf_clean(fs, run[i]);
	return 0;
}

/* Writes b back if dirty, with the dirty blocks that follow it on the disk
 * (one device call instead of one per block: a sequential write leaves
 * long runs), through the staging buffer; a run of one goes directly. */
static int buf_writeback(struct ext2_fs *fs, struct ext2_buf *b)
{
	struct ext2_buf *run[EXT2_RUN_MAX];
	uint32_t n;

	if (!b->dirty)
		return 0;
	if (!fs->cache.stage)
		fs->cache.stage = malloc((size_t)EXT2_RUN_MAX * fs->bs);
	n = fs->cache.stage ? dirty_run(fs, b, run) : 1;
	run[0] = b;
	return run_write(fs, run, n);
}

/* Evicts unheld buffers from the cold end until the cache is under its
 * bound. A buffer that fails to write back stays (and stays dirty). */
static void evict(struct ext2_fs *fs)
{
	struct ext2_buf *b = fs->cache.tail, *prev;

	while (b && fs->cache.count >= fs->cache.cap) {
		prev = b->prev;
		if (!b->refs && buf_writeback(fs, b) == 0)
			buf_free(fs, b);
		b = prev;
	}
}

static struct ext2_buf *lookup(struct ext2_fs *fs, uint32_t blk)
{
	struct ext2_buf *b;

	for (b = fs->cache.hash[blk & fs->cache.hmask]; b; b = b->hnext)
		if (b->blk == blk)
			return b;
	return NULL;
}

static struct ext2_buf *buf_new(struct ext2_fs *fs, uint32_t blk)
{
	struct ext2_bcache *c = &fs->cache;
	struct ext2_buf *b;

	evict(fs);
	b = malloc(sizeof(*b) + fs->bs);
	if (!b)
		return NULL;
	memset(b, 0, sizeof(*b));
	b->data = (uint8_t *)(b + 1);
	b->blk = blk;
	b->hnext = c->hash[blk & c->hmask];
	c->hash[blk & c->hmask] = b;
	lru_push(c, b);
	c->count++;
	return b;
}

static struct ext2_buf *hold(struct ext2_fs *fs, struct ext2_buf *b)
{
	lru_unlink(&fs->cache, b);
	lru_push(&fs->cache, b);
	b->refs++;
	return b;
}

int ext2_bread(struct ext2_fs *fs, uint32_t blk, struct ext2_buf **out)
{
	struct ext2_buf *b;
	int err;

	if (blk >= fs->sb.s_blocks_count)
		return ext2_corrupt(fs, 0, "access to block %u past the end (%u blocks)",
				    blk, fs->sb.s_blocks_count);
	b = lookup(fs, blk);
	if (!b) {
		b = buf_new(fs, blk);
		if (!b)
			return -ENOMEM;
		err = ext2_dev_rw(fs, false, blk, 1, b->data);
		if (err) {
			buf_free(fs, b);
			return -EIO;
		}
	}
	*out = hold(fs, b);
	return 0;
}

void ext2_bread_ahead(struct ext2_fs *fs, uint32_t blk, uint32_t count)
{
	struct ext2_bcache *c = &fs->cache;
	uint32_t n = 0;

	if (count > EXT2_RA_MAX)
		count = EXT2_RA_MAX;
	while (n < count && blk + n < fs->sb.s_blocks_count && !lookup(fs, blk + n))
		n++;
	if (n < 2)
		return; /* nothing to gain over the caller's own read */
	if (!c->ra && !(c->ra = malloc((size_t)EXT2_RA_MAX * fs->bs)))
		return;
	if (ext2_dev_rw(fs, false, blk, n, c->ra))
		return; /* the caller's read reports it */
	/* the wanted block last: the most recently used of them */
	for (uint32_t i = n; i-- > 0;) {
		struct ext2_buf *b = lookup(fs, blk + i) ? NULL : buf_new(fs, blk + i);
		if (b)
			memcpy(b->data, c->ra + (size_t)i * fs->bs, fs->bs);
	}
}

int ext2_bzero(struct ext2_fs *fs, uint32_t blk, struct ext2_buf **out)
{
	struct ext2_buf *b;

	if (blk >= fs->sb.s_blocks_count)
		return ext2_corrupt(fs, 0, "access to block %u past the end", blk);
	b = lookup(fs, blk);
	if (!b) {
		b = buf_new(fs, blk);
		if (!b)
			return -ENOMEM;
	}
	memset(b->data, 0, fs->bs);
	ext2_bdirty(fs, b);
	*out = hold(fs, b);
	return 0;
}

const uint8_t *ext2_bcached(struct ext2_fs *fs, uint32_t blk)
{
	struct ext2_buf *b = lookup(fs, blk);

	return b ? b->data : NULL;
}

void ext2_brelse(struct ext2_fs *fs, struct ext2_buf *b)
{
	(void)fs;
	if (b && b->refs)
		b->refs--;
}

void ext2_bforget(struct ext2_fs *fs, uint32_t blk)
{
	struct ext2_buf *b = lookup(fs, blk);

	if (b && !b->refs)
		buf_free(fs, b);
}

bool ext2_bbusy(struct ext2_fs *fs, uint32_t blk)
{
	struct ext2_buf *b = lookup(fs, blk);

	return b && (b->dirty || b->refs);
}

static int cmp_blk(const void *a, const void *b)
{
	uint32_t x = (*(struct ext2_buf *const *)a)->blk;
	uint32_t y = (*(struct ext2_buf *const *)b)->blk;

	return x < y ? -1 : x > y;
}

int ext2_bcache_flush(struct ext2_fs *fs)
{
	struct ext2_buf **list;
	long n = dirty_sorted(fs, &list);
	int err = 0, e;

	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++) {
		e = buf_writeback(fs, list[i]);
		if (e && !err)
			err = e;
	}
	free(list);
	return err;
}

int ext2_wvec_send(struct ext2_fs *fs, struct ext2_wvec *v, bool flush)
{
	int err = 0;

	if (v->n)
		err = fs->dev->writev(fs->dev->ctx, v->seg, v->n, flush);
	else if (flush && fs->dev->flush)
		err = fs->dev->flush(fs->dev->ctx);
	for (uint32_t i = 0; i < v->n && !err; i++) {
		if (v->what[i].kind == EXT2_WV_SUPER) {
			fs->sb_dirty = false;
		} else if (v->what[i].kind == EXT2_WV_GD) {
			fs->gd_dirty[v->what[i].blk] = false;
		} else {
			for (uint32_t k = 0; k < v->what[i].count; k++) {
				struct ext2_buf *b = lookup(fs, v->what[i].blk + k);

				if (b) /* nothing ran between the copy and the send */
					buf_clean(fs, b);
			}
		}
	}
	if (err && !fs->io_error)
		fs->io_error = err;
	v->n = v->staged = 0;
	v->bytes = 0;
	return err;
}

int ext2_wvec_add(struct ext2_fs *fs, struct ext2_wvec *v, uint8_t kind, uint32_t blk, uint32_t count,
		  uint64_t sector, uint32_t nsec, const void *buf)
{
	uint64_t bytes = (uint64_t)nsec * EXT2_SECTOR_SIZE;
	int err = 0;

	if (v->n == EXT2_VEC_SEGS || v->bytes + bytes > EXT2_VEC_BYTES)
		err = ext2_wvec_send(fs, v, false);
	v->seg[v->n] = (struct ext2_seg){ .sector = sector, .count = nsec, .buf = buf };
	v->what[v->n].kind = kind;
	v->what[v->n].blk = blk;
	v->what[v->n].count = count;
	v->n++;
	v->bytes += bytes;
	return err;
}

int ext2_bcache_flush_vec(struct ext2_fs *fs, struct ext2_wvec *v)
{
	struct ext2_buf **list, *run[EXT2_RUN_MAX];
	uint32_t i, k, len;
	int err = 0, e;

	if (!fs->cache.stage && !(fs->cache.stage = malloc((size_t)EXT2_RUN_MAX * fs->bs)))
		return ext2_bcache_flush(fs);
	long got = dirty_sorted(fs, &list);
	if (got < 0)
		return (int)got;
	uint32_t n = (uint32_t)got;
	/* a run's blocks are the next entries of the sorted list */
	for (i = 0; i < n; i += len) {
		len = dirty_run(fs, list[i], run);
		if ((uint64_t)len * fs->bs > EXT2_VEC_BYTES) {
			/* a long run: a call of its own, through the stage, which
			 * the vector's runs leave first */
			e = ext2_wvec_send(fs, v, false);
			if (!e)
				e = buf_writeback(fs, list[i]);
		} else {
			e = 0;
			if (v->n == EXT2_VEC_SEGS || v->bytes + (uint64_t)len * fs->bs > EXT2_VEC_BYTES)
				e = ext2_wvec_send(fs, v, false);
			/* the run's blocks side by side in the stage (the vector's
			 * until sent: EXT2_VEC_BYTES fit, EXT2_RUN_MAX blocks) */
			uint8_t *at = fs->cache.stage + v->staged;
			for (k = 0; k < len; k++)
				memcpy(at + (size_t)k * fs->bs, run[k]->data, fs->bs);
			v->staged += len * fs->bs;
			v->seg[v->n] = (struct ext2_seg){ .sector = (uint64_t)run[0]->blk * fs->sectors_per_block,
							  .count = len * fs->sectors_per_block, .buf = at };
			v->what[v->n].kind = EXT2_WV_BLOCKS;
			v->what[v->n].blk = run[0]->blk;
			v->what[v->n].count = len;
			v->n++;
			v->bytes += (uint64_t)len * fs->bs;
		}
		if (e && !err)
			err = e;
	}
	free(list);
	return err;
}

/* Writes the dirty buffers among blks[0..n) (ascending block numbers;
 * absent or clean ones skipped), a device call per run of neighbouring
 * ones: only those, never the dirty blocks around them (they may be
 * another owner's, or metadata). */
int ext2_bwrite_blocks(struct ext2_fs *fs, const uint32_t *blks, uint32_t n)
{
	struct ext2_buf *run[EXT2_RUN_MAX];
	uint32_t i = 0, len;
	int err = 0, e;

	if (!fs->cache.stage)
		fs->cache.stage = malloc((size_t)EXT2_RUN_MAX * fs->bs);
	while (i < n) {
		struct ext2_buf *b = lookup(fs, blks[i++]);

		if (!b || !b->dirty)
			continue;
		len = 0;
		run[len++] = b;
		while (fs->cache.stage && len < EXT2_RUN_MAX && i < n && blks[i] == b->blk + len) {
			struct ext2_buf *next = lookup(fs, blks[i]);

			if (!next || !next->dirty)
				break;
			run[len++] = next;
			i++;
		}
		e = run_write(fs, run, len);
		if (e && !err)
			err = e;
	}
	return err;
}

bool ext2_bonly_dirty(struct ext2_fs *fs, const uint32_t *blks, uint32_t n)
{
	uint32_t dirty = 0, i;

	if (fs->sb_dirty)
		return false;
	for (i = 0; i < fs->gdt_blocks; i++)
		if (fs->gd_dirty[i])
			return false;
	for (i = 0; i < n; i++) {
		struct ext2_buf *b = lookup(fs, blks[i]);

		dirty += b && b->dirty;
	}
	return dirty && dirty == fs->cache.ndirty;
}

void ext2_bcache_destroy(struct ext2_fs *fs)
{
	while (fs->cache.head)
		buf_free(fs, fs->cache.head);
	free(fs->cache.hash);
	fs->cache.hash = NULL;
	free(fs->cache.stage);
	fs->cache.stage = NULL;
	free(fs->cache.ra);
	fs->cache.ra = NULL;
}
