/* Writeback charged to the dirtier (issue 20, "make bench"): a portable
 * program, built for Arbor (/posix/wbbench) and for Linux (tools/bench.py
 * builds it with linux-cc and runs it with linux-run in the same QEMU), on
 * an empty ext2 image the host made, with cgroup v2 at /sys/fs/cgroup. It
 * mounts the disk itself and prints `bench wb_NAME VALUE UNIT` lines and,
 * every 100 ms, `trace wb MS CGROUP DIRTY WRITEBACK WBYTES` samples
 * (memory.stat file_dirty, file_writeback, io.stat wbytes) between
 * `trace begin NAME` and `trace end NAME` for tools/arbor-plot:
 *
 *   throttle  A (io.max wbps 2 MiB/s) and B (no limit) each write SIZE MiB
 *             (64) with buffered write() into their own file, then fsync:
 *             A's rate (wb_a_rate), B's time beside A and alone
 *             (wb_b_ratio), each one's io.stat wbytes and the root's (the
 *             metadata, and whatever the file system's server was charged)
 *   weight    io.weight 100 and 400, memory.max 32M each, WSIZE MiB (128)
 *             each at once, then fsync: the 100 one's share of the two
 *             writeback rates while both were writing and the disk was
 *             contended, from when each had written its first dirty
 *             limit's worth (wb_weight_ratio, 1:4 is 0.25), and over the
 *             whole time (wb_weight_ratio_all)
 *   max32     memory.max 32M writing BIG MiB (256): OOM kills, the most
 *             memory.current and dirty + writeback seen (every 100 ms),
 *             beside the cgroup's dirty limit (dirty_ratio % of 32M)
 *   fsync4k   B's 4 KiB write + fsync alone, and while A (wbps 2 MiB/s,
 *             memory.max 200M, writing 64 MiB) holds about 30 MiB dirty
 *             (wb_fsync4k_ratio)
 *   readback  every file's bytes read back after umount and mount
 *
 *   wbbench DEV MNT [-s SIZE] [-w WSIZE] [-b BIG] (MiB) [-e EXP,...] (-e: only
 *   these experiments, e.g. -e throttle; all by default) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024L * 1024)
#define CGR "/sys/fs/cgroup"
#define CG CGR "/wbbench"

static const char *dev, *mnt;
static char devno[32];	/* "MAJ:MIN" of dev */
static long size_mib = 64, wsize_mib = 128, big_mib = 256;
static const char *exps = "throttle,weight,max32,fsync4k"; /* -e: which experiments run */
static int failures;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = fd >= 0 ? write(fd, text, strlen(text)) : -1;
	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static long slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, cap - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* The number after "key" (a line's start, or "key=" inside one) in file
 * path of cgroup cg ("" for the root), or 0. */
static long long field(const char *cg, const char *file, const char *key)
{
	char path[160], buf[4096];
	snprintf(path, sizeof(path), "%s%s%s/%s", CG, *cg ? "/" : "", cg, file);
	if (!*cg)
		snprintf(path, sizeof(path), CGR "/%s", file);
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return 0;
	size_t k = strlen(key);
	for (char *p = buf; (p = strstr(p, key)); p++)
		if (p == buf || p[-1] == '\n' || p[-1] == ' ')
			return atoll(p + k + (p[k] == ' '));
	return 0;
}

static long long wbytes(const char *cg)
{
	return field(cg, "io.stat", "wbytes=");
}

static int cg_make(const char *name, const char *memmax, const char *iomax, const char *weight)
{
	char path[160], text[96];
	snprintf(path, sizeof(path), CG "/%s", name);
	rmdir(path);
	if (mkdir(path, 0755))
		return -1;
	snprintf(path, sizeof(path), CG "/%s/memory.max", name);
	if (memmax && put(path, memmax))
		return -1;
	snprintf(path, sizeof(path), CG "/%s/io.max", name);
	snprintf(text, sizeof(text), "%s %s", devno, iomax ? iomax : "");
	if (iomax && put(path, text))
		return -1;
	snprintf(path, sizeof(path), CG "/%s/io.weight", name);
	snprintf(text, sizeof(text), "%s", weight ? weight : "");
	if (weight && put(path, text))
		return -1;
	return 0;
}

static void cg_remove(const char *name)
{
	char path[160];
	snprintf(path, sizeof(path), CG "/%s", name);
	rmdir(path);
}

static unsigned char pattern(long off, int tag)
{
	return (unsigned char)((off * 7 + off / 4093 + tag * 31) & 0xff);
}

/* The monotonic time a writer's last write() returned, sent by the
 * writer on this pipe (throttle's B) when it is open: the write phase and
 * the fsync apart. */
static int wrote_fd = -1;

/* Writes mib MiB of file name (pattern tag) in 1 MiB write() calls, then
 * fsync; 0 or -1. */
static int write_file(const char *name, long mib, int tag)
{
	static unsigned char buf[MIB];
	char path[160];
	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	for (long m = 0; fd >= 0 && m < mib; m++) {
		for (long i = 0; i < MIB; i++)
			buf[i] = pattern(m * MIB + i, tag);
		ssize_t n = write(fd, buf, MIB);
		if (n != MIB) {
			printf("wbbench: %s: the write at %ld MiB: %s\n", name, m, n < 0 ? strerror(errno) : "short");
			close(fd);
			return -1;
		}
	}
	if (fd < 0)
		printf("wbbench: %s: open: %s\n", name, strerror(errno));
	if (wrote_fd >= 0) {
		double t = now_s();
		(void)!write(wrote_fd, &t, sizeof(t));
	}
	int ok = fd >= 0 && fsync(fd) == 0;
	if (fd >= 0 && !ok)
		printf("wbbench: %s: fsync: %s\n", name, strerror(errno));
	return fd >= 0 && close(fd) == 0 && ok ? 0 : -1;
}

/* Whether file name holds its mib MiB of pattern tag. */
static int check_file(const char *name, long mib, int tag)
{
	static unsigned char buf[MIB];
	char path[160];
	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	int fd = open(path, O_RDONLY), ok = fd >= 0;
	for (long m = 0; ok && m < mib; m++) {
		ok = read(fd, buf, MIB) == MIB;
		for (long i = 0; ok && i < MIB; i++)
			ok = buf[i] == pattern(m * MIB + i, tag);
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

/* A job in cgroup cg (a child): write_file(name, mib, tag); its pid. */
static pid_t spawn_writer(const char *cg, const char *name, long mib, int tag)
{
	pid_t p = fork();
	if (p == 0) {
		char path[160];
		snprintf(path, sizeof(path), CG "/%s/cgroup.procs", cg);
		_exit(put(path, "0") == 0 && write_file(name, mib, tag) == 0 ? 0 : 1);
	}
	return p;
}

/* Waits for p; the seconds since t0, or -1 if it failed. */
static double reap(pid_t p, double t0)
{
	int st;
	if (p <= 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return now_s() - t0;
}

/* The sampler: every 100 ms a trace line per cgroup of cgs (a child
 * process); the most memory.current and dirty + writeback of cgs[0] come
 * back when it is stopped. */
struct sampler {
	pid_t pid;
	int stop[2], back[2];
};

static void sampler_start(struct sampler *s, const char *name, const char *const *cgs, int n)
{
	printf("trace begin %s\n", name);
	fflush(stdout);
	s->pid = -1;
	if (pipe(s->stop) || pipe(s->back))
		return;
	double t0 = now_s();
	s->pid = fork();
	if (s->pid == 0) {
		long long most[2] = { 0, 0 };
		struct pollfd pfd = { s->stop[0], POLLIN, 0 };
		do {
			long ms = (long)((now_s() - t0) * 1000);
			for (int i = 0; i < n; i++) {
				long long d = field(cgs[i], "memory.stat", "file_dirty");
				long long w = field(cgs[i], "memory.stat", "file_writeback");
				printf("trace wb %ld %s %lld %lld %lld\n", ms, cgs[i], d, w, wbytes(cgs[i]));
				if (i == 0) {
					long long cur = field(cgs[0], "memory.current", "");
					most[0] = cur > most[0] ? cur : most[0];
					most[1] = d + w > most[1] ? d + w : most[1];
				}
			}
			fflush(stdout);
		} while (poll(&pfd, 1, 100) == 0);
		(void)!write(s->back[1], most, sizeof(most));
		_exit(0);
	}
}

static void sampler_stop(struct sampler *s, const char *name, long long most[2])
{
	most[0] = most[1] = -1;
	if (s->pid > 0) {
		(void)!write(s->stop[1], "x", 1);
		if (read(s->back[0], most, 2 * sizeof(most[0])) != 2 * (long)sizeof(most[0]))
			most[0] = most[1] = -1;
		waitpid(s->pid, NULL, 0);
	}
	for (int i = 0; i < 2; i++) {
		close(s->stop[i]);
		close(s->back[i]);
	}
	printf("trace end %s\n", name);
	fflush(stdout);
}

static void bench(const char *name, double value, const char *unit)
{
	printf("bench %s %.3f %s\n", name, value, unit);
	fflush(stdout);
}

static void fail(const char *what)
{
	printf("wbbench: %s failed\n", what);
	fflush(stdout);
	failures++;
}

/* The machine's busy CPU time (s: /proc/uptime's uptime less idle, one
 * vCPU on both sides), or -1. */
static double busy_s(void)
{
	char buf[96];
	double up = 0, idle = 0;
	if (slurp("/proc/uptime", buf, sizeof(buf)) <= 0 || sscanf(buf, "%lf %lf", &up, &idle) != 2)
		return -1;
	return up - idle;
}

/* Where the CPU went while B ran: A's and B's cpu.stat usage and the
 * machine's busy time, at one moment. */
struct cpu_snap {
	double t, busy;
	long long a_us, b_us;
	double fs, blk; /* Arbor's ext2 and virtio_blk servers' CPU (s) */
};

/* The CPU time (s) of the processes named fs and blk (/proc/PID/stat's
 * utime + stime): Arbor's file system and disk servers. */
static void server_cpu(double *fs, double *blk)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long hz = sysconf(_SC_CLK_TCK);
	*fs = *blk = 0;
	while (d && (e = readdir(d))) {
		char path[300], buf[512], name[64];
		unsigned long long ut, st;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (slurp(path, buf, sizeof(buf)) <= 0 ||
		    sscanf(buf, "%*d (%63[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", name, &ut, &st) != 3)
			continue;
		double v = (double)(ut + st) / (double)(hz > 0 ? hz : 100);
		if (!strcmp(name, "ext2"))
			*fs += v;
		else if (!strcmp(name, "virtio_blk"))
			*blk += v;
	}
	if (d)
		closedir(d);
}

static void cpu_snap(struct cpu_snap *c)
{
	server_cpu(&c->fs, &c->blk);
	c->t = now_s();
	c->busy = busy_s();
	c->a_us = field("a", "cpu.stat", "usage_usec");
	c->b_us = field("b", "cpu.stat", "usage_usec");
}

/* B writes name (tag, SIZE MiB, then fsync) while A's writer runs or
 * not: B's time, or -1; its write phase (until its last write()
 * returned) and the CPU time B, A and everything else (the servers, the
 * sampler) used meanwhile, and the machine's idle time, each printed as
 * wb_b_WHICH_NAME (WHICH: alone_N, beside_N). */
static double throttle_b(const char *which, const char *name, int tag)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	struct cpu_snap c0, c1;
	cpu_snap(&c0);
	wrote_fd = fds[1];
	pid_t pb = spawn_writer("b", name, size_mib, tag);
	wrote_fd = -1;
	close(fds[1]);
	double wrote = 0;
	if (read(fds[0], &wrote, sizeof(wrote)) != sizeof(wrote))
		wrote = 0;
	close(fds[0]);
	double tb = reap(pb, c0.t);
	cpu_snap(&c1);
	if (tb <= 0)
		return -1;
	char n[64];
	static const char *const part[] = { "", "_write", "_cpu_b", "_cpu_a", "_cpu_rest", "_idle", "_cpu_fs", "_cpu_blk" };
	double busy = c1.busy - c0.busy, cb = (double)(c1.b_us - c0.b_us) / 1e6, ca = (double)(c1.a_us - c0.a_us) / 1e6;
	double v[] = { tb, wrote > 0 ? wrote - c0.t : 0, cb, ca, c0.busy >= 0 ? busy - cb - ca : 0,
		       c0.busy >= 0 ? tb - busy : 0, c1.fs - c0.fs, c1.blk - c0.blk };
	for (int i = 0; i < 8; i++) {
		snprintf(n, sizeof(n), "wb_b_%s%s", which, part[i]);
		bench(n, v[i], "s");
	}
	return tb;
}

/* B's runs alone and beside A: THROTTLE_RUNS each, taking turns as far
 * as A allows (alone, then beside while A writes, then alone again once
 * A is done). Each figure is the best of its runs: the host is shared,
 * and its load moves a single run's time by up to 2x within seconds
 * (docs/writeback.md), far more than the 10 % this measures. */
#define THROTTLE_RUNS 3

static void exp_throttle(void)
{
	static const char *const cgs[] = { "a", "b" };
	if (cg_make("a", NULL, "wbps=2097152", NULL) || cg_make("b", NULL, NULL, NULL))
		return fail("throttle: cgroups");
	/* the sampler runs throughout, alone runs too: its reads and
	 * lines cost the same on both sides of the ratio */
	struct sampler s;
	sampler_start(&s, "wb_throttle", cgs, 2);
	char which[16], name[16];
	int n_alone = 0, n_beside = 0;
	double alone = 1e9, beside = 1e9, t;
	/* B's first file on the fresh mount: its first run, alone */
	if ((t = throttle_b("alone_1", "b0.bin", 2)) > 0) {
		alone = t;
		n_alone++;
	}
	long long a0 = wbytes("a"), b0 = wbytes("b"), r0 = wbytes("");
	double t0 = now_s();
	pid_t pa = spawn_writer("a", "a.bin", size_mib, 1);
	for (int i = 1; i <= THROTTLE_RUNS; i++) {
		snprintf(which, sizeof(which), "beside_%d", i);
		snprintf(name, sizeof(name), i == 1 ? "b.bin" : "b%d.bin", THROTTLE_RUNS + i - 2);
		t = throttle_b(which, name, 3);
		if (waitpid(pa, NULL, WNOHANG) != 0) {
			printf("wbbench: A was done before B's %s run was: not counted\n", which);
			pa = -1;
			break;
		}
		if (t > 0) {
			beside = t < beside ? t : beside;
			n_beside++;
		}
	}
	double ta = pa > 0 ? reap(pa, t0) : -1;
	long long wa = wbytes("a") - a0, wb = wbytes("b") - b0, wr = wbytes("") - r0;
	for (int i = 2; i <= THROTTLE_RUNS; i++) {
		snprintf(which, sizeof(which), "alone_%d", i);
		snprintf(name, sizeof(name), "b%d.bin", i - 1);
		if ((t = throttle_b(which, name, 2)) > 0) {
			alone = t < alone ? t : alone;
			n_alone++;
		}
	}
	long long most[2];
	sampler_stop(&s, "wb_throttle", most);
	for (int i = 1; i <= 2 * THROTTLE_RUNS - 2; i++) { /* b0.bin and b.bin stay, read back at the end */
		char path[160];
		snprintf(path, sizeof(path), "%s/b%d.bin", mnt, i);
		if (unlink(path))
			printf("wbbench: unlink %s: %s\n", path, strerror(errno));
	}
	if (n_alone < THROTTLE_RUNS || n_beside < THROTTLE_RUNS || ta <= 0)
		return fail("throttle: the writers");
	bench("wb_a_rate", (double)size_mib / ta, "MiB/s");
	bench("wb_b_alone", alone, "s");
	bench("wb_b_beside", beside, "s");
	bench("wb_b_ratio", beside / alone, "x");
	bench("wb_a_wbytes", (double)wa / MIB, "MiB");
	bench("wb_b_wbytes", (double)wb / MIB / THROTTLE_RUNS, "MiB");
	bench("wb_root_wbytes", (double)(wr - wa - wb) / MIB, "MiB");
	cg_remove("a");
	cg_remove("b");
}

/* The dirty limit of a cgroup of memory.max 32M: dirty_ratio % of it. */
static long long limit32(void)
{
	char ratio[16];
	long r = slurp("/proc/sys/vm/dirty_ratio", ratio, sizeof(ratio)) > 0 ? atol(ratio) : 20;
	return 32 * MIB * r / 100;
}

static void exp_weight(void)
{
	static const char *const cgs[] = { "w100", "w400" };
	if (cg_make("w100", "32M", NULL, "100") || cg_make("w400", "32M", NULL, "400"))
		return fail("weight: cgroups");
	struct sampler s;
	sampler_start(&s, "wb_weight", cgs, 2);
	long long l0 = wbytes("w100"), h0 = wbytes("w400"), lim = limit32();
	double t0 = now_s();
	pid_t pl = spawn_writer("w100", "w100.bin", wsize_mib, 4), ph = spawn_writer("w400", "w400.bin", wsize_mib, 5);
	/* the disk is contended once each writer has had its first dirty
	 * limit's worth written: until then each one's writes went into
	 * memory at the speed of its own CPU (both equal) and its writeback
	 * followed, whatever the weights; the split is measured from then */
	long long lc = l0, hc = h0;
	double tc = t0;
	int st = 0;
	pid_t gone = 0;
	while ((lc - l0 < lim || hc - h0 < lim) && (gone = waitpid(ph, &st, WNOHANG)) == 0) {
		usleep(5000);
		lc = wbytes("w100");
		hc = wbytes("w400");
		tc = now_s();
	}
	double th = -1;
	if (!gone)
		th = reap(ph, t0);
	else if (gone == ph && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		th = now_s() - t0; /* w400 was done before the disk was contended */
	long long l1 = wbytes("w100"), h1 = wbytes("w400");
	double tl = reap(pl, t0);
	long long most[2];
	sampler_stop(&s, "wb_weight", most);
	if (th <= 0 || tl <= 0)
		return fail("weight: the writers");
	/* while both wrote and the disk was contended: from then until the
	 * heavier one was done (and, for comparison, over the whole time) */
	double tw = th - (tc - t0);
	bench("wb_weight_100_rate", tw > 0 ? (double)(l1 - lc) / MIB / tw : 0, "MiB/s");
	bench("wb_weight_400_rate", tw > 0 ? (double)(h1 - hc) / MIB / tw : 0, "MiB/s");
	bench("wb_weight_ratio", h1 > hc ? (double)(l1 - lc) / (double)(h1 - hc) : 0, "x");
	bench("wb_weight_ratio_all", h1 > h0 ? (double)(l1 - l0) / (double)(h1 - h0) : 0, "x");
	cg_remove("w100");
	cg_remove("w400");
}

static void exp_max32(void)
{
	static const char *const cgs[] = { "m32" };
	if (cg_make("m32", "32M", NULL, NULL))
		return fail("max32: cgroup");
	struct sampler s;
	sampler_start(&s, "wb_max32", cgs, 1);
	double t = reap(spawn_writer("m32", "big.bin", big_mib, 6), now_s());
	long long most[2];
	sampler_stop(&s, "wb_max32", most);
	if (t <= 0)
		return fail("max32: the writer");
	bench("wb_max32_time", t, "s");
	bench("wb_max32_oom_kills", (double)field("m32", "memory.events", "oom_kill"), "kills");
	bench("wb_max32_peak", (double)most[0] / MIB, "MiB");
	bench("wb_max32_dirty_most", (double)most[1] / MIB, "MiB");
	bench("wb_max32_dirty_limit", (double)limit32() / MIB, "MiB");
	cg_remove("m32");
}

/* A 4 KiB pwrite + fsync into f4k.bin by a process in cg: seconds, or -1. */
static double fsync4k(const char *cg)
{
	int fds[2];
	double t = -1;
	if (pipe(fds))
		return -1;
	pid_t p = fork();
	if (p == 0) {
		char procs[160], file[160], buf[4096];
		snprintf(procs, sizeof(procs), CG "/%s/cgroup.procs", cg);
		snprintf(file, sizeof(file), "%s/f4k.bin", mnt);
		memset(buf, 0x77, sizeof(buf));
		int ok = put(procs, "0") == 0;
		int fd = open(file, O_CREAT | O_WRONLY, 0644);
		double t0 = now_s();
		ok = ok && fd >= 0 && pwrite(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf) && fsync(fd) == 0;
		double d = ok ? now_s() - t0 : -1;
		(void)!write(fds[1], &d, sizeof(d));
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	if (p > 0 && read(fds[0], &t, sizeof(t)) != sizeof(t))
		t = -1;
	close(fds[0]);
	waitpid(p, NULL, 0);
	return t;
}

/* A's file in fsync4k: on Arbor a writer's block reservations come in
 * chunks doubling to 32 MiB, and each is granted once the file's dirty
 * pages are written (docs/writeback.md), so 30 MiB dirty at once takes a
 * file past 4 + 8 + 16 MiB. */
#define A30_MIB 64

static void exp_fsync4k(void)
{
	if (cg_make("a", "200M", "wbps=2097152", NULL) || cg_make("b", NULL, NULL, NULL))
		return fail("fsync4k: cgroups");
	double alone = 1e9;
	for (int i = 0; i < 5; i++) { /* the best of five: the host's load */
		double t = fsync4k("b");
		alone = t > 0 && t < alone ? t : alone;
	}
	double t0 = now_s();
	pid_t pa = spawn_writer("a", "a30.bin", A30_MIB, 7);
	while (field("a", "memory.stat", "file_dirty") + field("a", "memory.stat", "file_writeback") < 30 * MIB &&
	       now_s() - t0 < 60)
		usleep(20000);
	bench("wb_fsync4k_a_dirty", (double)(field("a", "memory.stat", "file_dirty") +
					    field("a", "memory.stat", "file_writeback")) / MIB, "MiB");
	double beside = 1e9;
	for (int i = 0; i < 5; i++) {
		double t = fsync4k("b");
		beside = t > 0 && t < beside ? t : beside;
	}
	double ta = reap(pa, t0);
	if (ta < 0 || alone >= 1e9 || beside >= 1e9)
		return fail("fsync4k: the writers");
	bench("wb_fsync4k_a_rate", A30_MIB / ta, "MiB/s");
	bench("wb_fsync4k_alone", alone * 1000, "ms");
	bench("wb_fsync4k_beside", beside * 1000, "ms");
	bench("wb_fsync4k_ratio", beside / alone, "x");
	cg_remove("a");
	cg_remove("b");
}

/* Whether experiment name is in -e's comma-separated list. */
static int exp_on(const char *name)
{
	size_t k = strlen(name);
	for (const char *p = exps; (p = strstr(p, name)); p += k)
		if ((p == exps || p[-1] == ',') && (p[k] == ',' || !p[k]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int c;
	while ((c = getopt(argc, argv, "s:w:b:e:")) != -1) {
		if (c == 'e') {
			exps = optarg;
			continue;
		}
		long v = atol(optarg);
		if (v <= 0)
			return 2;
		if (c == 's')
			size_mib = v;
		else if (c == 'w')
			wsize_mib = v;
		else if (c == 'b')
			big_mib = v;
		else
			return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: wbbench DEV MNT [-s SIZE] [-w WSIZE] [-b BIG] [-e EXP,...]\n");
		return 2;
	}
	dev = argv[optind];
	mnt = argv[optind + 1];
	struct stat st;
	if (stat(dev, &st))
		return 1;
	unsigned long long rd = (unsigned long long)st.st_rdev;
	snprintf(devno, sizeof(devno), "%llu:%llu", (rd >> 8) & 0xfff, (rd & 0xff) | ((rd >> 12) & 0xfff00));
	char parent[160];
	snprintf(parent, sizeof(parent), "%s", mnt);
	char *slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		mkdir(parent, 0755); /* /mnt may not exist (Linux's small guest) */
	}
	mkdir(mnt, 0755);
	if (mount(dev, mnt, "ext2", 0, "")) {
		printf("wbbench: mount %s: errno %d\n", dev, errno);
		return 1;
	}
	put(CGR "/cgroup.subtree_control", "+memory +io");
	rmdir(CG);
	if (mkdir(CG, 0755) || put(CG "/cgroup.subtree_control", "+memory +io")) {
		printf("wbbench: cgroups: errno %d\n", errno);
		return 1;
	}
	char qos[64];
	snprintf(qos, sizeof(qos), "%s enable=1", devno);
	put(CGR "/io.cost.qos", qos); /* Linux: io.weight needs iocost (or bfq) */
	if (exp_on("throttle"))
		exp_throttle();
	if (exp_on("weight"))
		exp_weight();
	if (exp_on("max32"))
		exp_max32();
	if (exp_on("fsync4k"))
		exp_fsync4k();
	int ok = umount(mnt) == 0 && mount(dev, mnt, "ext2", 0, "") == 0;
	if (!ok)
		printf("wbbench: umount and mount again: errno %d\n", errno);
	static const struct { const char *name, *exp; int tag; } files[] = {
		{ "b0.bin", "throttle", 2 }, { "a.bin", "throttle", 1 }, { "b.bin", "throttle", 3 },
		{ "w100.bin", "weight", 4 }, { "w400.bin", "weight", 5 }, { "big.bin", "max32", 6 },
		{ "a30.bin", "fsync4k", 7 },
	};
	for (size_t i = 0; ok && i < sizeof(files) / sizeof(files[0]); i++) {
		if (!exp_on(files[i].exp))
			continue;
		long mib = files[i].tag <= 3 ? size_mib : files[i].tag <= 5 ? wsize_mib : files[i].tag == 6 ? big_mib : A30_MIB;
		if (!(ok = check_file(files[i].name, mib, files[i].tag)))
			printf("wbbench: %s did not read back right\n", files[i].name);
	}
	bench("wb_readback", ok, "ok");
	if (!ok)
		failures++;
	umount(mnt);
	rmdir(CG);
	return failures ? 1 : 0;
}
