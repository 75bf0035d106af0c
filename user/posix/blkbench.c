/* Sequential throughput of /dev/vda through the block layer: writes then
 * reads of a region in 1 MiB and in 4 KiB requests, the best of three
 * passes each. Prints "bench NAME VALUE MiB/s" (real time: make bench
 * shows it from its plain TCG boot). Then what io.max delivers in a
 * cgroup limited to 10 MiB/s (wbps, rbps, 1 MiB requests) and to 1000
 * IOPS (wiops, riops, 4 KiB requests), over about 3 s each after a
 * warm-up that empties the bucket's burst. Needs a disk (make bench
 * attaches a scratch image). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

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
	close(fd);
	return 0;
}
