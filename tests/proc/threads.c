/* pthreads: create and join with results, mutual exclusion under
 * contention, condition variables, detach, once, keys; a thread that
 * faults takes the whole process down. Prints TAP. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failed;
static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long counter;
static int ready;

static void *square(void *arg)
{
	long v = (long)arg;
	return (void *)(v * v);
}

static void *add_many(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		if (i % 1000 == 0)
			sched_yield(); /* force contention while holding the lock */
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!ready)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return (void *)7;
}

static int once_runs;
static void once_fn(void) { once_runs++; }

static void *crash(void *arg)
{
	(void)arg;
	*(volatile int *)(uintptr_t)arg = 1;
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	void *ret;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, square, (void *)(i + 2));
	long sum = 0;
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &ret);
		sum += (long)ret;
	}
	check(sum == 4 + 9 + 16 + 25, "four threads return their results to pthread_join");

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, add_many, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	check(counter == 80000, "a mutex keeps 80000 increments from four threads exact");

	pthread_create(&t[0], NULL, waiter, NULL);
	usleep(20000);
	pthread_mutex_lock(&lock);
	ready = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(t[0], &ret);
	check((long)ret == 7, "a condition variable wakes its waiter");

	pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, once_fn);
	pthread_once(&once, once_fn);
	check(once_runs == 1, "pthread_once runs once");
	pthread_key_t key;
	pthread_key_create(&key, NULL);
	pthread_setspecific(key, &n);
	check(pthread_getspecific(key) == &n && pthread_equal(pthread_self(), pthread_self()),
	      "thread-specific data and pthread_self");
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	check(pthread_create(&t[1], &attr, square, (void *)1) == 0 && pthread_join(t[1], NULL) != 0,
	      "a detached thread cannot be joined");

	pid_t pid = fork();
	if (pid == 0) {
		pthread_t c;
		pthread_create(&c, NULL, crash, NULL);
		pthread_join(c, NULL);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "a faulting thread takes its process down");
	/* mmap: private maps are copied by fork, shared ones are shared. */
	int *priv = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check(priv != MAP_FAILED && shared != MAP_FAILED && priv[2047] == 0, "mmap anonymous, zeroed");
	pid = fork();
	if (pid == 0) {
		priv[0] = 1;
		shared[0] = 2;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(priv[0] == 0 && shared[0] == 2, "MAP_PRIVATE is copied by fork, MAP_SHARED is shared");
	check(mprotect(priv, 4096, PROT_READ) == 0, "mprotect to read-only");
	pid = fork();
	if (pid == 0) {
		priv[0] = 3; /* now read-only */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "a write to read-only memory: SIGSEGV");
	check(priv[1024] == 0 && (priv[1024] = 5) == 5, "the rest of the map stays writable");
	check(munmap(priv, 8192) == 0 && munmap(shared, 4096) == 0, "munmap");
	check(mprotect(priv, 4096, PROT_READ) == -1 && errno == ENOMEM, "mprotect of unmapped memory: ENOMEM");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
