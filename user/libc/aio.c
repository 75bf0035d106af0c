/* POSIX asynchronous I/O (<aio.h>) done in the C library, as Linux's C
 * library does it: helper threads of the process run each request with
 * pread/pwrite/fsync/fdatasync. Requests are kept in one queue per
 * descriptor (its head is the one running or next to run; the rest wait
 * behind it by priority, then arrival), so a descriptor's requests run one
 * at a time and in order; the heads not yet running wait on the run list
 * for a helper. Up to AIO_THREADS helpers run at once; an idle one waits
 * AIO_IDLE_SECONDS for work, then ends. Helpers block every signal, so a
 * completion's signal goes to a thread of the program. They die with the
 * process (exit and exec end every thread), which frees everything. */
#define _GNU_SOURCE 1
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "aio_impl.h"
#include "arbor_sys.h"

/* glibc's x86_64 layout, for programs that look inside. */
_Static_assert(sizeof(struct aiocb) == 168, "glibc's struct aiocb");
_Static_assert(offsetof(struct aiocb, aio_sigevent) == 32 && offsetof(struct aiocb, __error_code) == 112 &&
		       offsetof(struct aiocb, aio_offset) == 128,
	       "glibc's struct aiocb fields");

#define AIO_THREADS 20	   /* glibc's default aio_threads */
#define AIO_IDLE_SECONDS 1 /* glibc's default aio_idle_time */

struct aio_req {
	struct aiocb *cb;
	int fd;				/* cb's aio_fildes when queued: the queue it is on */
	int prio;			/* higher runs first: -aio_reqprio */
	int running;			/* a helper has it */
	struct aio_req *next_prio;	/* the next of its descriptor's queue */
	struct aio_req *next_fd;	/* heads: the next descriptor's queue */
	struct aio_req *next_run;	/* on the run list */
	struct aio_waiter *waiting;
};

pthread_mutex_t __aio_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t aio_work = PTHREAD_COND_INITIALIZER;
static struct aio_req *aio_queues;	/* heads, by ascending descriptor */
static struct aio_req *aio_runlist;	/* heads waiting for a helper, by priority */
static int aio_pending;			/* requests queued or running */
static int aio_threads_max = AIO_THREADS;
static int aio_idle_seconds = AIO_IDLE_SECONDS;
static int aio_nthreads, aio_idle;
static int aio_atfork_done;

/* --- the queues --- */

static void aio_runlist_add(struct aio_req *r)
{
	struct aio_req **p = &aio_runlist;
	while (*p && (*p)->prio >= r->prio)
		p = &(*p)->next_run;
	r->next_run = *p;
	*p = r;
}

static void aio_runlist_del(struct aio_req *r)
{
	for (struct aio_req **p = &aio_runlist; *p; p = &(*p)->next_run) {
		if (*p == r) {
			*p = r->next_run;
			return;
		}
	}
}

/* The link that points at descriptor fd's head (or where it would go). */
static struct aio_req **aio_queue_slot(int fd)
{
	struct aio_req **p = &aio_queues;
	while (*p && (*p)->fd < fd)
		p = &(*p)->next_fd;
	return p;
}

/* Takes head h off its descriptor's queue: the next one (if any) becomes
 * the head and waits for a helper. h must not be on the run list. */
static void aio_head_del(struct aio_req *h)
{
	struct aio_req **slot = aio_queue_slot(h->fd);
	struct aio_req *next = h->next_prio;
	if (next) {
		next->next_fd = h->next_fd;
		*slot = next;
		aio_runlist_add(next);
	} else {
		*slot = h->next_fd;
	}
}

struct aio_req *__aio_find(const struct aiocb *cb)
{
	struct aio_req *h = *aio_queue_slot(cb->aio_fildes);
	if (!h || h->fd != cb->aio_fildes)
		return NULL;
	for (struct aio_req *r = h; r; r = r->next_prio)
		if (r->cb == cb)
			return r;
	return NULL;
}

void __aio_wait_on(struct aio_req *req, struct aio_waiter *w)
{
	w->req = req;
	w->next = req->waiting;
	req->waiting = w;
}

void __aio_unwait(struct aio_waiter *w)
{
	if (!w->req)
		return;
	for (struct aio_waiter **p = &w->req->waiting; *p; p = &(*p)->next) {
		if (*p == w) {
			*p = w->next;
			break;
		}
	}
	w->req = NULL;
}

/* --- notification --- */

struct aio_thread_call {
	void (*fn)(union sigval);
	union sigval value;
};

/* A SIGEV_THREAD notice's thread. It takes the queues' lock once before
 * the function runs: its starter holds that lock until the request's
 * result is published (aio_notify), so the function never sees a request
 * it was told of still in progress. */
static void *aio_notify_thread(void *arg)
{
	struct aio_thread_call c = *(struct aio_thread_call *)arg;
	free(arg);
	pthread_mutex_lock(&__aio_lock);
	pthread_mutex_unlock(&__aio_lock);
	c.fn(c.value);
	return NULL;
}

/* Starts fn(arg) on a new thread with every signal blocked (the helpers
 * and SIGEV_THREAD's functions must not take the program's signals). */
static int aio_thread_start(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(t, attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return e;
}

int __aio_notify_only(const struct sigevent *sev)
{
	if (sev->sigev_notify == SIGEV_SIGNAL) {
		/* queued, with the value, as Linux's rt_sigqueueinfo */
		long r = sys_sigqueue((int)sys_getpid(), sev->sigev_signo,
				      (uint64_t)(uintptr_t)sev->sigev_value.sival_ptr, SI_ASYNCIO);
		return (int)__sys_ret(r) < 0 ? -1 : 0;
	}
	if (sev->sigev_notify != SIGEV_THREAD)
		return 0;
	struct aio_thread_call *c = malloc(sizeof(*c));
	if (!c) {
		errno = EAGAIN;
		return -1;
	}
	*c = (struct aio_thread_call){ sev->sigev_notify_function, sev->sigev_value };
	pthread_attr_t dflt;
	const pthread_attr_t *attr = sev->sigev_notify_attributes;
	if (!attr) {
		pthread_attr_init(&dflt);
		pthread_attr_setdetachstate(&dflt, PTHREAD_CREATE_DETACHED);
		attr = &dflt;
	}
	pthread_t t;
	int e = aio_thread_start(&t, attr, aio_notify_thread, c);
	if (attr == &dflt)
		pthread_attr_destroy(&dflt);
	if (e) {
		free(c);
		errno = e;
		return -1;
	}
	return 0;
}

/* req has ended with error (0 or an errno; its return value is in its
 * aiocb): its error is published, then its own notice goes, then whoever
 * waits for it is told. A notice must find the result published (glibc's
 * order: a signal handler or a SIGEV_THREAD function calls aio_error), and
 * a notice that fails makes the request fail, which aio_error (read
 * without the lock) must not see half done; so what can fail goes first:
 * a bad signal number is found before the result is published, and a
 * notice thread is started before it (it waits for this lock to run).
 * Only a signal queue that is full (EAGAIN) is found after. Lock held. */
static void aio_notify(struct aio_req *req, int error)
{
	struct aiocb *cb = req->cb;
	const struct sigevent *sev = &cb->aio_sigevent;
	int failed = 0;
	if (sev->sigev_notify == SIGEV_SIGNAL && (sev->sigev_signo < 0 || sev->sigev_signo >= SIG_NSIG)) {
		failed = EINVAL;
	} else if (sev->sigev_notify == SIGEV_THREAD && __aio_notify_only(sev) < 0) {
		failed = errno;
	}
	if (failed) {
		error = failed;
		cb->__return_value = -1;
	}
	__atomic_store_n(&cb->__error_code, error, __ATOMIC_RELEASE);
	if (!failed && sev->sigev_notify == SIGEV_SIGNAL && __aio_notify_only(sev) < 0) {
		cb->__return_value = -1;
		__atomic_store_n(&cb->__error_code, errno, __ATOMIC_RELEASE);
	}
	struct aio_waiter *w = req->waiting;
	req->waiting = NULL;
	while (w) {
		struct aio_waiter *next = w->next;
		w->req = NULL;
		if (w->group) {
			struct aio_group *g = w->group;
			if (--g->counter == 0) {
				__aio_notify_only(&g->sev);
				free(g);
			}
		} else {
			if (w->failed && cb->__return_value == -1)
				*w->failed = 1;
			if (*w->counter > 0 && --*w->counter == 0)
				sys_futex_wake((uint32_t *)w->counter, 1);
		}
		w = next;
	}
}

/* --- the helpers --- */

/* Does cb's operation and stores its return value into cb: called
 * without the lock, returns holding it (the value is stored under it) and
 * the operation's error (0 or an errno), for aio_notify to publish. */
static int aio_do(struct aiocb *cb)
{
	void *buf = (void *)cb->aio_buf;
	ssize_t r;
	switch (cb->aio_lio_opcode) {
	case LIO_READ:
		r = pread(cb->aio_fildes, buf, cb->aio_nbytes, cb->aio_offset);
		if (r < 0 && errno == ESPIPE) /* not seekable: at its position, as glibc */
			r = read(cb->aio_fildes, buf, cb->aio_nbytes);
		break;
	case LIO_WRITE:
		r = pwrite(cb->aio_fildes, buf, cb->aio_nbytes, cb->aio_offset);
		if (r < 0 && errno == ESPIPE)
			r = write(cb->aio_fildes, buf, cb->aio_nbytes);
		break;
	case AIO_OP_DSYNC:
		r = fdatasync(cb->aio_fildes);
		break;
	case AIO_OP_SYNC:
		r = fsync(cb->aio_fildes);
		break;
	default:
		errno = EINVAL;
		r = -1;
	}
	int e = errno;
	pthread_mutex_lock(&__aio_lock);
	cb->__return_value = r;
	return r < 0 ? e : 0;
}

static void aio_spawn_helper(struct aio_req *first);

/* A helper: runs first (already running), then what the run list holds,
 * lingering idle a while before it ends. */
static void *aio_helper(void *arg)
{
	struct aio_req *req = arg;
	pthread_mutex_lock(&__aio_lock);
	for (;;) {
		if (req) {
			pthread_mutex_unlock(&__aio_lock);
			int error = aio_do(req->cb); /* returns with the lock held */
			aio_head_del(req);
			aio_pending--;
			aio_notify(req, error);
			free(req);
		}
		if (!aio_runlist && aio_idle_seconds > 0) {
			struct timespec until;
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_sec += aio_idle_seconds;
			aio_idle++;
			while (!aio_runlist && pthread_cond_timedwait(&aio_work, &__aio_lock, &until) == 0)
				;
			aio_idle--;
		}
		req = aio_runlist;
		if (!req)
			break;
		aio_runlist = req->next_run;
		req->running = 1;
		if (aio_runlist) { /* more work than this helper: another one at it */
			if (aio_idle > 0)
				pthread_cond_signal(&aio_work);
			else if (aio_nthreads < aio_threads_max)
				aio_spawn_helper(NULL);
		}
	}
	aio_nthreads--;
	pthread_mutex_unlock(&__aio_lock);
	return NULL;
}

/* Starts a helper (with first, running): 0 or an errno. Lock held. */
static int aio_start_helper(struct aio_req *first)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	int e = aio_thread_start(&t, &a, aio_helper, first);
	pthread_attr_destroy(&a);
	if (e == 0)
		aio_nthreads++;
	return e;
}

static void aio_spawn_helper(struct aio_req *first)
{
	(void)aio_start_helper(first); /* none: the running helpers get to it */
}

/* A forked child has none of the parent's helpers: its copies of the
 * parent's requests will never run, so it starts afresh (as the parent's
 * aiocbs it holds say EINPROGRESS, as on Linux, where the child has no
 * helper threads either). */
static void aio_fork_prepare(void)
{
	pthread_mutex_lock(&__aio_lock);
}

static void aio_fork_parent(void)
{
	pthread_mutex_unlock(&__aio_lock);
}

static void aio_fork_child(void)
{
	pthread_mutex_init(&__aio_lock, NULL);
	pthread_cond_init(&aio_work, NULL);
	aio_queues = aio_runlist = NULL;
	aio_pending = aio_nthreads = aio_idle = 0;
}

/* --- submission --- */

struct aio_req *__aio_enqueue(struct aiocb *cb, int op)
{
	if (op == AIO_OP_SYNC || op == AIO_OP_DSYNC)
		cb->aio_reqprio = 0; /* a sync's own priority does not matter: glibc clears it */
	else if (cb->aio_reqprio < 0 || cb->aio_reqprio > AIO_PRIO_DELTA_MAX) {
		cb->__error_code = EINVAL;
		cb->__return_value = -1;
		errno = EINVAL;
		return NULL;
	}
	if (!aio_atfork_done) {
		if (pthread_atfork(aio_fork_prepare, aio_fork_parent, aio_fork_child) != 0) {
			errno = EAGAIN;
			return NULL;
		}
		aio_atfork_done = 1;
	}
	struct aio_req *req = aio_pending < AIO_MAX ? calloc(1, sizeof(*req)) : NULL;
	if (!req) {
		cb->__error_code = EAGAIN;
		cb->__return_value = -1;
		errno = EAGAIN;
		return NULL;
	}
	req->cb = cb;
	req->fd = cb->aio_fildes;
	req->prio = -cb->aio_reqprio; /* SCHED_OTHER's priority 0, less the request's */
	cb->__abs_prio = req->prio;
	cb->__policy = SCHED_OTHER;
	cb->aio_lio_opcode = op;
	cb->__error_code = EINPROGRESS;
	cb->__return_value = 0;

	struct aio_req **slot = aio_queue_slot(cb->aio_fildes);
	struct aio_req *h = *slot;
	if (h && h->fd == req->fd) {
		/* behind the head, by priority, then in order of arrival */
		struct aio_req *p = h;
		while (p->next_prio && p->next_prio->prio >= req->prio)
			p = p->next_prio;
		req->next_prio = p->next_prio;
		p->next_prio = req;
		aio_pending++;
		return req;
	}
	req->next_fd = h;
	*slot = req;
	if (aio_nthreads < aio_threads_max && aio_idle == 0) {
		req->running = 1;
		int e = aio_start_helper(req);
		if (e == 0) {
			aio_pending++;
			return req;
		}
		req->running = 0;
		if (aio_nthreads == 0) { /* nobody to run it, now or later */
			*slot = h;
			free(req);
			cb->__error_code = e;
			cb->__return_value = -1;
			errno = e;
			return NULL;
		}
	}
	aio_runlist_add(req);
	if (aio_idle > 0)
		pthread_cond_signal(&aio_work);
	aio_pending++;
	return req;
}

static int aio_submit(struct aiocb *cb, int op)
{
	pthread_mutex_lock(&__aio_lock);
	struct aio_req *r = __aio_enqueue(cb, op);
	pthread_mutex_unlock(&__aio_lock);
	return r ? 0 : -1;
}

/* Errors of the transfer itself (EBADF, a bad offset, EFAULT) come from
 * aio_error afterwards, as on Linux. */
int aio_read(struct aiocb *cb)
{
	return aio_submit(cb, LIO_READ);
}

int aio_write(struct aiocb *cb)
{
	return aio_submit(cb, LIO_WRITE);
}

int aio_fsync(int op, struct aiocb *cb)
{
	if (op != O_SYNC && op != O_DSYNC) {
		errno = EINVAL;
		return -1;
	}
	if (fcntl(cb->aio_fildes, F_GETFL) < 0) {
		errno = EBADF;
		return -1;
	}
	return aio_submit(cb, op == O_SYNC ? AIO_OP_SYNC : AIO_OP_DSYNC);
}

int aio_error(const struct aiocb *cb)
{
	return __atomic_load_n(&cb->__error_code, __ATOMIC_ACQUIRE);
}

ssize_t aio_return(struct aiocb *cb)
{
	return cb->__return_value;
}

/* --- cancellation --- */

/* Ends the chain from r (taken off the queues) with ECANCELED. */
static void aio_cancel_chain(struct aio_req *r)
{
	while (r) {
		struct aio_req *next = r->next_prio;
		r->cb->__return_value = -1;
		aio_pending--;
		aio_notify(r, ECANCELED);
		free(r);
		r = next;
	}
}

/* One request (cb) of fd: AIO_CANCELED, AIO_NOTCANCELED (running),
 * AIO_ALLDONE, or -1 EINVAL. Lock held. */
static int aio_cancel_one(int fd, struct aiocb *cb)
{
	if (cb->aio_fildes != fd) {
		errno = EINVAL;
		return -1;
	}
	if (cb->__error_code != EINPROGRESS)
		return AIO_ALLDONE;
	struct aio_req **slot = aio_queue_slot(fd);
	struct aio_req *h = *slot, *prev = NULL, *r;
	if (h && h->fd != fd)
		h = NULL;
	for (r = h; r && r->cb != cb; r = r->next_prio)
		prev = r;
	if (!r) {
		errno = EINVAL;
		return -1;
	}
	if (r->running)
		return AIO_NOTCANCELED;
	if (prev) {
		prev->next_prio = r->next_prio;
	} else {
		aio_runlist_del(r);
		aio_head_del(r);
	}
	r->next_prio = NULL;
	aio_cancel_chain(r);
	return AIO_CANCELED;
}

/* Every request of fd but the running one. Lock held. */
static int aio_cancel_fd(int fd)
{
	struct aio_req **slot = aio_queue_slot(fd);
	struct aio_req *h = *slot;
	if (!h || h->fd != fd)
		return AIO_ALLDONE;
	if (h->running) {
		struct aio_req *rest = h->next_prio;
		h->next_prio = NULL;
		aio_cancel_chain(rest);
		return AIO_NOTCANCELED;
	}
	aio_runlist_del(h);
	*slot = h->next_fd;
	aio_cancel_chain(h);
	return AIO_CANCELED;
}

int aio_cancel(int fd, struct aiocb *cb)
{
	if (fcntl(fd, F_GETFL) < 0) {
		errno = EBADF;
		return -1;
	}
	pthread_mutex_lock(&__aio_lock);
	int r = cb ? aio_cancel_one(fd, cb) : aio_cancel_fd(fd);
	pthread_mutex_unlock(&__aio_lock);
	return r;
}

/* glibc's tuning: the helpers at most and how long an idle one stays. */
void aio_init(const struct aioinit *init)
{
	pthread_mutex_lock(&__aio_lock);
	if (aio_nthreads == 0) {
		if (init->aio_threads > 0)
			aio_threads_max = init->aio_threads;
		aio_idle_seconds = init->aio_idle_time;
	}
	pthread_mutex_unlock(&__aio_lock);
}
