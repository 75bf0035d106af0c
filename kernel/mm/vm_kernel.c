/* The kernel's own page tables: the direct map and the kernel image with
 * per-section permissions. Replaces the boot tables (and with them the
 * identity map of low memory, so a stray NULL dereference faults). */
#include "vm.h"
#include "addrspace.h"
#include "arch/x86.h"
#include "kstring.h"
#include "panic.h"
#include "pmm.h"

#define MMIO_WINDOW_START 0xc0000000ull /* the 1 GiB below 4 GiB: LAPIC, IOAPIC, PCI BARs */
#define MMIO_WINDOW_END   0x100000000ull
#define LARGE_PAGE        (2ull << 20)

extern const char __text_start[], __text_end[], __rodata_start[], __data_start[],
	__kernel_end[];

paddr_t vm_kernel_root_pa; /* read by vm_switch_to on every switch */

paddr_t virt_to_phys(const void *va)
{
	uint64_t v = (uint64_t)va;
	if (v >= KERNEL_IMAGE_BASE)
		return v - KERNEL_IMAGE_BASE;
	assert(v >= DIRECT_MAP_BASE);
	return v - DIRECT_MAP_BASE;
}

paddr_t vm_kernel_root(void)
{
	return vm_kernel_root_pa;
}

static unsigned vm_index(vaddr_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* The entry for va at `level` (0 = PTE), allocating tables on the way. */
static uint64_t *vm_walk(paddr_t root, vaddr_t va, int level, bool create)
{
	uint64_t *table = phys_to_virt(root);

	for (int l = 3; l > level; l--) {
		uint64_t *e = &table[vm_index(va, l)];
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			void *t = pmm_alloc_zeroed_page();
			if (!t)
				return NULL;
			/* Intermediate entries are permissive; leaves decide. */
			*e = virt_to_phys(t) | PTE_P | PTE_W | (va < DIRECT_MAP_BASE ? PTE_U : 0);
		} else if (*e & PTE_PS) {
			return e;
		}
		table = phys_to_virt(*e & PTE_ADDR_MASK);
	}
	return &table[vm_index(va, level)];
}

int vm_map_page(paddr_t root, vaddr_t va, paddr_t pa, uint64_t flags)
{
	uint64_t *pte = vm_walk(root, va, 0, true);
	if (!pte)
		return -1;
	*pte = (pa & PTE_ADDR_MASK) | flags | PTE_P;
	return 0;
}

uint64_t *vm_lookup_pte(paddr_t root, vaddr_t va)
{
	uint64_t *e = vm_walk(root, va, 0, false);
	return (e && (*e & PTE_P)) ? e : NULL;
}

static void vm_map_large(paddr_t root, vaddr_t va, paddr_t pa, uint64_t flags)
{
	uint64_t *pde = vm_walk(root, va, 1, true);
	if (!pde)
		panic("vm: out of memory building the direct map");
	*pde = pa | flags | PTE_P | PTE_PS;
}

static void vm_map_direct(paddr_t top)
{
	top = MAX(ALIGN_UP(top, LARGE_PAGE), MMIO_WINDOW_END);
	for (paddr_t pa = 0; pa < top; pa += LARGE_PAGE) {
		uint64_t flags = PTE_W | PTE_G | PTE_NX;
		if (pa >= MMIO_WINDOW_START && pa < MMIO_WINDOW_END)
			flags |= PTE_PCD | PTE_PWT;
		vm_map_large(vm_kernel_root_pa, DIRECT_MAP_BASE + pa, pa, flags);
	}
}

static void vm_map_image_range(const char *start, const char *end, uint64_t flags)
{
	for (vaddr_t va = (vaddr_t)start; va < (vaddr_t)end; va += PAGE_SIZE)
		if (vm_map_page(vm_kernel_root_pa, va, va - KERNEL_IMAGE_BASE, flags | PTE_G))
			panic("vm: out of memory mapping the kernel image");
}

void vm_init(paddr_t direct_map_top)
{
	void *root = pmm_alloc_zeroed_page();
	if (!root)
		panic("vm: no page for the kernel page table root");
	vm_kernel_root_pa = virt_to_phys(root);
	vm_map_direct(direct_map_top);
	vm_map_image_range(__text_start, __text_end, 0);
	vm_map_image_range(__rodata_start, __data_start, PTE_NX);
	vm_map_image_range(__data_start, __kernel_end, PTE_W | PTE_NX);
	write_cr4(read_cr4() | CR4_PGE);
	write_cr3(vm_kernel_root_pa);
}
