/* Arbor: <mqueue.h> (newlib has none for this target).  POSIX message
   queues of Arbor's C library (user/libc/mqueue.c): a queue is a file of
   the tmpfs at /dev/shm ("mq.NAME"), mapped shared, holding its messages
   in priority order under a process-shared mutex; an mqd_t indexes the
   process's table of open queues (not a file descriptor: poll does not
   apply).  Linux's structure, limits and mq_notify semantics.  */
#ifndef _MQUEUE_H
#define _MQUEUE_H

#include <sys/types.h>
#include <sys/cdefs.h>
#include <fcntl.h>	/* glibc's <mqueue.h> includes it: O_* for mq_open */
#include <signal.h>	/* struct sigevent, for mq_notify */
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int mqd_t;

struct mq_attr {
	long mq_flags;		/* 0 or O_NONBLOCK */
	long mq_maxmsg;		/* messages at most */
	long mq_msgsize;	/* bytes per message at most */
	long mq_curmsgs;	/* messages queued now */
	long __pad[4];
};

#ifndef MQ_PRIO_MAX
#define MQ_PRIO_MAX 32768
#endif

mqd_t	mq_open(const char *__name, int __oflag, ...);
int	mq_close(mqd_t __mq);
int	mq_unlink(const char *__name);
int	mq_send(mqd_t __mq, const char *__msg, size_t __len, unsigned __prio);
int	mq_timedsend(mqd_t __mq, const char *__msg, size_t __len, unsigned __prio,
		     const struct timespec *__abstime);
ssize_t	mq_receive(mqd_t __mq, char *__msg, size_t __len, unsigned *__prio);
ssize_t	mq_timedreceive(mqd_t __mq, char *__restrict __msg, size_t __len,
			unsigned *__restrict __prio, const struct timespec *__restrict __abstime);
int	mq_notify(mqd_t __mq, const struct sigevent *__notification);
int	mq_getattr(mqd_t __mq, struct mq_attr *__attr);
int	mq_setattr(mqd_t __mq, const struct mq_attr *__restrict __new,
		   struct mq_attr *__restrict __old);

#ifdef __cplusplus
}
#endif

#endif /* _MQUEUE_H */
