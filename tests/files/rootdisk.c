/* The root file system on a disk (root=/dev/vda; tools/run-tests.py,
 * test_ext2_root, boots an image tools/mkext2.py --root made twice).
 *
 * "rootdisk first": "/" is ext2 with the boot archive at /boot/initrd;
 * sync(2), syncfs(2) and fsync(2) work and return what Linux's do; then
 * one file written and sync()ed, one written and fsync()ed, and the line
 * "# rootdisk: kill now", after which the host kills QEMU at once while
 * this goes on writing a file it never syncs (the sync(2)ed file is
 * written after the fsync, so only sync(2) can have put it on the disk;
 * an O_DIRECT write comes last, with no sync after it). The host then repairs the
 * image with e2fsck -fy and checks the synced files' exact bytes.
 * "rootdisk second": the next boot on the same image reads them back and
 * writes one more file; init syncs at power-off and the host's e2fsck -fn
 * finds the image clean. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

#define FSYNCED_LEN (64 * 1024 + 77)
#define SYNCED_TEXT "written, then sync(2)\n"

/* What fsynced.bin holds (run-tests.py computes the same bytes). */
static unsigned char fs_byte(size_t i)
{
	return (unsigned char)((i * 29 + 11) & 0xff);
}

static int has_text(const char *path, const char *want)
{
	char buf[512];
	long n = slurp(path, buf, sizeof(buf));
	return n == (long)strlen(want) && memcmp(buf, want, (size_t)n) == 0;
}

static void check_root_is_disk(void)
{
	struct statfs sf;
	struct stat st;
	check(statfs("/", &sf) == 0 && sf.f_type == 0xEF53, "\"/\" is ext2 (statfs: EXT2_SUPER_MAGIC)");
	check(stat("/boot/initrd/bin/sh", &st) == 0 && S_ISREG(st.st_mode) && statfs("/boot/initrd", &sf) == 0 &&
	      sf.f_type == 0x01021994, "the boot archive is at /boot/initrd (tmpfs)");
	check(stat("/dev/vda", &st) == 0 && S_ISBLK(st.st_mode) && statfs("/proc", &sf) == 0 && sf.f_type == 0x9fa0,
	      "/dev and /proc mounted on the disk's directories");
	check(stat("/tmp", &st) == 0 && (st.st_mode & 07777) == 01777, "/tmp is sticky and writable by all");
}

static int fsynced_intact(void)
{
	unsigned char *buf = malloc(FSYNCED_LEN + 1);
	int fd = open("/persist/fsynced.bin", O_RDONLY);
	long got = 0, r;
	while (fd >= 0 && buf && (r = read(fd, buf + got, FSYNCED_LEN + 1 - got)) > 0)
		got += r;
	if (fd >= 0)
		close(fd);
	int same = got == FSYNCED_LEN;
	for (long i = 0; same && i < FSYNCED_LEN; i++)
		same = buf[i] == fs_byte((size_t)i);
	free(buf);
	return same;
}

/* The kernel's name cache answers "/"'s names too (docs/fs.md, "Names in
 * the kernel"): asked once, then with the ext2 server stopped (SIGSTOP)
 * a child's stat, lstat and ENOENT of them finish, while a name never
 * asked waits for the server. */
static void check_names_in_kernel(void)
{
	struct stat st;
	pid_t srv = process_pid("ext2", NULL);
	check(srv > 0 && stat("/bin", &st) == 0 && lstat("/boot", &st) == 0 &&
	      fails(stat("/no-such-name", &st), ENOENT) && kill(srv, SIGSTOP) == 0,
	      "names under \"/\" asked, the ext2 server stopped");
	pid_t c = fork();
	if (c == 0)
		_exit(stat("/bin", &st) != 0 || !S_ISDIR(st.st_mode) || lstat("/boot", &st) != 0 ||
		      !fails(stat("/no-such-name", &st), ENOENT));
	pid_t s = fork();
	if (s == 0)
		_exit(stat("/never-asked", &st) == 0);
	int cst = wait_bounded(c, 20), sst = wait_bounded(s, 0.3);
	kill(srv, SIGCONT);
	if (sst < 0)
		sst = wait_bounded(s, 20);
	check(cst == 0, "stat, lstat and ENOENT of \"/\"'s names answered by the kernel, the server stopped");
	check(sst == 0, "a name under \"/\" never asked waited for the server");
}

static int first(void)
{
	check_root_is_disk();
	check_names_in_kernel();
	mkdir("/persist", 0755);
	int p[2];
	check(pipe(p) == 0 && syncfs(p[0]) == 0, "syncfs on a pipe: 0 (nothing to write)");
	close(p[0]);
	close(p[1]);
	check_errno(syncfs(-1), EBADF, "syncfs(-1): EBADF");
	check_errno(fsync(987), EBADF, "fsync of a closed descriptor: EBADF");
	unsigned char *buf = malloc(FSYNCED_LEN);
	for (size_t i = 0; i < FSYNCED_LEN; i++)
		buf[i] = fs_byte(i);
	int fd = open("/persist/fsynced.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, buf, FSYNCED_LEN) == FSYNCED_LEN && fsync(fd) == 0, "a 64 KiB write, fsync");
	check(fd >= 0 && fdatasync(fd) == 0 && syncfs(fd) == 0, "fdatasync and syncfs on it: 0");
	int dfd = open("/persist", O_RDONLY | O_DIRECTORY);
	check(dfd >= 0 && fsync(dfd) == 0 && close(dfd) == 0, "fsync of the directory");
	/* after the fsync, so only sync(2) can have put this one on the disk */
	check(put_new("/persist/synced.txt", SYNCED_TEXT) == 0, "a file written and closed");
	sync(); /* void, like Linux's: what it did shows after the kill */
	/* last, with nothing synced after it: an O_DIRECT write is on the
	 * device when it returns */
	unsigned char *d = NULL;
	int dfd2 = posix_memalign((void **)&d, 4096, 8192) ? -1 : open("/persist/direct.bin", O_WRONLY | O_CREAT | O_DIRECT, 0644);
	for (int i = 0; d && i < 8192; i++)
		d[i] = (unsigned char)(i * 5 + 7);
	check(dfd2 >= 0 && write(dfd2, d, 8192) == 8192, "an O_DIRECT write of 8 KiB (no sync after it)");
	printf("# rootdisk: kill now\n");
	fflush(stdout);
	/* the host kills QEMU now; until it does, writes nobody syncs */
	int late = open("/persist/late.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int i = 0; i < 2000 && late >= 0; i++) {
		(void)!write(late, buf, 4096);
		usleep(10000);
	}
	free(buf);
	printf("# rootdisk: not killed\n");
	return 1;
}

static int second(void)
{
	check_root_is_disk();
	check(has_text("/persist/synced.txt", SYNCED_TEXT), "the file sync(2) wrote survived the kill");
	check(fsynced_intact(), "the fsynced file's bytes survived the kill");
	check(put_new("/persist/second.txt", "second boot\n") == 0, "a file written in the second boot");
	struct stat st;
	check(stat("/persist/second.txt", &st) == 0 && st.st_size == 12, "stat of it");
	return 0;
}

int main(int argc, char **argv)
{
	int r = argc > 1 && strcmp(argv[1], "first") == 0 ? first() :
		argc > 1 && strcmp(argv[1], "second") == 0 ? second() : 2;
	if (r == 2) {
		printf("usage: rootdisk first|second\n");
		return 2;
	}
	printf("1..%d\n", n);
	return failed || r ? 1 : 0;
}
