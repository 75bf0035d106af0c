/* Arbor overlay: <sys/uio.h>, which newlib 3.3.0 lacks.  Written for
   Arbor; struct iovec and IOV_MAX are Linux's.  */
#ifndef _SYS_UIO_H_
#define _SYS_UIO_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct iovec {
	void	*iov_base;
	size_t	 iov_len;
};

#ifndef IOV_MAX
#define IOV_MAX 1024	/* more vectors than this: EINVAL */
#endif
#define UIO_MAXIOV IOV_MAX

ssize_t	readv (int, const struct iovec *, int);
ssize_t	writev (int, const struct iovec *, int);

#ifdef __cplusplus
}
#endif

#endif
