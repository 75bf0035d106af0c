/* What the kernel tells about processes (for /proc, ps, free). */
#ifndef ARBOR_ABI_PROCINFO_H
#define ARBOR_ABI_PROCINFO_H

#include <stdint.h>

/* proc_list reports at most this many pids per call. */
#define PROC_LIST_MAX 4096
/* A process's command line is kept up to this many bytes. */
#define K_CMDLINE_MAX 256
/* /proc/PID/oom_score_adj's range (Linux's): -1000 exempts from the OOM
 * killer, 1000 makes a process its first choice. */
#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000

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
	char cgroup[256];		/* path in the hierarchy, "/" for the root;
					 * " (deleted)" follows for a removed one */
	uint32_t suid, sgid;		/* saved ids */
	uint32_t cmdline_len;		/* bytes of cmdline used */
	char cmdline[K_CMDLINE_MAX];	/* its arguments, each NUL-terminated */
	int16_t oom_score_adj;		/* OOM_SCORE_ADJ_MIN..MAX, inherited by fork */
	int16_t oom_score_adj_min;	/* the lowest a non-root writer may set */
	uint32_t oom_score;		/* Linux's /proc/PID/oom_score: 0..2000 */
	int32_t tid;			/* thread_info's thread (state, CPU time and
					 * cgroup are then its own); proc_info: pid */
	uint32_t sig_queued;		/* real-time signals queued (SigQ) */
	uint64_t sig_queue_max;		/* RLIMIT_SIGPENDING's soft limit */
	uint64_t sig_pending;		/* the thread's pending set, bit sig-1 (SigPnd) */
	uint64_t sig_shared;		/* the process's pending set (ShdPnd) */
	uint64_t sig_blocked;		/* the thread's mask (SigBlk) */
	uint64_t sig_ignored;		/* actions SIG_IGN (SigIgn) */
	uint64_t sig_caught;		/* actions with a handler (SigCgt) */
};

/* The most CPUs the kernel runs (its MAX_CPUS), and the I/O APIC inputs
 * whose interrupts are counted one by one (/proc/stat's intr columns). */
#define K_CPUS_MAX 8
#define K_IRQ_LINES 24

/* One CPU's time since it began to schedule, in ns, as Linux's kcpustat
 * (/proc/stat's cpuN line): the six times add up to that time (irq is
 * taken out of the one it interrupted). Linux's softirq, steal, guest and
 * guest_nice have no counterpart in Arbor (0 in /proc/stat). */
struct k_cpustat {
	uint64_t user_ns, nice_ns, system_ns, idle_ns, iowait_ns, irq_ns;
	uint64_t intr;		/* interrupts taken: devices, the timer, IPIs */
	uint64_t ctxt;		/* switches from one thread to another */
};

struct k_meminfo {
	uint64_t total_pages, free_pages;
	uint64_t page_size;
	uint64_t idle_ns;		/* time since boot that no thread ran */
	uint64_t kernel_heap_bytes;	/* the kernel's kmalloc memory in use */
	/* the page cache's pager since boot (/proc/vmstat): FILL requests
	 * asked of file servers and their pages, and of them the
	 * asynchronous readahead windows and their pages */
	uint64_t pager_fills, pager_fill_pages, ra_async, ra_async_pages;
	/* pages lent to a disk driver by pcache_grant, and of them filled */
	uint64_t grant_pages, grant_filled;
	/* sysinfo(2): the 1, 5 and 15 minute load averages (<< 16) and
	 * the threads now */
	uint64_t loads[3], nr_threads;
	/* pages lent to a disk driver for their writeback (PCACHE_GRANT_LEND_WB) */
	uint64_t grant_written;
	/* the CPUs the firmware lists (sysconf's _NPROCESSORS_CONF) and the
	 * mask of those that schedule (cpus[i] is valid for each bit i) */
	uint32_t cpus_possible, cpus_sched;
	uint64_t tsc_hz;		/* the clock's calibrated TSC frequency */
	uint64_t forks;			/* processes and threads created since boot */
	uint64_t nr_running;		/* threads runnable now (queued or running) */
	uint64_t nr_iowait;		/* threads waiting for a disk now */
	uint64_t irqs[K_IRQ_LINES];	/* interrupts of each I/O APIC input, on the CPUs that schedule */
	struct k_cpustat cpus[K_CPUS_MAX];
};

/* cputime's which: whose CPU time (total, user, system) it reports. */
#define CPUTIME_PROCESS  0	/* the calling process, all its threads, ended ones included */
#define CPUTIME_THREAD   1	/* the calling thread */
#define CPUTIME_CHILDREN 2	/* the process's ended and collected children */

/* Resource limits (prlimit), Linux's numbers. Enforced: RLIMIT_AS (the
 * kernel), RLIMIT_NOFILE (the C library's descriptors, at most 200);
 * RLIMIT_CORE is kept (no core dumps are ever written); the others report
 * what Arbor has (no limit, or the fixed stack, nice and real-time
 * bounds) and refuse a limit Arbor would not enforce. */
#define K_RLIMIT_CPU 0
#define K_RLIMIT_FSIZE 1
#define K_RLIMIT_DATA 2
#define K_RLIMIT_STACK 3
#define K_RLIMIT_CORE 4
#define K_RLIMIT_NOFILE 7
#define K_RLIMIT_AS 9
#define K_RLIMIT_SIGPENDING 11	/* real-time signals queued to the process (kernel/proc/signal.c) */
#define K_RLIMIT_NICE 13
#define K_RLIMIT_RTPRIO 14
#define K_RLIM_NLIMITS 16
#define K_NOFILE_MAX 200	/* descriptors 0..199 (user/libc/io.c) */
#define K_RLIM_INFINITY (~0ull)
struct k_rlimit {
	uint64_t cur;	/* soft limit: what is enforced */
	uint64_t max;	/* hard limit: the ceiling for cur */
};

/* proc_fd's operations (/proc/PID/fd, docs/vfs.md "/proc/PID/fd"). A
 * descriptor is a handle below PROC_FD_MAX (the C library keeps its own
 * handles above) of a kind that is a file: a channel, a pipe end, a
 * socket, a cgroup file, an eventfd, epoll, timerfd, signalfd, inotify or
 * pidfd, or an endpoint published as a file (the console). */
#define PROC_FD_MAX 200
#define PROC_FD_LIST 0	/* buf: int32_t[len] the descriptors in order; returns how many */
#define PROC_FD_DUP  1	/* root only: a copy of descriptor fd in the caller's table
			   (close-on-exec, the same rights); returns it */
#define PROC_FD_SERVER 2	/* root only: descriptor fd's server (a channel's or a published
			   endpoint's), struct k_fdserver into buf; -EXDEV for other kinds */
#define PROC_FD_FLAGS 3	/* root only: descriptor fd's flags (HANDLE_CLOEXEC) */
#define PROC_FD_CGPATH 4	/* root only: a cgroup file's path in the hierarchy ("/a/memory.max",
			   a removed cgroup's too, as Linux's kernfs), NUL-ended into buf
			   (cut to len); returns its length; -EXDEV for other kinds */
/* Who serves a descriptor: procfs asks only a server running as root
 * (never a user's, which could keep it waiting) and never itself. */
struct k_fdserver {
	uint64_t badge;		/* the channel's badge (0: an endpoint) */
	int32_t pid;		/* the endpoint's owner, 0 if it has ended */
	uint32_t euid;		/* its effective uid then */
};

#endif
