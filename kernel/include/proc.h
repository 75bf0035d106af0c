/* Processes and threads.
 *
 * A process owns an address space, credentials, its cgroup and a table of
 * kernel-object handles; a thread owns registers, FPU/SSE state, a kernel
 * stack, its scheduling entity and CPU-time counters. Kernel threads belong
 * to process 0 ("kernel"), which lives in the root cgroup. */
#ifndef ARBOR_PROC_H
#define ARBOR_PROC_H

#include "abi/ipc.h"
#include "abi/signal.h"
#include "abi/procinfo.h"
#include "fpu.h"
#include "kobj.h"
#include "percpu.h"
#include "poll.h"
#include "list.h"
#include "sched.h"
#include "sched_fair.h"
#include "spinlock.h"
#include "types.h"

struct cgroup;
struct addrspace;
struct trap_frame;

#define KSTACK_ORDER 2			/* 16 KiB kernel stack per thread */
#define KSTACK_SIZE  (PAGE_SIZE << KSTACK_ORDER)
/* The top KSTACK_RESERVE bytes of a thread's kernel stack are not stack:
 * its first word is the thread's syscall bound (thread_syscall_limit), so
 * the stack grows down from KSTACK_SIZE - KSTACK_RESERVE (16-aligned). */
#define KSTACK_RESERVE 16
#define PROC_NAME_MAX 32
#define PID_MAX 4194304			/* Linux's pid_max on 64-bit; user pids and tids are below */
#define NGROUPS_MAX  32

enum thread_state {
	THREAD_RUNNABLE,	/* queued or running */
	THREAD_BLOCKED,		/* waiting for a wake-up or a timeout */
	THREAD_DEAD,		/* exited; its stack is freed by the next switch */
	THREAD_DONATING,	/* in an IPC call: its scheduling context runs the
				   server (ipc_server) until the reply */
};

struct cred {
	uint32_t uid, gid, euid, egid, suid, sgid;
	uint32_t ngroups;		/* supplementary groups: setgroups (root) */
	uint32_t groups[NGROUPS_MAX];
};

struct pcache_grant;
/* Whether gid is one of c's supplementary groups (any thread's cred:
 * a setgroups at the same time shows the old list or the new one). */
bool cred_in_group(const struct cred *c, uint32_t gid);

/* Where t's kernel stack starts (the CPU's rsp0 while t runs; a user
 * thread's trap frame lies just below it). */
#define thread_stack_top(t) ((uint64_t)(t)->kstack + KSTACK_SIZE - KSTACK_RESERVE)

/* t's syscall bound, the word just above its stack top: SYSCALL_COUNT, or
 * 0 while PTRACE_SYSCALL traces t (ptrace_set_systrace). The syscall entry
 * compares the call's number with it, one frame's size above the frame it
 * pushed from the per-CPU stack pointer it loads anyway: so one compare
 * serves both the bound and ptrace, and a switch copies nothing. */
#define thread_syscall_limit(t) ((uint64_t *)thread_stack_top(t))

/* A first process's resource limits (what Arbor has: kernel/mm/mem_syscalls.c);
 * the others' are their parent's (fork) and stay across execve. */
void rlimit_defaults(struct proc *p);

struct thread {
	uint64_t ksp;			/* saved kernel stack pointer */
	uint32_t work;			/* nonzero: look at signals and kills before
					   returning to user mode (tested in asm) */
	/* nonzero: PTRACE_SYSCALL stops at each system call's entry
	 * (tested in asm: THREAD_OFF_SYSTRACE) and exit (ptrace.c) */
	uint32_t systrace;
	struct fpu_state fpu;		/* saved at every switch away */
	void *kstack;			/* KSTACK_SIZE bytes */
	struct proc *proc;
	struct cgroup *cgroup;		/* whose queue se competes in (a reference) */
	struct cgroup *charged;		/* charged for the descriptor and stack (a reference) */
	int tid;
	enum thread_state state;
	struct sched_entity se;
	/* sched_lock: the CPU running this thread, and the CPU whose running
	 * entity is this thread's se (it may run another thread: IPC); -1
	 * for none. A thread runs on one CPU at a time (schedule_locked). */
	int16_t on_cpu, se_cpu;
	/* sched_lock: the CPUs it asked for (sched_setaffinity), bit per
	 * CPU, inherited by the threads and processes it creates; and the
	 * CPUs it may run on: those within its cpuset's effective CPUs, or
	 * all of these if none is (sched_set_cpuset) */
	uint32_t cpus_requested, cpus_allowed;
	int nice;
	/* Scheduling policy (kernel/sched/rt.c; sched_lock): Linux's number
	 * (SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5), the static real-time
	 * priority (1..99 for FIFO and RR, else 0), the effective one (the
	 * highest of it and its priority-inheritance waiters': 0 means the
	 * fair class), whether its entity is on the real-time queue (then
	 * se.on_rq too), SCHED_RESET_ON_FORK, and RR's run time in its slice. */
	uint8_t policy, rt_prio, rt_eff;
	bool rt_on, reset_on_fork;
	uint64_t rr_used;
	struct list_head rt_link;	/* in the real-time queue of rt_eff */
	/* Priority inheritance (a K_FUTEX_PI wait): the threads waiting on
	 * a lock this one owns, its link in its owner's list, and that owner. */
	struct list_head pi_waiters, pi_link;
	struct thread *pi_owner;
	uint64_t utime_ticks, stime_ticks; /* tick samples splitting se.sum_exec */
	int wake_result;		/* 0, or -ETIMEDOUT/-EINTR for a wait */
	uint64_t woken_at;		/* clock_ns() of its last wake-up (latency bench) */
	uint64_t lat_seen;		/* the woken_at the latency tracer saw run */
	uint64_t wake_deadline;		/* clock_ns() deadline, 0 = none */
	struct list_head timer_link;	/* in the CPU's timeout list */
	struct list_head wait_link;	/* in a waitq */
	struct list_head proc_link;	/* in proc->threads */
	struct list_head cg_link;	/* in cgroup->threads while it lives */
	struct list_head tid_link;	/* in the tid table (thread_find_locked) */
	struct trap_frame *user_tf;	/* user registers, for user threads */
	bool kill_pending;		/* end this thread on its way to user mode */
	bool sched_dying;		/* counted in its groups' bw.dying (sched_set_dying) */
	/* Memory charges to settle on the way to user mode (memcg.c): the
	 * level a charge failed at, the level over memory.high (references)
	 * and the pages charged above it since the last throttle. */
	struct cgroup *mem_fail, *mem_high;
	uint64_t mem_high_pages;
	bool mem_fail_oom;		/* mem_fail's OOM killer yet to run (its charge held a spinlock) */
	bool mem_reclaiming;		/* in memcg_reclaim: its charges do not reclaim again */
	bool memstall;			/* stalled on memory (pressure), sched_lock */
	bool iowait;			/* in a call to a disk's server (io pressure), sched_lock */
	int8_t iowait_cpu;		/* the CPU it began that wait on (its idle time is iowait) */
	int8_t psi_cpu;			/* the CPU its pressure counts on (psi.c), sched_lock */
	uint8_t psi_counts;		/* what it counts there: PSI_T_* bits (psi.c), sched_lock */
	uint64_t clear_tid;		/* user word zeroed and futex-woken at exit */
	uint64_t sig_blocked;		/* bit sig-1: blocked signals */
	uint64_t sig_pending;		/* bit sig-1: signals sent to this thread */
	struct list_head sig_queue;	/* their struct sigq (siginfo), oldest first */
	/* sigtimedwait: the mask in force before the wait (the waited-for
	 * signals are unblocked meanwhile so that they wake it, but still
	 * count as blocked: an ignored one is kept for it), else 0. */
	uint64_t sig_real_blocked;
	uint64_t sas_sp, sas_size;	/* sigaltstack; size 0: none */
	uint64_t sig_saved_mask;	/* sigsuspend: the mask the handler restores */
	bool sig_restore_mask;
	/* A sleep_ns a stop cut: its deadline, and whether the call runs
	 * again after the continue (then it sleeps to the same deadline,
	 * as Linux's nanosleep restarts with the time left). */
	uint64_t sleep_deadline;
	bool sleep_resume;
	/* A signal cut an IPC call a server had already taken: the call may
	 * have had its effect, so SA_RESTART must not run it again. */
	bool sig_call_taken;
	/* In an IPC_CALL_WHOLE call: a handled signal lets it complete
	 * (sched_interrupt_handled). Set and cleared by the thread itself. */
	bool ipc_whole;
	/* A signal came during its whole call and was held back: if the
	 * server defers the call (a wait), the wait is cut at once. */
	bool ipc_sig_held;
	/* The freezer woke it from a wait: its call runs again after the thaw. */
	bool freeze_kicked;
	/* The cgroup it is counted parked in (nr_parked; a reference), while
	 * parked or ptrace-stopped: cgroup/core/freezer.c, cg_lock. */
	struct cgroup *freeze_counted;
	/* ptrace (kernel/proc/ptrace.c; proc_lock): its tracer (a process),
	 * its link in the tracer's ptraced list, PTRACE_O_* options, whether
	 * it was seized, an INTERRUPT's trap to take, whether it sits in a
	 * ptrace-stop and the stop's wait status not yet collected, the
	 * signal its resumption gave, the stop's siginfo, and the system-call
	 * stops asked for (PTRACE_SYSCALL) and owed (the exit's). */
	struct proc *ptracer;
	struct list_head ptrace_link;
	uint32_t ptrace_opts;
	bool ptrace_seized, ptrace_trap, ptrace_stopped;
	bool ptrace_sysexit;
	int ptrace_report;
	int ptrace_resume;
	struct k_siginfo ptrace_info;
	/* The last thread of a process: its task charge (pids) went to the
	 * zombie, which keeps it until reaped (proc.c). */
	bool pids_to_proc;

	/* IPC (guarded by the scheduler lock) */
	struct ipc_msg ipc_buf;		/* message in flight to or from this thread */
	struct ipc_info ipc_info;	/* server: who its current caller is */
	struct thread *ipc_caller;	/* server: the thread to reply to */
	struct list_head serving_link;	/* in proc->serving (sched_serving_begin) */
	struct thread *ipc_server;	/* caller: the thread serving its call */
	/* Lending (sched_lend_*, docs/scheduler.md): a thread that waits for
	 * process ipc_lend_proc (queued on its endpoint, or on a futex of its
	 * own process) lends the context its work runs on to ipc_lend_to, a
	 * thread of that process serving a call on a less entitled context;
	 * ipc_lender is the reverse link (one lender per thread). */
	struct thread *ipc_lend_to, *ipc_lender;
	struct proc *ipc_lend_proc;
	struct endpoint *ipc_ep;	/* the endpoint it waits on, if any */
	struct ipc_reply *ipc_reply;	/* caller: its deferred call's reply object */
	uint64_t ipc_snd, ipc_snd_len;	/* caller: buffer the server may read */
	uint64_t ipc_rcv, ipc_rcv_len;	/* caller: buffer the server may write */
	uint64_t ipc_badge;		/* caller: the channel's badge, 0 for none */
	/* caller: on whose behalf its call is (IPC_CALL_FOR); 0: its own */
	uint64_t ipc_for_cg;
	int32_t ipc_for_pid;
	/* server: the owner of the dirty page it writes back now
	 * (pcache_wb_as), or the root for metadata: its IPC_CALL_FOR calls
	 * are on that cgroup's behalf, over the call it serves, until its
	 * next receive or pcache_wb_as(PCACHE_WB_SELF); 0: none */
	uint64_t wb_for_cg;
	int32_t wb_for_pid;
	/* server: the pages of a fill it lends to the driver it calls
	 * (pcache_grant; set and cleared under the scheduler lock, which a
	 * driver reads it under); driver: the grant whose frames its device
	 * is writing now (ipc_dma_grant), pinned until its next such call */
	struct pcache_grant *fill_grant, *dma_pin;
	uint64_t ipc_inbox, ipc_inbox_cap; /* server: where small send buffers land */
	uint8_t ipc_out[IPC_INLINE_MAX]; /* caller: a small send buffer, copied at the call */
	uint8_t ipc_in[IPC_INLINE_MAX];	/* server: its current caller's, taken with the call */
	char name[PROC_NAME_MAX];
	/* Unix socket messages this thread frees (kernel/ipc/unix.c,
	 * usock_msgs_free): the list, whether a loop up its stack is freeing
	 * it, and whether a release there asked for a collection. */
	struct usock_msg *usock_dead;
	bool usock_draining, usock_gc_wanted;
#ifdef CONFIG_KCOV
	struct kcov *kcov;		/* kernel coverage being recorded (kcov.c) */
#endif
};

enum proc_state {
	PROC_ALIVE,
	PROC_ZOMBIE,	/* exited; waiting for its parent to collect the status */
};

/* Why a signal was sent: what an SA_SIGINFO handler finds in siginfo. */
struct sig_origin {
	int32_t code;			/* SI_USER, SI_KERNEL, SI_QUEUE, CLD_* */
	int32_t pid;			/* the sender, or the child for SIGCHLD */
	uint32_t uid;			/* its real uid */
	int32_t status;			/* SIGCHLD: exit code or signal */
	uint64_t value;			/* SI_QUEUE, SI_ASYNCIO, SI_MESGQ: sigqueue's value */
};

struct ptimer;
/* One pending signal with its siginfo, on a process's or thread's
 * sig_queue. A standard signal has at most one; a real-time one as many
 * as were sent (up to the process's RLIMIT_SIGPENDING). A POSIX timer's
 * is part of the timer (timer set), never freed here. */
struct sigq {
	struct list_head link;
	struct k_siginfo info;
	struct ptimer *timer;
	bool counted;			/* against the process's sig_queued */
};

struct proc {
	int pid;
	/* its threads waiting on a futex: a server others wait for, on
	 * the scheduler's list while nonzero (sched_donors_*) */
	uint32_t sc_waiters;
	struct list_head waited_link;
	/* its threads serving a call now (ipc_caller set), and some whose
	 * call ended since (unlinked lazily; sched_lock): what sched_donors_*
	 * walk, instead of every thread */
	struct list_head serving;
	/* the endpoints it created (no references: an endpoint leaves when
	 * freed), all killed at its exit whoever still holds them */
	struct list_head owned_eps;
	enum proc_state state;
	int exit_status;		/* wait status (abi/wait.h) once a zombie */
	bool exiting;			/* its threads are being ended */
	/* its last thread while it tears the process down (no longer on
	 * threads: what proc_dump shows of a process stuck there) */
	struct thread *last_thread;
	struct waitq child_exit;	/* the parent waits here for children */
	struct list_head hash_link;	/* in the pid table */
	struct proc *parent;
	struct list_head children;
	struct list_head sibling;
	/* its resource domain (a reference): where it is listed in
	 * cgroup.procs and charges memory; its threads are in this cgroup or
	 * (thread mode) in threaded cgroups below */
	struct cgroup *cgroup;
	struct cgroup *charged;		/* charged for the descriptor (a reference) */
	/* its cgroup namespace (cgroup/fs/cgns.h; a reference; NULL: the
	 * initial one): inherited by fork, changed by unshare, under proc_lock */
	struct cg_ns *cgns;
	bool orphan;			/* handed to the kernel when its parent ended */
	/* A zombie holds its last thread's task charge (pids.current, and
	 * pids.max against new forks) here until its parent reaps it, as
	 * Linux's pids_release at release_task: a parent that never waits
	 * cannot run past pids.max with zombies (a reference). */
	struct cgroup *zombie_pids;
	struct list_head cg_link;	/* in cgroup->procs */
	struct addrspace *as;		/* NULL for the kernel process */
	struct cred cred;
	struct k_rlimit rlim[K_RLIM_NLIMITS];	/* prlimit's, but RLIMIT_AS (the addrspace's) */
	uint32_t caps;			/* PROC_CAP_* */
	char *cwd;			/* working directory (kmalloc'd), NULL = "/" */
	uint32_t umask;
	uint64_t cpu_exited[3];		/* total/user/system ns of its ended threads */
	uint64_t cpu_children[3];	/* of its ended and collected children */
	uint64_t start_ns;
	/* The C library's fault-fixup range (ufault_fixup): a fault that
	 * would be SIGSEGV or SIGBUS at an instruction in [ufix_start,
	 * ufix_end) resumes at ufix_to with rax = -EFAULT. Inherited by fork,
	 * cleared by exec; written only by the process itself. */
	uint64_t ufix_start, ufix_end, ufix_to;
	/* prctl (kernel/proc/prctl.c): the signal it gets when its parent
	 * ends (0: none; not inherited by fork), and whether it adopts its
	 * descendants' orphans: both kept across execve, not inherited by fork. */
	int pdeathsig;
	bool subreaper;
	/* its record locks, on all files (kernel/pcache/flock.c, under its
	 * flock_lock): a close looks no further while 0 */
	uint32_t nflocks;
	uint8_t *io_bitmap;		/* ports granted (0 bit = allowed), or NULL */
	uint64_t io_gen;		/* its last grant's number, unique in the system (ioport.c) */
	struct handle_table handles;
	struct k_sigaction sigactions[SIG_NSIG];
	uint64_t sig_pending;		/* bit sig-1: signals sent to the process */
	struct list_head sig_queue;	/* their struct sigq (siginfo), oldest first */
	/* Real-time signals queued to it and its threads, and the bound
	 * (RLIMIT_SIGPENDING, per process; inherited by fork, kept by exec). */
	uint32_t sig_queued;
	uint64_t sig_queue_max, sig_queue_hard;
	/* POSIX timers (kernel/proc/ptimer.c): its timers, the next id, and
	 * how many CPU-time ones are armed (the tick then asks for a look,
	 * ptimer_cpu_check, on the way to user mode). */
	struct list_head ptimers;
	int ptimer_next_id;
	uint32_t ptimer_cpu_armed, ptimer_cpu_check;
	/* ITIMER_REAL (kernel/proc/itimer.c): when SIGALRM is due (clock_ns,
	 * 0: disarmed; then on the timer list by itimer_link) and its period. */
	uint64_t itimer_deadline, itimer_interval;
	struct list_head itimer_link;
	/* ITIMER_VIRTUAL [0] and ITIMER_PROF [1]: CPU time left (ns, 0:
	 * disarmed), counted down by the scheduler's tick samples; their
	 * periods; bit i: the timer ran out, its signal to be sent on the
	 * way to user mode (the tick cannot take proc_lock). */
	int64_t itimer_cpu_left[2];
	uint64_t itimer_cpu_interval[2];
	uint32_t itimer_cpu_fired;
	int pgid, sid;			/* process group and session */
	bool stopped;			/* by SIGSTOP and friends until SIGCONT */
	int stop_report;		/* for the parent's waitpid: W_STOPPED/W_CONTINUED */
	struct waitq stop_wait;		/* its threads wait here while stopped */
	struct pollq sig_pollq;		/* its signalfds' pollers: a signal came (kfile.h) */
	struct list_head threads;
	uint32_t nr_threads;
	/* ptrace: the threads it traces (thread.ptrace_link), and the
	 * deaths of tracees that are not its children, for its wait
	 * (struct ptrace_death, kernel/proc/ptrace.c); proc_lock */
	struct list_head ptraced;
	struct list_head ptrace_deaths;
	int16_t oom_score_adj;		/* -1000..1000, inherited by fork */
	/* The lowest value a non-root writer may give it: the last value
	 * root wrote (Linux's oom_score_adj_min), inherited by fork. */
	int16_t oom_score_adj_min;
	bool oom_victim;		/* killed by the OOM killer, still freeing */
	char name[PROC_NAME_MAX];
	/* The arguments of its program, NUL-separated (cut at a whole
	 * argument's end), for /proc/PID/cmdline. */
	char cmdline[K_CMDLINE_MAX];
	uint32_t cmdline_len;
};

/* May touch hardware: I/O ports, device memory, DMA, IRQs, PCI config. */
#define PROC_CAP_DRIVER 0x1

/* Moves process p (all its threads) into cgroup dst: membership,
 * scheduling and where its future pages are charged; what is charged
 * already stays where it is (as on Linux). A process that is exiting is
 * skipped (0); one still being made is not found yet (-ESRCH). -ENODEV if
 * dst is removed. proc_lock held. */
int proc_migrate_locked(struct proc *p, struct cgroup *dst);
/* Moves one thread into dst, in the same resource domain (thread mode):
 * 0, -ENODEV; an exiting thread is skipped. proc_lock held. */
int proc_migrate_thread_locked(struct thread *t, struct cgroup *dst);

/* Collects the zombies handed to the kernel process because their parent
 * ended while no init ran (the kernel's tests): init reaps them otherwise.
 * Returns how many. */
int proc_reap_orphans(void);

/* Records argv (NULL-terminated) as p's command line. */
void proc_set_cmdline(struct proc *p, const char *const argv[]);

extern struct proc kernel_proc;
extern struct proc *init_proc;	/* pid 1, once started; adopts orphans */

void proc_init(void);
int proc_add_thread(struct proc *p, struct thread *t);
/* proc_add_thread, then the thread starts (under the lock a kill takes,
 * so it cannot end before): its tid, or -errno (not added). A user
 * thread starts with its tid in rsi (thread_create's ABI), so it knows
 * its id before its creator returns. */
int proc_start_thread(struct proc *p, struct thread *t);
/* A new process's first thread joins it and starts: never refused; if the
 * process was killed before it had one, the thread ends before it reaches
 * user mode. Started under the lock a kill takes, as proc_start_thread:
 * the caller must not touch t afterwards (it may already have ended). */
void proc_start_first_thread(struct proc *p, struct thread *t);
/* Bookkeeping when a thread of p ends (the last one ends the process).
 * Returns with preemption off (p may be freed by its parent from then
 * on): the caller's next step must be sched_exit_current. */
void proc_thread_exited(struct thread *t, long code);

struct thread *thread_alloc(struct proc *p, struct cgroup *cg, const char *name, int *err);
/* The first switch into t runs fn(arg) on the kernel stack below top
 * (16-byte aligned). */
void thread_prepare_stack(struct thread *t, uint64_t top, long (*fn)(void *), void *arg);
/* A new process whose first thread will be in cg (its resource domain:
 * cg->dom); cg counts that thread from now on. */
struct proc *proc_alloc(struct proc *parent, struct cgroup *cg, const char *name, int *err);
/* Undoes proc_alloc(parent, cg) (and an address space) for a process that
 * never had a thread. */
void proc_abort_spawn(struct proc *p, struct cgroup *cg);

/* Starts program `path` from the boot archive as a new process, child of
 * parent, in cgroup cg, with argv (NULL-terminated). Returns the pid or a
 * negative errno (-ENOENT, -ENOEXEC, -ENOMEM, -E2BIG, -EFAULT). */
int proc_spawn(const char *path, const char *const argv[], struct cgroup *cg,
	       struct proc *parent, uint32_t caps);
/* The same, with descriptors 0, 1 and 2 all referring to stdio. */
int proc_spawn_stdio(const char *path, const char *const argv[], struct cgroup *cg,
		     struct proc *parent, uint32_t caps, struct kobj *stdio);
struct proc *proc_find(int pid);	/* NULL if none */
/* A new address space holding program path from the boot archive and a
 * stack with argv and envp; its entry point and initial rsp. */
/* A program image: in the boot archive (kdata) or in the calling
 * process's memory (udata). */
/* Where a program's bytes are: the boot archive (kdata), the caller's
 * memory (udata), or a page cache object (obj, a reference the caller
 * keeps), whose segments are mapped rather than copied. */
struct pcache_obj;
struct exec_image {
	const uint8_t *kdata;
	uint64_t udata;
	struct pcache_obj *obj;
	uint64_t size;
};
/* A new address space charged to cg with the image, its arguments and its
 * stack, under the rlimits of limits (the process it replaces or its
 * parent; NULL: none), so an image larger than RLIMIT_AS fails here with
 * -ENOMEM, before an execve's point of no return. NULL and *err on failure. */
struct addrspace *proc_load(const struct exec_image *im, const char *const argv[],
			    const char *const envp[], struct cgroup *cg, const struct addrspace *limits,
			    uint64_t *entry, uint64_t *rsp, int *err);
struct addrspace *proc_load_image(const char *path, const char *const argv[],
				  const char *const envp[], struct cgroup *cg, const struct addrspace *limits,
				  uint64_t *entry, uint64_t *rsp, int *err);
const char *proc_basename(const char *path);
/* The child's handles: copies of the parent's (fork), or of those not
 * marked close-on-exec (spawn, like fork + exec). */
void proc_copy_handles(struct proc *from, struct proc *to, bool skip_cloexec);
/* Ends every thread of p but self (exec); waits at most a second. 0 or
 * -EAGAIN if some thread would not end (one inside a served IPC call). */
int proc_end_other_threads(struct proc *p, struct thread *self);
/* A user thread of p starting at entry with stack rsp and arg in rdi; not
 * yet runnable or listed in p. */
struct thread *user_thread_create(struct proc *p, struct cgroup *cg, uint64_t entry, uint64_t rsp,
				  uint64_t arg, int *err);
/* The same with every user register taken from regs (fork). */
struct thread *user_thread_from_frame(struct proc *p, struct cgroup *cg, const struct trap_frame *regs,
				      int *err);
/* Ends the calling process with a wait status (abi/wait.h). */
__noreturn void proc_exit(int status);
/* Waits for child pid (-1: any) of p to end: its pid with *status set,
 * 0 with WNOHANG and none ended, -ECHILD if no such child, -ETIMEDOUT
 * once deadline (clock_ns, 0 = none) passes, -EINTR if p is being killed. */
int proc_wait(struct proc *p, int pid, int *status, int options, uint64_t deadline);
/* Ends process p as if by signal sig (no handlers yet: the default). */
void proc_kill(struct proc *p, int sig);
void proc_dump(struct proc *p);
/* The same with proc_lock held (p not NULL). */
void proc_dump_locked(struct proc *p);
/* Work on the way back to user mode: a pending kill ends the thread, a
 * pending signal runs its action (tf: the registers going back, or NULL
 * for a thread that has not run yet). The work runs with interrupts on;
 * if there was any, it returns with them off. */
void proc_user_return_work(struct trap_frame *tf);
#define THREAD_OFF_WORK 8
#define THREAD_OFF_SYSTRACE 12

/* Is t being killed (exit, or a SIGKILL sent to its process not yet acted
 * on)? Long kernel work (allocating an object's pages, walking a huge
 * range) checks this between chunks and gives up, as Linux's
 * fatal_signal_pending: a SIGKILLed thread in a cgroup throttled to 1 %
 * (cpu.max) would otherwise finish a second of work first, at 100 s. */
static inline bool thread_fatal_signal(const struct thread *t)
{
	return t->kill_pending || (__atomic_load_n(&t->proc->sig_pending, __ATOMIC_RELAXED) & (1ull << (SIGKILL - 1)));
}

/* Has t work to do before it returns to user mode? */
static inline bool thread_has_work(const struct thread *t)
{
	const struct proc *p = t->proc;
	return t->kill_pending || (p->stopped && !t->ptracer) || t->ptrace_trap ||
	       ((t->sig_pending | p->sig_pending) & ~t->sig_blocked);
}
/* The thread's clear_tid word is zeroed and woken (pthread_join). */
void futex_thread_exit(struct thread *t);

/* Makes t look at its signals and kills on its way to user mode. */
static inline void thread_set_work(struct thread *t)
{
	__atomic_store_n(&t->work, 1, __ATOMIC_RELEASE);
}

/* Sends sig to process p (as kill does, from sender: SI_USER with its pid
 * and uid; NULL: the kernel, SI_KERNEL). */
void signal_send(struct proc *p, int sig, struct proc *sender);
/* kill(2) of the one process pid that started at start_ns (a pidfd's):
 * -ESRCH if it has been reaped (or the pid is another's now), -EPERM
 * (kill's permission rule), -EINVAL; a zombie takes it without effect. */
long signal_send_to(int pid, uint64_t start_ns, int sig);
/* Whether the process pid that started at start_ns has ended (a zombie,
 * or reaped): a pidfd's POLLIN. */
bool proc_ended(int pid, uint64_t start_ns);
/* A pidfd's readiness for the kernel poll (poll.h's fd_poll_fn): POLLIN
 * once its process ended; *q the queue every process's end wakes. */
struct pollq;
long pidfd_poll_obj(struct kobj *o, int events, struct pollq **q);
/* The process pidfd object o names: its pid and start time. */
void pidfd_target_of(const struct kobj *o, int *pid, uint64_t *start_ns);
/* A process became a zombie: pidfd pollers look again (proc_lock may be held). */
void pidfd_proc_ended(void);
/* Sends sig to thread t alone with siginfo *info (as tgkill; ptrace's
 * SIGSTOP, SIGTRAP and injected signals); the _locked one with proc_lock held. */
void signal_send_thread_info(struct thread *t, int sig, const struct k_siginfo *info);
void signal_send_thread_info_locked(struct thread *t, int sig, const struct k_siginfo *info);
/* Sends sig to p with its siginfo fields from o (proc_lock held). */
void signal_send_origin_locked(struct proc *p, int sig, const struct sig_origin *o);
/* Tells child c's parent that c exited, stopped or continued (code
 * CLD_*, status: the exit code or signal): SIGCHLD, unless the parent's
 * SA_NOCLDSTOP asks for none on a stop or continue (proc_lock held). */
void signal_notify_parent_locked(struct proc *c, int code, int status);
/* Does p have its children reaped for it (SIGCHLD SIG_IGN or
 * SA_NOCLDWAIT)? Then no zombie waits for it (proc_lock held). */
bool signal_child_autoreap(const struct proc *p);
/* Sends sig to p (t NULL) or its thread t with q (a POSIX timer's entry,
 * info filled in) as its pending entry; q stays off every queue if the
 * signal is ignored or already pending. proc_lock held. */
int signal_post_timer_locked(struct proc *p, struct thread *t, struct sigq *q);
/* Takes pending entry q off t's (NULL: p's) queue (a deleted timer's). */
void signal_unqueue_locked(struct proc *p, struct thread *t, struct sigq *q);
/* The interval-timer thread (itimer.c), which also runs the wall-clock
 * POSIX timers: started on first use (0 or -errno); woken to look at an
 * earlier deadline (proc_lock held). */
long itimer_start(void);
void itimer_wake_locked(void);
/* Fires the wall-clock POSIX timers due at now (clock_ns); the next
 * deadline, or 0 if none is armed. proc_lock held. */
uint64_t ptimer_run_locked(uint64_t now);
/* Whether clockid is a CPU-time clock (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID, or Linux's encoding of a pid's or tid's) of a
 * live process or thread (clock_settime: EPERM for one, EINVAL if not). */
bool ptimer_cpu_clock_exists(int clockid);
/* Fires p's CPU-time POSIX timers that are due (takes proc_lock). */
void ptimer_cpu_check(struct proc *p);
/* Stops p's ITIMER_REAL, if armed (proc_lock held): before p is freed. */
void itimer_disarm_locked(struct proc *p);
/* From the timer tick (interrupts off): t ran this tick, in user mode or
 * not; counts down its process's CPU-time timers. */
void itimer_cpu_tick(struct thread *t, bool user_mode);
/* On the way to user mode: sends the SIGVTALRM/SIGPROF the tick found due. */
void itimer_cpu_send(struct proc *p);
/* A CPU exception in user mode: deliver sig to the thread if it handles
 * it, else the process dies of it. */
void signal_fault(struct trap_frame *tf, int sig, uint64_t addr);
void signal_send_locked(struct proc *p, int sig);	/* proc_lock held */
void signal_handle_pending(struct thread *t, struct trap_frame *tf);
/* A call that waits under a mask of its own (ppoll, pselect): swap puts
 * mask in force and returns the old one; restore puts old back, but if
 * the call was interrupted by a signal its mask lets through, only after
 * that signal's handler has run (as sigsuspend), so the signal the caller
 * unblocked for the wait is the one that interrupts it. */
uint64_t signal_mask_swap(struct thread *t, uint64_t mask);
/* signalfd: takes the lowest signal pending for t (its own, then its
 * process's) in mask, blocked or not, with why it was sent in *info; 0 if
 * none. The pending signals of t and its process. */
int signal_take(struct thread *t, uint64_t mask, struct k_siginfo *info);
uint64_t signal_pending_of(const struct thread *t);
void signal_mask_restore(struct thread *t, uint64_t old, bool interrupted);
/* A new process's RLIMIT_SIGPENDING (Linux's default depends on memory). */
#define SIG_QUEUE_DEFAULT 4096
/* The signal part of /proc/PID/status (SigQ, SigPnd, ShdPnd, SigBlk,
 * SigIgn, SigCgt): thread t's, or with t NULL the main thread's (the
 * first one left if it ended), as Linux's. proc_lock held. */
void signal_info_fill_locked(struct proc *p, struct thread *t, struct k_procinfo *k);
/* Frees what thread t still has queued (proc_lock held; t leaving). */
void signal_thread_exit_locked(struct thread *t);
/* A process becoming a zombie: its queued signals and POSIX timers go
 * (proc_lock held). */
void signal_proc_exit_locked(struct proc *p);
/* POSIX timers: every one of p is deleted (exec; exit via the above).
 * proc_lock held. */
void ptimer_delete_all_locked(struct proc *p);
/* A timer's signal was taken from a pending queue (dequeued, or flushed
 * if info is NULL): the timer may queue it again; info gets the overrun.
 * proc_lock held. */
void ptimer_signal_taken_locked(struct ptimer *tm, struct k_siginfo *info);
/* getrlimit/setrlimit of RLIMIT_SIGPENDING for the caller (prlimit). */
long signal_prlimit(const struct k_rlimit *new_lim, struct k_rlimit *old_lim);
/* Signal state of a new process: inherited from parent, or (exec) reset. */
void signal_init_proc(struct proc *child, const struct proc *parent, bool exec);
/* Guards the process table, parent/child links and cgroup membership. */
extern struct spinlock proc_lock;
/* With proc_lock held: lookup and iteration over all processes. */
struct proc *proc_find_locked(int pid);
/* The cgroup of p's oldest live thread (its main one, normally), which
 * /proc/PID/cgroup shows; p's resource domain once none is left. */
struct cgroup *proc_main_cgroup_locked(const struct proc *p);
/* The live thread with that tid (listed in its process), or NULL. */
struct thread *thread_find_locked(int tid);
struct proc *proc_iter_first_locked(void);
struct proc *proc_iter_next_locked(struct proc *p);

/* The load average (kernel/proc/loadavg.c): the timer tick's sample,
 * every 5 s. Interrupt context, no lock. */
void loadavg_tick(void);
/* The 1, 5 and 15 minute load averages (<< 16, as sysinfo's loads) and
 * how many threads there are now. Takes proc_lock. */
void loadavg_get(uint64_t loads[3], uint64_t *threads);

/* A kernel thread running fn(arg) in the kernel process, placed in cgroup
 * cg (NULL: root) and made runnable. NULL with *err = -ENOMEM etc. */
struct thread *kthread_create(const char *name, long (*fn)(void *), void *arg,
			      struct cgroup *cg, int *err);
__noreturn void thread_exit(long code);
void thread_set_nice(struct thread *t, int nice);
/* CPU time in ns: total, and the user/system split from tick sampling. */
uint64_t thread_runtime_ns(const struct thread *t);
void thread_cputime(const struct thread *t, uint64_t *user_ns, uint64_t *sys_ns);
/* Releases a dead thread's memory (called by the scheduler after it has
 * switched away from it for the last time). */
void thread_reap(struct thread *t);

#endif
