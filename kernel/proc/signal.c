/* Signals, with Linux's numbers and semantics: actions per process, a
 * blocked mask per thread, pending sets for the process and each thread,
 * delivery on the way back to user mode, default actions (terminate,
 * ignore, stop, continue), handlers on the user stack with sigreturn, and
 * process groups for kill(0)/kill(-pgid). Each pending signal has its
 * siginfo in a struct sigq on the process's or thread's queue: a standard
 * signal pends once, a real-time one (32..64) once per sending, lowest
 * number first, oldest first (sigqueue, POSIX timers), up to the
 * process's RLIMIT_SIGPENDING. sigtimedwait takes them synchronously;
 * sigaltstack gives handlers (SA_ONSTACK) a stack of their own. Core dumps are not written:
 * "core" signals just terminate. A handler with SA_RESTART restarts the
 * calls syscalls.tbl marks "@restart" (read, write, waitpid, futex_wait);
 * other interrupted calls return EINTR. Signal state is guarded by
 * proc_lock; a thread's blocked mask is changed only by itself. */
#include "abi/errno.h"
#include "abi/signal.h"
#include "abi/wait.h"
#include "fpu.h"
#include "freezer.h"
#include "heap.h"
#include "format.h"
#include "kstring.h"
#include "printk.h"
#include "proc.h"
#include "ptrace.h"
#include "kfile.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"
#include "trap.h"

#define SIGBIT(s) (1ull << ((s) - 1))
#define SIG_UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))
#define SIG_STOPS (SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))
#define SIG_IGNORED_BY_DEFAULT (SIGBIT(SIGCHLD) | SIGBIT(SIGURG) | SIGBIT(SIGWINCH) | SIGBIT(SIGCONT))


static bool sig_valid(int sig)
{
	return sig >= 1 && sig < SIG_NSIG;
}

static bool sig_is_rt(int sig)
{
	return sig >= SIG_RTFIRST;
}

static bool sig_ignored(const struct proc *p, int sig)
{
	uint64_t h = p->sigactions[sig].handler;
	return h == SIG_IGN_HANDLER || (h == SIG_DFL_HANDLER && (SIG_IGNORED_BY_DEFAULT & SIGBIT(sig)));
}

/* Blocked by every thread: then even an ignored signal stays pending, as
 * on Linux, since the action may change before it is unblocked. */
static bool sig_blocked_by_all(const struct proc *p, int sig)
{
	const struct list_head *pos;
	list_for_each(pos, &p->threads) {
		const struct thread *t = list_entry(pos, struct thread, proc_link);
		if (!((t->sig_blocked | t->sig_real_blocked) & SIGBIT(sig)))
			return false;
	}
	return !list_empty(&p->threads);
}

static uint64_t thread_deliverable(const struct thread *t)
{
	return (t->sig_pending | t->proc->sig_pending) & ~t->sig_blocked;
}

/* The pending set and queue of thread t, or of process p if t is NULL. */
static uint64_t *sigq_set(struct proc *p, struct thread *t)
{
	return t ? &t->sig_pending : &p->sig_pending;
}

static struct list_head *sigq_list(struct proc *p, struct thread *t)
{
	return t ? &t->sig_queue : &p->sig_queue;
}

/* Lets go of an entry taken off a queue; info (if not NULL) gets a
 * timer's overrun count. */
static void sigq_release_locked(struct proc *p, struct sigq *q, struct k_siginfo *info)
{
	if (q->timer) {
		ptimer_signal_taken_locked(q->timer, info);
		return;
	}
	if (q->counted)
		p->sig_queued--;
	kfree(q);
}

/* Makes sig pending for t (NULL: process p) with its siginfo: a standard
 * signal already pending stays as it is; a real-time one queues again.
 * pre: the entry to use (a timer's), else one is allocated. Past the
 * queue's bound (or out of memory) a real-time signal that kill sent
 * pends without its siginfo, as on Linux; any other fails: -EAGAIN. */
static int sigq_post_locked(struct proc *p, struct thread *t, int sig, const struct k_siginfo *info,
			    struct sigq *pre)
{
	uint64_t *set = sigq_set(p, t);
	if (!sig_is_rt(sig) && (*set & SIGBIT(sig)))
		return 0;
	struct sigq *q = pre;
	if (!q && (!sig_is_rt(sig) || p->sig_queued < p->sig_queue_max)) {
		q = kmalloc(sizeof(*q));
		if (q) {
			q->timer = NULL;
			q->counted = sig_is_rt(sig);
			p->sig_queued += q->counted;
		}
	}
	if (q) {
		q->info = *info;
		list_add_tail(&q->link, sigq_list(p, t));
	} else if (sig_is_rt(sig) && info->code != SI_USER) {
		return -EAGAIN;
	}
	*set |= SIGBIT(sig);
	return 0;
}

/* Takes pending sig off t's (NULL: p's) queue into *info: the oldest
 * sending; the bit goes with the last one. */
static void sigq_take_locked(struct proc *p, struct thread *t, int sig, struct k_siginfo *info)
{
	struct list_head *pos, *list = sigq_list(p, t);
	struct sigq *found = NULL;
	bool more = false;
	list_for_each(pos, list) {
		struct sigq *q = list_entry(pos, struct sigq, link);
		if (q->info.signo != sig)
			continue;
		if (found) {
			more = true;
			break;
		}
		found = q;
	}
	*info = (struct k_siginfo){ .signo = sig, .code = SI_USER };
	if (found) {
		list_del(&found->link);
		*info = found->info;
		sigq_release_locked(p, found, info);
	}
	if (!more)
		*sigq_set(p, t) &= ~SIGBIT(sig);
}

/* sigq_flush_locked's work once something of mask is pending. */
static __attribute__((noinline)) void sigq_flush_pending_locked(struct proc *p, struct thread *t, uint64_t mask)
{
	uint64_t *set = sigq_set(p, t);
	struct list_head *pos, *next, *list = sigq_list(p, t);
	for (pos = list->next; pos != list; pos = next) {
		next = pos->next;
		struct sigq *q = list_entry(pos, struct sigq, link);
		if (SIGBIT(q->info.signo) & mask) {
			list_del(&q->link);
			sigq_release_locked(p, q, NULL);
		}
	}
	*set &= ~mask;
}

/* Drops the pending signals of mask from t (NULL: p). Inline, the loop
 * out of line: nothing pending (every exit of a thread and a process
 * without queued signals) costs a load and a test, not a frame (fork +
 * exit + wait paid 50 guest instructions here). */
static inline void sigq_flush_locked(struct proc *p, struct thread *t, uint64_t mask)
{
	if (*sigq_set(p, t) & mask)
		sigq_flush_pending_locked(p, t, mask);
}

/* Drops mask from the process and all its threads. */
static void sigq_flush_all_locked(struct proc *p, uint64_t mask)
{
	struct list_head *pos;
	sigq_flush_locked(p, NULL, mask);
	list_for_each(pos, &p->threads)
		sigq_flush_locked(p, list_entry(pos, struct thread, proc_link), mask);
}

void signal_info_fill_locked(struct proc *p, struct thread *t, struct k_procinfo *k)
{
	if (!t && !list_empty(&p->threads))
		t = list_entry(p->threads.next, struct thread, proc_link);
	k->sig_queued = p->sig_queued;
	k->sig_queue_max = p->sig_queue_max;
	k->sig_pending = t ? t->sig_pending : 0;
	k->sig_shared = p->sig_pending;
	k->sig_blocked = t ? t->sig_blocked : 0;
	k->sig_ignored = k->sig_caught = 0;
	for (int sig = 1; sig < SIG_NSIG; sig++) {
		uint64_t h = p->sigactions[sig].handler;
		if (h == SIG_IGN_HANDLER)
			k->sig_ignored |= SIGBIT(sig);
		else if (h > SIG_IGN_HANDLER)
			k->sig_caught |= SIGBIT(sig);
	}
}

void signal_thread_exit_locked(struct thread *t)
{
	sigq_flush_locked(t->proc, t, ~0ull);
}

void signal_proc_exit_locked(struct proc *p)
{
	if (!list_empty(&p->ptimers)) /* a process that made no timer: no call */
		ptimer_delete_all_locked(p);
	sigq_flush_all_locked(p, ~0ull);
}

static void sig_origin_info(struct k_siginfo *info, int sig, const struct sig_origin *o)
{
	*info = (struct k_siginfo){ .signo = sig, .code = o->code };
	info->f.proc.pid = o->pid;
	info->f.proc.uid = o->uid;
	if (o->code == SI_QUEUE || o->code == SI_ASYNCIO || o->code == SI_MESGQ)
		info->f.proc.value = o->value;
	else
		info->f.proc.status = o->status;
}

/* Gets a thread's attention: wake it if it sleeps interruptibly, or make
 * the running one take the slow way back to user mode. A stop (its
 * default action) only cuts a wait: a call a server is serving completes
 * first (the thread stops on its way out), so the server is neither left
 * with a request nobody waits for nor the client with a spurious EINTR;
 * the server meanwhile runs on the caller's context, which stays queued.
 * A signal with a handler lets a file operation (IPC_CALL_WHOLE) complete
 * so: a write to the console that a timer's signal met used to end in
 * EINTR with its bytes written. */
static void signal_kick(struct thread *t, int sig)
{
	thread_set_work(t);
	if (t == current_thread())
		return;
	uint64_t handler = t->proc->sigactions[sig].handler;
	if ((SIG_STOPS & SIGBIT(sig)) && handler == SIG_DFL_HANDLER)
		sched_interrupt_wait(t);
	else if (handler > SIG_IGN_HANDLER)
		sched_interrupt_handled(t);
	else
		sched_interrupt(t);
}

/* SIGCONT resumes a stopped process (whatever its action), and any stop
 * signal pending is dropped; a stop signal drops a pending SIGCONT. */
static void signal_continue_locked(struct proc *p)
{
	sigq_flush_all_locked(p, SIG_STOPS);
	if (p->stopped) {
		p->stopped = false;
		p->stop_report = W_CONTINUED;
		waitq_wake_all(&p->stop_wait, 0);
		signal_notify_parent_locked(p, CLD_CONTINUED, SIGCONT);
	}
}

bool signal_child_autoreap(const struct proc *p)
{
	const struct k_sigaction *a = &p->sigactions[SIGCHLD];
	return a->handler == SIG_IGN_HANDLER || (a->flags & SA_NOCLDWAIT);
}

void signal_notify_parent_locked(struct proc *c, int code, int status)
{
	struct proc *parent = c->parent;
	if (!parent)
		return;
	waitq_wake_all(&parent->child_exit, 0);
	if ((code == CLD_STOPPED || code == CLD_CONTINUED) &&
	    (parent->sigactions[SIGCHLD].flags & SA_NOCLDSTOP))
		return;
	struct sig_origin o = { .code = code, .pid = c->pid, .uid = c->cred.uid, .status = status };
	signal_send_origin_locked(parent, SIGCHLD, &o);
}

void signal_send_locked(struct proc *p, int sig)
{
	static const struct sig_origin kernel = { .code = SI_KERNEL };
	signal_send_origin_locked(p, sig, &kernel);
}

/* Would sig be thrown away at once (ignored, and not blocked where it
 * could wait for a change of action)? For thread t, or the process. */
static bool sig_discard(const struct proc *p, const struct thread *t, int sig)
{
	if (sig == SIGKILL || !sig_ignored(p, sig))
		return false;
	if (t ? t->ptracer != NULL : ptrace_proc_traced(p))
		return false; /* its tracer sees it (Linux's sig_ignored) */
	if (t)
		return !((t->sig_blocked | t->sig_real_blocked) & SIGBIT(sig));
	return !sig_blocked_by_all(p, sig);
}

/* Sends sig to process p, or to its thread t only (t not NULL): the
 * side effects of stop and continue signals, then pending with info, and
 * a thread that does not block it is woken to act on it. 0 or -EAGAIN
 * (a real-time signal's queue is full). */
static int signal_post_locked(struct proc *p, struct thread *t, int sig, const struct k_siginfo *info,
			      struct sigq *pre)
{
	if (p->state != PROC_ALIVE || p->exiting)
		return 0;
	if (sig == SIGCONT)
		signal_continue_locked(p);
	if (SIGBIT(sig) & SIG_STOPS)
		sigq_flush_all_locked(p, SIGBIT(SIGCONT));
	if (sig == SIGKILL) {
		p->stopped = false;
		waitq_wake_all(&p->stop_wait, 0);
		/* every thread is on its way out: no quota holds one back */
		struct list_head *pos;
		list_for_each(pos, &p->threads)
			sched_set_dying(list_entry(pos, struct thread, proc_link));
	}
	if (sig_discard(p, t, sig))
		return 0;
	int r = sigq_post_locked(p, t, sig, info, pre);
	if (r < 0)
		return r;
	signalfd_wake(p);
	if (t) {
		thread_set_work(t);
		if (!(t->sig_blocked & SIGBIT(sig)) || sig == SIGKILL)
			signal_kick(t, sig);
		return 0;
	}
	struct list_head *pos;
	list_for_each(pos, &p->threads) {
		struct thread *u = list_entry(pos, struct thread, proc_link);
		thread_set_work(u);
		if (!(u->sig_blocked & SIGBIT(sig)) || sig == SIGKILL) {
			signal_kick(u, sig);
			if (sig != SIGKILL)
				break;
		}
	}
	return 0;
}

void signal_send_thread_info_locked(struct thread *t, int sig, const struct k_siginfo *info)
{
	signal_post_locked(t->proc, t, sig, info, NULL);
}

void signal_send_thread_info(struct thread *t, int sig, const struct k_siginfo *info)
{
	spin_lock(&proc_lock);
	signal_post_locked(t->proc, t, sig, info, NULL);
	spin_unlock(&proc_lock);
}

void signal_send_origin_locked(struct proc *p, int sig, const struct sig_origin *o)
{
	struct k_siginfo info;
	sig_origin_info(&info, sig, o);
	signal_post_locked(p, NULL, sig, &info, NULL);
}

int signal_post_timer_locked(struct proc *p, struct thread *t, struct sigq *q)
{
	return signal_post_locked(p, t, q->info.signo, &q->info, q);
}

void signal_unqueue_locked(struct proc *p, struct thread *t, struct sigq *q)
{
	int sig = q->info.signo;
	list_del(&q->link);
	struct list_head *pos;
	list_for_each(pos, sigq_list(p, t)) {
		if (list_entry(pos, struct sigq, link)->info.signo == sig)
			return; /* another sending still pends */
	}
	*sigq_set(p, t) &= ~SIGBIT(sig);
}

void signal_send(struct proc *p, int sig, struct proc *sender)
{
	struct sig_origin o = { .code = SI_KERNEL };
	if (sender)
		o = (struct sig_origin){ .code = SI_USER, .pid = sender->pid, .uid = sender->cred.uid };
	spin_lock(&proc_lock);
	signal_send_origin_locked(p, sig, &o);
	spin_unlock(&proc_lock);
}

/* May sender signal target? Root may; otherwise the real or effective uid
 * of the sender must match the real or saved uid of the target (Linux). */
static bool signal_permitted(const struct proc *sender, const struct proc *target)
{
	const struct cred *s = &sender->cred, *t = &target->cred;
	return s->euid == 0 || s->uid == t->uid || s->uid == t->suid || s->euid == t->uid ||
	       s->euid == t->suid;
}

/* kill(2)'s delivery: like Linux, init only gets the signals it handles,
 * so no process can take the system down by signalling pid 1. */
static int signal_send_user_locked(struct proc *p, struct thread *t, int sig, const struct proc *sender,
				   int code, uint64_t value)
{
	if (p == init_proc && p->sigactions[sig].handler == SIG_DFL_HANDLER)
		return 0;
	struct sig_origin o = { .code = code, .pid = sender->pid, .uid = sender->cred.uid, .value = value };
	struct k_siginfo info;
	sig_origin_info(&info, sig, &o);
	return signal_post_locked(p, t, sig, &info, NULL);
}

long sys_kill(int pid, int sig)
{
	struct proc *self = current_thread()->proc;
	if (sig < 0 || sig >= SIG_NSIG)
		return -EINVAL;
	spin_lock(&proc_lock);
	int found = 0, permitted = 0;
	/* A zombie is found, and takes the signal with no effect, until its
	 * parent collects it (Linux: kill of an exited, unreaped child is 0,
	 * not ESRCH; the Open POSIX suite's sched_setparam/2-1 kills one). */
	if (pid > 0) {
		struct proc *p = proc_find_locked(pid);
		if (p) {
			found = 1;
			if (signal_permitted(self, p)) {
				permitted = 1;
				if (sig && p->state == PROC_ALIVE)
					signal_send_user_locked(p, NULL, sig, self, SI_USER, 0);
			}
		}
	} else {
		/* 0: our group; -1: everyone we may signal but init; < -1: group -pid. */
		int pgid = pid == 0 ? self->pgid : -pid;
		for (struct proc *p = proc_iter_first_locked(); p; p = proc_iter_next_locked(p)) {
			if (p == &kernel_proc)
				continue;
			if (pid == -1 ? (p == init_proc || p == self) : p->pgid != pgid)
				continue;
			found++;
			if (signal_permitted(self, p)) {
				permitted++;
				if (sig && p->state == PROC_ALIVE)
					signal_send_user_locked(p, NULL, sig, self, SI_USER, 0);
			}
		}
	}
	spin_unlock(&proc_lock);
	return !found ? -ESRCH : !permitted ? -EPERM : 0;
}

long sys_sigqueue(int pid, int sig, uint64_t value, int code)
{
	struct proc *self = current_thread()->proc;
	if (!sig_valid(sig) && sig != 0)
		return -EINVAL;
	/* Only the codes a C library's queued signals carry: Linux lets any
	 * process send these (rt_sigqueueinfo), never SI_USER, SI_KERNEL or
	 * SI_TKILL, whose si_pid a receiver trusts. */
	if (code != SI_QUEUE && code != SI_ASYNCIO && code != SI_MESGQ)
		return -EINVAL;
	if (pid <= 0)
		return -ESRCH; /* sigqueue names one process */
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	long r = -ESRCH;
	if (p) { /* a zombie as kill's */
		r = signal_permitted(self, p) ? 0 : -EPERM;
		if (r == 0 && sig && p->state == PROC_ALIVE)
			r = signal_send_user_locked(p, NULL, sig, self, code, value);
	}
	spin_unlock(&proc_lock);
	return r;
}

long signal_send_to(int pid, uint64_t start_ns, int sig)
{
	struct proc *self = current_thread()->proc;
	if (sig < 0 || sig >= SIG_NSIG)
		return -EINVAL;
	long r = -ESRCH;
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	if (p && p->start_ns == start_ns) {
		r = signal_permitted(self, p) ? 0 : -EPERM;
		if (r == 0 && sig && p->state == PROC_ALIVE) /* a zombie takes it as Linux's: no effect */
			signal_send_user_locked(p, NULL, sig, self, SI_USER, 0);
	}
	spin_unlock(&proc_lock);
	return r;
}

long sys_tgkill(int tgid, int tid, int sig)
{
	struct proc *self = current_thread()->proc;
	if (!sig_valid(sig) && sig != 0)
		return -EINVAL;
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	spin_lock(&proc_lock);
	struct thread *t = thread_find_locked(tid);
	long r = -ESRCH;
	if (t && t->proc->pid == tgid && t->proc->state == PROC_ALIVE && !t->proc->exiting) {
		r = signal_permitted(self, t->proc) ? 0 : -EPERM;
		if (r == 0 && sig)
			r = signal_send_user_locked(t->proc, t, sig, self, SI_TKILL, 0);
	}
	spin_unlock(&proc_lock);
	return r;
}

/* pthread_cancel's wake-up (user/libc/pthread_cancel.c): signal
 * SIG_CANCEL queued for thread tid of the caller's own process alone (as
 * tgkill would), which a blocked call leaves (-EINTR, or restarted after
 * the handler under SA_RESTART) and which reaches a running thread on its
 * way back to user mode. Only within a process: no permission to check. */
long sys_thread_cancel(int tid)
{
	struct thread *self = current_thread();
	spin_lock(&proc_lock);
	struct thread *t = tid > 0 ? thread_find_locked(tid) : NULL;
	if (!t || t->proc != self->proc || t->proc->exiting || t->kill_pending) {
		spin_unlock(&proc_lock);
		return -ESRCH;
	}
	long r = signal_send_user_locked(t->proc, t, SIG_CANCEL, self->proc, SI_TKILL, 0);
	spin_unlock(&proc_lock);
	return r;
}

long sys_sigaction(int sig, const struct k_sigaction *uact, struct k_sigaction *uold)
{
	struct proc *p = current_thread()->proc;
	struct k_sigaction act;
	if (!sig_valid(sig))
		return -EINVAL;
	if (uact) {
		if (copy_from_user(&act, uact, sizeof(act)))
			return -EFAULT;
		if (SIG_UNBLOCKABLE & SIGBIT(sig))
			return -EINVAL;
		if (act.handler >= USER_TOP || act.restorer >= USER_TOP)
			return -EFAULT;
		act.mask &= ~SIG_UNBLOCKABLE;
	}
	spin_lock(&proc_lock);
	struct k_sigaction old = p->sigactions[sig];
	if (uact) {
		p->sigactions[sig] = act;
		if (sig_ignored(p, sig)) /* POSIX: discard it if now ignored */
			sigq_flush_all_locked(p, SIGBIT(sig));
	}
	spin_unlock(&proc_lock);
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_sigprocmask(int how, const uint64_t *uset, uint64_t *uold)
{
	struct thread *t = current_thread();
	uint64_t set, old = t->sig_blocked;
	if (uset) {
		if (copy_from_user(&set, uset, sizeof(set)))
			return -EFAULT;
		if (how == SIG_BLOCK)
			set = old | set;
		else if (how == SIG_UNBLOCK)
			set = old & ~set;
		else if (how != SIG_SETMASK)
			return -EINVAL;
		t->sig_blocked = set & ~SIG_UNBLOCKABLE;
		if (thread_deliverable(t))
			thread_set_work(t); /* deliver on the way out */
	}
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_sigpending(uint64_t *uset)
{
	struct thread *t = current_thread();
	uint64_t set = (t->sig_pending | t->proc->sig_pending) & t->sig_blocked;
	return copy_to_user(uset, &set, sizeof(set)) ? -EFAULT : 0;
}

/* Waits with mask in force until a signal is delivered: always -EINTR.
 * The old mask comes back after the handler (stored in its frame). */
long sys_sigsuspend(const uint64_t *umask)
{
	struct thread *t = current_thread();
	uint64_t mask;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	uint64_t old = t->sig_blocked;
	/* Under proc_lock from the look to the sleep: a signal sent between
	 * them would otherwise find the thread awake and not wake it. */
	spin_lock(&proc_lock);
	t->sig_blocked = mask & ~SIG_UNBLOCKABLE;
	while (!thread_deliverable(t) && !t->kill_pending) {
		waitq_wait(NULL, &proc_lock, 0);
		spin_lock(&proc_lock);
		if (t->freeze_kicked && !thread_deliverable(t) && !t->kill_pending) {
			/* The freezer: park on the way out, then this call runs
			 * again after the thaw (freezer_park). */
			t->sig_blocked = old;
			spin_unlock(&proc_lock);
			return -EINTR;
		}
	}
	spin_unlock(&proc_lock);
	t->sig_saved_mask = old;
	t->sig_restore_mask = true;
	thread_set_work(t);
	return -EINTR;
}

uint64_t signal_mask_swap(struct thread *t, uint64_t mask)
{
	uint64_t old = t->sig_blocked;
	t->sig_blocked = mask & ~SIG_UNBLOCKABLE;
	return old;
}

void signal_mask_restore(struct thread *t, uint64_t old, bool interrupted)
{
	if (interrupted && thread_deliverable(t)) {
		/* the handler runs under the call's mask; old comes back
		 * after it, as for sigsuspend */
		t->sig_saved_mask = old;
		t->sig_restore_mask = true;
		thread_set_work(t);
		return;
	}
	t->sig_blocked = old;
	if (thread_deliverable(t))
		thread_set_work(t);
}

/* Builds the handler's frame on the user stack and points tf at the
 * handler. False if the stack is unusable. */
/* Takes the lowest signal of set pending for t (its own first, then its
 * process's) into *info: the signal, or 0. proc_lock held. */
static int signal_take_locked(struct thread *t, uint64_t set, struct k_siginfo *info)
{
	uint64_t mine = t->sig_pending & set, all = t->proc->sig_pending & set;
	if (mine) {
		int sig = __builtin_ctzll(mine) + 1;
		sigq_take_locked(t->proc, t, sig, info);
		return sig;
	}
	if (all) {
		int sig = __builtin_ctzll(all) + 1;
		sigq_take_locked(t->proc, NULL, sig, info);
		return sig;
	}
	return 0;
}

/* A struct timespec from user memory as nanoseconds: -EINVAL unless
 * valid; seconds past a century are cut to one. */
static long signal_timespec_ns(const int64_t *uts, uint64_t *ns)
{
	int64_t ts[2];
	if (copy_from_user(ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
		return -EINVAL;
	*ns = MIN((uint64_t)ts[0], 100ull * 366 * 86400) * 1000000000ull + (uint64_t)ts[1];
	return 0;
}

long sys_sigtimedwait(const uint64_t *uset, struct k_siginfo *uinfo, const int64_t *utimeout)
{
	struct thread *t = current_thread();
	struct proc *p = t->proc;
	uint64_t set, timeout = 0, deadline = 0;
	if (copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	set &= ~SIG_UNBLOCKABLE;
	if (utimeout) {
		long r = signal_timespec_ns(utimeout, &timeout);
		if (r < 0)
			return r;
		deadline = clock_ns() + timeout;
	}
	struct k_siginfo info;
	int sig;
	long r = 0;
	spin_lock(&proc_lock);
	uint64_t old = t->sig_blocked;
	for (;;) {
		sig = signal_take_locked(t, set, &info);
		if (sig)
			break;
		/* Another signal to act on (its handler runs on the way out). */
		if (((t->sig_pending | p->sig_pending) & ~old & ~set) || t->kill_pending) {
			r = -EINTR;
			break;
		}
		if (utimeout && (!timeout || clock_ns() >= deadline)) {
			r = -EAGAIN;
			break;
		}
		if (t->freeze_kicked) {
			r = -EINTR; /* parks on the way out; runs again after the thaw */
			break;
		}
		/* The signals waited for wake it, but still count as blocked. */
		t->sig_real_blocked = old;
		t->sig_blocked = old & ~set;
		waitq_wait(NULL, &proc_lock, deadline);
		spin_lock(&proc_lock);
		t->sig_blocked = old;
		t->sig_real_blocked = 0;
	}
	spin_unlock(&proc_lock);
	if (!sig)
		return r;
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return sig;
}

/* Is sp on t's alternate signal stack? */
static bool signal_on_altstack(const struct thread *t, uint64_t sp)
{
	return t->sas_size && sp > t->sas_sp && sp - t->sas_sp <= t->sas_size;
}

long sys_sigaltstack(const struct k_stack *uss, struct k_stack *uold)
{
	struct thread *t = current_thread();
	uint64_t sp = t->user_tf->rsp;
	struct k_stack old = { .sp = t->sas_sp, .size = t->sas_size,
			       .flags = !t->sas_size ? K_SS_DISABLE : signal_on_altstack(t, sp) ? K_SS_ONSTACK : 0 };
	if (uss) {
		struct k_stack ss;
		if (copy_from_user(&ss, uss, sizeof(ss)))
			return -EFAULT;
		if (signal_on_altstack(t, sp))
			return -EPERM; /* not while a handler runs on it */
		if (ss.flags != 0 && ss.flags != K_SS_ONSTACK && ss.flags != K_SS_DISABLE)
			return -EINVAL;
		if (ss.flags == K_SS_DISABLE) {
			ss.sp = ss.size = 0;
		} else {
			if (ss.size < SIG_MINSTKSZ)
				return -ENOMEM;
			if (ss.sp >= USER_TOP || ss.size > USER_TOP - ss.sp)
				return -EFAULT; /* a frame there could never be written */
		}
		t->sas_sp = ss.sp;
		t->sas_size = ss.size;
	}
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* Builds the handler's frame on the user stack (its alternate stack for
 * SA_ONSTACK, unless already on it) and points tf at the handler. False
 * if the stack is unusable. The frame is built on this thread's kernel
 * stack: threads taking signals at once, or one whose copy sleeps on a
 * fault, each have their own. */
static bool signal_setup_frame(struct thread *t, struct trap_frame *tf, int sig,
			       const struct k_sigaction *act, const struct k_siginfo *info)
{
	struct k_sigframe frame;
	uint64_t top = tf->rsp - 128; /* skip the red zone */
	if ((act->flags & SA_ONSTACK) && t->sas_size && !signal_on_altstack(t, tf->rsp))
		top = t->sas_sp + t->sas_size;
	uint64_t sp = ALIGN_DOWN(top - sizeof(frame), 16) - 8;
	memset(&frame, 0, sizeof(frame));
	frame.restorer = act->restorer;
	frame.info = *info;
	_Static_assert(sizeof(frame.regs) == sizeof(*tf), "register image");
	memcpy(frame.regs, tf, sizeof(*tf));
	frame.mask = t->sig_restore_mask ? t->sig_saved_mask : t->sig_blocked;
	t->sig_restore_mask = false;
	t->sleep_resume = false; /* the handler's own sleeps are new ones */
	struct fpu_state fpu; /* fxsave needs 16-byte alignment (the type's) */
	fpu_save(&fpu);
	memcpy(frame.fpu, &fpu, sizeof(frame.fpu));
	if (sp >= USER_TOP || copy_to_user((void *)sp, &frame, sizeof(frame)))
		return false;
	tf->rip = act->handler;
	tf->rsp = sp;
	tf->rdi = (uint64_t)sig;
	tf->rsi = sp + offsetof(struct k_sigframe, info);
	tf->rdx = sp + offsetof(struct k_sigframe, regs);
	tf->rax = 0;
	tf->rflags &= ~((1u << 8) | (1u << 10)); /* no trap flag, direction up */
	t->sig_blocked |= act->mask | ((act->flags & SA_NODEFER) ? 0 : SIGBIT(sig));
	t->sig_blocked &= ~SIG_UNBLOCKABLE;
	return true;
}

long sys_sigreturn(void)
{
	struct thread *t = current_thread();
	struct trap_frame *tf = t->user_tf;
	struct k_sigframe frame; /* on this thread's stack: see signal_setup_frame */
	/* The handler's ret popped the restorer, which called us at once. */
	if (copy_from_user(&frame, (void *)(tf->rsp - 8), sizeof(frame))) {
		proc_exit(W_SIGNALED(SIGSEGV));
	}
	struct trap_frame saved;
	memcpy(&saved, frame.regs, sizeof(saved));
	if (saved.rip >= USER_TOP)
		proc_exit(W_SIGNALED(SIGSEGV));
	saved.cs = tf->cs;
	saved.ss = tf->ss;
	saved.rflags = (saved.rflags & 0xcd5) | RFLAGS_IF | 0x2; /* user flags only */
	saved.vector = tf->vector;
	*tf = saved;
	t->sig_blocked = frame.mask & ~SIG_UNBLOCKABLE;
	struct fpu_state fpu; /* fxrstor needs 16-byte alignment (the type's) */
	memcpy(&fpu, frame.fpu, sizeof(fpu));
	fpu_sanitize(&fpu);
	fpu_restore(&fpu);
	/* Always: the restored frame's rcx and r11 must go back by iret, which
	 * only the system call's slow exit checks for (syscall.S). */
	thread_set_work(t);
	return (long)saved.rax; /* the syscall return keeps the interrupted rax */
}

/* Stops the whole process (a stop signal's default action). */
static void signal_stop(struct proc *p, int sig)
{
	spin_lock(&proc_lock);
	if (!p->stopped && !p->exiting) {
		struct list_head *pos;
		list_for_each(pos, &p->threads)
			thread_set_work(list_entry(pos, struct thread, proc_link));
		p->stopped = true;
		p->stop_report = W_STOPPED(sig);
		signal_notify_parent_locked(p, CLD_STOPPED, sig);
	}
	spin_unlock(&proc_lock);
}

int signal_take(struct thread *t, uint64_t mask, struct k_siginfo *info)
{
	spin_lock(&proc_lock);
	int sig = signal_take_locked(t, mask & ~SIG_UNBLOCKABLE, info);
	spin_unlock(&proc_lock);
	return sig;
}

uint64_t signal_pending_of(const struct thread *t)
{
	return __atomic_load_n(&t->sig_pending, __ATOMIC_RELAXED) |
	       __atomic_load_n(&t->proc->sig_pending, __ATOMIC_RELAXED);
}

/* Takes the lowest pending deliverable signal, or 0, and fills in *info
 * why it was sent. */
static int signal_dequeue(struct thread *t, struct k_siginfo *info)
{
	spin_lock(&proc_lock);
	int sig = signal_take_locked(t, ~t->sig_blocked, info);
	spin_unlock(&proc_lock);
	return sig;
}

/* A call the signal interrupted (-EINTR) runs again once the handler
 * returns: back to the syscall instruction (2 bytes) with its number. A
 * futex wait with a timeout (rdx) is not: Linux ends it with EINTR
 * whatever SA_RESTART says (its restart block), which sem_timedwait and
 * aio_suspend show, unless it asks (K_FUTEX_RESTART: the C library's
 * mq_timedsend and mq_timedreceive, which Linux restarts). */
static void signal_restart_syscall(struct thread *t, struct trap_frame *tf)
{
	if (tf->vector == SYSCALL_VECTOR && tf->error == SYS_futex_wait && tf->rdx != 0 &&
	    !(tf->r10 & K_FUTEX_RESTART))
		return;
	if (tf->vector == SYSCALL_VECTOR && (int64_t)tf->rax == -EINTR && tf->error < SYSCALL_COUNT &&
	    syscall_restart[tf->error] && !t->sig_call_taken) {
		tf->rax = tf->error;
		tf->rip -= 2;
	}
}

static void signal_deliver(struct thread *t, struct trap_frame *tf, int sig,
			   const struct k_siginfo *info)
{
	struct proc *p = t->proc;
	spin_lock(&proc_lock);
	struct k_sigaction act = p->sigactions[sig];
	if (act.handler > SIG_IGN_HANDLER && (act.flags & SA_RESETHAND))
		p->sigactions[sig].handler = SIG_DFL_HANDLER;
	spin_unlock(&proc_lock);
	if (act.handler == SIG_IGN_HANDLER)
		return;
	if (act.handler == SIG_DFL_HANDLER) {
		if (SIG_STOPS & SIGBIT(sig)) {
			signal_stop(p, sig);
			if (t->ptracer) /* a traced thread's group stop is a ptrace-stop */
				ptrace_group_stop(t, sig);
		}
		else if (!(SIG_IGNORED_BY_DEFAULT & SIGBIT(sig)))
			proc_exit(W_SIGNALED(sig));
		return;
	}
	if (tf && (act.flags & SA_RESTART))
		signal_restart_syscall(t, tf);
	t->freeze_kicked = false; /* a handler runs: EINTR is the call's answer */
	if (!tf || !signal_setup_frame(t, tf, sig, &act, info))
		proc_exit(W_SIGNALED(SIGSEGV));
}

void signal_handle_pending(struct thread *t, struct trap_frame *tf)
{
	struct proc *p = t->proc;
	int sig;
	bool handled = false;
	struct k_siginfo info;
	if (t->ptrace_trap) /* job control traps first, as Linux's get_signal */
		ptrace_trap_stop(t);
	while ((sig = signal_dequeue(t, &info)) != 0) {
		/* A traced thread stops for each signal but SIGKILL: its tracer
		 * says what to act on instead (signal-delivery-stop). */
		if (t->ptracer && sig != SIGKILL && !(sig = ptrace_signal_stop(t, sig, &info)))
			continue;
		bool handler = p->sigactions[sig].handler > SIG_IGN_HANDLER;
		/* A handler's frame goes on top of the last one, as on Linux:
		 * each pending signal not blocked by the handlers before it
		 * gets one now, and the last one set up runs first. */
		signal_deliver(t, tf, sig, &info);
		handled |= handler;
	}
	/* A stop (no handler) that cut a wait: after SIGCONT the call runs
	 * again, as Linux restarts a read on a terminal, unless a server had
	 * already taken it (it may have had its effect). */
	bool restart = !handled && !t->sig_call_taken && p->stopped && tf && tf->vector == SYSCALL_VECTOR &&
		       (int64_t)tf->rax == -EINTR && tf->error < SYSCALL_COUNT;
	t->sig_call_taken = false;
	/* Stopped until SIGCONT. A stopped thread of a frozen cgroup counts
	 * as frozen, as on Linux: it waits parked in the freezer meanwhile.
	 * proc_lock orders the look at e_freeze against the freezer's kick,
	 * which wakes it from the stop. */
	spin_lock(&proc_lock);
	while (p->stopped && !t->kill_pending && !t->ptracer) {
		if (__atomic_load_n(&t->cgroup->e_freeze, __ATOMIC_RELAXED) && !p->exiting) {
			spin_unlock(&proc_lock);
			bool kicked = t->freeze_kicked; /* for the call a signal interrupted */
			freezer_park(t, NULL);
			t->freeze_kicked = kicked;
			spin_lock(&proc_lock);
			continue;
		}
		waitq_wait(&p->stop_wait, &proc_lock, 0);
		spin_lock(&proc_lock);
	}
	if (restart && !t->kill_pending && (int64_t)tf->rax == -EINTR) {
		tf->rax = tf->error;
		tf->rip -= 2;
		t->sleep_resume = tf->error == SYS_sleep_ns || tf->error == SYS_clock_nanosleep;
	}
	spin_unlock(&proc_lock);
}

void signal_fault(struct trap_frame *tf, int sig, uint64_t addr)
{
	struct thread *t = current_thread();
	bool handled = t->proc->sigactions[sig].handler > SIG_IGN_HANDLER &&
		       !(t->sig_blocked & SIGBIT(sig));
	if (!handled) {
		/* a page fault says where and what, as Linux's "segfault at"
		 * line does (its error code, in words) */
		char where[80] = "";
		if (tf->vector == TRAP_PF)
			fmt_snprintf(where, sizeof(where), " (address %p, %s, %s)", (void *)addr,
				     tf->error & 16 ? "fetch" : tf->error & 2 ? "write" : "read",
				     tf->error & 1 ? "protection" : "not present");
		printk(KERN_INFO "arbor: pid %d (%s): %s at ip %p%s: killed by signal %d\n", t->proc->pid,
		       t->proc->name, trap_name(tf->vector), (void *)tf->rip, where, sig);
		proc_exit(W_SIGNALED(sig));
	}
	/* si_code as Linux: a page fault on a present page broke its
	 * protection (error code bit 0); else nothing was mapped there. */
	int code = SI_KERNEL;
	if (tf->vector == TRAP_DE)
		code = FPE_INTDIV;
	else if (tf->vector == TRAP_UD)
		code = ILL_ILLOPN;
	else if (sig == SIGBUS && tf->vector == TRAP_PF)
		code = BUS_ADRERR;
	else if (sig == SIGSEGV && tf->vector == TRAP_PF)
		code = (tf->error & 1) ? SEGV_ACCERR : SEGV_MAPERR;
	struct k_siginfo info = { .signo = sig, .code = code };
	info.f.addr = addr;
	signal_deliver(t, tf, sig, &info);
}

void signal_init_proc(struct proc *child, const struct proc *parent, bool exec)
{
	if (!exec) {
		memcpy(child->sigactions, parent->sigactions, sizeof(child->sigactions));
		child->pgid = parent->pgid;
		child->sid = parent->sid;
		child->sig_queue_max = parent->sig_queue_max;
		child->sig_queue_hard = parent->sig_queue_hard;
		return;
	}
	/* exec: handlers are gone (the code is), ignored signals stay ignored;
	 * so do the POSIX timers and the alternate stack (as on Linux). */
	for (int s = 1; s < SIG_NSIG; s++)
		if (child->sigactions[s].handler != SIG_IGN_HANDLER)
			child->sigactions[s] = (struct k_sigaction){ 0 };
	spin_lock(&proc_lock);
	ptimer_delete_all_locked(child);
	spin_unlock(&proc_lock);
	struct thread *self = current_thread();
	if (self->proc == child)
		self->sas_sp = self->sas_size = 0;
}

long signal_prlimit(const struct k_rlimit *new_lim, struct k_rlimit *old_lim)
{
	struct proc *p = current_thread()->proc;
	struct k_rlimit nl, ol;
	if (new_lim && copy_from_user(&nl, new_lim, sizeof(nl)))
		return -EFAULT;
	if (new_lim && nl.cur > nl.max)
		return -EINVAL;
	spin_lock(&proc_lock);
	ol = (struct k_rlimit){ p->sig_queue_max, p->sig_queue_hard };
	long r = 0;
	if (new_lim && nl.max > p->sig_queue_hard && p->cred.euid != 0)
		r = -EPERM;
	else if (new_lim) {
		p->sig_queue_max = nl.cur;
		p->sig_queue_hard = nl.max;
	}
	spin_unlock(&proc_lock);
	if (!r && old_lim && copy_to_user(old_lim, &ol, sizeof(ol)))
		return -EFAULT;
	return r;
}

long sys_setpgid(int pid, int pgid)
{
	struct proc *self = current_thread()->proc;
	if (pgid < 0)
		return -EINVAL;
	spin_lock(&proc_lock);
	struct proc *p = pid == 0 ? self : proc_find_locked(pid);
	long r = 0;
	if (!p || (p != self && p->parent != self))
		r = -ESRCH;
	else if (p->sid == p->pid)
		r = -EPERM; /* a session leader stays where it is */
	else if (p->sid != self->sid)
		r = -EPERM;
	else
		p->pgid = pgid ? pgid : p->pid;
	spin_unlock(&proc_lock);
	return r;
}

long sys_getpgid(int pid)
{
	struct proc *self = current_thread()->proc;
	spin_lock(&proc_lock);
	struct proc *p = pid == 0 ? self : proc_find_locked(pid);
	long r = p ? p->pgid : -ESRCH;
	spin_unlock(&proc_lock);
	return r;
}

long sys_setsid(void)
{
	struct proc *self = current_thread()->proc;
	spin_lock(&proc_lock);
	long r = self->pgid == self->pid ? -EPERM : self->pid;
	if (r > 0)
		self->pgid = self->sid = self->pid;
	spin_unlock(&proc_lock);
	return r;
}

long sys_getsid(int pid)
{
	struct proc *self = current_thread()->proc;
	spin_lock(&proc_lock);
	struct proc *p = pid == 0 ? self : proc_find_locked(pid);
	long r = p ? p->sid : -ESRCH;
	spin_unlock(&proc_lock);
	return r;
}
