/* Files through the VFS server, as a POSIX program sees them: open with
 * its flags, read, write, lseek, pread/pwrite, stat and fstat, mkdir,
 * rmdir, unlink, rename, directories, dup/dup2, pipes (with EOF and EPIPE),
 * fork sharing offsets, permissions across uids, /dev devices, the
 * working directory, and the errno of each failure. Prints TAP. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/fs.h"
#include "abi/ipc.h"
#include "arbor/syscalls.h"
#include "check.h"

/* Runs argv in a child; its wait status (-1 if fork failed). */
static int run(char *const argv[])
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(errno == EACCES ? 100 : errno == ENOEXEC ? 101 : errno == ENOENT ? 102 : 103);
	}
	return pid < 0 || waitpid(pid, &status, 0) != pid ? -1 : status;
}

/* Copies file from to to with mode. */
static int copy(const char *from, const char *to, mode_t mode)
{
	char buf[4096];
	int in = open(from, O_RDONLY), out = open(to, O_CREAT | O_TRUNC | O_WRONLY, mode);
	ssize_t n;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	return in >= 0 && out >= 0 ? 0 : -1;
}

/* execve reads programs through the VFS: files written at run time run. */
static void test_exec_files(void)
{
	char *const fargv[] = { "/tmp/myfalse", NULL };
	char *const dargv[] = { "/tmp", NULL };
	char *const targv[] = { "/tmp/text", NULL };
	int status;
	check(copy("/bin/false", "/tmp/myfalse", 0755) == 0, "copy /bin/false to /tmp");
	status = run(fargv);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 1, "execv of a program written at run time");
	chmod("/tmp/myfalse", 0644);
	status = run(fargv);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 100, "execv of a file without x bits: EACCES");
	status = run(dargv);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 100, "execv of a directory: EACCES");
	int fd = open("/tmp/text", O_CREAT | O_WRONLY, 0755);
	write(fd, "not a program\n", 14);
	close(fd);
	status = run(targv);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 101, "execv of a text file: ENOEXEC");
	chmod("/tmp/myfalse", 0700);
	pid_t pid = fork();
	if (pid == 0) {
		/* Another uid may not run a 0700 file of root's. */
		_exit(setuid(1000) == 0 && execv("/tmp/myfalse", fargv) == -1 && errno == EACCES ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "execv of another's 0700 program: EACCES");
	unlink("/tmp/myfalse");
	unlink("/tmp/text");
}

/* The process's resident memory (VmRSS of /proc/self/status), kB; -1. */
static long rss_kb(void)
{
	char buf[512];
	if (slurp("/proc/self/status", buf, sizeof(buf)) < 0)
		return -1;
	const char *v = strstr(buf, "VmRSS:");
	return v ? atol(v + 6) : -1;
}

/* Runs fn(arg) in a forked child; its wait status. */
static int in_child(int (*fn)(volatile char *), volatile char *arg)
{
	int status;
	pid_t pid = fork();
	if (pid == 0)
		_exit(fn(arg));
	return pid < 0 || waitpid(pid, &status, 0) != pid ? -1 : status;
}

static int read_byte(volatile char *p) { return p[0]; }
static int write_byte(volatile char *p) { p[0] = 1; return 0; }
/* The child inherits PROT_NONE; its mprotect and writes stay its own. */
static int reprotect(volatile char *p)
{
	if (mprotect((void *)p, 4096, PROT_READ | PROT_WRITE) != 0 || p[0] != 7)
		return 1;
	p[0] = 9;
	return p[0] == 9 ? 0 : 2;
}

static int killed_by_segv(int status)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

/* mprotect(PROT_NONE) of pages that hold data: the user faults on them,
 * and the kernel's copies refuse them as Linux's do (EFAULT), whether
 * direct (pipes, exec's path) or through a server (files). */
static void test_prot_none(void)
{
	char *p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(p != MAP_FAILED, "mmap 3 pages");
	p[0] = 7;
	memset(p + 4096, 'x', 4096);
	strcpy(p + 2 * 4096 - 11, "/bin/false"); /* ends at the next page */
	check(mprotect(p + 2 * 4096, 4096, PROT_NONE) == 0 && mprotect(p, 4096, PROT_NONE) == 0,
	      "mprotect PROT_NONE of a page with data");
	check(killed_by_segv(in_child(read_byte, p)), "a read of a PROT_NONE page: SIGSEGV");
	check(killed_by_segv(in_child(write_byte, p)), "a write to a PROT_NONE page: SIGSEGV");

	char good[512];
	memset(good, 'g', sizeof(good));
	int fd = open("/tmp/protnone", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, good, sizeof(good)) == 512, "a file to read and write");
	check_errno(write(fd, p, 512), EFAULT, "write to a file from a PROT_NONE page: EFAULT");
	check_errno(pwrite(fd, p, 512, 0), EFAULT, "pwrite from a PROT_NONE page: EFAULT");
	check_errno(pread(fd, p, 512, 0), EFAULT, "pread into a PROT_NONE page: EFAULT");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	check_errno(read(fd, p, 512), EFAULT, "read from a file into a PROT_NONE page: EFAULT");
	check(pwrite(fd, p + 4096, 8192, 512) == 4096, "a write that runs into a PROT_NONE page is short");
	int pp[2];
	check(pipe(pp) == 0, "pipe");
	check_errno(write(pp[1], p, 16), EFAULT, "write to a pipe from a PROT_NONE page: EFAULT");
	check(write(pp[1], "hello", 5) == 5, "write to the pipe");
	check_errno(read(pp[0], p, 5), EFAULT, "read from a pipe into a PROT_NONE page: EFAULT");
	close(pp[0]);
	close(pp[1]);
	/* the IPC fast path's own copies (copy_*_user_self) refuse them too */
	long vfs = sys_ns_lookup(VFS_NAME);
	struct ipc_msg msg = { .label = VFS_ROUTES };
	check(vfs >= 0 && sys_ipc_call((int)vfs, (struct ipc_msg *)p, NULL, 0, NULL, 0) == -EFAULT,
	      "an IPC call whose message is in a PROT_NONE page: EFAULT");
	check(sys_ipc_call((int)vfs, &msg, p, 16, NULL, 0) == -EFAULT,
	      "an IPC call with a small send buffer in a PROT_NONE page: EFAULT");
	if (vfs >= 0)
		sys_handle_close((int)vfs);
	char *const fargv[] = { p + 2 * 4096 - 11, NULL };
	int status = run(fargv);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 1,
	      "execv of a path that ends just before a PROT_NONE page");

	int st = in_child(reprotect, p);
	check(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a forked child inherits PROT_NONE and may mprotect its copy back");
	check(killed_by_segv(in_child(read_byte, p)), "the parent's page stays PROT_NONE");
	check(mprotect(p, 4096, PROT_READ | PROT_WRITE) == 0 && p[0] == 7,
	      "mprotect back to read-write: the data is intact (not the child's)");
	p[0] = 8;
	check(p[0] == 8 && pread(fd, p, 512, 0) == 512 && p[0] == 'g' && write(fd, p, 512) == 512,
	      "and the kernel's copies work again");
	close(fd);
	unlink("/tmp/protnone");
	check(munmap(p, 3 * 4096) == 0, "munmap of a range with PROT_NONE pages");

	/* The pages of a PROT_NONE range stay the process's until unmapped. */
	size_t len = 64 * 4096;
	char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(q != MAP_FAILED, "mmap 64 pages");
	for (size_t i = 0; i < len; i += 4096)
		q[i] = 1;
	long touched = rss_kb();
	check(mprotect(q, len, PROT_NONE) == 0 && rss_kb() == touched, "PROT_NONE pages stay resident");
	long unmapped = munmap(q, len) == 0 ? rss_kb() : -1;
	if (!(touched > 0 && unmapped >= 0 && touched - unmapped >= 256))
		printf("# VmRSS %ld kB touched, %ld kB after munmap\n", touched, unmapped);
	check(touched > 0 && unmapped >= 0 && touched - unmapped >= 256,
	      "munmap of a PROT_NONE range gives its memory back (VmRSS)");

	/* Shared memory is present from the start. */
	char *s = mmap(NULL, 4096, PROT_NONE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check(s != MAP_FAILED && killed_by_segv(in_child(read_byte, s)), "a PROT_NONE shared map: SIGSEGV");
	check(pipe(pp) == 0, "pipe");
	check_errno(write(pp[1], s, 1), EFAULT, "write to a pipe from a PROT_NONE shared map: EFAULT");
	close(pp[0]);
	close(pp[1]);
	check(mprotect(s, 4096, PROT_READ | PROT_WRITE) == 0 && (s[0] = 3) == 3 && munmap(s, 4096) == 0,
	      "mprotect of a shared map back to read-write");
}

/* select and pselect over a pipe: Linux's sets, timeouts and errors. */
static void test_select(void)
{
	int p[2];
	check(pipe(p) == 0, "a pipe for select");
	fd_set rd, wr;
	struct timeval tv = { 0, 0 };
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	check(select(p[1] + 1, &rd, &wr, NULL, &tv) == 1 && !FD_ISSET(p[0], &rd) && FD_ISSET(p[1], &wr),
	      "select: an empty pipe is writable, not readable");
	check(write(p[1], "x", 1) == 1, "one byte in");
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	check(select(p[1] + 1, &rd, &wr, NULL, NULL) == 2 && FD_ISSET(p[0], &rd) && FD_ISSET(p[1], &wr),
	      "select: then readable too (2 ready, no timeout needed)");
	char c;
	check(read(p[0], &c, 1) == 1, "the byte out");
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv = (struct timeval){ 0, 50000 };
	double t0 = now_s();
	int r = select(p[0] + 1, &rd, NULL, NULL, &tv);
	double took = now_s() - t0;
	check(r == 0 && !FD_ISSET(p[0], &rd) && tv.tv_sec == 0 && tv.tv_usec == 0 && took >= 0.045,
	      "select times out after 50 ms with the set cleared and no time left in tv");
	FD_ZERO(&rd);
	FD_SET(100, &rd);
	check_errno(select(101, &rd, NULL, NULL, NULL), EBADF, "select on a closed descriptor: EBADF");
	check_errno(select(-1, NULL, NULL, NULL, NULL), EINVAL, "select with a negative count: EINVAL");
	tv = (struct timeval){ 0, 1000000 };
	check_errno(select(0, NULL, NULL, NULL, &tv), EINVAL, "select with tv_usec 1000000: EINVAL");
	struct timespec ts = { 0, 0 };
	sigset_t none;
	sigemptyset(&none);
	FD_ZERO(&wr);
	FD_SET(p[1], &wr);
	check(pselect(p[1] + 1, NULL, &wr, NULL, &ts, &none) == 1 && FD_ISSET(p[1], &wr), "pselect");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	char buf[128];
	struct stat st;

	int fd = open("/tmp/a.txt", O_RDWR | O_CREAT | O_EXCL, 0644);
	check(fd >= 3, "open O_CREAT|O_EXCL gives the lowest free descriptor above 2");
	check(write(fd, "hello, world\n", 13) == 13, "write");
	check(lseek(fd, 0, SEEK_CUR) == 13, "the offset follows writes");
	check(lseek(fd, 7, SEEK_SET) == 7 && read(fd, buf, 5) == 5 && memcmp(buf, "world", 5) == 0,
	      "lseek and read");
	check(pread(fd, buf, 5, 0) == 5 && memcmp(buf, "hello", 5) == 0 && lseek(fd, 0, SEEK_CUR) == 12,
	      "pread leaves the offset alone");
	check(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 13 && (st.st_mode & 0777) == 0644,
	      "fstat: a regular file, its size and mode");
	check_errno(open("/tmp/a.txt", O_RDWR | O_CREAT | O_EXCL, 0644), EEXIST, "O_EXCL on an existing file: EEXIST");
	check_errno(open("/tmp/none", O_RDONLY), ENOENT, "open of a missing file: ENOENT");
	check_errno(open("/tmp/a.txt/x", O_RDONLY), ENOTDIR, "a file used as a directory: ENOTDIR");
	check_errno(open("/tmp", O_WRONLY), EISDIR, "a directory opened for writing: EISDIR");
	check_errno(read(99, buf, 1), EBADF, "read of a closed descriptor: EBADF");
	check_errno(lseek(fd, -100, SEEK_SET), EINVAL, "lseek before the start: EINVAL");

	int d = dup(fd);
	check(d > fd && lseek(d, 0, SEEK_CUR) == 12, "dup shares the offset");
	check(dup2(fd, 20) == 20 && lseek(20, 1, SEEK_SET) == 1 && lseek(fd, 0, SEEK_CUR) == 1,
	      "dup2 onto a chosen number, sharing the offset");
	close(d);
	close(20);
	check(close(fd) == 0, "close");
	check_errno(close(fd), EBADF, "close twice: EBADF");

	fd = open("/tmp/a.txt", O_WRONLY | O_APPEND);
	write(fd, "more\n", 5);
	close(fd);
	check(stat("/tmp/a.txt", &st) == 0 && st.st_size == 18, "O_APPEND writes at the end");
	fd = open("/tmp/a.txt", O_WRONLY | O_TRUNC);
	close(fd);
	check(stat("/tmp/a.txt", &st) == 0 && st.st_size == 0, "O_TRUNC empties the file");

	check(mkdir("/tmp/dir", 0755) == 0, "mkdir");
	check_errno(mkdir("/tmp/dir", 0755), EEXIST, "mkdir of an existing name: EEXIST");
	check(rename("/tmp/a.txt", "/tmp/dir/b.txt") == 0 && stat("/tmp/dir/b.txt", &st) == 0,
	      "rename into a directory");
	check_errno(rmdir("/tmp/dir"), ENOTEMPTY, "rmdir of a non-empty directory: ENOTEMPTY");
	DIR *dir = opendir("/tmp/dir");
	int seen = 0;
	struct dirent *e;
	while (dir && (e = readdir(dir)) != NULL)
		seen |= strcmp(e->d_name, ".") == 0 ? 1 : strcmp(e->d_name, "..") == 0 ? 2 :
			strcmp(e->d_name, "b.txt") == 0 ? 4 : 8;
	closedir(dir);
	check(seen == 7, "readdir lists ., .. and the file");
	check(chdir("/tmp/dir") == 0 && getcwd(buf, sizeof(buf)) && strcmp(buf, "/tmp/dir") == 0,
	      "chdir and getcwd");
	check(stat("b.txt", &st) == 0 && chdir("..") == 0 && getcwd(buf, sizeof(buf)) &&
	      strcmp(buf, "/tmp") == 0, "relative paths and ..");
	check_errno(chdir("/tmp/dir/b.txt"), ENOTDIR, "chdir to a file: ENOTDIR");
	check(unlink("/tmp/dir/b.txt") == 0 && rmdir("/tmp/dir") == 0, "unlink and rmdir");
	check_errno(unlink("/tmp/dir"), ENOENT, "unlink of a removed name: ENOENT");

	int p[2];
	check(pipe(p) == 0, "pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (int i = 0; i < 100; i++)
			write(p[1], "0123456789", 10);
		_exit(0);
	}
	close(p[1]);
	long total = 0, r;
	while ((r = read(p[0], buf, sizeof(buf))) > 0)
		total += r;
	int status;
	waitpid(pid, &status, 0);
	check(total == 1000 && r == 0, "a pipe carries 1000 bytes, then EOF when the writer is gone");
	close(p[0]);
	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	check_errno((int)write(p[1], "x", 1), EPIPE, "a write with no reader: EPIPE");
	close(p[1]);

	/* sizes on both sides of the kernel's stack bounce buffer (256
	 * bytes; more goes through a page): every byte arrives, in order */
	static char pout[10000], pin[10000];
	static const int wsz[] = { 1, 255, 256, 257, 4096, 5000 }, rsz[] = { 256, 257, 1, 255, 4096, 4097 };
	size_t put = 0, got = 0;
	for (int i = 0; i < (int)sizeof(pout); i++)
		pout[i] = (char)(i * 7 + 3);
	check(pipe(p) == 0, "a pipe for sized transfers");
	for (int i = 0; i < 6; i++) {
		check(write(p[1], pout + put, (size_t)wsz[i]) == wsz[i], "a pipe write of 1 to 5000 bytes");
		put += (size_t)wsz[i];
	}
	for (int i = 0; got < put; i = (i + 1) % 6) {
		r = read(p[0], pin + got, (size_t)rsz[i]);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	check(got == put && memcmp(pout, pin, put) == 0, "reads of 1 to 4097 bytes get those bytes in order");
	check(write(p[1], "z", 1) == 1 && read(p[0], (char *)8, 1) == -1 && errno == EFAULT,
	      "a small pipe read with data into a bad buffer: EFAULT");
	check_errno((int)write(p[1], (char *)8, 1), EFAULT, "a small pipe write from a bad buffer: EFAULT");
	close(p[0]);
	close(p[1]);

	fd = open("/dev/null", O_RDWR);
	check(fd >= 0 && write(fd, "x", 1) == 1 && read(fd, buf, 1) == 0, "/dev/null");
	close(fd);
	fd = open("/dev/zero", O_RDONLY);
	buf[0] = 1;
	check(fd >= 0 && read(fd, buf, 16) == 16 && buf[0] == 0 && buf[15] == 0, "/dev/zero");
	close(fd);

	fd = open("/tmp/private", O_CREAT | O_WRONLY, 0600);
	close(fd);
	pid = fork();
	if (pid == 0) {
		/* Permission checks use the identity the kernel gives the server. */
		_exit(setuid(1000) == 0 && open("/tmp/private", O_RDONLY) == -1 && errno == EACCES ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "another uid may not read a 0600 file: EACCES");
	check(access("/tmp/private", R_OK | W_OK) == 0, "root may (access)");
	test_exec_files();
	test_prot_none();
	test_select();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
