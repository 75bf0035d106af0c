/* Differential test: files and directories through POSIX calls (open,
 * read/write, lseek, getline, stat, mkdir, readdir, rename, unlink,
 * rmdir) with their errno values, and a pipe between two processes.
 * Works in /tmp, or in DIR (argv[1]); "DIR DEV TYPE" first mounts DEV
 * there (the runner's run on an ext2 disk in Arbor) and unmounts it at
 * the end, printing nothing about it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static const char *in(const char *name)
{
	static char path[2][128];
	static int which;
	which ^= 1;
	snprintf(path[which], sizeof(path[which]), "%s/%s", dir, name);
	return path[which];
}

static void report(const char *what, int r)
{
	printf("%-28s %d %s\n", what, r, r < 0 ? strerror(errno) : "");
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list(void)
{
	DIR *d = opendir(dir);
	char *names[16];
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 16)
		names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp);
	printf("listing:");
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	struct stat st;
	const char *base = argc > 1 ? argv[1] : "/tmp";
	if (argc > 3) {
		mkdir(base, 0755);
		if (mount(argv[2], base, argv[3], 0, "")) {
			perror("mount");
			return 2;
		}
	}
	snprintf(dir, sizeof(dir), "%s/arbor-diff-%d", base, (int)getpid());
	report("mkdir", mkdir(dir, 0755));
	report("mkdir again", mkdir(dir, 0755));

	int fd = open(in("lines"), O_CREAT | O_EXCL | O_WRONLY, 0644);
	printf("open O_CREAT|O_EXCL ok: %d\n", fd >= 0);
	for (int i = 1; i <= 5; i++)
		dprintf(fd, "line %d: %.*s\n", i, i * 3, "abcdefghijklmnopqrstuvwxyz");
	report("close", close(fd));
	report("open O_EXCL existing", open(in("lines"), O_CREAT | O_EXCL | O_WRONLY, 0644));
	report("stat", stat(in("lines"), &st));
	printf("size %lld regular %d mode %o\n", (long long)st.st_size, S_ISREG(st.st_mode),
	       (unsigned)(st.st_mode & 0777));

	FILE *f = fopen(in("lines"), "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0)
		printf("getline %zd: %s", len, line);
	printf("getline at end: %zd\n", getline(&line, &cap, f));
	free(line);
	fclose(f);

	fd = open(in("lines"), O_RDWR);
	char buf[32] = { 0 };
	printf("lseek %lld\n", (long long)lseek(fd, 8, SEEK_SET));
	printf("read %zd [%.5s]\n", read(fd, buf, 5), buf);
	printf("pwrite %zd\n", pwrite(fd, "XY", 2, 0));
	printf("pread %zd [%.6s]\n", pread(fd, buf, 6, 0), buf);
	printf("lseek end %lld\n", (long long)lseek(fd, 0, SEEK_END));
	report("ftruncate", ftruncate(fd, 4));
	report("fstat", fstat(fd, &st));
	printf("size after truncate %lld\n", (long long)st.st_size);
	close(fd);

	report("mkdir sub", mkdir(in("sub"), 0700));
	report("rename into sub", rename(in("lines"), in("sub/moved")));
	list();
	report("rmdir non-empty", rmdir(in("sub")));
	report("open a directory O_WRONLY", open(in("sub"), O_WRONLY));
	report("open through a file", open(in("sub/moved/x"), O_RDONLY));
	report("open missing", open(in("nope"), O_RDONLY));
	report("unlink a directory", unlink(in("sub")));
	report("unlink", unlink(in("sub/moved")));
	report("rmdir", rmdir(in("sub")));
	list();

	int p[2];
	report("pipe", pipe(p));
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (int i = 0; i < 3; i++)
			dprintf(p[1], "message %d from the child\n", i);
		_exit(3);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	char msg[64];
	while (fgets(msg, sizeof(msg), f))
		printf("parent got: %s", msg);
	fclose(f);
	int status;
	printf("waitpid %d exit %d\n", waitpid(pid, &status, 0) == pid, WEXITSTATUS(status));
	report("rmdir the test directory", rmdir(dir));
	if (argc > 3 && umount(base)) {
		perror("umount");
		return 2;
	}
	return 0;
}
