/* Differential test: Unix-domain sockets (issue 21 item 8) -- a stream
 * echo server and client over fork on a path, datagram and seqpacket
 * message boundaries, abstract names, passing a descriptor (and one
 * closed in flight), SO_PEERCRED and SCM_CREDENTIALS after setuid, socket
 * options, poll readiness, shutdown, SIGPIPE, the backlog and the errnos.
 * It prints what happened (values, errno names), never pids or
 * descriptor numbers, so its output compares with Linux byte for byte. */
#define _GNU_SOURCE 1
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
#include <unistd.h>

#define SOCK_PATH "/tmp/diff_unix.sock"
#define SOCK_PATH2 "/tmp/diff_unix2.sock"

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EPIPE: return "EPIPE";
	case ENOTSOCK: return "ENOTSOCK";
	case EMSGSIZE: return "EMSGSIZE";
	case EPROTOTYPE: return "EPROTOTYPE";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
	case ESOCKTNOSUPPORT: return "ESOCKTNOSUPPORT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EADDRINUSE: return "EADDRINUSE";
	case ECONNRESET: return "ECONNRESET";
	case EISCONN: return "EISCONN";
	case ENOTCONN: return "ENOTCONN";
	case ECONNREFUSED: return "ECONNREFUSED";
	case ENXIO: return "ENXIO";
	case EDOM: return "EDOM";
	default: return "other";
	}
}

/* "r=N" or "-1 ENAME" for a call's result. */
static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1 %s\n", what, en(errno));
	else
		printf("%s: %ld\n", what, r);
}

static socklen_t path_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path, path);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path) + 1);
}

/* An abstract name unique to this run (the pid, never printed). */
static socklen_t abstract_addr(struct sockaddr_un *a, const char *tag)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	int n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "diffunix-%s-%08d", tag, (int)getpid());
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static void show_name(const char *what, const struct sockaddr_un *a, socklen_t len)
{
	printf("%s: len %u", what, (unsigned)len);
	if (len > offsetof(struct sockaddr_un, sun_path)) {
		if (a->sun_path[0])
			printf(" path %s", a->sun_path);
		else
			printf(" abstract (%u bytes)", (unsigned)(len - offsetof(struct sockaddr_un, sun_path)));
	}
	printf("\n");
}

static void stream_pair(void)
{
	int sv[2];
	char buf[64];
	printf("-- stream socketpair\n");
	show("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	show("write abc", write(sv[0], "abc", 3));
	show("write def", write(sv[0], "def", 3));
	long n = read(sv[1], buf, sizeof(buf));
	printf("read: %ld '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	show("send peek", send(sv[1], "xyz", 3, 0));
	n = recv(sv[0], buf, 2, MSG_PEEK);
	printf("recv peek 2: %ld '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	n = recv(sv[0], buf, sizeof(buf), 0);
	printf("recv: %ld '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	show("recv dontwait", recv(sv[0], buf, sizeof(buf), MSG_DONTWAIT));
	struct stat st;
	fstat(sv[0], &st);
	printf("fstat: S_ISSOCK %d\n", S_ISSOCK(st.st_mode));
	printf("getfl: %d\n", fcntl(sv[0], F_GETFL) & O_ACCMODE);
	struct pollfd p = { sv[0], POLLIN | POLLOUT | POLLRDHUP, 0 };
	poll(&p, 1, 0);
	printf("poll idle: %#x\n", p.revents);
	write(sv[1], "q", 1);
	poll(&p, 1, 0);
	printf("poll data: %#x\n", p.revents);
	show("shutdown SHUT_WR", shutdown(sv[1], SHUT_WR));
	poll(&p, 1, 0);
	printf("poll peer shut wr: %#x\n", p.revents);
	n = read(sv[0], buf, sizeof(buf));
	printf("read: %ld\n", n);
	show("read after shutdown", read(sv[0], buf, sizeof(buf)));
	show("write to shut peer", write(sv[0], "back", 4));
	n = read(sv[1], buf, sizeof(buf));
	printf("peer read: %ld '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	show("write after own shut wr", send(sv[1], "z", 1, MSG_NOSIGNAL));
	close(sv[1]);
	p.revents = 0;
	poll(&p, 1, 0);
	printf("poll peer closed: %#x\n", p.revents);
	show("read after close", read(sv[0], buf, sizeof(buf)));
	show("send after close NOSIGNAL", send(sv[0], "z", 1, MSG_NOSIGNAL));
	close(sv[0]);
}

static volatile int got_pipe;
static void on_pipe(int sig)
{
	(void)sig;
	got_pipe++;
}

static void sigpipe(void)
{
	int sv[2];
	printf("-- SIGPIPE\n");
	signal(SIGPIPE, on_pipe);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	close(sv[1]);
	show("write", write(sv[0], "x", 1));
	printf("SIGPIPE caught: %d\n", got_pipe);
	show("send MSG_NOSIGNAL", send(sv[0], "x", 1, MSG_NOSIGNAL));
	printf("SIGPIPE caught: %d\n", got_pipe);
	close(sv[0]);
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	close(sv[1]);
	show("seqpacket send to closed", send(sv[0], "x", 1, MSG_NOSIGNAL));
	close(sv[0]);
	signal(SIGPIPE, SIG_DFL);
}

static void echo_server(void)
{
	struct sockaddr_un a, got;
	socklen_t len = path_addr(&a, SOCK_PATH), gl;
	char buf[64];
	printf("-- stream echo over a path\n");
	unlink(SOCK_PATH);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	show("bind", bind(s, (struct sockaddr *)&a, len));
	struct stat st;
	show("stat socket file", stat(SOCK_PATH, &st));
	printf("S_ISSOCK %d mode %o\n", S_ISSOCK(st.st_mode), (unsigned)(st.st_mode & 0777));
	show("open socket file", open(SOCK_PATH, O_RDONLY));
	int s2 = socket(AF_UNIX, SOCK_STREAM, 0);
	show("bind same path", bind(s2, (struct sockaddr *)&a, len));
	show("bind bound socket", bind(s, (struct sockaddr *)&a, len));
	show("connect before listen", connect(s2, (struct sockaddr *)&a, len));
	close(s2);
	show("listen", listen(s, 4));
	gl = sizeof(got);
	getsockname(s, (struct sockaddr *)&got, &gl);
	show_name("getsockname", &got, gl);
	int one = 0;
	socklen_t ol = sizeof(one);
	getsockopt(s, SOL_SOCKET, SO_ACCEPTCONN, &one, &ol);
	printf("SO_ACCEPTCONN %d\n", one);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a, len)) {
			printf("child connect: %s\n", en(errno));
			_exit(1);
		}
		struct sockaddr_un pn;
		socklen_t pl = sizeof(pn);
		getpeername(c, (struct sockaddr *)&pn, &pl);
		show_name("child getpeername", &pn, pl);
		pl = sizeof(pn);
		getsockname(c, (struct sockaddr *)&pn, &pl);
		show_name("child getsockname", &pn, pl);
		for (int i = 0; i < 3; i++) {
			char msg[32], back[32];
			int m = snprintf(msg, sizeof(msg), "hello %d", i);
			write(c, msg, (size_t)m);
			long k = 0;
			while (k < m) {
				long r = read(c, back + k, sizeof(back) - (size_t)k);
				if (r <= 0)
					break;
				k += r;
			}
			printf("child echo: '%.*s'\n", (int)k, back);
			fflush(stdout);
		}
		close(c);
		_exit(0);
	}
	/* the server prints once the child is done: one order of lines */
	struct sockaddr_un got2;
	socklen_t gl2 = sizeof(got2);
	gl = sizeof(got);
	int c = accept(s, (struct sockaddr *)&got, &gl);
	int ae = errno;
	getsockname(c, (struct sockaddr *)&got2, &gl2);
	long n, total = 0;
	while ((n = read(c, buf, sizeof(buf))) > 0) {
		write(c, buf, (size_t)n);
		total += n;
	}
	int status;
	waitpid(pid, &status, 0);
	printf("accept: %s\n", c >= 0 ? "ok" : en(ae));
	show_name("accept addr", &got, gl);
	show_name("accepted getsockname", &got2, gl2);
	printf("server echoed %ld bytes, then read %ld\n", total, n);
	printf("child exit %d\n", WEXITSTATUS(status));
	close(c);
	close(s);
	show("connect after close", ({
		int t = socket(AF_UNIX, SOCK_STREAM, 0);
		int r = connect(t, (struct sockaddr *)&a, len);
		int e = errno;
		close(t);
		errno = e;
		r;
	}));
	unlink(SOCK_PATH);
	int t = socket(AF_UNIX, SOCK_STREAM, 0);
	show("connect to missing path", connect(t, (struct sockaddr *)&a, len));
	int f = open(SOCK_PATH, O_CREAT | O_WRONLY, 0600);
	close(f);
	show("connect to regular file", connect(t, (struct sockaddr *)&a, len));
	unlink(SOCK_PATH);
	close(t);
}

static void backlog(void)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(&a, "bl");
	printf("-- backlog\n");
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	show("bind abstract", bind(l, (struct sockaddr *)&a, len));
	int l2 = socket(AF_UNIX, SOCK_STREAM, 0);
	show("bind abstract again", bind(l2, (struct sockaddr *)&a, len));
	close(l2);
	show("listen 1", listen(l, 1));
	int c[3];
	for (int i = 0; i < 3; i++) {
		c[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		show("connect nonblocking", connect(c[i], (struct sockaddr *)&a, len));
	}
	show("send before accept", send(c[0], "early", 5, 0));
	int s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	printf("accept4 cloexec: %d\n", fcntl(s, F_GETFD) & FD_CLOEXEC);
	char buf[16];
	long n = recv(s, buf, sizeof(buf), 0);
	printf("recv early: %ld '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	show("connect now", connect(c[2], (struct sockaddr *)&a, len));
	show("connect again", connect(c[2], (struct sockaddr *)&a, len));
	int s2 = accept(l, NULL, NULL);
	int flags = fcntl(l, F_GETFL);
	fcntl(l, F_SETFL, flags | O_NONBLOCK);
	int s3 = accept(l, NULL, NULL);
	show("accept third", s3 >= 0 ? 0 : -1);
	show("accept none left", accept(l, NULL, NULL));
	close(s);
	close(s2);
	close(s3);
	for (int i = 0; i < 3; i++)
		close(c[i]);
	/* a connection the listener never accepted */
	int late = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(late, (struct sockaddr *)&a, len);
	write(late, "lost", 4);
	close(l);
	show("read after listener closed", read(late, buf, sizeof(buf)));
	show("read again", read(late, buf, sizeof(buf)));
	close(late);
}

static void dgram(void)
{
	int sv[2];
	char buf[16];
	printf("-- datagram boundaries\n");
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	send(sv[0], "a", 1, 0);
	send(sv[0], "bb", 2, 0);
	send(sv[0], "ccc", 3, 0);
	send(sv[0], "", 0, 0);
	for (int i = 0; i < 2; i++) {
		long n = recv(sv[1], buf, sizeof(buf), 0);
		printf("recv: %ld '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
	}
	struct iovec v = { buf, 2 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	long n = recvmsg(sv[1], &m, MSG_PEEK);
	printf("recvmsg peek 2: %ld '%.*s' trunc %d\n", n, (int)n, buf, !!(m.msg_flags & MSG_TRUNC));
	n = recv(sv[1], buf, 2, MSG_TRUNC);
	printf("recv MSG_TRUNC: %ld '%.2s'\n", n, buf);
	show("recv empty datagram", recv(sv[1], buf, sizeof(buf), 0));
	show("recv none", recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT));
	int size = 0;
	socklen_t sl = sizeof(size);
	getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, &sl);
	static char big[300000];
	show("send over SO_SNDBUF", send(sv[0], big, sizeof(big), 0));
	close(sv[1]);
	show("send to closed peer", send(sv[0], "x", 1, 0));
	close(sv[0]);

	printf("-- datagram names\n");
	struct sockaddr_un a, b, from;
	socklen_t al = abstract_addr(&a, "dga"), bl = path_addr(&b, SOCK_PATH2), fl;
	unlink(SOCK_PATH2);
	int r = socket(AF_UNIX, SOCK_DGRAM, 0), s = socket(AF_UNIX, SOCK_DGRAM, 0), u = socket(AF_UNIX, SOCK_DGRAM, 0);
	show("bind r abstract", bind(r, (struct sockaddr *)&a, al));
	show("bind s path", bind(s, (struct sockaddr *)&b, bl));
	show("sendto r", sendto(s, "from s", 6, 0, (struct sockaddr *)&a, al));
	show("sendto r unbound", sendto(u, "from u", 6, 0, (struct sockaddr *)&a, al));
	fl = sizeof(from);
	n = recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	printf("recvfrom: %ld '%.*s' ", n, (int)n, buf);
	show_name("from", &from, fl);
	fl = sizeof(from);
	memset(&from, 0, sizeof(from));
	n = recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	printf("recvfrom: %ld '%.*s' ", n, (int)n, buf);
	show_name("from", &from, fl);
	show("connect r to s", connect(r, (struct sockaddr *)&b, bl));
	show("sendto r from u (r connected to s)", sendto(u, "no", 2, 0, (struct sockaddr *)&a, al));
	show("send unconnected", send(u, "no", 2, 0));
	int one = 1;
	setsockopt(r, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	show("sendto r from s", sendto(s, "yes", 3, 0, (struct sockaddr *)&a, al));
	fl = sizeof(from);
	n = recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	printf("recvfrom: %ld '%.*s' ", n, (int)n, buf);
	show_name("from", &from, fl);
	struct sockaddr_un pn;
	socklen_t pl = sizeof(pn);
	getpeername(r, (struct sockaddr *)&pn, &pl);
	show_name("getpeername r", &pn, pl);
	pl = sizeof(pn);
	show("getpeername u", getpeername(u, (struct sockaddr *)&pn, &pl));
	close(s);
	show("send to closed connected target", send(r, "x", 1, 0));
	int st = socket(AF_UNIX, SOCK_STREAM, 0);
	show("dgram connect to stream name", ({
		struct sockaddr_un c;
		socklen_t cl = abstract_addr(&c, "st");
		bind(st, (struct sockaddr *)&c, cl);
		listen(st, 1);
		connect(u, (struct sockaddr *)&c, cl);
	}));
	close(st);
	close(r);
	close(u);
	unlink(SOCK_PATH2);
}

static void seqpacket(void)
{
	int sv[2];
	char buf[16];
	printf("-- seqpacket\n");
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	send(sv[0], "one", 3, 0);
	send(sv[0], "three", 5, 0);
	long n = recv(sv[1], buf, sizeof(buf), 0);
	printf("recv: %ld '%.*s'\n", n, (int)n, buf);
	struct iovec v = { buf, 2 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	n = recvmsg(sv[1], &m, 0);
	printf("recvmsg 2: %ld '%.*s' trunc %d\n", n, (int)n, buf, !!(m.msg_flags & MSG_TRUNC));
	close(sv[0]);
	show("recv after peer close", recv(sv[1], buf, sizeof(buf), 0));
	close(sv[1]);
	int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	show("seqpacket recv unconnected", recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	show("seqpacket send unconnected", send(s, buf, 1, 0));
	close(s);
}

static void pass_fd(void)
{
	int sv[2], p[2];
	char buf[32];
	printf("-- SCM_RIGHTS\n");
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	write(p[1], "via pipe", 8);
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(2 * sizeof(int))];
	} u;
	struct iovec v = { "F", 1 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_control = u.b;
	m.msg_controllen = CMSG_SPACE(sizeof(int));
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &p[0], sizeof(int));
	show("sendmsg fd", sendmsg(sv[0], &m, 0));
	close(p[0]);
	pid_t pid = fork();
	if (pid == 0) {
		char one;
		struct iovec rv = { &one, 1 };
		struct msghdr rm = { 0 };
		rm.msg_iov = &rv;
		rm.msg_iovlen = 1;
		rm.msg_control = u.b;
		rm.msg_controllen = sizeof(u.b);
		long n = recvmsg(sv[1], &rm, MSG_CMSG_CLOEXEC);
		struct cmsghdr *rc = CMSG_FIRSTHDR(&rm);
		printf("child recvmsg: %ld '%c' controllen %zu level %d type %d len %zu\n", n, one, rm.msg_controllen,
		       rc ? rc->cmsg_level : -1, rc ? rc->cmsg_type : -1, rc ? (size_t)rc->cmsg_len : 0);
		int fd;
		memcpy(&fd, CMSG_DATA(rc), sizeof(fd));
		printf("child fd cloexec %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC);
		long k = read(fd, buf, sizeof(buf));
		printf("child read passed pipe: %ld '%.*s'\n", k, (int)(k > 0 ? k : 0), buf);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	close(p[1]);

	/* no room for the descriptor: it is closed, MSG_CTRUNC */
	pipe(p);
	memcpy(CMSG_DATA(c), &p[1], sizeof(int));
	m.msg_controllen = CMSG_SPACE(sizeof(int));
	sendmsg(sv[0], &m, 0);
	close(p[1]);
	char one;
	struct iovec rv = { &one, 1 };
	struct msghdr rm = { 0 };
	rm.msg_iov = &rv;
	rm.msg_iovlen = 1;
	long n = recvmsg(sv[1], &rm, 0);
	printf("recvmsg without control: %ld ctrunc %d\n", n, !!(rm.msg_flags & MSG_CTRUNC));
	show("pipe read (writer closed by CTRUNC)", read(p[0], buf, sizeof(buf)));
	close(p[0]);

	/* closed in flight: the sockets go with the descriptor unreceived */
	pipe(p);
	memcpy(CMSG_DATA(c), &p[1], sizeof(int));
	sendmsg(sv[0], &m, 0);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
	show("pipe read (writer closed in flight)", read(p[0], buf, sizeof(buf)));
	close(p[0]);

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	int bad = 77;
	memcpy(CMSG_DATA(c), &bad, sizeof(int));
	show("sendmsg bad fd", sendmsg(sv[0], &m, 0));
	c->cmsg_type = 99;
	show("sendmsg bad cmsg type", sendmsg(sv[0], &m, 0));
	close(sv[0]);
	close(sv[1]);
}

static void creds(void)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(&a, "cr");
	printf("-- SO_PEERCRED and SCM_CREDENTIALS\n");
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(l, (struct sockaddr *)&a, len);
	listen(l, 2);
	struct ucred uc;
	socklen_t ul = sizeof(uc);
	getsockopt(l, SOL_SOCKET, SO_PEERCRED, &uc, &ul);
	printf("listener SO_PEERCRED: pid self %d uid %u gid %u len %u\n", uc.pid == getpid(), uc.uid, uc.gid,
	       (unsigned)ul);
	int lone = socket(AF_UNIX, SOCK_STREAM, 0);
	ul = sizeof(uc);
	getsockopt(lone, SOL_SOCKET, SO_PEERCRED, &uc, &ul);
	printf("unconnected SO_PEERCRED: pid %d uid %d gid %d\n", uc.pid, (int)uc.uid, (int)uc.gid);
	close(lone);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setgid(1234);
		setuid(4321);
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a, len))
			_exit(1);
		struct ucred pc;
		socklen_t pcl = sizeof(pc);
		getsockopt(c, SOL_SOCKET, SO_PEERCRED, &pc, &pcl);
		printf("child sees server: uid %u gid %u\n", pc.uid, pc.gid);
		/* claiming root's identity: EPERM */
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
		struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_CREDENTIALS;
		cm->cmsg_len = CMSG_LEN(sizeof(struct ucred));
		struct ucred claim = { getpid(), 0, 0 };
		memcpy(CMSG_DATA(cm), &claim, sizeof(claim));
		show("child claims uid 0", sendmsg(c, &m, 0));
		claim.uid = 4321;
		claim.gid = 1234;
		memcpy(CMSG_DATA(cm), &claim, sizeof(claim));
		show("child sends its own", sendmsg(c, &m, 0));
		fflush(stdout);
		char x;
		read(c, &x, 1); /* until the server is done */
		_exit(0);
	}
	int s = accept(l, NULL, NULL);
	ul = sizeof(uc);
	getsockopt(s, SOL_SOCKET, SO_PEERCRED, &uc, &ul);
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	char data;
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(struct ucred))];
	} u;
	struct iovec v = { &data, 1 };
	struct msghdr m = { 0 };
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	m.msg_control = u.b;
	m.msg_controllen = sizeof(u.b);
	long n = recvmsg(s, &m, 0);
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	struct ucred got = { 0, 0, 0 };
	if (cm && cm->cmsg_type == SCM_CREDENTIALS)
		memcpy(&got, CMSG_DATA(cm), sizeof(got));
	write(s, "k", 1);
	int status;
	waitpid(pid, &status, 0);
	printf("server SO_PEERCRED: pid is child %d uid %u gid %u\n", uc.pid == pid, uc.uid, uc.gid);
	printf("server recvmsg: %ld '%c' SCM_CREDENTIALS %d pid is child %d uid %u gid %u\n", n, data,
	       cm && cm->cmsg_type == SCM_CREDENTIALS, got.pid == pid, got.uid, got.gid);
	printf("child exit %d\n", WEXITSTATUS(status));
	close(s);
	close(l);

	/* write permission on the socket file */
	struct sockaddr_un pa;
	socklen_t pal = path_addr(&pa, SOCK_PATH);
	unlink(SOCK_PATH);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	mode_t old = umask(022);
	bind(l, (struct sockaddr *)&pa, pal);
	umask(old);
	listen(l, 2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setuid(4321);
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		show("connect without write permission", connect(c, (struct sockaddr *)&pa, pal));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	chmod(SOCK_PATH, 0777);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setuid(4321);
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		show("connect after chmod 0777", connect(c, (struct sockaddr *)&pa, pal));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	close(l);
	unlink(SOCK_PATH);
}

static void options(void)
{
	printf("-- options\n");
	int s = socket(AF_UNIX, SOCK_STREAM, 0), v = 0;
	socklen_t l = sizeof(v);
	getsockopt(s, SOL_SOCKET, SO_TYPE, &v, &l);
	printf("SO_TYPE %d len %u\n", v, (unsigned)l);
	getsockopt(s, SOL_SOCKET, SO_DOMAIN, &v, &l);
	printf("SO_DOMAIN %d\n", v);
	getsockopt(s, SOL_SOCKET, SO_ERROR, &v, &l);
	printf("SO_ERROR %d\n", v);
	getsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, &l);
	printf("SO_SNDBUF default %d\n", v);
	getsockopt(s, SOL_SOCKET, SO_RCVBUF, &v, &l);
	printf("SO_RCVBUF default %d\n", v);
	v = 8192;
	show("set SO_SNDBUF 8192", setsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)));
	getsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, &l);
	printf("SO_SNDBUF %d\n", v);
	v = 10000;
	setsockopt(s, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	getsockopt(s, SOL_SOCKET, SO_RCVBUF, &v, &l);
	printf("SO_RCVBUF %d\n", v);
	v = 1;
	show("set SO_KEEPALIVE", setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &v, sizeof(v)));
	v = 0;
	getsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &v, &l);
	printf("SO_KEEPALIVE %d\n", v);
	struct linger lg = { 1, 5 }, lgb = { 0, 0 };
	show("set SO_LINGER", setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	socklen_t ll = sizeof(lgb);
	getsockopt(s, SOL_SOCKET, SO_LINGER, &lgb, &ll);
	printf("SO_LINGER %d %d len %u\n", lgb.l_onoff, lgb.l_linger, (unsigned)ll);
	show("set short optlen", setsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, 2));
	show("get unknown option", getsockopt(s, SOL_SOCKET, 12345, &v, &l));
	show("set SO_TYPE", setsockopt(s, SOL_SOCKET, SO_TYPE, &v, sizeof(v)));
	struct timeval tv = { 0, 200000 }, back;
	show("set SO_RCVTIMEO", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	socklen_t tl = sizeof(back);
	getsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &back, &tl);
	printf("SO_RCVTIMEO %ld.%06ld len %u\n", (long)back.tv_sec, (long)back.tv_usec, (unsigned)tl);
	tv.tv_usec = 1000000;
	show("set SO_RCVTIMEO bad usec", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	tv.tv_usec = 100000;
	setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	char c;
	show("recv with SO_RCVTIMEO", recv(sv[0], &c, 1, 0));
	close(sv[0]);
	close(sv[1]);
	close(s);
}

static void errnos(void)
{
	printf("-- errnos\n");
	char buf[4];
	int p[2];
	pipe(p);
	show("socket bad family", socket(12345, SOCK_STREAM, 0));
	show("socket type 99", socket(AF_UNIX, 99, 0));
	show("socket type 7", socket(AF_UNIX, 7, 0));
	int pu = socket(AF_UNIX, SOCK_STREAM, 1);
	show("socket protocol 1 (PF_UNIX)", pu >= 0 ? 0 : -1);
	close(pu);
	show("socket protocol 2", socket(AF_UNIX, SOCK_STREAM, 2));
	int sp[2];
	show("socketpair bad type", socketpair(AF_UNIX, 7, 0, sp));
	show("recv on pipe", recv(p[0], buf, 1, 0));
	show("recv bad fd", recv(99, buf, 1, 0));
	show("listen on pipe", listen(p[0], 1));
	int d = socket(AF_UNIX, SOCK_DGRAM, 0), s = socket(AF_UNIX, SOCK_STREAM, 0);
	show("listen on dgram", listen(d, 1));
	show("listen unbound", listen(s, 1));
	show("accept unlistening", accept(s, NULL, NULL));
	show("accept dgram", accept(d, NULL, NULL));
	show("send unconnected stream", send(s, "x", 1, MSG_NOSIGNAL));
	show("recv unconnected stream", recv(s, buf, 1, 0));
	show("shutdown bad how", shutdown(s, 7));
	show("shutdown unconnected", shutdown(s, SHUT_RDWR));
	struct sockaddr_un a;
	socklen_t al = sizeof(a);
	show("getpeername unconnected", getpeername(s, (struct sockaddr *)&a, &al));
	al = sizeof(a);
	getsockname(s, (struct sockaddr *)&a, &al);
	show_name("getsockname unbound", &a, al);
	show("bind short address", bind(s, (struct sockaddr *)&a, 1));
	a.sun_family = 2;
	show("bind wrong family", bind(s, (struct sockaddr *)&a, sizeof(a)));
	show("connect abstract nobody", ({
		struct sockaddr_un n;
		socklen_t nl = abstract_addr(&n, "nobody");
		connect(s, (struct sockaddr *)&n, nl);
	}));
	show("sendto on stream", sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)));
	a.sun_family = AF_UNIX;
	show("autobind", bind(d, (struct sockaddr *)&a, sizeof(sa_family_t)));
	al = sizeof(a);
	a.sun_family = AF_UNIX;
	getsockname(d, (struct sockaddr *)&a, &al);
	printf("autobind name len %u abstract %d\n", (unsigned)al, a.sun_path[0] == 0);
	show("getsockopt other level", getsockopt(s, 6, 1, buf, &(socklen_t){ 4 }));
	struct pollfd pf = { s, POLLIN | POLLOUT, 0 };
	poll(&pf, 1, 0);
	printf("poll unconnected stream: %#x\n", pf.revents);
	close(d);
	close(s);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	stream_pair();
	sigpipe();
	echo_server();
	backlog();
	dgram();
	seqpacket();
	pass_fd();
	creds();
	options();
	errnos();
	return 0;
}
