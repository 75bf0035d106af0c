/* Unix-domain sockets in the kernel (AF_UNIX: SOCK_STREAM, SOCK_DGRAM,
 * SOCK_SEQPACKET), as Linux's net/unix: docs/sockets.md.
 *
 * A socket is a kernel object held by handles, so dup, fork, close-on-exec
 * and exit behave as for any descriptor, and data never passes through a
 * server. Each socket has a receive queue of messages (a datagram, a
 * packet, or a stretch of stream bytes), each with the sender's
 * credentials (taken here, never from the sender's word unless it may
 * claim them), its passed descriptors (object references with the rights
 * their handles had) and the sender's name. A sender may have at most
 * SO_SNDBUF bytes (counting a per-message overhead, as Linux counts an
 * skb's truesize) queued at the receiver; past that it waits or gets
 * EAGAIN. Every message's pages are charged to the cgroup of the socket
 * that sent it, as memory.stat "sock".
 *
 * Names: an abstract name (sun_path[0] == 0) lives here; a path name is a
 * socket file (S_IFSOCK) the C library creates in its file system. The
 * library gives bind, connect and sendto an O_PATH descriptor of that file
 * (its file server's walk checked search permission); the kernel takes
 * the file's page cache object from it, which the server keeps up to date
 * with the file's mode and owner, checks them itself (write permission to
 * connect or send, as Linux's unix_find_bsd; a new file of the caller's
 * to bind) and keys the binding by the object: nothing the caller says
 * about the file is believed.
 *
 * Locking: one lock, usock_lock, guards every socket's state and queue
 * (the sockets of a machine are few and their critical sections short).
 * A reader holds the socket's reading flag while it copies out of its
 * queue's head, so the message stays put without the lock, and the copy
 * may fault. Nothing sleeps holding a reference to another socket: a
 * sender waits on its own wwait (connected) or on usock_room, and finds
 * its target again when woken. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "abi/signal.h"
#include "abi/socket.h"
#include "cgroup.h"
#include "heap.h"
#include "ipc.h"
#include "kobj.h"
#include "kstring.h"
#include "memcg.h"
#include "pcache.h"
#include "poll.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"
#include "unixsock.h"

long sys_handle_flags(int h, int set); /* kernel/proc/handle.c: FD_CLOEXEC */

#define USOCK_DEFAULT_BUF 212992u	/* Linux's wmem_default and rmem_default */
#define USOCK_MAX_SET 212992u		/* wmem_max, rmem_max */
#define USOCK_MIN_SNDBUF 4608u
#define USOCK_MIN_RCVBUF 2304u
#define USOCK_MSG_OVERHEAD 512u		/* counted per message, as an skb's head */
#define USOCK_CHUNK 65536u		/* stream bytes per message, at most */
#define USOCK_SOMAXCONN 4096
#define USOCK_MAX_IOV 1024		/* UIO_MAXIOV */
#define USOCK_MAX_CONTROL 20480u	/* optmem_max */
#define USOCK_GC_TRIGGER 1024u		/* sockets in flight past the last
					   collection's count at which a send of
					   descriptors collects first (Linux's
					   UNIX_INFLIGHT_TRIGGER_GC is 16000; a
					   socket here costs a page) */

enum { US_UNCONN, US_LISTEN, US_CONNECTED };
#define US_SHUT_RCV 1
#define US_SHUT_SEND 2

struct usock_name {
	uint32_t len;			/* bytes of addr used: 2 when unbound */
	char addr[K_SUN_LEN_MAX];	/* struct sockaddr_un as Linux keeps it */
};

struct usock_fdent {
	struct kobj *o;
	uint32_t rights;
};

struct usock_msg {
	struct usock_msg *next;
	uint32_t len, off;		/* data bytes; how many a stream reader took */
	uint32_t cost;			/* counted against the sender's SO_SNDBUF */
	uint32_t nfds;
	uint32_t pages;			/* charged to cg as MEMCG_STAT_SOCK */
	struct cgroup *cg;		/* a reference */
	struct k_ucred cred;
	struct usock_fdent *fds;
	struct usock_name from;
	char data[];
};

struct usock {
	struct kobj obj;
	int type;
	int state;
	int shut;			/* US_SHUT_* */
	int so_error;			/* a positive errno, read once (SO_ERROR, recv) */
	int nonblock;			/* O_NONBLOCK */
	bool passcred, reuseaddr, reading, embryo, dpeer_dead;
	uint64_t ino;			/* its inode number (fstat, /proc/PID/fd) */
	uint32_t sndbuf, rcvbuf;
	uint64_t rcvtimeo, sndtimeo;	/* ns, 0: none */
	struct usock *peer;		/* connected pair (no reference: cleared at release) */
	struct usock *dpeer;		/* a datagram socket's connect() target (likewise) */
	struct usock_msg *rq_head, *rq_tail;
	uint32_t rq_bytes;		/* the queued messages' cost */
	struct usock *pend_head, *pend_tail, *pend_next; /* a listener's connections (references) */
	int npend, backlog;
	struct usock *all_next;		/* usock_all */
	/* The garbage collector's (usock_gc_locked, under usock_lock): how
	 * many references to this socket queued messages hold (it is in
	 * flight in an SCM_RIGHTS), whether it may be garbage in this pass,
	 * and the pass's stack of sockets found reachable. */
	uint32_t inflight;
	bool gc_cand;
	struct usock *gc_next;
	bool bound, path;		/* path: bound to the socket file node */
	struct pcache_obj *node;	/* that file's object (a reference) */
	struct usock_name name;
	bool has_peercred;
	struct k_ucred peercred;
	uint32_t flagopts;		/* bit n: boolean option n that changes nothing here */
	int32_t linger[2];		/* SO_LINGER as set (nothing to flush at close) */
	struct waitq rwait, wwait;	/* readers and acceptors; writers to the peer */
	struct pollq pollq;		/* pollers (poll, select, epoll): woken with either */
};

static struct spinlock usock_lock = SPINLOCK_INIT("usock");
static struct usock *usock_all;
static uint32_t usock_inflight_total;	/* the sum of every socket's inflight (usock_lock) */
static uint32_t usock_gc_floor;		/* sockets in flight the last collection left (usock_lock) */
static struct waitq usock_room = WAITQ_INIT(usock_room);
static uint32_t usock_autobind_next;

static inline struct usock *usock_of(struct kobj *o)
{
	return container_of(o, struct usock, obj);
}

/* The caller's credentials as the kernel knows them: pid, real ids
 * (SCM_CREDENTIALS) or effective (SO_PEERCRED). */
static struct k_ucred usock_cred_now(bool effective)
{
	struct proc *p = current_thread()->proc;
	struct k_ucred c = { .pid = p->pid, .uid = effective ? p->cred.euid : p->cred.uid,
			     .gid = effective ? p->cred.egid : p->cred.gid };
	return c;
}

static void usock_msg_free(struct usock_msg *m)
{
	for (uint32_t i = 0; i < m->nfds; i++)
		if (m->fds[i].o)
			kobj_put(m->fds[i].o);
	kfree(m->fds);
	mem_uncharge(m->cg, m->pages, MEMCG_STAT_SOCK);
	cg_put(m->cg);
	kfree(m);
}

static struct usock_msg *usock_gc_locked(void);

/* Frees the list of messages m (a NULL-ended chain of next). Freeing a
 * message drops its descriptors' references, and the last reference to a
 * socket frees that socket's queue in turn, so a chain of sockets each in
 * flight in the previous one's queue would recurse once per link, past
 * the kernel stack (a user's close could panic the machine). So the work
 * is iterative: the messages join the calling thread's list, and the
 * outermost call in that thread frees until it is empty; a call nested in
 * it (a release inside a free) only adds to the list. Releases in there
 * ask for a collection instead of making one each (usock_gc_soon), and
 * the loop makes one when the list is empty, so tearing down a chain of
 * N sockets costs one collection, not N. Linux defers the fput likewise. */
static void usock_msgs_free(struct usock_msg *m)
{
	struct thread *self = current_thread();
	if (m) {
		struct usock_msg *tail = m;
		while (tail->next)
			tail = tail->next;
		tail->next = self->usock_dead;
		self->usock_dead = m;
	}
	if (self->usock_draining)
		return;
	self->usock_draining = true;
	for (;;) {
		while ((m = self->usock_dead)) {
			self->usock_dead = m->next;
			usock_msg_free(m);
		}
		if (!self->usock_gc_wanted)
			break;
		self->usock_gc_wanted = false;
		spin_lock(&usock_lock);
		self->usock_dead = usock_gc_locked();
		spin_unlock(&usock_lock);
	}
	self->usock_draining = false;
}

/* A release while sockets are in flight: collect (Linux's unix_gc at
 * unix_release_sock), now, or when the freeing loop up this thread's
 * stack has finished. */
static void usock_gc_soon(void)
{
	current_thread()->usock_gc_wanted = true;
	usock_msgs_free(NULL);
}

static struct usock *usock_of_fd(const struct usock_fdent *f)
{
	return f->o && f->o->type == KOBJ_SOCKET ? usock_of(f->o) : NULL;
}

/* The sockets m carries enter (d 1) or leave (d -1) flight: queued in a
 * socket's receive queue, or taken out of it (usock_lock held). */
static void usock_inflight_add(const struct usock_msg *m, int d)
{
	for (uint32_t i = 0; i < m->nfds; i++) {
		struct usock *x = usock_of_fd(&m->fds[i]);
		if (x) {
			x->inflight += (uint32_t)d;
			usock_inflight_total += (uint32_t)d;
		}
	}
	if (usock_gc_floor > usock_inflight_total)
		__atomic_store_n(&usock_gc_floor, usock_inflight_total, __ATOMIC_RELAXED);
}

/* A message of len bytes from socket s (not queued yet), charged to s's
 * cgroup with extra bytes more (its passed descriptors' array): NULL and
 * *err -ENOBUFS if the charge or the memory is refused. */
static struct usock_msg *usock_msg_new(struct usock *s, size_t len, size_t extra, long *err)
{
	size_t size = sizeof(struct usock_msg) + len;
	uint32_t pages = (uint32_t)((size + extra + PAGE_SIZE - 1) / PAGE_SIZE);
	struct cgroup *cg = s->obj.charged;
	*err = -ENOBUFS;
	if (mem_charge_no_oom(cg, pages, MEMCG_STAT_SOCK)) /* a send may fail: ENOBUFS */
		return NULL;
	struct usock_msg *m = kmalloc(size);
	if (!m) {
		mem_uncharge(cg, pages, MEMCG_STAT_SOCK);
		return NULL;
	}
	memset(m, 0, sizeof(*m));
	m->len = (uint32_t)len;
	m->cost = (uint32_t)len + USOCK_MSG_OVERHEAD;
	m->pages = pages;
	m->cg = cg;
	cg_get(cg);
	return m;
}

static void usock_enqueue(struct usock *r, struct usock_msg *m)
{
	m->next = NULL;
	if (r->rq_tail)
		r->rq_tail->next = m;
	else
		r->rq_head = m;
	r->rq_tail = m;
	r->rq_bytes += m->cost;
	usock_inflight_add(m, 1);
	waitq_wake_all(&r->rwait, 0);
	pollq_wake(&r->pollq);
}

/* Takes r's head message off its queue (usock_lock held); the writers
 * that wait for room are woken. */
static struct usock_msg *usock_dequeue(struct usock *r)
{
	struct usock_msg *m = r->rq_head;
	r->rq_head = m->next;
	if (!r->rq_head)
		r->rq_tail = NULL;
	r->rq_bytes -= m->cost;
	usock_inflight_add(m, -1);
	m->next = NULL;
	if (r->peer) {
		waitq_wake_all(&r->peer->wwait, 0);
		pollq_wake(&r->peer->pollq);
	}
	waitq_wake_all(&usock_room, 0);
	return m;
}

/* Sleeps on wq with usock_lock held (given up while asleep, held again on
 * return): 0 when woken, -EINTR, or -EAGAIN when deadline passed. */
static int usock_sleep(struct waitq *wq, uint64_t deadline)
{
	int r = waitq_wait(wq, &usock_lock, deadline);
	spin_lock(&usock_lock);
	return r == -ETIMEDOUT ? -EAGAIN : r;
}

static uint64_t usock_deadline(uint64_t timeo)
{
	return timeo ? clock_ns() + timeo : 0;
}

/* The garbage collector's mark: the sockets in flight in x's queue
 * are reachable (no longer candidates) and go on the stack to be scanned
 * in turn. */
static void usock_gc_scan(struct usock *x, struct usock **stack)
{
	for (struct usock_msg *m = x->rq_head; m; m = m->next)
		for (uint32_t i = 0; i < m->nfds; i++) {
			struct usock *y = usock_of_fd(&m->fds[i]);
			if (y && y->gc_cand) {
				y->gc_cand = false;
				y->gc_next = *stack;
				*stack = y;
			}
		}
}

/* Linux's unix_gc (usock_lock held): sockets passed in a cycle (a socket
 * sent over itself, or a and b each in the other's queue) and closed by
 * every process are held only by the messages in each other's queues,
 * which no one can ever receive. A candidate is a socket in flight whose
 * every reference is a queued message's (no descriptor, no call in
 * progress, no poll, no listener's queue holds it); a candidate found in
 * the queue of a socket that is not one, or of one found so, is
 * reachable. The rest are garbage: their queues are emptied here and the
 * messages returned for the caller to free after the lock (which drops
 * the references that kept the cycle). Nothing can take a new reference
 * to a candidate meanwhile: that needs a descriptor of it or a receive
 * from a queue, and both need this lock. Work: each socket and each
 * queued descriptor once. */
static struct usock_msg *usock_gc_locked(void)
{
	if (!usock_inflight_total)
		return NULL;
	for (struct usock *x = usock_all; x; x = x->all_next)
		x->gc_cand = x->inflight && __atomic_load_n(&x->obj.refcount, __ATOMIC_ACQUIRE) == x->inflight;
	struct usock *stack = NULL;
	for (struct usock *x = usock_all; x; x = x->all_next)
		if (!x->gc_cand)
			usock_gc_scan(x, &stack);
	while (stack) {
		struct usock *x = stack;
		stack = x->gc_next;
		usock_gc_scan(x, &stack);
	}
	struct usock_msg *dead = NULL;
	for (struct usock *x = usock_all; x; x = x->all_next) {
		if (!x->gc_cand)
			continue;
		x->gc_cand = false;
		while (x->rq_head) {
			struct usock_msg *m = usock_dequeue(x);
			m->next = dead;
			dead = m;
		}
	}
	__atomic_store_n(&usock_gc_floor, usock_inflight_total, __ATOMIC_RELAXED); /* the rest is reachable */
	return dead;
}

static void usock_release(struct kobj *o)
{
	struct usock *s = usock_of(o);
	pollq_detach_all(&s->pollq);
	spin_lock(&usock_lock);
	for (struct usock **pp = &usock_all; *pp; pp = &(*pp)->all_next)
		if (*pp == s) {
			*pp = s->all_next;
			break;
		}
	struct usock_msg *msgs = s->rq_head;
	bool unread = msgs != NULL;
	for (struct usock_msg *m = msgs; m; m = m->next)
		usock_inflight_add(m, -1);
	s->rq_head = s->rq_tail = NULL;
	struct usock *pend = s->pend_head;
	s->pend_head = s->pend_tail = NULL;
	struct usock *p = s->peer;
	if (p) {
		p->peer = NULL;
		if (s->type == K_SOCK_DGRAM) {
			p->dpeer_dead = true;	/* its sends: ECONNREFUSED */
		} else {
			p->shut = US_SHUT_RCV | US_SHUT_SEND;
			if (unread || s->embryo)
				p->so_error = ECONNRESET;
		}
		waitq_wake_all(&p->rwait, 0);
		pollq_wake(&p->pollq);
		waitq_wake_all(&p->wwait, 0);
		pollq_wake(&p->pollq);
	}
	for (struct usock *x = usock_all; x; x = x->all_next)
		if (x->dpeer == s) {
			x->dpeer = NULL;
			x->dpeer_dead = true;
		}
	waitq_wake_all(&usock_room, 0);
	struct pcache_obj *node = s->node;
	s->node = NULL;
	bool collect = usock_inflight_total != 0;
	spin_unlock(&usock_lock);
	if (node)
		pcache_obj_put(node);
	struct thread *self = current_thread();
	bool outer = !self->usock_draining; /* then the embryos' releases wait for the loop below */
	self->usock_draining = true;
	while (pend) {
		struct usock *next = pend->pend_next;
		kobj_put(&pend->obj);
		pend = next;
	}
	if (outer)
		self->usock_draining = false;
	usock_msgs_free(msgs);
	if (collect)
		usock_gc_soon();
}

uint64_t usock_ino(struct kobj *o)
{
	return container_of(o, struct usock, obj)->ino;
}

/* A new socket of type for the calling process (not yet in any table). */
static struct usock *usock_new(int type)
{
	struct proc *self = current_thread()->proc;
	struct usock *s = kobj_alloc(sizeof(*s), KOBJ_SOCKET, self->cgroup, usock_release);
	if (!s)
		return NULL;
	s->type = type;
	s->ino = kobj_next_ino();
	s->sndbuf = s->rcvbuf = USOCK_DEFAULT_BUF;
	s->name.len = 2;
	s->name.addr[0] = K_AF_UNIX;
	waitq_init(&s->rwait);
	waitq_init(&s->wwait);
	pollq_init(&s->pollq);
	spin_lock(&usock_lock);
	s->all_next = usock_all;
	usock_all = s;
	spin_unlock(&usock_lock);
	return s;
}

/* The socket behind descriptor fd (a reference), or NULL with *err
 * -EBADF (no descriptor) or -ENOTSOCK (another kind of file). */
static struct usock *usock_get(int fd, long *err)
{
	struct kobj *o = handle_get(current_thread()->proc, fd, KOBJ_ANY);
	if (!o) {
		*err = -EBADF;
		return NULL;
	}
	if (o->type != KOBJ_SOCKET) {
		kobj_put(o);
		*err = -ENOTSOCK;
		return NULL;
	}
	return usock_of(o);
}

#define USOCK_RIGHTS (HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ | HANDLE_RIGHT_WRITE)

/* Installs s in the caller's table with SOCK_CLOEXEC/SOCK_NONBLOCK from
 * flags; drops the caller's reference. The descriptor or -EMFILE. */
static long usock_install(struct usock *s, int flags)
{
	struct proc *self = current_thread()->proc;
	s->nonblock = (flags & K_SOCK_NONBLOCK) ? O_NONBLOCK : 0;
	int fd = handle_install(self, &s->obj, USOCK_RIGHTS);
	kobj_put(&s->obj);
	if (fd >= 0 && (flags & K_SOCK_CLOEXEC))
		sys_handle_flags(fd, HANDLE_CLOEXEC);
	return fd;
}

static long usock_check_type(int domain, int type, int protocol)
{
	if (domain != K_AF_UNIX)
		return -EAFNOSUPPORT;
	if (type & ~(K_SOCK_TYPE_MASK | K_SOCK_NONBLOCK | K_SOCK_CLOEXEC))
		return -EINVAL;
	int t = type & K_SOCK_TYPE_MASK;
	if (t >= 11) /* SOCK_MAX */
		return -EINVAL;
	if (t != K_SOCK_STREAM && t != K_SOCK_DGRAM && t != K_SOCK_SEQPACKET)
		return -ESOCKTNOSUPPORT;
	if (protocol != 0 && protocol != K_AF_UNIX) /* PF_UNIX, as Linux takes */
		return -EPROTONOSUPPORT;
	return 0;
}

long sys_sock_create(int domain, int type, int protocol)
{
	long r = usock_check_type(domain, type, protocol);
	if (r)
		return r;
	struct usock *s = usock_new(type & K_SOCK_TYPE_MASK);
	return s ? usock_install(s, type) : -ENOMEM;
}

long sys_sock_pair(int domain, int type, int protocol, int *fds)
{
	long r = usock_check_type(domain, type, protocol);
	if (r)
		return r;
	if (!user_range_ok((uint64_t)fds, 2 * sizeof(int)))
		return -EFAULT;
	struct usock *a = usock_new(type & K_SOCK_TYPE_MASK);
	struct usock *b = a ? usock_new(type & K_SOCK_TYPE_MASK) : NULL;
	if (!b) {
		if (a)
			kobj_put(&a->obj);
		return -ENOMEM;
	}
	struct k_ucred c = usock_cred_now(true);
	spin_lock(&usock_lock);
	a->peer = b;
	b->peer = a;
	a->state = b->state = US_CONNECTED;
	a->peercred = b->peercred = c;
	a->has_peercred = b->has_peercred = true;
	spin_unlock(&usock_lock);
	int out[2] = { (int)usock_install(a, type), (int)usock_install(b, type) };
	struct proc *self = current_thread()->proc;
	if (out[0] < 0 || out[1] < 0 || copy_to_user(fds, out, sizeof(out))) {
		if (out[0] >= 0)
			handle_close(self, out[0]);
		if (out[1] >= 0)
			handle_close(self, out[1]);
		return out[0] < 0 || out[1] < 0 ? -EMFILE : -EFAULT;
	}
	return 0;
}

/* An address from user space, checked as Linux's unix_validate_addr and
 * made canonical as unix_mkname: a path is cut at its NUL (len counts it),
 * an abstract name keeps its length. 0, -EINVAL or -EFAULT. */
static long usock_name_in(const void *uaddr, uint32_t len, struct usock_name *n)
{
	if (len < 2 || len > K_SUN_LEN_MAX)
		return -EINVAL;
	memset(n, 0, sizeof(*n));
	if (copy_from_user(n->addr, uaddr, len))
		return -EFAULT;
	uint16_t fam;
	memcpy(&fam, n->addr, sizeof(fam));
	if (fam != K_AF_UNIX)
		return -EINVAL;
	n->len = len;
	if (len > 2 && n->addr[2]) { /* a path: up to its NUL, which it gets */
		uint32_t i = 2;
		while (i < len && n->addr[i])
			i++;
		n->len = i + 1 <= K_SUN_LEN_MAX ? i + 1 : K_SUN_LEN_MAX;
	}
	return 0;
}

static bool usock_is_path(const struct usock_name *n)
{
	return n->len > 2 && n->addr[2];
}

/* The bound socket a name (and, for a path, its file's node) reaches, or
 * NULL (usock_lock held). Abstract names are per type, as Linux's (its
 * hash of one includes the type): a path names one socket of any type. */
static struct usock *usock_lookup(const struct usock_name *n, const struct pcache_obj *node, int type)
{
	bool path = usock_is_path(n);
	for (struct usock *x = usock_all; x; x = x->all_next) {
		if (!x->bound || x->path != path || (!path && x->type != type))
			continue;
		if (path ? x->node == node : x->name.len == n->len && !memcmp(x->name.addr, n->addr, n->len))
			return x;
	}
	return NULL;
}

#define USOCK_S_IFMT 0170000u
#define USOCK_S_IFSOCK 0140000u

/* Linux's generic_permission(MAY_WRITE) on a file's attributes with the
 * caller's effective ids and supplementary groups: one class applies;
 * euid 0 writes anything (CAP_DAC_OVERRIDE). 0 or -EACCES. */
static long usock_may_write(const struct pcache_attr *a)
{
	const struct cred *c = &current_thread()->proc->cred;
	uint32_t mode = a->mode;
	if (c->euid == 0)
		return 0;
	if (c->euid == a->uid)
		mode >>= 6;
	else if (c->egid == a->gid || cred_in_group(c, a->gid))
		mode >>= 3;
	return (mode & 2) ? 0 : -EACCES;
}

/* The socket file a path address names: the page cache object the file
 * server attached to descriptor node_fd (an O_PATH open of the path), a
 * reference in *out. An abstract name needs none (0, *out NULL); a path
 * without a descriptor is K_SOCK_NEED_NODE; node_fd not a descriptor is
 * -EBADF. bind (Linux's mknod of a new file) takes only a socket file
 * the caller's euid owns (its creator's) that no socket was bound to
 * before (checked at the binding itself): else -EADDRINUSE, as a file
 * already there. connect and send (unix_find_bsd) need write permission
 * on it (-EACCES), then a socket file (-ECONNREFUSED). The attributes are
 * the server's record in the object, never the caller's word. */
static long usock_node_get(const struct usock_name *n, int node_fd, bool bind, struct pcache_obj **out)
{
	*out = NULL;
	if (!usock_is_path(n))
		return 0;
	if (node_fd == K_SOCK_NO_NODE)
		return K_SOCK_NEED_NODE;
	long err = 0;
	struct kobj *o = handle_get_rights(current_thread()->proc, node_fd, KOBJ_KINDS_ANY, 0, &err);
	if (!o)
		return err;
	struct channel *ch = o->type == KOBJ_CHANNEL ? container_of(o, struct channel, obj) : NULL;
	struct pcache_obj *pc = ch ? __atomic_load_n(&ch->pc, __ATOMIC_ACQUIRE) : NULL;
	struct pcache_attr a = { 0 };
	if (pc) {
		pcache_obj_get(pc);
		pcache_obj_getattr(pc, &a);
	}
	kobj_put(o);
	if (bind)
		err = !pc || (a.mode & USOCK_S_IFMT) != USOCK_S_IFSOCK || a.uid != current_thread()->proc->cred.euid ?
			      -EADDRINUSE : 0;
	else if (!pc)
		err = -ECONNREFUSED; /* no file the kernel knows: not a socket's */
	else if (!(err = usock_may_write(&a)) && (a.mode & USOCK_S_IFMT) != USOCK_S_IFSOCK)
		err = -ECONNREFUSED;
	if (err && pc)
		pcache_obj_put(pc);
	else
		*out = pc;
	return err;
}

/* Linux's autobind: an abstract name of five hex digits no one holds;
 * -ENOSPC when all 2^20 are taken. */
static long usock_autobind_locked(struct usock *s)
{
	struct usock_name n = { .len = 8 };
	n.addr[0] = K_AF_UNIX;
	for (uint32_t tries = 0;; tries++) {
		if (tries > 0xfffff)
			return -ENOSPC;
		uint32_t v = usock_autobind_next++ & 0xfffff;
		for (int i = 0; i < 5; i++)
			n.addr[3 + i] = "0123456789abcdef"[(v >> (4 * (4 - i))) & 0xf];
		if (!usock_lookup(&n, NULL, s->type))
			break;
	}
	s->name = n;
	s->bound = true;
	s->path = false;
	return 0;
}

long sys_sock_bind(int fd, const void *addr, uint32_t len, int node)
{
	long err = 0;
	struct usock_name n;
	struct pcache_obj *kn = NULL;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	err = usock_name_in(addr, len, &n);
	if (!err)
		err = usock_node_get(&n, node, true, &kn);
	if (err) {
		kobj_put(&s->obj);
		return err;
	}
	spin_lock(&usock_lock);
	if (s->bound)
		err = -EINVAL;
	else if (len == 2)
		err = usock_autobind_locked(s);
	else if (kn ? __atomic_exchange_n(&kn->sock_named, true, __ATOMIC_ACQ_REL) : usock_lookup(&n, NULL, s->type) != NULL)
		err = -EADDRINUSE; /* a file named once stays taken, as Linux's */
	else {
		s->name = n;
		s->node = kn;
		kn = NULL; /* the binding holds it */
		s->path = usock_is_path(&n);
		s->bound = true;
	}
	spin_unlock(&usock_lock);
	if (kn)
		pcache_obj_put(kn);
	kobj_put(&s->obj);
	return err;
}

long sys_sock_listen(int fd, int backlog)
{
	long err = 0;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	struct k_ucred c = usock_cred_now(true);
	spin_lock(&usock_lock);
	if (s->type == K_SOCK_DGRAM)
		err = -EOPNOTSUPP;
	else if (!s->bound || s->state == US_CONNECTED)
		err = -EINVAL;
	else {
		s->backlog = (unsigned)backlog > USOCK_SOMAXCONN ? USOCK_SOMAXCONN : backlog;
		s->state = US_LISTEN;
		s->peercred = c;
		s->has_peercred = true;
		waitq_wake_all(&usock_room, 0); /* a larger backlog */
	}
	spin_unlock(&usock_lock);
	kobj_put(&s->obj);
	return err;
}

/* connect of a stream or seqpacket socket: a new socket joins the
 * listener's queue, connected to s at once (as Linux: data may flow before
 * accept). Waits while the backlog is full. */
static long usock_connect_stream(struct usock *s, const struct usock_name *n, const struct pcache_obj *node)
{
	struct usock *e = usock_new(s->type);
	if (!e)
		return -ENOMEM;
	struct k_ucred c = usock_cred_now(true);
	uint64_t deadline = usock_deadline(s->sndtimeo);
	long err = 0;
	spin_lock(&usock_lock);
	for (;;) {
		/* Linux's order: the listener, its backlog, then s's state */
		struct usock *l = usock_lookup(n, node, s->type);
		err = !l ? -ECONNREFUSED : l->type != s->type ? -EPROTOTYPE :
		      l->state != US_LISTEN ? -ECONNREFUSED : 0;
		if (err)
			break;
		if (l->npend > l->backlog) {
			err = s->nonblock ? -EAGAIN : usock_sleep(&usock_room, deadline);
			if (err)
				break;
			continue;
		}
		err = s->state == US_CONNECTED ? -EISCONN : s->state == US_LISTEN ? -EINVAL : 0;
		if (err)
			break;
		e->state = s->state = US_CONNECTED;
		e->peer = s;
		s->peer = e;
		e->embryo = true;
		e->name = l->name;
		e->peercred = c;
		s->peercred = l->peercred;
		e->has_peercred = s->has_peercred = true;
		e->sndbuf = l->sndbuf;
		e->rcvbuf = l->rcvbuf;
		e->passcred = l->passcred;
		if (l->pend_tail)
			l->pend_tail->pend_next = e;
		else
			l->pend_head = e;
		l->pend_tail = e;
		l->npend++;
		waitq_wake_all(&l->rwait, 0);
		pollq_wake(&l->pollq);
		e = NULL; /* the listener's queue holds it */
		break;
	}
	spin_unlock(&usock_lock);
	if (e)
		kobj_put(&e->obj);
	return err;
}

/* connect of a datagram socket: its default destination (family
 * AF_UNSPEC: none again). */
static long usock_connect_dgram(struct usock *s, const struct usock_name *n, const struct pcache_obj *node)
{
	long err = 0;
	spin_lock(&usock_lock);
	struct usock *t = usock_lookup(n, node, s->type);
	if (!t)
		err = -ECONNREFUSED;
	else if (t->type != s->type)
		err = -EPROTOTYPE;
	else if (s->peer)
		err = -EISCONN; /* a socketpair's: Linux reconnects, we keep it simple */
	else {
		s->dpeer = t;
		s->dpeer_dead = false;
	}
	spin_unlock(&usock_lock);
	return err;
}

long sys_sock_connect(int fd, const void *addr, uint32_t len, int node)
{
	long err = 0;
	struct usock_name n;
	struct pcache_obj *kn = NULL;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	uint16_t fam;
	if (s->type == K_SOCK_DGRAM && len >= 2 && !copy_from_user(&fam, addr, 2) && fam == 0) {
		spin_lock(&usock_lock); /* AF_UNSPEC: disconnect */
		s->dpeer = NULL;
		spin_unlock(&usock_lock);
		kobj_put(&s->obj);
		return 0;
	}
	err = usock_name_in(addr, len, &n);
	if (!err && len == 2)
		err = -EINVAL;
	if (!err)
		err = usock_node_get(&n, node, false, &kn);
	if (!err)
		err = s->type == K_SOCK_DGRAM ? usock_connect_dgram(s, &n, kn) : usock_connect_stream(s, &n, kn);
	if (kn)
		pcache_obj_put(kn);
	kobj_put(&s->obj);
	return err;
}

/* Copies n's address to uaddr/ulen as Linux: *ulen in is the room, out
 * the address's real length. */
static long usock_name_out(const struct usock_name *n, void *uaddr, uint32_t *ulen)
{
	uint32_t room;
	if (!ulen)
		return 0;
	if (copy_from_user(&room, ulen, sizeof(room)))
		return -EFAULT;
	if ((int32_t)room < 0)
		return -EINVAL;
	uint32_t k = room < n->len ? room : n->len;
	if ((k && copy_to_user(uaddr, n->addr, k)) || copy_to_user(ulen, &n->len, sizeof(n->len)))
		return -EFAULT;
	return 0;
}

long sys_sock_accept(int fd, void *addr, uint32_t *len, int flags)
{
	long err = 0;
	if (flags & ~(K_SOCK_NONBLOCK | K_SOCK_CLOEXEC))
		return -EINVAL;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	uint64_t deadline = usock_deadline(s->rcvtimeo);
	struct usock *e = NULL;
	struct usock_name peer = { 0 };
	spin_lock(&usock_lock);
	for (;;) {
		err = s->type == K_SOCK_DGRAM ? -EOPNOTSUPP : s->state != US_LISTEN ? -EINVAL : 0;
		if (err)
			break;
		if (s->pend_head) {
			e = s->pend_head;
			s->pend_head = e->pend_next;
			if (!s->pend_head)
				s->pend_tail = NULL;
			s->npend--;
			e->pend_next = NULL;
			e->embryo = false;
			if (e->peer)
				peer = e->peer->name;
			else
				peer.len = 2, peer.addr[0] = K_AF_UNIX;
			waitq_wake_all(&usock_room, 0);
			break;
		}
		err = s->nonblock ? -EAGAIN : usock_sleep(&s->rwait, deadline);
		if (err)
			break;
	}
	spin_unlock(&usock_lock);
	if (!e) {
		kobj_put(&s->obj);
		return err;
	}
	kobj_put(&s->obj);
	long nfd = usock_install(e, flags);
	if (nfd < 0)
		return nfd;
	err = usock_name_out(&peer, addr, len);
	if (err) {
		handle_close(current_thread()->proc, (int)nfd);
		return err;
	}
	return nfd;
}

long sys_sock_name(int fd, int peer, void *addr, uint32_t *len)
{
	long err = 0;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	struct usock_name n;
	spin_lock(&usock_lock);
	struct usock *p = s->peer ? s->peer : s->dpeer;
	if (!peer)
		n = s->name;
	else if (p)
		n = p->name;
	else
		err = -ENOTCONN;
	spin_unlock(&usock_lock);
	kobj_put(&s->obj);
	return err ? err : usock_name_out(&n, addr, len);
}

long sys_sock_shutdown(int fd, int how)
{
	long err = 0;
	if (how < K_SHUT_RD || how > K_SHUT_RDWR)
		return -EINVAL;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	int mode = how + 1; /* SHUT_RD: RCV, SHUT_WR: SEND, both */
	spin_lock(&usock_lock);
	s->shut |= mode;
	struct usock *p = s->peer;
	if (p && s->type != K_SOCK_DGRAM) {
		p->shut |= ((mode & US_SHUT_RCV) ? US_SHUT_SEND : 0) | ((mode & US_SHUT_SEND) ? US_SHUT_RCV : 0);
		waitq_wake_all(&p->rwait, 0);
		pollq_wake(&p->pollq);
		waitq_wake_all(&p->wwait, 0);
		pollq_wake(&p->pollq);
	}
	waitq_wake_all(&s->rwait, 0);
	pollq_wake(&s->pollq);
	waitq_wake_all(&s->wwait, 0);
	pollq_wake(&s->pollq);
	spin_unlock(&usock_lock);
	kobj_put(&s->obj);
	return 0;
}

/* ---- sending ---- */

/* What a send carries besides data: descriptors and credentials. */
struct usock_ctl {
	uint32_t nfds;
	struct usock_fdent *fds;
	bool creds;
	struct k_ucred cred;
};

static void usock_ctl_drop(struct usock_ctl *c)
{
	for (uint32_t i = 0; i < c->nfds; i++)
		kobj_put(c->fds[i].o);
	kfree(c->fds);
	c->fds = NULL;
	c->nfds = 0;
}

/* SCM_CREDENTIALS as Linux's scm_check_creds: the sender's own pid and
 * one of its ids, unless it is privileged. */
static long usock_creds_ok(const struct k_ucred *c)
{
	struct proc *p = current_thread()->proc;
	const struct cred *k = &p->cred;
	bool root = k->euid == 0;
	if ((c->pid != p->pid && !root) ||
	    (c->uid != k->uid && c->uid != k->euid && c->uid != k->suid && !root) ||
	    (c->gid != k->gid && c->gid != k->egid && c->gid != k->sgid && !root))
		return -EPERM;
	return 0;
}

/* The descriptors of an SCM_RIGHTS message: references to their objects
 * with their handles' rights (each needs HANDLE_RIGHT_TRANSFER). */
static long usock_take_fds(const int *fds, uint32_t n, struct usock_ctl *c)
{
	if (n == 0 || c->nfds + n > K_SCM_MAX_FD)
		return -EINVAL;
	struct usock_fdent *all = kzalloc((c->nfds + n) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->nfds; i++)
		all[i] = c->fds[i];
	kfree(c->fds);
	c->fds = all;
	struct proc *p = current_thread()->proc;
	for (uint32_t i = 0; i < n; i++) {
		long err;
		uint32_t have;
		struct kobj *o = handle_get_rights_of(p, fds[i], KOBJ_KINDS_ANY, HANDLE_RIGHT_TRANSFER, &err, &have);
		if (!o)
			return err;
		c->fds[c->nfds].o = o;
		c->fds[c->nfds].rights = have;
		c->nfds++;
	}
	return 0;
}

/* Parses a send's control messages (Linux's __scm_send). */
static long usock_ctl_in(const void *ucontrol, uint64_t len, struct usock_ctl *c)
{
	memset(c, 0, sizeof(*c));
	if (!len)
		return 0;
	if (len > USOCK_MAX_CONTROL)
		return -ENOBUFS;
	char *buf = kmalloc(len);
	if (!buf)
		return -ENOMEM;
	long err = copy_from_user(buf, ucontrol, len) ? -EFAULT : 0;
	uint64_t at = 0;
	while (!err && at + sizeof(struct k_cmsghdr) <= len) {
		struct k_cmsghdr h;
		memcpy(&h, buf + at, sizeof(h));
		if (h.len < sizeof(h) || h.len > len - at) {
			err = -EINVAL;
			break;
		}
		uint64_t dlen = h.len - sizeof(h);
		const char *data = buf + at + sizeof(h);
		if (h.level != K_SOL_SOCKET)
			; /* another level's: ignored, as Linux's unix sockets do */
		else if (h.type == K_SCM_RIGHTS && dlen % sizeof(int) == 0)
			err = usock_take_fds((const int *)data, (uint32_t)(dlen / sizeof(int)), c);
		else if (h.type == K_SCM_CREDENTIALS && dlen == sizeof(struct k_ucred)) {
			memcpy(&c->cred, data, sizeof(c->cred));
			err = usock_creds_ok(&c->cred);
			c->creds = true;
		} else
			err = -EINVAL;
		at += (h.len + 7) & ~7ull;
	}
	kfree(buf);
	if (err)
		usock_ctl_drop(c);
	return err;
}

/* The kernel's copy of a user iovec array, its total in *total. */
static long usock_iov_in(const struct k_iovec *uiov, uint64_t n, struct k_iovec **out, size_t *total)
{
	if (n > USOCK_MAX_IOV)
		return -EMSGSIZE;
	struct k_iovec *v = kmalloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (n && copy_from_user(v, uiov, n * sizeof(*v))) {
		kfree(v);
		return -EFAULT;
	}
	size_t t = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (v[i].len > (SIZE_MAX >> 1) - t || !user_range_ok((uint64_t)v[i].base, v[i].len)) {
			kfree(v);
			return v[i].len > (SIZE_MAX >> 1) - t ? -EINVAL : -EFAULT;
		}
		t += v[i].len;
	}
	*out = v;
	*total = t;
	return 0;
}

/* Copies len bytes between the iovec (from byte at) and buf. */
static long usock_iov_copy(const struct k_iovec *v, uint64_t n, size_t at, void *buf, size_t len, bool to_user)
{
	char *b = buf;
	for (uint64_t i = 0; i < n && len; i++) {
		if (at >= v[i].len) {
			at -= v[i].len;
			continue;
		}
		size_t k = v[i].len - at < len ? v[i].len - at : len;
		char *u = (char *)v[i].base + at;
		if (to_user ? copy_to_user(u, b, k) : copy_from_user(b, u, k))
			return -EFAULT;
		b += k;
		len -= k;
		at = 0;
	}
	return 0;
}

/* Where s's send goes (usock_lock held): its peer, its datagram target,
 * or the socket a destination address names; NULL with *err. */
static struct usock *usock_target(struct usock *s, const struct usock_name *dest, const struct pcache_obj *node,
				  long *err)
{
	struct usock *t;
	*err = 0;
	if (s->type != K_SOCK_DGRAM) {
		if (s->shut & US_SHUT_SEND || (s->state == US_CONNECTED && !s->peer)) {
			*err = -EPIPE;
			return NULL;
		}
		if (s->state != US_CONNECTED) {
			*err = -ENOTCONN;
			return NULL;
		}
		if (s->peer->shut & US_SHUT_RCV) {
			*err = -EPIPE;
			return NULL;
		}
		return s->peer;
	}
	if (s->shut & US_SHUT_SEND) {
		*err = -EPIPE;
		return NULL;
	}
	if (dest) {
		t = usock_lookup(dest, node, s->type);
		if (!t)
			*err = -ECONNREFUSED;
	} else {
		t = s->peer ? s->peer : s->dpeer;
		if (!t)
			*err = s->dpeer_dead ? -ECONNREFUSED : -ENOTCONN;
	}
	if (t && t->type != K_SOCK_DGRAM) {
		*err = -EPROTOTYPE;
		return NULL;
	}
	/* a connected datagram socket takes only its peer's (unix_may_send) */
	struct usock *tp = t ? (t->peer ? t->peer : t->dpeer) : NULL;
	if (t && tp && tp != s) {
		*err = -EPERM;
		return NULL;
	}
	return t;
}

/* Queues m at s's target, waiting for room as s's type and flags say.
 * Takes m (freed on failure). */
static long usock_send_one(struct usock *s, struct usock_msg *m, const struct usock_name *dest,
			   const struct pcache_obj *node, bool nonblock, uint64_t deadline)
{
	long err = 0;
	spin_lock(&usock_lock);
	for (;;) {
		struct usock *t = usock_target(s, dest, node, &err);
		if (!t)
			break;
		if (t->rq_head == NULL || t->rq_bytes + m->cost <= s->sndbuf) {
			if ((s->passcred || t->passcred) && !s->bound && s->type == K_SOCK_DGRAM)
				(void)usock_autobind_locked(s); /* as Linux: a name to answer (none if all are taken) */
			m->from = s->name;
			if (!s->bound)
				m->from.len = 0; /* no name to answer: msg_namelen 0, as Linux */
			usock_enqueue(t, m);
			m = NULL;
			break;
		}
		bool mine = s->peer == t; /* a connected peer wakes s->wwait */
		err = nonblock ? -EAGAIN : usock_sleep(mine ? &s->wwait : &usock_room, deadline);
		if (err)
			break;
	}
	spin_unlock(&usock_lock);
	if (m)
		usock_msg_free(m);
	return m ? err : 0;
}

/* The message for the next len bytes of the iovec from at, with the
 * control's descriptors (moved into it) and credentials. */
static struct usock_msg *usock_build(struct usock *s, const struct k_iovec *v, uint64_t nv, size_t at, size_t len,
				     struct usock_ctl *c, long *err)
{
	struct usock_msg *m = usock_msg_new(s, len, c->nfds * sizeof(struct usock_fdent), err);
	if (!m)
		return NULL;
	*err = usock_iov_copy(v, nv, at, m->data, len, false);
	if (*err) {
		usock_msg_free(m);
		return NULL;
	}
	m->cred = c->creds ? c->cred : usock_cred_now(false);
	m->fds = c->fds;
	m->nfds = c->nfds;
	c->fds = NULL;
	c->nfds = 0;
	c->creds = false;
	return m;
}

static long usock_send(struct usock *s, const struct k_iovec *v, uint64_t nv, size_t total, int flags,
		       const struct usock_name *dest, const struct pcache_obj *node, struct usock_ctl *c)
{
	bool nonblock = (flags & K_MSG_DONTWAIT) || s->nonblock;
	uint64_t deadline = usock_deadline(s->sndtimeo);
	long err = 0;
	size_t sent = 0;
	if (s->type != K_SOCK_STREAM) {
		if (total > s->sndbuf - 32)
			err = -EMSGSIZE;
		struct usock_msg *m = err ? NULL : usock_build(s, v, nv, 0, total, c, &err);
		if (m)
			err = usock_send_one(s, m, dest, node, nonblock, deadline);
		if (!err)
			sent = total;
	} else if (total) { /* nothing at all for 0 bytes, as Linux */
		do {
			size_t chunk = s->sndbuf / 2 > USOCK_MSG_OVERHEAD + 256 ? s->sndbuf / 2 - USOCK_MSG_OVERHEAD : 256;
			size_t n = total - sent;
			n = n < chunk ? n : chunk;
			n = n < USOCK_CHUNK ? n : USOCK_CHUNK;
			struct usock_msg *m = usock_build(s, v, nv, sent, n, c, &err);
			if (m)
				err = usock_send_one(s, m, NULL, NULL, nonblock, deadline);
			if (err)
				break;
			sent += n;
		} while (sent < total);
	}
	usock_ctl_drop(c);
	if (err == -EPIPE && !sent && s->type == K_SOCK_STREAM && !(flags & K_MSG_NOSIGNAL))
		signal_send(current_thread()->proc, SIGPIPE, current_thread()->proc);
	return sent ? (long)sent : err;
}

long sys_sock_sendmsg(int fd, const struct k_msghdr *um, int flags, int node)
{
	long err = 0;
	struct k_msghdr h;
	struct k_iovec *v = NULL;
	size_t total;
	struct usock_ctl c;
	struct usock_name dest;
	struct pcache_obj *kn = NULL;
	if (copy_from_user(&h, um, sizeof(h)))
		return -EFAULT;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	err = usock_iov_in(h.iov, h.iovlen, &v, &total);
	bool has_dest = h.name && h.namelen;
	if (!err && has_dest && s->type == K_SOCK_STREAM)
		err = s->state == US_CONNECTED ? -EISCONN : -EOPNOTSUPP;
	if (s->type == K_SOCK_SEQPACKET)
		has_dest = false; /* Linux ignores it */
	if (!err && has_dest)
		err = usock_name_in(h.name, h.namelen, &dest);
	if (!err && has_dest)
		err = usock_node_get(&dest, node, false, &kn);
	if (!err)
		err = usock_ctl_in(h.control, h.controllen, &c);
	if (!err && c.nfds &&
	    __atomic_load_n(&usock_inflight_total, __ATOMIC_RELAXED) >
		    __atomic_load_n(&usock_gc_floor, __ATOMIC_RELAXED) + USOCK_GC_TRIGGER)
		usock_gc_soon(); /* 1024 more in flight since the last collection:
				    cycles nobody closed a socket after are collected
				    before more go (Linux's wait_for_unix_gc) */
	if (!err)
		err = usock_send(s, v, h.iovlen, total, flags, has_dest ? &dest : NULL, kn, &c);
	if (kn)
		pcache_obj_put(kn);
	kfree(v);
	kobj_put(&s->obj);
	return err;
}

/* ---- receiving ---- */

/* Takes s's reading flag (usock_lock held): one reader copies at a time. */
static long usock_read_lock(struct usock *s, bool nonblock)
{
	while (s->reading) {
		if (nonblock)
			return -EAGAIN;
		long r = usock_sleep(&s->rwait, 0);
		if (r)
			return r;
	}
	s->reading = true;
	return 0;
}

static void usock_read_unlock(struct usock *s)
{
	s->reading = false;
	waitq_wake_all(&s->rwait, 0);
	pollq_wake(&s->pollq);
}

/* Waits for a message in s's queue (usock_lock and the reading flag
 * held; the lock is given up while asleep, the flag kept, so other
 * readers wait behind this one): 0 when there is one, 1 at end of file,
 * or an error. */
static long usock_wait_data(struct usock *s, bool nonblock, uint64_t deadline)
{
	while (!s->rq_head) {
		if (s->so_error) {
			long e = -s->so_error;
			s->so_error = 0;
			return e;
		}
		if (s->shut & US_SHUT_RCV)
			return 1;
		if (nonblock)
			return -EAGAIN;
		long r = usock_sleep(&s->rwait, deadline);
		if (r)
			return r;
	}
	return 0;
}

/* What a receive hands back besides data. */
struct usock_rcv {
	int flags;			/* MSG_TRUNC, MSG_CTRUNC out */
	bool have_from, have_cred;
	struct usock_name from;
	struct k_ucred cred;
	uint32_t nfds;
	struct usock_fdent *fds;	/* references */
};

/* Takes what m carries for the receiver: its fds (moved, or with PEEK new
 * references) and credentials (usock_lock held). */
static long usock_take_extra(struct usock_msg *m, bool peek, struct usock_rcv *r)
{
	r->have_from = true;
	r->from = m->from;
	r->have_cred = true;
	r->cred = m->cred;
	if (!m->nfds)
		return 0;
	if (peek) {
		r->fds = kmalloc(m->nfds * sizeof(*r->fds));
		if (!r->fds)
			return -ENOMEM;
		for (uint32_t i = 0; i < m->nfds; i++) {
			r->fds[i] = m->fds[i];
			kobj_get(r->fds[i].o);
		}
	} else {
		usock_inflight_add(m, -1); /* the receiver holds them now */
		r->fds = m->fds;
		m->fds = NULL;
	}
	r->nfds = m->nfds;
	if (!peek)
		m->nfds = 0;
	return 0;
}

/* Stream receive: bytes from the queue's messages until len (or one
 * message with descriptors, which ends a read as Linux's unix sockets). */
static long usock_recv_stream(struct usock *s, const struct k_iovec *v, uint64_t nv, size_t len, int flags,
			      struct usock_rcv *r)
{
	bool nonblock = (flags & K_MSG_DONTWAIT) || s->nonblock, peek = flags & K_MSG_PEEK;
	size_t want = (flags & K_MSG_WAITALL) && !peek ? len : 1, copied = 0;
	uint64_t deadline = usock_deadline(s->rcvtimeo);
	struct usock_msg *dead = NULL;
	long err = 0;
	spin_lock(&usock_lock);
	if (s->state != US_CONNECTED) {
		spin_unlock(&usock_lock);
		return -EINVAL;
	}
	err = usock_read_lock(s, nonblock);
	if (err) {
		spin_unlock(&usock_lock);
		return err;
	}
	struct usock_msg *m = NULL; /* PEEK: the last message looked at */
	while (copied < len) {
		m = !peek ? s->rq_head : m ? m->next : s->rq_head;
		if (!m) {
			if (copied >= want || (peek && copied))
				break;
			err = usock_wait_data(s, nonblock, deadline);
			if (err)
				break;
			continue;
		}
		if (m->nfds && copied)
			break; /* its descriptors come with its first byte */
		size_t avail = m->len - m->off;
		size_t n = len - copied < avail ? len - copied : avail;
		if (!r->have_from || m->nfds)
			usock_take_extra(m, peek, r);
		spin_unlock(&usock_lock);
		err = usock_iov_copy(v, nv, copied, m->data + m->off, n, true);
		spin_lock(&usock_lock);
		if (err)
			break;
		copied += n;
		if (!peek) {
			m->off += (uint32_t)n;
			if (m->off == m->len) {
				usock_dequeue(s);
				m->next = dead;
				dead = m;
			}
		}
		if (r->nfds)
			break;
	}
	usock_read_unlock(s);
	spin_unlock(&usock_lock);
	usock_msgs_free(dead);
	if (err == 1)
		err = 0;
	return copied ? (long)copied : err;
}

/* Datagram or packet receive: one whole message (its excess dropped:
 * MSG_TRUNC). */
static long usock_recv_msg(struct usock *s, const struct k_iovec *v, uint64_t nv, size_t len, int flags,
			   struct usock_rcv *r)
{
	bool nonblock = (flags & K_MSG_DONTWAIT) || s->nonblock, peek = flags & K_MSG_PEEK;
	uint64_t deadline = usock_deadline(s->rcvtimeo);
	long err = 0;
	spin_lock(&usock_lock);
	if (s->type == K_SOCK_SEQPACKET && s->state != US_CONNECTED) {
		spin_unlock(&usock_lock);
		return -ENOTCONN;
	}
	err = usock_read_lock(s, nonblock);
	if (err) {
		spin_unlock(&usock_lock);
		return err;
	}
	err = usock_wait_data(s, nonblock, deadline);
	if (err) {
		usock_read_unlock(s);
		spin_unlock(&usock_lock);
		return err == 1 ? 0 : err;
	}
	struct usock_msg *m = s->rq_head;
	err = usock_take_extra(m, peek, r);
	spin_unlock(&usock_lock);
	size_t n = len < m->len ? len : m->len;
	if (!err)
		err = usock_iov_copy(v, nv, 0, m->data, n, true);
	spin_lock(&usock_lock);
	if (!peek)
		usock_dequeue(s);
	usock_read_unlock(s);
	spin_unlock(&usock_lock);
	if (m->len > len)
		r->flags |= K_MSG_TRUNC;
	long ret = err ? err : (flags & K_MSG_TRUNC) ? (long)m->len : (long)n;
	if (!peek)
		usock_msg_free(m);
	return ret;
}

/* Installs received descriptors and writes the control messages Linux
 * would (SCM_CREDENTIALS with SO_PASSCRED, then SCM_RIGHTS) into
 * h->control; descriptors that do not fit are closed (MSG_CTRUNC). */
static long usock_ctl_out(struct usock *s, struct k_msghdr *h, int flags, struct usock_rcv *r)
{
	uint64_t room = h->control ? h->controllen : 0, used = 0;
	char *ctl = h->control;
	long err = 0;
	struct k_cmsghdr ch;
	if (s->passcred && r->have_cred) {
		ch.len = sizeof(ch) + sizeof(r->cred);
		ch.level = K_SOL_SOCKET;
		ch.type = K_SCM_CREDENTIALS;
		if (room - used < sizeof(ch))
			r->flags |= K_MSG_CTRUNC;
		else {
			uint64_t k = room - used < ch.len ? room - used : ch.len;
			if (k < ch.len)
				r->flags |= K_MSG_CTRUNC;
			if (copy_to_user(ctl + used, &ch, sizeof(ch)) ||
			    copy_to_user(ctl + used + sizeof(ch), &r->cred, k - sizeof(ch)))
				err = -EFAULT;
			used += (k + 7) & ~7ull;
			if (used > room)
				used = room;
		}
	}
	uint32_t fit = 0;
	if (r->nfds) {
		uint64_t left = room - used;
		fit = left < sizeof(ch) ? 0 : (uint32_t)((left - sizeof(ch)) / sizeof(int));
		fit = fit < r->nfds ? fit : r->nfds;
		if (fit < r->nfds)
			r->flags |= K_MSG_CTRUNC;
	}
	if (fit && !err) {
		struct proc *p = current_thread()->proc;
		ch.len = sizeof(ch) + fit * sizeof(int);
		ch.level = K_SOL_SOCKET;
		ch.type = K_SCM_RIGHTS;
		uint32_t i;
		for (i = 0; i < fit; i++) {
			int fd = handle_install(p, r->fds[i].o, r->fds[i].rights);
			if (fd < 0) {
				r->flags |= K_MSG_CTRUNC;
				break;
			}
			if (flags & K_MSG_CMSG_CLOEXEC)
				sys_handle_flags(fd, HANDLE_CLOEXEC);
			if (copy_to_user(ctl + used + sizeof(ch) + i * sizeof(int), &fd, sizeof(fd))) {
				handle_close(p, fd);
				err = -EFAULT;
				break;
			}
		}
		ch.len = sizeof(ch) + i * sizeof(int);
		if (i && copy_to_user(ctl + used, &ch, sizeof(ch)))
			err = -EFAULT;
		if (i)
			used += (ch.len + 7) & ~7ull;
		if (used > room)
			used = room;
	}
	h->controllen = used;
	return err;
}

static void usock_rcv_drop(struct usock_rcv *r)
{
	for (uint32_t i = 0; i < r->nfds; i++)
		kobj_put(r->fds[i].o);
	kfree(r->fds);
}

static long usock_recv(struct usock *s, const struct k_iovec *v, uint64_t nv, size_t len, int flags,
		       struct usock_rcv *r)
{
	return s->type == K_SOCK_STREAM ? usock_recv_stream(s, v, nv, len, flags, r) :
					  usock_recv_msg(s, v, nv, len, flags, r);
}

long sys_sock_recvmsg(int fd, struct k_msghdr *um, int flags)
{
	long err = 0;
	struct k_msghdr h;
	struct k_iovec *v = NULL;
	size_t total;
	struct usock_rcv r;
	if (copy_from_user(&h, um, sizeof(h)))
		return -EFAULT;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	memset(&r, 0, sizeof(r));
	err = usock_iov_in(h.iov, h.iovlen, &v, &total);
	long got = err ? err : usock_recv(s, v, h.iovlen, total, flags, &r);
	if (got >= 0) {
		long e = usock_ctl_out(s, &h, flags, &r);
		if (!e && h.name) {
			uint32_t room = h.namelen;
			h.namelen = r.have_from ? r.from.len : 0;
			if (h.namelen && copy_to_user(h.name, r.from.addr, room < h.namelen ? room : h.namelen))
				e = -EFAULT;
		} else
			h.namelen = 0;
		h.flags = r.flags;
		if (!e && copy_to_user(um, &h, sizeof(h)))
			e = -EFAULT;
		if (e)
			got = e;
	}
	usock_rcv_drop(&r);
	kfree(v);
	kobj_put(&s->obj);
	return got;
}

/* ---- options ---- */

/* Boolean options Linux keeps for every socket that mean nothing for a
 * Unix one: set and read back, as there. */
#define USOCK_FLAGOPTS ((1u << K_SO_DONTROUTE) | (1u << K_SO_BROADCAST) | (1u << K_SO_KEEPALIVE) | \
			(1u << K_SO_OOBINLINE))

static long usock_timeo_out(uint64_t ns, void *val, uint32_t *ulen, uint32_t room)
{
	int64_t tv[2] = { (int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u / 1000u) };
	uint32_t k = room < sizeof(tv) ? room : sizeof(tv);
	return copy_to_user(val, tv, k) || copy_to_user(ulen, &k, sizeof(k)) ? -EFAULT : 0;
}

long sys_sock_getopt(int fd, int level, int name, void *val, uint32_t *len)
{
	long err = 0;
	uint32_t room;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	if (copy_from_user(&room, len, sizeof(room)))
		err = -EFAULT;
	else if ((int32_t)room < 0)
		err = -EINVAL;
	else if (level != K_SOL_SOCKET)
		err = -EOPNOTSUPP;
	if (err) {
		kobj_put(&s->obj);
		return err;
	}
	int v = 0;
	struct k_ucred pc = { 0, (uint32_t)-1, (uint32_t)-1 };
	spin_lock(&usock_lock);
	switch (name) {
	case K_SO_TYPE: v = s->type; break;
	case K_SO_DOMAIN: v = K_AF_UNIX; break;
	case K_SO_PROTOCOL: v = 0; break;
	case K_SO_ACCEPTCONN: v = s->state == US_LISTEN; break;
	case K_SO_ERROR: v = s->so_error; s->so_error = 0; break;
	case K_SO_SNDBUF: v = (int)s->sndbuf; break;
	case K_SO_RCVBUF: v = (int)s->rcvbuf; break;
	case K_SO_PASSCRED: v = s->passcred; break;
	case K_SO_REUSEADDR: v = s->reuseaddr; break;
	case K_SO_PEERCRED: if (s->has_peercred) pc = s->peercred; break;
	case K_SO_RCVTIMEO: case K_SO_SNDTIMEO: case K_SO_LINGER: break;
	default:
		if (name >= 0 && name < 32 && (USOCK_FLAGOPTS & (1u << name)))
			v = !!(s->flagopts & (1u << name));
		else
			err = -ENOPROTOOPT;
	}
	int32_t lg[2] = { s->linger[0], s->linger[1] };
	uint64_t timeo = name == K_SO_RCVTIMEO ? s->rcvtimeo : s->sndtimeo;
	spin_unlock(&usock_lock);
	if (!err && name == K_SO_PEERCRED) {
		uint32_t k = room < sizeof(pc) ? room : sizeof(pc);
		err = copy_to_user(val, &pc, k) || copy_to_user(len, &k, sizeof(k)) ? -EFAULT : 0;
	} else if (!err && (name == K_SO_RCVTIMEO || name == K_SO_SNDTIMEO)) {
		err = usock_timeo_out(timeo, val, len, room);
	} else if (!err && name == K_SO_LINGER) {
		uint32_t k = room < sizeof(lg) ? room : sizeof(lg);
		err = copy_to_user(val, lg, k) || copy_to_user(len, &k, sizeof(k)) ? -EFAULT : 0;
	} else if (!err) {
		uint32_t k = room < sizeof(v) ? room : sizeof(v);
		err = copy_to_user(val, &v, k) || copy_to_user(len, &k, sizeof(k)) ? -EFAULT : 0;
	}
	kobj_put(&s->obj);
	return err;
}

/* A buffer size as Linux's sock_setsockopt: capped, doubled, floored. */
static uint32_t usock_bufsize(int v, uint32_t floor)
{
	uint32_t u = (uint32_t)v < USOCK_MAX_SET ? (uint32_t)v : USOCK_MAX_SET;
	return u * 2 > floor ? u * 2 : floor;
}

long sys_sock_setopt(int fd, int level, int name, const void *val, uint32_t len)
{
	long err = 0;
	struct usock *s = usock_get(fd, &err);
	if (!s)
		return err;
	int v = 0;
	int64_t tv[2] = { 0, 0 };
	int32_t lg[2] = { 0, 0 };
	bool timeo = name == K_SO_RCVTIMEO || name == K_SO_SNDTIMEO;
	if (level == K_SOL_SOCKET && name == K_SO_LINGER) {
		err = len < sizeof(lg) ? -EINVAL : copy_from_user(lg, val, sizeof(lg)) ? -EFAULT : 0;
		if (!err) {
			spin_lock(&usock_lock);
			s->linger[0] = lg[0] != 0;
			if (lg[0]) /* Linux keeps the time only when it turns it on */
				s->linger[1] = lg[1];
			spin_unlock(&usock_lock);
		}
		kobj_put(&s->obj);
		return err;
	}
	if (level != K_SOL_SOCKET)
		err = -EOPNOTSUPP;
	else if (timeo && len < sizeof(tv))
		err = -EINVAL;
	else if (timeo && copy_from_user(tv, val, sizeof(tv)))
		err = -EFAULT;
	else if (timeo && (tv[1] < 0 || tv[1] >= 1000000))
		err = -EDOM;
	else if (!timeo && len < sizeof(int))
		err = -EINVAL;
	else if (!timeo && copy_from_user(&v, val, sizeof(v)))
		err = -EFAULT;
	if (err) {
		kobj_put(&s->obj);
		return err;
	}
	uint64_t ns = tv[0] < 0 ? 0 : (uint64_t)tv[0] * 1000000000u + (uint64_t)tv[1] * 1000u;
	spin_lock(&usock_lock);
	switch (name) {
	case K_SO_SNDBUF: s->sndbuf = usock_bufsize(v, USOCK_MIN_SNDBUF); break;
	case K_SO_RCVBUF: s->rcvbuf = usock_bufsize(v, USOCK_MIN_RCVBUF); break;
	case K_SO_PASSCRED: s->passcred = v != 0; break;
	case K_SO_REUSEADDR: s->reuseaddr = v != 0; break;
	case K_SO_RCVTIMEO: s->rcvtimeo = ns; break;
	case K_SO_SNDTIMEO: s->sndtimeo = ns; break;
	case K_SO_TYPE: case K_SO_DOMAIN: case K_SO_PROTOCOL: case K_SO_ACCEPTCONN: case K_SO_ERROR:
	case K_SO_PEERCRED: err = -ENOPROTOOPT; break;
	default:
		if (name >= 0 && name < 32 && (USOCK_FLAGOPTS & (1u << name)))
			s->flagopts = v ? s->flagopts | (1u << name) : s->flagopts & ~(1u << name);
		else
			err = -ENOPROTOOPT;
	}
	waitq_wake_all(&usock_room, 0); /* a larger SO_SNDBUF: room */
	spin_unlock(&usock_lock);
	kobj_put(&s->obj);
	return err;
}

/* ---- the descriptor calls (kernel/ipc/fd.c) ---- */

long usock_fd_read(struct kobj *o, void *buf, size_t len)
{
	struct usock *s = usock_of(o);
	struct k_iovec v = { buf, len };
	struct usock_rcv r;
	if (!user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	memset(&r, 0, sizeof(r));
	long got = usock_recv(s, &v, 1, len, 0, &r);
	usock_rcv_drop(&r); /* descriptors read without recvmsg are closed, as Linux */
	return got;
}

long usock_fd_write(struct kobj *o, const void *buf, size_t len)
{
	struct usock *s = usock_of(o);
	struct k_iovec v = { (void *)buf, len };
	struct usock_ctl c;
	if (!user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	memset(&c, 0, sizeof(c));
	return usock_send(s, &v, 1, len, 0, NULL, NULL, &c);
}

long usock_poll_mask(struct kobj *o)
{
	struct usock *s = usock_of(o);
	long mask = 0;
	spin_lock(&usock_lock);
	if (s->so_error)
		mask |= POLLERR;
	if (s->shut == (US_SHUT_RCV | US_SHUT_SEND))
		mask |= POLLHUP;
	if (s->shut & US_SHUT_RCV)
		mask |= POLLRDHUP | POLLIN | POLLRDNORM;
	if (s->rq_head || (s->state == US_LISTEN && s->pend_head))
		mask |= POLLIN | POLLRDNORM;
	if (s->type != K_SOCK_DGRAM && s->state == US_UNCONN)
		mask |= POLLHUP;
	struct usock *t = s->peer ? s->peer : s->dpeer;
	bool writable = s->state != US_LISTEN && (!t || t->rq_bytes * 4 <= s->sndbuf);
	if (writable)
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	spin_unlock(&usock_lock);
	return mask;
}

struct waitq *usock_waitq(struct kobj *o, bool write)
{
	struct usock *s = usock_of(o);
	return write && s->type == K_SOCK_DGRAM && !s->peer ? &usock_room : write ? &s->wwait : &s->rwait;
}

struct pollq *usock_pollq(struct kobj *o)
{
	return &usock_of(o)->pollq;
}

long usock_fd_poll(struct kobj *o, int events)
{
	return usock_poll_mask(o) & ((long)events | POLLERR | POLLHUP | POLLNVAL);
}

long usock_fd_flags(struct kobj *o, int set)
{
	struct usock *s = usock_of(o);
	if (set >= 0)
		s->nonblock = set & O_NONBLOCK;
	return s->nonblock | O_RDWR;
}
