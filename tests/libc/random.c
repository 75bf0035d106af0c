/* getrandom(2)'s checks (docs/security.md): unknown flags and
 * GRND_RANDOM with GRND_INSECURE are EINVAL; NULL, kernel, unmapped and
 * read-only buffers EFAULT with nothing written; a buffer running into an
 * unmapped page gets the bytes before it; the output differs from call to
 * call and between a parent and its forked child. Run as /posix/random. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arbor/syscalls.h"

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

int main(void)
{
	char buf[64];
	check(sys_getrandom(buf, 8, 8) == -EINVAL && sys_getrandom(buf, 8, 0x80000000u) == -EINVAL,
	      "getrandom with unknown flags: EINVAL");
	check(sys_getrandom(buf, 8, GRND_RANDOM | GRND_INSECURE) == -EINVAL,
	      "getrandom with GRND_RANDOM and GRND_INSECURE: EINVAL");
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(sys_getrandom(NULL, 8, 0) == -EFAULT && sys_getrandom((void *)0xffffffff81000000ull, 8, 0) == -EFAULT &&
	      sys_getrandom(ro, 8, 0) == -EFAULT && ro[0] == 0,
	      "getrandom to NULL, a kernel address or a read-only page: EFAULT");
	char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(two + 4096, 4096);
	check(sys_getrandom(two + 4096 - 1000, 2000, 0) == 768,
	      "getrandom running into an unmapped page: the whole 256-byte chunks before it");
	char a[32], b[32];
	getrandom(a, sizeof(a), 0);
	getrandom(b, sizeof(b), 0);
	check(memcmp(a, b, sizeof(a)) != 0, "two calls differ");
	int p[2];
	if (pipe(p))
		return 1;
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		getrandom(b, sizeof(b), 0);
		_exit(write(p[1], b, sizeof(b)) == sizeof(b) ? 0 : 1);
	}
	getrandom(a, sizeof(a), 0);
	ssize_t got = read(p[0], b, sizeof(b));
	waitpid(c, NULL, 0);
	check(got == (ssize_t)sizeof(b) && memcmp(a, b, sizeof(a)) != 0, "a parent and its forked child differ");
	printf("1..%d\n", n);
	return failed != 0;
}
