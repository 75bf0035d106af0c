/* POSIX semaphores (<semaphore.h>): the count is a futex word, so an
 * unnamed semaphore in MAP_SHARED memory (pshared 1) works between
 * processes (the kernel keys the futex on the shared page). A named one
 * is a sem_t in the file /dev/shm/sem.NAME (a tmpfs, as glibc does on
 * Linux), mapped shared: made under a temporary name and linked into
 * place, so no process ever maps one half made. Errors are Linux's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

#define SHM_DIR "/dev/shm/"

static int sem_fail(int e)
{
	errno = e;
	return -1;
}

int sem_init(sem_t *s, int pshared, unsigned value)
{
	if (value > SEM_VALUE_MAX)
		return sem_fail(EINVAL);
	memset(s, 0, sizeof(*s));
	s->__value = value;
	s->__pshared = pshared != 0;
	return 0;
}

int sem_destroy(sem_t *s)
{
	(void)s; /* glibc checks nothing either: destroying one waited on is undefined */
	return 0;
}

static bool sem_take(sem_t *s)
{
	uint32_t v = __atomic_load_n(&s->__value, __ATOMIC_RELAXED);
	while (v > 0)
		if (__atomic_compare_exchange_n(&s->__value, &v, v - 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

int sem_trywait(sem_t *s)
{
	return sem_take(s) ? 0 : sem_fail(EAGAIN);
}

/* Sleeps until the count is positive and takes one; abstime (on
 * CLOCK_REALTIME) bounds it: ETIMEDOUT. A signal handler ends it (EINTR).
 * A cancellation point. */
static int sem_wait_until(sem_t *s, const struct timespec *abstime)
{
	if (abstime && (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L))
		return sem_fail(EINVAL);
	pthread_testcancel();
	while (!sem_take(s)) {
		uint64_t ns = 0;
		uint32_t fl = 0;
		int e = abstime ? __pthread_timeout(CLOCK_REALTIME, abstime, &ns, &fl) : 0;
		if (e)
			return sem_fail(e);
		__atomic_add_fetch(&s->__waiters, 1, __ATOMIC_SEQ_CST);
		int cp = __pthread_cp_begin();
		long r = sys_futex_wait(&s->__value, 0, ns, fl);
		__pthread_cp_end(cp);
		__atomic_sub_fetch(&s->__waiters, 1, __ATOMIC_SEQ_CST);
		if (r == -EINTR)
			return sem_fail(EINTR);
	}
	return 0;
}

int sem_wait(sem_t *s)
{
	return sem_wait_until(s, NULL);
}

int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
	return sem_wait_until(s, abstime);
}

int sem_post(sem_t *s)
{
	uint32_t v = __atomic_load_n(&s->__value, __ATOMIC_RELAXED);
	do {
		if (v >= SEM_VALUE_MAX)
			return sem_fail(EOVERFLOW);
	} while (!__atomic_compare_exchange_n(&s->__value, &v, v + 1, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (__atomic_load_n(&s->__waiters, __ATOMIC_SEQ_CST))
		sys_futex_wake(&s->__value, 1);
	return 0;
}

int sem_getvalue(sem_t *s, int *value)
{
	*value = (int)__atomic_load_n(&s->__value, __ATOMIC_RELAXED);
	return 0;
}

/* --- named semaphores --- */

/* One mapping per semaphore file in a process: POSIX wants the same
 * address from each sem_open of a name until as many sem_close. */
#define MAX_NAMED 64
static struct { sem_t *sem; dev_t dev; ino_t ino; int refs; } named[MAX_NAMED];
static volatile uint32_t named_lock;

static void lock_named(void)
{
	while (__atomic_exchange_n(&named_lock, 1, __ATOMIC_ACQUIRE))
		sys_yield();
}

static void unlock_named(void)
{
	__atomic_store_n(&named_lock, 0, __ATOMIC_RELEASE);
}

/* "/dev/shm/sem.NAME" for "/NAME" (leading slashes dropped): 0, EINVAL
 * (empty, or a slash inside), ENAMETOOLONG. */
static int sem_path(const char *name, char *path, size_t cap)
{
	while (*name == '/')
		name++;
	size_t n = strlen(name);
	if (n == 0 || strchr(name, '/'))
		return EINVAL;
	if (n + 4 > NAME_MAX)
		return ENAMETOOLONG;
	snprintf(path, cap, SHM_DIR "sem.%s", name);
	return 0;
}

/* A new semaphore file with value, linked at path: the descriptor, or
 * -errno (-EEXIST if path exists). */
static int sem_create(const char *path, mode_t mode, unsigned value)
{
	char tmp[64];
	static unsigned seq;
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		snprintf(tmp, sizeof(tmp), SHM_DIR "sem.tmp%d.%u", getpid(), __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL, mode);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	sem_t init;
	sem_init(&init, 1, value);
	int e = write(fd, &init, sizeof(init)) == (ssize_t)sizeof(init) ? 0 : errno ? errno : EIO;
	if (e == 0 && link(tmp, path) != 0)
		e = errno;
	unlink(tmp);
	if (e) {
		close(fd);
		return -e;
	}
	return fd;
}

sem_t *sem_open(const char *name, int oflag, ...)
{
	char path[NAME_MAX + 16];
	mode_t mode = 0;
	unsigned value = 0;
	int e = sem_path(name, path, sizeof(path));
	if (e) {
		errno = e;
		return SEM_FAILED;
	}
	if (oflag & O_CREAT) {
		va_list ap;
		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, int);
		value = va_arg(ap, unsigned);
		va_end(ap);
		if (value > SEM_VALUE_MAX) {
			errno = EINVAL;
			return SEM_FAILED;
		}
	}
	bool excl = (oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 10; tries++) {
		if (!excl) {
			fd = open(path, O_RDWR);
			if (fd >= 0 || errno != ENOENT || !(oflag & O_CREAT))
				break;
		}
		fd = sem_create(path, mode, value);
		if (fd == -EEXIST && !excl)
			continue; /* made meanwhile by another: open that one */
		if (fd < 0) {
			errno = -fd;
			return SEM_FAILED;
		}
	}
	if (fd < 0)
		return SEM_FAILED;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return SEM_FAILED;
	}
	lock_named();
	for (int i = 0; i < MAX_NAMED; i++)
		if (named[i].refs && named[i].dev == st.st_dev && named[i].ino == st.st_ino) {
			named[i].refs++;
			unlock_named();
			close(fd);
			return named[i].sem;
		}
	int slot = 0;
	while (slot < MAX_NAMED && named[slot].refs)
		slot++;
	sem_t *s = slot < MAX_NAMED ? mmap(NULL, sizeof(sem_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
				    : (errno = ENFILE, MAP_FAILED);
	e = errno;
	close(fd);
	if (s == MAP_FAILED) {
		unlock_named();
		errno = e;
		return SEM_FAILED;
	}
	named[slot].sem = s;
	named[slot].dev = st.st_dev;
	named[slot].ino = st.st_ino;
	named[slot].refs = 1;
	unlock_named();
	return s;
}

int sem_close(sem_t *s)
{
	lock_named();
	for (int i = 0; i < MAX_NAMED; i++)
		if (named[i].refs && named[i].sem == s) {
			if (--named[i].refs == 0)
				munmap(s, sizeof(sem_t));
			unlock_named();
			return 0;
		}
	unlock_named();
	return sem_fail(EINVAL);
}

int sem_unlink(const char *name)
{
	char path[NAME_MAX + 16];
	int e = sem_path(name, path, sizeof(path));
	if (e)
		return sem_fail(ENOENT); /* glibc's answer for any bad name */
	/* glibc: the sticky /dev/shm's EPERM (another user's) is EACCES */
	int r = unlink(path);
	if (r < 0 && errno == EPERM)
		errno = EACCES;
	return r;
}
