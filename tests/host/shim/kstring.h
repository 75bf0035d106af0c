/* Host stand-in for the kernel's string functions (host unit tests): the C
 * library's, plus strlcpy, which glibc before 2.38 lacks. */
#ifndef ARBOR_KSTRING_H
#define ARBOR_KSTRING_H

#include <string.h>
#include "types.h"

static inline size_t host_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);
	if (size) {
		size_t k = n < size - 1 ? n : size - 1;
		memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return n;
}
#define strlcpy host_strlcpy

#endif
