/* Kernel file objects made for Linux's event interfaces: eventfd,
 * timerfd, signalfd (kernel/ipc/eventfd.c, timerfd.c, signalfd.c) and
 * epoll (kernel/ipc/epoll.c). The descriptor calls (kernel/ipc/fd.c) reach
 * them through one table of these operations; their readiness goes
 * through poll.h's table like every other descriptor's. */
#ifndef ARBOR_KFILE_H
#define ARBOR_KFILE_H

#include "kobj.h"
#include "poll.h"
#include "types.h"

struct kfile_ops {
	/* read(2) / write(2) of len bytes at the caller's buf: bytes or a
	 * negative errno (-EINVAL where the kind takes no writes) */
	long (*read)(struct kobj *o, void *buf, size_t len);
	long (*write)(struct kobj *o, const void *buf, size_t len);
	/* F_GETFL (set < 0) / F_SETFL: O_NONBLOCK is the only changeable flag */
	long (*flags)(struct kobj *o, int set);
	/* its readiness (poll.h) */
	fd_poll_fn poll;
};

extern const struct kfile_ops eventfd_ops, epoll_ops, timerfd_ops, signalfd_ops;
/* A cgroup namespace descriptor (cgroup/fs/cgns.c: Linux's nsfs file). */
extern const struct kfile_ops cgns_fd_ops;

/* The operations of o's kind, or NULL for every other kind. */
const struct kfile_ops *kfile_ops_of(const struct kobj *o);

/* Installs o (a new object: the caller's reference stays the caller's)
 * in the current process with rights, close-on-exec if cloexec: the
 * handle, or -EMFILE. */
int kfile_install(struct kobj *o, uint32_t rights, bool cloexec);

/* signalfd (signalfd.c): pollers of p's signalfds look again (a signal
 * was sent to p or one of its threads). */
struct proc;
void signalfd_wake(struct proc *p);

#endif
