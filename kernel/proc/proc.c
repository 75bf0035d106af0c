/* Processes: the pid table, membership of threads, exit and wait.
 *
 * A process ends when its last thread ends. Its address space is freed at
 * once; it leaves its cgroup (zombies do not count as members, as in
 * Linux) and waits as a zombie until its parent collects the status.
 * Children of an ending process are handed to init (pid 1), or to the
 * kernel process if there is none. proc_lock guards the pid table, every
 * process's state, its threads and children lists; it is taken before the
 * scheduler lock. */
#include "proc.h"
#include "pcache.h"
#include "abi/errno.h"
#include "abi/procinfo.h"
#include "abi/wait.h"
#include "addrspace.h"
#include "cgroup.h"
#include "cgns.h"
#include "controller.h"
#include "cpustat.h"
#include "heap.h"
#include "pmm.h"
#include "sched_fair.h"
#include "syscall.h"
#include "timer.h"
#include "trap.h"
#include "printk.h"
#include "dev.h"
#include "freezer.h"
#include "ipc.h"
#include "kstring.h"
#include "memcg.h"
#include "panic.h"
#include "percpu.h"
#include "ptrace.h"
#include "sched.h"
#include "spinlock.h"

#define PID_HASH_SIZE 256

struct proc kernel_proc;
struct proc *init_proc;	/* adopts orphans; set when the kernel starts bin/init */
struct spinlock proc_lock = SPINLOCK_INIT("proc");
static struct list_head pid_hash[PID_HASH_SIZE];
static struct list_head tid_hash[PID_HASH_SIZE];
static int next_pid = 1;
static uint64_t proc_forks; /* pids and tids given out since boot (proc_lock) */

static void proc_init_common(struct proc *p)
{
	list_init(&p->children);
	list_init(&p->sibling);
	list_init(&p->threads);
	list_init(&p->serving);
	list_init(&p->owned_eps);
	list_init(&p->cg_link);
	list_init(&p->hash_link);
	waitq_init(&p->child_exit);
	waitq_init(&p->stop_wait);
	pollq_init(&p->sig_pollq);
	handle_table_init(&p->handles); /* p is zeroed: kzalloc or static */
	list_init(&p->sig_queue);
	list_init(&p->ptimers);
	list_init(&p->ptraced);
	list_init(&p->ptrace_deaths);
	p->sig_queue_max = p->sig_queue_hard = SIG_QUEUE_DEFAULT;
	p->state = PROC_ALIVE;
}

void proc_init(void)
{
	struct proc *k = &kernel_proc;
	for (int i = 0; i < PID_HASH_SIZE; i++) {
		list_init(&pid_hash[i]);
		list_init(&tid_hash[i]);
	}
	proc_init_common(k);
	k->pid = 0;
	k->cgroup = k->charged = &cg_root;
	list_add_tail(&k->cg_link, &cg_root.procs);
	strlcpy(k->name, "kernel", sizeof(k->name));
}

struct proc *proc_find_locked(int pid)
{
	struct list_head *pos;
	list_for_each(pos, &pid_hash[(unsigned)pid % PID_HASH_SIZE]) {
		struct proc *p = list_entry(pos, struct proc, hash_link);
		if (p->pid == pid)
			return p;
	}
	return NULL;
}

struct cgroup *proc_main_cgroup_locked(const struct proc *p)
{
	if (list_empty(&p->threads))
		return p->cgroup;
	return list_first_entry(&p->threads, struct thread, proc_link)->cgroup;
}

struct thread *thread_find_locked(int tid)
{
	struct list_head *pos;
	list_for_each(pos, &tid_hash[(unsigned)tid % PID_HASH_SIZE]) {
		struct thread *t = list_entry(pos, struct thread, tid_link);
		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* Iteration in pid-hash order: every process once. */
static struct proc *proc_iter_from(unsigned bucket, struct list_head *pos)
{
	for (; bucket < PID_HASH_SIZE; bucket++) {
		if (pos != &pid_hash[bucket])
			return list_entry(pos, struct proc, hash_link);
		if (bucket + 1 < PID_HASH_SIZE)
			pos = pid_hash[bucket + 1].next;
	}
	return NULL;
}

struct proc *proc_iter_first_locked(void)
{
	return proc_iter_from(0, pid_hash[0].next);
}

struct proc *proc_iter_next_locked(struct proc *p)
{
	return proc_iter_from((unsigned)p->pid % PID_HASH_SIZE, p->hash_link.next);
}

struct proc *proc_find(int pid)
{
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	spin_unlock(&proc_lock);
	return p;
}

/* A free pid, counting up and wrapping like Linux. Caller holds proc_lock. */
static int proc_alloc_pid_locked(void)
{
	for (int tries = 0; tries < PID_MAX; tries++) {
		int pid = next_pid;
		next_pid = next_pid >= PID_MAX - 1 ? 2 : next_pid + 1;
		if (!proc_find_locked(pid) && !thread_find_locked(pid)) {
			proc_forks++; /* a process or thread made: /proc/stat's processes */
			return pid; /* pids and tids share one space */
		}
	}
	return -EAGAIN;
}

/* What a process descriptor costs its cgroup (heap.h): its whole block. */
#define PROC_CHARGE_PAGES heap_charge_pages(sizeof(struct proc))

/* A new, empty process: child of parent, its first thread to be in cg
 * (which counts it already, so cg cannot be removed meanwhile), a member
 * of cg's resource domain. */
struct proc *proc_alloc(struct proc *parent, struct cgroup *cg, const char *name, int *err)
{
	/* The descriptor and its handle table (6.6 KiB: an order-1 heap
	 * block) are charged as the pages they take until the parent
	 * collects the zombie. A populated cgroup keeps its
	 * domain: dom is stable while cg has the forking thread. */
	struct cgroup *dom = cg->dom;
	*err = -ENOMEM;
	if (mem_charge(dom, PROC_CHARGE_PAGES, MEMCG_STAT_SLAB))
		return NULL;
	struct proc *p = kzalloc(sizeof(*p));
	if (!p) {
		mem_uncharge(dom, PROC_CHARGE_PAGES, MEMCG_STAT_SLAB);
		return NULL;
	}
	proc_init_common(p);
	strlcpy(p->name, name, sizeof(p->name));
	memcpy(p->cmdline, parent->cmdline, parent->cmdline_len); /* fork's; spawn sets its own */
	p->cmdline_len = parent->cmdline_len;
	p->cred = parent->cred;
	if (parent == &kernel_proc)
		rlimit_defaults(p);
	else
		memcpy(p->rlim, parent->rlim, sizeof(p->rlim));
	p->umask = parent == &kernel_proc ? 022 : parent->umask;
	p->oom_score_adj = parent->oom_score_adj;
	p->oom_score_adj_min = parent->oom_score_adj_min;
	p->start_ns = clock_ns();
	if (parent->cwd) {
		size_t n = strlen(parent->cwd) + 1;
		p->cwd = kmalloc(n);
		if (p->cwd)
			memcpy(p->cwd, parent->cwd, n);
	}
	signal_init_proc(p, parent, false);
	spin_lock(&proc_lock);
	cg_lock();
	/* A parent with a SIGKILL on its way makes no child: so cgroup.kill,
	 * which sends it under this lock, misses no fork in progress. */
	int pid = cg->dead ? -ENODEV : (parent->sig_pending & (1ull << (SIGKILL - 1))) || parent->exiting ? -EINTR :
		  proc_alloc_pid_locked();
	if (pid >= 0) {
		p->pid = pid;
		p->parent = parent;
		p->cgroup = p->charged = dom;
		p->cgns = cgns_of_locked(parent);
		cg_get(dom);
		cg_get(dom);
		list_add_tail(&p->cg_link, &dom->procs);
		cg_thread_born_locked(cg);
		list_add_tail(&p->sibling, &parent->children);
		list_add_tail(&p->hash_link, &pid_hash[(unsigned)pid % PID_HASH_SIZE]);
	}
	cg_unlock();
	spin_unlock(&proc_lock);
	if (pid < 0) {
		kfree(p);
		mem_uncharge(dom, PROC_CHARGE_PAGES, MEMCG_STAT_SLAB);
		*err = pid;
		return NULL;
	}
	return p;
}

void proc_abort_spawn(struct proc *p, struct cgroup *cg)
{
	if (p->as)
		vm_as_destroy(p->as);
	spin_lock(&proc_lock);
	cg_lock();
	list_del(&p->cg_link);
	cg_threads_changed_locked(cg, -1);
	cg_unlock();
	list_del(&p->sibling);
	list_del(&p->hash_link);
	/* It was findable (kill, cgroup.kill) since proc_alloc: what was
	 * sent to it meanwhile is queued, with its siginfo on the heap. */
	signal_proc_exit_locked(p);
	spin_unlock(&proc_lock);
	mem_uncharge(p->charged, PROC_CHARGE_PAGES, MEMCG_STAT_SLAB);
	mem_drain_stock(p->charged);
	cg_put(p->charged);
	cg_put(p->cgroup);
	cgns_put(p->cgns);
	kfree(p->cwd);
	kfree(p);
}

static int proc_add_thread_locked(struct proc *p, struct thread *t);

int proc_add_thread(struct proc *p, struct thread *t)
{
	spin_lock(&proc_lock);
	int r = proc_add_thread_locked(p, t);
	spin_unlock(&proc_lock);
	return r;
}

int proc_start_thread(struct proc *p, struct thread *t)
{
	spin_lock(&proc_lock);
	int r = proc_add_thread_locked(p, t);
	int tid = t->tid;
	if (r == 0 && t->user_tf)
		t->user_tf->rsi = (uint64_t)tid; /* thread_create's ABI: it knows its id at once */
	/* Woken before a kill can see it: one that came first would wake it,
	 * and it could run, end and be freed before our wake-up. */
	if (r == 0)
		sched_wake(t, 0);
	spin_unlock(&proc_lock);
	return r ? r : tid;
}

static int proc_add_thread_locked(struct proc *p, struct thread *t)
{
	if (p->exiting) /* checked under the lock that kill takes */
		return -ESRCH;
	if (p != &kernel_proc) {
		int tid = proc_alloc_pid_locked();
		if (tid < 0)
			return tid;
		t->tid = tid;
		list_add_tail(&t->tid_link, &tid_hash[(unsigned)tid % PID_HASH_SIZE]);
	}
	list_add_tail(&t->proc_link, &p->threads);
	p->nr_threads++;
	cg_lock();
	list_add_tail(&t->cg_link, &t->cgroup->threads);
	sched_set_cpuset(t, cpuset_cpus_locked(t->cgroup));
	if (p != &kernel_proc)
		cg_thread_born_locked(t->cgroup); /* it parks before user mode */
	else
		cg_threads_changed_locked(t->cgroup, 1);
	cg_unlock();
	if (t->cgroup->e_freeze)
		thread_set_work(t); /* born frozen: it parks before user mode */
	return 0;
}

void proc_start_first_thread(struct proc *p, struct thread *t)
{
	spin_lock(&proc_lock);
	list_add_tail(&t->proc_link, &p->threads);
	p->nr_threads++;
	t->tid = p->pid; /* the main thread's tid is the pid */
	list_add_tail(&t->tid_link, &tid_hash[(unsigned)t->tid % PID_HASH_SIZE]);
	cg_lock();
	list_add_tail(&t->cg_link, &t->cgroup->threads); /* counted since proc_alloc */
	sched_set_cpuset(t, cpuset_cpus_locked(t->cgroup));
	cg_unlock();
	/* Killed before it had a thread (cgroup.kill, kill -9 of a fresh
	 * pid): the thread ends on its way to user mode. */
	if (!p->exiting && (p->sig_pending & (1ull << (SIGKILL - 1)))) {
		p->exiting = true;
		p->exit_status = W_SIGNALED(SIGKILL);
	}
	if (p->exiting) {
		t->kill_pending = true;
		thread_set_work(t);
		sched_set_dying(t);
	}
	if (t->cgroup->e_freeze)
		thread_set_work(t); /* born frozen: it parks before user mode */
	/* Woken before the lock goes: from the moment it is on p->threads a
	 * kill (cgroup.kill, kill -9 of the pid) may wake it (proc_kill,
	 * signal_send_locked), and it could then run, end and be freed before
	 * a wake-up after the unlock, which would write to freed memory
	 * (a panic in sched_wake_locked's list_del under the churn soak). */
	sched_wake(t, 0);
	spin_unlock(&proc_lock);
}

/* Where p's orphans go: the nearest living ancestor that made itself a
 * subreaper (PR_SET_CHILD_SUBREAPER), else init. Caller holds proc_lock. */
static struct proc *proc_reaper_locked(const struct proc *p)
{
	for (struct proc *a = p->parent; a && a != &kernel_proc; a = a->parent)
		if (a->subreaper && a->state == PROC_ALIVE && !a->exiting)
			return a;
	struct proc *init = init_proc;
	return init && init->state == PROC_ALIVE && !init->exiting ? init : &kernel_proc;
}

/* The last thread (last) has gone: leave the cgroup, hand the children
 * over, and wake the parent. Caller holds proc_lock. */
static void proc_become_zombie_locked(struct proc *p, struct thread *last)
{
	struct proc *reaper = proc_reaper_locked(p);

	p->state = PROC_ZOMBIE;
	ptrace_tracer_exit_locked(p); /* its tracees run on, untraced */
	pidfd_proc_ended(); /* its pidfds turn readable */
	itimer_disarm_locked(p); /* a zombie gets no SIGALRM */
	signal_proc_exit_locked(p); /* its queued signals and POSIX timers go */
	/* last's task charge stays with the zombie until it is reaped */
	p->zombie_pids = last->cgroup;
	cg_get(last->cgroup);
	last->pids_to_proc = true;
	cg_lock();
	list_del(&p->cg_link);
	list_del(&last->cg_link);
	cg_threads_changed_locked(last->cgroup, -1);
	cg_unlock();
	while (!list_empty(&p->children)) {
		struct proc *c = list_first_entry(&p->children, struct proc, sibling);
		list_del(&c->sibling);
		c->parent = reaper;
		c->orphan = reaper == &kernel_proc;
		list_add_tail(&c->sibling, &reaper->children);
		if (c->state == PROC_ZOMBIE)
			waitq_wake_all(&reaper->child_exit, 0);
		else if (c->pdeathsig) /* PR_SET_PDEATHSIG: its parent has ended */
			signal_send_locked(c, c->pdeathsig);
	}
	struct proc *parent = p->parent;
	bool exited = (p->exit_status & 0x7f) == 0;
	signal_notify_parent_locked(p, exited ? CLD_EXITED : CLD_KILLED,
				    exited ? (p->exit_status >> 8) & 0xff : p->exit_status & 0x7f);
	/* A parent that ignores SIGCHLD (or set SA_NOCLDWAIT) leaves its
	 * children to be reaped: the kernel's loop collects this zombie as
	 * an orphan's, and the parent's wait (woken above) finds no child
	 * once all are gone (ECHILD), as on Linux. */
	if (parent != &kernel_proc && signal_child_autoreap(parent)) {
		list_del(&p->sibling);
		p->parent = &kernel_proc;
		p->orphan = true;
		list_add_tail(&p->sibling, &kernel_proc.children);
		waitq_wake_all(&kernel_proc.child_exit, 0);
	}
}

void proc_thread_exited(struct thread *t, long code)
{
	struct proc *p = t->proc;
	struct addrspace *as = NULL;

	uint64_t user, sys;
	thread_cputime(t, &user, &sys);
	spin_lock(&proc_lock);
	p->cpu_exited[0] += user + sys;
	p->cpu_exited[1] += user;
	p->cpu_exited[2] += sys;
	list_del(&t->proc_link);
	list_del(&t->tid_link);
	signal_thread_exit_locked(t);
	bool last = --p->nr_threads == 0 && p != &kernel_proc;
	if (last && !p->exiting)
		p->exit_status = W_EXITCODE(code);
	ptrace_thread_exit_locked(t, p->exiting || last ? p->exit_status : W_EXITCODE(code));
	if (last) {
		as = p->as;
		p->as = NULL;
		p->last_thread = t;
	} else {
		/* The last one leaves with the process, once its memory is
		 * gone: "populated" 0 means nothing is left to free. */
		cg_lock();
		list_del(&t->cg_link);
		cg_threads_changed_locked(t->cgroup, -1);
		cg_unlock();
		/* Off the process now: it may be reaped and freed as soon as we
		 * let go, so nothing may switch to us again (a switch reads
		 * t->proc) before our last one: sched_exit_current ends this. */
		spin_preempt_inc();
	}
	spin_unlock(&proc_lock);
	if (as) {
		/* The teardown is long and preemptible: with interrupts off it
		 * would hold off the tick and every wake-up (proc_user_return_work) */
		assert(read_rflags() & RFLAGS_IF);
		/* Outside proc_lock: freeing pages takes the allocator's locks. */
		ipc_proc_exit(p);
		dev_proc_exit(p);
		handle_close_all(p);
		vm_as_destroy(as);
		spin_lock(&proc_lock);
		p->last_thread = NULL;
		proc_become_zombie_locked(p, t);
		spin_preempt_inc(); /* the parent may free p from here: as above */
		spin_unlock(&proc_lock);
	}
}

/* Asks every other thread of p to end; blocked ones are woken (-EINTR). */
static void proc_kill_threads_locked(struct proc *p, struct thread *self)
{
	struct list_head *pos;
	list_for_each(pos, &p->threads) {
		struct thread *t = list_entry(pos, struct thread, proc_link);
		if (t == self)
			continue;
		t->kill_pending = true;
		thread_set_work(t);
		sched_set_dying(t);
		sched_interrupt(t);
	}
}

void proc_kill(struct proc *p, int sig)
{
	if (!p)
		return;
	spin_lock(&proc_lock);
	if (p->state == PROC_ALIVE && !p->exiting) {
		p->exiting = true;
		p->exit_status = W_SIGNALED(sig);
		proc_kill_threads_locked(p, NULL);
	}
	spin_unlock(&proc_lock);
}

int proc_end_other_threads(struct proc *p, struct thread *self)
{
	spin_lock(&proc_lock);
	proc_kill_threads_locked(p, self);
	spin_unlock(&proc_lock);
	uint64_t deadline = clock_ns() + 1000000000ull;
	while (p->nr_threads > 1 && clock_ns() < deadline)
		sched_sleep_until(clock_ns() + 1000000);
	return p->nr_threads > 1 ? -EAGAIN : 0;
}

__noreturn void proc_exit(int status)
{
	struct thread *self = current_thread();
	struct proc *p = self->proc;

	spin_lock(&proc_lock);
	if (!p->exiting) {
		p->exiting = true;
		p->exit_status = status;
	}
	proc_kill_threads_locked(p, self);
	spin_unlock(&proc_lock);
	sched_set_dying(self);
	thread_exit(0);
}

void proc_user_return_work(struct trap_frame *tf)
{
	struct thread *t = current_thread();
	if (!t->work)
		return;
	/* Both return paths come here with interrupts off, but the work may
	 * be long: the exit of a killed process tears its memory down, and
	 * memory.high throttles. With interrupts off that held off the timer
	 * tick, and every wake-up on this CPU, for as long (27 ms seen beside
	 * the fuzzer, lockup_warn_ms's "no timer tick"). Work that comes while
	 * they are on waits for the next entry, as work from another CPU
	 * always could. */
	cpu_sti();
	/* Cleared before looking, so nothing sent meanwhile is missed, and
	 * with a full barrier: a plain store may sit in this CPU's store
	 * buffer while the loads below go ahead, and another CPU that set
	 * what they look at (a freeze, a signal) and then work = 1 would see
	 * its 1 overwritten by this 0 and its news missed for good (a frozen
	 * cgroup never "frozen 1" under smp_sched=1). */
	__atomic_exchange_n(&t->work, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->proc->itimer_cpu_fired, __ATOMIC_RELAXED))
		itimer_cpu_send(t->proc);
	if (__atomic_exchange_n(&t->proc->ptimer_cpu_check, 0, __ATOMIC_RELAXED))
		ptimer_cpu_check(t->proc);
	if (t->kill_pending)
		thread_exit(0);
	memcg_user_return(t); /* memory.max events, memory.high throttling */
	if (t->ptrace_sysexit) /* before signals, as Linux's syscall_exit_work */
		ptrace_syscall_exit(t);
	if (thread_has_work(t))
		signal_handle_pending(t, tf);
	if (t->kill_pending)
		thread_exit(0);
	freezer_park(t, tf); /* a frozen cgroup's threads stop here */
	if (thread_has_work(t))
		signal_handle_pending(t, tf); /* what came while it was parked (SIGKILL) */
	if (t->kill_pending)
		thread_exit(0);
	if (thread_has_work(t))
		thread_set_work(t); /* more signals wait (blocked ones do not count) */
	cpu_cli();
}

/* Collects zombie child c. Caller holds proc_lock. */
static int proc_reap_locked(struct proc *c, int *status)
{
	int pid = c->pid;
	*status = c->exit_status;
	for (int i = 0; i < 3; i++)
		c->parent->cpu_children[i] += c->cpu_exited[i] + c->cpu_children[i];
	list_del(&c->sibling);
	list_del(&c->hash_link);
	if (c == init_proc)
		init_proc = NULL;
	mem_uncharge(c->charged, PROC_CHARGE_PAGES, MEMCG_STAT_SLAB);
	if (c->zombie_pids) {
		cg_thread_uncharge(c->zombie_pids);
		cg_put(c->zombie_pids);
	}
	cg_put(c->charged);
	cg_put(c->cgroup);
	cgns_put(c->cgns);
	kfree(c->cwd);
	pollq_detach_all(&c->sig_pollq); /* an epoll elsewhere may still hang on it */
	kfree(c);
	return pid;
}

int proc_wait(struct proc *p, int pid, int *status, int options, uint64_t deadline)
{
	spin_lock(&proc_lock);
	for (;;) {
		bool any = false;
		/* its tracees' stops and deaths first: reported whatever the
		 * options (a tracer needs no WUNTRACED, as Linux) */
		int tid = ptrace_wait_locked(p, pid, false, status, &any);
		if (tid > 0) {
			spin_unlock(&proc_lock);
			return tid;
		}
		struct list_head *pos;
		list_for_each(pos, &p->children) {
			struct proc *c = list_entry(pos, struct proc, sibling);
			if (pid != -1 && c->pid != pid)
				continue;
			any = true;
			if (c->state == PROC_ZOMBIE) {
				int r = proc_reap_locked(c, status);
				spin_unlock(&proc_lock);
				return r;
			}
			if (ptrace_child_traced_by(c, p))
				continue; /* its stops come as ptrace-stops */
			int report = c->stop_report;
			if ((report == W_CONTINUED && (options & WCONTINUED)) ||
			    (report != W_CONTINUED && report && (options & WUNTRACED))) {
				c->stop_report = 0;
				*status = report;
				spin_unlock(&proc_lock);
				return c->pid;
			}
		}
		if (!any || (options & WNOHANG)) {
			spin_unlock(&proc_lock);
			return any ? 0 : -ECHILD;
		}
		int r = waitq_wait(&p->child_exit, &proc_lock, deadline);
		if (r == -EINTR || r == -ETIMEDOUT)
			return r;
		spin_lock(&proc_lock);
	}
}

/* waitid's id types and options (Linux's values). */
#define P_ALL_K 0
#define P_PID_K 1
#define P_PGID_K 2
#define WSTOPPED_K 2
#define WEXITED_K 4
#define WNOWAIT_K 0x01000000

/* What waitid reports of child c with options, into *info (SIGCHLD's
 * siginfo): true if c has something; unless WNOWAIT it is consumed (a
 * zombie reaped: *reaped then). proc_lock held. */
static bool proc_waitid_child_locked(struct proc *c, int options, struct k_siginfo *info, bool *reaped)
{
	int code, status;
	if (c->state == PROC_ZOMBIE) {
		if (!(options & WEXITED_K))
			return false;
		bool exited = (c->exit_status & 0x7f) == 0;
		code = exited ? CLD_EXITED : CLD_KILLED;
		status = exited ? (c->exit_status >> 8) & 0xff : c->exit_status & 0x7f;
	} else if (c->stop_report == W_CONTINUED && (options & WCONTINUED)) {
		code = CLD_CONTINUED;
		status = SIGCONT;
	} else if (c->stop_report && c->stop_report != W_CONTINUED && (options & WSTOPPED_K)) {
		code = CLD_STOPPED;
		status = (c->stop_report >> 8) & 0xff;
	} else {
		return false;
	}
	*info = (struct k_siginfo){ .signo = SIGCHLD, .code = code };
	info->f.proc.pid = c->pid;
	info->f.proc.uid = c->cred.uid;
	info->f.proc.status = status;
	if (!(options & WNOWAIT_K)) {
		if (c->state == PROC_ZOMBIE) {
			int st;
			proc_reap_locked(c, &st);
			*reaped = true;
		} else {
			c->stop_report = 0;
		}
	}
	return true;
}

/* waitid of tracer p's tracees (tid id, -1 any): a ptrace-stop with
 * WSTOPPED is CLD_TRAPPED, a death with WEXITED CLD_EXITED/CLD_KILLED
 * (Linux). True with *info if one was found (and unlocks proc_lock). */
static bool proc_waitid_ptrace_locked(struct proc *p, int id, int options, struct k_siginfo *info, bool *any)
{
	int status;
	bool nowait = options & WNOWAIT_K;
	int tid = ptrace_wait_locked(p, id, true, &status, any);
	if (tid <= 0)
		return false;
	bool stop = (status & 0xff) == 0x7f;
	if (!(options & (stop ? WSTOPPED_K : WEXITED_K)))
		return false; /* (a later one of another tracee waits for the next call) */
	ptrace_wait_locked(p, tid, nowait, &status, any);
	bool exited = (status & 0x7f) == 0;
	*info = (struct k_siginfo){ .signo = SIGCHLD, .code = stop ? 4 /* CLD_TRAPPED */ : exited ? CLD_EXITED : CLD_KILLED };
	info->f.proc.pid = tid;
	info->f.proc.status = stop ? (status >> 8) & 0xff : exited ? (status >> 8) & 0xff : status & 0x7f;
	spin_unlock(&proc_lock);
	return true;
}

long sys_waitid(int idtype, int id, struct k_siginfo *uinfo, int options)
{
	struct proc *p = current_thread()->proc;
	if (options & ~(WNOHANG | WSTOPPED_K | WEXITED_K | WCONTINUED | WNOWAIT_K))
		return -EINVAL;
	if (!(options & (WSTOPPED_K | WEXITED_K | WCONTINUED)))
		return -EINVAL;
	if (idtype != P_ALL_K && idtype != P_PID_K && idtype != P_PGID_K)
		return -EINVAL;
	if ((idtype == P_PID_K && id <= 0) || (idtype == P_PGID_K && id < 0))
		return -EINVAL;
	struct k_siginfo info = { 0 }; /* WNOHANG with nothing: si_pid 0 (Linux zeroes it) */
	spin_lock(&proc_lock);
	int pgid = idtype == P_PGID_K && id == 0 ? p->pgid : id; /* 0: the caller's group */
	for (;;) {
		bool any = false, found = false, reaped = false;
		struct list_head *pos;
		if (idtype != P_PGID_K && proc_waitid_ptrace_locked(p, idtype == P_PID_K ? id : -1, options, &info, &any))
			break;
		list_for_each(pos, &p->children) {
			struct proc *c = list_entry(pos, struct proc, sibling);
			if ((idtype == P_PID_K && c->pid != id) || (idtype == P_PGID_K && c->pgid != pgid))
				continue;
			any = true;
			if (ptrace_child_traced_by(c, p) && c->state != PROC_ZOMBIE)
				continue; /* its stops come as ptrace-stops */
			if (proc_waitid_child_locked(c, options, &info, &reaped)) {
				found = true;
				break;
			}
		}
		if (found || !any || (options & WNOHANG)) {
			spin_unlock(&proc_lock);
			if (!any)
				return -ECHILD;
			break;
		}
		int r = waitq_wait(&p->child_exit, &proc_lock, 0);
		if (r == -EINTR)
			return r;
		spin_lock(&proc_lock);
	}
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/* For diagnosing a process that will not end: its threads and states,
 * and where each thread that is not running waits (proc_lock held). */
/* A dump is made with proc_lock held (no switch meanwhile): at most this
 * many threads of a process are shown, so that a process of thousands of
 * threads cannot turn a report into a soft lockup. */
#define PROC_DUMP_THREADS 32

/* Where t waits. Its saved stack holds switch_context's frame (r15..rbx,
 * rbp, return): a preempted thread shows the interrupt that preempted it,
 * then what it was doing. */
static void proc_dump_stack(struct thread *t)
{
	if (t != current_thread() && t->ksp && t->state != THREAD_DEAD) {
		const uint64_t *sp = (const uint64_t *)t->ksp;
		backtrace_print(sp[5], sp[6]);
	}
}

void proc_dump_locked(struct proc *p)
{
	static const char *const states[] = { "runnable", "blocked", "dead", "donating" };
	struct list_head *pos;
	unsigned shown = 0;
	printk("# pid %d (%s): state %d, exiting %d, %u threads\n", p->pid, p->name, p->state,
	       p->exiting, p->nr_threads);
	if (p->last_thread) {
		struct thread *t = p->last_thread;
		printk("#   tid %d: %s, tearing the process down, on_rq %d, ipc caller %d server %d\n",
		       t->tid, states[t->state], t->se.on_rq, t->ipc_caller ? t->ipc_caller->tid : 0,
		       t->ipc_server ? t->ipc_server->tid : 0);
		proc_dump_stack(p->last_thread);
	}
	list_for_each(pos, &p->threads) {
		struct thread *t = list_entry(pos, struct thread, proc_link);
		if (shown++ == PROC_DUMP_THREADS) {
			printk("#   (%u more threads not shown)\n", p->nr_threads - PROC_DUMP_THREADS);
			break;
		}
		printk("#   tid %d: %s, kill %d, on_rq %d, ipc caller %d server %d, lends to %d, lender %d%s%s\n",
		       t->tid, states[t->state], t->kill_pending, t->se.on_rq,
		       t->ipc_caller ? t->ipc_caller->tid : 0, t->ipc_server ? t->ipc_server->tid : 0,
		       t->ipc_lend_to ? t->ipc_lend_to->tid : 0, t->ipc_lender ? t->ipc_lender->tid : 0,
		       t->rt_on ? ", real-time" : "", t->sched_dying ? ", dying" : "");
		if (t->ipc_caller) /* the context it runs on: a stall shows there */
			printk("#     its caller tid %d: %s, on_rq %d, its server %d\n", t->ipc_caller->tid,
			       states[t->ipc_caller->state], t->ipc_caller->se.on_rq,
			       t->ipc_caller->ipc_server ? t->ipc_caller->ipc_server->tid : 0);
		proc_dump_stack(t);
	}
}

void proc_dump(struct proc *p)
{
	if (!p)
		return;
	spin_lock(&proc_lock);
	proc_dump_locked(p);
	spin_unlock(&proc_lock);
}

/* Linux's SysRq 't' (show tasks) from user space: every process, for the
 * fuzzer and test runners to leave a report when something hangs. Bounded:
 * at most SYSRQ_PROCS processes of PROC_DUMP_THREADS threads each. */
#define SYSRQ_PROCS 256
long sys_sysrq(int key)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (key != 't')
		return -EINVAL;
	int n = 0;
	spin_lock(&proc_lock);
	printk("sysrq: show tasks\n");
	for (struct proc *p = proc_iter_first_locked(); p && n < SYSRQ_PROCS; p = proc_iter_next_locked(p), n++)
		if (p != &kernel_proc)
			proc_dump_locked(p);
	spin_unlock(&proc_lock);
	return 0;
}

long sys_cwd(const char *uset, char *uget, size_t len)
{
	struct proc *p = current_thread()->proc;
	if (uset) {
		char *path = kmalloc(4096);
		if (!path)
			return -ENOMEM;
		long n = copy_string_from_user(path, uset, 4096);
		if (n < 0 || path[0] != '/') {
			kfree(path);
			return n < 0 ? n : -EINVAL;
		}
		spin_lock(&proc_lock);
		char *old = p->cwd;
		p->cwd = path;
		spin_unlock(&proc_lock);
		kfree(old);
	}
	const char *cwd = p->cwd ? p->cwd : "/";
	size_t n = strlen(cwd);
	if (uget && len) {
		size_t c = MIN(n, len - 1);
		if (copy_to_user(uget, cwd, c) || copy_to_user(uget + c, "", 1))
			return -EFAULT;
	}
	return (long)n;
}

long sys_umask(int mask)
{
	struct proc *p = current_thread()->proc;
	long old = p->umask;
	if (mask >= 0)
		p->umask = (uint32_t)mask & 0777;
	return old;
}

long sys_cputime(int which, uint64_t *utimes)
{
	struct thread *self = current_thread();
	struct proc *p = self->proc;
	uint64_t t[3] = { 0 };
	if (which != CPUTIME_PROCESS && which != CPUTIME_THREAD && which != CPUTIME_CHILDREN)
		return -EINVAL;
	spin_lock(&proc_lock);
	if (which == CPUTIME_PROCESS) {
		struct list_head *pos;
		memcpy(t, p->cpu_exited, sizeof(t));
		list_for_each(pos, &p->threads) {
			uint64_t u, s;
			thread_cputime(list_entry(pos, struct thread, proc_link), &u, &s);
			t[0] += u + s;
			t[1] += u;
			t[2] += s;
		}
	} else if (which == CPUTIME_THREAD) {
		thread_cputime(self, &t[1], &t[2]);
		t[0] = t[1] + t[2];
	} else {
		memcpy(t, p->cpu_children, sizeof(t));
	}
	spin_unlock(&proc_lock);
	return copy_to_user(utimes, t, sizeof(t)) ? -EFAULT : 0;
}

long sys_setpriority(int who, int nice)
{
	struct proc *self = current_thread()->proc;
	nice = MAX(SCHED_NICE_MIN, MIN(SCHED_NICE_MAX, nice));
	spin_lock(&proc_lock);
	struct proc *p = who == 0 ? self : proc_find_locked(who);
	long r = 0;
	if (!p || p->state != PROC_ALIVE) {
		r = -ESRCH;
	} else if (self->cred.euid != 0 && self->cred.euid != p->cred.uid && self->cred.euid != p->cred.euid) {
		r = -EPERM;
	} else {
		struct list_head *pos;
		list_for_each(pos, &p->threads) {
			struct thread *t = list_entry(pos, struct thread, proc_link);
			if (nice < t->nice && self->cred.euid != 0)
				r = -EACCES; /* only root may raise priority */
		}
		list_for_each(pos, &p->threads)
			if (r == 0)
				sched_set_nice(list_entry(pos, struct thread, proc_link), nice);
	}
	spin_unlock(&proc_lock);
	return r;
}

long sys_getpriority(int who)
{
	struct proc *self = current_thread()->proc;
	spin_lock(&proc_lock);
	struct proc *p = who == 0 ? self : proc_find_locked(who);
	long r = -ESRCH;
	if (p && p->state == PROC_ALIVE && !list_empty(&p->threads))
		r = 20 - list_first_entry(&p->threads, struct thread, proc_link)->nice;
	spin_unlock(&proc_lock);
	return r;
}

long sys_sched_slice(int who, int64_t *uts)
{
	if (who < 0)
		return -EINVAL;
	spin_lock(&proc_lock);
	/* a thread by tid, as Linux's (a pid is its main thread's tid) */
	struct thread *t = who == 0 ? current_thread() : thread_find_locked(who);
	uint64_t ns = 0;
	long r = -ESRCH;
	if (t && t->state != THREAD_DEAD && t->proc->state == PROC_ALIVE) {
		uint64_t f = spin_lock_irqsave(&sched_lock);
		ns = sched_interval_ns_locked(t);
		spin_unlock_irqrestore(&sched_lock, f);
		r = 0;
	}
	spin_unlock(&proc_lock);
	if (r < 0)
		return r;
	int64_t ts[2] = { (int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u) };
	return copy_to_user(uts, ts, sizeof(ts)) ? -EFAULT : 0;
}

/* proc_list and proc_tids gather ids under proc_lock into a kernel
 * buffer of at most max (clamped to PROC_LIST_MAX) and copy them out
 * after it: copy_to_user may fault, never under proc_lock. */
static long ids_begin(size_t *max, int32_t **k)
{
	if (*max > PROC_LIST_MAX)
		*max = PROC_LIST_MAX;
	*k = *max ? kmalloc(*max * sizeof(int32_t)) : NULL;
	return *max && !*k ? -ENOMEM : 0;
}

/* n ids were found (the first max are in k); err wins. Frees k. */
static long ids_end(int32_t *k, long n, size_t max, int32_t *u, long err)
{
	size_t copy = (size_t)n < max ? (size_t)n : max;
	long r = err ? err : copy && copy_to_user(u, k, copy * sizeof(int32_t)) ? -EFAULT : n;
	kfree(k);
	return r;
}

long sys_proc_list(int32_t *upids, size_t max)
{
	int32_t *k;
	long n = ids_begin(&max, &k);
	if (n)
		return n;
	spin_lock(&proc_lock);
	for (struct proc *p = proc_iter_first_locked(); p; p = proc_iter_next_locked(p)) {
		if (p == &kernel_proc)
			continue;
		if ((size_t)n < max)
			k[n] = p->pid;
		n++;
	}
	spin_unlock(&proc_lock);
	return ids_end(k, n, max, upids, 0);
}

static char proc_state(struct proc *p)
{
	if (p->state == PROC_ZOMBIE)
		return 'Z';
	if (p->stopped)
		return 'T';
	struct list_head *pos;
	list_for_each(pos, &p->threads)
		if (list_entry(pos, struct thread, proc_link)->state != THREAD_BLOCKED)
			return 'R';
	return 'S';
}

/* Fills k with what is known of process p; with t (one of p's threads)
 * the thread's own view replaces the process's where Linux's
 * /proc/PID/task/TID differs: its id, state, CPU time and cgroup.
 * Called with proc_lock held; copies nothing to user memory. */
static void proc_info_fill_locked(struct proc *p, struct thread *t, struct k_procinfo *k)
{
	k->pid = p->pid;
	k->tid = t ? t->tid : p->pid;
	k->ppid = p->parent ? p->parent->pid : 0;
	k->pgid = p->pgid;
	k->sid = p->sid;
	k->uid = p->cred.uid;
	k->gid = p->cred.gid;
	k->euid = p->cred.euid;
	k->egid = p->cred.egid;
	k->nthreads = p->nr_threads;
	k->state = proc_state(p);
	if (t && k->state != 'Z' && k->state != 'T')
		k->state = t->state == THREAD_BLOCKED ? 'S' : 'R';
	uint64_t u, s;
	if (t) {
		thread_cputime(t, &u, &s);
		k->utime_ns = u;
		k->stime_ns = s;
	} else {
		k->utime_ns = p->cpu_exited[1];
		k->stime_ns = p->cpu_exited[2];
		struct list_head *pos;
		list_for_each(pos, &p->threads) {
			thread_cputime(list_entry(pos, struct thread, proc_link), &u, &s);
			k->utime_ns += u;
			k->stime_ns += s;
		}
	}
	k->resident_pages = p->as ? p->as->resident : 0;
	k->start_ns = p->start_ns;
	strlcpy(k->name, p->name, sizeof(k->name));
	k->suid = p->cred.suid;
	k->sgid = p->cred.sgid;
	k->cmdline_len = p->cmdline_len;
	memcpy(k->cmdline, p->cmdline, p->cmdline_len);
	k->oom_score_adj = p->oom_score_adj;
	k->oom_score_adj_min = p->oom_score_adj_min;
	k->oom_score = oom_score_locked(p);
	signal_info_fill_locked(p, t, k);
	struct cgroup *cg = t ? t->cgroup : proc_main_cgroup_locked(p);
	size_t n = cg_path(cg, k->cgroup, sizeof(k->cgroup));
	if (cg->dead) /* a zombie of a removed cgroup, as Linux shows it */
		strlcpy(k->cgroup + MIN(n, sizeof(k->cgroup) - 1), " (deleted)", sizeof(k->cgroup) - MIN(n, sizeof(k->cgroup) - 1));
}

/* proc_info (pid) and thread_info (tid): one record, copied out after
 * proc_lock is dropped (copy_to_user may fault). */
static long proc_info_of(int id, bool thread, struct k_procinfo *uinfo)
{
	struct k_procinfo *k = kzalloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	spin_lock(&proc_lock);
	struct thread *t = thread ? thread_find_locked(id) : NULL;
	struct proc *p = thread ? (t && t->state != THREAD_DEAD ? t->proc : NULL) : proc_find_locked(id);
	if (p)
		proc_info_fill_locked(p, t, k);
	spin_unlock(&proc_lock);
	long r = !p ? -ESRCH : copy_to_user(uinfo, k, sizeof(*k)) ? -EFAULT : 0;
	kfree(k);
	return r;
}

long sys_proc_info(int pid, struct k_procinfo *uinfo)
{
	return proc_info_of(pid, false, uinfo);
}

long sys_thread_info(int tid, struct k_procinfo *uinfo)
{
	return proc_info_of(tid, true, uinfo);
}

/* As proc_list, over one process's threads. */
long sys_proc_tids(int pid, int32_t *utids, size_t max)
{
	int32_t *k;
	long n = ids_begin(&max, &k);
	if (n)
		return n;
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	if (p) {
		struct list_head *pos;
		list_for_each(pos, &p->threads) {
			struct thread *t = list_entry(pos, struct thread, proc_link);
			if (t->state == THREAD_DEAD)
				continue;
			if ((size_t)n < max)
				k[n] = t->tid;
			n++;
		}
	}
	spin_unlock(&proc_lock);
	return ids_end(k, n, max, utids, p ? 0 : -ESRCH);
}

int proc_reap_orphans(void)
{
	int n = 0, status;
	spin_lock(&proc_lock);
	struct list_head *pos = kernel_proc.children.next;
	while (pos != &kernel_proc.children) {
		struct proc *c = list_entry(pos, struct proc, sibling);
		pos = pos->next;
		if (c->orphan && c->state == PROC_ZOMBIE) {
			proc_reap_locked(c, &status);
			n++;
		}
	}
	spin_unlock(&proc_lock);
	return n;
}

void proc_set_cmdline(struct proc *p, const char *const argv[])
{
	uint32_t n = 0;
	for (; argv && *argv; argv++) {
		size_t len = strlen(*argv) + 1;
		if (n + len > sizeof(p->cmdline))
			break;
		memcpy(p->cmdline + n, *argv, len);
		n += (uint32_t)len;
	}
	p->cmdline_len = n;
}

long sys_meminfo(struct k_meminfo *u)
{
	/* Idle: the time since boot that no thread ran (one CPU). */
	uint64_t now = clock_ns(), busy = sched_group_usage_ns(&cg_root.sched);
	struct pcache_pager_stats ps;
	pcache_pager_stats(&ps);
	struct k_meminfo *k = kzalloc(sizeof(*k)); /* 1 KiB: not on the stack */
	if (!k)
		return -ENOMEM;
	k->total_pages = pmm_managed_pages();
	k->free_pages = pmm_free_pages();
	k->page_size = PAGE_SIZE;
	k->idle_ns = now > busy ? now - busy : 0;
	k->kernel_heap_bytes = heap_bytes_in_use();
	k->pager_fills = ps.fills;
	k->pager_fill_pages = ps.fill_pages;
	k->ra_async = ps.ra_async;
	k->ra_async_pages = ps.ra_async_pages;
	pcache_grant_stats(&k->grant_pages, &k->grant_filled, &k->grant_written);
	loadavg_get(k->loads, &k->nr_threads);
	spin_lock(&proc_lock);
	k->forks = proc_forks;
	spin_unlock(&proc_lock);
	cpustat_read(k);
	long r = copy_to_user(u, k, sizeof(*k)) ? -EFAULT : 0;
	kfree(k);
	return r;
}
