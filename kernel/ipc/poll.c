/* Waiting for descriptors: poll queues (kernel/include/poll.h), the table
 * through which each kind of descriptor reports its readiness, and the
 * poll system call (poll, ppoll; the C library builds select and pselect
 * on it). A caller sleeps in the kernel until an object it waits on
 * changes, a signal comes or its deadline passes: nothing looks again on
 * a timer (docs/ipc.md, "Waiting for descriptors"). */
#include "abi/errno.h"
#include "abi/poll.h"
#include "cgfs_file.h"
#include "heap.h"
#include "inotify.h"
#include "ipc.h"
#include "kfile.h"
#include "poll.h"
#include "unixsock.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

struct pollq psi_trigger_pollq = POLLQ_INIT(psi_trigger_pollq);

void pollq_init(struct pollq *q)
{
	list_init(&q->entries);
}

void pollq_wake_ev_locked(struct pollq *q, uint32_t events)
{
	spin_assert_held(&sched_lock);
	struct list_head *pos, *next;
	for (pos = q->entries.next; pos != &q->entries; pos = next) {
		next = pos->next; /* a wake function may not take e off, but be safe */
		struct poll_entry *e = list_entry(pos, struct poll_entry, link);
		if (!events || !e->events || (e->events & events))
			e->wake(e);
	}
}

void pollq_wake_locked(struct pollq *q)
{
	pollq_wake_ev_locked(q, 0);
}

void pollq_wake_ev_waiters(struct pollq *q, uint32_t events)
{
	uint64_t f = sched_lock_ipc();
	pollq_wake_ev_locked(q, events);
	sched_unlock_ipc(f);
}

void poll_entry_add(struct poll_entry *e, struct pollq *q, poll_wake_fn wake, void *owner, uint32_t events)
{
	e->q = q;
	e->wake = wake;
	e->owner = owner;
	e->events = events;
	list_init(&e->link);
	if (!q)
		return;
	uint64_t f = sched_lock_ipc();
	list_add_tail(&e->link, &q->entries);
	sched_unlock_ipc(f);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* before the caller looks */
}

void poll_entry_del(struct poll_entry *e)
{
	if (!__atomic_load_n(&e->q, __ATOMIC_RELAXED))
		return; /* on no queue, or detached (it stays so) */
	uint64_t f = sched_lock_ipc();
	if (e->q) {
		list_del(&e->link);
		e->q = NULL;
	}
	sched_unlock_ipc(f);
}

void pollq_detach_all(struct pollq *q)
{
	/* nobody hangs on q (every process's reap but a watched one's): no
	 * lock. An entry added after this look would be as late as one added
	 * after the lock's release: the owner keeps adders away itself. */
	if (__atomic_load_n(&q->entries.next, __ATOMIC_ACQUIRE) == &q->entries)
		return;
	uint64_t f = sched_lock_ipc();
	while (!list_empty(&q->entries)) {
		struct poll_entry *e = list_first_entry(&q->entries, struct poll_entry, link);
		list_del(&e->link);
		e->q = NULL;
	}
	sched_unlock_ipc(f);
}

/* --- Each kind's readiness. */

/* A file a server serves (a channel, the console's endpoint): the events
 * it published (ipc_fstate), woken by its next publication. */
static long fstate_poll(struct kobj *o, int events, struct pollq **q)
{
	struct ipc_fstate *s = ipc_fstate_of(o);
	uint64_t f = sched_lock_ipc();
	bool set = s->set;
	uint32_t ev = s->events;
	sched_unlock_ipc(f);
	if (!set)
		return -EBADF; /* no file: the caller's own endpoint, another process's */
	if (q)
		*q = ipc_pollq_of(o);
	return (long)(ev & ((uint32_t)events | POLLERR | POLLHUP | POLLNVAL));
}

static long cgfs_poll(struct kobj *o, int events, struct pollq **q)
{
	struct cgfs_file *f = cgfs_file_of(o);
	if (q)
		*q = cgfs_file_pollq(f);
	return cgfs_file_poll(f, events);
}

static long pipe_poll_fn(struct kobj *o, int events, struct pollq **q)
{
	if (q)
		*q = pipe_pollq(o);
	return pipe_fd_poll(o, events);
}

static long usock_poll_fn(struct kobj *o, int events, struct pollq **q)
{
	if (q)
		*q = usock_pollq(o);
	return usock_fd_poll(o, events);
}

static long inotify_poll_fn(struct kobj *o, int events, struct pollq **q)
{
	if (q)
		*q = inotify_pollq(o);
	return inotify_poll(o, events);
}

/* The table: one function per kind of descriptor (a kind not in it is no
 * file: -EBADF, as fd_poll always answered). */
static const fd_poll_fn fd_poll_fns[16] = {
	[KOBJ_ENDPOINT] = fstate_poll,
	[KOBJ_CHANNEL] = fstate_poll,
	[KOBJ_PIPE] = pipe_poll_fn,
	[KOBJ_CGFS_FILE] = cgfs_poll,
	[KOBJ_INOTIFY] = inotify_poll_fn,
	[KOBJ_SOCKET] = usock_poll_fn,
	[KOBJ_PIDFD] = pidfd_poll_obj,
};

long fd_poll_obj(struct kobj *o, int events, struct pollq **q)
{
	if (q)
		*q = NULL;
	const struct kfile_ops *k = kfile_ops_of(o);
	fd_poll_fn fn = k ? k->poll : (unsigned)o->type < 16 ? fd_poll_fns[o->type] : NULL;
	return fn ? fn(o, events, q) : -EBADF;
}

long fd_poll_handle(int h, int events, struct kobj **held, struct pollq **q)
{
	long err;
	uint32_t have;
	struct kobj *o = handle_get_rights_of(current_thread()->proc, h, KOBJ_KINDS_ANY, 0, &err, &have);
	if (!o)
		return err;
	/* A server's file: CALL, as the call fd_poll stands for would need. */
	long r = (o->type == KOBJ_ENDPOINT || o->type == KOBJ_CHANNEL) && !(have & HANDLE_RIGHT_CALL) ?
			 -EPERM : fd_poll_obj(o, events, q);
	if (r >= 0 && held)
		*held = o;
	else
		kobj_put(o);
	return r;
}

long sys_fd_poll(int h, int events)
{
	return fd_poll_handle(h, events, NULL, NULL);
}

/* --- poll(2) and ppoll(2). */

/* Linux's struct pollfd. */
struct k_pollfd {
	int32_t fd;
	int16_t events, revents;
};

/* One caller's wait. */
struct poll_wait {
	struct thread *t;
	bool triggered;		/* an object changed since the last look */
	bool sleeping;		/* blocked in poll_block (not in a fault's wait) */
};

/* Per descriptor: its entry on the object's queue and the object. */
struct poll_slot {
	struct poll_entry e;
	struct kobj *o;		/* NULL: fd < 0, or not open */
};

static void poll_wake(struct poll_entry *e)
{
	struct poll_wait *w = e->owner;
	w->triggered = true;
	if (w->sleeping)
		sched_wake_ipc_locked(w->t, 0);
}

/* One look at every descriptor: the number with events, revents filled.
 * The first look (hang) also takes each object and hangs its entry. */
static int poll_scan(struct k_pollfd *fds, struct poll_slot *slots, uint32_t n, struct poll_wait *w, bool hang)
{
	int ready = 0;
	for (uint32_t i = 0; i < n; i++) {
		long r = 0;
		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;
		int ev = (uint16_t)fds[i].events;
		if (hang) {
			struct pollq *q = NULL;
			r = fd_poll_handle(fds[i].fd, ev, &slots[i].o, &q);
			poll_entry_add(&slots[i].e, r >= 0 ? q : NULL, poll_wake, w,
				       (uint32_t)ev | POLLERR | POLLHUP);
		} else if (slots[i].o) {
			r = fd_poll_obj(slots[i].o, ev, NULL);
		} else {
			r = -EBADF;
		}
		/* not open: POLLNVAL; a handle we may not ask (-EPERM): POLLERR */
		fds[i].revents = (int16_t)(r < 0 ? (r == -EBADF ? POLLNVAL : POLLERR) :
					   (r & (ev | POLLERR | POLLHUP | POLLNVAL)));
		ready += fds[i].revents != 0;
	}
	return ready;
}

/* Sleeps until an entry is woken, a signal or deadline (0: none): 0,
 * -ETIMEDOUT, or -EINTR. */
static int poll_block(struct poll_wait *w, uint64_t deadline)
{
	struct thread *t = w->t;
	int r = 0;
	uint64_t f = sched_lock_ipc();
	if (!w->triggered && !thread_has_work(t)) {
		w->sleeping = true;
		r = sched_block_locked(NULL, deadline);
		w->sleeping = false;
	}
	w->triggered = false;
	sched_unlock_ipc(f);
	return r;
}

static long poll_wait_all(struct k_pollfd *fds, struct poll_slot *slots, uint32_t n, uint64_t deadline,
			  bool nowait)
{
	struct poll_wait w = { .t = current_thread() };
	bool hang = true, timed_out = nowait;
	long r;
	for (;;) {
		r = poll_scan(fds, slots, n, &w, hang);
		hang = false;
		if (r || timed_out)
			break;
		if (thread_has_work(w.t)) {
			r = -EINTR;
			break;
		}
		int b = poll_block(&w, deadline);
		if (b == -ETIMEDOUT)
			timed_out = true;
		else if (b == -EINTR && w.t->freeze_kicked && !thread_has_work(w.t)) {
			r = -EINTR; /* the freezer: this call runs again after the thaw */
			break;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (fds[i].fd < 0)
			continue;
		poll_entry_del(&slots[i].e);
		if (slots[i].o)
			kobj_put(slots[i].o);
	}
	return r;
}

int pollq_wait_event(struct pollq *q, bool (*ready)(void *arg), void *arg, uint64_t deadline)
{
	struct poll_wait w = { .t = current_thread() };
	struct poll_entry e;
	int r = 0;
	poll_entry_add(&e, q, poll_wake, &w, 0);
	for (;;) {
		if (ready(arg)) {
			r = 0;
			break;
		}
		if (r == -ETIMEDOUT)
			break;
		if (thread_has_work(w.t) || (r == -EINTR && w.t->freeze_kicked)) {
			r = -EINTR;
			break;
		}
		r = poll_block(&w, deadline);
	}
	poll_entry_del(&e);
	return r;
}

long sys_poll(void *ufds, uint32_t nfds, int64_t timeout_ns, const uint64_t *usigmask)
{
	struct thread *t = current_thread();
	uint64_t mask = 0, now = clock_ns();
	if (nfds > HANDLE_MAX)
		return -EINVAL; /* past RLIMIT_NOFILE, as Linux */
	if (usigmask && copy_from_user(&mask, usigmask, sizeof(mask)))
		return -EFAULT;
	uint64_t deadline = timeout_ns <= 0 ? 0 :
			    (uint64_t)timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + (uint64_t)timeout_ns;
	size_t fbytes = nfds * sizeof(struct k_pollfd);
	/* one allocation: the caller's array and one slot per descriptor,
	 * at most HANDLE_MAX of each */
	char *mem = nfds ? kmalloc(fbytes + nfds * sizeof(struct poll_slot)) : NULL;
	if (nfds && !mem)
		return -ENOMEM;
	struct k_pollfd *fds = (struct k_pollfd *)mem;
	struct poll_slot *slots = (struct poll_slot *)(mem + fbytes);
	if (nfds && copy_from_user(fds, ufds, fbytes)) {
		kfree(mem);
		return -EFAULT;
	}
	for (uint32_t i = 0; i < nfds; i++)
		slots[i] = (struct poll_slot){ .o = NULL };
	uint64_t old = 0;
	if (usigmask)
		old = signal_mask_swap(t, mask);
	long r = poll_wait_all(fds, slots, nfds, deadline, timeout_ns == 0);
	if (usigmask)
		signal_mask_restore(t, old, r == -EINTR);
	if (r >= 0 && nfds && copy_to_user(ufds, fds, fbytes))
		r = -EFAULT;
	kfree(mem);
	return r;
}
