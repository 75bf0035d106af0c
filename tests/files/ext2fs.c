/* The ext2 server on a disk image the host made with mke2fs -d
 * (tools/run-tests.py, test_ext2_disk: /dev/vda; a second image with a
 * corrupted inode is /dev/vdb): mount, the host's files read byte for
 * byte (through the page cache: read, pread, mmap), then creation,
 * writes, rename, unlink, mkdir/rmdir, symbolic and hard links,
 * truncation both ways, exact errnos, a read-only mount, umount and
 * mount again, the disk I/O done for a client charged to the client's
 * cgroup (io.stat, io.max); corrupted images (EINVAL, EIO naming the
 * inode, a loop in the tree); a full disk (/dev/vdc: ENOSPC, root's
 * reserved blocks); the host then checks the images with e2fsck -fn and
 * debugfs. "ext2fs" alone runs everything. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <signal.h>
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>
#include "arbor/syscalls.h"
#include "abi/fs.h"
#include "abi/ipc.h"
#include "abi/procinfo.h"
#include "check.h"

#define M "/mnt/e2"
#define BAD "/mnt/e2bad"
#define BIG_LEN 300000
#define W_LEN (200 * 1024 + 123)
#define SLOW_TARGET "dir/sub/././././././././././././././././././././././././././../nested.txt" /* 73 bytes */

/* The host's big.bin (run-tests.py writes the same bytes). */
static unsigned char big_byte(size_t i)
{
	return (unsigned char)((i * 7 + i / 251) & 0xff);
}

/* What this test writes to w.bin (run-tests.py checks it with debugfs). */
static unsigned char w_byte(size_t i)
{
	return (unsigned char)((i * 13 + 5) & 0xff);
}

static int has_text(const char *path, const char *want)
{
	char buf[512];
	long n = slurp(path, buf, sizeof(buf));
	return n == (long)strlen(want) && memcmp(buf, want, (size_t)n) == 0;
}

static void test_read_host_files(void)
{
	struct stat st, st2;
	struct statfs sf;
	check(statfs(M, &sf) == 0 && sf.f_type == 0xEF53 && sf.f_bsize == 1024 && sf.f_blocks > 0 &&
	      sf.f_bfree < sf.f_blocks, "statfs: EXT2_SUPER_MAGIC, 1 KiB blocks, the image's counts");
	check(has_text(M "/hello.txt", "hello, ext2\n"), "the host's hello.txt reads back");
	unsigned char *buf = malloc(BIG_LEN + 10);
	int fd = open(M "/big.bin", O_RDONLY);
	long got = 0, r;
	while (fd >= 0 && (r = read(fd, buf + got, 7001)) > 0)
		got += r;
	int same = got == BIG_LEN;
	for (long i = 0; same && i < BIG_LEN; i++)
		same = buf[i] == big_byte((size_t)i);
	check(same, "big.bin (double-indirect blocks at 1 KiB) reads back byte for byte");
	check(fd >= 0 && pread(fd, buf, 10, 280000) == 10 && buf[0] == big_byte(280000) && buf[9] == big_byte(280009),
	      "pread in the double-indirect part");
	check(fstat(fd, &st) == 0 && st.st_size == BIG_LEN && S_ISREG(st.st_mode) && st.st_nlink == 1,
	      "fstat: size and type");
	unsigned char *map = fd >= 0 ? mmap(NULL, BIG_LEN, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	check(map != MAP_FAILED && map[0] == big_byte(0) && map[BIG_LEN - 1] == big_byte(BIG_LEN - 1) &&
	      map[123456] == big_byte(123456), "mmap of the file shows the same bytes");
	if (map != MAP_FAILED)
		munmap(map, BIG_LEN);
	close(fd);
	free(buf);
	check(stat(M "/hard1", &st) == 0 && stat(M "/hard2", &st2) == 0 && st.st_ino == st2.st_ino &&
	      st.st_nlink == 2, "the host's hard links: one inode, 2 links");
	char l[256];
	ssize_t n = readlink(M "/fastlink", l, sizeof(l));
	check(n == 9 && memcmp(l, "hello.txt", 9) == 0, "readlink of a fast symlink");
	n = readlink(M "/slowlink", l, sizeof(l));
	check(n == (ssize_t)strlen(SLOW_TARGET) && memcmp(l, SLOW_TARGET, (size_t)n) == 0,
	      "readlink of a slow symlink (a data block)");
	check(has_text(M "/fastlink", "hello, ext2\n"), "open follows the fast link");
	check(lstat(M "/slowlink", &st) == 0 && S_ISLNK(st.st_mode) && st.st_size == (off_t)strlen(SLOW_TARGET),
	      "lstat of the slow link");
	check(has_text(M "/dir/nested.txt", "nested\n"), "a file in a subdirectory");
	check(listed(M, "lost+found") && listed(M, "big.bin") && listed(M "/dir", "sub") && listed(M, ".."),
	      "getdents lists the host's names");
	check(stat(M "/dir/../hello.txt", &st) == 0 && st.st_size == 12, "\"..\" walked on the disk");
}

static void test_changes(void)
{
	struct stat st, st2;
	check(put_new(M "/new.txt", "new data") == 0 && has_text(M "/new.txt", "new data"), "create, write, read back");
	unsigned char *buf = malloc(W_LEN);
	for (size_t i = 0; i < W_LEN; i++)
		buf[i] = w_byte(i);
	int fd = open(M "/w.bin", O_RDWR | O_CREAT | O_EXCL, 0640);
	check(fd >= 0 && write(fd, buf, W_LEN) == W_LEN && fsync(fd) == 0, "a 200 KiB write and fsync");
	check(fstat(fd, &st) == 0 && st.st_size == W_LEN && (st.st_mode & 07777) == 0640, "fstat after the write");
	close(fd);
	check_errno(open(M "/w.bin", O_RDWR | O_CREAT | O_EXCL, 0640), EEXIST, "O_CREAT|O_EXCL on an existing file: EEXIST");
	check(rename(M "/new.txt", M "/dir/renamed.txt") == 0 && has_text(M "/dir/renamed.txt", "new data") &&
	      fails(stat(M "/new.txt", &st), ENOENT), "rename across directories");
	check(put_new(M "/a.txt", "aaa") == 0 && put_new(M "/b.txt", "bbbb") == 0 && rename(M "/a.txt", M "/b.txt") == 0 &&
	      has_text(M "/b.txt", "aaa") && fails(stat(M "/a.txt", &st), ENOENT), "rename over an existing file");
	check(put_new(M "/gone.txt", "x") == 0 && unlink(M "/gone.txt") == 0, "unlink");
	check_errno(unlink(M "/gone.txt"), ENOENT, "unlink again: ENOENT");
	check_errno(open(M "/nodir/x", O_RDONLY), ENOENT, "a missing directory: ENOENT");
	check(mkdir(M "/newdir", 0755) == 0 && mkdir(M "/newdir/inner", 0700) == 0 && stat(M "/newdir", &st) == 0 &&
	      S_ISDIR(st.st_mode) && st.st_nlink == 3, "mkdir, a subdirectory: 3 links");
	check_errno(mkdir(M "/newdir", 0755), EEXIST, "mkdir of an existing name: EEXIST");
	check_errno(rmdir(M "/newdir"), ENOTEMPTY, "rmdir of a non-empty directory: ENOTEMPTY");
	check(rmdir(M "/newdir/inner") == 0 && stat(M "/newdir", &st) == 0 && st.st_nlink == 2, "rmdir");
	check(mkdir(M "/emptydir", 0755) == 0 && rmdir(M "/emptydir") == 0 && fails(stat(M "/emptydir", &st), ENOENT),
	      "mkdir and rmdir");
	check(symlink("b.txt", M "/newlink") == 0 && has_text(M "/newlink", "aaa"), "a new fast symlink");
	check(symlink(SLOW_TARGET, M "/newslow") == 0 && has_text(M "/newslow", "nested\n"),
	      "a new slow symlink, followed (through \"..\")");
	check(link(M "/b.txt", M "/b2.txt") == 0 && stat(M "/b.txt", &st) == 0 && stat(M "/b2.txt", &st2) == 0 &&
	      st.st_ino == st2.st_ino && st.st_nlink == 2, "a hard link: 2 links");
	check(unlink(M "/hard2") == 0 && stat(M "/hard1", &st) == 0 && st.st_nlink == 1, "unlink one of the host's hard links");
	/* truncation: sparse growth and shrinking */
	fd = open(M "/sparse.bin", O_RDWR | O_CREAT, 0644);
	char c = 1;
	check(fd >= 0 && write(fd, "abc", 3) == 3 && ftruncate(fd, 1 << 20) == 0 && fstat(fd, &st) == 0 &&
	      st.st_size == 1 << 20 && pread(fd, &c, 1, 500000) == 1 && c == 0, "ftruncate grows a file: a hole reads 0");
	check(pwrite(fd, "end", 3, (1 << 20) - 3) == 3, "a write at the end of the hole");
	close(fd);
	check(stat(M "/sparse.bin", &st) == 0 && st.st_size == 1 << 20, "stat after the growth");
	fd = open(M "/shrink.txt", O_RDWR | O_CREAT, 0644);
	check(fd >= 0 && write(fd, buf, 10000) == 10000 && ftruncate(fd, 100) == 0 && fstat(fd, &st) == 0 &&
	      st.st_size == 100, "ftruncate shrinks a file");
	close(fd);
	check(truncate(M "/big.bin", 5000) == 0 && stat(M "/big.bin", &st) == 0 && st.st_size == 5000,
	      "truncate(2) of the host's file to 5000 bytes (frees the indirect blocks)");
	/* an unlinked open file stays readable until it is closed */
	fd = open(M "/b2.txt", O_RDONLY);
	check(fd >= 0 && unlink(M "/b2.txt") == 0 && unlink(M "/b.txt") == 0 && read(fd, buf, 8) == 3 &&
	      memcmp(buf, "aaa", 3) == 0, "an open file whose names are gone is still read");
	check(fstat(fd, &st) == 0 && st.st_nlink == 0, "and fstat shows 0 links");
	close(fd);
	/* and written: its writes take block reservations like any file's */
	static char ul[300 * 1024];
	memset(ul, 'u', sizeof(ul));
	fd = open(M "/ul.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && unlink(M "/ul.bin") == 0 && write(fd, ul, sizeof(ul)) == (ssize_t)sizeof(ul) &&
	      fsync(fd) == 0 && pread(fd, buf, 8, sizeof(ul) - 8) == 8 && memcmp(buf, "uuuuuuuu", 8) == 0,
	      "an unlinked open file takes 300 KiB of writes (past its first budget), fsync 0, reads them");
	close(fd);
	char name[300];
	memset(name, 'n', sizeof(name));
	memcpy(name, M "/", strlen(M "/"));
	name[strlen(M "/") + 256] = '\0';
	check_errno(open(name, O_WRONLY | O_CREAT, 0644), ENAMETOOLONG, "a 256-byte name: ENAMETOOLONG");
	name[strlen(M "/") + 255] = '\0';
	fd = open(name, O_WRONLY | O_CREAT, 0644);
	check(fd >= 0 && close(fd) == 0 && unlink(name) == 0, "a 255-byte name is fine");
	check(chmod(M "/w.bin", 0604) == 0 && stat(M "/w.bin", &st) == 0 && (st.st_mode & 07777) == 0604, "chmod");
	free(buf);
}

/* As uid 1000: the host's files are root's. */
static void test_permissions(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		int ok = setgid(1000) == 0 && setuid(1000) == 0;
		ok = ok && fails(open(M "/private.txt", O_RDONLY), EACCES);
		ok = ok && fails(open(M "/uid1000.txt", O_WRONLY | O_CREAT, 0644), EACCES);
		ok = ok && fails(unlink(M "/hello.txt"), EACCES);
		ok = ok && fails(chmod(M "/hello.txt", 0777), EPERM);
		ok = ok && has_text(M "/hello.txt", "hello, ext2\n");
		_exit(ok ? 0 : 1);
	}
	int st;
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "uid 1000: EACCES to read root's 0600 file, create in or unlink from root's 0755 directory; chmod EPERM; reads 0644");
}

static int w_is_intact(void)
{
	unsigned char *buf = malloc(W_LEN);
	int fd = open(M "/w.bin", O_RDONLY);
	long got = 0, r;
	while (fd >= 0 && buf && (r = read(fd, buf + got, W_LEN - got)) > 0)
		got += r;
	close(fd);
	int same = got == W_LEN;
	for (long i = 0; same && i < W_LEN; i++)
		same = buf[i] == w_byte((size_t)i);
	free(buf);
	return same;
}

static void test_remount(void)
{
	struct stat st;
	check(umount(M) == 0, "umount writes everything back");
	check(mount("/dev/vda", M, "ext2", MS_RDONLY, "") == 0, "mount -o ro");
	check(w_is_intact() && has_text(M "/dir/renamed.txt", "new data"), "the files written before read back from the disk");
	check(stat(M "/sparse.bin", &st) == 0 && st.st_size == 1 << 20 && st.st_blocks < 64,
	      "the sparse file kept its size and its hole");
	check_errno(open(M "/hello.txt", O_WRONLY), EROFS, "read-only: open for writing is EROFS");
	check_errno(mkdir(M "/ro", 0755), EROFS, "read-only: mkdir is EROFS");
	check_errno(unlink(M "/hello.txt"), EROFS, "read-only: unlink is EROFS");
	check_errno(open(M "/ro.txt", O_WRONLY | O_CREAT, 0644), EROFS, "read-only: create is EROFS");
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0, "umount, mount read-write again");
	check(stat(M "/shrink.txt", &st) == 0 && st.st_size == 100,
	      "the shrunk file's size persisted");
	int fd = open(M "/w.bin", O_WRONLY | O_APPEND);
	check(fd >= 0 && write(fd, "tail", 4) == 4 && close(fd) == 0, "an append after the remount");
}

/* Files read and written by the server (cache_max=0: none copied into
 * the page cache), and a 6 MiB read through it that does not hold up
 * another client's stat: the server lets go of the mount between chunks. */
static void test_server_served(void)
{
	enum { BIGW = 6 << 20 };
	struct stat st;
	char *buf = malloc(BIGW);
	for (int i = 0; i < BIGW; i++)
		buf[i] = (char)(i * 31 + 7);
	int fd = open(M "/six.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, buf, BIGW) == BIGW && close(fd) == 0, "a 6 MiB file");
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "cache_max=0") == 0, "mount -o cache_max=0");
	check_errno(mount("/dev/vdb", "/tmp/e2x", "ext2", 0, "cache_max=x"), EINVAL, "cache_max=x: EINVAL");
	check(w_is_intact(), "w.bin read through the server");
	fd = open(M "/w.bin", O_RDWR);
	char two[2] = { 0 };
	check(fd >= 0 && pwrite(fd, "PQ", 2, 10) == 2 && pread(fd, two, 2, 10) == 2 && two[0] == 'P' && two[1] == 'Q' &&
	      lseek(fd, 0, SEEK_END) == W_LEN + 4 && fstat(fd, &st) == 0 && st.st_size == W_LEN + 4,
	      "pwrite, pread, lseek and fstat served by the server");
	char orig[2] = { (char)w_byte(10), (char)w_byte(11) };
	check(pwrite(fd, orig, 2, 10) == 2, "and put back");
	close(fd);
	int p[2];
	check(pipe(p) == 0, "pipe");
	pid_t pid = fork();
	if (pid == 0) {
		char *b = malloc(BIGW);
		int f = open(M "/six.bin", O_RDONLY);
		double t0 = now_s();
		(void)!write(p[1], &t0, sizeof(t0));
		ssize_t r = read(f, b, BIGW);
		double t1 = now_s();
		int ok = r == BIGW;
		for (int i = 0; ok && i < BIGW; i++)
			ok = b[i] == (char)(i * 31 + 7);
		double d = ok ? t1 - t0 : -1;
		(void)!write(p[1], &d, sizeof(d));
		_exit(0);
	}
	double t0 = 0, took = -1, worst = 0;
	int stats = 0;
	check(read(p[0], &t0, sizeof(t0)) == sizeof(t0), "the reader started");
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	int failed_stat = 0;
	while (now_s() - t0 < 60) { /* stats until the read is done */
		double a = now_s();
		failed_stat |= stat(M "/hello.txt", &st) != 0;
		double b = now_s() - a;
		worst = b > worst ? b : worst;
		stats++;
		if (read(p[0], &took, sizeof(took)) == sizeof(took))
			break;
	}
	check(took > 0, "one 6 MiB read through the server, byte for byte");
	waitpid(pid, NULL, 0);
	printf("# 6 MiB read %.1f ms; %d stats meanwhile, the slowest %.2f ms\n", took * 1e3, stats, worst * 1e3);
	check(!failed_stat && stats >= 3 && worst < took / 2,
	      "another client's stats meanwhile wait at most a chunk, not the whole read");
	close(p[0]);
	close(p[1]);
	free(buf);
	check(unlink(M "/six.bin") == 0, "unlink the 6 MiB file");
}

#define CGR "/sys/fs/cgroup"
#define CGT CGR "/e2io"
#define IO_LEN (2u << 20)

/* A new file of len bytes at path, synced. */
static int make_file(const char *path, size_t len)
{
	char *b = malloc(len);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	int ok = b && fd >= 0;
	if (b)
		memset(b, 0x5a, len);
	ok = ok && write(fd, b, len) == (ssize_t)len && fsync(fd) == 0;
	if (fd >= 0)
		close(fd);
	free(b);
	return ok;
}

/* Reads the whole file (run in a cgroup by timed_in_cgroup): IO_LEN
 * bytes, each make_file's. */
static int read_whole(void *arg)
{
	static char chunk[65536];
	int fd = open((const char *)arg, O_RDONLY);
	long got = 0, r, bad = 0;
	while (fd >= 0 && (r = read(fd, chunk, sizeof(chunk))) > 0) {
		for (long i = 0; i < r; i++)
			bad += chunk[i] != 0x5a;
		got += r;
	}
	if (fd >= 0)
		close(fd);
	return got == IO_LEN && bad == 0;
}

/* Writes 1 MiB to a new file and fsyncs it (run in a cgroup). */
static int write_synced(void *arg)
{
	return make_file((const char *)arg, 1u << 20);
}

/* Unmounted and mounted again: nothing of the files cached. */
static int cold(void)
{
	return umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0;
}

/* The disk reads the ext2 server does for a client are the client's: the
 * server calls the block server on the client's behalf (IPC_CALL_FOR),
 * and the kernel attests whose call it is. Before, they were charged to
 * the server's cgroup (the root): A's io.stat stayed empty and A's
 * io.max did not slow its reads. */
static void test_io_charged_to_client(void)
{
	check(put(CGR "/cgroup.subtree_control", "+io") == 0 && mkdir(CGT, 0755) == 0 &&
	      put(CGT "/cgroup.subtree_control", "+io") == 0 && mkdir(CGT "/a", 0755) == 0 &&
	      mkdir(CGT "/b", 0755) == 0, "cgroups e2io/a and e2io/b with the io controller");
	check(make_file(M "/ioa.bin", IO_LEN) && make_file(M "/iob.bin", IO_LEN) && cold(),
	      "two 2 MiB files written, the mount made cold");
	unsigned long long root0 = io_rbytes(CGR), a0 = io_rbytes(CGT "/a");
	long fills0 = flat_field("/proc/vmstat", "pager_fill_requests"), ra0 = flat_field("/proc/vmstat", "pager_ra_async");
	long granted0 = flat_field("/proc/vmstat", "pager_grant_filled");
	double ta = timed_in_cgroup(CGT "/a", read_whole, M "/ioa.bin");
	long fills = flat_field("/proc/vmstat", "pager_fill_requests") - fills0,
	     ra = flat_field("/proc/vmstat", "pager_ra_async") - ra0;
	long granted = flat_field("/proc/vmstat", "pager_grant_filled") - granted0;
	printf("# of its %d pages, %ld filled by the device straight into the page cache\n", IO_LEN / 4096, granted);
	check(granted == IO_LEN / 4096,
	      "zero-copy fills: every page of the cold read written by the disk's DMA, none copied (/proc/vmstat)");
	unsigned long long root1 = io_rbytes(CGR), a1 = io_rbytes(CGT "/a");
	printf("# the cold 2 MiB read in 64 KiB reads: %ld fill requests, %ld asynchronous\n", fills, ra);
	check(fills >= 4 && fills <= 8 && ra >= 4,
	      "its readahead: at most 8 fill requests for 2 MiB, at least 4 of them ahead of the reader (/proc/vmstat)");
	printf("# A read 2 MiB cold in %.3f s: A's rbytes +%llu, the root's +%llu\n", ta, a1 - a0, root1 - root0);
	check(ta > 0 && a1 - a0 >= IO_LEN, "a cold read in A: its bytes in A's io.stat");
	check(root1 - root0 == a1 - a0, "... and all of them A's: none in the server's (the root's own)");
	check(io_rbytes(CGT "/b") == 0, "... none in B's");
	unsigned long long rw0 = io_stat_field(CGR, "wbytes="), aw0 = io_stat_field(CGT "/a", "wbytes=");
	double tw = timed_in_cgroup(CGT "/a", write_synced, M "/iow.bin");
	unsigned long long rw1 = io_stat_field(CGR, "wbytes="), aw1 = io_stat_field(CGT "/a", "wbytes=");
	printf("# A wrote 1 MiB and fsynced in %.3f s: A's wbytes +%llu, the root's +%llu\n", tw, aw1 - aw0, rw1 - rw0);
	check(tw > 0 && aw1 - aw0 >= (1u << 20) && aw1 - aw0 < (1u << 20) + 64 * 1024,
	      "A's written and fsynced 1 MiB of data in A's wbytes");
	check(rw1 - rw0 > aw1 - aw0 && rw1 - rw0 - (aw1 - aw0) <= 256 * 1024,
	      "... its metadata (inode, bitmaps, map) the root's own, counted there (Linux's rule)");
	check(cold() && put(CGT "/a/io.max", "253:0 rbps=1048576") == 0, "io.max rbps=1 MiB/s on A, cold again");
	double tb = timed_in_cgroup(CGT "/b", read_whole, M "/iob.bin");
	ta = timed_in_cgroup(CGT "/a", read_whole, M "/ioa.bin");
	printf("# cold 2 MiB reads: A (rbps=1 MiB/s) %.3f s, B (no limit) %.3f s\n", ta, tb);
	check(ta >= 1.2 && ta < 30, "A's read is held to about its io.max (2 MiB at 1 MiB/s: at least 1.2 s)");
	check(tb > 0 && tb < 1.0 && tb < ta / 2, "B's is not (under a second, less than half of A's)");
	check(io_rbytes(CGT "/b") >= IO_LEN, "B's bytes in B's io.stat");
	/* A thread serving no call cannot name anyone: ESRCH, nothing sent. */
	int fd = open("/dev/vdb", O_RDONLY);
	char sector[512];
	struct ipc_msg m = { .label = FILE_READ, .w = { 0, 1 } };
	check(fd >= 0 && sys_ipc_call(fd | IPC_CALL_FOR, &m, NULL, 0, sector, sizeof(sector)) == -ESRCH,
	      "IPC_CALL_FOR by a thread serving no call: ESRCH");
	m = (struct ipc_msg){ .label = FILE_READ, .w = { 0, 1 } };
	check(fd >= 0 && sys_ipc_call(fd, &m, NULL, 0, sector, sizeof(sector)) == 0 && m.label == 0 &&
	      m.w[0] == sizeof(sector),
	      "the same call without it works");
	if (fd >= 0)
		close(fd);
	/* zero-copy writeback (docs/fs.md): on this mount (the page cache's,
	 * remounted by cold) the disk reads the written pages itself */
	long written0 = flat_field("/proc/vmstat", "pager_grant_written");
	check(make_file(M "/ioz.bin", IO_LEN), "a 2 MiB file written and fsynced through the page cache");
	long written = flat_field("/proc/vmstat", "pager_grant_written") - written0;
	printf("# of its %u pages, %ld written by the disk straight from the page cache\n", IO_LEN / 4096, written);
	/* 2 MiB is 8 batches of 64 pages: none is the fsync's last short run,
	 * which would go through the core with the flush */
	check(written == IO_LEN / 4096,
	      "zero-copy writeback: the disk's DMA read every written page from the page cache (/proc/vmstat)");
	check(cold() && timed_in_cgroup(CGT "/b", read_whole, M "/ioz.bin") > 0, "and every byte reads back from the disk");
	check(unlink(M "/ioz.bin") == 0 && unlink(M "/ioa.bin") == 0 && unlink(M "/iob.bin") == 0 && unlink(M "/iow.bin") == 0 &&
	      rmdir(CGT "/a") == 0 &&
	      rmdir(CGT "/b") == 0 && rmdir(CGT) == 0 && put(CGR "/cgroup.subtree_control", "-io") == 0,
	      "clean up");
}

#define CGW CGR "/e2wb"

/* Overwrites wbo.bin's first 1 MiB with 'A' (run in a cgroup). */
static int overwrite_a(void *arg)
{
	(void)arg;
	static char b[1u << 20];
	memset(b, 'A', sizeof(b));
	int fd = open(M "/wbo.bin", O_WRONLY);
	int ok = fd >= 0 && pwrite(fd, b, sizeof(b), 0) == (ssize_t)sizeof(b);
	return close(fd) == 0 && ok;
}

/* fsync of wbo.bin (run in a cgroup). */
static int fsync_wbo(void *arg)
{
	(void)arg;
	int fd = open(M "/wbo.bin", O_RDONLY);
	int ok = fd >= 0 && fsync(fd) == 0;
	return close(fd) == 0 && ok;
}

/* Writeback is charged to whoever dirtied the pages, not to whoever
 * writes them back (docs/writeback.md). B makes a 1 MiB file (its pages
 * charged to B, clean), A overwrites it (dirty, owned by A), B fsyncs
 * it: the disk writes of A's data are A's in io.stat, none B's (the
 * metadata the root's), and memory.stat's file_dirty was A's, not B's.
 * Before, the owner was the page's memory cgroup (B's file_dirty) and
 * the writes were charged to the fsync's caller (B). */
static void test_writeback_owner(void)
{
	check(put(CGR "/cgroup.subtree_control", "+io +memory") == 0 && mkdir(CGW, 0755) == 0 &&
	      put(CGW "/cgroup.subtree_control", "+io +memory") == 0 && mkdir(CGW "/a", 0755) == 0 &&
	      mkdir(CGW "/b", 0755) == 0, "cgroups e2wb/a and e2wb/b with io and memory");
	check(timed_in_cgroup(CGW "/b", write_synced, M "/wbo.bin") > 0, "B made a 1 MiB file, synced");
	int hold = open(M "/wbo.bin", O_RDONLY); /* the last close is not A's: no writeback there */
	check(hold >= 0 && timed_in_cgroup(CGW "/a", overwrite_a, NULL) > 0, "A overwrote it, not synced");
	long ad = flat_field(CGW "/a/memory.stat", "file_dirty"), bd = flat_field(CGW "/b/memory.stat", "file_dirty");
	printf("# file_dirty: A %ld, B %ld\n", ad, bd);
	check(ad == (1l << 20) && bd == 0, "memory.stat file_dirty: A's 1 MiB, none B's (whose memory they are)");
	unsigned long long r0 = io_stat_field(CGR, "wbytes="), a0 = io_stat_field(CGW "/a", "wbytes="),
			   b0 = io_stat_field(CGW "/b", "wbytes=");
	check(timed_in_cgroup(CGW "/b", fsync_wbo, NULL) > 0, "B's fsync of it");
	unsigned long long r1 = io_stat_field(CGR, "wbytes="), a1 = io_stat_field(CGW "/a", "wbytes="),
			   b1 = io_stat_field(CGW "/b", "wbytes=");
	printf("# B's fsync of A's 1 MiB: wbytes A +%llu, B +%llu, root +%llu\n", a1 - a0, b1 - b0, r1 - r0);
	check(a1 - a0 >= (1u << 20) && a1 - a0 < (1u << 20) + 64 * 1024, "A's data in A's io.stat wbytes");
	check(b1 - b0 == 0, "none of it in B's, who wrote it back");
	check(r1 - r0 >= a1 - a0 && r1 - r0 - (a1 - a0) <= 256 * 1024, "the metadata in the root's own");
	check(flat_field(CGW "/a/memory.stat", "file_dirty") == 0 &&
	      flat_field(CGW "/a/memory.stat", "file_writeback") == 0,
	      "A's file_dirty and file_writeback back to 0");
	char got[4096];
	close(hold);
	hold = cold() ? open(M "/wbo.bin", O_RDONLY) : -1;
	check(hold >= 0 && pread(hold, got, sizeof(got), (1u << 20) - 4096) == (ssize_t)sizeof(got) && got[0] == 'A' &&
	      got[4095] == 'A',
	      "the bytes read back from the disk");
	close(hold);
	check(unlink(M "/wbo.bin") == 0 && rmdir(CGW "/a") == 0 && rmdir(CGW "/b") == 0 && rmdir(CGW) == 0 &&
	      put(CGR "/cgroup.subtree_control", "-io") == 0, "clean up");
}

/* O_DIRECT: reads and writes through the server, past the page cache,
 * with Linux's 512-byte alignment rule, coherent with a cached descriptor
 * of the same file. */
static void test_direct(void)
{
	unsigned char *a = NULL, *b = NULL;
	check(posix_memalign((void **)&a, 4096, 8192) == 0 && posix_memalign((void **)&b, 4096, 8192) == 0,
	      "aligned buffers");
	for (int i = 0; i < 8192; i++)
		a[i] = (unsigned char)(i * 3 + 1);
	int fd = open(M "/direct.bin", O_RDWR | O_CREAT | O_DIRECT, 0644);
	check(fd >= 0 && (fcntl(fd, F_GETFL) & O_DIRECT), "open O_DIRECT: F_GETFL shows it");
	check(pwrite(fd, a, 4096, 0) == 4096, "an aligned O_DIRECT write");
	check_errno(pwrite(fd, a, 100, 0), EINVAL, "O_DIRECT: a length not a multiple of 512 is EINVAL");
	check_errno(pwrite(fd, a, 512, 100), EINVAL, "O_DIRECT: an offset not a multiple of 512 is EINVAL");
	check_errno(pread(fd, b + 8, 512, 0), EINVAL, "O_DIRECT: a buffer not 512-aligned is EINVAL");
	check(pread(fd, b, 0, 3) == 0, "O_DIRECT: a length of 0 moves nothing (0)");
	check(pread(fd, b, 1024, 1024) == 1024 && memcmp(b, a + 1024, 1024) == 0, "an aligned O_DIRECT read");
	check(pread(fd, b, 512, 8192) == 0, "an O_DIRECT read past the end: 0");
	int cfd = open(M "/direct.bin", O_RDWR);
	check(cfd >= 0 && pread(cfd, b, 4096, 0) == 4096 && memcmp(b, a, 4096) == 0,
	      "a cached descriptor reads what the direct write put on the disk");
	check(pwrite(cfd, "cached!", 7, 1536) == 7, "a write through the cached descriptor (a dirty page)");
	check(pread(fd, b, 512, 1536) == 512 && memcmp(b, "cached!", 7) == 0 && b[7] == a[1543],
	      "a direct read sees it: the cached pages went to the disk first");
	check(pwrite(fd, a + 4096, 512, 1536) == 512 && pread(cfd, b, 512, 1536) == 512 && memcmp(b, a + 4096, 512) == 0,
	      "the cached descriptor sees a later direct write: its pages got the bytes");
	check(pwrite(fd, a, 512, 4096) == 512 && lseek(cfd, 0, SEEK_END) == 4608,
	      "a direct write past the end grows the file for the cached descriptor too");
	close(cfd);
	check(fcntl(fd, F_SETFL, 0) == 0 && !(fcntl(fd, F_GETFL) & O_DIRECT) && pread(fd, b + 8, 100, 8) == 100 &&
	      memcmp(b + 8, a + 8, 100) == 0, "fcntl clears O_DIRECT: unaligned reads work again");
	check(fcntl(fd, F_SETFL, O_DIRECT) == 0 && fails((int)pread(fd, b + 8, 100, 8), EINVAL),
	      "fcntl sets it again: EINVAL");
	close(fd);
	free(a);
	free(b);
}

/* The pid of the driver of disk index ('0': /dev/vda), from its
 * /proc/PID/cmdline "drivers/virtio_blk\0<index>\0"; 0 if none. */
static pid_t disk_driver(char index)
{
	char path[64], cmd[64];
	for (pid_t pid = 1; pid < 4096; pid++) {
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
		long len = slurp(path, cmd, sizeof(cmd));
		if (len == 21 && memcmp(cmd, "drivers/virtio_blk", 19) == 0 && cmd[19] == index && !cmd[20])
			return pid;
	}
	return 0;
}

#define RESTART_FILES 12

/* /dev/vda's driver is killed twice while files are written and fsynced
 * one after the other: init starts it again, the server reconnects and
 * retries, every fsync succeeds; the host checks every file's bytes
 * (each was acknowledged) and e2fsck -fn after the umount. */
static void test_driver_restart(void)
{
	char name[64], text[64];
	pid_t drv = disk_driver('0');
	check(drv > 0, "the driver of /dev/vda is found in /proc");
	pid_t killer = fork();
	if (killer == 0) {
		for (int k = 0; k < 2; k++) {
			usleep(150000);
			pid_t d = 0;
			for (int i = 0; i < 300 && (d = disk_driver('0')) <= 0; i++)
				usleep(10000);
			if (d <= 0 || kill(d, SIGKILL))
				_exit(1);
		}
		_exit(0);
	}
	int ok = 1;
	for (int i = 0; i < RESTART_FILES; i++) {
		snprintf(name, sizeof(name), M "/restart%d.txt", i);
		snprintf(text, sizeof(text), "acknowledged %d\n", i);
		int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int wrote = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) && fsync(fd) == 0;
		if (!wrote)
			printf("# restart%d.txt: errno %d\n", i, errno);
		ok &= wrote;
		if (fd >= 0)
			close(fd);
		usleep(40000);
	}
	int st;
	check(killer > 0 && waitpid(killer, &st, 0) == killer && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the driver killed twice meanwhile (kill -9)");
	check(ok, "every write and fsync succeeded across the driver's restarts");
	pid_t now = disk_driver('0');
	check(now > 0 && now != drv && has_text(M "/restart0.txt", "acknowledged 0\n"),
	      "a new driver serves /dev/vda; the files read back");
}

/* /dev/vdb: the host pointed bad.txt's first block past the end, gave
 * a record in baddir a rec_len of 5 and made loopa's ".." name loopb, its
 * own child. /dev/vdd has its superblock's magic zeroed. */
static void test_corrupt(void)
{
	struct stat st;
	char buf[64];
	mkdir(BAD, 0755);
	check_errno(mount("/dev/vdd", BAD, "ext2", 0, ""), EINVAL, "a superblock with a bad magic number: EINVAL");
	check(mount("/dev/vdb", BAD, "ext2", 0, "") == 0, "mount the image with corrupted inodes");
	int fd = open(BAD "/bad.txt", O_RDONLY);
	check(fd < 0 ? errno == EIO : read(fd, buf, sizeof(buf)) == -1 && errno == EIO,
	      "a block number past the end: EIO");
	if (fd >= 0)
		close(fd);
	check(has_text(BAD "/good.txt", "good\n") && stat(BAD "/good.txt", &st) == 0,
	      "the server goes on: the other files read");
	DIR *d = opendir(BAD "/baddir");
	int eio = d ? 0 : errno == EIO;
	if (d) {
		errno = 0;
		while (readdir(d))
			;
		eio = errno == EIO;
		closedir(d);
	}
	check(eio, "a directory entry with a bad rec_len: listing the directory is EIO");
	check_errno(open(BAD "/baddir/x", O_RDONLY), EIO, "and a lookup in it is EIO");
	check_errno(rename(BAD "/mvdir", BAD "/loopa/loopb/mvdir"), EIO,
		    "moving a directory into a loop in the tree: EIO (the walk up ends), no hang");
	check(stat(BAD "/mvdir", &st) == 0 && S_ISDIR(st.st_mode) && has_text(BAD "/good.txt", "good\n"),
	      "the directory stayed; the server goes on");
	check(umount(BAD) == 0, "umount it");
}

/* A program on ext2 runs from the page cache (mapped, not copied): while
 * it runs, truncate and open(O_WRONLY|O_TRUNC) are ETXTBSY and the file
 * on the disk stays whole (the server asks the cache before it changes
 * the inode). Nobody holds the file open meanwhile and the mount keeps
 * one closed file (keep=1) which another file's close then wants: the
 * server keeps a running program's object past its bound (before, it
 * freed the object at the last close and the truncation went through). */
static void test_running_program(void)
{
	static char buf[64 * 1024];
	struct stat st;
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "keep=1") == 0, "mount again with keep=1");
	int in = open("/posix/bigtext", O_RDONLY), out = open(M "/bt", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t r = 0;
	while (in >= 0 && out >= 0 && (r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r)
			r = -1;
	close(in);
	check(r == 0 && fsync(out) == 0 && close(out) == 0 && stat(M "/bt", &st) == 0 && st.st_size > 1000000,
	      "a 1 MiB program copied onto ext2 (and written back)");
	int to[2], from[2], keep = open(M "/bt", O_RDONLY);
	char line[8] = "";
	if (keep < 0 || pipe(to) || pipe(from))
		return;
	pid_t p = fork();
	if (p == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		execl(M "/bt", "bt", (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	check(read(from[0], line, 6) == 6 && !memcmp(line, "ready\n", 6), "it runs from ext2");
	char iost[512];
	unsigned long long w0 = io_stat_field("/sys/fs/cgroup", "wbytes=");
	int synced = fsync(keep);
	unsigned long long w1 = io_stat_field("/sys/fs/cgroup", "wbytes=");
	printf("# fsync of the running program wrote %llu bytes\n", w1 - w0);
	check(slurp("/sys/fs/cgroup/io.stat", iost, sizeof(iost)) > 0 && synced == 0 && w1 - w0 < 256 * 1024,
	      "fsync of it writes none of its 1 MiB back (mapped private: unchanged)");
	int other = open(M "/bt2", O_CREAT | O_RDWR, 0644);
	check(close(keep) == 0 && other >= 0 && write(other, "x", 1) == 1 && close(other) == 0 && unlink(M "/bt2") == 0,
	      "its descriptor closed, another file opened and closed (the inode cache holds one)");
	keep = -1;
	struct stat st2;
	check_errno(truncate(M "/bt", 0), ETXTBSY, "truncate of the running program on ext2: ETXTBSY");
	int w = open(M "/bt", O_WRONLY | O_TRUNC);
	check_errno(w, ETXTBSY, "open(O_WRONLY|O_TRUNC) of it: ETXTBSY");
	if (w >= 0)
		close(w);
	check(stat(M "/bt", &st2) == 0 && st2.st_size == st.st_size, "and the file keeps its size");
	close(to[1]);
	close(from[0]);
	check(wait_bounded(p, 30) == 0, "the program reads its whole blob again and exits 0");
	static char orig[64 * 1024];
	int same = umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0 && stat(M "/bt", &st2) == 0 &&
		   st2.st_size == st.st_size;
	in = open("/posix/bigtext", O_RDONLY);
	out = open(M "/bt", O_RDONLY);
	ssize_t a = 1;
	while (same && a > 0) {
		a = read(in, orig, sizeof(orig));
		same = a >= 0 && read(out, buf, sizeof(buf)) == a && !memcmp(orig, buf, (size_t)a);
	}
	close(in);
	close(out);
	check(same, "after umount and mount the file on the disk is whole, byte for byte");
	check(truncate(M "/bt", 0) == 0 && unlink(M "/bt") == 0, "once it is gone truncate works");
}

/* ---- the inode cache: a closed file's object and pages kept ---- */

#define IC_CG CGR "/e2ic"
#define IC_LEN (256u * 1024)

static unsigned char ic_byte(size_t i)
{
	return (unsigned char)((i * 13 + i / 1021) & 0xff);
}

/* A file of IC_LEN pattern bytes, synced. */
static int ic_make(const char *path)
{
	static unsigned char b[IC_LEN];
	for (size_t i = 0; i < IC_LEN; i++)
		b[i] = ic_byte(i);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	int ok = fd >= 0 && write(fd, b, IC_LEN) == (ssize_t)IC_LEN && fsync(fd) == 0;
	return (fd < 0 || close(fd) == 0) && ok;
}

/* Opens, reads the whole file checking every byte, closes (a job for
 * timed_in_cgroup: the reader's cgroup pays). */
static int ic_read(void *arg)
{
	static unsigned char b[IC_LEN + 1];
	int fd = open((const char *)arg, O_RDONLY);
	ssize_t got = 0, r;
	while (fd >= 0 && (r = read(fd, b + got, sizeof(b) - (size_t)got)) > 0)
		got += r;
	int ok = fd >= 0 && close(fd) == 0 && got == (ssize_t)IC_LEN;
	for (size_t i = 0; ok && i < IC_LEN; i++)
		ok = b[i] == ic_byte(i);
	return ok;
}

static long ic_number(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

/* The disk bytes a read of path in IC_CG did (-1 if it failed or a byte
 * was wrong). */
static long long ic_read_io(const char *path)
{
	unsigned long long r0 = io_rbytes(IC_CG);
	if (timed_in_cgroup(IC_CG, ic_read, (void *)path) < 0)
		return -1;
	return (long long)(io_rbytes(IC_CG) - r0);
}

/* Linux keeps a closed inode's pages: a re-open reads none of them from
 * the disk again. Before, the server freed the object at each last
 * close, and every re-read was a disk read. */
static void test_inode_cache(void)
{
	check(put(CGR "/cgroup.subtree_control", "+io +memory") == 0 && mkdir(IC_CG, 0755) == 0,
	      "inode cache: cgroup e2ic with the io and memory controllers");
	check(ic_make(M "/ic0.bin") && cold(), "inode cache: a 256 KiB file written, the mount made cold");
	long mem0 = ic_number(IC_CG "/memory.current");
	long long cold_io = ic_read_io(M "/ic0.bin"), warm_io = ic_read_io(M "/ic0.bin");
	printf("# disk bytes: a cold read %lld, the re-read after the close %lld\n", cold_io, warm_io);
	check(cold_io >= (long long)IC_LEN, "inode cache: the first read (open, read, close) comes from the disk");
	check(warm_io == 0, "inode cache: the re-read after the last close: from memory, io.stat rbytes unchanged");
	check(flat_field(IC_CG "/memory.stat", "file") >= (long)IC_LEN,
	      "inode cache: the closed file's pages stay charged to the reader's cgroup");
	/* reclaim takes them; read again, they come from the disk, right */
	check(put(IC_CG "/memory.reclaim", "256K") == 0 && flat_field(IC_CG "/memory.stat", "file") == 0,
	      "inode cache: memory.reclaim takes the closed file's pages");
	long long again = ic_read_io(M "/ic0.bin");
	check(again >= (long long)IC_LEN, "inode cache: read again after: every byte right, from the disk");
	/* memory.current includes what this CPU's charge stock holds for the
	 * cgroup (as Linux's): up to two batches of 32 pages either way */
	check(unlink(M "/ic0.bin") == 0 && flat_field(IC_CG "/memory.stat", "file") == 0 &&
	      labs(ic_number(IC_CG "/memory.current") - mem0) <= 64 * 4096,
	      "inode cache: unlink of the closed cached file frees its pages (memory.current back at its start, but for a charge stock)");
	/* the bound: keep=2 keeps the two most recently closed */
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "keep=2") == 0, "inode cache: mount with keep=2");
	check_errno(mount("/dev/vda", "/tmp/e2x", "ext2", 0, "keep=x"), EINVAL, "inode cache: keep=x: EINVAL");
	check(ic_make(M "/ic1.bin") && ic_make(M "/ic2.bin") && ic_make(M "/ic3.bin") && cold() &&
	      umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "keep=2") == 0,
	      "inode cache: three files, made cold");
	long long r1 = ic_read_io(M "/ic1.bin"), r2 = ic_read_io(M "/ic2.bin"), r3 = ic_read_io(M "/ic3.bin");
	long long w3 = ic_read_io(M "/ic3.bin"), w2 = ic_read_io(M "/ic2.bin"), w1 = ic_read_io(M "/ic1.bin");
	printf("# keep=2: cold %lld %lld %lld, again (3, 2, 1) %lld %lld %lld\n", r1, r2, r3, w3, w2, w1);
	check(r1 >= (long long)IC_LEN && r2 >= (long long)IC_LEN && r3 >= (long long)IC_LEN,
	      "inode cache: the three read cold");
	check(w3 == 0 && w2 == 0, "inode cache: the last two closed are kept: read again from memory");
	check(w1 >= (long long)IC_LEN, "inode cache: the third, past the bound, was dropped: read from the disk");
	check(unlink(M "/ic1.bin") == 0 && unlink(M "/ic2.bin") == 0 && unlink(M "/ic3.bin") == 0 && cold(),
	      "inode cache: unlinked, default mount again");
	/* a store through a shared mapping after the last close is written
	 * back (the object stays in the server's table; before, it had left
	 * and the store was lost) */
	int fd = open(M "/icmap.bin", O_CREAT | O_TRUNC | O_RDWR, 0644);
	char *m = fd >= 0 && ftruncate(fd, 4096) == 0 ? mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
						     : MAP_FAILED;
	check(m != MAP_FAILED && close(fd) == 0, "inode cache: a file mapped shared, its descriptor closed");
	if (m != MAP_FAILED) {
		memcpy(m + 100, "stored after the close", 22);
		sync();
		munmap(m, 4096);
	}
	char got[32] = "";
	fd = cold() ? open(M "/icmap.bin", O_RDONLY) : -1;
	check(fd >= 0 && pread(fd, got, 22, 100) == 22 && !memcmp(got, "stored after the close", 22),
	      "inode cache: the store through the mapping after the last close reached the disk (sync)");
	if (fd >= 0)
		close(fd);
	check(unlink(M "/icmap.bin") == 0 && rmdir(IC_CG) == 0 &&
	      put(CGR "/cgroup.subtree_control", "-io -memory") == 0, "inode cache: cleaned up");
}

#define FULL "/mnt/e2full"

static unsigned char full_byte(size_t i)
{
	return (unsigned char)((i * 17 + 3) & 0xff);
}

/* Writes full_byte's pattern to a new file path in 8 KiB writes until one
 * fails: the bytes written (what the writes returned), *err its errno. */
static long fill_file(const char *path, int *err)
{
	static unsigned char buf[8192];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long total = 0;
	*err = fd < 0 ? errno : 0;
	while (fd >= 0 && total < (8 << 20)) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = full_byte((size_t)total + i);
		ssize_t w = write(fd, buf, sizeof(buf));
		if (w < 0) {
			*err = errno;
			break;
		}
		total += w; /* a short write: the next one says why */
	}
	if (fd >= 0)
		close(fd);
	return total;
}

/* path holds exactly len bytes of full_byte's pattern. */
static int full_intact(const char *path, long len)
{
	static unsigned char buf[8192];
	int fd = open(path, O_RDONLY);
	long at = 0;
	ssize_t r;
	int same = fd >= 0;
	while (same && (r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; same && i < r; i++)
			same = buf[i] == full_byte((size_t)(at + i));
		at += r;
	}
	if (fd >= 0)
		close(fd);
	return same && at == len;
}

/* Fills path through the page cache (a normal mount: kernel-served
 * writes) until write() fails; *err its errno, *fs what fsync returned
 * then (0 or an errno), *again the errno of one more write (-1 if it
 * did not fail). Returns the bytes written. */
static long fill_pc(const char *path, int *err, int *fs, int *again)
{
	static unsigned char buf[8192];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long total = 0;
	*err = fd < 0 ? errno : 0;
	*fs = *again = -1;
	while (fd >= 0 && total < (8 << 20)) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = full_byte((size_t)total + i);
		ssize_t w = write(fd, buf, sizeof(buf));
		if (w < 0) {
			*err = errno;
			break;
		}
		total += w;
	}
	if (fd >= 0) {
		*fs = fsync(fd) == 0 ? 0 : errno;
		*again = write(fd, buf, sizeof(buf)) < 0 ? errno : -1;
		close(fd);
	}
	return total;
}

/* /dev/vdc, 2 MiB with 1 KiB blocks (5% reserved for root), filled
 * through the server (cache_max=0: write() itself allocates): uid 1000
 * stops where only root's blocks are left, root goes on to the end; both
 * get ENOSPC with their files intact; the host's e2fsck -fn is clean. */
static void test_full(void)
{
	struct statfs sf;
	int err = 0, p[2], st;
	long ut = -1, rt;
	mkdir(FULL, 0755);
	check(mount("/dev/vdc", FULL, "ext2", 0, "cache_max=0") == 0, "mount a 2 MiB disk (cache_max=0)");
	check(mkdir(FULL "/pub", 0777) == 0 && chmod(FULL "/pub", 0777) == 0, "a directory uid 1000 may write");
	check(pipe(p) == 0, "pipe");
	pid_t pid = fork();
	if (pid == 0) {
		struct statfs usf;
		int ok = setgid(1000) == 0 && setuid(1000) == 0;
		long t = ok ? fill_file(FULL "/pub/user.bin", &err) : -1;
		ok = ok && err == ENOSPC && t > 0 && statfs(FULL, &usf) == 0 && usf.f_bavail == 0 && usf.f_bfree > 0 &&
		     full_intact(FULL "/pub/user.bin", t);
		if (!ok)
			printf("# uid 1000: %ld bytes, errno %d, bfree %ld bavail %ld\n", t, err, (long)usf.f_bfree,
			       (long)usf.f_bavail);
		(void)!write(p[1], &t, sizeof(t));
		_exit(ok ? 0 : 1);
	}
	check(pid > 0 && read(p[0], &ut, sizeof(ut)) == sizeof(ut) && waitpid(pid, &st, 0) == pid &&
	      WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "uid 1000 fills the disk: ENOSPC while root's reserved blocks are free (bavail 0, bfree > 0), its file intact");
	close(p[0]);
	close(p[1]);
	rt = fill_file(FULL "/root.bin", &err);
	check(err == ENOSPC && rt > 0 && statfs(FULL, &sf) == 0 && sf.f_bfree == 0 && sf.f_bavail == 0,
	      "root writes on into the reserved blocks, then ENOSPC; statfs (df) shows it full");
	check_errno(mkdir(FULL "/more", 0755), ENOSPC, "mkdir on the full disk: ENOSPC");
	check(full_intact(FULL "/root.bin", rt), "root's file reads back exactly what the writes returned");
	check(umount(FULL) == 0 && mount("/dev/vdc", FULL, "ext2", 0, "") == 0, "umount, mount again");
	check(full_intact(FULL "/pub/user.bin", ut) && full_intact(FULL "/root.bin", rt),
	      "both files read back from the disk, exact to the last byte written");
	/* through the page cache (a normal mount): the kernel's writes take
	 * block reservations, so write() itself says ENOSPC (docs/fs.md,
	 * "Reservations"); user.bin's blocks are freed first */
	long upc = -1, rpc;
	int fse, again;
	check(unlink(FULL "/pub/user.bin") == 0, "unlink uid 1000's file: its blocks free again");
	check(pipe(p) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		struct statfs usf = { 0 };
		int ok = setgid(1000) == 0 && setuid(1000) == 0;
		long t = ok ? fill_pc(FULL "/pub/upc.bin", &err, &fse, &again) : -1;
		ok = ok && err == ENOSPC && t > 0 && fse == 0 && again == ENOSPC && statfs(FULL, &usf) == 0 &&
		     (long)(usf.f_bavail * usf.f_bsize) < 4096 + 3 * (long)usf.f_bsize && usf.f_bfree > 100 &&
		     full_intact(FULL "/pub/upc.bin", t);
		if (!ok)
			printf("# uid 1000 (page cache): %ld bytes, errno %d, fsync %d, again %d, bfree %ld bavail %ld\n", t,
			       err, fse, again, (long)usf.f_bfree, (long)usf.f_bavail);
		(void)!write(p[1], &t, sizeof(t));
		_exit(ok ? 0 : 1);
	}
	check(pid > 0 && read(p[0], &upc, sizeof(upc)) == sizeof(upc) && waitpid(pid, &st, 0) == pid &&
	      WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "uid 1000 fills the disk through the page cache: write() is ENOSPC (short first) with less than a page "
	      "of its blocks left, root's reserved blocks free, fsync 0, the file intact");
	close(p[0]);
	close(p[1]);
	rpc = fill_pc(FULL "/rpc.bin", &err, &fse, &again);
	check(err == ENOSPC && rpc > 0 && fse == 0 && again == ENOSPC && statfs(FULL, &sf) == 0 &&
	      (long)(sf.f_bfree * sf.f_bsize) < 4096 + 3 * (long)sf.f_bsize,
	      "root fills the rest through the page cache: write() ENOSPC with less than a page left, fsync 0");
	if (!(err == ENOSPC && fse == 0))
		printf("# root (page cache): %ld bytes, errno %d, fsync %d, again %d, bfree %ld\n", rpc, err, fse, again,
		       (long)sf.f_bfree);
	check(full_intact(FULL "/rpc.bin", rpc), "root's file reads back exactly what write() returned");
	/* a shared writable mapping of a hole on the full disk: its page
	 * takes a reservation at the fault, none is left: SIGBUS (Linux's
	 * page_mkwrite ENOSPC), and nothing is left to fail at fsync */
	int mfd = open(FULL "/map.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(mfd >= 0 && ftruncate(mfd, 65536) == 0, "a 64 KiB hole on the full disk");
	pid = fork();
	if (pid == 0) {
		char *mp = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
		if (mp == MAP_FAILED)
			_exit(2);
		mp[40000] = 'x';
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS,
	      "a store through a shared mapping into it: SIGBUS (no block can be reserved)");
	check(mfd >= 0 && fsync(mfd) == 0 && close(mfd) == 0 && unlink(FULL "/map.bin") == 0,
	      "its fsync has nothing to fail: 0");
	check(umount(FULL) == 0 && mount("/dev/vdc", FULL, "ext2", 0, "") == 0, "umount, mount again");
	check(full_intact(FULL "/pub/upc.bin", upc) && full_intact(FULL "/rpc.bin", rpc) &&
	      full_intact(FULL "/root.bin", rt), "the page cache's files read back from the disk, exact to the last byte written");
	printf("# full: root.bin=%ld pub/upc.bin=%ld rpc.bin=%ld\n", rt, upc, rpc);
	check(umount(FULL) == 0, "umount the full disk");
}

/* The pager (docs/fs.md "File data: the page cache and the pager"): files
 * are not read at open but page by page as clients want them, asked of
 * the server while the reader sleeps. */
#define PG_CG "/sys/fs/cgroup/e2pager"
#define PG_LEN (3 << 20)

static unsigned char pg_byte(size_t i)
{
	return (unsigned char)((i * 11 + i / 4093) & 0xff);
}

/* In cgroup PG_CG: reads [off, off+len) of path and checks the bytes
 * (marker: one byte at off, else pg_byte); exit 0 if right, 10+errno. */
static pid_t pg_reader(const char *path, off_t off, size_t len, int marker)
{
	pid_t p = fork();
	if (p == 0) {
		static unsigned char b[PG_LEN];
		if (put(PG_CG "/cgroup.procs", "0"))
			_exit(2);
		int fd = open(path, O_RDONLY);
		ssize_t r = fd < 0 ? -1 : pread(fd, b, len, off);
		if (r < 0)
			_exit(10 + errno);
		if ((size_t)r != len)
			_exit(3);
		for (size_t i = 0; i < len; i++)
			if (b[i] != (marker >= 0 ? (unsigned char)marker : pg_byte((size_t)off + i)))
				_exit(4);
		_exit(0);
	}
	return p;
}

static void test_pager(void)
{
	static unsigned char buf[PG_LEN];
	for (size_t i = 0; i < PG_LEN; i++)
		buf[i] = pg_byte(i);
	int fd = open(M "/pg.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, buf, PG_LEN) == PG_LEN && close(fd) == 0, "pager: a 3 MiB file, closed (written back)");
	fd = open(M "/huge.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && ftruncate(fd, 1L << 30) == 0 && pwrite(fd, "M", 1, 512L << 20) == 1 && close(fd) == 0,
	      "pager: a sparse 1 GiB file with one byte at 512 MiB");
	check(mkdir(PG_CG, 0755) == 0 && put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0,
	      "pager: a cgroup for the readers");
	/* the open reads nothing; a read in the middle brings in one window */
	pid_t c = fork();
	if (c == 0) {
		char b[2];
		struct stat st;
		if (put(PG_CG "/cgroup.procs", "0"))
			_exit(2);
		int f = open(M "/huge.bin", O_RDONLY);
		long before = flat_field(PG_CG "/memory.stat", "file");
		int ok = f >= 0 && fstat(f, &st) == 0 && st.st_size == 1L << 30 && before == 0;
		ok = ok && pread(f, b, 2, (512L << 20) - 1) == 2 && b[0] == 0 && b[1] == 'M';
		long after = flat_field(PG_CG "/memory.stat", "file");
		if (!ok || after < 4096 || after > 64 * 4096)
			printf("# before %ld after %ld\n", before, after);
		_exit(ok && after >= 4096 && after <= 64 * 4096 ? 0 : 1);
	}
	check(wait_bounded(c, 30) == 0,
	      "pager: opening a 1 GiB file reads nothing; a read at 512 MiB brings in at most a 64-page window");
	check(wait_bounded(pg_reader(M "/pg.bin", 0, PG_LEN, -1), 60) == 0,
	      "pager: the 3 MiB file read whole, page by page from the disk");
	/* a stopped server stalls only the readers that need it */
	pid_t srv = process_pid("ext2", NULL);
	int hold = open(M "/pg.bin", O_RDONLY);
	char one;
	check(srv > 0 && hold >= 0 && pread(hold, &one, 1, 0) == 1 && kill(srv, SIGSTOP) == 0,
	      "pager: the ext2 server stopped (SIGSTOP) with the file open");
	pid_t cached = pg_reader(M "/pg.bin", 0, 4096, -1);
	c = pg_reader(M "/pg.bin", 2 << 20, 8192, -1);
	pid_t k = pg_reader(M "/pg.bin", 1 << 20, 100, -1);
	int cst = -1;
	(void)cached;
	int waiting = wait_bounded(c, 0.3) < 0;
	double t = now_s();
	kill(k, SIGKILL);
	int kst = wait_bounded(k, 3);
	printf("# a reader killed while the server was stopped: gone after %.3f s\n", now_s() - t);
	kill(srv, SIGCONT);
	cst = wait_bounded(c, 30);
	check(waiting && cst == 0, "pager: a read needing the stopped server waits, and completes after SIGCONT");
	check(kst == 128 + SIGKILL, "pager: a reader killed while it waits for the stopped server is gone in < 3 s");
	check(wait_bounded(cached, 30) == 0, "pager: a reader of a page in memory is served meanwhile");
	close(hold);
	/* a file larger than the reader's memory.max opens and reads */
	check(put(PG_CG "/memory.max", "2M") == 0, "pager: the readers' memory.max 2M");
	c = fork();
	if (c == 0) {
		unsigned char b[16384]; /* the reader's own memory stays small */
		if (put(PG_CG "/cgroup.procs", "0"))
			_exit(2);
		int f = open(M "/pg.bin", O_RDONLY);
		if (f < 0)
			_exit(3); /* before the pager: ENOMEM at open */
		/* the first 1 MiB fits; the rest whole with reclaim, and
		 * without it ENOMEM once the file's pages reach the limit */
		for (off_t off = 0; off < PG_LEN;) {
			ssize_t r = pread(f, b, sizeof(b), off);
			if (r < 0)
				_exit(off >= (1 << 20) && errno == ENOMEM ? 0 : 10 + errno);
			if (r == 0)
				_exit(4);
			for (size_t i = 0; i < (size_t)r; i++) /* a short read before the error: right too */
				if (b[i] != pg_byte((size_t)off + i))
					_exit(5);
			off += r;
		}
		_exit(0);
	}
	int st = wait_bounded(c, 60);
	if (st)
		printf("# the reader under memory.max: %d\n", st);
	check(st == 0, "pager: a 3 MiB file opens and reads under memory.max 2M (its first 1 MiB right, then ENOMEM or all)");
	check(put(PG_CG "/memory.max", "max") == 0 && rmdir(PG_CG) == 0 && unlink(M "/pg.bin") == 0 &&
	      unlink(M "/huge.bin") == 0, "pager: cleaned up");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
}


/* ---- ext2's names in the kernel's name cache (docs/fs.md, "Names in
 * the kernel") ---- */

#define NC M "/nc"
extern int __arbor_ncache_bypass; /* user/libc/direct.c */

/* One question about p, as bytes: the return, errno and struct stat;
 * bypass: asked of the server (the library skips the kernel's cache). */
struct nc_answer {
	int r, e;
	struct stat st;
};

static struct nc_answer nc_ask(const char *p, int kind, bool bypass)
{
	struct nc_answer a;
	int fd = -1;
	memset(&a, 0, sizeof(a));
	__arbor_ncache_bypass = bypass;
	errno = 0;
	switch (kind) {
	case 0: a.r = stat(p, &a.st); break;
	case 1: a.r = lstat(p, &a.st); break;
	case 2: a.r = fstatat(AT_FDCWD, p, &a.st, AT_SYMLINK_NOFOLLOW); break;
	case 3: a.r = access(p, R_OK | X_OK); break;
	case 4: a.r = access(p, W_OK); break;
	case 5: a.r = faccessat(AT_FDCWD, p, F_OK, AT_EACCESS); break;
	case 6: a.r = fd = open(p, O_RDONLY); break;
	default: a.r = fd = open(p, O_WRONLY | O_APPEND); break;
	}
	a.e = a.r < 0 ? errno : 0;
	if (fd >= 0) {
		close(fd);
		a.r = 0;
	}
	__arbor_ncache_bypass = 0;
	return a;
}

/* Every kind of question about p asked twice through the cache (the
 * first may fill it) and once of the server: the same answers. */
static bool nc_coherent(const char *p)
{
	for (int kind = 0; kind < 8; kind++) {
		nc_ask(p, kind, false);
		struct nc_answer c = nc_ask(p, kind, false), s = nc_ask(p, kind, true);
		if (c.r != s.r || c.e != s.e || memcmp(&c.st, &s.st, sizeof(c.st)) != 0) {
			printf("# uid %d %s kind %d: cache %d/%d ino %lu mode %o size %ld nlink %lu blocks %ld "
			       "m %ld.%09ld c %ld.%09ld, server %d/%d ino %lu mode %o size %ld nlink %lu blocks %ld "
			       "m %ld.%09ld c %ld.%09ld\n",
			       (int)getuid(), p, kind, c.r, c.e, (unsigned long)c.st.st_ino, c.st.st_mode,
			       (long)c.st.st_size, (unsigned long)c.st.st_nlink, (long)c.st.st_blocks,
			       (long)c.st.st_mtim.tv_sec, c.st.st_mtim.tv_nsec, (long)c.st.st_ctim.tv_sec,
			       c.st.st_ctim.tv_nsec, s.r, s.e, (unsigned long)s.st.st_ino, s.st.st_mode,
			       (long)s.st.st_size, (unsigned long)s.st.st_nlink, (long)s.st.st_blocks,
			       (long)s.st.st_mtim.tv_sec, s.st.st_mtim.tv_nsec, (long)s.st.st_ctim.tv_sec,
			       s.st.st_ctim.tv_nsec);
			return false;
		}
	}
	return true;
}

static const char *const nc_watched[] = {
	NC, NC "/", NC "/f", NC "/d", NC "/d/g", NC "/d/g/", NC "/f/", NC "/f/x", NC "/none", NC "/none/x",
	NC "/d/none", NC "/d/g/h", NC "/priv", NC "/priv/f", NC "/grp", NC "/grp/f", NC "/l", NC "/l/g",
	NC "/ren", NC "/ren2", NC "/hard", NC "/mine", NC "/big", NC "/d/../f", NULL
};

static bool nc_all_coherent(void)
{
	bool ok = true;
	for (int i = 0; nc_watched[i]; i++)
		ok &= nc_coherent(nc_watched[i]);
	return ok;
}

/* As root and as uid 1000 (gid 1000, a child): the cached and the
 * server's answers agree. */
static bool nc_both(void)
{
	if (!nc_all_coherent())
		return false;
	pid_t p = fork();
	if (p == 0)
		_exit(setgid(1000) || setuid(1000) || !nc_all_coherent());
	return wait_bounded(p, 60) == 0;
}

/* With the ext2 server stopped, the names asked before are answered by
 * the kernel (a child that asks finishes), uid 1000's EACCES included; a
 * name never asked waits for the server. */
static void nc_no_round_trip(void)
{
	struct stat st;
	pid_t srv = process_pid("ext2", NULL);
	check(nc_both() && srv > 0 && kill(srv, SIGSTOP) == 0,
	      "names: the cache filled by a first round, the ext2 server stopped (SIGSTOP)");
	pid_t c = fork();
	if (c == 0) {
		int bad = stat(NC "/f", &st) != 0 || st.st_size != 5 || !S_ISREG(st.st_mode) || st.st_blocks != 2;
		bad |= (lstat(NC "/d/g", &st) != 0 || !S_ISDIR(st.st_mode) || st.st_size != 1024) << 1;
		bad |= (access(NC "/f", R_OK | W_OK) != 0) << 2;
		bad |= (faccessat(AT_FDCWD, NC "/d", X_OK, AT_EACCESS) != 0) << 3;
		bad |= !fails(stat(NC "/none", &st), ENOENT) << 4;
		bad |= !fails(stat(NC "/none/x", &st), ENOENT) << 5;
		bad |= !fails(stat(NC "/f/x", &st), ENOTDIR) << 6;
		bad |= !fails(stat(NC "/f/", &st), ENOTDIR) << 7;
		bad |= !fails(open(NC "/d/none", O_RDONLY), ENOENT) << 8;
		for (int i = 0; i < 40; i++) { /* a walk's lstat of every entry */
			char p[64];
			snprintf(p, sizeof(p), NC "/w/%02d", i);
			bad |= (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) << 9;
		}
		bad |= (setgid(1000) || setuid(1000)) << 10;
		bad |= !fails(stat(NC "/priv/f", &st), EACCES) << 11;
		bad |= !fails(access(NC "/f", W_OK), EACCES) << 12;
		bad |= !fails(stat(NC "/grp/f", &st), EACCES) << 13; /* the group class applies: no x */
		bad |= !fails(open(NC "/f", O_WRONLY), EACCES) << 14;
		bad |= (access(NC "/f", R_OK) != 0) << 15;
		_exit(bad ? 100 + __builtin_ctz((unsigned)bad) : 0);
	}
	pid_t s = fork();
	if (s == 0)
		_exit(stat(NC "/never-asked", &st) == 0 || errno != ENOENT);
	int cst = wait_bounded(c, 20);
	int sst = wait_bounded(s, 0.3); /* still waiting for the server */
	kill(srv, SIGCONT);
	if (sst < 0)
		sst = wait_bounded(s, 20);
	if (cst != 0)
		printf("# names child: %d\n", cst);
	if (cst < 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
	check(cst == 0, "names: stat, lstat, access, open's ENOENT, a walk's lstats, ENOTDIR and uid 1000's "
			"EACCES answered by the kernel with the ext2 server stopped");
	check(sst == 0, "names: a name never asked waited for the server");
}

/* The names in a directory a listing gives (readdir), less "." and "..". */
static int list_names(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* A child lstats NC/many/000..299 (each a regular file of 0 bytes): its
 * exit status within `wait` seconds with the ext2 server stopped, -1 if
 * it was still waiting for the server (it is let go then). */
static int many_lstats_stopped(pid_t srv, double wait)
{
	kill(srv, SIGSTOP);
	pid_t c = fork();
	if (c == 0) {
		struct stat st;
		char p[64];
		int bad = 0;
		for (int i = 0; i < 300; i++) {
			snprintf(p, sizeof(p), NC "/many/%03d", i);
			int r = lstat(p, &st);
			if (r != 0 || !S_ISREG(st.st_mode) || st.st_size != 0) {
				if (!bad++)
					printf("# %s: %d errno %d mode %o size %lld\n", p, r, errno, (unsigned)st.st_mode,
					       (long long)st.st_size);
			}
		}
		_exit(bad ? 1 : 0);
	}
	int st = wait_bounded(c, wait);
	kill(srv, SIGCONT);
	printf("# 300 lstats with the server stopped: %s\n", st < 0 ? "still waiting" : st ? "wrong" : "done");
	if (st < 0)
		wait_bounded(c, 20);
	return st;
}

/* Listings into the name cache (docs/fs.md): once a walk has looked up the
 * names of a directory it listed (find, ls -l), a listing names its
 * entries in the kernel itself, so the lstats that follow it are the
 * kernel's; a plain listing on a fresh mount does not. */
static void nc_listings(void)
{
	struct stat st;
	char p[64];
	pid_t srv = process_pid("ext2", NULL);
	/* the walk to the directory is the kernel's from its first lstat on */
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0 && lstat(NC "/many", &st) == 0 &&
	      list_names(NC "/many") == 300, "listings: a fresh mount, 300 names listed");
	check(srv > 0 && many_lstats_stopped(srv, 0.5) < 0,
	      "listings: a plain listing names nothing in the kernel: their lstats wait for the server");
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0 && list_names(NC "/w") == 40,
	      "listings: a fresh mount, a directory of 40 listed");
	int seen = 0;
	for (int i = 0; i < 40; i++) {
		snprintf(p, sizeof(p), NC "/w/%02d", i);
		seen += lstat(p, &st) == 0;
	}
	check(seen == 40 && lstat(NC "/many", &st) == 0 && list_names(NC "/many") == 300,
	      "listings: its names looked up, then 300 names listed");
	check(many_lstats_stopped(srv, 20) == 0,
	      "listings: after a walk's lookups, a listing names its entries in the kernel: 300 lstats answered with "
	      "the server stopped");
	check(unlink(NC "/many/007") == 0 && fails(lstat(NC "/many/007", &st), ENOENT) && put_new(NC "/many/007", "") == 0 &&
	      lstat(NC "/many/007", &st) == 0 && nc_all_coherent(), "listings: an unlink and a creation after it are seen");
}

static void test_ncache(void)
{
	struct stat st;
	char p[64];
	int fd;
	check(mkdir(NC, 0755) == 0 && mkdir(NC "/d", 0755) == 0 && mkdir(NC "/d/g", 0755) == 0 &&
	      put_new(NC "/f", "hello") == 0 && chmod(NC "/f", 0644) == 0 && mkdir(NC "/priv", 0700) == 0 &&
	      put_new(NC "/priv/f", "p") == 0 && mkdir(NC "/grp", 0705) == 0 && chown(NC "/grp", 0, 1000) == 0 &&
	      put_new(NC "/grp/f", "g") == 0 && symlink("d", NC "/l") == 0 && mkdir(NC "/w", 0755) == 0,
	      "names: a tree (a private directory, one whose group class has no x, a link)");
	int made = 0, seen = 0;
	for (int i = 0; i < 40; i++) {
		snprintf(p, sizeof(p), NC "/w/%02d", i);
		made += put_new(p, "w") == 0;
	}
	for (int i = 0; i < 40; i++) { /* after the creations, which drop the directory's names */
		snprintf(p, sizeof(p), NC "/w/%02d", i);
		seen += lstat(p, &st) == 0;
	}
	check(made == 40 && seen == 40, "names: a directory of 40 files made and walked");
	nc_no_round_trip();
	check(unlink(NC "/f") == 0 && nc_all_coherent() && fails(stat(NC "/f", &st), ENOENT), "names: unlink");
	check(put_new(NC "/f", "hello") == 0 && nc_all_coherent() && stat(NC "/f", &st) == 0, "names: create");
	check(put_new(NC "/ren", "r") == 0 && nc_all_coherent() && rename(NC "/ren", NC "/ren2") == 0 &&
	      nc_all_coherent() && fails(stat(NC "/ren", &st), ENOENT) && stat(NC "/ren2", &st) == 0,
	      "names: rename, both names");
	check(rename(NC "/f", NC "/ren2") == 0 && nc_all_coherent() && put_new(NC "/f", "hello") == 0 &&
	      nc_all_coherent(), "names: rename over a cached name");
	check(rename(NC "/d", NC "/priv/d2") == 0 && nc_all_coherent() && rename(NC "/priv/d2", NC "/d") == 0 &&
	      nc_all_coherent(), "names: a directory renamed into another and back");
	check(rmdir(NC "/d/g") == 0 && nc_all_coherent() && mkdir(NC "/d/g", 0750) == 0 && nc_all_coherent(),
	      "names: rmdir, mkdir");
	check(nc_both(), "names: as root and as uid 1000");
	check(chmod(NC "/d", 0700) == 0 && nc_both(), "names: chmod of a directory: uid 1000 loses search permission");
	check(chmod(NC "/d", 0755) == 0 && chmod(NC "/priv", 0711) == 0 && nc_both(),
	      "names: chmod: uid 1000 gains it back, and in the private directory");
	check(chown(NC "/grp", 0, 0) == 0 && nc_both() && chown(NC "/grp", 0, 1000) == 0 && nc_both(),
	      "names: chown of a directory: the class that applies changes");
	check(chown(NC "/f", 1000, 1000) == 0 && nc_both() && chmod(NC "/f", 0600) == 0 && nc_both(),
	      "names: chown and chmod of a file");
	check(link(NC "/f", NC "/hard") == 0 && nc_all_coherent() && stat(NC "/f", &st) == 0 && st.st_nlink == 2 &&
	      unlink(NC "/hard") == 0 && nc_all_coherent() && stat(NC "/f", &st) == 0 && st.st_nlink == 1,
	      "names: link and unlink: nlink");
	check(symlink("f", NC "/mine") == 0 && nc_all_coherent() && unlink(NC "/mine") == 0 &&
	      mkdir(NC "/mine", 0755) == 0 && nc_all_coherent(), "names: a symlink, then a directory of its name");
	struct timespec ts[2] = { { 1000, 5 }, { 2000, 7 } };
	check(utimensat(AT_FDCWD, NC "/d", ts, 0) == 0 && utimensat(AT_FDCWD, NC "/f", ts, 0) == 0 &&
	      nc_all_coherent(), "names: utimensat of a directory and a file");
	fd = open(NC "/big", O_RDWR | O_CREAT, 0644);
	check(fd >= 0 && nc_all_coherent() && pwrite(fd, "x", 1, 70000) == 1 && nc_all_coherent() &&
	      fsync(fd) == 0 && nc_all_coherent() && ftruncate(fd, 9000) == 0 && nc_all_coherent(),
	      "names: a file written (a hole), written back, truncated: size and blocks");
	if (fd >= 0)
		close(fd);
	check(truncate(NC "/big", 0) == 0 && nc_both(), "names: truncate(2), as root and uid 1000");
	/* a remount forgets everything (the objects and names in the kernel's
	 * heap go: a walk of 300 more names grows it, the umount gives it
	 * back), and the cache fills again */
	struct k_meminfo mi;
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0 && mkdir(NC "/many", 0755) == 0,
	      "names: umount and mount, a directory for 300 names");
	for (int i = 0; i < 300; i++) {
		snprintf(p, sizeof(p), NC "/many/%03d", i);
		put_new(p, "");
	}
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0, "names: umount and mount");
	long long heap0 = sys_meminfo(&mi) == 0 ? (long long)mi.kernel_heap_bytes : -1, heap1 = -1, heap2 = -1;
	seen = 0;
	for (int i = 0; i < 300; i++) {
		snprintf(p, sizeof(p), NC "/many/%03d", i);
		seen += lstat(p, &st) == 0 && lstat(p, &st) == 0;
	}
	if (sys_meminfo(&mi) == 0)
		heap1 = (long long)mi.kernel_heap_bytes;
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0, "names: umount and mount after the walk");
	if (sys_meminfo(&mi) == 0)
		heap2 = (long long)mi.kernel_heap_bytes;
	char what[200];
	snprintf(what, sizeof(what), "names: the kernel heap grew by %lld bytes for 300 names walked, and umount "
		 "gave back all but %lld", heap1 - heap0, heap2 - heap0);
	check(seen == 300 && heap0 > 0 && heap1 - heap0 >= 300 * 256 && heap2 - heap0 <= (heap1 - heap0) / 8, what);
	nc_listings();
	for (int i = 0; i < 300; i++) {
		snprintf(p, sizeof(p), NC "/many/%03d", i);
		unlink(p);
	}
	check(rmdir(NC "/many") == 0 && nc_both(), "names: the answers are the new mount's");
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "keep=3") == 0 && nc_both(),
	      "names: with keep=3 (objects trimmed under the walk)");
	check(umount(M) == 0 && mount("/dev/vda", M, "ext2", 0, "") == 0, "names: mount again");
	for (int i = 0; i < 40; i++) {
		snprintf(p, sizeof(p), NC "/w/%02d", i);
		unlink(p);
	}
	check(rmdir(NC "/w") == 0 && unlink(NC "/l") == 0 && unlink(NC "/grp/f") == 0 && rmdir(NC "/grp") == 0 &&
	      unlink(NC "/priv/f") == 0 && rmdir(NC "/priv") == 0 && rmdir(NC "/mine") == 0 &&
	      unlink(NC "/ren2") == 0 && unlink(NC "/big") == 0 && unlink(NC "/f") == 0 && rmdir(NC "/d/g") == 0 &&
	      rmdir(NC "/d") == 0 && nc_all_coherent() && rmdir(NC) == 0, "names: the tree removed");
}

int main(void)
{
	mkdir(M, 0755);
	check(mount("/dev/vda", M, "ext2", 0, "") == 0, "mount -t ext2 /dev/vda " M);
	mkdir("/tmp/e2x", 0755);
	check_errno(mount("/dev/vda", "/tmp/e2x", "ext2", 0, "bogus=1"), EINVAL, "an unknown option: EINVAL");
	check_errno(mount("/dev/vda", "/tmp/e2x", "ext2", 0, ""), EBUSY, "the same disk mounted twice: EBUSY");
	test_read_host_files();
	test_changes();
	test_ncache();
	test_pager();
	test_permissions();
	test_running_program();
	test_remount();
	test_server_served();
	test_io_charged_to_client();
	test_inode_cache();
	test_writeback_owner();
	test_direct();
	test_driver_restart();
	test_corrupt();
	test_full();
	check(umount(M) == 0, "the last umount");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
