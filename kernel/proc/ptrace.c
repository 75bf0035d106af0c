/* ptrace(2): the tracer/tracee relation, ptrace-stops and the requests
 * (kernel/include/ptrace.h; docs/ptrace.md).
 *
 * A tracee is a thread; its tracer a process (any of its threads may
 * issue requests and wait). Stops happen only on the tracee's own way back
 * to user mode (signal.c, proc.c call in here) or around a system call it
 * makes (syscall.S, while its systrace word is set), never in the middle
 * of kernel work: a stopped tracee holds no lock and no server waits for
 * it. While stopped it waits on its process's stop_wait; SIGKILL, the
 * tracer's resumption or detach, and the tracer's end wake it. A stopped
 * tracee counts as frozen for the cgroup freezer (Linux's
 * cgroup_enter_frozen in ptrace_stop), so a cgroup freezes around it and a
 * frozen tracee can be seized, interrupted and detached without the
 * cgroup ever reading "frozen 0". All state is under proc_lock. */
#include "ptrace.h"
#include "abi/errno.h"
#include "abi/ptrace.h"
#include "abi/signal.h"
#include "abi/wait.h"
#include "addrspace.h"
#include "freezer.h"
#include "heap.h"
#include "kstring.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "trap.h"

/* PTRACE_SYSCALL on or off for t: the word the exit path tests, and the
 * bound the syscall entry compares with (on t's kernel stack, so an
 * untraced call pays no extra test and a switch copies nothing). Between
 * the two stores the entry may see a bound of 0 without systrace: its
 * slow path then looks again and runs the call. */
static void ptrace_set_systrace(struct thread *t, bool on)
{
	__atomic_store_n(&t->systrace, on, __ATOMIC_RELAXED);
	__atomic_store_n(thread_syscall_limit(t), on ? 0 : SYSCALL_COUNT, __ATOMIC_RELAXED);
}

#define CLD_TRAPPED_K 4
#define PT_STATUS(sig, event) ((((event) << 8 | (sig)) << 8) | 0x7f)

/* A tracee's death its tracer's wait collects when the tracee is not the
 * main thread of one of its children (a parent learns of its children's
 * deaths from their zombies). */
struct ptrace_death {
	struct list_head link;
	int tid;
	int status;
};

bool ptrace_proc_traced(const struct proc *p)
{
	const struct list_head *pos;
	list_for_each(pos, &p->threads) {
		if (list_entry(pos, struct thread, proc_link)->ptracer)
			return true;
	}
	return false;
}

bool ptrace_child_traced_by(struct proc *c, const struct proc *p)
{
	struct thread *t = thread_find_locked(c->pid);
	return t && t->proc == c && t->ptracer == p;
}

/* Tells t's tracer that t stopped (SIGCHLD with CLD_TRAPPED, as Linux's
 * do_notify_parent_cldstop for a ptrace-stop) and wakes its waits. */
static void ptrace_notify_locked(struct thread *t, int status)
{
	struct proc *tracer = t->ptracer;
	waitq_wake_all(&tracer->child_exit, 0);
	struct sig_origin o = { .code = CLD_TRAPPED_K, .pid = t->tid, .uid = t->proc->cred.uid,
				.status = (status >> 8) & 0xff };
	signal_send_origin_locked(tracer, SIGCHLD, &o);
}

/* The ptrace-stop: t (the caller) reports status with *info and waits
 * until its tracer resumes it, detaches or ends, or it is killed. Returns
 * the signal its resumption gave (0: none; -1: it did not stop). */
static int ptrace_stop(struct thread *t, int status, const struct k_siginfo *info)
{
	spin_lock(&proc_lock);
	if (!t->ptracer || thread_fatal_signal(t) || t->proc->exiting) {
		spin_unlock(&proc_lock);
		return -1;
	}
	t->ptrace_stopped = true;
	t->ptrace_report = status;
	t->ptrace_info = *info;
	t->ptrace_resume = 0;
	ptrace_notify_locked(t, status);
	freezer_stop_enter(t);
	/* The freezer's kick wakes us too: a stop is no wait to restart. */
	bool kicked = t->freeze_kicked;
	while (t->ptrace_stopped && !thread_fatal_signal(t) && !t->proc->exiting) {
		waitq_wait(&t->proc->stop_wait, &proc_lock, 0);
		spin_lock(&proc_lock);
	}
	t->freeze_kicked = kicked;
	t->ptrace_stopped = false;
	t->ptrace_report = 0; /* a report not collected goes with the stop (Linux) */
	int sig = t->ptrace_resume;
	t->ptrace_resume = 0;
	spin_unlock(&proc_lock);
	/* Still counted as frozen: a frozen cgroup keeps it parked without
	 * ever reading "frozen 0" (test_cgfreezer_ptrace's detach). */
	freezer_stop_leave(t);
	return sig;
}

int ptrace_signal_stop(struct thread *t, int sig, struct k_siginfo *info)
{
	int r = ptrace_stop(t, W_STOPPED(sig), info);
	if (r < 0)
		return sig;
	if (r == 0)
		return 0;
	spin_lock(&proc_lock);
	/* SETSIGINFO may have changed what the handler will see; another
	 * signal than the one stopped for comes from the tracer (Linux). */
	if (r != sig) {
		*info = (struct k_siginfo){ .signo = r, .code = SI_USER };
		struct proc *tracer = t->ptracer;
		if (tracer) {
			info->f.proc.pid = tracer->pid;
			info->f.proc.uid = tracer->cred.uid;
		}
	} else {
		*info = t->ptrace_info;
		info->signo = sig;
	}
	spin_unlock(&proc_lock);
	if (t->sig_blocked & (1ull << (r - 1))) {
		/* blocked now: it waits pending, as Linux requeues it */
		signal_send_thread_info(t, r, info);
		return 0;
	}
	return r;
}

void ptrace_group_stop(struct thread *t, int sig)
{
	struct k_siginfo info = { .signo = sig, .code = SI_USER };
	ptrace_stop(t, t->ptrace_seized ? PT_STATUS(sig, K_PTRACE_EVENT_STOP) : W_STOPPED(sig), &info);
}

void ptrace_trap_stop(struct thread *t)
{
	spin_lock(&proc_lock);
	bool trap = t->ptrace_trap && t->ptracer;
	t->ptrace_trap = false;
	/* in a group stop the trap reports the stop signal (Linux) */
	int sig = t->proc->stopped && t->proc->stop_report != W_CONTINUED && t->proc->stop_report ?
			  (t->proc->stop_report >> 8) & 0xff :
			  SIGTRAP;
	spin_unlock(&proc_lock);
	if (!trap)
		return;
	struct k_siginfo info = { .signo = SIGTRAP, .code = SIGTRAP | K_PTRACE_EVENT_STOP << 8 };
	info.f.proc.pid = t->tid;
	info.f.proc.uid = t->proc->cred.uid;
	ptrace_stop(t, PT_STATUS(sig, K_PTRACE_EVENT_STOP), &info);
}

/* A syscall stop: SIGTRAP (| 0x80 with PTRACE_O_TRACESYSGOOD). A signal
 * the resumption gives is sent to the tracee (Linux's
 * ptrace_report_syscall). */
static void ptrace_syscall_stop(struct thread *t)
{
	int sig = SIGTRAP | ((t->ptrace_opts & K_PTRACE_O_TRACESYSGOOD) ? 0x80 : 0);
	struct k_siginfo info = { .signo = SIGTRAP, .code = sig };
	info.f.proc.pid = t->tid;
	info.f.proc.uid = t->proc->cred.uid;
	int r = ptrace_stop(t, W_STOPPED(sig), &info);
	if (r > 0) {
		struct k_siginfo si = { .signo = r, .code = SI_USER };
		signal_send_thread_info(t, r, &si);
	}
}

long ptrace_syscall(struct trap_frame *tf)
{
	struct thread *t = current_thread();
	cpu_sti();
	/* At the entry stop the tracer sees the number in orig_rax and
	 * -ENOSYS in rax, as on Linux. */
	tf->rax = (uint64_t)-ENOSYS;
	ptrace_syscall_stop(t);
	uint64_t nr = tf->error;
	long r = (long)tf->rax;
	if (t->kill_pending || thread_fatal_signal(t))
		r = -EINTR; /* killed at the stop: the call does not run */
	else if (nr < SYSCALL_COUNT)
		r = syscall_table[nr](tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9);
	/* the exit stop comes on the way out, after the call's own work */
	spin_lock(&proc_lock);
	if (t->ptracer && t->systrace) {
		t->ptrace_sysexit = true;
		thread_set_work(t);
	}
	spin_unlock(&proc_lock);
	return r;
}

void ptrace_syscall_exit(struct thread *t)
{
	t->ptrace_sysexit = false;
	ptrace_syscall_stop(t);
}

void ptrace_exec(struct thread *t)
{
	spin_lock(&proc_lock);
	bool traced = t->ptracer != NULL;
	bool event = traced && (t->ptrace_opts & K_PTRACE_O_TRACEEXEC);
	spin_unlock(&proc_lock);
	if (!traced)
		return;
	if (!event) {
		/* the legacy SIGTRAP after execve (what TRACEME + exec waits for) */
		struct k_siginfo info = { .signo = SIGTRAP, .code = SI_USER };
		if (!t->ptrace_seized)
			signal_send_thread_info(t, SIGTRAP, &info);
		return;
	}
	struct k_siginfo info = { .signo = SIGTRAP, .code = SIGTRAP | K_PTRACE_EVENT_EXEC << 8 };
	info.f.proc.pid = t->tid;
	ptrace_stop(t, PT_STATUS(SIGTRAP, K_PTRACE_EVENT_EXEC), &info);
}

/* Ends the relation (proc_lock held): t runs again if it was stopped,
 * with signal sig for a signal-delivery-stop. */
static void ptrace_unlink_locked(struct thread *t, int sig)
{
	list_del(&t->ptrace_link);
	list_init(&t->ptrace_link);
	t->ptracer = NULL;
	t->ptrace_opts = 0;
	t->ptrace_seized = t->ptrace_trap = t->ptrace_sysexit = false;
	ptrace_set_systrace(t, false);
	if (t->ptrace_stopped) {
		t->ptrace_stopped = false;
		t->ptrace_resume = sig;
		waitq_wake_all(&t->proc->stop_wait, 0);
	}
	/* back to a group stop its process may be in (Linux's detach) */
	if (t->proc->stopped)
		thread_set_work(t);
}

void ptrace_thread_exit_locked(struct thread *t, int status)
{
	struct proc *tracer = t->ptracer;
	if (!tracer)
		return;
	ptrace_unlink_locked(t, 0);
	if (t->proc->parent == tracer && t->tid == t->proc->pid)
		return; /* the zombie tells its parent */
	struct ptrace_death *d = kmalloc(sizeof(*d));
	if (d) { /* out of memory: the tracer's wait misses it, never hangs (ECHILD) */
		d->tid = t->tid;
		d->status = status;
		list_add_tail(&d->link, &tracer->ptrace_deaths);
	}
	bool exited = (status & 0x7f) == 0;
	struct sig_origin o = { .code = exited ? CLD_EXITED : CLD_KILLED, .pid = t->tid, .uid = t->proc->cred.uid,
				.status = exited ? (status >> 8) & 0xff : status & 0x7f };
	waitq_wake_all(&tracer->child_exit, 0);
	signal_send_origin_locked(tracer, SIGCHLD, &o);
}

void ptrace_tracer_exit_locked(struct proc *p)
{
	while (!list_empty(&p->ptraced)) {
		struct thread *t = list_first_entry(&p->ptraced, struct thread, ptrace_link);
		bool kill = t->ptrace_opts & K_PTRACE_O_EXITKILL;
		ptrace_unlink_locked(t, 0);
		if (kill)
			signal_send_locked(t->proc, SIGKILL);
	}
	while (!list_empty(&p->ptrace_deaths)) {
		struct ptrace_death *d = list_first_entry(&p->ptrace_deaths, struct ptrace_death, link);
		list_del(&d->link);
		kfree(d);
	}
}

int ptrace_wait_locked(struct proc *p, int pid, bool nowait, int *status, bool *any)
{
	struct list_head *pos;
	list_for_each(pos, &p->ptraced) {
		struct thread *t = list_entry(pos, struct thread, ptrace_link);
		if (pid != -1 && t->tid != pid)
			continue;
		*any = true;
		if (t->ptrace_stopped && t->ptrace_report) {
			*status = t->ptrace_report;
			if (!nowait)
				t->ptrace_report = 0;
			return t->tid;
		}
	}
	list_for_each(pos, &p->ptrace_deaths) {
		struct ptrace_death *d = list_entry(pos, struct ptrace_death, link);
		if (pid != -1 && d->tid != pid)
			continue;
		*any = true;
		int tid = d->tid;
		*status = d->status;
		if (!nowait) {
			list_del(&d->link);
			kfree(d);
		}
		return tid;
	}
	return 0;
}

/* May tracer process self attach to thread t (Linux's __ptrace_may_access
 * for PTRACE_MODE_ATTACH_REALCREDS, without capabilities but root's)?
 * Never to itself, init, the kernel, or a thread already traced. */
static int ptrace_may_attach_locked(const struct proc *self, const struct thread *t)
{
	const struct proc *p = t->proc;
	if (p == self || p == init_proc || p->pid == 1 || p == &kernel_proc || !p->as)
		return -EPERM;
	if (t->ptracer)
		return -EPERM;
	const struct cred *c = &self->cred, *tc = &p->cred;
	if (c->euid == 0)
		return 0;
	/* the caller's real ids are all of the target's: a set-id program
	 * (whose ids differ) is root's to trace only */
	if (c->uid == tc->uid && c->uid == tc->euid && c->uid == tc->suid && c->gid == tc->gid &&
	    c->gid == tc->egid && c->gid == tc->sgid)
		return 0;
	return -EPERM;
}

static void ptrace_link_locked(struct proc *tracer, struct thread *t, bool seized, uint32_t opts)
{
	t->ptracer = tracer;
	t->ptrace_seized = seized;
	t->ptrace_opts = opts;
	list_add_tail(&t->ptrace_link, &tracer->ptraced);
}

static long ptrace_traceme(struct thread *self)
{
	spin_lock(&proc_lock);
	struct proc *parent = self->proc->parent;
	long r = 0;
	if (self->ptracer)
		r = -EPERM;
	else if (!parent || parent == &kernel_proc || parent->state != PROC_ALIVE || parent->exiting)
		r = -EPERM; /* nobody to trace it (an orphan of the kernel's) */
	else
		ptrace_link_locked(parent, self, false, 0);
	spin_unlock(&proc_lock);
	return r;
}

static long ptrace_attach(struct proc *self, int pid, bool seize, uint64_t addr, uint64_t data)
{
	if (seize && addr)
		return -EIO;
	if (seize && (data & ~(uint64_t)K_PTRACE_O_MASK))
		return -EIO; /* (SETOPTIONS says EINVAL: Linux) */
	if (pid <= 0)
		return -ESRCH;
	spin_lock(&proc_lock);
	struct thread *t = thread_find_locked(pid);
	long r = -ESRCH;
	if (t && t->proc->state == PROC_ALIVE && !t->proc->exiting && !t->kill_pending)
		r = ptrace_may_attach_locked(self, t);
	if (r == 0) {
		ptrace_link_locked(self, t, seize, seize ? (uint32_t)data : 0);
		if (!seize) { /* ATTACH stops it: a SIGSTOP for that thread (Linux) */
			struct k_siginfo info = { .signo = SIGSTOP, .code = SI_USER };
			info.f.proc.pid = self->pid;
			info.f.proc.uid = self->cred.uid;
			signal_send_thread_info_locked(t, SIGSTOP, &info);
		}
	}
	spin_unlock(&proc_lock);
	return r;
}

/* GETREGS: the tracee's user registers as Linux's user_regs_struct. */
static void ptrace_regs_get(const struct trap_frame *tf, struct k_user_regs *u)
{
	*u = (struct k_user_regs){
		.r15 = tf->r15, .r14 = tf->r14, .r13 = tf->r13, .r12 = tf->r12, .rbp = tf->rbp,
		.rbx = tf->rbx, .r11 = tf->r11, .r10 = tf->r10, .r9 = tf->r9, .r8 = tf->r8,
		.rax = tf->rax, .rcx = tf->rcx, .rdx = tf->rdx, .rsi = tf->rsi, .rdi = tf->rdi,
		/* the call's number in a system call, else -1 (Linux) */
		.orig_rax = tf->vector == SYSCALL_VECTOR ? tf->error : (uint64_t)-1,
		.rip = tf->rip, .cs = tf->cs, .eflags = tf->rflags, .rsp = tf->rsp, .ss = tf->ss,
	};
}

/* SETREGS: what a tracer may change. Segments stay (Linux checks them;
 * Arbor has one user code and one data segment), flags keep to the user
 * bits with interrupts on, rip must be a user address (-EIO). */
static long ptrace_regs_set(struct trap_frame *tf, const struct k_user_regs *u)
{
	if (u->rip >= USER_TOP)
		return -EIO;
	tf->r15 = u->r15, tf->r14 = u->r14, tf->r13 = u->r13, tf->r12 = u->r12, tf->rbp = u->rbp;
	tf->rbx = u->rbx, tf->r11 = u->r11, tf->r10 = u->r10, tf->r9 = u->r9, tf->r8 = u->r8;
	tf->rax = u->rax, tf->rcx = u->rcx, tf->rdx = u->rdx, tf->rsi = u->rsi, tf->rdi = u->rdi;
	if (tf->vector == SYSCALL_VECTOR)
		tf->error = u->orig_rax;
	tf->rip = u->rip;
	tf->rsp = u->rsp;
	tf->rflags = (u->eflags & 0xcd5) | RFLAGS_IF | 0x2;
	return 0;
}

/* PEEK/POKE of the tracee's memory (its address space held meanwhile):
 * a word at addr. A write to a private mapping goes through its
 * protection (a breakpoint in code, Linux's FOLL_FORCE), a shared one must
 * be writable. -EIO for an address it cannot reach (Linux). */
static long ptrace_mem(struct addrspace *as, uint64_t addr, uint64_t *word, bool write)
{
	int r = write ? vm_copy_to_force(as, addr, word, sizeof(*word)) : vm_copy_from(as, word, addr, sizeof(*word));
	return r == -ENOMEM ? -ENOMEM : r ? -EIO : 0;
}

/* The requests on a stopped tracee (proc_lock held on entry, released). */
static long ptrace_request_stopped(struct thread *t, int request, uint64_t addr, uint64_t data)
{
	struct k_siginfo info;
	struct addrspace *as;
	long r = 0;
	switch (request) {
	case K_PTRACE_CONT:
	case K_PTRACE_SYSCALL:
	case K_PTRACE_DETACH:
		if (data >= SIG_NSIG) {
			spin_unlock(&proc_lock);
			return -EIO;
		}
		if (request == K_PTRACE_DETACH) {
			ptrace_unlink_locked(t, (int)data);
		} else {
			ptrace_set_systrace(t, request == K_PTRACE_SYSCALL);
			t->ptrace_stopped = false;
			t->ptrace_resume = (int)data;
			waitq_wake_all(&t->proc->stop_wait, 0);
		}
		spin_unlock(&proc_lock);
		return 0;
	case K_PTRACE_SETOPTIONS:
		if (data & ~(uint64_t)K_PTRACE_O_MASK)
			r = -EINVAL;
		else
			t->ptrace_opts = (uint32_t)data;
		spin_unlock(&proc_lock);
		return r;
	case K_PTRACE_GETEVENTMSG:
		spin_unlock(&proc_lock);
		data = 0; /* no event Arbor reports carries a message */
		return copy_to_user((void *)addr, &data, sizeof(data)) ? -EFAULT : 0;
	case K_PTRACE_GETSIGINFO:
		info = t->ptrace_info;
		spin_unlock(&proc_lock);
		return copy_to_user((void *)data, &info, sizeof(info)) ? -EFAULT : 0;
	case K_PTRACE_GETREGS: {
		struct k_user_regs u;
		ptrace_regs_get(t->user_tf, &u);
		spin_unlock(&proc_lock);
		return copy_to_user((void *)data, &u, sizeof(u)) ? -EFAULT : 0;
	}
	case K_PTRACE_PEEKUSER: {
		struct k_user_regs u;
		ptrace_regs_get(t->user_tf, &u);
		spin_unlock(&proc_lock);
		/* the registers (struct user starts with them); the rest of
		 * struct user (FPU, debug registers) reads as 0 */
		if (addr & 7 || addr >= 912)
			return -EIO;
		uint64_t w = addr < sizeof(u) ? ((uint64_t *)&u)[addr / 8] : 0;
		return copy_to_user((void *)data, &w, sizeof(w)) ? -EFAULT : 0;
	}
	case K_PTRACE_PEEKTEXT:
	case K_PTRACE_PEEKDATA:
	case K_PTRACE_POKETEXT:
	case K_PTRACE_POKEDATA: {
		as = t->proc->as;
		if (!as || !vm_as_tryget(as)) {
			spin_unlock(&proc_lock);
			return -ESRCH;
		}
		spin_unlock(&proc_lock);
		bool poke = request == K_PTRACE_POKETEXT || request == K_PTRACE_POKEDATA;
		uint64_t w = data;
		r = ptrace_mem(as, addr, &w, poke);
		vm_as_destroy(as); /* our reference */
		if (!r && !poke && copy_to_user((void *)data, &w, sizeof(w)))
			r = -EFAULT;
		return r;
	}
	default:
		break;
	}
	spin_unlock(&proc_lock);
	return -EIO;
}

/* Requests that write the tracee from the caller's memory: the copy in
 * first (it may fault), then the tracee looked up again and changed. */
static long ptrace_request_in(struct proc *self, int request, int pid, uint64_t data)
{
	struct k_user_regs u;
	struct k_siginfo info;
	if (request == K_PTRACE_SETREGS ? copy_from_user(&u, (void *)data, sizeof(u)) :
					  copy_from_user(&info, (void *)data, sizeof(info)))
		return -EFAULT;
	spin_lock(&proc_lock);
	struct thread *t = pid > 0 ? thread_find_locked(pid) : NULL;
	long r = -ESRCH;
	if (t && t->ptracer == self && t->ptrace_stopped)
		r = request == K_PTRACE_SETREGS ? ptrace_regs_set(t->user_tf, &u) : (t->ptrace_info = info, 0);
	spin_unlock(&proc_lock);
	return r;
}

long sys_ptrace(int request, int pid, uint64_t addr, uint64_t data)
{
	struct thread *self = current_thread();
	struct proc *me = self->proc;
	if (request == K_PTRACE_TRACEME)
		return ptrace_traceme(self);
	if (request == K_PTRACE_ATTACH || request == K_PTRACE_SEIZE)
		return ptrace_attach(me, pid, request == K_PTRACE_SEIZE, addr, data);
	if (request == K_PTRACE_SETREGS || request == K_PTRACE_SETSIGINFO)
		return ptrace_request_in(me, request, pid, data);
	spin_lock(&proc_lock);
	struct thread *t = pid > 0 ? thread_find_locked(pid) : NULL;
	if (!t || t->ptracer != me) {
		spin_unlock(&proc_lock);
		return -ESRCH;
	}
	if (request == K_PTRACE_KILL) {
		signal_send_locked(t->proc, SIGKILL);
		spin_unlock(&proc_lock);
		return 0;
	}
	if (request == K_PTRACE_INTERRUPT) {
		long r = 0;
		if (!t->ptrace_seized) {
			r = -EIO;
		} else if (!t->ptrace_stopped) {
			t->ptrace_trap = true;
			/* out of a wait (its call runs again after the stop) or
			 * the freezer's park, to its way back to user mode */
			freezer_kick(t);
		}
		spin_unlock(&proc_lock);
		return r;
	}
	if (!t->ptrace_stopped) {
		spin_unlock(&proc_lock);
		return -ESRCH; /* every other request wants it stopped (Linux) */
	}
	return ptrace_request_stopped(t, request, addr, data);
}
