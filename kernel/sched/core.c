/* Scheduler core: picking, switching, blocking and waking threads. The
 * policy (weighted fair queueing over the cgroup hierarchy) lives in
 * fair.c; this file decides when to use it and performs the switches. */
#include "sched.h"
#include "memcg.h"
#include "abi/errno.h"
#include "arch/x86.h"
#include "cgroup.h"
#include "cpustat.h"
#include "dev.h"
#include "panic.h"
#include "percpu.h"
#include "printk.h"
#include "proc.h"
#include "smp.h"
#include "spinlock.h"
#include "syscall.h"
#include "timer.h"
#include "vm.h"
#include "addrspace.h"
#include "abi/sched.h"

void switch_context(uint64_t *save_sp, uint64_t new_sp);
extern char boot_stack_bottom[], boot_stack_top[];

/* One per CPU that schedules. The queue tree is one for all CPUs (the
 * root cgroup's queue, fair.c): a CPU's running chain ends at curr_se,
 * and sched_lock, held across every switch, makes a thread switched out
 * on one CPU safe to pick on another (its registers are saved before the
 * lock is released, by the thread switched to). */
struct runqueue {
	struct sched_queue *root;	/* the root cgroup's queue */
	struct sched_entity *curr_se;	/* whose time the running code uses */
	uint64_t clock_start;		/* when curr_se last started to run */
	struct thread *idle;
	struct thread *dead;		/* to reap once we are off its stack */
	unsigned cpu;
	bool online;			/* schedules (sched_cpu_start) */
};

struct spinlock sched_lock = SPINLOCK_INIT("sched");
#define SCHED_SKIP_MAX 16
static struct runqueue sched_rqs[MAX_CPUS];
static struct thread sched_idle_threads[MAX_CPUS];
/* blocked threads with a deadline, sorted; any CPU's timer expires them */
static struct list_head sched_timeouts = LIST_HEAD_INIT(sched_timeouts);
static uint64_t root_usage_ns; /* the root group has no entity to sum into */
struct sched_group *sched_root;

static inline struct runqueue *this_rq(void)
{
	return this_cpu()->rq;
}

static inline struct thread *se_thread(struct sched_entity *se)
{
	return container_of(se, struct thread, se);
}

/* This CPU's run queue and idle thread, the thread it runs now on the
 * stack [stack_bottom, stack_top). */
static void sched_rq_setup(unsigned id, void *stack_bottom, uint64_t stack_top)
{
	struct runqueue *rq = &sched_rqs[id];
	struct thread *idle = &sched_idle_threads[id];

	rq->root = &sched_root->rq; /* the root cgroup's group: cg_init ran */
	rq->idle = idle;
	rq->cpu = id;
	rq->clock_start = clock_ns(); /* its /proc/stat times start now */
	cpu_get(id)->stat.last = CPUSTAT_SYSTEM; /* busy before the first sample: the kernel's */
	idle->proc = &kernel_proc;
	idle->cgroup = &cg_root;
	idle->state = THREAD_RUNNABLE;
	list_init(&idle->timer_link);
	list_init(&idle->wait_link);
	list_init(&idle->proc_link);
	list_init(&idle->cg_link);
	list_init(&idle->tid_link);
	fpu_state_init(&idle->fpu);
	__builtin_strcpy(idle->name, "idle");
	idle->on_cpu = (int16_t)id;
	idle->se_cpu = -1;
	idle->kstack = stack_bottom;
	this_cpu()->rq = rq;
	this_cpu()->current = idle;
	cpu_set_kernel_stack(this_cpu(), stack_top);
	__atomic_store_n(&rq->online, true, __ATOMIC_RELEASE);
}

void sched_init(void)
{
	sched_rq_setup(0, boot_stack_bottom, (uint64_t)boot_stack_top);
}

bool sched_smp_enabled;

__noreturn void sched_cpu_start(void *stack_bottom, uint64_t stack_top)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_rq_setup(this_cpu()->id, stack_bottom, stack_top);
	spin_unlock_irqrestore(&sched_lock, f);
	timer_cpu_init();
	cpu_sti();
	sched_idle_loop();
}

/* CPU id switches at its next safe point: at once for this CPU, else by
 * the reschedule IPI. sched_lock held. */
static void sched_kick(unsigned id)
{
	if (id == this_cpu()->id) {
		this_cpu()->need_resched = 1;
		return;
	}
	__atomic_store_n(&cpu_get(id)->need_resched, 1, __ATOMIC_RELEASE);
	smp_resched(id);
}

uint32_t sched_cpus_mask(void)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (__atomic_load_n(&sched_rqs[i].online, __ATOMIC_ACQUIRE))
			m |= 1u << i;
	return m;
}

/* May t run on rq's CPU (sched_setaffinity)? */
static inline bool sched_allowed(const struct thread *t, const struct runqueue *rq)
{
	return t->cpus_allowed & (1u << rq->cpu);
}

static bool sched_cpu_idle(const struct runqueue *rq)
{
	return rq->online && cpu_get(rq->cpu)->current == rq->idle &&
	       !__atomic_load_n(&cpu_get(rq->cpu)->need_resched, __ATOMIC_ACQUIRE);
}

/* The two classes behind one interface: a thread entity is on the
 * real-time queue (rt.c) while its effective priority is not 0, else in
 * the fair tree (fair.c). Every queue change in this file goes through
 * these, so se.on_rq means "runnable" in either class. */
static inline bool se_is_rt(const struct sched_entity *se)
{
	return !se->my_q && se_thread((struct sched_entity *)se)->rt_on;
}

static void rq_enqueue(struct sched_entity *se)
{
	struct thread *t = se_thread(se);
	if (se->on_rq)
		return;
	if (t->rt_eff)
		sched_rt_enqueue(t, false);
	else
		sched_enqueue(se);
}

static void rq_dequeue(struct sched_entity *se)
{
	struct thread *t = se_thread(se);
	if (t->rt_on)
		sched_rt_dequeue(t);
	else
		sched_dequeue(se);
}

/* Does t run on another CPU than rq's, or is its entity another CPU's? */
static bool sched_elsewhere(const struct thread *t, const struct runqueue *rq)
{
	return (t->on_cpu >= 0 && t->on_cpu != (int)rq->cpu) || (t->se_cpu >= 0 && t->se_cpu != (int)rq->cpu);
}

static bool sched_rt_takeable(const struct thread *t, const void *rq)
{
	return !sched_elsewhere(t, rq) && sched_allowed(t, rq);
}

/* The first real-time thread this CPU may take: not one another CPU runs,
 * nor one whose affinity leaves this CPU out. */
static struct thread *rq_rt_first(struct runqueue *rq)
{
	struct thread *t = sched_rt_first(rq->cpu);
	if (!t || sched_rt_takeable(t, rq))
		return t;
	return sched_rt_first_if(rq->cpu, sched_rt_takeable, rq);
}

/* The next entity to run on rq's CPU, whose running chain ended at prev
 * (NULL: none, or already put back): a real-time one first (prev's fair
 * chain, if any, is counted off), else the fair pick. */
static struct sched_entity *rq_pick(struct runqueue *rq, struct sched_entity *prev, uint64_t now)
{
	if (prev && se_is_rt(prev))
		prev = NULL;
	struct thread *t = rq_rt_first(rq);
	if (t) {
		if (prev)
			sched_put_prev(prev);
		t->se.exec_start = now;
		return &t->se;
	}
	return sched_pick_next(rq->root, prev, now);
}

/* Should the running entity se give way now? A real-time one only to
 * the first real-time thread this CPU may take when that is not itself
 * (a higher one, or an RR peer after its slice) or to the throttle; a
 * fair one to any real-time thread, else as the fair class says. */
static bool rq_should_preempt(struct runqueue *rq, struct sched_entity *se, uint64_t now)
{
	struct thread *first = rq_rt_first(rq);
	if (se_is_rt(se))
		return first != se_thread(se);
	return first || sched_should_preempt(se, now);
}

/* Something to run while the idle thread runs. */
static bool rq_has_work(struct runqueue *rq)
{
	return sched_queue_pickable(rq->root) || rq_rt_first(rq);
}

/* The first idle CPU of mask other than this one is told to look for
 * work; false if there is none. */
static bool sched_kick_idle_of(uint32_t mask)
{
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		if (i != this_cpu()->id && (mask & (1u << i)) && sched_cpu_idle(&sched_rqs[i])) {
			sched_kick(i);
			return true;
		}
	}
	return false;
}

/* t's CPUs from its request and its cpuset's (sched_set_cpuset).
 * sched_lock held. */
static void sched_cpus_locked(struct thread *t, uint32_t cpuset)
{
	uint32_t mask = t->cpus_requested & cpuset;
	if (!(mask & sched_cpus_mask()))
		mask = cpuset;
	t->cpus_allowed = mask;
	/* running where it may not now: that CPU switches, and the thread
	 * goes where it may (sched_kick_idle finds it an idle one); waiting
	 * to run: an idle CPU it may now run on looks */
	if (t->on_cpu >= 0 && !(mask & (1u << t->on_cpu)))
		sched_kick((unsigned)t->on_cpu);
	else if (t->on_cpu < 0 && t->se.on_rq && sched_smp_enabled)
		sched_kick_idle_of(mask);
}

int sched_set_affinity(struct thread *t, uint32_t mask, uint32_t cpuset)
{
	if (!(mask & cpuset & sched_cpus_mask()))
		return -EINVAL; /* Linux: no CPU left within the cpuset */
	uint64_t f = spin_lock_irqsave(&sched_lock);
	t->cpus_requested = mask;
	sched_cpus_locked(t, cpuset);
	spin_unlock_irqrestore(&sched_lock, f);
	return 0;
}

void sched_set_cpuset(struct thread *t, uint32_t cpuset)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_cpus_locked(t, cpuset);
	spin_unlock_irqrestore(&sched_lock, f);
}

/* Work another CPU could take: an idle one is told to look. */
static void sched_kick_idle(void)
{
	if (sched_smp_enabled && sched_queue_pickable(&sched_root->rq))
		sched_kick_idle_of(UINT32_MAX);
}

/* A group ran out of quota (cpu.max): this CPU picks again, and so do
 * the others running fair threads (some may run below that group; a
 * throttle is rare enough not to look which). */
static void sched_kick_throttled(void)
{
	this_cpu()->need_resched = 1;
	for (unsigned i = 0; sched_smp_enabled && i < MAX_CPUS; i++) {
		struct runqueue *o = &sched_rqs[i];
		if (i != this_cpu()->id && o->online && o->curr_se && !se_is_rt(o->curr_se))
			sched_kick(i);
	}
}

/* Threads waiting for a disk, by the CPU each began its wait on (under
 * sched_lock). */
static uint32_t sched_cpu_iowait[MAX_CPUS];

void sched_iowait_locked(struct thread *t, bool enter)
{
	spin_assert_held(&sched_lock);
	if (t->iowait == enter)
		return;
	t->iowait = enter;
	sched_psi_iowait_locked(&t->se, enter ? 1 : -1);
	if (enter)
		t->iowait_cpu = (int8_t)this_cpu()->id;
	sched_cpu_iowait[t->iowait_cpu] += enter ? 1 : -1u;
}

/* This CPU's busy, idle or iowait time for /proc/stat: delta of it ran
 * busy (a thread's entity) or idle. Idle time is iowait while a thread
 * that began its wait on this CPU waits for a disk, as Linux counts it
 * (each CPU's own: a disk wait begun on CPU 0 leaves CPU 1's idle time
 * idle). Under sched_lock. */
static void sched_account_cpu(struct cpu_stat *st, bool busy, uint64_t delta)
{
	uint64_t *to = busy ? &st->busy_ns : sched_cpu_iowait[this_cpu()->id] ? &st->iowait_ns : &st->idle_ns;
	__atomic_store_n(to, *to + delta, __ATOMIC_RELAXED);
}

/* Charges the time since the last stamp to whoever's time is running. */
static void sched_update_curr(struct runqueue *rq, uint64_t now)
{
	uint64_t delta = now - rq->clock_start;
	rq->clock_start = now;
	sched_account_cpu(&cpu_get(rq->cpu)->stat, rq->curr_se != NULL, delta);
	if (rq->curr_se) {
		root_usage_ns += delta;
		if (se_is_rt(rq->curr_se)) {
			sched_rt_account(se_thread(rq->curr_se), delta, now);
			return;
		}
		sched_account(rq->curr_se, delta);
		if (sched_bw_charge(rq->curr_se, delta, now))
			sched_kick_throttled(); /* its group ran out (cpu.max) */
	}
}

static void sched_timeout_remove(struct thread *t)
{
	list_del(&t->timer_link);
	t->wake_deadline = 0;
}

/* The timer's next event for this CPU: the first sleep to end, or what
 * the bandwidth limits need (sched_bw_next_event). sched_lock held. */
static void sched_rearm(struct runqueue *rq)
{
	/* a real-time entity spends no cpu.max quota: no event for it */
	struct sched_entity *leaf = rq->curr_se && !se_is_rt(rq->curr_se) ? rq->curr_se : NULL;
	uint64_t at = sched_bw_next_event(leaf, rq->clock_start);
	if (!list_empty(&sched_timeouts))
		at = MIN(at, list_first_entry(&sched_timeouts, struct thread, timer_link)->wake_deadline);
	timer_event(at);
}

static void sched_timeout_add(struct thread *t, uint64_t deadline)
{
	struct list_head *pos;
	if (deadline < this_cpu()->timer_event)
		timer_event(deadline); /* the first to end: the timer wakes it on time */
	t->wake_deadline = deadline;
	list_for_each(pos, &sched_timeouts) {
		struct thread *o = list_entry(pos, struct thread, timer_link);
		if (o->wake_deadline > deadline)
			break;
	}
	list_add_tail(&t->timer_link, pos); /* before the first later one */
}

/* Scheduling-context donation (docs/ipc.md). A thread in an IPC call is
 * DONATING: its entity stays in the run queue, and when it is picked the
 * server serving the call runs instead, on the caller's time. Chains form
 * when a server itself calls another server. */

/* Longest chain of donations and lendings followed: chains are acyclic
 * (a lending is only made to a thread whose chain does not reach the
 * lender), the bound is a guard, not a limit met in practice. */
#define SCHED_CHAIN_MAX 16

/* The thread that runs when t's entity is picked: down the calls (a
 * DONATING caller runs its server) and the lendings (a waiter runs the
 * thread it waits behind, sched_lend_*). *lent: a lending was followed or
 * met (then an entity whose end is not runnable is a normal sight). */
static struct thread *sched_sc_leaf_lent(struct thread *t, bool *lent)
{
	for (int i = 0; i < SCHED_CHAIN_MAX; i++) {
		if (t->ipc_lender)
			*lent = true;
		if (t->state == THREAD_DONATING && t->ipc_server) {
			t = t->ipc_server;
		} else if (t->state == THREAD_BLOCKED && t->ipc_lend_to) {
			*lent = true;
			t = t->ipc_lend_to;
		} else {
			break;
		}
	}
	return t;
}

static inline struct thread *sched_sc_leaf(struct thread *t)
{
	bool lent = false;
	return sched_sc_leaf_lent(t, &lent);
}

/* A thread t's chain lends to that serves no call any more (its call
 * ended on the reply fast path, which does not look for lenders), or
 * NULL. */
static struct thread *sched_lend_stale(struct thread *t)
{
	for (int i = 0; i < SCHED_CHAIN_MAX; i++) {
		if (t->state == THREAD_DONATING && t->ipc_server) {
			t = t->ipc_server;
		} else if (t->state == THREAD_BLOCKED && t->ipc_lend_to) {
			t = t->ipc_lend_to;
			if (!t->ipc_caller)
				return t;
		} else {
			break;
		}
	}
	return NULL;
}

/* The thread whose entity t currently runs on. */
static struct thread *sched_sc_root(struct thread *t)
{
	while (t->ipc_caller && t->ipc_caller->state == THREAD_DONATING &&
	       t->ipc_caller->ipc_server == t)
		t = t->ipc_caller;
	return t;
}

static void sched_lenders_sync(struct thread *t, bool queue, int depth);
static void sched_lend_link(struct thread *w, struct thread *t, struct proc *p);

/* Makes sure the entity t's work runs on is queued, and so are those of
 * the waiters that lend theirs to t's chain. */
static void sched_queue_chain(struct thread *t)
{
	struct thread *root = sched_sc_root(t);
	if (!root->se.on_rq)
		rq_enqueue(&root->se);
	sched_lenders_sync(t, true, 0);
}

/* Processes with threads waiting on a futex (sc_waiters > 0): a group
 * throttled while serving one of them releases its calls (sched.h). */
static struct list_head sched_waited = LIST_HEAD_INIT(sched_waited);
static bool sched_donors_recheck;
static void sched_donors_release(struct proc *p);

/* server now serves caller's call, and is on its process's list of
 * serving threads, which releasing throttled contexts walks instead of
 * every thread (sched_donors_release_proc). Entries go lazily: the end of
 * a call only clears ipc_caller, and the walk unlinks the threads it
 * finds serving nothing. So the IPC fast path pays one test (a server
 * that replies and receives stays linked), and a walk's extra work is at
 * most one entry per call served since the last walk. */
static inline void sched_serving_begin(struct thread *server, struct thread *caller)
{
	if (list_empty(&server->serving_link))
		list_add(&server->serving_link, &server->proc->serving);
	server->ipc_caller = caller;
}

void sched_ipc_serving_clear_locked(struct thread *server)
{
	spin_assert_held(&sched_lock);
	server->ipc_caller = NULL;
	list_del(&server->serving_link); /* self-linked after: harmless twice */
	sched_lend_end_locked(server);
	sched_lend_stop_locked(server); /* (ending: no lending points at it, nor from it) */
}

/* caller now lends its scheduling context to server. */
static void sched_link_donation(struct thread *caller, struct thread *server)
{
	caller->state = THREAD_DONATING;
	caller->ipc_server = server;
	sched_serving_begin(server, caller);
}

/* A caller whose server goes on without its context (sched_sc_release):
 * it waits for the reply on no list, as a deferred caller does. */
static bool sched_sc_released(const struct thread *t)
{
	return t->state == THREAD_BLOCKED && t->ipc_server;
}

static void sched_need_resched_if(struct runqueue *rq)
{
	if (this_cpu()->current == rq->idle ||
	    (rq->curr_se && rq_should_preempt(rq, rq->curr_se, clock_ns())))
		this_cpu()->need_resched = 1;
}

void sched_resched_check(void)
{
	sched_need_resched_if(this_rq());
}

/* A thread was sent to the freezer's park point: the running one gives way
 * at once if some waiting one is behind it, however short it has run. */
static void sched_need_resched_kick(struct runqueue *rq)
{
	if (this_cpu()->current == rq->idle) {
		this_cpu()->need_resched = 1;
		return;
	}
	if (!rq->curr_se)
		return;
	sched_update_curr(rq, clock_ns());
	if (se_is_rt(rq->curr_se) ? rq_rt_first(rq) != se_thread(rq->curr_se) :
	    rq_rt_first(rq) || sched_behind_now(rq->curr_se))
		this_cpu()->need_resched = 1;
}

/* Woken work this CPU does not take now: an idle CPU takes it, else a CPU
 * whose running thread the woken one preempts (as sched_wake_check would
 * there, without the unaccounted run). */
static void sched_wake_elsewhere(struct sched_entity *woken, uint32_t allowed)
{
	unsigned self = this_cpu()->id;
	if (sched_kick_idle_of(allowed))
		return;
	if (se_is_rt(woken))
		return; /* the tick's rq_should_preempt sees it */
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		struct runqueue *o = &sched_rqs[i];
		struct sched_entity *cur = o->curr_se;
		if (i != self && (allowed & (1u << i)) && o->online && cur && !se_is_rt(cur) &&
		    !__atomic_load_n(&cpu_get(i)->need_resched, __ATOMIC_ACQUIRE) &&
		    sched_wakeup_preempts(cur, woken, 0)) {
			sched_kick(i);
			return;
		}
	}
}

/* A thread was woken: the running one gives way as Linux's wakeup
 * preemption says (a sleeper that fell behind runs at once, even before
 * the running one has run its minimum), or as the tick would. Without it
 * a woken thread waited up to SCHED_MIN_GRAN_NS behind a thread that had
 * just been picked: the Open POSIX suite's pthread_detach/4-3 saw a
 * signal sender run only after the thread it signalled had gone. */
static void sched_wake_check(struct runqueue *rq, struct thread *t)
{
	struct sched_entity *cur = rq->curr_se;
	/* the entity t runs on: its caller's when it serves a call (its own
	 * is not queued then, and never preempted anything: a server thread
	 * woken inside a weight-10000 client's call waited for the tick
	 * behind a weight-1 thread on two CPUs) */
	struct sched_entity *woken = &sched_sc_root(t)->se;
	/* the running entity's run since it was last accounted counts, not
	 * accounted here: a wake-up that does not preempt (a pipe's reader
	 * woken by its writer) costs no tree update */
	if (!sched_allowed(t, rq))
		; /* another CPU's (affinity) */
	else if (cur && this_cpu()->current != rq->idle && !se_is_rt(cur) && !se_is_rt(woken) &&
		 !rq_rt_first(rq) && sched_wakeup_preempts(cur, woken, clock_ns() - rq->clock_start))
		this_cpu()->need_resched = 1;
	else
		sched_need_resched_if(rq);
	if (sched_smp_enabled && !this_cpu()->need_resched)
		sched_wake_elsewhere(woken, t->cpus_allowed);
}

/* Threads found on a wait or timeout list while not blocked (a broken
 * invariant: see sched_wake_locked); sched_stray_waiters() reads it. */
static uint64_t stray_waiters;

uint64_t sched_stray_waiters(void)
{
	return __atomic_load_n(&stray_waiters, __ATOMIC_RELAXED);
}

/* Makes t runnable; caller holds sched_lock. A thread that is not blocked
 * has nothing to wake, but if it still sits on a wait or timeout list it
 * is taken off: every `while (!list_empty(q)) wake(first)` loop must end
 * (issue 16: such a thread made them spin forever). */
static void sched_wake_locked(struct thread *t, int result)
{
	struct runqueue *rq = this_rq();

	spin_assert_held(&sched_lock);
	if (sched_sc_released(t))
		return; /* only its reply or an abort (sched_interrupt) ends its call */
	if (t->state != THREAD_BLOCKED) {
		if (!list_empty(&t->wait_link) || !list_empty(&t->timer_link)) {
			if (__atomic_fetch_add(&stray_waiters, 1, __ATOMIC_RELAXED) == 0)
				printk("sched: thread %s (state %d) was on a wait list\n", t->name,
				       (int)t->state);
			list_del(&t->wait_link);
			sched_timeout_remove(t);
		}
		return;
	}
	if (t->ipc_lend_proc)
		sched_lend_stop_locked(t); /* it waits no more: its entity is its own again */
	t->wake_result = result;
	t->state = THREAD_RUNNABLE;
	t->woken_at = clock_ns();
	list_del(&t->wait_link);
	sched_timeout_remove(t);
	sched_queue_chain(t);
	sched_wake_check(rq, t);
}

static void sched_reap_dead(struct runqueue *rq)
{
	struct thread *dead = rq->dead;
	if (dead) {
		rq->dead = NULL;
		thread_reap(dead);
	}
}

static void sched_switch_to(struct runqueue *rq, struct thread *prev, struct thread *next)
{
	struct cpu *cpu = this_cpu();

	if (prev == next)
		return;
	fpu_save(&prev->fpu);
	fpu_restore(&next->fpu);
	cpu_set_kernel_stack(cpu, thread_stack_top(next));
	cpu->current = next;
	prev->on_cpu = -1; /* safe: sched_lock is held until prev is saved */
	cpu->stat.ctxt++;
	next->on_cpu = (int16_t)cpu->id;
	vm_switch_to(next->proc->as);
	ioport_switch_to(next->proc);
	if (prev->state == THREAD_DEAD)
		rq->dead = prev;
	switch_context(&prev->ksp, next->ksp);
	/* Back on prev's stack, possibly much later. */
	sched_reap_dead(this_rq());
}

/* The heart: sched_lock is held with interrupts off. */
static void schedule_locked(void)
{
	struct runqueue *rq = this_rq();
	struct thread *prev = this_cpu()->current;

	spin_assert_held(&sched_lock);
	uint64_t now = clock_ns();

	sched_update_curr(rq, now);
	/* A group just throttled: calls served on its contexts for a server
	 * others wait for go on without them (sched_donors_release). */
	if (sched_donors_recheck) {
		sched_donors_recheck = false;
		sched_donors_release(NULL);
	}
	/* The entity that ran leaves the queue if what it runs can't go on. */
	struct sched_entity *cur = rq->curr_se;
	if (cur && cur->on_rq && sched_sc_leaf(se_thread(cur))->state != THREAD_RUNNABLE)
		rq_dequeue(cur);
	/* A thread that goes on (preempted, yielding) keeps the entity of
	 * its own chain queued: it may have run on a waiter's lent entity,
	 * which the waiter takes back when it stops waiting, and nothing
	 * would pick it then (a devfs thread holding its lock was lost so
	 * under the fuzzer, and every client of devfs hung behind it). */
	if (prev != rq->idle && prev->state == THREAD_RUNNABLE) {
		struct thread *root = sched_sc_root(prev);
		if (!root->se.on_rq)
			rq_enqueue(&root->se);
	}
	/* So does the thread's own entity when it ran on another's (a server
	 * on its caller's context whose own entity came back when the call
	 * was aborted, sched_ipc_abort_locked) and now blocks or dies: left
	 * queued, it would be picked while blocked (running with its
	 * wait_link still on a list) or after it was freed (a switch to a
	 * saved stack pointer of 0). Issue 16, findings 2 and 6. */
	if (prev != rq->idle && &prev->se != cur && prev->se.on_rq &&
	    sched_sc_leaf(prev)->state != THREAD_RUNNABLE)
		rq_dequeue(&prev->se);
	/* And the entity of the chain prev ends, when that is not the one
	 * that ran: a server whose context was released (sched_sc_release)
	 * heads its chain on its own entity, queued while the chain's end
	 * (prev) was still runnable, on its way to a futex. */
	struct thread *proot = prev != rq->idle ? sched_sc_root(prev) : prev;
	if (proot != prev && &proot->se != cur && proot->se.on_rq &&
	    sched_sc_leaf(proot)->state != THREAD_RUNNABLE)
		rq_dequeue(&proot->se);
	/* And the entities of the waiters lending theirs to prev's chain
	 * (sched_lend_*): what they would run cannot go on either. */
	if (prev != rq->idle && sched_sc_leaf(prev)->state != THREAD_RUNNABLE)
		sched_lenders_sync(prev, false, 0);
	struct sched_entity *se = rq_pick(rq, cur, now);
	/* Entities whose thread runs on another CPU (one thread reached from
	 * two entities: lending, or a server's own and its caller's) or may
	 * not run on this one (affinity): each stays counted running until
	 * this pick is done, so that the next pick differs, then goes back.
	 * Past SCHED_SKIP_MAX of them this CPU idles until its next tick. */
	struct sched_entity *skipped[SCHED_SKIP_MAX];
	unsigned nskip = 0;
	/* Never run a thread that is not runnable: an entity queued against
	 * that rule (a path that bypasses the checks above, such as a
	 * hand-off's fast switch) leaves the queue here, counted as stray
	 * unless lending is involved (one thread reached from two entities:
	 * the one that did not run it is left for here). */
	for (;;) {
		bool lent = false;
		if (!se)
			break;
		struct thread *leaf = sched_sc_leaf_lent(se_thread(se), &lent);
		if (leaf->state == THREAD_RUNNABLE) {
			if ((leaf->on_cpu < 0 || leaf->on_cpu == (int)rq->cpu) && sched_allowed(leaf, rq))
				break;
			if (se_is_rt(se) || nskip == SCHED_SKIP_MAX) {
				/* this CPU idles; a tick looks again. The fair pick
				 * counted se running: it goes back with the skipped
				 * ones, or its chain stays busy and no CPU ever picks
				 * it again (17 threads pinned to CPU 0: CPU 1 left one
				 * for good at each look) */
				if (!se_is_rt(se))
					sched_put_prev(se);
				se = NULL;
				break;
			}
			skipped[nskip++] = se;
			se = rq_pick(rq, NULL, now);
			continue;
		}
		struct thread *stale = lent ? sched_lend_stale(se_thread(se)) : NULL;
		if (stale) { /* lent to a call that ended: to another one, if any */
			sched_lend_end_locked(stale);
			if (!se->on_rq) { /* it lends to nobody now, and left */
				se = rq_pick(rq, NULL, now);
				continue;
			}
			if (sched_sc_leaf(se_thread(se))->state == THREAD_RUNNABLE)
				continue; /* (its leaf may run elsewhere) */
		}
		if (!lent && __atomic_fetch_add(&stray_waiters, 1, __ATOMIC_RELAXED) == 0)
			printk("sched: %s was queued while not runnable\n", se_thread(se)->name);
		rq_dequeue(se);
		se = rq_pick(rq, NULL, now);
	}
	if (nskip)
		sched_kick_idle(); /* what this CPU passed over, another may take */
	while (nskip)
		sched_put_prev(skipped[--nskip]);
	sched_psi_switch(rq->curr_se, se, rq->cpu);
	bool rearm = se != rq->curr_se && sched_bw_limited();
	if (se != rq->curr_se) {
		if (rq->curr_se)
			se_thread(rq->curr_se)->se_cpu = -1;
		if (se)
			se_thread(se)->se_cpu = (int16_t)rq->cpu;
	}
	rq->curr_se = se;
	if (rearm) /* another entity's quota may run out first */
		sched_rearm(rq);
	struct cpu *cpu = this_cpu();
	cpu->need_resched = 0;
	softlockup_touch(cpu, now);
	struct thread *next = se ? sched_sc_leaf(se_thread(se)) : rq->idle;
	if (unlikely(sched_latency_warn_ns))
		sched_latency_switch(next, now);
	sched_switch_to(rq, prev, next);
}

void schedule(void)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	schedule_locked();
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_cond_resched(void)
{
	struct cpu *cpu = this_cpu();
	if (cpu->need_resched && cpu->preempt_count == 0)
		schedule();
}

void sched_yield(void)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	struct runqueue *rq = this_rq();
	sched_update_curr(rq, clock_ns());
	if (rq->curr_se && se_is_rt(rq->curr_se))
		sched_rt_requeue_tail(se_thread(rq->curr_se)); /* behind its equals */
	else if (rq->curr_se)
		sched_yield_entity(rq->curr_se);
	schedule_locked();
	spin_unlock_irqrestore(&sched_lock, f);
}

/* First thing a new thread runs (from thread_trampoline): finish the
 * switch that brought us here, which happened with sched_lock held. */
void sched_switch_finish(void)
{
	sched_reap_dead(this_rq());
	spin_unlock(&sched_lock);
	cpu_sti();
}

static void sched_expire_timeouts(uint64_t now)
{
	while (!list_empty(&sched_timeouts)) {
		struct thread *t = list_first_entry(&sched_timeouts, struct thread, timer_link);
		if (t->wake_deadline > now)
			break;
		sched_wake_locked(t, -ETIMEDOUT);
	}
}

static void sched_sample_cputime(struct thread *t, bool user_mode)
{
	if (user_mode)
		t->utime_ticks++;
	else
		t->stime_ticks++;
	bool niced = user_mode && t->nice > 0;
	for (struct sched_queue *q = t->se.parent; q; q = q->owner ? q->owner->parent : NULL) {
		struct sched_group *g = sched_group_of_queue(q);
		if (user_mode)
			g->user_ticks++;
		else
			g->system_ticks++;
		g->nice_ticks += niced;
	}
}

/* What the tick samples this CPU's busy time as (/proc/stat's user,
 * nice or system, as Linux's tick), or CPUSTAT_IDLE. */
static enum cpustat_kind sched_cpu_sample(struct runqueue *rq, bool user_mode)
{
	if (this_cpu()->current == rq->idle || !rq->curr_se)
		return CPUSTAT_IDLE;
	return !user_mode ? CPUSTAT_SYSTEM : se_thread(rq->curr_se)->nice > 0 ? CPUSTAT_NICE : CPUSTAT_USER;
}

bool sched_idle_running(void)
{
	return this_cpu()->current == this_rq()->idle;
}

void sched_tick(bool user_mode)
{
	struct runqueue *rq = this_rq();
	uint64_t now = clock_ns();

	spin_lock(&sched_lock);
	sched_update_curr(rq, now);
	struct thread *cur = this_cpu()->current;
	if (cur != rq->idle && rq->curr_se)
		sched_sample_cputime(se_thread(rq->curr_se), user_mode);
	cpustat_tick(&this_cpu()->stat, sched_cpu_sample(rq, user_mode));
	if (cur != rq->idle)
		itimer_cpu_tick(cur, user_mode);
	sched_expire_timeouts(now);
	if (rq->cpu == 0) { /* the whole system's: once per tick */
		sched_bw_tick(now); /* new periods: throttled groups come back */
		sched_psi_trigger_tick(now);
		sched_rt_tick(now); /* a new throttle period: rq_should_preempt sees it */
	}
	if (this_cpu()->current == rq->idle ? rq_has_work(rq) :
	    rq->curr_se && rq_should_preempt(rq, rq->curr_se, now))
		this_cpu()->need_resched = 1;
	if (rq->cpu == 0)
		sched_kick_idle(); /* groups back from a throttle, say */
	sched_rearm(rq);
	spin_unlock(&sched_lock);
}

static bool sched_se_throttled(const struct sched_entity *se);

void sched_timer_event(bool user_mode)
{
	struct runqueue *rq = this_rq();
	uint64_t now = clock_ns();
	spin_lock(&sched_lock);
	struct sched_entity *se = this_cpu()->current != rq->idle ? rq->curr_se : NULL;
	bool was = se && sched_se_throttled(se);
	sched_update_curr(rq, now); /* a quota that ran out: throttled now */
	/* Linux notices a quota's end at a tick, which samples the mode the
	 * thread ran in; this event stands for that tick (else a 1 ms quota
	 * between ticks is never seen in user mode: user_usec 0 for a spinner,
	 * test_cpucg_max_nested's failure). */
	if (se && !was && sched_se_throttled(se))
		sched_sample_cputime(se_thread(se), user_mode);
	sched_expire_timeouts(now);
	sched_bw_tick(now);
	if (this_cpu()->current == rq->idle && rq_has_work(rq))
		this_cpu()->need_resched = 1;
	sched_kick_idle();
	sched_rearm(rq);
	spin_unlock(&sched_lock);
}

void sched_preempt_irq(void)
{
	struct cpu *cpu = this_cpu();
	if (cpu->need_resched && cpu->preempt_count == 0)
		schedule();
}

void sched_wake(struct thread *t, int result)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_wake_locked(t, result);
	spin_unlock_irqrestore(&sched_lock, f);
}

void waitq_init(struct waitq *wq)
{
	list_init(&wq->waiters);
}

/* Inlined into both callers: signals is a constant there, and the
 * call between them cost every pipe sleep (docs/abi.md's hot paths). */
static inline __attribute__((always_inline)) int waitq_wait_common(struct waitq *wq, struct spinlock *unlock,
								   uint64_t deadline, bool signals)
{
	struct thread *t = this_cpu()->current;
	uint64_t f = spin_lock_irqsave(&sched_lock);

	/* A signal's sender makes it pending, then takes sched_lock to wake
	 * the thread: one that came before this look is seen here, one after
	 * finds the thread blocked. */
	if (t->kill_pending || (signals && thread_has_work(t))) {
		if (unlock)
			spin_unlock(unlock);
		spin_unlock_irqrestore(&sched_lock, f);
		return -EINTR;
	}
	t->state = THREAD_BLOCKED;
	t->wake_result = 0;
	if (wq)
		list_add_tail(&t->wait_link, &wq->waiters);
	/* released only once the thread is on wq: a waker that changes the
	 * condition under unlock may then look at wq without sched_lock
	 * (waitq_has_waiters) */
	if (unlock)
		spin_unlock(unlock);
	if (deadline)
		sched_timeout_add(t, deadline);
	schedule_locked();
	spin_unlock_irqrestore(&sched_lock, f);
	return t->wake_result;
}

int waitq_wait(struct waitq *wq, struct spinlock *unlock, uint64_t deadline)
{
	return waitq_wait_common(wq, unlock, deadline, false);
}

int waitq_wait_signals(struct waitq *wq, struct spinlock *unlock, uint64_t deadline)
{
	return waitq_wait_common(wq, unlock, deadline, true);
}

int sched_sleep_until(uint64_t deadline)
{
	if (deadline <= clock_ns())
		return 0;
	int r = waitq_wait(NULL, NULL, deadline);
	return r == -ETIMEDOUT ? 0 : r;
}

int waitq_wake_one(struct waitq *wq, int result)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	int n = 0;
	if (!list_empty(&wq->waiters)) {
		sched_wake_locked(list_first_entry(&wq->waiters, struct thread, wait_link), result);
		n = 1;
	}
	spin_unlock_irqrestore(&sched_lock, f);
	return n;
}

int waitq_wake_all(struct waitq *wq, int result)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	int n = 0;
	while (!list_empty(&wq->waiters)) {
		sched_wake_locked(list_first_entry(&wq->waiters, struct thread, wait_link), result);
		n++;
	}
	spin_unlock_irqrestore(&sched_lock, f);
	return n;
}

void sched_set_dying(struct thread *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	if (!t->sched_dying && t->se.parent) {
		t->sched_dying = true;
		sched_bw_dying_locked(&t->se, 1);
		sched_resched_check();
	}
	spin_unlock_irqrestore(&sched_lock, f);
}

__noreturn void sched_exit_current(void)
{
	spin_lock_irqsave(&sched_lock);
	spin_preempt_dec(); /* proc_thread_exited's hold: interrupts are off now */
	if (this_cpu()->current->sched_dying)
		sched_bw_dying_locked(&this_cpu()->current->se, -1);
	this_cpu()->current->state = THREAD_DEAD;
	sched_pi_owner_exit_locked(this_cpu()->current);
	sched_pi_unlink_locked(this_cpu()->current);
	schedule_locked();
	panic("sched: a dead thread was scheduled again");
}

__noreturn void sched_idle_loop(void)
{
	for (;;) {
		if (this_cpu()->stock.cached)
			mem_drain_idle(); /* an idle CPU pins no cgroup's charge */
		cpu_cli();
		if (this_cpu()->need_resched) {
			cpu_sti();
			schedule();
			continue;
		}
		__asm__ volatile("sti; hlt" ::: "memory"); /* no wake-up lost in between */
	}
}

void sched_group_init(struct sched_group *g, struct sched_group *parent, struct sched_psi *psi)
{
	g->weight = sched_weight_from_cpu_weight(100);
	g->bw.quota = SCHED_QUOTA_MAX;
	g->bw.period = SCHED_PERIOD_DEFAULT_NS;
	list_init(&g->bw.link);
	list_init(&g->children);
	list_init(&g->sibling);
	g->psi = psi;
	sched_queue_init(&g->rq, parent ? &g->se : NULL);
	if (!parent) {
		sched_root = g;
		return;
	}
	sched_entity_init(&g->se, &parent->rq, &g->rq, g->weight);
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_bw_link_locked(g, parent);
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_group_offline(struct sched_group *g)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_bw_unlink_locked(g);
	spin_unlock_irqrestore(&sched_lock, f);
}

int sched_group_set_weight(struct sched_group *g, uint32_t weight)
{
	if (g == sched_root)
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&sched_lock);
	int err = g->idle ? -EINVAL : 0; /* an idle group's weight is fixed */
	if (!err) {
		g->weight = MAX(weight, 1u);
		sched_set_weight(&g->se, g->weight);
	}
	spin_unlock_irqrestore(&sched_lock, f);
	return err;
}

uint32_t sched_group_weight(const struct sched_group *g)
{
	return __atomic_load_n(&g->weight, __ATOMIC_RELAXED);
}

bool sched_group_idle(const struct sched_group *g)
{
	return __atomic_load_n(&g->idle, __ATOMIC_RELAXED);
}

int sched_group_set_idle(struct sched_group *g, bool idle)
{
	if (g == sched_root)
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&sched_lock);
	if (g->idle && !idle) /* as Linux: leaving idle is weight 100, not the old one */
		g->weight = sched_weight_from_cpu_weight(100);
	g->idle = idle;
	sched_set_weight(&g->se, idle ? SCHED_IDLE_WEIGHT : g->weight);
	spin_unlock_irqrestore(&sched_lock, f);
	return 0;
}

void sched_set_nice(struct thread *t, int nice)
{
	nice = MAX(SCHED_NICE_MIN, MIN(SCHED_NICE_MAX, nice));
	uint64_t f = spin_lock_irqsave(&sched_lock);
	t->nice = nice;
	if (t->policy != K_SCHED_IDLE) /* SCHED_IDLE's weight is fixed; nice kept for later */
		sched_set_weight(&t->se, sched_weight_from_nice(nice));
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_move_thread(struct thread *t, struct cgroup *to)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	struct runqueue *rq = this_rq();
	if (t == this_cpu()->current)
		sched_update_curr(rq, clock_ns());
	/* its path changes: pressure follows (another CPU's entity is
	 * accounted there, its pending run to the new path) */
	int cpu = t->se_cpu;
	bool running = cpu >= 0;
	if (running)
		sched_psi_switch(&t->se, NULL, (unsigned)cpu);
	if (t->memstall)
		sched_psi_memstall_locked(&t->se, -1);
	if (t->iowait)
		sched_psi_iowait_locked(&t->se, -1);
	if (t->sched_dying)
		sched_bw_dying_locked(&t->se, -1);
	if (t->rt_on) { /* not in the fair tree: only its groups change */
		sched_psi_queued(&t->se, -1);
		t->se.parent = &to->sched.rq;
		t->se.vruntime = to->sched.rq.min_vruntime;
		sched_psi_queued(&t->se, 1);
	} else {
		sched_move(&t->se, &to->sched.rq);
	}
	if (t->memstall)
		sched_psi_memstall_locked(&t->se, 1);
	if (t->iowait)
		sched_psi_iowait_locked(&t->se, 1);
	if (t->sched_dying)
		sched_bw_dying_locked(&t->se, 1);
	if (running && !t->rt_on && !sched_entity_running(&t->se)) {
		sched_kick((unsigned)cpu); /* moved under a throttled group */
		running = false;
	}
	if (running)
		sched_psi_switch(NULL, &t->se, (unsigned)cpu);
	t->cgroup = to;
	spin_unlock_irqrestore(&sched_lock, f);
}

uint64_t sched_group_usage_ns(const struct sched_group *g)
{
	if (g != sched_root)
		return g->se.sum_exec;
	/* The root has no entity: sum its children and its own threads. */
	uint64_t f = spin_lock_irqsave(&sched_lock);
	uint64_t total = root_usage_ns;
	spin_unlock_irqrestore(&sched_lock, f);
	return total;
}

/* c must be below 2^63 (it is a count of ticks or ns, never near that). */
uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t q = 0, r = 0;
	for (int i = 127; i >= 0; i--) { /* long division, no libgcc */
		r = (r << 1) | (uint64_t)((p >> i) & 1);
		if (r >= c) {
			r -= c;
			if (i < 64)
				q |= 1ull << i;
		}
	}
	return q;
}

void sched_group_cputime(const struct sched_group *g, uint64_t *user_ns, uint64_t *sys_ns)
{
	uint64_t total = sched_group_usage_ns(g);
	uint64_t ticks = g->user_ticks + g->system_ticks;
	/* no tick saw it (runs shorter than a tick, such as a 1 ms cpu.max
	 * quota that now ends at its moment): all user, as Linux's
	 * cputime_adjust gives a task whose stime sample is 0 */
	*user_ns = ticks ? mul_div_u64(total, g->user_ticks, ticks) : total;
	*sys_ns = total - *user_ns;
}

uint64_t sched_group_nice_ns(const struct sched_group *g)
{
	uint64_t ticks = g->user_ticks + g->system_ticks;
	return ticks ? mul_div_u64(sched_group_usage_ns(g), g->nice_ticks, ticks) : 0;
}

/* --- IPC hand-offs (see kernel/ipc/ipc.c). All take sched_lock held. */


/* The current thread blocks on list (NULL: none) until woken or until
 * deadline (clock_ns, 0 = none): then the result is -ETIMEDOUT. */
int sched_block_locked(struct list_head *list, uint64_t deadline)
{
	spin_assert_held(&sched_lock);
	struct thread *t = this_cpu()->current;
	if (t->kill_pending)
		return -EINTR; /* a kill that came while we were runnable */
	t->state = THREAD_BLOCKED;
	t->wake_result = 0;
	if (list)
		list_add_tail(&t->wait_link, list);
	if (deadline)
		sched_timeout_add(t, deadline);
	schedule_locked();
	return t->wake_result;
}

/* Takes a blocked thread off whatever it waits on, without running it. */
static void sched_unblock(struct thread *t)
{
	list_del(&t->wait_link);
	sched_timeout_remove(t);
}

/* The current thread calls server (blocked in receive): it lends its
 * scheduling context and the server runs now, directly. Returns the
 * caller's wake result once the call is over. */
int sched_ipc_call_locked(struct thread *server)
{
	spin_assert_held(&sched_lock);
	struct runqueue *rq = this_rq();
	struct thread *caller = this_cpu()->current;

	sched_unblock(server);
	sched_link_donation(caller, server);
	caller->wake_result = 0;
	server->state = THREAD_RUNNABLE;
	if (this_cpu()->need_resched) {
		schedule_locked();
	} else {
		/* Fast path: the running entity stays the same; only the
		 * thread executing on it changes. */
		sched_switch_to(rq, caller, server);
	}
	return caller->wake_result;
}

/* A server picks up a caller that was queued (blocked) on the endpoint:
 * the caller now lends its context, and the server stops running on its
 * own. Returns when the server next runs (on some caller's context). */
void sched_ipc_take_caller_locked(struct thread *caller, struct thread *lender)
{
	spin_assert_held(&sched_lock);
	struct runqueue *rq = this_rq();
	struct thread *server = this_cpu()->current;

	sched_unblock(caller);
	if (caller->ipc_lend_proc)
		sched_lend_stop_locked(caller); /* it waits no more */
	sched_link_donation(caller, server);
	if (server->ipc_lender) /* waiting behind the call that ended: elsewhere now */
		sched_lend_end_locked(server);
	/* A more entitled caller queued while no call qualified, lending to
	 * nobody: it pushes this one (sched_lend_*). */
	if (lender && !server->ipc_lender && !lender->ipc_lend_to && lender->ipc_lend_proc) {
		sched_lend_link(lender, server, lender->ipc_lend_proc);
		struct thread *root = sched_sc_root(lender);
		if (!root->se.on_rq)
			rq_enqueue(&root->se);
	}
	sched_update_curr(rq, clock_ns());
	sched_queue_chain(caller);
	/* The server's own entity now rests: it ran on it, or it was queued
	 * again when a previous caller's call was aborted while the server
	 * ran on that caller's context (sched_ipc_abort_locked). */
	if (server->se.on_rq)
		rq_dequeue(&server->se);
	schedule_locked();
}

/* The current (server) thread replies to caller: the caller becomes
 * runnable with result. If wait_list is given the server blocks there
 * (reply-and-receive) and the caller runs at once on its own context;
 * otherwise the server goes on running on its own entity. */
void sched_ipc_reply_locked(struct thread *caller, int result, struct list_head *wait_list)
{
	spin_assert_held(&sched_lock);
	struct runqueue *rq = this_rq();
	struct thread *server = this_cpu()->current;
	bool on_callers_context = caller->state == THREAD_DONATING;

	caller->ipc_server = NULL;
	caller->wake_result = result;
	caller->state = THREAD_RUNNABLE;
	server->ipc_caller = NULL;
	if (wait_list) {
		server->state = THREAD_BLOCKED;
		/* As every block does: a caller handed to us later
		 * (sched_ipc_call_locked) sets no result, so what is read
		 * then must not be the last wake's (a sleep's -ETIMEDOUT
		 * made reply_recv fail while holding the new call). */
		server->wake_result = 0;
		list_add_tail(&server->wait_link, wait_list);
		if (!on_callers_context) /* released (sched_sc_release): its own entity */
			sched_queue_chain(caller);
		if (on_callers_context && !this_cpu()->need_resched &&
		    rq->curr_se == &sched_sc_root(caller)->se) {
			/* Fast path back. A waiter lending us its context (not
			 * queued here: no caller is) finds out when its entity
			 * is next picked (sched_lend_stale): no test here. */
			sched_switch_to(rq, server, caller);
			return;
		}
		/* A waiter lent us its context for the call that ended: it
		 * waits behind another (or nobody) now. */
		sched_lend_end_locked(this_cpu()->current);
		schedule_locked();
		return;
	}
	/* The server continues on its own entity. */
	if (!server->se.on_rq)
		rq_enqueue(&server->se);
	sched_queue_chain(caller);
	sched_lend_end_locked(this_cpu()->current); /* (the server: a reload, no register kept) */
	schedule_locked();
}

/* Ends an IPC relationship abnormally (a party died or was killed): the
 * caller returns with result. The server, which goes on running (to its
 * next call, or through its own exit and maybe its process's teardown),
 * gets its own entity back if it ran on the caller's context. */
void sched_ipc_abort_locked(struct thread *caller, int result)
{
	spin_assert_held(&sched_lock);
	struct thread *server = caller->ipc_server;
	if (server) {
		server->ipc_caller = NULL;
		sched_lend_end_locked(server);
		/* The server now heads its own chain: queued if what it runs
		 * can go on, be it the server itself or, when it is in a call
		 * of its own (DONATING: the VFS calling tmpfs), the end of that
		 * chain; else the wake-up of that end queues it (its root). A
		 * DONATING server left out used to never run again. */
		if (!server->se.on_rq && sched_sc_leaf(server)->state == THREAD_RUNNABLE)
			rq_enqueue(&server->se);
	}
	caller->ipc_server = NULL;
	caller->wake_result = result;
	if (caller->state == THREAD_DONATING) {
		caller->state = THREAD_RUNNABLE;
		sched_queue_chain(caller);
	} else if (caller->state == THREAD_BLOCKED) {
		caller->state = THREAD_RUNNABLE; /* wake it with the result */
		sched_unblock(caller);
		sched_lend_stop_locked(caller);
		if (!caller->se.on_rq)
			rq_enqueue(&caller->se);
	}
	/* the server goes on on its own entity: the CPU running it on the
	 * caller's switches (at once if this one) */
	if (caller->se_cpu >= 0 && caller->se_cpu != (int)this_cpu()->id)
		sched_kick((unsigned)caller->se_cpu);
	sched_need_resched_if(this_rq());
}

/* True if se's cgroup or an ancestor is throttled (cpu.max). */
static bool sched_se_throttled(const struct sched_entity *se)
{
	for (const struct sched_entity *e = se->parent->owner; e; e = e->parent->owner)
		if (e->throttled)
			return true;
	return false;
}

/* --- Lending: a waiter's context pushes the thread it waits behind.
 *
 * A thread W that must wait for a process P (its call queues on P's
 * endpoint with every server thread busy, or a thread of P itself waits on
 * a futex of P: a server's lock) lends the context its work runs on to a
 * thread T of P serving a call on a context less entitled than W's: W's
 * entity stays queued, and when it is picked T runs on it (sched_sc_leaf),
 * its time charged to W's cgroup (W waits anyway: it spends its own share,
 * nobody else's). The lending ends when T's call ends, and T then takes W
 * next if W is queued on the endpoint T serves (ipc_wait_call_locked): W
 * waits at most for the call T was serving, at W's own priority, never for
 * the share of the context that call came with. Docs: scheduler.md. */

static unsigned sched_se_depth(const struct sched_entity *e)
{
	unsigned d = 0;
	while (e->parent && e->parent->owner) {
		e = e->parent->owner;
		d++;
	}
	return d;
}

/* True if the context a would be served before the context b, as the
 * fair scheduler splits time: an unthrottled one before a throttled one,
 * else the one whose branch has the larger weight where the two paths part
 * (at their first common queue); the same branch is not before itself. */
static bool sched_se_before(const struct sched_entity *a, const struct sched_entity *b)
{
	/* the real-time class first, by priority (a futex wakes its
	 * highest-priority waiter first, as Linux's priority-sorted queue) */
	int pa = a->my_q ? 0 : se_thread((struct sched_entity *)a)->rt_eff;
	int pb = b->my_q ? 0 : se_thread((struct sched_entity *)b)->rt_eff;
	if (pa != pb)
		return pa > pb;
	bool ta = a->parent && sched_se_throttled(a), tb = b->parent && sched_se_throttled(b);
	if (ta != tb)
		return tb;
	unsigned da = sched_se_depth(a), db = sched_se_depth(b);
	for (; da > db; da--)
		a = a->parent->owner;
	for (; db > da; db--)
		b = b->parent->owner;
	while (a->parent != b->parent) {
		a = a->parent->owner;
		b = b->parent->owner;
	}
	return a != b && a->weight > b->weight;
}

/* The most entitled context t's work runs on: its chain's (sched_sc_root)
 * or that of a waiter lending to the chain (depth: recursion guard). */
static const struct sched_entity *sched_lend_ctx(struct thread *t, int depth)
{
	const struct sched_entity *best = &sched_sc_root(t)->se;
	for (int i = 0; t && i < SCHED_CHAIN_MAX; i++) {
		if (t->ipc_lender && depth < 4) {
			const struct sched_entity *l = sched_lend_ctx(t->ipc_lender, depth + 1);
			if (sched_se_before(l, best))
				best = l;
		}
		struct thread *c = t->ipc_caller;
		if (!c || c->state != THREAD_DONATING || c->ipc_server != t)
			break;
		t = c;
	}
	return best;
}

bool sched_ctx_before_locked(struct thread *a, struct thread *b)
{
	return sched_se_before(sched_lend_ctx(a, 0), sched_lend_ctx(b, 0));
}

/* t's chain ends in a runnable thread without passing w (no cycle). */
static bool sched_lend_target_ok(struct thread *t, const struct thread *w)
{
	for (int i = 0; i < SCHED_CHAIN_MAX; i++) {
		if (t == w)
			return false;
		if (t->state == THREAD_DONATING && t->ipc_server)
			t = t->ipc_server;
		else if (t->state == THREAD_BLOCKED && t->ipc_lend_to)
			t = t->ipc_lend_to;
		else
			return t->state == THREAD_RUNNABLE;
	}
	return false;
}

/* A thread of p for w to lend to: serving a call, its chain runnable, on
 * a context less entitled than w's (its own lender's included, so a more
 * entitled w displaces a lender). One without a lender is preferred.
 * O(p->serving), which it prunes of threads whose call ended, as
 * sched_donors_release_proc does. */
static struct thread *sched_lend_find(struct thread *w, struct proc *p)
{
	const struct sched_entity *ew = sched_lend_ctx(w, 0);
	struct thread *displace = NULL;
	struct list_head *pos, *next;
	list_for_each_safe(pos, next, &p->serving) {
		struct thread *t = list_entry(pos, struct thread, serving_link);
		if (!t->ipc_caller) {
			list_del(&t->serving_link);
			continue;
		}
		if (t == w || !sched_lend_target_ok(t, w) || !sched_se_before(ew, sched_lend_ctx(t, 0)))
			continue;
		if (!t->ipc_lender)
			return t;
		if (!displace)
			displace = t;
	}
	return displace;
}

/* w lends to nobody any more (the pointers only). */
static void sched_lend_unlink(struct thread *w)
{
	if (w->ipc_lend_to) {
		w->ipc_lend_to->ipc_lender = NULL;
		w->ipc_lend_to = NULL;
	}
}

/* w stops waiting (woken, or taken by a server): its entity is its own. */
void sched_lend_stop_locked(struct thread *w)
{
	spin_assert_held(&sched_lock);
	struct thread *t = w->ipc_lend_to;
	sched_lend_unlink(w);
	w->ipc_lend_proc = NULL;
	/* t may have run on w's entity alone (preempted there, its own
	 * chain's entity out of the queue): that entity must be queued now,
	 * or t, runnable, is never picked again (a devfs thread holding its
	 * lock was left so under the fuzzer, and every client of devfs hung) */
	if (t && sched_sc_leaf(t)->state == THREAD_RUNNABLE)
		sched_queue_chain(t);
}

/* w still waits but lends to nobody: the entity of its chain has nothing
 * to run and leaves the queue (now, or at the next switch if it runs). */
static void sched_lend_drop_entity(struct thread *w)
{
	struct thread *root = sched_sc_root(w);
	if (!root->se.on_rq || sched_sc_leaf(root)->state == THREAD_RUNNABLE)
		return;
	if (root->se_cpu >= 0)
		sched_kick((unsigned)root->se_cpu); /* it leaves when that CPU switches */
	else
		rq_dequeue(&root->se);
}

/* w (waiting for p) lends to t; a less entitled lender of t goes without. */
static void sched_lend_link(struct thread *w, struct thread *t, struct proc *p)
{
	struct thread *old = t->ipc_lender;
	if (old) {
		sched_lend_unlink(old);
		sched_lend_drop_entity(old);
	}
	w->ipc_lend_to = t;
	t->ipc_lender = w;
	w->ipc_lend_proc = p;
}

void sched_lend_wait_locked(struct proc *p)
{
	spin_assert_held(&sched_lock);
	struct thread *w = this_cpu()->current;
	sched_lend_unlink(w);
	w->ipc_lend_proc = p;
	struct thread *t = sched_lend_find(w, p);
	if (t)
		sched_lend_link(w, t, p);
}

void sched_lend_end_locked(struct thread *s)
{
	spin_assert_held(&sched_lock);
	struct thread *w = s->ipc_lender;
	if (!w)
		return;
	sched_lend_unlink(w);
	/* s may have run on w's entity alone (preempted there): its own
	 * chain's entity goes back in the queue, or s, runnable, is never
	 * picked again (a devfs thread holding its lock was left so under
	 * the fuzzer, once the call it served was gone: every client of
	 * devfs hung behind the lock) */
	if (sched_sc_leaf(s)->state == THREAD_RUNNABLE)
		sched_queue_chain(s);
	struct thread *t = w->ipc_lend_proc ? sched_lend_find(w, w->ipc_lend_proc) : NULL;
	if (!t) {
		sched_lend_drop_entity(w);
		return;
	}
	sched_lend_link(w, t, w->ipc_lend_proc);
	struct thread *root = sched_sc_root(w);
	if (!root->se.on_rq)
		rq_enqueue(&root->se);
	sched_need_resched_if(this_rq());
}

/* The entities of the waiters lending to t's chain (and to theirs, a few
 * levels): queued if what they run can go on (queue), else taken out of
 * the queue unless running (schedule_locked handles that one). */
static void sched_lenders_sync(struct thread *t, bool queue, int depth)
{
	if (depth > 3)
		return;
	for (int i = 0; t && i < SCHED_CHAIN_MAX; i++) {
		struct thread *w = t->ipc_lender;
		if (w) {
			struct thread *r = sched_sc_root(w);
			bool runs = sched_sc_leaf(r)->state == THREAD_RUNNABLE;
			if (queue && runs && !r->se.on_rq)
				rq_enqueue(&r->se);
			else if (!queue && !runs && r->se.on_rq && r->se_cpu < 0)
				rq_dequeue(&r->se);
			sched_lenders_sync(w, queue, depth + 1);
		}
		struct thread *c = t->ipc_caller;
		if (!c || c->state != THREAD_DONATING || c->ipc_server != t)
			break;
		t = c;
	}
}

/* The call root makes (the head of its chain, DONATING) goes on without
 * root's context: the server heads its own chain on its own entity, as
 * when the call is aborted, but root still waits for the reply, on no
 * list (sched_sc_released), and the reply queues it again. The rest of
 * the request's time is the server's: at most one request per throttle. */
static void sched_sc_release(struct thread *root)
{
	struct thread *server = root->ipc_server;
	root->state = THREAD_BLOCKED;
	list_init(&root->wait_link);
	/* The entity that runs now leaves in schedule_locked (its leaf is
	 * not runnable any more); any other leaves here. */
	if (root->se.on_rq && root->se_cpu < 0)
		rq_dequeue(&root->se);
	else if (root->se_cpu >= 0)
		sched_kick((unsigned)root->se_cpu);
	if (!server->se.on_rq && sched_sc_leaf(server)->state == THREAD_RUNNABLE)
		rq_enqueue(&server->se);
	sched_need_resched_if(this_rq());
}

/* Releases every throttled context a call served by a thread of p runs
 * on: O(p's threads serving a call now, each standing for a caller that
 * waits, plus those whose call ended since the last walk: at most one per
 * call served), never every thread of p. */
static void sched_donors_release_proc(struct proc *p)
{
	struct list_head *pos, *next;
	list_for_each_safe(pos, next, &p->serving) {
		struct thread *t = list_entry(pos, struct thread, serving_link);
		if (!t->ipc_caller) {
			list_del(&t->serving_link); /* its call ended since */
			continue;
		}
		struct thread *root = sched_sc_root(t);
		if (root != t && root->state == THREAD_DONATING && sched_se_throttled(&root->se))
			sched_sc_release(root);
	}
}

/* p NULL: for every process waited for (a group was just throttled). */
static void sched_donors_release(struct proc *p)
{
	if (p) {
		sched_donors_release_proc(p);
		return;
	}
	struct list_head *pos;
	list_for_each(pos, &sched_waited)
		sched_donors_release_proc(list_entry(pos, struct proc, waited_link));
}

void sched_donors_waiting_locked(struct proc *p, int delta)
{
	spin_assert_held(&sched_lock);
	if (delta > 0 && p->sc_waiters++ == 0)
		list_add(&p->waited_link, &sched_waited);
	else if (delta < 0 && --p->sc_waiters == 0)
		list_del(&p->waited_link);
	if (delta >= 0) {
		sched_donors_release(p);
		/* A caller queuing lends its context; a futex waiter only when
		 * it serves a call (a lock held in a call): an idle thread of a
		 * pool waiting for work must not push others' calls on its
		 * process's time for as long as it waits. */
		if (delta == 0 || this_cpu()->current->ipc_caller)
			sched_lend_wait_locked(p);
	} else {
		sched_lend_stop_locked(this_cpu()->current); /* the futex wait is over */
	}
}

void sched_donors_waiting(struct proc *p, int delta)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_donors_waiting_locked(p, delta);
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_donors_throttled_locked(void)
{
	spin_assert_held(&sched_lock);
	sched_donors_recheck = true;
}

/* The current (server) thread defers caller's call (ipc_defer): the
 * caller stays blocked, on no list, until a reply or an interruption wakes
 * it; it lends its context no more, and the server goes on on its own
 * entity. */
void sched_ipc_defer_locked(struct thread *caller)
{
	spin_assert_held(&sched_lock);
	struct thread *server = this_cpu()->current;
	caller->ipc_server = NULL;
	server->ipc_caller = NULL;
	sched_lend_end_locked(server);
	caller->state = THREAD_BLOCKED;
	caller->wake_result = 0;
	list_init(&caller->wait_link);
	/* A signal held back while the call was served (a whole call,
	 * sched_interrupt_handled) cuts it now that it is a wait. */
	if (caller->ipc_sig_held)
		sched_wake_locked(caller, -EINTR);
	if (!server->se.on_rq)
		rq_enqueue(&server->se);
	/* The entity we ran on (the caller's chain) leaves the queue now:
	 * nothing of it can run until the reply. */
	schedule_locked();
}

void sched_wake_ipc_locked(struct thread *t, int result)
{
	spin_assert_held(&sched_lock);
	sched_wake_locked(t, result);
}

/* A caller whose call is answered while the server moves on to another:
 * the caller becomes runnable on its own context, nobody switches yet. */
void sched_ipc_release_caller_locked(struct thread *caller, int result)
{
	spin_assert_held(&sched_lock);
	struct thread *server = caller->ipc_server;
	if (server)
		server->ipc_caller = NULL;
	caller->ipc_server = NULL;
	caller->wake_result = result;
	caller->state = THREAD_RUNNABLE;
	sched_queue_chain(caller);
}

bool sched_kick_blocked(struct thread *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	/* A released caller is in a call being served: as for DONATING, the
	 * call completes and the thread parks on its way out. */
	bool blocked = t->state == THREAD_BLOCKED && !sched_sc_released(t);
	if (blocked) {
		t->freeze_kicked = true;
		sched_wake_locked(t, -EINTR);
	}
	/* Woken, or waiting for the CPU: it stops on its way back to user
	 * mode, so let it get there now if it is behind: its mover otherwise
	 * runs on, up to a whole slice, with "frozen" not yet true
	 * (test_cgfreezer_migrate reads it at once). */
	if (t->state == THREAD_RUNNABLE && t != this_cpu()->current)
		sched_need_resched_kick(this_rq());
	spin_unlock_irqrestore(&sched_lock, f);
	return blocked;
}

void sched_interrupt_wait(struct thread *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_wake_locked(t, -EINTR);
	spin_unlock_irqrestore(&sched_lock, f);
}

/* A signal or a kill for t: a blocked thread wakes with -EINTR; a thread in
 * an IPC call stops waiting for the server (which goes on, on its own
 * entity, and later finds nobody to reply to). */
static void sched_interrupt_locked(struct thread *t)
{
	spin_assert_held(&sched_lock);
	if (t->state == THREAD_DONATING || sched_sc_released(t)) {
		t->sig_call_taken = true;
		sched_ipc_abort_locked(t, -EINTR);
	} else
		sched_wake_locked(t, -EINTR);
	/* running on another CPU: it looks at its signals on its way back to
	 * user mode, which the reschedule IPI makes it take now */
	if (t->on_cpu >= 0 && t->on_cpu != (int)this_cpu()->id)
		sched_kick((unsigned)t->on_cpu);
}

void sched_interrupt(struct thread *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_interrupt_locked(t);
	spin_unlock_irqrestore(&sched_lock, f);
}

void sched_interrupt_handled(struct thread *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	/* ipc_ep: queued on the endpoint; ipc_reply: deferred, cut */
	bool in_call = t->state == THREAD_DONATING || sched_sc_released(t) ||
		       (t->state == THREAD_BLOCKED && t->ipc_ep);
	if (!(t->ipc_whole && in_call && !t->ipc_reply))
		sched_interrupt_locked(t);
	else
		t->ipc_sig_held = true; /* if the server defers it: cut then */
	spin_unlock_irqrestore(&sched_lock, f);
}

/* Real-time policy changes and priority inheritance (rt.c holds the
 * queue; the moves between classes are here, next to the switching). */

#define SCHED_PI_DEPTH 16	/* a guard: chains of owners are short */

static void sched_rt_reprio_depth(struct thread *t, int depth)
{
	struct runqueue *rq = this_rq();
	int prio = sched_rt_target_prio(t);
	if (prio == t->rt_eff)
		return;
	bool queued = t->se.on_rq, running = t->se_cpu >= 0;
	if (rq->curr_se == &t->se)
		sched_update_curr(rq, clock_ns()); /* in the class it ran in */
	if (queued)
		rq_dequeue(&t->se);
	bool lowered = prio < t->rt_eff;
	t->rt_eff = (uint8_t)prio;
	t->rr_used = 0;
	if (queued) {
		if (prio)
			sched_rt_enqueue(t, lowered); /* sched(7): lowered, at the head */
		else
			sched_enqueue(&t->se);
		if (running && !prio)
			sched_put_prev(&t->se); /* (not on the fair chain: harmless) */
		if (running)
			sched_kick((unsigned)t->se_cpu); /* schedule_locked picks again */
		else
			this_cpu()->need_resched = 1;
	}
	if (t->pi_owner && depth < SCHED_PI_DEPTH)
		sched_rt_reprio_depth(t->pi_owner, depth + 1);
}

void sched_rt_reprio_locked(struct thread *t)
{
	spin_assert_held(&sched_lock);
	sched_rt_reprio_depth(t, 0);
}

void sched_setscheduler_locked(struct thread *t, int policy, int prio, bool reset_on_fork)
{
	spin_assert_held(&sched_lock);
	bool was_idle = t->policy == K_SCHED_IDLE;
	t->policy = (uint8_t)policy;
	t->reset_on_fork = reset_on_fork;
	bool rt = policy == K_SCHED_FIFO || policy == K_SCHED_RR;
	if (rt && (int)t->rt_prio == prio && (int)t->rt_eff == prio)
		return; /* the same priority: its place in its list is kept */
	t->rt_prio = rt ? (uint8_t)prio : 0;
	if (policy == K_SCHED_IDLE)
		sched_set_weight(&t->se, SCHED_IDLE_WEIGHT);
	else if (was_idle)
		sched_set_weight(&t->se, sched_weight_from_nice(t->nice));
	sched_rt_reprio_locked(t); /* nothing if its effective priority stays */
}

void sched_pi_link_locked(struct thread *waiter, struct thread *owner)
{
	spin_assert_held(&sched_lock);
	if (waiter->pi_owner || owner == waiter || owner->state == THREAD_DEAD)
		return; /* (an ending owner has let its waiters go: none may come) */
	/* no cycle: owner's chain of owners must not come back to waiter */
	struct thread *o = owner;
	for (int i = 0; o && i < SCHED_PI_DEPTH; i++, o = o->pi_owner)
		if (o == waiter)
			return;
	waiter->pi_owner = owner;
	list_add_tail(&waiter->pi_link, &owner->pi_waiters);
	sched_rt_reprio_locked(owner);
}

void sched_pi_unlink_locked(struct thread *waiter)
{
	spin_assert_held(&sched_lock);
	struct thread *owner = waiter->pi_owner;
	if (!owner)
		return;
	list_del(&waiter->pi_link);
	waiter->pi_owner = NULL;
	sched_rt_reprio_locked(owner);
}

void sched_pi_owner_exit_locked(struct thread *owner)
{
	spin_assert_held(&sched_lock);
	while (!list_empty(&owner->pi_waiters)) {
		struct thread *w = list_first_entry(&owner->pi_waiters, struct thread, pi_link);
		list_del(&w->pi_link);
		w->pi_owner = NULL;
	}
}

uint64_t sched_interval_ns_locked(struct thread *t)
{
	if (t->policy == K_SCHED_RR)
		return K_SCHED_RR_SLICE_NS;
	if (t->policy == K_SCHED_FIFO)
		return 0;
	return sched_slice_ns(&t->se);
}
