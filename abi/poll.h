/* Poll events: the bits of poll()'s events and revents, of fd_poll's
 * answer and of the file protocol's FILE_POLL (abi/fs.h). Linux's values.
 * The C library defines the same names with the same values (checked at
 * compile time by user/libc/abi_check.c): its definitions win when both
 * are seen. */
#ifndef ARBOR_ABI_POLL_H
#define ARBOR_ABI_POLL_H

#ifndef POLLIN
#define POLLIN     0x0001	/* data other than high-priority may be read */
#define POLLPRI    0x0002	/* high-priority data (a cgroup file changed) */
#define POLLOUT    0x0004	/* normal data may be written */
#define POLLERR    0x0008	/* error (revents only) */
#define POLLHUP    0x0010	/* hung up (revents only) */
#define POLLNVAL   0x0020	/* descriptor not open (revents only) */
#define POLLRDNORM 0x0040	/* normal data may be read */
#define POLLRDBAND 0x0080	/* priority data may be read */
#define POLLWRNORM 0x0100	/* same as POLLOUT */
#define POLLWRBAND 0x0200	/* priority data may be written */
#define POLLRDHUP  0x2000	/* the peer shut its writing (sockets) */
#endif

#endif
