/* Host test of the ext2 core (user/servers/ext2): images made at test time
 * by the host's mke2fs (e2fsprogs) are read back and compared with the
 * source tree, written through the core, and checked afterwards by e2fsck
 * (clean) and debugfs (the same bytes and sizes); corrupted images must
 * give EIO/EINVAL and a message naming the inode, never a crash (this test
 * runs under ASan/UBSan). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include "ext2.h"
#include "ext2_disk.h"
#include "tap.h"

#define BIG_ENTRIES 10000
#define BIG_ENTRIES_MAX 10300

static char tmp[256];
static char logbuf[512];
static int nlogs;
static bool have_xattr;         /* the source tree's file system took user xattrs */
static int fail_io;             /* 1: reads fail, 2: writes fail (a dying disk) */

/* -- host side: commands, files ------------------------------------------ */

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The whole output of a command (NUL-terminated; *len without the NUL). */
static char *capture(size_t *len, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *capture(size_t *len, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	size_t cap = 65536, n = 0, r;
	char *buf = xmalloc(cap);
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	if (!p)
		tap_bail("popen %s", cmd);
	while ((r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (cap - n < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				tap_bail("out of memory");
		}
	}
	pclose(p);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

/* e2fsprogs lives in /usr/sbin, which a normal user's PATH may lack. */
/* Drops trailing newlines (for output quoted in a test's description). */
static char *chomp(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = 0;
	return s;
}

static bool have_tools(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "/usr/sbin:/sbin:%s",
		 getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	return run("{ command -v mke2fs && command -v e2fsck && command -v debugfs && "
		   "command -v dumpe2fs; } >/dev/null 2>&1") == 0;
}

static void fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 1;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

static void write_file(const char *path, size_t n, uint32_t seed)
{
	uint8_t *p = xmalloc(n);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	fill_pattern(p, n, seed);
	if (fd < 0 || write(fd, p, n) != (ssize_t)n)
		tap_bail("write %s", path);
	close(fd);
	free(p);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	uint8_t *p;

	if (fd < 0 || fstat(fd, &st))
		tap_bail("open %s", path);
	p = xmalloc((size_t)st.st_size);
	if (pread(fd, p, (size_t)st.st_size, 0) != st.st_size)
		tap_bail("read %s", path);
	close(fd);
	*n = (size_t)st.st_size;
	return p;
}

/* -- the device: an image file ------------------------------------------- */

struct img {
	int fd;
	struct ext2_dev dev;
	struct ext2_fs *fs;
};

static unsigned long img_reads; /* device read calls so far */
static unsigned long img_writes, img_writevs, img_flushes, img_vsegs; /* device calls so far */

static int img_read(void *ctx, uint64_t sector, uint32_t count, void *buf)
{
	size_t n = (size_t)count * EXT2_SECTOR_SIZE;

	img_reads++;
	if (fail_io & 1)
		return -EIO;
	return pread(*(int *)ctx, buf, n, (off_t)(sector * EXT2_SECTOR_SIZE)) == (ssize_t)n ?
		0 : -EIO;
}

static int img_write(void *ctx, uint64_t sector, uint32_t count, const void *buf)
{
	size_t n = (size_t)count * EXT2_SECTOR_SIZE;

	img_writes++;
	if (fail_io & 2)
		return -EIO;
	return pwrite(*(int *)ctx, buf, n, (off_t)(sector * EXT2_SECTOR_SIZE)) == (ssize_t)n ?
		0 : -EIO;
}

static bool img_vflush;         /* the last writev asked for a flush */

static int img_writev(void *ctx, const struct ext2_seg *segs, uint32_t n, bool flush)
{
	img_writevs++;
	img_vsegs += n;
	img_vflush = flush;
	if (fail_io & 2)
		return -EIO;
	for (uint32_t i = 0; i < n; i++) {
		size_t len = (size_t)segs[i].count * EXT2_SECTOR_SIZE;
		if (n > EXT2_VEC_SEGS || pwrite(*(int *)ctx, segs[i].buf, len, (off_t)(segs[i].sector * EXT2_SECTOR_SIZE)) !=
						 (ssize_t)len)
			return -EIO;
	}
	return 0;
}

static int img_flush(void *ctx)
{
	(void)ctx;
	img_flushes++;
	return 0;
}

static void img_log(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(logbuf, sizeof(logbuf), "%s", msg);
	nlogs++;
}

static int img_mount(struct img *im, const char *path, unsigned flags)
{
	struct stat st;

	memset(im, 0, sizeof(*im));
	im->fd = open(path, O_RDWR);
	if (im->fd < 0 || fstat(im->fd, &st))
		tap_bail("open image %s", path);
	im->dev.ctx = &im->fd;
	im->dev.nsectors = (uint64_t)st.st_size / EXT2_SECTOR_SIZE;
	im->dev.read = img_read;
	im->dev.write = img_write;
	im->dev.log = img_log;
	logbuf[0] = 0;
	return ext2_mount(&im->dev, flags, 0, &im->fs);
}

static int img_unmount(struct img *im)
{
	int err = im->fs ? ext2_unmount(im->fs) : 0;

	close(im->fd);
	im->fs = NULL;
	return err;
}

static struct ext2_time T(int n)
{
	return (struct ext2_time){ 1750000000 + n, 1000u * (unsigned)n };
}

/* Resolves an absolute path with the core's lookups. */
static int resolve(struct ext2_fs *fs, const char *path, uint32_t *ino)
{
	uint32_t cur = EXT2_ROOT_INO;
	const char *p = path, *e;
	int err;

	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		err = ext2_lookup(fs, cur, p, (size_t)(e - p), &cur);
		if (err)
			return err;
		p = e;
	}
	*ino = cur;
	return 0;
}

static struct ext2_super read_super(int fd);
static void poke(int fd, off_t off, const void *p, size_t n);
static uint32_t ino_of(const char *img, const char *path);

/* -- 1. reading back what mke2fs -d wrote -------------------------------- */

static void make_source(const char *src)
{
	char p[512];
	int i, fd;

	run("rm -rf %s && mkdir -p %s/sub/deeper %s/sub/many", src, src, src);
	snprintf(p, sizeof(p), "%s/empty", src); write_file(p, 0, 1);
	snprintf(p, sizeof(p), "%s/one", src); write_file(p, 1, 2);
	snprintf(p, sizeof(p), "%s/small", src); write_file(p, 1000, 3);
	snprintf(p, sizeof(p), "%s/exact", src); write_file(p, 4096, 4);
	snprintf(p, sizeof(p), "%s/ind", src); write_file(p, 12 * 1024 + 5000, 5);
	snprintf(p, sizeof(p), "%s/dind", src); write_file(p, 300000, 6);
	snprintf(p, sizeof(p), "%s/sub/deeper/file", src); write_file(p, 2000, 7);
	for (i = 0; i < 300; i++) {
		snprintf(p, sizeof(p), "%s/sub/many/n%03d", src, i);
		write_file(p, 20 + (size_t)i, 100 + (uint32_t)i);
	}
	/* a file with an extended attribute too big for the inode: mke2fs -d
	 * puts it in an attribute block, which deleting the file must free */
	snprintf(p, sizeof(p), "%s/xattr", src); write_file(p, 100, 8);
	{
		char v[300];

		memset(v, 'v', sizeof(v));
		have_xattr = setxattr(p, "user.big", v, sizeof(v), 0) == 0;
	}
	snprintf(p, sizeof(p), "%s/sparse", src);
	fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0 || pwrite(fd, "0123456789", 10, 0) != 10 ||
	    pwrite(fd, "abcdefghij", 10, 2000000) != 10)
		tap_bail("sparse source");
	close(fd);
	snprintf(p, sizeof(p), "%s/fastlink", src);
	if (symlink("small", p))
		tap_bail("symlink");
	snprintf(p, sizeof(p), "%s/slowlink", src);
	if (symlink("sub/deeper/0123456789012345678901234567890123456789"
		    "0123456789012345678901234567890123456789/end", p))
		tap_bail("symlink");
	snprintf(p, sizeof(p), "%s/sub/hard", src);
	{
		char q[512];

		snprintf(q, sizeof(q), "%s/small", src);
		if (link(q, p))
			tap_bail("link");
	}
	chmod(src, 0755);
}

static int entries_cb(void *ctx, const char *name, size_t len, uint32_t ino,
		      unsigned dtype, uint64_t next)
{
	(void)name; (void)len; (void)ino; (void)dtype; (void)next;
	(*(int *)ctx)++;
	return 0;
}

static int count_entries(struct ext2_fs *fs, uint32_t dir)
{
	uint64_t cookie = 0;
	int n = 0, err = ext2_readdir(fs, dir, &cookie, entries_cb, &n);

	return err ? err : n;
}

/* Compares a host directory with the image's, recursively; counts the
 * objects compared and reports the first difference. */
static bool compare_tree(struct ext2_fs *fs, const char *hpath, uint32_t dino, bool root,
			 int *count)
{
	DIR *d = opendir(hpath);
	struct dirent *e;
	int nsrc = 0;
	bool good = true;

	if (!d)
		tap_bail("opendir %s", hpath);
	while (good && (e = readdir(d))) {
		char p[1024];
		struct stat hs;
		struct ext2_stat is;
		uint32_t ino;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		nsrc++;
		snprintf(p, sizeof(p), "%s/%s", hpath, e->d_name);
		if (lstat(p, &hs) || ext2_lookup(fs, dino, e->d_name, strlen(e->d_name), &ino) ||
		    ext2_stat(fs, ino, &is)) {
			tap_diag("%s: missing in the image", p);
			good = false;
			break;
		}
		/* a directory's size depends on the file system that holds it */
		if (is.mode != hs.st_mode || is.nlink != hs.st_nlink ||
		    (!S_ISDIR(hs.st_mode) && is.size != (uint64_t)hs.st_size)) {
			tap_diag("%s: mode %o/%o size %llu/%llu nlink %u/%u", p, is.mode,
				 hs.st_mode, (unsigned long long)is.size,
				 (unsigned long long)hs.st_size, is.nlink, (unsigned)hs.st_nlink);
			good = false;
		} else if (S_ISREG(hs.st_mode)) {
			size_t n;
			uint8_t *want = slurp(p, &n), *got = xmalloc(n + 1);
			int64_t r = ext2_read(fs, ino, 0, got, n + 1);

			if (r != (int64_t)n || memcmp(want, got, n)) {
				tap_diag("%s: read %lld bytes, want %zu, or bytes differ", p,
					 (long long)r, n);
				good = false;
			}
			free(want);
			free(got);
		} else if (S_ISLNK(hs.st_mode)) {
			char want[4096], got[4096];
			ssize_t wn = readlink(p, want, sizeof(want));
			int gn = ext2_readlink(fs, ino, got, sizeof(got));

			if (wn < 0 || gn != wn || memcmp(want, got, (size_t)wn)) {
				tap_diag("%s: link target differs (%d)", p, gn);
				good = false;
			}
		} else if (S_ISDIR(hs.st_mode)) {
			good = compare_tree(fs, p, ino, false, count);
		}
		(*count)++;
	}
	closedir(d);
	if (good && count_entries(fs, dino) != nsrc + 2 + (root ? 1 : 0)) {
		tap_diag("%s: %d entries in the image, %d in the source", hpath,
			 count_entries(fs, dino), nsrc);
		good = false;
	}
	return good;
}

static bool make_image_opt(const char *img, const char *src, const char *size,
			   const char *opt)
{
	return run("rm -f %s && truncate -s %s %s && mke2fs -q -F -t ext2 %s %s%s %s "
		   ">/dev/null 2>&1", img, size, img, opt, src ? "-d " : "", src ? src : "",
		   img) == 0;
}

static bool make_image(const char *img, const char *src, const char *size)
{
	return make_image_opt(img, src, size, "");
}

static bool fsck_clean(const char *img)
{
	size_t n;
	char *out;
	int rc = run("e2fsck -fn %s >/dev/null 2>&1", img);

	if (rc != 0) {
		out = capture(&n, "e2fsck -fn %s 2>&1 | head -30", img);
		tap_diag("e2fsck -fn exit %d:\n%s", rc, out);
		free(out);
	}
	return rc == 0;
}

/* debugfs's "cat" of a path equals want[0..n). */
static bool debugfs_cat(const char *img, const char *path, const uint8_t *want, size_t n)
{
	size_t got;
	char *out = capture(&got, "debugfs -R 'cat %s' %s 2>/dev/null", path, img);
	bool same = got == n && !memcmp(out, want, n);

	if (!same)
		tap_diag("debugfs cat %s: %zu bytes, want %zu", path, got, n);
	free(out);
	return same;
}

/* debugfs's "stat" of a path contains every one of the given fragments. */
static bool debugfs_stat_has(const char *img, const char *path, const char *a, const char *b)
{
	char *out = capture(NULL, "debugfs -R 'stat %s' %s 2>/dev/null", path, img);
	bool ok_ = strstr(out, a) && (!b || strstr(out, b));

	if (!ok_)
		tap_diag("debugfs stat %s lacks \"%s\"/\"%s\":\n%.600s", path, a, b ? b : "", out);
	free(out);
	return ok_;
}

struct listing {
	uint8_t seen[BIG_ENTRIES_MAX];
	int stop_after, given, dups;
};

static int listing_cb(void *ctx, const char *name, size_t len, uint32_t ino,
		      unsigned dtype, uint64_t next)
{
	struct listing *l = ctx;
	char buf[32];
	int i;

	(void)ino; (void)next;
	if (l->given == l->stop_after)
		return 1;
	l->given++;
	if (len < 6 || len >= sizeof(buf) || memcmp(name, "file-", 5) || dtype != 8)
		return 0;
	memcpy(buf, name, len);
	buf[len] = 0;
	i = atoi(buf + 5);
	if (i >= 0 && i < BIG_ENTRIES_MAX && l->seen[i]++)
		l->dups++;
	return 0;
}

/* Lists part of dir, then removes entries on both sides of the cookie and
 * adds new ones, then lists the rest: each entry present throughout must
 * come exactly once (the odd files-%05d are present before this). */
static bool readdir_stable(struct ext2_fs *fs, uint32_t dir)
{
	static struct listing l;
	uint64_t cookie = 0;
	uint32_t gone, x;
	char name[32];
	int i, n, missing = 0;
	bool good;

	memset(&l, 0, sizeof(l));
	l.stop_after = 1000;
	good = ext2_readdir(fs, dir, &cookie, listing_cb, &l) == 0 && l.given == 1000;
	for (i = 1; i < 9000 && good; i += 1000) {      /* some listed, some not yet */
		n = snprintf(name, sizeof(name), "file-%05d", i);
		good = ext2_unlink(fs, dir, name, (size_t)n, T(40), &gone) == 0 &&
			ext2_release(fs, gone) == 0;
	}
	for (i = 10000; i < 10300 && good; i++) {
		n = snprintf(name, sizeof(name), "file-%05d", i);
		good = ext2_mknod(fs, dir, name, (size_t)n, EXT2_S_IFREG | 0600, 0, 0, 0, T(41),
				  &x) == 0;
	}
	l.stop_after = -1;
	good = good && ext2_readdir(fs, dir, &cookie, listing_cb, &l) == 0;
	for (i = 1; i < BIG_ENTRIES; i += 2)
		if (i % 1000 != 1 && l.seen[i] != 1)
			missing++;
	if (missing || l.dups)
		tap_diag("readdir: %d entries missing, %d duplicated", missing, l.dups);
	return good && !missing && !l.dups;
}

/* The blocks debugfs lists for path (data and indirect) form one run, in
 * the block group of inode ino. */
static bool blocks_near(const char *img, const char *path, uint32_t ino)
{
	char *out = capture(NULL, "debugfs -R 'blocks %s' %s 2>/dev/null", path, img);
	int fd = open(img, O_RDONLY);
	struct ext2_super sb = read_super(fd);
	unsigned long b, lo = ~0ul, hi = 0, n = 0;
	uint32_t group = (ino - 1) / sb.s_inodes_per_group, g;
	char *p = out, *e;
	bool same = true;

	close(fd);
	for (;;) {
		b = strtoul(p, &e, 10);
		if (e == p)
			break;
		p = e;
		n++;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
		g = (uint32_t)((b - sb.s_first_data_block) / sb.s_blocks_per_group);
		same = same && g == group;
	}
	if (!n || hi - lo + 1 != n || !same)
		tap_diag("%s (inode %u, group %u): %lu blocks %lu..%lu: %s", path, ino, group, n,
			 lo, hi, out);
	free(out);
	return n && hi - lo + 1 == n && same;
}

/* -- 2. writing ---------------------------------------------------------- */


/* The in-memory name index of large directories (dindex.c) kept in step
 * with adds, removals and renames: /big (half emptied) takes 3000 more
 * names into its slack without growing, finds each, refuses duplicates,
 * renames and removes them; a large directory removed and its inode
 * number reused by a new directory starts with no stale names. */
static void test_name_index(struct ext2_fs *fs, uint32_t root, uint32_t big, const char *tag)
{
	struct ext2_stat st0, st1;
	char name[32];
	uint32_t x, gone, d2 = 0, d3 = 0;
	bool good = ext2_stat(fs, big, &st0) == 0;
	int i, n;

	for (i = 0; i < 3000 && good; i++) {
		n = snprintf(name, sizeof(name), "ix-%05d", i);
		good = ext2_mknod(fs, big, name, (size_t)n, EXT2_S_IFREG | 0644, 0, 0, 0, T(33), &x) == 0;
	}
	ok(good && ext2_stat(fs, big, &st1) == 0 && st1.size == st0.size,
	   "%s: name index: 3000 names fill the removed entries' room, the directory does not grow", tag);
	good = true;
	for (i = 0; i < 3000 && good; i++) {
		n = snprintf(name, sizeof(name), "ix-%05d", i);
		good = ext2_lookup(fs, big, name, (size_t)n, &x) == 0 &&
		       ext2_mknod(fs, big, name, (size_t)n, EXT2_S_IFREG | 0644, 0, 0, 0, T(33), &x) == -EEXIST;
	}
	ok(good && ext2_lookup(fs, big, "ix-03000", 8, &x) == -ENOENT &&
	   ext2_lookup(fs, big, "file-09999", 10, &x) == 0, "%s: name index: each found, "
	   "EEXIST again, absent names ENOENT", tag);
	ok(ext2_rename(fs, big, "ix-00001", 8, big, "ix-moved", 8, T(34), &gone) == 0 &&
	   ext2_lookup(fs, big, "ix-moved", 8, &x) == 0 && ext2_lookup(fs, big, "ix-00001", 8, &x) == -ENOENT &&
	   ext2_rename(fs, big, "ix-00002", 8, big, "ix-00003", 8, T(34), &gone) == 0 && gone &&
	   ext2_release(fs, gone) == 0 && ext2_lookup(fs, big, "ix-00002", 8, &x) == -ENOENT &&
	   ext2_lookup(fs, big, "ix-00003", 8, &x) == 0, "%s: name index: renames, over a name too", tag);
	good = ext2_unlink(fs, big, "ix-moved", 8, T(35), &gone) == 0 && ext2_release(fs, gone) == 0;
	for (i = 0; i < 3000 && good; i++) {
		if (i == 1 || i == 2)
			continue;
		n = snprintf(name, sizeof(name), "ix-%05d", i);
		good = ext2_unlink(fs, big, name, (size_t)n, T(35), &gone) == 0 && ext2_release(fs, gone) == 0 &&
		       ext2_lookup(fs, big, name, (size_t)n, &x) == -ENOENT;
	}
	ok(good, "%s: name index: all removed again", tag);
	good = ext2_mkdir(fs, root, "ixdir", 5, 0755, 0, 0, T(36), &d2) == 0;
	for (i = 0; i < 1500 && good; i++) {
		n = snprintf(name, sizeof(name), "n-%05d", i);
		good = ext2_mknod(fs, d2, name, (size_t)n, EXT2_S_IFREG | 0644, 0, 0, 0, T(36), &x) == 0;
	}
	good = good && ext2_lookup(fs, d2, "n-00007", 7, &x) == 0;
	for (i = 0; i < 1500 && good; i++) {
		n = snprintf(name, sizeof(name), "n-%05d", i);
		good = ext2_unlink(fs, d2, name, (size_t)n, T(36), &gone) == 0 && ext2_release(fs, gone) == 0;
	}
	good = good && ext2_rmdir(fs, root, "ixdir", 5, T(36), &gone) == 0 && ext2_release(fs, gone) == 0;
	ok(good && ext2_mkdir(fs, root, "ixnew", 5, 0755, 0, 0, T(37), &d3) == 0 &&
	   ext2_lookup(fs, d3, "n-00007", 7, &x) == -ENOENT &&
	   ext2_mknod(fs, d3, "n-00007", 7, EXT2_S_IFREG | 0644, 0, 0, 0, T(37), &x) == 0 &&
	   ext2_unlink(fs, d3, "n-00007", 7, T(37), &gone) == 0 && ext2_release(fs, gone) == 0 &&
	   ext2_rmdir(fs, root, "ixnew", 5, T(37), &gone) == 0 && ext2_release(fs, gone) == 0,
	   "%s: name index: a removed directory's names do not come back", tag);
}

/* big: the 10,000-entry directory; rev0: 128-byte inodes (no nanoseconds),
 * no extended attributes */
static void test_writes(const char *img, const char *tag, bool big, bool rev0)
{
	struct img im;
	struct ext2_fs *fs;
	struct ext2_stat st;
	struct ext2_statfs sf0, sf1;
	uint32_t root = EXT2_ROOT_INO, f, d1, d2, d3, tmp1, gone, x, y, sub, lnk;
	uint8_t *data, *back;
	size_t len300 = 300000;
	uint64_t nblk;
	uint32_t near_ino = 0;
	char name[300];
	int i, err;
	bool good;
	int64_t r;

	ok(img_mount(&im, img, 0) == 0, "%s: mounts read-write", tag);
	fs = im.fs;
	ext2_statfs(fs, &sf0);

	/* files with holes */
	data = xmalloc(200000);
	back = xmalloc(200000);
	memset(data, 0, 200000);
	fill_pattern(data, 5000, 11);
	fill_pattern(data + 100000, 3000, 12);
	err = ext2_mknod(fs, root, "holes", 5, EXT2_S_IFREG | 0640, 0, 1000, 1000, T(1), &f);
	ok(err == 0, "%s: create /holes (%d)", tag, err);
	ok(ext2_write(fs, f, 0, data, 5000, T(2)) == 5000 &&
	   ext2_write(fs, f, 100000, data + 100000, 3000, T(3)) == 3000,
	   "%s: two writes with a hole between", tag);
	r = ext2_read(fs, f, 0, back, 200000);
	ok(r == 103000 && !memcmp(back, data, 103000), "%s: reads back with zeros in the hole (%lld)",
	   tag, (long long)r);
	/* the data blocks of both ranges, and an indirect block (for 1, 2 and 4 KiB
	 * blocks the second range is past the 12 direct ones) */
	{
		uint32_t bs = ext2_block_size(fs);

		nblk = (5000 + bs - 1) / bs + 102999 / bs - 100000 / bs + 1 + 1;
		nblk *= bs / 512;
	}
	err = ext2_stat(fs, f, &st);
	ok(err == 0 && st.size == 103000 && st.uid == 1000 && st.mtime.sec == T(3).sec &&
	   st.mtime.nsec == (rev0 ? 0 : T(3).nsec) && st.blocks == nblk,
	   "%s: size, owner, mtime, blocks (%llu) of a sparse file", tag,
	   (unsigned long long)st.blocks);

	/* truncate: shrink then grow */
	err = ext2_mknod(fs, root, "trunc", 5, EXT2_S_IFREG | 0644, 0, 0, 0, T(4), &x);
	{
		uint8_t *big300 = xmalloc(len300), *rb = xmalloc(len300);

		fill_pattern(big300, len300, 13);
		good = err == 0 && ext2_write(fs, x, 0, big300, len300, T(5)) == (int64_t)len300;
		ext2_statfs(fs, &sf1);
		good = good && ext2_truncate(fs, x, 5000, T(6)) == 0;
		{
			struct ext2_statfs sf2;

			ext2_statfs(fs, &sf2);
			ok(good && sf2.bfree > sf1.bfree, "%s: truncate to 5000 frees blocks "
			   "(%llu -> %llu free)", tag, (unsigned long long)sf1.bfree,
			   (unsigned long long)sf2.bfree);
		}
		good = ext2_truncate(fs, x, 200000, T(7)) == 0;
		r = ext2_read(fs, x, 0, rb, len300);
		memset(big300 + 5000, 0, 195000);
		ok(good && r == 200000 && !memcmp(rb, big300, 200000),
		   "%s: grow to 200000 reads old bytes then zeros", tag);
		free(big300);
		free(rb);
	}

	/* directories and renames */
	ok(ext2_mkdir(fs, root, "d1", 2, 0755, 0, 0, T(8), &d1) == 0 &&
	   ext2_mkdir(fs, d1, "d2", 2, 0700, 0, 0, T(9), &d2) == 0,
	   "%s: mkdir /d1 /d1/d2", tag);
	ok(ext2_stat(fs, d1, &st) == 0 && st.nlink == 3, "%s: /d1 has 3 links", tag);
	ok(ext2_mkdir(fs, root, "d1", 2, 0755, 0, 0, T(8), &tmp1) == -EEXIST, "%s: mkdir of an "
	   "existing name is EEXIST", tag);
	ok(ext2_rename(fs, root, "holes", 5, d2, "moved", 5, T(10), &gone) == 0 && gone == 0 &&
	   resolve(fs, "/d1/d2/moved", &y) == 0 && y == f &&
	   ext2_lookup(fs, root, "holes", 5, &y) == -ENOENT,
	   "%s: rename a file across directories", tag);
	ok(ext2_mknod(fs, d1, "victim", 6, EXT2_S_IFREG | 0644, 0, 0, 0, T(11), &x) == 0 &&
	   ext2_rename(fs, d2, "moved", 5, d1, "victim", 6, T(12), &gone) == 0 && gone == x &&
	   ext2_release(fs, gone) == 0 && resolve(fs, "/d1/victim", &y) == 0 && y == f,
	   "%s: rename over an existing file frees it", tag);
	ok(ext2_rename(fs, root, "d1", 2, d2, "in", 2, T(13), &gone) == -EINVAL,
	   "%s: moving a directory under itself is EINVAL", tag);
	ok(ext2_rename(fs, d1, "d2", 2, root, "d3", 2, T(14), &gone) == 0 &&
	   ext2_lookup(fs, d2, "..", 2, &y) == 0 && y == root &&
	   ext2_stat(fs, d1, &st) == 0 && st.nlink == 2, "%s: directory moved up: \"..\" "
	   "and link counts fixed", tag);
	d3 = d2;
	ok(ext2_mkdir(fs, d1, "e", 1, 0755, 0, 0, T(15), &x) == 0 &&
	   ext2_rename(fs, d3, "nope", 4, d1, "e", 1, T(15), &gone) == -ENOENT &&
	   ext2_mkdir(fs, d3, "full", 4, 0755, 0, 0, T(15), &y) == 0 &&
	   ext2_mknod(fs, y, "f", 1, EXT2_S_IFREG | 0600, 0, 0, 0, T(15), &tmp1) == 0 &&
	   ext2_rename(fs, d1, "e", 1, d3, "full", 4, T(16), &gone) == -ENOTEMPTY &&
	   ext2_rmdir(fs, d3, "full", 4, T(16), &gone) == -ENOTEMPTY &&
	   ext2_unlink(fs, y, "f", 1, T(16), &gone) == 0 && gone == tmp1 &&
	   ext2_release(fs, gone) == 0 &&
	   ext2_rename(fs, d1, "e", 1, d3, "full", 4, T(17), &gone) == 0 && gone == y &&
	   ext2_release(fs, gone) == 0,
	   "%s: rename a directory over an empty one (ENOTEMPTY while it is not)", tag);
	ok(ext2_stat(fs, d1, &st) == 0 && st.nlink == 2 && ext2_stat(fs, d3, &st) == 0 &&
	   st.nlink == 3 && ext2_lookup(fs, x, "..", 2, &y) == 0 && y == d3,
	   "%s: link counts after replacing a directory", tag);
	ok(ext2_rmdir(fs, d3, "full", 4, T(18), &gone) == 0 && gone == x &&
	   ext2_release(fs, gone) == 0 && ext2_unlink(fs, d3, "full", 4, T(18), &gone) == -ENOENT,
	   "%s: rmdir", tag);
	ok(ext2_unlink(fs, root, "d1", 2, T(18), &gone) == -EISDIR &&
	   ext2_rmdir(fs, root, "trunc", 5, T(18), &gone) == -ENOTDIR,
	   "%s: unlink of a directory EISDIR, rmdir of a file ENOTDIR", tag);

	/* symlinks and hard links */
	{
		char slow[200], got[300];

		memset(slow, 's', sizeof(slow));
		slow[0] = '/';
		ok(ext2_symlink(fs, root, "fast", 4, "d1/victim", 9, 0, 0, T(19), &lnk) == 0 &&
		   ext2_readlink(fs, lnk, got, sizeof(got)) == 9 && !memcmp(got, "d1/victim", 9) &&
		   ext2_stat(fs, lnk, &st) == 0 && st.blocks == 0,
		   "%s: fast symlink (no block)", tag);
		ok(ext2_symlink(fs, root, "slow", 4, slow, sizeof(slow), 0, 0, T(20), &lnk) == 0 &&
		   ext2_readlink(fs, lnk, got, sizeof(got)) == (int)sizeof(slow) &&
		   !memcmp(got, slow, sizeof(slow)) && ext2_stat(fs, lnk, &st) == 0 &&
		   st.blocks > 0, "%s: slow symlink (a data block)", tag);
	}
	ok(ext2_link(fs, f, root, "hard", 4, T(21)) == 0 && ext2_stat(fs, f, &st) == 0 &&
	   st.nlink == 2 && ext2_link(fs, d1, root, "dl", 2, T(21)) == -EPERM,
	   "%s: hard link (nlink 2; a directory is EPERM)", tag);
	ok(ext2_mknod(fs, root, "hard2", 5, EXT2_S_IFREG | 0644, 0, 0, 0, T(22), &x) == 0 &&
	   ext2_link(fs, x, root, "hard3", 5, T(22)) == 0 &&
	   ext2_unlink(fs, root, "hard2", 5, T(23), &gone) == 0 && gone == 0 &&
	   ext2_stat(fs, x, &st) == 0 && st.nlink == 1, "%s: unlink one of two names", tag);
	/* O_TMPFILE: an inode with no link, linkable once; released unnamed */
	ok(ext2_tmpfile(fs, root, EXT2_S_IFREG | 0600, 5, 6, T(23), &x) == 0 && ext2_stat(fs, x, &st) == 0 &&
	   st.nlink == 0 && st.mode == (EXT2_S_IFREG | 0600) && st.uid == 5 && st.gid == 6 &&
	   ext2_link(fs, x, root, "tmpx", 4, T(23)) == -ENOENT &&
	   ext2_link_unnamed(fs, x, root, "tmpx", 4, T(23)) == 0 && ext2_stat(fs, x, &st) == 0 &&
	   st.nlink == 1 && ext2_lookup(fs, root, "tmpx", 4, &y) == 0 && y == x &&
	   ext2_unlink(fs, root, "tmpx", 4, T(23), &gone) == 0 && gone == x && ext2_release(fs, x) == 0,
	   "%s: tmpfile: no link, then a name, unlinked and released", tag);
	ok(ext2_tmpfile(fs, root, EXT2_S_IFREG | 0600, 0, 0, T(23), &x) == 0 && ext2_release(fs, x) == 0 &&
	   ext2_tmpfile(fs, f, EXT2_S_IFREG | 0600, 0, 0, T(23), &x) == -ENOTDIR &&
	   ext2_tmpfile(fs, root, EXT2_S_IFDIR | 0700, 0, 0, T(23), &x) == -EINVAL,
	   "%s: tmpfile released unnamed; ENOTDIR, EINVAL", tag);
	memset(name, 'n', sizeof(name));
	ok(ext2_mknod(fs, root, name, 256, EXT2_S_IFREG | 0644, 0, 0, 0, T(24), &x) ==
	   -ENAMETOOLONG && ext2_mknod(fs, root, name, 255, EXT2_S_IFREG | 0644, 0, 0, 0, T(24),
				       &x) == 0 &&
	   ext2_lookup(fs, root, name, 256, &x) == -ENAMETOOLONG,
	   "%s: a 256-byte name is ENAMETOOLONG, 255 works", tag);
	ok(ext2_mknod(fs, root, "fifo", 4, EXT2_S_IFIFO | 0600, 0, 0, 0, T(25), &x) == 0 &&
	   ext2_mknod(fs, root, "tty", 3, EXT2_S_IFCHR | 0600, (4 << 8) | 1, 0, 0, T(25), &y) == 0 &&
	   ext2_stat(fs, y, &st) == 0 && st.rdev == ((4 << 8) | 1),
	   "%s: FIFO and device nodes", tag);
	{
		struct ext2_setattr sa = { .mask = EXT2_SET_MODE | EXT2_SET_UID | EXT2_SET_GID |
					   EXT2_SET_ATIME, .mode = 04711, .uid = 70000,
					   .gid = 70001, .atime = T(26) };

		ok(ext2_setattr(fs, x, &sa, T(27)) == 0 && ext2_stat(fs, x, &st) == 0 &&
		   st.mode == (EXT2_S_IFIFO | 04711) && st.uid == 70000 && st.gid == 70001 &&
		   st.atime.sec == T(26).sec && st.ctime.sec == T(27).sec,
		   "%s: setattr mode, 32-bit uid/gid, atime; ctime stamped", tag);
	}

	/* a file past 4 GiB: the triple-indirect block on 4K blocks */
	{
		uint64_t far = (5ull << 30) + 123;

		ok(ext2_mknod(fs, root, "huge", 4, EXT2_S_IFREG | 0644, 0, 0, 0, T(28), &x) == 0 &&
		   ext2_write(fs, x, 0, "start", 5, T(28)) == 5 &&
		   ext2_write(fs, x, far, "HELLO", 5, T(29)) == 5 &&
		   ext2_read(fs, x, far - 2, back, 100) == 7 && !memcmp(back, "\0\0HELLO", 7) &&
		   ext2_stat(fs, x, &st) == 0 && st.size == far + 5,
		   "%s: a sparse file past 5 GiB", tag);
	}

	/* allocation near the inode: a file in /d3 (a directory, so spread to
	 * another group) written sequentially */
	{
		uint8_t *near = xmalloc(50000);

		fill_pattern(near, 50000, 14);
		ok(ext2_mknod(fs, d3, "near", 4, EXT2_S_IFREG | 0644, 0, 0, 0, T(29), &near_ino) == 0 &&
		   ext2_write(fs, near_ino, 0, near, 50000, T(29)) == 50000, "%s: write /d3/near", tag);
		free(near);
	}

	/* a file with an attribute block (mke2fs -d copied it) */
	if (have_xattr && !rev0) {
		char *out = capture(NULL, "debugfs -R 'stat /xattr' %s 2>/dev/null", img);

		ok(strstr(out, "File ACL: ") && !strstr(out, "File ACL: 0\n") &&
		   ext2_unlink(fs, root, "xattr", 5, T(29), &gone) == 0 &&
		   ext2_release(fs, gone) == 0, "%s: delete a file with an attribute block", tag);
		free(out);
	} else {
		printf("ok %d # SKIP %s: no user xattrs in the %s\n", ++tap_ntests, tag,
		       rev0 ? "image (revision 0)" : "source tree's file system");
	}

	/* many entries */
	if (big) {
		ok(ext2_mkdir(fs, root, "big", 3, 0755, 0, 0, T(30), &sub) == 0, "%s: mkdir /big", tag);
		struct timespec t0, t1;

		good = true;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		for (i = 0; i < BIG_ENTRIES && good; i++) {
			int n = snprintf(name, sizeof(name), "file-%05d", i);

			good = ext2_mknod(fs, sub, name, (size_t)n, EXT2_S_IFREG | 0644, 0, 0, 0,
					  T(31), &x) == 0;
		}
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		ok(good, "%s: %d files created in one directory", tag, BIG_ENTRIES);
		long cpu_ms = (long)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
		tap_diag("%s: %d creations took %ld ms of CPU (ASan build)", tag, BIG_ENTRIES, cpu_ms);
		/* a scan per creation (no name index) took about 900 ms */
		ok(cpu_ms < 400, "%s: %d creations in one directory take under 400 ms of CPU "
		   "(the name index: no scan of the directory per name)", tag, BIG_ENTRIES);
		ok(count_entries(fs, sub) == BIG_ENTRIES + 2, "%s: readdir lists all of them", tag);
		good = true;
		for (i = 0; i < BIG_ENTRIES && good; i += 2) {
			int n = snprintf(name, sizeof(name), "file-%05d", i);

			good = ext2_unlink(fs, sub, name, (size_t)n, T(32), &gone) == 0 &&
				ext2_release(fs, gone) == 0;
		}
		ok(good && count_entries(fs, sub) == BIG_ENTRIES / 2 + 2 &&
		   ext2_lookup(fs, sub, "file-09999", 10, &x) == 0 &&
		   ext2_lookup(fs, sub, "file-09998", 10, &x) == -ENOENT,
		   "%s: half of them unlinked", tag);
		ok(readdir_stable(fs, sub), "%s: a listing resumed from its cookie after changes "
		   "returns every untouched entry exactly once", tag);
		test_name_index(fs, root, sub, tag);
	}
	ext2_statfs(fs, &sf1);
	ok(sf1.bsize == ext2_block_size(fs) && sf1.bfree < sf0.bfree && sf1.ffree < sf0.ffree &&
	   sf1.blocks > sf1.bfree && sf1.namemax == 255, "%s: statfs numbers move", tag);
	ok(img_unmount(&im) == 0, "%s: unmount syncs", tag);
	ok(fsck_clean(img), "%s: e2fsck -fn finds the image clean", tag);

	/* the host's tools see what was written */
	ok(debugfs_cat(img, "/d1/victim", data, 103000) &&
	   debugfs_stat_has(img, "/d1/victim", "Size: 103000", "Links: 2"),
	   "%s: debugfs cat/stat of the holey file agree", tag);
	ok(blocks_near(img, "/d3/near", near_ino), "%s: /d3/near's blocks are contiguous and in "
	   "its inode's group", tag);
	ok(debugfs_stat_has(img, "/fast", "Fast link dest: \"d1/victim\"", NULL),
	   "%s: debugfs sees the fast symlink", tag);
	{
		/* mtime with its nanoseconds in the extra field, as debugfs prints it */
		char mt[64];

		if (rev0)
			snprintf(mt, sizeof(mt), "mtime: 0x%08x -- ", (unsigned)T(29).sec);
		else
			snprintf(mt, sizeof(mt), "mtime: 0x%08x:%08x", (unsigned)T(29).sec,
				 (unsigned)T(29).nsec << 2);
		ok(debugfs_stat_has(img, "/huge", "Size: 5368709248", mt), "%s: debugfs sees the "
		   "5 GiB size and the mtime's nanoseconds", tag);
	}
	ok(debugfs_stat_has(img, "/d1/victim", "Mode:  0640", "User:  1000   Group:  1000"),
	   "%s: debugfs sees the mode and owner", tag);
	{
		uint8_t *want = xmalloc(200000);

		fill_pattern(want, 5000, 13);
		memset(want + 5000, 0, 195000);
		ok(debugfs_cat(img, "/trunc", want, 200000), "%s: debugfs cat of the truncated "
		   "file", tag);
		free(want);
	}
	if (big) {
		char *out = capture(NULL, "debugfs -R 'ls /big' %s 2>/dev/null | tr -s ' \\n' '\\n\\n'"
				    " | grep -c '^file-'", img);

		/* half removed, 9 more by readdir_stable, 300 added */
		ok(atoi(out) == BIG_ENTRIES / 2 - 9 + 300, "%s: debugfs lists %d entries in /big "
		   "(%s)", tag, BIG_ENTRIES / 2 - 9 + 300, chomp(out));
		free(out);
	}
	free(data);
	free(back);
}

/* -- 3. a hash-indexed directory (e2fsck -D builds one) ------------------ */

static void test_htree(const char *pristine)
{
	char img[300];
	struct img im;
	uint32_t dino, x, gone;
	char *out;

	snprintf(img, sizeof(img), "%s/htree.img", tmp);
	run("cp --sparse=always %s %s && e2fsck -fyD %s >/dev/null 2>&1", pristine, img, img);
	ok(debugfs_stat_has(img, "/sub/many", "Flags: 0x1000", NULL),
	   "htree: e2fsck -D indexed /sub/many");
	dino = ino_of(img, "/sub/many");
	ok(img_mount(&im, img, 0) == 0 && ext2_lookup(im.fs, dino, "n150", 4, &x) == 0 &&
	   count_entries(im.fs, dino) == 302, "htree: an indexed directory reads as a linear one");
	ok(ext2_mknod(im.fs, dino, "added", 5, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &x) == 0 &&
	   ext2_unlink(im.fs, dino, "n000", 4, T(2), &gone) == 0 && ext2_release(im.fs, gone) == 0,
	   "htree: add and remove entries");
	ok(img_unmount(&im) == 0, "htree: unmount");
	ok(fsck_clean(img) && debugfs_stat_has(img, "/sub/many", "Flags: 0x0", NULL),
	   "htree: the index flag is cleared and e2fsck finds the directory clean");
	/* one name per line (a name's column follows mke2fs's random hash seed);
	 * a removed name that opened a block stays there with inode 0, as Linux's
	 * ext2 leaves it, so debugfs's lookup is what says it is gone */
	out = capture(NULL, "debugfs -R 'ls /sub/many' %s 2>/dev/null | tr -s ' \\n' '\\n\\n';"
		      "debugfs -R 'stat /sub/many/n000' %s 2>&1", img, img);
	ok(strstr(out, "\nadded\n") && strstr(out, "\nn299\n") &&
	   strstr(out, "n000: File not found"), "htree: debugfs lists the change");
	free(out);
}

/* -- 4. device errors ---------------------------------------------------- */

static void test_io_errors(const char *pristine)
{
	char img[300];
	struct img im;
	uint8_t buf[100];
	uint32_t x, y, dino;
	int err;

	snprintf(img, sizeof(img), "%s/io.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	dino = ino_of(img, "/sub/many");
	x = ino_of(img, "/dind");
	ok(img_mount(&im, img, 0) == 0, "io: mount");
	{
		/* the image as a crash would leave it: mounted, not clean */
		char crashed[300];
		struct img im2;

		snprintf(crashed, sizeof(crashed), "%s/crashed.img", tmp);
		run("cp --sparse=always %s %s", img, crashed);
		ok(img_mount(&im2, crashed, EXT2_MOUNT_RDONLY) == 0 &&
		   strstr(logbuf, "not cleanly unmounted"), "io: a mounted image is not clean on "
		   "disk: mounting a copy warns (%s)", logbuf);
		img_unmount(&im2);
	}
	fail_io = 1;
	ok(ext2_read(im.fs, x, 0, buf, sizeof(buf)) == -EIO &&
	   ext2_lookup(im.fs, dino, "n100", 4, &y) == -EIO, "io: read errors are EIO");
	fail_io = 0;
	ok(ext2_read(im.fs, x, 0, buf, sizeof(buf)) == (int64_t)sizeof(buf) &&
	   ext2_lookup(im.fs, dino, "n100", 4, &y) == 0, "io: and nothing sticks once the disk "
	   "reads again");
	ok(ext2_mknod(im.fs, EXT2_ROOT_INO, "kept", 4, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &y) == 0 &&
	   ext2_write(im.fs, y, 0, "acknowledged", 12, T(2)) == 12, "io: create and write");
	fail_io = 2;
	err = ext2_sync(im.fs);
	fail_io = 0;
	ok(err == -EIO, "io: sync reports a write error (%d)", err);
	ok(ext2_sync(im.fs) == 0 && img_unmount(&im) == 0 && fsck_clean(img) &&
	   debugfs_cat(img, "/kept", (const uint8_t *)"acknowledged", 12),
	   "io: the next sync writes everything: e2fsck clean, data there");
}

/* -- 5. a full disk ------------------------------------------------------ */

static struct ext2_super read_super(int fd);

static void test_enospc(void)
{
	char img[300];
	struct img im;
	uint8_t *chunk = xmalloc(10000), *all = xmalloc(4 << 20), *back = xmalloc(4 << 20);
	uint64_t total = 0;
	uint32_t f, d;
	int64_t r = 0;
	struct ext2_stat st;
	char sz[64];

	snprintf(img, sizeof(img), "%s/small.img", tmp);
	if (!ok(make_image(img, NULL, "2M"), "enospc: mke2fs of a 2 MiB image"))
		return;
	ok(img_mount(&im, img, 0) == 0 &&
	   ext2_mknod(im.fs, EXT2_ROOT_INO, "fill", 4, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &f) == 0,
	   "enospc: create");
	int sfd = open(img, O_RDONLY);
	uint32_t reserved = sfd >= 0 ? read_super(sfd).s_r_blocks_count : 0;
	if (sfd >= 0)
		close(sfd);
	uint64_t user_total = 0;
	/* first as uid 1000: the blocks reserved for root stay free */
	for (int pass = 0; pass < 2; pass++) {
		ext2_set_caller(im.fs, pass ? 0 : 1000, pass ? 0 : 1000);
		while (total + 10000 <= (4u << 20)) {
			fill_pattern(chunk, 10000, (uint32_t)total);
			r = ext2_write(im.fs, f, total, chunk, 10000, T(2));
			if (r <= 0)
				break;
			memcpy(all + total, chunk, (size_t)r);
			total += (uint64_t)r;
			if (r < 10000)
				break;
		}
		struct ext2_statfs sf;
		ext2_statfs(im.fs, &sf);
		if (!pass) {
			user_total = total;
			ok(r == -ENOSPC || (r >= 0 && r < 10000), "enospc: uid 1000 gets a short write or ENOSPC");
			ok(sf.bavail == 0 && sf.bfree > 0 && sf.bfree <= reserved && sf.bfree + 4 >= reserved,
			   "enospc: uid 1000 stops at the %u reserved blocks (bfree %llu, bavail 0)", reserved,
			   (unsigned long long)sf.bfree);
			ok(ext2_write(im.fs, f, total, chunk, 10000, T(3)) == -ENOSPC,
			   "enospc: uid 1000's next write is ENOSPC");
		} else {
			ok(sf.bfree == 0, "enospc: root takes the reserved blocks too (bfree 0)");
		}
	}
	ok(total > 1000000 && total < 2000000 && total > user_total + (reserved - 8) * 1024ull,
	   "enospc: %llu bytes fit (%llu as uid 1000), then a short write", (unsigned long long)total,
	   (unsigned long long)user_total);
	ok(ext2_write(im.fs, f, total, chunk, 10000, T(3)) == -ENOSPC, "enospc: then ENOSPC");
	ok(ext2_mkdir(im.fs, EXT2_ROOT_INO, "dir", 3, 0755, 0, 0, T(4), &d) == -ENOSPC,
	   "enospc: mkdir on a full disk is ENOSPC (its inode undone)");
	ok(img_unmount(&im) == 0, "enospc: unmount");
	ok(fsck_clean(img), "enospc: e2fsck -fn clean after filling the disk");
	ok(img_mount(&im, img, EXT2_MOUNT_RDONLY) == 0 && ext2_stat(im.fs, f, &st) == 0 &&
	   st.size == total && ext2_read(im.fs, f, 0, back, 4 << 20) == (int64_t)total &&
	   !memcmp(back, all, total), "enospc: the file is intact up to the last byte written");
	ok(ext2_mknod(im.fs, EXT2_ROOT_INO, "x", 1, EXT2_S_IFREG | 0644, 0, 0, 0, T(5), &d) ==
	   -EROFS, "enospc: a read-only mount refuses changes with EROFS");
	img_unmount(&im);
	snprintf(sz, sizeof(sz), "Size: %llu", (unsigned long long)total);
	ok(debugfs_stat_has(img, "/fill", sz, NULL), "enospc: debugfs agrees on the size");
	free(chunk);
	free(all);
	free(back);
}

/* -- 6. corrupted images ------------------------------------------------- */

static struct ext2_super read_super(int fd)
{
	struct ext2_super sb;

	if (pread(fd, &sb, sizeof(sb), 1024) != sizeof(sb))
		tap_bail("superblock");
	return sb;
}

/* Byte offset of inode ino in the image, found from its descriptors. */
static off_t inode_off(int fd, uint32_t ino)
{
	struct ext2_super sb = read_super(fd);
	uint32_t bs = 1024u << sb.s_log_block_size, g = (ino - 1) / sb.s_inodes_per_group;
	struct ext2_group_desc gd;

	if (pread(fd, &gd, sizeof(gd), (off_t)(sb.s_first_data_block + 1) * bs + g * 32) !=
	    sizeof(gd))
		tap_bail("group descriptor");
	return (off_t)gd.bg_inode_table * bs +
		(off_t)((ino - 1) % sb.s_inodes_per_group) * sb.s_inode_size;
}

static uint32_t inode_block0(int fd, uint32_t ino, uint32_t *bs)
{
	struct ext2_super sb = read_super(fd);
	struct ext2_inode in;

	if (pread(fd, &in, 128, inode_off(fd, ino)) != 128)
		tap_bail("inode");
	*bs = 1024u << sb.s_log_block_size;
	return in.i_block[0];
}

static void poke(int fd, off_t off, const void *p, size_t n)
{
	if (pwrite(fd, p, n, off) != (ssize_t)n)
		tap_bail("pwrite");
}

/* A fresh copy of the pristine image, with its fd, and the inode of path. */
static int corrupt_copy(const char *pristine, const char *copy)
{
	int fd;

	if (run("cp --sparse=always %s %s", pristine, copy))
		tap_bail("cp");
	fd = open(copy, O_RDWR);
	if (fd < 0)
		tap_bail("open copy");
	return fd;
}

static uint32_t ino_of(const char *img, const char *path)
{
	struct img im;
	uint32_t ino = 0;

	if (img_mount(&im, img, EXT2_MOUNT_RDONLY) || resolve(im.fs, path, &ino))
		tap_bail("resolve %s", path);
	img_unmount(&im);
	return ino;
}

static bool log_names(uint32_t ino)
{
	char want[32];

	snprintf(want, sizeof(want), "inode %u:", ino);
	if (!strstr(logbuf, want))
		tap_diag("log \"%s\" does not name %s", logbuf, want);
	return strstr(logbuf, want) != NULL;
}

struct walk {
	struct ext2_fs *fs;
	uint32_t inos[64];
	int n, visited;
};

static int walk_cb(void *ctx, const char *name, size_t len, uint32_t ino, unsigned dtype,
		   uint64_t next)
{
	struct walk *w = ctx;

	(void)name; (void)dtype; (void)next;
	if (w->n < 64 && !(len <= 2 && name[0] == '.'))
		w->inos[w->n++] = ino;
	return 0;
}

/* Reads everything reachable from dir (bounded: a corrupt tree may loop). */
static void walk_all(struct ext2_fs *fs, uint32_t dir, int depth, int *budget)
{
	struct walk w = { .fs = fs };
	uint64_t cookie = 0;
	struct ext2_stat st;
	uint8_t buf[4096];
	int i;

	if (depth > 6 || --*budget < 0)
		return;
	ext2_readdir(fs, dir, &cookie, walk_cb, &w);
	for (i = 0; i < w.n; i++) {
		if (ext2_stat(fs, w.inos[i], &st))
			continue;
		if ((st.mode & EXT2_S_IFMT) == EXT2_S_IFDIR)
			walk_all(fs, w.inos[i], depth + 1, budget);
		else if ((st.mode & EXT2_S_IFMT) == EXT2_S_IFLNK)
			ext2_readlink(fs, w.inos[i], (char *)buf, sizeof(buf));
		else
			ext2_read(fs, w.inos[i], st.size > 8192 ? st.size - 8192 : 0, buf,
				  sizeof(buf));
	}
}

/* Random bytes of the inode table and of directory blocks flipped, the
 * whole tree read: nothing may crash (ASan/UBSan watch). Read-only
 * mounts, so restoring the flipped bytes restores the image. */
static void test_random_corruption(const char *pristine)
{
	char img[300];
	off_t spots[3];
	uint32_t bs, seed = 12345, dirs[3];
	int fd, round, k, mounted = 0, walked = 0, reported = 0;
	struct img im;

	snprintf(img, sizeof(img), "%s/rand.img", tmp);
	dirs[0] = EXT2_ROOT_INO;
	dirs[1] = ino_of(pristine, "/sub");
	dirs[2] = ino_of(pristine, "/sub/many");
	fd = corrupt_copy(pristine, img);
	for (k = 0; k < 3; k++)
		spots[k] = (off_t)inode_block0(fd, dirs[k], &bs) * bs;
	for (round = 0; round < 60; round++) {
		off_t at[8];
		uint8_t old[8], b;
		int budget = 400;

		for (k = 0; k < 8; k++) {
			seed = seed * 1103515245u + 12345u;
			if (k & 1)      /* an inode of the first 400 */
				at[k] = inode_off(fd, 1 + (seed >> 8) % 400) + (seed >> 20) % 160;
			else            /* a directory block */
				at[k] = spots[(seed >> 4) % 3] + (seed >> 12) % bs;
			if (pread(fd, &old[k], 1, at[k]) != 1)
				tap_bail("pread");
			b = old[k] ^ (uint8_t)(1u << ((seed >> 24) & 7));
			poke(fd, at[k], &b, 1);
		}
		nlogs = 0;
		if (img_mount(&im, img, EXT2_MOUNT_RDONLY) == 0) {
			mounted++;
			walk_all(im.fs, EXT2_ROOT_INO, 0, &budget);
			walked += 400 - budget;
			reported += nlogs > 0;
			img_unmount(&im);
		} else {
			close(im.fd);
		}
		for (k = 7; k >= 0; k--)
			poke(fd, at[k], &old[k], 1);
	}
	close(fd);
	ok(mounted == 60 && walked > 60 * 3, "corrupt: 60 rounds of 8 random bit flips in inodes "
	   "and directories, the whole tree read each time (%d directories), no crash; %d "
	   "rounds reported corruption", walked, reported);
}

static void test_corruption(const char *pristine)
{
	char img[300];
	struct img im;
	struct ext2_super sb;
	uint32_t ino, dino, bs, blk, v, gone, x;
	uint8_t buf[64];
	uint16_t rl;
	int fd;

	snprintf(img, sizeof(img), "%s/bad.img", tmp);

	fd = corrupt_copy(pristine, img);
	sb = read_super(fd);
	sb.s_magic ^= 0x0101;
	poke(fd, 1024, &sb, sizeof(sb));
	close(fd);
	ok(img_mount(&im, img, 0) == -EINVAL && strstr(logbuf, "magic"),
	   "corrupt: bad magic is EINVAL with a message (%s)", logbuf);
	close(im.fd);

	fd = corrupt_copy(pristine, img);
	sb = read_super(fd);
	sb.s_feature_incompat |= 0x40;  /* extents */
	poke(fd, 1024, &sb, sizeof(sb));
	close(fd);
	ok(img_mount(&im, img, 0) == -EINVAL, "corrupt: an unknown incompatible feature is EINVAL");
	close(im.fd);

	fd = corrupt_copy(pristine, img);
	sb = read_super(fd);
	sb.s_feature_ro_compat |= 0x400;        /* metadata_csum */
	poke(fd, 1024, &sb, sizeof(sb));
	close(fd);
	ok(img_mount(&im, img, 0) == 0 && ext2_is_rdonly(im.fs) &&
	   ext2_mkdir(im.fs, EXT2_ROOT_INO, "x", 1, 0755, 0, 0, T(1), &x) == -EROFS &&
	   ext2_lookup(im.fs, EXT2_ROOT_INO, "small", 5, &x) == 0,
	   "corrupt: an unknown read-only feature mounts read-only");
	img_unmount(&im);

	fd = corrupt_copy(pristine, img);
	sb = read_super(fd);
	{
		struct ext2_group_desc gd;
		off_t at = (off_t)(sb.s_first_data_block + 1) * (1024u << sb.s_log_block_size);

		if (pread(fd, &gd, sizeof(gd), at) != sizeof(gd))
			tap_bail("gd");
		gd.bg_inode_table = sb.s_blocks_count + 5;
		poke(fd, at, &gd, sizeof(gd));
	}
	close(fd);
	ok(img_mount(&im, img, 0) == -EINVAL, "corrupt: an inode table past the end is EINVAL");
	close(im.fd);

	/* a block number past the end in a file's map */
	ino = ino_of(pristine, "/dind");
	fd = corrupt_copy(pristine, img);
	v = 0x7ffffff0;
	poke(fd, inode_off(fd, ino) + 40 + 4 * 3, &v, 4);       /* i_block[3] */
	close(fd);
	nlogs = 0;
	ok(img_mount(&im, img, 0) == 0 && ext2_read(im.fs, ino, 0, buf, sizeof(buf)) == 64 &&
	   ext2_read(im.fs, ino, 3 * 1024, buf, sizeof(buf)) == -EIO && log_names(ino),
	   "corrupt: a block past the end is EIO naming inode %u", ino);
	ok(ext2_truncate(im.fs, ino, 0, T(1)) == -EIO &&
	   ext2_unlink(im.fs, EXT2_ROOT_INO, "dind", 4, T(1), &gone) == 0 &&
	   ext2_release(im.fs, gone) == -EIO, "corrupt: truncating or freeing it is EIO");
	img_unmount(&im);

	/* a directory record with a bad rec_len */
	dino = ino_of(pristine, "/sub/many");
	fd = corrupt_copy(pristine, img);
	blk = inode_block0(fd, dino, &bs);
	rl = 13;
	poke(fd, (off_t)blk * bs + 12 + 4, &rl, 2);     /* ".."'s rec_len */
	close(fd);
	ok(img_mount(&im, img, 0) == 0 &&
	   ext2_lookup(im.fs, dino, "n299", 4, &x) == -EIO && log_names(dino) &&
	   count_entries(im.fs, dino) == -EIO &&
	   ext2_mknod(im.fs, dino, "new", 3, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &x) == -EIO &&
	   ext2_rmdir(im.fs, ino_of(pristine, "/sub"), "many", 4, T(1), &gone) == -EIO,
	   "corrupt: a bad rec_len is EIO naming directory inode %u", dino);
	img_unmount(&im);

	/* an inode number out of range in a directory entry */
	fd = corrupt_copy(pristine, img);
	blk = inode_block0(fd, dino, &bs);
	v = 0x7fffffff;
	poke(fd, (off_t)blk * bs + 24, &v, 4);  /* the entry after ".." */
	close(fd);
	ok(img_mount(&im, img, 0) == 0 && ext2_lookup(im.fs, dino, "n299", 4, &x) == -EIO &&
	   log_names(dino) && ext2_stat(im.fs, 0x7fffffff, &(struct ext2_stat){ 0 }) == -EIO &&
	   ext2_stat(im.fs, 0, &(struct ext2_stat){ 0 }) == -EIO,
	   "corrupt: an inode number out of range is EIO");
	img_unmount(&im);

	/* an entry naming a deleted inode: /small's inode cleared */
	x = ino_of(pristine, "/small");
	fd = corrupt_copy(pristine, img);
	{
		uint8_t zero[128] = { 0 };

		poke(fd, inode_off(fd, x), zero, sizeof(zero));
	}
	close(fd);
	ok(img_mount(&im, img, 0) == 0 &&
	   ext2_lookup(im.fs, EXT2_ROOT_INO, "small", 5, &v) == -EIO && log_names(EXT2_ROOT_INO),
	   "corrupt: an entry naming a deleted inode is EIO (%s)", logbuf);
	img_unmount(&im);

	/* a loop in the tree: /sub's ".." names its own child /sub/deeper */
	dino = ino_of(pristine, "/sub");
	x = ino_of(pristine, "/sub/deeper");
	fd = corrupt_copy(pristine, img);
	blk = inode_block0(fd, dino, &bs);
	poke(fd, (off_t)blk * bs + 12, &x, 4);
	close(fd);
	{
		uint32_t m;

		ok(img_mount(&im, img, 0) == 0 &&
		   ext2_mkdir(im.fs, EXT2_ROOT_INO, "mv", 2, 0755, 0, 0, T(1), &m) == 0 &&
		   ext2_rename(im.fs, EXT2_ROOT_INO, "mv", 2, x, "mv", 2, T(2), &gone) == -EIO &&
		   strstr(logbuf, "loop"), "corrupt: a loop in the tree is EIO (%s)", logbuf);
	}
	img_unmount(&im);

	/* every byte of the superblock's first 128 bytes and of the root inode
	 * flipped in turn: never a crash */
	{
		int i, mounted = 0;
		off_t root_off;

		fd = corrupt_copy(pristine, img);
		root_off = inode_off(fd, EXT2_ROOT_INO);
		close(fd);
		for (i = 0; i < 128 + 128; i++) {
			off_t at = i < 128 ? 1024 + i : root_off + (i - 128);
			uint8_t b;

			fd = open(img, O_RDWR);
			if (fd < 0 || pread(fd, &b, 1, at) != 1)
				tap_bail("flip");
			b ^= 0xa5;
			poke(fd, at, &b, 1);
			close(fd);
			if (img_mount(&im, img, EXT2_MOUNT_RDONLY) == 0) {
				mounted++;
				count_entries(im.fs, EXT2_ROOT_INO);
				ext2_lookup(im.fs, EXT2_ROOT_INO, "small", 5, &x);
				ext2_read(im.fs, x, 0, buf, sizeof(buf));
				img_unmount(&im);
			} else {
				close(im.fd);
			}
			fd = open(img, O_RDWR);
			b ^= 0xa5;
			poke(fd, at, &b, 1);
			close(fd);
		}
		ok(mounted > 0, "corrupt: 256 single-byte flips survived (%d mounted)", mounted);
	}
}

/* ext2_read_direct (the pager's fills) reads what ext2_read reads: from
 * the disk in runs of contiguous blocks (a few device calls for a file of
 * hundreds of blocks), holes as zeros, the last block's bytes past the
 * size zeroed, and blocks the cache holds dirty from the cache. */
static void test_read_direct(const char *pristine)
{
	static const char *const files[] = { "/dind", "/ind", "/small", "/exact", "/sparse", "/one" };
	char img[300];
	struct img im;
	uint32_t ino;

	snprintf(img, sizeof(img), "%s/direct.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	ok(img_mount(&im, img, 0) == 0, "direct: mount a copy");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ext2_stat st;
		bool good = resolve(im.fs, files[i], &ino) == 0 && ext2_stat(im.fs, ino, &st) == 0;
		size_t cap = (size_t)st.size + 8192;
		uint8_t *a = xmalloc(cap), *b = xmalloc(cap);
		memset(b, 0xee, cap);
		unsigned long before = img_reads;
		int64_t rb = good ? ext2_read_direct(im.fs, ino, 0, b, (size_t)st.size + 100) : -1;
		unsigned long calls = img_reads - before;
		int64_t ra = good ? ext2_read(im.fs, ino, 0, a, (size_t)st.size) : -1;
		size_t tail = ((size_t)st.size + 1023) / 1024 * 1024 - (size_t)st.size;
		bool zeros = true;
		for (size_t k = 0; k < tail; k++)
			zeros = zeros && b[st.size + k] == 0;
		ok(good && ra == (int64_t)st.size && rb == ra && !memcmp(a, b, (size_t)st.size) && zeros,
		   "direct: %s (%llu bytes) reads as ext2_read, the last block's tail zero (%lu device calls)",
		   files[i], (unsigned long long)st.size, calls);
		if (!strcmp(files[i], "/dind"))
			ok(calls <= 12, "direct: /dind's 293 blocks in %lu device calls (runs of contiguous blocks)",
			   calls);
		free(a);
		free(b);
	}
	{
		uint8_t buf[4096];

		ok(resolve(im.fs, "/dind", &ino) == 0 && ext2_read_direct(im.fs, ino, 5, buf, 10) == -EINVAL,
		   "direct: an offset inside a block is EINVAL");
		ok(ext2_write(im.fs, ino, 1030, "NEWDATA", 7, T(1)) == 7 &&
		   ext2_read_direct(im.fs, ino, 1024, buf, 4096) == 4096 && !memcmp(buf + 6, "NEWDATA", 7),
		   "direct: a block the cache holds dirty (not yet on the disk) is read from the cache");
		ok(ext2_read_direct(im.fs, ino, 1u << 30, buf, 4096) == 0, "direct: past the size: 0");
	}
	img_unmount(&im);
}

/* The memory a grant read lends (the server's: page cache frames), and
 * the device calls made into it. */
static uint8_t *grant_mem;
static size_t grant_cap;
static unsigned long grant_calls;

static unsigned long wgrant_calls;

/* The device's read_grant (write false) or write_grant: count sectors
 * between the disk and the lent memory from byte goff of it. */
static int img_grant_io(void *ctx, uint64_t sector, uint32_t count, uint64_t goff, bool write)
{
	size_t n = (size_t)count * EXT2_SECTOR_SIZE;

	if (write)
		wgrant_calls++;
	else
		grant_calls++;
	if (goff > grant_cap || n > grant_cap - goff)
		return -EINVAL;
	return write ? img_write(ctx, sector, count, grant_mem + goff) : img_read(ctx, sector, count, grant_mem + goff);
}

static int img_read_grant(void *ctx, uint64_t sector, uint32_t count, uint64_t goff)
{
	return img_grant_io(ctx, sector, count, goff, false);
}

/* ext2_read_grant (zero-copy fills, docs/fs.md) gives what
 * ext2_read_direct gives, a device call per run of contiguous blocks
 * into the lent memory at the window's offsets, or -EAGAIN, having read
 * nothing, where the device cannot give every byte: a hole, a block the
 * cache holds, the size inside the window. */
static void test_read_grant(const char *pristine)
{
	char img[300];
	struct img im;
	uint32_t ino;
	struct ext2_stat st;

	snprintf(img, sizeof(img), "%s/grant.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	ok(img_mount(&im, img, 0) == 0, "grant: mount a copy");
	ok(resolve(im.fs, "/dind", &ino) == 0 && ext2_stat(im.fs, ino, &st) == 0 &&
	   ext2_read_grant(im.fs, ino, 0, 4096) == -EOPNOTSUPP, "grant: a device without read_grant: EOPNOTSUPP");
	im.dev.read_grant = img_read_grant;
	grant_cap = 64 * 1024;
	grant_mem = xmalloc(grant_cap);
	uint8_t *want = xmalloc(grant_cap);
	memset(grant_mem, 0xee, grant_cap);
	unsigned long calls0 = grant_calls;
	int64_t r = ext2_read_grant(im.fs, ino, 8192, grant_cap);
	unsigned long calls = grant_calls - calls0;
	ok(r == (int64_t)grant_cap && calls >= 1 && calls <= 4 &&
	   ext2_read_direct(im.fs, ino, 8192, want, grant_cap) == (int64_t)grant_cap && !memcmp(want, grant_mem, grant_cap),
	   "grant: 64 KiB of /dind from 8 KiB read by the device into the lent memory, as ext2_read_direct (%lu calls)",
	   calls);
	ok(ext2_read_grant(im.fs, ino, 5, 1024) == -EINVAL && ext2_read_grant(im.fs, ino, 0, 1000) == -EINVAL,
	   "grant: an offset or length not in whole blocks: EINVAL");
	calls0 = grant_calls;
	ok(ext2_read_grant(im.fs, ino, st.size / 1024 * 1024, 4096) == -EAGAIN && grant_calls == calls0,
	   "grant: a window the size ends inside: EAGAIN, nothing read");
	ok(ext2_write(im.fs, ino, 20 * 1024 + 3, "NEWDATA", 7, T(1)) == 7 &&
	   ext2_read_grant(im.fs, ino, 16 * 1024, 16 * 1024) == -EAGAIN && grant_calls == calls0,
	   "grant: a window with a block the cache holds dirty: EAGAIN, nothing read");
	ok(resolve(im.fs, "/sparse", &ino) == 0 && ext2_read_grant(im.fs, ino, 0, 4096) == -EAGAIN &&
	   grant_calls == calls0, "grant: a window with a hole: EAGAIN, nothing read");
	free(want);
	free(grant_mem);
	grant_mem = NULL;
	img_unmount(&im);
}

static int img_write_grant(void *ctx, uint64_t sector, uint32_t count, uint64_t goff)
{
	return img_grant_io(ctx, sector, count, goff, true);
}

/* ext2_write_grant (zero-copy writeback, docs/fs.md): the device writes
 * the file's blocks from the lent memory, a call per run of contiguous
 * blocks, holes and new blocks allocated first (bitmaps, the map), the
 * size extended; a stale clean copy in the cache goes, a dirty one makes
 * it EAGAIN with nothing written; what it wrote reads back after a
 * remount and e2fsck finds the image clean. */
static void test_write_grant(const char *pristine)
{
	char img[300];
	struct img im;
	uint32_t f;
	struct ext2_stat st;
	uint8_t *back = xmalloc(64 * 1024);

	snprintf(img, sizeof(img), "%s/wgrant.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	if (!ok(img_mount(&im, img, 0) == 0 &&
		ext2_mknod(im.fs, EXT2_ROOT_INO, "wg", 2, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &f) == 0,
		"wgrant: mount a copy, create a file"))
		return;
	ok(ext2_write_grant(im.fs, f, 0, 4096, T(2)) == -EOPNOTSUPP, "wgrant: a device without write_grant: EOPNOTSUPP");
	im.dev.write_grant = img_write_grant;
	grant_cap = 64 * 1024;
	grant_mem = xmalloc(grant_cap);
	for (size_t i = 0; i < grant_cap; i++)
		grant_mem[i] = (uint8_t)(i * 11 + i / 1000);
	ok(ext2_write_grant(im.fs, f, 5, 4096, T(2)) == -EINVAL && ext2_write_grant(im.fs, f, 0, 1000, T(2)) == -EINVAL,
	   "wgrant: an offset or length not in whole blocks: EINVAL");
	struct ext2_statfs a, b;
	ext2_statfs(im.fs, &a);
	unsigned long calls0 = wgrant_calls, w0 = img_writes;
	int64_t r = ext2_write_grant(im.fs, f, 0, grant_cap, T(2));
	ext2_statfs(im.fs, &b);
	/* (the image's write_grant writes through img_write: those count) */
	ok(r == (int64_t)grant_cap && wgrant_calls - calls0 >= 1 && wgrant_calls - calls0 <= 4 &&
	   img_writes - w0 == wgrant_calls - calls0 && ext2_stat(im.fs, f, &st) == 0 && st.size == grant_cap &&
	   st.mtime.sec == T(2).sec && a.bfree - b.bfree >= 65,
	   "wgrant: 64 KiB into an empty file: its blocks (and an indirect one) allocated, written by the device in %lu calls, "
	   "the size and mtime set", wgrant_calls - calls0);
	ok(ext2_read(im.fs, f, 0, back, grant_cap) == (int64_t)grant_cap && !memcmp(back, grant_mem, grant_cap),
	   "wgrant: read back through the core: the device's bytes (no stale zeroed block kept)");
	ok(ext2_write(im.fs, f, 8192 + 7, "DIRTY", 5, T(3)) == 5 &&
	   ext2_write_grant(im.fs, f, 0, 16384, T(3)) == -EAGAIN && ext2_read(im.fs, f, 8192 + 7, back, 5) == 5 &&
	   !memcmp(back, "DIRTY", 5), "wgrant: a block the cache holds dirty: EAGAIN, nothing written over it");
	ok(ext2_sync(im.fs) == 0 && ext2_read(im.fs, f, 8192, back, 4096) == 4096 && back[7] == 'D',
	   "wgrant: synced, the block is clean in the cache");
	uint8_t *orig = xmalloc(grant_cap);
	memcpy(orig, grant_mem, grant_cap);
	grant_mem[7] = 'g'; /* byte 0 of the lent memory is the file's byte off */
	ok(ext2_write_grant(im.fs, f, 8192, 4096, T(4)) == 4096 && ext2_read(im.fs, f, 8192 + 7, back, 1) == 1 &&
	   back[0] == 'g', "wgrant: over a block cached clean: the stale copy dropped, the device's byte read");
	ok(ext2_write_grant(im.fs, f, 1024 * 1024, 4096, T(5)) == 4096 && ext2_stat(im.fs, f, &st) == 0 &&
	   st.size == 1024 * 1024 + 4096, "wgrant: past the end: a hole before it, the size extended");
	ok(ext2_sync(im.fs) == 0 && img_unmount(&im) == 0 && fsck_clean(img), "wgrant: e2fsck clean");
	ok(img_mount(&im, img, EXT2_MOUNT_RDONLY) == 0 && ext2_read(im.fs, f, 0, back, 64 * 1024) == 64 * 1024 &&
	   !memcmp(back, orig, 8192) && !memcmp(back + 8192, grant_mem, 4096) &&
	   !memcmp(back + 12288, orig + 12288, 64 * 1024 - 12288) &&
	   ext2_read(im.fs, f, 512 * 1024, back, 4096) == 4096 && back[0] == 0 && back[4095] == 0 &&
	   ext2_read(im.fs, f, 1024 * 1024, back, 4096) == 4096 && !memcmp(back, grant_mem, 4096),
	   "wgrant: after a remount every byte, the hole zeros");
	img_unmount(&im);
	free(grant_mem);
	grant_mem = NULL;
	free(orig);
	free(back);
}

/* ext2_alloc_cost (the page cache's reservations, docs/fs.md) is exactly
 * what ext2_write then allocates: writes of pages in direct, indirect,
 * doubly and triply indirect ranges, fresh, beside written ones and over
 * them, on a 1 KiB-block image (256 pointers per block). */
static void test_alloc_cost(const char *pristine)
{
	static const uint64_t at[] = { 0, 4096, 8192 + 100, 11264, 12288, 12 * 1024 + 256 * 1024 - 2048,
				       268 * 1024, 268 * 1024 + 4096, 300 * 1024, 268 * 1024 + 256 * 1024 - 1024,
				       65804ull * 1024 - 4096, 65804ull * 1024, 65804ull * 1024 + 3 * 4096, 0, 300 * 1024 };
	char img[300];
	struct img im;
	uint32_t f;
	uint8_t page[4096];
	int exact = 0;

	memset(page, 0x5a, sizeof(page));
	snprintf(img, sizeof(img), "%s/cost.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	if (!ok(img_mount(&im, img, 0) == 0 &&
		ext2_mknod(im.fs, EXT2_ROOT_INO, "cost", 4, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &f) == 0,
		"cost: mount a copy, create a file"))
		return;
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct ext2_statfs a, b;
		uint64_t cost = 99, again = 99;
		ext2_statfs(im.fs, &a);
		int r = ext2_alloc_cost(im.fs, f, at[i], sizeof(page), &cost);
		int64_t w = ext2_write(im.fs, f, at[i], page, sizeof(page), T(2));
		ext2_statfs(im.fs, &b);
		ext2_alloc_cost(im.fs, f, at[i], sizeof(page), &again);
		bool same = r == 0 && w == (int64_t)sizeof(page) && a.bfree - b.bfree == cost && again == 0;
		if (!same)
			printf("# cost at %llu: %llu, allocated %llu, after %llu\n", (unsigned long long)at[i],
			       (unsigned long long)cost, (unsigned long long)(a.bfree - b.bfree), (unsigned long long)again);
		exact += same;
	}
	ok(exact == (int)(sizeof(at) / sizeof(at[0])),
	   "cost: ext2_alloc_cost is what the write then allocates (data and indirect blocks), 0 after (%d of %zu)",
	   exact, sizeof(at) / sizeof(at[0]));
	{
		/* blocks promised to the page cache's writers: the server's own
		 * allocations leave them, write-back takes them */
		struct ext2_statfs a, b;
		uint8_t big[8192];
		memset(big, 0x33, sizeof(big));
		ext2_statfs(im.fs, &a);
		ext2_set_promised(im.fs, a.bfree - 3);
		int64_t w1 = ext2_write(im.fs, f, 1 << 20, big, sizeof(big), T(3));
		ext2_statfs(im.fs, &b);
		ok(w1 >= 0 && w1 < (int64_t)sizeof(big) && b.bfree == a.bfree - 3,
		   "cost: with all but 3 free blocks promised, a write stops short (%lld bytes, free %llu -> %llu)",
		   (long long)w1, (unsigned long long)a.bfree, (unsigned long long)b.bfree);
		ext2_use_promised(im.fs, true);
		ok(ext2_write(im.fs, f, (1 << 20) + 16384, big, sizeof(big), T(3)) == (int64_t)sizeof(big),
		   "cost: write-back (ext2_use_promised) takes promised blocks");
		ext2_use_promised(im.fs, false);
		ext2_set_promised(im.fs, 0);
	}
	ok(img_unmount(&im) == 0 && fsck_clean(img), "cost: e2fsck -fn clean");
}

/* ext2_sync_flush on a device with writev: a 4 KiB overwrite's sync is
 * one call (the data block and the inode's table block, and the flush);
 * a 1 MiB write's dirty runs go as several full vectors, the last with
 * the flush; a failed vector stays dirty for the next sync. */
static void test_sync_flush(const char *pristine)
{
	char img[300];
	struct img im;
	uint32_t f;
	uint8_t *big = xmalloc(1 << 20), *back = xmalloc(1 << 20);

	for (size_t i = 0; i < (1 << 20); i++)
		big[i] = (uint8_t)(i * 7 + i / 1000);
	snprintf(img, sizeof(img), "%s/vec.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	if (!ok(img_mount(&im, img, 0) == 0 &&
		ext2_mknod(im.fs, EXT2_ROOT_INO, "vec", 3, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &f) == 0 &&
		ext2_write(im.fs, f, 0, big, 4096, T(1)) == 4096 && ext2_sync(im.fs) == 0, "vec: a file of 4 KiB, synced"))
		return;
	im.dev.writev = img_writev;
	im.dev.flush = img_flush;
	unsigned long w0 = img_writes, v0 = img_writevs, s0 = img_vsegs, f0 = img_flushes;
	bool one = ext2_write(im.fs, f, 0, big + 100, 4096, T(2)) == 4096 && ext2_sync_flush(im.fs) == 0 &&
		   img_writes == w0 && img_writevs == v0 + 1 && img_vflush && img_flushes == f0;
	unsigned long segs = img_vsegs - s0;
	ok(one, "vec: a 4 KiB overwrite's sync and flush is one device call");
	ok(segs >= 2 && segs <= 5, "vec: its segments: the 4 data blocks (one if contiguous) and the inode's block: %lu",
	   segs);
	v0 = img_writevs;
	ok(ext2_sync_flush(im.fs) == 0 && img_writevs == v0 && img_flushes == f0 + 1,
	   "vec: nothing dirty: the flush alone");
	v0 = img_writevs;
	one = ext2_write(im.fs, f, 4096, big, 1 << 20, T(3)) == (1 << 20) && ext2_sync_flush(im.fs) == 0 && img_vflush;
	ok(one && img_writevs >= v0 + 8, "vec: 1 MiB's runs go as full vectors (%lu calls), the last with the flush",
	   img_writevs - v0);
	fail_io = 2;
	ok(ext2_write(im.fs, f, 100, "LOST?", 5, T(4)) == 5 && ext2_sync_flush(im.fs) == -EIO,
	   "vec: a failed vector is reported");
	fail_io = 0;
	ok(ext2_sync_flush(im.fs) == 0 && img_unmount(&im) == 0 && fsck_clean(img), "vec: the next sync writes it: e2fsck clean");
	ok(img_mount(&im, img, EXT2_MOUNT_RDONLY) == 0 && ext2_read(im.fs, f, 4096, back, 1 << 20) == (1 << 20) &&
	   !memcmp(back, big, 1 << 20) && ext2_read(im.fs, f, 100, back, 5) == 5 && !memcmp(back, "LOST?", 5),
	   "vec: every byte on the disk");
	img_unmount(&im);
	free(big);
	free(back);
}

/* ext2_write_data_sync (an fsync's last writes): a rewrite of a file's
 * own block at the inode's own time leaves the inode clean (ext2_iput
 * dirties nothing unchanged), so the data goes with the flush in one
 * call and nothing else is written; a write that changes the inode (a
 * new time, a new block) leaves metadata dirty: the data alone, 0, and
 * ext2_sync_flush does the rest; without writev, 0 and ordinary writes. */
static void test_data_sync(const char *pristine)
{
	char img[300];
	struct img im;
	uint32_t f;
	struct ext2_stat st;
	uint8_t blk[4096], back[4096];

	for (size_t i = 0; i < sizeof(blk); i++)
		blk[i] = (uint8_t)(i * 13 + 5);
	snprintf(img, sizeof(img), "%s/dsync.img", tmp);
	run("cp --sparse=always %s %s", pristine, img);
	if (!ok(img_mount(&im, img, 0) == 0 &&
		ext2_mknod(im.fs, EXT2_ROOT_INO, "ds", 2, EXT2_S_IFREG | 0644, 0, 0, 0, T(1), &f) == 0 &&
		ext2_write(im.fs, f, 0, blk, 4096, T(1)) == 4096 && ext2_sync(im.fs) == 0,
		"dsync: a file of 4 KiB, synced"))
		return;
	unsigned long w0 = img_writes;
	ok(ext2_write(im.fs, f, 0, blk, 4096, T(1)) == 4096 && ext2_write_data_sync(im.fs, f, 0, 4096) == 0 &&
	   img_writes > w0, "dsync: a device without writev: 0, the data written as ever");
	ext2_sync(im.fs);
	im.dev.writev = img_writev;
	im.dev.flush = img_flush;
	blk[0] = 'R';
	unsigned long v0 = img_writevs, s0 = img_vsegs, f0 = img_flushes;
	w0 = img_writes;
	int r = ext2_write(im.fs, f, 0, blk, 4096, T(1)) == 4096 ? ext2_write_data_sync(im.fs, f, 0, 4096) : -1;
	ok(r == 1 && img_writevs == v0 + 1 && img_vflush && img_vsegs - s0 >= 1 && img_vsegs - s0 <= 4 && img_writes == w0 &&
	   img_flushes == f0, "dsync: a rewrite at the inode's time: its 4 blocks (one segment a run) and the flush, one call (%d, %lu segments)",
	   r, img_vsegs - s0);
	v0 = img_writevs;
	ok(ext2_sync_flush(im.fs) == 0 && img_writevs == v0 && img_flushes == f0 + 1,
	   "dsync: nothing was left dirty: a sync after it is the flush alone");
	blk[1] = 'T';
	v0 = img_writevs;
	w0 = img_writes;
	r = ext2_write(im.fs, f, 0, blk, 4096, T(2)) == 4096 ? ext2_write_data_sync(im.fs, f, 0, 4096) : -1;
	ok(r == 0 && img_writevs == v0 && img_writes > w0, "dsync: a new mtime dirties the inode: the data alone, 0");
	v0 = img_writevs;
	ok(ext2_sync_flush(im.fs) == 0 && img_writevs == v0 + 1 && img_vflush, "dsync: the inode and the flush follow");
	blk[2] = 'G';
	r = ext2_write(im.fs, f, 4096, blk, 4096, T(2)) == 4096 ? ext2_write_data_sync(im.fs, f, 4096, 4096) : -1;
	ok(r == 0 && ext2_sync_flush(im.fs) == 0, "dsync: a new block (bitmaps, the inode's map): 0, then the sync");
	ok(img_unmount(&im) == 0 && fsck_clean(img), "dsync: e2fsck clean");
	ok(img_mount(&im, img, EXT2_MOUNT_RDONLY) == 0 && ext2_stat(im.fs, f, &st) == 0 && st.size == 8192 &&
	   ext2_read(im.fs, f, 0, back, 4096) == 4096 && back[0] == 'R' && back[1] == 'T' &&
	   ext2_read(im.fs, f, 4096, back, 4096) == 4096 && !memcmp(back, blk, 4096), "dsync: every byte on the disk");
	img_unmount(&im);
}

int main(void)
{
	char src[300], img1[300], img4[300];
	struct img im;
	int count;
	bool good;
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!have_tools()) {
		printf("ok 1 # SKIP e2fsprogs (mke2fs, e2fsck, debugfs) not installed\n1..1\n");
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s/test_ext2.XXXXXX", base);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp");
	snprintf(src, sizeof(src), "%s/src", tmp);
	snprintf(img1, sizeof(img1), "%s/k1.img", tmp);
	snprintf(img4, sizeof(img4), "%s/k4.img", tmp);
	make_source(src);

	ok(make_image(img1, src, "64M"), "mke2fs -d: a 64 MiB image (1 KiB blocks)");
	ok(make_image(img4, src, "1G"), "mke2fs -d: a 1 GiB sparse image (4 KiB blocks)");
	ok(img_mount(&im, img1, EXT2_MOUNT_RDONLY) == 0 && ext2_block_size(im.fs) == 1024,
	   "1K: mounts with 1 KiB blocks");
	count = 0;
	good = compare_tree(im.fs, src, EXT2_ROOT_INO, true, &count);
	ok(good && count == 315, "1K: %d files, links and directories read back equal to the "
	   "source", count);
	img_unmount(&im);
	ok(img_mount(&im, img4, EXT2_MOUNT_RDONLY) == 0 && ext2_block_size(im.fs) == 4096,
	   "4K: mounts with 4 KiB blocks");
	count = 0;
	good = compare_tree(im.fs, src, EXT2_ROOT_INO, true, &count);
	ok(good && count == 315, "4K: %d files, links and directories read back equal to the "
	   "source", count);
	img_unmount(&im);

	test_read_direct(img1);
	test_read_grant(img1);
	test_write_grant(img1);
	test_alloc_cost(img1);
	test_sync_flush(img1);
	test_data_sync(img1);
	test_corruption(img1);
	test_random_corruption(img1);
	{
		char w1[300];

		int fd;
		struct ext2_super sb;
		char *out;

		/* without large_file, which the core must set for the 5 GiB file
		 * (e2fsck checks the flag against the files) */
		snprintf(w1, sizeof(w1), "%s/w1.img", tmp);
		run("cp --sparse=always %s %s", img1, w1);
		fd = open(w1, O_RDWR);
		sb = read_super(fd);
		sb.s_feature_ro_compat &= ~(uint32_t)EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
		poke(fd, 1024, &sb, sizeof(sb));
		close(fd);
		test_writes(w1, "1K", false, false);
		out = capture(NULL, "dumpe2fs -h %s 2>/dev/null | grep -i features", w1);
		ok(strstr(out, "large_file") != NULL, "1K: large_file set by the core (%s)",
		   chomp(out));
		free(out);
	}
	{
		char img2[300];

		snprintf(img2, sizeof(img2), "%s/k2.img", tmp);
		ok(make_image_opt(img2, src, "32M", "-b 2048"), "mke2fs -d -b 2048: a 32 MiB image");
		ok(img_mount(&im, img2, EXT2_MOUNT_RDONLY) == 0 && ext2_block_size(im.fs) == 2048,
		   "2K: mounts with 2 KiB blocks");
		count = 0;
		good = compare_tree(im.fs, src, EXT2_ROOT_INO, true, &count);
		ok(good && count == 315, "2K: %d files, links and directories read back equal",
		   count);
		img_unmount(&im);
		test_writes(img2, "2K", false, false);
	}
	{
		/* revision 0: 128-byte inodes, no features (no file types in the
		 * directory records, no large_file, no sparse_super) */
		char img0[300];

		snprintf(img0, sizeof(img0), "%s/r0.img", tmp);
		ok(make_image_opt(img0, src, "16M", "-r 0"), "mke2fs -d -r 0: a revision 0 image");
		ok(img_mount(&im, img0, EXT2_MOUNT_RDONLY) == 0, "rev0: mounts");
		count = 0;
		good = compare_tree(im.fs, src, EXT2_ROOT_INO, true, &count);
		ok(good && count == 315, "rev0: %d files, links and directories read back equal",
		   count);
		img_unmount(&im);
		test_writes(img0, "rev0", false, true);
		{
			char *out = capture(NULL, "dumpe2fs -h %s 2>/dev/null | grep -i "
					    "'revision\\|features'", img0);

			ok(strstr(out, "#:    1") && strstr(out, "large_file"), "rev0: a file past "
			   "2 GiB upgraded it to revision 1 with large_file");
			free(out);
		}
	}
	test_htree(img1);
	test_io_errors(img1);
	test_writes(img4, "4K", true, false);
	test_enospc();
	if (!getenv("EXT2_TEST_KEEP"))	/* keep the images to look at */
		run("rm -rf %s", tmp);
	else
		tap_diag("images kept in %s", tmp);
	return tap_done();
}
