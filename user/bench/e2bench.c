/* ext2 benchmark (issue 19, "make bench"): a portable POSIX program, built
 * for Arbor (/posix/e2bench) and for Linux (tools/bench.py builds it with
 * linux-cc and runs it with linux-run in the same QEMU), run on an empty
 * ext2 image the host made with mke2fs, so both sides run the same code on
 * the same on-disk format. It mounts the disk itself and prints
 * `bench e2_OP VALUE ms` lines (wall-clock milliseconds per run of OP;
 * e2_fsync_4k is per operation), plus MiB/s for the sequential ones:
 *
 *   seq_write     write a SIZE MiB file in 1 MiB writes, then fsync (cold:
 *                 nothing of it cached before; the disk has it after)
 *   seq_read      read it back in 1 MiB reads after umount and mount (and
 *                 drop_caches where it exists): every byte from the disk
 *   reread        read it again: from the cache
 *   create        create NFILES empty files in one directory
 *   delete        unlink them
 *   walk_cold     a find-style walk (readdir, lstat of every entry) of a
 *                 tree of NFILES entries (100 directories) after umount and
 *                 mount; walk_warm the same walk again
 *   fsync_4k      a 4 KiB pwrite into an existing file and fsync: the
 *                 median of 50
 *
 *   e2bench DEV MNT [-s SIZE_MIB] [-n NFILES] [-o MOUNT_OPTIONS]
 * (256 MiB and 10,000 by default). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024 * 1024)
#define FSYNC_ROUNDS 50
#define TREE_DIRS 100

static const char *dev, *mnt, *opts = "";
static char *chunk;
static int fails;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Counts a failure: the program then exits 1 and its figures are not used. */
static int must(int ok, const char *what)
{
	if (!ok && fails++ < 10)
		fprintf(stderr, "e2bench: %s failed (errno %d)\n", what, errno);
	return ok;
}

static void report(const char *op, double ms)
{
	printf("bench e2_%s %.3f ms\n", op, ms);
	fflush(stdout);
}

/* CPU time the machine was busy since boot (ms): uptime less idle, from
 * /proc/uptime (one vCPU on both sides); -1 if it cannot tell. Under
 * QEMU's -icount a guest millisecond is a million instructions, so the
 * difference around an operation counts the guest's work whatever the
 * host's load (tools/bench.py --ext2-icount). */
static double busy_ms(void)
{
	double up = 0, idle = 0;
	FILE *f = fopen("/proc/uptime", "r");
	int ok = f && fscanf(f, "%lf %lf", &up, &idle) == 2;
	if (f)
		fclose(f);
	return ok ? (up - idle) * 1e3 : -1;
}

static void report_busy(const char *op, double before)
{
	double now = busy_ms();
	if (before >= 0 && now >= 0) {
		printf("bench e2_%s_busy %.3f ms\n", op, now - before);
		fflush(stdout);
	}
}

static void report_rate(const char *op, double ms, long mib)
{
	report(op, ms);
	printf("bench e2_%s_rate %.1f MiB/s\n", op, ms > 0 ? mib * 1000.0 / ms : 0.0);
	fflush(stdout);
}

static void path_of(char *out, size_t cap, const char *rel)
{
	snprintf(out, cap, "%s/%s", mnt, rel);
}

/* Unmounts and mounts again, so that nothing of the files is cached; on
 * Linux also drops the page cache (the block device's included). */
static void cold(void)
{
	must(umount(mnt) == 0, "umount"); /* writes everything back */
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd >= 0) {
		must(write(fd, "3\n", 2) == 2, "drop_caches");
		close(fd);
	}
	must(mount(dev, mnt, "ext2", 0, opts) == 0, "mount");
}

static double write_file(const char *rel, long mib)
{
	char p[256];
	path_of(p, sizeof(p), rel);
	double t0 = now_ms();
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "create the big file");
	for (long i = 0; fd >= 0 && i < mib; i++) {
		memset(chunk, (int)(i & 0xff), 64); /* not all one page */
		if (!must(write(fd, chunk, MIB) == MIB, "write 1 MiB"))
			break;
	}
	must(fd >= 0 && fsync(fd) == 0, "fsync the big file");
	if (fd >= 0)
		close(fd);
	return now_ms() - t0;
}

static double read_file(const char *rel, long mib)
{
	char p[256];
	path_of(p, sizeof(p), rel);
	double t0 = now_ms();
	int fd = open(p, O_RDONLY);
	long got = 0;
	ssize_t n;
	must(fd >= 0, "open the big file");
	while (fd >= 0 && (n = read(fd, chunk, MIB)) > 0)
		got += n;
	if (fd >= 0)
		close(fd);
	double t = now_ms() - t0;
	must(got == mib * MIB, "read the whole file");
	must((unsigned char)chunk[0] == ((mib - 1) & 0xff), "the last MiB's bytes");
	return t;
}

static double create_files(int n)
{
	char p[256];
	path_of(p, sizeof(p), "many");
	must(mkdir(p, 0755) == 0, "mkdir many");
	double t0 = now_ms();
	for (int i = 0; i < n; i++) {
		char f[300];
		snprintf(f, sizeof(f), "%s/file%05d", p, i);
		int fd = open(f, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (!must(fd >= 0, "create a file"))
			break;
		close(fd);
	}
	return now_ms() - t0;
}

static double delete_files(int n)
{
	char p[256];
	path_of(p, sizeof(p), "many");
	double t0 = now_ms();
	for (int i = 0; i < n; i++) {
		char f[300];
		snprintf(f, sizeof(f), "%s/file%05d", p, i);
		if (!must(unlink(f) == 0, "unlink a file"))
			break;
	}
	double t = now_ms() - t0;
	must(rmdir(p) == 0, "rmdir many");
	return t;
}

/* TREE_DIRS directories under tree/, the rest of n entries files in them. */
static void make_tree(int n)
{
	char p[256], d[300], f[340];
	path_of(p, sizeof(p), "tree");
	must(mkdir(p, 0755) == 0, "mkdir tree");
	int per = (n - TREE_DIRS) / TREE_DIRS;
	for (int i = 0; i < TREE_DIRS; i++) {
		snprintf(d, sizeof(d), "%s/d%03d", p, i);
		must(mkdir(d, 0755) == 0, "mkdir in the tree");
		for (int j = 0; j < per; j++) {
			snprintf(f, sizeof(f), "%s/f%04d", d, j);
			int fd = open(f, O_WRONLY | O_CREAT, 0644);
			if (!must(fd >= 0, "create in the tree"))
				return;
			close(fd);
		}
	}
}

/* readdir and lstat of everything under path: the entries seen. */
static long walk(const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *e;
	long count = 0;
	if (!must(dp != NULL, "opendir"))
		return 0;
	while ((e = readdir(dp)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[512];
		struct stat st;
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (!must(lstat(p, &st) == 0, "lstat"))
			continue;
		count++;
		if (S_ISDIR(st.st_mode))
			count += walk(p);
	}
	closedir(dp);
	return count;
}

static double timed_walk(int n)
{
	char p[256];
	path_of(p, sizeof(p), "tree");
	double t0 = now_ms();
	long seen = walk(p);
	double t = now_ms() - t0;
	must(seen == TREE_DIRS + (long)((n - TREE_DIRS) / TREE_DIRS) * TREE_DIRS, "the walk saw every entry");
	return t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of FSYNC_ROUNDS (a 4 KiB pwrite, then fsync): the host's own
 * flush of the image file makes single ones vary tenfold. */
static double fsync_4k(void)
{
	char p[256];
	path_of(p, sizeof(p), "small");
	int fd = open(p, O_RDWR | O_CREAT, 0644);
	must(fd >= 0 && pwrite(fd, chunk, 4096, 0) == 4096 && fsync(fd) == 0, "the small file");
	double t[FSYNC_ROUNDS] = { 0 };
	for (int i = 0; fd >= 0 && i < FSYNC_ROUNDS; i++) {
		chunk[0] = (char)i;
		double t0 = now_ms();
		if (!must(pwrite(fd, chunk, 4096, 0) == 4096 && fsync(fd) == 0, "pwrite and fsync"))
			break;
		t[i] = now_ms() - t0;
	}
	if (fd >= 0)
		close(fd);
	qsort(t, FSYNC_ROUNDS, sizeof(t[0]), cmp_double);
	return t[FSYNC_ROUNDS / 2];
}

int main(int argc, char **argv)
{
	long mib = 256;
	int nfiles = 10000, c;
	while ((c = getopt(argc, argv, "s:n:o:")) != -1) {
		if (c == 's')
			mib = atol(optarg);
		else if (c == 'n')
			nfiles = atoi(optarg);
		else if (c == 'o')
			opts = optarg;
		else
			return 2;
	}
	if (argc - optind != 2 || mib <= 0 || nfiles < 2 * TREE_DIRS) {
		fprintf(stderr, "usage: e2bench DEV MNT [-s SIZE_MIB] [-n NFILES] [-o OPTIONS]\n");
		return 2;
	}
	dev = argv[optind];
	mnt = argv[optind + 1];
	chunk = malloc(MIB);
	char parent[256]; /* mkdir -p: the guest may have no /mnt */
	for (size_t i = 1; mnt[i] && i < sizeof(parent); i++)
		if (mnt[i] == '/') {
			snprintf(parent, i + 1, "%s", mnt);
			mkdir(parent, 0755);
		}
	mkdir(mnt, 0755);
	if (!chunk || !must(mount(dev, mnt, "ext2", 0, opts) == 0, "mount"))
		return 1;
	memset(chunk, 0x61, MIB);
	double b = busy_ms();
	report_rate("seq_write", write_file("big", mib), mib);
	report_busy("seq_write", b);
	cold();
	b = busy_ms();
	report_rate("seq_read", read_file("big", mib), mib);
	report_busy("seq_read", b);
	b = busy_ms();
	report_rate("reread", read_file("big", mib), mib);
	report_busy("reread", b);
	report("create", create_files(nfiles));
	report("delete", delete_files(nfiles));
	make_tree(nfiles);
	cold();
	b = busy_ms();
	report("walk_cold", timed_walk(nfiles));
	report_busy("walk_cold", b);
	report("walk_warm", timed_walk(nfiles));
	b = busy_ms();
	report("fsync_4k", fsync_4k());
	report_busy("fsync_4k_50", b); /* the whole 50 rounds' */
	must(umount(mnt) == 0, "the last umount");
	printf("e2bench: %s\n", fails ? "FAILED" : "done");
	return fails ? 1 : 0;
}
