/* Differential test: errno is each thread's own (POSIX), while the C
 * library's generators are the process's (a seed set in one thread goes
 * on in another, as glibc's rand, random and drand48 families). Threads
 * fail calls at the same time with different errors and check their own
 * errno each time; a thread's strtol overflow shows ERANGE in that
 * thread only. The output is the same on Linux, byte for byte. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 20000

static int pipe_fds[2];

/* ROUNDS failing calls, each followed by a look at errno: the number of
 * times it was not the call's own error. */
static long fail_loop(int which)
{
	long wrong = 0;
	for (int i = 0; i < ROUNDS; i++) {
		if (which == 0) {
			if (close(-1) != -1 || errno != EBADF)
				wrong++;
		} else {
			if (lseek(pipe_fds[0], 0, SEEK_SET) != -1 || errno != ESPIPE)
				wrong++;
		}
		if (i % 64 == 0)
			sched_yield(); /* the other thread runs between a call and its errno */
	}
	return wrong;
}

static void *fail_thread(void *arg)
{
	return (void *)fail_loop((int)(long)arg);
}

static void *set_errno(void *arg)
{
	errno = (int)(long)arg;
	return (void *)(long)errno;
}

static void *strtol_thread(void *arg)
{
	(void)arg;
	errno = 0;
	long v = strtol("99999999999999999999999", NULL, 10);
	static char line[80];
	snprintf(line, sizeof(line), "thread strtol: %s, errno ERANGE: %s", v == LONG_MAX ? "LONG_MAX" : "other",
		 errno == ERANGE ? "yes" : "no");
	return line;
}

static void *rand_thread(void *arg)
{
	long *out = arg;
	out[0] = rand();
	out[1] = random();
	out[2] = lrand48();
	return NULL;
}

static void *nrand48_thread(void *arg)
{
	unsigned short x[3] = { 1, 2, 3 };
	*(long *)arg = nrand48(x); /* with the a and c lcong48 set in main */
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	void *r;

	errno = EINTR;
	pthread_create(&t[0], NULL, set_errno, (void *)(long)EACCES);
	pthread_join(t[0], &r);
	printf("a thread sets errno to %s; main's is still %s\n", (long)r == EACCES ? "EACCES" : "?",
	       errno == EINTR ? "EINTR" : strerror(errno));

	if (pipe(pipe_fds))
		return 1;
	pthread_create(&t[0], NULL, fail_thread, (void *)0L);
	pthread_create(&t[1], NULL, fail_thread, (void *)1L);
	long wrong_main = fail_loop(0);
	long wrong[2];
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], &r);
		wrong[i] = (long)r;
	}
	printf("%d failed calls in each of three threads at once: errno not the call's own %ld, %ld, %ld times\n",
	       ROUNDS, wrong_main, wrong[0], wrong[1]);

	errno = 0;
	pthread_create(&t[0], NULL, strtol_thread, NULL);
	pthread_join(t[0], &r);
	printf("%s; main's errno after: %s\n", (char *)r, errno == 0 ? "0" : strerror(errno));

	/* the generators: seeded here, drawn in a thread, the same numbers
	 * as drawn here after the same seeds */
	long here[4], there[4];
	srand(7);
	srandom(7);
	srand48(11);
	here[0] = rand();
	here[1] = random();
	here[2] = lrand48();
	srand(7);
	srandom(7);
	srand48(11);
	pthread_create(&t[0], NULL, rand_thread, there);
	pthread_join(t[0], NULL);
	printf("rand, random and lrand48 seeded in main go on in a thread: %s %s %s\n",
	       here[0] == there[0] ? "yes" : "no", here[1] == there[1] ? "yes" : "no",
	       here[2] == there[2] ? "yes" : "no");
	unsigned short param[7] = { 5, 6, 7, 0x1234, 0x5678, 0x9, 0x3 };
	unsigned short x[3] = { 1, 2, 3 };
	lcong48(param);
	here[3] = nrand48(x);
	srand48(11); /* the default a and c again */
	pthread_create(&t[0], NULL, nrand48_thread, &there[3]);
	pthread_join(t[0], NULL);
	printf("nrand48 in a thread after srand48: %s\n", here[3] != there[3] ? "the default a and c" : "lcong48's");
	lcong48(param);
	pthread_create(&t[0], NULL, nrand48_thread, &there[3]);
	pthread_join(t[0], NULL);
	printf("nrand48 in a thread after lcong48 in main: %s\n", here[3] == there[3] ? "lcong48's a and c" : "others");
	unsigned short s3[3] = { 0x330E, 0, 0 };
	seed48(s3);
	double d0 = drand48();
	srand48(0);
	printf("seed48 {0x330E,0,0} and srand48(0) give the same drand48: %s\n", d0 == drand48() ? "yes" : "no");
	return 0;
}
