/* Open cgroup interface files, served by the kernel (kernel/proc/cgfile.c). */
#ifndef ARBOR_CGFILE_H
#define ARBOR_CGFILE_H

#include "abi/cgroup.h"
#include "kobj.h"
#include "types.h"

struct cgroup;
struct cftype;
struct cgfile;

/* A handle of the caller's to file cft of cg, opened with flags by
 * uid:gid (the checks of the open are the caller's). */
int cgfile_create(struct cgroup *cg, const struct cftype *cft, int flags, uint32_t uid, uint32_t gid);
/* The cgroup file behind o, or NULL. */
struct cgfile *cgfile_of(struct kobj *o);
/* pos < 0: at the file offset (which advances); else at pos. */
long cgfile_read(struct cgfile *f, void *ubuf, size_t len, int64_t pos);
long cgfile_write(struct cgfile *f, const void *ubuf, size_t len);
long cgfile_seek(struct cgfile *f, int64_t off, int whence);
long cgfile_flags(struct cgfile *f, int set);
/* Which file of which cgroup f is. */
void cgfile_target(struct cgfile *f, struct cgroup **cg, const struct cftype **cft);
/* Ready events; a file that notifies (cgroup.events) adds POLLPRI|POLLERR
 * once it changed after it was last read (or opened). */
long cgfile_poll(struct cgfile *f, int events);

#endif
