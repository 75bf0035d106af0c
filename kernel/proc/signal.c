/* Signals, with Linux's numbers and semantics: actions per process, a
 * blocked mask per thread, pending sets for the process and each thread,
 * delivery on the way back to user mode, default actions (terminate,
 * ignore, stop, continue), handlers on the user stack with sigreturn, and
 * process groups for kill(0)/kill(-pgid). Core dumps are not written:
 * "core" signals just terminate. A handler with SA_RESTART restarts the
 * calls syscalls.tbl marks "@restart" (read, write, waitpid, futex_wait);
 * other interrupted calls return EINTR. Signal state is guarded by
 * proc_lock; a thread's blocked mask is changed only by itself. */
#include "abi/errno.h"
#include "abi/signal.h"
#include "abi/wait.h"
#include "fpu.h"
#include "freezer.h"
#include "kstring.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "trap.h"

#define SIGBIT(s) (1ull << ((s) - 1))
#define SIG_UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))
#define SIG_STOPS (SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))
#define SIG_IGNORED_BY_DEFAULT (SIGBIT(SIGCHLD) | SIGBIT(SIGURG) | SIGBIT(SIGWINCH) | SIGBIT(SIGCONT))


static bool sig_valid(int sig)
{
	return sig >= 1 && sig < SIG_NSIG;
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
		if (!(t->sig_blocked & SIGBIT(sig)))
			return false;
	}
	return !list_empty(&p->threads);
}

static uint64_t thread_deliverable(const struct thread *t)
{
	return (t->sig_pending | t->proc->sig_pending) & ~t->sig_blocked;
}

/* Gets a thread's attention: wake it if it sleeps interruptibly, or make
 * the running one take the slow way back to user mode. A stop (its
 * default action) only cuts a wait: a call a server is serving completes
 * first (the thread stops on its way out), so the server is neither left
 * with a request nobody waits for nor the client with a spurious EINTR;
 * the server meanwhile runs on the caller's context, which stays queued. */
static void signal_kick(struct thread *t, int sig)
{
	thread_set_work(t);
	if (t == current_thread())
		return;
	if ((SIG_STOPS & SIGBIT(sig)) && t->proc->sigactions[sig].handler == SIG_DFL_HANDLER)
		sched_interrupt_wait(t);
	else
		sched_interrupt(t);
}

/* SIGCONT resumes a stopped process (whatever its action), and any stop
 * signal pending is dropped; a stop signal drops a pending SIGCONT. */
static void signal_continue_locked(struct proc *p)
{
	p->sig_pending &= ~SIG_STOPS;
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

void signal_send_origin_locked(struct proc *p, int sig, const struct sig_origin *o)
{
	if (p->state != PROC_ALIVE || p->exiting)
		return;
	if (sig == SIGCONT)
		signal_continue_locked(p);
	if (SIGBIT(sig) & SIG_STOPS)
		p->sig_pending &= ~SIGBIT(SIGCONT);
	if (sig == SIGKILL) {
		p->stopped = false;
		waitq_wake_all(&p->stop_wait, 0);
	}
	if (sig_ignored(p, sig) && sig != SIGKILL && !sig_blocked_by_all(p, sig))
		return;
	if (!(p->sig_pending & SIGBIT(sig)))
		p->sig_origin[sig] = *o;
	p->sig_pending |= SIGBIT(sig);
	struct list_head *pos;
	list_for_each(pos, &p->threads) {
		struct thread *t = list_entry(pos, struct thread, proc_link);
		thread_set_work(t);
		if (!(t->sig_blocked & SIGBIT(sig)) || sig == SIGKILL) {
			signal_kick(t, sig);
			if (sig != SIGKILL)
				break;
		}
	}
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
static void signal_send_user_locked(struct proc *p, int sig, const struct proc *sender)
{
	if (p == init_proc && p->sigactions[sig].handler == SIG_DFL_HANDLER)
		return;
	struct sig_origin o = { .code = SI_USER, .pid = sender->pid, .uid = sender->cred.uid };
	signal_send_origin_locked(p, sig, &o);
}

long sys_kill(int pid, int sig)
{
	struct proc *self = current_thread()->proc;
	if (sig < 0 || sig >= SIG_NSIG)
		return -EINVAL;
	spin_lock(&proc_lock);
	int found = 0, permitted = 0;
	if (pid > 0) {
		struct proc *p = proc_find_locked(pid);
		if (p && p->state == PROC_ALIVE) {
			found = 1;
			if (signal_permitted(self, p)) {
				permitted = 1;
				if (sig)
					signal_send_user_locked(p, sig, self);
			}
		}
	} else {
		/* 0: our group; -1: everyone we may signal but init; < -1: group -pid. */
		int pgid = pid == 0 ? self->pgid : -pid;
		for (struct proc *p = proc_iter_first_locked(); p; p = proc_iter_next_locked(p)) {
			if (p->state != PROC_ALIVE || p == &kernel_proc)
				continue;
			if (pid == -1 ? (p == init_proc || p == self) : p->pgid != pgid)
				continue;
			found++;
			if (signal_permitted(self, p)) {
				permitted++;
				if (sig)
					signal_send_user_locked(p, sig, self);
			}
		}
	}
	spin_unlock(&proc_lock);
	return !found ? -ESRCH : !permitted ? -EPERM : 0;
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
			signal_send_user_locked(p, sig, self);
	}
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
			p->sig_pending &= ~SIGBIT(sig);
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
	t->sig_blocked = mask & ~SIG_UNBLOCKABLE;
	while (!thread_deliverable(t) && !t->kill_pending) {
		waitq_wait(NULL, NULL, 0);
		if (t->freeze_kicked && !thread_deliverable(t) && !t->kill_pending) {
			/* The freezer: park on the way out, then this call runs
			 * again after the thaw (freezer_park). */
			t->sig_blocked = old;
			return -EINTR;
		}
	}
	t->sig_saved_mask = old;
	t->sig_restore_mask = true;
	thread_set_work(t);
	return -EINTR;
}

/* Builds the handler's frame on the user stack and points tf at the
 * handler. False if the stack is unusable. */
static bool signal_setup_frame(struct thread *t, struct trap_frame *tf, int sig,
			       const struct k_sigaction *act, const struct k_siginfo *info)
{
	static struct k_sigframe frame; /* one CPU; interrupts may not deliver signals */
	uint64_t sp = ALIGN_DOWN(tf->rsp - 128 - sizeof(frame), 16) - 8; /* skip the red zone */
	memset(&frame, 0, sizeof(frame));
	frame.restorer = act->restorer;
	frame.info = *info;
	_Static_assert(sizeof(frame.regs) == sizeof(*tf), "register image");
	memcpy(frame.regs, tf, sizeof(*tf));
	frame.mask = t->sig_restore_mask ? t->sig_saved_mask : t->sig_blocked;
	t->sig_restore_mask = false;
	t->sleep_resume = false; /* the handler's own sleeps are new ones */
	static struct fpu_state fpu; /* fxsave needs 16-byte alignment */
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
	static struct k_sigframe frame;
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
	static struct fpu_state fpu; /* fxrstor needs 16-byte alignment */
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

/* Takes the lowest pending deliverable signal, or 0, and fills in *info
 * why it was sent. */
static int signal_dequeue(struct thread *t, struct k_siginfo *info)
{
	spin_lock(&proc_lock);
	uint64_t ready = thread_deliverable(t);
	int sig = ready ? __builtin_ctzll(ready) + 1 : 0;
	if (sig) {
		if (t->sig_pending & SIGBIT(sig))
			t->sig_pending &= ~SIGBIT(sig);
		else
			t->proc->sig_pending &= ~SIGBIT(sig);
		const struct sig_origin *o = &t->proc->sig_origin[sig];
		*info = (struct k_siginfo){ .signo = sig, .code = o->code };
		info->f.proc.pid = o->pid;
		info->f.proc.uid = o->uid;
		info->f.proc.status = o->status;
	}
	spin_unlock(&proc_lock);
	return sig;
}

/* A call the signal interrupted (-EINTR) runs again once the handler
 * returns: back to the syscall instruction (2 bytes) with its number. */
static void signal_restart_syscall(struct thread *t, struct trap_frame *tf)
{
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
		if (SIG_STOPS & SIGBIT(sig))
			signal_stop(p, sig);
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
	while ((sig = signal_dequeue(t, &info)) != 0) {
		bool handler = p->sigactions[sig].handler > SIG_IGN_HANDLER;
		signal_deliver(t, tf, sig, &info);
		handled |= handler;
		if (handler)
			break; /* one frame at a time; the rest after sigreturn */
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
	while (p->stopped && !t->kill_pending) {
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
		t->sleep_resume = tf->error == SYS_sleep_ns;
	}
	spin_unlock(&proc_lock);
}

void signal_fault(struct trap_frame *tf, int sig, uint64_t addr)
{
	struct thread *t = current_thread();
	bool handled = t->proc->sigactions[sig].handler > SIG_IGN_HANDLER &&
		       !(t->sig_blocked & SIGBIT(sig));
	if (!handled) {
		printk(KERN_INFO "arbor: pid %d (%s): %s at ip %p: killed by signal %d\n", t->proc->pid,
		       t->proc->name, trap_name(tf->vector), (void *)tf->rip, sig);
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
		return;
	}
	/* exec: handlers are gone (the code is), ignored signals stay ignored. */
	for (int s = 1; s < SIG_NSIG; s++)
		if (child->sigactions[s].handler != SIG_IGN_HANDLER)
			child->sigactions[s] = (struct k_sigaction){ 0 };
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
