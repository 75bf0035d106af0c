/* The page cache (kernel/pcache, docs/vfs.md): tmpfs files whose read,
 * write, pread, pwrite, readv, writev, lseek and fstat the kernel serves
 * without the tmpfs server: their results and errno, proof that no server
 * round trip happens (the server stopped while a client reads and writes
 * an open file), O_APPEND from two descriptors, the offset shared by dup
 * and fork, holes, bad buffers, a file shrinking under a reader, the
 * charging of file pages to the writer's cgroup (memory.current and
 * memory.stat, not the reader's, back to the start after unlink; an
 * O_TMPFILE file's too, uncharged at its last close), and -
 * last, since it takes /tmp away - EIO once the server died, its pages
 * uncharged. Prints TAP. */
#define _GNU_SOURCE 1 /* O_TMPFILE */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include "arbor/syscalls.h"
#include "abi/fs.h"
#include "abi/ipc.h"
#include "abi/pcache.h"
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_pcache"
#define KIB 1024
#define MIB (1024 * 1024)
#define TMPFS_MAX (1L << 30)

static char big[MIB];

static long number(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static const char *at(const char *cg, const char *file)
{
	static char path[4][160];
	static int i;
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), BASE "/%s/%s", cg, file);
	return path[i];
}

static long stat_of(const char *cg, const char *key)
{
	return flat_field(at(cg, "memory.stat"), key);
}

static int full_write(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len;
}

static void fill(char *p, size_t len, int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (char)('a' + (i * 7 + (size_t)seed) % 26);
}

static void test_served(void)
{
	char buf[256], want[10000];
	struct stat st, sst;
	fill(want, sizeof(want), 1);
	int fd = open("/tmp/pc.a", O_RDWR | O_CREAT | O_TRUNC, 0640);
	check(fd >= 0 && full_write(fd, want, sizeof(want)) && lseek(fd, 0, SEEK_CUR) == 10000,
	      "write 10000 bytes: the offset follows");
	check(lseek(fd, -100, SEEK_END) == 9900 && read(fd, buf, 200) == 100 && !memcmp(buf, want + 9900, 100) &&
	      read(fd, buf, 10) == 0, "lseek SEEK_END from the size; a read at the end is short, then 0");
	check(pread(fd, buf, 10, 4090) == 10 && !memcmp(buf, want + 4090, 10) && lseek(fd, 0, SEEK_CUR) == 10000,
	      "pread across a page boundary leaves the offset alone");
	check(pwrite(fd, "ZZ", 2, 20000) == 2 && fstat(fd, &st) == 0 && st.st_size == 20002 && st.st_blocks == 32,
	      "pwrite past the end: size 20002, 4 pages present (the hole between has none)");
	check(S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0640 && st.st_nlink == 1 && st.st_uid == getuid() &&
	      stat("/tmp/pc.a", &sst) == 0 && sst.st_ino == st.st_ino && sst.st_dev == st.st_dev &&
	      sst.st_size == st.st_size && sst.st_mtim.tv_sec == st.st_mtim.tv_sec &&
	      sst.st_mtim.tv_nsec == st.st_mtim.tv_nsec, "fstat (the kernel's) agrees with stat (the server's)");
	check(st.st_mtim.tv_nsec % FS_TIME_GRAN_NS == 0 && st.st_ctim.tv_nsec % FS_TIME_GRAN_NS == 0 &&
	      sst.st_atim.tv_nsec % FS_TIME_GRAN_NS == 0,
	      "file times are whole ticks (4 ms, FS_TIME_GRAN_NS: Linux's current_time reads the tick's clock)");
	check(chmod("/tmp/pc.a", 0600) == 0 && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0600 &&
	      st.st_ctim.tv_sec * 1000000000L + st.st_ctim.tv_nsec >= st.st_mtim.tv_sec * 1000000000L + st.st_mtim.tv_nsec,
	      "a chmod through the server shows in fstat at once, with its ctime");
	struct iovec iov[2] = { { "head-", 5 }, { "tail", 4 } };
	check(lseek(fd, 0, SEEK_SET) == 0 && writev(fd, iov, 2) == 9 && pread(fd, buf, 9, 0) == 9 &&
	      !memcmp(buf, "head-tail", 9), "writev and pread");
	char a[3], b[4];
	struct iovec riov[2] = { { a, 3 }, { b, 4 } };
	check(lseek(fd, 1, SEEK_SET) == 1 && readv(fd, riov, 2) == 7 && !memcmp(a, "ead", 3) && !memcmp(b, "-tai", 4),
	      "readv");
	check_errno(lseek(fd, -1, SEEK_SET), EINVAL, "lseek to a negative offset: EINVAL");
	check_errno(lseek(fd, 0, 7), EINVAL, "lseek with a bad whence: EINVAL");
	check(lseek(fd, 100000, SEEK_END) == 120002 && read(fd, buf, 10) == 0, "lseek past the end; read there gives 0");
	check_errno(lseek(fd, TMPFS_MAX + 1, SEEK_SET), EINVAL, "lseek past the largest size: EINVAL (as Linux)");
	check_errno(lseek(fd, 0x7fffffffffffffffL, SEEK_CUR), EINVAL, "lseek overflowing: EINVAL");
	check_errno(pwrite(fd, "a", 1, TMPFS_MAX), EFBIG, "pwrite at the largest size: EFBIG");
	check(pwrite(fd, "abcd", 4, TMPFS_MAX - 2) == 2, "a write across the largest size is short");
	check(ftruncate(fd, 5) == 0 && fstat(fd, &st) == 0 && st.st_size == 5 && st.st_blocks == 8 &&
	      pread(fd, buf, 100, 0) == 5, "ftruncate (through the server): the kernel sees the new size");
	check(ftruncate(fd, 8192) == 0 && pread(fd, buf, 100, 4) == 100 && buf[0] == '-' && buf[1] == 0 && buf[99] == 0,
	      "extended again, the bytes past the old end read as zeros");
	close(fd);
	fd = open("/tmp/pc.a", O_RDONLY);
	check_errno(write(fd, "x", 1), EBADF, "write on a read-only descriptor: EBADF");
	check_errno(pwrite(fd, "x", 1, 0), EBADF, "pwrite on a read-only descriptor: EBADF");
	close(fd);
	fd = open("/tmp/pc.a", O_WRONLY);
	check_errno(read(fd, buf, 1), EBADF, "read on a write-only descriptor: EBADF");
	check_errno(pread(fd, buf, 1, 0), EBADF, "pread on a write-only descriptor: EBADF");
	close(fd);
	check(unlink("/tmp/pc.a") == 0, "unlink");
}

static void test_append(void)
{
	char buf[64];
	int f1 = open("/tmp/pc.app", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	int f2 = open("/tmp/pc.app", O_WRONLY | O_APPEND);
	check(f1 >= 0 && f2 >= 0 && write(f1, "a", 1) == 1 && write(f2, "bb", 2) == 2 && write(f1, "ccc", 3) == 3 &&
	      lseek(f1, 0, SEEK_CUR) == 6, "O_APPEND from two descriptors: each write at the end, the offset after it");
	check(pwrite(f1, "X", 1, 0) == 1, "pwrite on an O_APPEND descriptor appends (as Linux)");
	int r = open("/tmp/pc.app", O_RDONLY);
	check(read(r, buf, sizeof(buf)) == 7 && !memcmp(buf, "abbcccX", 7), "the file: abbcccX");
	close(r);
	ftruncate(f1, 0);
	/* two processes appending 8-byte records at once: none torn or lost */
	pid_t p = fork();
	if (p == 0) {
		for (int i = 0; i < 300; i++)
			if (write(f2, "child--\n", 8) != 8)
				_exit(1);
		_exit(0);
	}
	int ok = 1;
	for (int i = 0; i < 300; i++)
		ok &= write(f1, "parent-\n", 8) == 8;
	ok &= wait_bounded(p, 20) == 0;
	struct stat st;
	ok &= fstat(f1, &st) == 0 && st.st_size == 600 * 8;
	int rd = open("/tmp/pc.app", O_RDONLY), nc = 0, np = 0;
	for (int i = 0; i < 600 && ok; i++) {
		ok &= read(rd, buf, 8) == 8;
		nc += !memcmp(buf, "child--\n", 8);
		np += !memcmp(buf, "parent-\n", 8);
	}
	check(ok && nc == 300 && np == 300, "two processes append 300 records each: 600 whole records");
	close(rd);
	close(f1);
	close(f2);
	unlink("/tmp/pc.app");
}

static void test_shared_offset(void)
{
	char buf[8];
	int fd = open("/tmp/pc.off", O_RDWR | O_CREAT | O_TRUNC, 0644);
	full_write(fd, "0123456789", 10);
	lseek(fd, 0, SEEK_SET);
	int d = dup(fd);
	check(read(d, buf, 3) == 3 && !memcmp(buf, "012", 3) && read(fd, buf, 3) == 3 && !memcmp(buf, "345", 3),
	      "dup shares the offset (in the kernel)");
	pid_t p = fork();
	if (p == 0)
		_exit(read(fd, buf, 2) == 2 && !memcmp(buf, "67", 2) ? 0 : 1);
	check(wait_bounded(p, 10) == 0 && read(d, buf, 1) == 1 && buf[0] == '8',
	      "a forked child's read moves the parent's offset");
	close(d);
	close(fd);
	unlink("/tmp/pc.off");
}

/* A share of a shared description read in chunks of 1 byte to 4 KiB (a
 * seeded sequence) until end-of-file: the bytes read, and whether a chunk
 * was not a contiguous piece of the file (byte i is i % 251). */
static void pos_read_all(int fd, unsigned seed, long *out_total, int *out_bad)
{
	unsigned char *chunk = malloc(4096);
	long total = 0;
	int bad = !chunk;
	while (chunk) {
		seed = seed * 1103515245u + 12345u;
		size_t want = 1 + (seed >> 8) % 4096;
		ssize_t r = read(fd, chunk, want);
		if (r <= 0) {
			bad |= r < 0;
			break;
		}
		for (ssize_t i = 1; i < r; i++)
			bad |= chunk[i] != (chunk[i - 1] + 1) % 251;
		total += r;
	}
	free(chunk);
	*out_total = total;
	*out_bad = bad;
}

/* One process's share: exits 0 if every chunk was a piece of the file,
 * writing the bytes it read to the pipe wfd as a decimal count. */
static void pos_reader(int fd, int wfd, unsigned seed)
{
	long total;
	int bad;
	pos_read_all(fd, seed, &total, &bad);
	char line[32];
	int len = snprintf(line, sizeof(line), "%ld\n", total);
	bad |= write(wfd, line, (size_t)len) != len;
	_exit(bad);
}

struct pos_thread {
	int fd;
	unsigned seed;
	long total;
	int bad;
};

static void *pos_thread_main(void *arg)
{
	struct pos_thread *t = arg;
	pos_read_all(t->fd, t->seed, &t->total, &t->bad);
	return NULL;
}

/* Linux's f_pos_lock: reads on one open file description are serialised,
 * so two processes sharing a descriptor never read the same bytes and
 * never lose an offset update: what both read adds up to the file. */
static void test_pos_lock(void)
{
	static unsigned char data[MIB];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i % 251);
	int fd = open("/tmp/pc.pos", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && full_write(fd, data, sizeof(data)), "a 1 MiB file for the shared readers");
	int rounds_ok = 0, pieces_ok = 1;
	long worst = 0;
	for (int round = 0; round < 6; round++) {
		int pfd[2];
		if (pipe(pfd) < 0 || lseek(fd, 0, SEEK_SET) != 0)
			break;
		pid_t kids[2];
		for (int k = 0; k < 2; k++) {
			kids[k] = fork();
			if (kids[k] == 0)
				pos_reader(fd, pfd[1], (unsigned)(round * 2 + k + 1));
		}
		close(pfd[1]);
		int ok = 1;
		for (int k = 0; k < 2; k++)
			ok &= wait_bounded(kids[k], 30) == 0;
		pieces_ok &= ok;
		char buf[64] = { 0 };
		size_t got = 0;
		ssize_t r;
		while (got < sizeof(buf) - 1 && (r = read(pfd[0], buf + got, sizeof(buf) - 1 - got)) > 0)
			got += (size_t)r;
		close(pfd[0]);
		long a = 0, b = 0;
		if (sscanf(buf, "%ld %ld", &a, &b) == 2 && a + b == MIB)
			rounds_ok++;
		else if (a + b > worst)
			worst = a + b;
	}
	if (worst)
		printf("# shared readers read %ld bytes of a %d byte file\n", worst, MIB);
	check(pieces_ok, "two processes reading one description: every chunk a contiguous piece of the file");
	check(rounds_ok == 6, "and together exactly the file, no byte twice (f_pos_lock), 6 rounds");
	/* two threads of one process on one descriptor: the channel has a
	 * single handle, so only the thread count says it is shared */
	int threads_ok = 0;
	for (int round = 0; round < 6 && lseek(fd, 0, SEEK_SET) == 0; round++) {
		struct pos_thread t = { .fd = fd, .seed = (unsigned)(round + 40) };
		pthread_t th;
		long mine = 0;
		int bad = 1;
		if (pthread_create(&th, NULL, pos_thread_main, &t))
			break;
		pos_read_all(fd, (unsigned)(round + 80), &mine, &bad);
		pthread_join(th, NULL);
		threads_ok += !bad && !t.bad && mine + t.total == MIB;
	}
	check(threads_ok == 6, "two threads reading one descriptor: together exactly the file, 6 rounds");
	close(fd);
	unlink("/tmp/pc.pos");
}

/* In cgroup cg: creates path and writes len bytes at off; exits 0. */
static pid_t writer_in(const char *cg, const char *path, long off, size_t len)
{
	pid_t p = fork();
	if (p == 0) {
		if (put(at(cg, "cgroup.procs"), "0"))
			_exit(2);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(3);
		for (size_t done = 0; done < len;) {
			size_t n = len - done < sizeof(big) ? len - done : sizeof(big);
			ssize_t r = pwrite(fd, big, n, off + (long)done);
			if (r <= 0)
				_exit(4);
			done += (size_t)r;
		}
		_exit(0);
	}
	return p;
}

/* In cgroup cg: reads path whole, twice; exits 0 if it read len bytes. */
static pid_t reader_in(const char *cg, const char *path, size_t len)
{
	pid_t p = fork();
	if (p == 0) {
		static char buf[64 * KIB];
		if (put(at(cg, "cgroup.procs"), "0"))
			_exit(2);
		for (int round = 0; round < 2; round++) {
			int fd = open(path, O_RDONLY);
			size_t got = 0;
			ssize_t r;
			while ((r = read(fd, buf, sizeof(buf))) > 0)
				got += (size_t)r;
			close(fd);
			if (got != len)
				_exit(3);
		}
		_exit(0);
	}
	return p;
}

static void test_holes(void)
{
	char buf[4096];
	check(mkdir(BASE "/h", 0755) == 0 && wait_bounded(writer_in("h", "/tmp/pc.hole", 64 * MIB - 1, 1), 10) == 0,
	      "h: a process writes one byte at 64M - 1");
	struct stat st;
	int fd = open("/tmp/pc.hole", O_RDONLY);
	check(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 64 * MIB && st.st_blocks == 8 &&
	      number(at("h", "memory.current")) == 4096, "a 64M file of one page: one page charged");
	int zeros = 1;
	for (long off = 0; off < 4 * MIB; off += (long)sizeof(buf)) {
		zeros &= pread(fd, buf, sizeof(buf), off) == (ssize_t)sizeof(buf);
		for (size_t i = 0; i < sizeof(buf); i++)
			zeros &= buf[i] == 0;
	}
	check(zeros, "the hole reads as zeros");
	check(fstat(fd, &st) == 0 && st.st_blocks == 8 && number(at("h", "memory.current")) == 4096 &&
	      stat_of("leaf", "shmem") == 0, "reading holes allocates and charges nothing");
	close(fd);
	check(unlink("/tmp/pc.hole") == 0 && number(at("h", "memory.current")) == 0 && rmdir(BASE "/h") == 0,
	      "unlink: h back at 0");
}

static void test_efault(void)
{
	char buf[16];
	int fd = open("/tmp/pc.fault", O_RDWR | O_CREAT | O_TRUNC, 0644);
	full_write(fd, "0123456789", 10);
	check_errno(write(fd, (void *)8, 100), EFAULT, "write from an unmapped buffer: EFAULT");
	check_errno(pwrite(fd, (void *)0xffff800000000000ul, 4, 0), EFAULT, "pwrite from a kernel address: EFAULT");
	check_errno(pread(fd, (void *)8, 5, 0), EFAULT, "pread into an unmapped buffer: EFAULT");
	lseek(fd, 0, SEEK_SET);
	check_errno(read(fd, (void *)0xffff800000000000ul, 5), EFAULT, "read into a kernel address: EFAULT");
	check(lseek(fd, 0, SEEK_CUR) == 0 && read(fd, buf, 10) == 10 && !memcmp(buf, "0123456789", 10),
	      "nothing moved or changed");
	/* a whole-page write that faults half way: the page it could not
	 * fill reads as zeros later, never as old memory */
	char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(two, 'q', 8192);
	mprotect(two + 4096, 4096, PROT_NONE);
	check(ftruncate(fd, 0) == 0 && pwrite(fd, two, 8192, 8192) == 4096 && ftruncate(fd, 16384) == 0,
	      "a write running into a PROT_NONE page is short (4096 of 8192)");
	static char page[4096];
	int clean = pread(fd, page, sizeof(page), 12288) == 4096;
	for (size_t i = 0; i < sizeof(page); i++)
		clean &= page[i] == 0;
	check(clean && pread(fd, page, 1, 8192) == 1 && page[0] == 'q', "the page it could not fill reads as zeros");
	munmap(two, 8192);
	struct stat st;
	int other = open("/tmp/pc.fault2", O_RDWR | O_CREAT, 0644);
	check(other >= 0 && stat("/tmp/pc.fault2", &st) == 0 && unlink("/tmp/pc.fault2") == 0,
	      "the server goes on serving");
	close(other);
	close(fd);
	unlink("/tmp/pc.fault");
}

static void test_shrink(void)
{
	static char buf[64 * KIB];
	memset(big, 'x', 64 * KIB);
	int fd = open("/tmp/pc.shrink", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int w = open("/tmp/pc.shrink", O_RDWR);
	check(full_write(fd, big, 64 * KIB) && lseek(fd, 0, SEEK_SET) == 0 && ftruncate(w, 100) == 0 &&
	      read(fd, buf, sizeof(buf)) == 100 && pread(fd, buf, 10, 8192) == 0,
	      "a file shrunk under an open reader: its next read is short");
	pid_t p = fork();
	if (p == 0) {
		for (int i = 0; i < 150; i++)
			if (ftruncate(w, 0) || pwrite(w, big, 64 * KIB, 0) != 64 * KIB || ftruncate(w, 8192))
				_exit(1);
		_exit(0);
	}
	int sane = 1, rounds = 0;
	while (waitpid(p, NULL, WNOHANG) == 0 && rounds < 20000) {
		ssize_t r = pread(fd, buf, sizeof(buf), 0);
		sane &= r >= 0 && r <= 64 * KIB;
		for (ssize_t i = 0; i < r; i += 511)
			sane &= buf[i] == 'x';
		rounds++;
	}
	waitpid(p, NULL, 0);
	check(sane, "reads racing truncations: every count within the file, every byte written data");
	memset(big, 0, 64 * KIB);
	close(w);
	close(fd);
	unlink("/tmp/pc.shrink");
}

/* With the tmpfs server stopped, a client's kernel-served operations on
 * an open file complete; one that needs the server (stat) waits until the
 * server goes on: so the first never made a round trip. */
static void test_no_round_trip(void)
{
	int fd = open("/tmp/pc.rt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	full_write(fd, "0123456789", 10);
	pid_t srv = process_pid("tmpfs", "servers_posix_pcache");
	check(srv > 0 && kill(srv, SIGSTOP) == 0, "the tmpfs server stopped (SIGSTOP)");
	pid_t c = fork();
	if (c == 0) {
		static char buf[3 * 4096];
		struct stat st;
		int ok = lseek(fd, 0, SEEK_END) == 10 && write(fd, "abcdef", 6) == 6 && pread(fd, buf, 16, 0) == 16 &&
			 !memcmp(buf, "0123456789abcdef", 16) && pwrite(fd, buf, sizeof(buf), 100) == (ssize_t)sizeof(buf) &&
			 fstat(fd, &st) == 0 && st.st_size == 100 + (off_t)sizeof(buf) && lseek(fd, 0, SEEK_SET) == 0 &&
			 read(fd, buf, 10) == 10 && !memcmp(buf, "0123456789", 10);
		_exit(ok ? 0 : 1);
	}
	pid_t s = fork();
	if (s == 0) {
		struct stat st;
		_exit(stat("/tmp/pc.rt", &st) == 0 ? 0 : 1);
	}
	int cst = wait_bounded(c, 10);
	int sst = wait_bounded(s, 0.3); /* still waiting for the server */
	kill(srv, SIGCONT);
	if (sst < 0)
		sst = wait_bounded(s, 10);
	check(cst == 0, "read, write, pread, pwrite, lseek and fstat of an open file complete with the server stopped");
	check(sst == 0, "a stat (a server call) meanwhile completed only once the server went on");
	if (cst < 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
	close(fd);
	unlink("/tmp/pc.rt");
}

static void test_charge(void)
{
	long leaf_shmem = stat_of("leaf", "shmem");
	check(mkdir(BASE "/w", 0755) == 0 && mkdir(BASE "/r", 0755) == 0, "cgroups w and r");
	memset(big, 'w', sizeof(big));
	check(wait_bounded(writer_in("w", "/tmp/pc.charge", 0, MIB), 10) == 0, "a process in w writes 1M and ends");
	long cur = number(at("w", "memory.current"));
	check(cur >= MIB && cur < MIB + 64 * KIB, "w's memory.current: the file's 1M");
	check(stat_of("w", "shmem") == MIB && stat_of("w", "file") == MIB &&
	      stat_of("w", "inactive_anon") + stat_of("w", "active_anon") == MIB && stat_of("w", "unevictable") == 0 &&
	      stat_of("w", "file_dirty") == 0, "memory.stat: shmem and file 1M, on the anon LRU lists (as Linux)");
	check(wait_bounded(reader_in("r", "/tmp/pc.charge", MIB), 10) == 0, "a process in r reads it twice");
	check(number(at("r", "memory.current")) == 0 && number(at("w", "memory.current")) == cur,
	      "the reader is not charged; the pages keep their charge");
	check(stat_of("w", "active_anon") == MIB, "read twice, the pages went to the active list");
	check(stat_of("leaf", "shmem") == leaf_shmem, "nor is this process (or the server) charged");
	check(unlink("/tmp/pc.charge") == 0 && number(at("w", "memory.current")) == 0 && stat_of("w", "shmem") == 0 &&
	      stat_of("w", "active_anon") == 0, "unlink: w back at 0, memory.stat too");
	/* the writer moves to r after writing: the pages stay w's */
	pid_t m = fork();
	if (m == 0) {
		int fd = -1;
		_exit(put(at("w", "cgroup.procs"), "0") || (fd = open("/tmp/pc.move", O_WRONLY | O_CREAT, 0644)) < 0 ||
		      write(fd, big, 64 * KIB) != 64 * KIB || put(at("r", "cgroup.procs"), "0") ? 1 : 0);
	}
	check(wait_bounded(m, 10) == 0 && stat_of("w", "shmem") == 64 * KIB && stat_of("r", "shmem") == 0,
	      "a writer that migrates leaves its file pages charged where they were");
	check(unlink("/tmp/pc.move") == 0 && stat_of("w", "shmem") == 0, "and unlink uncharges them there");
	/* a removed cgroup keeps its file pages charged, dying */
	check(wait_bounded(writer_in("w", "/tmp/pc.dying", 0, 256 * KIB), 10) == 0 && rmdir(BASE "/w") == 0 &&
	      flat_field(BASE "/cgroup.stat", "nr_dying_descendants") == 1,
	      "w removed while its file's pages are charged: dying");
	check(stat_of("leaf", "shmem") == leaf_shmem && stat_of("r", "shmem") == 0,
	      "the pages stay w's (they do not move)");
	int gone = 0;
	unlink("/tmp/pc.dying");
	for (int i = 0; i < 100 && !(gone = flat_field(BASE "/cgroup.stat", "nr_dying_descendants") == 0); i++)
		usleep(10000);
	check(gone, "the file removed, its pages uncharged: w is gone");
	check(rmdir(BASE "/r") == 0, "rmdir r");
	memset(big, 0, sizeof(big));
}

/* An O_TMPFILE file's pages are charged as any tmpfs file's (shmem and
 * file of the writer's cgroup), a hole read charges nothing (as Linux's
 * shmem), and its last close uncharges them. */
static void test_tmpfile_charge(void)
{
	check(mkdir(BASE "/t", 0755) == 0, "cgroup t");
	int p[2];
	check(pipe(p) == 0, "a pipe");
	pid_t c = fork();
	if (c == 0) {
		char ok = 0;
		int fd = -1;
		static char hole[64 * KIB];
		if (put(at("t", "cgroup.procs"), "0") == 0 && (fd = open("/tmp", O_TMPFILE | O_RDWR, 0600)) >= 0 &&
		    ftruncate(fd, 4 * MIB) == 0 && pread(fd, hole, sizeof(hole), MIB) == (ssize_t)sizeof(hole) &&
		    stat_of("t", "shmem") == 0 && full_write(fd, big, MIB) && stat_of("t", "shmem") == MIB &&
		    stat_of("t", "file") == MIB)
			ok = 1;
		close(fd);
		ok &= stat_of("t", "shmem") == 0 && stat_of("t", "file") == 0;
		_exit(write(p[1], &ok, 1) == 1 && ok ? 0 : 1);
	}
	char got = 0;
	close(p[1]);
	check(wait_bounded(c, 10) == 0 && read(p[0], &got, 1) == 1 && got == 1,
	      "O_TMPFILE: a hole read charges nothing, 1M written is shmem and file 1M, the last close uncharges it");
	close(p[0]);
	check(rmdir(BASE "/t") == 0, "rmdir t");
}

static void want(long r, long w, const char *what)
{
	if (r != w)
		printf("# %s: got %ld, want %ld\n", what, r, w);
	check(r == w, what);
}

/* The server-side calls on an endpoint of our own: their rights checks
 * and errno, and a channel of ours served by the kernel from an object. */
static void test_server_calls(void)
{
	long ep = sys_ep_create();
	long id = sys_pcache_create((int)ep, PCACHE_SHMEM, MIB);
	check(ep >= 0 && id >= 1, "pcache.create: an object in our endpoint's table");
	long weak = sys_handle_dup((int)ep, 0, 0);
	sys_handle_rights((int)weak, HANDLE_RIGHT_CALL | HANDLE_RIGHT_RECV);
	want(sys_pcache_create((int)weak, PCACHE_SHMEM, MIB), -EPERM, "pcache.create without MANAGE: EPERM");
	want(sys_pcache_write((int)weak, (uint64_t)id, 0, "x", 1), -EPERM, "pcache.write without MANAGE: EPERM");
	want(sys_pcache_read((int)weak, (uint64_t)id, 0, big, 1), -EPERM, "pcache.read without MANAGE: EPERM");
	want(sys_pcache_truncate((int)weak, (uint64_t)id, 0), -EPERM, "pcache.truncate without MANAGE: EPERM");
	want(sys_pcache_attr((int)weak, (uint64_t)id, NULL, 0, NULL), -EPERM, "pcache.attr without MANAGE: EPERM");
	want(sys_pcache_free((int)weak, (uint64_t)id), -EPERM, "pcache.free without MANAGE: EPERM");
	long nt = sys_notif_create();
	want(sys_pcache_create((int)nt, PCACHE_SHMEM, MIB), -EBADF, "pcache.create on a notification: EBADF");
	want(sys_pcache_create((int)ep, 0, MIB), -EINVAL, "pcache.create of an unknown kind: EINVAL");
	want(sys_pcache_create((int)ep, PCACHE_SHMEM, 1000), -EINVAL, "pcache.create with an unaligned size: EINVAL");
	want(sys_pcache_read((int)ep, 9999, 0, big, 1), -EBADF, "pcache.read of an unknown id: EBADF");
	want(sys_pcache_write((int)ep, (uint64_t)id, 0, "hello", 5), 5, "pcache.write");
	want(sys_pcache_write((int)ep, (uint64_t)id, MIB, "x", 1), -EFBIG, "pcache.write at the object's largest size: EFBIG");
	want(sys_pcache_write((int)ep, (uint64_t)id, 0, (void *)8, 5), -EFAULT, "pcache.write from a bad buffer: EFAULT");
	struct pcache_attr a = { .mode = 0100640, .nlink = 1, .ino = 77 }, got;
	want(sys_pcache_attr((int)ep, (uint64_t)id, &a, 0x8000, NULL), -EINVAL, "pcache.attr with an unknown mask bit: EINVAL");
	want(sys_pcache_attr((int)ep, (uint64_t)id, &a, PCACHE_ATTR_MODE | PCACHE_ATTR_IDS | PCACHE_ATTR_NLINK, &got), 0,
	     "pcache.attr sets and gets");
	check(got.mode == 0100640 && got.ino == 77 && got.size == 5 && got.blocks == 8, "the attributes: ours, size 5");
	/* a channel of our endpoint, published read-write, then attached */
	long ch = sys_chan_create((int)ep, 1);
	want(sys_ipc_fstate((int)ch, IPC_FST_SEEKABLE, 0, O_RDWR, O_APPEND), 0, "a channel published read-write");
	want(sys_pcache_attach((int)ch, (int)weak, (uint64_t)id), -EPERM, "pcache.attach without MANAGE: EPERM");
	want(sys_pcache_attach((int)ch, (int)ep, 9999), -EBADF, "pcache.attach of an unknown id: EBADF");
	int tfd = open("/tmp/pc.other", O_RDWR | O_CREAT, 0644);
	want(sys_pcache_attach(tfd, (int)ep, (uint64_t)id), -EPERM, "pcache.attach to another server's channel: EPERM");
	want(sys_pcache_attach((int)ch, (int)ep, (uint64_t)id), 0, "pcache.attach");
	want(sys_pcache_attach((int)ch, (int)ep, (uint64_t)id), -EBUSY, "pcache.attach twice: EBUSY");
	char buf[8] = { 0 };
	check(read((int)ch, buf, 5) == 5 && !memcmp(buf, "hello", 5) && write((int)ch, "!", 1) == 1 &&
	      lseek((int)ch, 0, SEEK_END) == 6, "the channel is read and written by the kernel (no server thread runs)");
	struct stat st;
	check(fstat((int)ch, &st) == 0 && st.st_size == 6 && st.st_mode == 0100640 && st.st_ino == 77,
	      "fd_stat: the attributes we set");
	/* writeback's question: what clients wrote since the last asking */
	uint64_t idx[4] = { 99, 99, 99, 99 };
	want(sys_pcache_dirty((int)weak, (uint64_t)id, 0, idx, 4), -EPERM, "pcache.dirty without MANAGE: EPERM");
	want(sys_pcache_dirty((int)ep, 9999, 0, idx, 4), -EBADF, "pcache.dirty of an unknown id: EBADF");
	want(sys_pcache_dirty((int)ep, (uint64_t)id, 0, idx, 513), -EINVAL, "pcache.dirty of more than 512: EINVAL");
	want(sys_pcache_dirty((int)ep, (uint64_t)id, 0, (uint64_t *)8, 4), -EFAULT, "pcache.dirty into a bad buffer: EFAULT");
	check(pwrite((int)ch, "z", 1, 3 * 4096 + 5) == 1, "a client writes page 3");
	want(sys_pcache_dirty((int)ep, (uint64_t)id, 0, idx, 4), 2, "pcache.dirty: pages 0 and 3 (the server's own write left none)");
	check(idx[0] == 0 && idx[1] == 3, "their indices, ascending");
	want(sys_pcache_dirty((int)ep, (uint64_t)id, 0, idx, 4), 0, "asked again: clean");
	check(sys_pcache_write((int)ep, (uint64_t)id, 4096, "s", 1) == 1 &&
	      sys_pcache_dirty((int)ep, (uint64_t)id, 0, idx, 4) == 0, "a server's pcache.write leaves its pages clean");
	check(write((int)ch, "!", 0) == 0 && pwrite((int)ch, "q", 1, 3 * 4096) == 1 &&
	      sys_pcache_dirty((int)ep, (uint64_t)id, 1, idx, 4) == 1 && idx[0] == 3,
	      "from page 1 on: only page 3 again");
	check(sys_pcache_truncate((int)ep, (uint64_t)id, 6) == 0, "back to 6 bytes");
	int p[2];
	pipe(p);
	struct pcache_attr pa, pb;
	check(sys_fd_stat(p[0], &pa) == 0 && sys_fd_stat(p[1], &pb) == 0 && pa.mode == 0010600 && pa.ino &&
	      pa.ino == pb.ino, "fd_stat of a pipe: a FIFO, one inode number for both ends");
	int q[2];
	pipe(q);
	check(sys_fd_stat(q[0], &pb) == 0 && pb.ino != pa.ino, "another pipe: another inode number");
	close(q[0]);
	close(q[1]);
	want(sys_fd_stat(0x7fff, (struct pcache_attr *)&got), -EBADF, "fd_stat of a handle out of range: EBADF");
	want(sys_fd_stat(99, (struct pcache_attr *)&got), -EBADF, "fd_stat of no descriptor: EBADF");
	want(sys_fd_stat((int)ch, (struct pcache_attr *)8), -EFAULT, "fd_stat into a bad buffer: EFAULT");
	close(p[0]);
	close(p[1]);
	want(sys_pcache_free((int)ep, (uint64_t)id), 0, "pcache.free");
	check(pread((int)ch, buf, 6, 0) == 6 && !memcmp(buf, "hello!", 6), "an attached channel keeps the object");
	want(sys_pcache_free((int)ep, (uint64_t)id), -EBADF, "pcache.free twice: EBADF");
	close((int)ch);
	close(tfd);
	unlink("/tmp/pc.other");
	close((int)nt);
	close((int)weak);
	close((int)ep);
	/* a process whose endpoint holds objects ends: their pages go */
	mkdir(BASE "/e", 0755);
	pid_t c = fork();
	if (c == 0) {
		if (put(at("e", "cgroup.procs"), "0"))
			_exit(2);
		long e = sys_ep_create();
		long o = sys_pcache_create((int)e, PCACHE_SHMEM, MIB);
		_exit(sys_pcache_write((int)e, (uint64_t)o, 0, big, 256 * KIB) == 256 * KIB ? 0 : 1);
	}
	check(wait_bounded(c, 10) == 0 && number(at("e", "memory.current")) == 0 && rmdir(BASE "/e") == 0,
	      "a server's objects are freed and uncharged when it ends");
}

/* Last: the tmpfs server killed, an open file's descriptor answers EIO
 * and its pages are uncharged at once. */
static void test_server_death(void)
{
	check(mkdir(BASE "/x", 0755) == 0 && wait_bounded(writer_in("x", "/tmp/pc.dead", 0, 512 * KIB), 10) == 0 &&
	      number(at("x", "memory.current")) >= 512 * KIB, "x: a 512K file");
	int fd = open("/tmp/pc.dead", O_RDWR);
	pid_t srv = process_pid("tmpfs", "servers_posix_pcache");
	char buf[16], path[64];
	check(fd >= 0 && srv > 0 && kill(srv, SIGKILL) == 0, "the tmpfs server killed");
	snprintf(path, sizeof(path), "/proc/%d/status", srv);
	for (int i = 0; i < 500 && access(path, F_OK) == 0; i++)
		usleep(10000);
	struct stat st;
	check_errno(read(fd, buf, sizeof(buf)), EIO, "read of its open file: EIO");
	check_errno(write(fd, "x", 1), EIO, "write: EIO");
	check_errno(pread(fd, buf, 1, 0), EIO, "pread: EIO");
	check_errno(lseek(fd, 0, SEEK_END), EIO, "lseek: EIO");
	check_errno(fstat(fd, &st), EIO, "fstat: EIO");
	check(number(at("x", "memory.current")) == 0, "its pages were freed and uncharged with the server");
	close(fd);
	check(rmdir(BASE "/x") == 0, "rmdir x");
}

int main(void)
{
	mkdir(BASE "/leaf", 0755);
	check(put(BASE "/leaf/cgroup.procs", "0") == 0 && put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0, "+memory at the root and here");
	test_served();
	test_append();
	test_shared_offset();
	test_pos_lock();
	test_efault();
	test_shrink();
	test_holes();
	test_charge();
	test_tmpfile_charge();
	test_no_round_trip();
	test_server_calls();
	test_server_death();
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
	printf("1..%d\n", n);
	return failed != 0;
}
