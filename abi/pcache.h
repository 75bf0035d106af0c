/* The page cache's ABI (kernel/pcache/): file memory objects that a file
 * server creates on its endpoint and fills, and the kernel serves reads,
 * writes, lseek and fstat of from, for descriptors the server attached
 * them to (docs/vfs.md, "The page cache"). */
#ifndef ARBOR_ABI_PCACHE_H
#define ARBOR_ABI_PCACHE_H

#include <stdint.h>

/* pcache_create flags: the object has no backing store (tmpfs, Linux's
 * shmem): its pages are charged and counted as shmem, sit on the anon LRU
 * lists, and a missing page is a hole. The only kind today; a pager-backed
 * kind (a disk file system) comes next. */
#define PCACHE_SHMEM 0x1

/* The largest file an object may hold (a 3-level tree of 256-way nodes). */
#define PCACHE_MAX_BYTES (1ull << 36)

/* What fstat needs, as the owning server sets it and the kernel keeps it
 * (size, blocks and the times change with kernel-served writes). Times
 * in nanoseconds of clock_ns, as the file servers keep them. */
struct pcache_attr {
	uint64_t dev, ino, rdev;
	uint64_t size;		/* read-only for pcache_setattr: pcache_truncate sets it */
	uint64_t blocks;	/* 512-byte units present (read-only) */
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
#define PCACHE_ATTR_ALL    0x7f

#endif
