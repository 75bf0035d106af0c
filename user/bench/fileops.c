/* File-operation benchmark (issue 18, "Performance"): a portable POSIX
 * program, built for Arbor (bench=all or bench=fileops runs it, with the
 * servers, in make bench's boots; tools/arbor-run runs it too) and for
 * Linux (tools/bench.py builds it with linux-cc and runs it with
 * linux-run in the same QEMU), so both sides run the same code. On /tmp
 * (tmpfs on both), best of 3 x N rounds, it prints
 * `bench fileops_OP NS ns` lines: nanoseconds per operation.
 *
 *   fileops [-n ROUNDS] [-o OP]   (300 rounds by default, the 1 MiB ones a
 *                                  tenth; -o: only operation OP, e.g. a long
 *                                  loop of rename_pair whose QEMU CPU time is
 *                                  measured from the host) */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DIR_ROOT "/tmp/fileops"
#define MIB (1024 * 1024)

static char *big;		/* 1 MiB to write and read back */
static char page[4096];
static int fails;

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Counts a failed call (the figure is then not printed as trustworthy). */
static void must(int ok, const char *what)
{
	if (!ok && fails++ < 5)
		fprintf(stderr, "fileops: %s failed\n", what);
}

static void op_open_close(void)
{
	int fd = open(DIR_ROOT "/file", O_RDONLY);
	must(fd >= 0, "open");
	close(fd);
}

static void op_stat(void)
{
	struct stat st;
	must(stat(DIR_ROOT "/file", &st) == 0, "stat");
}

static int pread_fd = -1;
static void op_pread_4k(void)
{
	must(pread(pread_fd, page, sizeof(page), 0) == (ssize_t)sizeof(page), "pread");
}

static void op_read_1m(void)
{
	int fd = open(DIR_ROOT "/big", O_RDONLY);
	size_t got = 0;
	ssize_t n;
	while (fd >= 0 && got < MIB && (n = read(fd, big + got, MIB - got)) > 0)
		got += (size_t)n;
	must(got == MIB, "read 1 MiB");
	close(fd);
}

static void op_write_1m(void)
{
	int fd = open(DIR_ROOT "/wbig", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t put = 0;
	ssize_t n;
	while (fd >= 0 && put < MIB && (n = write(fd, big + put, MIB - put)) > 0)
		put += (size_t)n;
	must(put == MIB, "write 1 MiB");
	close(fd);
}

static int list(const char *path)
{
	DIR *d = opendir(path);
	int count = 0;
	while (d && readdir(d))
		count++;
	if (d)
		closedir(d);
	return count;
}

static void op_list_45(void)
{
	must(list(DIR_ROOT "/d45") == 47, "list 45 entries");
}

static void op_list_proc(void)
{
	must(list("/proc") > 2, "list /proc");
}

static void op_list_cgroup(void)
{
	must(list("/sys/fs/cgroup") > 2, "list /sys/fs/cgroup");
}

static void op_create_unlink(void)
{
	int fd = open(DIR_ROOT "/new", O_WRONLY | O_CREAT | O_EXCL, 0644);
	must(fd >= 0, "create");
	close(fd);
	must(unlink(DIR_ROOT "/new") == 0, "unlink");
}

static void op_mkdir_rmdir(void)
{
	must(mkdir(DIR_ROOT "/newdir", 0755) == 0, "mkdir");
	must(rmdir(DIR_ROOT "/newdir") == 0, "rmdir");
}

static void op_rename_pair(void)
{
	must(rename(DIR_ROOT "/ra", DIR_ROOT "/rb") == 0, "rename");
	must(rename(DIR_ROOT "/rb", DIR_ROOT "/ra") == 0, "rename back");
}

static const struct op {
	const char *name;
	void (*fn)(void);
	int tenth;		/* a tenth of the rounds: the 1 MiB ones */
} ops[] = {
	{ "open_close", op_open_close, 0 },
	{ "stat", op_stat, 0 },
	{ "pread_4k", op_pread_4k, 0 },
	{ "read_1m", op_read_1m, 1 },
	{ "write_1m", op_write_1m, 1 },
	{ "list_45", op_list_45, 0 },
	{ "list_proc", op_list_proc, 0 },
	{ "list_cgroup", op_list_cgroup, 0 },
	{ "create_unlink", op_create_unlink, 0 },
	{ "mkdir_rmdir", op_mkdir_rmdir, 0 },
	{ "rename_pair", op_rename_pair, 0 },
};

static int make_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int setup(void)
{
	char path[64];
	big = malloc(MIB);
	if (!big)
		return -1;
	memset(big, 'x', MIB);
	memset(page, 'p', sizeof(page));
	mkdir(DIR_ROOT, 0755);
	mkdir(DIR_ROOT "/d45", 0755);
	int ok = make_file(DIR_ROOT "/file", page, sizeof(page)) == 0 && make_file(DIR_ROOT "/big", big, MIB) == 0 &&
		 make_file(DIR_ROOT "/ra", "r", 1) == 0;
	for (int i = 0; ok && i < 45; i++) {
		snprintf(path, sizeof(path), DIR_ROOT "/d45/entry%02d", i);
		ok = make_file(path, "", 0) == 0;
	}
	pread_fd = open(DIR_ROOT "/file", O_RDONLY);
	return ok && pread_fd >= 0 ? 0 : -1;
}

static void cleanup(void)
{
	char path[64];
	close(pread_fd);
	for (int i = 0; i < 45; i++) {
		snprintf(path, sizeof(path), DIR_ROOT "/d45/entry%02d", i);
		unlink(path);
	}
	rmdir(DIR_ROOT "/d45");
	unlink(DIR_ROOT "/file");
	unlink(DIR_ROOT "/big");
	unlink(DIR_ROOT "/wbig");
	unlink(DIR_ROOT "/ra");
	rmdir(DIR_ROOT);
}

int main(int argc, char **argv)
{
	int rounds = 300, bad = 0;
	const char *only = NULL;
	for (int a = 1; a + 1 < argc; a += 2) {
		if (strcmp(argv[a], "-n") == 0)
			rounds = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "-o") == 0)
			only = argv[a + 1];
		else
			bad = 1;
	}
	if (bad || argc % 2 == 0 || rounds < 10 || setup() < 0) {
		fprintf(stderr, "usage: fileops [-n ROUNDS >= 10] [-o OP] (on a writable /tmp)\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (only && strcmp(only, ops[i].name) != 0)
			continue;
		int n = ops[i].tenth ? rounds / 10 : rounds, before = fails;
		double best = 0;
		ops[i].fn(); /* warm: first-touch costs are not the operation's */
		for (int rep = 0; rep < 3; rep++) {
			double t0 = now_ns();
			for (int r = 0; r < n; r++)
				ops[i].fn();
			double per = (now_ns() - t0) / n;
			if (rep == 0 || per < best)
				best = per;
		}
		if (fails == before)
			printf("bench fileops_%s %.0f ns\n", ops[i].name, best);
		else
			printf("# fileops_%s: calls failed, no figure\n", ops[i].name);
	}
	cleanup();
	return fails ? 1 : 0;
}
