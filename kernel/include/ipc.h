/* Synchronous IPC on endpoints (abi/ipc.h), with the caller's identity
 * attached by the kernel and the server's work charged to the caller
 * (scheduling-context donation, docs/ipc.md). */
#ifndef ARBOR_IPC_H
#define ARBOR_IPC_H

#include "abi/ipc.h"
#include "kobj.h"
#include "poll.h"
#include "list.h"
#include "sched.h"
#include "spinlock.h"

struct proc;
struct thread;
struct addrspace;
struct pcache_obj;
struct pcache_table;

/* What the server published about the file behind an endpoint or a
 * channel (ipc_fstate), for fd_poll / fd_flags / fd_seek to answer without
 * a call. Guarded by the scheduler lock (words: read without it). */
struct ipc_fstate {
	bool set;			/* published: it is a file */
	uint8_t fst;			/* IPC_FST_* */
	uint16_t events;		/* POLL* ready now */
	uint32_t flags;			/* O_* status flags */
	uint32_t settable;		/* which of them fd_flags may change */
};

/* A kernel message for a server (channel closed, caller gone). */
struct ipc_event {
	struct list_head link;
	uint64_t label, badge, w0, w1;
	/* A request the kernel makes for a process (a pager fill for a
	 * faulting one): its pid and cgroup, told as info.for_pid and
	 * for_cgroup_id, on whose behalf the server may call (IPC_CALL_FOR)
	 * until its next receive. 0: the kernel's own message. */
	int32_t for_pid;
	uint64_t for_cg;
};

struct endpoint {
	struct kobj obj;
	struct ipc_fstate fst;		/* the console publishes itself as a file */
	struct pollq pollq;		/* woken by each publication (poll.h) */
	struct proc *owner;		/* whose exit closes the endpoint; NULL
					   once it has (sched lock) */
	struct list_head owner_link;	/* in owner->owned_eps (ipc_owner_lock) */
	bool dead;
	bool io;			/* a disk's server: its callers wait for io */
	/* IPC_INFO_NCLOG while renames the kernel made in its name cache
	 * wait for the server (ncache_rename; set under the sched and ncache
	 * locks, cleared by ncache_log_take under the ncache lock), else 0:
	 * what the server's ipc_info.flags say at delivery */
	uint32_t nc_info;
	struct list_head receivers;	/* server threads waiting for a call */
	struct list_head callers;	/* callers waiting for a server */
	/* the most entitled queued caller that lends to nobody (no call in
	 * progress was less entitled); cleared when it returns, sched lock */
	struct thread *unlent;
	struct list_head events;	/* kernel messages (channel closed) */
	struct pcache_table *pcache;	/* its server's file objects (kernel/pcache) */
};

/* A badged handle to an endpoint (see abi/ipc.h). */
struct channel {
	struct kobj obj;
	struct endpoint *ep;		/* a reference */
	uint64_t badge;
	bool told;			/* the server already heard of the close */
	struct ipc_fstate fst;		/* the open file description's state */
	struct pollq pollq;		/* woken by each publication (poll.h) */
	/* the page cache object of the open file (pcache_attach), which the
	 * kernel serves reads and writes from, and the description's offset */
	struct pcache_obj *pc;
	uint64_t pos;
	/* Linux's f_pos_lock: a read, write or relative lseek that uses pos
	 * holds pos_busy (a sleeping lock, under pos_lock) from reading the
	 * offset to storing the new one, so sharers of the description never
	 * read the same bytes or lose an update (pcache/fdops.c) */
	bool pc_writer;			/* holds a write count on pc (pcache_get_write) */
	struct spinlock pos_lock;
	bool pos_busy;
	/* Linux's mutex handoff: a waiter that woke and lost the lock again
	 * sets pos_starved; the next unlock then leaves pos_busy set and
	 * pos_given, so only a waiter may take it (a sharer looping on
	 * read() would otherwise retake it before any waiter ran) */
	bool pos_starved, pos_given;
	struct waitq pos_wait;
	/* made by the kernel's name cache (ncache_open), not by the server:
	 * its close tells the server nothing (ncache_kclose), and it counts
	 * in its object's and its mount's open descriptors */
	bool kopen;
	uint32_t kinst;
};

/* A deferred call (ipc_defer): the capability to answer it, held by the
 * server as a handle. The caller stays blocked with ipc_reply pointing
 * here until ipc_reply_to, or until it is interrupted (then the server
 * gets IPC_LABEL_ABANDONED) or the handle goes (-EHOSTDOWN). */
struct ipc_reply {
	struct kobj obj;
	struct thread *caller;		/* NULL once answered or abandoned (sched_lock) */
	struct endpoint *ep;		/* where the abandoned event goes (a reference) */
	struct proc *server;		/* the only process that may use it */
	struct ipc_event *ev;		/* preallocated abandoned event */
	uint64_t cookie;
};

/* The call of self (just woken, sched_lock held) was deferred and is not
 * answered: detach it and tell the server (reply.c). */
void ipc_abandon_locked(struct thread *self);
/* Queues a kernel message for ep's server and wakes a receiver (sched_lock). */
void ipc_post_event_locked(struct endpoint *ep, struct ipc_event *ev);
/* A new channel of ep with badge, charged to cg (one reference, the
 * caller's; the channel holds one on ep), or NULL. */
struct channel *ipc_channel_new(struct endpoint *ep, uint64_t badge, struct cgroup *cg);
/* Copies between ubuf (the current thread's) and caller memory [at, at+len) of as. */
long ipc_copy(struct addrspace *as, uint64_t at, void *ubuf, size_t len, bool to_caller);
/* A caller's buffer, as a server copies to (its receive buffer) or from
 * (its send buffer) it: taken with the sched lock held, while the caller
 * is known to be there; holds a reference to its address space. */
struct ipc_window {
	struct addrspace *as;	/* NULL: no caller */
	uint64_t base, limit;
};
/* Pre: sched lock held; c the caller or NULL. Post: w describes c's buffer. */
void ipc_window_locked(const struct thread *c, bool to_caller, struct ipc_window *w);
/* Copies len bytes at off of window w (unlocked; the caller may have gone:
 * its pages stay while w holds them) and releases w. Returns the bytes
 * copied, -ESRCH without a caller, -EINVAL if off is past the buffer's end. */
long ipc_window_copy(struct ipc_window *w, uint64_t off, void *ubuf, size_t len, bool to_caller);
/* The published file state behind kernel object o (an endpoint or a
 * channel), or NULL for other objects (reply.c). */
struct ipc_fstate *ipc_fstate_of(struct kobj *o);
/* The poll queue beside it (the same objects). */
struct pollq *ipc_pollq_of(struct kobj *o);

/* close() of the last handle to a channel: tell its server synchronously,
 * as a call, so the close has taken effect when close returns (POSIX); a
 * channel to the closer's own endpoint is told asynchronously (no waiting
 * for oneself). */
void ipc_channel_close_sync(struct kobj *o);

/* A new endpoint owned by p, installed as a handle in p: the handle or
 * a negative errno. */
int ipc_endpoint_create(struct proc *p);
/* The owner is gone: every waiter returns -EHOSTDOWN; future calls too. */
void ipc_endpoint_kill(struct endpoint *ep);
/* A thread is ending: finish any call it serves (the caller gets
 * -EHOSTDOWN) and any call it makes. */
void ipc_thread_exit(struct thread *t);
/* self (a server thread) now works on a request the kernel made for
 * process for_pid of cgroup for_cg (a pager fill: the reader that missed
 * the page): until its next receive or request, its IPC_CALL_FOR calls
 * are made on their behalf (the block layer charges that cgroup).
 * for_cg 0: on nobody's (IPC_CALL_FOR is -ESRCH). */
void ipc_act_for(struct thread *self, uint64_t for_cg, int32_t for_pid);
/* Server thread self writes back data owned by process pid of cgroup cg
 * (the kernel's record, pcache_wb_as): its IPC_CALL_FOR calls are on
 * that cgroup's behalf, whatever call it serves, until its next receive,
 * ipc_act_for, or cg 0. */
void ipc_wb_for(struct thread *self, uint64_t cg, int32_t pid);
/* An IPC call whose message is already in the kernel (the reply replaces
 * *msg); snd and rcv are the caller's user buffers. */
long ipc_call_kernel(int h, struct ipc_msg *msg, const void *snd, size_t snd_len, void *rcv,
		     size_t rcv_len);
/* Slots of the table of published names (kernel/ipc/names.c): the
 * misc controller's capacity of "ipc_names", each published name charged
 * to its publisher's cgroup (misc.current, misc.max). */
#define IPC_NAMES_MAX 32
/* Process p exits: kill the endpoints it owns and drop its names. */
void ipc_proc_exit(struct proc *p);
void ipc_names_proc_exit(struct proc *p);
/* The object published under name (a new reference), or NULL. */
struct kobj *ipc_name_get(const char *name);

/* Descriptor operations on a pipe end (kernel/ipc/pipe.c). */
struct kobj;
long pipe_fd_read(struct kobj *o, void *buf, size_t len);
long pipe_fd_write(struct kobj *o, const void *buf, size_t len);
long pipe_fd_poll(struct kobj *o, int events);
/* The queue a pipe's changes wake (poll.h). */
struct pollq *pipe_pollq(struct kobj *o);
long pipe_fd_flags(struct kobj *o, int set);
struct pcache_attr;
/* fstat of pipe end o as Linux's pipefs shows it: S_IFIFO | 0600, one
 * link, the pipe's own inode number, its creator's effective ids, the
 * time it was made (reads and writes do not move the times). */
void pipe_fd_stat(struct kobj *o, struct pcache_attr *a);
/* For an ipc_call with label on handle h of the caller that is no
 * endpoint or channel: if h is a FIFO's end whose server named its file
 * (fifo_open's file) and label is about the file itself (FILE_FSTAT,
 * FILE_STATFS, FILE_FCHMOD, FILE_FCHOWN, FILE_UTIMES), that channel's
 * endpoint (a reference) and *badge, as Linux's fstat, fstatfs, fchmod,
 * fchown and futimens of a FIFO reach its inode; else NULL. */
struct endpoint *pipe_file_endpoint(int h, uint64_t label, uint64_t *badge);
/* The inode number of pipe end o's pipe (both ends share it). */
uint64_t pipe_ino(struct kobj *o);

#endif
