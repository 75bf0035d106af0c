/* Kernel virtual memory layout and page tables.
 *
 *   0x0000000000000000 .. 0x00007fffffffffff  user space (each process's
 *                                             own tables, addrspace.h)
 *   0xffff800000000000 ..                     direct map of all physical
 *                                             memory, and at least 4 GiB so
 *                                             MMIO (LAPIC, PCI BARs) is reachable
 *   0xffffffff80000000 ..                     the kernel image
 */
#ifndef ARBOR_VM_H
#define ARBOR_VM_H

#include "types.h"

#define DIRECT_MAP_BASE   0xffff800000000000ull
#define KERNEL_IMAGE_BASE 0xffffffff80000000ull

#define PTE_P    (1ull << 0)
#define PTE_W    (1ull << 1)
#define PTE_U    (1ull << 2)
#define PTE_PWT  (1ull << 3)
#define PTE_PCD  (1ull << 4)
#define PTE_A    (1ull << 5)
#define PTE_D    (1ull << 6)
#define PTE_PS   (1ull << 7)
#define PTE_G    (1ull << 8)
#define PTE_NX   (1ull << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ull

static inline void *phys_to_virt(paddr_t pa)
{
	return (void *)(pa + DIRECT_MAP_BASE);
}

paddr_t virt_to_phys(const void *va);

struct addrspace;

void vm_init(paddr_t direct_map_top);

paddr_t vm_kernel_root(void);
/* Maps one 4 KiB page in the page-table tree rooted at root (physical). */
int vm_map_page(paddr_t root, vaddr_t va, paddr_t pa, uint64_t flags);
/* The PTE that maps va, or NULL (large pages return their PD/PDPT entry). */
uint64_t *vm_lookup_pte(paddr_t root, vaddr_t va);

#endif
