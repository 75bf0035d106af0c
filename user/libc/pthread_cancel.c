/* Thread cancellation (docs/libc.md "Cancellation").
 *
 * pthread_cancel marks the target's record (cancel_pending) and, if the
 * target may act on it now, sends it SIGCANCEL (signal 32, which glibc
 * reserves for the same purpose) with the thread_cancel system call: a
 * signal to one thread of the caller's process. The signal gets a thread
 * out of user code (asynchronous cancellation) and out of a blocking
 * call (the kernel wakes a blocked thread for a signal, and a futex or
 * sleep about to block sees it pending). Its handler ends the thread if
 * cancellation is enabled and the thread is asynchronous or inside a
 * cancellation point; otherwise it returns, and with SA_RESTART the
 * interrupted call runs again, so a thread that disabled cancellation
 * sees no EINTR. A cancellation point (read, write, nanosleep, waitpid,
 * sigsuspend, pthread_join, pthread_cond_wait, sem_wait, ...) wraps its
 * blocking call in __pthread_cp_begin/__pthread_cp_end: begin marks the
 * thread inside, then acts on a cancel already pending; a signal that
 * comes from then on ends the thread in the handler. Ending runs the
 * cleanup handlers (innermost first) and the key destructors, and the
 * thread's result is PTHREAD_CANCELED. A programme that never creates a
 * thread and never cancels pays one load per cancellation point. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

#define SIGCANCEL 32


static void cancel_act(struct pthread_rec *r)
{
	r->in_cp = 0;
	__pthread_exit(PTHREAD_CANCELED);
}

static bool cancel_now(const struct pthread_rec *r)
{
	return r->cancel_pending && !r->cancel_disabled && !r->exiting;
}

static void cancel_handler(int sig)
{
	(void)sig;
	struct pthread_rec *r = __pthread_self_rec();
	if (cancel_now(r) && (r->cancel_async || r->in_cp)) {
		/* The handler's frame is abandoned: unblock the signal for
		 * nothing else needs it; the thread ends. */
		cancel_act(r);
	}
}

static int install_handler(void)
{
	static volatile int installed;
	if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE))
		return 0;
	/* sigaction refuses SIGCANCEL to programs, so go to the kernel */
	struct k_sigaction k = { .handler = (uint64_t)(uintptr_t)cancel_handler,
				 .flags = SA_RESTART | SA_RESTORER };
	extern void __arbor_sigreturn(void);
	k.restorer = (uint64_t)(uintptr_t)__arbor_sigreturn;
	long e = sys_sigaction(SIGCANCEL, &k, NULL);
	if (e < 0)
		return (int)-e;
	__atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
	return 0;
}

int pthread_cancel(pthread_t t)
{
	struct pthread_rec *r = __pthread_rec(t);
	if (!r)
		return ESRCH;
	__pthread_cancel_armed = 1;
	if (__atomic_exchange_n(&r->cancel_pending, 1, __ATOMIC_SEQ_CST))
		return 0; /* already */
	if (r == __pthread_self_rec()) {
		if (cancel_now(r) && r->cancel_async)
			cancel_act(r);
		return 0; /* acted on at the next cancellation point */
	}
	uint32_t tid = __atomic_load_n(&r->tid, __ATOMIC_ACQUIRE);
	if (tid == 0 || tid == 0xffffffffu || r->cancel_disabled)
		return 0; /* ended, not yet running, or not now: it sees the flag later */
	int e = install_handler();
	if (e)
		return e;
	long k = sys_thread_cancel((int)tid);
	return k == -ESRCH ? 0 : k < 0 ? (int)-k : 0; /* -ESRCH: it has just ended */
}

int pthread_setcancelstate(int state, int *old)
{
	if (state != PTHREAD_CANCEL_ENABLE && state != PTHREAD_CANCEL_DISABLE)
		return EINVAL;
	if (!__pthread_cancel_armed) {
		/* one thread, never cancelled: keep the state in entry 0 */
		struct pthread_rec *r = __pthread_rec_any(0);
		if (old)
			*old = r->cancel_disabled;
		r->cancel_disabled = state;
		return 0;
	}
	struct pthread_rec *r = __pthread_self_rec();
	if (old)
		*old = r->cancel_disabled;
	r->cancel_disabled = state;
	if (state == PTHREAD_CANCEL_ENABLE && r->cancel_async && cancel_now(r))
		cancel_act(r);
	return 0;
}

int pthread_setcanceltype(int type, int *old)
{
	if (type != PTHREAD_CANCEL_DEFERRED && type != PTHREAD_CANCEL_ASYNCHRONOUS)
		return EINVAL;
	struct pthread_rec *r = __pthread_self_rec();
	if (old)
		*old = r->cancel_async;
	r->cancel_async = type;
	if (type == PTHREAD_CANCEL_ASYNCHRONOUS && cancel_now(r))
		cancel_act(r);
	return 0;
}

void pthread_testcancel(void)
{
	if (!__pthread_cancel_armed)
		return;
	struct pthread_rec *r = __pthread_self_rec();
	if (cancel_now(r))
		cancel_act(r);
}

/* The result carries the thread's index and its previous in_cp (bit 0),
 * so the end needs no second look-up of the calling thread. */
int __pthread_cp_begin(void)
{
	if (!__pthread_cancel_armed)
		return -1;
	struct pthread_rec *r = __pthread_self_rec();
	int old = r->in_cp;
	__atomic_store_n(&r->in_cp, 1, __ATOMIC_SEQ_CST); /* before the look: see the file's comment */
	if (cancel_now(r))
		cancel_act(r);
	return (int)r->index << 1 | old;
}

void __pthread_cp_end(int token)
{
	if (token < 0)
		return;
	__atomic_store_n(&__pthread_rec_any((uint32_t)token >> 1)->in_cp, token & 1, __ATOMIC_SEQ_CST);
}

void _pthread_cleanup_push(struct _pthread_cleanup_context *c, void (*routine)(void *), void *arg)
{
	struct pthread_rec *r = __pthread_self_rec();
	c->_routine = routine;
	c->_arg = arg;
	c->_canceltype = r->cancel_async;
	c->_previous = r->cleanup;
	r->cleanup = c;
}

void _pthread_cleanup_pop(struct _pthread_cleanup_context *c, int execute)
{
	struct pthread_rec *r = __pthread_self_rec();
	r->cleanup = c->_previous;
	if (execute)
		c->_routine(c->_arg);
}
