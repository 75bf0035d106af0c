/* /dev/vda, the virtio-blk disk through the block layer: stat and fstat
 * (a block device, 253:0), /proc/partitions, reads and writes of any size
 * and alignment (partial sectors), lseek, the errors at and past the end,
 * EFAULT and EBADF, fsync, O_DIRECT's alignment rule; then a pseudo-random
 * pattern over the whole disk in chunks of odd sizes, by four processes in
 * cgroups under different io limits at once, read back in other odd chunks,
 * by one process and by several at once. With "verify" it only checks that the disk still
 * holds that pattern (the runner's second boot of the same image). */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "arbor/syscalls.h"
#include "abi/blk.h"
#include "abi/ipc.h"
#include "check.h"

#define DISK "/dev/vda"
#define SEED 0x5eed0a7b0c0ffeeull
#define BUF (1u << 20)

static char *buf, *want;

/* BLK_WRITEV (abi/blk.h): segs segments of lens[i] bytes at pos[i] from
 * data, in one call with flags: the reply's label (0 or -errno) and *n. */
static long writev_call(int fd, uint32_t segs, const uint64_t *pos, const uint64_t *lens, const char *data,
			uint64_t flags, uint64_t *n)
{
	static char sb[(BLK_WRITEV_BYTES + 4096) + BLK_WRITEV_SEGS * sizeof(struct blk_seg)];
	struct blk_seg *h = (struct blk_seg *)sb;
	size_t at = segs * sizeof(*h), total = 0;
	for (uint32_t i = 0; i < segs; i++) {
		h[i] = (struct blk_seg){ .pos = pos[i], .len = lens[i] };
		memcpy(sb + at + total, data + total, lens[i]);
		total += lens[i];
	}
	struct ipc_msg m = { .label = BLK_WRITEV, .w = { segs, flags } };
	long r = sys_ipc_call(fd, &m, sb, at + total, NULL, 0);
	*n = m.w[0];
	return r < 0 ? r : (long)(int64_t)m.label;
}

/* Several writes and a flush in one call; every error of its contract. */
static void test_writev(int fd, uint64_t size)
{
	uint64_t pos[3] = { 65536, 8192, 1 << 20 }, lens[3] = { 4096, 1024, 512 }, n = 0;
	for (size_t i = 0; i < 5632; i++)
		want[i] = (char)(i * 13 + 5);
	check(writev_call(fd, 3, pos, lens, want, BLK_WRITEV_FLUSH, &n) == 0 && n == 5632,
	      "BLK_WRITEV: three segments and the flush in one call: 5632 bytes");
	check(pread(fd, buf, 4096, 65536) == 4096 && memcmp(buf, want, 4096) == 0 &&
	      pread(fd, buf, 1024, 8192) == 1024 && memcmp(buf, want + 4096, 1024) == 0 &&
	      pread(fd, buf, 512, 1 << 20) == 512 && memcmp(buf, want + 5120, 512) == 0,
	      "BLK_WRITEV: each segment's bytes at its place");
	uint64_t odd = 100, big = BLK_WRITEV_BYTES + 512, end = size - 512, two = 1024;
	check(writev_call(fd, 1, &pos[0], &odd, want, 0, &n) == -EINVAL, "BLK_WRITEV: a length not of sectors: EINVAL");
	check(writev_call(fd, 1, &odd, &lens[2], want, 0, &n) == -EINVAL, "BLK_WRITEV: an offset not of sectors: EINVAL");
	check(writev_call(fd, 1, &pos[0], &big, want, 0, &n) == -EINVAL,
	      "BLK_WRITEV: more than BLK_WRITEV_BYTES: EINVAL");
	check(writev_call(fd, 0, pos, lens, want, 0, &n) == -EINVAL, "BLK_WRITEV: no segment: EINVAL");
	check(writev_call(fd, 1, &end, &two, want, 0, &n) == -ENOSPC, "BLK_WRITEV: across the end: ENOSPC");
	int ro = open(DISK, O_RDONLY);
	check(ro >= 0 && writev_call(ro, 1, pos, lens, want, 0, &n) == -EBADF, "BLK_WRITEV on a read-only descriptor: EBADF");
	if (ro >= 0)
		close(ro);
}

/* BLK_BUDGET (abi/blk.h) of bytes on fd: the reply's w0 (1: io.max held
 * it back), or -errno. */
static long budget_call(int fd, uint64_t bytes)
{
	struct ipc_msg m = { .label = BLK_BUDGET, .w = { bytes } };
	long r = sys_ipc_call(fd, &m, NULL, 0, NULL, 0);
	return r < 0 ? r : (int64_t)m.label < 0 ? (long)(int64_t)m.label : (long)m.w[0];
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define BUDGET_CG "/sys/fs/cgroup/blk_budget"

/* A process in a cgroup at wbps 1 MiB/s, set just now: a first budget of
 * 512 KiB waits until its bucket holds it (0.5 s: a new limit starts
 * empty), the second as long, each replying 1 (io.max held it), and the
 * 512 KiB written next take from the advance: no wait (without it,
 * another 0.5 s). Exit status 0 if so. */
static int budget_child(void)
{
	int fd = open(DISK, O_RDWR);
	if (fd < 0 || put(BUDGET_CG "/cgroup.procs", "0"))
		return 1;
	memset(buf, 0x5a, 512 << 10);
	double t0 = seconds();
	long a = budget_call(fd, 512 << 10);
	double t1 = seconds();
	long b = budget_call(fd, 512 << 10);
	double t2 = seconds();
	ssize_t w = pwrite(fd, buf, 512 << 10, 4 << 20);
	double t3 = seconds();
	printf("# BLK_BUDGET at wbps 1 MiB/s: %.3f s, then %.3f s; the write after it %.3f s\n", t1 - t0, t2 - t1,
	       t3 - t2);
	return a == 1 && b == 1 && w == 512 << 10 && t1 - t0 > 0.25 && t1 - t0 < 2 && t2 - t1 > 0.25 &&
			       t2 - t1 < 2 && t3 - t2 < 0.3 ? 0 : 2;
}

/* BLK_BUDGET: its errors, and the budget it takes in advance. */
static void test_budget(int fd)
{
	check(budget_call(fd, 0) == -EINVAL && budget_call(fd, BLK_BUDGET_MAX + 1) == -EINVAL,
	      "BLK_BUDGET of 0 or more than BLK_BUDGET_MAX bytes: EINVAL");
	check(budget_call(fd, 4096) == 0, "BLK_BUDGET of a cgroup without io.max: 0 at once");
	int ro = open(DISK, O_RDONLY);
	check(ro >= 0 && budget_call(ro, 4096) == -EBADF, "BLK_BUDGET on a read-only descriptor: EBADF");
	if (ro >= 0)
		close(ro);
	int st = -1;
	int ok = put("/sys/fs/cgroup/cgroup.subtree_control", "+io") == 0 && mkdir(BUDGET_CG, 0755) == 0 &&
		  put(BUDGET_CG "/io.max", "253:0 wbps=1048576") == 0;
	pid_t kid = ok ? fork() : -1;
	if (kid == 0)
		_exit(budget_child());
	ok = ok && kid > 0 && waitpid(kid, &st, 0) == kid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	check(ok, "BLK_BUDGET waits for the caller's io.max (replying 1: throttled) and takes it in advance: the write that "
		  "follows does not wait");
	check(rmdir(BUDGET_CG) == 0, "its cgroup removed");
}

/* The pattern's byte at disk offset o (a splitmix64 of its 8-byte word). */
static void pattern(char *out, uint64_t off, size_t len)
{
	uint64_t word = ~0ull, x = 0;
	for (size_t i = 0; i < len; i++) {
		uint64_t o = off + i;
		if (o >> 3 != word) {
			word = o >> 3;
			x = (word ^ SEED) + 0x9e3779b97f4a7c15ull;
			x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
			x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
			x ^= x >> 31;
		}
		out[i] = (char)(x >> (8 * (o & 7)));
	}
}


static uint64_t disk_size(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	return end < 0 ? 0 : (uint64_t)end;
}

static void test_node(void)
{
	struct stat st;
	char text[256], line[128];
	check(stat(DISK, &st) == 0 && S_ISBLK(st.st_mode), "stat: /dev/vda is a block device");
	check((st.st_rdev >> 8) == 253 && (st.st_rdev & 0xff) == 0, "stat: st_rdev is 253:0");
	check((st.st_mode & 07777) == 0660 && st.st_uid == 0 && st.st_gid == 6, "stat: mode 0660, root:disk");
	check(listed("/dev", "vda"), "ls /dev lists vda");
	int fd = open(DISK, O_RDONLY);
	struct stat fs;
	check(fd >= 0 && fstat(fd, &fs) == 0 && S_ISBLK(fs.st_mode) && fs.st_rdev == st.st_rdev &&
	      fs.st_ino == st.st_ino && fs.st_dev == st.st_dev, "fstat agrees with stat");
	uint64_t size = disk_size(fd);
	close(fd);
	/* vda first; other disks (posix/multidisk checks them) may follow. */
	snprintf(line, sizeof(line), "major minor  #blocks  name\n\n %3d  %7d %10llu vda\n", 253, 0,
		 (unsigned long long)(size >> 10));
	int same = slurp("/proc/partitions", text, sizeof(text)) > 0 && strncmp(text, line, strlen(line)) == 0;
	check(same, "/proc/partitions lists vda with its size in 1 KiB blocks");
	if (!same)
		printf("# /proc/partitions: '%s'\n", text);
}

/* Writes that cover sectors in part keep the rest of those sectors. */
static void test_partial(int fd)
{
	static const struct { uint64_t off; size_t len; } w[] = {
		{ 510, 5 }, { 1500, 1000 }, { 4096, 512 }, { 8191, 2 }, { 9000, 70000 }, { 3, 1 },
	};
	memset(want, 0xa5, 96 * 1024);
	check(pwrite(fd, want, 96 * 1024, 0) == 96 * 1024, "pwrite 96 KiB at 0");
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		pattern(want + w[i].off, w[i].off, w[i].len);
		if (pwrite(fd, want + w[i].off, w[i].len, (off_t)w[i].off) != (ssize_t)w[i].len)
			printf("# pwrite %zu at %llu failed\n", w[i].len, (unsigned long long)w[i].off);
	}
	check(pread(fd, buf, 96 * 1024, 0) == 96 * 1024 && memcmp(buf, want, 96 * 1024) == 0,
	      "writes across sector boundaries keep the rest of each sector");
	check(pread(fd, buf, 7, 509) == 7 && memcmp(buf, want + 509, 7) == 0, "pread of 7 bytes across a boundary");
	check(lseek(fd, 1499, SEEK_SET) == 1499 && read(fd, buf, 1003) == 1003 && memcmp(buf, want + 1499, 1003) == 0 &&
	      lseek(fd, 0, SEEK_CUR) == 2502, "read at an odd offset advances the offset");
}

static void test_end(int fd, uint64_t size)
{
	off_t s = (off_t)size;
	check(lseek(fd, 0, SEEK_END) == s, "lseek SEEK_END is the disk's size");
	check(lseek(fd, -512, SEEK_END) == s - 512, "lseek SEEK_END - 512");
	check_errno(lseek(fd, s + 1, SEEK_SET), EINVAL, "lseek past the end: EINVAL");
	check_errno(lseek(fd, -1, SEEK_SET), EINVAL, "lseek before 0: EINVAL");
	check(pread(fd, buf, 512, s) == 0, "pread at the end reads 0");
	check(pread(fd, buf, 512, s + 4096) == 0, "pread past the end reads 0");
	check(pread(fd, buf, 512, s - 100) == 100, "pread across the end is short");
	check_errno(pwrite(fd, buf, 512, s), ENOSPC, "pwrite at the end: ENOSPC");
	check_errno(pwrite(fd, buf, 1, s + 512), ENOSPC, "pwrite past the end: ENOSPC");
	check(pwrite(fd, buf, 0, s) == 0, "a zero-length pwrite at the end writes 0");
	check(pwrite(fd, buf, 512, s - 100) == 100, "pwrite across the end is short");
	check(lseek(fd, s, SEEK_SET) == s && read(fd, buf, 10) == 0, "read at the end returns 0");
	check_errno(write(fd, buf, 10), ENOSPC, "write at the end: ENOSPC");
}

static void test_errors(int fd)
{
	pattern(want, 4096, 512);
	check(pwrite(fd, want, 512, 4096) == 512, "pwrite a sector");
	check_errno(pread(fd, (void *)1, 512, 0), EFAULT, "pread into a bad buffer: EFAULT");
	check_errno(pread(fd, (void *)0x700000000000ull, 512, 0), EFAULT, "pread into unmapped memory: EFAULT");
	check_errno(pwrite(fd, (void *)0x700000000000ull, 512, 4096), EFAULT, "pwrite from unmapped memory: EFAULT");
	check_errno(pwrite(fd, (void *)0x700000000000ull, 3, 4097), EFAULT, "partial-sector pwrite from unmapped memory: EFAULT");
	check(pread(fd, buf, 512, 4096) == 512 && memcmp(buf, want, 512) == 0, "a failed write changed nothing");
	char *rom = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check_errno(pread(fd, rom, 512, 4096), EFAULT, "pread into read-only memory: EFAULT");
	check(rom != MAP_FAILED && rom[0] == 0 && munmap(rom, 4096) == 0, "which is left untouched");
	/* Linux writes the bytes before a bad page and says how many. */
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(want, 0x5a, 300);
	check(p != MAP_FAILED && pwrite(fd, want, 300, 8000) == 300 && munmap(p + 4096, 4096) == 0,
	      "a buffer whose second page is unmapped");
	pattern(p + 3996, 8093, 100);
	pattern(want + 93, 8093, 100);
	check(pwrite(fd, p + 3996, 200, 8093) == 100, "pwrite across into the bad page writes the good part: 100");
	check(pread(fd, buf, 300, 8000) == 300 && memcmp(buf, want, 300) == 0, "only those bytes changed");
	munmap(p, 4096);
	int ro = open(DISK, O_RDONLY), wo = open(DISK, O_WRONLY);
	check_errno(write(ro, buf, 512), EBADF, "write on an O_RDONLY descriptor: EBADF");
	check_errno(read(wo, buf, 512), EBADF, "read on an O_WRONLY descriptor: EBADF");
	check(fcntl(ro, F_GETFL) == O_RDONLY && fcntl(wo, F_GETFL) == O_WRONLY, "F_GETFL gives the access mode");
	close(ro);
	close(wo);
	check_errno(open(DISK, O_RDWR | O_DIRECTORY), ENOTDIR, "O_DIRECTORY on a disk: ENOTDIR");
	check(fsync(fd) == 0 && fdatasync(fd) == 0, "fsync and fdatasync");
}

/* O_DIRECT, Linux's rule for a block device: offset, length and buffer
 * address multiples of 512 or EINVAL (nothing moved); a length of 0 and
 * the end come first; F_GETFL shows it and F_SETFL sets and clears it. */
static void test_direct(int fd, uint64_t size)
{
	char *a = (char *)(((uintptr_t)buf + 4095) & ~(uintptr_t)4095);	/* page-aligned */
	char *b = (char *)(((uintptr_t)want + 4095) & ~(uintptr_t)4095);
	const off_t at = 1 << 20;
	int d = open(DISK, O_RDWR | O_DIRECT);
	check(d >= 0 && fcntl(d, F_GETFL) == (O_RDWR | O_DIRECT), "open with O_DIRECT; F_GETFL shows it");
	pattern(a, 7, 256 << 10);
	check(pwrite(d, a, 256 << 10, at) == 256 << 10, "O_DIRECT: an aligned 256 KiB pwrite");
	memset(b, 0, 256 << 10);
	check(pread(d, b, 256 << 10, at) == 256 << 10 && memcmp(a, b, 256 << 10) == 0,
	      "O_DIRECT: read back aligned, the same bytes");
	check(pread(fd, buf + 1, 1000, at + 3) == 1000 && memcmp(buf + 1, a + 3, 1000) == 0,
	      "and the same through a descriptor without O_DIRECT, unaligned");
	check(lseek(d, at + 4096, SEEK_SET) == at + 4096 && read(d, b, 512) == 512 && memcmp(b, a + 4096, 512) == 0 &&
	      lseek(d, 0, SEEK_CUR) == at + 4608, "O_DIRECT: read at the file offset, which moves");
	check_errno(pread(d, b, 512, at + 100), EINVAL, "O_DIRECT: pread at an unaligned offset: EINVAL");
	check_errno(pread(d, b, 1000, at), EINVAL, "O_DIRECT: pread of an unaligned length: EINVAL");
	check_errno(pread(d, b + 1, 512, at), EINVAL, "O_DIRECT: pread into an unaligned buffer: EINVAL");
	check_errno(pread(d, b + 256, 512, at), EINVAL, "O_DIRECT: a buffer aligned to 256 only: EINVAL");
	check(pread(d, b + 512, 512, at) == 512 && memcmp(b + 512, a, 512) == 0,
	      "O_DIRECT: a buffer aligned to 512 is enough");
	check(lseek(d, at + 100, SEEK_SET) == at + 100, "lseek to an unaligned offset");
	check_errno(read(d, b, 512), EINVAL, "O_DIRECT: read at an unaligned file offset: EINVAL");
	check_errno(write(d, a, 512), EINVAL, "O_DIRECT: write at an unaligned file offset: EINVAL");
	check_errno(pwrite(d, a, 512, at + 100), EINVAL, "O_DIRECT: pwrite at an unaligned offset: EINVAL");
	check_errno(pwrite(d, a, 1000, at), EINVAL, "O_DIRECT: pwrite of an unaligned length: EINVAL");
	check_errno(pwrite(d, a + 8, 512, at), EINVAL, "O_DIRECT: pwrite from an unaligned buffer: EINVAL");
	check(pread(fd, b, 256 << 10, at) == 256 << 10 && memcmp(a, b, 256 << 10) == 0,
	      "the failed writes changed nothing");
	check(pread(d, b, 0, at + 1) == 0 && pwrite(d, a, 0, at + 1) == 0, "O_DIRECT: length 0 at an unaligned offset: 0");
	check(pread(d, b, 100, (off_t)size) == 0, "O_DIRECT: a read at the end returns 0 whatever its length");
	check_errno(pwrite(d, a, 100, (off_t)size), ENOSPC, "O_DIRECT: a write at the end: ENOSPC first");
	check(pread(d, b, 1024, (off_t)size - 512) == 512, "O_DIRECT: a read across the end is short");
	check(fcntl(d, F_SETFL, 0) == 0 && fcntl(d, F_GETFL) == O_RDWR && pread(d, b + 1, 100, at + 3) == 100 &&
	      memcmp(b + 1, a + 3, 100) == 0, "F_SETFL clears O_DIRECT: any alignment again");
	check(fcntl(fd, F_SETFL, O_DIRECT) == 0 && fcntl(fd, F_GETFL) == (O_RDWR | O_DIRECT), "F_SETFL sets O_DIRECT");
	check_errno(pread(fd, b, 100, at), EINVAL, "and then an unaligned length is EINVAL");
	check(fcntl(fd, F_SETFL, 0) == 0 && fcntl(fd, F_GETFL) == O_RDWR, "F_SETFL clears it again");
	close(d);
}

/* Chunk sizes for the whole-disk pass: odd, small and large. */
static size_t odd_size(unsigned i, int reading)
{
	static const size_t w[] = { 1, 511, 513, 4097, 65537, 131071, 1000003, 777, 300001, 12345 };
	static const size_t r[] = { 333333, 4099, 1, 1048575, 70001, 517 };
	return reading ? r[i % 6] : w[i % 10];
}

/* Writes [from, to) in odd chunks, sequentially; 1 if all went. */
static int fill_range(int fd, uint64_t from, uint64_t to, unsigned salt)
{
	uint64_t at = from;
	for (unsigned i = salt; at < to; i++) {
		size_t n = odd_size(i, 0);
		if (n > to - at)
			n = (size_t)(to - at);
		pattern(buf, at, n);
		ssize_t w = pwrite(fd, buf, n, (off_t)at);
		if (w != (ssize_t)n) {
			printf("# write of %zu at %llu: %zd\n", n, (unsigned long long)at, w);
			return 0;
		}
		at += n;
	}
	return fsync(fd) == 0;
}

#define FILL_CG "/sys/fs/cgroup/blk_fill"

/* The four writers' cgroups and what limits them: none, a byte rate, an
 * io rate (which also holds the reads of partial-sector writes), a low
 * weight with a read byte rate. */
static const char *const fill_limits[4][2] = {
	{ "", "" },
	{ "253:0 wbps=16777216", "" },
	{ "253:0 wiops=800 riops=800", "" },
	{ "253:0 rbps=4194304", "253:0 50" },
};

static int fill_setup(void)
{
	char path[128];
	int ok = put("/sys/fs/cgroup/cgroup.subtree_control", "+io") == 0 && mkdir(FILL_CG, 0755) == 0 &&
		 put(FILL_CG "/cgroup.subtree_control", "+io") == 0;
	for (int k = 0; ok && k < 4; k++) {
		snprintf(path, sizeof(path), FILL_CG "/w%d", k);
		ok = mkdir(path, 0755) == 0;
		snprintf(path, sizeof(path), FILL_CG "/w%d/io.max", k);
		ok = ok && (!*fill_limits[k][0] || put(path, fill_limits[k][0]) == 0);
		snprintf(path, sizeof(path), FILL_CG "/w%d/io.weight", k);
		ok = ok && (!*fill_limits[k][1] || put(path, fill_limits[k][1]) == 0);
	}
	return ok;
}

/* The whole disk, a quarter each by four processes at once, each in a
 * cgroup of its own under other io limits; every quarter's writes are
 * then counted in its cgroup's io.stat. */
static int fill_disk(uint64_t size)
{
	pid_t kids[4];
	int ok = fill_setup(), status;
	char path[128];
	for (int k = 0; ok && k < 4; k++) {
		if ((kids[k] = fork()) == 0) {
			snprintf(path, sizeof(path), FILL_CG "/w%d/cgroup.procs", k);
			int fd = open(DISK, O_RDWR);
			_exit(fd >= 0 && put(path, "0") == 0 &&
			      fill_range(fd, size / 4 * (unsigned)k, size / 4 * (unsigned)(k + 1), (unsigned)k * 3) ? 0 : 1);
		}
	}
	for (int k = 0; k < 4; k++) {
		ok &= kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k] && status == 0;
		snprintf(path, sizeof(path), FILL_CG "/w%d", k);
		unsigned long long wbytes = io_stat_field(path, "wbytes=");
		if (wbytes < size / 4) {
			printf("# w%d wrote %llu bytes, want at least %llu\n", k, wbytes, (unsigned long long)(size / 4));
			ok = 0;
		}
		ok &= rmdir(path) == 0;
	}
	return rmdir(FILL_CG) == 0 && put("/sys/fs/cgroup/cgroup.subtree_control", "-io") == 0 && ok;
}

/* Reads [from, to) in odd chunks and compares every byte. */
static int verify(int fd, uint64_t from, uint64_t to, unsigned salt)
{
	uint64_t at = from;
	for (unsigned i = salt; at < to; i++) {
		size_t n = odd_size(i, 1);
		if (n > to - at)
			n = (size_t)(to - at);
		ssize_t r = pread(fd, buf, n, (off_t)at);
		pattern(want, at, n);
		if (r != (ssize_t)n || memcmp(buf, want, n) != 0) {
			printf("# mismatch in %zu bytes at %llu (read %zd)\n", n, (unsigned long long)at, r);
			return 0;
		}
		at += n;
	}
	return 1;
}

/* Four processes read a quarter each, at once. */
static int verify_parallel(uint64_t size)
{
	pid_t kids[4];
	int ok = 1, status;
	for (int k = 0; k < 4; k++) {
		kids[k] = fork();
		if (kids[k] == 0) {
			int fd = open(DISK, O_RDONLY);
			_exit(fd >= 0 && verify(fd, size / 4 * (unsigned)k, size / 4 * (unsigned)(k + 1), (unsigned)k) ? 0 : 1);
		}
	}
	for (int k = 0; k < 4; k++)
		ok &= kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k] && status == 0;
	return ok;
}

/* "total=" of the some line of a pressure file, or -1. */
static long io_some_total(const char *path)
{
	char b[256];
	long n = slurp(path, b, sizeof(b));
	char *t = n > 0 && strncmp(b, "some avg10=", 11) == 0 && strstr(b, "\nfull avg10=") ? strstr(b, "total=") : NULL;
	return t ? atol(t + 6) : -1;
}

/* This process's cgroup's io.pressure. */
static void own_io_pressure(char *path, size_t size)
{
	char cg[256] = "";
	long n = slurp("/proc/self/cgroup", cg, sizeof(cg));
	if (n > 3 && cg[n - 1] == '\n')
		cg[n - 1] = '\0';
	snprintf(path, size, "/sys/fs/cgroup%s/io.pressure", n > 3 ? cg + 3 : "");
}

/* The runner's disk-error boot: QEMU fails every read of sector
 * EIO_SECTOR (blkdebug). The failing request is EIO; the others, at once
 * and after, go through, and the disk is not hurt. */
#define EIO_SECTOR 2048

static void test_device_errors(int fd)
{
	char b[4096];
	off_t bad = (off_t)EIO_SECTOR * 512;
	check(pread(fd, b, sizeof(b), 0) == (ssize_t)sizeof(b), "a good sector reads");
	errno = 0;
	check(pread(fd, b, sizeof(b), bad) == -1 && errno == EIO, "a read the device fails: EIO");
	pid_t kids[3];
	for (int i = 0; i < 3; i++)
		if ((kids[i] = fork()) == 0) {
			char k[65536];
			int ok = 1;
			for (int r = 0; r < 20; r++)
				ok &= pread(fd, k, sizeof(k), bad + 65536 * (i + 1)) == (ssize_t)sizeof(k);
			_exit(ok ? 0 : 1);
		}
	int fails = 0;
	for (int r = 0; r < 20; r++)
		fails += pread(fd, b, sizeof(b), bad) == -1 && errno == EIO;
	int good = 1, st;
	for (int i = 0; i < 3; i++)
		good &= waitpid(kids[i], &st, 0) == kids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	check(fails == 20 && good, "failing reads meanwhile never hold up or spoil the others");
	memset(b, 0x5a, sizeof(b));
	ssize_t w = pwrite(fd, b, sizeof(b), bad);
	int we = errno;
	ssize_t r = pread(fd, b, sizeof(b), bad - 4096);
	if (w != (ssize_t)sizeof(b) || r != 4096)
		printf("# write %ld (%d), read beside %ld (%d)\n", (long)w, we, (long)r, errno);
	check(w == (ssize_t)sizeof(b) && r == 4096, "writes to it and reads beside it still work");
}

/* The pid of the process whose command line starts with prog, or 0. */
static pid_t find_process(const char *prog)
{
	char path[64], cmd[128];
	for (pid_t pid = 1; pid < 4096; pid++) {
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
		long n = slurp(path, cmd, sizeof(cmd));
		if (n > 0 && strncmp(cmd, prog, strlen(prog)) == 0)
			return pid;
	}
	return 0;
}

/* The disk's driver is killed while writes stream to the disk: the
 * writer gets an error, not a hang; the kernel turns the device's bus
 * mastering off before the driver's DMA buffers are freed (the runner
 * checks the console line) and goes on; init starts the driver again
 * (a new process, the same disk), while the old descriptor stays dead. */
static void test_driver_killed(int fd)
{
	pid_t drv = find_process("drivers/virtio_blk");
	check(drv > 0, "the disk's driver is found in /proc");
	pid_t w = fork();
	if (w == 0) {
		for (;;) /* until a write fails */
			if (pwrite(fd, buf, BUF, 0) != BUF)
				_exit(errno == EIO || errno == EHOSTDOWN ? 0 : 1);
	}
	usleep(50000);
	int st;
	check(drv > 0 && kill(drv, SIGKILL) == 0, "kill -9 the driver while a process writes");
	check(w > 0 && waitpid(w, &st, 0) == w && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the writer's next write fails with EIO or EHOSTDOWN, no hang");
	char b[512];
	check(pread(fd, b, sizeof(b), 0) == -1, "the disk's old descriptor fails from now on");
	int nfd = -1;
	for (int i = 0; i < 500 && nfd < 0; i++) { /* init restarts the driver */
		nfd = open(DISK, O_RDONLY);
		if (nfd < 0)
			usleep(10000);
	}
	pid_t again = find_process("drivers/virtio_blk");
	check(nfd >= 0 && again > 0 && again != drv && pread(nfd, b, sizeof(b), 0) == (ssize_t)sizeof(b),
	      "init started the driver again: /dev/vda is back and reads, served by a new process");
	if (nfd >= 0)
		close(nfd);
}

int main(int argc, char **argv)
{
	buf = malloc(BUF + 4096);
	want = malloc(BUF + 4096);
	int fd = open(DISK, argc > 1 && strcmp(argv[1], "verify") == 0 ? O_RDONLY : O_RDWR);
	uint64_t size = fd >= 0 ? disk_size(fd) : 0;
	check(fd >= 0 && size >= (4u << 20) && size % 512 == 0, "open /dev/vda; its size is whole sectors");
	if (fd < 0 || !buf || !want)
		return 1;
	if (argc > 1 && strcmp(argv[1], "verify") == 0) {
		check(verify(fd, 0, size, 0), "the whole disk holds the pattern written in the previous boot");
	} else if (argc > 1 && strcmp(argv[1], "errors") == 0) {
		test_device_errors(fd);
		test_driver_killed(fd);
	} else {
		test_node();
		test_partial(fd);
		test_end(fd, size);
		test_errors(fd);
		test_writev(fd, size);
		test_budget(fd);
		test_direct(fd, size);
		check(fill_disk(size), "the pattern written over the whole disk in odd-sized chunks by four cgroups "
				       "at once under different io limits (none, wbps, wiops+riops, rbps+weight 50)");
		char iop[300];
		own_io_pressure(iop, sizeof(iop));
		long io0 = io_some_total(iop), sys0 = io_some_total("/proc/pressure/io");
		check(io0 >= 0 && sys0 >= 0, "io.pressure of our cgroup and /proc/pressure/io: some and full lines");
		check(verify(fd, 0, size, 0), "read back in other odd-sized chunks, every byte compared");
		check(io_some_total(iop) > io0 + 1000 && io_some_total("/proc/pressure/io") > sys0 + 1000,
		      "waiting for the disk shows as io pressure, in our cgroup and the system's");
		check(verify_parallel(size), "four processes read it back at once");
	}
	close(fd);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
