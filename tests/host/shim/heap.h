/* Host stand-in for the kernel heap (host unit tests): the C library's, so the
 * sanitizers see every allocation. */
#ifndef ARBOR_HEAP_H
#define ARBOR_HEAP_H

#include <stdlib.h>
#include "types.h"

static inline void *kmalloc(size_t size)
{
	return malloc(size);
}

static inline void *kzalloc(size_t size)
{
	return calloc(1, size);
}

static inline void kfree(void *ptr)
{
	free(ptr);
}

#endif
