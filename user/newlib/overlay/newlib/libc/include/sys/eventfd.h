/* Arbor overlay: <sys/eventfd.h>, which newlib 3.3.0 lacks.  Written for
   Arbor from the Linux man pages; flag values are Linux's.  */
#ifndef _SYS_EVENTFD_H_
#define _SYS_EVENTFD_H_

#include <sys/cdefs.h>
#include <stdint.h>
#include <fcntl.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t eventfd_t;

#define	EFD_SEMAPHORE	1
#define	EFD_CLOEXEC	O_CLOEXEC
#define	EFD_NONBLOCK	O_NONBLOCK

int	eventfd (unsigned int, int);
int	eventfd_read (int, eventfd_t *);
int	eventfd_write (int, eventfd_t);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_EVENTFD_H_ */
