/* FIFOs' system calls beyond what diff_fifo.c compares with Linux
 * (fifo_create, fifo_open and fifo_wait: their handles and errors), and
 * the cancellation points that block on descriptors: pthread_cancel of a
 * thread waiting in poll, select, ppoll, read of a pipe, open of a FIFO,
 * accept, epoll_wait, sigwait, clock_nanosleep ends it, and one pending
 * before open or close ends the thread there. Prints TAP. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "abi/ipc.h"
#include "arbor/syscalls.h"

static int n, failed;
static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
	fflush(stdout);
}

static int pfd[2];
static volatile int reached;

static void *in_poll(void *a)
{
	(void)a;
	struct pollfd p = { .fd = pfd[0], .events = POLLIN };
	reached = 1;
	poll(&p, 1, -1);
	return (void *)1;
}

static void *in_select(void *a)
{
	(void)a;
	fd_set r;
	FD_ZERO(&r);
	FD_SET(pfd[0], &r);
	reached = 1;
	select(pfd[0] + 1, &r, NULL, NULL, NULL);
	return (void *)1;
}

static void *in_ppoll(void *a)
{
	(void)a;
	struct pollfd p = { .fd = pfd[0], .events = POLLIN };
	sigset_t all;
	sigfillset(&all); /* it cannot block the cancel */
	reached = 1;
	ppoll(&p, 1, NULL, &all);
	return (void *)1;
}

static void *in_read(void *a)
{
	(void)a;
	char c;
	reached = 1;
	read(pfd[0], &c, 1);
	return (void *)1;
}

static void *in_open(void *a)
{
	reached = 1;
	open((const char *)a, O_RDONLY); /* no writer ever comes */
	return (void *)1;
}

static void *in_accept(void *a)
{
	reached = 1;
	accept((int)(intptr_t)a, NULL, NULL);
	return (void *)1;
}

static void *in_epoll(void *a)
{
	struct epoll_event ev;
	reached = 1;
	epoll_wait((int)(intptr_t)a, &ev, 1, -1);
	return (void *)1;
}

static void *in_sigwait(void *a)
{
	(void)a;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	int sig;
	reached = 1;
	sigwait(&s, &sig);
	return (void *)1;
}

static void *in_clock_nanosleep(void *a)
{
	(void)a;
	struct timespec t = { .tv_sec = 3600 };
	reached = 1;
	clock_nanosleep(CLOCK_MONOTONIC, 0, &t, NULL);
	return (void *)1;
}

static void *pending_then(void *a)
{
	int what = (int)(intptr_t)a;
	while (!reached)
		sched_yield(); /* wait for the cancel to be pending */
	if (what == 0)
		open("/tmp", O_RDONLY);
	else
		close(dup(0));
	return (void *)1;
}

/* Cancels a thread running f once it is in its call: it must end with
 * PTHREAD_CANCELED. */
static void cancel_in(void *(*f)(void *), void *arg, const char *what)
{
	pthread_t t;
	reached = 0;
	pthread_create(&t, NULL, f, arg);
	while (!reached)
		sched_yield();
	usleep(30000); /* it sleeps in the call by now */
	pthread_cancel(t);
	void *r = NULL;
	pthread_join(t, &r);
	check(r == PTHREAD_CANCELED, what);
}

static void syscalls(void)
{
	int p[2];
	pipe(p);
	errno = 0;
	check(sys_fifo_open(200, O_RDONLY, -1) == -EBADF, "fifo.open_bad: fifo_open of no handle: EBADF");
	long again = sys_fifo_open(p[0], O_WRONLY, -1);
	char one;
	check(again >= 0 && sys_handle_type((int)again) == HANDLE_PIPE && write((int)again, "x", 1) == 1 &&
	      read(p[0], &one, 1) == 1 && one == 'x', "fifo.open_pipe_end: fifo_open of a pipe's end: a new end of that pipe");
	if (again >= 0)
		close((int)again);
	long node = sys_fifo_create();
	check(node >= 0 && sys_handle_type((int)node) == HANDLE_PIPE, "fifo_create: a pipe-kind handle");
	check(sys_fifo_open((int)node, O_RDONLY | O_NONBLOCK, 200) == -EBADF &&
		      sys_fifo_open((int)node, O_RDONLY | O_NONBLOCK, p[0]) == -EBADF,
	      "fifo.open_file_bad: a file that is no handle, or no channel: EBADF");
	check(sys_fifo_open((int)node, O_ACCMODE, -1) == -EINVAL && sys_fifo_open((int)node, O_RDONLY | O_APPEND, -1) == -EINVAL,
	      "fifo.open_flags: O_ACCMODE or another flag: EINVAL");
	char c;
	check(read((int)node, &c, 1) == -1 && errno == EBADF && write((int)node, "x", 1) == -1 && errno == EBADF,
	      "a node neither reads nor writes: EBADF");
	struct pollfd pl = { .fd = (int)node, .events = POLLIN | POLLOUT };
	check(poll(&pl, 1, 0) == 1 && pl.revents == POLLNVAL, "poll of a node: POLLNVAL");
	check(sys_fifo_open((int)node, O_WRONLY | O_NONBLOCK, -1) == -ENXIO, "O_WRONLY|O_NONBLOCK without a reader: ENXIO");
	long r = sys_fifo_open((int)node, O_RDONLY | O_NONBLOCK, -1);
	long w = sys_fifo_open((int)node, O_WRONLY, -1);
	check(r >= 0 && w >= 0 && sys_fifo_wait((int)r) == 0 && sys_fifo_wait((int)w) == 0,
	      "ends of both kinds; neither waits with the other there");
	check(write((int)w, "ab", 2) == 2 && read((int)r, &c, 1) == 1 && c == 'a', "data passes");
	check(fcntl((int)r, F_GETFL) == (O_RDONLY | O_NONBLOCK) && fcntl((int)w, F_GETFL) == O_WRONLY,
	      "F_GETFL: each end's mode");
	long rw = sys_fifo_open((int)node, O_RDWR, -1);
	check(rw >= 0 && fcntl((int)rw, F_GETFL) == O_RDWR && sys_fifo_wait((int)rw) == 0, "an O_RDWR end never waits");
	check(read((int)rw, &c, 1) == 1 && c == 'b' && write((int)rw, "c", 1) == 1, "... and both reads and writes");
	check(sys_fifo_wait(p[0]) == -EINVAL && sys_fifo_wait((int)node) == -EINVAL,
	      "fifo.wait_not_fifo: fifo_wait of a pipe's end or a node: EINVAL");
	check(sys_fifo_wait(200) == -EBADF, "fifo_wait of no handle: EBADF");
	sys_handle_close((int)node); /* the ends keep the pipe */
	check(read((int)r, &c, 1) == 1 && c == 'c', "the node gone, the ends go on");
	close((int)r);
	close((int)w);
	close((int)rw);

	/* open and its wait are two calls here (Linux's one): the other side
	 * that was open at the first may be gone by the second, and its wait
	 * must not then wait for another (the blocking open of diff_fifo.c
	 * hung so on two CPUs: its child wrote and exited in between) */
	node = sys_fifo_create();
	r = sys_fifo_open((int)node, O_RDONLY | O_NONBLOCK, -1);
	w = sys_fifo_open((int)node, O_WRONLY, -1);
	long r2 = sys_fifo_open((int)node, O_RDONLY, -1);
	close((int)w);
	close((int)r);
	alarm(20); /* a wait that never ends: SIGALRM, the test fails */
	check(r2 >= 0 && sys_fifo_wait((int)r2) == 0, "fifo.wait_gone_writer: a writer open at the open, gone by the wait: no wait");
	pl = (struct pollfd){ .fd = (int)r2, .events = POLLIN };
	check(poll(&pl, 1, 0) == 1 && pl.revents == POLLHUP, "... and it hangs up, as a reader that saw a writer (Linux)");
	long w2 = sys_fifo_open((int)node, O_WRONLY, -1);
	close((int)r2);
	check(w2 >= 0 && sys_fifo_wait((int)w2) == 0, "fifo.wait_gone_reader: a reader open at the open, gone by the wait: no wait");
	alarm(0);
	close((int)w2);
	sys_handle_close((int)node);
	close(p[0]);
	close(p[1]);
}

/* root's device nodes: kept with their number, never opened (ENXIO) */
static void devices(void)
{
	unlink("/tmp/fifo.cdev");
	struct stat st;
	check(mknod("/tmp/fifo.cdev", S_IFCHR | 0600, 1 << 8 | 3) == 0 && stat("/tmp/fifo.cdev", &st) == 0 &&
		      S_ISCHR(st.st_mode) && st.st_rdev == (1 << 8 | 3), "root: mknod S_IFCHR keeps the device number");
	errno = 0;
	check(open("/tmp/fifo.cdev", O_RDWR) == -1 && errno == ENXIO, "opening a device node: ENXIO");
	int fd = open("/tmp/fifo.cdev", O_PATH);
	check(fd >= 0, "O_PATH of it works");
	close(fd);
	unlink("/tmp/fifo.cdev");
}

int main(void)
{
	syscalls();
	devices();
	pipe(pfd);
	cancel_in(in_poll, NULL, "pthread_cancel ends a thread waiting in poll");
	cancel_in(in_select, NULL, "... in select");
	cancel_in(in_ppoll, NULL, "... in ppoll with every signal blocked");
	cancel_in(in_read, NULL, "... in read of an empty pipe");
	unlink("/tmp/fifo.cancel");
	mkfifo("/tmp/fifo.cancel", 0600);
	cancel_in(in_open, "/tmp/fifo.cancel", "... in open of a FIFO without a writer");
	int fd = open("/tmp/fifo.cancel", O_RDONLY | O_NONBLOCK);
	check(fd >= 0, "the FIFO opens after");
	close(fd);
	unlink("/tmp/fifo.cancel");
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	strcpy(a.sun_path + 1, "fifo-cancel"); /* abstract */
	bind(s, (struct sockaddr *)&a, sizeof(a.sun_family) + 1 + (socklen_t)strlen("fifo-cancel"));
	listen(s, 1);
	cancel_in(in_accept, (void *)(intptr_t)s, "... in accept");
	close(s);
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN };
	epoll_ctl(ep, EPOLL_CTL_ADD, pfd[0], &ev);
	cancel_in(in_epoll, (void *)(intptr_t)ep, "... in epoll_wait");
	close(ep);
	sigset_t u2;
	sigemptyset(&u2);
	sigaddset(&u2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &u2, NULL);
	cancel_in(in_sigwait, NULL, "... in sigwait");
	cancel_in(in_clock_nanosleep, NULL, "... in clock_nanosleep");
	/* a cancel pending when open or close starts ends the thread there */
	for (int i = 0; i < 2; i++) {
		pthread_t t;
		reached = 0;
		pthread_create(&t, NULL, pending_then, (void *)(intptr_t)i);
		pthread_cancel(t);
		reached = 1;
		void *r = NULL;
		pthread_join(t, &r);
		check(r == PTHREAD_CANCELED, i == 0 ? "a cancel pending at open ends the thread" :
						      "a cancel pending at close ends the thread");
	}
	/* the pipe still works for the main thread after all that */
	char c = 0;
	check(write(pfd[1], "z", 1) == 1 && read(pfd[0], &c, 1) == 1 && c == 'z', "the pipe is intact");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
