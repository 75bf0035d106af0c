/* Notifications: event bits to wait on (see kernel/ipc/notif.c). */
#ifndef ARBOR_NOTIF_H
#define ARBOR_NOTIF_H

#include "kobj.h"
#include "list.h"

struct proc;

struct notification {
	struct kobj obj;
	uint64_t pending;		/* bits signalled and not yet taken */
	struct list_head waiters;	/* threads in notif_wait */
};

/* A new notification installed in p: its handle or a negative errno. */
int notif_create(struct proc *p);
/* Sets bits and wakes a waiter; callable from interrupt handlers. */
void notif_signal(struct notification *n, uint64_t bits);

#endif
