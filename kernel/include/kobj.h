/* Kernel objects that processes hold through handles: small integers
 * indexing the process's handle table, like file descriptors. A handle
 * holds a reference; an object dies with its last reference. Objects are
 * charged to the cgroup of the process that created them. */
#ifndef ARBOR_KOBJ_H
#define ARBOR_KOBJ_H

#include "abi/errno.h"
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
	KOBJ_CGFS_FILE = HANDLE_CGFS_FILE,
	KOBJ_INOTIFY = HANDLE_INOTIFY,
	KOBJ_REPLY = HANDLE_REPLY,
	KOBJ_EVENTFD = HANDLE_EVENTFD,
	KOBJ_EPOLL = HANDLE_EPOLL,
	KOBJ_TIMERFD = HANDLE_TIMERFD,
	KOBJ_SIGNALFD = HANDLE_SIGNALFD,
	KOBJ_SOCKET = HANDLE_SOCKET,
	KOBJ_PIDFD = HANDLE_PIDFD,
	KOBJ_CGNS = HANDLE_CGNS,
};

struct kobj {
	enum kobj_type type;
	uint32_t refcount;
	uint32_t charge_pages;	/* what charged holds for it: heap_charge_pages(its size) */
	struct cgroup *charged;
	void (*release)(struct kobj *o);
};

#define HANDLE_MAX 256

#include "abi/ipc.h"	/* HANDLE_CLOEXEC: closed by execve (FD_CLOEXEC) */

/* A kind mask for lookups: KOBJ_KIND(KOBJ_PIPE) | ... */
#define KOBJ_KIND(t) (1u << (t))
#define KOBJ_KINDS_ANY 0xffffu

/* Each slot: the object (a reference), its flags (HANDLE_CLOEXEC) and its
 * access word: the handle's rights (HANDLE_RIGHT_*, what it lets its
 * holder do) in the low 16 bits, the object's KOBJ_KIND in the high 16
 * (0 for an empty slot), so that a lookup checks kind and rights in one
 * word, without touching the object. */
struct handle_table {
	struct spinlock lock;
	struct kobj *slots[HANDLE_MAX];
	uint8_t flags[HANDLE_MAX];
	uint32_t access[HANDLE_MAX];
};

#define HANDLE_ACCESS(type, rights) ((KOBJ_KIND(type) << 16) | ((rights) & HANDLE_RIGHTS_ALL))
#define HANDLE_ACCESS_RIGHTS(a) ((a) & 0xffffu)

/* Allocates size bytes for an object of type, charging the creator's
 * cgroup. NULL (-ENOMEM) if the charge or the memory is refused. */
void *kobj_alloc(size_t size, enum kobj_type type, struct cgroup *cg,
		 void (*release)(struct kobj *o));
static inline void kobj_get(struct kobj *o)
{
	__atomic_add_fetch(&o->refcount, 1, __ATOMIC_RELAXED);
}
void kobj_put(struct kobj *o);
/* A new inode number for an object that stands for a file of a pseudo
 * file system (a pipe, a socket: what fstat and /proc/PID/fd show), from
 * one counter, as Linux's get_next_ino. */
uint64_t kobj_next_ino(void);
/* A reference to o unless its last one is already gone (its release may
 * be running): for lists that hold objects without a reference. */
static inline bool kobj_tryget(struct kobj *o)
{
	uint32_t n = __atomic_load_n(&o->refcount, __ATOMIC_RELAXED);
	while (n && !__atomic_compare_exchange_n(&o->refcount, &n, n + 1, false, __ATOMIC_ACQUIRE,
						  __ATOMIC_RELAXED))
		;
	return n != 0;
}

/* Readies t, whose memory the caller zeroed (a process: kzalloc or
 * static): an empty table. */
void handle_table_init(struct handle_table *t);
/* Installs o (taking a new reference) with rights: the handle, or -EMFILE. */
int handle_install(struct proc *p, struct kobj *o, uint32_t rights);
/* The object behind handle h (a new reference) if it is of one of kinds
 * and the handle has every right in need; else NULL and *err is -EBADF
 * (no such handle, or another kind) or -EPERM (a right is missing). One
 * lookup under the table's lock: the IPC fast path uses it. */
struct kobj *handle_get_rights(struct proc *p, int h, uint32_t kinds, uint32_t need, long *err);
/* The same, also storing the handle's rights in *have (what a duplicate
 * or a transfer of it may carry). */
struct kobj *handle_get_rights_of(struct proc *p, int h, uint32_t kinds, uint32_t need, long *err,
				  uint32_t *have);

/* handle_get_rights on table t, inlined (the IPC fast path: the kinds and
 * rights are constants there, and *err stays in a register). */
static inline __attribute__((always_inline)) struct kobj *
handle_table_get(struct handle_table *t, int h, uint32_t kinds, uint32_t need, long *err, uint32_t *have)
{
	if ((unsigned)h >= HANDLE_MAX) {
		*err = -EBADF;
		return NULL;
	}
	uint64_t f = spin_lock_irqsave(&t->lock); /* interrupts off: handle_table_init says why */
	uint32_t a = t->access[h];
	struct kobj *o = t->slots[h];
	long r = !(a & (kinds << 16)) ? -EBADF : (need & ~a) ? -EPERM : 0;
	if (r == 0)
		kobj_get(o);
	spin_unlock_irqrestore(&t->lock, f);
	*err = r;
	if (have)
		*have = HANDLE_ACCESS_RIGHTS(a);
	return r ? NULL : o;
}
/* The object behind handle h if it has the type (a new reference), or
 * NULL; no rights checked (the kernel's own uses, and queries). */
struct kobj *handle_get(struct proc *p, int h, enum kobj_type type);
/* The same for any type (0). */
#define KOBJ_ANY 0
int handle_close(struct proc *p, int h);	/* 0 or -EBADF */
void handle_close_all(struct proc *p);
/* Closes the handles marked HANDLE_CLOEXEC (execve). */
void handle_close_on_exec(struct proc *p);

#endif
