/* Unix-domain sockets (<sys/socket.h>): the kernel keeps the sockets and
 * moves the data (kernel/ipc/unix.c, docs/sockets.md); the library's part
 * is the file system side of a path name. bind makes the socket's file
 * (S_IFSOCK, exclusive: EADDRINUSE if the name exists) through the VFS;
 * connect and sendto open the path with O_PATH (the walk's errors: ENOENT,
 * EACCES for search permission). Either gives the kernel that O_PATH
 * descriptor, and the kernel checks the file itself from the attributes
 * its server keeps in the kernel: a socket file (ECONNREFUSED), write
 * permission (EACCES), the owner of a new one for bind. */
#define _GNU_SOURCE 1 /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "abi/fs.h"
#include "abi/socket.h"
#include "arbor_sys.h"
#include "pthread_impl.h"

mode_t __umask_now(void); /* path.c */
long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv, size_t rcv_len,
		     uint64_t *out); /* io.c */

_Static_assert(sizeof(struct msghdr) == sizeof(struct k_msghdr), "struct msghdr is Linux's");
_Static_assert(sizeof(struct sockaddr_un) == K_SUN_LEN_MAX, "struct sockaddr_un is Linux's");
_Static_assert(AF_UNIX == K_AF_UNIX && SOCK_NONBLOCK == K_SOCK_NONBLOCK && SOCK_CLOEXEC == K_SOCK_CLOEXEC &&
	       MSG_PEEK == K_MSG_PEEK && MSG_TRUNC == K_MSG_TRUNC && MSG_DONTWAIT == K_MSG_DONTWAIT &&
	       MSG_NOSIGNAL == K_MSG_NOSIGNAL && MSG_CMSG_CLOEXEC == K_MSG_CMSG_CLOEXEC && SO_PEERCRED == K_SO_PEERCRED &&
	       SCM_RIGHTS == K_SCM_RIGHTS && SCM_CREDENTIALS == K_SCM_CREDENTIALS, "Linux's numbers");

/* The path of a path address (NUL-terminated in buf), or NULL for an
 * abstract or unnamed one. */
static const char *sun_path_of(const struct sockaddr *addr, socklen_t len, char buf[K_SUN_PATH_MAX + 1])
{
	if (!addr || len <= offsetof(struct sockaddr_un, sun_path) || addr->sa_family != AF_UNIX)
		return NULL;
	const struct sockaddr_un *u = (const struct sockaddr_un *)addr;
	size_t n = len - offsetof(struct sockaddr_un, sun_path);
	if (n > K_SUN_PATH_MAX)
		n = K_SUN_PATH_MAX;
	if (!u->sun_path[0])
		return NULL;
	memcpy(buf, u->sun_path, n);
	buf[n] = 0;
	return buf;
}

/* An O_PATH descriptor of the file at path, for connect and sendto (the
 * kernel checks what it is and the caller's write permission): the
 * descriptor, or -errno. */
static long sock_node(const char *path)
{
	int h = open(path, O_PATH | O_CLOEXEC);
	return h < 0 ? -errno : h;
}

int socket(int domain, int type, int protocol)
{
	return (int)__sys_ret(sys_sock_create(domain, type, protocol));
}

int socketpair(int domain, int type, int protocol, int fds[2])
{
	return (int)__sys_ret(sys_sock_pair(domain, type, protocol, fds));
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	/* The kernel checks the descriptor and reads the address first (a
	 * bad pointer is its EFAULT); a path comes back K_SOCK_NEED_NODE. */
	long r = sys_sock_bind(fd, addr, len, K_SOCK_NO_NODE);
	if (r != K_SOCK_NEED_NODE)
		return (int)__sys_ret(r);
	/* Linux's order: the file first (EADDRINUSE if the name exists),
	 * then the socket's checks (EINVAL: bound already), undone on those */
	char buf[K_SUN_PATH_MAX + 1];
	const char *path = sun_path_of(addr, len, buf);
	uint64_t h;
	r = __vfs_path_call(VFS_OPEN, path, O_CREAT | O_EXCL | O_PATH | O_CLOEXEC,
			    S_IFSOCK | (0777 & ~__umask_now()), NULL, 0, &h);
	if (r < 0)
		return (int)__sys_ret(r == -EEXIST ? -EADDRINUSE : r);
	struct stat st;
	int e = fstat((int)h, &st) ? errno : 0;
	if (!e && !S_ISSOCK(st.st_mode))
		e = EOPNOTSUPP; /* a file system that cannot hold a socket's file */
	r = e ? -e : sys_sock_bind(fd, addr, len, (int)h);
	close((int)h);
	if (r < 0 && r != -EADDRINUSE) /* EADDRINUSE: another's bind took the file first */
		unlink(path);
	return (int)__sys_ret(r);
}

int listen(int fd, int backlog)
{
	return (int)__sys_ret(sys_sock_listen(fd, backlog));
}

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	int cp = __pthread_cp_begin();
	long r = sys_sock_accept(fd, addr, addr ? len : NULL, flags);
	__pthread_cp_end(cp);
	return (int)__sys_ret(r);
}

int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	return accept4(fd, addr, len, 0);
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	int cp = __pthread_cp_begin();
	long r = sys_sock_connect(fd, addr, len, K_SOCK_NO_NODE);
	if (r == K_SOCK_NEED_NODE) { /* the kernel read the address: a path */
		char buf[K_SUN_PATH_MAX + 1];
		long h = sock_node(sun_path_of(addr, len, buf));
		r = h < 0 ? h : sys_sock_connect(fd, addr, len, (int)h);
		if (h >= 0)
			close((int)h);
	}
	__pthread_cp_end(cp);
	return (int)__sys_ret(r);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	int cp = __pthread_cp_begin();
	long r = sys_sock_sendmsg(fd, (const struct k_msghdr *)msg, flags, K_SOCK_NO_NODE);
	if (r == K_SOCK_NEED_NODE) { /* a datagram to a path: msg was read */
		char buf[K_SUN_PATH_MAX + 1];
		long h = sock_node(sun_path_of(msg->msg_name, msg->msg_namelen, buf));
		r = h < 0 ? h : sys_sock_sendmsg(fd, (const struct k_msghdr *)msg, flags, (int)h);
		if (h >= 0)
			close((int)h);
	}
	__pthread_cp_end(cp);
	return (ssize_t)__sys_ret(r);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	int cp = __pthread_cp_begin();
	long r = sys_sock_recvmsg(fd, (struct k_msghdr *)msg, flags);
	__pthread_cp_end(cp);
	return (ssize_t)__sys_ret(r);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *addr, socklen_t alen)
{
	struct iovec v = { (void *)buf, len };
	struct msghdr m = { (void *)addr, addr ? alen : 0, &v, 1, NULL, 0, 0 };
	return sendmsg(fd, &m, flags);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	return sendto(fd, buf, len, flags, NULL, 0);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *addr, socklen_t *alen)
{
	struct iovec v = { buf, len };
	struct msghdr m = { addr, addr && alen ? *alen : 0, &v, 1, NULL, 0, 0 };
	ssize_t r = recvmsg(fd, &m, flags);
	if (r >= 0 && addr && alen)
		*alen = m.msg_namelen;
	return r;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	return recvfrom(fd, buf, len, flags, NULL, NULL);
}

int shutdown(int fd, int how)
{
	return (int)__sys_ret(sys_sock_shutdown(fd, how));
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	return (int)__sys_ret(sys_sock_getopt(fd, level, name, val, len));
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	return (int)__sys_ret(sys_sock_setopt(fd, level, name, val, len));
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	return (int)__sys_ret(sys_sock_name(fd, 0, addr, len));
}

int getpeername(int fd, struct sockaddr *addr, socklen_t *len)
{
	return (int)__sys_ret(sys_sock_name(fd, 1, addr, len));
}

/* BSD's getpeereid: the effective ids of the peer of a connected
 * Unix-domain socket, from SO_PEERCRED (the kernel's, never the peer's
 * word). */
int getpeereid(int fd, uid_t *euid, gid_t *egid)
{
	struct ucred c;
	socklen_t len = sizeof(c);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) < 0)
		return -1;
	if (euid)
		*euid = c.uid;
	if (egid)
		*egid = c.gid;
	return 0;
}
