/* The page cache's own helpers, shared by object.c and map.c. */
#ifndef ARBOR_PCACHE_INTERNAL_H
#define ARBOR_PCACHE_INTERNAL_H

#include "pcache.h"

/* A new uptodate page of o at index charged to cg (shmem), or NULL (its
 * memory.max); zeroed unless the caller overwrites all of it (zero:
 * false). One reference, the caller's; not yet in the tree. */
struct pcache_page *pcache_page_new(struct pcache_obj *o, uint64_t index, struct cgroup *cg, bool zero);
/* Drops a reference; the last (a detached page) takes it off its LRU
 * list and frees and uncharges its frame. */
void pcache_page_put(struct pcache_page *p);
/* The page at index, or NULL (obj->lock held). */
struct pcache_page *pcache_tree_lookup(struct pcache_obj *o, uint64_t index);
/* Puts p in the tree (obj->lock held): 0, or -ENOMEM for a node (an
 * empty node left behind is freed by the next walk that passes it). */
int pcache_tree_insert(struct pcache_obj *o, struct pcache_page *p);

#endif
