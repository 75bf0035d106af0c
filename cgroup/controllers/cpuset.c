/* The cpuset controller: which CPUs a subtree's threads may run on, as
 * Linux 6.1's kernel/cgroup/cpuset.c on the unified hierarchy.
 *
 * Files (Linux's dfl_files): cpuset.cpus and cpuset.mems (rw, not on the
 * root; empty: use the parent's), cpuset.cpus.effective and
 * cpuset.mems.effective (ro, the root too), cpuset.cpus.partition (rw,
 * not on the root). Lists read and write in Linux's list format
 * (bitmap_parselist, "%*pbl"): "0-3,5", an empty list as an empty line.
 * The CPUs are the ones that schedule (hooks.h: cpus_online), CPU n
 * "possible" when a CPU at or above n schedules; there is one memory
 * node, 0.
 *
 * Effective CPUs: a member gets its cpuset.cpus within its parent's
 * effective CPUs, or the parent's effective CPUs when that is empty (v2
 * behaviour: never nothing). A valid partition root ("root", "isolated")
 * takes its cpuset.cpus from its parent's for itself alone: they leave
 * the parent's effective CPUs (and so its other children's); a parent
 * may give all its CPUs away only while no thread is in it (outside its
 * own partitions), so a cgroup's effective CPUs are empty only then,
 * and moving a thread there is ENOSPC. A partition root that breaks a
 * rule is "invalid", with Linux 6.1's reason, and behaves as a member.
 * "isolated" schedules as "root" (Arbor has no load balancing to turn
 * off). Every change recomputes the whole tree's masks from the root
 * (trees are small; one walk, no incremental state to get wrong) and
 * pushes the new masks to the threads of the cgroups whose mask changed
 * (hooks.h: cpus_changed_locked). A partition turns valid again only
 * when the change is at it or above it, as Linux re-examines only the
 * subtree it walks; one breaking a rule turns invalid wherever it is.
 *
 * Internally the root's CPUs are all 32 bits, not just those that
 * schedule: a thread's mask stays "every CPU" where no cpuset limits it,
 * so CPUs that start scheduling later are used without a recompute; the
 * files and the rules that count CPUs mask with the online ones.
 *
 * The state is kept in every cgroup; where the parent does not pass
 * cpuset on it has the defaults (member, empty lists), which inherit,
 * as Linux's tasks of such a cgroup use the nearest cpuset's masks.
 * Only the core and its hooks are used, so the host tests run it
 * (tests/cgroup/test_cpuset.c). */
#include "controller.h"
#include "hooks.h"
#include "abi/errno.h"
#include "kstring.h"

#define CPUSET_ALL UINT32_MAX	/* the root's CPUs inside: see above */
#define CPUSET_NODE_BITS 1024	/* Linux's MAX_NUMNODES (Debian: NODES_SHIFT 10) */

/* Partition states, Linux's values: negative ones are invalid. */
enum { CPUSET_MEMBER = 0, CPUSET_ROOT = 1, CPUSET_ISOLATED = 2 };

/* Why a partition root is invalid: Linux 6.1's perr_strings. */
enum cpuset_perr {
	CPUSET_PERR_NONE,
	CPUSET_PERR_INVCPUS,
	CPUSET_PERR_INVPARENT,
	CPUSET_PERR_NOTPART,
	CPUSET_PERR_NOTEXCL,
	CPUSET_PERR_NOCPUS,
	CPUSET_PERR_HOTPLUG,
	CPUSET_PERR_CPUSEMPTY,
};

static const char *const cpuset_perr_text[] = {
	[CPUSET_PERR_INVCPUS] = "Invalid cpu list in cpuset.cpus",
	[CPUSET_PERR_INVPARENT] = "Parent is an invalid partition root",
	[CPUSET_PERR_NOTPART] = "Parent is not a partition root",
	[CPUSET_PERR_NOTEXCL] = "Cpu list in cpuset.cpus not exclusive",
	[CPUSET_PERR_NOCPUS] = "Parent unable to distribute cpu downstream",
	[CPUSET_PERR_HOTPLUG] = "No cpu available due to hotplug",
	[CPUSET_PERR_CPUSEMPTY] = "cpuset.cpus is empty",
};

extern struct cg_controller cg_cpuset;

/* Per cgroup (cg_lock): the lists as written, the partition state and
 * why it is invalid (and the two as cpuset.cpus.partition last notified
 * them), the CPUs the parent grants (pool), those of the pool given to
 * valid child partitions, and the rest: the effective CPUs. */
struct cpuset_state {
	uint32_t cpus;
	bool mems;		/* node 0 listed: the only node there is */
	int8_t prs, shown_prs;
	uint8_t err, shown_err;
	uint32_t pool, subparts, effective;
};

static struct cpuset_state *cpuset_of(const struct cgroup *cg)
{
	return cg_state(cg, &cg_cpuset);
}

static uint32_t cpuset_online(void)
{
	return cg_hooks->cpus_online();
}

uint32_t cpuset_cpus_locked(const struct cgroup *cg)
{
	return cpuset_of(cg)->effective;
}

struct cgroup *cpuset_home(struct cgroup *cg)
{
	/* a snapshot: a subtree_control write may cross it, as on Linux */
	while (cg->parent && !(__atomic_load_n(&cg->parent->subtree_control, __ATOMIC_RELAXED) & cg_cpuset.bit))
		cg = cg->parent;
	return cg;
}

/* ---- Linux's list format ---- */

static bool cpuset_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool cpuset_end_of_str(char c)
{
	return c == '\0' || c == '\n';
}

/* A separator between regions (bitmap_parselist's __end_of_region). */
static bool cpuset_sep(char c)
{
	return cpuset_space(c) || c == ',';
}

/* One number at *s, or 'N' (the last bit): advances *s. 0, -EINVAL (no
 * digit), -EOVERFLOW (past 32 bits), as bitmap_getnum. */
static int cpuset_getnum(const char **s, unsigned last, uint32_t *num)
{
	const char *p = *s;
	if (*p == 'N') {
		*num = last;
		*s = p + 1;
		return 0;
	}
	uint64_t v = 0;
	bool over = false;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		over |= v > UINT32_MAX;
	}
	if (p == *s)
		return -EINVAL;
	if (over)
		return -EOVERFLOW;
	*num = (uint32_t)v;
	*s = p;
	return 0;
}

/* One region "A", "A-B", "A-B:USED/GROUP" or "all" at *s (advanced past
 * it), checked against nbits and added to *mask: as Linux's
 * bitmap_parse_region, then bitmap_check_region (-EINVAL for a bad
 * shape, -ERANGE for a bit at or past nbits). */
static int cpuset_region(const char **s, unsigned nbits, uint64_t *mask)
{
	const char *p = *s;
	uint32_t start, end, used, group;
	int err = 0;
	if ((p[0] | 0x20) == 'a' && (p[1] | 0x20) == 'l' && (p[2] | 0x20) == 'l') {
		start = 0, end = nbits - 1, p += 3;
	} else {
		err = cpuset_getnum(&p, nbits - 1, &start);
		if (err)
			return err;
		end = start;
		if (*p == '-') {
			p++;
			err = cpuset_getnum(&p, nbits - 1, &end);
			if (err)
				return err;
		} else if (!cpuset_sep(*p) && !cpuset_end_of_str(*p)) {
			return -EINVAL;
		}
	}
	used = group = end + 1;
	bool pattern = *p == ':';
	if (pattern) {
		p++;
		err = cpuset_getnum(&p, nbits - 1, &used);
		if (!err && *p++ != '/')
			err = -EINVAL;
		if (!err)
			err = cpuset_getnum(&p, nbits - 1, &group);
		if (err)
			return err;
	} else if (!cpuset_sep(*p) && !cpuset_end_of_str(*p)) {
		return -EINVAL;
	}
	if (start > end || group == 0 || used > group)
		return -EINVAL;
	if (end >= nbits)
		return -ERANGE;
	for (uint64_t b = start; b <= end; b += group)
		for (uint64_t i = b; i < b + used && i <= end; i++)
			*mask |= 1ull << (i < 63 ? i : 63); /* bit 63: 63 or past it */
	*s = p;
	/* 1: the list ends here; after a pattern Linux goes on, skipping
	 * a newline as a blank */
	return !pattern && cpuset_end_of_str(*p) ? 1 : 0;
}

/* A list (bitmap_parselist, nbits bits; 0..62 kept, bit 63 for any
 * higher, which no caller accepts): regions
 * separated by commas and blanks, the list ending at a NUL or newline.
 * 0 or the first region's error, in the order Linux meets them. */
static int cpuset_parse_list(const char *text, unsigned nbits, uint64_t *mask)
{
	*mask = 0;
	for (const char *p = text;;) {
		while (cpuset_sep(*p))
			p++;
		if (cpuset_end_of_str(*p))
			return 0;
		int r = cpuset_region(&p, nbits, mask);
		if (r < 0)
			return r;
		if (r > 0)
			return 0;
	}
}

/* mask as Linux's "%*pbl" and a newline: "0-3,5\n", "\n" when empty. */
static void cpuset_put_list(struct cgfs_buf *out, uint32_t mask)
{
	const char *sep = "";
	for (unsigned i = 0; i < 32; i++) {
		if (!(mask & (1u << i)))
			continue;
		unsigned j = i;
		while (j + 1 < 32 && (mask & (1u << (j + 1))))
			j++;
		if (j == i)
			cgfs_printf(out, "%s%u", sep, i);
		else
			cgfs_printf(out, "%s%u-%u", sep, i, j);
		sep = ",";
		i = j;
	}
	cgfs_printf(out, "\n");
}

/* ---- the partition rules and the tree's masks ---- */

static bool cpuset_valid_part(const struct cgroup *cg)
{
	return !cg->parent || cpuset_of(cg)->prs > 0;
}

/* The CPUs cg lists for the partition rules: the root's are every
 * possible CPU (Linux's top_cpuset.cpus_allowed on v2). */
static uint32_t cpuset_listed(const struct cgroup *cg)
{
	return cg->parent ? cpuset_of(cg)->cpus : cpuset_online();
}

/* Whether another child of cg's parent lists a CPU cg lists (Linux's
 * exclusivity rule for a partition root against every sibling). */
static bool cpuset_overlaps_sibling(const struct cgroup *cg)
{
	struct list_head *pos;
	list_for_each(pos, &cg->parent->children) {
		const struct cgroup *s = list_entry(pos, struct cgroup, sibling);
		if (s != cg && (cpuset_of(s)->cpus & cpuset_of(cg)->cpus))
			return true;
	}
	return false;
}

/* Whether y is x or below it. */
static bool cpuset_under(const struct cgroup *y, const struct cgroup *x)
{
	for (; y; y = y->parent)
		if (y == x)
			return true;
	return false;
}

/* Whether a thread is in p's partition: in p or below it, outside the
 * valid partitions below p and outside except's subtree (Linux's
 * partition_is_populated). cg_lock held. */
static bool cpuset_part_populated(struct cgroup *p, const struct cgroup *except)
{
	uint64_t n = p->nr_threads_tree;
	for (struct cgroup *c = cg_next_pre(p, p); c; c = cg_next_pre(c, p)) {
		if (c != except && !cpuset_valid_part(c))
			continue;
		bool inner = false; /* already left out with an ancestor */
		for (const struct cgroup *a = c->parent; a != p && !inner; a = a->parent)
			inner = a == except || cpuset_valid_part(a);
		if (!inner)
			n -= c->nr_threads_tree;
	}
	return n > 0;
}

/* The rule child c (a partition root) breaks under parent p, given the
 * CPUs p's earlier children took (given): CPUSET_PERR_*, in the order
 * Linux checks them (update_prstate, update_parent_subparts_cpumask).
 * adding: c takes CPUs anew (it turns valid, or its list changed), when
 * Linux also checks that p keeps a CPU while it has threads. */
static int cpuset_part_check(struct cgroup *p, struct cgroup *c, uint32_t given, bool adding)
{
	const struct cpuset_state *ps = cpuset_of(p), *cs = cpuset_of(c);
	uint32_t online = cpuset_online();
	if (!cs->cpus)
		return CPUSET_PERR_CPUSEMPTY;
	if (cpuset_overlaps_sibling(c))
		return CPUSET_PERR_NOTEXCL;
	if (!cpuset_valid_part(p))
		return ps->prs < 0 ? CPUSET_PERR_INVPARENT : CPUSET_PERR_NOTPART;
	if (!(cs->cpus & cpuset_listed(p)))
		return CPUSET_PERR_INVCPUS;
	uint32_t grant = cs->cpus & ps->pool & ~given;
	if (!(grant & online))
		return CPUSET_PERR_NOCPUS;
	if (adding && !(ps->pool & ~given & ~grant & online) && cpuset_part_populated(p, c))
		return CPUSET_PERR_NOCPUS;
	return CPUSET_PERR_NONE;
}

static void cpuset_set_prs(struct cgroup *c, int prs, int err)
{
	cpuset_of(c)->prs = (int8_t)prs;
	cpuset_of(c)->err = (uint8_t)err;
}

/* cpuset.cpus.partition of cg notifies if its text changed since it
 * last did: once per write, whatever states it went through. */
static void cpuset_note_locked(struct cgroup *cg)
{
	struct cpuset_state *cs = cpuset_of(cg);
	if (cs->prs == cs->shown_prs && cs->err == cs->shown_err)
		return;
	cs->shown_prs = cs->prs;
	cs->shown_err = cs->err;
	cg_notify_locked(cg, CG_NOTIFY_CPUSET_PARTITION);
}

/* p (with threads) lost its last CPU to its partition children, its
 * own list having changed: as Linux's update_cpumask, which then clears
 * p's subparts_cpus, they all turn invalid. Returns the CPUs given: 0. */
static uint32_t cpuset_revoke_children(struct cgroup *p)
{
	struct list_head *pos;
	list_for_each(pos, &p->children) {
		struct cgroup *c = list_entry(pos, struct cgroup, sibling);
		if (cpuset_of(c)->prs > 0)
			cpuset_set_prs(c, -cpuset_of(c)->prs, CPUSET_PERR_NOCPUS);
	}
	return 0;
}

/* p's partition children take their CPUs (re-examined as the file
 * comment says; from: where the change is), then p's effective CPUs and
 * each child's pool follow. */
static void cpuset_settle_children(struct cgroup *p, const struct cgroup *from)
{
	struct cpuset_state *ps = cpuset_of(p);
	uint32_t given = 0;
	struct list_head *pos;
	list_for_each(pos, &p->children) {
		struct cgroup *c = list_entry(pos, struct cgroup, sibling);
		struct cpuset_state *cs = cpuset_of(c);
		if (!cs->prs)
			continue;
		bool here = cpuset_under(c, from);
		if (cs->prs < 0 && !here)
			continue; /* invalid stays invalid outside the change */
		int err = cpuset_part_check(p, c, given, cs->prs < 0 || c == from);
		int kind = cs->prs < 0 ? -cs->prs : cs->prs;
		cpuset_set_prs(c, err ? -kind : kind, err ? err : CPUSET_PERR_NONE);
		if (!err)
			given |= cs->cpus & ps->pool & ~given;
	}
	if (given && !(ps->pool & ~given & cpuset_online()) && cpuset_part_populated(p, NULL))
		given = cpuset_revoke_children(p);
	ps->subparts = given;
	ps->effective = ps->pool & ~given;
	list_for_each(pos, &p->children) {
		struct cgroup *c = list_entry(pos, struct cgroup, sibling);
		struct cpuset_state *cs = cpuset_of(c);
		if (cs->prs > 0) {
			cs->pool = cs->cpus & ps->pool;
		} else {
			cs->pool = cs->cpus & ps->effective;
			if (!(cs->pool & cpuset_online()))
				cs->pool = ps->effective;
		}
	}
}

/* Recomputes every cgroup's masks after a change at from (cg_lock held)
 * and moves the threads of each cgroup whose effective CPUs changed. */
static void cpuset_update_locked(const struct cgroup *from)
{
	for (struct cgroup *cg = &cg_root; cg; cg = cg_next_pre(cg, &cg_root)) {
		uint32_t was = cpuset_of(cg)->effective;
		cpuset_settle_children(cg, from);
		if (cpuset_of(cg)->effective != was)
			cg_hooks->cpus_changed_locked(cg, cpuset_of(cg)->effective);
		cpuset_note_locked(cg);
	}
}

/* ---- files ---- */

static int cpuset_show_cpus(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	uint32_t cpus = cpuset_of(cg)->cpus;
	cg_unlock();
	cpuset_put_list(out, cpus);
	return 0;
}

static int cpuset_show_cpus_effective(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	uint32_t cpus = cpuset_of(cg)->effective & cpuset_online();
	cg_unlock();
	cpuset_put_list(out, cpus);
	return 0;
}

static int cpuset_show_mems(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	bool mems = cpuset_of(cg)->mems;
	cg_unlock();
	cpuset_put_list(out, mems ? 1 : 0);
	return 0;
}

/* One node, granted to every cgroup. */
static int cpuset_show_mems_effective(struct cgroup *cg, struct cgfs_buf *out)
{
	(void)cg;
	cpuset_put_list(out, 1);
	return 0;
}

/* Linux's update_cpumask: parse (-EINVAL, -ERANGE past the possible
 * CPUs, -EOVERFLOW), nothing to do if unchanged, -ENOSPC for emptying
 * the list of a cgroup with threads; then the tree follows. A list
 * overlapping a valid partition sibling's is allowed and invalidates
 * that partition (the recompute's exclusivity rule). */
static int cpuset_write_cpus(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t mask;
	(void)w;
	uint32_t online = cpuset_online();
	int err = cpuset_parse_list(text, 32 - (unsigned)__builtin_clz(online), &mask);
	if (err)
		return err;
	cg_lock();
	struct cpuset_state *cs = cpuset_of(cg);
	if (cg->dead)
		err = -ENODEV;
	else if (cs->cpus && !mask && cg_populated_locked(cg))
		err = -ENOSPC;
	if (!err && cs->cpus != (uint32_t)mask) {
		cs->cpus = (uint32_t)mask;
		cpuset_update_locked(cg);
	}
	cg_unlock();
	return err;
}

/* Linux's update_nodemask: MAX_NUMNODES bits, a node that is not
 * possible is -EINVAL, emptying a populated cgroup's list -ENOSPC. */
static int cpuset_write_mems(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t mask;
	(void)w;
	int err = cpuset_parse_list(text, CPUSET_NODE_BITS, &mask);
	if (err)
		return err;
	if (mask & ~1ull)
		return -EINVAL; /* a node other than 0 (past 63: bit 63) */
	cg_lock();
	struct cpuset_state *cs = cpuset_of(cg);
	if (cg->dead)
		err = -ENODEV;
	else if (cs->mems && !mask && cg_populated_locked(cg))
		err = -ENOSPC;
	else
		cs->mems = mask != 0;
	cg_unlock();
	return err;
}

static int cpuset_show_partition(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	int prs = cpuset_of(cg)->prs, err = cpuset_of(cg)->err;
	cg_unlock();
	static const char *const name[] = { "member", "root", "isolated" };
	if (prs >= 0)
		cgfs_printf(out, "%s\n", name[prs]);
	else if (err)
		cgfs_printf(out, "%s invalid (%s)\n", name[-prs], cpuset_perr_text[err]);
	else
		cgfs_printf(out, "%s invalid\n", name[-prs]);
	return 0;
}

/* Linux's sched_partition_write and update_prstate: "member", "root" or
 * "isolated" (else -EINVAL); a rule broken makes an invalid partition
 * root (shown with its reason), never a failed write. An invalid one
 * written "root" or "isolated" stays invalid, of that kind. */
static int cpuset_write_partition(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int prs;
	(void)w;
	if (!strcmp(text, "root"))
		prs = CPUSET_ROOT;
	else if (!strcmp(text, "isolated"))
		prs = CPUSET_ISOLATED;
	else if (!strcmp(text, "member"))
		prs = CPUSET_MEMBER;
	else
		return -EINVAL;
	cg_lock();
	struct cpuset_state *cs = cpuset_of(cg);
	int err = cg->dead ? -ENODEV : 0;
	if (!err && cs->prs != prs) {
		if (cs->prs && prs) {
			/* root <-> isolated: no CPU changes hands */
			cpuset_set_prs(cg, cs->prs < 0 ? -prs : prs, cs->err);
			cpuset_note_locked(cg);
		} else {
			/* member -> partition: turned valid or invalid by the
			 * recompute's checks (from cg itself, adding) */
			cpuset_set_prs(cg, prs ? -prs : CPUSET_MEMBER, CPUSET_PERR_NONE);
			cpuset_update_locked(cg);
		}
	}
	cg_unlock();
	return err;
}

/* ---- the controller's hooks ---- */

/* A new cgroup: the root has every CPU; a child is a member with its
 * parent's effective CPUs and no thread yet (cg_lock held, not for the
 * root). */
static void cpuset_create(struct cgroup *cg)
{
	struct cpuset_state *cs = cpuset_of(cg);
	if (!cg->parent) {
		cs->prs = cs->shown_prs = CPUSET_ROOT;
		cs->pool = cs->effective = CPUSET_ALL;
		cs->mems = true;
		return;
	}
	cs->pool = cs->effective = cpuset_of(cg->parent)->effective;
}

/* The parent stopped passing cpuset on: Linux frees the cpuset (a
 * partition gives its CPUs back) and the threads use the parent's; here
 * the defaults, which inherit (cg_lock held). */
static void cpuset_disable(struct cgroup *cg)
{
	struct cpuset_state *cs = cpuset_of(cg);
	cs->cpus = 0;
	cs->mems = false;
	cpuset_set_prs(cg, CPUSET_MEMBER, CPUSET_PERR_NONE);
	cpuset_update_locked(cg);
}

/* rmdir: a partition's CPUs go back to the parent (Linux's
 * cpuset_css_offline). cg is out of the tree already. */
static void cpuset_offline(struct cgroup *cg)
{
	cg_lock();
	if (cpuset_of(cg)->prs) {
		cpuset_of(cg)->prs = CPUSET_MEMBER;
		cpuset_update_locked(cg->parent);
	}
	cg_unlock();
}

/* Linux's cpuset_can_attach_check: no CPU to run on is -ENOSPC. */
static int cpuset_can_attach(struct cgroup *src, struct cgroup *dst)
{
	(void)src;
	return cpuset_of(dst)->effective & cpuset_online() ? 0 : -ENOSPC;
}

/* Linux's order of its dfl_files. */
static const struct cftype cpuset_files[] = {
	{ .name = "cpuset.cpus", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = cpuset_show_cpus, .write = cpuset_write_cpus },
	{ .name = "cpuset.mems", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = cpuset_show_mems, .write = cpuset_write_mems },
	{ .name = "cpuset.cpus.effective", .mode = 0444, .show = cpuset_show_cpus_effective },
	{ .name = "cpuset.mems.effective", .mode = 0444, .show = cpuset_show_mems_effective },
	{ .name = "cpuset.cpus.partition", .mode = 0644,
	  .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_CPUSET_PARTITION),
	  .show = cpuset_show_partition, .write = cpuset_write_partition },
};

struct cg_controller cg_cpuset = {
	.name = "cpuset",
	.threaded = true,
	.files = cpuset_files,
	.nfiles = ARRAY_SIZE(cpuset_files),
	.state_size = sizeof(struct cpuset_state),
	.create = cpuset_create,
	.disable = cpuset_disable,
	.offline = cpuset_offline,
	.can_attach = cpuset_can_attach,
};
