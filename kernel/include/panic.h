/* Fatal kernel errors: message, registers, symbolized backtrace on the
 * serial console, then QEMU exits with QEMU_EXIT_PANIC. */
#ifndef ARBOR_PANIC_H
#define ARBOR_PANIC_H

#include "types.h"

struct trap_frame;

__noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__noreturn void panic_trap(struct trap_frame *tf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* panic, with print(arg) run between the message and the backtrace (a
 * report's details: lockdep's recorded stacks). print must be lock-free. */
__noreturn void panic_report(void (*print)(void *), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
__noreturn void qemu_exit(uint32_t code);
void backtrace_print(uint64_t rbp, uint64_t rip);
/* Whether a panic has begun (on any CPU). */
bool panic_in_progress(void);
/* Prints the registers and backtrace of tf (another CPU's, stopped by the
 * panic: smp_panic_stop). Lock-free, as all of the panic path. */
void panic_dump_cpu(const struct trap_frame *tf);

#define assert(cond)                                                            \
	do {                                                                    \
		if (unlikely(!(cond)))                                          \
			panic("assertion failed: %s at %s:%d", #cond, __FILE__, __LINE__); \
	} while (0)

#endif
