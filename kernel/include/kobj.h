/* Kernel objects that processes hold through handles: small integers
 * indexing the process's handle table, like file descriptors. A handle
 * holds a reference; an object dies with its last reference. Objects are
 * charged to the cgroup of the process that created them. */
#ifndef ARBOR_KOBJ_H
#define ARBOR_KOBJ_H

#include "abi/ipc.h"
#include "spinlock.h"
#include "types.h"

struct cgroup;
struct proc;

/* The values are the ABI's (handle_type answers them). */
enum kobj_type {
	KOBJ_ENDPOINT = HANDLE_ENDPOINT,
	KOBJ_NOTIFICATION = HANDLE_NOTIFICATION,
	KOBJ_SHM = HANDLE_SHM,
	KOBJ_CHANNEL = HANDLE_CHANNEL,
	KOBJ_PIPE = HANDLE_PIPE,
	KOBJ_CGFILE = HANDLE_CGFILE,
	KOBJ_INOTIFY = HANDLE_INOTIFY,
	KOBJ_REPLY = HANDLE_REPLY,
};

struct kobj {
	enum kobj_type type;
	uint32_t refcount;
	struct cgroup *charged;	/* holds one page of charge for the object */
	void (*release)(struct kobj *o);
};

#define HANDLE_MAX 256

#include "abi/ipc.h"	/* HANDLE_CLOEXEC: closed by execve (FD_CLOEXEC) */

struct handle_table {
	struct spinlock lock;
	struct kobj *slots[HANDLE_MAX];
	uint8_t flags[HANDLE_MAX];
};

/* Allocates size bytes for an object of type, charging the creator's
 * cgroup. NULL (-ENOMEM) if the charge or the memory is refused. */
void *kobj_alloc(size_t size, enum kobj_type type, struct cgroup *cg,
		 void (*release)(struct kobj *o));
void kobj_get(struct kobj *o);
void kobj_put(struct kobj *o);

void handle_table_init(struct handle_table *t);
/* Installs o (taking a new reference): the handle, or -EMFILE. */
int handle_install(struct proc *p, struct kobj *o);
/* The object behind handle h if it has the type (a new reference), or NULL. */
struct kobj *handle_get(struct proc *p, int h, enum kobj_type type);
/* The same for any type (0). */
#define KOBJ_ANY 0
int handle_close(struct proc *p, int h);	/* 0 or -EBADF */
void handle_close_all(struct proc *p);
/* Closes the handles marked HANDLE_CLOEXEC (execve). */
void handle_close_on_exec(struct proc *p);

#endif
