/* String/memory routines for code without a C library: the kernel and the
 * small user runtime (user/lib) link lib/string.c. Standard names and
 * prototypes are required because the compiler itself emits calls to
 * memcpy/memset/memmove/memcmp even in freestanding code. Host tests and
 * programs on the C library use their libc's instead. */
#ifndef ARBOR_KSTRING_H
#define ARBOR_KSTRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);

/* BSD semantics: copies at most size-1 bytes, always NUL-terminates when
 * size > 0, returns strlen(src) so truncation is detectable. */
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);

#endif
