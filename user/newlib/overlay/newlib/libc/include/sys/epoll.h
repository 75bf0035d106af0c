/* Arbor overlay: <sys/epoll.h>, which newlib 3.3.0 lacks.  Written for
   Arbor from the Linux man pages; values and struct epoll_event (packed on
   x86_64) are Linux's.  */
#ifndef _SYS_EPOLL_H_
#define _SYS_EPOLL_H_

#include <sys/cdefs.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/_sigset.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	EPOLL_CLOEXEC	O_CLOEXEC

#define	EPOLLIN		0x001
#define	EPOLLPRI	0x002
#define	EPOLLOUT	0x004
#define	EPOLLERR	0x008
#define	EPOLLHUP	0x010
#define	EPOLLRDNORM	0x040
#define	EPOLLRDBAND	0x080
#define	EPOLLWRNORM	0x100
#define	EPOLLWRBAND	0x200
#define	EPOLLMSG	0x400
#define	EPOLLRDHUP	0x2000
#define	EPOLLEXCLUSIVE	(1u << 28)
#define	EPOLLWAKEUP	(1u << 29)
#define	EPOLLONESHOT	(1u << 30)
#define	EPOLLET		(1u << 31)

#define	EPOLL_CTL_ADD	1
#define	EPOLL_CTL_DEL	2
#define	EPOLL_CTL_MOD	3

typedef union epoll_data {
	void *ptr;
	int fd;
	uint32_t u32;
	uint64_t u64;
} epoll_data_t;

struct epoll_event {
	uint32_t events;
	epoll_data_t data;
} __attribute__ ((__packed__));

int	epoll_create (int);
int	epoll_create1 (int);
int	epoll_ctl (int, int, int, struct epoll_event *);
int	epoll_wait (int, struct epoll_event *, int, int);
int	epoll_pwait (int, struct epoll_event *, int, int, const __sigset_t *);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_EPOLL_H_ */
