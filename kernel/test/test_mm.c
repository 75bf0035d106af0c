/* Self-tests of the page allocator, the kernel heap and kernel mappings. */
#include "heap.h"
#include "ktest.h"
#include "kstring.h"
#include "pmm.h"
#include "vm.h"

extern const char __text_start[], __rodata_start[], __data_start[];

KTEST(pmm_alloc_free)
{
	enum { N = 256 };
	static struct page *pages[N];
	uint64_t base = pmm_free_pages();

	for (int i = 0; i < N; i++) {
		pages[i] = pmm_alloc(0);
		KT_EXPECT(pages[i] != NULL);
		if (!pages[i])
			return;
		KT_EXPECT((page_to_phys(pages[i]) & (PAGE_SIZE - 1)) == 0);
		KT_EXPECT(page_to_phys(pages[i]) >= (1u << 20));
		memset(page_to_virt(pages[i]), i & 0xff, PAGE_SIZE);
	}
	KT_EXPECT_EQ(pmm_free_pages(), base - N);
	for (int i = 0; i < N; i++) /* distinct pages keep distinct contents */
		KT_EXPECT(((uint8_t *)page_to_virt(pages[i]))[PAGE_SIZE - 1] == (i & 0xff));
	for (int i = 0; i < N; i++)
		pmm_free(pages[i], 0);
	KT_EXPECT_EQ(pmm_free_pages(), base);
}

KTEST(pmm_orders_aligned)
{
	uint64_t base = pmm_free_pages();
	for (unsigned order = 0; order <= 10; order++) {
		struct page *p = pmm_alloc(order);
		KT_EXPECT(p != NULL);
		if (!p)
			continue;
		KT_EXPECT_EQ(page_to_phys(p) & ((PAGE_SIZE << order) - 1), 0);
		KT_EXPECT_EQ(p->order, order);
		pmm_free(p, order);
	}
	KT_EXPECT_EQ(pmm_free_pages(), base);
}

/* Running out of memory is an ordinary, reported condition. */
KTEST(pmm_exhaustion_returns_null)
{
	uint64_t base = pmm_free_pages();
	struct page *head = NULL;
	uint64_t got = 0;
	struct page *p;

	while ((p = pmm_alloc(0)) != NULL) { /* chain pages through their memory */
		*(struct page **)page_to_virt(p) = head;
		head = p;
		got++;
	}
	KT_EXPECT_EQ(got, base);
	KT_EXPECT_EQ(pmm_free_pages(), 0);
	while (head) {
		struct page *next = *(struct page **)page_to_virt(head);
		pmm_free(head, 0);
		head = next;
	}
	KT_EXPECT_EQ(pmm_free_pages(), base);
}

KTEST(heap_sizes)
{
	static const size_t sizes[] = { 1, 8, 16, 17, 31, 64, 100, 255, 512, 1000,
					2048, 2049, 4096, 5000, 70000 };
	void *ptrs[ARRAY_SIZE(sizes)];
	uint64_t base = heap_bytes_in_use();
	uint64_t free_base = pmm_free_pages();

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		ptrs[i] = kmalloc(sizes[i]);
		KT_EXPECT(ptrs[i] != NULL);
		KT_EXPECT(((uint64_t)ptrs[i] & 15) == 0);
		memset(ptrs[i], (int)i, sizes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		const uint8_t *b = ptrs[i];
		KT_EXPECT(b[0] == i && b[sizes[i] - 1] == i);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(ptrs[i]);
	KT_EXPECT_EQ(heap_bytes_in_use(), base);
	/* At most one cached empty slab per size class may remain. */
	KT_EXPECT(free_base - pmm_free_pages() <= 8);
}

KTEST(heap_many_small)
{
	enum { N = 3000 };
	static uint32_t *objs[N];
	uint64_t base = heap_bytes_in_use();

	for (int i = 0; i < N; i++) {
		objs[i] = kmalloc(24);
		KT_EXPECT(objs[i] != NULL);
		if (!objs[i])
			return;
		*objs[i] = (uint32_t)i;
	}
	for (int i = 0; i < N; i++)
		KT_EXPECT_EQ(*objs[i], i);
	for (int i = 0; i < N; i += 2) /* free in two interleaved passes */
		kfree(objs[i]);
	for (int i = 1; i < N; i += 2)
		kfree(objs[i]);
	KT_EXPECT_EQ(heap_bytes_in_use(), base);
	uint8_t *z = kzalloc(40);
	KT_EXPECT(z && z[0] == 0 && z[39] == 0);
	kfree(z);
	KT_EXPECT_EQ(heap_bytes_in_use(), base);
}

KTEST(vm_kernel_permissions)
{
	paddr_t root = vm_kernel_root();
	uint64_t *pte;

	pte = vm_lookup_pte(root, (vaddr_t)__text_start);
	KT_EXPECT(pte && !(*pte & PTE_W) && !(*pte & PTE_NX));
	pte = vm_lookup_pte(root, (vaddr_t)__rodata_start);
	KT_EXPECT(pte && !(*pte & PTE_W) && (*pte & PTE_NX));
	pte = vm_lookup_pte(root, (vaddr_t)__data_start);
	KT_EXPECT(pte && (*pte & PTE_W) && (*pte & PTE_NX));
	KT_EXPECT(vm_lookup_pte(root, 0) == NULL); /* NULL faults */
	pte = vm_lookup_pte(root, DIRECT_MAP_BASE + 0xfee00000ull); /* LAPIC */
	KT_EXPECT(pte && (*pte & PTE_PCD));
	KT_EXPECT_EQ(virt_to_phys(phys_to_virt(0x123456)), 0x123456);
}
