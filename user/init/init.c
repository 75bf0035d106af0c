/* PID 1. For now: say hello and stay alive to adopt orphans. */
#include "arbor/user.h"

int main(void)
{
	int status;
	printf("init: Arbor user space is running (pid %ld)\n", sys_getpid());
	for (;;) {
		if (sys_waitpid(-1, &status, 0) == -ECHILD)
			sys_sleep_ns(1000000000ull);
	}
}
