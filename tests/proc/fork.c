/* fork: the child is a copy (copy-on-write), returns 0, has the parent as
 * its parent; neither side sees the other's writes afterwards. */
#include "arbor/user.h"
#include "abi/mman.h"

static volatile int global = 1;

int main(void)
{
	int status = -1;
	long me = sys_getpid();
	volatile int local = 2;
	long brk0 = sys_brk(0);
	sys_brk((uint64_t)brk0 + 4096);
	volatile int *heap = (volatile int *)brk0;
	*heap = 3;
	long map = sys_mem_map(0, 8192, PROT_READ | PROT_WRITE);
	volatile int *mapped = (volatile int *)map;
	mapped[0] = 4;

	long pid = sys_fork();
	if (pid == 0) {
		/* The child: sees the parent's values, then changes its copies. */
		int ok = global == 1 && local == 2 && *heap == 3 && mapped[0] == 4 &&
			 sys_getppid() == me && sys_getpid() != me;
		global = 10;
		local = 20;
		*heap = 30;
		mapped[0] = 40;
		mapped[1024] = 41;	/* an untouched page, first touched by the child */
		sys_exit(ok ? 7 : 99);
	}
	tap_check("fork returns the child's pid", pid > 0 && pid != me);
	tap_check_eq("the child ends", sys_waitpid((int)pid, &status, 0), pid);
	tap_check_eq("the child saw the parent's memory and its own ids", status, W_EXITCODE(7));
	tap_check("the parent's global is untouched", global == 1);
	tap_check("the parent's stack is untouched", local == 2);
	tap_check("the parent's heap is untouched", *heap == 3);
	tap_check("the parent's mapping is untouched", mapped[0] == 4 && mapped[1024] == 0);
	global = 5;
	tap_check("the parent can write after the child is gone", global == 5);

	/* Many children, each with its own exit code, collected in any order. */
	enum { N = 16 };
	int seen = 0;
	for (int i = 0; i < N; i++) {
		long c = sys_fork();
		if (c == 0)
			sys_exit(i);
		if (c < 0)
			break;
	}
	for (int i = 0; i < N; i++) {
		if (sys_waitpid(-1, &status, 0) > 0 && (status & 0x7f) == 0)
			seen |= 1 << ((status >> 8) & 0xff);
	}
	tap_check_eq("sixteen children, every exit code collected", seen, 0xffff);
	tap_check_eq("no children left", sys_waitpid(-1, &status, WNOHANG), -ECHILD);
	return tap_done();
}
