/* Synchronous IPC on endpoints (abi/ipc.h), with the caller's identity
 * attached by the kernel and the server's work charged to the caller
 * (scheduling-context donation, docs/ipc.md). */
#ifndef ARBOR_IPC_H
#define ARBOR_IPC_H

#include "abi/ipc.h"
#include "kobj.h"
#include "list.h"

struct proc;
struct thread;

struct endpoint {
	struct kobj obj;
	struct proc *owner;		/* whose exit closes the endpoint */
	bool dead;
	bool io;			/* a disk's server: its callers wait for io */
	struct list_head receivers;	/* server threads waiting for a call */
	struct list_head callers;	/* callers waiting for a server */
	struct list_head events;	/* kernel messages (channel closed) */
};

/* A badged handle to an endpoint (see abi/ipc.h). */
struct channel {
	struct kobj obj;
	struct endpoint *ep;		/* a reference */
	uint64_t badge;
	bool told;			/* the server already heard of the close */
};

/* close() of the last handle to a channel: tell its server synchronously,
 * as a call, so the close has taken effect when close returns (POSIX). */
void ipc_channel_close_sync(struct kobj *o);

/* A new endpoint owned by p, installed as a handle in p: the handle or
 * a negative errno. */
int ipc_endpoint_create(struct proc *p);
/* The owner is gone: every waiter returns -EHOSTDOWN; future calls too. */
void ipc_endpoint_kill(struct endpoint *ep);
/* A thread is ending: finish any call it serves (the caller gets
 * -EHOSTDOWN) and any call it makes. */
void ipc_thread_exit(struct thread *t);
/* An IPC call whose message is already in the kernel (the reply replaces
 * *msg); snd and rcv are the caller's user buffers. */
long ipc_call_kernel(int h, struct ipc_msg *msg, const void *snd, size_t snd_len, void *rcv,
		     size_t rcv_len);
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
long pipe_fd_flags(struct kobj *o, int set);

#endif
