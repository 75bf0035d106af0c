/* The scheduler proper: threads, the CPU's run queue and the clock, on top
 * of the pure fair-queueing core (sched_fair.h). The run queue mirrors the
 * cgroup tree: the root queue is the root cgroup's, and a cgroup with
 * runnable threads is an entity in its parent's queue: each cgroup embeds
 * the scheduler's part of it, a group (sched_group.h).
 *
 * Locking: one scheduler lock (sched_lock, taken with interrupts off)
 * guards every run queue, thread state, wait queue and timeout list. Other
 * subsystems' locks are taken before it, never after. */
#ifndef ARBOR_SCHED_H
#define ARBOR_SCHED_H

#include "list.h"
#include "percpu.h"
#include "sched_group.h"
#include "spinlock.h"
#include "types.h"

struct thread;
struct cgroup;
struct spinlock;
struct sched_entity;

/* Threads blocked on some condition; guarded by the scheduler lock. */
struct waitq {
	struct list_head waiters;
};

#define WAITQ_INIT(name) { LIST_HEAD_INIT((name).waiters) }

void sched_init(void);
/* The boot context becomes the idle thread and never returns. */
__noreturn void sched_idle_loop(void);
/* Scheduling on every CPU (boot option smp_sched, default on): a started
 * CPU other than the boot CPU calls sched_cpu_start with its stack, and
 * becomes an idle thread picking from the one queue tree. */
extern bool sched_smp_enabled;
__noreturn void sched_cpu_start(void *stack_bottom, uint64_t stack_top);
/* The CPUs that schedule, bit per CPU: CPU 0, and unless smp_sched=0 each
 * started one. */
uint32_t sched_cpus_mask(void);
/* Thread t asks for the CPUs of mask (sched_setaffinity), within cpuset
 * (its cpuset's CPUs, cpuset_cpus_locked): -EINVAL if none of them
 * schedules (nothing changes), else 0; if t runs elsewhere, its CPU
 * switches. */
int sched_set_affinity(struct thread *t, uint32_t mask, uint32_t cpuset);
/* t's cpuset lets it run on cpuset now: it runs on the CPUs it asked for
 * within cpuset, or on cpuset if none of those schedules (Linux's
 * fallback); if it runs elsewhere, its CPU switches. Called with
 * cg_lock held, so that cpuset is its cgroup's current one. */
void sched_set_cpuset(struct thread *t, uint32_t cpuset);

/* Switch to the next runnable thread (the caller may stay runnable). */
void schedule(void);
void sched_yield(void);
/* A safe point in long kernel work: switches if a switch is due and no
 * spinlock is held (preempt_count 0). */
void sched_cond_resched(void);
/* How many times a thread that was not blocked was found on a wait list
 * (and taken off it): 0 unless an invariant broke (tests check it). */
uint64_t sched_stray_waiters(void);
/* From the timer interrupt: account, expire timeouts, maybe ask to switch. */
void sched_tick(bool user_mode);
/* The timer's interrupt for the event sched asked for (timer_event)
 * between ticks: sleeps that end, quotas that run out, periods that
 * begin, at their moment rather than the next tick's. */
void sched_timer_event(bool user_mode);
/* Interrupt return: switch if a reschedule is pending and allowed. */
void sched_preempt_irq(void);

/* The soft-lockup detector (kernel/sched/softlockup.c): every switch
 * touches the CPU's stamp; each timer tick (tf: what it interrupted; idle:
 * the idle thread was running) touches it too unless the interrupted
 * kernel code holds preemption off, and panics with tf's backtrace once
 * the stamp is SOFTLOCKUP_NS old and at least half of that time's ticks
 * reached the CPU (SOFTLOCKUP_TICKS): under QEMU a host that starves the
 * virtual CPU's thread stretches the clock, not the code, and a tick
 * missed meanwhile is not delivered twice. */
#define SOFTLOCKUP_NS 2000000000ull
#define SOFTLOCKUP_TICKS (SOFTLOCKUP_NS / 2 / (1000000000ull / TIMER_HZ))
struct trap_frame;
/* Reads lockup_warn_ms=N from the command line: report every new longest
 * non-preemptible stretch above N ms, with its backtrace, and go on. */
void softlockup_init(void);
/* The wake-up latency tracer (kernel/sched/latency.c), on when
 * sched_latency_warn_ns is not 0 (lockup_warn_ms=N): schedule_locked
 * tells it each switch to next, at now; a thread that first runs more
 * than that long after its wake-up (later than any reported) is reported
 * with what the CPU ran meanwhile. sched_lock held. */
extern uint64_t sched_latency_warn_ns;
void sched_latency_switch(struct thread *next, uint64_t now);
/* The debug kernel's interrupts-off tracer (kernel/debug/irqoff.c): a
 * timer tick shows interrupts were on, so no stretch is in progress. */
void irqoff_tick(void);
/* A switch on cpu at now (the clock schedule() read on entry, a few
 * microseconds back at most, against a detector of seconds): the
 * soft-lockup and lockup-warning detectors start over. Inline, with the
 * switch's own clock: every switch pays it. */
static inline void softlockup_touch(struct cpu *cpu, uint64_t now)
{
	cpu->softlockup_stamp = now;
	cpu->softlockup_ticks = 0;
	cpu->resched_since = 0;
}
void softlockup_tick(struct trap_frame *tf, bool idle);
bool sched_idle_running(void);	/* the idle thread is this CPU's current */

/* t is being killed (its process exits): no cpu.max quota holds it from
 * here on, as Linux's task-based throttling holds a task only on its way
 * back to user mode, which a dying one never takes; else a killed
 * process under a 1 ms quota tore itself down a period at a time. Its
 * run time is still charged (a debt the group pays back). Idempotent. */
void sched_set_dying(struct thread *t);
/* Interrupts what t waits for (signals, kills): -EINTR. */
void sched_interrupt(struct thread *t);
/* Only a blocked t wakes (-EINTR); a call being served goes on (stops). */
void sched_interrupt_wait(struct thread *t);
/* A signal t has a handler for: as sched_interrupt, but a file operation
 * (IPC_CALL_WHOLE) queued or being served goes on; the handler runs when
 * it returns. A deferred one (waiting for input) is cut. */
void sched_interrupt_handled(struct thread *t);
/* The freezer's kick: a thread blocked in a wait (not one in an IPC call,
 * whose server may already act on it) wakes with -EINTR and is marked so
 * its call restarts after the thaw. True if it was blocked. */
bool sched_kick_blocked(struct thread *t);
/* A new or woken thread becomes runnable. */
void sched_wake(struct thread *t, int result);
/* Blocks the current thread until woken or deadline (clock_ns; 0 = none).
 * If `unlock` is given it is released once the thread is queued on wq, so
 * a waker that takes the same lock cannot be missed. Returns the waker's
 * result, or -ETIMEDOUT. */
int waitq_wait(struct waitq *wq, struct spinlock *unlock, uint64_t deadline);
/* waitq_wait for a system call's sleep that a signal ends: -EINTR at once
 * if one is pending and unblocked (or the process is stopped), however
 * close to the sleep it came. */
int waitq_wait_signals(struct waitq *wq, struct spinlock *unlock, uint64_t deadline);
void waitq_init(struct waitq *wq);
int waitq_wake_one(struct waitq *wq, int result);	/* 1 if one was woken */
int waitq_wake_all(struct waitq *wq, int result);	/* how many */
/* Whether a thread waits on wq, looked at without sched_lock. Only for a
 * waker that changed the condition under the lock every waiter on wq
 * passes to waitq_wait as unlock, taken and released before this look:
 * a waiter that saw the old condition was queued before it let that
 * lock go, so an empty wq here has nobody to miss (a pipe's writer with
 * no sleeping reader skips the scheduler lock). */
static inline bool waitq_has_waiters(const struct waitq *wq)
{
	return __atomic_load_n(&wq->waiters.next, __ATOMIC_RELAXED) != &wq->waiters;
}
int sched_sleep_until(uint64_t deadline);

/* With sched_lock held: charge run time to the limited groups on leaf's
 * chain (true if one got throttled); start new periods (true if a group
 * came back); set need_resched if the running thread should yield. */
bool sched_bw_charge(struct sched_entity *leaf, uint64_t delta, uint64_t now);
bool sched_bw_tick(uint64_t now);
/* When the bandwidth limits next need the CPU's attention: the moment the
 * running entity leaf (NULL: none) uses up the runtime of the first of
 * its limited groups to run out, charged up to since, or a throttled
 * group's period ends; UINT64_MAX if no group is limited. sched_lock held. */
uint64_t sched_bw_next_event(const struct sched_entity *leaf, uint64_t since);
/* Whether any group has a cpu.max limit (sched_lock held): inline, as
 * every switch asks. The count is bandwidth.c's alone to change. */
extern unsigned sched_nr_bw_groups;
static inline bool sched_bw_limited(void)
{
	return sched_nr_bw_groups != 0;
}
/* sched_lock held: g joins parent's children (its throttled-path count
 * starts as its parent's), or leaves them, its limit gone (idempotent). */
void sched_bw_link_locked(struct sched_group *g, struct sched_group *parent);
/* sched_lock held: a dying thread's entity se counts (delta 1) or no
 * longer counts (-1) in every group on its path; counting unthrottles. */
void sched_bw_dying_locked(struct sched_entity *se, int delta);
void sched_bw_unlink_locked(struct sched_group *g);
void sched_resched_check(void);
/* CPU pressure (kernel/sched/psi.c): cpu's running entity changes (with
 * sched_lock held); to's thread counts on cpu from now on. */
void sched_psi_switch(struct sched_entity *from, struct sched_entity *to, unsigned cpu);
/* The current thread starts (true) or ends a stall on memory (a
 * memory.high throttle, an OOM wait): memory pressure. The _locked form
 * moves a stalled thread's count (migration), sched_lock held. */
void sched_memstall(bool enter);
void sched_psi_memstall_locked(struct sched_entity *se, int delta);
/* A thread starts (+1) or ends (-1) waiting for a disk (a call to an io
 * endpoint, kernel/ipc/ipc.c): io pressure. sched_lock held. */
void sched_psi_iowait_locked(struct sched_entity *se, int delta);
/* The current thread t begins (enter) or ends a wait for a disk: its io
 * pressure (sched_psi_iowait_locked), and the count of the CPU it began
 * on, whose idle time is iowait meanwhile (/proc/stat, as Linux's
 * rq->nr_iowait). sched_lock held. */
void sched_iowait_locked(struct thread *t, bool enter);
/* The current thread starts (true) or ends a wait for its cgroup's
 * writeback (dirty throttling, kernel/pcache/dirty.c): a stall on memory
 * (its dirty pages) and on io (their writeback) at once, so both
 * memory.pressure and io.pressure count it. */
void sched_wbstall(bool enter);
/* Stall time of a kind (PSI_CPU_SOME ... PSI_MEM_FULL) up to now; sched_lock held. */
struct sched_psi;
uint64_t sched_psi_total_locked(struct sched_psi *p, int kind, uint64_t now);
void sched_set_nice(struct thread *t, int nice);

/* The real-time class (kernel/sched/rt.c), all with sched_lock held.
 * t's entity joins its priority's list (rt_eff), at the head or the
 * tail, or leaves it; both keep se.on_rq and pressure counts as the fair
 * queue does. */
void sched_rt_enqueue(struct thread *t, bool head);
void sched_rt_dequeue(struct thread *t);
/* The real-time thread to run on cpu: the first of the highest priority,
 * or NULL if none is runnable or the class is throttled on cpu. */
struct thread *sched_rt_first(unsigned cpu);
/* The first in that order for which ok(t, arg) holds (several CPUs: one
 * not running on another, nor kept off this one by its affinity), or NULL
 * as above, or when the first SCHED_RT_SCAN_MAX threads all fail ok: the
 * walk is under sched_lock, and a CPU left without a real-time thread
 * takes fair work, or idles, until its next tick. */
#define SCHED_RT_SCAN_MAX 16
struct thread *sched_rt_first_if(unsigned cpu, bool (*ok)(const struct thread *t, const void *arg),
				  const void *arg);
bool sched_rt_queued(void);	/* any real-time thread runnable (throttled or not) */
bool sched_rt_throttled(unsigned cpu);	/* the class is, on cpu */
void sched_rt_requeue_tail(struct thread *t);	/* yield, or a used RR slice */
/* Running real-time thread t ran delta ns up to now on this CPU: its and
 * its groups' usage, this CPU's throttle budget, RR's slice (need_resched
 * when due). */
void sched_rt_account(struct thread *t, uint64_t delta, uint64_t now);
/* From the tick: a new throttle period; true if the class was throttled
 * and has runnable threads to run again. */
bool sched_rt_tick(uint64_t now);
/* The effective priority t should have: its static one if FIFO or RR,
 * raised to its priority-inheritance waiters' (0: the fair class). */
int sched_rt_target_prio(const struct thread *t);
/* The throttle: period (ns) and runtime (ns, -1 none), and how many
 * times it has throttled (sched_lock to change them). */
extern uint64_t sched_rt_period_ns;
extern int64_t sched_rt_runtime_ns;
extern uint64_t sched_rt_throttle_count;
/* Sets t's policy, static priority and SCHED_RESET_ON_FORK (the caller
 * checked them), moving it between the classes or lists as Linux does (a
 * raised priority goes to its list's tail, a lowered one to the head). */
void sched_setscheduler_locked(struct thread *t, int policy, int prio, bool reset_on_fork);
/* t's effective priority may have changed (its static one, or its
 * priority-inheritance waiters): requeue it, and its owner's chain. */
void sched_rt_reprio_locked(struct thread *t);
/* Priority inheritance: waiter now waits on a lock owner holds (owner
 * runs at no less than waiter's priority), or no longer waits (unlink is
 * harmless twice). And owner's end: its waiters boost nobody. */
void sched_pi_link_locked(struct thread *waiter, struct thread *owner);
void sched_pi_unlink_locked(struct thread *waiter);
void sched_pi_owner_exit_locked(struct thread *owner);
/* sched_rr_get_interval(2) of t: 100 ms for RR, 0 for FIFO, else the
 * fair slice (sched_slice_ns). */
uint64_t sched_interval_ns_locked(struct thread *t);
/* Moves a thread's scheduling entity to another cgroup's queue. */
void sched_move_thread(struct thread *t, struct cgroup *to);
/* Makes a thread dead and switches away for good. */
__noreturn void sched_exit_current(void);

/* IPC hand-offs with scheduling-context donation; all with the
 * scheduler lock held (sched_lock_ipc). See kernel/ipc/ipc.c. */
extern struct spinlock sched_lock;
static inline uint64_t sched_lock_ipc(void)
{
	return spin_lock_irqsave(&sched_lock);
}
static inline void sched_unlock_ipc(uint64_t flags)
{
	spin_unlock_irqrestore(&sched_lock, flags);
}
int sched_block_locked(struct list_head *list, uint64_t deadline);
int sched_ipc_call_locked(struct thread *server);
/* The current (server) thread takes caller, queued on its endpoint;
 * lender (or NULL): a more entitled queued caller that lends to nobody,
 * which lends to the server for this call (sched_lend_*). */
void sched_ipc_take_caller_locked(struct thread *caller, struct thread *lender);
void sched_ipc_reply_locked(struct thread *caller, int result, struct list_head *wait_list);
void sched_ipc_abort_locked(struct thread *caller, int result);
/* server (ending) serves no call any more: off its process's list of
 * serving threads (sched_donors_*), if still there (sched_lock). */
void sched_ipc_serving_clear_locked(struct thread *server);
void sched_ipc_release_caller_locked(struct thread *caller, int result);
void sched_wake_ipc_locked(struct thread *t, int result);
/* Defers caller's call, which the current thread serves (reply.c). */
void sched_ipc_defer_locked(struct thread *caller);

/* Someone now waits for process p: a thread of it sleeps on a futex
 * (delta +1, and -1 when it wakes: a contended lock) or a caller is about
 * to queue on its endpoint (delta 0: no thread of it free). A call one of
 * p's threads serves on a context held back by cpu.max (throttled) then
 * goes on on the server's own entity (docs/ipc.md), so that a client's
 * limit delays only its own requests. _locked: sched lock held. */
struct proc;
void sched_donors_waiting(struct proc *p, int delta);
void sched_donors_waiting_locked(struct proc *p, int delta);

/* Lending (docs/scheduler.md, "Waiting behind a busy server"): the
 * current thread is about to wait for process p (its call queues on p's
 * endpoint, or it waits on a futex of p): its context pushes a thread of p
 * serving a call on a less entitled context, until that call ends
 * (sched_donors_waiting_locked calls it). */
void sched_lend_wait_locked(struct proc *p);
/* s's call ends or changes: a waiter lending to s lends to another thread
 * of the process it waits for, if one qualifies, else to nobody. */
void sched_lend_end_locked(struct thread *s);
/* w waits no more (woken, taken, ending): it lends to nobody. */
void sched_lend_stop_locked(struct thread *w);
/* a's work runs on a more entitled context than b's (both threads;
 * lenders count): whom a futex wakes first. sched_lock held. */
bool sched_ctx_before_locked(struct thread *a, struct thread *b);

/* A group was just throttled: the same for calls served on throttled
 * contexts by processes with futex waiters (at the next schedule). */
void sched_donors_throttled_locked(void);

/* a * b / c without overflow of the product (c > 0). */
uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c);

#endif
