/* Unix-domain sockets (kernel/ipc/unix.c): the constants and structures
 * the sock_* system calls take. They are Linux's values and layouts, so
 * <sys/socket.h> and <sys/un.h> pass a program's own structures through. */
#ifndef ABI_SOCKET_H
#define ABI_SOCKET_H

#include <stdint.h>

#define K_AF_UNIX 1
#define K_SOCK_STREAM 1
#define K_SOCK_DGRAM 2
#define K_SOCK_SEQPACKET 5
#define K_SOCK_TYPE_MASK 0xf
#define K_SOCK_NONBLOCK 04000		/* O_NONBLOCK */
#define K_SOCK_CLOEXEC 02000000		/* O_CLOEXEC */

/* struct sockaddr_un: family, then up to 108 bytes of path */
#define K_SUN_PATH_MAX 108
#define K_SUN_LEN_MAX (2 + K_SUN_PATH_MAX)

/* send/recv flags */
#define K_MSG_PEEK 0x2
#define K_MSG_CTRUNC 0x8
#define K_MSG_TRUNC 0x20
#define K_MSG_DONTWAIT 0x40
#define K_MSG_EOR 0x80
#define K_MSG_WAITALL 0x100
#define K_MSG_NOSIGNAL 0x4000
#define K_MSG_CMSG_CLOEXEC 0x40000000

/* shutdown */
#define K_SHUT_RD 0
#define K_SHUT_WR 1
#define K_SHUT_RDWR 2

/* socket options (level SOL_SOCKET) */
#define K_SOL_SOCKET 1
#define K_SO_REUSEADDR 2
#define K_SO_TYPE 3
#define K_SO_ERROR 4
#define K_SO_SNDBUF 7
#define K_SO_RCVBUF 8
#define K_SO_DONTROUTE 5
#define K_SO_BROADCAST 6
#define K_SO_KEEPALIVE 9
#define K_SO_OOBINLINE 10
#define K_SO_LINGER 13
#define K_SO_PASSCRED 16
#define K_SO_PEERCRED 17
#define K_SO_RCVTIMEO 20
#define K_SO_SNDTIMEO 21
#define K_SO_ACCEPTCONN 30
#define K_SO_PROTOCOL 38
#define K_SO_DOMAIN 39

/* control messages */
#define K_SCM_RIGHTS 1
#define K_SCM_CREDENTIALS 2
#define K_SCM_MAX_FD 253

/* Linux's struct iovec, struct msghdr, struct cmsghdr, struct ucred. */
struct k_iovec {
	void *base;
	uint64_t len;
};

struct k_msghdr {
	void *name;
	uint32_t namelen;
	uint32_t pad0;
	struct k_iovec *iov;
	uint64_t iovlen;
	void *control;
	uint64_t controllen;
	int32_t flags;
	uint32_t pad1;
};

struct k_cmsghdr {
	uint64_t len;
	int32_t level;
	int32_t type;
};

struct k_ucred {
	int32_t pid;
	uint32_t uid;
	uint32_t gid;
};

/* Not an errno: sock_bind, sock_connect or sock_sendmsg met a path
 * address (sun_path[0] not 0) without its node. The kernel has read and
 * checked everything else first, so the C library may now read the
 * address safely, open the socket file and call again with its node. */
#define K_SOCK_NEED_NODE (-10001)

/* The node argument of sock_bind, sock_connect and sock_sendmsg: a
 * descriptor of the socket file a path address names, opened with O_PATH
 * (the file server's walk checked search permission on the way), or
 * K_SOCK_NO_NODE. The kernel reads the file's mode and owner from the
 * page cache object its server attached to that descriptor, and keys the
 * binding by that object: never by numbers the caller gives. */
#define K_SOCK_NO_NODE (-1)

#endif
