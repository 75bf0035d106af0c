/* The cgroup freezer (cgroup.freeze, "frozen" in cgroup.events), as
 * Linux's cgroup v2 freezer:
 *
 * A cgroup freezes when it or an ancestor has cgroup.freeze 1. Its
 * threads stop at a safe point, on their way back to user mode: running
 * ones at their next kernel exit (their work flag is set), ones blocked in
 * a wait are woken (and their system call runs again after the thaw, so
 * the program never sees EINTR). A thread in an IPC call stops when the
 * call returns (its server may already be acting on it). "frozen" turns 1
 * once every thread below is parked, and cgroup.events notifies each
 * change (and a cgroup.freeze write an ancestor's state overrides, as
 * Linux). New children of a frozen cgroup start frozen; a process that
 * migrates into a frozen cgroup freezes, out of one thaws. SIGKILL still
 * kills; other signals wait for the thaw. */
#include "freezer.h"
#include "abi/errno.h"
#include "abi/signal.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "trap.h"

static struct spinlock freezer_lock = SPINLOCK_INIT("freezer");
static struct waitq freezer_wq = WAITQ_INIT(freezer_wq);

static void freezer_count_locked(struct cgroup *cg, int delta)
{
	for (struct cgroup *a = cg; a; a = a->parent)
		a->nr_parked += (uint64_t)(int64_t)delta;
	cg_frozen_update_locked(cg);
}

void freezer_kick(struct thread *t)
{
	thread_set_work(t);
	sched_kick_blocked(t);
}

/* Sets e_freeze below cg after a change; kicks what starts freezing.
 * proc_lock and cg_lock held. */
static void freezer_propagate_locked(struct cgroup *cg)
{
	bool e = cg->freeze || (cg->parent && cg->parent->e_freeze);
	bool starts = e && !cg->e_freeze;
	/* e_freeze before the kicks: a kicked thread running on another CPU
	 * takes its work at once and looks at e_freeze (freezer_park); set
	 * after, it found it still clear, went back to user mode with its
	 * work taken, and never parked ("frozen" never came, smp_sched=1) */
	__atomic_store_n(&cg->e_freeze, e, __ATOMIC_RELEASE);
	if (starts) {
		struct list_head *pos;
		list_for_each(pos, &cg->threads)
			freezer_kick(list_entry(pos, struct thread, cg_link));
	}
	struct list_head *pos;
	list_for_each(pos, &cg->children)
		freezer_propagate_locked(list_entry(pos, struct cgroup, sibling));
	cg_frozen_update_locked(cg);
}

void freezer_thaw_wake(void)
{
	spin_lock(&freezer_lock);
	waitq_wake_all(&freezer_wq, 0);
	spin_unlock(&freezer_lock);
}

void freezer_set(struct cgroup *cg, bool on)
{
	spin_lock(&proc_lock);
	cg_lock();
	if (cg->freeze == on) { /* nothing changed, nothing to tell (Linux) */
		cg_unlock();
		spin_unlock(&proc_lock);
		return;
	}
	bool was = cg->e_freeze;
	cg->freeze = on;
	freezer_propagate_locked(cg);
	/* An ancestor holds the state: "frozen" does not change, and Linux
	 * notifies cgroup.events anyway, so a writer waiting for the event
	 * learns there is nothing to wait for (cgroup_freeze). */
	if (cg->e_freeze == was)
		cg_notify_locked(cg, CG_NOTIFY_EVENTS);
	cg_unlock();
	spin_unlock(&proc_lock);
	if (!on)
		freezer_thaw_wake();
}

/* A SIGKILL (or an end) waits: the thread must not stay parked; nor
 * may a tracee its tracer interrupts (PTRACE_INTERRUPT stops a frozen
 * tracee, which still counts as frozen in its ptrace-stop, as Linux). */
static bool freezer_must_go(const struct thread *t)
{
	uint64_t kill = 1ull << (SIGKILL - 1);
	return t->kill_pending || t->proc->exiting || ((t->sig_pending | t->proc->sig_pending) & kill) ||
	       __atomic_load_n(&t->ptrace_trap, __ATOMIC_RELAXED);
}

/* Parks t while its cgroup is frozen. t stays counted parked
 * (t->freeze_counted, a reference) across wake-ups while it stays, so
 * "frozen" does not flicker; a migration moves the count with it
 * (freezer_migrate_locked); it is uncounted when it goes. */
static void freezer_wait(struct thread *t)
{
	for (;;) {
		struct cgroup *drop = NULL;
		cg_lock();
		struct cgroup *cg = t->cgroup, *held = t->freeze_counted;
		if (!cg->e_freeze || freezer_must_go(t)) {
			if (held)
				freezer_count_locked(held, -1);
			t->freeze_counted = NULL;
			cg_unlock();
			if (held)
				cg_put(held);
			return;
		}
		if (held != cg) { /* first look */
			if (held)
				freezer_count_locked(held, -1);
			drop = held;
			cg_get(cg);
			freezer_count_locked(cg, 1);
			t->freeze_counted = cg;
		}
		cg_unlock();
		if (drop)
			cg_put(drop);
		spin_lock(&freezer_lock); /* a thaw wakes under it: none is missed */
		if (t->cgroup == cg && __atomic_load_n(&cg->e_freeze, __ATOMIC_RELAXED) && !freezer_must_go(t))
			waitq_wait(&freezer_wq, &freezer_lock, 0);
		else
			spin_unlock(&freezer_lock);
	}
}

void freezer_stop_enter(struct thread *t)
{
	cg_lock();
	struct cgroup *cg = t->cgroup;
	cg_get(cg);
	freezer_count_locked(cg, 1);
	t->freeze_counted = cg;
	cg_unlock();
}

void freezer_stop_leave(struct thread *t)
{
	freezer_wait(t);
}

struct cgroup *freezer_migrate_locked(struct thread *t, struct cgroup *was, struct cgroup *dst)
{
	if (t->freeze_counted != was)
		return NULL;
	/* the counts only: the membership change that follows updates
	 * "frozen" on both sides, with the thread parked in dst already */
	for (struct cgroup *a = was; a; a = a->parent)
		a->nr_parked--;
	for (struct cgroup *a = dst; a; a = a->parent)
		a->nr_parked++;
	cg_get(dst);
	t->freeze_counted = dst;
	return was;
}

void freezer_park(struct thread *t, struct trap_frame *tf)
{
	bool kicked = t->freeze_kicked;
	t->freeze_kicked = false;
	/* Woken from a wait by the freezer: the call runs again (even if the
	 * thaw came first), so the program never sees that EINTR. */
	if (kicked && tf && tf->vector == SYSCALL_VECTOR && (int64_t)tf->rax == -EINTR &&
	    tf->error < SYSCALL_COUNT) {
		tf->rax = tf->error;
		tf->rip -= 2;
	}
	if (!__atomic_load_n(&t->cgroup->e_freeze, __ATOMIC_RELAXED))
		return;
	freezer_wait(t);
}
