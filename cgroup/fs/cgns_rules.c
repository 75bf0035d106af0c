/* The rules of cgroup namespaces that need no process (host-tested,
 * tests/cgroup/test_cgroup.c): the nsdelegate option and what it forbids,
 * and a cgroup's path as seen from a namespace's root (cgns.c has the
 * process side and the system call). */
#include "cgns.h"
#include "abi/errno.h"
#include "cgfs.h"
#include "cgroup.h"
#include "kstring.h"

/* Linux's CGRP_ROOT_NS_DELEGATE; written by mounts, read by writes. */
static bool cgns_delegate_on;

void cgns_set_nsdelegate(bool on)
{
	__atomic_store_n(&cgns_delegate_on, on, __ATOMIC_RELAXED);
}

bool cgns_nsdelegate(void)
{
	return __atomic_load_n(&cgns_delegate_on, __ATOMIC_RELAXED);
}

/* Whether cg is ns_root's cgroup (a writer's ns_root) or below it. */
static bool cgns_inside(const struct cgroup *cg, uint64_t ns_root)
{
	for (const struct cgroup *c = cg; c; c = c->parent)
		if (cg_dir_ino(c) + 1 == ns_root)
			return true;
	return false;
}

int cgns_may_migrate_locked(const struct cgroup *src, const struct cgroup *dst, uint64_t ns_root)
{
	if (!ns_root || !cgns_nsdelegate())
		return 0;
	return cgns_inside(src, ns_root) && cgns_inside(dst, ns_root) ? 0 : -ENOENT;
}

int cgns_may_write(const struct cgroup *cg, uint16_t cft_flags, uint64_t ns_root)
{
	if (!ns_root || !cgns_nsdelegate() || (cft_flags & CFT_NS_DELEGATABLE))
		return 0;
	return cg_dir_ino(cg) + 1 == ns_root ? -EPERM : 0;
}

/* Linux's kernfs_path_from_node: cg's path seen from root: "/.." for each
 * level from root up to their common ancestor, then the names down to cg;
 * "/" if they are the same. The length; buf holds what fits of it. */
size_t cgns_rel_path(const struct cgroup *cg, const struct cgroup *root, char *buf, size_t len)
{
	unsigned dcg = 0, droot = 0;
	for (const struct cgroup *c = cg; c->parent; c = c->parent)
		dcg++;
	for (const struct cgroup *c = root; c->parent; c = c->parent)
		droot++;
	const struct cgroup *a = cg, *b = root;
	unsigned da = dcg, db = droot, up = 0;
	for (; da > db; da--)
		a = a->parent;
	for (; db > da; db--, up++)
		b = b->parent;
	for (; a != b; a = a->parent, b = b->parent)
		up++;
	size_t n = 0;
	for (unsigned i = 0; i < up; i++)
		n += strlcpy(buf + MIN(n, len), "/..", n < len ? len - n : 0);
	/* the names below the common ancestor a, written from the end */
	size_t below = 0;
	for (const struct cgroup *c = cg; c != a; c = c->parent)
		below += 1 + strlen(c->name);
	size_t pos = n + below;
	for (const struct cgroup *c = cg; c != a; c = c->parent) {
		size_t k = strlen(c->name);
		pos -= k;
		for (size_t i = 0; i < k; i++)
			if (pos + i + 1 < len)
				buf[pos + i] = c->name[i];
		if (--pos + 1 < len)
			buf[pos] = '/';
	}
	n += below;
	if (n == 0)
		n = strlcpy(buf, "/", len);
	if (len)
		buf[MIN(n, len - 1)] = '\0';
	return n;
}
