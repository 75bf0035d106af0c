/* Runs in a cgroup whose memory limit the test harness set low: creating
 * threads (each charges a kernel stack) must eventually fail with ENOMEM,
 * cleanly, and the process goes on. A refused system call's charge runs
 * the OOM killer in the cgroup first, as Linux's try_charge; this process,
 * the only one there, opts out (oom_score_adj -1000), so nobody can be
 * killed and the charge fails with ENOMEM, as on Linux. The threads' user
 * stacks are touched up front, so only the kernel's charges can fail. */
#include "arbor/user.h"

#define MAX_THREADS 100
#define STACK 512

static uint64_t stacks[MAX_THREADS][STACK / 8] __attribute__((aligned(16)));
void __arbor_thread_entry(void);

static long idle_thread(void *arg)
{
	(void)arg;
	sys_sleep_ns(20000000);
	return 0;
}

int main(void)
{
	long r = 0;
	int created = 0;
	memset(stacks, 0, sizeof(stacks));
	tap_check_eq("oom_score_adj -1000: never the OOM killer's victim",
		     sys_proc_oom_adj((int)sys_getpid(), -1000, 0), 0);
	for (int i = 0; i < MAX_THREADS; i++) {
		uint64_t *top = &stacks[i][STACK / 8 - 2];
		top[0] = (uint64_t)idle_thread;
		top[1] = 0;
		r = sys_thread_create((uint64_t)__arbor_thread_entry, (uint64_t)top, (uint64_t)top, NULL);
		if (r < 0)
			break;
		created++;
	}
	tap_check("some threads fit under the limit", created > 0);
	tap_check_eq("then the charge is refused: ENOMEM", r, -ENOMEM);
	tap_check_eq("the process goes on", sys_getppid(), 0);
	sys_sleep_ns(50000000);	/* the threads end before we do */
	return tap_done();
}
