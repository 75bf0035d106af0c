/* Differential test: POSIX threads as a program written for Linux uses
 * them: the errors of join, detach and attributes; mutex types (normal,
 * recursive, error-checking); thread-specific-data destructors; read-
 * write locks, spin locks, barriers, once (PTHREAD_ONCE_INIT assigned
 * as well), pthread_getattr_np (the main thread's and other threads'
 * stacks and detach states), fork handlers, condition
 * variable clocks, unnamed semaphores. It prints each call's result (an
 * errno name), one call per line, so the output compares with Linux's
 * byte for byte. */
#define _GNU_SOURCE /* pthread_getattr_np */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ESRCH: return "ESRCH";
	case EDEADLK: return "EDEADLK";
	case EPERM: return "EPERM";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EOVERFLOW: return "EOVERFLOW";
	case EINTR: return "EINTR";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	default: return "other";
	}
}

#define SHOW(what, call) printf("%s: %s\n", what, en(call))
/* For calls that return -1 and set errno. */
#define SHOWE(what, call) printf("%s: %s\n", what, (call) == 0 ? "0" : en(errno))

static void *ret_arg(void *a) { return a; }

/* --- thread-specific data: destructors at exit, re-set values run again --- */
static pthread_key_t key_a, key_b;
static int dtor_log[16], dtor_n;
static int val_a = 1, val_b = 2, again = 3;
static void dtor_a(void *v)
{
	dtor_log[dtor_n++] = *(int *)v;
	if (v == &val_a)
		pthread_setspecific(key_a, &again); /* runs again next round */
}
static void dtor_b(void *v) { dtor_log[dtor_n++] = *(int *)v; }
static int forever = 9;
static void dtor_forever(void *v)
{
	dtor_log[dtor_n++] = *(int *)v;
	pthread_setspecific(key_b, v); /* never lets go: bounded by the rounds */
}
static void *set_keys(void *arg)
{
	pthread_setspecific(key_a, &val_a);
	pthread_setspecific(key_b, &val_b);
	if (arg)
		return NULL; /* return runs them as pthread_exit does */
	pthread_exit(NULL);
}

/* --- mutexes from another thread --- */
static pthread_mutex_t shared_m;
static void *unlock_other(void *arg)
{
	(void)arg;
	return (void *)(long)pthread_mutex_unlock(&shared_m);
}
static void *trylock_other(void *arg)
{
	(void)arg;
	return (void *)(long)pthread_mutex_trylock(&shared_m);
}

/* --- read-write locks --- */
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static void *try_rw(void *arg)
{
	int r = arg ? pthread_rwlock_trywrlock(&rw) : pthread_rwlock_tryrdlock(&rw);
	if (r == 0)
		pthread_rwlock_unlock(&rw);
	return (void *)(long)r;
}
static void *rd_then_unlock(void *arg)
{
	(void)arg;
	int r = pthread_rwlock_rdlock(&rw);
	pthread_rwlock_unlock(&rw);
	return (void *)(long)r;
}

/* --- barriers --- */
static pthread_barrier_t bar;
static int serial_count, rounds_done;
static pthread_mutex_t count_m = PTHREAD_MUTEX_INITIALIZER;
static void *barrier_rounds(void *arg)
{
	(void)arg;
	for (int i = 0; i < 5; i++) {
		int r = pthread_barrier_wait(&bar);
		pthread_mutex_lock(&count_m);
		if (r == PTHREAD_BARRIER_SERIAL_THREAD)
			serial_count++;
		else if (r != 0)
			serial_count += 100;
		rounds_done++;
		pthread_mutex_unlock(&count_m);
	}
	return NULL;
}

/* --- spin locks --- */
static pthread_spinlock_t spin;
static long spin_counter;
static void *spin_add(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		pthread_spin_lock(&spin);
		spin_counter++;
		pthread_spin_unlock(&spin);
	}
	return NULL;
}

/* --- once --- */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static void once_fn(void) { usleep(10000); once_runs++; }
static void *call_once(void *arg) { (void)arg; pthread_once(&once, once_fn); return (void *)(long)once_runs; }

/* --- fork handlers --- */
static char fork_log[32];
static int fork_log_n;
static void prep1(void) { fork_log[fork_log_n++] = 'P'; }
static void prep2(void) { fork_log[fork_log_n++] = 'p'; }
static void par1(void) { fork_log[fork_log_n++] = 'A'; }
static void par2(void) { fork_log[fork_log_n++] = 'a'; }
static void chi1(void) { fork_log[fork_log_n++] = 'C'; }
static void chi2(void) { fork_log[fork_log_n++] = 'c'; }

/* --- semaphores --- */
static sem_t sem;
static void *sem_poster(void *arg)
{
	(void)arg;
	usleep(20000);
	sem_post(&sem);
	return NULL;
}

static volatile sig_atomic_t usr1;
static void on_usr1(int s)
{
	usr1 = s;
}

/* What pthread_getattr_np says of the calling thread: whether its stack
 * is [want_lo, want_lo + want_size) (want_size 0: only that a local lies
 * in it) and its detach state. */
static void *show_attr_np(void *arg)
{
	const size_t *want = arg;
	pthread_attr_t a;
	void *lo = NULL;
	size_t size = 0;
	int ds = -1, local = 0;
	int e = pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getstack(&a, &lo, &size);
	pthread_attr_getdetachstate(&a, &ds);
	char *p = (char *)&local;
	printf("getattr_np: %s, a local inside %d, %s%s\n", en(e), p >= (char *)lo && p < (char *)lo + size,
	       ds == PTHREAD_CREATE_DETACHED ? "detached" : "joinable",
	       !want ? "" : want[1] ? (lo == (void *)want[0] && size == want[1] ? ", the given stack" : ", another stack")
	       : size == want[2] ? ", the given size" : ", another size");
	pthread_attr_destroy(&a);
	return NULL;
}

int main(void)
{
	pthread_t t, t2;
	void *r;
	pthread_attr_t a;

	/* before any thread was made: the main thread is itself (Arbor once
	 * said ESRCH, its record holding no tid yet) */
	signal(SIGUSR1, on_usr1);
	SHOW("pthread_kill self before any thread", pthread_kill(pthread_self(), SIGUSR1));
	printf("handler ran: %d\n", usr1 == SIGUSR1);

	/* join, detach, attributes */
	pthread_attr_init(&a);
	SHOW("attr_setdetachstate 7", pthread_attr_setdetachstate(&a, 7));
	SHOW("attr_setstacksize 100", pthread_attr_setstacksize(&a, 100));
	SHOW("attr_setstacksize 65536", pthread_attr_setstacksize(&a, 65536));
	size_t ss = 0;
	pthread_attr_getstacksize(&a, &ss);
	printf("attr_getstacksize: %zu\n", ss);
	SHOW("create", pthread_create(&t, &a, ret_arg, (void *)5));
	SHOW("join", pthread_join(t, &r));
	printf("join result: %ld\n", (long)r);
	SHOW("join self", pthread_join(pthread_self(), NULL));
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	int ds = -1;
	pthread_attr_getdetachstate(&a, &ds);
	printf("detachstate is detached: %d\n", ds == PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &a, ret_arg, NULL);
	SHOW("join detached", pthread_join(t, NULL));
	pthread_attr_destroy(&a);
	pthread_create(&t, NULL, ret_arg, NULL);
	SHOW("detach", pthread_detach(t));
	SHOW("detach again", pthread_detach(t));
	usleep(20000);

	/* mutex attributes */
	pthread_mutexattr_t ma;
	SHOW("mutexattr_init", pthread_mutexattr_init(&ma));
	SHOW("mutexattr_settype 7", pthread_mutexattr_settype(&ma, 7));
	SHOW("mutexattr_setpshared 7", pthread_mutexattr_setpshared(&ma, 7));
	int type = -1;
	pthread_mutexattr_gettype(&ma, &type);
	printf("default type is PTHREAD_MUTEX_DEFAULT: %d\n", type == PTHREAD_MUTEX_DEFAULT);

	/* normal */
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	SHOW("normal lock", pthread_mutex_lock(&m));
	SHOW("normal trylock held", pthread_mutex_trylock(&m));
	SHOW("normal destroy held", pthread_mutex_destroy(&m));
	SHOW("normal unlock", pthread_mutex_unlock(&m));
	SHOW("normal destroy", pthread_mutex_destroy(&m));

	/* error-checking */
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&shared_m, &ma);
	SHOW("errorcheck unlock unlocked", pthread_mutex_unlock(&shared_m));
	SHOW("errorcheck lock", pthread_mutex_lock(&shared_m));
	SHOW("errorcheck relock", pthread_mutex_lock(&shared_m));
	SHOW("errorcheck trylock own", pthread_mutex_trylock(&shared_m));
	pthread_create(&t, NULL, unlock_other, NULL);
	pthread_join(t, &r);
	printf("errorcheck unlock by another thread: %s\n", en((int)(long)r));
	pthread_create(&t, NULL, trylock_other, NULL);
	pthread_join(t, &r);
	printf("errorcheck trylock by another thread: %s\n", en((int)(long)r));
	struct timespec past = { 0, 0 };
	SHOW("errorcheck unlock", pthread_mutex_unlock(&shared_m));
	pthread_mutex_destroy(&shared_m);

	/* recursive */
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&shared_m, &ma);
	SHOW("recursive lock", pthread_mutex_lock(&shared_m));
	SHOW("recursive lock 2", pthread_mutex_lock(&shared_m));
	SHOW("recursive trylock 3", pthread_mutex_trylock(&shared_m));
	pthread_create(&t, NULL, unlock_other, NULL);
	pthread_join(t, &r);
	printf("recursive unlock by another thread: %s\n", en((int)(long)r));
	SHOW("recursive unlock 3", pthread_mutex_unlock(&shared_m));
	SHOW("recursive unlock 2", pthread_mutex_unlock(&shared_m));
	pthread_create(&t, NULL, trylock_other, NULL);
	pthread_join(t, &r);
	printf("recursive trylock by another thread while held: %s\n", en((int)(long)r));
	SHOW("recursive unlock 1", pthread_mutex_unlock(&shared_m));
	SHOW("recursive unlock unlocked", pthread_mutex_unlock(&shared_m));
	pthread_mutexattr_destroy(&ma);

	/* timed lock */
	pthread_mutex_t tm = PTHREAD_MUTEX_INITIALIZER;
	SHOW("timedlock free, past deadline", pthread_mutex_timedlock(&tm, &past));
	SHOW("timedlock held, past deadline", pthread_mutex_timedlock(&tm, &past));
	struct timespec soon;
	clock_gettime(CLOCK_REALTIME, &soon);
	soon.tv_nsec += 30000000;
	if (soon.tv_nsec >= 1000000000) {
		soon.tv_sec++;
		soon.tv_nsec -= 1000000000;
	}
	SHOW("timedlock held, 30 ms", pthread_mutex_timedlock(&tm, &soon));
	pthread_mutex_unlock(&tm);

	/* thread-specific data */
	pthread_key_create(&key_a, dtor_a);
	pthread_key_create(&key_b, dtor_b);
	pthread_create(&t, NULL, set_keys, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, set_keys, (void *)1);
	pthread_join(t, NULL);
	printf("destructors ran:");
	for (int i = 0; i < dtor_n; i++)
		printf(" %d", dtor_log[i]);
	printf("\n");
	SHOW("key_delete", pthread_key_delete(key_b));
	SHOW("key_delete again", pthread_key_delete(key_b));
	SHOW("setspecific deleted key", pthread_setspecific(key_b, &val_b));
	pthread_key_create(&key_b, dtor_forever);
	printf("new key reads NULL: %d\n", pthread_getspecific(key_b) == NULL);
	dtor_n = 0;
	pthread_key_delete(key_a);
	pthread_create(&t, NULL, set_keys, (void *)1);
	pthread_join(t, NULL);
	printf("a destructor re-setting its value runs %d times (PTHREAD_DESTRUCTOR_ITERATIONS %d)\n", dtor_n,
	       PTHREAD_DESTRUCTOR_ITERATIONS);
	(void)forever;

	/* read-write locks */
	SHOW("rwlock rdlock", pthread_rwlock_rdlock(&rw));
	SHOW("rwlock rdlock 2", pthread_rwlock_rdlock(&rw));
	pthread_create(&t, NULL, try_rw, (void *)1);
	pthread_join(t, &r);
	printf("trywrlock by another while read-held: %s\n", en((int)(long)r));
	pthread_create(&t, NULL, try_rw, NULL);
	pthread_join(t, &r);
	printf("tryrdlock by another while read-held: %s\n", en((int)(long)r));
	SHOW("rwlock timedwrlock past", pthread_rwlock_timedwrlock(&rw, &past));
	SHOW("rwlock unlock", pthread_rwlock_unlock(&rw));
	SHOW("rwlock unlock 2", pthread_rwlock_unlock(&rw));
	SHOW("rwlock wrlock", pthread_rwlock_wrlock(&rw));
	SHOW("rwlock wrlock again", pthread_rwlock_wrlock(&rw));
	SHOW("rwlock rdlock while write-held by self", pthread_rwlock_rdlock(&rw));
	pthread_create(&t, NULL, try_rw, NULL);
	pthread_join(t, &r);
	printf("tryrdlock by another while write-held: %s\n", en((int)(long)r));
	struct timespec bad = { 0, 1000000000L };
	SHOW("rwlock timedrdlock bad nsec", pthread_rwlock_timedrdlock(&rw, &bad));
	pthread_create(&t, NULL, rd_then_unlock, NULL);
	usleep(20000);
	SHOW("rwlock destroy held", pthread_rwlock_destroy(&rw));
	SHOW("rwlock unlock (wakes the reader)", pthread_rwlock_unlock(&rw));
	pthread_join(t, &r);
	printf("reader after the writer: %s\n", en((int)(long)r));
	SHOW("rwlock destroy", pthread_rwlock_destroy(&rw));

	/* spin locks */
	SHOW("spin_init", pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE));
	SHOW("spin_trylock", pthread_spin_trylock(&spin));
	SHOW("spin_trylock held", pthread_spin_trylock(&spin));
	SHOW("spin_unlock", pthread_spin_unlock(&spin));
	pthread_create(&t, NULL, spin_add, NULL);
	pthread_create(&t2, NULL, spin_add, NULL);
	pthread_join(t, NULL);
	pthread_join(t2, NULL);
	printf("spin counter: %ld\n", spin_counter);
	SHOW("spin_destroy", pthread_spin_destroy(&spin));

	/* barriers */
	SHOW("barrier_init 0", pthread_barrier_init(&bar, NULL, 0));
	SHOW("barrier_init 3", pthread_barrier_init(&bar, NULL, 3));
	pthread_t bt[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&bt[i], NULL, barrier_rounds, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(bt[i], NULL);
	printf("barrier: %d rounds of 3, serial threads %d\n", rounds_done / 3, serial_count);
	SHOW("barrier_destroy", pthread_barrier_destroy(&bar));
	pthread_barrierattr_t ba;
	pthread_barrierattr_init(&ba);
	SHOW("barrierattr_setpshared 7", pthread_barrierattr_setpshared(&ba, 7));
	pthread_barrierattr_destroy(&ba);

	/* once, from four threads at once */
	pthread_t ot[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&ot[i], NULL, call_once, NULL);
	long seen = 0;
	for (int i = 0; i < 4; i++) {
		pthread_join(ot[i], &r);
		seen += (long)r;
	}
	printf("once: ran %d time(s); every caller saw it done: %d\n", once_runs, seen == 4);
	once = PTHREAD_ONCE_INIT; /* an int as glibc's: assignable */
	pthread_once(&once, once_fn);
	printf("once after PTHREAD_ONCE_INIT assigned again: ran %d time(s)\n", once_runs);

	/* pthread_getattr_np: the main thread (its stack about RLIMIT_STACK long),
	 * a thread on a given stack, one of a given size, a detached one */
	{
		pthread_attr_t ma;
		void *lo;
		size_t size;
		struct rlimit rl;
		getrlimit(RLIMIT_STACK, &rl);
		SHOW("getattr_np of main", pthread_getattr_np(pthread_self(), &ma));
		pthread_attr_getstack(&ma, &lo, &size);
		/* glibc: from RLIMIT_STACK below the stack area's top up to the
		 * page above the initial stack pointer, so less the arguments
		 * and the environment above it */
		printf("main: a local inside %d, size RLIMIT_STACK less under 1 MiB %d\n",
		       (char *)&rl >= (char *)lo && (char *)&rl < (char *)lo + size,
		       size <= rl.rlim_cur && size > rl.rlim_cur - (1 << 20));
		pthread_attr_destroy(&ma);
		static char stk[65536] __attribute__((aligned(4096)));
		size_t want[3] = { (size_t)stk, sizeof(stk), 0 };
		pthread_attr_init(&ma);
		pthread_attr_setstack(&ma, stk, sizeof(stk));
		pthread_create(&t, &ma, show_attr_np, want);
		pthread_join(t, NULL);
		pthread_attr_destroy(&ma);
		size_t want2[3] = { 0, 0, 1 << 20 };
		pthread_attr_init(&ma);
		pthread_attr_setstacksize(&ma, 1 << 20);
		pthread_create(&t, &ma, show_attr_np, want2);
		pthread_join(t, NULL);
		pthread_attr_setdetachstate(&ma, PTHREAD_CREATE_DETACHED);
		pthread_create(&t, &ma, show_attr_np, NULL);
		pthread_attr_destroy(&ma);
		usleep(100000);
		fflush(stdout);
	}

	/* condition variable clocks */
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	clockid_t ck = -1;
	pthread_condattr_getclock(&ca, &ck);
	printf("condattr default clock is CLOCK_REALTIME: %d\n", ck == CLOCK_REALTIME);
	SHOW("condattr_setclock CLOCK_PROCESS_CPUTIME_ID",
	     pthread_condattr_setclock(&ca, CLOCK_PROCESS_CPUTIME_ID));
	SHOW("condattr_setclock CLOCK_MONOTONIC", pthread_condattr_setclock(&ca, CLOCK_MONOTONIC));
	SHOW("condattr_setpshared 7", pthread_condattr_setpshared(&ca, 7));
	pthread_cond_t cv;
	pthread_cond_init(&cv, &ca);
	pthread_mutex_lock(&tm);
	struct timespec mono;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	mono.tv_nsec += 20000000;
	if (mono.tv_nsec >= 1000000000) {
		mono.tv_sec++;
		mono.tv_nsec -= 1000000000;
	}
	SHOW("cond_timedwait 20 ms on CLOCK_MONOTONIC", pthread_cond_timedwait(&cv, &tm, &mono));
	SHOW("cond_timedwait past", pthread_cond_timedwait(&cv, &tm, &past));
	SHOW("cond_timedwait bad nsec", pthread_cond_timedwait(&cv, &tm, &bad));
	pthread_mutex_unlock(&tm);
	pthread_cond_destroy(&cv);
	pthread_condattr_destroy(&ca);

	/* fork handlers: prepare in reverse order, parent and child in order */
	pthread_atfork(prep1, par1, chi1);
	pthread_atfork(prep2, par2, chi2);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		fork_log[fork_log_n] = 0;
		printf("child's fork handlers: %s\n", fork_log);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	fork_log[fork_log_n] = 0;
	printf("parent's fork handlers: %s\n", fork_log);

	/* unnamed semaphores */
	SHOWE("sem_init SEM_VALUE_MAX+1", sem_init(&sem, 0, (unsigned)SEM_VALUE_MAX + 1));
	SHOWE("sem_init 1", sem_init(&sem, 0, 1));
	SHOWE("sem_trywait", sem_trywait(&sem));
	SHOWE("sem_trywait at 0", sem_trywait(&sem));
	int sv = -1;
	sem_getvalue(&sem, &sv);
	printf("sem_getvalue: %d\n", sv);
	SHOWE("sem_timedwait past", sem_timedwait(&sem, &past));
	SHOWE("sem_timedwait bad nsec", sem_timedwait(&sem, &bad));
	pthread_create(&t, NULL, sem_poster, NULL);
	SHOWE("sem_wait (posted by a thread)", sem_wait(&sem));
	pthread_join(t, NULL);
	sem_destroy(&sem);
	sem_init(&sem, 0, SEM_VALUE_MAX);
	SHOWE("sem_post at SEM_VALUE_MAX", sem_post(&sem));
	sem_destroy(&sem);

	/* a process-shared semaphore in MAP_SHARED memory */
	sem_t *ps = mmap(NULL, sizeof(sem_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	SHOWE("sem_init pshared", sem_init(ps, 1, 0));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		usleep(20000);
		sem_post(ps);
		_exit(0);
	}
	SHOWE("sem_wait (posted by a child process)", sem_wait(ps));
	waitpid(pid, NULL, 0);
	munmap(ps, sizeof(sem_t));

	/* the last thread's pthread_exit ends the process with status 0 */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_create(&t, NULL, sem_poster, NULL);
		sem_init(&sem, 0, 0);
		pthread_exit(NULL);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	printf("main's pthread_exit, then the last thread's end: exit status %d\n",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
