/* Arbor: <semaphore.h> (newlib has none for this target).  Semaphores of
   Arbor's C library (user/libc/semaphore.c): a futex word holding the
   value, so an unnamed one in MAP_SHARED memory (pshared 1) works between
   processes, and a named one is such a word in a file of the tmpfs at
   /dev/shm ("sem.NAME", as glibc names it), mapped shared.  */
#ifndef _SEMAPHORE_H
#define _SEMAPHORE_H

#include <sys/types.h>
#include <sys/cdefs.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	__uint32_t __value;	/* futex word: the count */
	__uint32_t __waiters;	/* threads asleep on it */
	__uint32_t __pshared;
	__uint32_t __pad;
} sem_t;

#define SEM_FAILED	((sem_t *)0)
#define SEM_VALUE_MAX	0x7fffffff

int	sem_init(sem_t *__sem, int __pshared, unsigned int __value);
int	sem_destroy(sem_t *__sem);
sem_t	*sem_open(const char *__name, int __oflag, ...);
int	sem_close(sem_t *__sem);
int	sem_unlink(const char *__name);
int	sem_wait(sem_t *__sem);
int	sem_trywait(sem_t *__sem);
int	sem_timedwait(sem_t *__restrict __sem, const struct timespec *__restrict __abstime);
int	sem_post(sem_t *__sem);
int	sem_getvalue(sem_t *__restrict __sem, int *__restrict __value);

#ifdef __cplusplus
}
#endif

#endif /* _SEMAPHORE_H */
