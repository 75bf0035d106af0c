/* Differential test: directory listing. Makes a directory of files and
 * subdirectories, lists it sorted with each entry's d_type through
 * readdir, through getdents64 in small and large buffers, and through
 * scandir; checks record lengths (Linux's 8-byte rounding), telldir and
 * seekdir, and the errors (ENOTDIR, EINVAL, EBADF, ENOENT). Order within a
 * directory is the file system's own, so every listing is printed sorted. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static char dir[64];
static char buf[8192] __attribute__((aligned(8)));

static const char *in(const char *name)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* errno by name: newlib's and glibc's strerror texts differ. */
static const char *errno_name(int e)
{
	switch (e) {
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case ENOTDIR: return "ENOTDIR";
	case ENOENT: return "ENOENT";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

static const char *type_name(int t)
{
	switch (t) {
	case DT_DIR: return "dir";
	case DT_REG: return "reg";
	case DT_CHR: return "chr";
	case DT_LNK: return "lnk";
	case DT_FIFO: return "fifo";
	case DT_UNKNOWN: return "unknown";
	default: return "other";
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints lines[0..n) sorted, then frees them. */
static void print_sorted(const char *title, char **lines, int n)
{
	qsort(lines, (size_t)n, sizeof(*lines), cmp);
	printf("%s: %d entries\n", title, n);
	for (int i = 0; i < n; i++) {
		printf("  %s\n", lines[i]);
		free(lines[i]);
	}
}

static void list_readdir(void)
{
	char *lines[64];
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 64) {
		char line[300];
		snprintf(line, sizeof(line), "%-20s %s", e->d_name, type_name(e->d_type));
		lines[n++] = strdup(line);
	}
	if (d)
		closedir(d);
	print_sorted("readdir", lines, n);
}

/* getdents64 in calls of len bytes: names, record lengths, and whether
 * every record was 8-byte sized and each call returned some. */
static void list_getdents(size_t len)
{
	char *lines[64], title[64];
	int n = 0, fd = open(dir, O_RDONLY | O_DIRECTORY), aligned = 1;
	long got;
	while ((got = getdents64(fd, buf, len)) > 0)
		for (long at = 0; at < got && n < 64;) {
			const struct linux_dirent64 *e = (const void *)(buf + at);
			char line[300];
			aligned &= e->d_reclen % 8 == 0;
			snprintf(line, sizeof(line), "%-20s %s reclen %d", e->d_name, type_name(e->d_type), e->d_reclen);
			lines[n++] = strdup(line);
			at += e->d_reclen;
		}
	printf("getdents64 of %zu bytes ends with %ld (%s), records 8-byte sized: %s\n", len, got,
	       got < 0 ? errno_name(errno) : "end", aligned ? "yes" : "no");
	close(fd);
	snprintf(title, sizeof(title), "getdents64 %zu", len);
	print_sorted(title, lines, n);
}

static void list_scandir(void)
{
	struct dirent **v;
	int n = scandir(dir, &v, NULL, alphasort);
	printf("scandir: %d\n", n);
	for (int i = 0; i < n; i++) {
		printf("  %s\n", v[i]->d_name);
		free(v[i]);
	}
	if (n >= 0)
		free(v);
}

static void positions(void)
{
	DIR *d = opendir(dir);
	char want[256] = "", got[256] = "";
	struct dirent *e;
	for (int i = 0; i < 4 && readdir(d); i++)
		;
	long t = telldir(d);
	if ((e = readdir(d)))
		snprintf(want, sizeof(want), "%s", e->d_name);
	while (readdir(d))
		;
	seekdir(d, t);
	if ((e = readdir(d)))
		snprintf(got, sizeof(got), "%s", e->d_name);
	printf("seekdir to telldir gives the same entry: %s\n", want[0] && strcmp(want, got) == 0 ? "yes" : "no");
	rewinddir(d);
	int count = 0;
	while (readdir(d))
		count++;
	printf("after rewinddir: %d entries\n", count);
	closedir(d);
}

static void report(const char *what, long r)
{
	printf("%-40s %ld %s\n", what, r, r < 0 ? errno_name(errno) : "");
}

static void errors(void)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	report("getdents64 10-byte buffer", getdents64(fd, buf, 10));
	close(fd);
	report("getdents64 closed descriptor", getdents64(fd, buf, sizeof(buf)));
	fd = open(in("file1"), O_RDONLY);
	report("getdents64 regular file", getdents64(fd, buf, sizeof(buf)));
	errno = 0;
	DIR *d = fdopendir(fd);
	report("fdopendir regular file", d ? 0 : -1);
	close(fd);
	int p[2];
	if (pipe(p) == 0) {
		report("getdents64 pipe", getdents64(p[0], buf, sizeof(buf)));
		close(p[0]);
		close(p[1]);
	}
	mkdir(in("gone"), 0755);
	fd = open(in("gone"), O_RDONLY | O_DIRECTORY);
	rmdir(in("gone"));
	report("getdents64 removed directory", getdents64(fd, buf, sizeof(buf)));
	close(fd);
	errno = 0;
	report("opendir of a file", opendir(in("file1")) ? 0 : -1);
	errno = 0;
	report("opendir of a missing name", opendir(in("none")) ? 0 : -1);
}

/* /dev/null as the /dev listing gives it. */
static void dev_null(void)
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, "null") == 0)
			printf("/dev/null listed as %s\n", type_name(e->d_type));
	if (d)
		closedir(d);
}

int main(void)
{
	static const char *const files[] = { "file1", "b", "a-much-longer-name-here", "1234567", "12345678",
					     "123456789012", "1234567890123", "z" };
	snprintf(dir, sizeof(dir), "/tmp/arbor-diff-dirents-%d", (int)getpid());
	report("mkdir", mkdir(dir, 0755));
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int fd = open(in(files[i]), O_CREAT | O_WRONLY, 0644);
		close(fd);
	}
	report("mkdir sub", mkdir(in("sub"), 0755));
	report("mkdir sub2", mkdir(in("sub2"), 0700));
	list_readdir();
	list_getdents(sizeof(buf));
	list_getdents(48);
	list_scandir();
	positions();
	errors();
	dev_null();
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(in(files[i]));
	rmdir(in("sub"));
	rmdir(in("sub2"));
	report("rmdir", rmdir(dir));
	return 0;
}
