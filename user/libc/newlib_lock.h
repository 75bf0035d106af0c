/* newlib's locks across threads (newlib_lock.c). */
#ifndef ARBOR_LIBC_NEWLIB_LOCK_H
#define ARBOR_LIBC_NEWLIB_LOCK_H

#include <sys/lock.h>

/* Post: every later newlib lock (malloc, stdio, environment, time zone,
 * atexit, arc4random) excludes other threads; until then each is a
 * counter. Called by the thread about to make the process's first other
 * thread (pthread_create, __arbor_thread_start), before it makes it. */
void __libc_set_threaded(void);
/* fork's child, before anything else runs there: every lock is free. */
void __libc_fork_child_locks(void);

#endif
