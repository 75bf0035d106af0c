/* File data pages of the tmpfs server, charged to the clients who write
 * them: pages come from one large reserved range of the server's address
 * space, and each is filled by the kernel (mem_fill) for the client whose
 * call the server is serving, so a cgroup's tmpfs data counts against its
 * own memory.max and shows in its memory.current, not the server's. A
 * freed page goes back to the kernel (mem_discard, uncharging whoever
 * paid for it) and its slot to a free list. The boot archive's files,
 * written with no client, are the server's own. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "arbor_sys.h"
#include "tmpfs_srv.h"

#define PAGE 4096ul
#define POOL_BYTES (8ul << 30)	/* address space only: the most file data */

static uint8_t *pool_base;
static uint64_t pool_used;
static void **free_slots;
static size_t nfree, free_cap;

static void *tmpfs_srv_slot(void)
{
	if (nfree)
		return free_slots[--nfree];
	if (!pool_base) {
		long at = sys_mem_map(0, POOL_BYTES, PROT_READ | PROT_WRITE);
		if (at < 0)
			return NULL;
		pool_base = (uint8_t *)at;
	}
	if (pool_used == POOL_BYTES)
		return NULL;
	pool_used += PAGE;
	return pool_base + pool_used - PAGE;
}

static void tmpfs_srv_slot_put(void *slot)
{
	if (nfree == free_cap) {
		size_t cap = free_cap ? free_cap * 2 : 256;
		void **grown = realloc(free_slots, cap * sizeof(*grown));
		if (!grown)
			return; /* the slot's address space is lost, not its memory */
		free_slots = grown;
		free_cap = cap;
	}
	free_slots[nfree++] = slot;
}

int tmpfs_srv_page_alloc(void **page)
{
	void *slot = tmpfs_srv_slot();
	if (!slot)
		return -ENOSPC;
	long r = sys_mem_fill((uint64_t)slot, PAGE);
	if (r < 0) {
		tmpfs_srv_slot_put(slot);
		return (int)r;
	}
	*page = slot;
	return 0;
}

void tmpfs_srv_page_free(void *page)
{
	sys_mem_discard((uint64_t)page, PAGE);
	tmpfs_srv_slot_put(page);
}
