/* What the cgroup core asks of the kernel around it, as one table of
 * hooks that cg_init receives: the tasks in a cgroup (its processes and
 * threads) belong to the process side (kernel/proc, with the scheduler
 * and the freezer), and the watchers of its files to cgfs's inotify.
 * The core and its interface files call these and nothing of the process
 * side directly, so they build and are tested on the host with a table of
 * the test's own (tests/cgroup/test_cgroup.c), as the controllers are
 * reached through their struct cg_controller (controller.h). */
#ifndef ARBOR_CG_HOOKS_H
#define ARBOR_CG_HOOKS_H

#include "types.h"

struct cgroup;
struct cgfs_buf;
struct k_cgwriter;

struct cg_hooks {
	/* cgroup.procs, cgroup.threads read: the pid of each process (the
	 * tid of each thread) in cg, one a line, the kernel's own left out.
	 * Returns 0. */
	int (*show_procs)(struct cgroup *cg, struct cgfs_buf *out);
	int (*show_threads)(struct cgroup *cg, struct cgfs_buf *out);
	/* cgroup.procs written: the process pid (0: the writer's; a thread's
	 * tid finds its process) moves to dst if cgfs_may_migrate allows it.
	 * 0, -ESRCH (no such process), -EINVAL (a kernel process), or
	 * cgfs_may_migrate's error. A zombie passes the checks and stays. */
	int (*move_proc)(struct cgroup *dst, int64_t pid, const struct k_cgwriter *w);
	/* cgroup.threads written: the thread tid (0: the writer) moves to
	 * dst, inside its resource domain (cgfs_may_migrate, thread true). */
	int (*move_thread)(struct cgroup *dst, int64_t tid, const struct k_cgwriter *w);
	/* cgroup.kill: SIGKILL to every process in cg's subtree, fork
	 * included (a child not yet placed is not missed). */
	void (*kill_subtree)(struct cgroup *cg);
	/* cgroup.freeze of cg set to on: cg->freeze, and the threads below
	 * stop at their next way back to user mode (or go on). */
	void (*freeze)(struct cgroup *cg, bool on);
	/* File which (enum cg_notify_file) of cg changed: wake its inotify
	 * watchers. cg_lock held. */
	void (*notify_locked)(struct cgroup *cg, unsigned which);
	/* The CPUs that schedule, bit per CPU (the cpuset controller's
	 * online CPUs). */
	uint32_t (*cpus_online)(void);
	/* The cpuset of cg now lets its threads run on cpus (bit per CPU,
	 * maybe with CPUs that do not schedule): each thread on cg->threads
	 * runs on its requested CPUs within cpus, moving at once if it runs
	 * elsewhere. cg_lock held. */
	void (*cpus_changed_locked)(struct cgroup *cg, uint32_t cpus);
};

/* The kernel's (cgroup/fs/syscalls.c), which kmain gives cg_init. */
extern const struct cg_hooks cgfs_kernel_hooks;

#endif
