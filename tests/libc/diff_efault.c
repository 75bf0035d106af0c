/* Differential test: bad pointers are errors, not crashes. Every call
 * below takes a pointer and is given a bad one: NULL, an unmapped page,
 * a kernel address, and for what the call writes, a read-only page.
 * Linux's kernel copies each and fails with EFAULT; Arbor's C library
 * does some of the work itself (paths, poll's array, iovecs) and must
 * fail the same way (docs/abi.md, "Bad pointers"). The program prints each
 * call's result and errno name; the host's output is the reference. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EFAULT: return "EFAULT";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EEXIST: return "EEXIST";
	case ECHILD: return "ECHILD";
	case ERANGE: return "ERANGE";
	default: return "another errno";
	}
}

static void show(const char *what, const char *how, long r)
{
	printf("%-10s %-9s -> %ld %s\n", what, how, r, r < 0 ? ename(errno) : "");
	fflush(stdout);
}

#define N_BAD 3
static void *bad[N_BAD];
static const char *bad_name[N_BAD] = { "NULL", "unmapped", "kernel" };
static void *ro;	/* a read-only page */

/* Each call once per bad pointer: E is an expression of p. */
#define EACH(name, E) do { \
	for (int i_ = 0; i_ < N_BAD; i_++) { \
		void *p = bad[i_]; \
		errno = 0; \
		long r_ = (long)(E); \
		show(name, bad_name[i_], r_); \
	} \
} while (0)
/* ... and for a call writing through p, the read-only page too. */
#define EACH_OUT(name, E) do { \
	EACH(name, E); \
	void *p = ro; \
	errno = 0; \
	long r_ = (long)(E); \
	show(name, "readonly", r_); \
} while (0)

int main(void)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/efault.%d", (int)getpid());
	if (mkdir(dir, 0755) || chdir(dir)) {
		perror("setup");
		return 1;
	}
	/* three pages, the middle one unmapped: nothing maps there again
	 * (later mappings go elsewhere while its neighbours stay) */
	char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || ro == MAP_FAILED || munmap(m + 4096, 4096)) {
		perror("mmap");
		return 1;
	}
	bad[0] = NULL;
	bad[1] = m + 4096;
	bad[2] = (void *)0xffffffff81000000ull;
	int fd = open("f", O_RDWR | O_CREAT, 0644);
	if (fd < 0 || write(fd, "hello", 5) != 5 || lseek(fd, 0, SEEK_SET) != 0) {
		perror("f");
		return 1;
	}
	struct stat st;

	/* paths: the library reads them in Arbor */
	EACH("open", open(p, O_RDONLY));
	EACH("creat", open(p, O_WRONLY | O_CREAT, 0644));
	EACH("openat", openat(AT_FDCWD, p, O_RDONLY));
	EACH("stat", stat(p, &st));
	EACH("lstat", lstat(p, &st));
	EACH("fstatat", fstatat(AT_FDCWD, p, &st, 0));
	EACH("access", access(p, F_OK));
	EACH("faccessat", faccessat(AT_FDCWD, p, F_OK, 0));
	EACH("mkdir", mkdir(p, 0755));
	EACH("mkdirat", mkdirat(AT_FDCWD, p, 0755));
	EACH("rmdir", rmdir(p));
	EACH("unlink", unlink(p));
	EACH("unlinkat", unlinkat(AT_FDCWD, p, 0));
	EACH("chmod", chmod(p, 0644));
	EACH("chown", chown(p, 0, 0));
	EACH("lchown", lchown(p, 0, 0));
	EACH("chdir", chdir(p));
	EACH("rename1", rename(p, "g"));
	EACH("rename2", rename("f", p));
	EACH("link1", link(p, "g"));
	EACH("link2", link("f", p));
	EACH("symlink1", symlink(p, "g"));
	EACH("symlink2", symlink("f", p));
	EACH("readlink", readlink(p, dir, sizeof(dir)));
	EACH("truncate", truncate(p, 0));
	EACH("statvfs", ({ struct statvfs v; statvfs(p, &v); }));
	EACH("execve", execve(p, (char *[]){ "x", NULL }, (char *[]){ NULL }));

	/* out-structures and buffers */
	EACH_OUT("stat.out", stat("f", p));
	EACH_OUT("fstat.out", fstat(fd, p));
	EACH_OUT("read", read(fd, p, 5));
	lseek(fd, 0, SEEK_SET);
	EACH_OUT("pread", pread(fd, p, 5, 0));
	EACH("write", write(fd, p, 5));
	EACH("pwrite", pwrite(fd, p, 5, 0));
	EACH_OUT("pipe", pipe(p));
	EACH_OUT("getcwd", getcwd(p, 64) ? 0 : -1);
	EACH_OUT("uname", uname(p));
	EACH_OUT("getrlimit", getrlimit(RLIMIT_AS, p));
	EACH_OUT("getrusage", getrusage(RUSAGE_SELF, p));
	EACH_OUT("readlink.b", ({ symlink("f", "l"); long r = readlink("l", p, 16); unlink("l"); r; }));

	/* arrays */
	EACH_OUT("poll", poll(p, 1, 0));
	EACH("readv", readv(fd, p, 1));
	EACH("writev", writev(fd, p, 1));
	EACH("readv.base", ({ struct iovec v = { p, 5 }; lseek(fd, 0, SEEK_SET); readv(fd, &v, 1); }));
	EACH("writev.base", ({ struct iovec v = { p, 5 }; writev(fd, &v, 1); }));
	EACH_OUT("select.rd", select(fd + 1, p, NULL, NULL, &(struct timeval){ 0, 0 }));
	EACH_OUT("select.wr", select(fd + 1, NULL, p, NULL, &(struct timeval){ 0, 0 }));
	EACH("nanosleep", nanosleep(p, NULL));
	EACH("setrlimit", setrlimit(RLIMIT_AS, p));
	EACH("sigsuspend", sigsuspend(p));
	pid_t c = fork();
	if (c == 0)
		_exit(3);
	/* a bad status pointer: EFAULT, and the child stays to be waited for
	 * (NULL is no pointer: it reaps) */
	for (int i = 1; i <= N_BAD; i++) {
		errno = 0;
		long r = waitpid(c, i < N_BAD ? bad[i] : ro, 0);
		show("waitpid", i < N_BAD ? bad_name[i] : "readonly", r);
	}
	int status;
	show("waitpid", "reaped", waitpid(c, &status, 0) == c ? WEXITSTATUS(status) : -1);

	close(fd);
	unlink("f");
	chdir("/");
	show("cleanup", "rmdir", rmdir(dir));
	return 0;
}
