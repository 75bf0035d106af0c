/* Thread mode, as Linux's cgroup v2 defines it.
 *
 * A cgroup is a domain (cg->dom == cg) or threaded (cg->dom is the thread
 * root, the nearest domain ancestor). Writing "threaded" to cgroup.type is
 * one-way and joins the parent's resource domain. Inside a threaded
 * subtree the threads of one process may sit in different cgroups, the
 * no-internal-process rule does not apply and only threaded controllers
 * may be enabled; every process counts as living in the thread root. A
 * domain is a thread root when it has threaded children, or threads of
 * its own with threaded controllers enabled. The root is "mixable": it
 * may be a thread root and have domain children at once. A domain below a
 * threaded cgroup or a (non-root) thread root cannot host anything:
 * "domain invalid". Operations the topology forbids fail EOPNOTSUPP. */
#include "cgroup.h"
#include "controller.h"
#include "abi/errno.h"

static bool cg_is_mixable(const struct cgroup *cg)
{
	return cg->parent == NULL;
}

bool cg_is_thread_root(const struct cgroup *cg)
{
	if (cg_is_threaded(cg))
		return false;
	return cg->nr_threaded_children || (cg->nr_threads && (cg->subtree_control & cg_threaded_mask()));
}

bool cg_is_valid_domain(const struct cgroup *cg)
{
	if (cg_is_threaded(cg))
		return false;
	for (const struct cgroup *a = cg->parent; a; a = a->parent)
		if (cg_is_threaded(a) || (!cg_is_mixable(a) && cg_is_thread_root(a)))
			return false;
	return true;
}

/* Either domain or threaded children, and no domain controllers. */
bool cg_can_be_thread_root(const struct cgroup *cg)
{
	if (cg_is_mixable(cg))
		return true;
	return !cg_is_threaded(cg) && !cg->nr_populated_domain_children &&
	       !(cg->subtree_control & cg_domain_mask());
}

const char *cg_type_name(const struct cgroup *cg)
{
	if (cg_is_threaded(cg))
		return "threaded";
	if (!cg_is_valid_domain(cg))
		return "domain invalid";
	return cg_is_thread_root(cg) ? "domain threaded" : "domain";
}

/* Threaded cgroups below cg now belong to dom's resource domain. */
static void cg_set_dom_below(struct cgroup *cg, struct cgroup *dom)
{
	struct list_head *pos;
	list_for_each(pos, &cg->children) {
		struct cgroup *c = list_entry(pos, struct cgroup, sibling);
		if (cg_is_threaded(c)) {
			c->dom = dom;
			cg_set_dom_below(c, dom);
		}
	}
}

int cg_make_threaded(struct cgroup *cg)
{
	if (cg_is_threaded(cg))
		return 0;
	/* Checked here too: the parent's test below covers it only when
	 * the parent is not the mixable root. */
	if (cg_populated_locked(cg) || (cg->subtree_control & cg_domain_mask()))
		return -EOPNOTSUPP;
	struct cgroup *dom = cg->parent->dom;
	if (!cg_is_valid_domain(dom) || !cg_can_be_thread_root(dom))
		return -EOPNOTSUPP;
	cg->dom = dom;
	cg_set_dom_below(cg, dom);
	cg->parent->nr_threaded_children++;
	return 0;
}

int cg_vet_subtree_enable(const struct cgroup *cg, uint32_t enable)
{
	if (!enable)
		return 0;
	if (!cg_is_valid_domain(cg->dom))
		return -EOPNOTSUPP;
	if (cg_is_mixable(cg))
		return 0;
	if (enable & cg_domain_mask()) {
		if (cg_is_thread_root(cg) || cg_is_threaded(cg))
			return -EOPNOTSUPP; /* domain controllers inside a thread subtree */
	} else if (cg_can_be_thread_root(cg) || cg_is_threaded(cg)) {
		return 0; /* threaded controllers handle internal competition */
	}
	return cg->nr_threads ? -EBUSY : 0; /* no internal processes */
}

int cg_vet_migrate_dst(const struct cgroup *dst)
{
	if (!cg_is_valid_domain(dst->dom))
		return -EOPNOTSUPP;
	if (cg_can_be_thread_root(dst) || cg_is_threaded(dst))
		return 0;
	return dst->subtree_control ? -EBUSY : 0; /* no internal processes */
}
