/* The micro-benchmark harness and the early kernel's benchmarks. */
#include "abi/qemu_exit.h"
#include "arch/x86.h"
#include "heap.h"
#include "ktest.h"
#include "panic.h"
#include "pmm.h"
#include "printk.h"
#include "timer.h"
#include "trap.h"

extern const struct kbench __kbench_start[], __kbench_end[];

__noreturn void kbench_main(const char *filter)
{
	int n = 0;

	for (const struct kbench *b = __kbench_start; b < __kbench_end; b++) {
		if (!ktest_selected(filter, b->name))
			continue;
		b->fn(b->iters / 10); /* warm caches and the TLB */
		uint64_t t0 = clock_ns();
		b->fn(b->iters);
		uint64_t ns = clock_ns() - t0;
		printk("bench %s %lu\n", b->name, ns * 100 / b->iters);
		n++;
	}
	qemu_exit(n ? QEMU_EXIT_SUCCESS : QEMU_EXIT_FAILURE);
}

KBENCH(page_alloc_free, 200000)
{
	for (uint64_t i = 0; i < iters; i++)
		pmm_free(pmm_alloc(0), 0);
}

KBENCH(kmalloc_kfree_64, 200000)
{
	for (uint64_t i = 0; i < iters; i++)
		kfree(kmalloc(64));
}

KBENCH(clock_read, 200000)
{
	for (uint64_t i = 0; i < iters; i++)
		(void)clock_ns();
}

#define KBENCH_VECTOR 0x80

static void kbench_noop(struct trap_frame *tf)
{
	(void)tf;
}

/* Interrupt entry and exit: a software interrupt to an empty handler. */
KBENCH(trap_roundtrip, 200000)
{
	trap_register(KBENCH_VECTOR, kbench_noop);
	for (uint64_t i = 0; i < iters; i++)
		__asm__ volatile("int $0x80" ::: "memory");
	trap_register(KBENCH_VECTOR, NULL);
}
