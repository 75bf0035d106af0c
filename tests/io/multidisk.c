/* Two disks, /dev/vda and /dev/vdb, each served by its own driver
 * process (often on a shared interrupt line): the nodes (253:0 and
 * 253:16, distinct inodes), /proc/partitions, that writing one never
 * changes the other (one at a time and both at once), and the io
 * controller per device: io.stat's separate exact lines, io.max on 253:16
 * alone (enforced there, not on vda), io.weight per device, ENODEV for
 * 253:32 when there is no third disk. What it writes on vda (1 MiB at
 * 1 MiB, where posix_block_vda's pattern lies) is saved first and written
 * back. Without a /dev/vdb it skips (TAP "1..0 # SKIP"). */
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "check.h"

#define VDA "/dev/vda"
#define VDB "/dev/vdb"
#define ROOT "/sys/fs/cgroup"
#define CG ROOT "/multidisk_test"
#define MIB (1u << 20)
#define AREA_A MIB	/* where the test writes on vda (AREA bytes) */
#define AREA MIB

static char *saved, *buf, *want;
static uint64_t size_a, size_b;



/* A pattern that differs per disk (seed) and per 8-byte word. */
static void pattern(char *out, uint64_t seed, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t o = off + i, x = ((o >> 3) ^ seed) * 0x9e3779b97f4a7c15ull;
		x ^= x >> 29;
		out[i] = (char)(x >> (8 * (o & 7)));
	}
}

static uint64_t disk_size(const char *path)
{
	int fd = open(path, O_RDONLY);
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	if (fd >= 0)
		close(fd);
	return end < 0 ? 0 : (uint64_t)end;
}

static void test_nodes(void)
{
	struct stat a, b, fb;
	char text[512], line[160];
	check(stat(VDA, &a) == 0 && stat(VDB, &b) == 0 && S_ISBLK(b.st_mode), "stat: /dev/vdb is a block device");
	check((b.st_rdev >> 8) == 253 && (b.st_rdev & 0xff) == 16, "stat: st_rdev of vdb is 253:16");
	check((a.st_rdev >> 8) == 253 && (a.st_rdev & 0xff) == 0, "stat: st_rdev of vda is still 253:0");
	check(a.st_ino != b.st_ino && a.st_dev == b.st_dev, "vda and vdb: distinct st_ino, the same st_dev");
	check((b.st_mode & 07777) == 0660 && b.st_uid == 0 && b.st_gid == 6, "vdb: mode 0660, root:disk");
	check(listed("/dev", "vda") && listed("/dev", "vdb"), "ls /dev lists vda and vdb");
	int fd = open(VDB, O_RDONLY);
	check(fd >= 0 && fstat(fd, &fb) == 0 && fb.st_rdev == b.st_rdev && fb.st_ino == b.st_ino &&
	      fb.st_dev == b.st_dev, "fstat of vdb agrees with stat");
	if (fd >= 0)
		close(fd);
	snprintf(line, sizeof(line), "major minor  #blocks  name\n\n %3d  %7d %10llu vda\n %3d  %7d %10llu vdb\n",
		 253, 0, (unsigned long long)(size_a >> 10), 253, 16, (unsigned long long)(size_b >> 10));
	int same = slurp("/proc/partitions", text, sizeof(text)) > 0 && strncmp(text, line, strlen(line)) == 0;
	check(same, "/proc/partitions lists vda and vdb with their sizes in 1 KiB blocks");
	if (!same)
		printf("# /proc/partitions: '%s'\n", text);
}

/* The whole of vdb holds the pattern of seed (read in 1 MiB calls). */
static int vdb_holds(int fd, uint64_t seed)
{
	for (uint64_t at = 0; at < size_b; at += MIB) {
		size_t len = size_b - at < MIB ? (size_t)(size_b - at) : MIB;
		pattern(want, seed, at, len);
		if (pread(fd, buf, len, (off_t)at) != (ssize_t)len || memcmp(buf, want, len)) {
			printf("# vdb differs in the MiB at %llu\n", (unsigned long long)at);
			return 0;
		}
	}
	return 1;
}

static int fill_vdb(int fd, uint64_t seed)
{
	for (uint64_t at = 0; at < size_b; at += MIB) {
		size_t len = size_b - at < MIB ? (size_t)(size_b - at) : MIB;
		pattern(buf, seed, at, len);
		if (pwrite(fd, buf, len, (off_t)at) != (ssize_t)len)
			return 0;
	}
	return fsync(fd) == 0;
}

/* vda's area holds data (AREA bytes). */
static int vda_holds(int fd, const char *data)
{
	return pread(fd, buf, AREA, AREA_A) == AREA && memcmp(buf, data, AREA) == 0;
}

static void test_isolation(int fa, int fb)
{
	check(fill_vdb(fb, 0xb0b) && vdb_holds(fb, 0xb0b), "the whole of vdb written and read back");
	check(vda_holds(fa, saved), "writing vdb did not change vda");
	pattern(want, 0xa1a, AREA_A, AREA);
	check(pwrite(fa, want, AREA, AREA_A) == AREA && fsync(fa) == 0 && vda_holds(fa, want),
	      "1 MiB of vda written and read back");
	check(vdb_holds(fb, 0xb0b), "writing vda did not change vdb");
}

/* Both disks at once (their interrupts may share a line): a process per
 * disk writes and reads back its own pattern 8 times. */
static void test_both_at_once(int fa, int fb)
{
	pid_t kids[2];
	for (int k = 0; k < 2; k++) {
		if ((kids[k] = fork()) != 0)
			continue;
		char *w = malloc(AREA), *r = malloc(AREA);
		int ok = w && r;
		for (int i = 0; ok && i < 8; i++) {
			uint64_t seed = (k ? 0xb000u : 0xa000u) + (unsigned)i;
			off_t at = k ? (off_t)(((unsigned)i * AREA) % size_b) : AREA_A;
			pattern(w, seed, (uint64_t)at, AREA);
			ok = pwrite(k ? fb : fa, w, AREA, at) == AREA && pread(k ? fb : fa, r, AREA, at) == AREA &&
			     memcmp(w, r, AREA) == 0;
		}
		_exit(ok ? 0 : 1);
	}
	int st, ok = 1;
	for (int k = 0; k < 2; k++)
		ok &= kids[k] > 0 && waitpid(kids[k], &st, 0) == kids[k] && st == 0;
	check(ok, "vda and vdb written and read back at once, each by its own process");
}

struct io_job {
	const char *path;
	uint64_t off;
	size_t len, rlen;
};

static int io_job_run(void *arg)
{
	const struct io_job *j = arg;
	int fd = open(j->path, O_RDWR), ok = fd >= 0;
	for (size_t at = 0; ok && at < j->len; at += 128 << 10) /* 128 KiB calls: one request each */
		ok = pwrite(fd, buf, j->len - at < (128 << 10) ? j->len - at : 128 << 10, (off_t)(j->off + at)) > 0;
	return ok && (j->rlen == 0 || pread(fd, buf, j->rlen, (off_t)j->off) == (ssize_t)j->rlen);
}

/* In cgroup cg (a child process): len bytes written to path at off, then
 * rlen read there; the seconds it took, or -1. */
static double io_in(const char *cg, const char *path, uint64_t off, size_t len, size_t rlen)
{
	struct io_job j = { path, off, len, rlen };
	return timed_in_cgroup(cg, io_job_run, &j);
}

static void test_io_controller(int fa)
{
	char want_stat[256];
	check(put(ROOT "/cgroup.subtree_control", "+io") == 0 && mkdir(CG, 0755) == 0, "+io at the root; make multidisk_test");
	memset(buf, 0x6d, MIB);
	check(io_in(CG, VDA, AREA_A, 65536, 0) >= 0 && io_in(CG, VDB, 0, 128 << 10, 4096) >= 0,
	      "64 KiB written to vda; 128 KiB written to vdb and 4 KiB read");
	snprintf(want_stat, sizeof(want_stat),
		 "253:0 rbytes=0 wbytes=65536 rios=0 wios=1 dbytes=0 dios=0\n"
		 "253:16 rbytes=4096 wbytes=131072 rios=1 wios=1 dbytes=0 dios=0\n");
	check(text_is(CG "/io.stat", want_stat), "io.stat: a line per device, each exact");

	check(put(CG "/io.max", "253:16 wbps=2097152") == 0 &&
	      text_is(CG "/io.max", "253:16 rbps=max wbps=2097152 riops=max wiops=max\n"),
	      "io.max on 253:16 is accepted, and only 253:16 is limited");
	double tb = io_in(CG, VDB, 0, 2 * MIB, 0), ta = io_in(CG, VDA, AREA_A, AREA, 0);
	printf("# 2 MiB to vdb at wbps=2 MiB/s: %.2f s; 1 MiB to vda: %.3f s\n", tb, ta);
	check(tb >= 0.7 && tb < 15, "writes to vdb are held to its wbps (2 MiB: at least 0.7 s)");
	check(ta >= 0 && ta < 0.5, "writes to vda are not (1 MiB: under 0.5 s)");
	snprintf(want_stat, sizeof(want_stat),
		 "253:0 rbytes=0 wbytes=%u rios=0 wios=%u dbytes=0 dios=0\n"
		 "253:16 rbytes=4096 wbytes=%u rios=1 wios=%u dbytes=0 dios=0\n",
		 65536 + AREA, 1 + AREA / (128 << 10), (128 << 10) + 2 * MIB, 1 + 2 * MIB / (128 << 10));
	check(text_is(CG "/io.stat", want_stat), "io.stat counts each device's writes on its own line");
	if (stat("/dev/vdc", &(struct stat){ 0 }) != 0)
		check_errno(put(CG "/io.max", "253:32 wbps=1048576"), ENODEV, "io.max on 253:32 without a vdc: ENODEV");
	else
		check(1, "io.max on 253:32 without a vdc # SKIP there is a vdc");
	check(put(CG "/io.weight", "253:16 300") == 0 && text_is(CG "/io.weight", "default 100\n253:16 300\n"),
	      "io.weight per device on 253:16");
	check(put(CG "/io.max", "253:16 wbps=max") == 0 && text_is(CG "/io.max", ""), "io.max on 253:16 reset");
	check(rmdir(CG) == 0 && put(ROOT "/cgroup.subtree_control", "-io") == 0, "clean up the cgroup");
	check(pwrite(fa, saved, AREA, AREA_A) == AREA && fsync(fa) == 0 && vda_holds(fa, saved),
	      "vda's 1 MiB written back");
}

int main(void)
{
	struct stat st;
	if (stat(VDB, &st) != 0) {
		printf("1..0 # SKIP no /dev/vdb (a boot with one disk)\n");
		return 0;
	}
	saved = malloc(AREA);
	buf = malloc(MIB);
	want = malloc(MIB);
	size_a = disk_size(VDA);
	size_b = disk_size(VDB);
	int fa = open(VDA, O_RDWR), fb = open(VDB, O_RDWR);
	check(fa >= 0 && fb >= 0 && saved && buf && want && size_a >= AREA_A + AREA && size_b >= 2 * MIB + 4096 &&
	      size_b % 512 == 0, "open /dev/vda and /dev/vdb");
	if (fa < 0 || fb < 0 || !saved || !buf || !want || size_a < AREA_A + AREA || size_b < 2 * MIB + 4096)
		return 1;
	check(pread(fa, saved, AREA, AREA_A) == AREA, "save 1 MiB of vda");
	test_nodes();
	test_isolation(fa, fb);
	test_both_at_once(fa, fb);
	check(pwrite(fa, saved, AREA, AREA_A) == AREA && vda_holds(fa, saved), "vda's 1 MiB written back");
	test_io_controller(fa);
	close(fa);
	close(fb);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
