/* Differential test: POSIX message queues as a Linux program uses them:
 * mq_open's errors (O_CREAT|O_EXCL, missing, bad attributes, a name
 * without its slash), priority order (highest first, oldest first within
 * one), O_NONBLOCK's EAGAIN, EMSGSIZE, EBADF for the wrong direction,
 * timed send and receive, mq_getattr/mq_setattr, and a queue shared with
 * a child process that blocks on it; mq_notify (a signal with SI_MESGQ
 * and the sending process's pid, uid and value; a thread; EBUSY for a
 * second registration, from this process or another; re-registering
 * after a firing; NULL; no firing for a non-empty queue or while a
 * receiver waits; a registration gone with mq_close and with its
 * process) and waits a signal's handler interrupts (EINTR without
 * SA_RESTART, restarted with it). Prints results and errno names, byte
 * for byte as Linux. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EMSGSIZE: return "EMSGSIZE";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EINTR: return "EINTR";
	default: return "other";
	}
}

#define SHOWE(what, call) printf("%s: %s\n", what, (call) == 0 ? "0" : en(errno))

/* The signal mq_notify sent, taken with sigtimedwait (blocked): what
 * it says, or that none came within ms. */
static void show_note(const char *what, int ms, pid_t sender)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	siginfo_t si;
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	int sig = sigtimedwait(&set, &si, &t);
	if (sig < 0)
		printf("%s: no signal (%s)\n", what, en(errno));
	else
		printf("%s: signal %d, si_code SI_MESGQ %d, si_pid the sender %d, si_uid %d, value %d\n", what, sig,
		       si.si_code == SI_MESGQ, si.si_pid == sender, si.si_uid == getuid(), si.si_value.sival_int);
}

/* A child's mq_notify on q as sigev_notify how: its errno name as exit
 * status index (0 for success). */
static const char *child_notify(mqd_t q, int how)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct sigevent ev = { .sigev_notify = how, .sigev_signo = SIGUSR2 };
		int r = mq_notify(q, &ev);
		_exit(r == 0 ? 0 : errno == EBUSY ? 1 : 2);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	return !WIFEXITED(st) ? "killed" : WEXITSTATUS(st) == 0 ? "0" : WEXITSTATUS(st) == 1 ? "EBUSY" : "other";
}

/* A child sends one message to q and exits: its pid. */
static pid_t child_send(mqd_t q, const char *msg)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(mq_send(q, msg, strlen(msg), 0) == 0 ? 0 : 1);
	int st;
	waitpid(pid, &st, 0);
	return pid;
}

static int note_pipe[2];

static void note_thread(union sigval v)
{
	int x = v.sival_int;
	write(note_pipe[1], &x, sizeof(x));
}

static void on_alarm(int sig) { (void)sig; }

/* Arms a one-shot ITIMER_REAL of ms with SIGALRM's handler installed
 * with flags. */
static void alarm_in(int ms, int flags)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = flags };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

static void notify_tests(void)
{
	struct mq_attr attr = { .mq_maxmsg = 2, .mq_msgsize = 16 };
	char buf[16];
	mq_unlink("/arbor_diff_mqn");
	mqd_t q = mq_open("/arbor_diff_mqn", O_RDWR | O_CREAT, 0600, &attr);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	ev.sigev_value.sival_int = 42;

	struct sigevent bad = { .sigev_notify = 77 };
	SHOWE("mq_notify sigev_notify 77", mq_notify(q, &bad));
	bad = (struct sigevent){ .sigev_notify = SIGEV_SIGNAL, .sigev_signo = 65 };
	SHOWE("mq_notify signal 65", mq_notify(q, &bad));
	SHOWE("mq_notify on mqd 999", mq_notify(999, &ev));
	SHOWE("mq_notify NULL, not registered", mq_notify(q, NULL));

	SHOWE("mq_notify SIGUSR1 value 42", mq_notify(q, &ev));
	SHOWE("mq_notify again, same process", mq_notify(q, &ev));
	printf("mq_notify from a child: %s\n", child_notify(q, SIGEV_NONE));
	pid_t sender = child_send(q, "one");
	show_note("a child sends to the empty queue", 2000, sender);
	printf("mq_notify from a child after the firing: %s\n", child_notify(q, SIGEV_NONE));
	printf("the child's registration went with it; ");
	SHOWE("re-register", mq_notify(q, &ev));
	sender = child_send(q, "two");
	show_note("a second message, queue not empty", 100, sender);
	mq_receive(q, buf, sizeof(buf), NULL);
	mq_receive(q, buf, sizeof(buf), NULL);
	ev.sigev_value.sival_int = 43;
	SHOWE("mq_notify NULL", mq_notify(q, NULL));
	SHOWE("register with value 43", mq_notify(q, &ev));
	SHOWE("this process sends", mq_send(q, "three", 5, 0));
	show_note("sent by this process", 2000, getpid());
	mq_receive(q, buf, sizeof(buf), NULL);

	/* no firing while a receiver waits: the message is its */
	SHOWE("register", mq_notify(q, &ev));
	fflush(stdout);
	pid_t rc = fork();
	if (rc == 0) {
		ssize_t n = mq_receive(q, buf, sizeof(buf), NULL);
		_exit(n == 4 ? 0 : 1);
	}
	usleep(300000);
	SHOWE("send while a child waits in mq_receive", mq_send(q, "four", 4, 0));
	int st = -1;
	waitpid(rc, &st, 0);
	printf("the child got it: %d\n", WIFEXITED(st) && WEXITSTATUS(st) == 0);
	show_note("with a receiver waiting", 100, getpid());
	SHOWE("still registered: again", mq_notify(q, &ev));

	/* closing a descriptor of the queue ends the registration */
	mqd_t q2 = mq_open("/arbor_diff_mqn", O_RDWR);
	SHOWE("mq_close of another descriptor of the queue", mq_close(q2));
	printf("mq_notify from a child: %s\n", child_notify(q, SIGEV_NONE));
	SHOWE("mq_notify on the closed descriptor", mq_notify(q2, &ev));

	/* SIGEV_THREAD: the function runs in a thread of this process */
	pipe(note_pipe);
	struct sigevent tev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = note_thread };
	tev.sigev_value.sival_int = 7;
	SHOWE("mq_notify SIGEV_THREAD value 7", mq_notify(q, &tev));
	SHOWE("mq_notify again", mq_notify(q, &ev));
	child_send(q, "five");
	int got = -1;
	read(note_pipe[0], &got, sizeof(got));
	printf("the thread's value: %d\n", got);
	SHOWE("register after the thread's firing", mq_notify(q, &ev));
	SHOWE("mq_notify NULL", mq_notify(q, NULL));
	mq_receive(q, buf, sizeof(buf), NULL);
	/* two firings in a row, the second registered at once after the
	 * first: both functions run */
	tev.sigev_value.sival_int = 8;
	mq_notify(q, &tev);
	mq_send(q, "six", 3, 0);
	mq_receive(q, buf, sizeof(buf), NULL);
	tev.sigev_value.sival_int = 9;
	SHOWE("SIGEV_THREAD again right after a firing", mq_notify(q, &tev));
	mq_send(q, "seven", 5, 0);
	mq_receive(q, buf, sizeof(buf), NULL);
	int v1 = -1, v2 = -1;
	read(note_pipe[0], &v1, sizeof(v1));
	read(note_pipe[0], &v2, sizeof(v2));
	printf("both threads ran: values %d and %d\n", v1 < v2 ? v1 : v2, v1 < v2 ? v2 : v1);
	/* taken back before a message: its function never runs */
	tev.sigev_value.sival_int = 10;
	mq_notify(q, &tev);
	SHOWE("SIGEV_THREAD taken back with NULL", mq_notify(q, NULL));
	mq_send(q, "eight", 5, 0);
	mq_receive(q, buf, sizeof(buf), NULL);
	usleep(100000);
	fcntl(note_pipe[0], F_SETFL, O_NONBLOCK);
	printf("its function ran: %d\n", read(note_pipe[0], &v1, sizeof(v1)) > 0);

	/* interrupted waits: EINTR without SA_RESTART, restarted with it */
	alarm_in(100, 0);
	ssize_t n = mq_receive(q, buf, sizeof(buf), NULL);
	printf("mq_receive on an empty queue, SIGALRM's handler without SA_RESTART: %s\n", n >= 0 ? "ok" : en(errno));
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_nsec += 400000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	alarm_in(100, SA_RESTART);
	n = mq_timedreceive(q, buf, sizeof(buf), NULL, &dl);
	printf("mq_timedreceive, handler with SA_RESTART: %s\n", n >= 0 ? "ok" : en(errno));
	mq_send(q, "a", 1, 0);
	mq_send(q, "b", 1, 0);
	alarm_in(100, 0);
	SHOWE("mq_send to a full queue, handler without SA_RESTART", mq_send(q, "c", 1, 0));
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 30;
	alarm_in(100, 0);
	SHOWE("mq_timedsend to a full queue, handler without SA_RESTART", mq_timedsend(q, "c", 1, 0, &dl));
	mq_close(q);
	mq_unlink("/arbor_diff_mqn");
}

int main(void)
{
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 64 }, got;
	mq_unlink("/arbor_diff_mq");
	mqd_t q = mq_open("/arbor_diff_mq", O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
	printf("mq_open O_CREAT|O_EXCL: %s\n", q != (mqd_t)-1 ? "mqd" : en(errno));
	printf("again with O_EXCL: %s\n",
	       mq_open("/arbor_diff_mq", O_RDWR | O_CREAT | O_EXCL, 0600, &attr) != (mqd_t)-1 ? "mqd" : en(errno));
	printf("missing without O_CREAT: %s\n", mq_open("/arbor_diff_nomq", O_RDWR) != (mqd_t)-1 ? "mqd" : en(errno));
	printf("no leading slash: %s\n", mq_open("arbor_diff_mq", O_RDWR) != (mqd_t)-1 ? "mqd" : en(errno));
	struct mq_attr bad = { .mq_maxmsg = 0, .mq_msgsize = 64 };
	printf("mq_maxmsg 0: %s\n", mq_open("/arbor_diff_bad", O_RDWR | O_CREAT, 0600, &bad) != (mqd_t)-1 ? "mqd" : en(errno));
	bad = (struct mq_attr){ .mq_maxmsg = 4, .mq_msgsize = -1 };
	printf("mq_msgsize -1: %s\n", mq_open("/arbor_diff_bad", O_RDWR | O_CREAT, 0600, &bad) != (mqd_t)-1 ? "mqd" : en(errno));

	mq_getattr(q, &got);
	printf("attr: flags %ld maxmsg %ld msgsize %ld curmsgs %ld\n", got.mq_flags, got.mq_maxmsg, got.mq_msgsize,
	       got.mq_curmsgs);
	SHOWE("send prio 1 \"a\"", mq_send(q, "a", 1, 1));
	SHOWE("send prio 5 \"b\"", mq_send(q, "b", 1, 5));
	SHOWE("send prio 1 \"c\"", mq_send(q, "c", 1, 1));
	SHOWE("send prio 5 \"d\"", mq_send(q, "dd", 2, 5));
	SHOWE("send prio MQ_PRIO_MAX", mq_send(q, "x", 1, MQ_PRIO_MAX));
	SHOWE("send 65 bytes", mq_send(q, "0123456789012345678901234567890123456789012345678901234567890123456789", 65, 0));
	struct timespec past = { 0, 0 }, bad_ts = { 0, 2000000000L };
	SHOWE("timedsend to a full queue, past", mq_timedsend(q, "e", 1, 0, &past));
	SHOWE("timedsend bad abstime", mq_timedsend(q, "e", 1, 0, &bad_ts));
	struct mq_attr nb = { .mq_flags = O_NONBLOCK }, old;
	SHOWE("setattr O_NONBLOCK", mq_setattr(q, &nb, &old));
	printf("old flags %ld\n", old.mq_flags);
	SHOWE("send to a full queue, O_NONBLOCK", mq_send(q, "e", 1, 0));
	nb.mq_flags = O_NONBLOCK | O_APPEND;
	SHOWE("setattr other flags", mq_setattr(q, &nb, NULL));
	mq_getattr(q, &got);
	printf("attr: flags O_NONBLOCK %d curmsgs %ld\n", got.mq_flags == O_NONBLOCK, got.mq_curmsgs);
	char buf[128];
	unsigned prio;
	printf("receive into 10 bytes: %s\n", mq_receive(q, buf, 10, &prio) >= 0 ? "ok" : en(errno));
	for (int i = 0; i < 4; i++) {
		ssize_t n = mq_receive(q, buf, sizeof(buf), &prio);
		printf("receive: %zd bytes \"%.*s\" prio %u\n", n, (int)(n > 0 ? n : 0), buf, prio);
	}
	printf("receive from an empty queue, O_NONBLOCK: %s\n", mq_receive(q, buf, sizeof(buf), &prio) >= 0 ? "ok" : en(errno));
	nb.mq_flags = 0;
	mq_setattr(q, &nb, NULL);
	printf("timedreceive, past: %s\n", mq_timedreceive(q, buf, sizeof(buf), &prio, &past) >= 0 ? "ok" : en(errno));

	mqd_t wo = mq_open("/arbor_diff_mq", O_WRONLY);
	printf("receive on a write-only mqd: %s\n", mq_receive(wo, buf, sizeof(buf), &prio) >= 0 ? "ok" : en(errno));
	mqd_t ro = mq_open("/arbor_diff_mq", O_RDONLY);
	SHOWE("send on a read-only mqd", mq_send(ro, "z", 1, 0));

	/* a child blocks in mq_receive until the parent sends */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char b[128];
		unsigned p = 0;
		ssize_t n = mq_receive(ro, b, sizeof(b), &p);
		_exit(n == 5 && memcmp(b, "hello", 5) == 0 && p == 7 ? 0 : 1);
	}
	usleep(30000);
	SHOWE("send \"hello\" prio 7 to the waiting child", mq_send(wo, "hello", 5, 7));
	int st = -1;
	waitpid(pid, &st, 0);
	printf("the child got it: %d\n", WIFEXITED(st) && WEXITSTATUS(st) == 0);

	SHOWE("mq_close", mq_close(wo));
	SHOWE("mq_close again", mq_close(wo));
	mq_close(ro);
	mq_close(q);
	SHOWE("mq_unlink", mq_unlink("/arbor_diff_mq"));
	SHOWE("mq_unlink again", mq_unlink("/arbor_diff_mq"));
	notify_tests();
	return 0;
}
