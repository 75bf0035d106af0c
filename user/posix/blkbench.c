/* Sequential throughput of /dev/vda through the block layer: writes then
 * reads of a region in 1 MiB and in 4 KiB requests, the best of three
 * passes each. Prints "bench NAME VALUE MiB/s" (real time: make bench
 * shows it from its plain TCG boot). Needs a disk (make bench attaches a
 * scratch image). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PASSES 3

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One sequential pass over [0, region): its time in ns, or 0 on error. */
static uint64_t pass(int fd, char *buf, size_t req, uint64_t region, int writing)
{
	uint64_t t0 = now();
	for (uint64_t at = 0; at < region; at += req) {
		ssize_t r = writing ? pwrite(fd, buf, req, (off_t)at) : pread(fd, buf, req, (off_t)at);
		if (r != (ssize_t)req)
			return 0;
	}
	if (writing && fsync(fd))
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
	run(fd, buf, "blk_seq_write_1m", 1u << 20, big & ~((1ull << 20) - 1), 1);
	run(fd, buf, "blk_seq_read_1m", 1u << 20, big & ~((1ull << 20) - 1), 0);
	run(fd, buf, "blk_seq_write_4k", 4096, small, 1);
	run(fd, buf, "blk_seq_read_4k", 4096, small, 0);
	close(fd);
	return 0;
}
