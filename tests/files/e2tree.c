/* ext2 interoperability with Linux (tools/run-tests.py, test_ext2_interop):
 * the same source built for Arbor (/posix/e2tree) and for Linux
 * (../shared/tools/linux-cc, run by linux-run).
 *
 *   e2tree make DEV DIR   mounts DEV (ext2) on DIR, writes a fixed tree
 *                         (double-indirect and sparse files, fast and slow
 *                         symlinks, a hard link, 300 names in a directory,
 *                         modes), lists it, unmounts
 *   e2tree list DEV DIR   mounts DEV read-only on DIR, lists it, unmounts
 *   (several of them in one run, one after the other)
 *
 * The listing, one line per name in sorted order between "# tree begin"
 * ("# tree begin make|list DEV") and "# tree end": path, type (f d l), permission bits, size (0 for
 * directories, whose sizes depend on the implementation), link count,
 * and a CRC-32 of a file's bytes or a link's target. The host compares
 * what one system wrote with what the other reads. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define BIG_LEN (3 * 1024 * 1024 + 123)
#define SPARSE_AT (5 * 1024 * 1024)
#define MANY 300
#define SLOW_TARGET "a/b/c/././././././././././././././././././././././././././../../../small.txt"

static int failures;

static void fail(const char *what)
{
	printf("# e2tree: %s: %s\n", what, strerror(errno));
	failures++;
}

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static void put_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd) != 0)
		fail(path);
}

/* The fixed tree under root (a mounted, empty file system). */
static void make_tree(const char *root)
{
	char p[512], q[512];
	if (chdir(root) != 0) {
		fail(root);
		return;
	}
	umask(0);
	if (mkdir("a", 0755) || mkdir("a/b", 0700) || mkdir("a/b/c", 0755) || mkdir("many", 0775))
		fail("mkdir");
	put_file("small.txt", "hello interop\n", 14, 0640);
	put_file("empty.txt", "", 0, 0600);
	put_file("a/b/c/deep.txt", "deep\n", 5, 0644);
	unsigned char *big = malloc(BIG_LEN);
	for (size_t i = 0; big && i < BIG_LEN; i++)
		big[i] = (unsigned char)((i * 7 + i / 4093) & 0xff);
	if (big)
		put_file("big.bin", big, BIG_LEN, 0644);
	free(big);
	int fd = open("sparse.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, "head", 4, 0) != 4 || pwrite(fd, "tail", 4, SPARSE_AT) != 4 || close(fd))
		fail("sparse.bin");
	if (symlink("small.txt", "fastlink") || symlink(SLOW_TARGET, "slowlink"))
		fail("symlink");
	if (link("small.txt", "a/hard"))
		fail("link");
	for (int i = 0; i < MANY; i++) {
		snprintf(p, sizeof(p), "many/f%03d", i);
		snprintf(q, sizeof(q), "file %d\n", i);
		put_file(p, q, strlen(q), 0644);
	}
	if (chdir("/"))
		fail("chdir /");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists dir (a path under the mount, "" for its root) depth first. */
static void list_dir(const char *root, const char *rel)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	DIR *d = opendir(path);
	if (!d) {
		fail(path);
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "lost+found"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		char r[1024], full[1200];
		struct stat st;
		snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "/" : "", names[i]);
		snprintf(full, sizeof(full), "%s/%s", root, r);
		if (lstat(full, &st)) {
			fail(full);
			continue;
		}
		uint32_t crc = 0;
		char type = S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : S_ISREG(st.st_mode) ? 'f' : '?';
		if (type == 'f') {
			static unsigned char buf[65536];
			int fd = open(full, O_RDONLY);
			ssize_t got;
			while (fd >= 0 && (got = read(fd, buf, sizeof(buf))) > 0)
				crc = crc32_update(crc, buf, (size_t)got);
			if (fd < 0)
				fail(full);
			else
				close(fd);
		} else if (type == 'l') {
			char t[4096];
			ssize_t len = readlink(full, t, sizeof(t));
			if (len < 0)
				fail(full);
			else
				crc = crc32_update(0, (const unsigned char *)t, (size_t)len);
		}
		printf("%s %c %04o %lld %u %08x\n", r, type, (unsigned)(st.st_mode & 07777),
		       type == 'd' ? 0LL : (long long)st.st_size, (unsigned)st.st_nlink, crc);
		if (type == 'd')
			list_dir(root, r);
		free(names[i]);
	}
	free(names);
}

/* One "make" or "list" of dev on dir. */
static void run(const char *what, const char *dev, const char *dir)
{
	bool make = !strcmp(what, "make");
	mkdir(dir, 0755);
	if (mount(dev, dir, "ext2", make ? 0 : MS_RDONLY, "")) {
		fail("mount");
		return;
	}
	if (make)
		make_tree(dir);
	printf("# tree begin %s %s\n", what, dev);
	list_dir(dir, "");
	printf("# tree end\n");
	if (umount(dir))
		fail("umount");
}

int main(int argc, char **argv)
{
	if (argc < 4 || (argc - 1) % 3) {
		printf("usage: e2tree make|list DEV DIR [make|list DEV DIR]...\n");
		return 2;
	}
	for (int i = 1; i + 2 < argc; i += 3) {
		if (strcmp(argv[i], "make") && strcmp(argv[i], "list")) {
			printf("e2tree: make or list, not %s\n", argv[i]);
			return 2;
		}
		run(argv[i], argv[i + 1], argv[i + 2]);
	}
	printf("# e2tree: %d failures\n", failures);
	return failures ? 1 : 0;
}
