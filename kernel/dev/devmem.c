/* Device memory and DMA buffers for drivers. MMIO may only map physical
 * ranges that are not RAM the kernel manages, and never the local or I/O
 * APIC, which the kernel drives. DMA buffers are physically contiguous,
 * zeroed, charged to the driver's cgroup, and their physical address is
 * returned so the driver can program its device. */
#include "abi/errno.h"
#include "addrspace.h"
#include "kstring.h"
#include "memcg.h"
#include "pmm.h"
#include "proc.h"
#include "syscall.h"

#define DEVMEM_MAP_BASE 0x0000200000000000ull

static bool devmem_allowed(uint64_t phys, uint64_t len)
{
	for (uint64_t pa = phys; pa < phys + len; pa += PAGE_SIZE) {
		if (phys_to_page(pa))
			return false;	/* RAM (or its reserved holes) */
		if ((pa >> 12) == (0xfee00000 >> 12) || (pa >> 12) == (0xfec00000 >> 12))
			return false;	/* local APIC, I/O APIC */
	}
	return true;
}

long sys_mmio_map(uint64_t phys, size_t len)
{
	struct proc *p = current_thread()->proc;
	if (!(p->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (len == 0 || (phys | len) & (PAGE_SIZE - 1) || phys + len < phys || phys + len > (1ull << 46))
		return -EINVAL;
	if (!devmem_allowed(phys, len))
		return -EPERM;
	uint64_t va = vm_find_free(p->as, DEVMEM_MAP_BASE, len);
	if (!va)
		return -ENOMEM;
	int err = vm_area_add(p->as, va, len, VM_READ | VM_WRITE | VM_DEVICE, phys);
	return err ? err : (long)va;
}

long sys_dma_alloc(size_t len, uint64_t *uphys)
{
	struct proc *p = current_thread()->proc;
	unsigned order = 0;
	if (!(p->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (len == 0 || len > (PAGE_SIZE << 10))
		return -EINVAL;
	if (!user_range_ok((uint64_t)uphys, sizeof(*uphys)))
		return -EFAULT;
	while ((PAGE_SIZE << order) < len)
		order++;
	struct page *block = mem_alloc_pages(p->cgroup, order, MEMCG_STAT_KERNEL_OTHER);
	if (!block)
		return -ENOMEM;
	memset(page_to_virt(block), 0, PAGE_SIZE << order);
	uint64_t pa = page_to_phys(block);
	uint64_t va = vm_find_free(p->as, DEVMEM_MAP_BASE, PAGE_SIZE << order);
	int err = va ? vm_area_add_dma(p->as, va, block, order) : -ENOMEM;
	if (err) {
		if (!va)
			mem_free_pages(block, order);
		return err;
	}
	if (copy_to_user(uphys, &pa, sizeof(pa))) {
		vm_area_remove(p->as, va, PAGE_SIZE << order);
		return -EFAULT;
	}
	return (long)va;
}
