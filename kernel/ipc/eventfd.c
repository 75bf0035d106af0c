/* eventfd(2): a 64-bit counter as a descriptor. A write adds to it (and
 * waits while the sum would pass 2^64 - 2), a read takes it all and
 * zeroes it (EFD_SEMAPHORE: takes 1), waiting while it is 0; readable
 * while it is not 0, writable while 1 more fits. Linux's semantics, byte
 * for byte; the object is charged to its creator's cgroup. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "kfile.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

#define EFD_SEMAPHORE 1
#define EFD_MAX 0xfffffffffffffffeull	/* the largest count */

struct eventfd {
	struct kobj obj;
	struct spinlock lock;		/* count, flags */
	uint64_t count;
	bool semaphore;
	int flags;			/* O_NONBLOCK */
	struct waitq readers, writers;
	struct pollq pollq;
};

static struct eventfd *efd_of(struct kobj *o)
{
	return container_of(o, struct eventfd, obj);
}

static void efd_release(struct kobj *o)
{
	(void)o;
}

long sys_eventfd(uint32_t initval, int flags)
{
	if (flags & ~(EFD_SEMAPHORE | O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	struct proc *self = current_thread()->proc;
	struct eventfd *e = kobj_alloc(sizeof(*e), KOBJ_EVENTFD, self->cgroup, efd_release);
	if (!e)
		return -ENOMEM;
	e->lock = (struct spinlock)SPINLOCK_INIT("eventfd");
	e->count = initval;
	e->semaphore = flags & EFD_SEMAPHORE;
	e->flags = flags & O_NONBLOCK;
	waitq_init(&e->readers);
	waitq_init(&e->writers);
	pollq_init(&e->pollq);
	int h = kfile_install(&e->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ | HANDLE_RIGHT_WRITE, flags & O_CLOEXEC);
	kobj_put(&e->obj);
	return h;
}

static long efd_read(struct kobj *o, void *ubuf, size_t len)
{
	struct eventfd *e = efd_of(o);
	if (len < sizeof(uint64_t))
		return -EINVAL;
	if (!user_range_ok((uint64_t)ubuf, sizeof(uint64_t)))
		return -EFAULT;
	spin_lock(&e->lock);
	while (e->count == 0) {
		if (e->flags & O_NONBLOCK) {
			spin_unlock(&e->lock);
			return -EAGAIN;
		}
		if (waitq_wait(&e->readers, &e->lock, 0) == -EINTR)
			return -EINTR; /* read is restarted under SA_RESTART */
		spin_lock(&e->lock);
	}
	uint64_t v = e->semaphore ? 1 : e->count;
	e->count -= v;
	spin_unlock(&e->lock);
	waitq_wake_all(&e->writers, 0);
	pollq_wake_ev(&e->pollq, POLLOUT | POLLWRNORM);
	if (copy_to_user(ubuf, &v, sizeof(v))) {
		/* give it back: the value was not delivered */
		spin_lock(&e->lock);
		e->count += v;
		spin_unlock(&e->lock);
		waitq_wake_all(&e->readers, 0);
		pollq_wake_ev(&e->pollq, POLLIN | POLLRDNORM);
		return -EFAULT;
	}
	return sizeof(v);
}

static long efd_write(struct kobj *o, const void *ubuf, size_t len)
{
	struct eventfd *e = efd_of(o);
	uint64_t v;
	if (len < sizeof(v))
		return -EINVAL;
	if (copy_from_user(&v, ubuf, sizeof(v)))
		return -EFAULT;
	if (v == UINT64_MAX)
		return -EINVAL;
	spin_lock(&e->lock);
	while (EFD_MAX - e->count < v) {
		if (e->flags & O_NONBLOCK) {
			spin_unlock(&e->lock);
			return -EAGAIN;
		}
		if (waitq_wait(&e->writers, &e->lock, 0) == -EINTR)
			return -EINTR;
		spin_lock(&e->lock);
	}
	e->count += v;
	spin_unlock(&e->lock);
	if (v) {
		waitq_wake_all(&e->readers, 0);
		pollq_wake_ev(&e->pollq, POLLIN | POLLRDNORM);
	}
	return sizeof(v);
}

static long efd_flags(struct kobj *o, int set)
{
	struct eventfd *e = efd_of(o);
	if (set >= 0)
		e->flags = set & O_NONBLOCK;
	return e->flags | O_RDWR;
}

static long efd_poll(struct kobj *o, int events, struct pollq **q)
{
	struct eventfd *e = efd_of(o);
	if (q)
		*q = &e->pollq;
	uint64_t c = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
	long r = 0;
	if (c > 0)
		r |= POLLIN | POLLRDNORM;
	if (c < EFD_MAX)
		r |= POLLOUT | POLLWRNORM;
	return r & events;
}

const struct kfile_ops eventfd_ops = {
	.read = efd_read,
	.write = efd_write,
	.flags = efd_flags,
	.poll = efd_poll,
};
