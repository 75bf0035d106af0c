/* Starting a thread on a fresh stack, for both user runtimes: the stack
 * comes from mem_map, and the first words of it tell the entry trampoline
 * in crt0.S what to call. */
#ifndef ARBOR_THREAD_START_H
#define ARBOR_THREAD_START_H

#include <stdint.h>
#include "arbor/syscalls.h"

void __arbor_thread_entry(void);

static inline long arbor_thread_start(long (*fn)(void *), void *arg, uint64_t stack_size)
{
	long stack = sys_mem_map(0, stack_size, 3);
	if (stack < 0)
		return stack;
	uint64_t *top = (uint64_t *)(stack + stack_size) - 2;
	top[0] = (uint64_t)fn;
	top[1] = (uint64_t)arg;
	return sys_thread_create((uint64_t)__arbor_thread_entry, (uint64_t)top, (uint64_t)top, NULL);
}

#endif
