/* Block devices: what a block server (a disk driver linked with the block
 * layer, drivers/block) answers on its endpoint, published as
 * BLK_NAME_PREFIX + the disk's name ("blk.vda"). Opened descriptors are
 * channels that speak the file protocol (abi/fs.h) with byte offsets.
 * docs/block.md has the design. Replies carry 0 or -errno in the label. */
#ifndef ARBOR_ABI_BLK_H
#define ARBOR_ABI_BLK_H

#define BLK_NAME_PREFIX "blk."
#define BLK_MAX_DISKS 8		/* vda .. vdh */

/* On the endpoint. */
#define BLK_INFO 0x301	/* reply w0 major, w1 minor, w2 size in bytes, w3 logical block size */
#define BLK_OPEN 0x302	/* root only (devfs, after its permission check): w0 O_* flags;
			 * reply w0 = a channel handle given to the caller */

/* On an open disk's channel (besides the file protocol): several
 * sector-aligned writes in one call, all in flight together, then (w1 &
 * BLK_WRITEV_FLUSH) a device flush once they are done: a file system's
 * fsync (its data block, its inode's block, the flush) costs one call
 * instead of three. w0: the segments (1..BLK_WRITEV_SEGS); the send
 * buffer holds that many struct blk_seg, then their bytes in order, at
 * most BLK_WRITEV_BYTES in all. Reply w0: the bytes written (all of them,
 * or the call fails: -EINVAL for a misaligned or empty segment, too many
 * or too long, a send buffer of another length; -ENOSPC past the end;
 * -EBADF not open for writing; -EROFS; -EIO). docs/block.md. */
#define BLK_WRITEV 0x303
#define BLK_WRITEV_FLUSH 0x1
#define BLK_WRITEV_SEGS 16
#define BLK_WRITEV_BYTES (128u << 10)
struct blk_seg {
	unsigned long long pos;	/* byte offset on the disk, a multiple of 512 */
	unsigned long long len;	/* bytes, a multiple of 512, not 0 */
};

/* On an open disk's channel: reads w1 bytes at disk byte w0 into the
 * pages the caller lends from byte w2 of its grant (pcache_grant, docs/fs.md
 * "Zero-copy fills"): the device writes them, no buffer is copied. w0, w1
 * and w2 multiples of 512, w1 at most BLK_READ_GRANT_MAX, inside the disk.
 * Reply w0: the bytes read. -EINVAL (alignment, range), -EBADF (not open
 * for reading), -EOPNOTSUPP (the driver has no scatter-gather), and
 * ipc_dma_grant's -ENOENT (the caller lends nothing), -E2BIG; -EIO. Never
 * deferred (the driver asks the kernel for its current caller's grant). */
#define BLK_READ_GRANT 0x305
#define BLK_READ_GRANT_MAX (512u << 10)

/* The other direction (docs/fs.md "Zero-copy writeback"): writes w1
 * bytes at disk byte w0 from the pages the caller lends for their
 * writeback (pcache_grant LEND_WB) from byte w2 of its grant: the device
 * reads them, no buffer is copied; charged, throttled and scheduled as
 * the call's writes (IPC_CALL_FOR: the pages' owner). The same rules and
 * errors as BLK_READ_GRANT (-EBADF: not open for writing; -ENOENT: the
 * caller lends nothing for a writeback). Reply w0: the bytes written. */
#define BLK_WRITE_GRANT 0x306

/* On an open disk's channel: waits until the caller's cgroup (as its
 * writes would be charged: IPC_CALL_FOR) may write w0 bytes under io.max
 * (1..BLK_BUDGET_MAX) and takes that budget in advance: its next writes,
 * up to w0 bytes, then pass io.max without waiting. A file system's
 * writeback waits for its owner's budget here without its own locks held,
 * so that the writes it then makes under them do not sleep on io.max
 * (docs/writeback.md). Asking again tops the advance up to w0 (never
 * more): what a cgroup pays for is what it writes, plus at most one
 * advance. Reply 0, w0 1 when io.max held the budget back (the cgroup is
 * being throttled: a file system writes it smaller batches under its
 * locks), else 0; -EBADF not open for writing, -EINVAL w0 out of range. */
#define BLK_BUDGET 0x304
#define BLK_BUDGET_MAX (1u << 20)

/* Linux's numbers: virtio-blk is major 253, 16 minors per disk. */
#define BLK_VIRTIO_MAJOR 253
#define BLK_MINORS_PER_DISK 16

/* How devfs shows disk i, so that stat and fstat agree (st_dev is
 * devfs's, st_ino BLK_DEVFS_INO + i; owner root, group disk). */
#define BLK_DEVFS_DEV 3
#define BLK_DEVFS_INO 64
#define BLK_DEVFS_MODE 0660
#define BLK_DISK_GID 6

/* blkio_weights (driver only): one level of a cgroup's path for the
 * block layer's io.weight scheduler, from the top-level cgroup down. */
struct blkio_node {
	unsigned long long id;	/* the cgroup's id */
	unsigned int weight;	/* its io.weight on the device (override or default) */
	unsigned int pad;
};
#define BLKIO_DEPTH_MAX 8	/* levels returned at most (deeper ones count as the 8th) */

#endif
