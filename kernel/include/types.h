/* Basic types shared by every kernel file. Only freestanding headers, so
 * the pure-logic parts of the kernel also build for host unit tests. */
#ifndef ARBOR_TYPES_H
#define ARBOR_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t paddr_t; /* physical address */
typedef uint64_t vaddr_t; /* virtual address */
typedef uint64_t pfn_t;   /* physical page frame number */

#define PAGE_SHIFT 12
#define PAGE_SIZE  ((size_t)1 << PAGE_SHIFT)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)   (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Guarded: these headers are also used with a C library's sys/cdefs.h. */
#ifndef __packed
#define __packed   __attribute__((packed))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((noreturn))
#endif
#ifndef __unused
#define __unused   __attribute__((unused))
#endif
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
