/* The C library's fault fixups (ufault_fixup, docs/abi.md "Bad
 * pointers"): its copy routines return -EFAULT for a bad pointer of any
 * kind (NULL, unmapped, a kernel address, a non-canonical one, a
 * read-only page written) instead of the program's dying, and only they:
 * a fault anywhere else is still SIGSEGV, a handler the program installed
 * is not run for theirs, the registration is checked (EINVAL), inherited
 * by fork and replaced at execve. Run as /posix/ufault. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arbor/syscalls.h"
#include "ufault.h"

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

extern const char __arbor_ufault_start[], __arbor_ufault_end[], __arbor_ufault_fix[];

static char *const bad[] = { NULL, (char *)0xffffffff81000000ull, (char *)0x8000000000000000ull,
			     (char *)0x00007ffffffff000ull };

/* How a child doing f ends: its exit code, or 128 + the signal. */
static int child(void (*f)(void))
{
	pid_t pid = fork();
	if (pid == 0) {
		f();
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

static int *volatile null_int;

static void plain_fault(void)
{
	*null_int = 1; /* not the library's: SIGSEGV */
}

static void unregistered(void)
{
	sys_ufault_fixup(0, 0, 0);
	__arbor_ustrnlen(NULL, 10); /* no fixup any more: SIGSEGV */
	_exit(0);
}

static void inherited(void)
{
	_exit(open(NULL, O_RDONLY) == -1 && errno == EFAULT ? 7 : 1);
}

static volatile int handled;
static void on_segv(int s)
{
	(void)s;
	handled++;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exec")) /* the new image's own registration */
		return open(bad[1], O_RDONLY) == -1 && errno == EFAULT ? 9 : 1;

	int allbad = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		allbad &= __arbor_ustrnlen(bad[i], 4096) == -EFAULT && __arbor_uread(bad[i], 1) == -EFAULT &&
			  __arbor_uwrite(bad[i], 1) == -EFAULT;
	check(allbad, "NULL, kernel, non-canonical and unmapped addresses: -EFAULT, no signal");

	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *rw = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(__arbor_uread(ro, 4096) == 0 && __arbor_uwrite(ro, 1) == -EFAULT && __arbor_uwrite(ro + 4095, 1) == -EFAULT,
	      "a read-only page: readable, writing -EFAULT");
	memset(rw, 'x', 2 * 4096);
	check(__arbor_uwrite(rw + 100, 8000) == 0 && rw[100] == 'x' && rw[4096] == 'x' && rw[8099] == 'x',
	      "a writable range: 0, its bytes unchanged");
	munmap(rw + 4096, 4096);
	check(__arbor_uwrite(rw + 100, 3996) == 0 && __arbor_uwrite(rw + 100, 4096) == -EFAULT &&
	      __arbor_uread(rw + 4095, 2) == -EFAULT, "a range running into an unmapped page: -EFAULT");
	memset(rw, 'a', 4096);
	rw[4095] = 0;
	check(__arbor_ustrnlen(rw, 8192) == 4095 && __arbor_ustrnlen(rw + 1, 100) == 100 &&
	      __arbor_ustrnlen(rw + 3, 4092) == 4092, "ustrnlen: the length, or max");
	rw[4095] = 'a';
	check(__arbor_ustrnlen(rw + 5, 8192) == -EFAULT, "a string running into an unmapped page: -EFAULT");
	char dst[8];
	check(__arbor_ucopy(dst, "abcdefg", 8) == 0 && !strcmp(dst, "abcdefg") &&
	      __arbor_ucopy(dst, bad[3], 8) == -EFAULT && __arbor_ucopy(ro, "x", 1) == -EFAULT,
	      "ucopy: copies, or -EFAULT from or to a bad place");

	signal(SIGSEGV, on_segv);
	check(open(bad[2], O_RDONLY) == -1 && errno == EFAULT && handled == 0,
	      "the program's SIGSEGV handler does not run for the library's fault");
	signal(SIGSEGV, SIG_DFL);
	check(child(plain_fault) == 128 + SIGSEGV, "a fault outside the routines: still SIGSEGV");
	check(child(unregistered) == 128 + SIGSEGV, "after ufault_fixup(0, 0, 0): SIGSEGV again");
	check(child(inherited) == 7, "fork keeps the registration");

	uint64_t s = (uint64_t)__arbor_ufault_start, e = (uint64_t)__arbor_ufault_end,
		 f = (uint64_t)__arbor_ufault_fix;
	check(sys_ufault_fixup(e, s, f) == -EINVAL && sys_ufault_fixup(s, s, f) == -EINVAL,
	      "an empty or reversed range: EINVAL");
	check(sys_ufault_fixup(s, s + 4097, f) == -EINVAL, "more than 4096 bytes of code: EINVAL");
	check(sys_ufault_fixup(0xffffffff80000000ull, 0xffffffff80000100ull, f) == -EINVAL &&
	      sys_ufault_fixup(s, e, 0xffffffff80000000ull) == -EINVAL &&
	      sys_ufault_fixup(0, 16, f) == -EINVAL, "a kernel range or fixup, or address 0: EINVAL");
	check(sys_ufault_fixup(s, e, f) == 0 && open(NULL, O_RDONLY) == -1 && errno == EFAULT,
	      "registered again: EFAULT");

	pid_t pid = fork();
	if (pid == 0) {
		sys_ufault_fixup(0, 0, 0); /* execve must not keep this, nor need it */
		execl(argv[0], argv[0], "exec", (char *)NULL);
		_exit(2);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 9, "after execve the new image's library has its own");

	printf("1..%d\n", n);
	return failed != 0;
}
