/* Thread life cycle: creation with a charged kernel stack, exit, and
 * reaping once the scheduler has left the thread's stack. */
#include "proc.h"
#include "syscall.h"
#include "kcov.h"
#include "abi/errno.h"
#include "cgroup.h"
#include "controller.h"
#include "heap.h"
#include "ipc.h"
#include "kstring.h"
#include "memcg.h"
#include "panic.h"
#include "pcache.h"
#include "percpu.h"
#include "pmm.h"
#include "sched.h"
#include "spinlock.h"

void thread_trampoline(void);

_Static_assert(offsetof(struct thread, work) == THREAD_OFF_WORK, "asm offset");
_Static_assert(offsetof(struct thread, systrace) == THREAD_OFF_SYSTRACE, "asm offset");

/* User threads take their tid from the pid space when they join their
 * process (the first one's is the pid, as on Linux); the kernel's own
 * threads count above it, where no user id ever is. */
static int next_ktid = PID_MAX + 1;
static struct spinlock ktid_lock = SPINLOCK_INIT("ktid");

static int thread_alloc_ktid(void)
{
	spin_lock(&ktid_lock);
	int tid = next_ktid++;
	spin_unlock(&ktid_lock);
	return tid;
}

/* The first switch_context into the thread pops these callee-saved
 * registers and "returns" to thread_trampoline(fn = r12, arg = r13). */
void thread_prepare_stack(struct thread *t, uint64_t top, long (*fn)(void *), void *arg)
{
	uint64_t *sp = (uint64_t *)top;
	/* After the "ret" rsp is the 16-byte aligned stack top, as the
	 * trampoline's calls need. */
	*--sp = (uint64_t)thread_trampoline;
	*--sp = 0;			/* rbp */
	*--sp = 0;			/* rbx */
	*--sp = (uint64_t)fn;		/* r12 */
	*--sp = (uint64_t)arg;		/* r13 */
	*--sp = 0;			/* r14 */
	*--sp = 0;			/* r15 */
	t->ksp = (uint64_t)sp;
}

/* Allocates a thread of process p, scheduled in cg; not yet runnable.
 * The kernel stack is charged to cg's resource domain (memory is a domain
 * controller: a threaded cgroup's pages count in its thread root). */
struct thread *thread_alloc(struct proc *p, struct cgroup *cg, const char *name, int *err)
{
	struct cgroup *dom = cg->dom;
	/* A task for the controllers (pids: EAGAIN at a limit), then the
	 * descriptor (with its FPU area) is charged as one page. */
	if ((*err = cg_thread_charge(cg)))
		return NULL;
	*err = -ENOMEM;
	if (mem_charge(dom, 1, MEMCG_STAT_SLAB)) {
		cg_thread_uncharge(cg);
		return NULL;
	}
	struct thread *t = kzalloc(sizeof(*t));
	struct page *stack = t ? mem_alloc_pages(dom, KSTACK_ORDER, MEMCG_STAT_KERNEL_STACK) : NULL;
	if (!stack) {
		kfree(t);
		mem_uncharge(dom, 1, MEMCG_STAT_SLAB);
		cg_thread_uncharge(cg);
		return NULL;
	}
	t->kstack = page_to_virt(stack);
	t->on_cpu = t->se_cpu = -1;
	t->cpus_requested = t->cpus_allowed = UINT32_MAX;
	/* Zeroed, though nothing reads it unwritten: a frame that held a
	 * program's code may still have QEMU (TCG) translations behind it,
	 * and while any remain every store to the page takes QEMU's slow
	 * self-modifying-code path (a null syscall went from 0.17 to 28 µs).
	 * Writing the whole stack once retires them. */
	memset(t->kstack, 0, KSTACK_SIZE);
	*thread_syscall_limit(t) = SYSCALL_COUNT; /* not traced (ptrace.c) */
	t->proc = p;
	t->cgroup = cg;
	t->charged = dom;
	cg_get(cg);
	cg_get(dom);
	t->tid = p == &kernel_proc ? thread_alloc_ktid() : 0;
	t->state = THREAD_BLOCKED;
	list_init(&t->timer_link);
	list_init(&t->wait_link);
	list_init(&t->proc_link);
	list_init(&t->serving_link);
	list_init(&t->cg_link);
	list_init(&t->tid_link);
	list_init(&t->sig_queue);
	list_init(&t->ptrace_link);
	list_init(&t->rt_link);
	list_init(&t->pi_waiters);
	list_init(&t->pi_link);
	fpu_state_init(&t->fpu);
	strlcpy(t->name, name, sizeof(t->name));
	sched_entity_init(&t->se, &cg->sched.rq, NULL, sched_weight_from_nice(0));
	return t;
}

struct thread *kthread_create(const char *name, long (*fn)(void *), void *arg,
			      struct cgroup *cg, int *err)
{
	struct thread *t = thread_alloc(&kernel_proc, cg ? cg : &cg_root, name, err);
	if (!t)
		return NULL;
	thread_prepare_stack(t, thread_stack_top(t), fn, arg);
	proc_add_thread(&kernel_proc, t);
	sched_wake(t, 0);
	return t;
}

__noreturn void thread_exit(long code)
{
	struct thread *t = current_thread();
	ipc_thread_exit(t);
	pcache_grant_thread_exit(t);
	futex_thread_exit(t);
	proc_thread_exited(t, code);
	sched_exit_current();
}

void thread_reap(struct thread *t)
{
	struct cgroup *cg = t->cgroup, *charged = t->charged;
	bool pids_to_proc = t->pids_to_proc; /* read before t is freed */
	memcg_thread_done(t);
	kcov_thread_free(t);
	mem_free_pages(virt_to_page(t->kstack), KSTACK_ORDER);
	kfree(t);
	mem_uncharge(charged, 1, MEMCG_STAT_SLAB);
	if (!pids_to_proc) /* else its zombie process holds it */
		cg_thread_uncharge(cg);
	cg_put(charged);
	cg_put(cg);
}

uint64_t thread_runtime_ns(const struct thread *t)
{
	return t->se.sum_exec;
}

void thread_cputime(const struct thread *t, uint64_t *user_ns, uint64_t *sys_ns)
{
	uint64_t total = t->se.sum_exec, ticks = t->utime_ticks + t->stime_ticks;
	*user_ns = ticks ? mul_div_u64(total, t->utime_ticks, ticks) : 0;
	*sys_ns = total - *user_ns;
}
