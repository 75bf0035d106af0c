/* The io controller on /dev/vda (253:0): io.stat counting exactly what
 * the block layer did for a cgroup's processes (per device request of up
 * to 128 KiB, partial sectors read first), io.max's format, errors and
 * enforcement (a writer held to its limit and to its parent's, while other
 * cgroups' requests keep flowing), io.weight's format and errors, its
 * proportional sharing (100 vs 400) and that an idle heavy cgroup leaves
 * its share, and
 * that only drivers may make the io controller's calls. The disk's last
 * 4 MiB are saved first and written back at the end (the runner's second
 * boot checks the pattern posix_block_vda left there). */
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include "arbor/syscalls.h"
#include "check.h"

#define DISK "/dev/vda"
#define ROOT "/sys/fs/cgroup"
#define CG ROOT "/io_test"
#define AREA (4u << 20)
#define MIB (1u << 20)

static char *saved, *buf;
static uint64_t area;	/* disk offset of the area the test writes */



struct io_job {
	int wr, count;
	uint64_t off;
	size_t len;
};

static int io_job_run(void *arg)
{
	const struct io_job *j = arg;
	int fd = open(DISK, O_RDWR), ok = fd >= 0;
	for (int i = 0; ok && i < j->count; i++) {
		uint64_t at = area + j->off + (uint64_t)i * j->len;
		ok = (j->wr ? pwrite(fd, buf, j->len, (off_t)at) : pread(fd, buf, j->len, (off_t)at)) == (ssize_t)j->len;
	}
	return ok;
}

/* count requests of len bytes at area + off, in cgroup cg (a child
 * process); returns the seconds they took, or -1. */
static double io_in(const char *cg, int wr, uint64_t off, size_t len, int count)
{
	struct io_job j = { wr, count, off, len };
	return timed_in_cgroup(cg, io_job_run, &j);
}

static int stat_is(const char *cg, unsigned long rb, unsigned long wb, unsigned long ri, unsigned long wi)
{
	char path[128], want[160];
	snprintf(path, sizeof(path), "%s/io.stat", cg);
	snprintf(want, sizeof(want), "253:0 rbytes=%lu wbytes=%lu rios=%lu wios=%lu dbytes=0 dios=0\n", rb, wb, ri, wi);
	return text_is(path, want);
}

static void test_files(void)
{
	char text[256];
	check(text_is(ROOT "/cgroup.controllers", "cpuset cpu io memory pids misc\n"), "io is listed between cpu and memory");
	check(slurp(ROOT "/io.stat", text, sizeof(text)) >= 0, "the root has io.stat");
	check(fails(open(ROOT "/io.max", O_RDONLY), ENOENT) && fails(open(ROOT "/io.weight", O_RDONLY), ENOENT),
	      "the root has no io.max, no io.weight");
	check(fails(open(CG "/io.stat", O_RDONLY), ENOENT), "no io files before the parent enables io");
	check(put(ROOT "/cgroup.subtree_control", "+io") == 0 && slurp(CG "/io.stat", text, sizeof(text)) == 0,
	      "+io at the root: an idle cgroup's io.stat is empty");
	check(text_is(CG "/io.max", "") && text_is(CG "/io.weight", "default 100\n"), "io.max empty, io.weight default 100");
}

static void test_max_format(void)
{
	const char *f = CG "/a/io.max";
	check(put(f, "253:0 wbps=1048576") == 0 && text_is(f, "253:0 rbps=max wbps=1048576 riops=max wiops=max\n"),
	      "io.max: one key set, the others max");
	check(put(f, "253:0 riops=100") == 0 && text_is(f, "253:0 rbps=max wbps=1048576 riops=100 wiops=max\n"),
	      "io.max: a partial write keeps the other keys");
	check(put(f, "253:0 wbps=max riops=max") == 0 && text_is(f, ""), "io.max: all max again: no line");
	/* Linux reads the values with sscanf "%llu": decimal digits only */
	check_errno(put(f, "253:0 wbps=0x10"), ERANGE, "io.max wbps=0x10 is 0 to Linux: ERANGE");
	check_errno(put(f, "253:0 foo=0"), ERANGE, "io.max: the value is checked before the key (ERANGE)");
	check(put(f, "253:0 rbps=010 wbps=7k") == 0 && text_is(f, "253:0 rbps=10 wbps=7 riops=max wiops=max\n"),
	      "io.max: decimal (010 is 10), what follows the digits ignored");
	check(put(f, "253:0 rbps=18446744073709551615 wbps=max riops=4294967295 wiops=99999999999") == 0 &&
	      text_is(f, ""), "io.max: 2^64-1 bytes/s and 2^32-1 iops or more are max");
	check(put(f, "  253:0  wiops=4 rbps=1 wbps=16 riops=3\n") == 0 &&
	      text_is(f, "253:0 rbps=1 wbps=16 riops=3 wiops=4\n"), "io.max: any order, spaces");
	check_errno(put(f, "253:0 wbps=0"), ERANGE, "io.max wbps=0: ERANGE");
	check_errno(put(f, "7:0 wbps=5"), ENODEV, "io.max of an unknown device: ENODEV");
	check_errno(put(f, "253:0 foo=5"), EINVAL, "io.max unknown key: EINVAL");
	check_errno(put(f, "253:0 wbps=abc"), EINVAL, "io.max junk value: EINVAL");
	check_errno(put(f, "253:0 wbps=-1"), EINVAL, "io.max negative: EINVAL");
	check_errno(put(f, "253:0 wbps"), EINVAL, "io.max key without value: EINVAL");
	check_errno(put(f, "253 wbps=5"), EINVAL, "io.max malformed device: EINVAL");
	check_errno(put(f, "253:0 rbps=7 wbps=0"), ERANGE, "io.max: a bad key anywhere changes nothing");
	check(text_is(f, "253:0 rbps=1 wbps=16 riops=3 wiops=4\n"), "io.max unchanged by the failed writes");
	check(put(f, "253:0 rbps=max wbps=max riops=max wiops=max") == 0 && text_is(f, ""), "io.max reset");
}

static void test_weight(void)
{
	const char *f = CG "/a/io.weight";
	check(put(f, "50") == 0 && text_is(f, "default 50\n"), "io.weight N sets the default");
	check(put(f, "default 200") == 0 && text_is(f, "default 200\n"), "io.weight 'default N'");
	check(put(f, "253:0 300") == 0 && text_is(f, "default 200\n253:0 300\n"), "io.weight per device");
	check(put(f, "253:0 default") == 0 && text_is(f, "default 200\n"), "io.weight 'MAJ:MIN default' drops it");
	check_errno(put(f, "0"), EINVAL, "io.weight 0: EINVAL");
	check_errno(put(f, "10001"), EINVAL, "io.weight 10001: EINVAL");
	check_errno(put(f, "default abc"), EINVAL, "io.weight junk: EINVAL");
	check_errno(put(f, "default 0x10"), EINVAL, "io.weight 0x10 is 0 to Linux: EINVAL");
	check(put(f, "253:0 077 88") == 0 && text_is(f, "default 200\n253:0 77\n") && put(f, "253:0 default") == 0,
	      "io.weight: decimal, what follows the number ignored (Linux's sscanf)");
	check_errno(put(f, "253:0 0"), EINVAL, "io.weight device 0: EINVAL");
	check_errno(put(f, "7:0 10"), ENODEV, "io.weight unknown device: ENODEV");
	check(put(f, "default 100") == 0 && text_is(f, "default 100\n"), "io.weight back to 100");
}

static void test_stat(void)
{
	const char *a = CG "/a";
	check(io_in(a, 1, 0, 65536, 1) >= 0 && stat_is(a, 0, 65536, 0, 1), "a 64 KiB pwrite: wbytes=65536 wios=1");
	check(io_in(a, 0, 0, 65536, 1) >= 0 && stat_is(a, 65536, 65536, 1, 1), "a 64 KiB pread: rbytes=65536 rios=1");
	check(io_in(a, 1, MIB, MIB, 1) >= 0 && stat_is(a, 65536, 65536 + MIB, 1, 9),
	      "a 1 MiB pwrite: 8 requests of 128 KiB");
	check(io_in(a, 1, 10, 100, 1) >= 0 && stat_is(a, 66048, 66048 + MIB, 2, 10),
	      "100 bytes inside a sector: one 512-byte read, one 512-byte write");
	check(stat_is(CG, 66048, 66048 + MIB, 2, 10), "the parent counts its subtree");
	check(text_is(CG "/b/io.stat", ""), "a sibling without I/O has no line");
}

static void test_throttle(void)
{
	double t;
	check(put(CG "/a/io.max", "253:0 wbps=1048576") == 0, "io.max wbps=1 MiB/s on a");
	t = io_in(CG "/a", 1, 0, 128 << 10, 16);
	printf("# 2 MiB at wbps=1 MiB/s: %.2f s\n", t);
	/* paid before, from an empty bucket: 16 requests of 128 KiB at
	 * 1 MiB/s go at 0.125 s, 0.25 s, ... 2 s (before: a new limit started
	 * with 100 ms saved and let a request run into debt, about 1.8 s) */
	check(t >= 1.98 && t < 15, "a writer cannot exceed its wbps from the first second (2 MiB: at least 2 s)");
	check(stat_is(CG "/a", 66048, 66048 + 3 * MIB, 2, 26), "io.stat counts throttled writes exactly");
	check(put(CG "/p/io.max", "253:0 wbps=1048576") == 0, "io.max wbps=1 MiB/s on p");
	t = io_in(CG "/p/c", 1, 0, 128 << 10, 16);
	printf("# 2 MiB in p/c under p's wbps=1 MiB/s: %.2f s\n", t);
	check(t >= 1.5 && t < 15, "a child is bound by its parent's io.max");
	check(stat_is(CG "/p/c", 0, 2 * MIB, 0, 16) && stat_is(CG "/p", 0, 2 * MIB, 0, 16), "and counted in both");
	check(io_in(CG "/b", 0, 0, 4096, 1) >= 0 && stat_is(CG "/b", 4096, 0, 1, 0), "reads in b: rios=1");
}

/* A throttled writer in a does not hold up b. */
static void test_work_conserving(void)
{
	check(put(CG "/a/io.max", "253:0 wbps=262144") == 0, "io.max wbps=256 KiB/s on a");
	pid_t slow = fork();
	if (slow == 0)
		_exit(io_in(CG "/a", 1, 0, 128 << 10, 4) >= 0 ? 0 : 1);
	usleep(200000);	/* the slow writer is in its wait */
	double t = io_in(CG "/b", 1, MIB, MIB, 3);
	int st;
	pid_t still = waitpid(slow, &st, WNOHANG);
	printf("# 3 MiB in b while a is throttled: %.3f s\n", t);
	check(t >= 0 && t < 1.0 && still == 0, "b's 3 MiB pass a's throttled writes (under 1 s)");
	check(waitpid(slow, &st, 0) == slow && st == 0, "a's writer finishes");
}

/* A child in cg writing len bytes at area + off in one call. */
static pid_t writer_in(const char *cg, uint64_t off, size_t len)
{
	pid_t pid = fork();
	if (pid)
		return pid;
	char path[128];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	int fd = open(DISK, O_WRONLY);
	_exit(fd >= 0 && put(path, "0") == 0 && pwrite(fd, buf, len, (off_t)(area + off)) == (ssize_t)len ? 0 : 1);
}

/* How many of the children pids[0..n) still run; the others are reaped
 * (their slot becomes 0) and *ok cleared if one failed. */
static int running(pid_t *pids, int n, int *ok)
{
	int left = 0, st;
	for (int i = 0; i < n; i++) {
		if (!pids[i])
			continue;
		pid_t r = waitpid(pids[i], &st, WNOHANG);
		if (r == 0) {
			left++;
			continue;
		}
		*ok &= r == pids[i] && st == 0;
		pids[i] = 0;
	}
	return left;
}

/* Reaps them all: the seconds until the last ended. */
static double reap_all(pid_t *pids, int n, int *ok)
{
	double t0 = now_s();
	int st;
	for (int i = 0; i < n; i++) {
		if (!pids[i])
			continue;
		*ok &= waitpid(pids[i], &st, 0) == pids[i] && st == 0;
		pids[i] = 0;
	}
	return now_s() - t0;
}

/* More writers held by io.max than the disk's server has workers to
 * begin with (six): each waits in its call for 16 s, yet b's I/O passes
 * them (the server starts more workers). Then their limit is raised, and
 * later removed, and the held writers go at once (a waiting request asks
 * the kernel again within 20 ms, not at the old limit's time). */
#define HELD 12
static void test_held_writers(void)
{
	pid_t w[HELD];
	int ok = 1;
	check(mkdir(CG "/s", 0755) == 0 && put(CG "/s/io.max", "253:0 wbps=4096") == 0, "io.max wbps=4 KiB/s on s");
	for (int i = 0; i < HELD; i++)
		w[i] = writer_in(CG "/s", 2 * MIB + (uint64_t)i * 65536, 65536);
	usleep(500000);	/* one write passes on the burst, the others wait */
	int held = running(w, HELD, &ok);
	double tw = io_in(CG "/b", 1, 0, MIB, 2), tr = io_in(CG "/b", 0, 0, MIB, 2);
	int still = running(w, HELD, &ok);
	printf("# %d writers held at wbps=4 KiB/s; meanwhile b wrote 2 MiB in %.3f s, read it in %.3f s\n", still,
	       tw, tr);
	check(held >= HELD - 1 && still >= HELD - 1, "s's writers wait (64 KiB each at 4 KiB/s: 16 s apiece)");
	check(tw >= 0 && tr >= 0 && tw + tr < 5.0, "b's I/O passes twelve held writers (under 5 s)");
	check(put(CG "/s/io.max", "253:0 wbps=67108864") == 0, "s's wbps raised to 64 MiB/s");
	double t = reap_all(w, HELD, &ok);
	printf("# the held writers finished %.3f s after the raise\n", t);
	check(ok && t < 1.0, "held writes go at once when the limit is raised (under 1 s)");
	check(stat_is(CG "/s", 0, HELD * 65536, 0, HELD), "io.stat of s: every write counted once");

	check(put(CG "/s/io.max", "253:0 wbps=4096") == 0, "s back at wbps=4 KiB/s");
	for (int i = 0; i < HELD / 2; i++)
		w[i] = writer_in(CG "/s", 2 * MIB + (uint64_t)i * 65536, 65536);
	usleep(300000);
	held = running(w, HELD / 2, &ok);
	check(put(CG "/s/io.max", "253:0 wbps=max") == 0 && text_is(CG "/s/io.max", ""), "s's wbps=max: no limit");
	t = reap_all(w, HELD / 2, &ok);
	printf("# %d held writers finished %.3f s after the limit was removed\n", held, t);
	check(ok && held >= HELD / 2 - 1 && t < 1.0, "held writes go at once when the limit is removed (under 1 s)");
	check(rmdir(CG "/s") == 0, "remove s");
}

/* A child in cg reading the area in 512 KiB calls until deadline (s). */
static pid_t reader_until(const char *cg, double deadline)
{
	pid_t pid = fork();
	if (pid)
		return pid;
	char path[128];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	int fd = open(DISK, O_RDONLY);
	char *b = malloc(512 << 10);
	if (fd < 0 || !b || put(path, "0"))
		_exit(1);
	for (uint64_t at = 0; now_s() < deadline; at = (at + (512 << 10)) % AREA)
		if (pread(fd, b, 512 << 10, (off_t)(area + at)) != 512 << 10)
			_exit(1);
	_exit(0);
}

/* io.weight 100 and 400, three readers each at once for 2 s: both move,
 * the heavier reads clearly more (the benchmark measures the split). */
static void test_weight_share(void)
{
	check(mkdir(CG "/w1", 0755) == 0 && mkdir(CG "/w4", 0755) == 0 && put(CG "/w1/io.weight", "100") == 0 &&
	      put(CG "/w4/io.weight", "253:0 400") == 0, "w1 at io.weight 100, w4 at 253:0 400");
	double end = now_s() + 2.0;
	for (int i = 0; i < 6; i++)
		reader_until(i % 2 ? CG "/w4" : CG "/w1", end);
	int st, ok = 1;
	for (int i = 0; i < 6; i++)
		ok &= wait(&st) > 0 && st == 0;
	uint64_t lo = io_rbytes(CG "/w1"), hi = io_rbytes(CG "/w4");
	printf("# weights 100/400, 2 s: %llu and %llu bytes (%.2fx)\n", (unsigned long long)lo,
	       (unsigned long long)hi, lo ? (double)hi / (double)lo : 0.0);
	check(ok && lo > 0 && hi > 0, "both cgroups' readers progress");
	check(lo && (double)hi / (double)lo > 1.5, "weight 400 reads more than 1.5x weight 100");
}

/* An idle heavy sibling leaves its share: w1 (100) reads alone about as
 * fast as with no weights involved (w4 at 400 exists, does nothing). */
static void test_weight_idle(void)
{
	double t0 = io_in(CG "/b", 0, 0, MIB, 4);	/* b: weight 100, siblings idle */
	check(put(CG "/w4/io.weight", "253:0 10000") == 0, "w4 at 10000, idle");
	double t1 = io_in(CG "/w1", 0, 0, MIB, 4);
	printf("# 4 MiB read: %.3f s, then %.3f s beside an idle weight 10000\n", t0, t1);
	check(t0 >= 0 && t1 >= 0 && t1 < 3 * t0 + 0.5, "an idle heavy cgroup does not slow the light one");
	check(rmdir(CG "/w1") == 0 && rmdir(CG "/w4") == 0, "remove w1, w4");
}

static void check_weights_call(void)
{
	struct blkio_node path[BLKIO_DEPTH_MAX];
	check(sys_blkio_weights(1, 253, 0, path, BLKIO_DEPTH_MAX) == -EPERM, "blkio_weights from a client: EPERM");
}

static void test_syscalls(void)
{
	check_weights_call();
	check(sys_blkio_done(1, 253, 0, 1, 512) == -EPERM, "blkio_done from a client: EPERM");
	check(sys_blkio_throttle(1, 253, 0, 1, 512) == -EPERM, "blkio_throttle from a client: EPERM");
	check(sys_blkio_register(7, 0) == -EPERM, "blkio_register from a client: EPERM");
}

int main(void)
{
	saved = malloc(AREA);
	buf = malloc(MIB);
	int fd = open(DISK, O_RDWR);
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	check(end > AREA && pread(fd, saved, AREA, end - AREA) == AREA, "save the disk's last 4 MiB");
	area = (uint64_t)end - AREA;
	memset(buf, 0x3c, MIB);
	check(mkdir(CG, 0755) == 0 && mkdir(CG "/a", 0755) == 0 && mkdir(CG "/b", 0755) == 0 &&
	      mkdir(CG "/p", 0755) == 0, "make io_test/{a,b,p}");
	test_files();
	check(put(CG "/cgroup.subtree_control", "+io") == 0 && put(CG "/p/cgroup.subtree_control", "+io") == 0 &&
	      mkdir(CG "/p/c", 0755) == 0, "+io in io_test and p; p/c");
	test_max_format();
	test_weight();
	test_stat();
	test_throttle();
	test_work_conserving();
	test_held_writers();
	test_weight_share();
	test_weight_idle();
	test_syscalls();
	check(put(CG "/p/cgroup.subtree_control", "-io") == 0 && text_is(CG "/p/io.max", "253:0 rbps=max wbps=1048576 riops=max wiops=max\n"),
	      "disabling io below p keeps p's own io.max");
	check(put(CG "/cgroup.subtree_control", "-io") == 0 && put(CG "/cgroup.subtree_control", "+io") == 0 &&
	      text_is(CG "/p/io.max", "") && text_is(CG "/a/io.weight", "default 100\n"),
	      "off and on again in the parent: the limits are gone");
	check(rmdir(CG "/p/c") == 0 && rmdir(CG "/p") == 0 && rmdir(CG "/a") == 0 && rmdir(CG "/b") == 0 &&
	      put(CG "/cgroup.subtree_control", "-io") == 0 && rmdir(CG) == 0 &&
	      put(ROOT "/cgroup.subtree_control", "-io") == 0, "clean up");
	check(pwrite(fd, saved, AREA, end - AREA) == AREA, "the disk's last 4 MiB written back");
	close(fd);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
