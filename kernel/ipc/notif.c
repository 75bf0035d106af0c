/* Notifications: a word of event bits a thread can wait on. Interrupts
 * reach user-space drivers this way (irq_bind), and processes can signal
 * each other without a rendezvous. Signalling never blocks; waiting takes
 * and clears all pending bits at once. Guarded by the scheduler lock, as
 * they are a scheduling matter (who waits, who wakes). */
#include "notif.h"
#include "abi/errno.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

static void notif_release(struct kobj *o)
{
	(void)o;
}

int notif_create(struct proc *p)
{
	struct notification *n = kobj_alloc(sizeof(*n), KOBJ_NOTIFICATION, p->cgroup, notif_release);
	if (!n)
		return -ENOMEM;
	list_init(&n->waiters);
	int h = handle_install(p, &n->obj, HANDLE_RIGHTS_NOTIF);
	kobj_put(&n->obj);
	return h;
}

/* Safe from interrupt handlers. */
void notif_signal(struct notification *n, uint64_t bits)
{
	uint64_t f = sched_lock_ipc();
	n->pending |= bits;
	if (!list_empty(&n->waiters))
		sched_wake_ipc_locked(list_first_entry(&n->waiters, struct thread, wait_link), 0);
	sched_unlock_ipc(f);
}

/* Notification h, if the handle has right need (*err -EBADF, -EPERM). */
static struct notification *notif_get(int h, uint32_t need, long *err)
{
	struct kobj *o = handle_get_rights(current_thread()->proc, h, KOBJ_KIND(KOBJ_NOTIFICATION), need, err);
	return o ? container_of(o, struct notification, obj) : NULL;
}

long sys_notif_create(void)
{
	return notif_create(current_thread()->proc);
}

long sys_notif_signal(int h, uint64_t bits)
{
	long err;
	struct notification *n = notif_get(h, HANDLE_RIGHT_SIGNAL, &err);
	if (!n)
		return err;
	notif_signal(n, bits);
	kobj_put(&n->obj);
	return 0;
}

long sys_notif_wait(int h, uint64_t timeout_ns)
{
	long err;
	struct notification *n = notif_get(h, HANDLE_RIGHT_WAIT, &err);
	if (!n)
		return err;
	uint64_t deadline = 0;
	if (timeout_ns) {
		uint64_t now = clock_ns();
		deadline = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
	}
	long r = 0;
	uint64_t f = sched_lock_ipc();
	while (!n->pending && r == 0)
		r = sched_block_locked(&n->waiters, deadline);
	if (n->pending) {
		r = (long)(n->pending & 0x7fffffffffffffffull);
		n->pending = 0;
	}
	sched_unlock_ipc(f);
	kobj_put(&n->obj);
	return r;
}
