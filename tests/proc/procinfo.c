/* What the kernel reports about processes (proc_list, proc_info, meminfo):
 * the data behind ps(1) and free(1). Run in cgroup /posix_procinfo. */
#include "arbor/syscalls.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

static int listed(pid_t pid)
{
	int32_t pids[256];
	long k = sys_proc_list(pids, 256);
	for (long i = 0; i < k && i < 256; i++)
		if (pids[i] == pid)
			return 1;
	return 0;
}

int main(void)
{
	struct k_procinfo pi;
	check(sys_proc_info(getpid(), &pi) == 0, "proc_info on ourselves");
	check(pi.pid == getpid() && pi.ppid == getppid() && pi.uid == getuid() &&
	      pi.egid == getegid() && pi.pgid == getpgrp(), "ids match getpid/getppid/getuid/getpgrp");
	check(strcmp(pi.cgroup, "/posix_procinfo") == 0, "cgroup path is ours");
	check(strstr(pi.name, "procinfo") != NULL, "name is the program's");
	check(pi.state == 'R' && pi.nthreads == 1 && pi.resident_pages > 0, "running, one thread, resident pages");
	check(listed(getpid()) && !listed(0), "proc_list holds us, never pid 0");
	check(sys_proc_list((int32_t *)8, 4) == -EFAULT, "proc_list to a bad pointer: EFAULT");
	check(sys_proc_info(getpid(), (struct k_procinfo *)8) == -EFAULT, "proc_info to a bad pointer: EFAULT");
	check(sys_proc_info(-3, &pi) == -ESRCH && sys_proc_info(999999, &pi) == -ESRCH, "no such pid: ESRCH");

	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	usleep(20000);
	int32_t one;
	check(sys_proc_list(&one, 1) >= 2 && listed(child), "proc_list returns the full count past max");
	check(sys_proc_info(child, &pi) == 0 && pi.state == 'S' && pi.ppid == getpid(), "a paused child sleeps (S)");
	kill(child, SIGKILL);
	int status;
	usleep(20000);
	check(sys_proc_info(child, &pi) == 0 && pi.state == 'Z', "a dead unreaped child is a zombie (Z)");
	waitpid(child, &status, 0);
	check(sys_proc_info(child, &pi) == -ESRCH && !listed(child), "a reaped child is gone");

	struct k_meminfo mi;
	check(sys_meminfo(&mi) == 0 && mi.page_size == 4096 && mi.free_pages > 0 &&
	      mi.free_pages <= mi.total_pages, "meminfo: free <= total, 4 KiB pages");
	check(sys_meminfo((struct k_meminfo *)8) == -EFAULT, "meminfo to a bad pointer: EFAULT");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
