/* Open cgroup interface files, served by the kernel (cgroup/fs/file.c). */
#ifndef ARBOR_CGFS_FILE_H
#define ARBOR_CGFS_FILE_H

#include "abi/cgroup.h"
#include "kobj.h"
#include "types.h"

struct cgroup;
struct cftype;
struct cgfs_file;

/* A handle of the caller's to file cft of cg, opened with flags by
 * uid:gid of cgroup namespace ns (NULL: the initial one; the file takes
 * its own reference) (the checks of the open are the caller's). */
struct cg_ns;
int cgfs_file_create(struct cgroup *cg, const struct cftype *cft, int flags, uint32_t uid, uint32_t gid,
		     struct cg_ns *ns);
/* The cgroup file behind o, or NULL. */
struct cgfs_file *cgfs_file_of(struct kobj *o);
/* pos < 0: at the file offset (which advances); else at pos. */
long cgfs_file_read(struct cgfs_file *f, void *ubuf, size_t len, int64_t pos);
long cgfs_file_write(struct cgfs_file *f, const void *ubuf, size_t len);
long cgfs_file_seek(struct cgfs_file *f, int64_t off, int whence);
long cgfs_file_flags(struct cgfs_file *f, int set);
/* Which file of which cgroup f is. */
void cgfs_file_target(struct cgfs_file *f, struct cgroup **cg, const struct cftype **cft);
/* Ready events; a file that notifies (cgroup.events) adds POLLPRI|POLLERR
 * once it changed after it was last read (or opened). */
long cgfs_file_poll(struct cgfs_file *f, int events);
/* The queue f's changes wake (poll.h): every cgroup file's notification
 * and removal wake cgfs_pollq (a poller of one file may look in vain when
 * another changes: notifications are rare); a file whose readiness is a
 * pressure trigger's waits on psi_trigger_pollq. */
struct pollq;
extern struct pollq cgfs_pollq;
struct pollq *cgfs_file_pollq(struct cgfs_file *f);

#endif
