/* Unix-domain sockets (kernel/ipc/unix.c, docs/sockets.md): what the
 * differential test cannot show -- bad pointers (EFAULT, not a crash),
 * handle rights travelling with SCM_RIGHTS, credentials a sender may not
 * claim, memory.stat "sock" and the per-socket bound, waits that end
 * (blocking connect, poll, SO_SNDTIMEO, a signal). Run in /posix_sockets. */
#define _GNU_SOURCE 1
#include "abi/ipc.h"
#include "arbor/syscalls.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

#define KERNEL_PTR ((void *)0xffff800000001000ull)
#define UNMAPPED_PTR ((void *)8)

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000 };
	nanosleep(&ts, NULL);
}

static socklen_t abstract_addr(struct sockaddr_un *a, const char *tag)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	int k = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "posix-sockets-%s", tag);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + k);
}

static void efault(void)
{
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	errno = 0;
	check(socketpair(AF_UNIX, SOCK_STREAM, 0, KERNEL_PTR) == -1 && errno == EFAULT,
	      "socketpair into a kernel address: EFAULT");
	errno = 0;
	check(connect(s, UNMAPPED_PTR, sizeof(struct sockaddr_un)) == -1 && errno == EFAULT,
	      "connect with an unmapped address: EFAULT");
	errno = 0;
	check(bind(s, KERNEL_PTR, sizeof(struct sockaddr_un)) == -1 && errno == EFAULT,
	      "bind with a kernel address: EFAULT");
	errno = 0;
	check(sendmsg(s, UNMAPPED_PTR, 0) == -1 && errno == EFAULT, "sendmsg with an unmapped msghdr: EFAULT");
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "x", 1);
	errno = 0;
	check(read(sv[1], KERNEL_PTR, 1) == -1 && errno == EFAULT, "read into a kernel address: EFAULT");
	socklen_t l = 4;
	errno = 0;
	check(getsockopt(s, SOL_SOCKET, SO_TYPE, KERNEL_PTR, &l) == -1 && errno == EFAULT,
	      "getsockopt into a kernel address: EFAULT");
	int p[2];
	pipe(p);
	errno = 0;
	check(listen(p[0], 1) == -1 && errno == ENOTSOCK, "listen on a pipe: ENOTSOCK");
	errno = 0;
	check(shutdown(99, SHUT_RD) == -1 && errno == EBADF, "shutdown of no descriptor: EBADF");
	struct sockaddr_un a;
	l = sizeof(a);
	errno = 0;
	check(getsockname(p[1], (struct sockaddr *)&a, &l) == -1 && errno == ENOTSOCK, "getsockname of a pipe: ENOTSOCK");
	l = sizeof(a);
	errno = 0;
	check(getsockname(s, KERNEL_PTR, &l) == -1 && errno == EFAULT, "getsockname into a kernel address: EFAULT");
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
	close(s);
}

/* Sends fd over sock with SCM_RIGHTS: sendmsg's result. */
static long send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec v = { "F", 1 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_control = u.b;
	m.msg_controllen = sizeof(u.b);
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m, 0);
}

static int recv_fd(int sock)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} u;
	char one;
	struct iovec v = { &one, 1 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_control = u.b;
	m.msg_controllen = sizeof(u.b);
	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int fd = -1;
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static void rights(void)
{
	int sv[2], p[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	int keep = (int)sys_handle_dup(p[1], 0, 0);
	sys_handle_rights(keep, HANDLE_RIGHT_WRITE | HANDLE_RIGHT_DUP);
	errno = 0;
	check(send_fd(sv[0], keep) == -1 && errno == EPERM,
	      "SCM_RIGHTS of a descriptor without TRANSFER: EPERM");
	check(send_fd(sv[0], p[0]) == 1, "SCM_RIGHTS of a pipe's read end");
	int got = recv_fd(sv[1]);
	errno = 0;
	check(got >= 0 && write(got, "x", 1) == -1 && errno == EBADF,
	      "a passed read end keeps its rights: write EBADF");
	long r = sys_handle_rights(got, -1);
	check(r == (HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ), "the passed descriptor has exactly the sender's rights");
	close(got);
	close(keep);
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
}

static long send_creds(int sock, pid_t pid, uid_t uid, gid_t gid)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(struct ucred))];
	} u;
	struct iovec v = { "C", 1 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_control = u.b;
	m.msg_controllen = sizeof(u.b);
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(struct ucred));
	struct ucred cr = { pid, uid, gid };
	memcpy(CMSG_DATA(c), &cr, sizeof(cr));
	return sendmsg(sock, &m, 0);
}

static void creds(void)
{
	int sv[2];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	int one = 1;
	setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	check(send_creds(sv[0], getpid(), 4321, 1234) == 1, "root may claim another uid and gid");
	pid_t pid = fork();
	if (pid == 0) {
		setgid(1000);
		setuid(1000);
		int ok = 1;
		errno = 0;
		ok &= send_creds(sv[0], getpid(), 0, 1000) == -1 && errno == EPERM;
		errno = 0;
		ok &= send_creds(sv[0], getppid(), 1000, 1000) == -1 && errno == EPERM;
		errno = 0;
		ok &= send_creds(sv[0], getpid(), 1000, 0) == -1 && errno == EPERM;
		ok &= send_creds(sv[0], getpid(), 1000, 1000) == 1;
		ok &= send(sv[0], "plain", 5, 0) == 5;
		_exit(ok ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a user claiming another uid, gid or pid: EPERM; its own: sent");
	struct ucred seen[3];
	int k;
	for (k = 0; k < 3; k++) {
		union {
			struct cmsghdr h;
			char b[CMSG_SPACE(sizeof(struct ucred))];
		} u;
		char data[8];
		struct iovec v = { data, sizeof(data) };
		struct msghdr m = { 0 };
		m.msg_iov = &v;
		m.msg_iovlen = 1;
		m.msg_control = u.b;
		m.msg_controllen = sizeof(u.b);
		if (recvmsg(sv[1], &m, MSG_DONTWAIT) < 0 || !CMSG_FIRSTHDR(&m))
			break;
		memcpy(&seen[k], CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof(seen[k]));
	}
	check(k == 3 && seen[0].uid == 4321 && seen[0].gid == 1234 && seen[1].pid == pid && seen[1].uid == 1000 &&
	      seen[2].pid == pid && seen[2].uid == 1000 && seen[2].gid == 1000,
	      "SCM_CREDENTIALS: what was claimed, and the kernel's ids for a plain send");
	close(sv[0]);
	close(sv[1]);
}

/* memory.stat's "sock" of our cgroup, or -1. */
static long mem_sock(void)
{
	char cg[256], path[512], buf[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f || !fgets(cg, sizeof(cg), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	cg[strcspn(cg, "\n")] = 0;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.stat", cg + 3); /* "0::/x" */
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = 0;
	char *s = strstr(buf, "\nsock ");
	return s ? atol(s + 6) : -1;
}

static void memory(void)
{
	static char big[100000];
	int sv[2];
	long base = mem_sock();
	if (base < 0) { /* a test boot's cgroup without the memory controller */
		int fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY);
		if (fd >= 0) {
			write(fd, "+memory", 7);
			close(fd);
		}
		base = mem_sock();
	}
	check(base >= 0, "memory.stat has sock");
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv);
	long w = write(sv[0], big, sizeof(big));
	long held = mem_sock();
	check(w == (long)sizeof(big) && held >= base + (long)sizeof(big),
	      "memory.stat sock grows by the bytes queued");
	long r = 0, k;
	while ((k = read(sv[1], big, sizeof(big))) > 0)
		r += k;
	check(r == (long)sizeof(big) && mem_sock() == base, "memory.stat sock falls back when they are read");
	write(sv[0], big, sizeof(big));
	close(sv[0]);
	close(sv[1]);
	check(mem_sock() == base, "closing sockets with data queued uncharges it");

	/* the bound: SO_SNDBUF (doubled) and a message's worth */
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv);
	int size = 8192;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	long total = 0;
	errno = 0;
	while ((k = write(sv[0], big, 1000)) > 0)
		total += k;
	check(errno == EAGAIN && total >= 8192 && total <= 16384, "a full queue: EAGAIN within SO_SNDBUF");
	close(sv[0]);
	close(sv[1]);
	/* a socket closed in flight, with data queued at it */
	int inner[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	socketpair(AF_UNIX, SOCK_STREAM, 0, inner);
	write(inner[0], big, 50000);
	long sent = send_fd(sv[0], inner[1]);
	close(inner[0]);
	close(inner[1]);
	close(sv[0]);
	close(sv[1]);
	check(sent == 1 && mem_sock() == base, "a socket closed in flight frees its queue: no leak");
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	long w = write(fd, text, strlen(text));
	close(fd);
	return w == (long)strlen(text) ? 0 : -1;
}

/* A sender whose cgroup is at memory.max: its send fails (ENOBUFS), the
 * socket buffers being charged to it. */
#define MAX_CG "/sys/fs/cgroup/posix_sockets_max"
static void memory_max(void)
{
	put("/sys/fs/cgroup/cgroup.subtree_control", "+memory"); /* may be on already */
	mkdir(MAX_CG, 0755);
	pid_t pid = fork();
	if (pid == 0) {
		static char chunk[65536];
		char cur[32] = "", lim[32];
		if (put(MAX_CG "/cgroup.procs", "0"))
			_exit(2);
		int fd = open(MAX_CG "/memory.current", O_RDONLY);
		long got = fd >= 0 ? read(fd, cur, sizeof(cur) - 1) : -1;
		close(fd);
		if (got <= 0)
			_exit(3);
		snprintf(lim, sizeof(lim), "%ld", atol(cur) + (1l << 20)); /* 1 MiB more */
		if (put(MAX_CG "/memory.max", lim))
			_exit(4);
		for (int i = 0; i < 64; i++) {
			int sv[2];
			if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
				_exit(errno == ENOMEM ? 5 : 6);
			long w;
			while ((w = write(sv[0], chunk, sizeof(chunk))) > 0)
				;
			if (errno == ENOBUFS)
				_exit(0);
			if (errno != EAGAIN)
				_exit(7);
		}
		_exit(8);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("# child status %#x\n", st);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "past memory.max a send fails: ENOBUFS");
	rmdir(MAX_CG);
}

static void waits(void)
{
	struct sockaddr_un a;
	socklen_t al = abstract_addr(&a, "wait");
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(l, (struct sockaddr *)&a, al);
	listen(l, 0);
	int c1 = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(c1, (struct sockaddr *)&a, al);
	pid_t pid = fork();
	if (pid == 0) {
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		_exit(connect(c, (struct sockaddr *)&a, al) == 0 ? 0 : 1);
	}
	sleep_ms(100);
	int st = 0;
	check(waitpid(pid, &st, WNOHANG) == 0, "a connect past the backlog waits");
	int s1 = accept(l, NULL, NULL);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "and completes once accept makes room");
	close(s1);
	close(c1);
	close(l);

	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid = fork();
	if (pid == 0) {
		sleep_ms(50);
		write(sv[1], "w", 1);
		_exit(0);
	}
	struct pollfd p = { sv[0], POLLIN, 0 };
	int r = poll(&p, 1, 5000);
	check(r == 1 && (p.revents & POLLIN), "poll wakes when data arrives");
	waitpid(pid, NULL, 0);

	int size = 4096;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	struct timeval tv = { 0, 100000 };
	setsockopt(sv[0], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	static char chunk[2048];
	errno = 0;
	long k;
	while ((k = send(sv[0], chunk, sizeof(chunk), 0)) > 0)
		;
	check(k == -1 && errno == EAGAIN, "SO_SNDTIMEO: a blocked send gives EAGAIN");
	close(sv[0]);
	close(sv[1]);
}

static volatile int got_usr1;
static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static void interrupted(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1; /* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		sleep_ms(100);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	char c;
	errno = 0;
	long r = recv(sv[0], &c, 1, 0);
	check(r == -1 && errno == EINTR && got_usr1, "a signal interrupts a blocked recv: EINTR");
	waitpid(pid, NULL, 0);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	efault();
	rights();
	creds();
	memory();
	memory_max();
	waits();
	interrupted();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
