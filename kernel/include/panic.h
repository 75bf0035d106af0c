/* Fatal kernel errors: message, registers, symbolized backtrace on the
 * serial console, then QEMU exits with QEMU_EXIT_PANIC. */
#ifndef ARBOR_PANIC_H
#define ARBOR_PANIC_H

#include "types.h"

struct trap_frame;

__noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__noreturn void panic_trap(struct trap_frame *tf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
__noreturn void qemu_exit(uint32_t code);
void backtrace_print(uint64_t rbp, uint64_t rip);

#define assert(cond)                                                            \
	do {                                                                    \
		if (unlikely(!(cond)))                                          \
			panic("assertion failed: %s at %s:%d", #cond, __FILE__, __LINE__); \
	} while (0)

#endif
