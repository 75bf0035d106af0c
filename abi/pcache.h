/* The page cache's ABI (kernel/pcache/): file memory objects that a file
 * server creates on its endpoint and fills, and the kernel serves reads,
 * writes, lseek and fstat of from, for descriptors the server attached
 * them to (docs/vfs.md, "The page cache"). */
#ifndef ARBOR_ABI_PCACHE_H
#define ARBOR_ABI_PCACHE_H

#include <stdint.h>

/* pcache_create flags: the object has no backing store (tmpfs, Linux's
 * shmem): its pages are charged and counted as shmem, sit on the anon LRU
 * lists, and a missing page is a hole. */
#define PCACHE_SHMEM 0x1
/* pcache_create flags: an attribute-only object (a directory), with no
 * data: it holds what stat needs and names in the kernel's name cache
 * (docs/vfs.md, "The name cache"); its size is the server's to set. */
#define PCACHE_META  0x2
/* pcache_create flags: a file with a backing store (a disk file system,
 * docs/fs.md "The pager protocol"): a missing page within the size is
 * asked of the server (a FILL request its pager threads take with
 * pcache_pager_wait and answer with pcache_fill) while the reader sleeps;
 * its pages count as file (not shmem), sit on the file LRU lists, and
 * clean ones may be evicted and read again. */
#define PCACHE_BACKED 0x4

/* ---- the pager protocol (docs/fs.md, "The pager protocol") ---- */

/* A request pcache_pager_wait hands a server's pager thread. */
struct pcache_req {
	uint64_t id;		/* the object's id in the endpoint's table */
	uint64_t first;		/* FILL: the first page (index) wanted */
	uint32_t count;		/* FILL: how many pages (1..PCACHE_FILL_MAX) */
	uint32_t kind;		/* PCACHE_REQ_* */
	uint64_t seq;		/* WRITEBACK: give it back to pcache_done */
	uint64_t size;		/* the object's size when the request was taken */
};
/* Read pages [first, first + count) of the file from the store and give
 * them with pcache_fill (bytes, or an errno for the range). */
#define PCACHE_REQ_FILL      1
/* Write the object's dirty pages back (pcache_dirty, pcache_read, the
 * store, pcache_done over them), then pcache_done with seq: the kernel's
 * reclaim waits for it. */
#define PCACHE_REQ_WRITEBACK 2
/* A client's write wants page `first` of the object dirty and its block
 * reservation is spent: write back, recount the free blocks, set a new
 * budget (pcache_reserve), then pcache_done with seq; the writer then
 * gets -ENOSPC if there is still none (docs/fs.md, "Reservations"). */
#define PCACHE_REQ_RESERVE   3
/* pcache_reserve's state of an object: `budget` more pages may be newly
 * dirtied by clients (the last `root` of them only by euid 0) at page
 * index `from` and up where no unit is held; `held` (read-only) pages
 * hold a unit now (dirtied, not yet written back: pcache_done frees it).
 * The server counts budget + held as blocks it has promised. */
struct pcache_resv {
	uint64_t budget, root, from, held;
};

/* Requests an endpoint holds queued at most (a reader finding the queue
 * full waits, killably, for room). */
#define PCACHE_PAGER_QMAX 64
/* Pages per FILL request and per pcache_fill call at most. */
#define PCACHE_FILL_MAX 128

/* pcache_grant (docs/fs.md, "Zero-copy fills"): a pager thread lends the
 * frames of a FILL request's waiting pages to the disk driver it calls
 * next, whose device writes the file's blocks straight into them
 * (ipc_dma_grant), then ends the loan with the pages' fate. */
#define PCACHE_GRANT_LEND   1	/* lend pages [first, first + count): all must wait for their fill */
#define PCACHE_GRANT_FILLED 2	/* they hold the file's bytes now: uptodate, readers wake */
#define PCACHE_GRANT_FAILED 3	/* the read failed: the pages go, their readers get EIO */
#define PCACHE_GRANT_RETURN 4	/* nothing was read: they wait again (pcache_fill them) */
/* Zero-copy writeback (docs/fs.md): a writeback's pages lent to the disk
 * driver, whose device reads them to write the file's blocks. */
#define PCACHE_GRANT_LEND_WB 5	/* lend pages [first, first + count): all under writeback (pcache_dirty took them) */
#define PCACHE_GRANT_WRITTEN 6	/* that loan ends; the pages are as they were (pcache_done marks them written) */
/* ipc_dma_grant: one physically contiguous piece of the caller's grant. */
struct pcache_dma_seg {
	uint64_t phys;
	uint32_t len;
	uint32_t pad;
};
/* Pieces of a whole grant at most (a page each, one more for an offset
 * that is not page aligned). */
#define PCACHE_DMA_SEGS_MAX (PCACHE_FILL_MAX + 1)

/* pcache_wb_as: on whose behalf the calling server thread's IPC_CALL_FOR
 * calls (its disk writes) are from now on (docs/writeback.md). */
#define PCACHE_WB_SELF  0	/* the call it serves (or none), as before */
#define PCACHE_WB_OWNER 1	/* the owner of page (id, index): whoever dirtied it */
#define PCACHE_WB_META  2	/* the root: metadata that belongs to no one */
#define PCACHE_WB_NEXT  3	/* the owner of the first dirty page at or past index:
				 * the one the next pcache_dirty takes, left dirty */

/* The largest file an object may hold (a 3-level tree of 256-way nodes). */
#define PCACHE_MAX_BYTES (1ull << 36)

/* What fstat needs, as the owning server sets it and the kernel keeps it
 * (size, blocks and the times change with kernel-served writes). Times
 * in nanoseconds of clock_ns, as the file servers keep them. */
struct pcache_attr {
	uint64_t dev, ino, rdev;
	uint64_t size;		/* read-only for pcache_setattr: pcache_truncate sets it */
	uint64_t blocks;	/* 512-byte units present (settable only for
				   the name cache: PCACHE_ATTR_BLOCKS) */
	uint32_t mode, nlink, uid, gid;
	uint64_t atime, mtime, ctime;
};

/* pcache_setattr mask bits: which fields to take. */
#define PCACHE_ATTR_IDS    0x01	/* dev, ino, rdev */
#define PCACHE_ATTR_MODE   0x02
#define PCACHE_ATTR_NLINK  0x04
#define PCACHE_ATTR_OWNER  0x08	/* uid, gid */
#define PCACHE_ATTR_ATIME  0x10
#define PCACHE_ATTR_MTIME  0x20
#define PCACHE_ATTR_CTIME  0x40
#define PCACHE_ATTR_SIZE   0x80	/* an attribute-only object's size */
/* The directory's names changed (a name was added, removed or repointed
 * in it): the kernel forgets every cached name in it, before the server
 * replies to the change. */
#define PCACHE_ATTR_NAMES  0x100
/* The object's attributes are out of date (a directory that changed
 * since the kernel last looked): the name cache misses at it until a
 * push that names PCACHE_ATTR_MTIME without this bit. With NAMES, one
 * call per run of changes instead of one per change. */
#define PCACHE_ATTR_STALE  0x200
/* blocks is the server's count (a disk file system's i_blocks): stat
 * through the name cache answers it from now on, where it would count
 * the pages present (fstat of a descriptor still counts those). */
#define PCACHE_ATTR_BLOCKS 0x400
#define PCACHE_ATTR_ALL    0x7ff

/* ---- the name cache (docs/vfs.md, "The name cache") ---- */

/* ncache_add: one name the server's walk saw. Its text is
 * names[off, off + len); child 0 is a negative entry (no such name). */
struct ncache_rec {
	uint32_t dir, child;	/* object ids in the server's table */
	uint16_t off, len;
	uint32_t pad;		/* 0 */
};
#define NCACHE_ADD_MAX 64	/* records per ncache_add */

/* ncache_lookup's how: what is asked about the path. */
#define NCACHE_STAT      0x0000	/* the attributes (stat) */
#define NCACHE_NOFOLLOW  0x0100	/* lstat: act on a final link itself */
#define NCACHE_ACCESS    0x0200	/* access: the mask in the low 3 bits */
#define NCACHE_EACCESS   0x0400	/* access with the effective ids (AT_EACCESS) */
/* ncache_lookup's answer when the cache cannot tell: ask the server. */
#define NCACHE_MISS      1
/* ncache_open's (a descriptor may be 1): not an errno, ask the server. */
#define NCACHE_OPEN_MISS (-10000)
/* The badge of a descriptor ncache_open made (the server's own never set
 * bit 63): the mount instance, the object id and the open mode, so the
 * server serves ftruncate, fchmod... on it with no state of its own. */
#define NCACHE_KBADGE            (1ull << 63)
#define NCACHE_KBADGE_APPEND     (1ull << 50)
#define NCACHE_KBADGE_ACC(b)     ((int)(((b) >> 48) & 3))
#define NCACHE_KBADGE_INST(b)    ((uint32_t)(((b) >> 32) & 0xffff))
#define NCACHE_KBADGE_ID(b)      ((uint32_t)(b))

/* Renames, unlinks and rmdirs the kernel made itself (ncache_rename,
 * ncache_unlink), for the server to make in its own tree before it serves
 * anything else (ncache_log_take): the change's time, the file's (or
 * directory's) object, and the two paths inside the mount (from, NUL,
 * to, NUL) after the record; size is the whole record's
 * bytes, a multiple of 8. ipc_info.flags has IPC_INFO_NCLOG when some
 * wait. */
struct ncache_logrec {
	uint64_t now;		/* the directory's mtime and ctime, the file's ctime */
	uint64_t id;		/* the file's object */
	uint32_t inst;		/* the mount instance */
	uint16_t flen, tlen;	/* the paths' lengths, without their NULs */
	uint32_t size;
	uint32_t kind;		/* NCACHE_LOG_* */
};
/* ncache_logrec kinds: what the kernel changed. An unlink's or rmdir's
 * record has one path (from; to is ""), its id the file or directory
 * removed. */
#define NCACHE_LOG_RENAME 0	/* ncache_rename */
#define NCACHE_LOG_UNLINK 1	/* ncache_unlink of a file */
#define NCACHE_LOG_RMDIR  2	/* ncache_unlink with NCACHE_UNLINK_DIR */
/* ncache_unlink's how: rmdir(2) of an empty directory, not unlink(2). */
#define NCACHE_UNLINK_DIR 0x1
/* Linux's tmpfs directory size: this many bytes per entry, "." and ".."
 * included (an empty directory's is 40). */
#define NCACHE_DIRENT_SIZE 20
#define NCACHE_LOG_BYTES 4096	/* the kernel keeps at most this much */
#define NCACHE_WORKERS_MAX 64	/* ncache_rename_on's workers */

#endif
