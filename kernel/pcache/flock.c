/* POSIX record locks (fcntl F_GETLK, F_SETLK, F_SETLKW; docs/vfs.md
 * "Record locks"), held on the page cache object of the file, so every
 * process and server that opens the file sees the same locks whatever
 * descriptor or server path it came through. A lock belongs to a
 * process: fork does not pass it on; any close of a descriptor for the
 * file by the process releases all the process's locks on it (POSIX),
 * and so does its exit (which closes everything). F_SETLKW sleeps until
 * the range is free, fails with EDEADLK when the wait would close a
 * cycle of processes waiting for each other's locks (Linux's check,
 * following waiters at most 10 deep), with EINTR for a signal.
 *
 * One spinlock (flock_lock) guards every object's lock list and the list
 * of waiters; work under it is bounded by the locks on one object. */
#include "pcache.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "heap.h"
#include "ipc.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

#define FLOCK_END UINT64_MAX		/* a lock to the end of the file, however long */
#define FLOCK_DEADLOCK_DEPTH 10
#define FLOCK_DEADLOCK_VISITS 64

struct flock_rec {
	struct list_head link;		/* in pc->flocks */
	struct proc *owner;
	uint64_t start, end;		/* inclusive */
	int type;			/* K_F_RDLCK or K_F_WRLCK */
};

/* A process sleeping in F_SETLKW (on its stack, on flock_waiters). */
struct flock_waiter {
	struct list_head link;
	struct proc *proc;
	struct pcache_obj *pc;
	uint64_t start, end;
	int type;
};

static struct spinlock flock_lock = SPINLOCK_INIT("flock");
static struct list_head flock_waiters = LIST_HEAD_INIT(flock_waiters);

static bool flock_conflicts(const struct flock_rec *r, const struct proc *owner, int type, uint64_t s,
			    uint64_t e)
{
	return r->owner != owner && r->start <= e && s <= r->end &&
	       (type == K_F_WRLCK || r->type == K_F_WRLCK);
}

/* The first lock of another process that keeps owner from type on [s, e]. */
static struct flock_rec *flock_conflict_locked(struct pcache_obj *pc, const struct proc *owner, int type,
					       uint64_t s, uint64_t e)
{
	struct list_head *pos;
	list_for_each(pos, &pc->flocks) {
		struct flock_rec *r = list_entry(pos, struct flock_rec, link);
		if (flock_conflicts(r, owner, type, s, e))
			return r;
	}
	return NULL;
}

/* Whether who waits, directly or through others' waits, for a lock of
 * target. *visits bounds the search. */
static bool flock_waits_for_locked(const struct proc *who, const struct proc *target, int depth, int *visits)
{
	if (depth >= FLOCK_DEADLOCK_DEPTH)
		return false;
	struct list_head *w;
	list_for_each(w, &flock_waiters) {
		struct flock_waiter *fw = list_entry(w, struct flock_waiter, link);
		if (fw->proc != who)
			continue;
		struct list_head *pos;
		list_for_each(pos, &fw->pc->flocks) {
			struct flock_rec *r = list_entry(pos, struct flock_rec, link);
			if (++*visits > FLOCK_DEADLOCK_VISITS)
				return false;
			if (flock_conflicts(r, fw->proc, fw->type, fw->start, fw->end) &&
			    (r->owner == target || flock_waits_for_locked(r->owner, target, depth + 1, visits)))
				return true;
		}
	}
	return false;
}

/* Drops lock record r (its owner's count too). flock_lock held. */
static void flock_free_locked(struct flock_rec *r)
{
	r->owner->nflocks--;
	list_del(&r->link);
	kfree(r);
}

/* Sets owner's locks on [s, e] to type (K_F_UNLCK: none), splitting,
 * trimming and merging its records; spare holds two preallocated
 * records, of which what is used is set to NULL. */
static void flock_apply_locked(struct pcache_obj *pc, struct proc *owner, int type, uint64_t s, uint64_t e,
			       struct flock_rec *spare[2])
{
	struct list_head *pos, *next;
	list_for_each_safe(pos, next, &pc->flocks) {
		struct flock_rec *r = list_entry(pos, struct flock_rec, link);
		if (r->owner != owner)
			continue;
		bool touches = r->start <= (e == FLOCK_END ? e : e + 1) && (s == 0 ? 0 : s - 1) <= r->end;
		if (!touches)
			continue;
		bool overlaps = r->start <= e && s <= r->end;
		if (r->type == type) { /* the same kind, overlapping or adjacent: one record */
			s = r->start < s ? r->start : s;
			e = r->end > e ? r->end : e;
			flock_free_locked(r);
			continue;
		}
		if (!overlaps)
			continue; /* adjacent, another kind: stays */
		if (r->start < s && r->end > e) { /* the middle goes: split */
			struct flock_rec *tail = spare[0];
			spare[0] = NULL;
			*tail = *r;
			tail->start = e + 1;
			list_add(&tail->link, &r->link);
			owner->nflocks++;
			r->end = s - 1;
		} else if (r->start < s) {
			r->end = s - 1;
		} else if (r->end > e) {
			r->start = e + 1;
		} else {
			flock_free_locked(r);
		}
	}
	if (type != K_F_UNLCK) {
		struct flock_rec *n = spare[1];
		spare[1] = NULL;
		*n = (struct flock_rec){ .owner = owner, .start = s, .end = e, .type = type };
		/* kept in order of start, as Linux's list: F_GETLK reports the
		 * lowest conflicting range */
		struct list_head *at = &pc->flocks;
		list_for_each(pos, &pc->flocks)
			if (list_entry(pos, struct flock_rec, link)->start > s) {
				at = pos;
				break;
			}
		list_add_tail(&n->link, at);
		owner->nflocks++;
	}
	waitq_wake_all(&pc->flock_wait, 0); /* a waiter may fit now */
}

/* l's range as [*s, *e] from base (whence's): Linux's flock_to_posix_lock. */
static long flock_range(const struct k_flock *l, struct channel *ch, uint64_t *s, uint64_t *e)
{
	int64_t base;
	if (l->whence == 0) {
		base = 0;
	} else if (l->whence == 1) {
		base = (int64_t)__atomic_load_n(&ch->pos, __ATOMIC_RELAXED);
	} else if (l->whence == 2) {
		struct pcache_attr a;
		pcache_obj_getattr(ch->pc, &a);
		base = (int64_t)a.size;
	} else {
		return -EINVAL;
	}
	int64_t start;
	if (__builtin_add_overflow(base, l->start, &start))
		return -EOVERFLOW;
	if (start < 0)
		return -EINVAL;
	if (l->len > 0) {
		int64_t end;
		if (__builtin_add_overflow(start, l->len - 1, &end))
			return -EOVERFLOW;
		*s = (uint64_t)start;
		*e = (uint64_t)end;
	} else if (l->len < 0) {
		if (start + l->len < 0)
			return -EINVAL;
		*s = (uint64_t)(start + l->len);
		*e = (uint64_t)start - 1;
	} else {
		*s = (uint64_t)start;
		*e = FLOCK_END;
	}
	return 0;
}

static long flock_getlk(struct pcache_obj *pc, struct proc *self, struct k_flock *l, uint64_t s, uint64_t e)
{
	if (l->type != K_F_RDLCK && l->type != K_F_WRLCK)
		return -EINVAL;
	spin_lock(&flock_lock);
	struct flock_rec *r = flock_conflict_locked(pc, self, l->type, s, e);
	if (r) {
		l->type = (int16_t)r->type;
		l->whence = 0;
		l->start = (int64_t)r->start;
		l->len = r->end == FLOCK_END ? 0 : (int64_t)(r->end - r->start + 1);
		l->pid = r->owner->pid;
	} else {
		l->type = K_F_UNLCK;
	}
	spin_unlock(&flock_lock);
	return 0;
}

static long flock_setlk(struct pcache_obj *pc, struct proc *self, int type, uint64_t s, uint64_t e, bool wait)
{
	struct flock_rec *spare[2] = { kmalloc(sizeof(struct flock_rec)), kmalloc(sizeof(struct flock_rec)) };
	long r = 0;
	if (!spare[0] || !spare[1]) {
		r = -ENOLCK;
		goto out;
	}
	struct flock_waiter me = { .proc = self, .pc = pc, .start = s, .end = e, .type = type };
	spin_lock(&flock_lock);
	for (;;) {
		struct flock_rec *c = type == K_F_UNLCK ? NULL : flock_conflict_locked(pc, self, type, s, e);
		if (!c)
			break;
		int visits = 0;
		if (!wait)
			r = -EAGAIN;
		else if (flock_waits_for_locked(c->owner, self, 0, &visits))
			r = -EDEADLK;
		if (r) {
			spin_unlock(&flock_lock);
			goto out;
		}
		list_add_tail(&me.link, &flock_waiters);
		int w = waitq_wait(&pc->flock_wait, &flock_lock, 0);
		spin_lock(&flock_lock);
		list_del(&me.link);
		if (w == -EINTR || thread_has_work(current_thread())) {
			spin_unlock(&flock_lock);
			r = -EINTR;
			goto out;
		}
	}
	flock_apply_locked(pc, self, type, s, e, spare);
	spin_unlock(&flock_lock);
out:
	kfree(spare[0]);
	kfree(spare[1]);
	return r;
}

long sys_fd_lock(int fd, int cmd, struct k_flock *ul)
{
	struct proc *self = current_thread()->proc;
	struct k_flock l;
	long r;
	if (cmd != K_F_GETLK && cmd != K_F_SETLK && cmd != K_F_SETLKW)
		return -EINVAL;
	struct kobj *o = handle_get_rights(self, fd, KOBJ_KINDS_ANY, 0, &r);
	if (!o)
		return r;
	struct channel *ch = o->type == KOBJ_CHANNEL ? container_of(o, struct channel, obj) : NULL;
	struct pcache_obj *pc = ch ? __atomic_load_n(&ch->pc, __ATOMIC_ACQUIRE) : NULL;
	uint32_t fl = ch ? __atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) : 0;
	uint64_t s = 0, e = 0;
	if (copy_from_user(&l, ul, sizeof(l)))
		r = -EFAULT;
	else if (!pc)
		r = -ENOLCK; /* no page cache object to hold it (pipes, terminals) */
	else if (fl & O_PATH)
		r = -EBADF;
	else
		r = flock_range(&l, ch, &s, &e);
	if (r == 0 && cmd == K_F_GETLK) {
		r = flock_getlk(pc, self, &l, s, e);
		if (r == 0 && copy_to_user(ul, &l, sizeof(l)))
			r = -EFAULT;
	} else if (r == 0) {
		uint32_t acc = fl & O_ACCMODE;
		if (l.type != K_F_RDLCK && l.type != K_F_WRLCK && l.type != K_F_UNLCK)
			r = -EINVAL;
		else if ((l.type == K_F_RDLCK && acc == O_WRONLY) || (l.type == K_F_WRLCK && acc == O_RDONLY))
			r = -EBADF; /* Linux: a read lock needs reading, a write lock writing */
		else
			r = flock_setlk(pc, self, l.type, s, e, cmd == K_F_SETLKW);
	}
	kobj_put(o);
	return r;
}

void pcache_flock_release(struct pcache_obj *pc, struct proc *p)
{
	if (list_empty(&pc->flocks)) /* the common close: no lock on the file */
		return;
	spin_lock(&flock_lock);
	struct list_head *pos, *next;
	bool freed = false;
	list_for_each_safe(pos, next, &pc->flocks) {
		struct flock_rec *r = list_entry(pos, struct flock_rec, link);
		if (r->owner == p) {
			flock_free_locked(r);
			freed = true;
		}
	}
	if (freed)
		waitq_wake_all(&pc->flock_wait, 0);
	spin_unlock(&flock_lock);
}
