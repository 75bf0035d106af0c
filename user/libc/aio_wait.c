/* Waiting for asynchronous I/O (<aio.h>): aio_suspend and lio_listio, on
 * the request queues of aio.c. A waiter hangs an entry on each request it
 * waits for and sleeps on a counter (a futex) that the requests' ends
 * count down; a signal ends the sleep with EINTR, as on Linux, and the
 * entries come off the requests still pending before the call returns. */
#define _GNU_SOURCE 1
#include <aio.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "aio_impl.h"
#include "arbor_sys.h"
#include "pthread_impl.h"

/* Waiter entries on the stack up to this many, else from the heap. */
#define AIO_STACK_WAITERS 64

struct aio_wait_ctx {
	struct aio_waiter *w;
	int n;
};

/* Takes the entries off the requests that have not ended. Lock held. */
static void aio_unwait_all(struct aio_wait_ctx *c)
{
	for (int i = 0; i < c->n; i++)
		__aio_unwait(&c->w[i]);
}

/* aio_suspend cancelled in its sleep: its entries leave with it. */
static void aio_wait_cancelled(void *arg)
{
	pthread_mutex_lock(&__aio_lock);
	aio_unwait_all(arg);
	pthread_mutex_unlock(&__aio_lock);
}

/* Sleeps (lock released meanwhile) until *counter is 0, deadline (ns of
 * the monotonic clock; 0 none) or a signal: 0, EAGAIN (the time is up) or
 * EINTR. Lock held. */
static int aio_sleep(volatile uint32_t *counter, uint64_t deadline, int cancel_point)
{
	int result = 0;
	while (*counter != 0) {
		uint32_t seen = *counter;
		uint64_t ns = 0;
		if (deadline) {
			uint64_t now = (uint64_t)sys_clock_ns();
			if (now >= deadline) {
				result = EAGAIN;
				break;
			}
			ns = deadline - now;
		}
		pthread_mutex_unlock(&__aio_lock);
		int cp = cancel_point ? __pthread_cp_begin() : 0;
		long r = sys_futex_wait((uint32_t *)counter, seen, ns, 0);
		if (cancel_point)
			__pthread_cp_end(cp);
		pthread_mutex_lock(&__aio_lock);
		if (r == -EINTR) {
			result = EINTR;
			break;
		}
		if (r == -ETIMEDOUT) {
			result = *counter ? EAGAIN : 0;
			break;
		}
	}
	return result;
}

int aio_suspend(const struct aiocb *const list[], int nent, const struct timespec *timeout)
{
	if (nent < 0) {
		errno = EINVAL;
		return -1;
	}
	uint64_t deadline = 0;
	if (timeout) {
		if (timeout->tv_nsec < 0 || timeout->tv_nsec >= 1000000000L) {
			errno = EINVAL;
			return -1;
		}
		int64_t rel = timeout->tv_sec < 0 ? 0 : timeout->tv_sec;
		if (rel > (int64_t)(UINT64_MAX / 2 / 1000000000ull))
			rel = (int64_t)(UINT64_MAX / 2 / 1000000000ull); /* forever enough */
		deadline = (uint64_t)sys_clock_ns() + (uint64_t)rel * 1000000000ull + (uint64_t)timeout->tv_nsec;
		if (timeout->tv_sec < 0)
			deadline = 1; /* already past */
	}
	struct aio_waiter stack_w[AIO_STACK_WAITERS];
	struct aio_waiter *w = stack_w;
	if (nent > AIO_STACK_WAITERS && !(w = calloc((size_t)nent, sizeof(*w)))) {
		errno = EAGAIN;
		return -1;
	}
	volatile uint32_t counter = 1; /* the first request to end wakes us */
	struct aio_wait_ctx ctx = { w, 0 };
	int wait = 0, result = 0;
	pthread_mutex_lock(&__aio_lock);
	/* Any entry already done (or not a pending request): no wait, as glibc. */
	int i;
	for (i = 0; i < nent; i++) {
		if (!list[i])
			continue;
		if (list[i]->__error_code != EINPROGRESS)
			break;
		struct aio_req *r = __aio_find(list[i]);
		if (!r)
			break;
		w[ctx.n] = (struct aio_waiter){ .counter = &counter };
		__aio_wait_on(r, &w[ctx.n]);
		ctx.n++;
		wait = 1;
	}
	if (i == nent && wait) {
		pthread_cleanup_push(aio_wait_cancelled, &ctx);
		result = aio_sleep(&counter, deadline, 1);
		pthread_cleanup_pop(0);
	}
	aio_unwait_all(&ctx);
	pthread_mutex_unlock(&__aio_lock);
	if (w != stack_w)
		free(w);
	if (result) {
		errno = result;
		return -1;
	}
	return 0;
}

/* LIO_WAIT: until every request queued from the list has ended (w: room
 * for nent entries): 0, or -1 with EIO (one failed, or could not be
 * queued) or EINTR. Lock held. */
static int lio_wait(struct aio_req **reqs, int nent, struct aio_waiter *w, int failed)
{
	volatile uint32_t counter = 0;
	struct aio_wait_ctx ctx = { w, 0 };
	for (int i = 0; i < nent; i++) {
		if (!reqs[i])
			continue;
		w[ctx.n] = (struct aio_waiter){ .counter = &counter, .failed = &failed };
		__aio_wait_on(reqs[i], &w[ctx.n]);
		ctx.n++;
		counter++;
	}
	int r = aio_sleep(&counter, 0, 0);
	aio_unwait_all(&ctx);
	if (r == EINTR) {
		errno = EINTR;
		return -1;
	}
	if (failed) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* LIO_NOWAIT: sig (if it asks for one) once every request queued from the
 * list has ended. Lock held. */
static int lio_nowait(struct aio_req **reqs, int nent, int total, const struct sigevent *sig)
{
	if (!sig || sig->sigev_notify == SIGEV_NONE)
		return 0;
	struct aio_group *g = malloc(sizeof(*g) + (size_t)total * sizeof(g->w[0]));
	if (!g) {
		errno = EAGAIN;
		return -1;
	}
	g->sev = *sig;
	g->counter = (uint32_t)total;
	int n = 0;
	for (int i = 0; i < nent; i++) {
		if (!reqs[i])
			continue;
		g->w[n] = (struct aio_waiter){ .group = g };
		__aio_wait_on(reqs[i], &g->w[n]);
		n++;
	}
	return 0;
}

int lio_listio(int mode, struct aiocb *const list[], int nent, struct sigevent *sig)
{
	if ((mode != LIO_WAIT && mode != LIO_NOWAIT) || nent < 0 || nent > AIO_LISTIO_MAX) {
		errno = EINVAL;
		return -1;
	}
	struct aio_req *reqs[nent > 0 ? nent : 1];
	struct aio_waiter *w = NULL;
	/* LIO_WAIT's room to wait in first: no request queued without it. */
	if (mode == LIO_WAIT && nent > 0 && !(w = calloc((size_t)nent, sizeof(*w)))) {
		errno = EAGAIN;
		return -1;
	}
	int total = 0, result = 0, err = 0;
	pthread_mutex_lock(&__aio_lock);
	for (int i = 0; i < nent; i++) {
		reqs[i] = NULL;
		if (!list[i] || list[i]->aio_lio_opcode == LIO_NOP)
			continue;
		reqs[i] = __aio_enqueue(list[i], list[i]->aio_lio_opcode);
		if (reqs[i]) {
			total++;
		} else {
			result = -1;
			err = errno;
		}
	}
	if (total == 0) {
		pthread_mutex_unlock(&__aio_lock);
		free(w);
		if (mode == LIO_NOWAIT && sig)
			__aio_notify_only(sig);
		errno = err ? err : errno;
		return result;
	}
	int r;
	if (mode == LIO_WAIT) {
		r = lio_wait(reqs, nent, w, result != 0);
	} else {
		r = lio_nowait(reqs, nent, total, sig);
		if (r == 0 && result != 0) {
			r = -1;
			errno = err;
		}
	}
	err = errno;
	pthread_mutex_unlock(&__aio_lock);
	free(w);
	errno = err;
	return r;
}
