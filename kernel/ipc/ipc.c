/* Endpoints and the call / receive / reply protocol.
 *
 * All IPC state (endpoint queues, each thread's ipc_* fields) is guarded
 * by the scheduler lock, because every step of the protocol is also a
 * scheduling decision. User memory is copied outside the lock, each side in
 * its own address space, through its own thread's ipc_buf; the two buffers
 * are exchanged under the lock (a caller can be interrupted and vanish
 * while its server works, so the server never touches it unlocked). */
#include "ipc.h"
#include "pcache.h"
#include "abi/errno.h"
#include "addrspace.h"
#include "cgroup.h"
#include "heap.h"
#include "kstring.h"
#include "percpu.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

static void ipc_free_events(struct endpoint *ep)
{
	while (!list_empty(&ep->events)) {
		struct ipc_event *ev = list_first_entry(&ep->events, struct ipc_event, link);
		list_del(&ev->link);
		kfree(ev);
	}
}

/* Guards every process's owned_eps and the endpoints' owner_link. */
static struct spinlock ipc_owner_lock = SPINLOCK_INIT("ipc_owner");

static void ipc_endpoint_release(struct kobj *o)
{
	struct endpoint *ep = container_of(o, struct endpoint, obj);
	spin_lock(&ipc_owner_lock);
	list_del(&ep->owner_link); /* self-linked if its owner's exit took it */
	spin_unlock(&ipc_owner_lock);
	/* No thread can be waiting: each held a reference. */
	ipc_free_events(container_of(o, struct endpoint, obj));
	pcache_endpoint_release(container_of(o, struct endpoint, obj));
}

/* The last handle to a channel is gone: tell the server. */
static void ipc_channel_release(struct kobj *o)
{
	struct channel *ch = container_of(o, struct channel, obj);
	struct endpoint *ep = ch->ep;
	if (ch->kopen) { /* the server never knew of it */
		ncache_kclose(ch);
		pcache_channel_release(ch);
		kobj_put(&ep->obj);
		return;
	}
	struct ipc_event *ev = ch->told ? NULL : kmalloc(sizeof(*ev));
	uint64_t f = sched_lock_ipc();
	if (ev && !ep->dead) {
		*ev = (struct ipc_event){ .label = IPC_LABEL_CLOSED, .badge = ch->badge, .w0 = ch->badge };
		ipc_post_event_locked(ep, ev);
		ev = NULL;
	}
	sched_unlock_ipc(f);
	kfree(ev);
	pcache_channel_release(ch);
	kobj_put(&ep->obj);
}

struct channel *ipc_channel_new(struct endpoint *ep, uint64_t badge, struct cgroup *cg)
{
	struct channel *ch = kobj_alloc(sizeof(*ch), KOBJ_CHANNEL, cg, ipc_channel_release);
	if (!ch)
		return NULL;
	kobj_get(&ep->obj);
	ch->ep = ep;
	ch->badge = badge;
	ch->pos_lock = (struct spinlock)SPINLOCK_INIT("channel_pos");
	ch->pos_wait = (struct waitq)WAITQ_INIT(ch->pos_wait);
	pollq_init(&ch->pollq);
	return ch;
}

void ipc_post_event_locked(struct endpoint *ep, struct ipc_event *ev)
{
	list_add_tail(&ev->link, &ep->events);
	if (!list_empty(&ep->receivers))
		sched_wake_ipc_locked(list_first_entry(&ep->receivers, struct thread, wait_link), 0);
}

int ipc_endpoint_create(struct proc *p)
{
	struct endpoint *ep = kobj_alloc(sizeof(*ep), KOBJ_ENDPOINT, p->cgroup, ipc_endpoint_release);
	if (!ep)
		return -ENOMEM;
	ep->owner = p;
	spin_lock(&ipc_owner_lock);
	list_add(&ep->owner_link, &p->owned_eps);
	spin_unlock(&ipc_owner_lock);
	list_init(&ep->receivers);
	list_init(&ep->callers);
	list_init(&ep->events);
	pollq_init(&ep->pollq);
	int h = handle_install(p, &ep->obj, HANDLE_RIGHTS_ENDPOINT); /* the creator: every right */
	kobj_put(&ep->obj);
	return h;
}

/* The endpoint to call behind handle h (an endpoint or a channel to one,
 * with HANDLE_RIGHT_CALL), with a reference, and the channel's badge (0
 * for the endpoint itself); else NULL and *err -EBADF or -EPERM. */
static inline __attribute__((always_inline)) struct endpoint *ipc_get_badged(int h, uint64_t *badge,
									    long *err)
{
	struct kobj *o = handle_table_get(&current_thread()->proc->handles, h,
					  KOBJ_KIND(KOBJ_ENDPOINT) | KOBJ_KIND(KOBJ_CHANNEL), HANDLE_RIGHT_CALL,
					  err, NULL);
	*badge = 0;
	if (o && o->type == KOBJ_CHANNEL) {
		struct channel *ch = container_of(o, struct channel, obj);
		struct endpoint *ep = ch->ep;
		kobj_get(&ep->obj);
		*badge = ch->badge;
		kobj_put(o);
		return ep;
	}
	return o ? container_of(o, struct endpoint, obj) : NULL;
}

/* Endpoint h if the handle has every right in need (*err -EBADF, -EPERM). */
static inline __attribute__((always_inline)) struct endpoint *ipc_get(int h, uint32_t need, long *err)
{
	struct kobj *o = handle_table_get(&current_thread()->proc->handles, h, KOBJ_KIND(KOBJ_ENDPOINT), need,
					  err, NULL);
	return o ? container_of(o, struct endpoint, obj) : NULL;
}

long sys_ipc_mark_io(int h)
{
	struct proc *p = current_thread()->proc;
	if (!(p->caps & PROC_CAP_DRIVER))
		return -EPERM;
	long r;
	struct endpoint *ep = ipc_get(h, HANDLE_RIGHT_MANAGE, &r);
	if (!ep)
		return r;
	ep->io = true;
	kobj_put(&ep->obj);
	return 0;
}

long sys_chan_create(int h, uint64_t badge)
{
	struct proc *p = current_thread()->proc;
	long err;
	struct endpoint *ep = ipc_get(h, HANDLE_RIGHT_MANAGE, &err);
	if (!ep)
		return err;
	struct channel *ch = ipc_channel_new(ep, badge, p->cgroup);
	kobj_put(&ep->obj); /* the channel holds its own */
	if (!ch)
		return -ENOMEM;
	long r = handle_install(p, &ch->obj, HANDLE_RIGHTS_CLIENT); /* for a client: calling only */
	kobj_put(&ch->obj);
	return r;
}

/* ipc_info.flags of what a server thread of ep is being given (sched
 * lock held): set where the call or event is handed over (ipc_accept,
 * ipc_take_event), not again after the thread wakes, so a server's call
 * costs no more than before the flag (ipc_call_reply 825 -> 823 guest
 * instructions). IPC_INFO_NCLOG: renames the kernel made in ep's name
 * cache wait (ncache_rename). The kernel makes one only while every
 * thread serving ep waits in a receive with nothing queued, under this
 * lock: the thread given something is no longer waiting, so no rename
 * comes between the hand-over and its service. Another thread may take
 * the log meanwhile: then this one's take finds it empty (the server's
 * take is under its own lock). */
static inline uint32_t ipc_delivered_flags(const struct endpoint *ep)
{
	return ep->nc_info;
}

/* What the kernel tells a server about caller c. Field by field, not a
 * compound literal: that would zero the struct first (a rep stos on the
 * IPC fast path), and every byte, pad included, is written here anyway. */
static inline void ipc_fill_info(struct ipc_info *info, const struct thread *c, const struct endpoint *ep)
{
	const struct proc *p = c->proc;
	/* read once: after the stores into info the compiler would read
	 * them again (info might alias them, as far as it knows) */
	int32_t pid = p->pid;
	uint64_t cgid = p->cgroup->id;
	info->pid = pid;
	/* kept two stores: merged into one 8-byte store (a shift and an or)
	 * they cost an instruction more than two */
	__asm__ volatile("" ::: "memory");
	info->tid = c->tid;
	info->uid = p->cred.uid;
	info->gid = p->cred.gid;
	info->euid = p->cred.euid;
	info->egid = p->cred.egid;
	info->cgroup_id = cgid;
	info->snd_len = c->ipc_snd_len;
	info->rcv_len = c->ipc_rcv_len;
	info->badge = c->ipc_badge;
	info->ppid = p->parent ? p->parent->pid : 0;
	info->snd_inline = 0; /* set on delivery, if the inbox takes it */
	/* a plain call is on the caller's own behalf (the values above, still
	 * in registers); IPC_CALL_FOR's identity overwrites them */
	info->for_pid = pid;
	info->flags = ipc_delivered_flags(ep);
	info->for_cgroup_id = cgid;
	if (__builtin_expect(c->ipc_for_cg != 0, 0)) {
		info->for_pid = c->ipc_for_pid;
		info->for_cgroup_id = c->ipc_for_cg;
	}
}

/* On whose behalf self may call now (IPC_CALL_FOR): the call it serves
 * (whose for_* the kernel attested at its receipt), or a kernel request
 * made for a process (an event with for_cg) until its next receive.
 * -ESRCH when it serves neither: a server cannot name anyone itself. */
static long ipc_acting_for(struct thread *self, uint64_t *cg, int32_t *pid)
{
	uint64_t f = sched_lock_ipc();
	bool serving = self->ipc_caller || (self->ipc_info.pid == 0 && self->ipc_info.for_cgroup_id);
	*cg = self->ipc_info.for_cgroup_id;
	*pid = self->ipc_info.for_pid;
	if (self->wb_for_cg) { /* writeback of a page: its owner's (attested by pcache_wb_as) */
		serving = true;
		*cg = self->wb_for_cg;
		*pid = self->wb_for_pid;
	}
	sched_unlock_ipc(f);
	return serving && *cg ? 0 : -ESRCH;
}

void ipc_act_for(struct thread *self, uint64_t for_cg, int32_t for_pid)
{
	uint64_t f = sched_lock_ipc();
	if (!self->ipc_caller) /* never over a call it serves */
		self->ipc_info = (struct ipc_info){ .for_pid = for_pid, .for_cgroup_id = for_cg };
	self->wb_for_cg = 0;
	sched_unlock_ipc(f);
}

void ipc_wb_for(struct thread *self, uint64_t cg, int32_t pid)
{
	uint64_t f = sched_lock_ipc();
	self->wb_for_cg = cg;
	self->wb_for_pid = pid;
	sched_unlock_ipc(f);
}

/* The server takes caller c's request. It is copied now, under the lock:
 * a caller that is killed may vanish while the server works. So is a
 * small send buffer (ipc_out), for the server's inbox. */
static __attribute__((always_inline)) inline void ipc_accept(struct thread *server,
							    struct thread *c, const struct endpoint *ep)
{
	server->ipc_buf = c->ipc_buf;
	ipc_fill_info(&server->ipc_info, c, ep);
	server->wb_for_cg = 0; /* a new call: no writeback identity carried into it */
	if (c->ipc_snd_len - 1 < server->ipc_inbox_cap) /* 1..cap; cap <= IPC_INLINE_MAX */
		memcpy(server->ipc_in, c->ipc_out, c->ipc_snd_len);
}

/* No thread of ep's server is free: self queues its call (in self's
 * message) and waits until a server thread takes it and replies. Meanwhile
 * self lends its context to a thread of the server serving a less
 * entitled call (sched_lend_*), and the server's threads serving calls on
 * throttled contexts go on on their own (sched.h); the most entitled
 * caller that found nothing to lend to pushes the next call taken
 * (ep->unlent). The call's result (sched_block_locked's). sched lock held. */
static int ipc_queue_call_locked(struct thread *self, struct endpoint *ep)
{
	self->ipc_ep = ep;
	if (ep->owner)
		sched_donors_waiting_locked(ep->owner, 0);
	if (ep->owner && !self->ipc_lend_to &&
	    (!ep->unlent || sched_ctx_before_locked(self, ep->unlent)))
		ep->unlent = self; /* lends to the next less entitled call taken */
	int r = sched_block_locked(&ep->callers, 0);
	self->ipc_ep = NULL;
	if (ep->unlent == self)
		ep->unlent = NULL;
	/* Picked up by a server: we were DONATING until its reply.
	 * (A kill pending before we blocked: we lend no more.) */
	if (self->ipc_lend_proc)
		sched_lend_stop_locked(self);
	return r;
}

/* Performs the call the server would otherwise get as an event. */
void ipc_channel_close_sync(struct kobj *o)
{
	struct channel *ch = container_of(o, struct channel, obj);
	struct thread *self = current_thread();
	struct endpoint *ep = ch->ep;
	/* A channel to our own endpoint: waiting here could be waiting for
	 * ourselves (a single-threaded server). Our own threads hear of it
	 * from the release's message instead. */
	if (ep->owner == self->proc)
		return;
	self->ipc_buf = (struct ipc_msg){ .label = IPC_LABEL_CLOSED, .w = { ch->badge } };
	self->ipc_badge = ch->badge;
	self->ipc_snd = self->ipc_snd_len = self->ipc_rcv = self->ipc_rcv_len = 0;
	self->ipc_for_cg = 0; /* its own */
	uint64_t f = sched_lock_ipc();
	if (!ep->dead && !list_empty(&ep->receivers)) {
		struct thread *server = list_first_entry(&ep->receivers, struct thread, wait_link);
		ipc_accept(server, self, ep);
		ch->told = sched_ipc_call_locked(server) == 0;
	} else if (!ep->dead) {
		/* as any call: a close waiting behind less entitled calls
		 * lends them its context (a probe's close of /proc/meminfo
		 * waited 2-3 ms behind a flood of weight-1 readers on 2 CPUs) */
		ch->told = ipc_queue_call_locked(self, ep) == 0;
	}
	if (self->ipc_reply) /* deferred, then interrupted */
		ipc_abandon_locked(self);
	sched_unlock_ipc(f);
}

long sys_ep_create(void)
{
	return ipc_endpoint_create(current_thread()->proc);
}

/* A call on handle h that is no endpoint or channel: a FIFO's end that
 * names its file passes fstat, fstatfs, fchmod, fchown and futimens to
 * it (pipe_file_endpoint).
 * Out of line: the calls that need it are rare. */
static __attribute__((noinline)) struct endpoint *ipc_get_fifo_file(int h, struct thread *self, uint64_t *badge)
{
	return pipe_file_endpoint(h, self->ipc_buf.label, badge);
}

/* The call itself, with the message already in self->ipc_buf, where the
 * reply lands too (no extra copies: this is the IPC fast path). The
 * buffers are the caller's user memory (checked here). */
static __attribute__((always_inline)) inline long ipc_call_loaded(int h, const void *snd, size_t snd_len,
							     void *rcv, size_t rcv_len,
							     uint64_t for_cg, int32_t for_pid)
{
	struct thread *self = current_thread();
	if ((snd_len && !user_range_ok((uint64_t)snd, snd_len)) ||
	    (rcv_len && !user_range_ok((uint64_t)rcv, rcv_len)))
		return -EFAULT;
	/* A small send buffer is taken now, in our own address space: cheaper
	 * than the server reading it across address spaces later. */
	if (snd_len - 1 < IPC_INLINE_MAX && copy_from_user_self(self->ipc_out, snd, snd_len))
		return -EFAULT;
	uint64_t badge;
	long err;
	struct endpoint *ep = ipc_get_badged(h, &badge, &err);
	if (__builtin_expect(!ep, 0) && (err != -EBADF || !(ep = ipc_get_fifo_file(h, self, &badge))))
		return err;
	self->ipc_badge = badge;
	self->ipc_snd = (uint64_t)snd;
	self->ipc_snd_len = snd_len;
	self->ipc_rcv = (uint64_t)rcv;
	self->ipc_rcv_len = rcv_len;
	self->ipc_for_cg = for_cg;
	self->ipc_for_pid = for_pid;

	uint64_t f = sched_lock_ipc();
	int r;
	if (ep->io) /* waiting for a disk, through its server: io pressure */
		sched_iowait_locked(self, true);
	if (ep->dead) {
		r = -EHOSTDOWN;
	} else if (!list_empty(&ep->receivers)) {
		struct thread *server = list_first_entry(&ep->receivers, struct thread, wait_link);
		ipc_accept(server, self, ep);
		r = sched_ipc_call_locked(server);
	} else {
		r = ipc_queue_call_locked(self, ep);
	}
	if (__builtin_expect(self->ipc_reply != NULL, 0)) /* deferred, then interrupted */
		ipc_abandon_locked(self);
	if (self->iowait)
		sched_iowait_locked(self, false);
	sched_unlock_ipc(f);
	kobj_put(&ep->obj);
	return r;
}

/* A call with a message already in the kernel: the reply replaces *msg. */
long ipc_call_kernel(int h, struct ipc_msg *msg, const void *snd, size_t snd_len, void *rcv,
		     size_t rcv_len)
{
	struct thread *self = current_thread();
	self->ipc_buf = *msg;
	self->ipc_whole = true; /* read, write: file operations */
	long r = ipc_call_loaded(h, snd, snd_len, rcv, rcv_len, 0, 0);
	self->ipc_whole = self->ipc_sig_held = false;
	if (r == 0)
		*msg = self->ipc_buf;
	return r;
}

/* sys_ipc_call with the message from and the reply to umsg, on behalf
 * of for_cg/for_pid (0: the caller's own). */
static __attribute__((always_inline)) inline long ipc_call_user(int h, struct ipc_msg *umsg, const void *snd,
							   size_t snd_len, void *rcv, size_t rcv_len,
							   uint64_t for_cg, int32_t for_pid)
{
	struct thread *self = current_thread();
	if (copy_from_user_self(&self->ipc_buf, umsg, sizeof(*umsg)))
		return -EFAULT;
	long r = ipc_call_loaded(h, snd, snd_len, rcv, rcv_len, for_cg, for_pid);
	if (r == 0 && copy_to_user_self(umsg, &self->ipc_buf, sizeof(*umsg)))
		return -EFAULT;
	return r;
}

/* A call with IPC_CALL_FOR (h without it). Out of line: a plain call
 * passes constants, so carrying the identity costs it two stores. */
static __attribute__((noinline)) long ipc_call_for(int h, struct ipc_msg *umsg, const void *snd, size_t snd_len,
						   void *rcv, size_t rcv_len)
{
	uint64_t for_cg;
	int32_t for_pid;
	long e = ipc_acting_for(current_thread(), &for_cg, &for_pid);
	if (e)
		return e;
	return ipc_call_user(h, umsg, snd, snd_len, rcv, rcv_len, for_cg, for_pid);
}

/* A call with IPC_CALL_WHOLE (and maybe IPC_CALL_FOR). */
static __attribute__((noinline)) long ipc_call_whole(int h, struct ipc_msg *umsg, const void *snd,
						     size_t snd_len, void *rcv, size_t rcv_len)
{
	struct thread *self = current_thread();
	self->ipc_whole = true;
	h &= ~IPC_CALL_WHOLE;
	long r = h & IPC_CALL_FOR ? ipc_call_for(h & ~IPC_CALL_FOR, umsg, snd, snd_len, rcv, rcv_len)
				  : ipc_call_user(h, umsg, snd, snd_len, rcv, rcv_len, 0, 0);
	self->ipc_whole = self->ipc_sig_held = false;
	return r;
}

long sys_ipc_call(int h, struct ipc_msg *umsg, const void *snd, size_t snd_len,
		  void *rcv, size_t rcv_len)
{
	if (__builtin_expect(h > 0 && (h & (IPC_CALL_FOR | IPC_CALL_WHOLE)), 0)) { /* a negative h stays EBADF */
		if (h & IPC_CALL_WHOLE)
			return ipc_call_whole(h, umsg, snd, snd_len, rcv, rcv_len);
		return ipc_call_for(h & ~IPC_CALL_FOR, umsg, snd, snd_len, rcv, rcv_len);
	}
	return ipc_call_user(h, umsg, snd, snd_len, rcv, rcv_len, 0, 0);
}

/* Server side: wait for (or take a queued) call on ep. sched lock held. */
/* A kernel message for the server: no caller, nothing to reply to. */
static void ipc_take_event(struct thread *self, struct endpoint *ep)
{
	struct ipc_event *ev = list_first_entry(&ep->events, struct ipc_event, link);
	list_del(&ev->link);
	self->ipc_buf = (struct ipc_msg){ .label = ev->label, .w = { ev->w0, ev->w1 } };
	self->ipc_info = (struct ipc_info){ .badge = ev->badge, .for_pid = ev->for_pid,
					    .for_cgroup_id = ev->for_cg, .flags = ipc_delivered_flags(ep) };
	self->wb_for_cg = 0;
	kfree(ev);
}

static int ipc_wait_call_locked(struct thread *self, struct endpoint *ep)
{
	for (;;) {
		if (ep->dead) {
			sched_lend_end_locked(self);
			return -EHOSTDOWN;
		}
		if (!list_empty(&ep->callers)) {
			struct thread *c = list_first_entry(&ep->callers, struct thread, wait_link);
			/* A caller that lent us its context waits behind the
			 * call we just ended: it goes first, unless the first
			 * in the queue is more entitled (docs/scheduler.md). */
			struct thread *l = self->ipc_lender;
			if (l && l != c && l->ipc_ep == ep && l->state == THREAD_BLOCKED &&
			    !sched_ctx_before_locked(c, l))
				c = l;
			/* The most entitled caller that found no call to push
			 * when it queued pushes this one, if less entitled. */
			struct thread *u = ep->unlent;
			if (u == c)
				ep->unlent = u = NULL;
			else if (u && u->state == THREAD_BLOCKED && !u->ipc_lend_to &&
				 sched_ctx_before_locked(u, c))
				ep->unlent = NULL;
			else
				u = NULL;
			ipc_accept(self, c, ep);
			sched_ipc_take_caller_locked(c, u);
			return 0;
		}
		if (self->ipc_lender) /* serving no call now: it lends elsewhere */
			sched_lend_end_locked(self);
		if (!list_empty(&ep->events)) {
			ipc_take_event(self, ep);
			return 0;
		}
		int r = sched_block_locked(&ep->receivers, 0);
		if (r || self->ipc_caller)
			return r; /* an error, or a caller handed straight to us */
		/* woken for an event: look again */
	}
}


/* The caller's small send buffer (taken by ipc_accept) into the inbox.
 * Out of line: the fast path without one stays as short as it was. */
static __attribute__((noinline)) void ipc_fill_inbox(struct thread *self, uint64_t n)
{
	self->ipc_info.snd_inline = copy_to_user_self((void *)self->ipc_inbox, self->ipc_in, n) == 0;
}

static __attribute__((always_inline)) inline long ipc_deliver_request(struct ipc_msg *umsg,
								      struct ipc_info *uinfo)
{
	struct thread *self = current_thread();
	uint64_t n = self->ipc_info.snd_len;
	if (__builtin_expect(n - 1 < self->ipc_inbox_cap, 0)) /* 1..cap, as ipc_accept took it */
		ipc_fill_inbox(self, n);
	if (copy_to_user_self(umsg, &self->ipc_buf, sizeof(*umsg)) ||
	    (uinfo && copy_to_user_self(uinfo, &self->ipc_info, sizeof(*uinfo))))
		return -EFAULT;
	return 0;
}

long sys_ipc_inbox(void *buf, size_t cap)
{
	struct thread *self = current_thread();
	if (cap && !user_range_ok((uint64_t)buf, cap))
		return -EFAULT;
	self->ipc_inbox = (uint64_t)buf;
	self->ipc_inbox_cap = MIN(cap, (size_t)IPC_INLINE_MAX);
	return 0;
}

long sys_ipc_recv(int h, struct ipc_msg *umsg, struct ipc_info *uinfo)
{
	struct thread *self = current_thread();
	if (!user_range_ok((uint64_t)umsg, sizeof(*umsg)))
		return -EFAULT;
	long err;
	struct endpoint *ep = ipc_get(h, HANDLE_RIGHT_RECV, &err);
	if (!ep)
		return err;
	uint64_t f = sched_lock_ipc();
	int r = self->ipc_caller ? -EBUSY : ipc_wait_call_locked(self, ep);
	sched_unlock_ipc(f);
	kobj_put(&ep->obj);
	return r ? r : ipc_deliver_request(umsg, uinfo);
}

long sys_ipc_reply(const struct ipc_msg *umsg)
{
	struct thread *self = current_thread();
	if (copy_from_user_self(&self->ipc_buf, umsg, sizeof(*umsg)))
		return -EFAULT;
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	if (!c) {
		sched_unlock_ipc(f);
		return -ESRCH; /* no call, or the caller was interrupted */
	}
	c->ipc_buf = self->ipc_buf;
	sched_ipc_reply_locked(c, 0, NULL);
	sched_unlock_ipc(f);
	return 0;
}

/* Reply to the current caller (if any), then wait for the next call: the
 * common server loop in one system call. */
long sys_ipc_reply_recv(int h, struct ipc_msg *umsg, struct ipc_info *uinfo)
{
	struct thread *self = current_thread();
	if (copy_from_user_self(&self->ipc_buf, umsg, sizeof(*umsg)))
		return -EFAULT;
	long err; /* checked before the reply: no right, nothing done */
	struct endpoint *ep = ipc_get(h, HANDLE_RIGHT_RECV, &err);
	if (!ep)
		return err;
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	int r;
	if (c)
		c->ipc_buf = self->ipc_buf;
	if (c && (ep->dead || !list_empty(&ep->callers) || !list_empty(&ep->events))) {
		sched_ipc_release_caller_locked(c, 0);
		r = ipc_wait_call_locked(self, ep);
	} else if (c) {
		sched_ipc_reply_locked(c, 0, &ep->receivers);
		r = self->wake_result;
		/* Woken with no caller handed to us: for an event (posted
		 * while we waited), taken now as ipc_wait_call_locked does;
		 * else our own reply would be delivered as a request. */
		if (r == 0 && !self->ipc_caller)
			r = ipc_wait_call_locked(self, ep);
	} else {
		r = ipc_wait_call_locked(self, ep);
	}
	sched_unlock_ipc(f);
	kobj_put(&ep->obj);
	return r ? r : ipc_deliver_request(umsg, uinfo);
}

/* The server gives its current caller a handle to one of its objects (an
 * endpoint, a notification, shared memory); the caller's new handle
 * number is returned, for the server to put in its reply. The handle needs
 * HANDLE_RIGHT_TRANSFER, and the copy carries its rights, no more (a server
 * gives fewer by giving a handle_dup it reduced with handle_rights). */
long sys_ipc_give(int h)
{
	struct thread *self = current_thread();
	long err;
	uint32_t rights;
	struct kobj *o = handle_get_rights_of(self->proc, h, KOBJ_KINDS_ANY, HANDLE_RIGHT_TRANSFER, &err, &rights);
	if (!o)
		return err;
	/* Installed under the scheduler lock, while the caller is still in
	 * its call: a caller killed meanwhile has left the call (-ESRCH), and
	 * its process may be gone; one in the call has not closed its
	 * handles, so nothing is installed into a table that was emptied. */
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	int r = c ? handle_install(c->proc, o, rights) : -ESRCH;
	sched_unlock_ipc(f);
	kobj_put(o);
	return r;
}

/* The server reads from / writes to the buffers its caller offered. */

void ipc_window_locked(const struct thread *c, bool to_caller, struct ipc_window *w)
{
	w->base = c ? (to_caller ? c->ipc_rcv : c->ipc_snd) : 0;
	w->limit = c ? (to_caller ? c->ipc_rcv_len : c->ipc_snd_len) : 0;
	w->as = c ? c->proc->as : NULL;
	if (w->as)
		vm_as_get(w->as); /* the caller may be killed while we copy */
}

long ipc_window_copy(struct ipc_window *w, uint64_t off, void *ubuf, size_t len, bool to_caller)
{
	if (!w->as)
		return -ESRCH;
	long r = off > w->limit ? -EINVAL : ipc_copy(w->as, w->base + off, ubuf, MIN(len, w->limit - off), to_caller);
	vm_as_destroy(w->as);
	return r;
}

static long ipc_transfer(uint64_t off, void *ubuf, size_t len, bool to_caller)
{
	struct thread *self = current_thread();
	struct ipc_window w;
	uint64_t f = sched_lock_ipc();
	ipc_window_locked(self->ipc_caller, to_caller, &w);
	sched_unlock_ipc(f);
	return ipc_window_copy(&w, off, ubuf, len, to_caller);
}

/* Straight between the server's buffer and the caller's pages (through
 * the direct map), a page of the caller's at a time: one copy, not two. */
long ipc_copy(struct addrspace *as, uint64_t at, void *ubuf, size_t len, bool to_caller)
{
	size_t done = 0;
	while (done < len) {
		int err;
		char *k = vm_kaddr(as, at + done, to_caller, &err);
		size_t n = MIN(len - done, PAGE_SIZE - ((at + done) & (PAGE_SIZE - 1)));
		if (k)
			err = to_caller ? copy_from_user(k, (char *)ubuf + done, n)
					: copy_to_user((char *)ubuf + done, k, n);
		if (err)
			return done ? (long)done : err;
		done += n;
	}
	return (long)done;
}

long sys_ipc_read(uint64_t off, void *buf, size_t len)
{
	return ipc_transfer(off, buf, len, false);
}

long sys_ipc_write(uint64_t off, const void *buf, size_t len)
{
	return ipc_transfer(off, (void *)buf, len, true);
}

void ipc_endpoint_kill(struct endpoint *ep)
{
	uint64_t f = sched_lock_ipc();
	ep->dead = true;
	ep->owner = NULL; /* its process may be freed from now on */
	ipc_free_events(ep);
	while (!list_empty(&ep->callers))
		sched_wake_ipc_locked(list_first_entry(&ep->callers, struct thread, wait_link), -EHOSTDOWN);
	while (!list_empty(&ep->receivers))
		sched_wake_ipc_locked(list_first_entry(&ep->receivers, struct thread, wait_link), -EHOSTDOWN);
	sched_unlock_ipc(f);
	pcache_endpoint_kill(ep); /* its files' pages: freed and uncharged */
}

void ipc_thread_exit(struct thread *t)
{
	uint64_t f = sched_lock_ipc();
	/* t runs on its caller's context and goes on running (a last thread
	 * tears its process down, preemptibly): its own entity must be queued
	 * now, as for any server that outlives the call, or the first switch
	 * away leaves it runnable on no queue, forever. */
	if (t->ipc_caller)
		sched_ipc_abort_locked(t->ipc_caller, -EHOSTDOWN);
	sched_ipc_serving_clear_locked(t); /* whatever the caller's state was */
	sched_unlock_ipc(f);
}

void ipc_proc_exit(struct proc *p)
{
	ipc_names_proc_exit(p);
	/* Every endpoint p made dies with it, whether or not p still has a
	 * handle to it: a client's handle must not keep a server's endpoint
	 * callable with nobody to receive, nor its owner pointer alive. */
	for (;;) {
		struct endpoint *ep = NULL;
		spin_lock(&ipc_owner_lock);
		while (!ep && !list_empty(&p->owned_eps)) {
			struct endpoint *e = list_first_entry(&p->owned_eps, struct endpoint, owner_link);
			list_del(&e->owner_link);
			if (kobj_tryget(&e->obj)) /* else it is being freed */
				ep = e;
		}
		spin_unlock(&ipc_owner_lock);
		if (!ep)
			break;
		ipc_endpoint_kill(ep);
		kobj_put(&ep->obj);
	}
}
