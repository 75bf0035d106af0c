/* Trust between users in the calls added last: the kernel's own checks,
 * made with raw system calls as well as through the C library, so that a
 * check only the library made shows up as a hole (docs/security.md names
 * each check here by its text). Run as root in a cgroup of its own with
 * the servers up (tmpfs on /); the unprivileged side forks and becomes
 * uid 1000 (or 1001).
 *
 * Sockets: connecting to a path (or sending a datagram to one) needs
 * write permission on the socket file, as Linux's unix_find_bsd; the
 * kernel checks it from the file's attributes, so a raw sock_connect with
 * an O_PATH descriptor of a root-only socket is EACCES like connect(3).
 * bind takes only a new socket file of the caller's own. */
#define _GNU_SOURCE 1
#include "arbor/syscalls.h"
#include "abi/socket.h"
#include <grp.h>
#include <mqueue.h>
#include <signal.h>
#include <stddef.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include "check.h"

#define DIR_PATH "/tmp/trust"
#define ROOT_SOCK DIR_PATH "/root.sock"      /* root's, 0600, listening */
#define ROOT_DGRAM DIR_PATH "/root.dgram"    /* root's datagram socket, 0600 */
#define STALE_SOCK DIR_PATH "/stale.sock"    /* root's, its socket closed */
#define PLAIN_FILE DIR_PATH "/plain"         /* a regular file, 0666 */
#define CLOSED_DIR DIR_PATH "/closed"        /* root's 0755: no one else creates here */

/* r (a raw system call's result) is want; says what it got when not. */
static void want(long r, long w, const char *what)
{
	if (r != w)
		printf("# %s: got %ld, want %ld\n", what, r, w);
	check(r == w, what);
}

/* A C library call's result as a raw call's: -errno on failure. */
static long res(long r)
{
	return r < 0 ? -errno : r;
}

static socklen_t path_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path, path);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path) + 1);
}

/* A socket of type bound to path (umask 0: mode as given by chmod after),
 * listening if a stream; the descriptor or -1. */
static int bound_socket(int type, const char *path, mode_t mode)
{
	struct sockaddr_un a;
	socklen_t l = path_addr(&a, path);
	int s = socket(AF_UNIX, type, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, l) || chmod(path, mode) ||
	    (type == SOCK_STREAM && listen(s, 8))) {
		printf("# could not make %s: errno %d\n", path, errno);
		return -1;
	}
	return s;
}

#define MAX_RES 16

/* Runs fn in a child with ids uid, gid (no supplementary groups); its
 * results (up to MAX_RES) come back through a pipe into out. 0, or -1 if
 * the child did not report. */
static int as_user(uid_t uid, gid_t gid, void (*fn)(long *out), long *out)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		long r[MAX_RES];
		for (int i = 0; i < MAX_RES; i++)
			r[i] = 0x7777;
		close(p[0]);
		if (setgroups(0, NULL) || setgid(gid) || setuid(uid))
			_exit(2);
		fn(r);
		_exit(write(p[1], r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 3);
	}
	close(p[1]);
	ssize_t got = 0;
	while (got < (ssize_t)(MAX_RES * sizeof(long))) {
		ssize_t k = read(p[0], (char *)out + got, MAX_RES * sizeof(long) - (size_t)got);
		if (k <= 0)
			break;
		got += k;
	}
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	if (got != (ssize_t)(MAX_RES * sizeof(long)) || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("# the child as uid %d did not report (status %#x)\n", (int)uid, st);
		return -1;
	}
	return 0;
}

/* The raw calls: sock_connect with an O_PATH descriptor of path. */
static long raw_connect(int s, const char *path, const char *addr_path)
{
	struct sockaddr_un a;
	socklen_t l = path_addr(&a, addr_path);
	int h = open(path, O_PATH | O_CLOEXEC);
	if (h < 0)
		return -1000 - errno;
	long r = sys_sock_connect(s, &a, l, h);
	close(h);
	return r;
}

static long raw_sendto(int s, const char *path)
{
	struct sockaddr_un a;
	socklen_t l = path_addr(&a, path);
	int h = open(path, O_PATH | O_CLOEXEC);
	if (h < 0)
		return -1000 - errno;
	struct iovec v = { "x", 1 };
	struct msghdr m = { &a, l, &v, 1, NULL, 0, 0 };
	long r = sys_sock_sendmsg(s, (const struct k_msghdr *)&m, MSG_DONTWAIT, h);
	close(h);
	return r;
}

static long raw_bind(int s, const char *path)
{
	struct sockaddr_un a;
	socklen_t l = path_addr(&a, path);
	int h = open(path, O_PATH | O_CLOEXEC);
	if (h < 0)
		return -1000 - errno;
	long r = sys_sock_bind(s, &a, l, h);
	close(h);
	return r;
}

/* uid 1000 against root's 0600 sockets. */
static void user_sockets(long *r)
{
	struct sockaddr_un a;
	socklen_t l = path_addr(&a, ROOT_SOCK);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	r[0] = res(connect(s, (struct sockaddr *)&a, l));
	r[1] = raw_connect(s, ROOT_SOCK, ROOT_SOCK);
	r[2] = sys_sock_connect(s, &a, l, K_SOCK_NO_NODE);
	/* a descriptor of another file of its own: that file is checked */
	r[3] = raw_connect(s, PLAIN_FILE, ROOT_SOCK);
	int d = socket(AF_UNIX, SOCK_DGRAM, 0);
	l = path_addr(&a, ROOT_DGRAM);
	r[4] = res(sendto(d, "x", 1, MSG_DONTWAIT, (struct sockaddr *)&a, l));
	r[5] = raw_sendto(d, ROOT_DGRAM);
	r[6] = res(connect(d, (struct sockaddr *)&a, l));
	r[7] = raw_connect(d, ROOT_DGRAM, ROOT_DGRAM);
	/* bind: root's files are not a user's to name */
	int b = socket(AF_UNIX, SOCK_STREAM, 0);
	r[8] = raw_bind(b, STALE_SOCK);
	r[9] = raw_bind(b, ROOT_SOCK);
	l = path_addr(&a, STALE_SOCK);
	r[10] = res(bind(b, (struct sockaddr *)&a, l));
	l = path_addr(&a, CLOSED_DIR "/mine.sock");
	r[11] = res(bind(b, (struct sockaddr *)&a, l));
	/* its own new socket file in a directory it may write */
	l = path_addr(&a, DIR_PATH "/user.sock");
	r[12] = res(bind(b, (struct sockaddr *)&a, l));
	r[13] = res(listen(b, 4));
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	r[14] = res(connect(c, (struct sockaddr *)&a, l));
	/* its own file, named once: not again, even by a raw call */
	int b2 = socket(AF_UNIX, SOCK_STREAM, 0);
	r[15] = raw_bind(b2, DIR_PATH "/user.sock");
}

/* uid 1000 once root made ROOT_SOCK 0666. */
static void user_after_chmod(long *r)
{
	r[0] = raw_connect(socket(AF_UNIX, SOCK_STREAM, 0), ROOT_SOCK, ROOT_SOCK);
}

/* Group write permission: ROOT_SOCK root:1000 0620. */
static void group_member(long *r)
{
	r[0] = raw_connect(socket(AF_UNIX, SOCK_STREAM, 0), ROOT_SOCK, ROOT_SOCK);
}

static void sockets(void)
{
	umask(0);
	mkdir("/tmp", 01777);
	mkdir(DIR_PATH, 0777);
	chmod(DIR_PATH, 0777);
	mkdir(CLOSED_DIR, 0755);
	int f = open(PLAIN_FILE, O_CREAT | O_WRONLY, 0666);
	close(f);
	int ls = bound_socket(SOCK_STREAM, ROOT_SOCK, 0600);
	int ds = bound_socket(SOCK_DGRAM, ROOT_DGRAM, 0600);
	int st = bound_socket(SOCK_STREAM, STALE_SOCK, 0600);
	close(st); /* its file stays, as Linux's */
	long r[MAX_RES];
	if (ls < 0 || ds < 0 || as_user(1000, 1000, user_sockets, r)) {
		check(0, "trust.sockets: the setup and the user's child");
		return;
	}
	want(r[0], -EACCES, "trust.sock_connect: connect(3) by uid 1000 to root's 0600 socket: EACCES");
	want(r[1], -EACCES, "trust.sock_connect: the raw call with the socket file's descriptor: EACCES");
	want(r[2], K_SOCK_NEED_NODE, "trust.sock_connect: the raw call without a node: the kernel asks for one");
	want(r[3], -ECONNREFUSED, "trust.sock_connect: a descriptor of a regular file: ECONNREFUSED");
	want(r[4], -EACCES, "trust.sock_sendmsg: sendto(3) by uid 1000 to root's 0600 datagram socket: EACCES");
	want(r[5], -EACCES, "trust.sock_sendmsg: the raw call with the socket file's descriptor: EACCES");
	want(r[6], -EACCES, "trust.sock_connect: a datagram connect(3) to it: EACCES");
	want(r[7], -EACCES, "trust.sock_connect: the raw datagram connect: EACCES");
	want(r[8], -EADDRINUSE, "trust.sock_bind: the raw bind to root's closed socket's file: EADDRINUSE");
	want(r[9], -EADDRINUSE, "trust.sock_bind: the raw bind to root's bound socket's file: EADDRINUSE");
	want(r[10], -EADDRINUSE, "trust.sock_bind: bind(3) to an existing file: EADDRINUSE");
	want(r[11], -EACCES, "trust.sock_bind: bind(3) in a directory it may not write: EACCES");
	want(r[12], 0, "trust.sock_bind: bind(3) of a new file of its own: bound");
	want(r[13] | r[14], 0, "trust.sock_bind: and reached by connect(3)");
	want(r[15], -EADDRINUSE, "trust.sock_bind: its own file bound once: EADDRINUSE");

	/* root too may not name a file twice, nor reach a closed one */
	int b = socket(AF_UNIX, SOCK_STREAM, 0);
	want(raw_bind(b, STALE_SOCK), -EADDRINUSE, "trust.sock_bind: root's raw bind to a file named before: EADDRINUSE");
	want(raw_connect(b, STALE_SOCK, STALE_SOCK), -ECONNREFUSED,
	     "trust.sock_connect: root to a closed socket's file: ECONNREFUSED");
	close(b);

	/* the kernel follows the file's mode and owner as they change */
	chmod(ROOT_SOCK, 0666);
	if (!as_user(1000, 1000, user_after_chmod, r))
		want(r[0], 0, "trust.sock_connect: after chmod 0666 uid 1000 connects");
	chmod(ROOT_SOCK, 0620);
	chown(ROOT_SOCK, 0, 1000);
	if (!as_user(1001, 1000, group_member, r))
		want(r[0], 0, "trust.sock_connect: 0620 root:1000, a member of group 1000 connects");
	if (!as_user(1001, 1001, group_member, r))
		want(r[0], -EACCES, "trust.sock_connect: 0620 root:1000, another group: EACCES");
	close(ls);
	close(ds);
	unlink(ROOT_SOCK);
	unlink(ROOT_DGRAM);
	unlink(STALE_SOCK);
	unlink(DIR_PATH "/user.sock");
	unlink(PLAIN_FILE);
	rmdir(CLOSED_DIR);
	rmdir(DIR_PATH);
}

/* memory.stat's "sock" of our cgroup (the pages of queued messages), or -1. */
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
	char *x = strstr(buf, "\nsock ");
	return x ? atol(x + 6) : -1;
}

/* Sends the n descriptors fds over sock with SCM_RIGHTS and one byte. */
static long send_fds(int sock, const int *fds, int nfd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(4 * sizeof(int))];
	} u;
	struct iovec v = { "F", 1 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_control = u.b;
	m.msg_controllen = CMSG_SPACE((size_t)nfd * sizeof(int));
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN((size_t)nfd * sizeof(int));
	memcpy(CMSG_DATA(c), fds, (size_t)nfd * sizeof(int));
	return sendmsg(sock, &m, MSG_DONTWAIT);
}

/* A chain of n socket pairs, each pair's receiving end in flight in the
 * previous one's queue, the head closed last: freeing it frees them all.
 * 1 if every send went. */
static int chain(int len)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 0;
	int head = sv[1], cur = sv[0], ok = 1;
	for (int i = 1; i < len && ok; i++) {
		int t[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, t))
			return 0;
		ok = send_fds(cur, &t[1], 1) == 1;
		close(t[1]);
		close(cur);
		cur = t[0];
	}
	close(cur);
	close(head);
	return ok;
}

/* Sockets passed in cycles and closed (Linux's unix_gc), and a long
 * chain of them freed without recursion. */
static void socket_cycles(void)
{
	long base = mem_sock();
	if (base < 0) { /* a test boot's cgroup without the memory controller */
		int fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY);
		if (fd >= 0) {
			write(fd, "+memory", 7);
			close(fd);
		}
		base = mem_sock();
	}
	int ok = 1;
	for (int i = 0; i < 40 && ok; i++) {
		int sv[2];
		ok = !socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
		ok = ok && send_fds(sv[0], sv, 2) == 1; /* both ends in b's queue */
		int pr[2];
		ok = ok && !socketpair(AF_UNIX, SOCK_STREAM, 0, pr);
		ok = ok && send_fds(pr[0], pr, 2) == 1 && send_fds(pr[1], pr, 2) == 1; /* each in both queues */
		close(sv[0]);
		close(sv[1]);
		close(pr[0]);
		close(pr[1]);
	}
	long held = mem_sock();
	/* one more socket's release collects them (as Linux's) */
	close(socket(AF_UNIX, SOCK_STREAM, 0));
	long after = mem_sock();
	printf("# sock: %ld before, %ld with the cycles, %ld after a release\n", base, held, after);
	check(ok && base >= 0 && held > base, "trust.sock_gc: 80 cycles of passed sockets, closed, hold their messages");
	check(after == base, "trust.sock_gc: a socket's release collects the cycles: memory.stat sock as before");
	/* a socket in flight in its own queue, and still open: not garbage */
	int sv[2];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	send_fds(sv[0], &sv[1], 1);
	close(socket(AF_UNIX, SOCK_STREAM, 0));
	int fd = -1;
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
	if (recvmsg(sv[1], &m, MSG_DONTWAIT) == 1 && CMSG_FIRSTHDR(&m))
		memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof(int));
	check(fd >= 0, "trust.sock_gc: a socket in flight that a descriptor still names is kept");
	close(fd);
	close(sv[0]);
	close(sv[1]);
	/* SCM_RIGHTS: at most 253 descriptors a message (Linux's SCM_MAX_FD),
	 * and the kernel's array of them charged with the message */
	static int many[254];
	int pr[2];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, pr);
	for (int i = 0; i < 254; i++)
		many[i] = pr[0];
	static union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(many))];
	} big;
	struct iovec bv = { "F", 1 };
	struct msghdr bm = { 0 };
	bm.msg_iov = &bv;
	bm.msg_iovlen = 1;
	bm.msg_control = big.b;
	bm.msg_controllen = CMSG_SPACE(sizeof(many));
	struct cmsghdr *c = CMSG_FIRSTHDR(&bm);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(many));
	memcpy(CMSG_DATA(c), many, sizeof(many));
	errno = 0;
	check_errno(sendmsg(pr[0], &bm, MSG_DONTWAIT), EINVAL, "trust.sock_sendmsg: 254 descriptors in one message: EINVAL");
	bm.msg_controllen = CMSG_SPACE(253 * sizeof(int));
	c->cmsg_len = CMSG_LEN(253 * sizeof(int));
	long before = mem_sock();
	long sent = sendmsg(pr[0], &bm, MSG_DONTWAIT);
	long grew = mem_sock() - before;
	printf("# sock grew by %ld for one byte with 253 descriptors\n", grew);
	check(sent == 1 && grew >= 8192, "trust.sock_sendmsg: 253 go, their array charged with the message (2 pages)");
	close(pr[0]);
	close(pr[1]);
	close(socket(AF_UNIX, SOCK_STREAM, 0)); /* pr[0] was in its own peer's queue */
	/* before: each link's release freed the next one's queue
	 * recursively, and 5000 links overflowed the 16 KiB kernel stack
	 * (panic); three frames a link, so 2000 is far past it */
	check(chain(2000), "trust.sock_gc: a chain of 2000 sockets each in flight in the last one's queue");
	close(socket(AF_UNIX, SOCK_STREAM, 0));
	check(mem_sock() == base, "trust.sock_gc: closing its head frees it all, without recursion");
}

static volatile int got_code = 99, got_pid, got_uid = -1;
static void on_rt(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	got_code = si->si_code;
	got_pid = si->si_pid;
	got_uid = (int)si->si_uid;
}

/* uid 1000: what a signal says of its sender is the kernel's; timers and
 * queued signals end at RLIMIT_SIGPENDING (EAGAIN), which it may not
 * raise. */
static void user_signals(long *r)
{
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN, &sa, NULL);
	sigqueue(getpid(), SIGRTMIN, (union sigval){ 7 });
	r[0] = got_code == SI_QUEUE && got_pid == getpid() && got_uid == 1000;
	got_code = 99;
	kill(getpid(), SIGRTMIN);
	r[1] = got_code == SI_USER && got_uid == 1000;
	/* sigqueue's si_code (before the timers below take all of
	 * RLIMIT_SIGPENDING): the C library's aio and message-queue codes
	 * carry the kernel's pid and uid too; never one a receiver trusts
	 * more (SI_USER, SI_KERNEL, SI_TKILL, SI_TIMER: EINVAL) */
	got_code = 99;
	long q = sys_sigqueue(getpid(), SIGRTMIN, 9, SI_MESGQ);
	r[5] = q == 0 && got_code == SI_MESGQ && got_pid == getpid() && got_uid == 1000;
	r[6] = sys_sigqueue(getpid(), SIGRTMIN, 9, SI_USER);
	r[7] = sys_sigqueue((int)getpid(), SIGRTMIN, 0, SI_KERNEL) == -EINVAL &&
	       sys_sigqueue((int)getpid(), SIGRTMIN, 0, SI_TKILL) == -EINVAL &&
	       sys_sigqueue((int)getpid(), SIGRTMIN, 0, SI_TIMER) == -EINVAL;
	got_code = 99;
	sys_sigqueue((int)getpid(), SIGRTMIN, 5, SI_ASYNCIO);
	r[8] = got_code == SI_ASYNCIO && got_pid == getpid() && got_uid == 1000;
	struct rlimit rl;
	getrlimit(RLIMIT_SIGPENDING, &rl);
	struct rlimit up = { rl.rlim_cur, rl.rlim_max + 1 };
	r[2] = res(setrlimit(RLIMIT_SIGPENDING, &up));
	/* timers without end: EAGAIN at the limit, not the kernel's memory */
	long made = 0;
	timer_t t;
	struct sigevent ev = { 0 };
	ev.sigev_notify = SIGEV_NONE;
	errno = 0;
	while (made < 100000 && timer_create(CLOCK_MONOTONIC, &ev, &t) == 0)
		made++;
	r[3] = errno == EAGAIN ? made : -errno;
	r[4] = (long)rl.rlim_cur;
}

/* uid 1000 after the timers are gone: queued real-time signals. */
static void user_queue(long *r)
{
	sigset_t all;
	sigemptyset(&all);
	sigaddset(&all, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &all, NULL);
	long queued = 0;
	errno = 0;
	while (queued < 100000 && sigqueue(getpid(), SIGRTMIN, (union sigval){ 1 }) == 0)
		queued++;
	r[0] = errno == EAGAIN ? queued : -errno;
}

static void signals(void)
{
	long r[MAX_RES];
	if (as_user(1000, 1000, user_signals, r)) {
		check(0, "trust.signals: the user's child");
		return;
	}
	check(r[0] == 1, "trust.sigqueue: si_code SI_QUEUE, si_pid and si_uid the kernel's (no call takes a siginfo)");
	check(r[1] == 1, "trust.sigqueue: kill's si_code SI_USER with the sender's uid");
	want(r[2], -EPERM, "trust.sigqueue: a user raising RLIMIT_SIGPENDING's hard limit: EPERM");
	printf("# %ld timers made before EAGAIN (RLIMIT_SIGPENDING %ld)\n", r[3], r[4]);
	check(r[3] > 0 && r[3] <= r[4], "trust.timer_create: timers without end stop at RLIMIT_SIGPENDING: EAGAIN");
	check(r[5] == 1, "trust.sigqueue: SI_MESGQ with the kernel's si_pid and si_uid");
	want(r[6], -EINVAL, "trust.sigqueue: si_code SI_USER asked for: EINVAL");
	check(r[7] == 1, "trust.sigqueue: codes SI_KERNEL, SI_TKILL, SI_TIMER: EINVAL");
	check(r[8] == 1, "trust.sigqueue: code SI_ASYNCIO (the C library's aio) with the kernel's si_pid and si_uid");
	if (as_user(1000, 1000, user_queue, r) == 0) {
		printf("# %ld real-time signals queued before EAGAIN\n", r[0]);
		check(r[0] > 0 && r[0] <= 4096, "trust.sigqueue: signals queued without end stop at RLIMIT_SIGPENDING: EAGAIN");
	}
}

/* uid 1000 and root's 0600 message queue and shared memory object; a
 * user's queue sizes. */
static void user_ipc(long *r)
{
	r[0] = mq_open("/trust_root", O_RDWR) == (mqd_t)-1 ? -errno : 0;
	r[1] = res(shm_open("/trust_root", O_RDONLY, 0));
	struct mq_attr a = { .mq_maxmsg = 11, .mq_msgsize = 64 };
	r[2] = mq_open("/trust_user", O_RDWR | O_CREAT, 0600, &a) == (mqd_t)-1 ? -errno : 0;
	a = (struct mq_attr){ .mq_maxmsg = 10, .mq_msgsize = 8193 };
	r[3] = mq_open("/trust_user", O_RDWR | O_CREAT, 0600, &a) == (mqd_t)-1 ? -errno : 0;
	a = (struct mq_attr){ .mq_maxmsg = 10, .mq_msgsize = 8192 };
	mqd_t q = mq_open("/trust_user", O_RDWR | O_CREAT, 0600, &a);
	r[4] = q == (mqd_t)-1 ? -errno : 0;
	mq_close(q);
	mq_unlink("/trust_user");
}

static void ipc_names(void)
{
	struct mq_attr a = { .mq_maxmsg = 65537, .mq_msgsize = 16 };
	errno = 0;
	check_errno(mq_open("/trust_big", O_RDWR | O_CREAT, 0600, &a) == (mqd_t)-1 ? -1 : 0, EINVAL,
		    "trust.mq_open: root past HARD_MSGMAX: EINVAL");
	a = (struct mq_attr){ .mq_maxmsg = 4, .mq_msgsize = 64 };
	mqd_t q = mq_open("/trust_root", O_RDWR | O_CREAT, 0600, &a);
	int shm = shm_open("/trust_root", O_RDWR | O_CREAT, 0600);
	long r[MAX_RES];
	if (q == (mqd_t)-1 || shm < 0 || as_user(1000, 1000, user_ipc, r)) {
		check(0, "trust.ipc: the setup and the user's child");
	} else {
		want(r[0], -EACCES, "trust.mq_open: uid 1000 opening root's 0600 queue: EACCES");
		want(r[1], -EACCES, "trust.shm_open: uid 1000 opening root's 0600 object: EACCES");
		want(r[2], -EINVAL, "trust.mq_open: a user's mq_maxmsg past msg_max 10: EINVAL");
		want(r[3], -EINVAL, "trust.mq_open: a user's mq_msgsize past msgsize_max 8192: EINVAL");
		want(r[4], 0, "trust.mq_open: a user's queue at the bounds opens");
	}
	mq_close(q);
	mq_unlink("/trust_root");
	close(shm);
	shm_unlink("/trust_root");
}

/* The arguments of eventfd, timerfd and signalfd: Linux's errnos. */
static void fd_args(void)
{
	errno = 0;
	check_errno(eventfd(0, 0x2), EINVAL, "trust.eventfd: unknown flags: EINVAL");
	check_errno(timerfd_create(12345, 0), EINVAL, "trust.timerfd_create: an unknown clock: EINVAL");
	check_errno(timerfd_create(CLOCK_MONOTONIC, 0x1), EINVAL, "trust.timerfd_create: unknown flags: EINVAL");
	int t = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its = { { 0, 0 }, { 0, 1000000000 } };
	check_errno(timerfd_settime(t, 0, &its, NULL), EINVAL, "trust.timerfd_settime: tv_nsec of a second: EINVAL");
	its.it_value.tv_nsec = 0;
	check_errno(timerfd_settime(t, 0x10, &its, NULL), EINVAL, "trust.timerfd_settime: unknown flags: EINVAL");
	close(t);
	sigset_t m;
	sigemptyset(&m);
	check_errno(signalfd(-1, &m, 0x1), EINVAL, "trust.signalfd: unknown flags: EINVAL");
	int e = eventfd(0, 0);
	check_errno(signalfd(e, &m, 0), EINVAL, "trust.signalfd: a descriptor that is not a signalfd: EINVAL");
	close(e);
}

#define DELEG "/sys/fs/cgroup/trust_deleg"

/* uid 1000 with a write handle to the cgroup.procs of a cgroup delegated
 * to it, from a cgroup of root's: the kernel's check of the common
 * ancestor (the root cgroup's cgroup.procs, root's), not the library's
 * open, says no. */
static void user_fork_into(long *r)
{
	int h = open(DELEG "/cgroup.procs", O_WRONLY);
	r[0] = h < 0 ? -errno : 0;
	long pid = sys_fork_into(h);
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	r[1] = pid > 0 ? 1 : pid;
}

static void fork_into(void)
{
	long r[MAX_RES];
	if (mkdir(DELEG, 0755) || chown(DELEG, 1000, 1000) || chown(DELEG "/cgroup.procs", 1000, 1000) ||
	    as_user(1000, 1000, user_fork_into, r)) {
		check(0, "trust.fork_into: the delegated cgroup and the user's child");
	} else {
		want(r[0], 0, "trust.fork_into: uid 1000 opens its delegated cgroup's cgroup.procs for writing");
		want(r[1], -EACCES, "trust.fork_into: the raw call from root's cgroup: EACCES (the common ancestor's)");
	}
	rmdir(DELEG);
}

/* proc_fd as uid 1000: its own list, nothing of root's. */
static int procfd_root_pid;
static void user_procfd(long *r)
{
	int32_t fds[PROC_FD_MAX];
	struct k_fdserver who;
	r[0] = sys_proc_fd(PROC_FD_LIST, 0, 0, fds, PROC_FD_MAX);
	r[1] = sys_proc_fd(PROC_FD_LIST, procfd_root_pid, 0, fds, PROC_FD_MAX);
	r[2] = sys_proc_fd(PROC_FD_DUP, 0, 1, NULL, 0);
	r[3] = sys_proc_fd(PROC_FD_DUP, procfd_root_pid, 1, NULL, 0);
	r[4] = sys_proc_fd(PROC_FD_SERVER, procfd_root_pid, 1, &who, sizeof(who));
	r[5] = sys_proc_fd(PROC_FD_FLAGS, procfd_root_pid, 1, NULL, 0);
	/* another process of the same user: readlink yes, open no (it would
	 * get a copy of this description) */
	int p[2];
	pipe(p);
	pid_t me = getpid(), c = fork();
	if (c == 0) {
		char path[64], buf[64];
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)me, p[0]);
		int o = open(path, O_RDONLY);
		int e = errno;
		_exit((o < 0 && e == EACCES ? 1 : 0) | (readlink(path, buf, sizeof(buf)) > 0 ? 2 : 0));
	}
	int st = 0;
	waitpid(c, &st, 0);
	r[6] = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", p[0]);
	int o = open(self, O_WRONLY);
	r[7] = o >= 0 && write(o, "x", 1) == 1 ? 0 : -errno;
	close(o);
	close(p[0]);
	close(p[1]);
}

static void procfd(void)
{
	long r[MAX_RES];
	int32_t fds[PROC_FD_MAX];
	procfd_root_pid = getpid();
	want(sys_proc_fd(PROC_FD_LIST, 0, 0, (int32_t *)8, PROC_FD_MAX), -EFAULT,
	     "trust.procfd: PROC_FD_LIST to a bad buffer: EFAULT");
	want(sys_proc_fd(PROC_FD_LIST, 0x7ffffff0, 0, fds, PROC_FD_MAX), -ESRCH,
	     "trust.procfd: PROC_FD_LIST of no process: ESRCH");
	want(sys_proc_fd(PROC_FD_DUP, 0, 199, NULL, 0), -EBADF, "trust.procfd: PROC_FD_DUP of no descriptor: EBADF");
	want(sys_proc_fd(9, 0, 0, NULL, 0), -EINVAL, "trust.procfd: an unknown op: EINVAL");
	if (as_user(1000, 1000, user_procfd, r)) {
		check(0, "trust.procfd: the user's child");
		return;
	}
	check(r[0] >= 3, "trust.procfd: as a user: LIST of its own descriptors");
	want(r[1], -EPERM, "trust.procfd: as a user: LIST of another process EPERM");
	want(r[2], -EPERM, "trust.procfd: as a user: DUP EPERM, even of its own");
	want(r[3], -EPERM, "trust.procfd: as a user: DUP of root's EPERM");
	want(r[4], -EPERM, "trust.procfd: as a user: SERVER EPERM");
	want(r[5], -EPERM, "trust.procfd: as a user: FLAGS EPERM");
	want(r[6], 3, "trust.procfd: as a user: another process of its own: readlink, but open through the link EACCES");
	want(r[7], 0, "trust.procfd: as a user: its own pipe's read end reopened for writing");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	procfd();
	sockets();
	socket_cycles();
	signals();
	ipc_names();
	fd_args();
	fork_into();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
