/* fork + execve + waitpid of a small static program. */
#include "arbor/user.h"

#define N 200

int main(void)
{
	int status;
	const char *argv[] = { "tests/exit42", NULL };
	uint64_t t0 = now_ns();
	for (int i = 0; i < N; i++) {
		long pid = sys_fork();
		if (pid == 0) {
			sys_execve("tests/exit42", argv, NULL);
			sys_exit(1);
		}
		sys_waitpid((int)pid, &status, 0);
	}
	uint64_t x100 = (now_ns() - t0) * 100 / N;
	printf("bench fork_exec_wait %lu.%02lu ns\n", x100 / 100, x100 % 100);
	return 0;
}
