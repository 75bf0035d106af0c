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

#endif
