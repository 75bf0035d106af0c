/* Differential test: mmap of a file in /tmp. Prints what a shared and a
 * private mapping show as the file is written through the mapping, with
 * write(), grown and truncated (SIGBUS past the end, caught), and the
 * errno of mmap, mprotect and msync around them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096

static jmp_buf jb;
static sigset_t jb_mask;
static volatile sig_atomic_t got;

static void on_fault(int sig)
{
	got = sig;
	sigprocmask(SIG_SETMASK, &jb_mask, NULL);
	longjmp(jb, 1);
}

/* The byte at p as a character ('.' for a zero), or the signal's name
 * (in one of 8 buffers: several peeks may feed one printf). */
static const char *peek(volatile char *p)
{
	static char outs[8][8];
	static int which;
	char *out = outs[which++ % 8];
	got = 0;
	sigprocmask(SIG_SETMASK, NULL, &jb_mask);
	if (setjmp(jb) == 0) {
		char c = *p;
		snprintf(out, 8, "%c", c ? c : '.');
		return out;
	}
	return got == SIGBUS ? "SIGBUS" : got == SIGSEGV ? "SIGSEGV" : "signal";
}

static const char *poke(volatile char *p, char v)
{
	got = 0;
	sigprocmask(SIG_SETMASK, NULL, &jb_mask);
	if (setjmp(jb) == 0) {
		*p = v;
		return "stored";
	}
	return got == SIGBUS ? "SIGBUS" : got == SIGSEGV ? "SIGSEGV" : "signal";
}

static const char *ename(int e)
{
	switch (e) {
	case EBADF: return "EBADF";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENODEV: return "ENODEV";
	case ENOMEM: return "ENOMEM";
	case EOVERFLOW: return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "another errno";
	}
}

static void map_err(const char *what, void *r)
{
	printf("%-40s %s\n", what, r == MAP_FAILED ? ename(errno) : "mapped");
	if (r != MAP_FAILED)
		munmap(r, PG);
}

static void rc(const char *what, int r)
{
	printf("%-40s %d %s\n", what, r, r < 0 ? ename(errno) : "");
}

static char fbyte(int fd, off_t off)
{
	char c = '?';
	if (pread(fd, &c, 1, off) != 1)
		return '-';
	return c ? c : '.';
}

int main(void)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/arbor-diff-fmmap-%d", (int)getpid());
	signal(SIGBUS, on_fault);
	signal(SIGSEGV, on_fault);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char text[PG + 100];
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (char)('A' + i % 26);
	printf("write %zd\n", write(fd, text, sizeof(text)));
	char *s = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	printf("maps %s %s\n", s == MAP_FAILED ? "failed" : "ok", p == MAP_FAILED ? "failed" : "ok");
	if (s == MAP_FAILED || p == MAP_FAILED)
		return 1;
	/* one access per statement: argument order is unspecified */
	printf("shared [0] %s", peek(s));
	printf(" [PG+99] %s", peek(s + PG + 99));
	printf(" [PG+100] %s", peek(s + PG + 100));
	printf(" [2PG] %s\n", peek(s + 2 * PG));
	printf("private [0] %s", peek(p));
	printf(" [2PG] %s\n", peek(p + 2 * PG));
	printf("store shared [1] %s;", poke(s + 1, 'x'));
	printf(" file %c private %s\n", fbyte(fd, 1), peek(p + 1));
	pwrite(fd, "y", 1, 2);
	printf("pwrite [2]: shared %s", peek(s + 2));
	printf(" private %s\n", peek(p + 2));
	printf("store private [3] %s;", poke(p + 3, 'z'));
	printf(" file %c shared %s\n", fbyte(fd, 3), peek(s + 3));
	pwrite(fd, "w", 1, 4);
	printf("pwrite [4] after the private copy: shared %s", peek(s + 4));
	printf(" private %s\n", peek(p + 4));
	printf("store past the end shared %s", poke(s + 2 * PG, 'q'));
	printf(" private %s\n", poke(p + 3 * PG, 'q'));
	rc("ftruncate 3 pages", ftruncate(fd, 3 * PG));
	printf("grown: shared [2PG] %s", peek(s + 2 * PG));
	printf(" store %s", poke(s + 2 * PG, 'g'));
	printf(" file %c", fbyte(fd, 2 * PG));
	printf(" [3PG] %s\n", peek(s + 3 * PG));
	pid_t c = fork();
	if (c == 0) {
		s[PG] = 'c';
		p[PG] = 'C';
		_exit(0);
	}
	waitpid(c, NULL, 0);
	printf("a child's stores: shared %s", peek(s + PG));
	printf(" private %s", peek(p + PG));
	printf(" file %c\n", fbyte(fd, PG));
	printf("private [2PG] %s", peek(p + 2 * PG));
	printf(" store %s\n", poke(p + 2 * PG, 'P'));
	rc("ftruncate 10 bytes", ftruncate(fd, 10));
	printf("shrunk: shared [0] %s", peek(s));
	printf(" [9] %s", peek(s + 9));
	printf(" [10] %s", peek(s + 10));
	printf(" [PG] %s", peek(s + PG));
	printf(" [2PG] %s\n", peek(s + 2 * PG));
	printf("shrunk: private [3] %s", peek(p + 3));
	printf(" [10] %s", peek(p + 10));
	printf(" [2PG] %s\n", peek(p + 2 * PG));
	rc("msync MS_SYNC", msync(s, PG, MS_SYNC));
	rc("msync MS_ASYNC|MS_INVALIDATE", msync(s, PG, MS_ASYNC | MS_INVALIDATE));
	rc("msync length 0", msync(s, 0, MS_SYNC));
	rc("msync MS_SYNC|MS_ASYNC", msync(s, PG, MS_SYNC | MS_ASYNC));
	rc("msync flag 8", msync(s, PG, 8));
	rc("msync unaligned", msync(s + 1, PG, MS_SYNC));
	rc("munmap shared", munmap(s, 4 * PG));
	rc("munmap private", munmap(p, 4 * PG));
	rc("msync unmapped", msync(s, PG, MS_SYNC));
	int ro = open(path, O_RDONLY), wo = open(path, O_WRONLY), ap = open(path, O_RDWR | O_APPEND);
	map_err("mmap bad fd", mmap(NULL, PG, PROT_READ, MAP_SHARED, 99, 0));
	map_err("mmap offset 100", mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 100));
	map_err("mmap length 0", mmap(NULL, 0, PROT_READ, MAP_SHARED, fd, 0));
	map_err("mmap no type", mmap(NULL, PG, PROT_READ, 0, fd, 0));
	map_err("mmap shared write O_RDONLY", mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0));
	map_err("mmap private write O_RDONLY", mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0));
	map_err("mmap private read O_WRONLY", mmap(NULL, PG, PROT_READ, MAP_PRIVATE, wo, 0));
	map_err("mmap shared write O_APPEND", mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ap, 0));
	map_err("mmap shared read O_APPEND", mmap(NULL, PG, PROT_READ, MAP_SHARED, ap, 0));
	char *r = mmap(NULL, PG, PROT_READ, MAP_SHARED, ro, 0);
	rc("mprotect write, shared O_RDONLY", r == MAP_FAILED ? -2 : mprotect(r, PG, PROT_READ | PROT_WRITE));
	if (r != MAP_FAILED)
		munmap(r, PG);
	int pfd[2];
	if (pipe(pfd) == 0) {
		map_err("mmap pipe", mmap(NULL, PG, PROT_READ, MAP_SHARED, pfd[0], 0));
		map_err("mmap pipe write end", mmap(NULL, PG, PROT_READ, MAP_SHARED, pfd[1], 0));
	}
	close(ro);
	close(wo);
	close(ap);
	close(fd);
	rc("unlink", unlink(path));
	return 0;
}
