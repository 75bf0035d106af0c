/* Arbor overlay: <sys/timerfd.h>, which newlib 3.3.0 lacks.  Written for
   Arbor from the Linux man pages; flag values are Linux's.  */
#ifndef _SYS_TIMERFD_H_
#define _SYS_TIMERFD_H_

#include <sys/cdefs.h>
#include <fcntl.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	TFD_CLOEXEC	O_CLOEXEC
#define	TFD_NONBLOCK	O_NONBLOCK
#define	TFD_TIMER_ABSTIME	1
#define	TFD_TIMER_CANCEL_ON_SET	2

int	timerfd_create (clockid_t, int);
int	timerfd_settime (int, int, const struct itimerspec *, struct itimerspec *);
int	timerfd_gettime (int, struct itimerspec *);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_TIMERFD_H_ */
