/* The heap's lock across threads (malloc_lock.c). */
#ifndef ARBOR_LIBC_MALLOC_LOCK_H
#define ARBOR_LIBC_MALLOC_LOCK_H

struct _reent;

/* Whether this process may have more than one thread; until it does,
 * malloc takes no lock. */
extern int __libc_threaded;
/* Post: every later __malloc_lock locks. Called by the thread about to
 * make the process's first other thread, before it makes it. */
void __libc_set_threaded(void);
/* newlib's hooks around its heap (recursive within a thread). */
void __malloc_lock(struct _reent *r);
void __malloc_unlock(struct _reent *r);

#endif
