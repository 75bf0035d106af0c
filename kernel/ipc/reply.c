/* Deferred replies and published file state.
 *
 * A server that cannot answer a call now (a console read waiting for
 * input) turns it into a reply object with ipc_defer: the caller stays
 * blocked, but no server thread waits with it and the caller's scheduling
 * context is no longer lent (the server goes on on its own). The server
 * answers later through the handle (ipc_reply_to), and reads or writes the
 * caller's buffers through it meanwhile (ipc_reply_copy). If the caller
 * is interrupted first (a signal, a kill, its exit, the freezer) it wakes
 * at once and the server is sent IPC_LABEL_ABANDONED naming the request,
 * so it drops it (seL4's reply objects; the last part is Arbor's).
 *
 * The file state (ipc_fstate) is what a server publishes about the file
 * behind an endpoint or a channel: readiness for poll, status flags,
 * seekability. fd_poll, fd_flags and fd_seek (fd.c) answer from it, so
 * queries never wait for a server. */
#include "ipc.h"
#include "abi/errno.h"
#include "addrspace.h"
#include "cgroup.h"
#include "heap.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

/* The reply handle is gone (closed, or its server ended): a caller still
 * waiting returns -EHOSTDOWN, as when a server dies inside a call. */
static void ipc_reply_release(struct kobj *o)
{
	struct ipc_reply *r = container_of(o, struct ipc_reply, obj);
	uint64_t f = sched_lock_ipc();
	struct thread *c = r->caller;
	if (c) {
		r->caller = NULL;
		c->ipc_reply = NULL;
		sched_wake_ipc_locked(c, -EHOSTDOWN);
	}
	sched_unlock_ipc(f);
	kfree(r->ev);
	kobj_put(&r->ep->obj);
}

void ipc_abandon_locked(struct thread *self)
{
	struct ipc_reply *r = self->ipc_reply;
	self->ipc_reply = NULL;
	r->caller = NULL;
	if (r->ev && !r->ep->dead) {
		ipc_post_event_locked(r->ep, r->ev);
		r->ev = NULL; /* the endpoint's now: freed when taken or with it */
	}
}

long sys_ipc_defer(int h, uint64_t cookie)
{
	struct thread *self = current_thread();
	long err;
	/* RECV: whoever may take the endpoint's calls may hold one */
	struct kobj *eo = handle_get_rights(self->proc, h, KOBJ_KIND(KOBJ_ENDPOINT), HANDLE_RIGHT_RECV, &err);
	if (!eo)
		return err;
	struct endpoint *ep = container_of(eo, struct endpoint, obj);
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	struct cgroup *cg = c ? c->proc->cgroup : NULL;
	if (cg)
		cg_get(cg); /* the caller's: the object is charged to it */
	sched_unlock_ipc(f);
	if (!cg) {
		kobj_put(eo);
		return -ESRCH;
	}
	struct ipc_reply *r = kobj_alloc(sizeof(*r), KOBJ_REPLY, cg, ipc_reply_release);
	cg_put(cg);
	struct ipc_event *ev = r ? kmalloc(sizeof(*ev)) : NULL;
	if (!ev) {
		if (r) {
			r->ep = ep; /* the release drops this reference */
			kobj_put(&r->obj);
		} else {
			kobj_put(eo);
		}
		return -ENOMEM;
	}
	r->ep = ep; /* keeps our reference */
	r->server = self->proc;
	r->cookie = cookie;
	r->ev = ev;
	/* RECV only: neither duplicated nor given away (and a child that
	 * inherits it by fork is refused: r->server) */
	int rh = handle_install(self->proc, &r->obj, HANDLE_RIGHT_RECV);
	if (rh < 0) {
		kobj_put(&r->obj);
		return rh;
	}
	f = sched_lock_ipc();
	c = self->ipc_caller;
	long ret = rh;
	/* DONATING, or BLOCKED when its context was released (cpu.max) */
	if (c && (c->state == THREAD_DONATING || c->state == THREAD_BLOCKED) && c->ipc_server == self) {
		*ev = (struct ipc_event){ .label = IPC_LABEL_ABANDONED, .w0 = cookie, .w1 = (uint64_t)rh };
		r->caller = c;
		c->ipc_reply = r;
		sched_ipc_defer_locked(c);
	} else {
		ret = -ESRCH; /* interrupted meanwhile */
	}
	sched_unlock_ipc(f);
	if (ret < 0)
		handle_close(self->proc, rh);
	kobj_put(&r->obj);
	return ret;
}

/* The reply object behind handle h, if the calling process deferred it. */
static struct ipc_reply *ipc_reply_get(int h, long *err)
{
	struct proc *p = current_thread()->proc;
	struct kobj *o = handle_get_rights(p, h, KOBJ_KIND(KOBJ_REPLY), HANDLE_RIGHT_RECV, err);
	if (!o)
		return NULL;
	struct ipc_reply *r = container_of(o, struct ipc_reply, obj);
	if (r->server != p) { /* only the process that deferred the call */
		kobj_put(o);
		*err = -EPERM;
		return NULL;
	}
	return r;
}

long sys_ipc_reply_to(int h, const struct ipc_msg *umsg)
{
	struct ipc_msg m;
	if (copy_from_user(&m, umsg, sizeof(m)))
		return -EFAULT;
	long err;
	struct ipc_reply *r = ipc_reply_get(h, &err);
	if (!r)
		return err;
	uint64_t f = sched_lock_ipc();
	struct thread *c = r->caller;
	if (c) {
		r->caller = NULL;
		c->ipc_reply = NULL;
		c->ipc_buf = m;
		sched_wake_ipc_locked(c, 0);
	}
	sched_unlock_ipc(f);
	kobj_put(&r->obj);
	handle_close(current_thread()->proc, h); /* used up either way */
	return c ? 0 : -ESRCH;
}

long sys_ipc_reply_copy(int h, uint64_t off, void *buf, size_t len, int to_caller)
{
	if (to_caller != 0 && to_caller != 1)
		return -EINVAL;
	if (len && !user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	long err;
	struct ipc_reply *r = ipc_reply_get(h, &err);
	if (!r)
		return err;
	struct ipc_window w;
	uint64_t f = sched_lock_ipc();
	ipc_window_locked(r->caller, to_caller, &w);
	sched_unlock_ipc(f);
	kobj_put(&r->obj);
	return ipc_window_copy(&w, off, buf, len, to_caller);
}

struct ipc_fstate *ipc_fstate_of(struct kobj *o)
{
	if (o->type == KOBJ_ENDPOINT)
		return &container_of(o, struct endpoint, obj)->fst;
	if (o->type == KOBJ_CHANNEL)
		return &container_of(o, struct channel, obj)->fst;
	return NULL;
}

struct pollq *ipc_pollq_of(struct kobj *o)
{
	if (o->type == KOBJ_ENDPOINT)
		return &container_of(o, struct endpoint, obj)->pollq;
	return &container_of(o, struct channel, obj)->pollq;
}

long sys_ipc_fstate(int h, uint32_t fst, uint32_t events, uint32_t flags, uint32_t settable)
{
	struct proc *p = current_thread()->proc;
	if (fst & ~(uint32_t)IPC_FST_SEEKABLE || events > 0xffff)
		return -EINVAL;
	long r;
	uint32_t have;
	struct kobj *o = handle_get_rights_of(p, h, KOBJ_KIND(KOBJ_ENDPOINT) | KOBJ_KIND(KOBJ_CHANNEL), 0, &r,
					      &have);
	if (!o)
		return r;
	struct ipc_fstate *s = ipc_fstate_of(o);
	/* The endpoint's manager (MANAGE) publishes for it; a channel (whose
	 * handles carry CALL only) is published for by its endpoint's owner,
	 * the server that minted it. */
	if (o->type == KOBJ_ENDPOINT)
		r = have & HANDLE_RIGHT_MANAGE ? 0 : -EPERM;
	else
		r = container_of(o, struct channel, obj)->ep->owner == p ? 0 : -EPERM;
	if (r == 0) {
		uint64_t f = sched_lock_ipc();
		s->fst = (uint8_t)fst;
		s->events = (uint16_t)events;
		s->flags = flags;
		s->settable = settable;
		s->set = true;
		/* pollers look again (the console's input came, a file's
		 * state changed) */
		pollq_wake_locked(ipc_pollq_of(o));
		sched_unlock_ipc(f);
	}
	kobj_put(o);
	return r;
}
