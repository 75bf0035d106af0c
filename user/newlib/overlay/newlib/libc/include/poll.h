/* Arbor overlay: <poll.h>, which newlib 3.3.0 lacks.  Written for Arbor from
   POSIX; event bits are the Linux x86_64 values that Arbor's poll() uses.  */
#ifndef _POLL_H_
#define _POLL_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	POLLIN		0x0001	/* data other than high-priority may be read */
#define	POLLPRI		0x0002	/* high-priority data may be read */
#define	POLLOUT		0x0004	/* normal data may be written */
#define	POLLERR		0x0008	/* error (revents only) */
#define	POLLHUP		0x0010	/* hung up (revents only) */
#define	POLLNVAL	0x0020	/* fd not open (revents only) */
#define	POLLRDNORM	0x0040	/* normal data may be read */
#define	POLLRDBAND	0x0080	/* priority data may be read */
#define	POLLWRNORM	0x0100	/* same as POLLOUT */
#define	POLLWRBAND	0x0200	/* priority data may be written */
#if __GNU_VISIBLE
#define	POLLMSG		0x0400
#define	POLLREMOVE	0x1000
#define	POLLRDHUP	0x2000	/* peer closed its writing end */
#endif

typedef unsigned long nfds_t;

struct pollfd {
	int	fd;		/* file descriptor, ignored if negative */
	short	events;		/* requested events */
	short	revents;	/* returned events */
};

int	poll (struct pollfd *, nfds_t, int);
#if __GNU_VISIBLE
#include <sys/_sigset.h>
#include <sys/timespec.h>
/* poll with a timespec timeout (NULL: none) and a signal mask for the wait,
   set and restored atomically (Linux's, under _GNU_SOURCE). */
int	ppoll (struct pollfd *, nfds_t, const struct timespec *, const __sigset_t *);
#endif

#ifdef __cplusplus
}
#endif

#endif /* _POLL_H_ */
