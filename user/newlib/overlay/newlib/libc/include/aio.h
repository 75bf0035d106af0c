/* Arbor: <aio.h> (newlib has none for this target).  POSIX asynchronous
   I/O in Arbor's C library (user/libc/aio.c), as Linux's C library does it:
   helper threads of the calling process do each request with pread,
   pwrite, fsync or fdatasync, one queue per descriptor (a descriptor's
   requests run in order, by aio_reqprio then arrival), and notify as the
   request's sigevent asks.  glibc's structure field names and constants.  */
#ifndef _AIO_H
#define _AIO_H

#include <sys/types.h>
#include <sys/cdefs.h>
#include <signal.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

struct aiocb {
	int aio_fildes;			/* the descriptor */
	int aio_lio_opcode;		/* lio_listio: LIO_READ, LIO_WRITE or LIO_NOP */
	int aio_reqprio;		/* lowers the request's priority: 0..AIO_PRIO_DELTA_MAX */
	volatile void *aio_buf;		/* the data */
	size_t aio_nbytes;		/* its length */
	struct sigevent aio_sigevent;	/* how completion is told */
	/* The C library's own (glibc's names, for programs that peek). */
	struct aiocb *__next_prio;
	int __abs_prio;
	int __policy;
	int __error_code;		/* aio_error: EINPROGRESS, 0 or an errno */
	ssize_t __return_value;		/* aio_return */
	off_t aio_offset;		/* the file offset */
	char __glibc_reserved[32];
};

#if __GNU_VISIBLE
/* glibc's tuning of the helper threads (aio_init). */
struct aioinit {
	int aio_threads;	/* helper threads at most */
	int aio_num;		/* requests expected at once */
	int aio_locks;
	int aio_usedba;
	int aio_debug;
	int aio_numusers;
	int aio_idle_time;	/* seconds an idle helper lingers */
	int aio_reserved;
};
#endif

/* aio_cancel's answers. */
enum { AIO_CANCELED, AIO_NOTCANCELED, AIO_ALLDONE };
#define AIO_CANCELED AIO_CANCELED
#define AIO_NOTCANCELED AIO_NOTCANCELED
#define AIO_ALLDONE AIO_ALLDONE

/* lio_listio's operations and modes. */
enum { LIO_READ, LIO_WRITE, LIO_NOP };
#define LIO_READ LIO_READ
#define LIO_WRITE LIO_WRITE
#define LIO_NOP LIO_NOP
enum { LIO_WAIT, LIO_NOWAIT };
#define LIO_WAIT LIO_WAIT
#define LIO_NOWAIT LIO_NOWAIT

int	aio_read(struct aiocb *__aiocbp);
int	aio_write(struct aiocb *__aiocbp);
int	aio_fsync(int __op, struct aiocb *__aiocbp);
int	aio_error(const struct aiocb *__aiocbp);
ssize_t	aio_return(struct aiocb *__aiocbp);
int	aio_cancel(int __fildes, struct aiocb *__aiocbp);
int	aio_suspend(const struct aiocb *const __list[], int __nent,
		    const struct timespec *__restrict __timeout);
int	lio_listio(int __mode, struct aiocb *const __list[__restrict], int __nent,
		   struct sigevent *__restrict __sig);
#if __GNU_VISIBLE
void	aio_init(const struct aioinit *__init);
#endif

#ifdef __cplusplus
}
#endif

#endif /* _AIO_H */
