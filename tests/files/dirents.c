/* Directory listing in batches (issue 18 item 4): getdents64 with Linux's
 * struct linux_dirent64 records, its position cookies stable while entries
 * come and go, its errors, and the <dirent.h> stream functions on top of
 * it (readdir, telldir/seekdir, rewinddir, readdir_r, scandir, fdopendir),
 * on tmpfs, devfs, procfs and the cgroup file system. Prints TAP. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* Linux's record, declared by the program as on Linux (glibc has none). */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define NAMES 200	/* the mid-listing changes test */
#define BIG 10000	/* the large directory */
static char buf[65536] __attribute__((aligned(8)));

/* 1 if every record of a reply of n bytes is well formed: a multiple of 8
 * long, inside the reply, its name's NUL inside the record. */
static int records_ok(const char *b, long n)
{
	for (long at = 0; at < n;) {
		const struct linux_dirent64 *e = (const void *)(b + at);
		if (e->d_reclen < 24 || e->d_reclen % 8 || at + e->d_reclen > n ||
		    !memchr(e->d_name, '\0', e->d_reclen - offsetof(struct linux_dirent64, d_name)))
			return 0;
		at += e->d_reclen;
	}
	return 1;
}

/* Makes an empty file. */
static int touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	return fd < 0 ? -1 : close(fd);
}

/* The number in a name "fN" (max: not one), for the seen[] tables. */
static int name_index(const char *name, int max)
{
	char *end;
	if (name[0] != 'f' || !name[1])
		return max;
	long i = strtol(name + 1, &end, 10);
	return *end || i < 0 || i >= max ? max : (int)i;
}

/* Lists fd to its end with getdents64 calls of len bytes, counting each
 * "fN" name in seen[0..max) and the rest in seen[max]; the number of
 * calls, or -1 on an error or a malformed reply. */
static int list_fd(int fd, size_t len, unsigned *seen, int max)
{
	int calls = 0;
	long n;
	while ((n = getdents64(fd, buf, len)) > 0) {
		calls++;
		if (!records_ok(buf, n))
			return -1;
		for (long at = 0; at < n;) {
			const struct linux_dirent64 *e = (const void *)(buf + at);
			seen[name_index(e->d_name, max)]++;
			at += e->d_reclen;
		}
	}
	return n < 0 ? -1 : calls;
}

/* The names of a listing of path in getdents64 calls of len bytes, one
 * per line, into out (cap bytes); the count of names, -1 on an error. */
static int names_of(const char *path, size_t len, char *out, size_t cap)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY), count = 0;
	size_t used = 0;
	long n;
	if (fd < 0)
		return -1;
	out[0] = '\0';
	while ((n = getdents64(fd, buf, len)) > 0)
		for (long at = 0; at < n; count++) {
			const struct linux_dirent64 *e = (const void *)(buf + at);
			used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s\n", e->d_name);
			at += e->d_reclen;
		}
	close(fd);
	return n < 0 || used >= cap ? -1 : count;
}

/* The d_type path's directory listing gives name, or -1 if not listed. */
static int type_in(const char *path, const char *name)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int t = -1;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, name) == 0)
			t = e->d_type;
	if (d)
		closedir(d);
	return t;
}

/* 45 files in one call: the same names, "." and ".." first. */
static void test_batch(void)
{
	char path[64];
	unsigned seen[46] = { 0 };
	int ok = mkdir("/tmp/dl", 0755) == 0;
	for (int i = 0; i < 45; i++) {
		snprintf(path, sizeof(path), "/tmp/dl/f%d", i);
		ok &= touch(path) == 0;
	}
	check(ok, "dirents: 45 files made");
	int fd = open("/tmp/dl", O_RDONLY | O_DIRECTORY);
	long n = getdents64(fd, buf, sizeof(buf));
	const struct linux_dirent64 *e0 = (const void *)buf, *e1 = (const void *)(buf + e0->d_reclen);
	check(n > 0 && records_ok(buf, n) && strcmp(e0->d_name, ".") == 0 && e0->d_type == DT_DIR &&
	      strcmp(e1->d_name, "..") == 0 && e1->d_type == DT_DIR,
	      "dirents: one getdents64 call, well-formed records, . and .. first");
	int count = 0, all = 1;
	for (long at = 0; n > 0 && at < n; count++) {
		const struct linux_dirent64 *e = (const void *)(buf + at);
		seen[name_index(e->d_name, 45)]++;
		at += e->d_reclen;
	}
	for (int i = 0; i < 45; i++)
		all &= seen[i] == 1;
	check(count == 47 && all && seen[45] == 2, "dirents: the batch has every name once (47 entries)");
	check(getdents64(fd, buf, sizeof(buf)) == 0, "dirents: then 0 at the end");
	close(fd);
}

/* Entries there throughout a listing are returned exactly once even when
 * others are created and removed between the calls. */
static void test_changes(void)
{
	char path[64];
	unsigned seen[NAMES + 1] = { 0 };
	int ok = mkdir("/tmp/dm", 0755) == 0, bad = 0;
	for (int i = 0; i < NAMES; i++) {
		snprintf(path, sizeof(path), "/tmp/dm/f%d", i);
		ok &= touch(path) == 0;
	}
	int fd = open("/tmp/dm", O_RDONLY | O_DIRECTORY), rounds = 0;
	long n;
	/* 512 bytes: about 20 entries a call */
	while (ok && (n = getdents64(fd, buf, 512)) > 0) {
		for (long at = 0; at < n;) {
			const struct linux_dirent64 *e = (const void *)(buf + at);
			seen[name_index(e->d_name, NAMES)]++;
			at += e->d_reclen;
		}
		/* remove one seen and one not yet seen (multiples of 7 from
		 * the end), add two new names; 8 times (new names come last:
		 * adding them forever would never end the listing) */
		int r = rounds++;
		if (r >= 8)
			continue;
		snprintf(path, sizeof(path), "/tmp/dm/f%d", 7 * r);
		unlink(path);
		snprintf(path, sizeof(path), "/tmp/dm/f%d", NAMES - 1 - 7 * r);
		unlink(path);
		snprintf(path, sizeof(path), "/tmp/dm/new%d", 2 * r);
		ok &= touch(path) == 0;
		snprintf(path, sizeof(path), "/tmp/dm/new%d", 2 * r + 1);
		ok &= touch(path) == 0;
	}
	close(fd);
	for (int i = 0; i < NAMES; i++) {
		int removed = (i % 7 == 0 && i / 7 < 8) || ((NAMES - 1 - i) % 7 == 0 && (NAMES - 1 - i) / 7 < 8);
		if (seen[i] > 1 || (!removed && seen[i] != 1))
			bad++;
	}
	check(ok && rounds >= 8 && bad == 0,
	      "dirents: a listing across creates and unlinks returns every lasting entry exactly once");
}

/* telldir/seekdir, lseek to a d_off, rewinddir. */
static void test_positions(void)
{
	char want[256], got[256];
	DIR *d = opendir("/tmp/dm");
	struct dirent *e;
	for (int i = 0; d && i < 30 && readdir(d); i++)
		;
	long t = d ? telldir(d) : -1;
	e = d ? readdir(d) : NULL;
	snprintf(want, sizeof(want), "%s", e ? e->d_name : "");
	for (int i = 0; d && i < 25 && readdir(d); i++)
		;
	if (d)
		seekdir(d, t);
	e = d ? readdir(d) : NULL;
	snprintf(got, sizeof(got), "%s", e ? e->d_name : "?");
	check(e && want[0] && strcmp(want, got) == 0, "dirents: seekdir to a telldir gives the same next entry");
	while (d && readdir(d))
		;
	if (d)
		rewinddir(d);
	e = d ? readdir(d) : NULL;
	check(e && strcmp(e->d_name, ".") == 0 && telldir(d) == e->d_off, "dirents: rewinddir starts again at .");
	struct dirent ent, *res = NULL;
	check(d && readdir_r(d, &ent, &res) == 0 && res == &ent && strcmp(ent.d_name, "..") == 0,
	      "dirents: readdir_r copies the next entry");
	if (d)
		closedir(d);

	/* lseek(fd, d_off, SEEK_SET) resumes after that record */
	int fd = open("/tmp/dm", O_RDONLY | O_DIRECTORY);
	long n = getdents64(fd, buf, sizeof(buf));
	const struct linux_dirent64 *e5 = NULL, *e6 = NULL;
	for (long at = 0, i = 0; n > 0 && at < n && i < 7; i++) {
		const struct linux_dirent64 *r = (const void *)(buf + at);
		if (i == 5)
			e5 = r;
		if (i == 6)
			e6 = r;
		at += r->d_reclen;
	}
	snprintf(want, sizeof(want), "%s", e6 ? e6->d_name : "");
	long long off5 = e5 ? e5->d_off : -1; /* buf is about to be overwritten */
	long back = e5 ? lseek(fd, (off_t)off5, SEEK_SET) : -1;
	n = getdents64(fd, buf, sizeof(buf));
	const struct linux_dirent64 *first = (const void *)buf;
	if (!(e5 && back == off5 && n > 0 && strcmp(first->d_name, want) == 0))
		printf("# lseek to %lld gave %ld, then %ld bytes from %s (want %s)\n", off5, back, n,
		       n > 0 ? first->d_name : "-", want);
	check(e5 && back == off5 && n > 0 && strcmp(first->d_name, want) == 0,
	      "dirents: lseek to a record's d_off resumes at the next record");
	check(lseek(fd, 0, SEEK_SET) == 0 && getdents64(fd, buf, sizeof(buf)) > 0 && strcmp(first->d_name, ".") == 0,
	      "dirents: lseek to 0 starts again");
	close(fd);
}

/* scandir with alphasort, fdopendir. */
static void test_scandir(void)
{
	struct dirent **list = NULL;
	int n = scandir("/tmp/dl", &list, NULL, alphasort), sorted = n == 47;
	for (int i = 1; i < n; i++)
		sorted &= strcmp(list[i - 1]->d_name, list[i]->d_name) < 0;
	check(sorted && strcmp(list[0]->d_name, ".") == 0 && strcmp(list[2]->d_name, "f0") == 0,
	      "dirents: scandir with alphasort: 47 names, sorted");
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	int fd = open("/tmp/dl", O_RDONLY | O_DIRECTORY);
	DIR *d = fdopendir(fd);
	check(d && dirfd(d) == fd && readdir(d) && closedir(d) == 0 && fcntl(fd, F_GETFD) == -1,
	      "dirents: fdopendir uses the descriptor, closedir closes it");
	fd = open("/tmp/dl/f1", O_RDONLY);
	errno = 0;
	check(!fdopendir(fd) && errno == ENOTDIR && fcntl(fd, F_GETFD) >= 0,
	      "dirents: fdopendir of a file: ENOTDIR, the descriptor stays open");
	close(fd);
	errno = 0;
	check(!fdopendir(99) && errno == EBADF, "dirents: fdopendir of a closed descriptor: EBADF");
}

/* EINVAL, ENOTDIR, EBADF, EFAULT, ENOENT. */
static void test_errors(void)
{
	int fd = open("/tmp/dl", O_RDONLY | O_DIRECTORY);
	check_errno(getdents64(fd, buf, 10), EINVAL, "dirents: a buffer too small for one record: EINVAL");
	long n = getdents64(fd, buf, 24);
	const struct linux_dirent64 *e = (const void *)buf;
	check(n == 24 && strcmp(e->d_name, ".") == 0, "dirents: a buffer of exactly one record gets it");
	check_errno(getdents64(fd, buf, 0), EINVAL, "dirents: a buffer of 0 bytes: EINVAL");
	void *gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 4096);
	check_errno(getdents64(fd, gone, 4096), EFAULT, "dirents: an unmapped buffer: EFAULT");
	check_errno(getdents64(fd, (void *)8, 4096), EFAULT, "dirents: a buffer at address 8: EFAULT");
	n = getdents64(fd, buf, sizeof(buf));
	check(n > 0 && strcmp(e->d_name, "..") == 0, "dirents: after EFAULT the listing goes on where it was");
	close(fd);
	check_errno(getdents64(fd, buf, sizeof(buf)), EBADF, "dirents: a closed descriptor: EBADF");
	check_errno(getdents64(-1, buf, sizeof(buf)), EBADF, "dirents: descriptor -1: EBADF");
	fd = open("/tmp/dl/f3", O_RDONLY);
	check_errno(getdents64(fd, buf, sizeof(buf)), ENOTDIR, "dirents: a regular file: ENOTDIR");
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	check_errno(getdents64(fd, buf, sizeof(buf)), ENOTDIR, "dirents: /dev/null: ENOTDIR");
	close(fd);
	fd = open("/proc/meminfo", O_RDONLY);
	check_errno(getdents64(fd, buf, sizeof(buf)), ENOTDIR, "dirents: a procfs file: ENOTDIR");
	close(fd);
	fd = open("/sys/fs/cgroup/cgroup.procs", O_RDONLY);
	check_errno(getdents64(fd, buf, sizeof(buf)), ENOTDIR, "dirents: a cgroup file: ENOTDIR");
	close(fd);
	int p[2];
	check(pipe(p) == 0, "dirents: pipe");
	check_errno(getdents64(p[0], buf, sizeof(buf)), ENOTDIR, "dirents: a pipe: ENOTDIR");
	close(p[0]);
	close(p[1]);
	mkdir("/tmp/dgone", 0755);
	fd = open("/tmp/dgone", O_RDONLY | O_DIRECTORY);
	check(rmdir("/tmp/dgone") == 0, "dirents: rmdir of an open directory");
	check_errno(getdents64(fd, buf, sizeof(buf)), ENOENT, "dirents: a removed directory: ENOENT (as Linux)");
	close(fd);
}

/* d_type of each kind, on every file system, and mount points. */
static void test_types(void)
{
	mkdir("/tmp/dl/sub", 0755);
	check(type_in("/tmp/dl", "sub") == DT_DIR && type_in("/tmp/dl", "f0") == DT_REG,
	      "dirents: tmpfs: DT_DIR, DT_REG");
	check(symlink("f0", "/tmp/dl/ln") == 0 && type_in("/tmp/dl", "ln") == DT_LNK && unlink("/tmp/dl/ln") == 0,
	      "dirents: tmpfs: DT_LNK for a symbolic link");
	check(type_in("/dev", "null") == DT_CHR && type_in("/dev", ".") == DT_DIR, "dirents: devfs: DT_CHR");
	check(type_in("/proc", "self") == DT_DIR && type_in("/proc", "meminfo") == DT_REG &&
	      type_in("/proc/self", "status") == DT_REG, "dirents: procfs: DT_DIR, DT_REG");
	mkdir("/sys/fs/cgroup/dirents_t", 0755);
	check(type_in("/sys/fs/cgroup", "cgroup.procs") == DT_REG && type_in("/sys/fs/cgroup", "dirents_t") == DT_DIR,
	      "dirents: cgroup2: DT_REG files, DT_DIR children");
	rmdir("/sys/fs/cgroup/dirents_t");
	check(type_in("/", "proc") == DT_DIR && type_in("/", "dev") == DT_DIR && type_in("/", "tmp") == DT_DIR &&
	      type_in("/sys/fs", "cgroup") == DT_DIR, "dirents: mount points list as directories");
	rmdir("/tmp/dl/sub");
}

/* A listing in small batches equals one in a big one (each server's
 * resumption), for procfs, devfs and cgroup2. */
static void test_servers_resume(void)
{
	static char a[16384], b[16384];
	const char *const dirs[] = { "/proc", "/dev", "/sys/fs/cgroup", "/proc/self" };
	for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char what[96];
		int na = names_of(dirs[i], sizeof(buf), a, sizeof(a));
		int nb = names_of(dirs[i], 64, b, sizeof(b));
		snprintf(what, sizeof(what), "dirents: %s in 64-byte calls lists as in one call (%d entries)", dirs[i], na);
		check(na > 2 && na == nb && strcmp(a, b) == 0, what);
	}
}

/* A cgroup with more children than one kernel batch (CGFS_READDIR_MAX,
 * 64) lists each once, also in small calls with children removed
 * between them. */
static void test_cgroup_children(void)
{
	enum { KIDS = 80 };
	unsigned seen[KIDS + 1] = { 0 }, seen2[KIDS + 1] = { 0 };
	char path[96];
	int ok = mkdir("/sys/fs/cgroup/dirents_kids", 0755) == 0, bad = 0;
	for (int i = 0; ok && i < KIDS; i++) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup/dirents_kids/f%d", i);
		ok &= mkdir(path, 0755) == 0;
	}
	int fd = open("/sys/fs/cgroup/dirents_kids", O_RDONLY | O_DIRECTORY);
	ok &= list_fd(fd, sizeof(buf), seen, KIDS) > 0;
	for (int i = 0; i < KIDS; i++)
		bad += seen[i] != 1;
	check(ok && bad == 0 && seen[KIDS] > 10, "dirents: a cgroup of 80 children lists each once, and its files");
	/* 256 bytes a call; after each, remove a child not yet seen */
	check(lseek(fd, 0, SEEK_SET) == 0, "dirents: lseek to 0 on a cgroup directory");
	long n;
	int round = 0;
	while ((n = getdents64(fd, buf, 256)) > 0) {
		for (long at = 0; at < n;) {
			const struct linux_dirent64 *e = (const void *)(buf + at);
			seen2[name_index(e->d_name, KIDS)]++;
			at += e->d_reclen;
		}
		if (round < 10) {
			snprintf(path, sizeof(path), "/sys/fs/cgroup/dirents_kids/f%d", KIDS - 1 - round++);
			rmdir(path);
		}
	}
	close(fd);
	bad = 0;
	for (int i = 0; i < KIDS - 10; i++)
		bad += seen2[i] != 1;
	for (int i = KIDS - 10; i < KIDS; i++)
		bad += seen2[i] > 1;
	check(n == 0 && bad == 0, "dirents: children removed mid-listing: the others each once");
	for (int i = 0; i < KIDS; i++) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup/dirents_kids/f%d", i);
		rmdir(path);
	}
	check(rmdir("/sys/fs/cgroup/dirents_kids") == 0, "dirents: the cgroups are removed");
}

/* 10,000 entries list completely, in few calls. */
static void test_big(void)
{
	static unsigned seen[BIG + 1];
	char path[64];
	int ok = mkdir("/tmp/dbig", 0755) == 0, all = 1;
	for (int i = 0; ok && i < BIG; i++) {
		snprintf(path, sizeof(path), "/tmp/dbig/f%d", i);
		ok &= touch(path) == 0;
	}
	int fd = open("/tmp/dbig", O_RDONLY | O_DIRECTORY);
	int calls = list_fd(fd, 32768, seen, BIG);
	close(fd);
	for (int i = 0; i < BIG; i++)
		all &= seen[i] == 1;
	printf("# %d getdents64 calls of 32 KiB for %d entries\n", calls, BIG + 2);
	check(ok && calls > 0 && calls <= 20 && all && seen[BIG] == 2,
	      "dirents: a 10,000-entry directory lists completely, each once, in at most 20 calls");
	DIR *d = opendir("/tmp/dbig");
	int count = 0;
	while (d && readdir(d))
		count++;
	if (d)
		closedir(d);
	check(count == BIG + 2, "dirents: readdir lists the 10,000 entries and . and ..");
	for (int i = 0; i < BIG; i++) {
		snprintf(path, sizeof(path), "/tmp/dbig/f%d", i);
		unlink(path);
	}
	check(rmdir("/tmp/dbig") == 0, "dirents: and they all unlink");
}

int main(void)
{
	test_batch();
	test_changes();
	test_positions();
	test_scandir();
	test_errors();
	test_types();
	test_servers_resume();
	test_cgroup_children();
	test_big();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
