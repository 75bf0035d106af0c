/* The name cache's own rules (kernel/pcache/ncache.c), without a server:
 * lookups answer hits, negative entries, ENOTDIR and EACCES and miss on
 * what is not cached or out of date; the cache stays bounded (the least
 * recently used entry goes first); a directory's change and an object
 * leaving the table take their entries. */
#include "ktest.h"
#include "abi/errno.h"
#include "heap.h"
#include "kstring.h"
#include "pcache.h"

#define NC_MAX 32768 /* NCACHE_MAX */
#define NC_NAMES (NC_MAX + 1808) /* installed: the first 1808 but one go */

static struct pcache_obj *nc_obj(uint32_t mode, uint32_t uid)
{
	struct pcache_obj *o = pcache_obj_new(PCACHE_META, PAGE_SIZE);
	if (o) {
		struct pcache_attr a = { .mode = mode, .uid = uid, .gid = uid, .nlink = 2 };
		pcache_obj_setattr(o, &a, PCACHE_ATTR_MODE | PCACHE_ATTR_OWNER | PCACHE_ATTR_MTIME);
	}
	return o;
}

KTEST(ncache_lookup_rules)
{
	struct ncache *nc = ncache_new();
	struct pcache_obj *root = nc_obj(0040755, 0), *d = nc_obj(0040700, 0), *f = nc_obj(0100644, 0), *o = NULL;
	KT_EXPECT(nc && root && d && f);
	ncache_install(nc, root, d, "d", 1);
	ncache_install(nc, d, f, "f", 1);
	ncache_install(nc, root, NULL, "none", 4);
	KT_EXPECT_EQ(ncache_count(nc), 3);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f", 0, 0, &o), 0);
	KT_EXPECT(o == f);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "//d//", 0, 0, &o), 0);
	KT_EXPECT(o == d);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/", 0, 0, &o), 0);
	KT_EXPECT(o == root);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/none", 0, 0, &o), -ENOENT);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/none/x", 0, 0, &o), -ENOENT);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f/x", 0, 0, &o), -ENOTDIR);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f/", 0, 0, &o), -ENOTDIR);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f", 1000, 1000, &o), -EACCES);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/g", 0, 0, &o), NCACHE_MISS);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/../d", 0, 0, &o), NCACHE_MISS);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/./d", 0, 0, &o), NCACHE_MISS);
	/* a directory marked out of date: lookups miss there until a whole push */
	struct pcache_attr a = { 0 };
	pcache_obj_setattr(d, &a, PCACHE_ATTR_STALE);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f", 0, 0, &o), NCACHE_MISS);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d", 0, 0, &o), NCACHE_MISS);
	a.mode = 0040700;
	pcache_obj_setattr(d, &a, PCACHE_ATTR_MODE | PCACHE_ATTR_MTIME);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f", 0, 0, &o), 0);
	/* a change of d's names takes its entries, not root's */
	ncache_dir_changed(nc, d);
	KT_EXPECT_EQ(ncache_count(nc), 2);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d/f", 0, 0, &o), NCACHE_MISS);
	/* d leaving the table takes the entry naming it; none may name it again */
	ncache_install(nc, d, f, "f", 1);
	ncache_obj_gone(nc, d);
	KT_EXPECT_EQ(ncache_count(nc), 1);
	ncache_install(nc, root, d, "d", 1);
	KT_EXPECT_EQ(ncache_count(nc), 1);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/d", 0, 0, &o), NCACHE_MISS);
	ncache_free(nc);
	pcache_obj_put(root);
	pcache_obj_put(d);
	pcache_obj_put(f);
}

/* NC_NAMES names in one directory: at most NCACHE_MAX stay, the oldest
 * gone first, a hit keeping its entry; all of them go with the directory,
 * their memory back in the heap. */
KTEST(ncache_bounded)
{
	uint64_t heap0 = heap_bytes_in_use();
	struct ncache *nc = ncache_new();
	struct pcache_obj *root = nc_obj(0040755, 0), *f = nc_obj(0100644, 0), *o = NULL;
	KT_EXPECT(nc && root && f);
	char name[16];
	for (int i = 0; i < NC_NAMES; i++) {
		int n = 0;
		name[n++] = 'n';
		for (int v = i, div = 10000; div; div /= 10)
			name[n++] = (char)('0' + (v / div) % 10);
		ncache_install(nc, root, (i & 1) ? f : NULL, name, (uint32_t)n);
		if (i == 5000) /* touched: it moves to the recent end */
			KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/n00000", 0, 0, &o), -ENOENT);
	}
	KT_EXPECT_EQ(ncache_count(nc), NC_MAX);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/n34575", 0, 0, &o), 0); /* NC_NAMES - 1 */
	KT_EXPECT(o == f);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/n00000", 0, 0, &o), -ENOENT);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/n00002", 0, 0, &o), NCACHE_MISS);
	/* the oldest installed again with the same child: still one entry,
	 * now the most recent, so a new name pushes out the next oldest */
	ncache_install(nc, root, f, "n01809", 6);
	KT_EXPECT_EQ(ncache_count(nc), NC_MAX);
	ncache_install(nc, root, NULL, "n99999", 6);
	KT_EXPECT_EQ(ncache_count(nc), NC_MAX);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/n01809", 0, 0, &o), 0);
	KT_EXPECT_EQ(ncache_lookup_at(nc, root, "/n01810", 0, 0, &o), NCACHE_MISS);
	ncache_obj_gone(nc, f);
	KT_EXPECT_EQ(ncache_count(nc), NC_MAX / 2);
	ncache_obj_gone(nc, root);
	KT_EXPECT_EQ(ncache_count(nc), 0);
	ncache_free(nc);
	pcache_obj_put(root);
	pcache_obj_put(f);
	KT_EXPECT_EQ(heap_bytes_in_use(), heap0);
}
