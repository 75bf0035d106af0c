/* Differential test: POSIX asynchronous I/O (<aio.h>). aio_read,
 * aio_write, aio_fsync, aio_error, aio_return, aio_suspend (timeout,
 * EINTR), aio_cancel (one request and a descriptor's all: AIO_CANCELED,
 * AIO_NOTCANCELED, AIO_ALLDONE), lio_listio in both modes, the order of
 * one descriptor's requests (aio_reqprio, then arrival), notification by
 * signal (si_code SI_ASYNCIO, si_value) and by thread, the errors and the
 * asynchronous ones, and a process exiting or exec'ing with requests in
 * flight. Each part runs in a fresh child, which has no helper threads
 * yet, so a request for a new descriptor is running at once (an idle
 * helper would pick it up a little later) and what aio_cancel finds does
 * not depend on timing. Prints what happened, so its output compares
 * with Linux byte for byte. */
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ECANCELED: return "ECANCELED";
	case EINPROGRESS: return "EINPROGRESS";
	case ESPIPE: return "ESPIPE";
	default: return "other";
	}
}

static const char *cancel_name(int r)
{
	switch (r) {
	case AIO_CANCELED: return "AIO_CANCELED";
	case AIO_NOTCANCELED: return "AIO_NOTCANCELED";
	case AIO_ALLDONE: return "AIO_ALLDONE";
	case -1: return err_name(errno);
	default: return "?";
	}
}

static char tmpdir[64];

static void setup_cb(struct aiocb *cb, int fd, void *buf, size_t n, off_t off)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = n;
	cb->aio_offset = off;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

/* Waits for cb with aio_suspend and prints its outcome. */
static void finish(const char *what, struct aiocb *cb)
{
	const struct aiocb *l[1] = { cb };
	while (aio_error(cb) == EINPROGRESS)
		aio_suspend(l, 1, NULL);
	printf("  %s: error %s return %zd\n", what, err_name(aio_error(cb)), aio_return(cb));
}

static void show_call(const char *what, int r)
{
	printf("  %s -> %d %s\n", what, r, r < 0 ? err_name(errno) : "");
}

static void part_files(void)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/f", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct aiocb a, b, c;
	char hello[] = "hello", world[] = "world";
	setup_cb(&a, fd, hello, 5, 0);
	setup_cb(&b, fd, world, 5, 10);
	show_call("aio_write hello@0", aio_write(&a));
	show_call("aio_write world@10", aio_write(&b));
	finish("hello", &a);
	finish("world", &b);
	setup_cb(&c, fd, NULL, 0, 0);
	c.aio_lio_opcode = 77;
	show_call("aio_fsync O_SYNC", aio_fsync(O_SYNC, &c));
	finish("fsync", &c);
	printf("  aio_lio_opcode now %d\n", c.aio_lio_opcode);
	c.aio_reqprio = -1;
	show_call("aio_fsync O_DSYNC, reqprio -1", aio_fsync(O_DSYNC, &c));
	printf("  reqprio now %d\n", c.aio_reqprio);
	finish("fdatasync", &c);
	char buf[32];
	memset(buf, '.', sizeof(buf));
	setup_cb(&c, fd, buf, sizeof(buf), 0);
	show_call("aio_read 32@0", aio_read(&c));
	finish("read", &c);
	for (int i = 0; i < 15; i++)
		putchar(buf[i] ? buf[i] : '_');
	printf(" then '%c'\n", buf[15]);
	setup_cb(&c, fd, buf, 4, 100);
	show_call("aio_read past the end", aio_read(&c));
	finish("read past the end", &c);

	/* errors */
	setup_cb(&c, fd, buf, 4, 0);
	c.aio_reqprio = -1;
	show_call("aio_read reqprio -1", aio_read(&c));
	printf("  aio_error %s aio_return %zd\n", err_name(aio_error(&c)), aio_return(&c));
	c.aio_reqprio = AIO_PRIO_DELTA_MAX + 1;
	show_call("aio_write reqprio max+1", aio_write(&c));
	c.aio_reqprio = AIO_PRIO_DELTA_MAX;
	show_call("aio_read reqprio max", aio_read(&c));
	finish("reqprio max", &c);
	setup_cb(&c, fd, buf, 4, -1);
	show_call("aio_read offset -1", aio_read(&c));
	finish("offset -1", &c);
	setup_cb(&c, 99, buf, 4, 0);
	show_call("aio_read of a closed descriptor", aio_read(&c));
	finish("closed descriptor", &c);
	int ro = open(path, O_RDONLY);
	setup_cb(&c, ro, hello, 5, 0);
	show_call("aio_write to a read-only descriptor", aio_write(&c));
	finish("read-only", &c);
	close(ro);
	setup_cb(&c, fd, NULL, 0, 0);
	show_call("aio_fsync(0)", aio_fsync(0, &c));
	setup_cb(&c, 99, NULL, 0, 0);
	show_call("aio_fsync of a closed descriptor", aio_fsync(O_SYNC, &c));
	show_call("aio_cancel(99, NULL)", aio_cancel(99, NULL));
	setup_cb(&c, fd, buf, 4, 0);
	int other = dup(fd);
	printf("  aio_cancel of another descriptor's aiocb -> %s\n", cancel_name(aio_cancel(other, &c)));
	close(other);
	const struct aiocb *nulls[3] = { NULL, NULL, NULL };
	show_call("aio_suspend(nent -1)", aio_suspend(nulls, -1, NULL));
	show_call("aio_suspend of NULLs", aio_suspend(nulls, 3, NULL));
	const struct aiocb *done[2] = { NULL, &a };
	show_call("aio_suspend of a finished one", aio_suspend(done, 2, NULL));
	printf("  aio_cancel of a finished one -> %s\n", cancel_name(aio_cancel(fd, &a)));
	printf("  aio_cancel(fd, NULL) with nothing queued -> %s\n", cancel_name(aio_cancel(fd, NULL)));
	close(fd);
	unlink(path);
}

/* A pipe's reads: the first runs (and waits for data), the rest queue. */
static void part_cancel(void)
{
	int p[2];
	pipe(p);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &s, NULL);
	struct aiocb r[4];
	char buf[4][8];
	for (int i = 0; i < 4; i++) {
		setup_cb(&r[i], p[0], buf[i], 1, 0);
		memset(buf[i], 0, 8);
	}
	r[2].aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	r[2].aio_sigevent.sigev_signo = SIGRTMIN;
	r[2].aio_sigevent.sigev_value.sival_int = 33;
	for (int i = 0; i < 4; i++)
		show_call("aio_read of an empty pipe", aio_read(&r[i]));
	printf("  aio_cancel(third) -> %s\n", cancel_name(aio_cancel(p[0], &r[2])));
	printf("  third: error %s return %zd\n", err_name(aio_error(&r[2])), aio_return(&r[2]));
	siginfo_t si;
	int sig = sigwaitinfo(&s, &si);
	printf("  its signal: %s code %s value %d from self %d\n", sig == SIGRTMIN ? "SIGRTMIN" : "other",
	       si.si_code == SI_ASYNCIO ? "SI_ASYNCIO" : "other", si.si_value.sival_int, si.si_pid == getpid());
	printf("  aio_cancel(third) again -> %s\n", cancel_name(aio_cancel(p[0], &r[2])));
	printf("  aio_cancel(first, running) -> %s\n", cancel_name(aio_cancel(p[0], &r[0])));
	printf("  first: %s\n", err_name(aio_error(&r[0])));
	printf("  aio_cancel(fd, NULL) -> %s\n", cancel_name(aio_cancel(p[0], NULL)));
	printf("  second %s %zd, fourth %s %zd\n", err_name(aio_error(&r[1])), aio_return(&r[1]),
	       err_name(aio_error(&r[3])), aio_return(&r[3]));
	struct timespec ms50 = { 0, 50000000 };
	const struct aiocb *l[1] = { &r[0] };
	show_call("aio_suspend(first, 50 ms)", aio_suspend(l, 1, &ms50));
	write(p[1], "xyz", 3);
	finish("first", &r[0]);
	printf("  read '%s'\n", buf[0]);
	printf("  aio_cancel(fd, NULL) -> %s\n", cancel_name(aio_cancel(p[0], NULL)));
	printf("  aio_cancel(first) -> %s\n", cancel_name(aio_cancel(p[0], &r[0])));
}

/* One descriptor's requests run one at a time: by aio_reqprio, then in
 * the order they came. */
static void part_order(void)
{
	int p[2];
	pipe(p);
	struct aiocb r[5];
	char buf[5][8];
	int prio[5] = { 0, 5, 0, 5, 2 };
	for (int i = 0; i < 5; i++) {
		memset(buf[i], 0, 8);
		setup_cb(&r[i], p[0], buf[i], 4, 0);
		r[i].aio_reqprio = prio[i];
		if (aio_read(&r[i]) != 0)
			printf("  aio_read %d: %s\n", i, err_name(errno));
	}
	write(p[1], "aaaabbbbccccddddeeee", 20);
	for (int i = 0; i < 5; i++) {
		char what[32];
		snprintf(what, sizeof(what), "read %d (reqprio %d)", i, prio[i]);
		finish(what, &r[i]);
	}
	for (int i = 0; i < 5; i++)
		printf("  read %d got %s\n", i, buf[i]);
}

static volatile int got_usr1;
static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static volatile int suspend_returned;

/* Again every 100 ms until aio_suspend has returned: a loaded machine may
 * take the first before the main thread is in it. */
static void *send_usr1(void *arg)
{
	(void)arg;
	while (!suspend_returned) {
		struct timespec t = { 0, 100000000 };
		nanosleep(&t, NULL);
		if (!suspend_returned)
			kill(getpid(), SIGUSR1);
	}
	return NULL;
}

static int pipe_w;

/* A signal, then (100 ms later) the byte the pending read waits for. */
static void *send_usr1_then_write(void *arg)
{
	(void)arg;
	struct timespec t = { 0, 100000000 };
	nanosleep(&t, NULL);
	kill(getpid(), SIGUSR1);
	nanosleep(&t, NULL);
	write(pipe_w, "q", 1);
	return NULL;
}

static void part_signal(void)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/s", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	struct aiocb c;
	setup_cb(&c, fd, "data", 4, 0);
	c.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	c.aio_sigevent.sigev_signo = SIGRTMIN + 1;
	c.aio_sigevent.sigev_value.sival_int = 4242;
	show_call("aio_write with SIGEV_SIGNAL", aio_write(&c));
	siginfo_t si;
	int sig = sigwaitinfo(&s, &si);
	printf("  signal %s code %s value %d from self %d; then error %s return %zd\n",
	       sig == SIGRTMIN + 1 ? "SIGRTMIN+1" : "other", si.si_code == SI_ASYNCIO ? "SI_ASYNCIO" : "other",
	       si.si_value.sival_int, si.si_pid == getpid(), err_name(aio_error(&c)), aio_return(&c));
	setup_cb(&c, fd, "data", 4, 0);
	c.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	c.aio_sigevent.sigev_signo = 99;
	show_call("aio_write notifying signal 99", aio_write(&c));
	finish("signal 99", &c);
	close(fd);
	unlink(path);

	/* aio_suspend interrupted by a caught signal (no SA_RESTART) */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	int p[2];
	pipe(p);
	char b[4];
	setup_cb(&c, p[0], b, 1, 0);
	aio_read(&c);
	sigset_t u, old;
	sigemptyset(&u);
	sigaddset(&u, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &u, &old);
	pthread_t t;
	pthread_create(&t, NULL, send_usr1, NULL); /* SIGUSR1 blocked there: it comes here */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	const struct aiocb *l[1] = { &c };
	int r = aio_suspend(l, 1, NULL);
	int e = errno;
	suspend_returned = 1;
	printf("  aio_suspend with a signal caught -> %d %s, handler ran %d\n", r, err_name(e), got_usr1);
	pthread_join(t, NULL);

	/* with SA_RESTART: a timed wait still ends with EINTR (Linux's futex
	 * restart block), an untimed one goes on */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	got_usr1 = suspend_returned = 0;
	pthread_sigmask(SIG_BLOCK, &u, &old);
	pthread_create(&t, NULL, send_usr1, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	struct timespec ten = { 10, 0 };
	r = aio_suspend(l, 1, &ten);
	e = errno;
	suspend_returned = 1;
	printf("  aio_suspend (10 s) with an SA_RESTART handler -> %d %s, handler ran %d\n", r, err_name(e), got_usr1);
	pthread_join(t, NULL);
	printf("  aio_cancel(running) -> %s\n", cancel_name(aio_cancel(p[0], &c)));
	got_usr1 = 0;
	pipe_w = p[1];
	pthread_sigmask(SIG_BLOCK, &u, &old);
	pthread_create(&t, NULL, send_usr1_then_write, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	r = aio_suspend(l, 1, NULL);
	printf("  aio_suspend (no timeout) with an SA_RESTART handler -> %d, handler ran %d\n", r, got_usr1);
	pthread_join(t, NULL);
	finish("pipe read", &c);
}

static pthread_mutex_t nlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ncond = PTHREAD_COND_INITIALIZER;
static int notified, notified_value, notified_main;
static pthread_t main_thread;

static void on_done(union sigval v)
{
	pthread_mutex_lock(&nlock);
	notified++;
	notified_value = v.sival_int;
	notified_main = pthread_equal(pthread_self(), main_thread);
	pthread_cond_signal(&ncond);
	pthread_mutex_unlock(&nlock);
}

static void wait_notified(int n)
{
	pthread_mutex_lock(&nlock);
	while (notified < n)
		pthread_cond_wait(&ncond, &nlock);
	pthread_mutex_unlock(&nlock);
	printf("  notified %d times, value %d, on the main thread %d\n", notified, notified_value, notified_main);
}

static void part_thread(void)
{
	main_thread = pthread_self();
	char path[128];
	snprintf(path, sizeof(path), "%s/t", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct aiocb c;
	setup_cb(&c, fd, "thread", 6, 0);
	c.aio_sigevent.sigev_notify = SIGEV_THREAD;
	c.aio_sigevent.sigev_notify_function = on_done;
	c.aio_sigevent.sigev_value.sival_int = 616;
	show_call("aio_write with SIGEV_THREAD", aio_write(&c));
	wait_notified(1);
	printf("  error %s return %zd\n", err_name(aio_error(&c)), aio_return(&c));
	close(fd);
	unlink(path);
}

static struct aiocb cancel_cb;

static void *suspend_forever(void *arg)
{
	(void)arg;
	const struct aiocb *l[1] = { &cancel_cb };
	aio_suspend(l, 1, NULL);
	return (void *)1;
}

/* aio_suspend is a cancellation point: the thread ends in it, and the
 * request it waited for ends later without it. */
static void part_pcancel(void)
{
	int p[2];
	pipe(p);
	char b[4] = "";
	setup_cb(&cancel_cb, p[0], b, 1, 0);
	show_call("aio_read of an empty pipe", aio_read(&cancel_cb));
	pthread_t t;
	pthread_create(&t, NULL, suspend_forever, NULL);
	struct timespec ms50 = { 0, 50000000 };
	nanosleep(&ms50, NULL);
	pthread_cancel(t);
	void *ret;
	pthread_join(t, &ret);
	printf("  the thread in aio_suspend cancelled: %d\n", ret == PTHREAD_CANCELED);
	write(p[1], "k", 1);
	finish("the read it waited for", &cancel_cb);
	printf("  read '%s'\n", b);
}

static void part_lio(void)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/l", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct aiocb a, b, n, bad;
	char ra[8] = "", rb[8] = "";
	setup_cb(&a, fd, "one", 3, 0);
	a.aio_lio_opcode = LIO_WRITE;
	setup_cb(&b, fd, "two", 3, 3);
	b.aio_lio_opcode = LIO_WRITE;
	setup_cb(&n, fd, NULL, 0, 0);
	n.aio_lio_opcode = LIO_NOP;
	struct aiocb *list[4] = { &a, NULL, &n, &b };
	show_call("lio_listio(LIO_WAIT, write, NULL, nop, write)", lio_listio(LIO_WAIT, list, 4, NULL));
	printf("  a %s %zd, b %s %zd, nop %s\n", err_name(aio_error(&a)), aio_return(&a), err_name(aio_error(&b)),
	       aio_return(&b), err_name(aio_error(&n)));
	show_call("lio_listio(7, ...)", lio_listio(7, list, 4, NULL));
	show_call("lio_listio(LIO_WAIT, nent 0)", lio_listio(LIO_WAIT, list, 0, NULL));

	setup_cb(&a, fd, ra, 3, 0);
	a.aio_lio_opcode = LIO_READ;
	setup_cb(&bad, 99, rb, 3, 0);
	bad.aio_lio_opcode = LIO_READ;
	struct aiocb *list2[2] = { &a, &bad };
	show_call("lio_listio(LIO_WAIT, read, read of a closed descriptor)", lio_listio(LIO_WAIT, list2, 2, NULL));
	printf("  read %s %zd '%s', bad %s %zd\n", err_name(aio_error(&a)), aio_return(&a), ra,
	       err_name(aio_error(&bad)), aio_return(&bad));
	setup_cb(&bad, fd, rb, 3, 0);
	bad.aio_lio_opcode = 9;
	struct aiocb *list3[1] = { &bad };
	show_call("lio_listio(LIO_WAIT, opcode 9)", lio_listio(LIO_WAIT, list3, 1, NULL));
	printf("  opcode 9: %s %zd\n", err_name(aio_error(&bad)), aio_return(&bad));
	setup_cb(&bad, fd, NULL, 0, 0);
	bad.aio_lio_opcode = 3;
	show_call("lio_listio(LIO_WAIT, opcode 3)", lio_listio(LIO_WAIT, list3, 1, NULL));
	printf("  opcode 3: %s %zd\n", err_name(aio_error(&bad)), aio_return(&bad));
	setup_cb(&bad, fd, rb, 3, 0);
	bad.aio_lio_opcode = LIO_READ;
	bad.aio_reqprio = -5;
	setup_cb(&a, fd, ra, 3, 3);
	a.aio_lio_opcode = LIO_READ;
	struct aiocb *list4[2] = { &bad, &a };
	show_call("lio_listio(LIO_NOWAIT, reqprio -5, read)", lio_listio(LIO_NOWAIT, list4, 2, NULL));
	finish("the read beside it", &a);
	printf("  reqprio -5: %s\n", err_name(aio_error(&bad)));

	/* LIO_NOWAIT: one signal for the whole list */
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN + 2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	struct sigevent ev;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGRTMIN + 2;
	ev.sigev_value.sival_int = 77;
	memset(ra, 0, sizeof(ra));
	memset(rb, 0, sizeof(rb));
	setup_cb(&a, fd, ra, 3, 0);
	a.aio_lio_opcode = LIO_READ;
	setup_cb(&b, fd, rb, 3, 3);
	b.aio_lio_opcode = LIO_READ;
	struct aiocb *list5[2] = { &a, &b };
	show_call("lio_listio(LIO_NOWAIT, read, read; signal)", lio_listio(LIO_NOWAIT, list5, 2, &ev));
	siginfo_t si;
	int sig = sigwaitinfo(&s, &si);
	printf("  signal %s code %s value %d; a %s '%s', b %s '%s'\n", sig == SIGRTMIN + 2 ? "SIGRTMIN+2" : "other",
	       si.si_code == SI_ASYNCIO ? "SI_ASYNCIO" : "other", si.si_value.sival_int, err_name(aio_error(&a)), ra,
	       err_name(aio_error(&b)), rb);
	struct timespec zero = { 0, 0 };
	printf("  another signal: %d\n", sigtimedwait(&s, &si, &zero) > 0);
	struct aiocb *nops[1] = { &n };
	ev.sigev_value.sival_int = 78;
	show_call("lio_listio(LIO_NOWAIT, nop; signal)", lio_listio(LIO_NOWAIT, nops, 1, &ev));
	sig = sigwaitinfo(&s, &si);
	printf("  signal value %d code %s\n", si.si_value.sival_int, si.si_code == SI_ASYNCIO ? "SI_ASYNCIO" : "other");

	/* LIO_NOWAIT: a thread for the whole list */
	main_thread = pthread_self();
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = on_done;
	ev.sigev_value.sival_int = 99;
	setup_cb(&a, fd, ra, 3, 0);
	a.aio_lio_opcode = LIO_READ;
	setup_cb(&b, fd, rb, 3, 3);
	b.aio_lio_opcode = LIO_READ;
	show_call("lio_listio(LIO_NOWAIT, read, read; thread)", lio_listio(LIO_NOWAIT, list5, 2, &ev));
	wait_notified(1);
	close(fd);
	unlink(path);
}

/* The process ends, or execs, with a request waiting on a pipe. */
static void part_exit(const char *self)
{
	int p[2];
	pipe(p);
	static char b[4];
	static struct aiocb c;
	setup_cb(&c, p[0], b, 1, 0);
	show_call("aio_read of an empty pipe, then exec", aio_read(&c));
	fflush(stdout);
	execl(self, self, "after-exec", (char *)NULL);
	printf("  exec failed\n");
}

static void run(const char *name, void (*fn)(void))
{
	printf("%s:\n", name);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("%s: %s %d\n", name, WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

static void part_exit_pending(void)
{
	int p[2];
	pipe(p);
	static char b[4];
	static struct aiocb c[3];
	for (int i = 0; i < 3; i++) {
		setup_cb(&c[i], p[0], b, 1, 0);
		aio_read(&c[i]);
	}
	printf("  three reads pending, exit\n");
	fflush(stdout);
	exit(3);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "after-exec") == 0) {
		printf("  exec'd: a fresh image\n");
		return 5;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("_POSIX_ASYNCHRONOUS_IO %ld sysconf %ld, AIO_PRIO_DELTA_MAX %d sysconf %ld, _SC_PRIORITIZED_IO %ld\n",
	       (long)_POSIX_ASYNCHRONOUS_IO, sysconf(_SC_ASYNCHRONOUS_IO), AIO_PRIO_DELTA_MAX,
	       sysconf(_SC_AIO_PRIO_DELTA_MAX), sysconf(_SC_PRIORITIZED_IO));
	printf("AIO_CANCELED %d AIO_NOTCANCELED %d AIO_ALLDONE %d LIO_READ %d LIO_WRITE %d LIO_NOP %d "
	       "LIO_WAIT %d LIO_NOWAIT %d\n",
	       AIO_CANCELED, AIO_NOTCANCELED, AIO_ALLDONE, LIO_READ, LIO_WRITE, LIO_NOP, LIO_WAIT, LIO_NOWAIT);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/aio.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		printf("mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	run("files", part_files);
	run("cancel", part_cancel);
	run("order", part_order);
	run("signal", part_signal);
	run("thread", part_thread);
	run("aio_suspend cancelled", part_pcancel);
	run("lio_listio", part_lio);
	run("exit with requests pending", part_exit_pending);
	printf("exec with a request pending:\n");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		part_exit(argv[0]);
		_exit(1);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("exec: %s %d\n", WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	rmdir(tmpdir);
	return 0;
}
