/* POSIX per-process timers (timer_create, timer_settime, timer_gettime,
 * timer_getoverrun, timer_delete), clock_nanosleep, and reading another
 * process's or thread's CPU-time clock (clock_getcpuclockid's ids).
 *
 * A timer measures a wall clock (CLOCK_REALTIME, CLOCK_MONOTONIC,
 * CLOCK_BOOTTIME: one scale, since the real-time clock is the monotonic
 * one plus an offset; an absolute CLOCK_REALTIME timer is moved when root
 * steps that offset, ptimer_clock_was_set) or a CPU-time clock (the process's, or one of
 * its threads'). Armed wall-clock timers sit on one list sorted by
 * deadline, which the interval-timer thread (itimer.c) runs; CPU-time
 * ones are looked at on the way back to user mode after a timer tick of
 * a process that has one armed, so they are as precise as the tick, as
 * setitimer's ITIMER_PROF. An expiry queues the timer's own signal entry
 * (SI_TIMER, si_timerid, si_value) to the process or, SIGEV_THREAD_ID, to
 * one of its threads; an expiry while that entry is still pending counts
 * an overrun instead, reported in si_overrun and by timer_getoverrun at
 * its delivery. Each timer counts against RLIMIT_SIGPENDING as Linux's
 * preallocated entry does. Timers are not inherited by fork and are
 * deleted at exec and exit. All of it is under proc_lock. */
#include "abi/errno.h"
#include "abi/signal.h"
#include "heap.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

#define NSEC 1000000000ull
#define PTIMER_OVERRUN_MAX 0x7fffffffll	/* DELAYTIMER_MAX */

/* A clock id taken apart: a wall clock (real: CLOCK_REALTIME's scale),
 * or the CPU-time clock of process pid or thread tid. */
struct ptimer_clock {
	bool cpu, real;
	int pid, tid;
};

struct ptimer {
	struct list_head link;		/* in proc->ptimers */
	struct list_head arm_link;	/* on ptimer_armed: an armed wall-clock timer */
	struct proc *proc;
	int id;
	struct ptimer_clock clock;
	int notify, signo, tid;		/* struct sigevent */
	bool abs_real;			/* armed TIMER_ABSTIME on CLOCK_REALTIME: follows steps */
	uint64_t value;
	/* Next expiry on its clock (clock_ns() for wall clocks), 0 when
	 * disarmed; the period, 0 for a one-shot timer. */
	uint64_t deadline, interval;
	int64_t overrun, overrun_last;
	bool queued;			/* q is pending, on q_thread's queue or (NULL) the process's */
	struct thread *q_thread;
	struct sigq q;
};

static struct list_head ptimer_armed = LIST_HEAD_INIT(ptimer_armed);

/* Takes clock id apart for the calling thread self: -EINVAL if it names
 * no clock. */
static long ptimer_clock_parse(int id, struct thread *self, struct ptimer_clock *c)
{
	*c = (struct ptimer_clock){ 0 };
	switch (id) {
	case K_CLOCK_REALTIME:
		c->real = true;
		return 0;
	case K_CLOCK_MONOTONIC:
	case K_CLOCK_BOOTTIME:
		return 0;
	case K_CLOCK_PROCESS_CPUTIME:
		c->cpu = true;
		c->pid = self->proc->pid;
		return 0;
	case K_CLOCK_THREAD_CPUTIME:
		c->cpu = true;
		c->tid = self->tid;
		return 0;
	}
	if (id >= 0 || (id & 7) == 7 || (id & 3) != 2)
		return -EINVAL; /* only the scheduler's CPU clocks (CPUCLOCK_SCHED) */
	int who = ~(id >> 3);
	c->cpu = true;
	if (who == 0)
		who = (id & 4) ? self->tid : self->proc->pid;
	if (id & 4)
		c->tid = who;
	else
		c->pid = who;
	return 0;
}

/* The CPU-time clock's reading in ns: false if its process or thread is
 * gone. proc_lock held. */
static bool ptimer_cpu_now_locked(const struct ptimer_clock *c, uint64_t *ns)
{
	if (c->tid) {
		struct thread *t = thread_find_locked(c->tid);
		if (!t)
			return false;
		*ns = thread_runtime_ns(t);
		return true;
	}
	struct proc *p = proc_find_locked(c->pid);
	if (!p || p->state != PROC_ALIVE)
		return false;
	uint64_t sum = p->cpu_exited[0];
	struct list_head *pos;
	list_for_each(pos, &p->threads)
		sum += thread_runtime_ns(list_entry(pos, struct thread, proc_link));
	*ns = sum;
	return true;
}

/* Its clock now, on the scale of tm->deadline; false if it has none. */
static bool ptimer_now_locked(const struct ptimer *tm, uint64_t *now)
{
	if (!tm->clock.cpu) {
		*now = clock_ns();
		return true;
	}
	return ptimer_cpu_now_locked(&tm->clock, now);
}

static void ptimer_disarm_locked(struct ptimer *tm)
{
	if (!tm->deadline)
		return;
	if (tm->clock.cpu)
		__atomic_sub_fetch(&tm->proc->ptimer_cpu_armed, 1, __ATOMIC_RELAXED);
	else
		list_del(&tm->arm_link);
	tm->deadline = 0;
}

/* Arms tm at deadline (its clock's scale, not 0). */
static void ptimer_arm_locked(struct ptimer *tm, uint64_t deadline)
{
	tm->deadline = deadline;
	if (tm->clock.cpu) {
		__atomic_add_fetch(&tm->proc->ptimer_cpu_armed, 1, __ATOMIC_RELAXED);
		return;
	}
	struct list_head *pos;
	list_for_each(pos, &ptimer_armed) {
		if (list_entry(pos, struct ptimer, arm_link)->deadline > deadline)
			break;
	}
	list_add_tail(&tm->arm_link, pos); /* before pos */
	if (ptimer_armed.next == &tm->arm_link)
		itimer_wake_locked();
}

static void ptimer_overrun_add(struct ptimer *tm, uint64_t n)
{
	tm->overrun = (int64_t)MIN((uint64_t)tm->overrun + n, (uint64_t)PTIMER_OVERRUN_MAX);
}

/* An expiry: the signal (or an overrun while it still pends). */
static void ptimer_notify_locked(struct ptimer *tm)
{
	if (tm->notify == K_SIGEV_NONE)
		return;
	if (tm->queued) {
		ptimer_overrun_add(tm, 1);
		return;
	}
	struct thread *t = NULL;
	if (tm->notify == K_SIGEV_THREAD_ID) {
		t = thread_find_locked(tm->tid);
		if (!t || t->proc != tm->proc)
			return; /* its thread has ended */
	}
	tm->q.info = (struct k_siginfo){ .signo = tm->signo, .code = SI_TIMER };
	tm->q.info.f.proc.pid = tm->id;
	tm->q.info.f.proc.value = tm->value;
	list_init(&tm->q.link);
	signal_post_timer_locked(tm->proc, t, &tm->q);
	tm->queued = !list_empty(&tm->q.link); /* not if ignored */
	tm->q_thread = t;
}

/* tm is due at now: notify, and re-arm a periodic one at the first period
 * end after now (the periods missed are overruns). */
static void ptimer_expire_locked(struct ptimer *tm, uint64_t now)
{
	uint64_t due = tm->deadline;
	ptimer_disarm_locked(tm);
	if (tm->interval) {
		uint64_t missed = (now - due) / tm->interval;
		ptimer_overrun_add(tm, missed);
		ptimer_arm_locked(tm, due + (missed + 1) * tm->interval);
	}
	ptimer_notify_locked(tm);
}

uint64_t ptimer_run_locked(uint64_t now)
{
	while (!list_empty(&ptimer_armed)) {
		struct ptimer *tm = list_first_entry(&ptimer_armed, struct ptimer, arm_link);
		if (tm->deadline > now)
			return tm->deadline;
		ptimer_expire_locked(tm, now);
	}
	return 0;
}

void ptimer_cpu_check(struct proc *p)
{
	spin_lock(&proc_lock);
	struct list_head *pos;
	list_for_each(pos, &p->ptimers) {
		struct ptimer *tm = list_entry(pos, struct ptimer, link);
		uint64_t now;
		if (tm->clock.cpu && tm->deadline && ptimer_now_locked(tm, &now) && now >= tm->deadline)
			ptimer_expire_locked(tm, now);
	}
	spin_unlock(&proc_lock);
}

void ptimer_signal_taken_locked(struct ptimer *tm, struct k_siginfo *info)
{
	tm->queued = false;
	if (!info)
		return;
	info->f.proc.uid = (uint32_t)tm->overrun;
	tm->overrun_last = tm->overrun;
	tm->overrun = 0;
}

static void ptimer_free_locked(struct ptimer *tm)
{
	ptimer_disarm_locked(tm);
	if (tm->queued)
		signal_unqueue_locked(tm->proc, tm->q_thread, &tm->q);
	list_del(&tm->link);
	tm->proc->sig_queued--;
	kfree(tm);
}

void ptimer_delete_all_locked(struct proc *p)
{
	while (!list_empty(&p->ptimers))
		ptimer_free_locked(list_first_entry(&p->ptimers, struct ptimer, link));
}

static struct ptimer *ptimer_find_locked(struct proc *p, int id)
{
	struct list_head *pos;
	list_for_each(pos, &p->ptimers) {
		struct ptimer *tm = list_entry(pos, struct ptimer, link);
		if (tm->id == id)
			return tm;
	}
	return NULL;
}

long sys_timer_create(int clockid, const struct k_sigevent *uev, int *uid)
{
	struct thread *self = current_thread();
	struct proc *p = self->proc;
	struct ptimer_clock c;
	struct k_sigevent ev = { .signo = SIGALRM, .notify = K_SIGEV_SIGNAL };
	if (ptimer_clock_parse(clockid, self, &c) < 0)
		return -EINVAL;
	if (uev && copy_from_user(&ev, uev, sizeof(ev)))
		return -EFAULT;
	if (ev.notify != K_SIGEV_SIGNAL && ev.notify != K_SIGEV_NONE && ev.notify != K_SIGEV_THREAD_ID)
		return -EINVAL;
	if (ev.notify != K_SIGEV_NONE && (ev.signo < 1 || ev.signo >= SIG_NSIG))
		return -EINVAL;
	/* Timers of its own clocks only: another process's CPU time is for
	 * clock_gettime. */
	if (c.cpu && c.pid && c.pid != p->pid)
		return -EINVAL;
	struct ptimer *tm = kzalloc(sizeof(*tm));
	if (!tm)
		return -EAGAIN;
	tm->proc = p;
	tm->clock = c;
	tm->notify = ev.notify;
	tm->signo = ev.signo;
	tm->tid = ev.tid;
	tm->value = ev.value;
	tm->q.timer = tm; /* taken back through ptimer_signal_taken_locked, never freed there */
	list_init(&tm->q.link);
	spin_lock(&proc_lock);
	long r = 0;
	struct thread *t = c.tid ? thread_find_locked(c.tid) : NULL;
	struct thread *target = ev.notify == K_SIGEV_THREAD_ID ? thread_find_locked(ev.tid) : NULL;
	if ((c.tid && (!t || t->proc != p)) ||
	    (ev.notify == K_SIGEV_THREAD_ID && (!target || target->proc != p)))
		r = -EINVAL;
	else if (p->sig_queued >= p->sig_queue_max || p->ptimer_next_id < 0)
		r = -EAGAIN;
	if (r == 0) {
		tm->id = p->ptimer_next_id++;
		if (!uev)
			tm->value = (uint64_t)tm->id; /* Linux: sival_int is the id */
		p->sig_queued++;
		list_add_tail(&tm->link, &p->ptimers);
	}
	int id = tm->id;
	spin_unlock(&proc_lock);
	if (r < 0) {
		kfree(tm);
		return r;
	}
	if (copy_to_user(uid, &id, sizeof(id))) {
		spin_lock(&proc_lock);
		tm = ptimer_find_locked(p, id);
		if (tm)
			ptimer_free_locked(tm);
		spin_unlock(&proc_lock);
		return -EFAULT;
	}
	return 0;
}

static void ptimer_ns_to_ts(uint64_t ns, int64_t ts[2])
{
	ts[0] = (int64_t)(ns / NSEC);
	ts[1] = (int64_t)(ns % NSEC);
}

/* A timespec as ns: -EINVAL unless valid; beyond a century it is cut to
 * one (no overflow). */
static long ptimer_ts_to_ns(const int64_t ts[2], uint64_t *ns)
{
	if (ts[0] < 0 || ts[1] < 0 || (uint64_t)ts[1] >= NSEC)
		return -EINVAL;
	*ns = MIN((uint64_t)ts[0], 100ull * 366 * 86400) * NSEC + (uint64_t)ts[1];
	return 0;
}

/* The itimerspec timer_gettime gives: the period and the time left. */
static void ptimer_get_locked(const struct ptimer *tm, int64_t out[4])
{
	uint64_t now, left = 0;
	if (tm->deadline && ptimer_now_locked(tm, &now))
		left = tm->deadline > now ? tm->deadline - now : 1; /* due: not yet 0 */
	ptimer_ns_to_ts(tm->interval, out);
	ptimer_ns_to_ts(left, out + 2);
}

/* The wall clock's offset: CLOCK_REALTIME minus clock_ns(). */
static uint64_t ptimer_real_offset(void)
{
	return clock_real_ns() - clock_ns();
}

long sys_timer_settime(int id, int flags, const int64_t *unew, int64_t *uold)
{
	struct proc *p = current_thread()->proc;
	int64_t nv[4], old[4];
	uint64_t interval, value;
	if (copy_from_user(nv, unew, sizeof(nv)))
		return -EFAULT;
	if (ptimer_ts_to_ns(nv, &interval) < 0 || ptimer_ts_to_ns(nv + 2, &value) < 0)
		return -EINVAL;
	long r = value ? itimer_start() : 0; /* the thread that runs wall-clock timers */
	if (r < 0)
		return r;
	spin_lock(&proc_lock);
	struct ptimer *tm = ptimer_find_locked(p, id);
	if (!tm) {
		spin_unlock(&proc_lock);
		return -EINVAL;
	}
	ptimer_get_locked(tm, old);
	ptimer_disarm_locked(tm);
	tm->interval = value ? interval : 0;
	tm->abs_real = (flags & K_TIMER_ABSTIME) && tm->clock.real;
	uint64_t now;
	if (value && ptimer_now_locked(tm, &now)) {
		uint64_t deadline = now + value;
		if (flags & K_TIMER_ABSTIME) {
			deadline = value;
			if (tm->clock.real) {
				uint64_t off = ptimer_real_offset();
				deadline = value > off ? value - off : 1;
			}
		}
		ptimer_arm_locked(tm, deadline ? deadline : 1);
		if (deadline <= now && tm->clock.cpu)
			ptimer_expire_locked(tm, now); /* already past */
	}
	spin_unlock(&proc_lock);
	if (uold && copy_to_user(uold, old, sizeof(old)))
		return -EFAULT;
	return 0;
}

void ptimer_clock_was_set(int64_t delta)
{
	spin_lock(&proc_lock);
	/* Re-armed in a second pass: moving them one by one on the sorted
	 * list would meet a moved one again. */
	struct list_head moved = LIST_HEAD_INIT(moved);
	struct list_head *pos, *n;
	list_for_each_safe(pos, n, &ptimer_armed) {
		struct ptimer *tm = list_entry(pos, struct ptimer, arm_link);
		if (tm->abs_real) {
			list_del(&tm->arm_link);
			list_add_tail(&tm->arm_link, &moved);
		}
	}
	while (!list_empty(&moved)) {
		struct ptimer *tm = list_first_entry(&moved, struct ptimer, arm_link);
		list_del(&tm->arm_link);
		int64_t d = (int64_t)tm->deadline - delta; /* its wall-clock time is now that much nearer */
		tm->deadline = 0;
		ptimer_arm_locked(tm, d > 0 ? (uint64_t)d : 1);
	}
	itimer_wake_locked(); /* the thread looks at the first deadline again */
	spin_unlock(&proc_lock);
}

long sys_timer_gettime(int id, int64_t *ucur)
{
	struct proc *p = current_thread()->proc;
	int64_t cur[4];
	spin_lock(&proc_lock);
	struct ptimer *tm = ptimer_find_locked(p, id);
	if (tm)
		ptimer_get_locked(tm, cur);
	spin_unlock(&proc_lock);
	if (!tm)
		return -EINVAL;
	return copy_to_user(ucur, cur, sizeof(cur)) ? -EFAULT : 0;
}

long sys_timer_getoverrun(int id)
{
	struct proc *p = current_thread()->proc;
	spin_lock(&proc_lock);
	struct ptimer *tm = ptimer_find_locked(p, id);
	long r = tm ? tm->overrun_last : -EINVAL;
	spin_unlock(&proc_lock);
	return r;
}

long sys_timer_delete(int id)
{
	struct proc *p = current_thread()->proc;
	spin_lock(&proc_lock);
	struct ptimer *tm = ptimer_find_locked(p, id);
	if (tm)
		ptimer_free_locked(tm);
	spin_unlock(&proc_lock);
	return tm ? 0 : -EINVAL;
}

/* clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) until the wall clock
 * reads real: the deadline on the monotonic clock is worked out again
 * whenever the wall clock is stepped meanwhile (as Linux's). 0, or
 * -EINTR for a signal (nothing to restart: the time is absolute). */
static long ptimer_sleep_real(uint64_t real)
{
	for (;;) {
		uint64_t gen = clock_real_gen();
		uint64_t off = ptimer_real_offset(), now = clock_ns();
		uint64_t deadline = real > off ? real - off : 1;
		if (deadline <= now)
			return 0;
		current_thread()->sleep_resume = false;
		int r = clock_real_wait_step(gen, deadline);
		if (r == -EINTR)
			return r;
		if (r == -ETIMEDOUT && clock_real_gen() == gen)
			return 0; /* a slew may leave it a few ns short: as Linux's hrtimer, done */
	}
}

long sys_clock_nanosleep(int clockid, int flags, const int64_t *ureq, int64_t *urem)
{
	struct thread *t = current_thread();
	struct ptimer_clock c;
	int64_t req[2];
	uint64_t ns;
	if (ptimer_clock_parse(clockid, t, &c) < 0)
		return -EINVAL;
	if (c.cpu)
		return c.tid ? -EINVAL : -EOPNOTSUPP; /* the own thread's: never; a process's: not here */
	if (copy_from_user(req, ureq, sizeof(req)))
		return -EFAULT;
	if (ptimer_ts_to_ns(req, &ns) < 0)
		return -EINVAL;
	uint64_t now = clock_ns(), deadline;
	bool abs = flags & K_TIMER_ABSTIME;
	if (abs && c.real)
		return ptimer_sleep_real(ns);
	if (abs) {
		deadline = ns;
	} else {
		deadline = now + ns;
		if (t->sleep_resume) /* run again after a stop: the first deadline */
			deadline = t->sleep_deadline;
	}
	t->sleep_resume = false;
	t->sleep_deadline = deadline;
	long r = sched_sleep_until(deadline);
	if (r == -EINTR && !abs && urem) {
		now = clock_ns();
		int64_t rem[2];
		ptimer_ns_to_ts(deadline > now ? deadline - now : 0, rem);
		if (copy_to_user(urem, rem, sizeof(rem)))
			return -EFAULT;
	}
	return r;
}

long sys_clock_cputime(int clockid, uint64_t *uns)
{
	struct ptimer_clock c;
	uint64_t ns;
	if (ptimer_clock_parse(clockid, current_thread(), &c) < 0 || !c.cpu)
		return -EINVAL;
	spin_lock(&proc_lock);
	bool ok = ptimer_cpu_now_locked(&c, &ns);
	spin_unlock(&proc_lock);
	if (!ok)
		return -EINVAL; /* Linux: a clock whose process or thread is gone */
	return uns && copy_to_user(uns, &ns, sizeof(ns)) ? -EFAULT : 0;
}

bool ptimer_cpu_clock_exists(int clockid)
{
	/* Linux: CPUCLOCK_PROF, _VIRT and _SCHED (which & 3 below 3) of a
	 * live process or thread; Arbor reads only _SCHED, but the others
	 * name the same process or thread */
	if (clockid < 0 && (clockid & 3) != 3)
		clockid = (clockid & ~3) | 2;
	return sys_clock_cputime(clockid, NULL) == 0;
}
