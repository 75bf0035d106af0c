/* The per-CPU allocator (percpu_alloc.h): chunks of one page per possible
 * CPU, each with a map of its granules (pcpu_map.c) and the cgroup each
 * allocation is charged to, so a free needs neither a size nor a payer.
 * The last granule of a chunk's CPU 0 unit holds the chunk's address
 * (Linux keeps it in the page's descriptor; here it is one load from the
 * object's address): a free finds its chunk with no lookup. An emptied
 * chunk is freed unless it is the only empty one, so a mkdir/rmdir loop
 * does not take and give back pages each time. The chunks with room
 * gather at the list's head: one that cannot fit a request goes to the
 * tail, one a free makes room in to the head, so with objects of one
 * size (the cgroups' counters) an allocation finds room in the first
 * chunk it looks at. */
#include "percpu_alloc.h"
#include "heap.h"
#include "kstring.h"
#include "list.h"
#include "memcg.h"
#include "panic.h"
#include "pmm.h"
#include "spinlock.h"

struct pcpu_chunk {
	struct list_head link;	/* pcpu_chunks */
	char *base;		/* CPU 0's unit; CPU c's is c units on */
	struct page *pages;
	struct pcpu_map map;
	/* whom each allocation is charged to, at its first granule (NULL:
	 * nobody): Linux's chunk->obj_cgroups, charged to the object's
	 * cgroup with it (percpu_charge_size) */
	struct cgroup *owner[PCPU_GRANULES];
};

/* The objects freed last, kept allocated (their slots still taken in
 * their chunks' maps) for the next allocation of the same size: a cgroup
 * made and removed in a loop takes one back at once, with no search. At
 * most PCPU_MAG_SIZE, all of n granules; each object is zeroed when
 * handed out again, and charged to its new owner then. */
#define PCPU_MAG_SIZE 8
struct pcpu_mag {
	unsigned n, nr;
	void *obj[PCPU_MAG_SIZE];
	struct pcpu_chunk *chunk[PCPU_MAG_SIZE];
};

/* Taken with interrupts off: a dead thread's reaping frees its cgroup's
 * per-CPU state under sched_lock, which a timer interrupt also takes (a
 * holder interrupted with interrupts on could deadlock with a reaper on
 * another CPU: lockdep saw both orders under smp_sched=1). */
static struct spinlock pcpu_lock = SPINLOCK_INIT("percpu");
static struct pcpu_mag pcpu_mag; /* under pcpu_lock */
static struct list_head pcpu_chunks; /* under pcpu_lock */
static unsigned pcpu_nr_chunks, pcpu_nr_empty; /* chunks, and those with nothing in them */
static uint64_t pcpu_in_use;
unsigned pcpu_possible = 1;
static unsigned pcpu_order;

void percpu_alloc_init(unsigned nr_possible)
{
	if (nr_possible < 1 || nr_possible > MAX_CPUS)
		panic("percpu: %u possible CPUs", nr_possible);
	pcpu_possible = nr_possible;
	while ((1u << pcpu_order) < nr_possible)
		pcpu_order++;
	list_init(&pcpu_chunks);
	percpu_alloc_cpu_init();
}

void percpu_alloc_cpu_init(void)
{
	this_cpu()->pcpu_off = (uint64_t)this_cpu()->id * PCPU_UNIT_SIZE;
}

static unsigned pcpu_granules(size_t size)
{
	return (unsigned)((size + PCPU_GRANULE - 1) / PCPU_GRANULE);
}

size_t percpu_charge_size(size_t size)
{
	unsigned g = pcpu_granules(size);
	return (size_t)g * PCPU_GRANULE * pcpu_possible + g * sizeof(struct cgroup *);
}

/* Where a chunk's address is kept: the last granule of CPU 0's unit. */
static struct pcpu_chunk **pcpu_chunk_slot(char *base)
{
	return (struct pcpu_chunk **)(base + PCPU_UNIT_SIZE - PCPU_GRANULE);
}

/* A new empty chunk, its units contiguous (one block of 2^order pages,
 * the units past the possible CPUs unused), or NULL. Not charged to
 * anyone: its objects are, each to its own cgroup. */
static struct pcpu_chunk *pcpu_chunk_new(void)
{
	struct pcpu_chunk *c = kzalloc(sizeof(*c));
	struct page *p = c ? pmm_alloc(pcpu_order) : NULL;
	if (!p) {
		kfree(c);
		return NULL;
	}
	c->pages = p;
	c->base = page_to_virt(p);
	pcpu_map_init(&c->map);
	pcpu_map_reserve_tail(&c->map, 1); /* the back pointer's granule */
	*pcpu_chunk_slot(c->base) = c;
	return c;
}

/* Room for n granules in a chunk on the list: its first granule there,
 * *out the chunk; -1 if none has a run that long (each chunk looked at
 * once: those without room go to the tail). pcpu_lock held. */
static int pcpu_find_locked(unsigned n, struct pcpu_chunk **out)
{
	for (unsigned left = pcpu_nr_chunks; left; left--) {
		struct pcpu_chunk *c = list_first_entry(&pcpu_chunks, struct pcpu_chunk, link);
		bool was_empty = c->map.nr_free == PCPU_GRANULES - 1;
		int g = c->map.nr_free >= n ? pcpu_map_alloc(&c->map, n) : -1;
		if (g >= 0) {
			pcpu_nr_empty -= was_empty;
			*out = c;
			return g;
		}
		list_del(&c->link);
		list_add_tail(&c->link, &pcpu_chunks);
	}
	return -1;
}

void *percpu_alloc(size_t size, struct cgroup *charge)
{
	if (size == 0 || size > PERCPU_MAX_SIZE)
		return NULL;
	unsigned n = pcpu_granules(size);
	if (charge && memcg_percpu_charge_bytes(charge, percpu_charge_size(size)))
		return NULL;
	struct pcpu_chunk *c = NULL, *fresh = NULL;
	uint64_t f = spin_lock_irqsave(&pcpu_lock);
	int g = -1;
	if (pcpu_mag.nr && pcpu_mag.n == n) {
		unsigned k = --pcpu_mag.nr;
		c = pcpu_mag.chunk[k];
		g = (int)(((char *)pcpu_mag.obj[k] - c->base) / PCPU_GRANULE);
	} else
		g = pcpu_find_locked(n, &c);
	if (g >= 0) {
		c->owner[g] = charge;
		pcpu_in_use += (uint64_t)n * PCPU_GRANULE;
	}
	spin_unlock_irqrestore(&pcpu_lock, f);
	if (g < 0) {
		/* made with the lock dropped (the heap and the page allocator
		 * may take their own); another may have freed room meanwhile */
		fresh = pcpu_chunk_new();
		f = spin_lock_irqsave(&pcpu_lock);
		g = pcpu_find_locked(n, &c);
		if (g < 0 && fresh) {
			list_add(&fresh->link, &pcpu_chunks);
			pcpu_nr_chunks++;
			c = fresh;
			fresh = NULL;
			g = pcpu_map_alloc(&c->map, n);
		}
		if (g >= 0) {
			c->owner[g] = charge;
			pcpu_in_use += (uint64_t)n * PCPU_GRANULE;
		}
		spin_unlock_irqrestore(&pcpu_lock, f);
		if (fresh) {
			pmm_free(fresh->pages, pcpu_order);
			kfree(fresh);
		}
	}
	if (g < 0) {
		if (charge)
			memcg_percpu_uncharge_bytes(charge, percpu_charge_size(size));
		return NULL;
	}
	char *obj = c->base + (size_t)g * PCPU_GRANULE;
	for (unsigned cpu = 0; cpu < pcpu_possible; cpu++)
		memset(percpu_ptr(obj, cpu), 0, (size_t)n * PCPU_GRANULE);
	return obj;
}

void percpu_free(void *obj)
{
	if (!obj)
		return;
	/* the chunk's head page: units are page-aligned, CPU 0's first */
	uintptr_t base = (uintptr_t)obj & ~(uintptr_t)(PCPU_UNIT_SIZE - 1);
	struct pcpu_chunk *c = *pcpu_chunk_slot((char *)base);
	unsigned g = (unsigned)(((uintptr_t)obj - base) / PCPU_GRANULE);
	uint64_t f = spin_lock_irqsave(&pcpu_lock);
	struct cgroup *charge = c->owner[g];
	c->owner[g] = NULL;
	unsigned n = pcpu_map_len(&c->map, g);
	if (!n)
		panic("percpu_free(%p): not an object", obj);
	pcpu_in_use -= (uint64_t)n * PCPU_GRANULE;
	if (pcpu_mag.nr < PCPU_MAG_SIZE && (pcpu_mag.nr == 0 || pcpu_mag.n == n)) {
		pcpu_mag.n = n;
		pcpu_mag.chunk[pcpu_mag.nr] = c;
		pcpu_mag.obj[pcpu_mag.nr++] = obj;
		spin_unlock_irqrestore(&pcpu_lock, f);
		if (charge)
			memcg_percpu_uncharge_bytes(charge, percpu_charge_size((size_t)n * PCPU_GRANULE));
		return;
	}
	pcpu_map_free(&c->map, g);
	bool empty = c->map.nr_free == PCPU_GRANULES - 1, drop = empty && pcpu_nr_empty > 0;
	list_del(&c->link);
	if (drop)
		pcpu_nr_chunks--;
	pcpu_nr_empty += empty && !drop;
	if (!drop)
		list_add(&c->link, &pcpu_chunks); /* it has room now */
	spin_unlock_irqrestore(&pcpu_lock, f);
	if (charge)
		memcg_percpu_uncharge_bytes(charge, percpu_charge_size((size_t)n * PCPU_GRANULE));
	if (drop) {
		pmm_free(c->pages, pcpu_order);
		kfree(c);
	}
}

unsigned percpu_chunks(void)
{
	return __atomic_load_n(&pcpu_nr_chunks, __ATOMIC_RELAXED);
}

uint64_t percpu_bytes_in_use(void)
{
	return __atomic_load_n(&pcpu_in_use, __ATOMIC_RELAXED);
}
