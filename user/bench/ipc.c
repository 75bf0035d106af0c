/* IPC call + reply round trip with a small message, client and server in
 * two processes. */
#include "arbor/user.h"

#define N 20000

int main(void)
{
	const char *argv[] = { "tests/ipc_server", "bench_ipc", NULL };
	long pid = sys_spawn("tests/ipc_server", argv, 0);
	long h = -ENOENT;
	for (int i = 0; i < 1000 && h == -ENOENT; i++)
		if ((h = sys_ns_lookup("bench_ipc")) == -ENOENT)
			sys_yield();
	if (pid < 0 || h < 0)
		return 1;
	struct ipc_msg m = { 0 };
	for (int i = 0; i < N / 10; i++)
		sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	uint64_t t0 = now_ns();
	for (int i = 0; i < N; i++) {
		m.label = 0;
		sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	}
	uint64_t x100 = (now_ns() - t0) * 100 / N;
	printf("bench ipc_call_reply %lu.%02lu ns\n", x100 / 100, x100 % 100);
	m.label = 4; /* stop the server */
	sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	int status;
	sys_waitpid((int)pid, &status, 0);
	return 0;
}
