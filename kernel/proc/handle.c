/* Handle tables and object reference counting, and the rights each
 * handle carries (docs/security.md): checked here, in the one lookup every
 * system call that takes a handle makes. */
#include "kobj.h"
#include "abi/errno.h"
#include "cgroup.h"
#include "heap.h"
#include "memcg.h"
#include "proc.h"
#include "ipc.h"
#include "pcache.h"
#include "syscall.h"

uint64_t kobj_next_ino(void)
{
	static uint64_t next = 1000;
	return __atomic_add_fetch(&next, 1, __ATOMIC_RELAXED);
}

void *kobj_alloc(size_t size, enum kobj_type type, struct cgroup *cg,
		 void (*release)(struct kobj *o))
{
	/* The pages the object takes (a small one a whole page: a process
	 * must not be able to create them without limit for free). */
	uint32_t pages = (uint32_t)heap_charge_pages(size);
	if (mem_charge(cg, pages, MEMCG_STAT_SLAB))
		return NULL;
	struct kobj *o = kzalloc(size);
	if (!o) {
		mem_uncharge(cg, pages, MEMCG_STAT_SLAB);
		return NULL;
	}
	o->charge_pages = pages;
	o->type = type;
	o->refcount = 1;
	o->charged = cg;
	o->release = release;
	cg_get(cg);
	return o;
}

void kobj_put(struct kobj *o)
{
	if (__atomic_sub_fetch(&o->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	struct cgroup *cg = o->charged;
	uint32_t pages = o->charge_pages;
	if (o->release)
		o->release(o);
	kfree(o);
	mem_uncharge(cg, pages, MEMCG_STAT_SLAB);
	cg_put(cg);
}

void handle_table_init(struct handle_table *t)
{
	/* slots, flags and access are zero already (the contract): a loop
	 * over them cost every fork 540 guest instructions */
	/* Taken with interrupts off: sys_ipc_give takes it under sched_lock,
	 * which interrupt handlers take; held with interrupts on, a handler
	 * on its CPU could spin on sched_lock while sched_lock's holder on
	 * another CPU spins on it (found by the debug kernel's lockdep). */
	t->lock = (struct spinlock)SPINLOCK_INIT("handles");
}

int handle_install(struct proc *p, struct kobj *o, uint32_t rights)
{
	struct handle_table *t = &p->handles;
	uint64_t hf = spin_lock_irqsave(&t->lock);
	for (int h = 0; h < HANDLE_MAX; h++) {
		if (!t->slots[h]) {
			kobj_get(o);
			t->slots[h] = o;
			t->flags[h] = 0;
			t->access[h] = HANDLE_ACCESS(o->type, rights);
			spin_unlock_irqrestore(&t->lock, hf);
			return h;
		}
	}
	spin_unlock_irqrestore(&t->lock, hf);
	return -EMFILE;
}

/* handle_get's body, inlined into sys_handle_close too: the call had
 * cost every close 14 guest instructions once the record locks' test
 * made the compiler keep it out of line. */
static inline __attribute__((always_inline)) struct kobj *handle_ref(struct proc *p, int h, enum kobj_type type)
{
	struct handle_table *t = &p->handles;
	struct kobj *o = NULL;
	if (h < 0 || h >= HANDLE_MAX)
		return NULL;
	uint64_t hf = spin_lock_irqsave(&t->lock);
	if (t->slots[h] && (type == KOBJ_ANY || t->slots[h]->type == type)) {
		o = t->slots[h];
		kobj_get(o);
	}
	spin_unlock_irqrestore(&t->lock, hf);
	return o;
}

struct kobj *handle_get(struct proc *p, int h, enum kobj_type type)
{
	return handle_ref(p, h, type);
}

struct kobj *handle_get_rights(struct proc *p, int h, uint32_t kinds, uint32_t need, long *err)
{
	return handle_table_get(&p->handles, h, kinds, need, err, NULL);
}

struct kobj *handle_get_rights_of(struct proc *p, int h, uint32_t kinds, uint32_t need, long *err,
				  uint32_t *have)
{
	return handle_table_get(&p->handles, h, kinds, need, err, have);
}

/* A descriptor of p for o is gone: p's record locks on its file go too
 * (POSIX: any close of the file releases them). */
static void handle_closed_flocks(struct proc *p, struct kobj *o)
{
	if (o->type != KOBJ_CHANNEL)
		return;
	struct pcache_obj *pc = __atomic_load_n(&container_of(o, struct channel, obj)->pc, __ATOMIC_ACQUIRE);
	/* the common close: no lock on the file at all (a lock of p's
	 * cannot appear meanwhile: p is closing its descriptor, and a lock
	 * another thread of p takes now is its race, as on Linux) */
	if (pc && !list_empty(&pc->flocks))
		pcache_flock_release(pc, p);
}

int handle_close(struct proc *p, int h)
{
	struct handle_table *t = &p->handles;
	if (h < 0 || h >= HANDLE_MAX)
		return -EBADF;
	uint64_t hf = spin_lock_irqsave(&t->lock);
	struct kobj *o = t->slots[h];
	t->slots[h] = NULL;
	t->flags[h] = 0;
	t->access[h] = 0;
	spin_unlock_irqrestore(&t->lock, hf);
	if (!o)
		return -EBADF;
	kobj_put(o);
	return 0;
}

long sys_handle_close(int h)
{
	struct proc *p = current_thread()->proc;
	struct kobj *o = handle_ref(p, h, KOBJ_ANY);
	if (!o)
		return -EBADF;
	/* Ours is the last handle to a channel (besides the reference we just
	 * took): its server hears of the close before close returns. */
	if (o->type == KOBJ_CHANNEL && __atomic_load_n(&o->refcount, __ATOMIC_ACQUIRE) == 2 &&
	    !container_of(o, struct channel, obj)->kopen) /* the kernel's own: nobody to tell */
		ipc_channel_close_sync(o);
	/* the common close: p holds no record lock anywhere (a test here,
	 * not in handle_close, whose fast path stays a tail call) */
	if (__builtin_expect(__atomic_load_n(&p->nflocks, __ATOMIC_RELAXED) != 0, 0))
		handle_closed_flocks(p, o);
	kobj_put(o);
	return handle_close(p, h);
}

/* handle_close with the record locks' release (exit, execve). */
static void handle_close_releasing(struct proc *p, int h)
{
	struct kobj *o = p->handles.slots[h]; /* the process's last thread, or execve's */
	if (o && __atomic_load_n(&p->nflocks, __ATOMIC_RELAXED))
		handle_closed_flocks(p, o);
	handle_close(p, h);
}

void handle_close_all(struct proc *p)
{
	for (int h = 0; h < HANDLE_MAX; h++)
		if (p->handles.slots[h])
			handle_close_releasing(p, h);
}

void handle_close_on_exec(struct proc *p)
{
	for (int h = 0; h < HANDLE_MAX; h++)
		if (p->handles.slots[h] && (p->handles.flags[h] & HANDLE_CLOEXEC))
			handle_close_releasing(p, h);
}

/* Installs o with rights at the lowest free slot >= min (F_DUPFD), or
 * exactly at target, replacing what was there (dup2). */
static int handle_place(struct proc *p, struct kobj *o, int min, int target, uint8_t flags,
			uint32_t rights)
{
	struct handle_table *t = &p->handles;
	struct kobj *old = NULL;
	int h = -EMFILE;
	uint64_t hf = spin_lock_irqsave(&t->lock);
	if (target >= 0) {
		old = t->slots[target];
		h = target;
	} else {
		for (int i = min; i < HANDLE_MAX && h < 0; i++)
			if (!t->slots[i])
				h = i;
	}
	if (h >= 0) {
		kobj_get(o);
		t->slots[h] = o;
		t->flags[h] = flags;
		t->access[h] = HANDLE_ACCESS(o->type, rights);
	}
	spin_unlock_irqrestore(&t->lock, hf);
	if (old) {
		if (old != o && __atomic_load_n(&p->nflocks, __ATOMIC_RELAXED))
			handle_closed_flocks(p, old); /* dup2 closed another descriptor: its file's locks go */
		kobj_put(old);
	}
	return h;
}

/* The object behind h for a duplicate (h needs HANDLE_RIGHT_DUP), and the
 * rights the duplicate gets: the same. */
static struct kobj *handle_get_for_dup(struct proc *p, int h, uint32_t *rights, long *err)
{
	return handle_get_rights_of(p, h, KOBJ_KINDS_ANY, HANDLE_RIGHT_DUP, err, rights);
}

long sys_handle_dup(int h, int min, int flags)
{
	struct proc *p = current_thread()->proc;
	if (min < 0 || min >= HANDLE_MAX || (flags & ~HANDLE_CLOEXEC))
		return -EINVAL;
	uint32_t rights;
	long r;
	struct kobj *o = handle_get_for_dup(p, h, &rights, &r);
	if (!o)
		return r;
	r = handle_place(p, o, min, -1, (uint8_t)flags, rights);
	kobj_put(o);
	return r;
}

long sys_handle_dup2(int h, int target, int flags)
{
	struct proc *p = current_thread()->proc;
	if (target < 0 || target >= HANDLE_MAX || (flags & ~HANDLE_CLOEXEC))
		return -EBADF;
	uint32_t rights;
	long r;
	struct kobj *o = handle_get_for_dup(p, h, &rights, &r);
	if (!o)
		return r;
	r = h == target ? h : handle_place(p, o, 0, target, (uint8_t)flags, rights);
	kobj_put(o);
	return r;
}

long sys_handle_flags(int h, int set)
{
	struct handle_table *t = &current_thread()->proc->handles;
	if (h < 0 || h >= HANDLE_MAX || set < -1 || set > HANDLE_CLOEXEC)
		return -EINVAL;
	uint64_t hf = spin_lock_irqsave(&t->lock);
	long r = t->slots[h] ? t->flags[h] : -EBADF;
	if (r >= 0 && set >= 0)
		t->flags[h] = (uint8_t)set;
	spin_unlock_irqrestore(&t->lock, hf);
	return r;
}

long sys_handle_rights(int h, int64_t keep)
{
	struct handle_table *t = &current_thread()->proc->handles;
	if ((unsigned)h >= HANDLE_MAX)
		return -EBADF;
	if (keep < -1 || keep > HANDLE_RIGHTS_ALL)
		return -EINVAL;
	uint64_t hf = spin_lock_irqsave(&t->lock);
	uint32_t a = t->access[h];
	long r = t->slots[h] ? (long)HANDLE_ACCESS_RIGHTS(a) : -EBADF;
	if (r >= 0 && keep >= 0) {
		if ((uint64_t)keep & ~(uint64_t)r) {
			r = -EPERM; /* fewer, never more */
		} else {
			t->access[h] = (a & ~HANDLE_RIGHTS_ALL) | (uint32_t)keep;
			r = keep;
		}
	}
	spin_unlock_irqrestore(&t->lock, hf);
	return r;
}
