/* Readiness and waiting for it: the one interface every kind of
 * descriptor reports through (poll, ppoll, select, pselect, epoll).
 *
 * An object that can become ready keeps a poll queue (struct pollq) and
 * calls pollq_wake after each change that may make it ready (data in, room
 * out, a hang-up, a published state). A waiter hangs one poll entry per
 * descriptor on those queues, then asks each object for its events, and
 * sleeps only if none is ready: a change after the entry was hung always
 * reaches it, so no wake-up is lost and nothing is ever re-checked on a
 * timer. Entries and queues are guarded by the scheduler lock, so a wake
 * is allowed from any context that does not hold it already (the _locked
 * form is for those that do: the timer tick).
 *
 * A new kind of descriptor (sockets) plugs in with one function, its
 * fd_poll_fn in kernel/ipc/poll.c's table: given the object and the events
 * asked, it returns the POLL* events ready now and its queue (docs/ipc.md,
 * "Waiting for descriptors"). */
#ifndef ARBOR_POLL_H
#define ARBOR_POLL_H

#include "kobj.h"
#include "list.h"
#include "types.h"

/* The entries waiting for one object's changes (sched_lock). */
struct pollq {
	struct list_head entries;
};

#define POLLQ_INIT(name) { LIST_HEAD_INIT((name).entries) }

struct poll_entry;
/* Called for each entry on a queue being woken, with sched_lock held:
 * it may wake threads (sched_wake_ipc_locked) and queues, never sleep. */
typedef void (*poll_wake_fn)(struct poll_entry *e);

/* One waiter's hold on one queue. */
struct poll_entry {
	struct list_head link;		/* in q->entries */
	struct pollq *q;		/* NULL: on no queue */
	poll_wake_fn wake;
	void *owner;			/* the waiter's (a poll call, an epoll item) */
	uint32_t events;		/* the POLL* it waits for (0: any change) */
};

void pollq_init(struct pollq *q);
void pollq_wake_locked(struct pollq *q);	/* sched_lock held */
/* pollq_wake_ev's part when someone waits (takes sched_lock). */
void pollq_wake_ev_waiters(struct pollq *q, uint32_t events);
/* Wakes only the entries waiting for one of events (and those waiting
 * for any change), as Linux's keyed wake-ups: a pipe write wakes its
 * readers' entries (POLLIN), not an edge-triggered watch of the write
 * end for POLLOUT. Inline: a queue nobody waits on (every pipe write
 * and cgroup file change without a poller) costs a fence and a compare,
 * not calls. A waiter hangs its entry before it looks at the object,
 * and the caller changed the object before this look: an empty queue
 * seen here means any later waiter sees the change itself. */
static inline void pollq_wake_ev(struct pollq *q, uint32_t events)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(__atomic_load_n(&q->entries.next, __ATOMIC_RELAXED) != &q->entries, 0))
		pollq_wake_ev_waiters(q, events);
}
/* Wakes every entry on q (takes sched_lock unless nobody waits). */
static inline void pollq_wake(struct pollq *q)
{
	pollq_wake_ev(q, 0);
}
void pollq_wake_ev_locked(struct pollq *q, uint32_t events);
/* Hangs e on q (q may be NULL: nothing to wait for); pollq_del takes it
 * off whatever it is on. Both take sched_lock. */
void poll_entry_add(struct poll_entry *e, struct pollq *q, poll_wake_fn wake, void *owner, uint32_t events);
void poll_entry_del(struct poll_entry *e);
/* q is going away before its waiters: every entry comes off it (they are
 * then on no queue; their owners may still take them off). */
void pollq_detach_all(struct pollq *q);

/* Sleeps until ready(arg) holds, woken through q: 0 once it does,
 * -EINTR for a signal or a kill (or the freezer), -ETIMEDOUT at deadline
 * (clock_ns; 0: none). ready is called without locks held. */
int pollq_wait_event(struct pollq *q, bool (*ready)(void *arg), void *arg, uint64_t deadline);

/* A kind of object's readiness: the POLL* events of o ready now, masked
 * by events (but for POLLERR, POLLHUP and POLLNVAL, reported unasked), and
 * in *q the queue its changes wake (NULL: it never changes). */
typedef long (*fd_poll_fn)(struct kobj *o, int events, struct pollq **q);

/* Descriptor h of the current process: its events now (or -EBADF for no
 * descriptor, -EPERM for a handle without the call right a server's file
 * needs); with held not NULL, also the object (a reference, which the
 * caller puts) and its queue. */
long fd_poll_handle(int h, int events, struct kobj **held, struct pollq **q);
/* The same for an object already held. */
long fd_poll_obj(struct kobj *o, int events, struct pollq **q);

/* The wake-up for cgroup files whose readiness is a pressure trigger's
 * (kernel/sched/psi_trigger.c wakes it when one fires). */
extern struct pollq psi_trigger_pollq;

#endif
