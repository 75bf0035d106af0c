/* User-mode entry: the process runs, sees its arguments, and its basic
 * system calls answer. */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	tap_check_eq("argc is passed", argc, 3);
	tap_check("argv[0] is the program", argc > 0 && strcmp(argv[0], "tests/hello") == 0);
	tap_check("argv[2] is passed", argc > 2 && strcmp(argv[2], "two") == 0);
	tap_check("argv is NULL-terminated", argv[argc] == NULL);
	tap_check("getpid is positive", sys_getpid() > 1);
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
	return tap_done();
}
