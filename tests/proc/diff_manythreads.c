/* Many threads at once (issue 22: the C library's thread table once held
 * 64): 1000 threads alive together on a barrier, each its own
 * pthread_self and key value; detached threads created and ended in
 * waves; a fork from a thread while 200 others live; a signal handler on
 * an alternate stack in the 250th thread; threads on stacks the program
 * gives, next to each other; cancellation of 200 threads. The same output
 * as glibc on Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MANY 1000

static pthread_barrier_t bar_a, bar_b;
static pthread_key_t key;
static pthread_t self_of[MANY];
static int slot[MANY], key_ok[MANY];

static void *waiter(void *arg)
{
	int i = (int)(intptr_t)arg;
	self_of[i] = pthread_self();
	pthread_setspecific(key, &slot[i]);
	pthread_barrier_wait(&bar_a);
	key_ok[i] = pthread_getspecific(key) == &slot[i];
	pthread_barrier_wait(&bar_b);
	return (void *)(intptr_t)(i + 1);
}

/* n threads on two barriers; between them, mid(n) runs with all alive. */
static void alive_together(int n, pthread_t *t, void (*mid)(int n))
{
	int made = 0, err = 0;
	pthread_barrier_init(&bar_a, NULL, (unsigned)n + 1);
	pthread_barrier_init(&bar_b, NULL, (unsigned)n + 1);
	memset(self_of, 0, sizeof(self_of));
	memset(key_ok, 0, sizeof(key_ok));
	for (int i = 0; i < n; i++) {
		if ((err = pthread_create(&t[i], NULL, waiter, (void *)(intptr_t)i)) != 0)
			break;
		made++;
	}
	printf("%d threads: created %d, error %d\n", n, made, err);
	if (made != n) {
		fflush(stdout);
		_exit(1); /* the others wait on the barrier for ever */
	}
	pthread_barrier_wait(&bar_a);
	if (mid)
		mid(n);
	pthread_barrier_wait(&bar_b);
	int selves = 0, keys = 0, joined = 0, distinct = 1;
	for (int i = 0; i < n; i++) {
		void *ret = NULL;
		joined += pthread_join(t[i], &ret) == 0 && ret == (void *)(intptr_t)(i + 1);
		selves += pthread_equal(self_of[i], t[i]) != 0;
		keys += key_ok[i];
		if (i && pthread_equal(t[i], t[i - 1]))
			distinct = 0;
	}
	printf("  pthread_self right %d, own key value %d, joined with result %d, ids distinct %d\n", selves,
	       keys, joined, distinct);
}

/* --- detached threads in waves --- */

static volatile int ended;

static void *detached_fn(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&ended, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void detached_waves(void)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	int made = 0;
	for (int wave = 0; wave < 4; wave++) {
		for (int i = 0; i < 300; i++) {
			pthread_t t;
			made += pthread_create(&t, &a, detached_fn, NULL) == 0;
		}
		while (__atomic_load_n(&ended, __ATOMIC_SEQ_CST) < made)
			usleep(1000);
	}
	printf("detached: %d created in 4 waves of 300, %d ended\n", made, ended);
	pthread_attr_destroy(&a);
}

/* --- fork from a thread while many live --- */

static pthread_t forker_id;
static int fork_status = -1;

static void *joinable_fn(void *arg)
{
	return arg;
}

static void *forker(void *arg)
{
	(void)arg;
	pid_t pid = fork();
	if (pid == 0) {
		/* the child's one thread is this one */
		int same = pthread_equal(pthread_self(), forker_id) != 0;
		int ok = 0;
		for (int i = 0; i < 100; i++) {
			pthread_t t;
			void *r = NULL;
			if (pthread_create(&t, NULL, joinable_fn, (void *)(intptr_t)(i + 7)) == 0 &&
			    pthread_join(t, &r) == 0 && r == (void *)(intptr_t)(i + 7))
				ok++;
		}
		_exit(same && ok == 100 ? 0 : 1 + same);
	}
	int st = 0;
	if (pid > 0 && waitpid(pid, &st, 0) == pid)
		fork_status = st;
	return NULL;
}

static void fork_mid(int n)
{
	(void)n;
	pthread_create(&forker_id, NULL, forker, NULL);
	pthread_join(forker_id, NULL);
	printf("  fork from a thread among %d: child exit %d\n", n,
	       WIFEXITED(fork_status) ? WEXITSTATUS(fork_status) : -1);
}

/* --- a handler on an alternate stack --- */

static pthread_t alt_target;
static int alt_self_ok, alt_key_ok, alt_ran;
static int alt_value;
static char alt_stack[65536] __attribute__((aligned(16)));

static void on_usr1(int sig)
{
	(void)sig;
	char here;
	alt_ran = &here >= alt_stack && &here < alt_stack + sizeof(alt_stack);
	alt_self_ok = pthread_equal(pthread_self(), alt_target) != 0;
	alt_key_ok = pthread_getspecific(key) == &alt_value;
}

static void *alt_fn(void *arg)
{
	(void)arg;
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack), .ss_flags = 0 };
	pthread_setspecific(key, &alt_value);
	if (sigaltstack(&ss, NULL) != 0)
		return NULL;
	pthread_kill(pthread_self(), SIGUSR1);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	return NULL;
}

static void altstack_mid(int n)
{
	(void)n;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_create(&alt_target, NULL, alt_fn, NULL);
	pthread_join(alt_target, NULL);
	printf("  handler on an alternate stack in thread %d: ran there %d, pthread_self right %d, key %d\n",
	       n + 1, alt_ran, alt_self_ok, alt_key_ok);
}

/* --- stacks the program gives, side by side --- */

#define GIVEN 100
static char given[GIVEN * (32768 + 4096 * 3) + 4096] __attribute__((aligned(16)));
static pthread_t given_self[GIVEN];

static void *given_fn(void *arg)
{
	int i = (int)(intptr_t)arg;
	given_self[i] = pthread_self();
	pthread_barrier_wait(&bar_a);
	return NULL;
}

static void given_stacks(void)
{
	pthread_t t[GIVEN];
	pthread_barrier_init(&bar_a, NULL, GIVEN + 1);
	size_t off = 48; /* not at any page or 16 KiB boundary */
	int made = 0, right = 0;
	for (int i = 0; i < GIVEN; i++) {
		size_t size = 32768 + 4096 * (size_t)(i % 4) - (i % 3) * 16;
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstack(&a, given + off, size);
		made += pthread_create(&t[i], &a, given_fn, (void *)(intptr_t)i) == 0;
		pthread_attr_destroy(&a);
		off += size;
	}
	pthread_barrier_wait(&bar_a);
	for (int i = 0; i < made; i++) {
		pthread_join(t[i], NULL);
		right += pthread_equal(given_self[i], t[i]) != 0;
	}
	printf("given stacks side by side: created %d, pthread_self right %d\n", made, right);
	pthread_barrier_destroy(&bar_a);
}

/* --- cancellation --- */

static void *pauser(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void cancel_many(void)
{
	pthread_t t[200];
	int made = 0, cancelled = 0, joined = 0;
	for (int i = 0; i < 200; i++)
		made += pthread_create(&t[i], NULL, pauser, NULL) == 0;
	for (int i = 0; i < made; i++)
		cancelled += pthread_cancel(t[i]) == 0;
	for (int i = 0; i < made; i++) {
		void *r = NULL;
		joined += pthread_join(t[i], &r) == 0 && r == PTHREAD_CANCELED;
	}
	printf("cancel: %d created, %d cancelled, %d joined as PTHREAD_CANCELED\n", made, cancelled, joined);
}

int main(void)
{
	static pthread_t t[MANY];
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_key_create(&key, NULL);
	alive_together(MANY, t, NULL);
	alive_together(MANY, t, NULL); /* again: the records freed by the joins serve */
	detached_waves();
	alive_together(200, t, fork_mid);
	alive_together(249, t, altstack_mid);
	given_stacks();
	cancel_many();
	return 0;
}
