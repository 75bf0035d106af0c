/* Unix-domain sockets (kernel/ipc/unix.c): the descriptor operations
 * kernel/ipc/fd.c calls for a socket, and the readiness query poll uses. */
#ifndef ARBOR_UNIXSOCK_H
#define ARBOR_UNIXSOCK_H
#include "kobj.h"
#include "types.h"

/* read(2)/write(2) on a socket: recv/send with no flags (descriptors
 * arriving with a read are closed, as Linux). Bytes or -errno. */
long usock_fd_read(struct kobj *o, void *buf, size_t len);
long usock_fd_write(struct kobj *o, const void *buf, size_t len);
/* Every POLL* bit that holds for the socket now (Linux's unix_poll):
 * POLLIN/RDNORM data or a connection to accept, POLLRDHUP the peer shut
 * its writing, POLLHUP both ways shut (or a stream socket unconnected),
 * POLLOUT/WRNORM room at the peer, POLLERR a pending SO_ERROR. Never
 * blocks: what a kernel poll asks of each socket, as of a pipe. */
long usock_poll_mask(struct kobj *o);
/* The wait queue a sleeping poll of o waits on for reading (write false:
 * every change of POLLIN, POLLRDHUP, POLLHUP, POLLERR wakes it) or for
 * room (write true: POLLOUT). Valid while the caller holds a reference. */
struct waitq;
struct waitq *usock_waitq(struct kobj *o, bool write);
/* usock_poll_mask limited to events plus POLLERR, POLLHUP, POLLNVAL. */
long usock_fd_poll(struct kobj *o, int events);
/* The queue a socket's readiness changes wake (poll.h, kernel/ipc/poll.c). */
struct pollq *usock_pollq(struct kobj *o);
/* O_NONBLOCK: set >= 0 sets it; returns the flags with O_RDWR. */
long usock_fd_flags(struct kobj *o, int set);
/* Socket o's inode number. */
uint64_t usock_ino(struct kobj *o);
#endif
