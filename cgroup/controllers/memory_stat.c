/* memory.stat's format (memory_stat.h). Pure logic, host-tested.
 *
 * How Arbor's kinds map to Linux's keys:
 *   anon            anonymous user pages
 *   file            page cache pages (kernel/pcache): shmem (pages with a
 *                   backing store join with the pager), as Linux counts
 *                   shmem in file
 *   shmem           shared memory objects and tmpfs file data
 *   file_dirty, file_writeback, file_mapped   page cache pages in that
 *                   state (shmem's dirty pages are not counted, as Linux)
 *   inactive_anon, active_anon, inactive_file, active_file   the lengths
 *                   of the cgroup's LRU lists: page cache shmem pages sit
 *                   on the anon lists, as on Linux
 *   kernel          kernel_stack + pagetables + slab + percpu pages + other
 *                   kernel pages (pipe buffers, DMA blocks, I/O bitmaps),
 *                   as Linux's kmem counts every accounted kernel allocation
 *   percpu          bytes of per-CPU objects charged here (their copies
 *                   and the chunk's owner slots: percpu_charge_size), as
 *                   Linux's MEMCG_PERCPU_B
 *   slab_unreclaimable, slab   heap objects, counted as the pages charged
 *                   for them
 *   unevictable     anon + shmem not on an LRU list (process memory, shm
 *                   objects): nothing reclaims them
 *   pgfault         page faults of the subtree's processes
 *   workingset_refault_file, workingset_activate_file   refaults of
 *                   evicted file pages, and those activated at once
 *   pgscan, pgsteal inactive file pages reclaim scanned / evicted; all
 *                   reclaim is direct (no kswapd): pgscan_direct and
 *                   pgsteal_direct are the same, the _kswapd ones 0
 *   pgrefill, pgactivate, pgdeactivate   active pages scanned, pages
 *                   moved to the active list (a second touch, or reclaim
 *                   finding them referenced), moved back to inactive
 *   sock            Unix-domain socket buffers: the pages of messages
 *                   queued at a receiver, charged to the sender's cgroup
 * Everything else (swap, zswap, THP, vmalloc, major
 * faults) Arbor does not have: 0. */
#include "memory_stat.h"

#define STAT_PAGE_BYTES 4096

/* Where a key's value comes from. */
enum stat_src {
	SRC_ZERO, SRC_ANON, SRC_FILE, SRC_KERNEL, SRC_KSTACK, SRC_PT, SRC_SHMEM,
	SRC_UNEVICTABLE, SRC_SLAB, SRC_PGFAULT, SRC_FILE_DIRTY, SRC_FILE_WRITEBACK, SRC_FILE_MAPPED,
	SRC_INACTIVE_ANON, SRC_ACTIVE_ANON, SRC_INACTIVE_FILE, SRC_ACTIVE_FILE,
	SRC_REFAULT_FILE, SRC_ACTIVATE_FILE, SRC_PGSCAN, SRC_PGSTEAL, SRC_PGREFILL, SRC_PGACTIVATE,
	SRC_PGDEACTIVATE, SRC_SOCK, SRC_PERCPU
};

struct stat_key {
	const char *name;
	enum stat_src src;
};

/* Linux 6.1's memory.stat (mm/memcontrol.c's memory_stats[], then the
 * summed and per-source reclaim events and memcg_vm_event_stat[]), with
 * every CONFIG on (swap, zswap, THP) so every key a tool may look for is
 * there. */
static const struct stat_key stat_keys[] = {
	{ "anon", SRC_ANON },
	{ "file", SRC_FILE },
	{ "kernel", SRC_KERNEL },
	{ "kernel_stack", SRC_KSTACK },
	{ "pagetables", SRC_PT },
	{ "sec_pagetables", SRC_ZERO },
	{ "percpu", SRC_PERCPU },
	{ "sock", SRC_SOCK },
	{ "vmalloc", SRC_ZERO },
	{ "shmem", SRC_SHMEM },
	{ "zswap", SRC_ZERO },
	{ "zswapped", SRC_ZERO },
	{ "file_mapped", SRC_FILE_MAPPED },
	{ "file_dirty", SRC_FILE_DIRTY },
	{ "file_writeback", SRC_FILE_WRITEBACK },
	{ "swapcached", SRC_ZERO },
	{ "anon_thp", SRC_ZERO },
	{ "file_thp", SRC_ZERO },
	{ "shmem_thp", SRC_ZERO },
	{ "inactive_anon", SRC_INACTIVE_ANON },
	{ "active_anon", SRC_ACTIVE_ANON },
	{ "inactive_file", SRC_INACTIVE_FILE },
	{ "active_file", SRC_ACTIVE_FILE },
	{ "unevictable", SRC_UNEVICTABLE },
	{ "slab_reclaimable", SRC_ZERO },
	{ "slab_unreclaimable", SRC_SLAB },
	{ "slab", SRC_SLAB },
	{ "workingset_refault_anon", SRC_ZERO },
	{ "workingset_refault_file", SRC_REFAULT_FILE },
	{ "workingset_activate_anon", SRC_ZERO },
	{ "workingset_activate_file", SRC_ACTIVATE_FILE },
	{ "workingset_restore_anon", SRC_ZERO },
	{ "workingset_restore_file", SRC_ZERO },
	{ "workingset_nodereclaim", SRC_ZERO },
	{ "pgscan", SRC_PGSCAN },
	{ "pgsteal", SRC_PGSTEAL },
	{ "pgscan_kswapd", SRC_ZERO },
	{ "pgscan_direct", SRC_PGSCAN },
	{ "pgsteal_kswapd", SRC_ZERO },
	{ "pgsteal_direct", SRC_PGSTEAL },
	{ "pgfault", SRC_PGFAULT },
	{ "pgmajfault", SRC_ZERO },
	{ "pgrefill", SRC_PGREFILL },
	{ "pgactivate", SRC_PGACTIVATE },
	{ "pgdeactivate", SRC_PGDEACTIVATE },
	{ "pglazyfree", SRC_ZERO },
	{ "pglazyfreed", SRC_ZERO },
	{ "zswpin", SRC_ZERO },
	{ "zswpout", SRC_ZERO },
	{ "thp_fault_alloc", SRC_ZERO },
	{ "thp_collapse_alloc", SRC_ZERO },
};

void memcg_stat_move(int64_t *from, int64_t *to, int n)
{
	for (int i = 0; i < n; i++) {
		int64_t v = __atomic_exchange_n(&from[i], 0, __ATOMIC_RELAXED);
		if (v)
			__atomic_add_fetch(&to[i], v, __ATOMIC_RELAXED);
	}
}

/* A sum read while pages come and go may be briefly negative: 0 then. */
static uint64_t stat_pages(const int64_t *sum, enum memcg_stat i)
{
	return sum[i] > 0 ? (uint64_t)sum[i] : 0;
}

static uint64_t stat_value(const int64_t *sum, enum stat_src src)
{
	uint64_t kernel = stat_pages(sum, MEMCG_STAT_KERNEL_STACK) + stat_pages(sum, MEMCG_STAT_PAGETABLES) +
			  stat_pages(sum, MEMCG_STAT_SLAB) + stat_pages(sum, MEMCG_STAT_KERNEL_OTHER) +
			  stat_pages(sum, MEMCG_STAT_PERCPU);
	switch (src) {
	case SRC_ANON: return stat_pages(sum, MEMCG_STAT_ANON) * STAT_PAGE_BYTES;
	case SRC_FILE: /* shmem is file memory too, as on Linux */
		return (stat_pages(sum, MEMCG_STAT_SHMEM) + stat_pages(sum, MEMCG_STAT_FILE)) * STAT_PAGE_BYTES;
	case SRC_PERCPU: return stat_pages(sum, MEMCG_STAT_PERCPU_B); /* bytes already */
	case SRC_SOCK: return stat_pages(sum, MEMCG_STAT_SOCK) * STAT_PAGE_BYTES;
	case SRC_SHMEM: return stat_pages(sum, MEMCG_STAT_SHMEM) * STAT_PAGE_BYTES;
	case SRC_KERNEL: return kernel * STAT_PAGE_BYTES;
	case SRC_KSTACK: return stat_pages(sum, MEMCG_STAT_KERNEL_STACK) * STAT_PAGE_BYTES;
	case SRC_PT: return stat_pages(sum, MEMCG_STAT_PAGETABLES) * STAT_PAGE_BYTES;
	case SRC_UNEVICTABLE: {
		uint64_t on_lru = stat_pages(sum, MEMCG_STAT_INACTIVE_ANON) + stat_pages(sum, MEMCG_STAT_ACTIVE_ANON);
		uint64_t shmem = stat_pages(sum, MEMCG_STAT_SHMEM);
		return (stat_pages(sum, MEMCG_STAT_ANON) + (shmem > on_lru ? shmem - on_lru : 0)) * STAT_PAGE_BYTES;
	}
	case SRC_FILE_DIRTY: return stat_pages(sum, MEMCG_STAT_FILE_DIRTY) * STAT_PAGE_BYTES;
	case SRC_FILE_WRITEBACK: return stat_pages(sum, MEMCG_STAT_FILE_WRITEBACK) * STAT_PAGE_BYTES;
	case SRC_FILE_MAPPED: return stat_pages(sum, MEMCG_STAT_FILE_MAPPED) * STAT_PAGE_BYTES;
	case SRC_INACTIVE_ANON: return stat_pages(sum, MEMCG_STAT_INACTIVE_ANON) * STAT_PAGE_BYTES;
	case SRC_ACTIVE_ANON: return stat_pages(sum, MEMCG_STAT_ACTIVE_ANON) * STAT_PAGE_BYTES;
	case SRC_INACTIVE_FILE: return stat_pages(sum, MEMCG_STAT_INACTIVE_FILE) * STAT_PAGE_BYTES;
	case SRC_ACTIVE_FILE: return stat_pages(sum, MEMCG_STAT_ACTIVE_FILE) * STAT_PAGE_BYTES;
	case SRC_SLAB: return stat_pages(sum, MEMCG_STAT_SLAB) * STAT_PAGE_BYTES;
	case SRC_PGFAULT: return stat_pages(sum, MEMCG_STAT_PGFAULT);
	case SRC_REFAULT_FILE: return stat_pages(sum, MEMCG_STAT_WORKINGSET_REFAULT_FILE);
	case SRC_ACTIVATE_FILE: return stat_pages(sum, MEMCG_STAT_WORKINGSET_ACTIVATE_FILE);
	case SRC_PGSCAN: return stat_pages(sum, MEMCG_STAT_PGSCAN);
	case SRC_PGSTEAL: return stat_pages(sum, MEMCG_STAT_PGSTEAL);
	case SRC_PGREFILL: return stat_pages(sum, MEMCG_STAT_PGREFILL);
	case SRC_PGACTIVATE: return stat_pages(sum, MEMCG_STAT_PGACTIVATE);
	case SRC_PGDEACTIVATE: return stat_pages(sum, MEMCG_STAT_PGDEACTIVATE);
	case SRC_ZERO: break;
	}
	return 0;
}

void memcg_stat_format(struct cgfs_buf *out, const int64_t sum[MEMCG_NR_STATS_ALL])
{
	for (size_t k = 0; k < sizeof(stat_keys) / sizeof(stat_keys[0]); k++)
		cgfs_printf(out, "%s %llu\n", stat_keys[k].name,
			    (unsigned long long)stat_value(sum, stat_keys[k].src));
}
