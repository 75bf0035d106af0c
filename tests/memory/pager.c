/* The pager (kernel/pcache/pager.c, docs/fs.md "The pager protocol"):
 * this program is a file server of its own - an endpoint, a
 * PCACHE_BACKED object, a channel the kernel serves from it - and its
 * children are the readers. A missing page is asked of the server (one
 * FILL request per missing range, however many readers wait for it;
 * readahead windows that grow on sequential reads), the reader sleeps
 * until pcache_fill; a failed fill is EIO for that reader only; a reader
 * killed while it waits is gone at once; a dead server fails waiting
 * readers with EIO and waiting mappers with SIGBUS at once; pcache_fill
 * never overwrites a page a client wrote; a MAP_PRIVATE write to a
 * missing page fills it, then copies it; writeback (pcache_dirty) puts
 * pages under writeback until pcache_done; the new calls' rights and
 * errno. Pages are charged to the reader's cgroup, never the server's.
 * Prints TAP. */
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "arbor/syscalls.h"
#include "abi/ipc.h"
#include "abi/pcache.h"
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_pager"
#define PG 4096
#define MIB (1024 * 1024)
#define MS 1000000ull

static int ep = -1;
static long id;
static int fd = -1;

static void want(long r, long w, const char *what)
{
	if (r != w)
		printf("# %s: got %ld, want %ld\n", what, r, w);
	check(r == w, what);
}

/* The byte at offset off of the file as the store holds it. */
static unsigned char byte_at(uint64_t off)
{
	return (unsigned char)((off * 7 + off / PG) % 251);
}

static void page_of(uint64_t index, unsigned char *buf)
{
	for (int i = 0; i < PG; i++)
		buf[i] = byte_at(index * PG + (uint64_t)i);
}

/* Answers one request (waiting at most ms): its kind, or -errno. */
static long serve_one(int e, uint64_t oid, long ms, struct pcache_req *req, int err)
{
	static unsigned char buf[PCACHE_FILL_MAX * PG];
	long r = sys_pcache_pager_wait(e, req, (uint64_t)ms * MS);
	if (r < 0)
		return r;
	if (req->id != oid)
		return -1000;
	if (req->kind != PCACHE_REQ_FILL)
		return req->kind;
	for (uint32_t i = 0; i < req->count; i++)
		page_of(req->first + i, buf + (size_t)i * PG);
	r = sys_pcache_fill(e, oid, req->first, req->count, err ? NULL : buf, err);
	return r == (long)req->count ? PCACHE_REQ_FILL : -2000 + r;
}

/* A child that preads len bytes at off and checks them: exit 0 if right,
 * 10 + errno if the read failed, 9 if short or wrong. */
static pid_t reader(uint64_t off, size_t len)
{
	pid_t p = fork();
	if (p == 0) {
		static unsigned char buf[MIB];
		ssize_t r = pread(fd, buf, len, (off_t)off);
		if (r < 0)
			_exit(10 + errno);
		if ((size_t)r != len)
			_exit(9);
		for (size_t i = 0; i < len; i++)
			if (buf[i] != byte_at(off + i))
				_exit(9);
		_exit(0);
	}
	return p;
}

static void test_fill(void)
{
	struct pcache_req req;
	pid_t c = reader(5 * PG + 10, 100);
	long k = serve_one(ep, (uint64_t)id, 5000, &req, 0);
	want(k, PCACHE_REQ_FILL, "a read of a missing page: one FILL request for it");
	check(req.first == 5 && req.count == 4 && req.size == 16 * MIB,
	      "the request: from page 5, a readahead window of 4 pages, the size");
	want(wait_bounded(c, 10), 0, "the reader woke with the server's bytes");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "no other request came");
	c = reader(6 * PG, 3 * PG);
	want(wait_bounded(c, 10), 0, "the window's other pages are served from memory (no request)");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "still no request");
	long cur = flat_field(BASE "/r/memory.stat", "file");
	check(cur == 4 * PG, "the 4 pages are charged to the reader's cgroup as file");
}

static void test_one_fill(void)
{
	struct pcache_req req;
	pid_t c[4];
	for (int i = 0; i < 4; i++)
		c[i] = reader(100 * PG + (uint64_t)i * 8, 8);
	usleep(100000);
	long k = serve_one(ep, (uint64_t)id, 5000, &req, 0);
	long again = sys_pcache_pager_wait(ep, &req, 100 * MS);
	int ok = 1;
	for (int i = 0; i < 4; i++)
		ok &= wait_bounded(c[i], 10) == 0;
	check(k == PCACHE_REQ_FILL && again == -ETIMEDOUT && ok,
	      "four readers of one missing page: one request, all four get its bytes");
}

/* The pager's counter key of /proc/vmstat (-1 without it). */
static long vmstat(const char *key)
{
	return flat_field("/proc/vmstat", key);
}

static void test_readahead(void)
{
	struct pcache_req req;
	long async0 = vmstat("pager_ra_async");
	pid_t p = fork();
	if (p == 0) {
		static unsigned char buf[64 * 1024];
		for (uint64_t off = 8 * MIB; off < 9 * MIB; off += sizeof(buf)) {
			if (pread(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf))
				_exit(1);
			for (size_t i = 0; i < sizeof(buf); i += 97)
				if (buf[i] != byte_at(off + i))
					_exit(2);
		}
		_exit(0);
	}
	/* every request, until the reader is done and no more come (the
	 * windows asked for ahead of it included) */
	int reqs = 0, grew = 1, done = -1;
	uint32_t last = 0;
	uint64_t end = 0;
	for (;;) {
		long k = serve_one(ep, (uint64_t)id, done < 0 ? 5000 : 100, &req, 0);
		if (k != PCACHE_REQ_FILL)
			break;
		reqs++;
		grew &= req.count >= last;
		last = req.count;
		if (req.first + req.count > end)
			end = req.first + req.count;
		if (done < 0)
			done = wait_bounded(p, 0);
	}
	if (done < 0)
		done = wait_bounded(p, 10);
	long async = vmstat("pager_ra_async") - async0;
	printf("# 1 MiB read in 64 KiB preads: %d requests, %ld asynchronous, up to page %llu\n", reqs, async,
	       (unsigned long long)end);
	check(done == 0 && reqs <= 6 && grew, "a sequential 1 MiB read: at most 6 requests, windows growing");
	check(async >= 2 && end > 2304 && end <= 2304 + 2 * PCACHE_FILL_MAX,
	      "asynchronous windows ahead of the reader (/proc/vmstat pager_ra_async), at most two windows past it");
}

/* A second backed object of 16 MiB on the endpoint, with a channel. */
static int new_obj(long *oid)
{
	*oid = sys_pcache_create(ep, PCACHE_BACKED, 64 * MIB);
	int ch = *oid >= 1 && sys_pcache_truncate(ep, (uint64_t)*oid, 16 * MIB) == 0 ? (int)sys_chan_create(ep, 1) : -1;
	if (ch >= 0 && (sys_ipc_fstate(ch, IPC_FST_SEEKABLE, 0, O_RDWR, O_APPEND) || sys_pcache_attach(ch, ep, (uint64_t)*oid))) {
		close(ch);
		ch = -1;
	}
	return ch;
}

static void drop_obj(int ch, long oid)
{
	close(ch);
	sys_pcache_free(ep, (uint64_t)oid);
}

/* Reads len bytes at off of ch and checks them: 0, or 1. */
static int read_ok(int ch, uint64_t off, size_t len)
{
	static unsigned char buf[MIB];
	if (pread(ch, buf, len, (off_t)off) != (ssize_t)len)
		return 1;
	for (size_t i = 0; i < len; i++)
		if (buf[i] != byte_at(off + i))
			return 1;
	return 0;
}

/* Linux's PG_readahead: the next window is asked for before the reader
 * needs it, and a reader meeting the marker does not wait for it. */
static void test_ra_async(void)
{
	long oid;
	int ch = new_obj(&oid), go[2], said[2];
	check(ch >= 0 && pipe(go) == 0 && pipe(said) == 0, "a second object");
	long async0 = vmstat("pager_ra_async");
	pid_t c = fork();
	if (c == 0) {
		char b;
		int bad = read_ok(ch, 0, 64 * 1024);
		write(said[1], "a", 1);
		if (read(go[0], &b, 1) != 1)
			_exit(3);
		_exit(bad ? 1 : read_ok(ch, 64 * 1024, 64 * 1024) ? 2 : 0);
	}
	struct pcache_req req, ahead;
	long k = serve_one(ep, (uint64_t)oid, 5000, &req, 0);
	check(k == PCACHE_REQ_FILL && req.first == 0 && req.count == 16, "a 64 KiB read at 0: a window of 16 pages");
	k = serve_one(ep, (uint64_t)oid, 1000, &ahead, 0);
	char b = 0;
	check(read(said[0], &b, 1) == 1 && b == 'a', "the reader got its 64 KiB");
	check(k == PCACHE_REQ_FILL && ahead.first == 16 && ahead.count == 32,
	      "the next window (16 pages on, twice as large) was asked for at once, before the reader came to it");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "and no more: one window ahead");
	write(go[1], "g", 1);
	/* the reader meets the marker (page 16, in memory): it asks for the
	 * next window and reads on without waiting for it */
	want(wait_bounded(c, 10), 0, "the next 64 KiB are read from memory, without waiting for the window it asked for");
	k = serve_one(ep, (uint64_t)oid, 1000, &req, 0);
	check(k == PCACHE_REQ_FILL && req.first == 48 && req.count == 64, "that window: pages 48.., 64 pages");
	want(vmstat("pager_ra_async") - async0, 2, "/proc/vmstat pager_ra_async counted both");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "nothing else asked");
	close(go[0]);
	close(go[1]);
	close(said[0]);
	close(said[1]);
	drop_obj(ch, oid);
}

/* A random reader: windows of its own reads (at least 4 pages), nothing
 * ahead. */
static void test_ra_random(void)
{
	long oid;
	int ch = new_obj(&oid);
	long async0 = vmstat("pager_ra_async"), fills0 = vmstat("pager_fill_requests");
	pid_t c = fork();
	if (c == 0) {
		int bad = 0;
		for (int i = 0; i < 20; i++)
			bad |= read_ok(ch, (uint64_t)(3000 - i * 50) * PG + 100, 200);
		_exit(bad);
	}
	int reqs = 0, small = 1;
	struct pcache_req req;
	while (serve_one(ep, (uint64_t)oid, reqs < 20 ? 5000 : 100, &req, 0) == PCACHE_REQ_FILL) {
		reqs++;
		small &= req.count == 4;
	}
	want(wait_bounded(c, 10), 0, "20 reads at scattered pages");
	check(reqs == 20 && small, "one request of 4 pages each");
	check(vmstat("pager_ra_async") == async0 && vmstat("pager_fill_requests") - fills0 == 20,
	      "no window ahead (/proc/vmstat: 20 fill requests, none asynchronous)");
	drop_obj(ch, oid);
}

/* A window asked for ahead, then the file truncated before its fill: the
 * pages past the size go (uncharged), the fill fills only what is left. */
static void test_ra_truncate(void)
{
	long oid;
	int ch = new_obj(&oid);
	long file0 = flat_field(BASE "/r/memory.stat", "file");
	pid_t c = fork();
	if (c == 0)
		_exit(read_ok(ch, 0, 64 * 1024));
	struct pcache_req req, ahead;
	long k = serve_one(ep, (uint64_t)oid, 5000, &req, 0);
	want(wait_bounded(c, 10), 0, "a 64 KiB read at 0");
	long w = sys_pcache_pager_wait(ep, &ahead, 1000 * MS);
	check(k == PCACHE_REQ_FILL && w == 0 && ahead.first == 16 && ahead.count == 32, "its next window asked for");
	want(sys_pcache_truncate(ep, (uint64_t)oid, 20 * PG), 0, "the file truncated to 20 pages meanwhile");
	want(flat_field(BASE "/r/memory.stat", "file") - file0, 20 * PG, "the window's pages past it are gone (uncharged)");
	static unsigned char buf[32 * PG];
	for (uint32_t i = 0; i < ahead.count; i++)
		page_of(ahead.first + i, buf + (size_t)i * PG);
	want(sys_pcache_fill(ep, (uint64_t)oid, ahead.first, ahead.count, buf, 0), 4, "the late fill fills the 4 left");
	c = fork();
	if (c == 0) {
		char b;
		_exit(read_ok(ch, 19 * PG, PG) ? 1 : pread(ch, &b, 1, 20 * PG) != 0 ? 2 : 0);
	}
	want(wait_bounded(c, 10), 0, "they read right, and the file ends at page 20");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "with no request");
	drop_obj(ch, oid);
	want(flat_field(BASE "/r/memory.stat", "file"), file0, "the object freed: its pages uncharged");
}

static void test_fill_error(void)
{
	struct pcache_req req;
	pid_t c = reader(200 * PG, 10);
	long k = serve_one(ep, (uint64_t)id, 5000, &req, -EIO);
	want(k, PCACHE_REQ_FILL, "a fill answered with -EIO");
	want(wait_bounded(c, 10), 10 + EIO, "the reader gets EIO");
	c = reader(200 * PG, 10);
	k = serve_one(ep, (uint64_t)id, 5000, &req, 0);
	check(k == PCACHE_REQ_FILL && req.first == 200 && wait_bounded(c, 10) == 0,
	      "the next reader asks again and gets the bytes: the error was that reader's only");
}

static void test_killed(void)
{
	struct pcache_req req;
	pid_t c = reader(300 * PG, 10);
	long k = sys_pcache_pager_wait(ep, &req, 5000 * MS);
	check(k == 0 && req.first == 300, "a reader waits for a fill the server does not give");
	double t = now_s();
	kill(c, SIGKILL);
	int st = wait_bounded(c, 3);
	printf("# killed after %.3f s\n", now_s() - t);
	want(st, 128 + SIGKILL, "killed while it waits: gone in < 3 s");
	static unsigned char buf[PCACHE_FILL_MAX * PG];
	for (uint32_t i = 0; i < req.count; i++)
		page_of(req.first + i, buf + (size_t)i * PG);
	want(sys_pcache_fill(ep, (uint64_t)id, req.first, req.count, buf, 0), req.count,
	     "the late fill still lands (the pages stayed, charged)");
	c = reader(300 * PG, 10);
	want(wait_bounded(c, 10), 0, "and serves the next reader");
}

static void test_writes(void)
{
	struct pcache_req req;
	pid_t c = fork();
	if (c == 0)
		_exit(pwrite(fd, "Z", 1, 400 * PG + 1) == 1 ? 0 : 1);
	long k = serve_one(ep, (uint64_t)id, 5000, &req, 0);
	check(k == PCACHE_REQ_FILL && req.first == 400 && wait_bounded(c, 10) == 0,
	      "a partial-page write to a missing page reads it first");
	static unsigned char page[PG];
	memset(page, 'W', PG);
	want(pwrite(fd, page, PG, 500 * PG), PG, "a whole-page write to a missing page");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "needs no fill");
	unsigned char got[PG];
	check(pread(fd, got, 2, 400 * PG) == 2 && got[0] == byte_at(400 * PG) && got[1] == 'Z',
	      "the partial write kept the store's bytes around it");
	/* a fill for a page the client wrote meanwhile must not undo it */
	static unsigned char buf[PG];
	page_of(500, buf);
	want(sys_pcache_fill(ep, (uint64_t)id, 500, 1, buf, 0), 0, "pager.fill never overwrites a page a client wrote");
	check(pread(fd, got, PG, 500 * PG) == PG && got[0] == 'W' && got[PG - 1] == 'W', "the client's bytes stay");
	/* a private mapping's write to a missing page: the page is asked
	 * for, then copied (the file keeps the store's bytes) */
	c = fork();
	if (c == 0) {
		volatile unsigned char *m = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 1000 * PG);
		if (m == MAP_FAILED)
			_exit(1);
		m[3] = 'P';
		_exit(m[0] == byte_at(1000 * PG) && m[3] == 'P' && m[4] == byte_at(1000 * PG + 4) ? 0 : 2);
	}
	k = serve_one(ep, (uint64_t)id, 5000, &req, 0);
	check(k == PCACHE_REQ_FILL && req.first == 1000 && wait_bounded(c, 10) == 0,
	      "a MAP_PRIVATE write to a missing page: filled, then copied (the store's bytes and the write)");
	check(pread(fd, got, 4, 1000 * PG) == 4 && got[3] == byte_at(1000 * PG + 3), "the file's page is untouched");
	/* a server's own write of part of a missing page asks nothing of it */
	want(sys_pcache_write(ep, (uint64_t)id, 900 * PG + 5, "s", 1), 1, "a server's pcache_write of part of a page");
	want(sys_pcache_pager_wait(ep, &req, 50 * MS), -ETIMEDOUT, "asks no fill of the server itself");
	long pr = pread(fd, got, 6, 900 * PG);
	if (pr != 6 || memcmp(got, "\0\0\0\0\0s", 6))
		printf("# %ld: %02x %02x %02x %02x %02x %02x\n", pr, got[0], got[1], got[2], got[3], got[4], got[5]);
	check(pr == 6 && !memcmp(got, "\0\0\0\0\0s", 6), "the rest of that page is zeros");
	/* whose they are: the writer's cgroup, as the kernel recorded it
	 * (a cgroup directory's inode number is its id << 8) */
	struct stat cst;
	long rid = stat(BASE "/r", &cst) == 0 ? (long)(cst.st_ino >> 8) : -1;
	/* the owner of the next page pcache_dirty would take (a server waits
	 * for its io.max turn before it takes them, docs/writeback.md) */
	want(sys_pcache_wb_as(ep, (uint64_t)id, 0, PCACHE_WB_NEXT), rid,
	     "pcache.wb_as NEXT: the first dirty page's owner (r)");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 401, PCACHE_WB_NEXT), rid,
	     "pcache.wb_as NEXT from past a dirty page: the next one's (page 500, r)");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 501, PCACHE_WB_NEXT), -ENOENT,
	     "pcache.wb_as NEXT past the last dirty page: ENOENT");
	/* writeback: the dirty pages, then done */
	uint64_t idx[8];
	long nd = sys_pcache_dirty(ep, (uint64_t)id, 0, idx, 8);
	check(nd == 2 && idx[0] == 400 && idx[1] == 500, "pcache.dirty: the two written pages");
	check(flat_field(BASE "/r/memory.stat", "file_writeback") == 2 * PG &&
	      flat_field(BASE "/r/memory.stat", "file_dirty") == 0,
	      "they are under writeback now (memory.stat file_writeback), no longer dirty");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 0, PCACHE_WB_NEXT), -ENOENT,
	     "pcache.wb_as NEXT: pages under writeback are not the next to take: ENOENT");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 400, PCACHE_WB_OWNER), rid,
	     "pcache.wb_as of a page under writeback: its writer's cgroup (r)");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 401, PCACHE_WB_OWNER), -ENOENT,
	     "pcache.wb_as of a page not in memory: ENOENT");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 1000, PCACHE_WB_OWNER), -ENOENT,
	     "pcache.wb_as of a clean page: ENOENT");
	want(sys_pcache_wb_as(ep, 0, 0, PCACHE_WB_META), -EPERM,
	     "pcache.wb_as for the root by a server outside the root: EPERM");
	want(sys_pcache_wb_as(ep, 0, 0, PCACHE_WB_SELF), 0, "pcache.wb_as back to itself: 0");
	/* zero-copy writeback (docs/fs.md): pages under writeback lent to the
	 * driver the thread calls next; the loan changes nothing of them */
	long wr0 = vmstat("pager_grant_written");
	want(sys_pcache_grant(ep, (uint64_t)id, 400, 2, PCACHE_GRANT_LEND_WB), -EAGAIN,
	     "pcache.grant LEND_WB of a range with a page not under writeback: EAGAIN");
	want(sys_pcache_grant(ep, (uint64_t)id, 1000, 1, PCACHE_GRANT_LEND_WB), -EAGAIN,
	     "pcache.grant LEND_WB of a clean page: EAGAIN");
	want(sys_pcache_grant(ep, (uint64_t)id, 500, 1, PCACHE_GRANT_LEND_WB), 0,
	     "pcache.grant LEND_WB lends a page under writeback");
	want(sys_pcache_grant(ep, (uint64_t)id, 400, 1, PCACHE_GRANT_LEND), -EBUSY,
	     "one loan per thread, of either kind: EBUSY");
	want(sys_pcache_grant(ep, (uint64_t)id, 500, 1, PCACHE_GRANT_FILLED), -EINVAL,
	     "a writeback loan ends only as WRITTEN: FILLED is EINVAL");
	want(sys_pcache_grant(ep, (uint64_t)id, 500, 1, PCACHE_GRANT_WRITTEN), 1, "pcache.grant WRITTEN ends it");
	want(sys_pcache_grant(ep, (uint64_t)id, 500, 1, PCACHE_GRANT_WRITTEN), -ENOENT, "and nothing is lent after");
	want(vmstat("pager_grant_written") - wr0, 1, "/proc/vmstat pager_grant_written counted the page");
	check(flat_field(BASE "/r/memory.stat", "file_writeback") == 2 * PG && pread(fd, got, PG, 500 * PG) == PG &&
	      got[0] == 'W', "the loan left the pages under writeback, their bytes as they were");
	want(sys_pcache_done(ep, (uint64_t)id, 400, 101, 0), 0, "pcache.done over them");
	check(flat_field(BASE "/r/memory.stat", "file_writeback") == 0, "writeback over");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 400, PCACHE_WB_OWNER), -ENOENT,
	     "pcache.wb_as of a page written back: ENOENT (clean pages have no owner)");
}

static void test_rights(void)
{
	struct pcache_req req;
	long weak = sys_handle_dup(ep, 0, 0);
	sys_handle_rights((int)weak, HANDLE_RIGHT_CALL | HANDLE_RIGHT_RECV);
	static unsigned char buf[PG];
	want(sys_pcache_pager_wait((int)weak, &req, MS), -EPERM, "pager.wait without MANAGE: EPERM");
	want(sys_pcache_fill((int)weak, (uint64_t)id, 0, 1, buf, 0), -EPERM, "pager.fill without MANAGE: EPERM");
	want(sys_pcache_done((int)weak, (uint64_t)id, 0, 1, 0), -EPERM, "pager.done without MANAGE: EPERM");
	want(sys_pcache_wb_as((int)weak, (uint64_t)id, 0, PCACHE_WB_OWNER), -EPERM, "pcache.wb_as without MANAGE: EPERM");
	want(sys_pcache_wb_as(ep, 9999, 0, PCACHE_WB_OWNER), -EBADF, "pcache.wb_as of an unknown id: EBADF");
	want(sys_pcache_wb_as(ep, (uint64_t)id, 0, 4), -EINVAL, "pcache.wb_as with an unknown how: EINVAL");
	long nt = sys_notif_create();
	want(sys_pcache_pager_wait((int)nt, &req, MS), -EBADF, "pager.wait on a notification: EBADF");
	want(sys_pcache_pager_wait(ep, (struct pcache_req *)8, MS), -EFAULT, "pager.wait into a bad buffer: EFAULT");
	want(sys_pcache_fill(ep, 9999, 0, 1, buf, 0), -EBADF, "pager.fill of an unknown id: EBADF");
	want(sys_pcache_done(ep, 9999, 0, 1, 0), -EBADF, "pager.done of an unknown id: EBADF");
	long sh = sys_pcache_create(ep, PCACHE_SHMEM, MIB);
	want(sys_pcache_fill(ep, (uint64_t)sh, 0, 1, buf, 0), -EINVAL, "pager.fill of a shmem object: EINVAL");
	want(sys_pcache_wb_as(ep, (uint64_t)sh, 0, PCACHE_WB_OWNER), -EINVAL, "pcache.wb_as of a shmem object: EINVAL");
	want(sys_pcache_fill(ep, (uint64_t)id, 0, 0, buf, 0), -EINVAL, "pager.fill of 0 pages: EINVAL");
	struct pcache_resv rs = { .budget = 1, .root = 2 }, rg;
	want(sys_pcache_reserve((int)weak, (uint64_t)id, NULL, &rg), -EPERM, "pager.reserve without MANAGE: EPERM");
	want(sys_pcache_reserve(ep, 9999, NULL, &rg), -EBADF, "pager.reserve of an unknown id: EBADF");
	want(sys_pcache_reserve(ep, (uint64_t)sh, NULL, &rg), -EINVAL, "pager.reserve of a shmem object: EINVAL");
	want(sys_pcache_reserve(ep, (uint64_t)id, &rs, &rg), -EINVAL, "pager.reserve with root over the budget: EINVAL");
	want(sys_pcache_reserve(ep, (uint64_t)id, (const struct pcache_resv *)8, NULL), -EFAULT,
	     "pager.reserve from a bad buffer: EFAULT");
	want(sys_pcache_reserve(ep, (uint64_t)id, NULL, &rg) == 0 && rg.budget == 0 && rg.held == 0, 1,
	     "pager.reserve reads a fresh object's state: nothing");
	want(sys_pcache_fill(ep, (uint64_t)id, 0, PCACHE_FILL_MAX + 1, buf, 0), -EINVAL,
	     "pager.fill of more than PCACHE_FILL_MAX pages: EINVAL");
	want(sys_pcache_fill(ep, (uint64_t)id, 0, 1, buf, 5), -EINVAL, "pager.fill with a positive errno: EINVAL");
	want(sys_pcache_fill(ep, (uint64_t)id, 0, 1, (void *)8, 0), -EFAULT, "pager.fill from a bad buffer: EFAULT");
	sys_pcache_free(ep, (uint64_t)sh);
	close((int)nt);
	close((int)weak);
}

/* Zero-copy fills (docs/fs.md): a FILL's waiting pages lent to a driver
 * (pcache_grant) are nobody else's to fill until the loan ends; RETURN
 * makes them wait again, FAILED fails their readers. */
static void test_grant(void)
{
	struct pcache_req req;
	static unsigned char buf[PCACHE_FILL_MAX * PG];
	long weak = sys_handle_dup(ep, 0, 0);
	sys_handle_rights((int)weak, HANDLE_RIGHT_CALL | HANDLE_RIGHT_RECV);
	long lent0 = vmstat("pager_grant_pages");
	want(sys_pcache_grant((int)weak, (uint64_t)id, 0, 1, PCACHE_GRANT_LEND), -EPERM,
	     "pcache.grant without MANAGE: EPERM");
	want(sys_pcache_grant(ep, 9999, 0, 1, PCACHE_GRANT_LEND), -EBADF, "pcache.grant of an unknown id: EBADF");
	long sh = sys_pcache_create(ep, PCACHE_SHMEM, MIB);
	want(sys_pcache_grant(ep, (uint64_t)sh, 0, 1, PCACHE_GRANT_LEND), -EINVAL, "pcache.grant of a shmem object: EINVAL");
	sys_pcache_free(ep, (uint64_t)sh);
	want(sys_pcache_grant(ep, (uint64_t)id, 0, 1, 0), -EINVAL, "pcache.grant with an unknown how: EINVAL");
	want(sys_pcache_grant(ep, (uint64_t)id, 0, 0, PCACHE_GRANT_LEND), -EINVAL, "pcache.grant of 0 pages: EINVAL");
	want(sys_pcache_grant(ep, (uint64_t)id, 0, 1, PCACHE_GRANT_FILLED), -ENOENT,
	     "pcache.grant ending a loan never made: ENOENT");
	struct pcache_dma_seg segs[4];
	want(sys_ipc_dma_grant(0, PG, segs, 4, 0), -EPERM, "ipc_dma_grant without the driver capability: EPERM");

	pid_t c = reader(620 * PG, 10);
	long k = sys_pcache_pager_wait(ep, &req, 5000 * MS);
	check(k == 0 && req.first == 620 && req.count == 4, "a reader's FILL request for pages 620-623");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 5, PCACHE_GRANT_LEND), -EAGAIN,
	     "pcache.grant of a range with a page not waiting for a fill: EAGAIN");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 4, PCACHE_GRANT_LEND), 0, "pcache.grant lends the 4 waiting pages");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 4, PCACHE_GRANT_LEND), -EBUSY,
	     "pcache.grant lends one range per thread: EBUSY");
	for (uint32_t i = 0; i < 4; i++)
		page_of(620 + i, buf + (size_t)i * PG);
	want(sys_pcache_fill(ep, (uint64_t)id, 620, 4, buf, 0), 0, "pager.fill leaves lent pages alone");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 3, PCACHE_GRANT_FILLED), -EINVAL,
	     "pcache.grant ends only the range it lent: EINVAL");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 4, PCACHE_GRANT_WRITTEN), -EINVAL,
	     "a fill's loan does not end as a writeback's (WRITTEN): EINVAL");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 4, PCACHE_GRANT_WRITTEN + 1), -EINVAL,
	     "pcache.grant with a how past the last: EINVAL");
	usleep(50000);
	check(waitpid(c, NULL, WNOHANG) == 0, "the reader still waits while its pages are lent");
	want(sys_pcache_grant(ep, (uint64_t)id, 620, 4, PCACHE_GRANT_RETURN), 4,
	     "pcache.grant RETURN: the 4 pages wait again");
	want(sys_pcache_fill(ep, (uint64_t)id, 620, 4, buf, 0), 4, "and pager.fill fills them");
	want(wait_bounded(c, 10), 0, "the reader gets the bytes");

	c = reader(720 * PG, 10);
	k = sys_pcache_pager_wait(ep, &req, 5000 * MS);
	check(k == 0 && req.first == 720 && req.count == 4, "a reader's FILL request for pages 720-723");
	want(sys_pcache_grant(ep, (uint64_t)id, 720, 4, PCACHE_GRANT_LEND), 0, "pcache.grant lends them");
	want(sys_pcache_grant(ep, (uint64_t)id, 720, 4, PCACHE_GRANT_FAILED), 4, "pcache.grant FAILED");
	want(wait_bounded(c, 10), 10 + EIO, "pcache.grant FAILED: the reader gets EIO");
	want(vmstat("pager_grant_pages") - lent0, 8, "/proc/vmstat pager_grant_pages counted the 8 pages lent");
	c = reader(720 * PG, 10);
	k = serve_one(ep, (uint64_t)id, 5000, &req, 0);
	check(k == PCACHE_REQ_FILL && req.first == 720 && wait_bounded(c, 10) == 0,
	      "the next reader asks again and gets the bytes");
	close((int)weak);
}

/* A server process of its own (its endpoint dies with it): a reader and
 * a mapper wait for its fills when it is killed. */
static void test_server_death(void)
{
	int res[2], ready[2];
	pipe(res);
	pipe(ready);
	pid_t s = fork();
	if (s == 0) {
		int e = (int)sys_ep_create();
		long o = sys_pcache_create(e, PCACHE_BACKED, 16 * MIB);
		sys_pcache_truncate(e, (uint64_t)o, MIB);
		int ch = (int)sys_chan_create(e, 1);
		sys_ipc_fstate(ch, IPC_FST_SEEKABLE, 0, O_RDWR, 0);
		sys_pcache_attach(ch, e, (uint64_t)o);
		if (fork() == 0) {
			char b[16];
			ssize_t r = pread(ch, b, 16, 0);
			char c = r < 0 && errno == EIO ? 'E' : 'x';
			write(res[1], &c, 1);
			_exit(0);
		}
		if (fork() == 0) {
			volatile char *m = mmap(NULL, MIB, PROT_READ, MAP_SHARED, ch, 0);
			if (m == MAP_FAILED) {
				write(res[1], "m", 1);
				_exit(0);
			}
			sigset_t none;
			sigemptyset(&none);
			struct sigaction sa = { .sa_handler = SIG_DFL };
			sigaction(SIGBUS, &sa, NULL);
			if (fork() == 0) { /* the mapper: its parent reports how it ended */
				(void)m[128 * PG];
				_exit(0);
			}
			int st;
			wait(&st);
			char c = WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS ? 'B' : WIFSIGNALED(st) ? (char)('a' + WTERMSIG(st)) : (char)('0' + WEXITSTATUS(st));
			write(res[1], &c, 1);
			_exit(0);
		}
		struct pcache_req req;
		int got = 0;
		while (got < 2 && sys_pcache_pager_wait(e, &req, 5000 * MS) == 0)
			got++;
		char g = (char)('0' + got);
		write(ready[1], &g, 1);
		for (;;)
			pause();
	}
	char c = 0, a = 0, b = 0;
	int rd = (int)read(ready[0], &c, 1);
	if (c != '2')
		printf("# %d %c\n", rd, c);
	check(rd == 1 && c == '2', "a server of our own has a reader's and a mapper's requests");
	double t = now_s();
	kill(s, SIGKILL);
	waitpid(s, NULL, 0);
	int got = read(res[0], &a, 1) == 1 && read(res[0], &b, 1) == 1;
	double took = now_s() - t;
	printf("# both woke %.3f s after the kill: %c %c\n", took, a, b);
	check(got && ((a == 'E' && b == 'B') || (a == 'B' && b == 'E')) && took < 2,
	      "the server killed: the reader gets EIO and the mapper SIGBUS at once");
	close(res[0]);
	close(res[1]);
	close(ready[0]);
	close(ready[1]);
}

/* The server dies with a window asked for ahead of a reader: the reader
 * gets EIO at once, and every page of both windows is uncharged. */
static void test_ra_server_death(void)
{
	int res[2], ready[2];
	pipe(res);
	pipe(ready);
	long file0 = flat_field(BASE "/r/memory.stat", "file");
	pid_t s = fork();
	if (s == 0) {
		int e = (int)sys_ep_create();
		long o = sys_pcache_create(e, PCACHE_BACKED, 16 * MIB);
		sys_pcache_truncate(e, (uint64_t)o, 4 * MIB);
		int ch = (int)sys_chan_create(e, 1);
		sys_ipc_fstate(ch, IPC_FST_SEEKABLE, 0, O_RDWR, 0);
		sys_pcache_attach(ch, e, (uint64_t)o);
		if (fork() == 0) {
			static char b[MIB];
			ssize_t r = pread(ch, b, MIB, 0);
			char c = r < 0 && errno == EIO ? 'E' : 'x';
			write(res[1], &c, 1);
			_exit(0);
		}
		struct pcache_req q[2];
		int got = 0;
		while (got < 2 && sys_pcache_pager_wait(e, &q[got], 5000 * MS) == 0)
			got++;
		char g = got == 2 && q[0].first == 0 && q[0].count == PCACHE_FILL_MAX && q[1].first == PCACHE_FILL_MAX &&
				 q[1].count == PCACHE_FILL_MAX ? 'y' : (char)('0' + got);
		write(ready[1], &g, 1);
		for (;;)
			pause();
	}
	char c = 0, a = 0;
	check(read(ready[0], &c, 1) == 1 && c == 'y',
	      "a 1 MiB read: a window of PCACHE_FILL_MAX pages and the next one asked for at once");
	long held = flat_field(BASE "/r/memory.stat", "file") - file0;
	check(held == 2 * PCACHE_FILL_MAX * PG, "both windows' pages are charged to the reader");
	kill(s, SIGKILL);
	waitpid(s, NULL, 0);
	check(read(res[0], &a, 1) == 1 && a == 'E', "the server killed: the reader gets EIO");
	long left = -1;
	for (int i = 0; i < 100 && (left = flat_field(BASE "/r/memory.stat", "file") - file0) != 0; i++)
		usleep(10000);
	want(left, 0, "no page left charged (the window ahead freed too)");
	close(res[0]);
	close(res[1]);
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	mkdir(BASE, 0755);
	mkdir(BASE "/r", 0755);
	/* readers run in r (this process too: the children inherit it) */
	check(put(BASE "/r/cgroup.procs", "0") == 0, "into r");
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 && put(BASE "/cgroup.subtree_control", "+memory") == 0,
	      "+memory");
	ep = (int)sys_ep_create();
	id = sys_pcache_create(ep, PCACHE_BACKED, 64 * MIB);
	check(ep >= 0 && id >= 1 && sys_pcache_truncate(ep, (uint64_t)id, 16 * MIB) == 0,
	      "a backed object of 16 MiB (no page in memory)");
	fd = (int)sys_chan_create(ep, 1);
	check(fd >= 0 && sys_ipc_fstate(fd, IPC_FST_SEEKABLE, 0, O_RDWR, O_APPEND) == 0 &&
	      sys_pcache_attach(fd, ep, (uint64_t)id) == 0, "a channel the kernel serves from it");
	test_fill();
	test_one_fill();
	test_readahead();
	test_ra_async();
	test_ra_random();
	test_ra_truncate();
	test_fill_error();
	test_killed();
	test_writes();
	test_rights();
	test_grant();
	close(fd);
	sys_pcache_free(ep, (uint64_t)id);
	close(ep);
	long cur = flat_field(BASE "/r/memory.stat", "file");
	want(cur, 0, "the object freed: its pages uncharged");
	test_server_death();
	test_ra_server_death();
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	/* test_ra_server_death's reader, an orphan once its server was
	 * killed, reports EIO and then exits: r is empty (and removable)
	 * only once it has gone, which no wait of ours can see */
	int rm = -1;
	for (int i = 0; i < 500 && (rm = rmdir(BASE "/r")) != 0 && errno == EBUSY; i++)
		usleep(10000);
	check(rm == 0, "r is removed once the last reader has exited");
	printf("1..%d\n", n);
	return failed != 0;
}
