/* Self-tests of the per-CPU allocator (kernel/mm/percpu_alloc.c): the
 * layout of objects and their copies, chunks taken and given back, and
 * the charge of an object to a memory cgroup (memory.stat percpu in
 * bytes, whole pages in memory.current, refused past memory.max). */
#include "abi/errno.h"
#include "cgroup.h"
#include "ktest.h"
#include "kstring.h"
#include "memcg.h"
#include "percpu_alloc.h"
#include "pmm.h"
#include "smp.h"

#define NOBJ 200 /* of 88 bytes (6 granules): 42 fit a chunk, so this takes 5 */

static int64_t percpu_bytes_of(struct cgroup *cg)
{
	return percpu_sum_s64(&cg->mem_stats->stat[MEMCG_STAT_PERCPU_B]);
}

KTEST(percpu_layout)
{
	uint32_t pin = kt_pin(0); /* this_cpu_ptr below is CPU 0's copy */
	static int64_t *obj[NOBJ];
	uint64_t in_use0 = percpu_bytes_in_use(), free0 = pmm_free_pages();
	unsigned chunks0 = percpu_chunks();
	KT_EXPECT_EQ(percpu_nr_possible(), smp_possible());
	KT_EXPECT(percpu_alloc(0, NULL) == NULL && percpu_alloc(PERCPU_MAX_SIZE + 1, NULL) == NULL);
	for (int i = 0; i < NOBJ; i++) {
		obj[i] = percpu_alloc(88, NULL);
		KT_EXPECT(obj[i] != NULL);
		if (!obj[i]) {
			kt_unpin(pin);
			return;
		}
		KT_EXPECT_EQ((uintptr_t)obj[i] % PCPU_GRANULE, 0);
		for (int k = 0; k < 11; k++) /* zeroed, though the slot may have been used before */
			KT_EXPECT_EQ(obj[i][k], 0);
		KT_EXPECT(percpu_ptr(obj[i], 0) == obj[i] && this_cpu_ptr(obj[i]) == obj[i]);
		for (int k = 0; k < 11; k++)
			obj[i][k] = i * 16 + k;
	}
	for (int i = 0; i < NOBJ; i++) /* no two overlap */
		for (int k = 0; k < 11; k++)
			KT_EXPECT_EQ(obj[i][k], i * 16 + k);
	KT_EXPECT_EQ(percpu_bytes_in_use(), in_use0 + NOBJ * 96);
	KT_EXPECT(percpu_chunks() >= chunks0 + NOBJ / 42 - 1);
	this_cpu_add_s64(&obj[7][3], 1000);
	__this_cpu_add_s64(&obj[7][3], -10);
	KT_EXPECT_EQ(percpu_sum_s64(&obj[7][3]), 7 * 16 + 3 + 990);
	for (int i = 0; i < NOBJ; i++)
		percpu_free(obj[i]);
	KT_EXPECT_EQ(percpu_bytes_in_use(), in_use0);
	/* the emptied chunks went back to the page allocator, but one kept
	 * empty and one the 8 last freed objects may keep for reuse */
	KT_EXPECT(percpu_chunks() <= chunks0 + 2);
	unsigned chunk_pages = 1; /* a unit (page) per possible CPU, rounded up to a power of 2 */
	while (chunk_pages < smp_possible())
		chunk_pages <<= 1;
	KT_EXPECT(pmm_free_pages() + 2 * chunk_pages + 1 >= free0);
	/* the largest object: a unit but the chunk's back pointer */
	void *big = percpu_alloc(PERCPU_MAX_SIZE, NULL);
	KT_EXPECT(big != NULL && (uintptr_t)big % PCPU_UNIT_SIZE == 0);
	percpu_free(big);
	KT_EXPECT_EQ(percpu_bytes_in_use(), in_use0);
	kt_unpin(pin);
}

KTEST(percpu_charged)
{
	struct cgroup *c = NULL;
	KT_EXPECT_EQ(cg_create(&cg_root, "kt_percpu", &c), 0);
	if (!c)
		return;
	/* 100 bytes: 7 granules (112 bytes) on each CPU, and 7 owner slots */
	size_t cost = percpu_charge_size(100);
	KT_EXPECT_EQ(cost, 112 * smp_possible() + 7 * sizeof(void *));
	void *a = percpu_alloc(100, c), *b = percpu_alloc(100, c), *d = percpu_alloc(100, c);
	KT_EXPECT(a && b && d);
	KT_EXPECT_EQ(percpu_bytes_of(c), 3 * cost);
	mem_drain_stock(c);
	KT_EXPECT_EQ(mem_usage_pages(c), 1); /* 504 bytes a CPU: one page, the rest waits for the next */
	percpu_free(b);
	KT_EXPECT_EQ(percpu_bytes_of(c), 2 * cost);
	percpu_free(a);
	percpu_free(d);
	KT_EXPECT_EQ(percpu_bytes_of(c), 0);
	mem_drain_stock(c);
	KT_EXPECT_EQ(mem_usage_pages(c), 0);
	/* past memory.max: refused, nothing taken */
	uint64_t in_use0 = percpu_bytes_in_use();
	page_counter_set_max(&c->memory, 0);
	KT_EXPECT(percpu_alloc(100, c) == NULL);
	KT_EXPECT_EQ(percpu_bytes_of(c), 0);
	KT_EXPECT_EQ(percpu_bytes_in_use(), in_use0);
	KT_EXPECT_EQ(cg_destroy(c), 0);
}
