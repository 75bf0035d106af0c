/* Thread switch: two processes yielding to each other. */
#include "arbor/user.h"

#define N 20000

int main(int argc, char **argv __attribute__((unused)))
{
	if (argc > 1) {	/* the partner: yield until told to stop */
		for (int i = 0; i < 4 * N; i++)
			sys_yield();
		return 0;
	}
	const char *pargv[] = { "bench/yield", "partner", NULL };
	long pid = sys_spawn("bench/yield", pargv, 0);
	if (pid < 0)
		return 1;
	for (int i = 0; i < N / 10; i++)
		sys_yield();
	uint64_t t0 = now_ns();
	for (int i = 0; i < N; i++)
		sys_yield();
	/* Each of our yields runs the partner once: two switches. */
	uint64_t x100 = (now_ns() - t0) * 100 / (2 * N);
	printf("bench thread_switch_yield %lu.%02lu ns\n", x100 / 100, x100 % 100);
	int status;
	sys_waitpid((int)pid, &status, 0);
	return 0;
}
