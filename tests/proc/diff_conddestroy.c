/* A condition variable destroyed, overwritten and made again right after
 * its broadcast, while the threads it woke are still inside
 * pthread_cond_wait: POSIX allows it (no thread is blocked on it any
 * more), and the Open POSIX suite's pthread_cond_destroy/2-1 does it.
 * Round after round, each waiter must come out of its wait and into the
 * next round's; one that slept through its broadcast (it had let the mutex
 * go but not reached its sleep when the variable was made anew, whose
 * counter was back at the value it had read) hangs the round, and the
 * alarm says which. Run on the host and in Arbor (two CPUs), compared. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WAITERS 4
#define ROUNDS 400

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c;
static int waiting;	/* waiters inside this round's wait loop */
static int round_open;	/* the round the waiters wait in */
static int done_round;	/* the last round broadcast */
static volatile sig_atomic_t current;

static void *waiter(void *arg)
{
	(void)arg;
	for (int r = 1; r <= ROUNDS; r++) {
		pthread_mutex_lock(&m);
		while (round_open < r) { /* the main thread opens the round */
			pthread_mutex_unlock(&m);
			sched_yield();
			pthread_mutex_lock(&m);
		}
		waiting++;
		while (done_round < r)
			pthread_cond_wait(&c, &m);
		waiting--;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static void hung(int sig)
{
	(void)sig;
	char msg[80];
	int n = snprintf(msg, sizeof(msg), "hung in round %d: a waiter slept through its broadcast\n", (int)current);
	write(1, msg, (size_t)n);
	_exit(1);
}

int main(void)
{
	signal(SIGALRM, hung);
	alarm(30);
	pthread_cond_init(&c, NULL);
	pthread_t t[WAITERS];
	for (int i = 0; i < WAITERS; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	for (int r = 1; r <= ROUNDS; r++) {
		current = r;
		pthread_mutex_lock(&m);
		round_open = r;
		while (waiting < WAITERS) { /* every waiter inside its wait */
			pthread_mutex_unlock(&m);
			sched_yield();
			pthread_mutex_lock(&m);
		}
		done_round = r;
		pthread_mutex_unlock(&m);
		/* the waiters may still be inside pthread_cond_wait: none blocked */
		pthread_cond_broadcast(&c);
		if (pthread_cond_destroy(&c) != 0)
			printf("destroy failed in round %d\n", r);
		memset(&c, r & 1 ? 0xff : 0, sizeof(c));
		pthread_cond_init(&c, NULL);
		pthread_mutex_lock(&m);
		while (waiting > 0) { /* out of this round before the next opens */
			pthread_mutex_unlock(&m);
			sched_yield();
			pthread_mutex_lock(&m);
		}
		pthread_mutex_unlock(&m);
	}
	for (int i = 0; i < WAITERS; i++)
		pthread_join(t[i], NULL);
	alarm(0);
	printf("%d rounds of broadcast, destroy, overwrite and init with %d waiters: every waiter woke\n", ROUNDS,
	       WAITERS);
	pthread_cond_destroy(&c);
	return 0;
}
