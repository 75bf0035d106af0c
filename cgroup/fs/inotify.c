/* inotify for cgroup interface files: Linux tools watch cgroup.events with
 * IN_MODIFY instead of polling it. A watch is set on an open cgroup file
 * (the C library's inotify_add_watch opens the path); each change of a
 * notifying file (cgroup.events) queues one IN_MODIFY event (a change
 * that finds the same event last in the queue is folded into it, as
 * Linux does). Reads return whole struct inotify_event records and wait
 * while the queue is empty unless the descriptor is non-blocking. Files
 * of other file systems cannot be watched yet (EOPNOTSUPP). */
#include "inotify.h"
#include "abi/errno.h"
#include "abi/inotify.h"
#include "abi/poll.h"
#include "cgfs_file.h"
#include "cgfs.h"
#include "heap.h"
#include "kstring.h"
#include "memcg.h"
#include "poll.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

#define INOTIFY_QUEUE 128

struct inotify_watch {
	struct list_head cg_link;	/* in cg->watches (cg_lock) */
	struct list_head in_link;	/* in ino->watches (ino->lock) */
	struct inotify *ino;
	struct cgroup *cg;		/* a reference */
	const struct cftype *cft;
	int wd;
	uint32_t mask;
};

struct inotify {
	struct kobj obj;
	uint32_t reserved;		/* watches made or being made (atomic): a page
					   per INOTIFY_WATCHES_PER_PAGE charged to obj.charged */
	struct spinlock lock;		/* all below */
	struct list_head watches;
	int next_wd;
	int flags;			/* O_NONBLOCK */
	struct waitq readers;
	struct pollq pollq;		/* pollers (poll.h) */
	struct { int32_t wd; uint32_t mask; } queue[INOTIFY_QUEUE];
	unsigned head, count;
};

static void inotify_queue_locked(struct inotify *in, int wd, uint32_t mask)
{
	unsigned last = (in->head + in->count - 1) % INOTIFY_QUEUE;
	if (in->count && in->queue[last].wd == wd && in->queue[last].mask == mask)
		return; /* folded into the same event */
	if (in->count == INOTIFY_QUEUE - 1) {
		wd = -1, mask = IN_Q_OVERFLOW;
		if (in->queue[last].mask == IN_Q_OVERFLOW)
			return;
	} else if (in->count == INOTIFY_QUEUE) {
		return;
	}
	unsigned at = (in->head + in->count++) % INOTIFY_QUEUE;
	in->queue[at].wd = wd;
	in->queue[at].mask = mask;
	waitq_wake_all(&in->readers, 0);
	pollq_wake(&in->pollq);
}

void cgfs_notify_locked(struct cgroup *cg, unsigned which)
{
	struct list_head *pos;
	pollq_wake(&cgfs_pollq); /* after the bump of notify_seq: poll sees it */
	list_for_each(pos, &cg->watches) {
		struct inotify_watch *w = list_entry(pos, struct inotify_watch, cg_link);
		if (!(w->cft->flags & CFT_NOTIFY) || CFT_NOTIFY_FILE(w->cft) != which || !(w->mask & IN_MODIFY))
			continue;
		spin_lock(&w->ino->lock);
		inotify_queue_locked(w->ino, w->wd, IN_MODIFY);
		spin_unlock(&w->ino->lock);
	}
}

/* Watches are charged to the instance's maker (Linux charges its marks
 * to the memcg of the group's creator) by the page they share, as epoll's
 * items: without it a delegated subtree could hold a watch on every file
 * of every cgroup it makes, from each instance, outside its memory.max. */
#define INOTIFY_WATCHES_PER_PAGE (PAGE_SIZE / 64)
_Static_assert(sizeof(struct inotify_watch) <= 64, "a watch's share of its page");

static long inotify_reserve(struct inotify *in)
{
	uint32_t n = __atomic_add_fetch(&in->reserved, 1, __ATOMIC_RELAXED);
	if (n % INOTIFY_WATCHES_PER_PAGE == 1 && mem_charge(in->obj.charged, 1, MEMCG_STAT_SLAB)) {
		__atomic_sub_fetch(&in->reserved, 1, __ATOMIC_RELAXED);
		return -ENOMEM;
	}
	return 0;
}

static void inotify_unreserve(struct inotify *in)
{
	uint32_t n = __atomic_sub_fetch(&in->reserved, 1, __ATOMIC_RELAXED);
	if (n % INOTIFY_WATCHES_PER_PAGE == 0)
		mem_uncharge(in->obj.charged, 1, MEMCG_STAT_SLAB);
}

/* Unhooks w from its cgroup (cg_lock held); frees it once off both lists. */
static void inotify_unwatch_cg_locked(struct inotify_watch *w)
{
	list_del(&w->cg_link);
}

static void inotify_release(struct kobj *o)
{
	struct inotify *in = container_of(o, struct inotify, obj);
	while (!list_empty(&in->watches)) {
		struct inotify_watch *w = list_first_entry(&in->watches, struct inotify_watch, in_link);
		list_del(&w->in_link);
		cg_lock();
		inotify_unwatch_cg_locked(w);
		cg_unlock();
		cg_put(w->cg);
		kfree(w);
		inotify_unreserve(in);
	}
}

long sys_inotify_init1(int flags)
{
	if (flags & ~(IN_NONBLOCK | IN_CLOEXEC))
		return -EINVAL;
	struct proc *self = current_thread()->proc;
	struct inotify *in = kobj_alloc(sizeof(*in), KOBJ_INOTIFY, self->cgroup, inotify_release);
	if (!in)
		return -ENOMEM;
	in->lock = (struct spinlock)SPINLOCK_INIT("inotify");
	list_init(&in->watches);
	waitq_init(&in->readers);
	pollq_init(&in->pollq);
	in->next_wd = 1;
	in->flags = flags & IN_NONBLOCK;
	int h = handle_install(self, &in->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ | HANDLE_RIGHT_MANAGE);
	kobj_put(&in->obj);
	return h;
}

/* Inotify instance h; changing its watches needs HANDLE_RIGHT_MANAGE
 * (*err -EBADF, -EPERM). */
static struct inotify *inotify_get(int h, long *err)
{
	struct kobj *o = handle_get_rights(current_thread()->proc, h, KOBJ_KIND(KOBJ_INOTIFY),
					   HANDLE_RIGHT_MANAGE, err);
	return o ? container_of(o, struct inotify, obj) : NULL;
}

long sys_inotify_watch_fd(int ifd, int fd, uint32_t mask)
{
	long r;
	struct inotify *in = inotify_get(ifd, &r);
	if (!in)
		return r;
	/* Linux's inotify_add_watch needs read access to the file: here the
	 * descriptor's READ right (-EACCES without, as Linux). */
	uint32_t have = 0;
	struct kobj *o = handle_get_rights_of(current_thread()->proc, fd, KOBJ_KINDS_ANY, 0, &r, &have);
	struct cgfs_file *f = cgfs_file_of(o);
	r = !o ? -EBADF : !f ? -EOPNOTSUPP : !(have & HANDLE_RIGHT_READ) ? -EACCES : !(mask & IN_ALL_EVENTS) ? -EINVAL : 0;
	if (!r && (mask & IN_MASK_ADD) && (mask & IN_MASK_CREATE))
		r = -EINVAL;
	if (!r) { /* the same file watched again: its watch, as Linux's (one per inode) */
		struct cgroup *cg;
		const struct cftype *cft;
		cgfs_file_target(f, &cg, &cft);
		cg_lock(); /* cg_lock, then the inotify's lock, as cgfs_notify_locked */
		spin_lock(&in->lock);
		struct list_head *pos;
		list_for_each(pos, &in->watches) {
			struct inotify_watch *old = list_entry(pos, struct inotify_watch, in_link);
			if (r || old->cg != cg || old->cft != cft)
				continue;
			r = (mask & IN_MASK_CREATE) ? -EEXIST : old->wd;
			if (r > 0)
				old->mask = (mask & IN_MASK_ADD ? old->mask : 0) | (mask & IN_ALL_EVENTS);
		}
		spin_unlock(&in->lock);
		cg_unlock();
	}
	if (!r)
		r = inotify_reserve(in);
	struct inotify_watch *w = r ? NULL : kzalloc(sizeof(*w));
	if (!r && !w) {
		inotify_unreserve(in);
		r = -ENOMEM;
	}
	if (w) {
		w->ino = in;
		cgfs_file_target(f, &w->cg, &w->cft);
		w->mask = mask & IN_ALL_EVENTS;
		cg_get(w->cg);
		spin_lock(&in->lock);
		r = w->wd = in->next_wd++;
		list_add_tail(&w->in_link, &in->watches);
		spin_unlock(&in->lock);
		cg_lock();
		list_add_tail(&w->cg_link, &w->cg->watches);
		cg_unlock();
	}
	if (o)
		kobj_put(o);
	kobj_put(&in->obj);
	return r;
}

long sys_inotify_rm_watch(int ifd, int wd)
{
	long err;
	struct inotify *in = inotify_get(ifd, &err);
	if (!in)
		return err;
	struct inotify_watch *found = NULL;
	struct list_head *pos;
	cg_lock(); /* cg_lock, then the inotify's lock, as cgfs_notify_locked */
	spin_lock(&in->lock);
	list_for_each(pos, &in->watches) {
		struct inotify_watch *w = list_entry(pos, struct inotify_watch, in_link);
		if (w->wd == wd) {
			found = w;
			break;
		}
	}
	if (found) {
		list_del(&found->in_link);
		inotify_unwatch_cg_locked(found);
		inotify_queue_locked(in, wd, IN_IGNORED);
	}
	spin_unlock(&in->lock);
	cg_unlock();
	if (found) {
		cg_put(found->cg);
		kfree(found);
		inotify_unreserve(in);
	}
	kobj_put(&in->obj);
	return found ? 0 : -EINVAL;
}

long inotify_read(struct kobj *o, void *ubuf, size_t len)
{
	struct inotify *in = container_of(o, struct inotify, obj);
	struct k_inotify_event ev[16];
	size_t n = 0;
	if (len < sizeof(ev[0]))
		return -EINVAL;
	if (!user_range_ok((uint64_t)ubuf, len))
		return -EFAULT;
	spin_lock(&in->lock);
	while (in->count == 0) {
		if (in->flags & O_NONBLOCK) {
			spin_unlock(&in->lock);
			return -EAGAIN;
		}
		if (waitq_wait(&in->readers, &in->lock, 0) == -EINTR)
			return -EINTR;
		spin_lock(&in->lock);
	}
	while (in->count && n < 16 && (n + 1) * sizeof(ev[0]) <= len) {
		ev[n] = (struct k_inotify_event){ in->queue[in->head].wd, in->queue[in->head].mask, 0, 0 };
		in->head = (in->head + 1) % INOTIFY_QUEUE;
		in->count--;
		n++;
	}
	spin_unlock(&in->lock);
	return copy_to_user(ubuf, ev, n * sizeof(ev[0])) ? -EFAULT : (long)(n * sizeof(ev[0]));
}

long inotify_poll(struct kobj *o, int events)
{
	struct inotify *in = container_of(o, struct inotify, obj);
	return in->count ? events & (POLLIN | POLLRDNORM) : 0;
}

struct pollq *inotify_pollq(struct kobj *o)
{
	return &container_of(o, struct inotify, obj)->pollq;
}

long inotify_flags(struct kobj *o, int set)
{
	struct inotify *in = container_of(o, struct inotify, obj);
	if (set >= 0)
		in->flags = set & O_NONBLOCK;
	return in->flags;
}
