/* Kernel heap: kmalloc/kfree. Small sizes come from per-class slab pages,
 * large ones straight from the page allocator. */
#ifndef ARBOR_HEAP_H
#define ARBOR_HEAP_H

#include "types.h"

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *ptr);
/* Bytes currently handed out (rounded up to their size class). */
uint64_t heap_bytes_in_use(void);
/* Pages the heap holds from the page allocator: its slabs (full, partial,
 * and the one empty slab per size class it keeps) and large blocks. */
uint64_t heap_pages_held(void);

#endif
