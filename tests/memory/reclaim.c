/* Reclaim of file pages (kernel/mm/reclaim.c) on an ext2 disk the host
 * made (tools/run-tests.py, test_reclaim_disk: /dev/vda holds big48.bin,
 * c16.bin, ws_a.bin, ws_b.bin and a sparse stream.bin): a cgroup under a
 * 16M memory.max reads a 48 MiB file whole; memory.reclaim takes what it
 * is asked from a cgroup's cached pages and says EAGAIN when it cannot;
 * a cgroup under a 16M memory.max writes a 32 MiB file (its dirty pages
 * written back, then evicted); memory.high is reclaimed to on the way
 * back to user mode and when written; a page fault refused by
 * memory.max reclaims file pages instead of killing; a 256 MiB read on a
 * machine (320 MiB, most of it the initrd) reclaims from the root;
 * memory.low keeps a cgroup's working set while a sibling streams a big
 * file through their parent's limit, with low events when only protected
 * memory is left; memory.min is never reclaimed. Counters come from
 * memory.stat (pgscan, pgsteal, workingset_refault_file...) and
 * memory.events. "reclaim" alone runs everything, "reclaim dirty_rate"
 * only the dirty rate part (issue 20: throttled writeback, its pressure,
 * another cgroup's fsync beside it); prints TAP. */
#define _GNU_SOURCE 1
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "check.h"

#define M "/mnt/rc"
#define CG "/sys/fs/cgroup/posix_reclaim"
#define MIB (1024L * 1024)
#define CHUNK (64 * 1024)

/* The bytes run-tests.py wrote: ((i * mul + (div ? i / div : add)) & 0xff). */
struct pattern {
	const char *path;
	long len;
	unsigned mul, add, div;
};

static const struct pattern big48 = { M "/big48.bin", 48 * MIB, 7, 0, 251 };
static const struct pattern c16 = { M "/c16.bin", 16 * MIB, 5, 1, 0 };
static const struct pattern ws_a = { M "/ws_a.bin", 24 * MIB, 11, 3, 0 };
static const struct pattern ws_b = { M "/ws_b.bin", 24 * MIB, 13, 9, 0 };
static const struct pattern stream = { M "/stream.bin", 256 * MIB, 0, 0, 0 }; /* sparse: zeros */

static long number(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static const char *at(const char *cg, const char *file)
{
	static char path[8][160];
	static int i;
	i = (i + 1) % 8;
	snprintf(path[i], sizeof(path[i]), CG "/%s/%s", cg, file);
	return path[i];
}

static long stat_of(const char *cg, const char *key)
{
	return flat_field(at(cg, "memory.stat"), key);
}

static long event_of(const char *cg, const char *key)
{
	return flat_field(at(cg, "memory.events"), key);
}

/* Reads the whole file, checking every byte: 1 if all its bytes were
 * right, 0 otherwise (timed_in_cgroup's job). */
static int read_check(void *arg)
{
	const struct pattern *p = arg;
	static unsigned char buf[CHUNK];
	int fd = open(p->path, O_RDONLY);
	long off = 0, r;
	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (long i = 0; i < r; i++) {
			long j = off + i;
			unsigned want = ((unsigned long)j * p->mul + (p->div ? (unsigned long)j / p->div : p->add)) & 0xff;
			if (buf[i] != want) {
				printf("# %s: byte %ld is %u, not %u\n", p->path, j, buf[i], want);
				close(fd);
				return 0;
			}
		}
		off += r;
	}
	close(fd);
	if (r < 0 || off != p->len)
		printf("# %s: read %ld bytes (last %ld, errno %d)\n", p->path, off, r, errno);
	return r == 0 && off == p->len;
}

/* Reads p in a child in cgroup cg: the seconds it took, or -1. */
static double read_in(const char *cg, const struct pattern *p)
{
	char dir[96];
	snprintf(dir, sizeof(dir), CG "/%s", cg);
	return timed_in_cgroup(dir, read_check, (void *)p);
}

/* A process in a cgroup holding a file open (its pages stay charged to
 * the cgroup that read them, open or not: the ext2 server keeps a closed
 * file's object in its inode cache): it reads the file
 * whole at once and whenever told ('r'), answering 'y' if every byte
 * was right; 'q' (or its pipe closing) ends it. */
struct holder {
	pid_t pid;
	int cmd, ans;
};

static int holder_ask(struct holder *h, char what)
{
	char c = 0;
	return write(h->cmd, &what, 1) == 1 && read(h->ans, &c, 1) == 1 && c == 'y';
}

static int holder_start(struct holder *h, const char *cg, const struct pattern *p)
{
	int cmd[2], ans[2];
	if (pipe(cmd) || pipe(ans))
		return -1;
	h->pid = fork();
	if (h->pid == 0) {
		char procs[160], c;
		close(cmd[1]);
		close(ans[0]);
		snprintf(procs, sizeof(procs), CG "/%s/cgroup.procs", cg);
		int fd = put(procs, "0") == 0 ? open(p->path, O_RDONLY) : -1;
		c = fd >= 0 && read_check((void *)p) ? 'y' : 'n';
		if (write(ans[1], &c, 1) != 1)
			_exit(1);
		while (read(cmd[0], &c, 1) == 1 && (c == 'r' || c == 't')) {
			if (c == 'r') {
				c = read_check((void *)p) ? 'y' : 'n';
			} else { /* 't': touch 8 MiB of fresh anonymous memory */
				char *m = mmap(NULL, 8 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
				for (long i = 0; m != MAP_FAILED && i < 8 * MIB; i += 4096)
					m[i] = 1;
				c = m != MAP_FAILED ? 'y' : 'n';
			}
			if (write(ans[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(cmd[0]);
	close(ans[1]);
	h->cmd = cmd[1];
	h->ans = ans[0];
	char c = 0;
	return h->pid > 0 && read(h->ans, &c, 1) == 1 && c == 'y' ? 0 : -1;
}

static int holder_stop(struct holder *h)
{
	int st;
	/* 'q': another holder forked later keeps a copy of this pipe's end */
	(void)!write(h->cmd, "q", 1);
	close(h->cmd);
	close(h->ans);
	return waitpid(h->pid, &st, 0) == h->pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int make_cg(const char *cg)
{
	char dir[160];
	snprintf(dir, sizeof(dir), CG "/%s", cg);
	return mkdir(dir, 0755);
}

static int remove_cg(const char *cg)
{
	char dir[160];
	snprintf(dir, sizeof(dir), CG "/%s", cg);
	return rmdir(dir);
}

/* Unmount and mount again: a phase starts with none of the files in
 * memory (the ext2 server keeps closed files' pages, as Linux's page
 * cache does, so this is the test's drop_caches). */
static void cold(const char *phase)
{
	char what[96];
	snprintf(what, sizeof(what), "%s: umount and mount again, nothing cached", phase);
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0, what);
}

static void test_max16(void)
{
	check(make_cg("max16") == 0 && put(at("max16", "memory.max"), "16M") == 0, "cgroup max16, memory.max 16M");
	double t = read_in("max16", &big48);
	printf("# 48 MiB read under a 16M memory.max in %.2f s\n", t);
	check(t >= 0, "a 48 MiB ext2 file read whole under a 16M memory.max: every byte right");
	check(number(at("max16", "memory.peak")) <= 16 * MIB && number(at("max16", "memory.current")) <= 16 * MIB,
	      "memory.peak and memory.current stayed within 16M");
	long steal = stat_of("max16", "pgsteal"), scan = stat_of("max16", "pgscan");
	printf("# pgscan %ld pgsteal %ld max events %ld\n", scan, steal, event_of("max16", "max"));
	check(steal >= (32 * MIB) / 4096 && scan >= steal && stat_of("max16", "pgsteal_direct") == steal &&
	      stat_of("max16", "pgscan_direct") == scan && stat_of("max16", "pgsteal_kswapd") == 0,
	      "pgsteal counts the 32M that had to go (and more), pgscan at least that; all direct");
	check(event_of("max16", "oom_kill") == 0 && event_of("max16", "oom") == 0 && event_of("max16", "max") > 0,
	      "no OOM: the limit was met (max events) and reclaim made room");
}

static void test_reclaim_file(void)
{
	struct holder h;
	check(make_cg("r8") == 0 && holder_start(&h, "r8", &c16) == 0,
	      "a process in r8 read a 16 MiB file and holds it open");
	long cur = number(at("r8", "memory.current"));
	check(cur >= 16 * MIB && stat_of("r8", "file") >= 16 * MIB && stat_of("r8", "inactive_file") >= 16 * MIB,
	      "its 16M of file pages are charged to r8, on r8's inactive file list (touched once)");
	long act0 = stat_of("r8", "pgactivate");
	check(holder_ask(&h, 'r') && stat_of("r8", "active_file") >= 16 * MIB &&
	      stat_of("r8", "pgactivate") - act0 >= 4096, "read again: the second touch makes them active (pgactivate)");
	long steal0 = stat_of("r8", "pgsteal");
	check(put(at("r8", "memory.reclaim"), "8M") == 0, "memory.reclaim 8M: 0");
	long cur2 = number(at("r8", "memory.current"));
	printf("# memory.current %ld -> %ld\n", cur, cur2);
	check(cur2 <= cur - 8 * MIB, "memory.current dropped by at least 8M");
	check(stat_of("r8", "pgsteal") - steal0 >= 2048, "pgsteal grew by at least 2048 pages");
	check(stat_of("r8", "pgrefill") >= 2048 && stat_of("r8", "pgdeactivate") == stat_of("r8", "pgrefill"),
	      "all were active: reclaim moved them to the inactive list first (pgrefill, pgdeactivate)");
	/* the pages evicted by that reclaim were evicted less than r8's
	 * active list ago: read again, they come back active */
	long rf = stat_of("r8", "workingset_refault_file"), act = stat_of("r8", "workingset_activate_file");
	check(holder_ask(&h, 'r'), "the file reads back right");
	rf = stat_of("r8", "workingset_refault_file") - rf;
	act = stat_of("r8", "workingset_activate_file") - act;
	printf("# re-read after reclaiming 8M: %ld refaults, %ld activated\n", rf, act);
	check(rf >= 2048 && act > 0 && act <= rf,
	      "its evicted pages refault (workingset_refault_file), those within the workingset activate");
	check(put(at("r8", "memory.reclaim"), "8M") == 0, "memory.reclaim 8M again: 0");
	check_errno(put(at("r8", "memory.reclaim"), "64M"), EAGAIN,
		    "memory.reclaim of 64M with 8M cached: EAGAIN once nothing is left");
	check(stat_of("r8", "file") == 0, "and every file page went");
	long refault0 = stat_of("r8", "workingset_refault_file");
	act = stat_of("r8", "workingset_activate_file");
	check(holder_ask(&h, 'r'), "the file reads back right");
	long refaults = stat_of("r8", "workingset_refault_file") - refault0;
	act = stat_of("r8", "workingset_activate_file") - act;
	printf("# refaults on re-read: %ld, %ld activated\n", refaults, act);
	check(refaults == 4096 && act == 0,
	      "every evicted page read again is a refault; none activates (nothing was active: no workingset)");
	check(holder_stop(&h) == 0 && stat_of("r8", "file") >= 16 * MIB,
	      "closed: its pages stay, charged to r8 (the inode cache, as Linux's page cache)");
	check(put(at("r8", "memory.reclaim"), "16M") == 0 && stat_of("r8", "file") == 0,
	      "memory.reclaim takes a closed file's pages: every one");
	check(holder_start(&h, "r8", &c16) == 0 && holder_stop(&h) == 0 && stat_of("r8", "file") >= 16 * MIB,
	      "read again after: every byte right, charged again");
	/* removed with the pages still charged to it: they join the
	 * parent's lists (Linux reparents them), where reclaim finds them */
	long file0 = flat_field(CG "/memory.stat", "file");
	check(remove_cg("r8") == 0 && flat_field(CG "/memory.stat", "file") == file0, "r8 removed: its pages counted in its parent");
	check(put(CG "/memory.reclaim", "16M") == 0 && flat_field(CG "/memory.stat", "file") <= file0 - 16 * MIB,
	      "the parent's memory.reclaim takes the removed cgroup's pages");
}

static unsigned char dirty_byte(long i)
{
	return (unsigned char)((i * 3 + i / 4093) & 0xff);
}

/* Writes 32 MiB to dirty.bin in 1 MiB write() calls, each much bigger
 * than the room under the cgroup's dirty limit at any moment
 * (timed_in_cgroup's job): 1 if all went. */
static int write_dirty(void *arg)
{
	static unsigned char buf[MIB];
	(void)arg;
	int fd = open(M "/dirty.bin", O_CREAT | O_TRUNC | O_WRONLY, 0644);
	for (long off = 0; fd >= 0 && off < 32 * MIB; off += MIB) {
		for (long i = 0; i < MIB; i++)
			buf[i] = dirty_byte(off + i);
		if (write(fd, buf, MIB) != MIB) {
			printf("# write at %ld: errno %d\n", off, errno);
			close(fd);
			return 0;
		}
	}
	return fd >= 0 && close(fd) == 0;
}

/* A process sampling cgroup cg's file_dirty + file_writeback every 20 ms
 * until told (sampler_stop): the most it saw. */
struct sampler {
	pid_t pid;
	int go[2], back[2];
};

/* Value of key in memory.stat's text. */
static long stat_field_in(const char *text, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text; (p = strstr(p, key)); p++)
		if ((p == text || p[-1] == '\n') && p[k] == ' ')
			return atol(p + k + 1);
	return 0;
}

/* file_dirty + file_writeback from one read of cg's memory.stat: two
 * reads let pages that went from dirty to writeback between them count
 * twice (once seen 7 pages over the limit). */
static long dirty_and_writeback(const char *cg)
{
	static char text[4096];
	if (slurp(at(cg, "memory.stat"), text, sizeof(text)) <= 0)
		return 0;
	return stat_field_in(text, "file_dirty") + stat_field_in(text, "file_writeback");
}

static void sampler_start(struct sampler *sm, const char *cg)
{
	if (pipe(sm->go) || pipe(sm->back)) {
		sm->pid = -1;
		return;
	}
	sm->pid = fork();
	if (sm->pid == 0) {
		long most = 0;
		struct pollfd pfd = { sm->go[0], POLLIN, 0 };
		while (poll(&pfd, 1, 20) == 0) {
			long d = dirty_and_writeback(cg);
			if (d > most)
				most = d;
		}
		(void)!write(sm->back[1], &most, sizeof(most));
		_exit(0);
	}
}

static long sampler_stop(struct sampler *sm)
{
	long most = -1;
	if (sm->pid <= 0)
		return -1;
	(void)!write(sm->go[1], "x", 1);
	if (read(sm->back[0], &most, sizeof(most)) != sizeof(most))
		most = -1;
	waitpid(sm->pid, NULL, 0);
	for (int i = 0; i < 2; i++) {
		close(sm->go[i]);
		close(sm->back[i]);
	}
	return most;
}

/* Dirty pages under memory.max: reclaim asks the server to write them
 * back, then evicts them (run-tests.py checks the file with debugfs and
 * the image with e2fsck); and the cgroup's dirty limit (dirty_ratio 20 %
 * of its 16M: 3.2 MiB) holds its dirty and under-writeback pages, sampled
 * every 20 ms, at every moment, also within a 1 MiB write(). Before dirty
 * throttling they grew to whatever memory.max allowed (reclaim's
 * writeback alone); before writes were cut in chunks near the limit, a
 * write in progress could pass it by up to its own size. */
static void test_dirty(void)
{
	char dir[96];
	struct sampler sm;
	snprintf(dir, sizeof(dir), CG "/w16");
	check(make_cg("w16") == 0 && put(at("w16", "memory.max"), "16M") == 0, "cgroup w16, memory.max 16M");
	sampler_start(&sm, "w16");
	double t = timed_in_cgroup(dir, write_dirty, NULL);
	long most = sampler_stop(&sm);
	printf("# 32 MiB written under a 16M memory.max in %.2f s; pgsteal %ld; dirty+writeback at most %ld KiB\n", t,
	       stat_of("w16", "pgsteal"), most / 1024);
	check(t >= 0, "a process in w16 writes a 32 MiB file: every write whole (dirty pages written back, then evicted)");
	check(event_of("w16", "oom_kill") == 0 && number(at("w16", "memory.peak")) <= 16 * MIB,
	      "no OOM; memory.peak within 16M");
	check(most > 0 && most <= 16 * MIB / 5,
	      "its dirty + writeback pages stayed within its dirty limit (20 % of 16M) at every sample, "
	      "though each write() is 1 MiB");
	check(remove_cg("w16") == 0, "w16 removed");
}

static int vm_put(const char *name, const char *text)
{
	char path[96];
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	return put(path, text);
}

/* Writes mib MiB to file path in 1 MiB write() calls and removes it: 1
 * if all went. */
static int write_mib(const char *path, long mib)
{
	static unsigned char buf[MIB];
	memset(buf, 0x6b, sizeof(buf));
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	long off = 0;
	while (fd >= 0 && off < mib * MIB && write(fd, buf, MIB) == MIB)
		off += MIB;
	return fd >= 0 && close(fd) == 0 && off == mib * MIB && unlink(path) == 0;
}

/* 12 MiB (8 MiB) to the file arg names: timed_in_cgroup's jobs. */
static int write_12(void *arg)
{
	return write_mib((const char *)arg, 12);
}

static int write_8(void *arg)
{
	return write_mib((const char *)arg, 8);
}

/* The "total=" (microseconds) of the "some" line of cgroup cg's pressure
 * file (io.pressure, memory.pressure), or -1. */
static long some_total(const char *cg, const char *file)
{
	char b[256];
	char *t = slurp(at(cg, file), b, sizeof(b)) > 0 && strncmp(b, "some avg10=", 11) == 0 ? strstr(b, "total=") : NULL;
	return t ? atol(t + 6) : -1;
}

/* Writes 4 KiB to the file arg names, fsyncs it and removes it. */
static int write_4k_fsync(void *arg)
{
	static char buf[4096];
	int fd = open((const char *)arg, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	int ok = fd >= 0 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && fsync(fd) == 0;
	return fd >= 0 && close(fd) == 0 && ok && unlink((const char *)arg) == 0;
}

/* Buffered writes of a cgroup whose writeback io.max holds to 2 MiB/s
 * settle at about that rate (past its dirty limit, 10 % of its 16M here,
 * its writers wait for its own writeback), while a cgroup without the
 * limit writes at once (12 MiB fit its memory). Before dirty throttling
 * both wrote into memory at once. */
static void test_dirty_rate(void)
{
	char a[96], b[96];
	snprintf(a, sizeof(a), CG "/wa");
	snprintf(b, sizeof(b), CG "/wb");
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+io") == 0 && put(CG "/cgroup.subtree_control", "+io") == 0 &&
	      make_cg("wa") == 0 && make_cg("wb") == 0 && put(at("wa", "memory.max"), "16M") == 0 &&
	      put(at("wb", "memory.max"), "16M") == 0 && put(at("wa", "io.max"), "253:0 wbps=2097152") == 0 &&
	      vm_put("dirty_ratio", "10") == 0,
	      "cgroups wa (io.max wbps 2 MiB/s) and wb, memory.max 16M each; dirty_ratio 10");
	double tb = timed_in_cgroup(b, write_12, M "/wb.bin");
	long io0 = some_total("wa", "io.pressure"), mem0 = some_total("wa", "memory.pressure");
	struct sampler sm;
	sampler_start(&sm, "wa");
	double ta = timed_in_cgroup(a, write_12, M "/wa.bin");
	long most = sampler_stop(&sm);
	long io = some_total("wa", "io.pressure") - io0, mem = some_total("wa", "memory.pressure") - mem0;
	long thr = event_of("wa", "dirty_throttled");
	printf("# 12 MiB of buffered write(): wa (wbps 2 MiB/s) %.2f s = %.2f MiB/s, wb %.2f s = %.2f MiB/s\n", ta,
	       ta > 0 ? 12 / ta : 0, tb, tb > 0 ? 12 / tb : 0);
	printf("# wa's stalls: io.pressure some +%ld us, memory.pressure some +%ld us, dirty_throttled %ld\n", io, mem,
	       thr);
	check(ta > 0 && 12 / ta < 3.0 && 12 / ta > 0.5, "wa's write() calls settle near 2 MiB/s (0.5..3 MiB/s)");
	check(tb > 0 && tb < ta / 2, "wb's are not held to it (under half wa's time)");
	/* each 1 MiB write() is bigger than the limit's room: before writes
	 * were cut in chunks near the limit, the sampler saw about a write's
	 * worth over it */
	printf("# wa's dirty + writeback at most %ld KiB (its limit %ld KiB)\n", most / 1024, 16 * MIB / 10 / 1024);
	check(most > 0 && most <= 16 * MIB / 10,
	      "wa's dirty + writeback pages stayed within its dirty limit (10 % of 16M) at every sample (20 ms)");
	/* its sleeps are stalls (issue 20, item 5): measured 2.9 s of 5.2;
	 * before, none counted */
	check(io0 >= 0 && mem0 >= 0 && ta > 0 && io > ta * 250000 && mem > ta * 250000,
	      "wa's throttled writer stalls in its io.pressure and memory.pressure (over a quarter of its time)");
	check(thr > 0 && event_of("wa", "dirty_throttled") == flat_field(at("wa", "memory.events.local"), "dirty_throttled"),
	      "its memory.events counts dirty_throttled write() calls");
	/* no priority inversion (issue 20, item 4): wb's 4 KiB write and
	 * fsync while wa's writeback goes at 2 MiB/s wait for nothing of
	 * wa's: the server waits for wa's io.max budget without the mount's
	 * lock (BLK_BUDGET) and starts more pager threads, so wb's first
	 * write's reservation is not queued behind wa's writeback (before:
	 * 0.35 s beside 0.02 s alone; before the pacing 4.5 s) */
	double alone = timed_in_cgroup(b, write_4k_fsync, M "/wb4.bin");
	pid_t bg = fork();
	if (bg == 0)
		_exit(timed_in_cgroup(a, write_12, M "/wa.bin") > 0 ? 0 : 1);
	usleep(1500000); /* wa past its limit, its writeback going */
	double busy = timed_in_cgroup(b, write_4k_fsync, M "/wb4.bin");
	int st = -1;
	waitpid(bg, &st, 0);
	printf("# wb's fsync of 4 KiB: %.3f s alone, %.3f s while wa is throttled\n", alone, busy);
	check(alone > 0 && busy > 0 && st == 0, "wb's 4 KiB write and fsync, alone and beside throttled wa");
	check(busy < 2 * alone + 0.1,
	      "wb's write and fsync are not held behind wa's throttled writeback (under 2x alone + 0.1 s; it was 0.35 s)");
	/* paced at its own writeback's bandwidth (issue 20): with no
	 * memory.max its dirty limit (10 % of the machine's free memory) is
	 * many MiB, but it may hold only about a second of its writeback
	 * dirty (kernel/pcache/dirty.c), so it dirties as its batches are
	 * written rather than in bursts of its block reservations (4 MiB for
	 * this 8 MiB file, after 3.75 MiB in smaller ones: before, the
	 * sampler saw 4 MiB) */
	check(make_cg("wc") == 0 && put(at("wc", "io.max"), "253:0 wbps=2097152") == 0,
	      "cgroup wc: io.max wbps 2 MiB/s, no memory.max");
	sampler_start(&sm, "wc");
	double tc = timed_in_cgroup(CG "/wc", write_8, M "/wc.bin");
	most = sampler_stop(&sm);
	printf("# wc: 8 MiB in %.2f s = %.2f MiB/s, dirty + writeback at most %ld KiB\n", tc, tc > 0 ? 8 / tc : 0,
	       most / 1024);
	check(tc > 0 && 8 / tc < 3.0 && 8 / tc > 1.0, "wc's write() calls settle near 2 MiB/s (1..3 MiB/s)");
	check(most > 0 && most <= 3 * MIB,
	      "wc holds at most about a second of its writeback dirty (3 MiB at every 20 ms sample)");
	check(vm_put("dirty_ratio", "20") == 0 && remove_cg("wa") == 0 && remove_cg("wb") == 0 && remove_cg("wc") == 0 &&
	      put(CG "/cgroup.subtree_control", "-io") == 0,
	      "wa, wb, wc removed, dirty_ratio 20 again");
}

/* Writes WEIGHT_MIB MiB to the file arg names, fsyncs and removes it. */
#define WEIGHT_MIB 24
static int write_weight(void *arg)
{
	static unsigned char buf[CHUNK];
	memset(buf, 0x3c, sizeof(buf));
	int fd = open((const char *)arg, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	long off = 0, w = CHUNK;
	while (fd >= 0 && off < WEIGHT_MIB * MIB && (w = write(fd, buf, CHUNK)) == CHUNK)
		off += CHUNK;
	/* which step failed, for a failure's report */
	const char *bad = fd < 0 ? "open" : off != WEIGHT_MIB * MIB ? "write" : fsync(fd) ? "fsync" :
			  close(fd) ? "close" : unlink((const char *)arg) ? "unlink" : NULL;
	if (bad)
		printf("# %s: %s failed at %ld bytes (write gave %ld): %s\n", (const char *)arg, bad, off, w,
		       strerror(errno));
	return bad == NULL;
}

/* io.weight splits writeback (issue 20): two cgroups of io.weight 100
 * and 400 write WEIGHT_MIB MiB each at once (buffered, then fsync); past
 * their dirty limits (10 % of 16M) their writes go at their writeback's
 * rate, and their writebacks take turns by weight (the server waits for
 * each owner's turn, BLK_BUDGET, with both owners' waits in the block
 * layer's fair queue at once). When the heavier one is done, the lighter
 * one has written about a quarter as much (1:4). Before, the two
 * writebacks took the mount's lock in turn: about 1:1. */
static void test_dirty_weight(void)
{
	char l[96], h[96];
	snprintf(l, sizeof(l), CG "/w100");
	snprintf(h, sizeof(h), CG "/w400");
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+io") == 0 && put(CG "/cgroup.subtree_control", "+io") == 0 &&
	      make_cg("w100") == 0 && make_cg("w400") == 0 && put(at("w100", "memory.max"), "16M") == 0 &&
	      put(at("w400", "memory.max"), "16M") == 0 && put(at("w100", "io.weight"), "100") == 0 &&
	      put(at("w400", "io.weight"), "400") == 0 && vm_put("dirty_ratio", "10") == 0,
	      "cgroups w100 and w400 (io.weight), memory.max 16M each; dirty_ratio 10");
	pid_t light = fork();
	if (light == 0)
		_exit(timed_in_cgroup(l, write_weight, M "/w100.bin") > 0 ? 0 : 1);
	double th = timed_in_cgroup(h, write_weight, M "/w400.bin");
	unsigned long long bl = io_stat_field(l, "wbytes="), bh = io_stat_field(h, "wbytes=");
	int st = -1;
	waitpid(light, &st, 0);
	double ratio = bh ? (double)bl / (double)bh : 0;
	printf("# io.weight 100 vs 400, %d MiB each: when w400 was done (%.2f s) w100 had written %llu KiB, w400 "
	       "%llu KiB: %.2f (1:4 is 0.25)\n", WEIGHT_MIB, th, bl >> 10, bh >> 10, ratio);
	check(th > 0 && st == 0, "both wrote and fsynced their files");
	if (th <= 0 || st != 0) { /* why: a kill shows in memory.events */
		char ev[512];
		if (slurp(at("w400", "memory.events"), ev, sizeof(ev)) > 0)
			printf("# w400 memory.events: %s", ev);
		if (slurp(at("w100", "memory.events"), ev, sizeof(ev)) > 0)
			printf("# w100 memory.events: %s (its status %#x)\n", ev, st);
	}
	/* Measured 0.32 to 0.54 over 18 runs (most near 0.4: the split
	 * comes out nearer 1:2.5 than 1:4, not looked into yet); about 1:1
	 * before the fair queue: the bound tells those apart with room for
	 * the host's noise (0.5 failed a CI run at 0.54). */
	check(bh >= (unsigned long long)WEIGHT_MIB * MIB && ratio > 0.1 && ratio < 0.65,
	      "the writeback split by io.weight: w100 had written 0.1..0.65 of w400's bytes (1:4 is 0.25, 1:1 before)");
	check(vm_put("dirty_ratio", "20") == 0 && remove_cg("w100") == 0 && remove_cg("w400") == 0 &&
	      put(CG "/cgroup.subtree_control", "-io") == 0,
	      "w100, w400 removed, dirty_ratio 20 again");
}

/* A page fault whose charge memory.max refuses reclaims the cgroup's
 * file pages before any OOM kill (memcg_fault_oom). */
static void test_fault(void)
{
	struct holder h;
	check(make_cg("f16") == 0 && put(at("f16", "memory.max"), "16M") == 0 && holder_start(&h, "f16", &c16) == 0,
	      "cgroup f16 (memory.max 16M): a process reads a 16 MiB file and holds it");
	long file0 = stat_of("f16", "file");
	check(holder_ask(&h, 't'), "it then touches 8 MiB of anonymous memory: every fault served");
	printf("# f16: file %ld -> %ld, anon %ld, oom_kill %ld\n", file0, stat_of("f16", "file"), stat_of("f16", "anon"),
	       event_of("f16", "oom_kill"));
	check(event_of("f16", "oom_kill") == 0 && stat_of("f16", "anon") >= 8 * MIB &&
	      stat_of("f16", "file") <= file0 - 7 * MIB,
	      "its file pages made room: no OOM kill, anon 8M, file down by as much");
	check(holder_stop(&h) == 0, "the process leaves");
	for (int i = 0; i < 5000 && stat_of("f16", "file") != 0; i++)
		usleep(1000);
	check(remove_cg("f16") == 0, "f16 removed");
}

/* The whole machine short of frames: a cgroup without a limit streams
 * 256 MiB through a 320 MiB machine the initrd mostly fills; allocations reclaim from the root. */
static void test_global(void)
{
	check(make_cg("g") == 0, "cgroup g, no limit");
	long kills = flat_field("/sys/fs/cgroup/memory.events", "oom_kill");
	double t = read_in("g", &stream);
	printf("# g streamed 256 MiB, more than the machine has free, in %.2f s, pgsteal %ld\n", t, stat_of("g", "pgsteal"));
	check(t >= 0 && stat_of("g", "pgsteal") > 0 && flat_field("/sys/fs/cgroup/memory.events", "oom_kill") == kills,
	      "a 256 MiB read, more than the machine has free: global reclaim made room (pgsteal), nobody killed");
	for (int i = 0; i < 5000 && stat_of("g", "file") != 0; i++)
		usleep(1000);
	check(remove_cg("g") == 0, "g removed");
}

/* memory.high: a reader over it reclaims on its way back to user mode
 * (never killed); writing a lower high reclaims at once. */
static void test_high(void)
{
	struct holder h;
	check(make_cg("h8") == 0 && put(at("h8", "memory.high"), "8M") == 0, "cgroup h8, memory.high 8M");
	check(holder_start(&h, "h8", &c16) == 0, "a process in h8 reads a 16 MiB file (every byte right) and holds it");
	long cur = number(at("h8", "memory.current"));
	printf("# h8: memory.current %ld, pgsteal %ld, high events %ld\n", cur, stat_of("h8", "pgsteal"),
	       event_of("h8", "high"));
	check(cur <= 8 * MIB + MIB && stat_of("h8", "pgsteal") >= 1792 && event_of("h8", "high") > 0 &&
	      event_of("h8", "oom_kill") == 0,
	      "memory.high: reclaimed back to about 8M on the way to user mode, high events, no kill");
	check(put(at("h8", "memory.high"), "max") == 0 && holder_ask(&h, 'r') &&
	      number(at("h8", "memory.current")) >= 16 * MIB, "high max: the file read again stays whole");
	check(put(at("h8", "memory.high"), "4M") == 0 && number(at("h8", "memory.current")) <= 4 * MIB,
	      "writing memory.high 4M reclaims to it before the write returns");
	check(holder_stop(&h) == 0, "the reader leaves");
	for (int i = 0; i < 5000 && stat_of("h8", "file") != 0; i++)
		usleep(1000);
	check(remove_cg("h8") == 0, "h8 removed");
}

static struct holder ha, hb;

/* memory.low: A (low 24M) and B (none) each hold a 24 MiB working set in
 * parent P (memory.max 56M); C streams 256 MiB through P. */
static void test_low(void)
{
	check(make_cg("p") == 0 && put(CG "/p/cgroup.subtree_control", "+memory") == 0 &&
	      put(at("p", "memory.max"), "56M") == 0 && make_cg("p/a") == 0 && make_cg("p/b") == 0 &&
	      make_cg("p/c") == 0 && put(at("p/a", "memory.low"), "24M") == 0,
	      "P (memory.max 56M) with A (memory.low 24M), B and C");
	check(holder_start(&ha, "p/a", &ws_a) == 0 && holder_start(&hb, "p/b", &ws_b) == 0,
	      "processes in A and B read their 24 MiB and hold them open");
	long a0 = stat_of("p/a", "file"), b0 = stat_of("p/b", "file");
	printf("# A %ld (memory.current %ld) B %ld bytes of file before the stream\n", a0,
	       number(at("p/a", "memory.current")), b0);
	double t = read_in("p/c", &stream);
	printf("# C streamed 256 MiB in %.2f s\n", t);
	check(t >= 0, "C streams 256 MiB through P's limit");
	long a1 = stat_of("p/a", "file"), b1 = stat_of("p/b", "file");
	printf("# A %ld B %ld bytes of file after; P pgsteal %ld\n", a1, b1, stat_of("p", "pgsteal"));
	check(a1 * 100 >= a0 * 95, "A, within its memory.low, kept >= 95% of its pages");
	check(b1 < b0 / 2, "B, unprotected, lost most of its");
	long ra = stat_of("p/a", "workingset_refault_file"), rb = stat_of("p/b", "workingset_refault_file");
	check(holder_ask(&ha, 'r') && holder_ask(&hb, 'r'), "A and B read their working sets again, right");
	ra = stat_of("p/a", "workingset_refault_file") - ra;
	rb = stat_of("p/b", "workingset_refault_file") - rb;
	printf("# refaults on re-read: A %ld B %ld\n", ra, rb);
	check(ra * 20 <= 6144 && rb >= 6144 / 2, "A refaulted < 5% of its pages, B more than half");
	check(event_of("p/a", "low") == 0, "no low event while others had pages to give");
	/* only A's pages are left to take: the low pass reclaims them and
	 * counts "low" events (cgroup-v2.rst "memory.low") */
	long want = number(at("p", "memory.current")) - number(at("p/a", "memory.current")) + 4 * MIB;
	char text[32];
	snprintf(text, sizeof(text), "%ld", want);
	long a2 = stat_of("p/a", "file");
	check(put(at("p", "memory.reclaim"), text) == 0, "memory.reclaim of P's unprotected pages and 4M more: 0");
	check(event_of("p/a", "low") > 0 && flat_field(at("p/a", "memory.events.local"), "low") > 0 &&
	      event_of("p", "low") >= event_of("p/a", "low") && event_of("p/b", "low") == 0,
	      "A counted low events (memory.events, .local, and P's), B none");
	check(stat_of("p/a", "file") < a2, "and A gave pages");
}

/* memory.min: never reclaimed, even when nothing else is left. */
static void test_min(void)
{
	check(put(at("p/a", "memory.low"), "0") == 0 && put(at("p/a", "memory.min"), "24M") == 0 &&
	      holder_ask(&ha, 'r'), "A: memory.min 24M instead, its working set read again");
	long a0 = stat_of("p/a", "file"), low0 = event_of("p/a", "low");
	check_errno(put(at("p", "memory.reclaim"), "48M"), EAGAIN,
		    "memory.reclaim of 48M from P when only A's protected pages could give it: EAGAIN");
	long a1 = number(at("p/a", "memory.current"));
	printf("# A: %ld bytes of file before, %ld after; memory.current %ld\n", a0, stat_of("p/a", "file"), a1);
	check(a1 >= 24 * MIB - 32 * 4096 && stat_of("p/a", "file") * 100 >= a0 * 95 && event_of("p/a", "low") == low0,
	      "A gave at most its usage over memory.min (and a batch): no low pass, no low event");
	check(put(at("p/a", "memory.reclaim"), "8M") == 0 && stat_of("p/a", "file") <= a0 - 8 * MIB,
	      "memory.reclaim on A itself: its own protection does not count (Linux)");
	check(put(at("p/a", "memory.min"), "0") == 0 && put(at("p", "memory.reclaim"), "1M") == 0,
	      "memory.min 0: P reclaims from A again");
	check(holder_stop(&ha) == 0 && holder_stop(&hb) == 0, "A's and B's processes close and leave");
}

static void test_cleanup(void)
{
	check(remove_cg("p/a") == 0 && remove_cg("p/b") == 0 && remove_cg("p/c") == 0 && remove_cg("p") == 0 &&
	      remove_cg("max16") == 0, "the cgroups go");
}

int main(int argc, char **argv)
{
	mkdir(M, 0755);
	check(mount("/dev/vda", M, "ext2", 0, "") == 0, "mount -t ext2 /dev/vda " M);
	check(mkdir(CG, 0755) == 0 && mkdir(CG "/leaf", 0755) == 0 && put(CG "/leaf/cgroup.procs", "0") == 0 &&
	      put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(CG "/cgroup.subtree_control", "+memory") == 0, "+memory, this process in a leaf");
	if (argc > 1 && strcmp(argv[1], "dirty_rate") == 0) { /* that part alone, while working on it */
		test_dirty_rate();
		test_dirty_weight();
		check(umount(M) == 0, "umount");
		put("/sys/fs/cgroup/cgroup.procs", "0");
		rmdir(CG "/leaf");
		rmdir(CG);
		printf("1..%d\n", n);
		return failed ? 1 : 0;
	}
	test_max16();
	cold("memory.reclaim");
	test_reclaim_file();
	test_dirty();
	cold("the dirty rate");
	test_dirty_rate();
	cold("the io.weight split");
	test_dirty_weight();
	cold("a fault under memory.max");
	test_fault();
	cold("global reclaim");
	test_global();
	cold("memory.high");
	test_high();
	cold("memory.low");
	test_low();
	test_min();
	test_cleanup();
	check(umount(M) == 0, "umount");
	put("/sys/fs/cgroup/cgroup.procs", "0");
	rmdir(CG "/leaf");
	rmdir(CG);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
