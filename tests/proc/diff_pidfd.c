/* Differential test: process descriptors (<sys/pidfd.h>): pidfd_open's
 * errors and close-on-exec, poll readable once the process ended (and
 * not before), pidfd_send_signal to a live process, a zombie (no effect)
 * and a reaped one (ESRCH), its errors. The host's output is the
 * reference. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case EPERM: return "EPERM";
	default: return "another errno";
	}
}

static void show(const char *what, long r)
{
	printf("%-40s %ld %s\n", what, r, r < 0 ? ename(errno) : "");
	fflush(stdout);
}

static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, ms);
	return r < 0 ? -1 : r == 1 && (p.revents & POLLIN) ? 1 : 0;
}

int main(void)
{
	int self = pidfd_open(getpid(), 0);
	show("pidfd_open(self) >= 0", self >= 0);
	show("its FD_CLOEXEC", fcntl(self, F_GETFD) & FD_CLOEXEC);
	show("poll of a live process (self)", readable(self, 0));
	close(self);
	errno = 0;
	show("pidfd_open(-1)", pidfd_open(-1, 0));
	show("pidfd_open(0)", pidfd_open(0, 0));
	show("pidfd_open(self, 1)", pidfd_open(getpid(), 1));
	show("pidfd_open(4000000)", pidfd_open(4000000, 0));
	show("pidfd_open(self, PIDFD_NONBLOCK) >= 0", pidfd_open(getpid(), PIDFD_NONBLOCK) >= 0);
	show("pidfd_send_signal(stdin)", pidfd_send_signal(0, 0, NULL, 0));
	show("pidfd_send_signal(99)", pidfd_send_signal(99, 0, NULL, 0));

	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		for (;;)
			pause();
	}
	int fd = pidfd_open(c, 0);
	show("pidfd_open(child) >= 0", fd >= 0);
	show("poll while it runs", readable(fd, 50));
	show("pidfd_send_signal 0", pidfd_send_signal(fd, 0, NULL, 0));
	show("pidfd_send_signal flags 8", pidfd_send_signal(fd, SIGTERM, NULL, 8));
	show("pidfd_send_signal sig 99", pidfd_send_signal(fd, 99, NULL, 0));
	show("pidfd_send_signal SIGTERM", pidfd_send_signal(fd, SIGTERM, NULL, 0));
	show("poll after it ended", readable(fd, 5000));
	show("pidfd_send_signal to the zombie", pidfd_send_signal(fd, SIGTERM, NULL, 0));
	int st = 0;
	waitpid(c, &st, 0);
	printf("child killed by SIGTERM: %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM ? "yes" : "no");
	show("pidfd_send_signal after reaping", pidfd_send_signal(fd, SIGTERM, NULL, 0));
	show("poll after reaping", readable(fd, 0));
	show("syscall(SYS_pidfd_open, self) >= 0", syscall(SYS_pidfd_open, getpid(), 0) >= 0);
	close(fd);

	fflush(stdout);
	c = fork();
	if (c == 0)
		_exit(3);
	fd = pidfd_open(c, 0);
	show("poll of a child that exits", readable(fd, 5000));
	waitpid(c, &st, 0);
	printf("it exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
