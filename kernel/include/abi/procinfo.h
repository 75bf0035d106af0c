/* What the kernel tells about processes (for /proc, ps, free). */
#ifndef ARBOR_ABI_PROCINFO_H
#define ARBOR_ABI_PROCINFO_H

#include <stdint.h>

/* proc_list reports at most this many pids per call. */
#define PROC_LIST_MAX 4096

struct k_procinfo {
	int32_t pid, ppid, pgid, sid;
	uint32_t uid, gid, euid, egid;
	uint32_t nthreads;
	char state;			/* R running/runnable, S sleeping, T stopped, Z zombie */
	char pad[3];
	uint64_t utime_ns, stime_ns;
	uint64_t resident_pages;
	uint64_t start_ns;		/* clock_ns when it started */
	char name[32];
	char cgroup[256];		/* path in the hierarchy, "/" for the root */
};

struct k_meminfo {
	uint64_t total_pages, free_pages;
	uint64_t page_size;
};

#endif
