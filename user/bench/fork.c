/* fork + _exit + waitpid of a small process. */
#include "arbor/user.h"

#define N 500

int main(void)
{
	int status;
	uint64_t t0 = now_ns();
	for (int i = 0; i < N; i++) {
		long pid = sys_fork();
		if (pid == 0)
			sys_exit(0);
		sys_waitpid((int)pid, &status, 0);
	}
	uint64_t x100 = (now_ns() - t0) * 100 / N;
	printf("bench fork_exit_wait %lu.%02lu ns\n", x100 / 100, x100 % 100);
	return 0;
}
