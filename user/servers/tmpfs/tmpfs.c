/* tmpfs: see tmpfs.h for the semantics. Layout:
 *
 *   - every inode sits on one fs-wide list, so destroy can free unlinked
 *     but open inodes too;
 *   - a directory entry (struct dentry) is found by name through one
 *     fs-wide hash table keyed by (directory, name), and listed through
 *     its directory's slot array, which is in creation order. Each entry
 *     gets a per-directory sequence number that never changes; readdir
 *     positions are sequence numbers, found by binary search, so removing
 *     entries (which leaves holes, compacted once they are half the array)
 *     never disturbs a listing in progress;
 *   - file data is an array of 4 KiB page pointers (NULL is a hole), or,
 *     with tmpfs_ops.data, an external store (the server's: the kernel's
 *     page cache) that the core calls and tells of metadata changes.
 *
 * Error precedence follows Linux's namei.c: path walk errors, then the
 * "." / ".." / "/" special cases, then existence, then permission, then
 * type and emptiness. */
#include "tmpfs.h"
#include "abi/errno.h"
#include "../../include/arbor/hot.h"

#define PAGE_SHIFT   12
#define PAGE_SIZE    (1ull << PAGE_SHIFT)
#define MAX_PAGES    (TMPFS_MAX_FILE >> PAGE_SHIFT)
#define BOGO_DIRENT  20       /* Linux tmpfs reports dir size per entry */
#define TMPFS_META_POOL 8     /* removed directories' objects kept */
#define MAX_BUCKETS  (1u << 26)
#define MAX_SLOTS    (1u << 30)

#define S_IFMT   TMPFS_S_IFMT
#define S_IFREG  TMPFS_S_IFREG
#define S_IFDIR  TMPFS_S_IFDIR
#define S_IFCHR  TMPFS_S_IFCHR
#define S_IFLNK  TMPFS_S_IFLNK
#define S_IFSOCK TMPFS_S_IFSOCK
#define S_IFIFO  TMPFS_S_IFIFO
#define S_IFBLK  TMPFS_S_IFBLK
#define SHORT_SYMLINK 128     /* Linux shmem keeps shorter targets inline */
#define S_ISUID  TMPFS_S_ISUID
#define S_ISGID  TMPFS_S_ISGID
#define S_ISVTX  TMPFS_S_ISVTX
#define S_IXGRP  0010
#define S_IXUGO  0111
#define R_OK     TMPFS_R_OK
#define W_OK     TMPFS_W_OK
#define X_OK     TMPFS_X_OK

struct dentry {
	struct dentry *hnext;       /* hash chain */
	struct tmpfs_inode *dir;
	struct tmpfs_inode *ino;
	uint64_t seq;               /* creation order in dir: readdir position */
	uint32_t slot;              /* index into dir's slot array */
	uint32_t hash;
	uint32_t len;
	uint32_t cap;               /* name's room (len at d_new; a rename may shorten it) */
	char name[];                /* not NUL-terminated */
};

struct slot {
	uint64_t seq;               /* kept in holes, for the binary search */
	struct dentry *d;           /* NULL: a removed entry's hole */
};

struct tmpfs_inode {
	struct tmpfs *fs;
	struct tmpfs_inode *prev, *next;    /* the fs-wide inode list */
	uint64_t ino;
	uint32_t mode, uid, gid, rdev;
	uint32_t nlink, opens;
	bool kheld;                 /* kept for descriptors the kernel opened */
	bool linkable;              /* made by tmpfs_tmpfile without O_EXCL, never
				       named yet: linkat may give it one (Linux's
				       I_LINKABLE) */
	int64_t fifo;               /* a FIFO's handle + 1 (tmpfs_fifo_set), 0: none */
	char *gone;                 /* a regular file's path in the mount when its
				       last name went (an O_TMPFILE one's
				       "DIR/#INO"), for /proc/PID/fd: NUL-ended,
				       gone_cap bytes */
	uint32_t gone_cap;
	bool gone_tmp;              /* gone is an O_TMPFILE's "DIR/#INO": kept */
	struct dentry *gone_d;      /* or its last entry, unlinked, kept as it
				       was (no copy on unlink's path), and */
	uint64_t gone_dir;          /* the inode number of its directory then */
	uint64_t size;
	uint64_t atime, mtime, ctime;
	union {
		struct {                    /* regular file */
			uint8_t **pages;
			uint64_t npages;    /* length of pages[] */
			uint64_t nalloc;    /* non-NULL pages */
			uint64_t data;      /* the store's id (ops.data) */
		} f;
		struct {                    /* symbolic link */
			char *target;       /* size bytes, no NUL */
		} l;
		struct {                    /* socket file */
			uint64_t obj;       /* its attribute-only object
					       (create_meta), or 0: the kernel
					       checks connects against its
					       mode and owner */
		} s;
		struct {                    /* directory */
			struct tmpfs_inode *parent;  /* the root's is itself */
			struct slot *slots;
			uint32_t nslots, cap, nlive;
			uint64_t next_seq;
			uint64_t obj;        /* its attribute-only object (create_meta), or 0 */
			bool kstale;         /* the kernel was told its names and
						attributes are out of date, and has
						heard nothing since (dir_push) */
		} d;
	};
};

struct tmpfs {
	struct tmpfs_ops ops;
	struct tmpfs_inode *root;
	struct tmpfs_inode *inodes;
	struct dentry **buckets;
	uint32_t nbuckets;          /* a power of two */
	uint64_t nentries;
	uint64_t next_ino;
	uint64_t bytes, ninodes;
	unsigned walk;              /* TMPFS_WALK_* */
	uint32_t hb_which;          /* which path the walk is on */
	struct tmpfs_handback hb;   /* the last TMPFS_HANDBACK's reason */
	/* attribute-only objects of removed directories, kept for the next
	 * directories that need one (dir_obj_new): a mkdir+rmdir costs the
	 * store no create and no destroy */
	uint64_t meta_pool[TMPFS_META_POOL];
	uint32_t meta_pooled;
	bool trail_on;              /* recording names met (tmpfs_trail_start) */
	uint32_t trail_n;
	struct tmpfs_trail_step trail[TMPFS_TRAIL_MAX];
};

/* The last path component, as the caller of walk_parent sees it. */
struct pathwalk {
	struct tmpfs_inode *dir;
	const char *name;           /* points into the path */
	uint32_t len;
	bool slash;                 /* a slash follows the name */
};

enum last_type { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

/* ---- local string and memory helpers (no libc) ---- */

static void mem_copy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
}

static void mem_zero(void *dst, size_t n)
{
	uint8_t *d = dst;

	while (n--)
		*d++ = 0;
}

static ARBOR_HOT bool mem_eq(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	while (n--)
		if (*x++ != *y++)
			return false;
	return true;
}

/* Every allocation goes through these, so bytes_used is exact. */
static ARBOR_HOT void *fs_alloc(struct tmpfs *fs, size_t n)
{
	void *p = fs->ops.alloc(n);

	if (p)
		fs->bytes += n;
	return p;
}

static ARBOR_HOT void fs_free(struct tmpfs *fs, void *p, size_t n)
{
	if (!p)
		return;
	fs->bytes -= n;
	fs->ops.free(p);
}

static bool is_dir(const struct tmpfs_inode *ino)
{
	return (ino->mode & S_IFMT) == S_IFDIR;
}

static bool is_reg(const struct tmpfs_inode *ino)
{
	return (ino->mode & S_IFMT) == S_IFREG;
}

static bool is_lnk(const struct tmpfs_inode *ino)
{
	return (ino->mode & S_IFMT) == S_IFLNK;
}

static bool is_sock(const struct tmpfs_inode *ino)
{
	return (ino->mode & S_IFMT) == S_IFSOCK;
}

/* ---- credentials and permission ---- */

/* gid is the caller's group or one of its listed ones. */
static ARBOR_HOT bool in_listed_group(const struct tmpfs_cred *c, uint32_t gid)
{
	if (c->gid == gid)
		return true;
	for (uint32_t i = 0; i < c->ngroups; i++)
		if (c->groups[i] == gid)
			return true;
	return false;
}

static ARBOR_HOT bool in_group(const struct tmpfs_cred *c, uint32_t gid)
{
	return in_listed_group(c, gid) || (c->member && c->member(c->pid, gid));
}

static bool in_group_or_root(const struct tmpfs_cred *c, uint32_t gid)
{
	return c->uid == 0 || in_group(c, gid);
}

/* Linux generic_permission: one class applies; root overrides read and
 * write always, and execute where some x bit is set or on directories. */
static ARBOR_HOT int permission(const struct tmpfs_inode *ino, int mask,
		      const struct tmpfs_cred *c)
{
	uint32_t mode = ino->mode;

	if (c->uid == ino->uid)
		mode >>= 6;
	else if (in_listed_group(c, ino->gid) ||
		 /* the member hook (a system call) only when the group's bits
		  * and the others' differ for mask: a 0755 directory answers
		  * alike to both */
		 (c->member && (((mode >> 3) ^ mode) & (unsigned)mask & 7) && c->member(c->pid, ino->gid)))
		mode >>= 3;
	if (!(mask & ~mode & 7))
		return 0;
	if (c->uid != 0)
		return -EACCES;
	if (!(mask & X_OK) || is_dir(ino) || (ino->mode & S_IXUGO))
		return 0;
	return -EACCES;
}

/* In a sticky directory only root and the owners of the entry or of the
 * directory may remove the entry. */
static ARBOR_HOT bool sticky_denied(const struct tmpfs_inode *dir,
			  const struct tmpfs_inode *victim,
			  const struct tmpfs_cred *c)
{
	return (dir->mode & S_ISVTX) && c->uid != 0 &&
	       c->uid != victim->uid && c->uid != dir->uid;
}

/* Linux may_delete, for removing victim's entry from dir. */
static ARBOR_HOT int may_delete(const struct tmpfs_inode *dir,
		      const struct tmpfs_inode *victim, bool isdir,
		      const struct tmpfs_cred *c)
{
	int err = permission(dir, W_OK | X_OK, c);

	if (err)
		return err;
	if (sticky_denied(dir, victim, c))
		return -EPERM;
	if (isdir && !is_dir(victim))
		return -ENOTDIR;
	if (!isdir && is_dir(victim))
		return -EISDIR;
	return 0;
}

static ARBOR_HOT int may_create(const struct tmpfs_inode *dir, const struct tmpfs_cred *c)
{
	if (!dir->nlink)        /* removed directory: Linux IS_DEADDIR */
		return -ENOENT;
	return permission(dir, W_OK | X_OK, c);
}

/* ---- inodes ---- */

static ARBOR_HOT struct tmpfs_inode *inode_new(struct tmpfs *fs, uint32_t mode,
				     uint64_t now)
{
	struct tmpfs_inode *ino = fs_alloc(fs, sizeof(*ino));

	if (!ino)
		return NULL;
	mem_zero(ino, sizeof(*ino));
	ino->fs = fs;
	ino->ino = fs->next_ino++;
	ino->mode = mode;
	ino->atime = ino->mtime = ino->ctime = now;
	ino->next = fs->inodes;
	if (fs->inodes)
		fs->inodes->prev = ino;
	fs->inodes = ino;
	fs->ninodes++;
	return ino;
}

/* A zeroed data page (the server's page allocator, or the heap). */
static int page_new(struct tmpfs *fs, uint8_t **out)
{
	void *p = NULL;
	int err = fs->ops.page_alloc ? fs->ops.page_alloc(&p) : 0;
	if (!fs->ops.page_alloc && (p = fs->ops.alloc(PAGE_SIZE)))
		mem_zero(p, PAGE_SIZE);
	if (!p)
		return err ? err : -ENOSPC;
	fs->bytes += PAGE_SIZE;
	*out = p;
	return 0;
}

static void page_put(struct tmpfs *fs, uint8_t *p)
{
	fs->bytes -= PAGE_SIZE;
	if (fs->ops.page_free)
		fs->ops.page_free(p);
	else
		fs->ops.free(p);
}

static void pages_free_from(struct tmpfs_inode *ino, uint64_t first)
{
	for (uint64_t i = first; i < ino->f.npages; i++) {
		if (!ino->f.pages[i])
			continue;
		page_put(ino->fs, ino->f.pages[i]);
		ino->f.pages[i] = NULL;
		ino->f.nalloc--;
	}
}

/* Frees the inode and what it owns (a directory's entries are the
 * caller's business: only destroy frees a non-empty one). */
static void d_free(struct tmpfs *fs, struct dentry *d);

static ARBOR_HOT void inode_free(struct tmpfs_inode *ino)
{
	struct tmpfs *fs = ino->fs;

	if (ino->gone)
		fs_free(fs, ino->gone, ino->gone_cap);
	if (ino->gone_d)
		d_free(fs, ino->gone_d);

	if (is_reg(ino) && fs->ops.data) {
		if (ino->f.data)
			fs->ops.data->destroy(fs->ops.data_ctx, ino->f.data);
	} else if (is_reg(ino)) {
		pages_free_from(ino, 0);
		fs_free(fs, ino->f.pages, ino->f.npages * sizeof(*ino->f.pages));
	} else if (is_dir(ino)) {
		if (ino->d.obj)
			fs->ops.data->destroy(fs->ops.data_ctx, ino->d.obj);
		fs_free(fs, ino->d.slots, ino->d.cap * sizeof(*ino->d.slots));
	} else if (is_lnk(ino)) {
		fs_free(fs, ino->l.target, ino->size);
	} else if (is_sock(ino) && ino->s.obj) {
		fs->ops.data->destroy(fs->ops.data_ctx, ino->s.obj);
	}
	if (ino->fifo && fs->ops.fifo_drop)
		fs->ops.fifo_drop(ino->fifo - 1);
	if (ino->prev)
		ino->prev->next = ino->next;
	else
		fs->inodes = ino->next;
	if (ino->next)
		ino->next->prev = ino->prev;
	fs->ninodes--;
	fs_free(fs, ino, sizeof(*ino));
}

ARBOR_HOT uint64_t tmpfs_obj_id(const struct tmpfs_inode *ino)
{
	if (!ino->fs->ops.data)
		return 0;
	return is_reg(ino) ? ino->f.data : is_dir(ino) ? ino->d.obj : 0;
}

uint64_t tmpfs_sock_obj(const struct tmpfs_inode *ino)
{
	return ino->fs->ops.data && is_sock(ino) ? ino->s.obj : 0;
}

/* A regular file's, a directory's or a socket file's metadata changed:
 * its object learns it (what: TMPFS_ATTR_*; a directory's size always
 * goes too). */
static ARBOR_HOT void meta_push(struct tmpfs_inode *ino, unsigned what)
{
	struct tmpfs *fs = ino->fs;
	struct tmpfs_stat st;
	uint64_t id = is_sock(ino) ? tmpfs_sock_obj(ino) : tmpfs_obj_id(ino);

	if (!id)
		return;
	st = (struct tmpfs_stat){
		.ino = ino->ino, .nlink = ino->nlink, .mode = ino->mode,
		.uid = ino->uid, .gid = ino->gid, .rdev = ino->rdev,
		.atime = ino->atime, .mtime = ino->mtime, .ctime = ino->ctime,
	};
	if (is_dir(ino)) {
		st.size = (2 + (uint64_t)ino->d.nlive) * BOGO_DIRENT;
		what |= TMPFS_ATTR_SIZE;
		if (what & TMPFS_ATTR_TIMES) /* all of it: current again */
			ino->d.kstale = false;
	}
	fs->ops.data->attr(fs->ops.data_ctx, id, &st, what);
}

/* Directory dir's names changed (an entry added, removed or repointed):
 * before the change is answered, the kernel forgets the names it cached
 * in it and takes its attributes as out of date (lookups miss there),
 * once per run of changes: the next lookup that records the directory
 * (trail_obj) pushes them all again. */
static ARBOR_HOT void dir_push(struct tmpfs_inode *dir)
{
	if (!tmpfs_obj_id(dir) || dir->d.kstale)
		return;
	dir->d.kstale = true;
	meta_push(dir, TMPFS_ATTR_NAMES);
}

/* A new directory's object (none if the store has no kind for it). */
static void dir_obj_new(struct tmpfs *fs, struct tmpfs_inode *dir)
{
	if (fs->meta_pooled) {
		/* a removed directory's: no name in the kernel names it (its
		 * entry went negative or was dropped before it was removed),
		 * and this push drops the (negative) names it had and makes
		 * its attributes this directory's */
		dir->d.obj = fs->meta_pool[--fs->meta_pooled];
		meta_push(dir, TMPFS_ATTR_TIMES | TMPFS_ATTR_NAMES | TMPFS_ATTR_CURRENT);
		return;
	}
	if (fs->ops.data && fs->ops.data->create_meta &&
	    fs->ops.data->create_meta(fs->ops.data_ctx, &dir->d.obj))
		dir->d.obj = 0; /* no cache for it: the server answers */
	dir->d.kstale = true; /* nothing pushed yet */
}

/* Frees the inode once it has neither a name nor an opener, unless
 * descriptors the kernel opened itself still hold its object (the store
 * refuses to let it go): then it stays, found by its object when one of
 * them needs the server, until tmpfs_kclosed. */
static ARBOR_HOT void inode_put(struct tmpfs_inode *ino)
{
	struct tmpfs *fs = ino->fs;

	if (ino->nlink || ino->opens)
		return;
	if (is_dir(ino) && ino->d.obj && fs->meta_pooled < TMPFS_META_POOL) {
		fs->meta_pool[fs->meta_pooled++] = ino->d.obj; /* for the next one (dir_obj_new) */
		ino->d.obj = 0;
	}
	if (is_reg(ino) && fs->ops.data && ino->f.data) {
		if (fs->ops.data->destroy(fs->ops.data_ctx, ino->f.data) == -EBUSY) {
			ino->kheld = true;
			meta_push(ino, 0); /* their fstat: nlink 0 */
			return;
		}
		ino->f.data = 0;
	}
	inode_free(ino);
}

struct tmpfs_inode *tmpfs_inode_by_obj(struct tmpfs *fs, uint64_t id)
{
	for (struct tmpfs_inode *ino = fs->inodes; ino && id; ino = ino->next)
		if (is_reg(ino) && fs->ops.data && ino->f.data == id)
			return ino;
	return NULL;
}

void tmpfs_kclosed(struct tmpfs *fs, uint64_t id)
{
	struct tmpfs_inode *ino = tmpfs_inode_by_obj(fs, id);

	if (ino && ino->kheld) {
		ino->kheld = false;
		inode_put(ino);
	}
}

/* New inodes belong to the caller, except that a setgid directory passes
 * on its group (and, to subdirectories, its setgid bit); Linux also drops
 * setgid from a group-executable file if the creator is not in that group. */
static ARBOR_HOT void init_owner(struct tmpfs_inode *ino, const struct tmpfs_inode *dir,
		       const struct tmpfs_cred *c)
{
	ino->uid = c->uid;
	ino->gid = c->gid;
	if (!(dir->mode & S_ISGID))
		return;
	ino->gid = dir->gid;
	if (is_dir(ino))
		ino->mode |= S_ISGID;
	else if ((ino->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
		 !in_group_or_root(c, dir->gid))
		ino->mode &= ~S_ISGID;
}

/* ---- directory entries: hash table ---- */

static ARBOR_HOT uint32_t name_hash(const struct tmpfs_inode *dir, const char *s,
			  uint32_t len)
{
	uint32_t h = 2166136261u ^ (uint32_t)(dir->ino * 0x9e3779b97f4a7c15ull >> 32);

	for (uint32_t i = 0; i < len; i++) {
		h ^= (uint8_t)s[i];
		h *= 16777619u;
	}
	return h;
}

static ARBOR_HOT struct dentry **bucket(struct tmpfs *fs, uint32_t hash)
{
	return &fs->buckets[hash & (fs->nbuckets - 1)];
}

static ARBOR_HOT struct dentry *d_find(struct tmpfs *fs, const struct tmpfs_inode *dir,
			     const char *name, uint32_t len)
{
	uint32_t h = name_hash(dir, name, len);

	for (struct dentry *d = *bucket(fs, h); d; d = d->hnext)
		if (d->hash == h && d->dir == dir && d->len == len &&
		    mem_eq(d->name, name, len))
			return d;
	return NULL;
}

/* Doubles the table when it averages over one entry per bucket. Failure
 * to grow only costs speed, so it is ignored. */
static void hash_grow(struct tmpfs *fs)
{
	uint32_t n = fs->nbuckets * 2;
	struct dentry **old = fs->buckets, **nb;

	if (fs->nentries <= fs->nbuckets || n > MAX_BUCKETS)
		return;
	nb = fs_alloc(fs, n * sizeof(*nb));
	if (!nb)
		return;
	mem_zero(nb, n * sizeof(*nb));
	fs->buckets = nb;
	fs->nbuckets = n;
	for (uint32_t i = 0; i < n / 2; i++) {
		while (old[i]) {
			struct dentry *d = old[i], **b = bucket(fs, d->hash);

			old[i] = d->hnext;
			d->hnext = *b;
			*b = d;
		}
	}
	fs_free(fs, old, (n / 2) * sizeof(*old));
}

static void hash_remove(struct tmpfs *fs, struct dentry *d)
{
	struct dentry **pp = bucket(fs, d->hash);

	while (*pp != d)
		pp = &(*pp)->hnext;
	*pp = d->hnext;
}

/* ---- directory entries: slot arrays ---- */

/* Makes room for one more slot, so that d_attach cannot fail. */
static ARBOR_HOT int dir_reserve(struct tmpfs *fs, struct tmpfs_inode *dir)
{
	uint32_t cap = dir->d.cap ? dir->d.cap * 2 : 8;
	struct slot *s;

	if (dir->d.nslots < dir->d.cap)
		return 0;
	if (cap > MAX_SLOTS)
		return -ENOSPC;
	s = fs_alloc(fs, cap * sizeof(*s));
	if (!s)
		return -ENOSPC;
	mem_copy(s, dir->d.slots, dir->d.nslots * sizeof(*s));
	fs_free(fs, dir->d.slots, dir->d.cap * sizeof(*s));
	dir->d.slots = s;
	dir->d.cap = cap;
	return 0;
}

/* Squeezes out holes; order and sequence numbers are unchanged. */
static void dir_compact(struct tmpfs_inode *dir)
{
	uint32_t j = 0;

	for (uint32_t i = 0; i < dir->d.nslots; i++) {
		struct dentry *d = dir->d.slots[i].d;

		if (!d)
			continue;
		d->slot = j;
		dir->d.slots[j++] = dir->d.slots[i];
	}
	dir->d.nslots = j;
}

static ARBOR_HOT struct dentry *d_new(struct tmpfs *fs, const char *name, uint32_t len)
{
	struct dentry *d = fs_alloc(fs, sizeof(*d) + len);

	if (d) {
		mem_zero(d, sizeof(*d));
		mem_copy(d->name, name, len);
		d->len = d->cap = len;
	}
	return d;
}

static ARBOR_HOT void d_free(struct tmpfs *fs, struct dentry *d)
{
	fs_free(fs, d, sizeof(*d) + d->cap);
}

/* Links d (from d_new) into dir, naming ino. dir_reserve must have
 * succeeded since dir's last change. */
static ARBOR_HOT void d_attach(struct tmpfs *fs, struct tmpfs_inode *dir,
		     struct dentry *d, struct tmpfs_inode *ino)
{
	struct dentry **b;

	d->dir = dir;
	d->ino = ino;
	d->seq = dir->d.next_seq++;
	d->slot = dir->d.nslots++;
	dir->d.slots[d->slot] = (struct slot){ .seq = d->seq, .d = d };
	dir->d.nlive++;
	d->hash = name_hash(dir, d->name, d->len);
	b = bucket(fs, d->hash);
	d->hnext = *b;
	*b = d;
	fs->nentries++;
	hash_grow(fs);
}

/* Takes d out of the hash table and its directory's slots, leaving its
 * hole (dir_tidy squeezes it). */
static ARBOR_HOT void d_unhook(struct tmpfs *fs, struct dentry *d)
{
	struct tmpfs_inode *dir = d->dir;

	hash_remove(fs, d);
	fs->nentries--;
	dir->d.slots[d->slot].d = NULL;
	dir->d.nlive--;
}

/* Holes at the end of dir's slots are dropped at once, others when they
 * outnumber the entries, and an empty directory gives its array back. */
static ARBOR_HOT void dir_tidy(struct tmpfs *fs, struct tmpfs_inode *dir)
{
	while (dir->d.nslots && !dir->d.slots[dir->d.nslots - 1].d)
		dir->d.nslots--;
	if (!dir->d.nlive) {
		fs_free(fs, dir->d.slots, dir->d.cap * sizeof(*dir->d.slots));
		dir->d.slots = NULL;
		dir->d.cap = 0;
	} else if (dir->d.nlive * 2 < dir->d.nslots) {
		dir_compact(dir);
	}
}

/* Unlinks d from its directory (without freeing it). */
static ARBOR_HOT void d_detach(struct tmpfs *fs, struct dentry *d)
{
	struct tmpfs_inode *dir = d->dir;

	d_unhook(fs, d);
	dir_tidy(fs, dir);
}

/* ---- path walking ---- */

static ARBOR_HOT int path_check(const char *path)
{
	size_t n = 0;

	if (!path)
		return -EFAULT;
	if (!*path)
		return -ENOENT;
	if (*path != '/')
		return -EINVAL;
	while (n < TMPFS_PATH_MAX && path[n])
		n++;
	return n < TMPFS_PATH_MAX ? 0 : -ENAMETOOLONG;
}

static ARBOR_HOT const char *skip_slashes(const char *p)
{
	while (*p == '/')
		p++;
	return p;
}

static ARBOR_HOT uint32_t comp_len(const char *p)
{
	uint32_t n = 0;

	while (p[n] && p[n] != '/')
		n++;
	return n;
}

static ARBOR_HOT enum last_type name_type(const char *name, uint32_t len)
{
	if (len == 0)
		return LAST_ROOT;
	if (len == 1 && name[0] == '.')
		return LAST_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return LAST_DOTDOT;
	return LAST_NORM;
}

/* Records why the walk stops for the VFS (tmpfs.h). */
static int handback(struct tmpfs *fs, int kind, const char *path,
		    const char *comp, uint32_t len,
		    const struct tmpfs_inode *link)
{
	fs->hb = (struct tmpfs_handback){
		.kind = kind, .which = fs->hb_which,
		.off = (uint32_t)(comp - path), .len = len,
		.target = link ? link->l.target : NULL,
		.tlen = link ? (uint32_t)link->size : 0,
	};
	return TMPFS_HANDBACK;
}

/* Whether ".." in dir must be resolved by the VFS. */
static bool dotdot_hands_back(const struct tmpfs *fs,
			      const struct tmpfs_inode *dir)
{
	return (fs->walk & TMPFS_WALK_DOTDOT_ALL) ||
	       ((fs->walk & TMPFS_WALK_DOTDOT_ROOT) && dir == fs->root);
}

/* The object of a directory the trail names, made on first need: a
 * directory nobody looks up through the kernel's cache costs no object
 * and no pushes (mkdir and rmdir stay cheap). */
static uint64_t trail_obj(struct tmpfs *fs, struct tmpfs_inode *ino)
{
	if (is_dir(ino) && !ino->d.obj && ino->nlink)
		dir_obj_new(fs, ino);
	if (is_dir(ino) && ino->d.obj && ino->d.kstale)
		meta_push(ino, TMPFS_ATTR_TIMES); /* all of it: current */
	return tmpfs_obj_id(ino);
}

/* Records that name in dir is ino (NULL: no such name) in the trail. */
static void trail_add(struct tmpfs *fs, struct tmpfs_inode *dir,
		      const char *name, uint32_t len, struct tmpfs_inode *ino)
{
	if (fs->trail_n == TMPFS_TRAIL_MAX)
		return;
	uint64_t d = trail_obj(fs, dir), c = ino ? trail_obj(fs, ino) : 0;

	if (!d || (ino && !c) || fs->trail_n == TMPFS_TRAIL_MAX)
		return; /* links and devices have no object: never cached */
	fs->trail[fs->trail_n++] = (struct tmpfs_trail_step){
		.dir = d, .child = c, .name = name, .len = len };
}

void tmpfs_trail_start(struct tmpfs *fs)
{
	fs->trail_on = true;
	fs->trail_n = 0;
}

uint32_t tmpfs_trail_take(struct tmpfs *fs, const struct tmpfs_trail_step **out)
{
	fs->trail_on = false;
	*out = fs->trail;
	return fs->trail_n;
}

/* One step from a directory the caller may search. */
static ARBOR_HOT int step(struct tmpfs *fs, struct tmpfs_inode *dir, const char *name,
		uint32_t len, struct tmpfs_inode **out)
{
	struct dentry *d;

	if (len > TMPFS_NAME_MAX)
		return -ENAMETOOLONG;
	switch (name_type(name, len)) {
	case LAST_DOT:
		*out = dir;
		return 0;
	case LAST_DOTDOT:
		*out = dir->d.parent;
		return 0;
	default:
		break;
	}
	d = d_find(fs, dir, name, len);
	if (fs->trail_on)
		trail_add(fs, dir, name, len, d ? d->ino : NULL);
	if (!d)
		return -ENOENT;
	*out = d->ino;
	return 0;
}

/* Walks all but the last component. As in Linux, search permission is
 * checked on each directory before looking a name up in it, including
 * the last one, but not for "/" itself. */
static ARBOR_HOT int walk_parent_of(struct tmpfs *fs, const char *path,
			  const struct tmpfs_cred *c, struct pathwalk *w,
			  uint32_t which)
{
	struct tmpfs_inode *dir = fs->root, *next;
	const char *p;
	int err = path_check(path);

	fs->hb_which = which;
	if (err)
		return err;
	p = skip_slashes(path);
	*w = (struct pathwalk){ .dir = dir, .name = p, .len = 0 };
	while (*p) {
		uint32_t len = comp_len(p);
		const char *rest = skip_slashes(p + len);

		err = permission(dir, X_OK, c);
		if (err)
			return err;
		if (!*rest) {
			*w = (struct pathwalk){ .dir = dir, .name = p, .len = len,
						.slash = rest != p + len };
			return len > TMPFS_NAME_MAX ? -ENAMETOOLONG : 0;
		}
		if (name_type(p, len) == LAST_DOTDOT && dotdot_hands_back(fs, dir))
			return handback(fs, TMPFS_HB_DOTDOT, path, p, len, NULL);
		err = step(fs, dir, p, len, &next);
		if (err)
			return err;
		if (is_lnk(next))   /* a link in the middle is always followed */
			return handback(fs, TMPFS_HB_LINK, path, p, len, next);
		if (!is_dir(next))
			return -ENOTDIR;
		dir = next;
		p = rest;
	}
	return 0;
}

static ARBOR_HOT int walk_parent(struct tmpfs *fs, const char *path,
		       const struct tmpfs_cred *c, struct pathwalk *w)
{
	return walk_parent_of(fs, path, c, w, 0);
}

/* The last component of w (walked from path): "..", when the VFS
 * resolves it, and a symlink to follow (a slash after it forces that)
 * hand back. */
static int last_lookup(struct tmpfs *fs, const char *path,
		       const struct pathwalk *w, bool follow,
		       struct tmpfs_inode **out)
{
	struct tmpfs_inode *ino = NULL;
	int err;

	if (!w->len)
		ino = w->dir;
	else if (name_type(w->name, w->len) == LAST_DOTDOT &&
		 dotdot_hands_back(fs, w->dir))
		return handback(fs, TMPFS_HB_DOTDOT, path, w->name, w->len, NULL);
	else if ((err = step(fs, w->dir, w->name, w->len, &ino)))
		return err;
	if (is_lnk(ino) && (follow || w->slash))
		return handback(fs, TMPFS_HB_LINK, path, w->name, w->len, ino);
	if (w->slash && !is_dir(ino))
		return -ENOTDIR;
	*out = ino;
	return 0;
}

static int lookup(struct tmpfs *fs, const char *path, bool follow,
		  const struct tmpfs_cred *c, struct tmpfs_inode **out)
{
	struct pathwalk w;
	int err = walk_parent(fs, path, c, &w);

	return err ? err : last_lookup(fs, path, &w, follow, out);
}

int tmpfs_lookup(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
		 struct tmpfs_inode **out)
{
	return lookup(fs, path, true, c, out);
}

int tmpfs_lookup_nofollow(struct tmpfs *fs, const char *path,
			  const struct tmpfs_cred *c, struct tmpfs_inode **out)
{
	return lookup(fs, path, false, c, out);
}

ARBOR_HOT void tmpfs_set_walk(struct tmpfs *fs, unsigned flags)
{
	fs->walk = flags;
}

const struct tmpfs_handback *tmpfs_handback(const struct tmpfs *fs)
{
	return &fs->hb;
}

int tmpfs_lookup_parent(struct tmpfs *fs, const char *path,
			const struct tmpfs_cred *c, struct tmpfs_inode **dir,
			char name[TMPFS_NAME_MAX + 1])
{
	struct pathwalk w;
	int err = walk_parent(fs, path, c, &w);

	if (err)
		return err;
	mem_copy(name, w.name, w.len);
	name[w.len] = '\0';
	*dir = w.dir;
	return w.slash ? 1 : 0;
}

static ARBOR_HOT struct dentry *last_find(struct tmpfs *fs, const struct pathwalk *w)
{
	return d_find(fs, w->dir, w->name, w->len);
}

/* ---- creating ---- */

/* Creates and links a node under w->dir; permission already checked. */
static ARBOR_HOT int make_node(struct tmpfs *fs, const struct pathwalk *w, uint32_t mode,
		     uint32_t rdev, const struct tmpfs_cred *c, uint64_t now,
		     struct tmpfs_inode **out)
{
	struct tmpfs_inode *dir = w->dir, *ino;
	struct dentry *d;

	if (dir_reserve(fs, dir))
		return -ENOSPC;
	d = d_new(fs, w->name, w->len);
	if (!d)
		return -ENOSPC;
	ino = inode_new(fs, mode, now);
	if (!ino) {
		d_free(fs, d);
		return -ENOSPC;
	}
	if (is_reg(ino) && fs->ops.data) {
		int err = fs->ops.data->create(fs->ops.data_ctx, &ino->f.data);

		if (err) {
			inode_free(ino);
			d_free(fs, d);
			return err;
		}
	}
	/* a socket file's object: the kernel's connect reads its mode and
	 * owner (no object: the kernel refuses connects to it) */
	if (is_sock(ino) && fs->ops.data && fs->ops.data->create_meta &&
	    fs->ops.data->create_meta(fs->ops.data_ctx, &ino->s.obj))
		ino->s.obj = 0;
	init_owner(ino, dir, c);
	ino->rdev = rdev;
	ino->nlink = 1;
	if (is_dir(ino)) {
		ino->nlink = 2;
		ino->d.parent = dir;
		dir->nlink++;
	}
	d_attach(fs, dir, d, ino);
	dir->mtime = dir->ctime = now;
	meta_push(ino, TMPFS_ATTR_TIMES);
	uint32_t recorded = fs->trail_n;
	if (fs->trail_on && tmpfs_obj_id(dir))
		trail_add(fs, dir, w->name, w->len, ino);
	if (fs->trail_n > recorded) {
		/* the kernel learns the new name (tmpfs_trail_start), which
		 * replaces its negative entry, so that its unlink or rmdir can
		 * be the kernel's; the directory's other names stay, and its
		 * attributes are current (no other name changed) */
		meta_push(dir, TMPFS_ATTR_TIMES);
	} else {
		dir_push(dir);
	}
	if (out)
		*out = ino;
	return 0;
}

/* open(O_CREAT): "/", "." and ".." name directories that exist. */
static ARBOR_HOT int open_create(struct tmpfs *fs, const char *path,
		       const struct pathwalk *w, uint32_t mode,
		       const struct tmpfs_cred *c, uint64_t now, unsigned flags,
		       struct tmpfs_inode **out)
{
	bool excl = flags & TMPFS_EXCL;
	struct dentry *d;
	int err;

	if (name_type(w->name, w->len) != LAST_NORM)
		return excl ? -EEXIST : -EISDIR;
	if (w->slash)
		return -EISDIR;
	d = last_find(fs, w);
	if (d) {
		if (excl)
			return -EEXIST;
		if (is_lnk(d->ino) && (flags & TMPFS_NOFOLLOW))
			return -ELOOP;
		if (is_lnk(d->ino))     /* a dangling one creates its target */
			return handback(fs, TMPFS_HB_LINK, path, w->name, w->len, d->ino);
		if (is_dir(d->ino))
			return -EISDIR;
		if (out)
			*out = d->ino;
		return 0;
	}
	err = may_create(w->dir, c);
	if (!err)
		err = make_node(fs, w, mode, 0, c, now, out);
	return err ? err : 1;
}

/* mknod: always exclusive; a trailing slash asks for a directory. */
static int mknod_create(struct tmpfs *fs, const struct pathwalk *w,
			uint32_t mode, uint32_t rdev, const struct tmpfs_cred *c,
			uint64_t now, struct tmpfs_inode **out)
{
	int err;

	if (name_type(w->name, w->len) != LAST_NORM || last_find(fs, w))
		return -EEXIST;
	if (w->slash)
		return -ENOENT;
	err = may_create(w->dir, c);
	if (err)
		return err;
	if (c->uid != 0 && (mode & S_IFMT) != S_IFSOCK && (mode & S_IFMT) != S_IFIFO) /* CAP_MKNOD */
		return -EPERM;
	err = make_node(fs, w, mode, rdev, c, now, out);
	return err ? err : 1;
}

ARBOR_HOT int tmpfs_create_node(struct tmpfs *fs, const char *path, uint32_t mode,
		      uint32_t rdev, const struct tmpfs_cred *c, uint64_t now,
		      unsigned flags, struct tmpfs_inode **out)
{
	uint32_t type = mode & S_IFMT;
	struct pathwalk w;
	int err;

	if (type == 0)
		type = S_IFREG;
	if (type == S_IFDIR)
		return -EPERM;
	if (type != S_IFREG && type != S_IFCHR && type != S_IFSOCK && type != S_IFIFO && type != S_IFBLK)
		return -EINVAL;
	err = walk_parent(fs, path, c, &w);
	if (err)
		return err;
	mode = type | (mode & 07777);
	if (type != S_IFREG)
		return mknod_create(fs, &w, mode, rdev, c, now, out);
	return open_create(fs, path, &w, mode, c, now, flags, out);
}

ARBOR_HOT int tmpfs_mkdir(struct tmpfs *fs, const char *path, uint32_t perm,
		const struct tmpfs_cred *c, uint64_t now)
{
	struct pathwalk w;
	int err = walk_parent(fs, path, c, &w);

	if (err)
		return err;
	if (name_type(w.name, w.len) != LAST_NORM || last_find(fs, &w))
		return -EEXIST;
	err = may_create(w.dir, c);
	if (err)
		return err;
	/* mkdir ignores setuid/setgid in the mode, as Linux does. */
	return make_node(fs, &w, S_IFDIR | (perm & 01777), 0, c, now, NULL);
}

/* ---- links ---- */

/* A name to create at w: Linux's filename_create order. */
static int may_make(struct tmpfs *fs, const struct pathwalk *w,
		    const struct tmpfs_cred *c)
{
	if (name_type(w->name, w->len) != LAST_NORM || last_find(fs, w))
		return -EEXIST;
	if (w->slash)
		return -ENOENT;
	return may_create(w->dir, c);
}

int tmpfs_symlink(struct tmpfs *fs, const char *target, const char *path,
		  const struct tmpfs_cred *c, uint64_t now)
{
	struct pathwalk w;
	struct tmpfs_inode *ino;
	uint32_t len = 0;
	char *copy;
	int err;

	if (!target)
		return -EFAULT;
	while (len < TMPFS_PATH_MAX && target[len])
		len++;
	if (!len)
		return -ENOENT;
	if (len >= TMPFS_PATH_MAX)
		return -ENAMETOOLONG;
	err = walk_parent(fs, path, c, &w);
	if (!err)
		err = may_make(fs, &w, c);
	if (err)
		return err;
	copy = fs_alloc(fs, len);
	if (!copy)
		return -ENOSPC;
	mem_copy(copy, target, len);
	err = make_node(fs, &w, S_IFLNK | 0777, 0, c, now, &ino);
	if (err) {
		fs_free(fs, copy, len);
		return err;
	}
	ino->l.target = copy;
	ino->size = len;
	return 0;
}

long tmpfs_readlink(const struct tmpfs_inode *ino, char *buf, size_t len)
{
	if (!is_lnk(ino))
		return -EINVAL;
	if (len > ino->size)
		len = ino->size;
	mem_copy(buf, ino->l.target, len);
	return (long)len;
}

/* Linux's may_linkat with fs.protected_hardlinks = 1. */
static int may_hardlink(const struct tmpfs_inode *ino,
			const struct tmpfs_cred *c)
{
	if (c->uid == 0 || c->uid == ino->uid)
		return 0;
	if (!is_reg(ino) || (ino->mode & S_ISUID) ||
	    (ino->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		return -EPERM;
	return permission(ino, R_OK | W_OK, c) ? -EPERM : 0;
}

/* Links ino under the name w ends in (the checks of both sides done
 * but Linux's vfs_link's own): EPERM for a directory, ENOENT for a file
 * with no name left unless it is a linkable unnamed one (O_TMPFILE
 * without O_EXCL), which stops being linkable once named. */
static int link_commit(struct tmpfs *fs, struct tmpfs_inode *ino, const struct pathwalk *w,
		       uint64_t now)
{
	struct dentry *d;

	if (is_dir(ino))
		return -EPERM;
	if (!ino->nlink && !ino->linkable)
		return -ENOENT;
	if (ino->nlink >= UINT32_MAX)
		return -EMLINK;
	if (dir_reserve(fs, w->dir))
		return -ENOSPC;
	d = d_new(fs, w->name, w->len);
	if (!d)
		return -ENOSPC;
	d_attach(fs, w->dir, d, ino);
	ino->nlink++;
	ino->linkable = false;
	ino->ctime = now;
	w->dir->mtime = w->dir->ctime = now;
	meta_push(ino, 0);
	dir_push(w->dir);
	return 0;
}

int tmpfs_link(struct tmpfs *fs, const char *from, const char *to, bool follow,
	       const struct tmpfs_cred *c, uint64_t now)
{
	struct tmpfs_inode *ino;
	struct pathwalk w;
	int err = lookup(fs, from, follow, c, &ino);

	if (!err)
		err = walk_parent_of(fs, to, c, &w, 1);
	if (!err)
		err = may_make(fs, &w, c);
	if (!err)
		err = may_hardlink(ino, c);
	return err ? err : link_commit(fs, ino, &w, now);
}

int tmpfs_link_inode(struct tmpfs *fs, struct tmpfs_inode *ino, const char *to,
		     const struct tmpfs_cred *c, uint64_t now)
{
	struct pathwalk w;
	int err = walk_parent_of(fs, to, c, &w, 0);

	if (!err)
		err = may_make(fs, &w, c);
	if (!err)
		err = may_hardlink(ino, c);
	return err ? err : link_commit(fs, ino, &w, now);
}

static void note_gone(struct tmpfs *fs, struct tmpfs_inode *dir, const char *name, uint32_t len,
		      struct tmpfs_inode *ino);

int tmpfs_tmpfile(struct tmpfs *fs, const char *path, uint32_t perm, unsigned flags,
		  const struct tmpfs_cred *c, uint64_t now, struct tmpfs_inode **out)
{
	struct tmpfs_inode *dir, *ino;
	int err = lookup(fs, path, !(flags & TMPFS_NOFOLLOW), c, &dir);

	if (err)
		return err;
	if (!is_dir(dir))
		return -ENOTDIR;
	/* Linux's vfs_tmpfile: write and search permission on the directory,
	 * nothing more (a removed directory still makes one) */
	err = permission(dir, W_OK | X_OK, c);
	if (err)
		return err;
	ino = inode_new(fs, TMPFS_S_IFREG | (perm & 07777), now);
	if (!ino)
		return -ENOSPC;
	if (fs->ops.data) {
		err = fs->ops.data->create(fs->ops.data_ctx, &ino->f.data);
		if (err) {
			inode_free(ino);
			return err;
		}
	}
	init_owner(ino, dir, c);
	ino->nlink = 0;
	ino->linkable = !(flags & TMPFS_EXCL);
	{ /* Linux names its dentry "#INO" in the directory */
		char name[24];
		uint32_t len = 0;
		char digits[20];
		uint32_t nd = 0;
		uint64_t v = ino->ino;
		do
			digits[nd++] = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		name[len++] = '#';
		while (nd)
			name[len++] = digits[--nd];
		note_gone(fs, dir, name, len, ino);
		ino->gone_tmp = ino->gone != NULL;
	}
	meta_push(ino, TMPFS_ATTR_TIMES);
	*out = ino;
	return 0;
}

/* ---- removing ---- */

/* Regular file ino loses its last name, name[len] in dir (or, O_TMPFILE,
 * never had one): its path then, kept for tmpfs_file_path while it stays
 * open (Linux's d_path of its dentry). Nothing on a path too long or no
 * memory: the file then has no path to show. */
static void note_gone(struct tmpfs *fs, struct tmpfs_inode *dir, const char *name, uint32_t len,
		      struct tmpfs_inode *ino)
{
	char buf[TMPFS_PATH_MAX];
	long n;

	if (!is_reg(ino) || ino->nlink > 1 || ino->gone_tmp || (n = tmpfs_dir_path(dir, buf, sizeof(buf))) < 0)
		return;
	if (n == 1)
		n = 0; /* the root: "/name" */
	if ((size_t)n + 1 + len + 1 > sizeof(buf))
		return;
	buf[n] = '/';
	mem_copy(buf + n + 1, name, len);
	size_t total = (size_t)n + 1 + len + 1;
	buf[total - 1] = '\0';
	char *s = fs_alloc(fs, total);
	if (!s)
		return;
	mem_copy(s, buf, total);
	if (ino->gone)
		fs_free(fs, ino->gone, ino->gone_cap);
	if (ino->gone_d) {
		d_free(fs, ino->gone_d);
		ino->gone_d = NULL;
	}
	ino->gone = s;
	ino->gone_cap = (uint32_t)total;
}

/* d, the entry unlink just detached, naming regular file ino: kept as the
 * file's last name when it was its last (tmpfs_file_path), else freed. */
static ARBOR_HOT void keep_gone(struct tmpfs *fs, struct dentry *d, struct tmpfs_inode *ino)
{
	if (!is_reg(ino) || ino->nlink > 1 || ino->gone_tmp) {
		d_free(fs, d);
		return;
	}
	if (ino->gone_d)
		d_free(fs, ino->gone_d);
	if (ino->gone) {
		fs_free(fs, ino->gone, ino->gone_cap);
		ino->gone = NULL;
	}
	ino->gone_d = d;
	ino->gone_dir = d->dir->ino;
}

/* Drops the link dir holds on ino; a directory loses both its name and
 * its "." and stops counting towards dir's nlink. An inode about to be
 * freed (no name, no opener) pushes nothing: its object goes with it. */
static ARBOR_HOT void drop_link(struct tmpfs_inode *dir, struct tmpfs_inode *ino,
		      uint64_t now)
{
	if (is_dir(ino)) {
		ino->nlink = 0;
		ino->d.parent = ino;
		dir->nlink--;
	} else {
		ino->nlink--;
	}
	ino->ctime = now;
	if (ino->nlink || ino->opens)
		meta_push(ino, 0);
}

/* Removes d, the entry w names. With the trail on, the kernel learns
 * that the name is gone (a negative entry replacing it), so that the
 * directory's other names stay cached and the next unlink or rmdir there
 * can be the kernel's; else the directory's names go. */
static ARBOR_HOT void remove_entry(struct tmpfs *fs, struct dentry *d, const struct pathwalk *w,
				   uint64_t now)
{
	struct tmpfs_inode *dir = d->dir, *ino = d->ino;
	uint32_t recorded = fs->trail_n;

	d_detach(fs, d);
	keep_gone(fs, d, ino);
	drop_link(dir, ino, now);
	dir->mtime = dir->ctime = now;
	if (fs->trail_on && tmpfs_obj_id(dir))
		trail_add(fs, dir, w->name, w->len, NULL);
	if (fs->trail_n > recorded)
		meta_push(dir, TMPFS_ATTR_TIMES); /* current: no other name changed */
	else
		dir_push(dir);
	inode_put(ino);
}

ARBOR_HOT int tmpfs_rmdir(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
		uint64_t now)
{
	struct pathwalk w;
	struct dentry *d;
	int err = walk_parent(fs, path, c, &w);

	if (err)
		return err;
	switch (name_type(w.name, w.len)) {
	case LAST_DOTDOT:
		return -ENOTEMPTY;
	case LAST_DOT:
		return -EINVAL;
	case LAST_ROOT:
		return -EBUSY;
	default:
		break;
	}
	d = last_find(fs, &w);
	if (!d)
		return -ENOENT;
	err = may_delete(w.dir, d->ino, true, c);
	if (err)
		return err;
	if (d->ino->d.nlive)
		return -ENOTEMPTY;
	remove_entry(fs, d, &w, now);
	return 0;
}

ARBOR_HOT int tmpfs_unlink(struct tmpfs *fs, const char *path, const struct tmpfs_cred *c,
		 uint64_t now)
{
	struct pathwalk w;
	struct dentry *d;
	int err = walk_parent(fs, path, c, &w);

	if (err)
		return err;
	if (name_type(w.name, w.len) != LAST_NORM)
		return -EISDIR;
	d = last_find(fs, &w);
	if (!d)
		return -ENOENT;
	if (w.slash)    /* "file/" cannot name a non-directory */
		return is_dir(d->ino) ? -EISDIR : -ENOTDIR;
	err = may_delete(w.dir, d->ino, false, c);
	if (err)
		return err;
	remove_entry(fs, d, &w, now);
	return 0;
}

/* ---- rename ---- */

/* Is ino the directory dir or one of its ancestors? */
static ARBOR_HOT bool is_ancestor(const struct tmpfs_inode *ino,
			const struct tmpfs_inode *dir)
{
	for (;;) {
		if (dir == ino)
			return true;
		if (dir->d.parent == dir)
			return false;
		dir = dir->d.parent;
	}
}

/* Linux's order: trailing-slash and loop checks (do_renameat2), then the
 * no-op, then permissions (vfs_rename), then emptiness. */
static ARBOR_HOT int rename_check(const struct pathwalk *ow, struct tmpfs_inode *src,
			const struct pathwalk *nw, struct tmpfs_inode *dst,
			const struct tmpfs_cred *c)
{
	bool isdir = is_dir(src);
	int err;

	if (!isdir && (ow->slash || nw->slash))
		return -ENOTDIR;
	if (is_ancestor(src, nw->dir))
		return -EINVAL;         /* into its own subtree */
	if (dst && is_ancestor(dst, ow->dir))
		return -ENOTEMPTY;      /* over its own ancestor */
	if (dst == src)
		return 1;
	err = may_delete(ow->dir, src, isdir, c);
	if (!err)
		err = dst ? may_delete(nw->dir, dst, isdir, c) : may_create(nw->dir, c);
	if (!err && isdir && ow->dir != nw->dir)
		err = permission(src, W_OK, c);    /* its ".." changes */
	if (!err && dst && is_dir(dst) && dst->d.nlive)
		err = -ENOTEMPTY;
	return err;
}

/* Makes nw name od's inode and removes od. An existing target entry is
 * repointed in place, so the replace needs no allocation and is atomic.
 * Otherwise od itself moves to its new name when the name fits its room
 * (a rename within a name length of the old one: no allocation, no free),
 * at the end of the new directory's order as a new entry would be. */
static ARBOR_HOT int rename_commit(struct tmpfs *fs, struct dentry *od,
			 const struct pathwalk *ow, const struct pathwalk *nw,
			 struct dentry *nd, uint64_t now)
{
	struct tmpfs_inode *src = od->ino, *odir = od->dir, *ndir = nw->dir;
	struct tmpfs_inode *victim = nd ? nd->ino : NULL;

	if (nd) {
		nd->ino = src;
		d_detach(fs, od);
		d_free(fs, od);
	} else {
		if (dir_reserve(fs, ndir))
			return -ENOSPC;
		if (nw->len <= od->cap) { /* od moves: odir is tidied once it is back in */
			d_unhook(fs, od);
			mem_copy(od->name, nw->name, nw->len);
			od->len = nw->len;
			d_attach(fs, ndir, od, src);
			dir_tidy(fs, odir);
		} else {
			nd = d_new(fs, nw->name, nw->len);
			if (!nd)
				return -ENOSPC;
			d_attach(fs, ndir, nd, src);
			d_detach(fs, od);
			d_free(fs, od);
		}
	}
	if (is_dir(src) && odir != ndir) {
		odir->nlink--;
		ndir->nlink++;
		src->d.parent = ndir;
	}
	if (victim) {
		note_gone(fs, ndir, nw->name, nw->len, victim);
		drop_link(ndir, victim, now);
	}
	odir->mtime = odir->ctime = now;
	ndir->mtime = ndir->ctime = now;
	src->ctime = now;
	meta_push(src, 0);
	dir_push(odir);
	if (ndir != odir)
		dir_push(ndir);
	if (victim)
		inode_put(victim);
	if (fs->trail_on && ndir == odir && is_reg(src)) {
		/* the names this settled, for the kernel (tmpfs_trail_start):
		 * the next rename between them can be its own */
		trail_add(fs, ndir, nw->name, nw->len, src);
		trail_add(fs, odir, ow->name, ow->len, NULL);
	}
	return 0;
}

ARBOR_HOT int tmpfs_rename(struct tmpfs *fs, const char *from, const char *to,
		 const struct tmpfs_cred *c, uint64_t now)
{
	struct pathwalk ow, nw;
	struct dentry *od, *nd;
	int err = walk_parent(fs, from, c, &ow);

	if (!err)
		err = walk_parent_of(fs, to, c, &nw, 1);
	if (err)
		return err;
	if (name_type(ow.name, ow.len) != LAST_NORM ||
	    name_type(nw.name, nw.len) != LAST_NORM)
		return -EBUSY;
	od = last_find(fs, &ow);
	if (!od)
		return -ENOENT;
	nd = last_find(fs, &nw);
	err = rename_check(&ow, od->ino, &nw, nd ? nd->ino : NULL, c);
	if (err)
		return err < 0 ? err : 0;
	return rename_commit(fs, od, &ow, &nw, nd, now);
}

int tmpfs_renamed(struct tmpfs *fs, const char *from, const char *to, uint64_t id,
		  uint64_t now)
{
	static const struct tmpfs_cred kernel = { .uid = 0, .gid = 0 }; /* it checked */
	struct pathwalk ow, nw;
	struct dentry *od;
	struct tmpfs_inode *dir, *src;
	unsigned walk = fs->walk;
	int err;

	fs->walk = 0; /* no handing back: the kernel's paths have no links or ".." */
	err = walk_parent(fs, from, &kernel, &ow);
	if (!err)
		err = walk_parent_of(fs, to, &kernel, &nw, 1);
	fs->walk = walk;
	if (err)
		return -ESTALE;
	dir = ow.dir;
	od = name_type(ow.name, ow.len) == LAST_NORM ? last_find(fs, &ow) : NULL;
	if (!od || nw.dir != dir || ow.slash || nw.slash || name_type(nw.name, nw.len) != LAST_NORM ||
	    !is_reg(od->ino) || tmpfs_obj_id(od->ino) != id || nw.len > od->cap || last_find(fs, &nw)) {
		dir->d.kstale = false;
		dir_push(dir); /* the kernel forgets this directory's names */
		return -ESTALE;
	}
	src = od->ino;
	d_unhook(fs, od);
	mem_copy(od->name, nw.name, nw.len);
	od->len = nw.len;
	if (dir->d.nslots == dir->d.cap) { /* room for d_attach: od's slot is a hole now */
		while (dir->d.nslots && !dir->d.slots[dir->d.nslots - 1].d)
			dir->d.nslots--;
		if (dir->d.nslots == dir->d.cap)
			dir_compact(dir);
	}
	d_attach(fs, dir, od, src);
	dir_tidy(fs, dir);
	dir->mtime = dir->ctime = now;
	src->ctime = now;
	return 0;
}

int tmpfs_removed(struct tmpfs *fs, const char *path, bool dir, uint64_t id, uint64_t now)
{
	static const struct tmpfs_cred kernel = { .uid = 0, .gid = 0 }; /* it checked */
	struct pathwalk w;
	struct dentry *d;
	struct tmpfs_inode *ino;
	unsigned walk = fs->walk;
	int err;

	fs->walk = 0; /* no handing back: the kernel's paths have no links or ".." */
	err = walk_parent(fs, path, &kernel, &w);
	fs->walk = walk;
	if (err)
		return -ESTALE;
	d = name_type(w.name, w.len) == LAST_NORM && !w.slash ? last_find(fs, &w) : NULL;
	ino = d ? d->ino : NULL;
	if (!ino || tmpfs_obj_id(ino) != id || (dir ? !is_dir(ino) || ino->d.nlive : !is_reg(ino))) {
		w.dir->d.kstale = false;
		dir_push(w.dir); /* the kernel forgets this directory's names */
		return -ESTALE;
	}
	/* remove_entry without its pushes: the kernel set what they say */
	d_detach(fs, d);
	keep_gone(fs, d, ino);
	if (dir) {
		ino->nlink = 0;
		ino->d.parent = ino;
		w.dir->nlink--;
	} else {
		ino->nlink--;
	}
	ino->ctime = now;
	w.dir->mtime = w.dir->ctime = now;
	inode_put(ino);
	return 0;
}

/* ---- attributes ---- */

int tmpfs_chmod(struct tmpfs_inode *ino, uint32_t perm,
		const struct tmpfs_cred *c, uint64_t now)
{
	if (c->uid != 0 && c->uid != ino->uid)
		return -EPERM;
	perm &= 07777;
	if ((perm & S_ISGID) && !in_group_or_root(c, ino->gid))
		perm &= ~S_ISGID;
	ino->mode = (ino->mode & S_IFMT) | perm;
	ino->ctime = now;
	meta_push(ino, 0);
	return 0;
}

/* The mode after a chown of a non-directory: setuid always goes; setgid
 * goes if group-executable or not the caller's group to keep. */
static uint32_t chown_mode(const struct tmpfs_inode *ino,
			   const struct tmpfs_cred *c)
{
	uint32_t mode = ino->mode;

	if (is_dir(ino))
		return mode;
	mode &= ~S_ISUID;
	if ((mode & S_ISGID) &&
	    ((mode & S_IXGRP) || !in_group_or_root(c, ino->gid)))
		mode &= ~S_ISGID;
	return mode;
}

static bool bad_id(int64_t id)
{
	return id < -1 || id >= (int64_t)UINT32_MAX;
}

int tmpfs_chown(struct tmpfs_inode *ino, int64_t uid, int64_t gid,
		const struct tmpfs_cred *c, uint64_t now)
{
	bool root = c->uid == 0, owner = c->uid == ino->uid;
	uint32_t mode;

	if (bad_id(uid) || bad_id(gid))
		return -EINVAL;
	if (uid != -1 && !root && !(owner && (uint32_t)uid == ino->uid))
		return -EPERM;
	if (gid != -1 && !root && !(owner && ((uint32_t)gid == ino->gid ||
					      in_group(c, (uint32_t)gid))))
		return -EPERM;
	mode = chown_mode(ino, c);
	if (mode != ino->mode && !root && !owner)
		return -EPERM;          /* clearing the bits is a chmod */
	if (uid != -1)
		ino->uid = (uint32_t)uid;
	if (gid != -1)
		ino->gid = (uint32_t)gid;
	ino->mode = mode;
	ino->ctime = now;
	meta_push(ino, 0);
	return 0;
}

int tmpfs_access(const struct tmpfs_inode *ino, int mask,
		 const struct tmpfs_cred *c)
{
	if (mask & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	return permission(ino, mask, c);
}

int tmpfs_utimes(struct tmpfs_inode *ino, uint64_t atime, uint64_t mtime,
		 const struct tmpfs_cred *c, uint64_t now)
{
	bool set = (atime != TMPFS_UTIME_NOW && atime != TMPFS_UTIME_OMIT) ||
		   (mtime != TMPFS_UTIME_NOW && mtime != TMPFS_UTIME_OMIT);
	bool owner = c->uid == 0 || c->uid == ino->uid;

	if (atime == TMPFS_UTIME_OMIT && mtime == TMPFS_UTIME_OMIT)
		return 0;
	if (set && !owner)
		return -EPERM;
	if (!set && !owner && permission(ino, W_OK, c))
		return -EACCES;
	/* A file whose data lives in the store has its times there (reads
	 * and writes move them without us): start from those, then push
	 * all three back. */
	if (is_reg(ino) && ino->fs->ops.data && ino->f.data) {
		struct tmpfs_stat cur = { 0 };
		ino->fs->ops.data->stat(ino->fs->ops.data_ctx, ino->f.data, &cur);
		ino->atime = cur.atime;
		ino->mtime = cur.mtime;
		ino->ctime = cur.ctime;
	}
	if (atime != TMPFS_UTIME_OMIT)
		ino->atime = atime == TMPFS_UTIME_NOW ? now : atime;
	if (mtime != TMPFS_UTIME_OMIT)
		ino->mtime = mtime == TMPFS_UTIME_NOW ? now : mtime;
	ino->ctime = now;
	meta_push(ino, TMPFS_ATTR_TIMES);
	return 0;
}

/* The entry naming directory dir in its parent (directories have one). */
static const struct dentry *dir_entry(const struct tmpfs_inode *dir)
{
	const struct tmpfs_inode *parent = dir->d.parent;

	for (uint32_t i = 0; i < parent->d.nslots; i++) {
		const struct dentry *d = parent->d.slots[i].d;

		if (d && d->ino == dir)
			return d;
	}
	return NULL;
}

long tmpfs_dir_path(const struct tmpfs_inode *dir, char *buf, size_t cap)
{
	size_t at = cap;

	if (!is_dir(dir))
		return -ENOTDIR;
	if (!dir->nlink)
		return -ENOENT;
	if (cap < 2)
		return -ENAMETOOLONG;
	buf[--at] = '\0';
	for (; dir != dir->fs->root; dir = dir->d.parent) {
		const struct dentry *d = dir_entry(dir);

		if (!d)
			return -ENOENT;
		if (at < d->len + 1 + 1)
			return -ENAMETOOLONG;
		at -= d->len;
		mem_copy(buf + at, d->name, d->len);
		buf[--at] = '/';
	}
	if (at == cap - 1)
		buf[--at] = '/';
	/* move it to the front */
	size_t n = cap - at;
	for (size_t i = 0; i < n; i++)
		buf[i] = buf[at + i];
	return (long)(n - 1);
}

/* Depth-first search under dir (whose path, at bytes, is in buf) for an
 * entry naming ino: its path's length, or -ENOENT. */
static long find_name(const struct tmpfs_inode *dir, const struct tmpfs_inode *ino, char *buf,
		      size_t at, size_t cap, int depth)
{
	if (depth > 256)
		return -ENOENT;
	for (uint32_t i = 0; i < dir->d.nslots; i++) {
		const struct dentry *d = dir->d.slots[i].d;

		if (!d || (d->ino != ino && !is_dir(d->ino)))
			continue;
		if (at + 1 + d->len + 1 > cap)
			continue;
		buf[at] = '/';
		mem_copy(buf + at + 1, d->name, d->len);
		buf[at + 1 + d->len] = '\0';
		if (d->ino == ino)
			return (long)(at + 1 + d->len);
		long n = find_name(d->ino, ino, buf, at + 1 + d->len, cap, depth + 1);
		if (n >= 0)
			return n;
	}
	return -ENOENT;
}

long tmpfs_file_path(const struct tmpfs_inode *ino, bool tmpfile, char *buf, size_t cap)
{
	static const char deleted[] = " (deleted)";

	if (is_dir(ino))
		return tmpfs_dir_path(ino, buf, cap);
	if (ino->nlink && !(tmpfile && ino->gone_tmp)) {
		if (cap < 2)
			return -ENAMETOOLONG;
		buf[0] = '\0';
		return find_name(ino->fs->root, ino, buf, 0, cap, 0);
	}
	if (ino->gone_d) { /* its directory's path now, if it is still there */
		const struct tmpfs_inode *dir = ino->fs->inodes;
		while (dir && !(dir->ino == ino->gone_dir && is_dir(dir)))
			dir = dir->next;
		long n = dir ? tmpfs_dir_path(dir, buf, cap) : -ENOENT;
		if (n < 0)
			return n;
		if (n == 1)
			n = 0;
		size_t len = ino->gone_d->len;
		if ((size_t)n + 1 + len + sizeof(deleted) > cap)
			return -ENAMETOOLONG;
		buf[n] = '/';
		mem_copy(buf + n + 1, ino->gone_d->name, len);
		mem_copy(buf + n + 1 + len, deleted, sizeof(deleted));
		return (long)((size_t)n + 1 + len + sizeof(deleted) - 1);
	}
	if (!ino->gone)
		return -ENOENT;
	size_t n = ino->gone_cap - 1;
	if (n + sizeof(deleted) > cap)
		return -ENAMETOOLONG;
	mem_copy(buf, ino->gone, n);
	mem_copy(buf + n, deleted, sizeof(deleted));
	return (long)(n + sizeof(deleted) - 1);
}

void tmpfs_stat(const struct tmpfs_inode *ino, struct tmpfs_stat *st)
{
	*st = (struct tmpfs_stat){
		.ino = ino->ino, .nlink = ino->nlink, .size = ino->size,
		.mode = ino->mode, .uid = ino->uid, .gid = ino->gid,
		.rdev = ino->rdev, .atime = ino->atime, .mtime = ino->mtime,
		.ctime = ino->ctime,
	};
	if (is_reg(ino) && ino->fs->ops.data)
		ino->fs->ops.data->stat(ino->fs->ops.data_ctx, ino->f.data, st);
	else if (is_reg(ino))
		st->blocks = ino->f.nalloc * (PAGE_SIZE / 512);
	else if (is_dir(ino))
		st->size = (2 + (uint64_t)ino->d.nlive) * BOGO_DIRENT;
	else if (is_lnk(ino) && ino->size >= SHORT_SYMLINK)
		st->blocks = PAGE_SIZE / 512;   /* Linux shmem: a page */
}

/* ---- file data ---- */

static int data_check(const struct tmpfs_inode *ino)
{
	if (is_dir(ino))
		return -EISDIR;
	return is_reg(ino) ? 0 : -EINVAL;
}

static uint8_t *page_at(const struct tmpfs_inode *ino, uint64_t i)
{
	return i < ino->f.npages ? ino->f.pages[i] : NULL;
}

/* Resizes the page array to n entries (all pages from n on are free). */
static int pages_resize(struct tmpfs_inode *ino, uint64_t n)
{
	uint64_t keep = n < ino->f.npages ? n : ino->f.npages;
	uint8_t **p = NULL;

	if (n) {
		p = fs_alloc(ino->fs, n * sizeof(*p));
		if (!p)
			return -ENOSPC;
		mem_copy(p, ino->f.pages, keep * sizeof(*p));
		mem_zero(p + keep, (n - keep) * sizeof(*p));
	}
	fs_free(ino->fs, ino->f.pages, ino->f.npages * sizeof(*p));
	ino->f.pages = p;
	ino->f.npages = n;
	return 0;
}

/* Grows the page array geometrically to cover `need` pages. */
static int pages_reserve(struct tmpfs_inode *ino, uint64_t need)
{
	uint64_t n = ino->f.npages ? ino->f.npages : 8;

	if (need <= ino->f.npages)
		return 0;
	while (n < need)
		n *= 2;
	return pages_resize(ino, n < MAX_PAGES ? n : MAX_PAGES);
}

long tmpfs_read(struct tmpfs_inode *ino, uint64_t off, void *buf, size_t len,
		uint64_t now)
{
	uint8_t *out = buf;
	uint64_t n, done = 0;
	int err = data_check(ino);

	if (err)
		return err;
	if (ino->fs->ops.data)
		return ino->fs->ops.data->read(ino->fs->ops.data_ctx, ino->f.data, off, buf, len);
	if (!len)
		return 0;
	ino->atime = now;
	if (off >= ino->size)
		return 0;
	n = ino->size - off < len ? ino->size - off : len;
	while (done < n) {
		uint64_t pos = off + done, in = pos & (PAGE_SIZE - 1);
		uint64_t chunk = PAGE_SIZE - in < n - done ? PAGE_SIZE - in : n - done;
		const uint8_t *page = page_at(ino, pos >> PAGE_SHIFT);

		if (page)
			mem_copy(out + done, page + in, chunk);
		else
			mem_zero(out + done, chunk);
		done += chunk;
	}
	return (long)done;
}

/* The page holding byte pos, allocated zeroed if it was a hole; NULL
 * with *err set if it cannot be. */
static uint8_t *page_get(struct tmpfs_inode *ino, uint64_t pos, int *err)
{
	uint8_t **slot = &ino->f.pages[pos >> PAGE_SHIFT];

	if (!*slot) {
		if ((*err = page_new(ino->fs, slot)))
			return NULL;
		ino->f.nalloc++;
	}
	return *slot;
}

long tmpfs_write(struct tmpfs_inode *ino, uint64_t off, const void *buf,
		 size_t len, uint64_t now)
{
	const uint8_t *in = buf;
	uint64_t n = len, done = 0;
	int err = data_check(ino);

	if (err)
		return err;
	if (ino->fs->ops.data)
		return ino->fs->ops.data->write(ino->fs->ops.data_ctx, ino->f.data, off, buf, len);
	if (!len)
		return 0;
	if (off >= TMPFS_MAX_FILE)
		return -EFBIG;
	if (n > TMPFS_MAX_FILE - off)
		n = TMPFS_MAX_FILE - off;       /* a short write, as Linux does */
	if (pages_reserve(ino, (off + n + PAGE_SIZE - 1) >> PAGE_SHIFT))
		return -ENOSPC;
	while (done < n) {
		uint64_t pos = off + done, at = pos & (PAGE_SIZE - 1);
		uint64_t chunk = PAGE_SIZE - at < n - done ? PAGE_SIZE - at : n - done;
		uint8_t *page = page_get(ino, pos, &err);

		if (!page)
			break;
		mem_copy(page + at, in + done, chunk);
		done += chunk;
	}
	if (!done)
		return err; /* -ENOSPC, or -ENOMEM: the writer's memory.max */
	if (off + done > ino->size)
		ino->size = off + done;
	ino->mtime = ino->ctime = now;
	return (long)done;
}

/* Frees whole pages past size and zeroes the tail of the last one, so
 * that bytes past EOF always read back as zero after a later extension. */
static void shrink(struct tmpfs_inode *ino, uint64_t size)
{
	uint64_t keep = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	uint64_t tail = size & (PAGE_SIZE - 1);
	uint8_t *last = keep ? page_at(ino, keep - 1) : NULL;

	pages_free_from(ino, keep);
	if (last && tail)
		mem_zero(last + tail, PAGE_SIZE - tail);
	if (keep < ino->f.npages / 4 || !keep)
		pages_resize(ino, keep);        /* failure just keeps more */
}

int tmpfs_truncate(struct tmpfs_inode *ino, uint64_t size, uint64_t now)
{
	int err = data_check(ino);

	if (err)
		return err;
	if (size > TMPFS_MAX_FILE)
		return -EFBIG;
	if (ino->fs->ops.data)
		return ino->fs->ops.data->truncate(ino->fs->ops.data_ctx, ino->f.data, size);
	if (size < ino->size)
		shrink(ino, size);
	ino->size = size;       /* growth needs nothing: holes read as zero */
	ino->mtime = ino->ctime = now;
	return 0;
}

/* ---- readdir ---- */

static uint32_t dtype(const struct tmpfs_inode *ino)
{
	if (is_dir(ino))
		return TMPFS_DT_DIR;
	if (is_lnk(ino))
		return TMPFS_DT_LNK;
	if ((ino->mode & S_IFMT) == S_IFSOCK)
		return TMPFS_DT_SOCK;
	return is_reg(ino) ? TMPFS_DT_REG : TMPFS_DT_CHR;
}

static void fill_dirent(struct tmpfs_dirent *out, const struct tmpfs_inode *ino,
			const char *name, uint32_t len)
{
	out->ino = ino->ino;
	out->type = dtype(ino);
	mem_copy(out->name, name, len);
	out->name[len] = '\0';
}

/* The first slot whose sequence number is at least seq. */
static uint32_t slot_search(const struct tmpfs_inode *dir, uint64_t seq)
{
	uint32_t lo = 0, hi = dir->d.nslots;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (dir->d.slots[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int tmpfs_readdir(struct tmpfs_inode *dir, uint64_t *pos,
		  struct tmpfs_dirent *out)
{
	uint32_t i;
	const struct dentry *d;

	if (!is_dir(dir))
		return -ENOTDIR;
	if (!dir->nlink)
		return -ENOENT;
	if (*pos == 0 || *pos == 1) {
		if (*pos == 0)
			fill_dirent(out, dir, ".", 1);
		else
			fill_dirent(out, dir->d.parent, "..", 2);
		(*pos)++;
		return 1;
	}
	for (i = slot_search(dir, *pos - 2); i < dir->d.nslots; i++)
		if (dir->d.slots[i].d)
			break;
	if (i == dir->d.nslots)
		return 0;
	d = dir->d.slots[i].d;
	fill_dirent(out, d->ino, d->name, d->len);
	*pos = d->seq + 3;
	return 1;
}

/* ---- lifetime and accessors ---- */

struct tmpfs *tmpfs_create(const struct tmpfs_ops *ops, uint32_t root_mode,
			   uint32_t root_uid, uint32_t root_gid)
{
	struct tmpfs *fs = ops->alloc(sizeof(*fs));

	if (!fs)
		return NULL;
	mem_zero(fs, sizeof(*fs));
	fs->ops = *ops;
	fs->next_ino = 1;
	fs->nbuckets = 64;
	fs->buckets = fs_alloc(fs, fs->nbuckets * sizeof(*fs->buckets));
	if (fs->buckets) {
		mem_zero(fs->buckets, fs->nbuckets * sizeof(*fs->buckets));
		fs->root = inode_new(fs, S_IFDIR | (root_mode & 07777), 0);
	}
	if (!fs->root) {
		tmpfs_destroy(fs);
		return NULL;
	}
	fs->root->uid = root_uid;
	fs->root->gid = root_gid;
	fs->root->nlink = 2;
	fs->root->d.parent = fs->root;
	dir_obj_new(fs, fs->root);
	meta_push(fs->root, TMPFS_ATTR_TIMES);
	return fs;
}

void tmpfs_destroy(struct tmpfs *fs)
{
	while (fs->inodes) {
		struct tmpfs_inode *ino = fs->inodes;

		if (is_dir(ino))
			for (uint32_t i = 0; i < ino->d.nslots; i++)
				if (ino->d.slots[i].d)
					d_free(fs, ino->d.slots[i].d);
		inode_free(ino);
	}
	while (fs->meta_pooled)
		fs->ops.data->destroy(fs->ops.data_ctx, fs->meta_pool[--fs->meta_pooled]);
	fs_free(fs, fs->buckets, fs->nbuckets * sizeof(*fs->buckets));
	fs->ops.free(fs);
}

struct tmpfs_inode *tmpfs_root(struct tmpfs *fs)
{
	return fs->root;
}

void tmpfs_open_ref(struct tmpfs_inode *ino)
{
	ino->opens++;
}

void tmpfs_close_ref(struct tmpfs_inode *ino)
{
	if (ino->opens)
		ino->opens--;
	inode_put(ino);
}

uint64_t tmpfs_data_id(const struct tmpfs_inode *ino)
{
	return is_reg(ino) ? ino->f.data : 0;
}

uint64_t tmpfs_ino(const struct tmpfs_inode *ino)
{
	return ino->ino;
}

uint32_t tmpfs_mode(const struct tmpfs_inode *ino)
{
	return ino->mode;
}

int64_t tmpfs_fifo_get(const struct tmpfs_inode *ino)
{
	return ino->fifo - 1;
}

void tmpfs_fifo_set(struct tmpfs_inode *ino, int64_t handle)
{
	ino->fifo = handle + 1;
}

uint64_t tmpfs_bytes_used(const struct tmpfs *fs)
{
	uint64_t bytes = fs->bytes;
	/* with an external store, the files' data is counted there */
	if (fs->ops.data)
		for (const struct tmpfs_inode *ino = fs->inodes; ino; ino = ino->next)
			if (is_reg(ino) && ino->f.data) {
				struct tmpfs_stat st = { 0 };
				fs->ops.data->stat(fs->ops.data_ctx, ino->f.data, &st);
				bytes += st.blocks * 512;
			}
	return bytes;
}

uint64_t tmpfs_inodes_used(const struct tmpfs *fs)
{
	return fs->ninodes;
}
