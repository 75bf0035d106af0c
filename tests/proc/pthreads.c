/* POSIX threads beyond what a differential test can show: the
 * thread_cancel system call's bounds (only threads of the caller's own
 * process), process-shared mutexes, condition variables, read-write
 * locks, barriers and semaphores between processes, including one object
 * mapped at two different addresses (the futex keys on the shared page or
 * file, not the address), and calls that crashed before (NULL attribute
 * objects), and malloc, setenv and fopen from several threads at once
 * (on several CPUs, a heap without its lock breaks within a few thousand
 * calls). Prints TAP. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "abi/procinfo.h"
#include "arbor/syscalls.h"

static int n, failed;
static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
	fflush(stdout);
}

struct shared {
	pthread_mutex_t m;
	pthread_cond_t c;
	pthread_rwlock_t rw;
	pthread_barrier_t b;
	sem_t s;
	int ready, counter, readers_in;
};

static void *pause_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Each thread churns its own blocks through malloc, realloc and free,
 * sizes from 16 bytes to 192 KiB (the large ones move the break both
 * ways: newlib trims the heap's top), each filled with a byte that names
 * it; a block that does not hold its byte was broken by another thread.
 * Returns the number of bad blocks. */
#define CHURN_SLOTS 32
#define CHURN_ROUNDS 4000
static void *malloc_churn(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg, bad = 0;
	unsigned char *slot[CHURN_SLOTS] = { 0 };
	size_t len[CHURN_SLOTS] = { 0 };
	for (int r = 0; r < CHURN_ROUNDS; r++) {
		seed = seed * 1103515245u + 12345u;
		unsigned i = (seed >> 8) % CHURN_SLOTS;
		unsigned char mark = (unsigned char)(i * 7 + (uintptr_t)arg);
		for (size_t k = 0; k < len[i]; k += 61)
			bad += slot[i][k] != mark;
		size_t want = (seed >> 20) % 16 == 0 ? 65536 + (seed >> 4) % 131072 : 16 + (seed >> 12) % 2048;
		if ((seed >> 16) % 3 == 0) {
			free(slot[i]);
			slot[i] = malloc(want);
		} else {
			slot[i] = realloc(slot[i], want);
		}
		if (!slot[i])
			return (void *)(uintptr_t)(bad + 1);
		len[i] = want;
		memset(slot[i], mark, want);
		if (r % 64 == 0) { /* the environment's and stdio's locks too */
			char name[16], val[16];
			snprintf(name, sizeof(name), "CHURN%u", (unsigned)(uintptr_t)arg);
			snprintf(val, sizeof(val), "%d", r);
			const char *got = setenv(name, val, 1) == 0 ? getenv(name) : NULL;
			bad += !got || strcmp(got, val) != 0;
			FILE *f = fopen("/dev/null", "w");
			bad += !f || fprintf(f, "%s=%s\n", name, val) < 0 || fclose(f) != 0;
		}
	}
	for (int i = 0; i < CHURN_SLOTS; i++)
		free(slot[i]);
	return (void *)(uintptr_t)bad;
}

int main(void)
{
	/* thread_cancel: only the caller's own threads */
	int fds[2];
	pipe(fds);
	pid_t child = fork();
	if (child == 0) {
		pthread_t t;
		pthread_create(&t, NULL, pause_thread, NULL);
		usleep(10000);
		/* report a thread id of ours to the parent */
		int tid = (int)sys_gettid();
		write(fds[1], &tid, sizeof(tid));
		pause();
		_exit(0);
	}
	int other_tid = 0;
	read(fds[0], &other_tid, sizeof(other_tid));
	check(sys_thread_cancel(other_tid) == -ESRCH,
	      "pthreads.cancel_other_proc: thread_cancel of another process's thread: ESRCH");
	check(sys_thread_cancel(0) == -ESRCH && sys_thread_cancel(-1) == -ESRCH,
	      "pthreads.cancel_bad_tid: thread_cancel of tid 0 or -1: ESRCH");
	int st = 0;
	kill(child, SIGTERM);
	waitpid(child, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "the other process was not cancelled, SIGTERM ended it");

	/* calls that took a NULL attribute object down */
	check(pthread_mutexattr_destroy(NULL) == 0 && pthread_mutexattr_init(NULL) == EINVAL &&
	      pthread_attr_init(NULL) == EINVAL && pthread_condattr_init(NULL) == EINVAL,
	      "NULL attribute objects: no crash (destroy 0 as glibc, init EINVAL)");
	check(sigaction(32, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL) == -1 && errno == EINVAL,
	      "sigaction of SIGCANCEL (32): EINVAL, as glibc");

	/* process-shared objects in a file of /tmp mapped at two addresses:
	 * the parent waits through one mapping, the child wakes through the
	 * other. */
	int fd = open("/tmp/pthreads.shm", O_RDWR | O_CREAT | O_TRUNC, 0600);
	check(fd >= 0 && ftruncate(fd, 8192) == 0, "a 2-page file in /tmp");
	struct shared *a = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	struct shared *b = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(a != MAP_FAILED && b != MAP_FAILED && a != b, "mapped twice, at two addresses");
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&a->m, &ma);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&a->c, &ca);
	pthread_rwlockattr_t ra;
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED);
	pthread_rwlock_init(&a->rw, &ra);
	pthread_barrierattr_t bra;
	pthread_barrierattr_init(&bra);
	pthread_barrierattr_setpshared(&bra, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&a->b, &bra, 2);
	sem_init(&a->s, 1, 0);
	int pshared = -1;
	pthread_mutexattr_getpshared(&ma, &pshared);
	check(pshared == PTHREAD_PROCESS_SHARED, "mutexattr pshared reads back");

	child = fork();
	if (child == 0) {
		/* through b: wake the condition variable, post the semaphore,
		 * meet at the barrier, contend on the mutex */
		usleep(30000);
		pthread_mutex_lock(&b->m);
		b->ready = 1;
		pthread_cond_signal(&b->c);
		pthread_mutex_unlock(&b->m);
		usleep(20000);
		sem_post(&b->s);
		pthread_barrier_wait(&b->b);
		for (int i = 0; i < 5000; i++) {
			pthread_mutex_lock(&b->m);
			b->counter++;
			if (i % 500 == 0)
				sched_yield();
			pthread_mutex_unlock(&b->m);
		}
		pthread_rwlock_wrlock(&b->rw);
		pthread_barrier_wait(&b->b); /* the parent reads only after this */
		usleep(30000);
		b->readers_in = 1;
		pthread_rwlock_unlock(&b->rw);
		_exit(0);
	}
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 20;
	pthread_mutex_lock(&a->m);
	int e = 0;
	while (!a->ready && e == 0)
		e = pthread_cond_timedwait(&a->c, &a->m, &until);
	pthread_mutex_unlock(&a->m);
	check(e == 0 && a->ready, "pthreads.pshared_cond: a condition variable signalled by another process "
				  "through another mapping wakes its waiter");
	check(sem_timedwait(&a->s, &until) == 0, "a process-shared semaphore posted the same way");
	int br = pthread_barrier_wait(&a->b);
	check(br == 0 || br == PTHREAD_BARRIER_SERIAL_THREAD, "a process-shared barrier meets the other process");
	for (int i = 0; i < 5000; i++) {
		pthread_mutex_lock(&a->m);
		a->counter++;
		pthread_mutex_unlock(&a->m);
	}
	pthread_barrier_wait(&a->b); /* the child holds the write lock now */
	check(pthread_rwlock_tryrdlock(&a->rw) == EBUSY, "tryrdlock of a rwlock another process write-holds: EBUSY");
	int rd = pthread_rwlock_rdlock(&a->rw);
	int seen = a->readers_in;
	pthread_rwlock_unlock(&a->rw);
	check(rd == 0 && seen == 1, "a process-shared rwlock: the reader waits for the other process's writer");
	waitpid(child, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && a->counter == 10000,
	      "a process-shared mutex keeps 10000 increments from two processes exact");
	munmap(a, 8192);
	munmap(b, 8192);
	close(fd);
	unlink("/tmp/pthreads.shm");

	/* mlock makes the pages present (resident, charged) at once */
	struct k_procinfo before, after;
	char *big = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sys_proc_info(getpid(), &before);
	int ml = mlock(big, 1 << 20);
	sys_proc_info(getpid(), &after);
	check(ml == 0 && after.resident_pages >= before.resident_pages + 256,
	      "pthreads.mlock_charged: mlock of 1 MiB makes its 256 pages resident at once");
	check(munlock(big, 1 << 20) == 0 && munmap(big, 1 << 20) == 0 && mlock(big, 4096) == -1 && errno == ENOMEM,
	      "mlock of unmapped memory: ENOMEM");

	/* malloc from 4 threads at once */
	pthread_t churn[4];
	int made = 0;
	uintptr_t bad = 0;
	for (int i = 0; i < 4; i++)
		made += pthread_create(&churn[i], NULL, malloc_churn, (void *)(uintptr_t)(i + 1)) == 0;
	for (int i = 0; i < made; i++) {
		void *r;
		pthread_join(churn[i], &r);
		bad += (uintptr_t)r;
	}
	check(made == 4 && bad == 0, "pthreads.malloc_threads: malloc, realloc, free, setenv and fopen from 4 threads at once keep every block");

	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
