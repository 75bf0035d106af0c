/* What the pthread files of the C library share (pthread.c: threads,
 * keys, fork handlers; pthread_table.c: the thread records and how a
 * thread finds its own; pthread_sync.c: mutexes and the other futex-based
 * objects; pthread_cancel.c: cancellation; semaphore.c). Not installed. */
#ifndef ARBOR_LIBC_PTHREAD_IMPL_H
#define ARBOR_LIBC_PTHREAD_IMPL_H

#include <pthread.h>
#include <reent.h>
#include <stdint.h>
#include <time.h>

#define PT_KEYS PTHREAD_KEYS_MAX

struct pthread_rec {
	uint32_t index;			/* its pthread_t */
	/* its newlib state (errno, strtok's, dtoa's buffers): at the top of
	 * its stack from pthread_create on; NULL for the main thread, whose
	 * is newlib's own (_impure_ptr) */
	struct _reent *reent;
	int vacant;			/* free (0 in a record in use, so the main thread's is) */
	uint32_t link;			/* on the free or the detached list: the next one's index + 1 */
	volatile uint32_t tid;		/* the kernel zeroes it when the thread is gone */
	void *(*fn)(void *);
	void *arg;
	void *ret;
	uint64_t stack, stack_size;	/* stack_size 0: not ours to unmap */
	uint64_t sp_lo, sp_hi;		/* the thread's stack, whoever's: pthread_self by rsp */
	int detached;
	uint32_t joining;		/* a joiner is waiting (a second one: EINVAL) */
	/* Cancellation (pthread_cancel.c): */
	volatile int cancel_disabled;	/* pthread_setcancelstate */
	volatile int cancel_async;	/* pthread_setcanceltype */
	volatile int cancel_pending;	/* pthread_cancel was called */
	volatile int in_cp;		/* blocked (or about to) in a cancellation point */
	int exiting;			/* in pthread_exit: no cancellation any more */
	struct _pthread_cleanup_context *cleanup;
	struct { const void *value; uint32_t gen; } specific[PT_KEYS];
	/* Scheduling (pthread_sched.c), as glibc keeps it: a new thread
	 * with PTHREAD_EXPLICIT_SCHED waits at start_gate (1) until its
	 * creator has set its policy (0: go on; 2: it failed, end); the
	 * policy and parameter pthread_setschedparam last set (sched_set:
	 * bit 1 policy, 2 parameter); priority-protect mutexes held
	 * (tpp_map[p - 1]: how many with ceiling p; tpp_max the highest, 0
	 * none). */
	volatile uint32_t start_gate;
	int explicit_sched;		/* created with PTHREAD_EXPLICIT_SCHED */
	uint64_t guard;			/* PROT_NONE bytes below sp_lo (ours: in stack) */
	int sched_set, sched_policy, sched_prio;
	int tpp_max;
	uint16_t tpp_map[99];
};

/* --- the table (pthread_table.c) --- */

/* Thread t's record if t is a thread not yet joined (or freed when
 * detached), else NULL. Needs no lock: records are never unmapped. */
struct pthread_rec *__pthread_rec(pthread_t t);
/* The record of index t < __pthread_high(), in use or not. */
struct pthread_rec *__pthread_rec_any(uint32_t t);
/* Every index below it has a record. */
uint32_t __pthread_high(void);
/* The rest: table lock held (pthread.c). A zeroed record with its index,
 * not vacant; NULL if memory for it cannot be had or every index up to
 * the kernel's pid space is taken. */
struct pthread_rec *__pthread_rec_alloc(void);
/* r to the free list (its stack unregistered first). */
void __pthread_rec_free(struct pthread_rec *r);
/* The free list made anew from the vacant records (the fork child). */
void __pthread_rec_free_list_rebuild(void);
/* Makes [sp_lo, sp_hi) r's stack for __pthread_index_by_sp: 0, or ENOMEM
 * with nothing changed. Stacks are at least PTHREAD_STACK_MIN and must
 * not overlap a registered one. */
int __pthread_stack_register(const struct pthread_rec *r);
void __pthread_stack_unregister(const struct pthread_rec *r);
/* The index of the thread whose registered stack holds sp, or -1. No lock. */
int __pthread_index_by_sp(uint64_t sp);
/* Notes that r's thread has kernel tid (for __pthread_index_by_tid). */
void __pthread_tid_note(const struct pthread_rec *r, uint32_t tid);
/* The index of the thread, other than the main one, with kernel id tid, or -1. No lock. */
int __pthread_index_by_tid(uint32_t tid);

/* Set by the first pthread_create or pthread_cancel (pthread_cancel.c):
 * until then no thread can be cancelled but by itself, and the
 * cancellation points skip their work. */
extern volatile int __pthread_cancel_armed;

/* The calling thread's record (the main thread's is entry 0). */
struct pthread_rec *__pthread_self_rec(void);

/* Nanoseconds from now until abstime on clock (CLOCK_REALTIME or
 * CLOCK_MONOTONIC), at least 1, into *ns: 0; ETIMEDOUT if it has passed;
 * EINVAL for a tv_nsec outside [0, 1e9). */
int __pthread_timeout(clockid_t clock, const struct timespec *abstime, uint64_t *ns, uint32_t *flags);

/* A cancellation point's blocking part runs between these two: a
 * pthread_cancel that comes meanwhile (or came before) ends the thread
 * at once, with the call's side effects not done (pthread_cancel.c). */
int __pthread_cp_begin(void);
void __pthread_cp_end(int token);	/* token: what begin returned */
/* A cancellation point that does not block (open, close, fsync): acts on
 * a cancel already pending, nothing more. */
static inline void __pthread_cp_check(void)
{
	if (__pthread_cancel_armed)
		__pthread_cp_end(__pthread_cp_begin());
}

/* Ends the calling thread: cleanup handlers, key destructors, then the
 * kernel thread (the process with the last one, as exit(0)). */
void __pthread_exit(void *ret) __attribute__((noreturn));

/* fork() around the kernel's: the pthread_atfork handlers, and the
 * child's thread table fixed to hold its one thread. */
void __pthread_fork_prepare(void);
void __pthread_fork_parent(void);
void __pthread_fork_child(void);

/* --- scheduling (pthread_sched.c) --- */

/* A new thread's attributes: with PTHREAD_EXPLICIT_SCHED its policy and
 * parameter (the creator's where attr set neither) are set on thread tid,
 * whose record r then knows them: 0 or the error (EPERM, EINVAL). */
int __pthread_sched_apply(struct pthread_rec *r, const pthread_attr_t *attr, int tid);
/* Priority protection (glibc's __pthread_tpp_change_priority): the
 * caller takes a lock of ceiling new_prio (-1 none) and/or gives up one of
 * ceiling prev_prio (-1 none); its priority becomes the highest of its
 * own and its held ceilings. 0 or the error. */
int __pthread_tpp_change(int prev_prio, int new_prio);
/* The caller's priority as set (not raised by ceilings). */
int __pthread_current_priority(void);

#endif
