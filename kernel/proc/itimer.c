/* Interval timers: setitimer/getitimer (and alarm, in the C library, over
 * ITIMER_REAL). ITIMER_REAL: an armed process sits on a list sorted by
 * deadline; one kernel thread, started with the first timer, sleeps until
 * the earliest deadline, sends SIGALRM (SI_KERNEL, as Linux) and re-arms
 * periodic timers; that state is under proc_lock. ITIMER_VIRTUAL and
 * ITIMER_PROF count CPU time as the scheduler samples it: each timer tick
 * takes a tick's worth from the running process's user (VIRTUAL) or any
 * (PROF) time left, atomically; what runs out is sent (SIGVTALRM,
 * SIGPROF) on the thread's way back to user mode. So they are as precise
 * as the tick (4 ms), as Linux's tick-based accounting. Timers are kept
 * across exec and not inherited by fork (a new process starts zeroed), as
 * on Linux. */
#include "abi/errno.h"
#include "abi/signal.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

static struct list_head itimer_list = LIST_HEAD_INIT(itimer_list);		/* armed processes, earliest first */
static struct waitq itimer_wait = WAITQ_INIT(itimer_wait);
static bool itimer_started;

void itimer_disarm_locked(struct proc *p)
{
	if (p->itimer_deadline) {
		list_del(&p->itimer_link);
		p->itimer_deadline = 0;
	}
}

/* Puts p on the list at deadline, keeping it sorted; wakes the thread if
 * p now comes first. */
static void itimer_arm_locked(struct proc *p, uint64_t deadline)
{
	struct list_head *pos;
	p->itimer_deadline = deadline;
	list_for_each(pos, &itimer_list) {
		struct proc *q = list_entry(pos, struct proc, itimer_link);
		if (q->itimer_deadline > deadline)
			break;
	}
	list_add_tail(&p->itimer_link, pos); /* before pos */
	if (itimer_list.next == &p->itimer_link)
		waitq_wake_all(&itimer_wait, 0);
}

void itimer_wake_locked(void)
{
	waitq_wake_all(&itimer_wait, 0);
}

/* The timer thread: fires what is due (and the POSIX timers' wall-clock
 * ones, ptimer.c), then sleeps until the next one. */
static long itimer_thread(void *arg)
{
	(void)arg;
	spin_lock(&proc_lock);
	for (;;) {
		uint64_t now = clock_ns();
		while (!list_empty(&itimer_list)) {
			struct proc *p = list_first_entry(&itimer_list, struct proc, itimer_link);
			if (p->itimer_deadline > now)
				break;
			uint64_t due = p->itimer_deadline;
			itimer_disarm_locked(p);
			signal_send_locked(p, SIGALRM);
			if (p->itimer_interval) {
				/* Overruns are not counted: the next one is
				 * the first period end after now. */
				uint64_t next = due + p->itimer_interval;
				if (next <= now)
					next = now + p->itimer_interval - (now - due) % p->itimer_interval;
				itimer_arm_locked(p, next);
			}
		}
		uint64_t next = list_empty(&itimer_list) ? 0 :
				list_first_entry(&itimer_list, struct proc, itimer_link)->itimer_deadline;
		uint64_t pnext = ptimer_run_locked(now);
		if (pnext && (!next || pnext < next))
			next = pnext;
		waitq_wait(&itimer_wait, &proc_lock, next);
		spin_lock(&proc_lock);
	}
	return 0;
}

/* Starts the timer thread on first use. */
long itimer_start(void)
{
	spin_lock(&proc_lock);
	bool start = !itimer_started;
	itimer_started = true;
	spin_unlock(&proc_lock);
	if (!start)
		return 0;
	int err = 0;
	if (!kthread_create("itimer", itimer_thread, NULL, NULL, &err)) {
		spin_lock(&proc_lock);
		itimer_started = false;
		spin_unlock(&proc_lock);
		return err ? err : -ENOMEM;
	}
	return 0;
}

/* A timeval (sec, usec) in ns: -EINVAL unless valid. Seconds beyond a
 * century are cut to one (no overflow; nobody waits that long). */
static long itimer_tv_to_ns(const int64_t tv[2], uint64_t *ns)
{
	if (tv[0] < 0 || tv[1] < 0 || tv[1] >= 1000000)
		return -EINVAL;
	uint64_t sec = MIN((uint64_t)tv[0], 100ull * 366 * 86400);
	*ns = sec * 1000000000ull + (uint64_t)tv[1] * 1000ull;
	return 0;
}

/* ns as a timeval, rounded up to a whole microsecond so that a timer
 * still armed never reads as 0 (disarmed). */
static void itimer_ns_to_tv(uint64_t ns, int64_t tv[2])
{
	uint64_t us = (ns + 999) / 1000;
	tv[0] = (int64_t)(us / 1000000);
	tv[1] = (int64_t)(us % 1000000);
}

#define ITIMER_TICK_NS (1000000000ll / TIMER_HZ)

void itimer_cpu_tick(struct thread *t, bool user_mode)
{
	struct proc *p = t->proc;
	if (__atomic_load_n(&p->ptimer_cpu_armed, __ATOMIC_RELAXED)) {
		/* A CPU-time POSIX timer: look on the way out (ptimer.c). */
		__atomic_store_n(&p->ptimer_cpu_check, 1, __ATOMIC_RELAXED);
		thread_set_work(t);
	}
	for (int i = user_mode ? 0 : 1; i < 2; i++) {
		int64_t was = __atomic_load_n(&p->itimer_cpu_left[i], __ATOMIC_RELAXED);
		if (was <= 0)
			continue;
		int64_t left = was - ITIMER_TICK_NS;
		if (left <= 0) {
			int64_t period = (int64_t)__atomic_load_n(&p->itimer_cpu_interval[i], __ATOMIC_RELAXED);
			left = period ? (period + left > 0 ? period + left : period) : 0;
			__atomic_or_fetch(&p->itimer_cpu_fired, 1u << i, __ATOMIC_RELAXED);
			thread_set_work(t);
		}
		/* A setitimer meanwhile (it exchanges the value) wins. */
		__atomic_compare_exchange_n(&p->itimer_cpu_left[i], &was, left, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	}
}

void itimer_cpu_send(struct proc *p)
{
	uint32_t fired = __atomic_exchange_n(&p->itimer_cpu_fired, 0, __ATOMIC_RELAXED);
	if (fired & 1)
		signal_send(p, SIGVTALRM, NULL);
	if (fired & 2)
		signal_send(p, SIGPROF, NULL);
}

/* setitimer/getitimer of ITIMER_VIRTUAL (i 0) or ITIMER_PROF (i 1). */
static void itimer_cpu_set(struct proc *p, int i, bool set, uint64_t interval, uint64_t value,
			   int64_t old[4])
{
	int64_t left;
	uint64_t period = p->itimer_cpu_interval[i];
	if (set) {
		__atomic_store_n(&p->itimer_cpu_interval[i], value ? interval : 0, __ATOMIC_RELAXED);
		left = __atomic_exchange_n(&p->itimer_cpu_left[i], (int64_t)value, __ATOMIC_RELAXED);
	} else {
		left = __atomic_load_n(&p->itimer_cpu_left[i], __ATOMIC_RELAXED);
	}
	if (left > 0) {
		itimer_ns_to_tv(period, old);
		itimer_ns_to_tv((uint64_t)left, old + 2);
	}
}

long sys_itimer(int which, const int64_t *new_value, int64_t *old_value)
{
	struct proc *p = current_thread()->proc;
	int64_t nv[4], old[4] = { 0, 0, 0, 0 };
	uint64_t interval = 0, value = 0;
	if (which != ITIMER_REAL_WHICH && which != ITIMER_VIRTUAL_WHICH && which != ITIMER_PROF_WHICH)
		return -EINVAL;
	if (new_value) {
		if (copy_from_user(nv, new_value, sizeof(nv)))
			return -EFAULT;
		long r = itimer_tv_to_ns(nv, &interval);
		if (r == 0)
			r = itimer_tv_to_ns(nv + 2, &value);
		if (r == 0 && value && which == ITIMER_REAL_WHICH)
			r = itimer_start();
		if (r < 0)
			return r;
	}
	if (which != ITIMER_REAL_WHICH) {
		itimer_cpu_set(p, which - 1, new_value != NULL, interval, value, old);
		goto out;
	}
	spin_lock(&proc_lock);
	uint64_t now = clock_ns();
	if (p->itimer_deadline) {
		itimer_ns_to_tv(p->itimer_interval, old);
		itimer_ns_to_tv(p->itimer_deadline > now ? p->itimer_deadline - now : 1, old + 2);
	}
	if (new_value) {
		itimer_disarm_locked(p);
		p->itimer_interval = value ? interval : 0;
		if (value)
			itimer_arm_locked(p, now + value);
	}
	spin_unlock(&proc_lock);
out:
	if (old_value && copy_to_user(old_value, old, sizeof(old)))
		return -EFAULT;
	return 0;
}
