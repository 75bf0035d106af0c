/* Where the C library keeps its thread records, and how a thread finds
 * its own (docs/threads.md "Threads").
 *
 * Records: pthread_t is an index. Indexes 0..63 are in a static chunk
 * (0: the main thread); the others in chunks of 64 mapped as the count
 * of indexes grows, found through a directory with room for PID_MAX
 * indexes (Linux's largest pid_max: no process has more threads), so the
 * library sets no limit of its own: the kernel's pids controller, pid
 * space and memory do. A record is never unmapped, so a reader needs no
 * lock to look at one; a freed one goes on a free list for the next
 * pthread_create.
 *
 * Finding the calling thread: by its stack pointer, in a two-level map
 * from 16 KiB granules of the address space to the threads whose stacks
 * cover them. A stack is at least PTHREAD_STACK_MIN (16 KiB) and stacks
 * do not overlap, so a granule holds the end of at most one stack that
 * covers its first byte ("below") and the start of at most one other
 * ("above"): two words per granule, each the thread's index and where in
 * the granule its stack ends or starts. Two loads and a compare, however
 * many threads. A stack pointer outside every stack (an alternate signal
 * stack) is found by the kernel's thread id, through a small hash that
 * pthread_create fills. All changes are made under the table's lock. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

#define PT_CHUNK 64
#define PT_MAX_INDEX 4194304u	/* PID_MAX: Linux's pid_max at most, the kernel's pid space */

#define GRAN_SHIFT 14		/* PTHREAD_STACK_MIN: a granule meets at most two stacks */
#define GRAN_SIZE (1ull << GRAN_SHIFT)
#define LEAF_BITS 16		/* a leaf: 65536 granules, 1 GiB of address space, 1 MiB mapped lazily */
#define TOP_BITS (47 - GRAN_SHIFT - LEAF_BITS) /* user addresses are below 2^47 */

#define TID_HASH 4096

/* a chunk's mapping: whole pages (mem_map's unit) */
#define CHUNK_BYTES ((PT_CHUNK * sizeof(struct pthread_rec) + 4095) & ~(size_t)4095)

_Static_assert(PTHREAD_STACK_MIN >= GRAN_SIZE, "a stack spans at least one granule");

/* One granule: (index + 1) << 32 | the offset where the stack ends
 * (below, 1..GRAN_SIZE) or starts (above, 1..GRAN_SIZE-1); 0: none. */
struct pt_gran {
	uint64_t below, above;
};

static struct pthread_rec chunk0[PT_CHUNK];
/* chunks 1 and up; bss, so only the pages holding used slots cost memory */
static struct pthread_rec *dir[PT_MAX_INDEX / PT_CHUNK];
static struct pt_gran *stack_map[1u << TOP_BITS];
static uint32_t by_tid[TID_HASH];	/* a thread's index by tid % TID_HASH; a hint */

/* Indexes below it have records (0 is the main thread's). */
static volatile uint32_t high = 1;
/* The first free record's index + 1; the list goes on through each one's link. */
static uint32_t free_head;

static inline struct pthread_rec *rec_at(uint32_t t)
{
	return t < PT_CHUNK ? &chunk0[t] : dir[t / PT_CHUNK] + t % PT_CHUNK;
}

struct pthread_rec *__pthread_rec_any(uint32_t t)
{
	return rec_at(t);
}

struct pthread_rec *__pthread_rec(pthread_t t)
{
	if (t >= __atomic_load_n(&high, __ATOMIC_ACQUIRE))
		return NULL;
	struct pthread_rec *r = rec_at(t);
	return r->vacant ? NULL : r;
}

uint32_t __pthread_high(void)
{
	return __atomic_load_n(&high, __ATOMIC_ACQUIRE);
}

struct pthread_rec *__pthread_rec_alloc(void)
{
	struct pthread_rec *r;
	if (free_head) {
		r = rec_at(free_head - 1);
		free_head = r->link;
	} else {
		uint32_t t = high;
		if (t >= PT_MAX_INDEX)
			return NULL;
		if (t >= PT_CHUNK && !dir[t / PT_CHUNK]) {
			long c = sys_mem_map(0, CHUNK_BYTES, PROT_READ | PROT_WRITE);
			if (c < 0)
				return NULL;
			dir[t / PT_CHUNK] = (struct pthread_rec *)c;
		}
		r = rec_at(t);
		r->index = t;
		__atomic_store_n(&high, t + 1, __ATOMIC_RELEASE);
	}
	uint32_t index = r->index;
	memset(r, 0, sizeof(*r));
	r->index = index;
	return r;
}

void __pthread_rec_free(struct pthread_rec *r)
{
	r->vacant = 1;
	r->link = free_head;
	free_head = r->index + 1;
}

void __pthread_rec_free_list_rebuild(void)
{
	free_head = 0;
	for (uint32_t t = high; t-- > 1;) {
		struct pthread_rec *r = rec_at(t);
		if (r->vacant) {
			r->link = free_head;
			free_head = t + 1;
		}
	}
}

/* The granule record of address a, or NULL if its leaf is not mapped. */
static inline struct pt_gran *gran_of(uint64_t a)
{
	uint64_t g = a >> GRAN_SHIFT, top = g >> LEAF_BITS;
	if (top >= (1u << TOP_BITS))
		return NULL;
	struct pt_gran *leaf = __atomic_load_n(&stack_map[top], __ATOMIC_ACQUIRE);
	return leaf ? &leaf[g & ((1u << LEAF_BITS) - 1)] : NULL;
}

/* Maps the leaf holding address a's granule if it is missing: 0, or
 * ENOMEM. Table lock held. */
static int leaf_make(uint64_t a)
{
	uint64_t top = a >> (GRAN_SHIFT + LEAF_BITS);
	if (top >= (1u << TOP_BITS))
		return ENOMEM; /* not a user address: the kernel would refuse the stack */
	if (stack_map[top])
		return 0;
	long m = sys_mem_map(0, sizeof(struct pt_gran) << LEAF_BITS, PROT_READ | PROT_WRITE);
	if (m < 0)
		return ENOMEM;
	__atomic_store_n(&stack_map[top], (struct pt_gran *)m, __ATOMIC_RELEASE);
	return 0;
}

/* Sets r's stack's words in the granules it covers, or clears those still r's. */
static void stack_map_set(const struct pthread_rec *r, bool set)
{
	uint64_t id = (uint64_t)(r->index + 1) << 32;
	for (uint64_t g = r->sp_lo & ~(GRAN_SIZE - 1); g < r->sp_hi; g += GRAN_SIZE) {
		struct pt_gran *e = gran_of(g);
		if (!e) /* not registered (a leaf could not be mapped) */
			return;
		uint64_t *w = r->sp_lo <= g ? &e->below : &e->above;
		uint64_t v = r->sp_lo <= g ? id | (r->sp_hi - g < GRAN_SIZE ? r->sp_hi - g : GRAN_SIZE) :
					     id | (r->sp_lo - g);
		if (set)
			__atomic_store_n(w, v, __ATOMIC_RELEASE);
		else if ((*w >> 32) == r->index + 1)
			__atomic_store_n(w, 0, __ATOMIC_RELEASE);
	}
}

int __pthread_stack_register(const struct pthread_rec *r)
{
	/* every leaf first, so that a failure leaves nothing half set */
	const uint64_t span = GRAN_SIZE << LEAF_BITS;
	for (uint64_t a = r->sp_lo & ~(span - 1); a < r->sp_hi; a += span)
		if (leaf_make(a))
			return ENOMEM;
	stack_map_set(r, true);
	return 0;
}

void __pthread_stack_unregister(const struct pthread_rec *r)
{
	if (r->sp_hi > r->sp_lo)
		stack_map_set(r, false);
}

int __pthread_index_by_sp(uint64_t sp)
{
	struct pt_gran *e = gran_of(sp);
	if (!e)
		return -1;
	uint64_t off = sp & (GRAN_SIZE - 1);
	uint64_t b = __atomic_load_n(&e->below, __ATOMIC_ACQUIRE);
	if (b && off < (b & 0xffffffffu))
		return (int)(b >> 32) - 1;
	uint64_t a = __atomic_load_n(&e->above, __ATOMIC_ACQUIRE);
	if (a && off >= (a & 0xffffffffu))
		return (int)(a >> 32) - 1;
	return -1;
}

void __pthread_tid_note(const struct pthread_rec *r, uint32_t tid)
{
	__atomic_store_n(&by_tid[tid % TID_HASH], r->index, __ATOMIC_RELEASE);
}

int __pthread_index_by_tid(uint32_t tid)
{
	uint32_t t = __atomic_load_n(&by_tid[tid % TID_HASH], __ATOMIC_ACQUIRE);
	struct pthread_rec *r = __pthread_rec(t);
	if (r && r->tid == tid)
		return (int)t;
	/* a hash collision, or a thread its creator has not noted yet */
	uint32_t n = __pthread_high();
	for (uint32_t i = 1; i < n; i++) {
		r = rec_at(i);
		if (!r->vacant && r->tid == tid)
			return (int)i;
	}
	return -1;
}
