/* ps [-c]: list every process, from what the kernel reports (proc_list,
   proc_info): PID PPID UID S THR RSS(KiB) TIME NAME, one line each.
   S is R (running or runnable), S (sleeping), T (stopped), Z (zombie).
     -c  add a CGROUP column: the process's path in the hierarchy */
#include <stdio.h>
#include <string.h>
#include "arbor/syscalls.h"

#define PS_MAX 1024

static void ps_line(const struct k_procinfo *p, int cgroups)
{
	unsigned long long secs = (p->utime_ns + p->stime_ns) / 1000000000ull;
	printf("%5d %5d %5u %c %3u %7llu %3llu:%02llu %s", p->pid, p->ppid, p->euid, p->state,
	       p->nthreads, (unsigned long long)p->resident_pages * 4, secs / 60, secs % 60, p->name);
	if (cgroups)
		printf(" %s", p->cgroup);
	putchar('\n');
}

int main(int argc, char **argv)
{
	static int32_t pids[PS_MAX];
	int cgroups = argc == 2 && strcmp(argv[1], "-c") == 0;
	if (argc > 2 || (argc == 2 && !cgroups)) {
		fprintf(stderr, "usage: ps [-c]\n");
		return 2;
	}
	long n = sys_proc_list(pids, PS_MAX);
	if (n < 0) {
		fprintf(stderr, "ps: cannot list processes (error %ld)\n", -n);
		return 1;
	}
	printf("  PID  PPID   UID S THR RSS(KiB)  TIME NAME%s\n", cgroups ? " CGROUP" : "");
	for (long i = 0; i < n && i < PS_MAX; i++) {
		struct k_procinfo p;
		if (sys_proc_info(pids[i], &p) == 0) /* it may have gone meanwhile */
			ps_line(&p, cgroups);
	}
	return 0;
}
