/* Byte-granular I/O on a disk. A client's call is cut into chunks of the
 * worker's bounce buffer; each chunk is sent as up to BLK_CHUNK_REQS
 * requests in flight together. Data moves between the bounce buffer and
 * the client with ipc_read/ipc_write, or through the reply handle of a
 * call the server deferred (ipc_reply_copy; the kernel checks the client's
 * buffer: a bad one is EFAULT). A write that covers a sector only in part
 * reads that sector first (read-modify-write); writes hold their sector
 * range against other writes, so two partial writes of one sector cannot
 * undo each other. */
#include <errno.h>
#include "blk_io.h"

static srvlock_t range_lock;
/* Bumped whenever a range is dropped: a writer waiting for one sleeps on
 * it (a futex) instead of spinning; range_waiters (under range_lock) says
 * whether a drop must wake anyone, so an uncontended write makes no call. */
static uint32_t range_gen;
static uint32_t range_waiters;

/* The worker's caller's buffers: the current call's, or a deferred one's. */
static long blk_to_caller(struct blk_worker *w, uint64_t off, const void *buf, size_t n)
{
	return w->reply < 0 ? sys_ipc_write(off, buf, n) : sys_ipc_reply_copy(w->reply, off, (void *)buf, n, 1);
}

static long blk_from_caller(struct blk_worker *w, uint64_t off, void *buf, size_t n)
{
	return w->reply < 0 ? sys_ipc_read(off, buf, n) : sys_ipc_reply_copy(w->reply, off, buf, n, 0);
}
static struct { uint64_t first, end; bool busy; } ranges[BLK_WORKERS_MAX];

static bool range_free(int self, uint64_t first, uint64_t end)
{
	for (int i = 0; i < BLK_WORKERS_MAX; i++)
		if (i != self && ranges[i].busy && first < ranges[i].end && ranges[i].first < end)
			return false;
	return true;
}

/* Sectors [first, end) for this worker's write (rarely contended). */
static void range_hold(struct blk_worker *w, uint64_t first, uint64_t end)
{
	for (;;) {
		srvlock_lock(&range_lock);
		uint32_t gen = __atomic_load_n(&range_gen, __ATOMIC_ACQUIRE);
		if (range_free(w->index, first, end)) {
			ranges[w->index].first = first;
			ranges[w->index].end = end;
			ranges[w->index].busy = true;
			srvlock_unlock(&range_lock);
			return;
		}
		range_waiters++;
		srvlock_unlock(&range_lock);
		sys_futex_wait(&range_gen, gen, 0, 0); /* returns at once if a drop came since */
		srvlock_lock(&range_lock);
		range_waiters--;
		srvlock_unlock(&range_lock);
	}
}

static void range_drop(struct blk_worker *w)
{
	srvlock_lock(&range_lock);
	ranges[w->index].busy = false;
	__atomic_add_fetch(&range_gen, 1, __ATOMIC_RELEASE);
	bool wake = range_waiters != 0;
	srvlock_unlock(&range_lock);
	if (wake)
		sys_futex_wake(&range_gen, BLK_WORKERS_MAX);
}

int blk_worker_init(struct blk_worker *w, struct blk_dev *d, int index, uint32_t bounce)
{
	if (index >= BLK_WORKERS_MAX || !bounce || bounce > BLK_BOUNCE || bounce % BLK_REQ_MAX)
		return -EINVAL;
	long buf = sys_dma_alloc(bounce, &w->phys);
	if (buf < 0)
		return -ENOMEM;
	long n = sys_notif_create();
	if (n < 0) {
		sys_mem_unmap((uint64_t)buf, bounce);	/* frees the buffer */
		return -ENOMEM;
	}
	w->d = d;
	w->index = index;
	w->reply = -1;
	w->buf = (char *)buf;
	w->bounce = bounce;
	w->notif = (int)n;
	return 0;
}

/* Sectors [sector, sector + bytes/512) to or from w->buf + boff, as
 * several requests in flight: 0 or -EIO. */
static int blk_rw(struct blk_worker *w, enum blk_op op, uint64_t sector, uint32_t bytes, uint32_t boff,
		  const struct blk_who *who)
{
	int n = 0;
	for (uint32_t at = 0; at < bytes; n++) {
		struct blk_req *r = &w->reqs[n];
		uint32_t len = bytes - at < BLK_REQ_MAX ? bytes - at : BLK_REQ_MAX;
		r->op = op;
		r->sector = sector + at / BLK_SECTOR;
		r->bytes = len;
		r->buf = w->buf + boff + at;
		r->phys = w->phys + boff + at;
		r->who = *who;
		r->notif = w->notif;
		blk_submit(w->d, r);
		at += len;
	}
	return blk_wait(w->d, w->reqs, n);
}

static uint64_t blk_size(const struct blk_dev *d)
{
	return d->sectors * BLK_SECTOR;
}

long blk_read(struct blk_worker *w, uint64_t pos, uint64_t len, const struct blk_who *who)
{
	uint64_t size = blk_size(w->d), done = 0;
	if (pos >= size)
		return 0;
	if (len > size - pos)
		len = size - pos;
	while (done < len) {
		uint64_t at = pos + done;
		uint32_t head = at % BLK_SECTOR;
		uint64_t n = len - done < w->bounce - head ? len - done : w->bounce - head;
		uint32_t span = (uint32_t)((head + n + BLK_SECTOR - 1) / BLK_SECTOR * BLK_SECTOR);
		int err = blk_rw(w, BLK_OP_READ, at / BLK_SECTOR, span, 0, who);
		if (err)
			return done ? (long)done : err;
		long c = blk_to_caller(w, done, w->buf + head, n);
		if (c < 0)
			return done ? (long)done : -EFAULT;
		done += (uint64_t)c;
		if ((uint64_t)c < n)
			break;
	}
	return (long)done;
}

/* One chunk of a write: bytes [at, at + n) of the disk from the caller's
 * send buffer at offset from; the partial sectors at either end are read
 * first. The bytes written, -EIO or -EFAULT: if the buffer goes bad
 * within the chunk, only the bytes before that (Linux's short write). */
static long blk_write_chunk(struct blk_worker *w, uint64_t at, uint32_t n, uint64_t from,
			    const struct blk_who *who)
{
	long c = 0;
	uint32_t head = at % BLK_SECTOR;
	uint32_t span = (head + n + BLK_SECTOR - 1) / BLK_SECTOR * BLK_SECTOR;
	uint64_t first = at / BLK_SECTOR, last = first + span / BLK_SECTOR - 1;
	int err = 0;
	range_hold(w, first, last + 1);
	if (head)
		err = blk_rw(w, BLK_OP_READ, first, BLK_SECTOR, 0, who);
	if (!err && (head + n) % BLK_SECTOR && (last != first || !head))
		err = blk_rw(w, BLK_OP_READ, last, BLK_SECTOR, span - BLK_SECTOR, who);
	if (!err && (c = blk_from_caller(w, from, w->buf + head, n)) != (long)n)
		err = -EFAULT;
	if (!err)
		err = blk_rw(w, BLK_OP_WRITE, first, span, 0, who);
	range_drop(w);
	if (err == -EFAULT && c > 0)	/* again with the good part only */
		return blk_write_chunk(w, at, (uint32_t)c, from, who);
	return err ? err : (long)n;
}

long blk_write(struct blk_worker *w, uint64_t pos, uint64_t len, const struct blk_who *who)
{
	uint64_t size = blk_size(w->d), done = 0;
	if (len == 0)
		return 0;
	if (w->d->read_only)
		return -EROFS;
	if (pos >= size)
		return -ENOSPC;
	if (len > size - pos)
		len = size - pos;	/* a short write, as Linux's */
	while (done < len) {
		uint64_t at = pos + done;
		uint32_t head = at % BLK_SECTOR;
		uint32_t n = (uint32_t)(len - done < w->bounce - head ? len - done : w->bounce - head);
		long c = blk_write_chunk(w, at, n, done, who);
		if (c < 0)
			return done ? (long)done : c;
		done += (uint64_t)c;
		if (c < (long)n)
			break;
	}
	return (long)done;
}

long blk_writev(struct blk_worker *w, uint32_t n, uint64_t snd_len, bool flush, const struct blk_who *who)
{
	struct blk_seg seg[BLK_WRITEV_SEGS];
	uint64_t total = 0, first = UINT64_MAX, end = 0, hdr = (uint64_t)n * sizeof(seg[0]);
	if (n == 0 || n > BLK_WRITEV_SEGS || snd_len < hdr)
		return -EINVAL;
	if (w->d->read_only)
		return -EROFS;
	if (blk_from_caller(w, 0, seg, hdr) != (long)hdr)
		return -EFAULT;
	for (uint32_t i = 0; i < n; i++) {
		if (!seg[i].len || seg[i].len > BLK_WRITEV_BYTES || (seg[i].pos | seg[i].len) % BLK_SECTOR)
			return -EINVAL;
		if (seg[i].pos >= blk_size(w->d) || seg[i].len > blk_size(w->d) - seg[i].pos)
			return -ENOSPC;
		total += seg[i].len;
		first = seg[i].pos < first ? seg[i].pos : first;
		end = seg[i].pos + seg[i].len > end ? seg[i].pos + seg[i].len : end;
	}
	if (total > BLK_WRITEV_BYTES || total > w->bounce || snd_len != hdr + total)
		return -EINVAL;
	if (blk_from_caller(w, hdr, w->buf, total) != (long)total)
		return -EFAULT;
	/* held as one range (the segments' span) against other writes */
	range_hold(w, first / BLK_SECTOR, end / BLK_SECTOR);
	int err = 0;
	uint32_t boff = 0;
	for (uint32_t i = 0; i < n && !err;) {
		int k = 0; /* a wave of requests in flight together */
		for (; i < n && k < (int)BLK_CHUNK_REQS; i++, k++) {
			struct blk_req *r = &w->reqs[k];
			r->op = BLK_OP_WRITE;
			r->sector = seg[i].pos / BLK_SECTOR;
			r->bytes = (uint32_t)seg[i].len;
			r->buf = w->buf + boff;
			r->phys = w->phys + boff;
			r->who = *who;
			r->notif = w->notif;
			blk_submit(w->d, r);
			boff += (uint32_t)seg[i].len;
		}
		err = blk_wait(w->d, w->reqs, k);
	}
	range_drop(w);
	if (!err && flush)
		err = (int)blk_flush(w, who);
	return err ? err : (long)total;
}

/* Requests over the grant's pieces g[*gi..n) (at *gin bytes into piece
 * *gi) for at most BLK_CHUNK_REQS requests of BLK_REQ_MAX bytes and the
 * driver's pieces per request, each piece cut to its bytes per piece:
 * submitted as one wave from disk sector *sector on; how many. */
static int blk_grant_wave(struct blk_worker *w, const struct pcache_dma_seg *g, uint32_t n, uint32_t *gi,
			  uint32_t *gin, uint64_t *sector, enum blk_op op, const struct blk_who *who)
{
	struct blk_dev *d = w->d;
	uint32_t sg_max = d->sg_max < BLK_GRANT_SG ? d->sg_max : BLK_GRANT_SG;
	int k = 0;
	for (; k < (int)BLK_CHUNK_REQS && *gi < n; k++) {
		struct pcache_dma_seg *sg = w->gsg[k];
		uint32_t nsg = 0, bytes = 0;
		while (*gi < n && nsg < sg_max && bytes < BLK_REQ_MAX) {
			uint32_t piece = g[*gi].len - *gin;
			piece = piece < d->sg_bytes ? piece : d->sg_bytes;
			piece = piece < BLK_REQ_MAX - bytes ? piece : BLK_REQ_MAX - bytes;
			sg[nsg++] = (struct pcache_dma_seg){ g[*gi].phys + *gin, piece, 0 };
			bytes += piece;
			*gin += piece;
			if (*gin == g[*gi].len) {
				(*gi)++;
				*gin = 0;
			}
		}
		struct blk_req *r = &w->greqs[k];
		r->op = op;
		r->sector = *sector;
		r->bytes = bytes;
		r->buf = NULL;
		r->phys = 0;
		r->sg = sg;
		r->nsg = nsg;
		r->who = *who;
		r->notif = w->notif;
		blk_submit(d, r);
		*sector += bytes / BLK_SECTOR;
	}
	return k;
}

/* The caller's grant's pieces for op's direction, in waves of requests. */
long blk_grant_io(struct blk_worker *w, uint64_t pos, uint64_t len, uint64_t goff, enum blk_op op,
		  const struct blk_who *who)
{
	struct blk_dev *d = w->d;
	if (!d->sg_max || d->sg_bytes < BLK_SECTOR)
		return -EOPNOTSUPP;
	if (len == 0 || len > BLK_READ_GRANT_MAX || (pos | len | goff) % BLK_SECTOR || pos >= blk_size(d) ||
	    len > blk_size(d) - pos)
		return -EINVAL;
	long n = sys_ipc_dma_grant(goff, len, w->grant, PCACHE_DMA_SEGS_MAX, op == BLK_OP_WRITE);
	if (n <= 0)
		return n < 0 ? n : -EIO;
	/* pieces are multiples of 512 (page pieces of a 512-aligned range),
	 * and so is every cut of them: each request stays whole sectors */
	uint32_t gi = 0, gin = 0;
	uint64_t sector = pos / BLK_SECTOR;
	int err = 0;
	while (!err && gi < (uint32_t)n) {
		int k = blk_grant_wave(w, w->grant, (uint32_t)n, &gi, &gin, &sector, op, who);
		err = blk_wait(d, w->greqs, k);
	}
	sys_ipc_dma_grant(0, 0, NULL, 0, 0); /* the device is done with the frames */
	return err ? err : (long)len;
}

long blk_flush(struct blk_worker *w, const struct blk_who *who)
{
	if (!w->d->can_flush)
		return 0;	/* a write-through device: nothing held back */
	struct blk_req *r = &w->reqs[0];
	r->op = BLK_OP_FLUSH;
	r->sector = 0;
	r->bytes = 0;
	r->buf = NULL;
	r->phys = 0;
	r->who = *who;
	r->notif = w->notif;
	blk_submit(w->d, r);
	return blk_wait(w->d, r, 1);
}
