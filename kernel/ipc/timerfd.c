/* timerfd(2): a timer read as a descriptor. A read gives the number of
 * expirations since the last read (or settime) as 8 bytes, waiting while
 * it is 0; readable while it is not.
 *
 * Armed timers sit on one list, earliest first; one kernel thread,
 * started with the first timer, sleeps until the earliest deadline and
 * then counts the expirations of those due and wakes their readers and
 * pollers (as kernel/proc/itimer.c does for setitimer). A read or a poll
 * also counts what is due by the clock itself, so neither depends on the
 * thread's promptness. Deadlines are kept on the monotonic clock; a
 * CLOCK_REALTIME timer's absolute time is converted when set, and again
 * when root steps the wall clock (timerfd_clock_was_set), which also
 * cancels the TFD_TIMER_CANCEL_ON_SET ones: their reads fail with
 * ECANCELED until the next settime, as Linux's. Everything is under
 * timerfd_lock, which the scheduler lock nests inside. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "kfile.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

#define K_CLOCK_REALTIME 0
#define K_CLOCK_MONOTONIC 1
#define K_CLOCK_BOOTTIME 7
#define TFD_TIMER_ABSTIME 1
#define TFD_TIMER_CANCEL_ON_SET 2
#define NS 1000000000ull

struct timerfd {
	struct kobj obj;
	int clock;
	int flags;			/* O_NONBLOCK */
	uint64_t deadline;		/* clock_ns of the next expiration; 0: disarmed */
	uint64_t interval;		/* 0: once */
	uint64_t ticks;			/* expirations not read yet */
	bool abs_real;			/* set TFD_TIMER_ABSTIME on CLOCK_REALTIME */
	bool might_cancel;		/* ... with TFD_TIMER_CANCEL_ON_SET: on tfd_cancel_list */
	bool canceled;			/* the wall clock stepped since: reads get ECANCELED */
	struct list_head link;		/* in tfd_armed while armed */
	struct list_head cancel_link;	/* on tfd_cancel_list while might_cancel */
	struct waitq readers;
	struct pollq pollq;
};

static struct spinlock tfd_lock = SPINLOCK_INIT("timerfd");
static struct list_head tfd_armed = LIST_HEAD_INIT(tfd_armed);
static struct list_head tfd_cancel_list = LIST_HEAD_INIT(tfd_cancel_list);
static struct waitq tfd_thread_wait = WAITQ_INIT(tfd_thread_wait);
static bool tfd_thread_started;

static struct timerfd *tfd_of(struct kobj *o)
{
	return container_of(o, struct timerfd, obj);
}

static void tfd_disarm_locked(struct timerfd *t)
{
	if (t->deadline) {
		list_del(&t->link);
		t->deadline = 0;
	}
}

static void tfd_arm_locked(struct timerfd *t, uint64_t deadline)
{
	struct list_head *pos;
	t->deadline = deadline;
	list_for_each(pos, &tfd_armed) {
		if (list_entry(pos, struct timerfd, link)->deadline > deadline)
			break;
	}
	list_add_tail(&t->link, pos);
	if (tfd_armed.next == &t->link)
		waitq_wake_all(&tfd_thread_wait, 0); /* it comes first now */
}

/* Counts t's expirations due at now and re-arms a periodic one (or
 * disarms); wakes its readers and pollers if any came. tfd_lock held. */
static void tfd_expire_locked(struct timerfd *t, uint64_t now)
{
	if (!t->deadline || t->deadline > now)
		return;
	uint64_t due = t->deadline, n = 1;
	tfd_disarm_locked(t);
	if (t->interval) {
		uint64_t more = (now - due) / t->interval;
		n += more;
		tfd_arm_locked(t, due + (more + 1) * t->interval);
	}
	t->ticks += n;
	waitq_wake_all(&t->readers, 0);
	pollq_wake(&t->pollq);
}

static long tfd_thread(void *arg)
{
	(void)arg;
	spin_lock(&tfd_lock);
	for (;;) {
		uint64_t now = clock_ns();
		while (!list_empty(&tfd_armed)) {
			struct timerfd *t = list_first_entry(&tfd_armed, struct timerfd, link);
			if (t->deadline > now)
				break;
			tfd_expire_locked(t, now);
		}
		uint64_t next = list_empty(&tfd_armed) ? 0 : list_first_entry(&tfd_armed, struct timerfd, link)->deadline;
		waitq_wait(&tfd_thread_wait, &tfd_lock, next);
		spin_lock(&tfd_lock);
	}
	return 0;
}

static long tfd_thread_start(void)
{
	spin_lock(&tfd_lock);
	bool start = !tfd_thread_started;
	tfd_thread_started = true;
	spin_unlock(&tfd_lock);
	if (!start)
		return 0;
	int err = 0;
	if (!kthread_create("timerfd", tfd_thread, NULL, NULL, &err)) {
		spin_lock(&tfd_lock);
		tfd_thread_started = false;
		spin_unlock(&tfd_lock);
		return err ? err : -ENOMEM;
	}
	return 0;
}

static void tfd_cancel_off_locked(struct timerfd *t)
{
	if (t->might_cancel)
		list_del(&t->cancel_link);
	t->might_cancel = t->canceled = false;
}

static void tfd_release(struct kobj *o)
{
	spin_lock(&tfd_lock);
	tfd_disarm_locked(tfd_of(o));
	tfd_cancel_off_locked(tfd_of(o));
	spin_unlock(&tfd_lock);
}

void timerfd_clock_was_set(int64_t delta)
{
	spin_lock(&tfd_lock);
	struct list_head moved = LIST_HEAD_INIT(moved);
	struct list_head *pos, *n;
	list_for_each_safe(pos, n, &tfd_armed) {
		struct timerfd *t = list_entry(pos, struct timerfd, link);
		if (t->abs_real) {
			list_del(&t->link);
			list_add_tail(&t->link, &moved);
		}
	}
	while (!list_empty(&moved)) {
		struct timerfd *t = list_first_entry(&moved, struct timerfd, link);
		list_del(&t->link);
		int64_t d = (int64_t)t->deadline - delta;
		tfd_arm_locked(t, d > 0 ? (uint64_t)d : 1);
	}
	list_for_each(pos, &tfd_cancel_list) {
		struct timerfd *t = list_entry(pos, struct timerfd, cancel_link);
		t->canceled = true;
		waitq_wake_all(&t->readers, 0);
		pollq_wake(&t->pollq);
	}
	waitq_wake_all(&tfd_thread_wait, 0);
	spin_unlock(&tfd_lock);
}

long sys_timerfd_create(int clock, int flags)
{
	if (clock != K_CLOCK_REALTIME && clock != K_CLOCK_MONOTONIC && clock != K_CLOCK_BOOTTIME)
		return -EINVAL;
	if (flags & ~(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	long err = tfd_thread_start();
	if (err)
		return err;
	struct proc *self = current_thread()->proc;
	struct timerfd *t = kobj_alloc(sizeof(*t), KOBJ_TIMERFD, self->cgroup, tfd_release);
	if (!t)
		return -ENOMEM;
	t->clock = clock;
	t->flags = flags & O_NONBLOCK;
	waitq_init(&t->readers);
	pollq_init(&t->pollq);
	int h = kfile_install(&t->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ, flags & O_CLOEXEC);
	kobj_put(&t->obj);
	return h;
}

/* A timespec (sec, nsec) in ns: -EINVAL unless valid; seconds beyond a
 * century are cut to one. */
static long tfd_ts_ns(const int64_t ts[2], uint64_t *ns)
{
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (int64_t)NS)
		return -EINVAL;
	*ns = MIN((uint64_t)ts[0], 100ull * 366 * 86400) * NS + (uint64_t)ts[1];
	return 0;
}

static void tfd_ns_ts(uint64_t ns, int64_t ts[2])
{
	ts[0] = (int64_t)(ns / NS);
	ts[1] = (int64_t)(ns % NS);
}

/* What timerfd_gettime says (interval, then time left), tfd_lock held. */
static void tfd_get_locked(struct timerfd *t, uint64_t now, int64_t out[4])
{
	tfd_expire_locked(t, now);
	tfd_ns_ts(t->interval, out);
	tfd_ns_ts(t->deadline ? t->deadline - now : 0, out + 2);
}

static struct timerfd *tfd_get(int fd, long *err)
{
	struct kobj *o = handle_get(current_thread()->proc, fd, KOBJ_ANY);
	*err = o ? -EINVAL : -EBADF;
	if (o && o->type == KOBJ_TIMERFD)
		return tfd_of(o);
	if (o)
		kobj_put(o);
	return NULL;
}

/* timerfd_settime: new and old are Linux's struct itimerspec (interval
 * sec, nsec; value sec, nsec). */
long sys_timerfd_settime(int fd, int flags, const int64_t *unew, int64_t *uold)
{
	int64_t nv[4], ov[4];
	uint64_t interval, value;
	if (flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
		return -EINVAL;
	if (copy_from_user(nv, unew, sizeof(nv)))
		return -EFAULT;
	if (tfd_ts_ns(nv, &interval) || tfd_ts_ns(nv + 2, &value))
		return -EINVAL;
	long err;
	struct timerfd *t = tfd_get(fd, &err);
	if (!t)
		return err;
	uint64_t now = clock_ns();
	spin_lock(&tfd_lock);
	tfd_get_locked(t, now, ov);
	tfd_disarm_locked(t);
	tfd_cancel_off_locked(t);
	t->ticks = 0;
	t->interval = interval; /* gettime shows it even disarmed, as Linux */
	t->abs_real = (flags & TFD_TIMER_ABSTIME) && t->clock == K_CLOCK_REALTIME;
	if (t->abs_real && (flags & TFD_TIMER_CANCEL_ON_SET)) {
		t->might_cancel = true;
		list_add_tail(&t->cancel_link, &tfd_cancel_list);
	}
	if (value) {
		uint64_t at = value;
		if (!(flags & TFD_TIMER_ABSTIME))
			at = now + value;
		else if (t->clock == K_CLOCK_REALTIME) {
			uint64_t off = clock_real_ns() - now; /* realtime - monotonic */
			at = value > off ? value - off : 1;
		}
		tfd_arm_locked(t, at ? at : 1);
		tfd_expire_locked(t, now); /* an absolute time already past */
	}
	spin_unlock(&tfd_lock);
	pollq_wake(&t->pollq); /* ticks went to 0: pollers look again */
	kobj_put(&t->obj);
	if (uold && copy_to_user(uold, ov, sizeof(ov)))
		return -EFAULT;
	return 0;
}

long sys_timerfd_gettime(int fd, int64_t *ucur)
{
	int64_t cur[4];
	long err;
	struct timerfd *t = tfd_get(fd, &err);
	if (!t)
		return err;
	spin_lock(&tfd_lock);
	tfd_get_locked(t, clock_ns(), cur);
	spin_unlock(&tfd_lock);
	kobj_put(&t->obj);
	return copy_to_user(ucur, cur, sizeof(cur)) ? -EFAULT : 0;
}

static long tfd_read(struct kobj *o, void *ubuf, size_t len)
{
	struct timerfd *t = tfd_of(o);
	if (len < sizeof(uint64_t))
		return -EINVAL;
	if (!user_range_ok((uint64_t)ubuf, sizeof(uint64_t)))
		return -EFAULT;
	spin_lock(&tfd_lock);
	for (;;) {
		if (t->canceled) { /* Linux: every read until the next settime */
			t->ticks = 0;
			spin_unlock(&tfd_lock);
			return -ECANCELED;
		}
		tfd_expire_locked(t, clock_ns());
		if (t->ticks)
			break;
		if (t->flags & O_NONBLOCK) {
			spin_unlock(&tfd_lock);
			return -EAGAIN;
		}
		if (waitq_wait(&t->readers, &tfd_lock, t->deadline) == -EINTR)
			return -EINTR;
		spin_lock(&tfd_lock);
	}
	uint64_t n = t->ticks;
	t->ticks = 0;
	spin_unlock(&tfd_lock);
	if (copy_to_user(ubuf, &n, sizeof(n))) {
		spin_lock(&tfd_lock);
		t->ticks += n; /* not delivered: still to read */
		spin_unlock(&tfd_lock);
		return -EFAULT;
	}
	return sizeof(n);
}

static long tfd_write(struct kobj *o, const void *buf, size_t len)
{
	(void)o, (void)buf, (void)len;
	return -EINVAL;
}

static long tfd_flags(struct kobj *o, int set)
{
	struct timerfd *t = tfd_of(o);
	if (set >= 0)
		t->flags = set & O_NONBLOCK;
	return t->flags | O_RDWR;
}

static long tfd_poll(struct kobj *o, int events, struct pollq **q)
{
	struct timerfd *t = tfd_of(o);
	if (q)
		*q = &t->pollq;
	spin_lock(&tfd_lock);
	tfd_expire_locked(t, clock_ns());
	bool ready = t->ticks != 0 || t->canceled;
	spin_unlock(&tfd_lock);
	return ready ? events & (POLLIN | POLLRDNORM) : 0;
}

const struct kfile_ops timerfd_ops = {
	.read = tfd_read,
	.write = tfd_write,
	.flags = tfd_flags,
	.poll = tfd_poll,
};
