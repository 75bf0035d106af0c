/* kcov: per-thread kernel coverage for the fuzzer (kernel/debug/kcov.c).
 * Only kernels built with KCOV=1 (CONFIG_KCOV) record anything; in others
 * these are empty and the kcov system call returns -ENOSYS. */
#ifndef ARBOR_KCOV_H
#define ARBOR_KCOV_H

struct thread;

#ifdef CONFIG_KCOV
/* Recording may start: per-CPU data (%gs) is set up. */
void kcov_init(void);
/* Frees t's coverage buffer, if it had one (its thread is being reaped). */
void kcov_thread_free(struct thread *t);
#else
static inline void kcov_init(void) {}
static inline void kcov_thread_free(struct thread *t) { (void)t; }
#endif

#endif
