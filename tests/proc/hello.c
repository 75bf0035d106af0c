/* User-mode entry: the process runs, sees its arguments, and its basic
 * system calls answer. */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	tap_check_eq("argc is passed", argc, 3);
	tap_check("argv[0] is the program", argc > 0 && strcmp(argv[0], "tests/hello") == 0);
	tap_check("argv[2] is passed", argc > 2 && strcmp(argv[2], "two") == 0);
	tap_check("argv is NULL-terminated", argv[argc] == NULL);
	tap_check("getpid is positive", sys_getpid() > 0);
	tap_check("gettid is positive", sys_gettid() > 0);
	tap_check_eq("getppid of a kernel-started process is 0", sys_getppid(), 0);
	uint64_t t0 = now_ns();
	tap_check_eq("sleep_ns returns 0", sys_sleep_ns(2000000), 0);
	tap_check("sleep_ns sleeps at least as asked", now_ns() - t0 >= 2000000);
	tap_check_eq("yield returns 0", sys_yield(), 0);
	/* SSE state belongs to the thread (printf also uses it). */
	volatile double x = 1.5;
	for (int i = 0; i < 1000; i++)
		x = x * 1.0001;
	tap_check("floating point works", x > 1.6 && x < 1.7);
	/* The heap: brk grows and shrinks it. */
	long b0 = sys_brk(0);
	tap_check("the break starts after the image", b0 > 0x400000 && (b0 & 0xfff) == 0);
	tap_check_eq("brk grows the heap", sys_brk((uint64_t)b0 + 3 * 4096 + 5), b0 + 3 * 4096 + 5);
	volatile char *heap = (volatile char *)b0;
	heap[0] = 1;
	heap[3 * 4096 + 4] = 2;
	tap_check("the new heap is usable", heap[0] == 1 && heap[3 * 4096 + 4] == 2);
	tap_check_eq("brk below the start is refused", sys_brk(0x1000), b0 + 3 * 4096 + 5);
	tap_check_eq("brk into the stack is refused", sys_brk(0x7ffffffff000ull), b0 + 3 * 4096 + 5);
	tap_check_eq("brk shrinks the heap", sys_brk((uint64_t)b0), b0);
	tap_check_eq("and grows it again, zeroed", sys_brk((uint64_t)b0 + 4096), b0 + 4096);
	tap_check("regrown pages are zero", heap[0] == 0);
	return tap_done();
}
