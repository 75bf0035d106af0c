/* String/memory routines for the kernel and the small user runtime
 * (kstring.h): simple byte loops, chosen for obvious
 * correctness over speed, except memcpy and memset, which move 8 bytes at
 * a time with rep movsq/stosq (pages are zeroed and copied on hot paths).
 *
 * GCC's loop-idiom recognition can turn a byte-copy loop back into a call
 * to memcpy/memset, which inside memcpy/memset themselves would recurse
 * forever. Disabling that one transformation for this file prevents it. */
#pragma GCC optimize("no-tree-loop-distribute-patterns")

#include "kstring.h"

#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	void *d = dst;
	size_t q = n / 8, r = n % 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(src), "+c"(q) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(r) : : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* Compare as integers: relational operators on pointers into
	 * different objects are undefined in C. */
	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n) {
		while (n--)
			*d++ = *s++;
	} else {
		/* dst overlaps the tail of src: copy backwards. */
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	size_t q = n / 8, r = n % 8;
	uint64_t v = 0x0101010101010101ull * (unsigned char)c;

	__asm__ volatile("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(r) : "a"(v) : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
	}
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* Comparisons use unsigned char, as the C standard requires. */
int strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	return *x - *y;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	for (; n; n--, x++, y++) {
		if (*x != *y || !*x)
			return *x - *y;
	}
	return 0;
}

/* The terminator counts as part of the string, so strchr(s, 0) finds it. */
char *strchr(const char *s, int c)
{
	char ch = (char)c;

	for (;; s++) {
		if (*s == ch)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	char ch = (char)c;
	const char *last = NULL;

	for (;; s++) {
		if (*s == ch)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *haystack, const char *needle)
{
	size_t nlen = strlen(needle);

	if (!nlen)
		return (char *)haystack;
	for (; *haystack; haystack++) {
		if (*haystack == *needle && !strncmp(haystack, needle, nlen))
			return (char *)haystack;
	}
	return NULL;
}

size_t strlcpy(char *restrict dst, const char *restrict src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		for (size_t i = 0; i < n; i++)
			dst[i] = src[i];
		dst[n] = '\0';
	}
	return len;
}
