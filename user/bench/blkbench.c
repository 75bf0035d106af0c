/* Sequential throughput of /dev/vda through the block layer: writes then
 * reads of a region in 1 MiB and in 4 KiB requests, the best of three
 * passes each. Prints "bench NAME VALUE MiB/s" (real time: make bench
 * shows it from its plain TCG boot). Then what io.max delivers in a
 * cgroup limited to 10 MiB/s (wbps, rbps, 1 MiB requests) and to 1000
 * IOPS (wiops, riops, 4 KiB requests), over about 3 s each after a
 * warm-up that empties the bucket's burst. Needs a disk (make bench
 * attaches a scratch image). */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define PASSES 3

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One sequential pass over [0, region): its time in ns, or 0 on error.
 * writing: 0 reads; 1 writes (the data handed to the device, which is
 * what Linux's O_DIRECT figures measure); 2 writes, then fsync (the data
 * on the host's disk too). */
#define WRITE_NOSYNC 1
#define WRITE_FSYNC 2
static uint64_t pass(int fd, char *buf, size_t req, uint64_t region, int writing)
{
	uint64_t t0 = now();
	for (uint64_t at = 0; at < region; at += req) {
		ssize_t r = writing ? pwrite(fd, buf, req, (off_t)at) : pread(fd, buf, req, (off_t)at);
		if (r != (ssize_t)req)
			return 0;
	}
	if (writing == WRITE_FSYNC && fsync(fd))
		return 0;
	return now() - t0;
}

static void run(int fd, char *buf, const char *name, size_t req, uint64_t region, int writing)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < PASSES; i++) {
		uint64_t t = pass(fd, buf, req, region, writing);
		if (!t) {
			printf("blkbench: %s failed\n", name);
			return;
		}
		best = t < best ? t : best;
	}
	uint64_t x100 = region * 100 * 1000000000u / best / (1u << 20);
	printf("bench %s %llu.%02llu MiB/s\n", name, (unsigned long long)(x100 / 100),
	       (unsigned long long)(x100 % 100));
}

#define CG "/sys/fs/cgroup/blkbench"
#define LIMIT_MIB 10
#define LIMIT_IOPS 1000

/* count requests of req bytes under the io.max line limit: MiB/s
 * (bytes) or requests per second, x100. */
static uint64_t limited(int fd, char *buf, const char *limit, size_t req, uint64_t count, int writing,
			int iops)
{
	if (put(CG "/io.max", limit))
		return 0;
	if (!pass(fd, buf, req, req * count / 10, writing))	/* warm-up: the burst goes */
		return 0;
	uint64_t t = pass(fd, buf, req, req * count, writing);
	put(CG "/io.max", "253:0 rbps=max wbps=max riops=max wiops=max");
	if (!t)
		return 0;
	return iops ? count * 100 * 1000000000u / t : req * count * 100 * 1000000000u / t / (1u << 20);
}

static void report(const char *name, uint64_t x100, const char *unit)
{
	if (!x100)
		printf("blkbench: %s failed\n", name);
	else
		printf("bench %s %llu.%02llu %s\n", name, (unsigned long long)(x100 / 100),
		       (unsigned long long)(x100 % 100), unit);
}

static void run_limited(int fd, char *buf)
{
	char line[96];
	if (put("/sys/fs/cgroup/cgroup.subtree_control", "+io") || (mkdir(CG, 0755) && errno != EEXIST) ||
	    put(CG "/cgroup.procs", "0")) {
		printf("blkbench: cannot make " CG "\n");
		return;
	}
	uint64_t n = 3 * LIMIT_MIB;	/* 1 MiB requests: about 3 s */
	snprintf(line, sizeof(line), "253:0 wbps=%u", LIMIT_MIB << 20);
	report("blk_iomax_wbps_10m", limited(fd, buf, line, 1u << 20, n, WRITE_FSYNC, 0), "MiB/s");
	snprintf(line, sizeof(line), "253:0 rbps=%u", LIMIT_MIB << 20);
	report("blk_iomax_rbps_10m", limited(fd, buf, line, 1u << 20, n, 0, 0), "MiB/s");
	snprintf(line, sizeof(line), "253:0 wiops=%u", LIMIT_IOPS);
	report("blk_iomax_wiops_1000", limited(fd, buf, line, 4096, 3 * LIMIT_IOPS, WRITE_FSYNC, 1), "IOPS");
	snprintf(line, sizeof(line), "253:0 riops=%u", LIMIT_IOPS);
	report("blk_iomax_riops_1000", limited(fd, buf, line, 4096, 3 * LIMIT_IOPS, 0, 1), "IOPS");
	put("/sys/fs/cgroup/cgroup.procs", "0");
	rmdir(CG);
	put("/sys/fs/cgroup/cgroup.subtree_control", "-io");
}

/* io.weight: cgroups under the root with weights 100 and 400 (or 100
 * and 1000 for the latency figure). */
#define W_LO "/sys/fs/cgroup/blkw_lo"
#define W_HI "/sys/fs/cgroup/blkw_hi"
#define W_READERS 3		/* per cgroup: enough requests to keep the disk busy */
#define W_SPAN (8ull << 20)	/* each reader's region */
#define W_RUN_MS 4000
#define W_WARM_MS 500		/* not counted in the ratio: all readers started */
#define W_SAMPLE_MS 100

/* A child in cgroup cg reading [base, base + W_SPAN) over and over in
 * req-byte calls until deadline_ns (or, with lat, 4 KiB reads at
 * scattered offsets 2 ms apart, printing nothing but returning their
 * latencies through the pipe fd). */
static pid_t w_reader(const char *cg, uint64_t base, size_t req, uint64_t deadline)
{
	pid_t pid = fork();
	if (pid)
		return pid;
	char path[96];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	int fd = open("/dev/vda", O_RDONLY);
	char *b = malloc(req);
	if (fd < 0 || !b || put(path, "0"))
		_exit(1);
	for (uint64_t at = 0; now() < deadline; at = (at + req) % W_SPAN)
		if (pread(fd, b, req, (off_t)(base + at)) != (ssize_t)req)
			_exit(1);
	_exit(0);
}

static int w_setup(const char *lo, const char *hi)
{
	char line[32];
	if (put("/sys/fs/cgroup/cgroup.subtree_control", "+io") || (mkdir(W_LO, 0755) && errno != EEXIST) ||
	    (mkdir(W_HI, 0755) && errno != EEXIST))
		return -1;
	snprintf(line, sizeof(line), "253:0 %s", lo);
	if (put(W_LO "/io.weight", line))
		return -1;
	snprintf(line, sizeof(line), "253:0 %s", hi);
	return put(W_HI "/io.weight", line);
}

static void w_teardown(void)
{
	while (wait(NULL) > 0)
		;
	rmdir(W_LO);
	rmdir(W_HI);
}

/* Samples both cgroups' rbytes every W_SAMPLE_MS as "trace io" lines
 * until the deadline; the bytes each read in [t0 + W_WARM_MS, end -
 * W_WARM_MS) into got[]. */
static void w_trace(const char *name, uint64_t t0, uint64_t end, uint64_t got[2])
{
	const char *cg[2] = { W_LO, W_HI }, *label[2] = { "w100", "w400" };
	uint64_t first[2] = { 0, 0 }, last[2] = { 0, 0 };
	bool started = false;
	printf("trace begin %s\n", name);
	for (uint64_t t = now(); t < end; t = now()) {
		uint64_t ms = (t - t0) / 1000000;
		for (int i = 0; i < 2; i++) {
			uint64_t b = io_rbytes(cg[i]);
			printf("trace io %llu %s %llu\n", (unsigned long long)ms, label[i], (unsigned long long)b);
			if (ms >= W_WARM_MS && !started)
				first[i] = b;
			if (ms < W_RUN_MS - W_WARM_MS)
				last[i] = b;
		}
		started |= ms >= W_WARM_MS;
		struct timespec ts = { 0, W_SAMPLE_MS * 1000000 };
		nanosleep(&ts, NULL);
	}
	printf("trace end %s\n", name);
	for (int i = 0; i < 2; i++)
		got[i] = last[i] - first[i];
}

/* Weights 100 and 400, W_READERS sequential 1 MiB readers each, for
 * W_RUN_MS: the heavier's share of the bytes over the lighter's. */
static void run_weight_ratio(void)
{
	uint64_t got[2];
	if (w_setup("100", "400")) {
		printf("blkbench: cannot set io.weight\n");
		return;
	}
	uint64_t t0 = now(), end = t0 + W_RUN_MS * 1000000ull;
	for (int i = 0; i < 2 * W_READERS; i++)
		w_reader(i % 2 ? W_HI : W_LO, (uint64_t)i * W_SPAN, 1u << 20, end);
	w_trace("blk_weight_100_400", t0, end, got);
	w_teardown();
	if (!got[0] || !got[1]) {
		printf("blkbench: blk_weight_100_400_ratio failed\n");
		return;
	}
	report("blk_weight_100_400_ratio", got[1] * 100 / got[0], "x");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

#define LAT_READS 200

/* 4 KiB reads (scattered, 2 ms apart) from a weight-1000 cgroup while
 * W_READERS readers of a weight-100 one stream: p50 and p99 in ns. */
static void run_small_latency(int fd)
{
	static uint64_t lat[LAT_READS];
	char block[4096];
	if (w_setup("100", "1000") || put(W_HI "/cgroup.procs", "0")) {
		printf("blkbench: cannot set io.weight\n");
		return;
	}
	uint64_t end = now() + 60000000000ull;
	pid_t streamers[W_READERS];
	for (int i = 0; i < W_READERS; i++)
		streamers[i] = w_reader(W_LO, (uint64_t)i * W_SPAN, 1u << 20, end);
	struct timespec warm = { 0, 300000000 }, gap = { 0, 2000000 };
	nanosleep(&warm, NULL);
	int n = 0;
	for (; n < LAT_READS; n++) {
		uint64_t at = 6ull * W_SPAN + (uint64_t)n * 37 * 4096 % W_SPAN, t = now();
		if (pread(fd, block, sizeof(block), (off_t)at) != (ssize_t)sizeof(block))
			break;
		lat[n] = now() - t;
		nanosleep(&gap, NULL);
	}
	put("/sys/fs/cgroup/cgroup.procs", "0");
	for (int i = 0; i < W_READERS; i++)
		kill(streamers[i], SIGKILL);
	w_teardown();
	if (n < LAT_READS) {
		printf("blkbench: blk_small_read_latency failed\n");
		return;
	}
	qsort(lat, LAT_READS, sizeof(lat[0]), cmp_u64);
	printf("bench blk_small_read_latency_p50 %llu ns\n", (unsigned long long)lat[LAT_READS / 2]);
	printf("bench blk_small_read_latency_p99 %llu ns\n", (unsigned long long)lat[LAT_READS * 99 / 100]);
}

int main(void)
{
	int fd = open("/dev/vda", O_RDWR);
	char *buf = malloc(1u << 20);
	if (fd < 0 || !buf) {
		printf("blkbench: no /dev/vda\n");
		return 1;
	}
	memset(buf, 0x5a, 1u << 20);
	off_t size = lseek(fd, 0, SEEK_END);
	uint64_t big = size < (32 << 20) ? (uint64_t)size : 32u << 20;
	uint64_t small = big < (8u << 20) ? big : 8u << 20;
	run(fd, buf, "blk_seq_write_1m", 1u << 20, big & ~((1ull << 20) - 1), WRITE_NOSYNC);
	run(fd, buf, "blk_seq_write_1m_fsync", 1u << 20, big & ~((1ull << 20) - 1), WRITE_FSYNC);
	run(fd, buf, "blk_seq_read_1m", 1u << 20, big & ~((1ull << 20) - 1), 0);
	run(fd, buf, "blk_seq_write_4k", 4096, small, WRITE_NOSYNC);
	run(fd, buf, "blk_seq_read_4k", 4096, small, 0);
	run_limited(fd, buf);
	run_weight_ratio();
	run_small_latency(fd);
	close(fd);
	return 0;
}
