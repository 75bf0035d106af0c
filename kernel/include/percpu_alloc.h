/* The per-CPU allocator (kernel/mm/percpu_alloc.c): objects with one copy
 * per possible CPU, for counters each CPU bumps in its own copy without
 * atomics while readers sum the copies.
 *
 * Layout: a chunk is one block of pages, PCPU_UNIT_SIZE bytes for each
 * possible CPU, CPU c's unit at c * PCPU_UNIT_SIZE from the start; every
 * unit of a chunk has the same layout (pcpu_map.h). An object is named by
 * its CPU 0 copy; CPU c's copy is that address plus c * PCPU_UNIT_SIZE,
 * whatever the chunk, so percpu_ptr needs no lookup, and this CPU's copy
 * is one add away from its %gs-reached offset (struct cpu's pcpu_off).
 *
 * Accounting, as Linux's (mm/percpu.c with memcg): an object charged to a
 * memory cgroup costs it percpu_charge_size(size) bytes: its copies (the
 * size rounded up to granules, times the possible CPUs) and the chunk's
 * owner slot for each granule (what the allocator keeps to know whom to
 * uncharge). memory.stat shows the bytes as "percpu"; whole pages reach
 * memory.current (memcg_percpu_charge_bytes). */
#ifndef ARBOR_PERCPU_ALLOC_H
#define ARBOR_PERCPU_ALLOC_H

#include "pcpu_map.h"
#include "percpu.h"
#include "types.h"

struct cgroup;

/* Sets the number of possible CPUs (1..MAX_CPUS: smp_possible(), the
 * CPUs the MADT lists) before the first allocation, and the boot CPU's
 * pcpu_off. */
void percpu_alloc_init(unsigned nr_possible);
/* Sets this CPU's pcpu_off (each other CPU, as it comes up). */
void percpu_alloc_cpu_init(void);
extern unsigned pcpu_possible; /* set once, by percpu_alloc_init */
static inline unsigned percpu_nr_possible(void)
{
	return pcpu_possible;
}

/* The largest object: a unit but its last granule, which holds the
 * chunk's address in CPU 0's unit (a free finds its chunk in one load). */
#define PERCPU_MAX_SIZE (PCPU_UNIT_SIZE - PCPU_GRANULE)

/* An object of size bytes (1..PERCPU_MAX_SIZE) with every CPU's copy
 * zeroed, charged to charge's memory counters if not NULL (who must stay
 * alive until the free: the charge's pages keep a removed cgroup).
 * NULL if memory is out or the charge is refused. Takes a spinlock and may
 * allocate pages: not from interrupt context; with a charge it may
 * reclaim (mem_charge's rules: no spinlock held). */
void *percpu_alloc(size_t size, struct cgroup *charge);
/* Frees obj (from percpu_alloc; NULL: nothing) and uncharges it. */
void percpu_free(void *obj);
/* The bytes an object of size costs the memory cgroup it is charged to. */
size_t percpu_charge_size(size_t size);
/* Chunks held (each percpu_nr_possible() pages) and bytes handed out
 * (per CPU), for the tests and /proc figures. */
unsigned percpu_chunks(void);
uint64_t percpu_bytes_in_use(void);

/* CPU cpu's copy of obj. */
static inline void *percpu_ptr(void *obj, unsigned cpu)
{
	return (char *)obj + (size_t)cpu * PCPU_UNIT_SIZE;
}

/* This CPU's copy: the caller keeps preemption off (a spinlock, or
 * interrupts off) while it uses it. */
static inline void *this_cpu_ptr(void *obj)
{
	return (char *)obj + this_cpu()->pcpu_off;
}

/* Adds n to this CPU's copy of the counter *obj: one add, no lock prefix,
 * not interruptible midway, and no switch between finding the copy and
 * adding (preemption off for the two instructions), so it is safe from
 * any context, an interrupt handler's included. */
static inline void this_cpu_add_s64(int64_t *obj, int64_t n)
{
	__asm__ volatile("incl %%gs:%c[pc]\n\t"
			 "movq %%gs:%c[off], %%rax\n\t"
			 "addq %[n], (%[p], %%rax)\n\t"
			 "decl %%gs:%c[pc]"
			 :
			 : [pc] "i"(PERCPU_OFF_PREEMPT), [off] "i"(offsetof(struct cpu, pcpu_off)), [n] "er"(n),
			   [p] "r"(obj)
			 : "rax", "memory", "cc");
}

/* The same with preemption (or interrupts) already off. */
static inline void __this_cpu_add_s64(int64_t *obj, int64_t n)
{
	__asm__ volatile("movq %%gs:%c[off], %%rax\n\t"
			 "addq %[n], (%[p], %%rax)"
			 :
			 : [off] "i"(offsetof(struct cpu, pcpu_off)), [n] "er"(n), [p] "r"(obj)
			 : "rax", "memory", "cc");
}

/* The sum of every possible CPU's copy of the counter *obj. A copy is
 * one aligned word: each load is whole, though the sum of copies bumped
 * meanwhile is a moment's view (as Linux's readers). */
static inline int64_t percpu_sum_s64(const int64_t *obj)
{
	int64_t s = 0;
	unsigned n = percpu_nr_possible();
	for (unsigned c = 0; c < n; c++)
		s += __atomic_load_n((const int64_t *)percpu_ptr((void *)obj, c), __ATOMIC_RELAXED);
	return s;
}

#endif
