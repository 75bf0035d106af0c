/* The name cache (docs/vfs.md, "The name cache"): a file server's names
 * in the kernel, so that a repeated stat or access of a path in one of
 * its mounts is answered without a round trip to the server, as Linux
 * answers from its dcache.
 *
 * Each server endpoint's table of objects (table.c) may have one: entries
 * (directory object, name) -> child object, or a negative entry (no such
 * name), and the root object of each of the server's mounts with the
 * mount table's generation. Only the server installs entries
 * (ncache_add, from the names its own walk saw, under the lock that
 * orders its namespace changes), and before it answers any change of a
 * directory's names it drops that directory's entries (pcache_attr with
 * PCACHE_ATTR_NAMES) or replaces the entry the change settled (a create's
 * or a removal's, ncache_add), so an entry is always the server's
 * current answer once the change is answered.
 * Entries are keyed by the parent's object, so a directory's rename moves
 * its subtree's entries with it. The drop also marks the directory's
 * attributes out of date (PCACHE_ATTR_STALE), so that a run of changes
 * in it costs the server one call: lookups miss at a stale directory,
 * and the server's next walk through it pushes its attributes again. An object leaving the table (freed, or
 * the server's death) takes every entry naming it or a child of it.
 *
 * Lookups (ncache_lookup) walk the entries from the mount's root under
 * the cache's spinlock, checking search permission on every directory
 * from the attributes the server keeps in the objects, with the caller's
 * ids, as tmpfs and ext2 do (Linux's generic_permission). Opens
 * (ncache_open) are the kernel's only for shmem objects (tmpfs): a disk
 * file system's server counts its opens, so the kernel answers only
 * their errors. Whatever the cache cannot answer with certainty
 * (an unknown name, ".", "..", a link, a long path, a stale generation)
 * is NCACHE_MISS: the C library then asks the server.
 *
 * Memory: entries are kernel heap, charged to no cgroup (a client could
 * otherwise be charged for a name another created), and bounded per
 * server by NCACHE_MAX, the least recently used entry going first; each
 * takes about 100 bytes plus its name, so a server's cache stays under
 * 12 MiB (a 10,000-entry tree walked twice fits). Work: a lookup walks at most NCACHE_DEPTH components of a path
 * of at most NCACHE_PATH bytes; dropping a directory's entries or an
 * object's is bounded by NCACHE_MAX.
 *
 * Renames (ncache_rename): the kernel itself renames a tmpfs file within
 * its directory when the cache knows both names (the file's, and the
 * new name's absence) and every thread of the server waits in a receive
 * with nothing queued; the server takes the change from a log before it
 * serves anything else (ncache_log_take; ipc_info.flags says one waits),
 * so a rename costs no round trip and the server stays the judge of
 * everything else. docs/vfs.md, "Renames without a round trip".
 * Unlinks and rmdirs (ncache_unlink) go the same way: a tmpfs file, or a
 * directory the server's current attributes say is empty, whose name the
 * cache knows; a file left with no name and no holder is let go from the
 * server's table at once, so its pages go at the unlink as on Linux.
 * docs/vfs.md, "Unlink and rmdir without a round trip".
 *
 * Locking: nc->lock, then the scheduler's lock (a rename's check that the
 * server is idle) or an object's lock (its attributes), then the heap.
 * Entries are freed after the lock is dropped. */
#include "pcache.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "heap.h"
#include "ipc.h"
#include "kobj.h"
#include "kstring.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

#define NCACHE_BUCKETS 2048
#define NCACHE_MAX 32768
#define NCACHE_ROOTS 16
#define NCACHE_DEPTH 64		/* components a lookup walks */
#define NCACHE_PATH 512		/* bytes of path a lookup takes */
#define NCACHE_NAME_MAX 255
#define NCACHE_NAMES_MAX 4096	/* ncache_add's names buffer */

#define NC_S_IFMT  0170000
#define NC_S_IFDIR 0040000

struct ncache_entry {
	struct list_head hlink;		/* its hash bucket */
	struct list_head lru;		/* nc->lru: oldest first */
	struct list_head kid;		/* dir->nc_kids */
	struct list_head name;		/* child->nc_names (positive only) */
	struct pcache_obj *dir;		/* borrowed: valid while the entry is */
	struct pcache_obj *child;	/* NULL: no such name */
	uint32_t hash, len;
	char text[];
};

struct ncache_root {
	uint32_t inst;			/* the server's mount instance, 0: free */
	struct pcache_obj *obj;		/* borrowed, as entries' */
	uint32_t kopens;		/* descriptors ncache_open made in it, alive */
	bool renames;			/* the kernel may rename in it (ncache_rename_on) */
};

struct ncache {
	struct spinlock lock;
	bool dead;			/* the endpoint died: everything misses */
	bool gen_known;
	uint32_t gen;			/* the mount table's, as the server was told */
	uint32_t count;
	struct list_head lru;
	struct ncache_root roots[NCACHE_ROOTS];
	/* renames the kernel made (ncache_rename) that the server has not
	 * taken yet (ncache_log_take): records, log_used bytes */
	uint32_t workers;		/* threads serving the endpoint (ncache_rename_on) */
	uint32_t log_used;
	uint8_t log[NCACHE_LOG_BYTES];
	struct list_head buckets[NCACHE_BUCKETS];
};

struct ncache *ncache_new(void)
{
	struct ncache *nc = kzalloc(sizeof(*nc));
	if (!nc)
		return NULL;
	nc->lock = (struct spinlock)SPINLOCK_INIT("ncache");
	list_init(&nc->lru);
	for (int i = 0; i < NCACHE_BUCKETS; i++)
		list_init(&nc->buckets[i]);
	return nc;
}

static uint32_t ncache_hash(const struct pcache_obj *dir, const char *s, uint32_t len)
{
	uint64_t h = 1469598103934665603ull ^ ((uint64_t)(uintptr_t)dir >> 4);
	for (uint32_t i = 0; i < len; i++) {
		h ^= (uint8_t)s[i];
		h *= 1099511628211ull;
	}
	return (uint32_t)(h ^ (h >> 32));
}

/* The entry for (dir, name), or NULL (lock held). */
static struct ncache_entry *ncache_find(struct ncache *nc, const struct pcache_obj *dir, const char *s,
					uint32_t len, uint32_t hash)
{
	struct list_head *b = &nc->buckets[hash & (NCACHE_BUCKETS - 1)], *it;
	list_for_each(it, b) {
		struct ncache_entry *e = list_entry(it, struct ncache_entry, hlink);
		if (e->hash == hash && e->dir == dir && e->len == len && memcmp(e->text, s, len) == 0)
			return e;
	}
	return NULL;
}

/* Takes e out of every list (lock held) and onto dead, to be freed once
 * the lock is dropped (ncache_free_list). */
static void ncache_unlink(struct ncache *nc, struct ncache_entry *e, struct list_head *dead)
{
	list_del(&e->hlink);
	list_del(&e->lru);
	list_del(&e->kid);
	list_del(&e->name);
	nc->count--;
	list_add(&e->hlink, dead);
}

static void ncache_free_list(struct list_head *dead)
{
	while (!list_empty(dead)) {
		struct ncache_entry *e = list_first_entry(dead, struct ncache_entry, hlink);
		list_del(&e->hlink);
		kfree(e);
	}
}

/* Every entry on list l (an object's nc_kids or nc_names, linked through
 * the member at offset off) goes (lock held). */
static void ncache_unlink_all(struct ncache *nc, struct list_head *l, bool kids, struct list_head *dead)
{
	while (!list_empty(l)) {
		struct ncache_entry *e = kids ? list_first_entry(l, struct ncache_entry, kid)
					      : list_first_entry(l, struct ncache_entry, name);
		ncache_unlink(nc, e, dead);
	}
}

void ncache_kill(struct ncache *nc)
{
	struct list_head dead;
	list_init(&dead);
	spin_lock(&nc->lock);
	nc->dead = true;
	while (!list_empty(&nc->lru))
		ncache_unlink(nc, list_first_entry(&nc->lru, struct ncache_entry, lru), &dead);
	for (int i = 0; i < NCACHE_ROOTS; i++)
		nc->roots[i] = (struct ncache_root){ 0 };
	spin_unlock(&nc->lock);
	ncache_free_list(&dead);
}

void ncache_free(struct ncache *nc)
{
	ncache_kill(nc);
	kfree(nc);
}

void ncache_obj_gone(struct ncache *nc, struct pcache_obj *o)
{
	struct list_head dead;
	list_init(&dead);
	spin_lock(&nc->lock);
	o->nc_gone = true;
	ncache_unlink_all(nc, &o->nc_kids, true, &dead);
	ncache_unlink_all(nc, &o->nc_names, false, &dead);
	for (int i = 0; i < NCACHE_ROOTS; i++)
		if (nc->roots[i].obj == o)
			nc->roots[i] = (struct ncache_root){ 0 };
	spin_unlock(&nc->lock);
	ncache_free_list(&dead);
}

void ncache_dir_changed(struct ncache *nc, struct pcache_obj *o)
{
	struct list_head dead;
	list_init(&dead);
	spin_lock(&nc->lock);
	ncache_unlink_all(nc, &o->nc_kids, true, &dead);
	spin_unlock(&nc->lock);
	ncache_free_list(&dead);
}

/* ---- the server's side ---- */

static struct endpoint *ncache_endpoint(int h, uint32_t rights, long *err)
{
	struct kobj *o = handle_get_rights(current_thread()->proc, h, KOBJ_KIND(KOBJ_ENDPOINT), rights, err);
	return o ? container_of(o, struct endpoint, obj) : NULL;
}

/* Sets the root of instance inst to o, or removes it (o NULL: -EBUSY
 * while descriptors ncache_open made in it live, as an umount with open
 * files); lock held. */
static long ncache_set_root(struct ncache *nc, uint32_t inst, struct pcache_obj *o)
{
	int free_slot = -1;
	for (int i = 0; i < NCACHE_ROOTS; i++) {
		if (nc->roots[i].inst == inst) {
			if (!o && nc->roots[i].kopens)
				return -EBUSY;
			nc->roots[i].obj = o;
			nc->roots[i].renames = false; /* until the server says so again */
			if (!o)
				nc->roots[i].inst = 0;
			return 0;
		}
		if (!nc->roots[i].inst && free_slot < 0)
			free_slot = i;
	}
	if (!o)
		return 0;
	if (free_slot < 0)
		return -ENOSPC;
	nc->roots[free_slot] = (struct ncache_root){ .inst = inst, .obj = o, .kopens = 0, .renames = false };
	return 0;
}

long sys_ncache_setup(int ep_h, uint32_t gen, uint32_t inst, uint64_t root)
{
	long r;
	struct endpoint *ep = ncache_endpoint(ep_h, HANDLE_RIGHT_MANAGE, &r);
	if (!ep)
		return r;
	struct pcache_obj *o = NULL;
	struct ncache *nc = pcache_table_ncache(ep, true);
	r = nc ? 0 : ep->dead ? -EHOSTDOWN : -ENOMEM;
	if (nc && inst && root && !(o = pcache_table_get(ep, root)))
		r = -EBADF;
	else if (o && !(o->flags & PCACHE_META))
		r = -ENOTDIR;
	if (r == 0) {
		spin_lock(&nc->lock);
		nc->gen = gen;
		nc->gen_known = true;
		if (inst)
			r = o && o->nc_gone ? -EBADF : ncache_set_root(nc, inst, o);
		spin_unlock(&nc->lock);
	}
	if (o)
		pcache_obj_put(o);
	kobj_put(&ep->obj);
	return r;
}

/* Whether name (len bytes) may be an entry's: a real name. */
static bool ncache_name_ok(const char *s, uint32_t len)
{
	if (len == 0 || len > NCACHE_NAME_MAX || (len == 1 && s[0] == '.') ||
	    (len == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (uint32_t i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == '\0')
			return false;
	return true;
}

void ncache_install(struct ncache *nc, struct pcache_obj *dir, struct pcache_obj *child, const char *s,
		   uint32_t len)
{
	/* the same fact again (a walk through names the cache has, to one
	 * it missed): only its place in the LRU moves */
	uint32_t hash = ncache_hash(dir, s, len);
	spin_lock(&nc->lock);
	struct ncache_entry *same = nc->dead ? NULL : ncache_find(nc, dir, s, len, hash);
	bool known = same && same->child == child;
	if (known) {
		list_del(&same->lru);
		list_add_tail(&same->lru, &nc->lru);
	}
	spin_unlock(&nc->lock);
	if (known)
		return;
	struct ncache_entry *e = kmalloc(sizeof(*e) + len);
	if (!e) {
		/* a cache: nothing is lost but a later hit, once the entry the
		 * fact replaces (a created name's negative one) is gone */
		struct list_head dead;
		list_init(&dead);
		spin_lock(&nc->lock);
		struct ncache_entry *old = nc->dead ? NULL : ncache_find(nc, dir, s, len, hash);
		if (old && old->child != child)
			ncache_unlink(nc, old, &dead);
		spin_unlock(&nc->lock);
		ncache_free_list(&dead);
		return;
	}
	e->dir = dir;
	e->child = child;
	e->len = len;
	e->hash = hash;
	memcpy(e->text, s, len);
	list_init(&e->name);
	struct list_head dead;
	list_init(&dead);
	spin_lock(&nc->lock);
	if (nc->dead || dir->nc_gone || (child && child->nc_gone)) {
		list_add(&e->hlink, &dead); /* left the table meanwhile */
	} else {
		struct ncache_entry *old = ncache_find(nc, dir, s, len, e->hash);
		if (old)
			ncache_unlink(nc, old, &dead);
		while (nc->count >= NCACHE_MAX) /* the least recently used goes */
			ncache_unlink(nc, list_first_entry(&nc->lru, struct ncache_entry, lru), &dead);
		list_add_tail(&e->hlink, &nc->buckets[e->hash & (NCACHE_BUCKETS - 1)]);
		list_add_tail(&e->lru, &nc->lru);
		list_add_tail(&e->kid, &dir->nc_kids);
		if (child)
			list_add_tail(&e->name, &child->nc_names);
		nc->count++;
	}
	spin_unlock(&nc->lock);
	ncache_free_list(&dead);
}

long sys_ncache_add(int ep_h, const char *names, size_t len, const struct ncache_rec *recs, uint32_t n)
{
	struct ncache_rec rec[NCACHE_ADD_MAX];
	if (n == 0)
		return 0;
	if (n > NCACHE_ADD_MAX || len == 0 || len > NCACHE_NAMES_MAX)
		return -EINVAL;
	if (copy_from_user(rec, recs, n * sizeof(rec[0])))
		return -EFAULT;
	for (uint32_t i = 0; i < n; i++)
		if (rec[i].pad || rec[i].dir == 0 || (uint32_t)rec[i].off + rec[i].len > len)
			return -EINVAL;
	char small[NCACHE_PATH]; /* a walk's path, as a lookup takes (most installs) */
	char *text = len <= sizeof(small) ? small : kmalloc(len);
	if (!text)
		return -ENOMEM;
	long r = copy_from_user(text, names, len) ? -EFAULT : 0;
	for (uint32_t i = 0; r == 0 && i < n; i++)
		if (!ncache_name_ok(text + rec[i].off, rec[i].len))
			r = -EINVAL;
	struct endpoint *ep = r ? NULL : ncache_endpoint(ep_h, HANDLE_RIGHT_MANAGE, &r);
	struct ncache *nc = ep ? pcache_table_ncache(ep, true) : NULL;
	if (ep && !nc)
		r = ep->dead ? -EHOSTDOWN : -ENOMEM;
	for (uint32_t i = 0; nc && i < n; i++) {
		struct pcache_obj *dir = pcache_table_get(ep, rec[i].dir);
		struct pcache_obj *child = rec[i].child ? pcache_table_get(ep, rec[i].child) : NULL;
		if (!dir || (rec[i].child && !child))
			r = -EBADF;
		else if (!(dir->flags & PCACHE_META))
			r = -ENOTDIR;
		else
			ncache_install(nc, dir, child, text + rec[i].off, rec[i].len);
		if (dir)
			pcache_obj_put(dir);
		if (child)
			pcache_obj_put(child);
		if (r)
			break;
	}
	if (text != small)
		kfree(text);
	if (ep)
		kobj_put(&ep->obj);
	return r;
}

/* ---- lookups ---- */

/* tmpfs's generic_permission on attributes a for ids uid, gid and the
 * calling process's supplementary groups: one class applies; root reads and writes anything, searches any directory and
 * executes what has an x bit. 0 or -EACCES. */
/* What the walk and the permission check read of an object's attributes
 * (a copy of the whole struct pcache_attr per step cost more than the
 * step). */
struct ncache_ids {
	uint32_t mode, uid, gid;
};

/* The check once the class's bits are in mode's low three. */
static inline int ncache_mode_check(const struct ncache_ids *a, uint32_t mode, uint32_t mask, uint32_t uid)
{
	if (!(mask & ~mode & 7))
		return 0;
	if (uid != 0)
		return -EACCES;
	if (!(mask & 1) || (a->mode & NC_S_IFMT) == NC_S_IFDIR || (a->mode & 0111))
		return 0;
	return -EACCES;
}

/* The "other" class after a look at the caller's supplementary groups
 * (setgroups): out of line, so the owner's and the group's checks (every
 * step of a walk by the owner, root's in the benchmarks) need no frame
 * for the call (stat 1632 -> 1657 guest instructions when they had one). */
static __attribute__((noinline)) int ncache_permission_other(const struct ncache_ids *a, uint32_t mask,
							     uint32_t uid)
{
	uint32_t mode = a->mode;
	if (cred_in_group(&current_thread()->proc->cred, a->gid))
		mode >>= 3;
	return ncache_mode_check(a, mode, mask, uid);
}

static int ncache_permission(const struct ncache_ids *a, uint32_t mask, uint32_t uid, uint32_t gid)
{
	if (uid == a->uid)
		return ncache_mode_check(a, a->mode >> 6, mask, uid);
	if (gid == a->gid)
		return ncache_mode_check(a, a->mode >> 3, mask, uid);
	return ncache_permission_other(a, mask, uid); /* a tail call */
}

static bool ncache_is_dir(uint32_t mode)
{
	return (mode & NC_S_IFMT) == NC_S_IFDIR;
}

/* o's mode and owner into *ids: false if its attributes are out of date
 * (as ncache_attr). Always inlined: the walk takes it at every step, and
 * once the renames' two uses made it a call that cost open 17 guest
 * instructions. */
static inline __attribute__((always_inline)) bool ncache_ids(struct pcache_obj *o, struct ncache_ids *ids)
{
	spin_lock(&o->lock);
	bool stale = o->nc_stale;
	*ids = (struct ncache_ids){ .mode = o->attr.mode, .uid = o->attr.uid, .gid = o->attr.gid };
	spin_unlock(&o->lock);
	return !stale;
}


/* o's attributes into *a: false if they are out of date (the server
 * changed the directory since it last pushed them all). */
static bool ncache_attr(struct pcache_obj *o, struct pcache_attr *a)
{
	spin_lock(&o->lock);
	bool stale = o->nc_stale;
	*a = o->attr;
	/* a disk file system's count of its blocks (PCACHE_ATTR_BLOCKS), as
	 * its stat says; else the pages present, as tmpfs's */
	a->blocks = o->nc_srv_blocks ? o->nc_blocks : o->npages * (PAGE_SIZE / 512);
	spin_unlock(&o->lock);
	return !stale;
}

/* Walks path (NUL-terminated, from the mount's root) under nc->lock: 0
 * with *out (root or an entry's child: valid while the lock is held),
 * -errno the server would give, or NCACHE_MISS. */
static long ncache_walk(struct ncache *nc, struct pcache_obj *root, const char *p, uint32_t uid, uint32_t gid,
			struct pcache_obj **out)
{
	struct pcache_obj *dir = root;
	struct ncache_ids a;
	int depth = 0;
	if (*p != '/')
		return NCACHE_MISS;
	while (*p == '/')
		p++;
	while (*p) {
		uint32_t len = 0;
		while (p[len] && p[len] != '/')
			len++;
		const char *rest = p + len;
		while (*rest == '/')
			rest++;
		if (!ncache_ids(dir, &a))
			return NCACHE_MISS; /* changed since: the server refreshes it */
		if (ncache_permission(&a, 1, uid, gid))
			return -EACCES; /* search permission, before the name */
		/* ncache_name_ok's test but for '/' and NUL, which the scan
		 * above stopped at */
		if (len > NCACHE_NAME_MAX || ++depth > NCACHE_DEPTH ||
		    (p[0] == '.' && (len == 1 || (len == 2 && p[1] == '.'))))
			return NCACHE_MISS; /* the server's precise answer */
		struct ncache_entry *e = ncache_find(nc, dir, p, len, ncache_hash(dir, p, len));
		if (!e)
			return NCACHE_MISS;
		list_del(&e->lru);
		list_add_tail(&e->lru, &nc->lru);
		if (!e->child)
			return -ENOENT;
		/* a name followed by a slash, or in the middle, must be a
		 * directory (links are never cached); an object's file type
		 * never changes, so its mode is read without its lock */
		if ((*rest || rest != p + len) && !ncache_is_dir(__atomic_load_n(&e->child->attr.mode, __ATOMIC_RELAXED)))
			return -ENOTDIR;
		dir = e->child;
		p = rest;
	}
	*out = dir;
	return 0;
}

long ncache_gen_check(int fs, uint32_t gen)
{
	long r;
	struct endpoint *ep = ncache_endpoint(fs, HANDLE_RIGHT_CALL, &r);
	if (!ep)
		return r;
	struct ncache *nc = pcache_table_ncache(ep, false);
	r = -ESTALE;
	if (nc) {
		spin_lock(&nc->lock);
		if (!nc->dead && nc->gen_known && nc->gen == gen)
			r = 0;
		spin_unlock(&nc->lock);
	}
	kobj_put(&ep->obj);
	return r;
}

uint32_t ncache_count(struct ncache *nc)
{
	return __atomic_load_n(&nc->count, __ATOMIC_RELAXED);
}

long ncache_lookup_at(struct ncache *nc, struct pcache_obj *root, const char *path, uint32_t uid, uint32_t gid,
		      struct pcache_obj **out)
{
	spin_lock(&nc->lock);
	struct pcache_attr a;
	long r = nc->dead ? NCACHE_MISS : ncache_walk(nc, root, path, uid, gid, out);
	if (r == 0 && !ncache_attr(*out, &a))
		r = NCACHE_MISS;
	spin_unlock(&nc->lock);
	return r;
}

/* The user's path (len bytes) into buf (NCACHE_PATH bytes), NUL-ended:
 * 0; 1 when the cache leaves it to the server ("" and long paths);
 * -EFAULT, or -EINVAL for a NUL within len. */
static long ncache_path_in(const char *path, size_t len, char *buf)
{
	if (len == 0 || len >= NCACHE_PATH)
		return 1;
	if (copy_from_user(buf, path, len))
		return -EFAULT;
	buf[len] = '\0';
	return strlen(buf) != len ? -EINVAL : 0;
}

long sys_ncache_lookup(int fs_h, uint64_t mount, const char *path, size_t len, uint64_t how,
		       struct pcache_attr *out)
{
	char buf[NCACHE_PATH];
	if (how & ~(uint64_t)(7 | NCACHE_NOFOLLOW | NCACHE_ACCESS | NCACHE_EACCESS))
		return -EINVAL;
	if (!(how & NCACHE_ACCESS) && (how & (7 | NCACHE_EACCESS)))
		return -EINVAL;
	long r = ncache_path_in(path, len, buf);
	if (r)
		return r < 0 ? r : NCACHE_MISS;
	struct endpoint *ep = ncache_endpoint(fs_h, HANDLE_RIGHT_CALL, &r);
	if (!ep)
		return r;
	struct ncache *nc = pcache_table_ncache(ep, false);
	const struct cred *c = &current_thread()->proc->cred;
	bool real = (how & NCACHE_ACCESS) && !(how & NCACHE_EACCESS);
	uint32_t uid = real ? c->uid : c->euid, gid = real ? c->gid : c->egid;
	struct pcache_attr a;
	r = NCACHE_MISS;
	if (nc) {
		spin_lock(&nc->lock);
		struct pcache_obj *root = NULL, *o = NULL;
		uint32_t inst = (uint32_t)mount;
		for (int i = 0; inst && i < NCACHE_ROOTS && !root; i++)
			if (nc->roots[i].inst == inst)
				root = nc->roots[i].obj;
		if (!nc->dead && nc->gen_known && nc->gen == (uint32_t)(mount >> 32) && root)
			r = ncache_walk(nc, root, buf, uid, gid, &o);
		if (r == 0 && !ncache_attr(o, &a))
			r = NCACHE_MISS;
		if (r == 0) {
			if (how & NCACHE_ACCESS)
				r = ncache_permission(&(struct ncache_ids){ .mode = a.mode, .uid = a.uid, .gid = a.gid },
						      (uint32_t)how & 7, uid, gid);
		}
		spin_unlock(&nc->lock);
	}
	kobj_put(&ep->obj);
	if (r == 0 && !(how & NCACHE_ACCESS) && copy_to_user(out, &a, sizeof(a)))
		r = -EFAULT;
	return r;
}

/* ---- open ---- */

void ncache_kclose(struct channel *ch)
{
	struct pcache_obj *o = ch->pc;
	struct ncache *nc = pcache_table_ncache(ch->ep, false);
	struct ipc_event *ev = kmalloc(sizeof(*ev));
	bool tell = false;
	if (nc) {
		spin_lock(&nc->lock);
		for (int i = 0; i < NCACHE_ROOTS; i++)
			if (nc->roots[i].inst == ch->kinst && nc->roots[i].kopens) {
				nc->roots[i].kopens--;
				break;
			}
		spin_unlock(&nc->lock);
	}
	spin_lock(&o->lock);
	if (--o->kopens == 0 && o->knotify) {
		o->knotify = false;
		tell = true; /* the server kept the file for us: it may go now */
	}
	spin_unlock(&o->lock);
	if (tell) /* its pages now, not when the server hears of it */
		pcache_table_let_go(ch->ep, o);
	uint64_t f = sched_lock_ipc();
	if (tell && ev && !ch->ep->dead) {
		*ev = (struct ipc_event){ .label = IPC_LABEL_CLOSED, .badge = ch->badge, .w0 = ch->badge };
		ipc_post_event_locked(ch->ep, ev);
		ev = NULL;
	}
	sched_unlock_ipc(f);
	kfree(ev);
}

static uint64_t ncache_badge(const struct pcache_obj *o, uint32_t inst, uint32_t flags)
{
	return NCACHE_KBADGE | (uint64_t)(flags & O_ACCMODE) << 48 | ((flags & O_APPEND) ? NCACHE_KBADGE_APPEND : 0) |
	       (uint64_t)(inst & 0xffff) << 32 | o->id;
}

/* A new channel of ep for open file o (a reference, the channel's),
 * charged to cg, not yet in any handle table; NULL without memory. */
static inline __attribute__((always_inline)) struct channel *
ncache_chan_new(struct endpoint *ep, struct pcache_obj *o, uint32_t inst, uint32_t flags, struct cgroup *cg)
{
	struct channel *ch = ipc_channel_new(ep, ncache_badge(o, inst, flags), cg);
	if (!ch)
		return NULL;
	/* what tmpfs publishes for its own (fssrv_file_give) */
	ch->fst = (struct ipc_fstate){ .set = true, .fst = IPC_FST_SEEKABLE,
				       .events = POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM,
				       .flags = flags & (O_ACCMODE | O_APPEND), .settable = O_APPEND | O_NONBLOCK };
	ch->pc = o;
	ch->pc_writer = (flags & O_ACCMODE) != O_RDONLY; /* sys_ncache_open counted it */
	ch->kopen = true;
	ch->kinst = inst;
	return ch;
}

/* A new channel of ep for open file o (a reference, the channel's):
 * its handle in the caller's table, or -errno. */
static long ncache_channel(struct endpoint *ep, struct pcache_obj *o, uint32_t inst, uint32_t flags)
{
	struct proc *p = current_thread()->proc;
	struct channel *ch = ncache_chan_new(ep, o, inst, flags, p->cgroup);
	if (!ch)
		return -ENOMEM;
	long h = handle_install(p, &ch->obj, HANDLE_RIGHTS_CLIENT);
	kobj_put(&ch->obj); /* the handle's now; on failure the release undoes the counts */
	return h;
}

/* Counts a kernel-made descriptor of o in mount root (nc->lock held),
 * open with access mode acc: one open for writing also counts as a
 * writer (pcache_get_write's count, which its channel's release drops).
 * 0, or -ETXTBSY (nothing counted) for writing to a running program
 * (pcache/exec.c). */
static int ncache_kopen_locked(struct ncache_root *root, struct pcache_obj *o, uint32_t acc)
{
	int r = 0;
	spin_lock(&o->lock);
	if (acc != O_RDONLY && o->execs) {
		r = -ETXTBSY;
	} else {
		o->kopens++;
		o->writers += acc != O_RDONLY;
	}
	spin_unlock(&o->lock);
	if (!r)
		root->kopens++;
	return r;
}

/* Mount instance inst's root entry, if it has a root (nc->lock held). */
static struct ncache_root *ncache_root_of(struct ncache *nc, uint32_t inst)
{
	for (int i = 0; inst && i < NCACHE_ROOTS; i++)
		if (nc->roots[i].inst == inst && nc->roots[i].obj)
			return &nc->roots[i];
	return NULL;
}

long sys_ncache_give(int ep_h, uint32_t inst, uint64_t id, uint32_t flags)
{
	if (flags & ~(uint32_t)(O_ACCMODE | O_APPEND) || (flags & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;
	long r;
	struct endpoint *ep = ncache_endpoint(ep_h, HANDLE_RIGHT_MANAGE, &r);
	if (!ep)
		return r;
	struct thread *self = current_thread();
	struct ncache *nc = pcache_table_ncache(ep, false);
	struct pcache_obj *o = pcache_table_get(ep, id); /* the channel's reference */
	r = !o ? -EBADF : (o->flags & PCACHE_META) ? -EISDIR : !nc ? -ENOENT : 0;
	if (r == 0) {
		spin_lock(&nc->lock);
		struct ncache_root *root = nc->dead || o->nc_gone ? NULL : ncache_root_of(nc, inst);
		r = root ? ncache_kopen_locked(root, o, flags & O_ACCMODE) : -ENOENT;
		spin_unlock(&nc->lock);
	}
	struct channel *ch = r ? NULL : ncache_chan_new(ep, o, inst, flags, self->proc->cgroup);
	if (r == 0 && !ch) { /* undo the counts */
		struct channel undo = { .ep = ep, .pc = o, .kinst = inst, .badge = ncache_badge(o, inst, flags) };
		ncache_kclose(&undo);
		if ((flags & O_ACCMODE) != O_RDONLY)
			pcache_put_write(o);
		r = -ENOMEM;
	}
	if (ch) {
		/* into the caller's table while it is still in its call, as
		 * ipc_give installs */
		uint64_t f = sched_lock_ipc();
		struct thread *c = self->ipc_caller;
		r = c ? handle_install(c->proc, &ch->obj, HANDLE_RIGHTS_CLIENT) : -ESRCH;
		sched_unlock_ipc(f);
		kobj_put(&ch->obj); /* the handle's now; on failure the release undoes the counts */
	} else if (o) {
		pcache_obj_put(o);
	}
	kobj_put(&ep->obj);
	return r;
}

long sys_ncache_open(int fs_h, uint64_t mount, const char *path, size_t len, uint32_t flags)
{
	char buf[NCACHE_PATH];
	if (flags & ~(uint32_t)(O_ACCMODE | O_APPEND) || (flags & O_ACCMODE) == O_ACCMODE)
		return -EINVAL; /* the library sends only these */
	long r = ncache_path_in(path, len, buf);
	if (r)
		return r < 0 ? r : NCACHE_OPEN_MISS;
	struct endpoint *ep = ncache_endpoint(fs_h, HANDLE_RIGHT_CALL, &r);
	if (!ep)
		return r;
	struct ncache *nc = pcache_table_ncache(ep, false);
	const struct cred *c = &current_thread()->proc->cred;
	uint32_t acc = flags & O_ACCMODE, inst = (uint32_t)mount;
	uint32_t need = (acc != O_WRONLY ? 4 : 0) | (acc != O_RDONLY ? 2 : 0);
	struct pcache_obj *o = NULL;
	r = NCACHE_OPEN_MISS;
	if (nc) {
		spin_lock(&nc->lock);
		struct ncache_root *root = NULL;
		for (int i = 0; inst && i < NCACHE_ROOTS && !root; i++)
			if (nc->roots[i].inst == inst && nc->roots[i].obj)
				root = &nc->roots[i];
		long w = NCACHE_MISS;
		if (!nc->dead && nc->gen_known && nc->gen == (uint32_t)(mount >> 32) && root)
			w = ncache_walk(nc, root->obj, buf, c->euid, c->egid, &o);
		struct ncache_ids a;
		if (w == 0 && (!ncache_ids(o, &a) || (o->flags & PCACHE_META) || (a.mode & NC_S_IFMT) != 0100000))
			w = NCACHE_MISS; /* only regular files: the rest is the server's */
		if (w == 0)
			w = ncache_permission(&a, need, c->euid, c->egid);
		/* a disk file system's file (not shmem) is opened by its server,
		 * which counts its opens (its last close writes back): the
		 * kernel answers only the errors */
		if (w == 0 && !(o->flags & PCACHE_SHMEM))
			w = NCACHE_MISS;
		if (w == 0) {
			/* counted under the lock the walk held: a server that drops
			 * the name afterwards sees this open when it frees the file */
			w = ncache_kopen_locked(root, o, acc);
			if (w == 0)
				pcache_obj_get(o);
		}
		spin_unlock(&nc->lock);
		r = w == NCACHE_MISS ? NCACHE_OPEN_MISS : w;
	}
	if (r == 0)
		r = ncache_channel(ep, o, inst, flags);
	if (r == -ENOMEM) { /* no channel: undo the counts (a handle failure's release did) */
		struct channel undo = { .ep = ep, .pc = o, .kinst = inst, .badge = ncache_badge(o, inst, flags) };
		ncache_kclose(&undo);
		if (acc != O_RDONLY)
			pcache_put_write(o);
		pcache_obj_put(o);
	}
	kobj_put(&ep->obj);
	return r;
}

/* ---- renames the kernel makes (docs/vfs.md, "Renames without a round trip") ---- */

long sys_ncache_rename_on(int ep_h, uint32_t inst, uint32_t workers)
{
	long r;
	if (workers > NCACHE_WORKERS_MAX)
		return -EINVAL;
	struct endpoint *ep = ncache_endpoint(ep_h, HANDLE_RIGHT_MANAGE, &r);
	if (!ep)
		return r;
	struct ncache *nc = pcache_table_ncache(ep, false);
	r = -ENOENT;
	if (nc) {
		spin_lock(&nc->lock);
		for (int i = 0; inst && i < NCACHE_ROOTS; i++)
			if (nc->roots[i].inst == inst && !nc->dead) {
				nc->roots[i].renames = workers != 0;
				if (workers)
					nc->workers = workers;
				r = 0;
			}
		spin_unlock(&nc->lock);
	}
	kobj_put(&ep->obj);
	return r;
}

/* Cuts the oldest whole records that fit in cap bytes from ep's log
 * into dst (room bytes): their bytes, or -1 (nothing taken) if they
 * need more than room. */
static long ncache_log_cut(struct endpoint *ep, struct ncache *nc, size_t cap, uint8_t *dst, size_t room)
{
	uint32_t n = 0;
	spin_lock(&nc->lock);
	while (n < nc->log_used) {
		const struct ncache_logrec *rec = (const void *)(nc->log + n);
		if (n + rec->size > cap)
			break;
		n += rec->size;
	}
	if (n > room) {
		spin_unlock(&nc->lock);
		return -1;
	}
	memcpy(dst, nc->log, n);
	memmove(nc->log, nc->log + n, nc->log_used - n);
	nc->log_used -= n;
	if (!nc->log_used)
		ep->nc_info = 0;
	spin_unlock(&nc->lock);
	return n;
}

long sys_ncache_log_take(int ep_h, void *buf, size_t cap)
{
	long r;
	if (cap && !user_range_ok((uint64_t)buf, cap))
		return -EFAULT;
	struct endpoint *ep = ncache_endpoint(ep_h, HANDLE_RIGHT_MANAGE, &r);
	if (!ep)
		return r;
	struct ncache *nc = pcache_table_ncache(ep, false);
	/* a change or two (the usual case: the server takes the log at its
	 * next request) through the stack; more through a page */
	uint8_t small[256], *k = small;
	long n = nc ? ncache_log_cut(ep, nc, cap, small, sizeof(small)) : 0;
	if (n < 0) {
		k = kmalloc(NCACHE_LOG_BYTES);
		n = k ? ncache_log_cut(ep, nc, cap, k, NCACHE_LOG_BYTES) : -ENOMEM;
	}
	/* a buffer that faults loses them: the server's own loss */
	r = n > 0 && copy_to_user(buf, k, (size_t)n) ? -EFAULT : n;
	if (k != small)
		kfree(k);
	kobj_put(&ep->obj);
	return r;
}

/* Splits path (len bytes, from "/") at its last name: the directory's
 * part keeps its final '/'. False for a path the kernel leaves to the
 * server: a trailing slash, ".", "..", an empty or long name. */
static bool ncache_split(const char *p, size_t len, size_t *dlen, uint32_t *nlen)
{
	size_t i = len;
	while (i > 0 && p[i - 1] != '/')
		i--;
	uint32_t n = (uint32_t)(len - i);
	if (i == 0 || n == 0 || n > NCACHE_NAME_MAX || (p[i] == '.' && (n == 1 || (n == 2 && p[i + 1] == '.'))))
		return false;
	*dlen = i;
	*nlen = n;
	return true;
}

/* Whether every thread serving ep waits in a receive with nothing queued
 * (sched lock held): none is working on anything, so none can have seen
 * the names before the change it is about to get in the log. */
static bool ncache_server_idle(const struct endpoint *ep, uint32_t workers)
{
	uint32_t waiting = 0;
	const struct list_head *it;
	if (ep->dead || !list_empty(&ep->callers) || !list_empty(&ep->events))
		return false;
	list_for_each(it, &ep->receivers)
		waiting++;
	return waiting == workers;
}

/* A log record's bytes for paths of al and bl bytes (and their NULs). */
static uint32_t ncache_logrec_size(size_t al, size_t bl)
{
	return (uint32_t)((sizeof(struct ncache_logrec) + al + bl + 2 + 7) & ~(size_t)7);
}

/* The root of the mount a change names (instance mount & 0xffffffff, the
 * table of generation mount >> 32), if the kernel may change names in it
 * (ncache_rename_on) and its log has room for size bytes; else NULL
 * (nc->lock held). */
static struct ncache_root *ncache_change_root(struct ncache *nc, uint64_t mount, uint32_t size)
{
	struct ncache_root *root = NULL;
	for (int i = 0; i < NCACHE_ROOTS && !root; i++)
		if (nc->roots[i].inst && nc->roots[i].inst == (uint32_t)mount)
			root = &nc->roots[i];
	if (nc->dead || !nc->gen_known || nc->gen != (uint32_t)(mount >> 32) || !root || !root->obj ||
	    !root->renames || nc->log_used + size > NCACHE_LOG_BYTES)
		return NULL;
	return root;
}

/* Appends the record of a change to o to the log and tells the server's
 * next delivery (nc->lock and the scheduler's held; ncache_change_root
 * found the room). b is "" (bl 0) for an unlink or rmdir. */
static void ncache_log_put(struct endpoint *ep, struct ncache *nc, uint32_t kind, uint64_t now,
			   const struct pcache_obj *o, uint32_t inst, const char *a, size_t al, const char *b,
			   size_t bl)
{
	uint32_t size = ncache_logrec_size(al, bl);
	struct ncache_logrec *rec = (void *)(nc->log + nc->log_used);
	*rec = (struct ncache_logrec){ .now = now, .id = o->id, .inst = inst, .flen = (uint16_t)al,
				       .tlen = (uint16_t)bl, .size = size, .kind = kind };
	memcpy(rec + 1, a, al);
	((char *)(rec + 1))[al] = '\0';
	memcpy((char *)(rec + 1) + al + 1, b, bl);
	((char *)(rec + 1))[al + 1 + bl] = '\0';
	nc->log_used += size;
	ep->nc_info = IPC_INFO_NCLOG;
}

/* Whether o is the root of one of the server's mounts (nc->lock held):
 * removing it is EBUSY, the server's answer. */
static bool ncache_is_root(const struct ncache *nc, const struct pcache_obj *o)
{
	for (int i = 0; i < NCACHE_ROOTS; i++)
		if (nc->roots[i].inst && nc->roots[i].obj == o)
			return true;
	return false;
}

/* The rename itself, nc->lock held: from (a, al) to (b, bl), the same
 * directory's names. NCACHE_MISS for anything but the plain case. */
static long ncache_rename_locked(struct endpoint *ep, struct ncache *nc, uint64_t mount, char *a, size_t al,
				 const char *b, size_t bl, uint32_t uid, uint32_t gid)
{
	size_t dl, dl2;
	uint32_t on, nn;
	if (!ncache_split(a, al, &dl, &on) || !ncache_split(b, bl, &dl2, &nn) || dl != dl2 || memcmp(a, b, dl) ||
	    nn > on || (nn == on && !memcmp(a + dl, b + dl, on)))
		return NCACHE_MISS; /* across directories, longer, the same name: the server's */
	uint32_t size = ncache_logrec_size(al, bl);
	struct ncache_root *root = ncache_change_root(nc, mount, size);
	if (!root)
		return NCACHE_MISS;
	char keep = a[dl];
	a[dl] = '\0'; /* the directory's path, for the walk */
	struct pcache_obj *dir = NULL;
	long r = ncache_walk(nc, root->obj, a, uid, gid, &dir);
	a[dl] = keep;
	struct ncache_ids d;
	if (r || !(dir->flags & PCACHE_META) || !ncache_ids(dir, &d) || ncache_permission(&d, 3, uid, gid))
		return NCACHE_MISS; /* the server's errors, in Linux's order */
	struct ncache_entry *e = ncache_find(nc, dir, a + dl, on, ncache_hash(dir, a + dl, on));
	struct ncache_entry *t = ncache_find(nc, dir, b + dl, nn, ncache_hash(dir, b + dl, nn));
	struct pcache_obj *o = e ? e->child : NULL;
	if (!o || !t || t->child || !(o->flags & PCACHE_SHMEM) || (o->flags & PCACHE_META))
		return NCACHE_MISS; /* a replace, a directory, a name not known */
	struct ncache_ids f;
	ncache_ids(o, &f);
	if ((f.mode & NC_S_IFMT) != 0100000 || ((d.mode & 01000) && uid != 0 && uid != d.uid && uid != f.uid))
		return NCACHE_MISS; /* not a regular file; the sticky bit's EPERM */
	uint64_t flags = sched_lock_ipc();
	if (!ncache_server_idle(ep, nc->workers)) {
		sched_unlock_ipc(flags);
		return NCACHE_MISS; /* it may be serving something that saw the old names */
	}
	list_del(&e->name);
	list_init(&e->name);
	e->child = NULL;
	t->child = o;
	list_add_tail(&t->name, &o->nc_names);
	uint64_t now = clock_file_ns();
	ncache_log_put(ep, nc, NCACHE_LOG_RENAME, now, o, root->inst, a, al, b, bl);
	sched_unlock_ipc(flags);
	/* the server takes the log under nc->lock: after these */
	spin_lock(&dir->lock);
	dir->attr.mtime = dir->attr.ctime = now;
	spin_unlock(&dir->lock);
	spin_lock(&o->lock);
	o->attr.ctime = now;
	spin_unlock(&o->lock);
	list_del(&e->lru);
	list_add_tail(&e->lru, &nc->lru);
	list_del(&t->lru);
	list_add_tail(&t->lru, &nc->lru);
	return 0;
}

long sys_ncache_rename(int fs_h, uint64_t mount, const char *from, size_t flen, const char *to, size_t tlen)
{
	char a[NCACHE_PATH], b[NCACHE_PATH];
	long err, r = ncache_path_in(from, flen, a);
	long r2 = r < 0 ? 0 : ncache_path_in(to, tlen, b);
	if (r < 0 || r2 < 0)
		return r < 0 ? r : r2;
	struct endpoint *ep = ncache_endpoint(fs_h, HANDLE_RIGHT_CALL, &err);
	if (!ep)
		return err;
	struct ncache *nc = pcache_table_ncache(ep, false);
	const struct cred *c = &current_thread()->proc->cred;
	long res = NCACHE_MISS;
	if (nc && r == 0 && r2 == 0 && flen + tlen + 2 + sizeof(struct ncache_logrec) <= NCACHE_LOG_BYTES) {
		spin_lock(&nc->lock);
		res = ncache_rename_locked(ep, nc, mount, a, flen, b, tlen, c->euid, c->egid);
		spin_unlock(&nc->lock);
	}
	kobj_put(&ep->obj);
	return res;
}

/* The unlink (or, isdir, rmdir) itself, nc->lock held: the name (p, len
 * bytes, writable: the walk cuts it) goes from its directory.
 * NCACHE_MISS for anything but the plain case. */
static long ncache_unlink_locked(struct endpoint *ep, struct ncache *nc, uint64_t mount, char *p, size_t len,
				 bool isdir, uint32_t uid, uint32_t gid, struct pcache_obj **let_go)
{
	size_t dl;
	uint32_t nl;
	if (!ncache_split(p, len, &dl, &nl))
		return NCACHE_MISS; /* ".", "..", a trailing slash: the server's errors */
	struct ncache_root *root = ncache_change_root(nc, mount, ncache_logrec_size(len, 0));
	if (!root)
		return NCACHE_MISS;
	char keep = p[dl];
	p[dl] = '\0'; /* the directory's path, for the walk */
	struct pcache_obj *dir = NULL;
	long r = ncache_walk(nc, root->obj, p, uid, gid, &dir);
	p[dl] = keep;
	struct pcache_attr d, f;
	if (r || !(dir->flags & PCACHE_META) || !ncache_attr(dir, &d) ||
	    ncache_permission(&(struct ncache_ids){ .mode = d.mode, .uid = d.uid, .gid = d.gid }, 3, uid, gid))
		return NCACHE_MISS; /* the server's errors, in Linux's order */
	struct ncache_entry *e = ncache_find(nc, dir, p + dl, nl, ncache_hash(dir, p + dl, nl));
	struct pcache_obj *o = e ? e->child : NULL;
	if (!o || !ncache_attr(o, &f) || ((d.mode & 01000) && uid != 0 && uid != d.uid && uid != f.uid))
		return NCACHE_MISS; /* a name not known (or gone: ENOENT), the sticky bit's EPERM */
	if (isdir) {
		/* an empty directory, as the server last said (its attributes
		 * current: every change of its names marks them stale) */
		if (!(o->flags & PCACHE_META) || !ncache_is_dir(f.mode) || f.nlink != 2 ||
		    f.size != 2 * NCACHE_DIRENT_SIZE || ncache_is_root(nc, o))
			return NCACHE_MISS; /* ENOTDIR, ENOTEMPTY, EBUSY: the server's */
	} else if ((o->flags & PCACHE_META) || !(o->flags & PCACHE_SHMEM) || (f.mode & NC_S_IFMT) != 0100000 ||
		   f.nlink == 0) {
		return NCACHE_MISS; /* a directory's EISDIR, a disk file system's file */
	}
	uint64_t flags = sched_lock_ipc();
	if (!ncache_server_idle(ep, nc->workers)) {
		sched_unlock_ipc(flags);
		return NCACHE_MISS; /* it may be serving something that saw the name */
	}
	list_del(&e->name);
	list_init(&e->name);
	e->child = NULL; /* now the server's answer: no such name */
	uint64_t now = clock_file_ns();
	ncache_log_put(ep, nc, isdir ? NCACHE_LOG_RMDIR : NCACHE_LOG_UNLINK, now, o, root->inst, p, len, "", 0);
	sched_unlock_ipc(flags);
	/* the server takes the log under nc->lock: after these, which are
	 * what its own unlink or rmdir would push */
	spin_lock(&dir->lock);
	dir->attr.mtime = dir->attr.ctime = now;
	dir->attr.size -= NCACHE_DIRENT_SIZE;
	if (isdir)
		dir->attr.nlink--; /* its ".." is gone */
	spin_unlock(&dir->lock);
	spin_lock(&o->lock);
	o->attr.nlink = isdir ? 0 : o->attr.nlink - 1;
	o->attr.ctime = now;
	/* a file's last name gone, with nothing but the server's table
	 * holding it (no descriptor, no mapping, no call in progress; none
	 * can start: its name is gone and the server is idle): its pages go
	 * now, as Linux frees them at the unlink, not when the server takes
	 * the record (it then finds the object let go: pcache_free is 0) */
	if (!isdir && o->attr.nlink == 0 && o->kopens == 0 && __atomic_load_n(&o->refs, __ATOMIC_ACQUIRE) == 1) {
		pcache_obj_get(o);
		*let_go = o;
	}
	/* held open by descriptors the kernel made: the last one's close
	 * lets it go and tells the server, as after the server's own
	 * unlink's refused pcache_free (it may come before the server takes
	 * the record, which then finds the object let go) */
	if (!isdir && o->attr.nlink == 0 && o->kopens)
		o->knotify = true;
	spin_unlock(&o->lock);
	list_del(&e->lru);
	list_add_tail(&e->lru, &nc->lru);
	return 0;
}

long sys_ncache_unlink(int fs_h, uint64_t mount, const char *path, size_t len, uint32_t how)
{
	char p[NCACHE_PATH];
	if (how & ~(uint32_t)NCACHE_UNLINK_DIR)
		return -EINVAL;
	long err, r = ncache_path_in(path, len, p);
	if (r < 0)
		return r;
	struct endpoint *ep = ncache_endpoint(fs_h, HANDLE_RIGHT_CALL, &err);
	if (!ep)
		return err;
	struct ncache *nc = pcache_table_ncache(ep, false);
	const struct cred *c = &current_thread()->proc->cred;
	long res = NCACHE_MISS;
	struct pcache_obj *let_go = NULL;
	if (nc && r == 0 && len + 2 + sizeof(struct ncache_logrec) <= NCACHE_LOG_BYTES) {
		spin_lock(&nc->lock);
		res = ncache_unlink_locked(ep, nc, mount, p, len, how & NCACHE_UNLINK_DIR, c->euid, c->egid,
					   &let_go);
		spin_unlock(&nc->lock);
	}
	if (let_go) { /* out of the table: the last reference, ours, frees its pages */
		pcache_table_let_go(ep, let_go);
		pcache_obj_put(let_go);
	}
	kobj_put(&ep->obj);
	return res;
}
