/* ext2: an in-memory name index for large linear directories. ext2 keeps
 * no index on disk that the core maintains (docs/fs.md), so a lookup or a
 * creation scans the whole directory: 10,000 creations in one directory
 * read 50 million records. For a directory of at least EXT2_DI_MIN_BLOCKS
 * blocks, the first search builds (in one scan, the cost of one linear
 * search) a hash table from each name's hash to the directory block that
 * holds it, and the largest free slack of every block; dir.c keeps both
 * up to date as it adds and removes records. A search then reads only the
 * blocks its name's hash points to (checking the name there, as the scan
 * would), and a creation finds room from the slack table. Nothing of it is
 * on the disk. An index whose directory changes size behind it (or that
 * meets an error) is dropped and built again; a freed inode drops its
 * index. At most EXT2_DI_MAX directories are indexed, the least recently
 * used dropped first. */
#include <stdlib.h>
#include <string.h>
#include "ext2_priv.h"

#define DI_EMPTY 0u		/* a slot never used */
#define DI_TOMB 0xffffffffu	/* a slot whose entry was removed */

struct di_slot {
	uint32_t hash;
	uint32_t lblk;		/* DI_EMPTY, DI_TOMB, or the block + 1 */
};

struct ext2_dindex {
	uint32_t dino;
	uint32_t nblocks;	/* the directory's size in blocks, as indexed */
	uint32_t cap, used;	/* slots (a power of two); live + tombstones */
	struct di_slot *slots;
	uint16_t *slack;	/* per block: the largest record slack */
	uint64_t tick;		/* last use, for eviction */
	struct ext2_dindex *next;
};

/* FNV-1a: names in one directory spread well; collisions only cost a
 * block read that finds nothing. */
static uint32_t di_hash(const char *name, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	return h;
}

static struct ext2_dindex *di_find(struct ext2_fs *fs, uint32_t dino)
{
	for (struct ext2_dindex *d = fs->dindex; d; d = d->next)
		if (d->dino == dino)
			return d;
	return NULL;
}

static void di_free(struct ext2_dindex *d)
{
	free(d->slots);
	free(d->slack);
	free(d);
}

void ext2_dindex_drop(struct ext2_fs *fs, uint32_t dino)
{
	for (struct ext2_dindex **pp = &fs->dindex; *pp; pp = &(*pp)->next)
		if ((*pp)->dino == dino) {
			struct ext2_dindex *d = *pp;

			*pp = d->next;
			fs->ndindex--;
			di_free(d);
			return;
		}
}

void ext2_dindex_destroy(struct ext2_fs *fs)
{
	while (fs->dindex)
		ext2_dindex_drop(fs, fs->dindex->dino);
}

/* Puts (hash, lblk) into a table known to have a free slot. */
static void di_put(struct di_slot *slots, uint32_t cap, uint32_t hash, uint32_t lblk)
{
	uint32_t i = hash & (cap - 1);

	while (slots[i].lblk != DI_EMPTY && slots[i].lblk != DI_TOMB)
		i = (i + 1) & (cap - 1);
	slots[i] = (struct di_slot){ hash, lblk + 1 };
}

/* Room for one more entry: the table doubles (or is cleaned of
 * tombstones) past three quarters full. 0 or -ENOMEM. */
static int di_reserve(struct ext2_dindex *d)
{
	uint32_t live = 0, cap = d->cap, i;
	struct di_slot *slots;

	if ((uint64_t)(d->used + 1) * 4 <= (uint64_t)d->cap * 3)
		return 0;
	for (i = 0; i < d->cap; i++)
		live += d->slots[i].lblk != DI_EMPTY && d->slots[i].lblk != DI_TOMB;
	while ((uint64_t)(live + 1) * 2 > cap)
		cap *= 2;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < d->cap; i++)
		if (d->slots[i].lblk != DI_EMPTY && d->slots[i].lblk != DI_TOMB)
			di_put(slots, cap, d->slots[i].hash, d->slots[i].lblk - 1);
	free(d->slots);
	d->slots = slots;
	d->cap = cap;
	d->used = live;
	return 0;
}

static int di_add(struct ext2_dindex *d, const char *name, size_t len, uint32_t lblk)
{
	int err = di_reserve(d);

	if (err)
		return err;
	di_put(d->slots, d->cap, di_hash(name, len), lblk);
	d->used++;
	return 0;
}

/* Removes one entry (hash of name, lblk); false if there is none. */
static bool di_del(struct ext2_dindex *d, const char *name, size_t len, uint32_t lblk)
{
	uint32_t h = di_hash(name, len), i = h & (d->cap - 1);

	for (; d->slots[i].lblk != DI_EMPTY; i = (i + 1) & (d->cap - 1))
		if (d->slots[i].lblk == lblk + 1 && d->slots[i].hash == h) {
			d->slots[i].lblk = DI_TOMB; /* stays counted in used */
			return true;
		}
	return false;
}

/* The largest slack of the (checked) block's records. */
static uint16_t block_slack(const struct ext2_fs *fs, const uint8_t *data)
{
	uint32_t off, best = 0;

	for (off = 0; off < fs->bs; off += ((const struct ext2_dirent *)(data + off))->rec_len) {
		const struct ext2_dirent *de = (const struct ext2_dirent *)(data + off);
		uint32_t used = de->inode ? EXT2_DIRENT_LEN(de->name_len) : 0;

		if (de->rec_len - used > best)
			best = de->rec_len - used;
	}
	return (uint16_t)best;
}

/* Indexes block lblk's names and slack (records checked by the caller). */
static int di_scan_block(struct ext2_fs *fs, struct ext2_dindex *d, uint32_t lblk, const uint8_t *data)
{
	uint32_t off;
	int err;

	for (off = 0; off < fs->bs; off += ((const struct ext2_dirent *)(data + off))->rec_len) {
		const struct ext2_dirent *de = (const struct ext2_dirent *)(data + off);

		if (de->inode && (err = di_add(d, de->name, de->name_len, lblk)))
			return err;
	}
	d->slack[lblk] = block_slack(fs, data);
	return 0;
}

/* Drops the least recently used index while there are EXT2_DI_MAX. */
static void di_make_room(struct ext2_fs *fs)
{
	while (fs->ndindex >= EXT2_DI_MAX) {
		struct ext2_dindex *old = fs->dindex;

		for (struct ext2_dindex *d = fs->dindex; d; d = d->next)
			if (d->tick < old->tick)
				old = d;
		ext2_dindex_drop(fs, old->dino);
	}
}

struct ext2_dindex *ext2_dindex_get(struct ext2_fs *fs, uint32_t dino, const struct ext2_inode *dir,
				    uint32_t nblocks)
{
	struct ext2_dindex *d = di_find(fs, dino);
	struct ext2_buf *b;
	uint32_t lblk;

	if (d && d->nblocks != nblocks) {
		ext2_dindex_drop(fs, dino); /* changed behind us: build again */
		d = NULL;
	}
	if (d || nblocks < EXT2_DI_MIN_BLOCKS) {
		if (d)
			d->tick = ++fs->dindex_tick;
		return d;
	}
	di_make_room(fs);
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->dino = dino;
	d->nblocks = nblocks;
	d->cap = 64;
	while (d->cap < nblocks * 16u && d->cap < (1u << 24))
		d->cap <<= 1;
	d->slots = calloc(d->cap, sizeof(*d->slots));
	d->slack = calloc(nblocks, sizeof(*d->slack));
	if (!d->slots || !d->slack) {
		di_free(d);
		return NULL;
	}
	for (lblk = 0; lblk < nblocks; lblk++) {
		if (ext2_dir_block(fs, dino, dir, lblk, &b)) {
			di_free(d);
			return NULL; /* the linear search reports the error */
		}
		int err = di_scan_block(fs, d, lblk, b->data);

		ext2_brelse(fs, b);
		if (err) {
			di_free(d);
			return NULL;
		}
	}
	d->tick = ++fs->dindex_tick;
	d->next = fs->dindex;
	fs->dindex = d;
	fs->ndindex++;
	return d;
}

uint32_t ext2_dindex_candidates(struct ext2_dindex *d, const char *name, size_t len,
				uint32_t *out, uint32_t max)
{
	uint32_t h = di_hash(name, len), i = h & (d->cap - 1), n = 0;

	for (; d->slots[i].lblk != DI_EMPTY && n < max; i = (i + 1) & (d->cap - 1))
		if (d->slots[i].lblk != DI_TOMB && d->slots[i].hash == h)
			out[n++] = d->slots[i].lblk - 1;
	return n;
}

int64_t ext2_dindex_room(struct ext2_dindex *d, uint32_t need)
{
	for (uint32_t lblk = 0; lblk < d->nblocks; lblk++)
		if (d->slack[lblk] >= need)
			return lblk;
	return -1;
}

void ext2_dindex_added(struct ext2_fs *fs, uint32_t dino, uint32_t lblk, const uint8_t *data,
		       const char *name, size_t len)
{
	struct ext2_dindex *d = di_find(fs, dino);

	if (!d)
		return;
	if (lblk == d->nblocks) { /* a new block at the end */
		uint16_t *slack = realloc(d->slack, (size_t)(lblk + 1) * sizeof(*slack));

		if (!slack) {
			ext2_dindex_drop(fs, dino);
			return;
		}
		d->slack = slack;
		d->nblocks++;
	}
	if (lblk >= d->nblocks || di_add(d, name, len, lblk)) {
		ext2_dindex_drop(fs, dino);
		return;
	}
	d->slack[lblk] = block_slack(fs, data);
}

void ext2_dindex_removed(struct ext2_fs *fs, uint32_t dino, uint32_t lblk, const uint8_t *data,
			 const char *name, size_t len)
{
	struct ext2_dindex *d = di_find(fs, dino);

	if (!d)
		return;
	if (lblk >= d->nblocks || !di_del(d, name, len, lblk)) {
		ext2_dindex_drop(fs, dino); /* out of step: build again when needed */
		return;
	}
	d->slack[lblk] = block_slack(fs, data);
}
