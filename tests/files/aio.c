/* The C library's asynchronous I/O where Arbor's answer is its own (what
 * tests/files/diff_aio.c cannot compare with Linux): the request limits
 * AIO_MAX (EAGAIN) and AIO_LISTIO_MAX (EINVAL), which glibc does not
 * have, and sysconf's figures for them; the helper threads ending once
 * idle, so requests leave no thread behind; a forked child using aio of
 * its own; a notice finding its request's result published; 4 threads
 * using it at once; a process ended with requests pending, whose memory the KTEST
 * (posix_aio) sees given back to its cgroup. Prints TAP. */
#define _GNU_SOURCE
#include <aio.h>
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include "check.h"

/* Threads of this process: entries of /proc/self/task. */
static int threads(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int k = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		k += e->d_name[0] != '.';
	closedir(d);
	return k;
}

static void setup(struct aiocb *cb, int fd, void *buf, size_t len)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = len;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

static void wait_done(struct aiocb *cb)
{
	const struct aiocb *l[1] = { cb };
	while (aio_error(cb) == EINPROGRESS)
		aio_suspend(l, 1, NULL);
}

static struct aiocb many[AIO_MAX + 1];

/* AIO_MAX reads queued on one pipe (the first running): the next is
 * EAGAIN; cancelled, they make room again. */
static void limits(void)
{
	check(sysconf(_SC_AIO_MAX) == AIO_MAX && sysconf(_SC_AIO_LISTIO_MAX) == AIO_LISTIO_MAX &&
		      sysconf(_SC_AIO_PRIO_DELTA_MAX) == AIO_PRIO_DELTA_MAX,
	      "sysconf: AIO_MAX, AIO_LISTIO_MAX, AIO_PRIO_DELTA_MAX as <limits.h>");
	int p[2];
	pipe(p);
	static char b;
	int queued = 0;
	for (int i = 0; i < AIO_MAX; i++) {
		setup(&many[i], p[0], &b, 1);
		queued += aio_read(&many[i]) == 0;
	}
	check(queued == AIO_MAX, "AIO_MAX reads queued");
	setup(&many[AIO_MAX], p[0], &b, 1);
	check_errno(aio_read(&many[AIO_MAX]), EAGAIN, "one more: EAGAIN");
	check(aio_error(&many[AIO_MAX]) == EAGAIN && aio_return(&many[AIO_MAX]) == -1,
	      "its aio_error EAGAIN, aio_return -1");
	check(aio_cancel(p[0], NULL) == AIO_NOTCANCELED, "aio_cancel of them all: the running one not cancelled");
	int cancelled = 0;
	for (int i = 1; i < AIO_MAX; i++)
		cancelled += aio_error(&many[i]) == ECANCELED;
	check(cancelled == AIO_MAX - 1, "the others ECANCELED");
	check(aio_read(&many[AIO_MAX]) == 0, "room again: the one refused is queued");
	write(p[1], "ab", 2);
	wait_done(&many[0]);
	wait_done(&many[AIO_MAX]);
	check(aio_return(&many[0]) == 1 && aio_return(&many[AIO_MAX]) == 1, "the running one and it read a byte each");

	static struct aiocb *list[AIO_LISTIO_MAX + 1];
	for (int i = 0; i <= AIO_LISTIO_MAX; i++)
		list[i] = NULL;
	check_errno(lio_listio(LIO_WAIT, list, AIO_LISTIO_MAX + 1, NULL), EINVAL,
		    "lio_listio of AIO_LISTIO_MAX + 1 entries: EINVAL");
	check(lio_listio(LIO_WAIT, list, AIO_LISTIO_MAX, NULL) == 0, "of AIO_LISTIO_MAX (all NULL): 0");
	check_errno(lio_listio(LIO_WAIT, list, -1, NULL), EINVAL, "of -1 entries: EINVAL");
	close(p[0]);
	close(p[1]);
}

/* Requests on 8 pipes at once run on 8 helpers; idle, they end. */
static void helpers(void)
{
	int before = threads();
	int p[8][2];
	static struct aiocb cb[8];
	static char b[8];
	for (int i = 0; i < 8; i++) {
		pipe(p[i]);
		setup(&cb[i], p[i][0], &b[i], 1);
		aio_read(&cb[i]);
	}
	int during = threads();
	for (int i = 0; i < 8; i++)
		write(p[i][1], "z", 1);
	for (int i = 0; i < 8; i++)
		wait_done(&cb[i]);
	printf("# threads: %d before, %d with 8 pipes' reads pending\n", before, during);
	check(during >= before + 8, "8 descriptors' blocked reads: 8 helper threads");
	int after = -1;
	for (int tries = 0; tries < 100; tries++) { /* an idle helper lingers 1 s */
		after = threads();
		if (after == before)
			break;
		usleep(100000);
	}
	check(after == before, "idle helpers end (within 10 s)");
	for (int i = 0; i < 8; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

/* A child forked while the parent's helpers are idle starts afresh. */
static void forked(void)
{
	int p[2];
	pipe(p);
	static char b;
	static struct aiocb cb;
	setup(&cb, p[0], &b, 1);
	aio_read(&cb);
	write(p[1], "x", 1);
	wait_done(&cb); /* a helper now idles in the parent */
	pid_t pid = fork();
	if (pid == 0) {
		static char c;
		static struct aiocb mine;
		setup(&mine, p[0], &c, 1);
		int ok = aio_read(&mine) == 0;
		write(p[1], "y", 1);
		wait_done(&mine);
		_exit(ok && aio_return(&mine) == 1 && c == 'y' ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a forked child's own request runs");
	close(p[0]);
	close(p[1]);
}

/* Ended with 100 requests queued and their helper blocked. */
static void exit_pending(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		int p[2];
		pipe(p);
		static char b;
		static struct aiocb cb[100];
		for (int i = 0; i < 100; i++) {
			setup(&cb[i], p[0], &b, 1);
			aio_read(&cb[i]);
		}
		exit(7);
	}
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 7, "exit with 100 requests pending: an ordinary exit");
	pid = fork();
	if (pid == 0) {
		int p[2];
		pipe(p);
		static char b;
		static struct aiocb cb;
		setup(&cb, p[0], &b, 1);
		aio_read(&cb);
		execl("/bin/true", "true", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exec with a request pending: the new program runs");
}

/* One of 4 threads: 200 rounds of writes, a LIO_WAIT list of reads,
 * and a pipe read cancelled while it runs then fed; each result checked. */
/* A notice, signal or SIGEV_THREAD function, that calls aio_error finds
 * its request's result, never EINPROGRESS: glibc publishes the result
 * before it notifies. To make a notice sent too early show every time,
 * everything runs on CPU 0 and the notice runs SCHED_FIFO: the signal's
 * catcher thread, or the function's thread (sigev_notify_attributes),
 * preempts the SCHED_OTHER helper the moment it is woken or made. */
static sem_t notice_done;
static int notice_wrong;

static void notice_check(struct aiocb *cb)
{
	notice_wrong += aio_error(cb) != 0;
	sem_post(&notice_done);
}

static void notice_thread(union sigval v)
{
	notice_check(v.sival_ptr);
}

static void notice_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	notice_check(si->si_value.sival_ptr);
}

/* The signal's catcher: the only thread that takes SIGRTMIN. */
static void *notice_catcher(void *arg)
{
	sigset_t *open_mask = arg;
	for (;;)
		sigsuspend(open_mask);
	return NULL;
}

static void notice_order(void)
{
	cpu_set_t all, one;
	sched_getaffinity(0, sizeof(all), &all);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	int setup_bad = sched_setaffinity(0, sizeof(one), &one) != 0; /* threads made from here inherit it */
	sem_init(&notice_done, 0, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = notice_signal;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN, &sa, NULL);
	sigset_t rt, open_mask;
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &rt, &open_mask);
	sigdelset(&open_mask, SIGRTMIN);
	pthread_attr_t fifo;
	pthread_attr_init(&fifo);
	pthread_attr_setinheritsched(&fifo, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&fifo, SCHED_FIFO);
	struct sched_param prio = { .sched_priority = 10 };
	pthread_attr_setschedparam(&fifo, &prio);
	pthread_t catcher;
	setup_bad += pthread_create(&catcher, &fifo, notice_catcher, &open_mask) != 0;
	pthread_attr_setdetachstate(&fifo, PTHREAD_CREATE_DETACHED);
	int fd = open("/tmp/aio_notice", O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink("/tmp/aio_notice");
	int bad = 0;
	for (int round = 0; round < 40; round++) {
		struct aiocb cb;
		setup(&cb, fd, "n", 1);
		cb.aio_sigevent.sigev_notify = round % 2 ? SIGEV_THREAD : SIGEV_SIGNAL;
		cb.aio_sigevent.sigev_signo = SIGRTMIN;
		cb.aio_sigevent.sigev_notify_function = notice_thread;
		cb.aio_sigevent.sigev_notify_attributes = &fifo;
		cb.aio_sigevent.sigev_value.sival_ptr = &cb;
		bad += aio_write(&cb) != 0;
		while (sem_wait(&notice_done) != 0)
			;
	}
	close(fd);
	pthread_cancel(catcher);
	pthread_join(catcher, NULL);
	pthread_attr_destroy(&fifo);
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
	sched_setaffinity(0, sizeof(all), &all);
	printf("# notices: %d of 40 found their request in progress\n", notice_wrong);
	check(setup_bad == 0 && bad == 0 && notice_wrong == 0,
	      "20 signals and 20 SIGEV_THREAD functions, each preempting the helper on one CPU, find their request's result published");
}

static void *stress_thread(void *arg)
{
	long id = (long)arg, bad = 0;
	char path[64];
	snprintf(path, sizeof(path), "/tmp/aio_stress.%ld", id);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink(path);
	int p[2];
	pipe(p);
	for (int round = 0; round < 200; round++) {
		struct aiocb w[3], r[2], pr;
		char data[3][8], got[2][8], pb = 0;
		for (int i = 0; i < 3; i++) {
			snprintf(data[i], sizeof(data[i]), "%ld%d%04d", id, i, round);
			setup(&w[i], fd, data[i], 6);
			w[i].aio_offset = i * 6;
			w[i].aio_reqprio = i;
			bad += aio_write(&w[i]) != 0;
		}
		for (int i = 0; i < 3; i++) {
			wait_done(&w[i]);
			bad += aio_return(&w[i]) != 6;
		}
		struct aiocb *list[2] = { &r[0], &r[1] };
		for (int i = 0; i < 2; i++) {
			setup(&r[i], fd, got[i], 6);
			r[i].aio_offset = i * 6;
			r[i].aio_lio_opcode = LIO_READ;
		}
		bad += lio_listio(LIO_WAIT, list, 2, NULL) != 0;
		bad += memcmp(got[0], data[0], 6) != 0 || memcmp(got[1], data[1], 6) != 0;
		setup(&pr, p[0], &pb, 1);
		bad += aio_read(&pr) != 0;
		int c = aio_cancel(p[0], NULL);
		bad += c != AIO_NOTCANCELED && c != AIO_CANCELED;
		if (c == AIO_NOTCANCELED) {
			write(p[1], "s", 1);
			wait_done(&pr);
			bad += aio_return(&pr) != 1 || pb != 's';
		} else {
			bad += aio_error(&pr) != ECANCELED;
		}
	}
	close(fd);
	close(p[0]);
	close(p[1]);
	return (void *)bad;
}

static void stress(void)
{
	pthread_t t[4];
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, stress_thread, (void *)i);
	long bad = 0;
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("# stress: %ld results wrong\n", bad);
	check(bad == 0, "4 threads, 200 rounds each of writes, lio_listio, cancelled pipe reads: every result right");
	int after = -1;
	for (int tries = 0; tries < 100; tries++) {
		after = threads();
		if (after == 1)
			break;
		usleep(100000);
	}
	check(after == 1, "then the helpers end");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	helpers(); /* first: no helper thread yet */
	limits();
	forked();
	notice_order();
	stress();
	exit_pending();
	printf("1..%d\n", n);
	return failed != 0;
}
