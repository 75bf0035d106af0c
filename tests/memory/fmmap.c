/* mmap of files (docs/memory.md "File mappings"): tmpfs files mapped from
 * the page cache. A shared mapping is seen by read and by another
 * process's mapping, write() is seen through it; a private one is
 * copy-on-write; past the end is SIGBUS (caught with a handler and
 * siglongjmp), growth makes pages reachable, truncation takes them away
 * from every mapping; msync's and mmap's errno as Linux; the pages a
 * mapping writes are charged to the writer, file_mapped counts them, and
 * after mapping, writing, truncating and unlinking a cgroup's
 * memory.current is back where it began; last, a dead server's mappings
 * get SIGBUS. Prints TAP. */
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_fmmap"
#define PG 4096

/* sigsetjmp/siglongjmp by hand (newlib has them for Cygwin only): the
 * mask saved before setjmp is put back before the longjmp out of the
 * handler, which would otherwise leave SIGBUS blocked. */
static jmp_buf jb;
static sigset_t jb_mask;
static volatile sig_atomic_t got_sig;
static void *volatile got_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_addr = si->si_addr;
	sigprocmask(SIG_SETMASK, &jb_mask, NULL);
	longjmp(jb, 1);
}

/* Reads (write: writes v to) *p: 0, or the signal the access raised. */
static int touch(volatile char *p, int write, char v, char *out)
{
	got_sig = 0;
	sigprocmask(SIG_SETMASK, NULL, &jb_mask);
	if (setjmp(jb) == 0) {
		if (write)
			*p = v;
		else if (out)
			*out = *p;
		else
			(void)*p;
	}
	return got_sig;
}

static long number(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static int make_file(const char *path, size_t len, int seed)
{
	static char buf[64 * 1024];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('a' + (i * 7 + (size_t)seed) % 26);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || len > sizeof(buf) || write(fd, buf, len) != (ssize_t)len)
		return -1;
	return fd;
}

static void test_shared(void)
{
	int fd = make_file("/tmp/fm.s", 10000, 1);
	char *p = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(fd >= 0 && p != MAP_FAILED, "mmap MAP_SHARED of a 10000-byte tmpfs file");
	char buf[16];
	int same = 1;
	for (int i = 0; i < 10000; i += 997)
		same &= pread(fd, buf, 1, i) == 1 && buf[0] == p[i];
	check(same, "the mapping shows the file's bytes");
	check(p[10000] == 0 && p[3 * PG - 1] == 0, "the tail of the last page reads zeros");
	p[5] = 'X';
	check(pread(fd, buf, 1, 5) == 1 && buf[0] == 'X', "a store through the mapping: read() sees it");
	check(pwrite(fd, "HELLO", 5, 100) == 5 && memcmp(p + 100, "HELLO", 5) == 0,
	      "pwrite(): the mapping sees it");
	pid_t c = fork();
	if (c == 0) {
		int f2 = open("/tmp/fm.s", O_RDWR);
		char *q = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, f2, 0);
		if (q == MAP_FAILED || q[5] != 'X' || memcmp(q + 100, "HELLO", 5))
			_exit(1);
		q[8000] = 'Q';
		_exit(munmap(q, 3 * PG) ? 2 : 0);
	}
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "another process maps the file: it sees the first mapper's store");
	check(p[8000] == 'Q' && pread(fd, buf, 1, 8000) == 1 && buf[0] == 'Q',
	      "its store: the first mapping and read() see it");
	/* an inherited shared mapping stays shared across fork */
	c = fork();
	if (c == 0) {
		p[9000] = 'F';
		_exit(0);
	}
	check(waitpid(c, &st, 0) == c && p[9000] == 'F', "a forked child's store to the inherited mapping");
	check(munmap(p, 3 * PG) == 0 && pread(fd, buf, 1, 9000) == 1 && buf[0] == 'F', "munmap: the data stays");
	struct stat before, after;
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	fstat(fd, &before);
	usleep(20000);
	p[1] = 'm';
	check(fstat(fd, &after) == 0 &&
	      (after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec),
	      "a store through a new shared mapping updates the file's mtime");
	munmap(p, PG);
	close(fd);
	unlink("/tmp/fm.s");
}

static void test_private(void)
{
	int fd = make_file("/tmp/fm.p", 2 * PG, 2);
	char orig0 = 0, buf[4];
	pread(fd, &orig0, 1, 0);
	char *s = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check(fd >= 0 && s != MAP_FAILED && p != MAP_FAILED, "a shared and a private mapping of one file");
	check(p[0] == orig0 && pwrite(fd, "1", 1, 1) == 1 && p[1] == '1',
	      "before its first store, the private mapping sees the file (and its writes)");
	p[0] = 'P';
	check(pread(fd, buf, 1, 0) == 1 && buf[0] == orig0 && s[0] == orig0 && p[0] == 'P',
	      "a store to the private mapping reaches neither the file nor the shared mapping");
	check(pwrite(fd, "2", 1, 2) == 1 && p[2] != '2' && s[2] == '2',
	      "after it, that page is a copy: later file writes do not show there");
	check(pwrite(fd, "3", 1, PG + 3) == 1 && p[PG + 3] == '3', "a page never stored to still shows the file");
	pid_t c = fork();
	if (c == 0) {
		p[PG] = 'C';
		_exit(p[0] == 'P' ? 0 : 1);
	}
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0 && p[PG] != 'C' && s[PG] != 'C',
	      "a forked child's store to the private mapping stays its own");
	munmap(p, 2 * PG);
	munmap(s, 2 * PG);
	/* private and writable on a read-only descriptor: allowed, stays private */
	int ro = open("/tmp/fm.p", O_RDONLY);
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
	check(p != MAP_FAILED, "MAP_PRIVATE with PROT_WRITE of an O_RDONLY descriptor");
	if (p != MAP_FAILED) {
		p[0] = 'Z';
		check(pread(fd, buf, 1, 0) == 1 && buf[0] == orig0, "its stores do not reach the file");
		munmap(p, PG);
	}
	close(ro);
	close(fd);
	unlink("/tmp/fm.p");
}

static void test_eof(void)
{
	int fd = make_file("/tmp/fm.e", 10000, 3);
	char *p = mmap(NULL, 6 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *q = mmap(NULL, 6 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char v = 1;
	check(p != MAP_FAILED && q != MAP_FAILED, "map 6 pages of a 10000-byte file (shared and private)");
	check(touch(p + 10000, 0, 0, &v) == 0 && v == 0, "the tail of the last page: zeros, no signal");
	check(touch(p + 3 * PG, 0, 0, NULL) == SIGBUS && got_addr == p + 3 * PG,
	      "a read of a page wholly past the end: SIGBUS at that address");
	check(touch(p + 3 * PG + 5, 1, 'x', NULL) == SIGBUS, "a write there: SIGBUS");
	check(touch(q + 4 * PG, 0, 0, NULL) == SIGBUS && touch(q + 4 * PG, 1, 'y', NULL) == SIGBUS,
	      "the private mapping: SIGBUS too, for reads and writes");
	check(ftruncate(fd, 4 * PG) == 0 && touch(p + 3 * PG, 0, 0, &v) == 0 && v == 0,
	      "ftruncate grows the file: the new page reads zeros");
	char buf[2];
	check(touch(p + 3 * PG + 1, 1, 'G', NULL) == 0 && pread(fd, buf, 1, 3 * PG + 1) == 1 && buf[0] == 'G',
	      "a store there reaches the file");
	check(touch(p + 4 * PG, 0, 0, NULL) == SIGBUS, "the page after the new end: still SIGBUS");
	check(pwrite(fd, "W", 1, 5 * PG + 7) == 1 && p[5 * PG + 7] == 'W' && p[4 * PG] == 0,
	      "write() grows it: the mapping reaches the new pages");
	/* truncation under the mappings */
	p[PG] = 'k';
	q[2 * PG] = 'c'; /* a private copy of one page */
	check(q[PG] == 'k' && q[2 * PG] == 'c' && p[2 * PG] != 'c', "the private mapping maps another page unwritten");
	check(ftruncate(fd, PG + 10) == 0, "ftruncate shrinks the file to one page and 10 bytes");
	check(touch(p + 2 * PG, 0, 0, NULL) == SIGBUS && touch(p + 5 * PG, 0, 0, NULL) == SIGBUS,
	      "shared: pages past the new end now SIGBUS");
	check(touch(q + 2 * PG, 0, 0, NULL) == SIGBUS, "private: even its copied page is gone (SIGBUS), as Linux");
	check(touch(p + PG + 20, 0, 0, &v) == 0 && v == 0 && p[PG] == 'k' && q[PG] == 'k',
	      "the last page stays, its bytes past the end zeroed");
	check(touch(p + 5, 0, 0, &v) == 0 && v == 'a' + (5 * 7 + 3) % 26, "the first page is intact");
	munmap(p, 6 * PG);
	munmap(q, 6 * PG);
	close(fd);
	unlink("/tmp/fm.e");
}

static void test_errors(void)
{
	int fd = make_file("/tmp/fm.x", 3 * PG, 4);
	check_errno((long)mmap(NULL, PG, PROT_READ, MAP_SHARED, 77, 0), EBADF, "mmap of a closed descriptor: EBADF");
	check_errno((long)mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 100), EINVAL, "an unaligned offset: EINVAL");
	check_errno((long)mmap(NULL, 0, PROT_READ, MAP_SHARED, fd, 0), EINVAL, "length 0: EINVAL");
	check_errno((long)mmap(NULL, PG, PROT_READ, 0, fd, 0), EINVAL, "neither MAP_SHARED nor MAP_PRIVATE: EINVAL");
	check_errno((long)mmap((void *)0x123, PG, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0), EINVAL,
		    "MAP_FIXED at an unaligned address: EINVAL");
	int ro = open("/tmp/fm.x", O_RDONLY), wo = open("/tmp/fm.x", O_WRONLY), ap = open("/tmp/fm.x", O_RDWR | O_APPEND);
	check_errno((long)mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0), EACCES,
		    "MAP_SHARED with PROT_WRITE of an O_RDONLY descriptor: EACCES");
	check_errno((long)mmap(NULL, PG, PROT_READ, MAP_PRIVATE, wo, 0), EACCES, "any mapping of an O_WRONLY one: EACCES");
	char *apm = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ap, 0);
	check(apm != MAP_FAILED, "MAP_SHARED with PROT_WRITE of an O_APPEND one works (as Linux)");
	if (apm != MAP_FAILED)
		munmap(apm, PG);
	char *r = mmap(NULL, PG, PROT_READ, MAP_SHARED, ro, 0);
	check(r != MAP_FAILED && r[0] == 'a' + (4 % 26), "MAP_SHARED PROT_READ of the O_RDONLY one works");
	check_errno(mprotect(r, PG, PROT_READ | PROT_WRITE), EACCES, "mprotect(PROT_WRITE) of it: EACCES");
	munmap(r, PG);
	int pfd[2];
	check(pipe(pfd) == 0, "a pipe");
	check_errno((long)mmap(NULL, PG, PROT_READ, MAP_SHARED, pfd[0], 0), ENODEV, "mmap of a pipe: ENODEV");
	int cg = open(BASE "/memory.current", O_RDONLY);
	check_errno((long)mmap(NULL, PG, PROT_READ, MAP_PRIVATE, cg, 0), ENODEV, "of a cgroup file: ENODEV");
	check_errno((long)mmap(NULL, PG, PROT_READ, MAP_PRIVATE, 1, 0), ENODEV, "of the console: ENODEV");
	close(cg);
	close(pfd[0]);
	close(pfd[1]);
	/* an offset into the file, and MAP_FIXED over an anonymous mapping */
	char *a = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *f = mmap(a + PG, PG, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 2 * PG);
	char want = 0;
	pread(fd, &want, 1, 2 * PG);
	check(a != MAP_FAILED && f == a + PG && f[0] == want, "MAP_FIXED at offset 2 pages: the file's third page");
	/* msync */
	check(msync(f, PG, MS_SYNC) == 0 && msync(f, PG, MS_ASYNC) == 0 && msync(f, PG, MS_INVALIDATE) == 0,
	      "msync MS_SYNC, MS_ASYNC, MS_INVALIDATE: 0");
	check(msync(f, 0, MS_SYNC) == 0, "msync of 0 bytes: 0");
	check_errno(msync(f, PG, MS_SYNC | MS_ASYNC), EINVAL, "msync MS_SYNC|MS_ASYNC: EINVAL");
	check_errno(msync(f, PG, 8), EINVAL, "msync with an unknown flag: EINVAL");
	check_errno(msync(f + 1, PG, MS_SYNC), EINVAL, "msync at an unaligned address: EINVAL");
	munmap(a, 2 * PG);
	check_errno(msync(a, 2 * PG, MS_SYNC), ENOMEM, "msync of an unmapped range: ENOMEM");
	close(ro);
	close(wo);
	close(ap);
	close(fd);
	unlink("/tmp/fm.x");
}

static long stat_of(const char *cg, const char *key)
{
	char path[160];
	snprintf(path, sizeof(path), BASE "/%s/memory.stat", cg);
	return flat_field(path, key);
}

/* In cgroup m: maps a hole-only file shared and stores to 2 pages (they
 * are charged to m, file_mapped 2 pages), copies one page of a private
 * mapping, truncates, unlinks; exits with what failed. */
static int charge_child(void)
{
	if (put(BASE "/m/cgroup.procs", "0"))
		return 2;
	int fd = open("/tmp/fm.c", O_RDWR);
	char *p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *q = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (fd < 0 || p == MAP_FAILED || q == MAP_FAILED)
		return 3;
	long before = stat_of("m", "shmem");
	p[0] = 1;
	p[5 * PG] = 2;
	if (stat_of("m", "shmem") != before + 2 * PG || stat_of("m", "file_mapped") != 2 * PG)
		return 4;
	q[PG * 9] = 3; /* a hole: a private anonymous page, no file page */
	if (stat_of("m", "shmem") != before + 2 * PG || stat_of("m", "file_mapped") != 2 * PG)
		return 5;
	if (ftruncate(fd, PG) || stat_of("m", "file_mapped") != PG || stat_of("m", "shmem") != before + PG)
		return 6;
	if (munmap(p, 16 * PG) || stat_of("m", "file_mapped") != 0 || stat_of("m", "shmem") != before + PG)
		return 7; /* the page keeps its charge after the mapping goes */
	return 0;
}

static void test_charge(void)
{
	check(mkdir(BASE "/m", 0755) == 0, "cgroup m");
	long start = number(BASE "/m/memory.current");
	int fd = open("/tmp/fm.c", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && ftruncate(fd, 16 * PG) == 0 && start == 0, "a 16-page file of holes; m uses 0");
	pid_t c = fork();
	if (c == 0)
		_exit(charge_child());
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "stores through a shared mapping are charged to the storer (shmem, file_mapped), truncation uncharges");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("# charge_child: status %#x\n", st);
	check(stat_of("m", "file_mapped") == 0 && number(BASE "/m/memory.current") == PG,
	      "the child gone: the file's page stays charged to m, nothing mapped");
	check(unlink("/tmp/fm.c") == 0 && close(fd) == 0 && number(BASE "/m/memory.current") == start,
	      "unlink: m's memory.current is back at its start");
	check(rmdir(BASE "/m") == 0, "rmdir m");
}

/* execve of a program in tmpfs: libc maps it from the page cache (not
 * read into the caller) and the kernel loads it from that mapping. */
static void test_exec(void)
{
	static char prog[1 << 20];
	int in = open("/bin/true", O_RDONLY);
	ssize_t len = in >= 0 ? read(in, prog, sizeof(prog)) : -1;
	int out = open("/tmp/fm.true", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	check(len > 0 && len < (ssize_t)sizeof(prog) && write(out, prog, (size_t)len) == len,
	      "/bin/true copied to /tmp");
	close(in);
	close(out);
	pid_t c = fork();
	if (c == 0) {
		char *const argv[] = { "fm.true", NULL };
		execve("/tmp/fm.true", argv, NULL);
		_exit(99);
	}
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0, "execve of it from the page cache");
	unlink("/tmp/fm.true");
}

/* Last (it takes /tmp away): the server dies; its files' mappings lose
 * their pages, so every access is SIGBUS. */
static void test_server_death(void)
{
	int fd = make_file("/tmp/fm.d", 2 * PG, 5);
	char *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *q = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	check(p != MAP_FAILED && q != MAP_FAILED && p[0] == q[0], "two mappings of a file, page 0 mapped");
	pid_t srv = process_pid("tmpfs", "servers_posix_fmmap");
	char path[64];
	check(srv > 0 && kill(srv, SIGKILL) == 0, "the tmpfs server killed");
	snprintf(path, sizeof(path), "/proc/%d/status", srv);
	for (int i = 0; i < 500 && access(path, F_OK) == 0; i++)
		usleep(10000);
	check(touch(p, 0, 0, NULL) == SIGBUS && touch(p + PG, 1, 'x', NULL) == SIGBUS &&
	      touch(q, 0, 0, NULL) == SIGBUS, "its mappings: SIGBUS, for pages mapped before too");
	check(munmap(p, 2 * PG) == 0 && munmap(q, 2 * PG) == 0, "munmap");
	close(fd);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	mkdir(BASE "/leaf", 0755);
	check(put(BASE "/leaf/cgroup.procs", "0") == 0 && put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0, "+memory at the root and here");
	test_shared();
	test_private();
	test_eof();
	test_errors();
	test_charge();
	test_exec();
	test_server_death();
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
	printf("1..%d\n", n);
	return failed != 0;
}
