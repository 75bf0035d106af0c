/* inotify on cgroup files (cgroup/fs/inotify.c). */
#ifndef ARBOR_INOTIFY_H
#define ARBOR_INOTIFY_H

#include "kobj.h"
#include "types.h"

struct cgroup;

/* Notifying file which of cg changed: queue IN_MODIFY for its watchers.
 * cg_lock held. */
void cgfs_notify_locked(struct cgroup *cg, unsigned which);
/* Descriptor operations on an inotify object. */
long inotify_read(struct kobj *o, void *ubuf, size_t len);
long inotify_poll(struct kobj *o, int events);
/* The queue its events wake (poll.h). */
struct pollq *inotify_pollq(struct kobj *o);
long inotify_flags(struct kobj *o, int set);

#endif
