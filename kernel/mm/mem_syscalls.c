/* Anonymous memory for user processes. */
#include "abi/errno.h"
#include "abi/procinfo.h"
#include "addrspace.h"
#include "cgroup.h"
#include "memcg.h"
#include "pmm.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

#define MEM_MAP_BASE 0x0000100000000000ull /* where the kernel places maps */

long sys_mem_map(uint64_t addr, size_t len, int prot)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as || len == 0 || (len & (PAGE_SIZE - 1)) || (prot & ~(VM_READ | VM_WRITE | VM_EXEC)))
		return -EINVAL;
	if (addr == 0 && !(addr = vm_find_free(as, MEM_MAP_BASE, len)))
		return -ENOMEM;
	int err = vm_area_add(as, addr, len, (uint32_t)prot, 0);
	return err ? err : (long)addr;
}

long sys_mem_unmap(uint64_t addr, size_t len)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as)
		return -EINVAL;
	return vm_area_remove(as, addr, len);
}

/* Linux's brk: asking for a new break returns the break in force after the
 * call (the old one if the request cannot be met); 0 asks for the current
 * one. The heap is one area from the end of the program image. */
long sys_brk(uint64_t addr)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as)
		return -EINVAL;
	if (addr < as->brk_start || addr >= USER_STACK_TOP - USER_STACK_SIZE)
		return (long)as->brk;
	if (vm_area_set_end(as, as->brk_start, ALIGN_UP(addr, PAGE_SIZE)) == 0)
		as->brk = addr;
	return (long)as->brk;
}

long sys_mem_protect(uint64_t addr, size_t len, int prot)
{
	struct addrspace *as = current_thread()->proc->as;
	return as ? vm_protect(as, addr, len, (uint32_t)prot) : -EINVAL;
}

void rlimit_defaults(struct proc *p)
{
	for (int i = 0; i < K_RLIM_NLIMITS; i++)
		p->rlim[i] = (struct k_rlimit){ K_RLIM_INFINITY, K_RLIM_INFINITY };
	p->rlim[K_RLIMIT_STACK] = (struct k_rlimit){ USER_STACK_SIZE, USER_STACK_SIZE }; /* fixed */
	p->rlim[K_RLIMIT_CORE] = (struct k_rlimit){ 0, K_RLIM_INFINITY };		  /* Linux's */
	p->rlim[K_RLIMIT_NOFILE] = (struct k_rlimit){ K_NOFILE_MAX, K_NOFILE_MAX };
	p->rlim[K_RLIMIT_NICE] = (struct k_rlimit){ 0, 0 };   /* only root lowers nice */
	p->rlim[K_RLIMIT_RTPRIO] = (struct k_rlimit){ 0, 0 }; /* no real-time policy */
}

/* Whether Arbor enforces limit nl of resource r (the others' values are
 * fixed: a different one would not be enforced, so it is refused). */
static bool rlimit_settable(int r, const struct k_rlimit *nl, const struct k_rlimit *now)
{
	if (r == K_RLIMIT_CORE)
		return true; /* no core dump is ever written: any limit holds */
	if (r == K_RLIMIT_NOFILE)
		return nl->max <= K_NOFILE_MAX || nl->max == now->max;
	return nl->cur == now->cur && nl->max == now->max;
}

/* The limits of prlimit's other resources (p->rlim), under proc_lock: a
 * lower hard limit for anyone, a higher one for root only (EPERM), and
 * only limits Arbor enforces (EINVAL, or for RLIMIT_NOFILE above 200
 * EPERM, as Linux above fs.nr_open). */
static long prlimit_other(struct proc *p, int resource, const struct k_rlimit *nl, struct k_rlimit *ol)
{
	long r = 0;
	spin_lock(&proc_lock);
	struct k_rlimit *cur = &p->rlim[resource];
	*ol = *cur;
	if (nl) {
		if (resource == K_RLIMIT_NOFILE && nl->max > K_NOFILE_MAX && nl->max != cur->max)
			r = -EPERM;
		else if (nl->max > cur->max && p->cred.euid != 0)
			r = -EPERM;
		else if (!rlimit_settable(resource, nl, cur))
			r = -EINVAL;
		else
			*cur = *nl;
	}
	spin_unlock(&proc_lock);
	return r;
}

/* Linux's prlimit on the caller. RLIMIT_AS: a lower hard limit is for
 * anyone, a higher one for root (CAP_SYS_RESOURCE) only; the soft limit
 * may not exceed the hard one. Mappings made already stay. The other
 * resources: prlimit_other. */
long sys_prlimit(int resource, const struct k_rlimit *new_lim, struct k_rlimit *old_lim)
{
	struct proc *p = current_thread()->proc;
	struct addrspace *as = p->as;
	struct k_rlimit nl, ol;
	if (resource == K_RLIMIT_SIGPENDING) /* the queue bound the signal code keeps */
		return signal_prlimit(new_lim, old_lim);
	if (resource < 0 || resource >= K_RLIM_NLIMITS || (resource == K_RLIMIT_AS && !as))
		return -EINVAL;
	if (new_lim && copy_from_user(&nl, new_lim, sizeof(nl)))
		return -EFAULT;
	if (new_lim && nl.cur > nl.max)
		return -EINVAL;
	if (resource != K_RLIMIT_AS) {
		long r = prlimit_other(p, resource, new_lim ? &nl : NULL, &ol);
		if (!r && old_lim && copy_to_user(old_lim, &ol, sizeof(ol)))
			return -EFAULT;
		return r;
	}
	spin_lock(&as->lock);
	ol = (struct k_rlimit){ as->limit_as, as->limit_as_max };
	long r = 0;
	if (new_lim && nl.max > as->limit_as_max && p->cred.euid != 0)
		r = -EPERM;
	else if (new_lim) {
		as->limit_as = nl.cur;
		as->limit_as_max = nl.max;
	}
	spin_unlock(&as->lock);
	if (!r && old_lim && copy_to_user(old_lim, &ol, sizeof(ol)))
		return -EFAULT;
	return r;
}

/* What charging for a client left on the server thread belongs to the
 * client: a failed charge is counted now ("max"); pages over a
 * memory.high go to the client thread, which pays on its way out of the
 * call (the server must not sleep for it). had_*: the server's own. */
static void mem_fill_settle(struct thread *self, bool had_fail, bool had_high)
{
	if (!had_fail && self->mem_fail) {
		memcg_event(self->mem_fail, MEMCG_MAX);
		cg_put(self->mem_fail);
		self->mem_fail = NULL;
	}
	if (had_high || !self->mem_high)
		return;
	struct cgroup *over = self->mem_high;
	uint64_t pages = self->mem_high_pages;
	self->mem_high = NULL;
	self->mem_high_pages = 0;
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	if (c && !c->mem_high) {
		c->mem_high = over;
		over = NULL;
	}
	if (c) {
		c->mem_high_pages += pages;
		thread_set_work(c);
	}
	sched_unlock_ipc(f);
	if (over)
		cg_put(over);
}

long sys_mem_fill(uint64_t addr, size_t len)
{
	struct thread *self = current_thread();
	struct addrspace *as = self->proc->as;
	if (!as)
		return -EINVAL;
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	struct cgroup *cg = c ? c->proc->cgroup : self->proc->cgroup;
	cg_get(cg); /* the client may leave it meanwhile */
	sched_unlock_ipc(f);
	bool had_fail = self->mem_fail, had_high = self->mem_high;
	int err = vm_fill(as, addr, len, cg);
	cg_put(cg);
	mem_fill_settle(self, had_fail, had_high);
	return err;
}

long sys_mem_discard(uint64_t addr, size_t len)
{
	struct addrspace *as = current_thread()->proc->as;
	return as ? vm_discard(as, addr, len) : -EINVAL;
}

/* mlock, munlock, mlockall, munlockall (how K_MLOCK_*, abi/mman.h). A
 * page Arbor has mapped is never reclaimed (no swap; reclaim takes only
 * unmapped page cache pages), so locking is making the pages present now
 * (vm_populate), and unlocking checks the range only. mlockall's
 * MCL_FUTURE the C library applies to its later mappings. There is no
 * RLIMIT_MEMLOCK: as for root on Linux, no limit applies. */
long sys_mem_lock(uint64_t addr, size_t len, int how)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as)
		return -EINVAL;
	if (how == K_MLOCK_ALL) {
		if (!addr || (addr & ~(uint64_t)(K_MCL_CURRENT | K_MCL_FUTURE | K_MCL_ONFAULT)) ||
		    addr == K_MCL_ONFAULT)
			return -EINVAL;
		if (!(addr & K_MCL_CURRENT) || (addr & K_MCL_ONFAULT))
			return 0;
		/* every area present, in order; the list may change between
		 * steps (other threads), so look up the next area each time */
		vaddr_t va = 0;
		for (;;) {
			vaddr_t s = 0, e = 0;
			spin_lock(&as->lock);
			struct list_head *pos;
			list_for_each(pos, &as->areas) {
				struct vm_area *a = list_entry(pos, struct vm_area, link);
				if (a->end > va) {
					s = a->start > va ? a->start : va;
					e = a->end;
					break;
				}
			}
			spin_unlock(&as->lock);
			if (!e)
				return 0;
			int err = vm_populate(as, s, e);
			if (err && err != -ENOMEM)
				return err;
			if (err == -ENOMEM && vm_range_mapped(as, s, e))
				return -ENOMEM; /* memory, not a hole */
			va = e;
		}
	}
	if (how == K_MUNLOCK_ALL)
		return 0;
	if (how != K_MLOCK && how != K_MUNLOCK)
		return -EINVAL;
	uint64_t start = addr & ~(uint64_t)(PAGE_SIZE - 1), end;
	if (__builtin_add_overflow(addr, len, &end) || end > UINT64_MAX - PAGE_SIZE)
		return -EINVAL;
	end = ALIGN_UP(end, PAGE_SIZE);
	if (start == end)
		return 0;
	if (!vm_range_mapped(as, start, end))
		return -ENOMEM;
	return how == K_MLOCK ? vm_populate(as, start, end) : 0;
}

#define KPAGECGROUP_MAX 4096
#define KPAGECGROUP_BATCH 64	/* frames per hold of the allocator's lock */

/* Under the allocator's lock: a charged block keeps its cgroup alive, and
 * a removed cgroup's pages count in its nearest live ancestor (Linux's
 * page_cgroup_ino walks up to an online memcg the same way). */
static uint64_t kpage_cgroup_ino(void *charge)
{
	return charge ? cg_dir_ino(memcg_live(charge)) : 0;
}

long sys_kpagecgroup(uint64_t first, uint64_t *ids, size_t n)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (n > KPAGECGROUP_MAX)
		return -EINVAL;
	if (first > UINT64_MAX - KPAGECGROUP_MAX)
		return 0; /* past every frame (and no wrap back to frame 0) */
	uint64_t buf[KPAGECGROUP_BATCH];
	size_t done = 0;
	while (done < n) {
		uint64_t want = MIN(n - done, (size_t)KPAGECGROUP_BATCH);
		uint64_t got = pmm_frame_owners(first + done, want, kpage_cgroup_ino, buf);
		if (got && copy_to_user(ids + done, buf, got * sizeof(buf[0])))
			return -EFAULT;
		done += got;
		if (got < want)
			break;
		sched_cond_resched(); /* a long range: others get the CPU */
	}
	return (long)done;
}
