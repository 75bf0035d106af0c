/* The ext2 server: the core (ext2.h, pure logic) behind the file-system
 * server skeleton (fssrv.h), on a disk reached through its block
 * driver's channel, with regular files' data in the kernel's page cache
 * (docs/fs.md, "The server").
 *
 * Locking: every callback arrives under the skeleton's lock; a request
 * that touches the core lets go of it and takes its mount's own lock
 * (e2_enter / e2_leave), so the disk waits of one mount hold up neither
 * the skeleton nor the other mounts. The core, the open-inode table and
 * the handback buffer of a mount are touched only under the mount's
 * lock; the skeleton's state (files, instances) only under the
 * skeleton's. */
#ifndef ARBOR_EXT2_SRV_H
#define ARBOR_EXT2_SRV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include "arbor/srvlock.h"
#include "ext2.h"
#include "fssrv.h"

#define E2_ROOT_INO 2
#define E2_NAME_MAX 255
#define E2_PATH_MAX 4096
#define E2_NODE_HASH 4096
/* Files larger than a mount's cache_max= (no limit by default) when
 * first opened are read and written through the server (the core's block
 * cache) instead of the page cache. */
#define E2_PCACHE_FILL_MAX UINT64_MAX
/* Pager threads (e2_pager): two, so that one request's disk reads do
 * not hold up another mount's fills; more start while none is idle (a
 * background writeback waits for its owner's io.max between batches, and
 * another cgroup's fill or reservation must not wait for it, docs/
 * writeback.md), up to E2_PAGERS_MAX. */
#define E2_PAGERS 2
#define E2_PAGERS_MAX 8
/* Closed files and directories whose objects a mount keeps (its inode
 * cache, in LRU order): a re-open finds its pages in memory, as Linux
 * keeps a closed inode's pages, and the kernel's name cache answers stat
 * of the names that lead to them (docs/fs.md, "Names in the kernel").
 * Past it the oldest kept object goes (its clean pages and its cached
 * names with it); reclaim takes their pages meanwhile. Room for a
 * 10,000-entry tree walked twice. */
#define E2_KEEP_MAX 16384
/* Names one walk records for the kernel's name cache (its components). */
#define E2_TRAIL_MAX 64
/* Names of a listed directory the kernel misses after its listing before
 * listings name their entries in the kernel (e2_dir_fill). */
#define E2_PLUS_AFTER 8

/* An inode some open file uses. */
struct e2node {
	uint32_t ino;
	uint32_t opens;		/* open file descriptions on it */
	uint64_t pc;		/* its page cache object (regular files), or 0 */
	bool filling;		/* the object is being made (another open waits) */
	bool gone;		/* its last name went: released at the last close */
	bool linkable;		/* an O_TMPFILE inode never named (no O_EXCL):
				   linkat may give it a name (Linux's I_LINKABLE) */
	uint64_t promised;	/* blocks its reservation was costed at (srv_resv.c) */
	uint32_t resv_next;	/* pages its next budget has (srv_resv.c) */
	bool kept;		/* closed, its object kept: on the mount's LRU */
	bool used;		/* opened since its object was made (else clean) */
	/* A directory's attribute-only object (PCACHE_META) for the kernel's
	 * name cache, or 0; kstale: its attributes were marked out of date
	 * in the kernel (its names changed), the next walk pushes them. */
	uint64_t meta;
	bool kstale;
	/* a directory whose whole listing named its entries in the kernel
	 * (e2_plus_install) since its object was made and its names last
	 * changed: listing it again installs nothing */
	bool listed;
	uint32_t pin;		/* a walk's trail names it: not trimmed meanwhile */
	struct e2node *next;
	struct e2node *lru_prev, *lru_next; /* kept nodes, oldest first */
};

/* One mount. */
struct e2fifo {
	uint32_t ino;
	int node;		/* the handle fifo_create gave */
	struct e2fifo *next;
};

struct e2inst {
	srvlock_t lock;		/* the core, nodes, hb (see above) */
	struct ext2_fs *fs;
	struct ext2_dev dev;
	int disk;		/* the disk's channel (a block server's open file) */
	int index;		/* the disk's (0: vda) */
	bool disk_ro;		/* the disk's channel is read-only (a reconnect opens it so) */
	uint64_t st_dev;	/* the disk's number, Linux's encoding */
	uint64_t cache_max;	/* the largest file given a page cache object (cache_max=) */
	bool rdonly;
	bool no_grant;		/* the disk's driver cannot read into lent pages (zero-copy fills) */
	/* Listings that name their entries in the kernel (docs/fs.md,
	 * "Listings into the name cache"): on once the names of a listed
	 * directory were looked up after the listing (a find-style walk):
	 * plus_dir is the directory last listed from its start, plus_seen
	 * its names the kernel missed since. */
	bool plus;
	uint32_t plus_dir, plus_seen;
	bool dying;		/* being unmounted: no new requests */
	/* The kernel's FIFO nodes of the mount's FIFOs opened so far
	 * (docs/vfs.md, "FIFOs"): kept while the inode lives, so every
	 * opener meets the same pipe (e2_fifo_node, e2_fifo_forget). */
	struct e2fifo *fifos;
	int users;		/* requests inside (skeleton's lock) */
	int pagers;		/* pager threads inside (skeleton's lock): umount waits for them */
	uint32_t waiters;	/* requests waiting for lock (atomic) */
	uint64_t grants;	/* times a waiting request got lock (under lock) */
	char source[64];
	struct e2node *nodes[E2_NODE_HASH];
	/* the inode cache: closed nodes with their objects, oldest first */
	struct e2node *lru_head, *lru_tail;
	uint32_t kept;		/* nodes on it */
	uint32_t keep_max;	/* the bound (E2_KEEP_MAX, keep= at mount) */
	uint64_t promised_sum;	/* the nodes' promised, summed (srv_resv.c) */
	struct e2node *root;	/* the root directory's node, held while mounted:
				   its object is the name cache's root */
	uint64_t nc_changes;	/* changes of names so far (e2_dir_changed): a walk
				   that saw another count installs nothing */
	/* why the last walk handed back (under lock) */
	struct {
		int kind;	/* FS_HB_LINK / FS_HB_DOTDOT, 0 none */
		uint32_t which, off, len, tlen;
		char target[E2_PATH_MAX];
	} hb;
};

/* Called under the skeleton's lock: lets go of it and takes in's lock;
 * -ENODEV if the mount is going away (then nothing is held but the
 * skeleton's lock). */
int e2_enter(struct e2inst *in);
/* Back: in's lock released, the skeleton's taken. */
void e2_leave(struct e2inst *in);
/* A long request lets go of in's lock between chunks (to move data to or
 * from its client): e2_pause_begin releases it, e2_pause_end takes it
 * back, but first, if requests were waiting, lets one of them have it
 * (srvlock is not fair: the long request would otherwise take it back
 * before a woken waiter runs, and a stat would wait the whole read). */
struct e2_pause {
	uint64_t grants;
	bool waited;
};
void e2_pause_begin(struct e2inst *in, struct e2_pause *p);
void e2_pause_end(struct e2inst *in, const struct e2_pause *p);
/* A device flush: the disk's write cache to the medium (under in->lock).
 * 0 or -EIO. */
int e2_disk_flush(struct e2inst *in);
/* Waits, without in->lock (it is not needed), until the cgroup the thread
 * acts for may write bytes to the disk under its io.max, and takes that
 * budget in advance (BLK_BUDGET): writes made next under in->lock do not
 * sleep on io.max. 0, 1 when io.max held it back (the cgroup is being
 * throttled), or -errno (then they pay as they go). */
int e2_disk_budget(struct e2inst *in, uint64_t bytes);
/* The clock the server stamps with (the kernel's, as the page cache's). */
struct ext2_time e2_now(void);
struct ext2_time e2_time_of(uint64_t ns);
uint64_t e2_ns_of(struct ext2_time t);

/* -- nodes and file data (data.c); under in->lock -- */
struct e2node *e2_node_find(struct e2inst *in, uint32_t ino);
/* The node of ino with one more open (made if needed, or taken off the
 * inode cache), or NULL. */
struct e2node *e2_node_get(struct e2inst *in, uint32_t ino);
/* One more open of a node found (taken off the inode cache if it was). */
void e2_node_hold(struct e2inst *in, struct e2node *n);
/* Opens of node n: a page cache object (PCACHE_BACKED, of the file's
 * size, empty: the pager fills it) if it is a regular file of at most
 * in->cache_max bytes opened for the first time. 0 or -errno. */
int e2_node_fill(struct e2inst *in, struct e2node *n, const struct ext2_stat *st);
/* Until no open is filling n's object (lets go of in->lock meanwhile). */
void e2_node_wait(struct e2inst *in, struct e2node *n);
/* One open fewer: the last writes the data back and keeps the object in
 * the inode cache (a regular file still linked), or frees it and releases
 * a gone inode. */
void e2_node_put(struct e2inst *in, struct e2node *n);
/* Every kept node written back and dropped with its object, and the
 * root's (umount). */
void e2_node_drop_all(struct e2inst *in);
/* Writes n's dirty pages and size back to the core. 0 or -errno. */
int e2_node_writeback(struct e2inst *in, struct e2node *n);
/* The same; with pace, the mount's lock is let go between batches of
 * pages (a background writeback: requests waiting for the mount go
 * first; the caller holds n, e2_node_hold). *size: the object's size
 * (UINT64_MAX if it was not looked at). */
int e2_node_writeback_paced(struct e2inst *in, struct e2node *n, bool pace, uint64_t *size);
/* fsync: n's pages written back paced, then whatever the core holds and
 * the device's flush; when the file's last blocks are all that is left
 * (a rewrite within one tick: no inode change), they carry the flush in
 * one device call. 0 or the first error. */
int e2_node_fsync(struct e2inst *in, struct e2node *n);
/* A pager thread's body (fs_type.pager): takes the kernel's FILL and
 * WRITEBACK requests for the objects of every mount (no lock held). */
long e2_pager(void *arg);
/* Every node's data back, then the core's blocks (sync, umount), and
 * with flush the device's flush (ext2_sync_flush: sync, syncfs). */
int e2_sync_all(struct e2inst *in, bool flush);
/* Sets node x's reservation budget in the kernel (srv_resv.c, docs/fs.md
 * "Reservations") from the free blocks left after what the other objects
 * hold; index: the page a RESERVE request asked about (costed exactly when
 * no whole budget fits), or E2_RESV_NONE. Under the mount's lock. */
#define E2_RESV_NONE UINT64_MAX
void e2_resv_grant(struct e2inst *in, struct e2node *x, uint64_t index);
/* n was written back (its units are allocations now) or is going (gone:
 * its object freed): what it is promised is counted again, and the core
 * told the sum (ext2_set_promised). */
void e2_resv_update(struct e2inst *in, struct e2node *n, bool gone);
/* n was closed (written back) and its object kept (the inode cache): its
 * unspent budget goes back to the free blocks, so a kept file promises
 * nothing; a writer after a re-open asks again (RESERVE). */
void e2_resv_drop(struct e2inst *in, struct e2node *n);
/* The inode's attributes (mode, owner, links, blocks; a directory's all
 * of them) to its object, if it has one. */
void e2_node_push(struct e2inst *in, uint32_t ino);
/* A file's block count on the disk (changed by a write-back, a
 * truncation, a server-served write) to its object. */
void e2_node_push_blocks(struct e2inst *in, struct e2node *n);
/* Directory dir's names are about to change (an entry added, removed or
 * repointed): the kernel forgets the names it cached in it and takes its
 * attributes as out of date, before the change is answered. */
void e2_dir_changed(struct e2inst *in, uint32_t dir);
/* The object the kernel's name cache may name inode ino by, made if
 * needed (its attributes read from the disk only then): a directory's attribute-only object, a
 * regular file's page cache object (of at most cache_max bytes); a node
 * made for it is kept (the inode cache, its bound), pinned (pin) until
 * e2_node_unpin. 0 for anything else (links, devices: never cached). */
uint64_t e2_node_obj(struct e2inst *in, uint32_t ino, bool pin);
void e2_node_unpin(struct e2inst *in, uint32_t ino);
/* The root directory's node and object (mount): 0 or -errno. */
int e2_node_root(struct e2inst *in);
/* stat of ino with an open object's size and times. */
int e2_stat(struct e2inst *in, uint32_t ino, struct ext2_stat *st);
void e2_fill_stat(const struct e2inst *in, const struct ext2_stat *e, struct stat *st);
/* A name dropped its inode's last link: release it now or at the last close. */
void e2_gone(struct e2inst *in, uint32_t ino);
/* truncate: the core and the object together. */
int e2_truncate(struct e2inst *in, uint32_t ino, uint64_t size);

/* -- paths (path.c) -- */
long e2_path(const struct fs_req *r, struct ipc_msg *m);
/* FILE_LINKAT (fs_type.linkat): a name at path for open file f, an
 * O_TMPFILE one's first too (e2node.linkable). */
long e2_linkat(struct fs_file *f, const char *path, const struct ipc_info *info);
/* Linux's generic_permission for uid/gid and process pid's supplementary
 * groups (fssrv_in_group) on st (0 or -EACCES). */
int e2_permission(const struct ext2_stat *st, int mask, uint32_t uid, uint32_t gid, int32_t pid);
int e2_chmod(struct e2inst *in, uint32_t ino, uint32_t perm, uint32_t uid, uint32_t gid);
int e2_chown(struct e2inst *in, uint32_t ino, int64_t nuid, int64_t ngid, uint32_t uid, uint32_t gid);
int e2_utimes(struct e2inst *in, uint32_t ino, uint64_t at, uint64_t mt, uint32_t uid, uint32_t gid,
	      int32_t pid);

/* -- open files (file.c) -- */
long e2_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info);
void e2_release(struct fs_file *f);

/* The FIFO node handle of FIFO inode ino (made on first use), or -errno;
 * the lock held. */
long e2_fifo_node(struct e2inst *in, uint32_t ino);
/* Inode ino is gone (or the mount is): its FIFO node goes (ino 0: all). */
void e2_fifo_forget(struct e2inst *in, uint32_t ino);

#endif
