/* Differential test: thread cancellation as Linux programs use it:
 * deferred cancellation of threads blocked in cancellation points
 * (nanosleep, read, pthread_cond_wait, sem_wait, pthread_join, sigsuspend,
 * waitpid), pthread_testcancel, cancellation disabled across a sleep,
 * asynchronous cancellation of a busy loop, cleanup handlers (innermost
 * first; a cond_wait's handler holds the mutex), PTHREAD_CANCELED from
 * join, and the errors. Prints what happened, byte for byte as Linux. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ESRCH: return "ESRCH";
	case EPERM: return "EPERM";
	case EINTR: return "EINTR";
	default: return "other";
	}
}

static char trail[256];
static pthread_mutex_t trail_m = PTHREAD_MUTEX_INITIALIZER;
static void note(const char *s)
{
	pthread_mutex_lock(&trail_m);
	strcat(trail, s);
	pthread_mutex_unlock(&trail_m);
}
static void cleanup_note(void *s) { note(s); }

static const char *outcome(pthread_t t)
{
	void *r = NULL;
	int e = pthread_join(t, &r);
	return e ? en(e) : r == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "returned";
}

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_cleanup_push(cleanup_note, "outer ");
	pthread_cleanup_push(cleanup_note, "inner ");
	sleep(10);
	note("woke ");
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

static int pipefd[2];
static void *reader(void *arg)
{
	(void)arg;
	char c;
	pthread_cleanup_push(cleanup_note, "reader-cleanup ");
	if (read(pipefd[0], &c, 1) >= 0)
		note("read returned ");
	pthread_cleanup_pop(0);
	return NULL;
}

static pthread_mutex_t cm;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int cond_unlock_result = -1;
static void cond_cleanup(void *arg)
{
	(void)arg;
	cond_unlock_result = pthread_mutex_unlock(&cm); /* 0 only if this thread holds it */
}
static void *cond_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cm);
	pthread_cleanup_push(cond_cleanup, NULL);
	for (;;)
		pthread_cond_wait(&cv, &cm);
	pthread_cleanup_pop(0);
	return NULL;
}

static sem_t sem;
static void *sem_waiter(void *arg)
{
	(void)arg;
	sem_wait(&sem);
	return NULL;
}

static pthread_t join_target;
static void *joiner(void *arg)
{
	(void)arg;
	pthread_join(join_target, NULL);
	return NULL;
}

static void *suspender(void *arg)
{
	(void)arg;
	sigset_t none;
	sigemptyset(&none);
	sigsuspend(&none);
	return NULL;
}

static void *child_waiter(void *arg)
{
	waitpid((pid_t)(long)arg, NULL, 0);
	return NULL;
}

static volatile int disabled_sleep_done;
static void *disabled_sleeper(void *arg)
{
	(void)arg;
	int old = -1;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	struct timespec ts = { 0, 100000000 }, rem = { 0, 0 };
	int r = nanosleep(&ts, &rem);
	disabled_sleep_done = r == 0 ? 1 : 2;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	note("enabled ");
	pthread_testcancel();
	note("not-cancelled ");
	return NULL;
}

static volatile int spinning;
static void *async_spinner(void *arg)
{
	(void)arg;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	pthread_cleanup_push(cleanup_note, "async-cleanup ");
	for (;;)
		spinning++;
	pthread_cleanup_pop(0);
	return NULL;
}

static void *testcancel_loop(void *arg)
{
	(void)arg;
	for (;;) {
		spinning++;
		pthread_testcancel();
	}
	return NULL;
}

static void *quick(void *arg) { return arg; }

static void *self_cancel(void *arg)
{
	(void)arg;
	pthread_cancel(pthread_self());
	note("after-self-cancel ");
	pthread_testcancel();
	note("never ");
	return NULL;
}

static void run(const char *what, void *(*fn)(void *), void *arg)
{
	pthread_t t;
	trail[0] = 0;
	pthread_create(&t, NULL, fn, arg);
	usleep(50000);
	int e = pthread_cancel(t);
	const char *o = outcome(t);
	printf("%s: cancel %s, join %s, trail \"%s\"\n", what, en(e), o, trail);
}

int main(void)
{
	int old = -1;
	printf("setcancelstate 7: %s\n", en(pthread_setcancelstate(7, &old)));
	printf("setcanceltype 7: %s\n", en(pthread_setcanceltype(7, &old)));
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	printf("initial state enabled: %d\n", old == PTHREAD_CANCEL_ENABLE);
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old);
	printf("initial type deferred: %d\n", old == PTHREAD_CANCEL_DEFERRED);

	run("sleep", sleeper, NULL);
	pipe(pipefd);
	run("read on an empty pipe", reader, NULL);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&cm, &ma);
	run("pthread_cond_wait", cond_waiter, NULL);
	printf("cond_wait's cleanup handler held the mutex: unlock %s\n", en(cond_unlock_result));
	sem_init(&sem, 0, 0);
	run("sem_wait", sem_waiter, NULL);
	pthread_create(&join_target, NULL, sleeper, NULL);
	run("pthread_join", joiner, NULL);
	pthread_cancel(join_target);
	pthread_join(join_target, NULL);
	run("sigsuspend", suspender, NULL);
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	run("waitpid", child_waiter, (void *)(long)child);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	run("cancellation disabled across a sleep", disabled_sleeper, NULL);
	printf("the disabled thread's nanosleep ran to its end: %d\n", disabled_sleep_done == 1);
	run("asynchronous, in a busy loop", async_spinner, NULL);
	run("pthread_testcancel in a loop", testcancel_loop, NULL);
	trail[0] = 0;
	pthread_t t;
	pthread_create(&t, NULL, self_cancel, NULL);
	printf("self-cancel: join %s, trail \"%s\"\n", outcome(t), trail);

	pthread_create(&t, NULL, quick, (void *)7);
	usleep(30000);
	printf("cancel of an ended, unjoined thread: %s\n", en(pthread_cancel(t)));
	void *r = NULL;
	pthread_join(t, &r);
	printf("its join: %ld\n", (long)r);
	fflush(stdout);
	return 0;
}
