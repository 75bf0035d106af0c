/* Kernel heap: kmalloc/kfree. Small sizes come from per-class slab pages,
 * large ones straight from the page allocator. */
#ifndef ARBOR_HEAP_H
#define ARBOR_HEAP_H

#include "types.h"

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *ptr);
/* The pages a cgroup is charged for a kmalloc(size): a large block's
 * 2^order pages (what it takes from the page allocator), one page for an
 * object of a slab class (at most 2 KiB: charged whole, docs/memory.md). */
uint64_t heap_charge_pages(size_t size);
/* Bytes currently handed out (rounded up to their size class). */
uint64_t heap_bytes_in_use(void);
/* Pages the heap holds from the page allocator: its slabs (full, partial,
 * and the one empty slab per size class it keeps) and large blocks. */
uint64_t heap_pages_held(void);
/* Reads heap_poison=1 from the command line (after boot_parse): from then
 * on every freed small object is filled with HEAP_POISON_BYTE (but for the
 * free-list link in its first word), so a use after free reads
 * non-canonical pointers and faults at once instead of going unseen
 * (Linux's slub_debug=P). Off by default: it costs a fill per kfree. */
#define HEAP_POISON_BYTE 0x6b
void heap_debug_init(void);

#endif
