/* Arbor overlay: <sys/pidfd.h> (as glibc 2.36's), which newlib lacks:
   process descriptors.  */
#ifndef _SYS_PIDFD_H_
#define _SYS_PIDFD_H_

#include <sys/cdefs.h>
#include <sys/types.h>
#include <fcntl.h>
#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	PIDFD_NONBLOCK	O_NONBLOCK

/* A descriptor (close-on-exec) naming process pid: poll reports it
   readable once the process has ended.  */
int	pidfd_open(pid_t __pid, unsigned int __flags);
/* kill(2) of the process behind the descriptor; info must be NULL and
   flags 0 (EINVAL otherwise: Linux 6.9's PIDFD_SIGNAL_* are not here).  */
int	pidfd_send_signal(int __pidfd, int __sig, siginfo_t *__info, unsigned int __flags);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_PIDFD_H_ */
