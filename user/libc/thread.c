/* Threads for Arbor's own servers until pthreads arrive: a stack from
 * mem_map and a kernel thread in this process. */
#include <stdint.h>
#include "arbor_sys.h"

void __libc_thread_entry(void);

#define THREAD_STACK (128 * 1024)

long __arbor_thread_start(long (*fn)(void *), void *arg)
{
	long stack = sys_mem_map(0, THREAD_STACK, 3);
	if (stack < 0)
		return stack;
	uint64_t *top = (uint64_t *)(stack + THREAD_STACK) - 2;
	top[0] = (uint64_t)fn;
	top[1] = (uint64_t)arg;
	return sys_thread_create((uint64_t)__libc_thread_entry, (uint64_t)top, (uint64_t)top);
}
