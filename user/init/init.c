/* PID 1: starts the servers, then adopts and reaps orphans forever. */
#include "arbor/user.h"

static long start(const char *path, int flags)
{
	const char *argv[] = { path, NULL };
	long pid = sys_spawn(path, argv, flags);
	if (pid < 0)
		printf("init: cannot start %s: error %ld\n", path, -pid);
	return pid;
}

int main(void)
{
	int status;
	start("drivers/serial", SPAWN_DRIVER);
	for (int i = 0; i < 1000 && sys_ns_lookup(CONSOLE_NAME) < 0; i++)
		sys_sleep_ns(1000000);
	printf("init: Arbor user space is up (pid %ld); the console is a user-space driver.\n",
	       sys_getpid());
	printf("init: the shell arrives with the next release. Quit QEMU with Ctrl-A then X.\n");
	for (;;) {
		long pid = sys_waitpid(-1, &status, 0);
		if (pid == -ECHILD)
			sys_sleep_ns(1000000000ull);
		else if (pid > 0 && W_SIGNALED(status))
			printf("init: process %ld ended by signal %d\n", pid, status & 0x7f);
	}
}
