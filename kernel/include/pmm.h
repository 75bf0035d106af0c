/* Physical memory: one buddy zone over all RAM described by the loader,
 * with the kernel image, boot modules, firmware areas and the first MiB
 * held back. */
#ifndef ARBOR_PMM_H
#define ARBOR_PMM_H

#include "types.h"
#include "page.h"

struct boot_info;

void pmm_init(const struct boot_info *bi);

/* A naturally aligned block of 2^order pages, or NULL when memory is out. */
struct page *pmm_alloc(unsigned order);
void pmm_free(struct page *p, unsigned order);
/* One zeroed page, as a direct-map pointer; NULL when memory is out. */
void *pmm_alloc_zeroed_page(void);
void pmm_free_page_virt(void *va);

paddr_t page_to_phys(const struct page *p);
struct page *phys_to_page(paddr_t pa); /* NULL outside managed memory */
void *page_to_virt(const struct page *p);
struct page *virt_to_page(const void *va);

uint64_t pmm_free_pages(void);
uint64_t pmm_managed_pages(void); /* usable pages handed to the allocator */

/* For n frames from pfn first: out[i] = id(charge) of the allocated block
 * holding frame first + i (its head page's charge, passed as is: NULL if
 * uncharged), 0 for a free, reserved or missing frame (frames below the
 * zone: none filled). id runs once per block under the allocator's lock, so a charged block (and what its charge keeps alive)
 * cannot be freed meanwhile; it must not allocate or block. Returns how
 * many frames were filled: fewer than n past the last frame. */
uint64_t pmm_frame_owners(uint64_t first, uint64_t n, uint64_t (*id)(void *charge), uint64_t *out);

#endif
