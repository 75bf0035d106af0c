/* ondisk DEV DIR PROG [ARGS...]: mounts DEV (ext2) on DIR, runs PROG with
 * its working directory there, unmounts, and exits with PROG's status (128
 * plus the signal if it was killed).
 *
 * Linux's cgroup selftests make their page cache in files of their working
 * directory (O_TMPFILE in "."), which is a tmpfs on both sides when they are
 * run from the boot archive: holes read there charge nothing, so the
 * memory controller's page-cache sub-tests cannot pass on either system.
 * tools/selftests.py runs test_memcontrol once more through this program,
 * on an ext2 disk made by the host's mke2fs, on Arbor and on Linux 6.1
 * (built with linux-cc: the same source serves both). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: ondisk DEV DIR PROG [ARGS...]\n");
		return 2;
	}
	if (mkdir(argv[2], 0755) && errno != EEXIST) {
		fprintf(stderr, "ondisk: mkdir %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (mount(argv[1], argv[2], "ext2", 0, "")) {
		fprintf(stderr, "ondisk: mount %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (chdir(argv[2])) {
		fprintf(stderr, "ondisk: chdir %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("ondisk: fork");
		return 2;
	}
	if (pid == 0) {
		execv(argv[3], argv + 3);
		fprintf(stderr, "ondisk: exec %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (chdir("/") || umount(argv[2]))
		fprintf(stderr, "ondisk: umount %s: %s\n", argv[2], strerror(errno));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
