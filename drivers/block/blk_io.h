/* Byte-granular reads and writes over sector requests, for one server
 * worker with its own DMA bounce buffer (blk_io.c). */
#ifndef ARBOR_BLK_IO_H
#define ARBOR_BLK_IO_H

#include <stddef.h>
#include "blk.h"

#define BLK_BOUNCE (512u << 10)		/* per worker of the initial pool */
#define BLK_REQ_MAX (128u << 10)	/* one request; a chunk is several in flight */
#define BLK_BOUNCE_EXTRA BLK_REQ_MAX	/* per worker started on demand */
#define BLK_CHUNK_REQS (BLK_BOUNCE / BLK_REQ_MAX)
#define BLK_WORKERS_MAX 64		/* the pool's cap (blk_srv.c) */
#define BLK_GRANT_SG 32			/* pieces per request of a grant read at most */

struct blk_worker {
	struct blk_dev *d;
	int index;		/* 0 .. BLK_WORKERS_MAX - 1 */
	char *buf;		/* bounce bytes of DMA memory */
	uint32_t bounce;	/* BLK_BOUNCE or BLK_BOUNCE_EXTRA */
	uint64_t phys;
	int notif;
	int reply;		/* serving a deferred call: its reply handle, else -1 */
	struct blk_req reqs[BLK_CHUNK_REQS];
	/* BLK_READ_GRANT: the grant's pieces, then each request's share */
	struct pcache_dma_seg grant[PCACHE_DMA_SEGS_MAX];
	struct pcache_dma_seg gsg[BLK_CHUNK_REQS][BLK_GRANT_SG];
	struct blk_req greqs[BLK_CHUNK_REQS];
};

/* A worker with a bounce buffer of bounce bytes (a multiple of
 * BLK_REQ_MAX, at most BLK_BOUNCE): 0 or -errno. */
int blk_worker_init(struct blk_worker *w, struct blk_dev *d, int index, uint32_t bounce);
/* The caller's receive buffer gets up to len bytes from pos: bytes read
 * (0 at or past the end), -EIO, -EFAULT. */
long blk_read(struct blk_worker *w, uint64_t pos, uint64_t len, const struct blk_who *who);
/* Up to len bytes of the caller's send buffer go to pos: bytes written,
 * -ENOSPC at or past the end, -EIO, -EFAULT. */
long blk_write(struct blk_worker *w, uint64_t pos, uint64_t len, const struct blk_who *who);
/* BLK_READ_GRANT (op BLK_OP_READ, abi/blk.h): len bytes at disk byte pos
 * straight into the pages the caller lends from byte goff of its grant;
 * BLK_WRITE_GRANT (BLK_OP_WRITE): the other way, from the pages it lends
 * for their writeback. Up to BLK_CHUNK_REQS requests in flight at once:
 * the bytes moved, or -EINVAL, -EOPNOTSUPP, -EIO, ipc_dma_grant's errors. */
long blk_grant_io(struct blk_worker *w, uint64_t pos, uint64_t len, uint64_t goff, enum blk_op op,
		  const struct blk_who *who);
/* Everything written reaches stable storage: 0 or -EIO. */
long blk_flush(struct blk_worker *w, const struct blk_who *who);
/* BLK_WRITEV (abi/blk.h): the caller's n segments (their headers and
 * bytes in its send buffer of snd_len bytes) written, up to
 * BLK_CHUNK_REQS in flight at once, then a flush if flush: the bytes
 * written, or -EINVAL, -ENOSPC, -EROFS, -EFAULT, -EIO. */
long blk_writev(struct blk_worker *w, uint32_t n, uint64_t snd_len, bool flush, const struct blk_who *who);

#endif
