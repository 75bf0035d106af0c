/* The ext2 server's block reservations for the kernel's writes into the
 * page cache (docs/fs.md, "Reservations"). Blocks are allocated at
 * write-back, but a client's write must fail with ENOSPC at write() as
 * Linux's ext2 does: so each file's object carries a budget in the kernel
 * (pcache_reserve), the pages clients may newly dirty where the disk has
 * no block yet, which a write spends a page at a time. The server promises
 * no more than it has: the budgets and the pages holding a unit, each
 * costed at its data blocks plus the indirect blocks they may need, stay
 * within the free blocks (root's reserved ones only for root's part).
 * When an object's budget is spent the kernel asks (a RESERVE request):
 * the file is written back (its units become real allocations), the
 * others' unspent budgets are taken back if that is what it takes, and
 * when no whole budget fits any more the page asked about is costed
 * exactly (ext2_alloc_cost), so a write stops at the last page the disk
 * can hold. The core is told the sum of the promises (ext2_set_promised):
 * the server's own allocations (directories, files it serves) leave those
 * blocks alone; only write-back takes them. Runs under the mount's lock. */
#include <stdint.h>
#include "abi/pcache.h"
#include "arbor_sys.h"
#include "ext2_srv.h"

#define E2_RESV_PAGE 4096u
#define E2_RESV_CHUNK 8192u /* pages per budget at most (32 MiB) */

/* The indirect blocks that may be needed to map d more data blocks of one
 * file, wherever they fall: a run of d blocks crosses at most
 * ceil(d / apb) + 1 indirect blocks, and as many upper levels. */
static uint64_t e2_resv_meta(uint64_t apb, uint64_t d)
{
	if (!d)
		return 0;
	return (d + apb - 1) / apb + 1 + (d + apb * apb - 1) / (apb * apb) + 1 + 1;
}

/* Blocks n pages of one file may take. */
static uint64_t e2_resv_cost(const struct e2inst *in, uint64_t n)
{
	uint64_t bs = ext2_block_size(in->fs), d = n * (E2_RESV_PAGE / bs);
	return d + e2_resv_meta(bs / 4, d);
}

/* The most pages (up to E2_RESV_CHUNK) whose cost fits in avail blocks. */
static uint64_t e2_resv_pages_for(const struct e2inst *in, uint64_t avail)
{
	uint64_t bpp = E2_RESV_PAGE / ext2_block_size(in->fs), n = avail / bpp;
	if (n > E2_RESV_CHUNK)
		n = E2_RESV_CHUNK;
	while (n && e2_resv_cost(in, n) > avail) {
		uint64_t over = (e2_resv_cost(in, n) - avail + bpp - 1) / bpp;
		n = n > over ? n - over : 0;
	}
	return n;
}

/* The blocks a dense file of n data blocks uses for its map. */
static uint64_t e2_resv_dense_meta(uint64_t apb, uint64_t n)
{
	uint64_t m = 0;
	if (n <= 12)
		return 0;
	n -= 12;
	m++; /* the indirect block */
	if (n <= apb)
		return m;
	n -= apb;
	uint64_t dn = n < apb * apb ? n : apb * apb;
	m += 1 + (dn + apb - 1) / apb;
	if (n <= apb * apb)
		return m;
	n -= apb * apb;
	return m + 1 + (n + apb * apb - 1) / (apb * apb) + (n + apb - 1) / apb;
}

/* The first page a client's write may need a new block for: the file's
 * whole pages on the disk if it has no hole (its i_blocks is exactly a
 * dense file's), else 0 (every page is costed: an overwrite of a sparse
 * file may need a block). */
static uint64_t e2_resv_from(const struct e2inst *in, uint32_t ino)
{
	struct ext2_stat st;
	if (ext2_stat(in->fs, ino, &st))
		return 0;
	uint64_t bs = ext2_block_size(in->fs), nb = (st.size + bs - 1) / bs;
	if (st.blocks != (nb + e2_resv_dense_meta(bs / 4, nb)) * (bs / 512))
		return 0;
	return st.size / E2_RESV_PAGE;
}

/* Blocks promised to objects other than x: without take, as last
 * counted (a client's write moves a unit from the budget to a page, which
 * changes no sum; a write-back lowers it: the count errs high); with
 * take, their held pages now, their unspent budgets taken back. */
/* n's promise is now v blocks (the mount's sum follows). */
static void e2_resv_set(struct e2inst *in, struct e2node *n, uint64_t v)
{
	in->promised_sum += v - n->promised;
	n->promised = v;
}

static uint64_t e2_resv_others(struct e2inst *in, struct e2node *x, bool take)
{
	int ep = fssrv_endpoint();
	uint64_t sum = 0;
	if (!take) /* a node without an object promises nothing */
		return in->promised_sum - x->promised;
	for (int i = 0; i < E2_NODE_HASH; i++)
		for (struct e2node *y = in->nodes[i]; y; y = y->next) {
			struct pcache_resv old, set;
			if (y == x || !y->pc || !y->used)
				continue; /* never opened since its object was made: no budget */
			if (sys_pcache_reserve(ep, y->pc, NULL, &old))
				continue;
			if (take && old.budget) {
				set = (struct pcache_resv){ .from = old.from };
				if (sys_pcache_reserve(ep, y->pc, &set, &old))
					continue;
			}
			e2_resv_set(in, y, e2_resv_cost(in, old.held));
			sum += y->promised;
		}
	return sum;
}

/* Tells the core the blocks every object of the mount is promised. */
static void e2_resv_commit(struct e2inst *in)
{
	ext2_set_promised(in->fs, in->promised_sum);
}

void e2_resv_update(struct e2inst *in, struct e2node *n, bool gone)
{
	struct pcache_resv now;
	if (gone || !n->pc || sys_pcache_reserve(fssrv_endpoint(), n->pc, NULL, &now))
		e2_resv_set(in, n, 0);
	else
		e2_resv_set(in, n, e2_resv_cost(in, now.held + now.budget));
	e2_resv_commit(in);
}

void e2_resv_drop(struct e2inst *in, struct e2node *n)
{
	struct pcache_resv now, set;
	int ep = fssrv_endpoint();
	if (n->pc && sys_pcache_reserve(ep, n->pc, NULL, &now) == 0) {
		/* written back: the disk covers what it holds now, so a later
		 * overwrite of those pages costs nothing (a kept object keeps
		 * the from of its first open otherwise) */
		set = (struct pcache_resv){ .budget = 0, .root = 0, .from = e2_resv_from(in, n->ino) };
		sys_pcache_reserve(ep, n->pc, &set, &now);
	}
	n->resv_next = 0; /* a writer after a re-open starts small again */
	e2_resv_update(in, n, false);
}

void e2_resv_grant(struct e2inst *in, struct e2node *x, uint64_t index)
{
	int ep = fssrv_endpoint();
	struct pcache_resv mine, set;
	struct ext2_statfs sf;
	if (!x->pc || in->rdonly || sys_pcache_reserve(ep, x->pc, NULL, &mine))
		return;
	/* budgets grow as a writer spends them: 64 pages, doubling to
	 * E2_RESV_CHUNK (a file opened and not written promises nothing) */
	uint64_t want = x->resv_next;
	if (index != E2_RESV_NONE)
		x->resv_next = !want ? 64 : want * 2 > E2_RESV_CHUNK ? E2_RESV_CHUNK : want * 2;
	want = x->resv_next;
	ext2_statfs(in->fs, &sf);
	uint64_t all = 0, user = 0, n_all = 0, n_user = 0;
	for (int take = 0; take < 2 && want; take++) {
		uint64_t promised = e2_resv_others(in, x, take) + e2_resv_cost(in, mine.held);
		all = sf.bfree > promised ? sf.bfree - promised : 0;
		user = sf.bavail > promised ? sf.bavail - promised : 0;
		n_all = e2_resv_pages_for(in, all);
		n_user = e2_resv_pages_for(in, user);
		n_all = n_all < want ? n_all : want;
		n_user = n_user < want ? n_user : want;
		if (n_user) /* enough without taking the others' budgets */
			break;
	}
	uint64_t cost;
	if (!n_user && index != E2_RESV_NONE &&
	    ext2_alloc_cost(in->fs, x->ino, index * E2_RESV_PAGE, E2_RESV_PAGE, &cost) == 0) {
		/* the last pages: what this one needs exactly */
		if (!n_all && cost <= all)
			n_all = 1;
		if (cost <= user)
			n_user = 1;
	}
	if (n_user > n_all)
		n_user = n_all;
	set = (struct pcache_resv){ .budget = n_all, .root = n_all - n_user, .from = e2_resv_from(in, x->ino) };
	if (sys_pcache_reserve(ep, x->pc, &set, &mine) == 0)
		e2_resv_set(in, x, e2_resv_cost(in, mine.held + n_all));
	e2_resv_commit(in);
}
