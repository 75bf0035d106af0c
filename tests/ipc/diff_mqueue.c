/* Differential test: POSIX message queues as a Linux program uses them:
 * mq_open's errors (O_CREAT|O_EXCL, missing, bad attributes, a name
 * without its slash), priority order (highest first, oldest first within
 * one), O_NONBLOCK's EAGAIN, EMSGSIZE, EBADF for the wrong direction,
 * timed send and receive, mq_getattr/mq_setattr, and a queue shared with
 * a child process that blocks on it. Prints results and errno names,
 * byte for byte as Linux. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
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
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EMSGSIZE: return "EMSGSIZE";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EACCES: return "EACCES";
	default: return "other";
	}
}

#define SHOWE(what, call) printf("%s: %s\n", what, (call) == 0 ? "0" : en(errno))

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
	return 0;
}
