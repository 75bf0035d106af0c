/* procfs's parts (procfs.c: the tree and the requests; cpu.c: the CPUs'
 * files, /proc/stat and /proc/cpuinfo). */
#ifndef ARBOR_PROCFS_H
#define ARBOR_PROCFS_H

#include <stddef.h>
#include "abi/procinfo.h"

/* A file's text as it is made. */
struct text {
	char *buf;
	size_t len, cap;
};

/* Appends printf's text of fmt to t (grown as needed; on no memory the
 * text stays as it was). */
void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The two below run without the server's lock (procfs_open): they touch
 * no state of the server's, each call its own buffers. */

/* /proc/stat from mi (sys_meminfo's), in Linux 6.1's layout: the cpu line,
 * a cpuN line per CPU that schedules, intr, ctxt, btime, processes,
 * procs_running, procs_blocked, softirq. */
void procfs_text_stat(struct text *t, const struct k_meminfo *mi);

/* /proc/cpuinfo: a block per CPU that schedules in Linux's x86 layout,
 * from CPUID run on that CPU (procfs moves itself there for it) and the
 * kernel's TSC frequency (mi). 0, or -ENOMEM. */
long procfs_text_cpuinfo(struct text *t, const struct k_meminfo *mi);

/* /proc/lock_stat (lockstat.c): the kernel's contended lock classes, most
 * contended first. 0, or -ENOMEM, or lockstat(2)'s error. */
long procfs_text_lockstat(struct text *t);
/* A write of len bytes (buf: the first of them) to /proc/lock_stat: a
 * first byte '0' clears the statistics (Linux's). len, or -errno. */
long procfs_lockstat_write(const char *buf, size_t len);

#endif
