/* Scheduling policies from user space (sched_policy, abi/sched.h):
 * sched_setscheduler, sched_setparam, sched_getscheduler and
 * sched_getparam of one thread by tid, as Linux's, with its checks in its
 * order: EINVAL for a bad tid, policy or priority, ESRCH, then EPERM for a
 * caller that is not root (Linux: without CAP_SYS_NICE) and would take a
 * real-time policy or raise its priority past RLIMIT_RTPRIO (0 here),
 * leave SCHED_IDLE (RLIMIT_NICE 0), change another user's thread or clear
 * SCHED_RESET_ON_FORK. And the real-time throttle's settings
 * (/proc/sys/kernel/sched_rt_period_us and sched_rt_runtime_us). */
#include "abi/errno.h"
#include "abi/sched.h"
#include "cgroup.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

static bool sched_policy_valid(int policy)
{
	return policy == K_SCHED_OTHER || policy == K_SCHED_FIFO || policy == K_SCHED_RR ||
	       policy == K_SCHED_BATCH || policy == K_SCHED_IDLE;
}

static bool sched_policy_rt(int policy)
{
	return policy == K_SCHED_FIFO || policy == K_SCHED_RR;
}

/* Linux's user_check_sched_setscheduler for a caller without
 * CAP_SYS_NICE: 0 or -EPERM. proc_lock held. */
static long sched_policy_perm(const struct thread *self, const struct thread *t, int policy,
			      unsigned prio, bool reset)
{
	const struct cred *c = &self->proc->cred, *tc = &t->proc->cred;
	if (c->euid == 0)
		return 0;
	if (sched_policy_rt(policy)) {
		/* RLIMIT_RTPRIO is 0: no real-time policy, no raise */
		if (policy != t->policy)
			return -EPERM;
		if (prio > t->rt_prio)
			return -EPERM;
	}
	if (t->policy == K_SCHED_IDLE && policy != K_SCHED_IDLE)
		return -EPERM; /* RLIMIT_NICE 0 allows no nice at all */
	if (c->euid != tc->euid && c->euid != tc->uid)
		return -EPERM;
	if (t->reset_on_fork && !reset)
		return -EPERM;
	return 0;
}

/* The thread tid names (0: the caller), proc_lock held: NULL if none. */
static struct thread *sched_policy_target(int tid)
{
	struct thread *t = tid == 0 ? current_thread() : thread_find_locked(tid);
	if (!t || t->state == THREAD_DEAD || t->proc->state != PROC_ALIVE)
		return NULL;
	return t;
}

static long sched_policy_set(int op, int tid, int policy, int *uparam)
{
	int param;
	if (op == SCHED_OP_SETSCHEDULER && policy < 0)
		return -EINVAL;
	if (!uparam || tid < 0)
		return -EINVAL;
	if (copy_from_user(&param, uparam, sizeof(param)))
		return -EFAULT;
	struct thread *self = current_thread();
	spin_lock(&proc_lock);
	struct thread *t = sched_policy_target(tid);
	long r = 0;
	bool reset = false;
	if (!t) {
		r = -ESRCH;
	} else {
		if (op == SCHED_OP_SETPARAM) {
			policy = t->policy;
			reset = t->reset_on_fork;
		} else {
			reset = policy & K_SCHED_RESET_ON_FORK;
			policy &= ~K_SCHED_RESET_ON_FORK;
		}
		unsigned prio = (unsigned)param;
		if (!sched_policy_valid(policy) || prio > K_SCHED_PRIO_MAX ||
		    sched_policy_rt(policy) != (prio != 0))
			r = -EINVAL;
		else
			r = sched_policy_perm(self, t, policy, prio, reset);
		if (r == 0) {
			uint64_t f = spin_lock_irqsave(&sched_lock);
			sched_setscheduler_locked(t, policy, (int)prio, reset);
			spin_unlock_irqrestore(&sched_lock, f);
		}
	}
	spin_unlock(&proc_lock);
	return r;
}

/* SCHED_OP_RT_LIMITS: root sets period and runtime (µs), with Linux's
 * checks (sched_rt_handler): a period of 1..INT_MAX µs, a runtime of -1
 * or at most the period. */
static long sched_policy_rt_limits(int period_us, int runtime_us)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (period_us <= 0 || runtime_us < -1 || (runtime_us >= 0 && runtime_us > period_us))
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&sched_lock);
	sched_rt_period_ns = (uint64_t)period_us * 1000;
	sched_rt_runtime_ns = runtime_us < 0 ? -1 : (int64_t)runtime_us * 1000;
	spin_unlock_irqrestore(&sched_lock, f);
	return 0;
}

/* sched_getaffinity and sched_setaffinity: the C library has read the
 * mask; here the thread (ESRCH, a negative tid too, as Linux's lookup),
 * the right to set it (root or the same owner: EPERM), and a mask with no
 * CPU that schedules last (EINVAL). The mask read back is the one set,
 * less the CPUs that do not schedule (Linux's cpu_active_mask). */
static long sched_policy_affinity(int op, int tid, uint32_t mask)
{
	struct thread *self = current_thread();
	spin_lock(&proc_lock);
	struct thread *t = tid < 0 ? NULL : sched_policy_target(tid);
	long r = t ? 0 : -ESRCH;
	if (t && op == SCHED_OP_SETAFFINITY) {
		const struct cred *c = &self->proc->cred, *tc = &t->proc->cred;
		if (c->euid != 0 && c->euid != tc->euid && c->euid != tc->uid)
			r = -EPERM;
		else {
			cg_lock(); /* t's cpuset stays as it is meanwhile */
			r = sched_set_affinity(t, mask, cpuset_cpus_locked(t->cgroup));
			cg_unlock();
		}
	} else if (t) {
		r = (long)(t->cpus_allowed & sched_cpus_mask());
	}
	spin_unlock(&proc_lock);
	return r;
}

long sys_sched_policy(int op, int tid, int policy, int *uparam)
{
	switch (op) {
	case SCHED_OP_SETSCHEDULER:
	case SCHED_OP_SETPARAM:
		return sched_policy_set(op, tid, policy, uparam);
	case SCHED_OP_GETSCHEDULER:
	case SCHED_OP_GETPARAM: {
		if (tid < 0 || (op == SCHED_OP_GETPARAM && !uparam))
			return -EINVAL;
		spin_lock(&proc_lock);
		struct thread *t = sched_policy_target(tid);
		int pol = t ? t->policy | (t->reset_on_fork ? K_SCHED_RESET_ON_FORK : 0) : 0;
		int prio = t ? t->rt_prio : 0;
		spin_unlock(&proc_lock);
		if (!t)
			return -ESRCH;
		if (op == SCHED_OP_GETSCHEDULER)
			return pol;
		return copy_to_user(uparam, &prio, sizeof(prio)) ? -EFAULT : 0;
	}
	case SCHED_OP_RT_LIMITS:
		return uparam ? -EINVAL : sched_policy_rt_limits(policy, tid);
	case SCHED_OP_RT_GET: {
		int v;
		if (policy == 0)
			v = (int)(sched_rt_period_ns / 1000);
		else if (policy == 1)
			v = sched_rt_runtime_ns < 0 ? -1 : (int)(sched_rt_runtime_ns / 1000);
		else if (policy == 2)
			v = (int)__atomic_load_n(&sched_rt_throttle_count, __ATOMIC_RELAXED);
		else
			return -EINVAL;
		return copy_to_user(uparam, &v, sizeof(v)) ? -EFAULT : 0;
	}
	case SCHED_OP_GETAFFINITY:
	case SCHED_OP_SETAFFINITY:
		return sched_policy_affinity(op, tid, (uint32_t)policy & 0x7fffffffu);
	case SCHED_OP_GETCPU:
		return (long)this_cpu()->id; /* (where it ran a moment ago, as Linux's) */
	case SCHED_OP_ONLINE:
		return (long)sched_cpus_mask();
	default:
		return -EINVAL;
	}
}
