/* Shared memory: an object holding pages that several processes map. The
 * pages are allocated and charged to the creator's cgroup at creation
 * (Linux charges shared memory to whoever first touches it; here the
 * creator is that one). Each page carries one count for the object and one
 * per mapping; it is freed when the last goes. Handles to the object move
 * between processes through IPC (ipc_give). */
#include "abi/errno.h"
#include "addrspace.h"
#include "heap.h"
#include "kobj.h"
#include "kstring.h"
#include "memcg.h"
#include "pmm.h"
#include "proc.h"
#include "sched.h"

#define SHM_MAX_BYTES (1ull << 30)
#define SHM_MAP_BASE  0x0000300000000000ull

struct shm {
	struct kobj obj;
	uint64_t npages;
	struct page **pages;
};

/* The page array's whole pages are charged on top of the object's own
 * page (a 1 GiB object's array is 2 MiB). */
static uint64_t shm_array_pages(uint64_t npages)
{
	return npages * sizeof(struct page *) / PAGE_SIZE;
}

static void shm_release(struct kobj *o)
{
	struct shm *s = container_of(o, struct shm, obj);
	for (uint64_t i = 0; s->pages && i < s->npages && s->pages[i]; i++) {
		if (__atomic_sub_fetch(&s->pages[i]->refcount, 1, __ATOMIC_ACQ_REL) == 0)
			mem_free_pages(s->pages[i], 0);
		if (!(i % 64))
			sched_cond_resched(); /* up to 1 GiB: others run meanwhile */
	}
	if (s->pages)
		mem_uncharge(o->charged, shm_array_pages(s->npages), MEMCG_STAT_SLAB);
	kfree(s->pages);
}

long sys_shm_create(size_t len)
{
	struct proc *p = current_thread()->proc;
	if (len == 0 || len > SHM_MAX_BYTES)
		return -EINVAL;
	struct shm *s = kobj_alloc(sizeof(*s), KOBJ_SHM, p->cgroup, shm_release);
	if (!s)
		return -ENOMEM;
	s->npages = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	if (mem_charge(p->cgroup, shm_array_pages(s->npages), MEMCG_STAT_SLAB) == 0) {
		s->pages = kzalloc(s->npages * sizeof(*s->pages));
		if (!s->pages)
			mem_uncharge(p->cgroup, shm_array_pages(s->npages), MEMCG_STAT_SLAB);
	}
	long r = s->pages ? 0 : -ENOMEM;
	for (uint64_t i = 0; i < s->npages && r == 0; i++) {
		/* up to 1 GiB: a caller being killed gives up (its cgroup may
		 * allow it 1 % of a CPU) */
		if (!(i % 64)) {
			if (thread_fatal_signal(current_thread())) {
				r = -EINTR;
				break;
			}
			sched_cond_resched(); /* kernel work is bounded: 256 KiB zeroed between chances */
		}
		s->pages[i] = mem_alloc_pages(p->cgroup, 0, MEMCG_STAT_SHMEM);
		if (!s->pages[i]) {
			r = -ENOMEM;
			break;
		}
		memset(page_to_virt(s->pages[i]), 0, PAGE_SIZE);
	}
	if (r == 0)
		r = handle_install(p, &s->obj, HANDLE_RIGHTS_SHM);
	kobj_put(&s->obj); /* on failure this frees what was allocated */
	return r;
}

long sys_shm_map(int h, int prot)
{
	struct proc *p = current_thread()->proc;
	if (prot & ~(VM_READ | VM_WRITE))
		return -EINVAL;
	/* a mapping needs MAP, and READ / WRITE for what it allows */
	uint32_t need = HANDLE_RIGHT_MAP | (prot & VM_READ ? HANDLE_RIGHT_READ : 0) |
			(prot & VM_WRITE ? HANDLE_RIGHT_WRITE : 0);
	long err;
	struct kobj *o = handle_get_rights(p, h, KOBJ_KIND(KOBJ_SHM), need, &err);
	if (!o)
		return err;
	struct shm *s = container_of(o, struct shm, obj);
	uint64_t len = s->npages * PAGE_SIZE;
	vaddr_t va = vm_find_free(p->as, SHM_MAP_BASE, len);
	long r = va ? vm_map_shared(p->as, va, s->pages, s->npages, (uint32_t)prot) : -ENOMEM;
	kobj_put(o);
	return r ? r : (long)va;
}

long sys_shm_size(int h)
{
	struct kobj *o = handle_get(current_thread()->proc, h, KOBJ_SHM);
	if (!o)
		return -EBADF;
	long n = (long)(container_of(o, struct shm, obj)->npages * PAGE_SIZE);
	kobj_put(o);
	return n;
}
