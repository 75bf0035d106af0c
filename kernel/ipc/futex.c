/* Futexes: wait on a 32-bit word in user memory while it holds an
 * expected value; wake waiters on a word. The C library builds mutexes,
 * condition variables, semaphores and pthread_join on them, so an
 * uncontended lock never enters the kernel. Waiters are keyed in a small
 * hash of wait queues by what the word is (vm_futex_key): in private
 * memory (address space, address); in shared memory what every process
 * mapping it has alike (a shared file mapping's object and offset, a
 * shared anonymous page's frame), so PTHREAD_PROCESS_SHARED objects work
 * between processes whatever address each maps them at. A thread's
 * clear_tid word (set at thread_create) is zeroed and woken when the
 * thread has fully ended, so a joiner may free the thread's stack.
 * A wait with an absolute CLOCK_REALTIME deadline (K_FUTEX_REALTIME, the
 * library's timed waits) keeps that time and is also on futex_real, so a
 * step of the wall clock wakes it to work its monotonic deadline out
 * again (futex_clock_was_set), as Linux's FUTEX_CLOCK_REALTIME. */
#include "abi/errno.h"
#include "abi/sched.h"
#include "abi/signal.h"
#include "addrspace.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

#define FUTEX_BUCKETS 64

struct futex_waiter {
	struct list_head link;
	struct list_head real_link;	/* on futex_real: a K_FUTEX_REALTIME wait */
	uint64_t key[2];
	struct thread *t;
	bool woken;
	bool pi;			/* K_FUTEX_PI: it lends its priority to the owner */
};

static struct list_head futex_buckets[FUTEX_BUCKETS];
static struct list_head futex_real = LIST_HEAD_INIT(futex_real);
static struct spinlock futex_lock = SPINLOCK_INIT("futex");
static bool futex_ready;

static struct list_head *futex_bucket(const uint64_t key[2])
{
	if (!futex_ready) {
		for (int i = 0; i < FUTEX_BUCKETS; i++)
			list_init(&futex_buckets[i]);
		futex_ready = true;
	}
	return &futex_buckets[(key[0] ^ (key[0] >> 12) ^ (key[1] >> 2)) % FUTEX_BUCKETS];
}

static bool futex_key_eq(const struct futex_waiter *w, const uint64_t key[2])
{
	return w->key[0] == key[0] && w->key[1] == key[1];
}

/* The key of the word at uaddr in as, faulting its page in if needed:
 * 0 or -EFAULT. */
static int futex_key(struct addrspace *as, uint32_t *uaddr, uint64_t key[2])
{
	for (int tries = 0; tries < 4; tries++) {
		uint32_t val;
		int r = vm_futex_key(as, (uint64_t)uaddr, key);
		if (r != -EAGAIN)
			return r;
		if (vm_copy_from(as, &val, (uint64_t)uaddr, sizeof(val)))
			return -EFAULT;
	}
	return -EFAULT;
}

/* The monotonic deadline (clock_ns) at which the wall clock reads real,
 * with the clock's offset now: 0 if that is already past. */
static uint64_t futex_real_deadline(uint64_t real)
{
	uint64_t now = clock_ns(), wall = clock_real_ns();
	if (real <= wall)
		return 0;
	uint64_t left = real - wall;
	return left > UINT64_MAX - now ? UINT64_MAX : now + left;
}

/* A K_FUTEX_PI wait: self lends its priority to the lock's owner, the
 * thread tid of its own process (a lock word naming another process's
 * thread, or none, boosts nobody: the wait is a plain one). proc_lock
 * keeps the owner from ending meanwhile; an owner that ends later lets
 * its waiters go first (sched_pi_owner_exit_locked). True if linked. */
static bool futex_pi_link(struct thread *self, uint32_t tid)
{
	bool linked = false;
	spin_lock(&proc_lock);
	struct thread *owner = tid ? thread_find_locked((int)tid) : NULL;
	if (owner && owner != self && owner->proc == self->proc && owner->state != THREAD_DEAD) {
		uint64_t f = sched_lock_ipc();
		sched_pi_link_locked(self, owner);
		linked = self->pi_owner == owner;
		sched_unlock_ipc(f);
	}
	spin_unlock(&proc_lock);
	return linked;
}

/* The wait ends (or its waker ends it): the owner's boost goes. */
static void futex_pi_unlink(struct futex_waiter *w)
{
	if (!w->pi)
		return;
	uint64_t f = sched_lock_ipc();
	sched_pi_unlink_locked(w->t);
	sched_unlock_ipc(f);
}

long sys_futex_wait(uint32_t *uaddr, uint32_t expected, uint64_t timeout_ns, uint32_t flags)
{
	struct thread *self = current_thread();
	struct addrspace *as = self->proc->as;
	uint32_t val;
	bool real = flags & K_FUTEX_REALTIME;
	if (((uint64_t)uaddr & 3) || !as || (flags & ~(K_FUTEX_REALTIME | K_FUTEX_PI | K_FUTEX_RESTART)))
		return -EINVAL;
	uint64_t now = clock_ns(), deadline = 0;
	if (!real && timeout_ns) /* saturated: a huge timeout is none, not a wrapped one */
		deadline = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
	struct futex_waiter w = { .t = self };
	/* Touch the word first (it may fault in), then read it again under the
	 * lock a waker takes, so no wake-up between the test and the sleep is
	 * lost. */
	if (copy_from_user(&val, uaddr, sizeof(val)))
		return -EFAULT;
	if (futex_key(as, uaddr, w.key))
		return -EFAULT;
	if (flags & K_FUTEX_PI)
		w.pi = futex_pi_link(self, expected & K_FUTEX_TID_MASK);
	spin_lock(&futex_lock);
	if (copy_from_user(&val, uaddr, sizeof(val)) || val != expected) {
		spin_unlock(&futex_lock);
		futex_pi_unlink(&w);
		return -EAGAIN;
	}
	list_add_tail(&w.link, futex_bucket(w.key));
	if (real)
		list_add_tail(&w.real_link, &futex_real);
	/* A lock's holder may be serving a call on a throttled context: it
	 * goes on on its own (sched.h, sched_donors_waiting). */
	sched_donors_waiting(self->proc, 1);
	long r = 0;
	while (!w.woken && r == 0) {
		uint64_t gen = 0;
		if (real) {
			/* worked out under futex_lock, on futex_real: a step after
			 * this reading wakes us (futex_clock_was_set takes the lock) */
			gen = clock_real_gen();
			deadline = futex_real_deadline(timeout_ns);
			if (!deadline) {
				r = -ETIMEDOUT;
				break;
			}
		}
		/* a signal (pthread_cancel's too) pending since the test ends it */
		r = waitq_wait_signals(NULL, &futex_lock, deadline);
		spin_lock(&futex_lock);
		/* a step that raced the timeout: look at the deadline again (a
		 * slew may end it a few ns short: as Linux's hrtimer, done) */
		if (real && r == -ETIMEDOUT && clock_real_gen() != gen)
			r = 0;
	}
	list_del(&w.link);
	if (real)
		list_del(&w.real_link);
	spin_unlock(&futex_lock);
	futex_pi_unlink(&w);
	sched_donors_waiting(self->proc, -1);
	return w.woken ? 0 : r;
}

void futex_clock_was_set(void)
{
	struct list_head *pos;
	spin_lock(&futex_lock);
	list_for_each(pos, &futex_real) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, real_link);
		sched_wake(w->t, 0); /* not woken: it works its deadline out again */
	}
	spin_unlock(&futex_lock);
}

/* The waiter on key whose work runs on the most entitled context
 * (the first of equals): a lock's next holder, so that a waiter never
 * waits for less entitled ones queued before it (docs/scheduler.md;
 * Linux's futex queues are ordered by priority too). NULL: none. */
static struct futex_waiter *futex_best_waiter(struct list_head *b, const uint64_t key[2])
{
	struct futex_waiter *best = NULL;
	struct list_head *pos;
	uint64_t f = sched_lock_ipc();
	list_for_each(pos, b) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		if (!futex_key_eq(w, key) || w->woken)
			continue;
		if (!best || sched_ctx_before_locked(w->t, best->t))
			best = w;
	}
	sched_unlock_ipc(f);
	return best;
}

static long futex_wake_key(const uint64_t key[2], int n)
{
	long woken = 0;
	struct list_head *pos, *tmp;
	spin_lock(&futex_lock);
	struct list_head *b = futex_bucket(key);
	if (n == 1) { /* a lock's hand-over */
		struct futex_waiter *w = futex_best_waiter(b, key);
		if (w) {
			w->woken = true;
			futex_pi_unlink(w); /* the unlocking owner drops its boost at once */
			sched_wake(w->t, 0);
			woken = 1;
		}
		spin_unlock(&futex_lock);
		return woken;
	}
	list_for_each_safe(pos, tmp, b) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		if (woken >= n)
			break;
		if (!futex_key_eq(w, key) || w->woken)
			continue;
		w->woken = true;
		sched_wake(w->t, 0);
		woken++;
	}
	spin_unlock(&futex_lock);
	return woken;
}

/* A priority-inheritance lock's hand-over (K_FUTEX_UNLOCK_PI): under
 * futex_lock, so no waiter comes or goes meanwhile, the word at uaddr
 * (which the unlocking owner has just written: its page is there) names
 * the best waiter, which is woken owning the lock; the other waiters now
 * lend their priority to it instead of the old owner. 1 if one was woken,
 * 0 (the word 0) if none waits. */
static long futex_unlock_pi(uint32_t *uaddr, const uint64_t key[2])
{
	spin_lock(&futex_lock);
	struct list_head *pos, *b = futex_bucket(key);
	struct futex_waiter *best = futex_best_waiter(b, key);
	bool others = false;
	list_for_each(pos, b) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		if (w != best && futex_key_eq(w, key) && !w->woken)
			others = true;
	}
	uint32_t val = best ? ((uint32_t)best->t->tid & K_FUTEX_TID_MASK) | (others ? K_FUTEX_WAITERS : 0) : 0;
	if (copy_to_user(uaddr, &val, sizeof(val))) {
		spin_unlock(&futex_lock);
		return -EFAULT;
	}
	if (best) {
		best->woken = true;
		uint64_t f = sched_lock_ipc();
		sched_pi_unlink_locked(best->t);
		list_for_each(pos, b) {
			struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
			if (w == best || !futex_key_eq(w, key) || w->woken || !w->pi)
				continue;
			sched_pi_unlink_locked(w->t);
			sched_pi_link_locked(w->t, best->t);
		}
		sched_unlock_ipc(f);
		best->pi = false;
		sched_wake(best->t, 0);
	}
	spin_unlock(&futex_lock);
	return best ? 1 : 0;
}

long sys_futex_wake(uint32_t *uaddr, int n)
{
	struct addrspace *as = current_thread()->proc->as;
	uint64_t key[2];
	if (((uint64_t)uaddr & 3) || !as || (n < 0 && n != K_FUTEX_UNLOCK_PI))
		return -EINVAL;
	if (futex_key(as, uaddr, key))
		return -EFAULT;
	if (n == K_FUTEX_UNLOCK_PI)
		return futex_unlock_pi(uaddr, key);
	return futex_wake_key(key, n);
}

/* At the very end of a thread: *clear_tid = 0 and wake one waiter. */
void futex_thread_exit(struct thread *t)
{
	struct addrspace *as = t->proc->as;
	if (!t->clear_tid || !as)
		return;
	uint32_t zero = 0;
	uint64_t key[2];
	if (vm_copy_to(as, t->clear_tid, &zero, sizeof(zero)) == 0 &&
	    futex_key(as, (uint32_t *)t->clear_tid, key) == 0)
		futex_wake_key(key, 1 << 30);
}
