/* Direct calls (docs/vfs.md, "Direct calls"): a path request sent by the
 * C library straight to the file system that holds the path, one server
 * hop instead of two (client -> VFS -> file system). The library keeps a
 * copy of the VFS's mount table (VFS_ROUTES) with its generation, chooses
 * the mount as the VFS does (the same code: arbor/vfs_path.h) and sends
 * the generation with each call; a file system told of a newer table (the
 * VFS sends FS_GEN on every mount and umount before it answers) refuses
 * the call with -ESTALE, and the library reloads the table and tries
 * again. A symlink or ".." handed back is walked here as the VFS would.
 * What only the VFS can do (cgroup2 mounts, changes on read-only mounts,
 * realpath, a ".." above a mount that does not walk, a dead server) goes
 * to the VFS as before. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/cgroup.h"
#include "abi/fs.h"
#include "abi/pcache.h"
#include "arbor/user.h"
#include "arbor/vfs_path.h"
#include "arbor_sys.h"
#include "ufault.h"
#include "arbor/hot.h"

long __vfs_handle(void);
long __private_lookup(long *cache, const char *name);
long __vfs_direct(const char *path, uint64_t label, uint64_t w0, uint64_t w1, uint64_t at, void *rcv,
		  size_t rcv_len, uint64_t *out);
/* rename, link ("a\0b\0", two absolute paths) and symlink (a the link's
 * path, b its text): the reply's label, or DIRECT_NO. */
long __vfs_direct2(uint64_t label, const char *a, const char *b, bool b_is_path, uint64_t w0);

/* Nonzero: stat and access skip the kernel's name cache and ask the
 * server (tests compare the two answers). */
int __arbor_ncache_bypass;
/* Renames the kernel made itself (ncache_rename): tests count them. */
unsigned long __arbor_ncache_renames;
/* Unlinks and rmdirs the kernel made itself (ncache_unlink): tests count them. */
unsigned long __arbor_ncache_unlinks;

#define DIRECT_NO 1		/* not for a direct call: ask the VFS */
/* __vfs_direct's at for VFS_OPEN (the library's own, never sent): opendir
 * asks for the first batch of entries with the open (FS_WALK_DENTS), and
 * out is 3 words: the handle, the batch's bytes, FS_DENTS_*. */
#define DIRECT_AT_DENTS (1ull << 62)
#define MAXSYMLINKS 40		/* Linux's, as the VFS */
#define SERVERS_MAX 8

/* The table, as the VFS gave it, under table_lock. */
static struct fs_route routes[FS_ROUTES_MAX];
static long route_h[FS_ROUTES_MAX];	/* each route's server handle, or -1: not yet looked up */
static int nr_routes;
static uint32_t routes_gen;
static bool routes_loaded;
static char cg2_target[64];	/* the first cgroup2 mount's target, cg2_len bytes */
static size_t cg2_len;
static ulock_t table_lock;
/* The file systems' endpoints, by type (private, close-on-exec handles). */
static struct {
	char type[sizeof(routes[0].type)];
	long h;
} servers[SERVERS_MAX];

/* Reloads the table from the VFS (table_lock held); false if it cannot. */
static bool routes_reload(void)
{
	long v = __vfs_handle();
	if (v < 0)
		return false;
	struct ipc_msg m = { .label = VFS_ROUTES };
	long r = __file_call((int)v, &m, NULL, 0, routes, sizeof(routes));
	if (r < 0 || (long)m.label < 0 || m.w[1] > FS_ROUTES_MAX) {
		routes_loaded = false;
		return false;
	}
	nr_routes = (int)m.w[1];
	routes_gen = (uint32_t)m.w[0];
	for (int k = 0; k < nr_routes; k++)
		route_h[k] = -1;
	routes_loaded = true;
	cg2_len = 0;
	for (int k = 0; k < nr_routes; k++)
		if ((routes[k].kind & FS_RT_CGROUP2) && routes[k].tlen > 1 &&
		    routes[k].tlen < sizeof(cg2_target)) {
			memcpy(cg2_target, routes[k].target, routes[k].tlen);
			cg2_len = routes[k].tlen;
			break;
		}
	return true;
}

/* Whether path lies under the (first) cgroup2 mount: the VFS serves those
 * itself, so the library skips the route search (cgroup mkdir, rmdir and
 * friends are hot). Read without the lock: a stale or torn answer only
 * sends a call to the VFS, which is always right, or down the full route
 * search. */
static ARBOR_HOT bool under_cgroup2(const char *path)
{
	size_t n = __atomic_load_n(&cg2_len, __ATOMIC_RELAXED);
	return n && strncmp(path, cg2_target, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The endpoint of file-system type t's server (table_lock held). */
static long server_handle(const char *t)
{
	int free_slot = -1;
	for (int i = 0; i < SERVERS_MAX; i++) {
		if (servers[i].type[0] && strcmp(servers[i].type, t) == 0)
			return servers[i].h;
		if (!servers[i].type[0] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0 || strlen(t) >= sizeof(servers[0].type))
		return -ENOSPC;
	char name[sizeof(FS_NAME_PREFIX) + sizeof(servers[0].type)];
	strcpy(name, FS_NAME_PREFIX);
	strcat(name, t);
	servers[free_slot].h = -1;
	long h = __private_lookup(&servers[free_slot].h, name);
	if (h >= 0)
		strcpy(servers[free_slot].type, t);
	return h;
}

/* Takes table_lock if it is free. Never waits: a signal handler's path
 * call may interrupt the holder, and a child forked while another thread
 * held it has no one to release it; those calls go to the VFS instead. */
static ARBOR_HOT bool table_trylock(void)
{
	return !__atomic_exchange_n(&table_lock.locked, 1, __ATOMIC_ACQUIRE);
}

/* Forgets server handle h (its server is gone: the VFS reports it). */
static void server_forget(long h)
{
	if (!table_trylock())
		return;
	for (int i = 0; i < SERVERS_MAX; i++)
		if (servers[i].type[0] && servers[i].h == h) {
			sys_handle_close((int)h);
			servers[i].type[0] = '\0';
		}
	for (int k = 0; k < nr_routes; k++)
		if (route_h[k] == h)
			route_h[k] = -1;
	uunlock(&table_lock);
}

/* A route and what a call on it needs, copied out of the table: its
 * words only (the target is fetched on a hand-back, route_target), and
 * its place in the table of generation gen. */
struct route_words {
	uint64_t flags;		/* MS_* */
	uint32_t inst;
	uint16_t tlen;
	uint8_t kind;		/* FS_RT_* */
};
struct droute {
	struct route_words r;
	int idx;
	long h;
	uint32_t gen;
};

/* The mount that holds normalized path p (plen), as vfs_mount_find;
 * reload: fetch the table first. A cgroup2 mount is found only with cg2
 * (the VFS's own but for cgfs_direct). */
static ARBOR_HOT bool route_find_kind(const char *p, size_t plen, bool reload, bool cg2, struct droute *d)
{
	bool found = false;
	if (!table_trylock())
		return false;
	if ((!routes_loaded || reload) && !routes_reload()) {
		uunlock(&table_lock);
		return false;
	}
	for (int k = 0; k < nr_routes; k++) { /* longest target first */
		/* vfs_path_under inline, the first name's first byte before
		 * the boundary: they rule out most mounts in a few
		 * instructions (through the call, each mount added, /dev/shm's,
		 * cost stat and open 28 guest instructions), and the mount
		 * found pays no call and no second boundary test */
		size_t tl = routes[k].tlen;
		if (tl > 1 && (plen < tl || p[1] != routes[k].target[1] || (p[tl] != '\0' && p[tl] != '/')))
			continue;
		if (tl == 1 || vfs_path_starts(p, routes[k].target, tl)) {
			/* a cgroup2 mount is the VFS's own: no copy for it */
			if (!(routes[k].kind & FS_RT_CGROUP2) == !cg2) {
				d->r = (struct route_words){ .flags = routes[k].flags, .inst = routes[k].inst,
							     .tlen = routes[k].tlen, .kind = routes[k].kind };
				d->idx = k;
				d->gen = routes_gen;
				if (route_h[k] < 0)
					route_h[k] = server_handle(routes[k].type);
				d->h = route_h[k];
				found = d->h >= 0;
			}
			break;
		}
	}
	uunlock(&table_lock);
	return found;
}

/* The target of route d into out (room for a route's), if the table is
 * still the one d came from; else false (then ask the VFS). */
static bool route_target(const struct droute *d, char *out)
{
	bool ok = false;
	if (!table_trylock())
		return false;
	if (routes_loaded && routes_gen == d->gen && d->idx < nr_routes) {
		memcpy(out, routes[d->idx].target, sizeof(routes[0].target));
		out[sizeof(routes[0].target) - 1] = '\0';
		ok = true;
	}
	uunlock(&table_lock);
	return ok;
}

/* The mount that holds p, an absolute path with no link, "." or ".." in
 * it (a realpath): its target into target (256 bytes, a route's) and the
 * table's generation; reload: fetch the table first. 0, -EROFS if the
 * mount is read-only (target and gen set), or -EAGAIN if the table is
 * busy (a signal handler's call) or no server answers it. */
long __vfs_mount_of(const char *p, bool reload, char *target, uint32_t *gen)
{
	struct droute d;
	if (!route_find_kind(p, strlen(p), reload, under_cgroup2(p), &d) || !route_target(&d, target))
		return -EAGAIN;
	*gen = d.gen;
	return (d.r.flags & MS_RDONLY) ? -EROFS : 0;
}

static ARBOR_HOT bool route_find(const char *p, size_t plen, bool reload, struct droute *d)
{
	return route_find_kind(p, plen, reload, false, d);
}

/* As the VFS's follows_last and walk_flags. */
static ARBOR_HOT uint64_t walk_flags(const struct route_words *r, uint64_t label, uint64_t w0, uint64_t at)
{
	uint64_t w = FS_WALK_DIRECT;
	bool follow;
	switch (label) {
	case VFS_OPEN:
		follow = !(w0 & O_NOFOLLOW);
		break;
	case VFS_STAT: case VFS_CHMOD: case VFS_CHOWN: case VFS_ACCESS: case VFS_UTIMES:
		follow = !(at & VFS_AT_NOFOLLOW);
		break;
	default:
		follow = false;
	}
	if (!follow) /* every server hears it (procfs's /proc/PID/fd links) */
		w |= FS_WALK_NOFOLLOW;
	if (!(r->kind & FS_RT_WALKS))
		return w;
	if (r->kind & FS_RT_NESTED)
		w |= FS_WALK_DOTDOT_ALL;
	else if (r->tlen > 1)
		w |= FS_WALK_DOTDOT_ROOT;
	if (label == VFS_ACCESS && (at & VFS_AT_EACCESS))
		w |= FS_WALK_EACCESS;
	return w;
}

static ARBOR_HOT bool direct_label(uint64_t label)
{
	switch (label) {
	case VFS_OPEN: case VFS_STAT: case VFS_MKDIR: case VFS_RMDIR: case VFS_UNLINK: case VFS_CHMOD:
	case VFS_CHOWN: case VFS_ACCESS: case VFS_UTIMES:
		return true; /* readlink: the VFS cuts the text to the caller's
				buffer; statfs: it probes with a stat */
	default:
		return false;
	}
}

/* stat or access of inner (the path in mount d) answered by the kernel's
 * name cache (docs/vfs.md, "The name cache"): 0 or -errno, or
 * NCACHE_MISS (the server must answer). */
static ARBOR_HOT long direct_ncache(const struct droute *d, uint64_t label, uint64_t w0, uint64_t at, const char *inner,
			  size_t ilen, void *rcv, size_t rcv_len)
{
	struct pcache_attr a;
	uint64_t how;
	if (__arbor_ncache_bypass)
		return NCACHE_MISS;
	if (label == VFS_STAT) {
		if (!rcv || rcv_len != sizeof(struct stat))
			return NCACHE_MISS;
		how = NCACHE_STAT | ((at & VFS_AT_NOFOLLOW) ? NCACHE_NOFOLLOW : 0);
	} else {
		how = NCACHE_ACCESS | (w0 & 7) | ((at & VFS_AT_NOFOLLOW) ? NCACHE_NOFOLLOW : 0) |
		      ((at & VFS_AT_EACCESS) ? NCACHE_EACCESS : 0);
	}
	long r = sys_ncache_lookup((int)d->h, d->r.inst | (uint64_t)d->gen << 32, inner, ilen, how, &a);
	if (r == 0 && label == VFS_STAT)
		r = __arbor_stat_from_attr(&a, rcv); /* -EFAULT for a bad buffer */
	return r;
}

/* Whether open's flags are the kernel's to answer (ncache_open): an
 * existing file's plain open, read, write or both, maybe appending. */
static ARBOR_HOT bool direct_open_flags(uint64_t w0)
{
	return ((int)w0 & O_ACCMODE) != O_ACCMODE &&
	       !(w0 & ~(uint64_t)(O_ACCMODE | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_LARGEFILE | O_NOCTTY));
}

struct direct_bufs {
	char norm[VFS_PATH_MAX];	/* the lexical prefix; then the inner path or the reply */
	char path[VFS_PATH_MAX];	/* the path after a hand-back */
	char scratch[2 * VFS_PATH_MAX];
};

/* A hand-back in reply m to a walk of inner on the mount at target: the
 * new path into out (link: the link's text, in the receive buffer). */
static long direct_handback(const char *target, const char *inner, size_t ilen, const struct ipc_msg *m,
			    const char *link, size_t link_room, int *links, char *out, char *scratch)
{
	uint64_t kind = m->w[0], off = m->w[2], clen = m->w[3], tlen = m->w[4];
	if (off + clen > ilen || (kind != FS_HB_LINK && kind != FS_HB_DOTDOT) ||
	    (kind == FS_HB_LINK && (tlen == 0 || tlen > link_room)))
		return -EIO; /* a confused server */
	if (kind == FS_HB_LINK && ++*links > MAXSYMLINKS)
		return -ELOOP;
	return vfs_handback_path(target, inner, off, clen, kind == FS_HB_LINK ? link : NULL, tlen, out,
				 scratch);
}

/* mkdir or rmdir of p under a cgroup2 mount: the kernel's (cgfs_direct),
 * with the caller's own ids, as the VFS would ask it for them. The cgroup2
 * server publishes the table's generation to the kernel (FS_GEN), so a
 * call made with an older table is refused (-ESTALE) as a file system's
 * direct call is: then the new table, then the VFS. */
static __attribute__((noinline)) long direct_cgroup(const char *p, uint64_t label)
{
	char norm[VFS_PATH_MAX], inner[VFS_PATH_MAX];
	bool reload = false;
	for (int stale = 0; stale < 2; stale++) {
		struct droute d;
		bool dd;
		size_t rest, plen = vfs_lexical_prefix(p, norm, &dd);
		if (!route_find_kind(norm, plen, reload, true, &d) || (d.r.flags & MS_RDONLY) ||
		    (d.r.kind & FS_RT_CGSUB))
			return DIRECT_NO; /* another kind of mount now, EROFS, or a mount
					     rooted in a namespace's cgroup: the VFS's */
		if (label == VFS_RMDIR && !dd && plen == d.r.tlen)
			return DIRECT_NO; /* the mount point: EBUSY from the VFS */
		const char *raw = p + vfs_prefix_end(p, d.r.tlen);
		if (vfs_has_dot_component(raw))
			return DIRECT_NO; /* the VFS walks "." and ".." as Linux */
		long n = vfs_inner_normalize(raw, inner, &rest);
		if (n == -2)
			return -ENAMETOOLONG;
		if (n < 0)
			return DIRECT_NO; /* ".." above the mount */
		long r = sys_cgfs_direct((int)d.h, d.gen, inner,
					 label == VFS_MKDIR ? CGFS_DIRECT_MKDIR : CGFS_DIRECT_RMDIR);
		if (r != -ESTALE)
			return r == -EBADF || r == -EPERM ? DIRECT_NO : r;
		reload = true;
	}
	return DIRECT_NO; /* the server has not heard of our table yet */
}

/* vfs_prefix_end of p in a mount of target length tlen; a normal p is its
 * own lexical prefix, so the target is its first tlen bytes. */
static ARBOR_HOT size_t direct_prefix_end(const char *p, bool normal, size_t tlen)
{
	return !normal ? vfs_prefix_end(p, tlen) : tlen > 1 ? tlen : 0;
}

ARBOR_HOT long __vfs_direct(const char *p, uint64_t label, uint64_t w0, uint64_t w1, uint64_t at, void *rcv,
		  size_t rcv_len, uint64_t *out)
{
	struct direct_bufs b;
	int links = 0, stale = 0;
	bool reload = false;
	if (!direct_label(label))
		return DIRECT_NO;
	/* under cgroup2: mkdir and rmdir are the kernel's; opendir's open
	 * goes to the cgroup2 server (which serves listings), as the VFS
	 * would forward it; the rest is the VFS's own */
	bool cg2 = under_cgroup2(p);
	if (cg2 && (label == VFS_MKDIR || label == VFS_RMDIR))
		return direct_cgroup(p, label);
	if (cg2 && !(label == VFS_OPEN && (w0 & O_DIRECTORY)))
		return DIRECT_NO;
	for (int round = 0; round < 4 * VFS_PATH_MAX; round++) {
		struct droute d;
		bool dd = false;
		size_t plen;
		bool normal = vfs_path_normal(p, &plen); /* its own lexical prefix: no copy */
		if (!normal)
			plen = vfs_lexical_prefix(p, b.norm, &dd);
		if (!route_find_kind(normal ? p : b.norm, plen, reload, cg2, &d))
			return DIRECT_NO;
		reload = false;
		if ((d.r.flags & MS_RDONLY) && vfs_changes_fs(label, w0, true))
			return DIRECT_NO; /* the VFS walks first: the path may leave the mount */
		if ((label == VFS_RMDIR || label == VFS_UNLINK) && !dd && plen == d.r.tlen)
			return DIRECT_NO; /* a mount point, if our table is current: the VFS knows
					     (after our own umount, the table is not yet reloaded) */
		size_t off = direct_prefix_end(p, normal, d.r.tlen), ilen, rest;
		const char *inner;
		void *rb = rcv;
		size_t rl = rcv_len;
		if (d.r.kind & FS_RT_WALKS) { /* as written */
			inner = p[off] ? p + off : "/";
			ilen = !p[off] ? 1 : normal ? plen - off : strlen(inner);
			if (!rb) { /* room for a link's text */
				rb = b.norm;
				rl = sizeof(b.norm);
			}
		} else {
			if (vfs_has_dot_component(p + off))
				return DIRECT_NO; /* the VFS walks "." and ".." as Linux */
			long n = vfs_inner_normalize(p + off, b.norm, &rest);
			if (n == -2)
				return -ENAMETOOLONG;
			if (n < 0)
				return DIRECT_NO; /* ".." above this mount: the VFS's */
			inner = b.norm;
			ilen = (size_t)n;
		}
		uint64_t nc = 0;
		if ((label == VFS_STAT || label == VFS_ACCESS) && (d.r.kind & FS_RT_WALKS)) {
			long k = direct_ncache(&d, label, w0, at, inner, ilen, rcv, rcv_len);
			if (k != NCACHE_MISS)
				return k;
			nc = FS_WALK_NCMISS; /* the server fills the cache */
		}
		if (label == VFS_OPEN && (d.r.kind & FS_RT_WALKS) && direct_open_flags(w0)) {
			long k = __arbor_ncache_bypass ? NCACHE_OPEN_MISS :
				 sys_ncache_open((int)d.h, d.r.inst | (uint64_t)d.gen << 32, inner, ilen,
						 (uint32_t)w0 & (O_ACCMODE | O_APPEND));
			if (k != NCACHE_OPEN_MISS) {
				if (k >= 0 && out)
					*out = (uint64_t)k;
				return k < 0 ? k : 0;
			}
			nc = FS_WALK_NCMISS;
		}
		if ((label == VFS_UNLINK || label == VFS_RMDIR) && (d.r.kind & FS_RT_WALKS) && !__arbor_ncache_bypass) {
			/* a file or an empty directory the kernel's name cache
			 * knows: the kernel removes it (docs/vfs.md, "Unlink and
			 * rmdir without a round trip") */
			long k = sys_ncache_unlink((int)d.h, d.r.inst | (uint64_t)d.gen << 32, inner, ilen,
						   label == VFS_RMDIR ? NCACHE_UNLINK_DIR : 0);
			if (k != NCACHE_MISS) {
				__arbor_ncache_unlinks += k == 0;
				return k;
			}
		}
		if (label == VFS_OPEN && (at & DIRECT_AT_DENTS))
			nc |= FS_WALK_DENTS;
		struct ipc_msg m = { .label = label, .w = { w0, w1,
			d.r.inst | walk_flags(&d.r, label, w0, at) | nc | (uint64_t)d.gen << 32 } };
		long r = __file_call((int)d.h, &m, inner, ilen, rb, rl);
		if (r < 0) {
			server_forget(d.h);
			return DIRECT_NO; /* the VFS says EIO */
		}
		long e = (long)m.label;
		if (e == -ESTALE) {
			if (stale++)
				return DIRECT_NO; /* the server has not heard of our table yet */
			reload = true; /* a mount or umount since: the new table */
			continue;
		}
		if (e == -ENAMETOOLONG && rcv)
			return DIRECT_NO; /* perhaps a link's text that did not fit the caller's buffer */
		if (e < 0 && e != -ENOENT && e != -ENOTDIR && !(d.r.kind & FS_RT_WALKS))
			return DIRECT_NO; /* the server judged the path as a whole ("no files
					     are created here"): the VFS gives the walk's error
					     first, as Linux; ENOENT and ENOTDIR are the walk's */
		if (e != FS_HANDBACK) {
			if (e >= 0 && out)
				*out = m.w[0];
			if (e >= 0 && (nc & FS_WALK_DENTS)) {
				bool sent = (m.w[2] & FS_DENTS_SENT) && m.w[1] <= rcv_len;
				out[1] = sent ? m.w[1] : 0;
				out[2] = sent ? m.w[2] : 0;
			}
			return e;
		}
		char target[sizeof(routes[0].target)];
		if (!route_target(&d, target))
			return DIRECT_NO;
		e = m.w[1] != 0 ? -EIO : direct_handback(target, inner, ilen, &m, rb, rl, &links, b.path, b.scratch);
		if (e < 0)
			return e;
		p = b.path;
	}
	return -ELOOP;
}

struct direct_bufs2 {
	char norm[VFS_PATH_MAX];	/* a lexical prefix; then the reply */
	char path[2][VFS_PATH_MAX];	/* the paths after hand-backs */
	char scratch[2 * VFS_PATH_MAX];
	char snd[2 * VFS_PATH_MAX + 2];	/* "inner\0inner2\0" or "inner\0text\0" */
};

ARBOR_HOT long __vfs_direct2(uint64_t label, const char *a, const char *b, bool b_is_path, uint64_t w0)
{
	struct direct_bufs2 x;
	const char *p[2] = { a, b_is_path ? b : NULL };
	int np = b_is_path ? 2 : 1, links = 0, stale = 0;
	bool reload = false;
	for (int round = 0; round < 4 * VFS_PATH_MAX; round++) {
		struct droute d[2];
		const char *inner[2];
		size_t ilen[2];
		bool root[2];
		for (int i = 0; i < np; i++) {
			bool dd = false;
			size_t plen;
			bool normal = vfs_path_normal(p[i], &plen); /* its own lexical prefix */
			if (!normal)
				plen = vfs_lexical_prefix(p[i], x.norm, &dd);
			if (!route_find(normal ? p[i] : x.norm, plen, reload, &d[i]) || !(d[i].r.kind & FS_RT_WALKS))
				return DIRECT_NO;
			reload = false;
			root[i] = !dd && plen == d[i].r.tlen;
			size_t off = direct_prefix_end(p[i], normal, d[i].r.tlen);
			inner[i] = p[i][off] ? p[i] + off : "/";
			ilen[i] = !p[i][off] ? 1 : normal ? plen - off : strlen(inner[i]);
		}
		if (np == 2 && (d[0].gen != d[1].gen || d[0].idx != d[1].idx))
			return DIRECT_NO; /* two mounts (the VFS settles EXDEV), or a reload between */
		if (d[0].r.flags & MS_RDONLY)
			return DIRECT_NO;
		if (label == VFS_RENAME && (root[0] || (np == 2 && root[1])))
			return DIRECT_NO; /* a mount point, by a table perhaps stale: the VFS's */
		if (label == VFS_RENAME && !__arbor_ncache_bypass) {
			/* a file renamed within its directory: the kernel's, when
			 * its name cache can tell (docs/vfs.md, "Renames without a
			 * round trip") */
			long k = sys_ncache_rename((int)d[0].h, d[0].r.inst | (uint64_t)d[0].gen << 32, inner[0], ilen[0],
						   inner[1], ilen[1]);
			if (k != NCACHE_MISS) {
				__arbor_ncache_renames += k == 0;
				return k;
			}
		}
		const char *second = np == 2 ? inner[1] : b;
		size_t l2 = np == 2 ? ilen[1] : strlen(second);
		if (ilen[0] + l2 + 2 > sizeof(x.snd))
			return -ENAMETOOLONG;
		memcpy(x.snd, inner[0], ilen[0] + 1);
		memcpy(x.snd + ilen[0] + 1, second, l2 + 1);
		struct ipc_msg m = { .label = label, .w = { w0, 0,
			d[0].r.inst | walk_flags(&d[0].r, label, w0, 0) | (uint64_t)d[0].gen << 32 } };
		long r = __file_call((int)d[0].h, &m, x.snd, ilen[0] + l2 + 2, x.norm, sizeof(x.norm));
		if (r < 0) {
			server_forget(d[0].h);
			return DIRECT_NO;
		}
		long e = (long)m.label;
		if (e == -ESTALE) {
			if (stale++)
				return DIRECT_NO;
			reload = true;
			continue;
		}
		if (e != FS_HANDBACK)
			return e;
		uint64_t w = m.w[1];
		if (w >= (uint64_t)np)
			return -EIO;
		/* inner[w] lies in p[w] (the caller's or x.path[w]): out may hold it */
		char target[sizeof(routes[0].target)];
		if (!route_target(&d[w], target))
			return DIRECT_NO;
		e = direct_handback(target, inner[w], ilen[w], &m, x.norm, sizeof(x.norm), &links,
				    x.path[w], x.scratch);
		if (e < 0)
			return e;
		p[w] = x.path[w];
	}
	return -ELOOP;
}

long __vfs_abs_path(const char *path, char *out, size_t cap);
long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv, size_t rcv_len,
		     uint64_t *out);

long __vfs_open_dents(const char *path, int flags, void *buf, size_t len, uint64_t *out)
{
	char abs[VFS_PATH_MAX];
	out[1] = out[2] = 0;
	if (path && path[0] != '/') {
		long n = __vfs_abs_path(path, abs, sizeof(abs));
		if (n < 0)
			return n;
		path = abs;
	} else if (path && strlen(path) >= VFS_PATH_MAX) {
		return -ENAMETOOLONG;
	}
	long d = path ? __vfs_direct(path, VFS_OPEN, (uint64_t)flags, 0, DIRECT_AT_DENTS, buf, len, out) : DIRECT_NO;
	if (d != DIRECT_NO)
		return d;
	out[1] = out[2] = 0;
	return __vfs_path_call(VFS_OPEN, path, (uint64_t)flags, 0, NULL, 0, out); /* the VFS: no batch */
}
