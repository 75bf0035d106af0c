/* Slab pages: one page holds objects of one size class; the page's
 * descriptor keeps the class, the in-use count (refcount) and the free list
 * (private). Pages with free objects sit on their class's partial list. A
 * slab that becomes empty goes back to the page allocator unless it is the
 * class's only partial page (avoids thrashing on alloc/free pairs).
 * Allocations above the largest class take 2^order whole pages. */
#include "heap.h"
#include "bootinfo.h"
#include "kstring.h"
#include "panic.h"
#include "pmm.h"
#include "spinlock.h"

#define HEAP_KIND_SLAB  1
#define HEAP_KIND_LARGE 2
#define HEAP_MIN_SHIFT  4  /* 16 bytes */
#define HEAP_MAX_SHIFT  11 /* 2048 bytes */
#define HEAP_NR_CLASSES (HEAP_MAX_SHIFT - HEAP_MIN_SHIFT + 1)

struct heap_class {
	struct page *partial; /* slabs with at least one free object */
};

static struct heap_class heap_classes[HEAP_NR_CLASSES];
static struct spinlock heap_lock = SPINLOCK_INIT("heap");
static uint64_t heap_in_use;
static uint64_t heap_pages; /* slab and large pages held, for leak checks */
static bool heap_poison; /* heap_poison=1: fill freed objects (heap_debug_init) */

void heap_debug_init(void)
{
	char v[4];
	heap_poison = cmdline_get(boot_info.cmdline, "heap_poison", v, sizeof(v)) && v[0] == '1';
}

static unsigned heap_class_of(size_t size)
{
	unsigned c = 0;
	while (((size_t)1 << (c + HEAP_MIN_SHIFT)) < size)
		c++;
	return c;
}

static size_t heap_class_size(unsigned c)
{
	return (size_t)1 << (c + HEAP_MIN_SHIFT);
}

static void heap_list_add(struct page **head, struct page *p)
{
	p->prev = NULL;
	p->next = *head;
	if (*head)
		(*head)->prev = p;
	*head = p;
}

static void heap_list_del(struct page **head, struct page *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		*head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->next = p->prev = NULL;
}

static struct page *heap_new_slab(unsigned c)
{
	struct page *p = pmm_alloc(0);
	if (!p)
		return NULL;
	size_t sz = heap_class_size(c);
	char *base = page_to_virt(p);
	void *free = NULL;
	for (size_t off = PAGE_SIZE; off >= sz; off -= sz) { /* lowest object first */
		*(void **)(base + off - sz) = free;
		free = base + off - sz;
	}
	heap_pages++;
	p->kind = HEAP_KIND_SLAB;
	p->slab_class = (uint16_t)c;
	p->refcount = 0;
	p->private = free;
	heap_list_add(&heap_classes[c].partial, p);
	return p;
}

static void *heap_slab_alloc(unsigned c)
{
	struct heap_class *hc = &heap_classes[c];
	struct page *p = hc->partial ? hc->partial : heap_new_slab(c);
	if (!p)
		return NULL;
	void **obj = p->private;
	p->private = *obj;
	p->refcount++;
	if (!p->private)
		heap_list_del(&hc->partial, p);
	heap_in_use += heap_class_size(c);
	return obj;
}

static void heap_slab_free(struct page *p, void *ptr)
{
	struct heap_class *hc = &heap_classes[p->slab_class];
	bool was_full = p->private == NULL;

	assert(p->refcount > 0);
	*(void **)ptr = p->private;
	p->private = ptr;
	p->refcount--;
	heap_in_use -= heap_class_size(p->slab_class);
	if (was_full)
		heap_list_add(&hc->partial, p);
	if (p->refcount == 0 && (hc->partial != p || p->next)) {
		heap_list_del(&hc->partial, p);
		p->kind = 0;
		p->private = NULL;
		heap_pages--;
		pmm_free(p, 0);
	}
}

static unsigned heap_order_of(size_t size)
{
	unsigned order = 0;
	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

void *kmalloc(size_t size)
{
	if (size == 0)
		size = 1;
	if (size > heap_class_size(HEAP_NR_CLASSES - 1)) {
		unsigned order = heap_order_of(size);
		struct page *p = pmm_alloc(order);
		if (!p)
			return NULL;
		p->kind = HEAP_KIND_LARGE;
		uint64_t f = spin_lock_irqsave(&heap_lock);
		heap_in_use += PAGE_SIZE << order;
		heap_pages += 1ul << order;
		spin_unlock_irqrestore(&heap_lock, f);
		return page_to_virt(p);
	}
	uint64_t f = spin_lock_irqsave(&heap_lock);
	void *obj = heap_slab_alloc(heap_class_of(size));
	spin_unlock_irqrestore(&heap_lock, f);
	return obj;
}

uint64_t heap_charge_pages(size_t size)
{
	return size > heap_class_size(HEAP_NR_CLASSES - 1) ? 1ull << heap_order_of(size) : 1;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *ptr)
{
	if (!ptr)
		return;
	struct page *p = virt_to_page((void *)ALIGN_DOWN((uint64_t)ptr, PAGE_SIZE));
	if (!p)
		panic("kfree: %p is not heap memory", ptr);
	uint64_t f = spin_lock_irqsave(&heap_lock);
	if (p->kind == HEAP_KIND_SLAB) {
		if (unlikely(heap_poison))
			memset(ptr, HEAP_POISON_BYTE, heap_class_size(p->slab_class));
		heap_slab_free(p, ptr);
	} else if (p->kind == HEAP_KIND_LARGE && (p->flags & PG_HEAD)) {
		heap_in_use -= PAGE_SIZE << p->order;
		heap_pages -= 1ul << p->order;
		p->kind = 0;
		spin_unlock_irqrestore(&heap_lock, f);
		pmm_free(p, p->order);
		return;
	} else {
		panic("kfree: %p was not allocated by kmalloc", ptr);
	}
	spin_unlock_irqrestore(&heap_lock, f);
}

uint64_t heap_bytes_in_use(void)
{
	return heap_in_use;
}

uint64_t heap_pages_held(void)
{
	return __atomic_load_n(&heap_pages, __ATOMIC_RELAXED);
}
