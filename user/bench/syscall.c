/* Cost of the cheapest system call, round trip from user mode. */
#include "arbor/user.h"

#define N 200000

int main(void)
{
	for (int i = 0; i < N / 10; i++)
		sys_getppid();
	uint64_t t0 = now_ns();
	for (int i = 0; i < N; i++)
		sys_getppid();
	uint64_t x100 = (now_ns() - t0) * 100 / N;
	printf("bench null_syscall %lu.%02lu ns\n", x100 / 100, x100 % 100);
	return 0;
}
