/* epoll(7): an instance holds an interest list of descriptors; each item
 * hangs a poll entry on its object's queue (poll.h), whose wake puts the
 * item on the instance's ready list and wakes epoll_wait's sleepers and
 * the instance's own pollers (poll of an epoll descriptor, an epoll inside
 * another). epoll_wait looks only at ready items: level-triggered ones go
 * back on the list after they are reported (they are looked at again next
 * time, and dropped once not ready), edge-triggered ones wait for the next
 * wake, EPOLLONESHOT ones are disabled until EPOLL_CTL_MOD.
 *
 * Locks: ep->lock (a spinlock: nothing under it sleeps) guards the items;
 * the ready list, the sleepers and the items' pending flags are the
 * scheduler lock's, as the wake runs under it. An item is looked at with
 * ep->lock held, never with the scheduler lock (a kind's poll may take it).
 *
 * Bounds: an item per (descriptor, object), so at most HANDLE_MAX per
 * instance; epoll_wait gathers at most that many events per call; epolls
 * nest at most EPOLL_MAX_NESTS deep and never in a cycle (ELOOP), so a
 * wake's recursion through nested instances is bounded too. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "heap.h"
#include "ipc.h"
#include "kfile.h"
#include "memcg.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3
#define EPOLLRDHUP 0x2000u
#define EPOLLEXCLUSIVE (1u << 28)
#define EPOLLWAKEUP (1u << 29)
#define EPOLLONESHOT (1u << 30)
#define EPOLLET (1u << 31)
/* An epoll may hold epolls 5 levels deep (Linux's EP_MAX_NESTS check
 * allows that below the one added), and a chain of epolls is at most 7
 * long; an epoll may be in at most EPOLL_MAX_PARENTS others, so that one
 * event wakes at most 2^6 instances up the chains (Linux limits its
 * wake-up paths too, EINVAL). */
#define EPOLL_MAX_BELOW 6	/* the added epoll and the levels under it */
#define EPOLL_MAX_CHAIN 7
#define EPOLL_MAX_PARENTS 2

/* Linux's struct epoll_event on x86_64: packed, 12 bytes. */
struct k_epoll_event {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));

struct epoll;

struct epitem {
	struct list_head link;		/* in ep->items (ep->lock) */
	struct list_head rlink;		/* in ep->ready, or empty (sched_lock) */
	bool pending;			/* woken since last looked at (sched_lock) */
	struct poll_entry e;
	struct epoll *ep;
	struct list_head plink;		/* o is an epoll: in its parents (epoll_nest_lock) */
	struct kobj *o;			/* a reference */
	int fd;
	uint32_t events;		/* asked; 0 but the flags once a oneshot fired */
	uint64_t data;
};

struct epoll {
	struct kobj obj;
	struct spinlock lock;
	struct list_head items;
	int nitems;
	struct list_head ready;		/* sched_lock */
	struct list_head sleepers;	/* threads in epoll_wait (sched_lock) */
	struct pollq pollq;		/* its own pollers */
	struct list_head parents;	/* items holding it (epoll_nest_lock) */
	int nparents;
	uint32_t reserved;		/* items made or being made (atomic): charged a
					   page per EP_ITEMS_PER_PAGE to obj.charged */
	uint64_t gen;			/* last loop check that visited it */
};

/* Items are charged to the epoll's cgroup (its creator's) a page at a
 * time, taken before an item is made and given back when it goes. */
#define EP_ITEMS_PER_PAGE (PAGE_SIZE / 256)
_Static_assert(sizeof(struct epitem) <= 256, "an item's share of its page");

static long ep_reserve(struct epoll *ep)
{
	uint32_t n = __atomic_add_fetch(&ep->reserved, 1, __ATOMIC_RELAXED);
	if (n % EP_ITEMS_PER_PAGE == 1 && mem_charge(ep->obj.charged, 1, MEMCG_STAT_SLAB)) {
		__atomic_sub_fetch(&ep->reserved, 1, __ATOMIC_RELAXED);
		return -ENOMEM;
	}
	return 0;
}

static void ep_unreserve(struct epoll *ep)
{
	uint32_t n = __atomic_sub_fetch(&ep->reserved, 1, __ATOMIC_RELAXED);
	if (n % EP_ITEMS_PER_PAGE == 0)
		mem_uncharge(ep->obj.charged, 1, MEMCG_STAT_SLAB);
}

/* Serializes the checks for loops and depth across instances, and guards
 * every epoll's parents; taken before any ep->lock. */
static struct spinlock epoll_nest_lock = SPINLOCK_INIT("epoll_nest");
static uint64_t epoll_gen;

static struct epoll *ep_of(struct kobj *o)
{
	return container_of(o, struct epoll, obj);
}

static void ep_item_free(struct epitem *it)
{
	if (it->o->type == KOBJ_EPOLL) {
		spin_lock(&epoll_nest_lock);
		list_del(&it->plink);
		ep_of(it->o)->nparents--;
		spin_unlock(&epoll_nest_lock);
	}
	poll_entry_del(&it->e);
	uint64_t f = sched_lock_ipc();
	list_del(&it->rlink);
	sched_unlock_ipc(f);
	kobj_put(it->o);
	ep_unreserve(it->ep);
	kfree(it);
}

static void ep_release(struct kobj *o)
{
	struct epoll *ep = ep_of(o);
	while (!list_empty(&ep->items)) {
		struct epitem *it = list_first_entry(&ep->items, struct epitem, link);
		list_del(&it->link);
		ep_item_free(it);
	}
}

/* The wake of an item's object (sched_lock held). */
static void ep_item_wake(struct poll_entry *e)
{
	struct epitem *it = e->owner;
	struct epoll *ep = it->ep;
	if (!(it->events & ~(EPOLLONESHOT | EPOLLET)))
		return; /* a oneshot that fired: nothing until EPOLL_CTL_MOD */
	it->pending = true;
	if (list_empty(&it->rlink))
		list_add_tail(&it->rlink, &ep->ready);
	while (!list_empty(&ep->sleepers))
		sched_wake_ipc_locked(list_first_entry(&ep->sleepers, struct thread, wait_link), 0);
	pollq_wake_ev_locked(&ep->pollq, POLLIN | POLLRDNORM);
}

/* it's events now (ep->lock held): those asked, and ERR and HUP. */
static uint32_t ep_item_poll(struct epitem *it)
{
	uint32_t want = it->events & ~(EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE | EPOLLWAKEUP);
	if (!want)
		return 0;
	long r = fd_poll_obj(it->o, (int)want, NULL);
	if (r < 0)
		return POLLERR; /* its server's file is gone: an error to report */
	return (uint32_t)r & (want | POLLERR | POLLHUP);
}

static void ep_item_queue(struct epitem *it)
{
	uint64_t f = sched_lock_ipc();
	if (list_empty(&it->rlink))
		list_add_tail(&it->rlink, &it->ep->ready);
	while (!list_empty(&it->ep->sleepers))
		sched_wake_ipc_locked(list_first_entry(&it->ep->sleepers, struct thread, wait_link), 0);
	pollq_wake_ev_locked(&it->ep->pollq, POLLIN | POLLRDNORM);
	sched_unlock_ipc(f);
}

long sys_epoll_create(int flags)
{
	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	struct proc *self = current_thread()->proc;
	struct epoll *ep = kobj_alloc(sizeof(*ep), KOBJ_EPOLL, self->cgroup, ep_release);
	if (!ep)
		return -ENOMEM;
	ep->lock = (struct spinlock)SPINLOCK_INIT("epoll");
	list_init(&ep->items);
	list_init(&ep->ready);
	list_init(&ep->sleepers);
	list_init(&ep->parents);
	pollq_init(&ep->pollq);
	int h = kfile_install(&ep->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ, flags & O_CLOEXEC);
	kobj_put(&ep->obj);
	return h;
}

/* How many levels of epolls o is, itself and under it (0 if o is no
 * epoll), or -1 if target is among them (a loop) or they are deeper than
 * the limit; each instance visited once per check, as Linux.
 * epoll_nest_lock held. */
static int ep_depth(struct kobj *o, struct epoll *target, int level)
{
	if (o->type != KOBJ_EPOLL)
		return 0;
	struct epoll *ep = ep_of(o);
	if (ep == target || level > EPOLL_MAX_BELOW)
		return -1;
	if (ep->gen == epoll_gen)
		return 1;
	ep->gen = epoll_gen;
	int deepest = 0;
	spin_lock(&ep->lock);
	struct list_head *pos;
	list_for_each(pos, &ep->items) {
		int d = ep_depth(list_entry(pos, struct epitem, link)->o, target, level + 1);
		if (d < 0) {
			deepest = -1;
			break;
		}
		deepest = MAX(deepest, d);
	}
	spin_unlock(&ep->lock);
	return deepest < 0 ? -1 : deepest + 1;
}

/* How many epolls hold ep, on the longest chain up (0: none); the chains
 * are bounded by the checks made when they were built. epoll_nest_lock. */
static int ep_height(struct epoll *ep)
{
	int h = 0;
	struct list_head *pos;
	list_for_each(pos, &ep->parents)
		h = MAX(h, 1 + ep_height(list_entry(pos, struct epitem, plink)->ep));
	return h;
}

/* May epoll o go into ep? 0, or -ELOOP (a loop, or too deep), -EINVAL
 * (o is in too many epolls already). epoll_nest_lock held. */
static long ep_nest_check(struct kobj *o, struct epoll *ep)
{
	epoll_gen++;
	int below = ep_depth(o, ep, 1);
	if (below < 0 || below + 1 + ep_height(ep) > EPOLL_MAX_CHAIN)
		return -ELOOP;
	return ep_of(o)->nparents >= EPOLL_MAX_PARENTS ? -EINVAL : 0;
}

static struct epitem *ep_find(struct epoll *ep, int fd, struct kobj *o)
{
	struct list_head *pos;
	list_for_each(pos, &ep->items) {
		struct epitem *it = list_entry(pos, struct epitem, link);
		if (it->fd == fd && it->o == o)
			return it;
	}
	return NULL;
}

/* Adds it (allocated by the caller, which it now owns) for descriptor fd
 * and object o to ep: 0 or -EEXIST, -ENOSPC. */
static long ep_add(struct epoll *ep, struct epitem *it, int fd, struct kobj *o, const struct k_epoll_event *ev)
{
	spin_lock(&ep->lock);
	long err = ep_find(ep, fd, o) ? -EEXIST : ep->nitems >= HANDLE_MAX ? -ENOSPC : 0;
	if (err) {
		spin_unlock(&ep->lock);
		kfree(it);
		ep_unreserve(ep);
		return err;
	}
	kobj_get(o);
	it->o = o;
	it->fd = fd;
	it->ep = ep;
	it->events = ev->events | POLLERR | POLLHUP;
	it->data = ev->data;
	list_init(&it->rlink);
	list_add_tail(&it->link, &ep->items);
	ep->nitems++;
	if (o->type == KOBJ_EPOLL) { /* epoll_nest_lock held (sys_epoll_ctl) */
		list_add_tail(&it->plink, &ep_of(o)->parents);
		ep_of(o)->nparents++;
	}
	struct pollq *q = NULL;
	fd_poll_obj(o, 0, &q);
	poll_entry_add(&it->e, q, ep_item_wake, it, it->events & ~(EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE));
	bool ready = ep_item_poll(it) != 0;
	spin_unlock(&ep->lock);
	if (ready)
		ep_item_queue(it);
	return 0;
}

/* DEL or MOD of the item for fd and o: 0 or -ENOENT, -EINVAL (MOD of an
 * EPOLLEXCLUSIVE item). */
static long ep_change(struct epoll *ep, int op, int fd, struct kobj *o, const struct k_epoll_event *ev)
{
	long err = 0;
	bool ready = false;
	spin_lock(&ep->lock);
	struct epitem *it = ep_find(ep, fd, o);
	if (!it) {
		err = -ENOENT;
	} else if (op == EPOLL_CTL_DEL) {
		list_del(&it->link);
		ep->nitems--;
	} else if (it->events & EPOLLEXCLUSIVE) {
		err = -EINVAL;
	} else {
		uint64_t f = sched_lock_ipc();
		it->events = ev->events | POLLERR | POLLHUP;
		it->data = ev->data;
		it->e.events = it->events & ~(EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE);
		sched_unlock_ipc(f);
		ready = ep_item_poll(it) != 0;
	}
	spin_unlock(&ep->lock);
	if (!err && op == EPOLL_CTL_DEL)
		ep_item_free(it);
	else if (ready)
		ep_item_queue(it);
	return err;
}

/* Linux's checks, in its order, before the operation: the target must
 * be pollable (a regular file is not: EPERM), epfd an epoll other than
 * the target (EINVAL), EPOLLEXCLUSIVE only with ADD, a non-epoll target
 * and the bits it allows (EINVAL). */
static long ep_ctl_check(struct kobj *eo, struct kobj *o, int op, uint32_t events)
{
	struct ipc_fstate *fs = ipc_fstate_of(o);
	if ((o->type == KOBJ_CHANNEL && fs && (fs->fst & IPC_FST_SEEKABLE)) || fd_poll_obj(o, 0, NULL) < 0)
		return -EPERM;
	if (eo->type != KOBJ_EPOLL || o == eo)
		return -EINVAL;
	bool has_event = op == EPOLL_CTL_ADD || op == EPOLL_CTL_MOD;
	if (has_event && (events & EPOLLEXCLUSIVE)) {
		uint32_t ok = POLLIN | POLLOUT | POLLRDNORM | POLLRDBAND | POLLWRNORM | POLLWRBAND | POLLERR |
			      POLLHUP | EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE;
		if (op == EPOLL_CTL_MOD || o->type == KOBJ_EPOLL || (events & ~ok))
			return -EINVAL;
	}
	return 0;
}

long sys_epoll_ctl(int epfd, int op, int fd, const void *uevent)
{
	struct k_epoll_event ev = { 0 };
	bool has_event = op == EPOLL_CTL_ADD || op == EPOLL_CTL_MOD;
	if (has_event && copy_from_user(&ev, uevent, sizeof(ev)))
		return -EFAULT;
	ev.events &= ~EPOLLWAKEUP; /* Linux drops it without CAP_BLOCK_SUSPEND: no suspend here */
	struct proc *p = current_thread()->proc;
	struct kobj *eo = handle_get(p, epfd, KOBJ_ANY);
	if (!eo)
		return -EBADF;
	struct kobj *o = handle_get(p, fd, KOBJ_ANY);
	if (!o) {
		kobj_put(eo);
		return -EBADF;
	}
	long err = ep_ctl_check(eo, o, op, ev.events);
	if (!err && op == EPOLL_CTL_ADD) {
		/* the charge and the memory before any lock */
		bool charged = ep_reserve(ep_of(eo)) == 0;
		struct epitem *it = charged ? kzalloc(sizeof(*it)) : NULL;
		if (!it) {
			if (charged)
				ep_unreserve(ep_of(eo));
			err = -ENOMEM;
		} else if (o->type == KOBJ_EPOLL) {
			spin_lock(&epoll_nest_lock);
			err = ep_nest_check(o, ep_of(eo));
			if (err) {
				kfree(it);
				ep_unreserve(ep_of(eo));
			}
			else
				err = ep_add(ep_of(eo), it, fd, o, &ev);
			spin_unlock(&epoll_nest_lock);
		} else {
			err = ep_add(ep_of(eo), it, fd, o, &ev);
		}
	} else if (!err) {
		err = op == EPOLL_CTL_DEL || op == EPOLL_CTL_MOD ? ep_change(ep_of(eo), op, fd, o, &ev) : -EINVAL;
	}
	kobj_put(o);
	kobj_put(eo);
	return err;
}

/* Gathers at most max events of ready items into out (ep->lock taken
 * here): how many. */
static int ep_collect(struct epoll *ep, struct k_epoll_event *out, int max)
{
	struct list_head batch;
	list_init(&batch);
	int n = 0;
	spin_lock(&ep->lock);
	uint64_t f = sched_lock_ipc();
	/* the ready list moves to our batch: items woken while we look go
	 * back on ep->ready (or stay pending) */
	if (!list_empty(&ep->ready)) {
		batch.next = ep->ready.next;
		batch.prev = ep->ready.prev;
		batch.next->prev = &batch;
		batch.prev->next = &batch;
		list_init(&ep->ready);
	}
	sched_unlock_ipc(f);
	while (!list_empty(&batch)) {
		struct epitem *it = list_first_entry(&batch, struct epitem, rlink);
		f = sched_lock_ipc();
		list_del(&it->rlink);
		it->pending = false;
		sched_unlock_ipc(f);
		uint32_t r = n < max ? ep_item_poll(it) : 0;
		bool requeue = n >= max; /* not looked at: stays ready */
		if (r) {
			out[n++] = (struct k_epoll_event){ r, it->data };
			if (it->events & EPOLLONESHOT)
				it->events &= EPOLLONESHOT | EPOLLET; /* disabled until MOD */
			else if (!(it->events & EPOLLET))
				requeue = true; /* level: looked at again next time */
		}
		f = sched_lock_ipc();
		if ((requeue || it->pending) && list_empty(&it->rlink))
			list_add_tail(&it->rlink, &ep->ready);
		sched_unlock_ipc(f);
	}
	spin_unlock(&ep->lock);
	return n;
}

static long ep_wait(struct epoll *ep, struct k_epoll_event *out, int max, int64_t timeout_ns)
{
	struct thread *t = current_thread();
	uint64_t now = clock_ns();
	uint64_t deadline = timeout_ns <= 0 ? 0 :
			    (uint64_t)timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + (uint64_t)timeout_ns;
	bool timed_out = timeout_ns == 0;
	for (;;) {
		int n = ep_collect(ep, out, max);
		if (n || timed_out)
			return n;
		if (thread_has_work(t))
			return -EINTR;
		int b = 0;
		uint64_t f = sched_lock_ipc();
		if (list_empty(&ep->ready) && !thread_has_work(t))
			b = sched_block_locked(&ep->sleepers, deadline);
		sched_unlock_ipc(f);
		if (b == -ETIMEDOUT)
			timed_out = true;
		else if (b == -EINTR && t->freeze_kicked && !thread_has_work(t))
			return -EINTR; /* the freezer: runs again after the thaw */
	}
}

long sys_epoll_wait(int epfd, void *uevents, int maxevents, int64_t timeout_ns, const uint64_t *usigmask)
{
	struct thread *t = current_thread();
	if (maxevents <= 0 || (size_t)maxevents > INT32_MAX / sizeof(struct k_epoll_event))
		return -EINVAL;
	struct kobj *o = handle_get(t->proc, epfd, KOBJ_ANY);
	if (!o)
		return -EBADF;
	if (o->type != KOBJ_EPOLL) {
		kobj_put(o);
		return -EINVAL;
	}
	if (!user_range_ok((uint64_t)uevents, (uint64_t)maxevents * sizeof(struct k_epoll_event))) {
		kobj_put(o);
		return -EFAULT;
	}
	uint64_t mask = 0;
	if (usigmask && copy_from_user(&mask, usigmask, sizeof(mask))) {
		kobj_put(o);
		return -EFAULT;
	}
	int max = MIN(maxevents, HANDLE_MAX); /* no more items than that are ready */
	struct k_epoll_event *out = kmalloc((size_t)max * sizeof(*out));
	if (!out) {
		kobj_put(o);
		return -ENOMEM;
	}
	uint64_t old = usigmask ? signal_mask_swap(t, mask) : 0;
	long r = ep_wait(ep_of(o), out, max, timeout_ns);
	if (usigmask)
		signal_mask_restore(t, old, r == -EINTR);
	if (r > 0 && copy_to_user(uevents, out, (size_t)r * sizeof(*out)))
		r = -EFAULT;
	kfree(out);
	kobj_put(o);
	return r;
}

/* An epoll descriptor is readable while an item of it is ready: a look at
 * the items on its ready list (without taking their events). */
static long ep_poll(struct kobj *o, int events, struct pollq **q)
{
	struct epoll *ep = ep_of(o);
	if (q)
		*q = &ep->pollq;
	bool ready = false;
	spin_lock(&ep->lock);
	struct list_head *pos;
	list_for_each(pos, &ep->items) {
		struct epitem *it = list_entry(pos, struct epitem, link);
		if (!list_empty(&it->rlink) && ep_item_poll(it)) {
			ready = true;
			break;
		}
	}
	spin_unlock(&ep->lock);
	return ready ? events & (POLLIN | POLLRDNORM) : 0;
}

static long ep_read(struct kobj *o, void *buf, size_t len)
{
	(void)o, (void)buf, (void)len;
	return -EINVAL;
}

static long ep_write(struct kobj *o, const void *buf, size_t len)
{
	(void)o, (void)buf, (void)len;
	return -EINVAL;
}

static long ep_flags(struct kobj *o, int set)
{
	(void)o, (void)set;
	return O_RDWR; /* Linux: fcntl(F_GETFL) of an epoll says O_RDWR */
}

const struct kfile_ops epoll_ops = {
	.read = ep_read,
	.write = ep_write,
	.flags = ep_flags,
	.poll = ep_poll,
};
