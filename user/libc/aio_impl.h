/* What the asynchronous I/O files of the C library share (aio.c: the
 * request queues, the helper threads, notification, submission and
 * cancellation; aio_wait.c: aio_suspend and lio_listio). Not installed. */
#ifndef ARBOR_LIBC_AIO_IMPL_H
#define ARBOR_LIBC_AIO_IMPL_H

#include <aio.h>
#include <pthread.h>
#include <stdint.h>

/* A request's operation, as glibc numbers them in aio_lio_opcode once
 * queued: lio_listio passes a list entry's opcode through, so 3 and 4 sync
 * there as on Linux and any other value fails with EINVAL when run. */
#define AIO_OP_DSYNC 3
#define AIO_OP_SYNC 4

struct aio_req;

/* Someone waiting for a request: aio_suspend and lio_listio's LIO_WAIT
 * (counter on their stack, woken by futex at 0) or a LIO_NOWAIT list
 * (group: its sigevent goes out when its last request ends). */
struct aio_waiter {
	struct aio_waiter *next;
	struct aio_req *req;		/* NULL once the request has ended */
	volatile uint32_t *counter;	/* decremented as the request ends */
	int *failed;			/* set to 1 if it ended with -1 */
	struct aio_group *group;
};

struct aio_group {
	uint32_t counter;		/* requests of the list not ended */
	struct sigevent sev;
	struct aio_waiter w[];
};

/* All of the state below is guarded by __aio_lock. */
extern pthread_mutex_t __aio_lock;

/* Queues cb for operation op (LIO_READ, LIO_WRITE, AIO_OP_*): its request,
 * or NULL with errno (EINVAL: aio_reqprio out of 0..AIO_PRIO_DELTA_MAX;
 * EAGAIN: AIO_MAX requests pending, no memory, or no helper thread could
 * start). Lock held. */
struct aio_req *__aio_enqueue(struct aiocb *cb, int op);
/* cb's pending request, or NULL. Lock held. */
struct aio_req *__aio_find(const struct aiocb *cb);
/* Adds w to req's waiters (w->req set). Lock held. */
void __aio_wait_on(struct aio_req *req, struct aio_waiter *w);
/* Takes w off its request's waiters if it has not ended. Lock held. */
void __aio_unwait(struct aio_waiter *w);
/* Sends what sev asks for (a queued signal with SI_ASYNCIO, or a new
 * thread calling its function): 0, or -1 with errno. */
int __aio_notify_only(const struct sigevent *sev);

#endif
