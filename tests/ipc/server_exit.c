/* A server process whose last thread exits while it serves a call: the
 * caller gets EHOSTDOWN and the server's process ends and is reaped, even
 * when tearing down its memory takes long enough to be preempted. The
 * dying thread ran the teardown on its caller's scheduling context, which
 * the abort handed back; it had no entity of its own queued, so the first
 * switch away from the teardown lost it for good, and the process stayed
 * "exiting, 0 threads" forever (found by the fuzzer, root mode: a worker's
 * child still there 20 s after cgroup.kill). */
#include "arbor/user.h"

#define BIG (32ull << 20)	/* enough pages that the teardown spans ticks */

static int ep;
static volatile long call_result = 1;
static volatile int stop_hog;

static long caller(void *arg)
{
	(void)arg;
	struct ipc_msg m = { .label = 7 };
	call_result = sys_ipc_call(ep, &m, NULL, 0, NULL, 0);
	return 0;
}

/* Keeps the CPU contended, so the teardown is preempted. */
static long hog(void *arg)
{
	(void)arg;
	while (!stop_hog)
		;
	return 0;
}

int main(void)
{
	ep = (int)sys_ep_create();
	for (int round = 0; round < 3; round++) {
		long pid = sys_fork();
		if (pid == 0) {
			/* the server: a big address space, then a call it
			 * never answers, ended by its last thread's exit */
			long a = sys_mem_map(0, BIG, 3);
			if (a < 0)
				sys_exit(2);
			for (uint64_t off = 0; off < BIG; off += 4096)
				((volatile char *)a)[off] = 1;
			struct ipc_msg m;
			struct ipc_info info;
			if (sys_ipc_recv(ep, &m, &info) < 0 || m.label != 7)
				sys_exit(3);
			sys_exit(0);
		}
		call_result = 1;
		stop_hog = 0;
		thread_start(hog, NULL);
		thread_start(caller, NULL);
		int st = -1;
		long got = 0;
		for (int i = 0; i < 2500 && got == 0; i++) { /* 2.5 s at most */
			got = sys_waitpid((int)pid, &st, WNOHANG);
			if (got == 0)
				sys_sleep_ns(1000000);
		}
		stop_hog = 1;
		tap_check("a server that exits mid-call is reaped (its teardown was preempted)",
			  got == pid && st == 0);
		for (int i = 0; i < 2000 && call_result == 1; i++)
			sys_sleep_ns(1000000);
		tap_check_eq("its caller gets EHOSTDOWN", call_result, -EHOSTDOWN);
	}
	return tap_done();
}
