/* Physical page allocator: the buddy zone over all of RAM, its page
 * descriptor array carved out of RAM itself, and a lock around both. */
#include "pmm.h"
#include "bootinfo.h"
#include "buddy.h"
#include "kstring.h"
#include "panic.h"
#include "printk.h"
#include "spinlock.h"
#include "vm.h"

#define PMM_LOW_RESERVED (1ull << 20) /* BIOS data, real-mode IVT, EBDA, ROMs */
#define PMM_MAX_HOLES    (BOOT_MAX_MODULES + 4)

struct pmm_range { paddr_t start, end; };

extern const char __kernel_phys_start[], __kernel_end[];

static struct buddy_zone pmm_zone;
static struct spinlock pmm_lock = SPINLOCK_INIT("pmm");
static uint64_t pmm_managed;

static void pmm_misuse(const char *msg, pfn_t pfn)
{
	panic("pmm: %s (pfn 0x%lx)", msg, pfn);
}

static bool pmm_overlaps(const struct pmm_range *holes, int n, paddr_t s, paddr_t e)
{
	for (int i = 0; i < n; i++)
		if (s < holes[i].end && holes[i].start < e)
			return true;
	return false;
}

/* Ranges that must never be handed out, besides non-usable map entries. */
static int pmm_collect_holes(const struct boot_info *bi, struct pmm_range *holes)
{
	int n = 0;
	holes[n++] = (struct pmm_range){ 0, PMM_LOW_RESERVED };
	holes[n++] = (struct pmm_range){ (paddr_t)__kernel_phys_start,
					 (paddr_t)(__kernel_end - KERNEL_IMAGE_BASE) };
	for (uint32_t i = 0; i < bi->nr_mods; i++)
		holes[n++] = (struct pmm_range){ ALIGN_DOWN(bi->mods[i].start, PAGE_SIZE),
						 ALIGN_UP(bi->mods[i].start + bi->mods[i].size, PAGE_SIZE) };
	return n;
}

/* First page-aligned usable stretch of size bytes that avoids every hole. */
static paddr_t pmm_find_area(const struct boot_info *bi, const struct pmm_range *holes,
			     int nholes, uint64_t size)
{
	for (uint32_t i = 0; i < bi->nr_mem; i++) {
		const struct boot_mem_range *m = &bi->mem[i];
		if (m->type != BOOT_MEM_USABLE)
			continue;
		paddr_t end = ALIGN_DOWN(m->base + m->len, PAGE_SIZE);
		for (paddr_t s = ALIGN_UP(m->base, PAGE_SIZE); s + size <= end; s += PAGE_SIZE)
			if (!pmm_overlaps(holes, nholes, s, s + size))
				return s;
	}
	return 0;
}

/* Releases [s, e) minus every hole (holes need not be sorted). */
static void pmm_release(paddr_t s, paddr_t e, const struct pmm_range *holes, int nholes)
{
	for (int i = 0; i < nholes && s < e; i++) {
		if (holes[i].end <= s || holes[i].start >= e)
			continue;
		if (holes[i].start > s)
			pmm_release(s, holes[i].start, holes, nholes);
		s = holes[i].end;
		i = -1; /* restart: an earlier hole may now overlap [s, e) */
	}
	if (s < e)
		buddy_release_range(&pmm_zone, s >> PAGE_SHIFT, (e - s) >> PAGE_SHIFT);
}

void pmm_init(const struct boot_info *bi)
{
	struct pmm_range holes[PMM_MAX_HOLES];
	int nholes = pmm_collect_holes(bi, holes);
	uint64_t npages = bootinfo_usable_top(bi) >> PAGE_SHIFT;
	uint64_t array_size = ALIGN_UP(npages * sizeof(struct page), PAGE_SIZE);
	paddr_t array = pmm_find_area(bi, holes, nholes, array_size);

	if (npages == 0 || array == 0)
		panic("pmm: no usable memory for %lu page descriptors", npages);
	holes[nholes++] = (struct pmm_range){ array, array + array_size };
	buddy_error_hook = pmm_misuse;
	buddy_init(&pmm_zone, phys_to_virt(array), 0, npages);
	for (uint32_t i = 0; i < bi->nr_mem; i++) {
		const struct boot_mem_range *m = &bi->mem[i];
		if (m->type == BOOT_MEM_USABLE)
			pmm_release(ALIGN_UP(m->base, PAGE_SIZE),
				    ALIGN_DOWN(m->base + m->len, PAGE_SIZE), holes, nholes);
	}
	pmm_managed = buddy_free_pages(&pmm_zone);
}

struct page *pmm_alloc(unsigned order)
{
	uint64_t f = spin_lock_irqsave(&pmm_lock);
	struct page *p = buddy_alloc(&pmm_zone, order);
	spin_unlock_irqrestore(&pmm_lock, f);
	return p;
}

void pmm_free(struct page *p, unsigned order)
{
	uint64_t f = spin_lock_irqsave(&pmm_lock);
	buddy_free(&pmm_zone, p, order);
	spin_unlock_irqrestore(&pmm_lock, f);
}

void *pmm_alloc_zeroed_page(void)
{
	struct page *p = pmm_alloc(0);
	if (!p)
		return NULL;
	void *va = page_to_virt(p);
	memset(va, 0, PAGE_SIZE);
	return va;
}

void pmm_free_page_virt(void *va)
{
	pmm_free(virt_to_page(va), 0);
}

paddr_t page_to_phys(const struct page *p)
{
	return buddy_page_pfn(&pmm_zone, p) << PAGE_SHIFT;
}

struct page *phys_to_page(paddr_t pa)
{
	return buddy_pfn_page(&pmm_zone, pa >> PAGE_SHIFT);
}

void *page_to_virt(const struct page *p)
{
	return phys_to_virt(page_to_phys(p));
}

struct page *virt_to_page(const void *va)
{
	return phys_to_page(virt_to_phys(va));
}

uint64_t pmm_free_pages(void)
{
	return buddy_free_pages(&pmm_zone);
}

uint64_t pmm_managed_pages(void)
{
	return pmm_managed;
}

/* The block holding frame pfn: its head (allocated or free) into *head,
 * or NULL when the frame is reserved or outside the zone. Only heads
 * carry state: the head is the first of pfn's aligned-down positions that
 * heads a block at least that large. pmm_lock held. */
static struct page *pmm_block_of(pfn_t pfn)
{
	for (unsigned k = 0; k <= BUDDY_MAX_ORDER; k++) {
		struct page *h = buddy_pfn_page(&pmm_zone, pfn & ~(((pfn_t)1 << k) - 1));
		if (!h || (h->flags & PG_RESERVED))
			return NULL;
		if ((h->flags & (PG_FREE | PG_HEAD)) && h->order >= k)
			return h;
	}
	return NULL;
}

uint64_t pmm_frame_owners(uint64_t first, uint64_t n, uint64_t (*id)(void *charge), uint64_t *out)
{
	uint64_t end = pmm_zone.base_pfn + pmm_zone.npages, done = 0;
	if (first >= end || first < pmm_zone.base_pfn)
		return 0;
	n = MIN(n, end - first);
	uint64_t f = spin_lock_irqsave(&pmm_lock);
	while (done < n) {
		/* a whole block at a time: its frames share its head's state */
		struct page *h = pmm_block_of(first + done);
		uint64_t v = h && (h->flags & PG_HEAD) ? id(h->charge) : 0;
		uint64_t stop = h ? buddy_page_pfn(&pmm_zone, h) + ((uint64_t)1 << h->order) : first + done + 1;
		for (; done < n && first + done < stop; done++)
			out[done] = v;
	}
	spin_unlock_irqrestore(&pmm_lock, f);
	return done;
}
