/* The server-facing page cache system calls, and each endpoint's table
 * of objects (pcache.h). A file server holds one object per file (far
 * more than HANDLE_MAX handles), so objects are named by an id in the
 * table of the server's endpoint, and every call names the endpoint by a
 * handle with HANDLE_RIGHT_MANAGE: only the server that may take the
 * endpoint's calls and mint its channels reaches its objects. The
 * endpoint's death (its owner's exit) kills every object in its table:
 * their pages are freed and uncharged at once, and descriptors attached
 * to them answer -EIO. */
#include "pcache.h"
#include "internal.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "cgroup.h"
#include "heap.h"
#include "ipc.h"
#include "memcg.h"
#include "proc.h"
#include "syscall.h"

#define PCACHE_TABLE_MAX (1u << 24)

/* An endpoint's objects: slot[id - 1]; free ids on a stack. */
struct pcache_table {
	struct spinlock lock;
	struct pcache_obj **slot;
	uint32_t *free;
	uint32_t cap, nfree, used;	/* used: slots handed out at least once */
	bool dead;
	struct ncache *nc;		/* its name cache (ncache.c), made on first use */
	struct pcache_pager *pager;	/* its pager queue (pager.c), made on first use */
};

/* The endpoint behind h, if the handle may manage it (its server's). */
static struct endpoint *pcache_endpoint(int h, long *err)
{
	struct kobj *o = handle_get_rights(current_thread()->proc, h, KOBJ_KIND(KOBJ_ENDPOINT),
					   HANDLE_RIGHT_MANAGE, err);
	return o ? container_of(o, struct endpoint, obj) : NULL;
}

static int pcache_table_grow(struct pcache_table *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 64;
	if (cap > PCACHE_TABLE_MAX)
		return -ENFILE;
	struct pcache_obj **slot = kzalloc(cap * sizeof(*slot));
	uint32_t *free = kmalloc(cap * sizeof(*free));
	if (!slot || !free) {
		kfree(slot);
		kfree(free);
		return -ENOMEM;
	}
	spin_lock(&t->lock);
	for (uint32_t i = 0; i < t->cap; i++)
		slot[i] = t->slot[i];
	for (uint32_t i = 0; i < t->nfree; i++)
		free[i] = t->free[i];
	struct pcache_obj **oslot = t->slot;
	uint32_t *ofree = t->free;
	t->slot = slot;
	t->free = free;
	t->cap = cap;
	spin_unlock(&t->lock);
	kfree(oslot);
	kfree(ofree);
	return 0;
}

/* ep's table, made on first use: NULL without memory. */
static struct pcache_table *pcache_table_of(struct endpoint *ep)
{
	if (!ep->pcache) {
		struct pcache_table *t = kzalloc(sizeof(*t));
		if (!t)
			return NULL;
		t->lock = (struct spinlock)SPINLOCK_INIT("pcache_table");
		if (__atomic_compare_exchange_n(&ep->pcache, &(struct pcache_table *){ NULL }, t, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) == false)
			kfree(t);
	}
	return __atomic_load_n(&ep->pcache, __ATOMIC_ACQUIRE);
}

struct ncache *pcache_table_ncache(struct endpoint *ep, bool make)
{
	struct pcache_table *t = make ? pcache_table_of(ep) : __atomic_load_n(&ep->pcache, __ATOMIC_ACQUIRE);
	if (!t)
		return NULL;
	struct ncache *nc = __atomic_load_n(&t->nc, __ATOMIC_ACQUIRE);
	if (nc || !make)
		return nc;
	nc = ncache_new();
	if (!nc)
		return NULL;
	spin_lock(&t->lock);
	bool dead = t->dead;
	if (!dead && !t->nc)
		__atomic_store_n(&t->nc, nc, __ATOMIC_RELEASE);
	else
		dead = true; /* another made it, or the endpoint died */
	struct ncache *cur = t->nc;
	spin_unlock(&t->lock);
	if (dead)
		ncache_free(nc);
	return cur;
}

struct pcache_pager *pcache_table_pager(struct endpoint *ep)
{
	struct pcache_table *t = pcache_table_of(ep);
	if (!t)
		return NULL;
	struct pcache_pager *pg = __atomic_load_n(&t->pager, __ATOMIC_ACQUIRE);
	if (pg)
		return pg;
	pg = pcache_pager_new();
	if (!pg)
		return NULL;
	spin_lock(&t->lock);
	bool dead = t->dead;
	if (!t->pager)
		__atomic_store_n(&t->pager, pg, __ATOMIC_RELEASE);
	else
		dead = true; /* another made it */
	struct pcache_pager *cur = t->pager;
	spin_unlock(&t->lock);
	if (dead && cur != pg)
		pcache_pager_put(pg);
	if (cur == pg && t->dead)
		pcache_pager_kill(pg); /* the endpoint died meanwhile: born dead */
	return cur;
}

/* Puts o (the table's reference) in ep's table: its id, or -errno. */
static long pcache_table_add(struct endpoint *ep, struct pcache_obj *o)
{
	struct pcache_table *t = pcache_table_of(ep);
	if (!t)
		return -ENOMEM;
	for (;;) {
		spin_lock(&t->lock);
		if (t->dead || ep->dead) {
			spin_unlock(&t->lock);
			return -EHOSTDOWN;
		}
		uint32_t i = UINT32_MAX;
		if (t->nfree)
			i = t->free[--t->nfree];
		else if (t->used < t->cap)
			i = t->used++;
		if (i != UINT32_MAX) {
			t->slot[i] = o;
			o->id = i + 1;
			spin_unlock(&t->lock);
			return (long)i + 1;
		}
		uint32_t cap = t->cap;
		spin_unlock(&t->lock);
		int r = t->cap == cap ? pcache_table_grow(t) : 0;
		if (r)
			return r;
	}
}

/* A slot whose object the kernel let go for its server (its last
 * kernel-made descriptor closed after the server's pcache_free was
 * refused): the id stays taken until the server's pcache_free, so the
 * server's late free can never name a newer object. */
#define PCACHE_SLOT_GONE ((struct pcache_obj *)1)

/* Object id of ep's table (a reference), or NULL (-EBADF). */
struct pcache_obj *pcache_table_get(struct endpoint *ep, uint64_t id)
{
	struct pcache_table *t = __atomic_load_n(&ep->pcache, __ATOMIC_ACQUIRE);
	struct pcache_obj *o = NULL;
	if (!t || id == 0 || id > UINT32_MAX)
		return NULL;
	spin_lock(&t->lock);
	if (id <= t->used && (o = t->slot[id - 1]) && o != PCACHE_SLOT_GONE)
		pcache_obj_get(o);
	else
		o = NULL;
	spin_unlock(&t->lock);
	return o;
}

void pcache_table_let_go(struct endpoint *ep, struct pcache_obj *o)
{
	struct pcache_table *t = __atomic_load_n(&ep->pcache, __ATOMIC_ACQUIRE);
	bool mine = false;
	if (t) {
		spin_lock(&t->lock);
		if (!t->dead && o->id && o->id <= t->used && t->slot[o->id - 1] == o) {
			t->slot[o->id - 1] = PCACHE_SLOT_GONE;
			mine = true;
			spin_lock(&o->lock);
			o->untabled = true;
			spin_unlock(&o->lock);
		}
		spin_unlock(&t->lock);
	}
	if (!mine)
		return;
	struct ncache *nc = pcache_table_ncache(ep, false);
	if (nc)
		ncache_obj_gone(nc, o);
	pcache_obj_put(o); /* the table's: mappings and the closing channel keep it */
}

struct pcache_obj *pcache_lookup(int h, uint64_t id, long *err)
{
	struct endpoint *ep = pcache_endpoint(h, err);
	if (!ep)
		return NULL;
	struct pcache_obj *o = pcache_table_get(ep, id);
	kobj_put(&ep->obj);
	if (!o)
		*err = -EBADF;
	return o;
}

void pcache_endpoint_kill(struct endpoint *ep)
{
	struct pcache_table *t = __atomic_load_n(&ep->pcache, __ATOMIC_ACQUIRE);
	if (!t)
		return;
	spin_lock(&t->lock);
	t->dead = true; /* no more ids: the slots are ours to empty */
	struct ncache *nc = t->nc;
	struct pcache_pager *pg = t->pager;
	spin_unlock(&t->lock);
	if (nc) /* before the objects: entries point at them */
		ncache_kill(nc);
	if (pg) /* readers waiting for fills: -EIO at once */
		pcache_pager_kill(pg);
	for (uint32_t i = 0; i < t->used; i++) {
		struct pcache_obj *o = t->slot[i];
		t->slot[i] = NULL;
		if (!o || o == PCACHE_SLOT_GONE)
			continue;
		spin_lock(&o->lock);
		o->untabled = true;
		spin_unlock(&o->lock);
		pcache_obj_kill(o);
		pcache_obj_put(o);
		sched_cond_resched();
	}
}

void pcache_endpoint_release(struct endpoint *ep)
{
	struct pcache_table *t = ep->pcache;
	if (!t)
		return;
	pcache_endpoint_kill(ep);
	if (t->nc)
		ncache_free(t->nc);
	if (t->pager)
		pcache_pager_put(t->pager);
	kfree(t->slot);
	kfree(t->free);
	kfree(t);
	ep->pcache = NULL;
}

long sys_pcache_create(int ep_h, uint32_t flags, uint64_t max_bytes)
{
	if (flags != PCACHE_SHMEM && flags != PCACHE_META && flags != PCACHE_BACKED)
		return -EINVAL;
	if (flags == PCACHE_META)
		max_bytes = PAGE_SIZE; /* holds no data: its max only bounds offsets */
	if (max_bytes == 0 || max_bytes > PCACHE_MAX_BYTES || (max_bytes & (PAGE_SIZE - 1)))
		return -EINVAL;
	long err;
	struct endpoint *ep = pcache_endpoint(ep_h, &err);
	if (!ep)
		return err;
	struct pcache_obj *o = pcache_obj_new(flags, max_bytes);
	struct pcache_pager *pg = o && flags == PCACHE_BACKED ? pcache_table_pager(ep) : NULL;
	if (pg) {
		pcache_pager_get(pg);
		o->pager = pg;
	}
	long r = !o || (flags == PCACHE_BACKED && !pg) ? -ENOMEM : pcache_table_add(ep, o);
	if (r < 0 && o)
		pcache_obj_put(o);
	kobj_put(&ep->obj);
	return r;
}

long sys_pcache_free(int ep_h, uint64_t id)
{
	long err;
	struct endpoint *ep = pcache_endpoint(ep_h, &err);
	if (!ep)
		return err;
	struct pcache_table *t = __atomic_load_n(&ep->pcache, __ATOMIC_ACQUIRE);
	struct pcache_obj *o = NULL;
	bool held = false;
	if (t && id >= 1 && id <= UINT32_MAX) {
		spin_lock(&t->lock);
		if (!t->dead && id <= t->used && t->slot[id - 1] == PCACHE_SLOT_GONE) {
			/* the kernel let it go already (pcache_table_let_go) */
			t->slot[id - 1] = NULL;
			t->free[t->nfree++] = (uint32_t)(id - 1);
			spin_unlock(&t->lock);
			kobj_put(&ep->obj);
			return 0;
		}
		if (!t->dead && id <= t->used && (o = t->slot[id - 1])) {
			/* descriptors the kernel made on it (ncache_open) keep it
			 * in the table, where the server finds it for their
			 * ftruncate or fchmod; their last close tells the server */
			spin_lock(&o->lock);
			held = o->kopens > 0;
			o->knotify |= held;
			spin_unlock(&o->lock);
			if (!held) {
				t->slot[id - 1] = NULL;
				t->free[t->nfree++] = (uint32_t)(id - 1);
				spin_lock(&o->lock);
				o->untabled = true; /* its queued requests are dropped */
				spin_unlock(&o->lock);
			}
		}
		spin_unlock(&t->lock);
	}
	if (held) {
		kobj_put(&ep->obj);
		return -EBUSY;
	}
	struct ncache *nc = o ? pcache_table_ncache(ep, false) : NULL;
	if (nc) /* while we hold ep: its table and name cache live */
		ncache_obj_gone(nc, o);
	kobj_put(&ep->obj);
	if (!o)
		return -EBADF;
	pcache_obj_put(o); /* attached descriptors keep it while they live */
	return 0;
}

long sys_pcache_read(int ep_h, uint64_t id, uint64_t off, void *buf, size_t len)
{
	if (len && !user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r);
	if (!o)
		return r;
	r = (o->flags & PCACHE_META) ? -EISDIR : pcache_obj_read(o, off, buf, len, false);
	pcache_obj_put(o);
	return r;
}

long sys_pcache_write(int ep_h, uint64_t id, uint64_t off, const void *buf, size_t len)
{
	if (len && !user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	if (off == PCACHE_APPEND)
		return -EFBIG;
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r);
	if (!o)
		return r;
	r = (o->flags & PCACHE_META) ? -EISDIR : pcache_wlock(o);
	if (r == 0) {
		/* the client the server writes for (never the server), or
		 * the server itself with no call (the boot archive) */
		struct cgroup *cg = memcg_requester();
		uint64_t end;
		r = pcache_obj_write(o, off, buf, len, cg, false, &end);
		cg_put(cg);
		pcache_wunlock(o);
	}
	pcache_obj_put(o);
	return r;
}

long sys_pcache_truncate(int ep_h, uint64_t id, uint64_t size)
{
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r);
	if (!o)
		return r;
	r = (o->flags & PCACHE_META) ? -EISDIR : pcache_wlock(o);
	if (r == 0) {
		/* a running program keeps its text (Linux: ETXTBSY); the write
		 * count keeps an exec from starting meanwhile */
		if (!(r = pcache_get_write(o))) {
			r = pcache_obj_truncate(o, size);
			pcache_put_write(o);
		}
		pcache_wunlock(o);
	}
	pcache_obj_put(o);
	return r;
}

long sys_pcache_attr(int ep_h, uint64_t id, const struct pcache_attr *set, uint32_t mask, struct pcache_attr *get)
{
	struct pcache_attr a;
	if (mask & ~(uint32_t)PCACHE_ATTR_ALL)
		return -EINVAL;
	if (mask && copy_from_user(&a, set, sizeof(a)))
		return -EFAULT;
	long r;
	struct endpoint *ep = pcache_endpoint(ep_h, &r);
	if (!ep)
		return r;
	struct pcache_obj *o = pcache_table_get(ep, id);
	if (!o) {
		kobj_put(&ep->obj);
		return -EBADF;
	}
	r = 0;
	if ((mask & PCACHE_ATTR_SIZE) && !(o->flags & PCACHE_META)) {
		r = -EINVAL; /* a file's size moves only by writes and truncation */
		goto out;
	}
	if (mask)
		pcache_obj_setattr(o, &a, mask);
	struct ncache *nc = (mask & PCACHE_ATTR_NAMES) ? pcache_table_ncache(ep, false) : NULL;
	if (nc) /* before the server replies to the change */
		ncache_dir_changed(nc, o);
	if (get) {
		pcache_obj_getattr(o, &a);
		r = copy_to_user(get, &a, sizeof(a)) ? -EFAULT : 0;
	}
out:
	pcache_obj_put(o);
	kobj_put(&ep->obj);
	return r;
}

long sys_pcache_attach(int ch_h, int ep_h, uint64_t id)
{
	struct proc *p = current_thread()->proc;
	long r;
	struct kobj *co = handle_get_rights(p, ch_h, KOBJ_KIND(KOBJ_CHANNEL), 0, &r);
	if (!co)
		return r;
	struct channel *ch = container_of(co, struct channel, obj);
	struct endpoint *ep = pcache_endpoint(ep_h, &r);
	struct pcache_obj *o = NULL;
	if (ep && (ch->ep != ep || ep->owner != p))
		r = -EPERM; /* only the server that minted the channel */
	else if (ep && !(o = pcache_table_get(ep, id)))
		r = -EBADF;
	else if (o && (o->flags & PCACHE_META) &&
		 !(__atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) & O_PATH)) {
		/* a directory: no data to serve. An O_PATH description may
		 * name an attribute-only object (a socket file's: the kernel's
		 * socket calls read its owner and mode); every data call
		 * refuses O_PATH before it looks at the object. */
		r = -EINVAL;
		pcache_obj_put(o);
		o = NULL;
	}
	/* open for writing: not while a process runs the file (ETXTBSY) */
	bool writer = o && (__atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) & O_ACCMODE) != O_RDONLY;
	if (writer && (r = pcache_get_write(o))) {
		pcache_obj_put(o);
		o = NULL;
	}
	if (o) {
		/* once: the description's file never changes */
		struct pcache_obj *none = NULL;
		r = __atomic_compare_exchange_n(&ch->pc, &none, o, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ? 0
															 : -EBUSY;
		if (!r)
			ch->pc_writer = writer; /* read by the release alone: our reference keeps it off */
		else {
			if (writer)
				pcache_put_write(o);
			pcache_obj_put(o);
		}
	}
	if (ep)
		kobj_put(&ep->obj);
	kobj_put(co);
	return r;
}

long sys_pcache_dirty(int ep_h, uint64_t id, uint64_t from, uint64_t *out, uint32_t max)
{
	enum { DIRTY_MAX = 512 };
	if (max == 0 || max > DIRTY_MAX)
		return -EINVAL;
	if (!user_range_ok((uint64_t)out, (size_t)max * sizeof(*out)))
		return -EFAULT;
	uint64_t *idx = kzalloc((size_t)max * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	/* a bad buffer fails before any page's dirty state is taken */
	if (copy_to_user(out, idx, (size_t)max * sizeof(*idx))) {
		kfree(idx);
		return -EFAULT;
	}
	long r;
	struct pcache_obj *o = pcache_lookup(ep_h, id, &r);
	if (o) {
		r = pcache_obj_dirty(o, from, idx, max);
		pcache_obj_put(o);
		if (r > 0 && copy_to_user(out, idx, (size_t)r * sizeof(*idx)))
			r = -EFAULT; /* unmapped meanwhile by the server itself: those states are gone */
	}
	kfree(idx);
	return r;
}
