/* Host unit tests of the cgroup core (cgroup/): the tree, "populated",
 * the cgroup.* files (formats, presence, parsing and every errno), the
 * top-down and no-internal-process rules, thread mode, and the pids
 * controller. Prints TAP.
 *
 * The core builds without processes, the scheduler or the page
 * allocator, and links no stand-in for any of their functions: it reaches
 * the tasks in a cgroup and its files' watchers only through the hooks
 * it is given at cg_init (hooks.h), here a table of the test's own that
 * records what the files asked (cgroup.procs and cgroup.threads run the
 * core's real migration rules, cgfs_may_migrate, for a task in task_cg),
 * and the owners' parts of a cgroup are set up by the controllers' hooks.
 * The registry is this test's own: pids, plus a "memory" domain controller
 * (no interface files of its own, two core files, the page counter's
 * create and keep hooks), since the rules that concern domain
 * controllers need one. Threads are simulated by what the kernel does
 * when one joins or leaves a cgroup: the controllers' charge and
 * cg_threads_changed_locked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "cgns.h"
#include "controller.h"
#include "hooks.h"
#include "memory_stat.h"
#include "tap.h"

/* ---- the registry: pids (bit 0) and a domain controller (bit 1) ---- */

extern struct cg_controller cg_pids;

/* The stand-in keeps a word per cgroup and refuses threads into a cgroup
 * named "full" (as cpuset refuses one without CPUs). Like the kernel's
 * memory controller, it sets up the page counter embedded in each
 * cgroup (create) and keeps a removed cgroup while pages are charged to
 * it (keep; fake_uncharged is what the page allocator does when one
 * goes); and it has two core files, present in every cgroup enabled or
 * not, one of them a pressure file. */
static int fake_init(void *state)
{
	*(int *)state = 42;
	return 0;
}

static int fake_can_attach(struct cgroup *src, struct cgroup *dst)
{
	(void)src;
	return strcmp(dst->name, "full") == 0 ? -ENOSPC : 0;
}

static void fake_create(struct cgroup *cg)
{
	page_counter_init(&cg->memory, cg->parent ? &cg->parent->memory : NULL);
}

static bool fake_keep(struct cgroup *cg)
{
	cg->mem_kept = page_counter_read(&cg->memory) != 0;
	return cg->mem_kept;
}

static void fake_uncharged(struct cgroup *cg)
{
	if (page_counter_read(&cg->memory) == 0 && cg->mem_kept) {
		cg->mem_kept = false;
		cg_unkept(cg);
	}
}

static int released;

static void fake_release(struct cgroup *cg)
{
	(void)cg;
	released++;
}

static int fake_show_core(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "core (%s)\n", cg->name);
	return 0;
}

static const struct cftype fake_core_files[] = {
	{ .name = "memory.pressure", .mode = 0644, .flags = CFT_PRESSURE, .show = fake_show_core },
	{ .name = "memory.stat", .mode = 0444, .show = fake_show_core },
};

static struct cg_controller fake_memory = { .name = "memory", .threaded = false,
						  .state_size = sizeof(int), .state_init = fake_init,
						  .can_attach = fake_can_attach, .create = fake_create,
						  .keep = fake_keep, .release = fake_release,
						  .core_files = fake_core_files, .ncore_files = ARRAY_SIZE(fake_core_files) };
struct cg_controller *const cg_controllers[] = { &cg_pids, &fake_memory };
const unsigned cg_nr_controllers = 2;

/* ---- the kernel around the core: the test's cg_hooks ---- */

static int notified, killed, froze;
static struct cgroup *last_notified, *last_killed;

static unsigned last_which;

static void hook_notify_locked(struct cgroup *cg, unsigned which)
{
	last_which = which;
	notified++;
	last_notified = cg;
}

static int hook_show_procs(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "procs of %s\n", cg->name);
	return 0;
}

static int hook_show_threads(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "threads of %s\n", cg->name);
	return 0;
}

/* The cgroup of the task a write to cgroup.procs or cgroup.threads moves
 * (whatever its id): where the migration rules see it come from. */
static struct cgroup *task_cg = &cg_root;
static int64_t last_pid = -1;

static int hook_move_proc(struct cgroup *dst, int64_t pid, const struct k_cgwriter *w)
{
	last_pid = pid;
	return cgfs_may_migrate(task_cg, dst, w, false);
}

static int hook_move_thread(struct cgroup *dst, int64_t tid, const struct k_cgwriter *w)
{
	last_pid = tid;
	return cgfs_may_migrate(task_cg, dst, w, true);
}

static void hook_kill_subtree(struct cgroup *cg)
{
	killed++;
	last_killed = cg;
}

static void hook_freeze(struct cgroup *cg, bool on)
{
	froze++;
	cg->freeze = on;
}

/* No cpuset in this registry: nothing asks for these. */
static uint32_t hook_cpus_online(void)
{
	return 1;
}

static void hook_cpus_changed_locked(struct cgroup *cg, uint32_t cpus)
{
	(void)cg;
	(void)cpus;
}

static const struct cg_hooks test_hooks = {
	.show_procs = hook_show_procs, .show_threads = hook_show_threads,
	.move_proc = hook_move_proc, .move_thread = hook_move_thread,
	.kill_subtree = hook_kill_subtree, .freeze = hook_freeze, .notify_locked = hook_notify_locked,
	.cpus_online = hook_cpus_online, .cpus_changed_locked = hook_cpus_changed_locked,
};

/* ---- helpers ---- */

#include "cg_files.h"

/* A thread joins (+1) or leaves (-1) cg, as the kernel does it. */
static int thread_in(struct cgroup *cg)
{
	int err = cg_thread_charge(cg);
	if (!err) {
		cg_lock();
		cg_threads_changed_locked(cg, 1);
		cg_unlock();
	}
	return err;
}

static void thread_out(struct cgroup *cg)
{
	cg_lock();
	cg_threads_changed_locked(cg, -1);
	cg_unlock();
	cg_thread_uncharge(cg);
}

static bool populated(struct cgroup *cg)
{
	cg_lock();
	bool p = cg_populated_locked(cg);
	cg_unlock();
	return p;
}

/* ---- the tree ---- */

static void test_tree(void)
{
	struct cgroup *cg = NULL;
	char long_name[CG_NAME_MAX + 2];
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	ok(cg_create(&cg_root, "", &cg) == -EINVAL && cg_create(&cg_root, ".", &cg) == -EINVAL &&
	   cg_create(&cg_root, "..", &cg) == -EINVAL && cg_create(&cg_root, "a/b", &cg) == -EINVAL &&
	   cg_create(&cg_root, "a\nb", &cg) == -EINVAL && cg_create(&cg_root, long_name, &cg) == -EINVAL,
	   "mkdir: empty, dot, dotdot, slash, newline, 256 bytes: EINVAL");
	long_name[CG_NAME_MAX] = '\0';
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b"), *lng = mk(&cg_root, long_name);
	ok(cg_create(&cg_root, "a", &cg) == -EEXIST, "mkdir of an existing name: EEXIST");
	ok(cg_find_child(&cg_root, "a") == a && cg_find_child(a, "b") == b && !cg_find_child(a, "a"),
	   "lookup by name");
	ok(a->level == 1 && b->level == 2 && a->dom == a, "levels; a new cgroup is its own domain");
	char path[64];
	ok(cg_path(b, path, sizeof(path)) == 4 && strcmp(path, "/a/b") == 0 && cg_path(&cg_root, path, 8) == 1 &&
	   strcmp(path, "/") == 0 && cg_path(b, path, 3) == 4 && strcmp(path, "/a") == 0,
	   "cg_path: full, root, cut (length still counts all)");
	ok(is(&cg_root, "cgroup.stat", "nr_descendants 3\nnr_dying_descendants 0\n") &&
	   is(a, "cgroup.stat", "nr_descendants 1\nnr_dying_descendants 0\n"), "cgroup.stat counts descendants");
	ok(cg_destroy(a) == -EBUSY, "rmdir with a child: EBUSY");
	ok(thread_in(b) == 0 && cg_destroy(b) == -EBUSY, "rmdir with a thread: EBUSY");
	thread_out(b);
	cg_get(b); /* as an open file would */
	ok(cg_destroy(b) == 0 && cg_destroy(b) == -ENOENT && !cg_find_child(a, "b"), "rmdir; twice: ENOENT");
	ok(is(a, "cgroup.stat", "nr_descendants 0\nnr_dying_descendants 1\n"), "a removed cgroup is dying while held");
	ok(cg_create(b, "c", &cg) == -ENODEV, "mkdir in a removed cgroup: ENODEV");
	ok(wr(b, "cgroup.max.depth", "3") == -ENODEV && wr(b, "cgroup.procs", "1") == -ENODEV &&
	   wr(b, "cgroup.subtree_control", "+pids") == -ENODEV && wr(b, "cgroup.type", "threaded") == -ENODEV &&
	   wr(b, "cgroup.freeze", "1") == -ENODEV && wr(b, "cgroup.kill", "1") == -ENODEV,
	   "writes to a removed cgroup's files: ENODEV, every file (kernfs refuses them)");
	cg_put(b);
	ok(is(a, "cgroup.stat", "nr_descendants 0\nnr_dying_descendants 0\n"), "gone with its last reference");
	struct cgroup *c1 = mk(a, "z"), *c2 = mk(a, "y");
	cg_lock();
	bool order = cg_child_from(a, 0) == c1 && cg_child_from(a, c1->id + 1) == c2 && !cg_child_from(a, c2->id + 1);
	cg_unlock();
	ok(order, "children resume by id, in creation order");
	ok(cg_destroy(c1) == 0 && cg_destroy(c2) == 0 && cg_destroy(a) == 0 && cg_destroy(lng) == 0 &&
	   cg_destroy(&cg_root) == -EINVAL, "all removed; the root cannot be: EINVAL");
}

static void test_limits(void)
{
	struct cgroup *cg;
	struct cgroup *a = mk(&cg_root, "a");
	ok(is(a, "cgroup.max.depth", "max\n") && is(a, "cgroup.max.descendants", "max\n") &&
	   is(&cg_root, "cgroup.max.depth", "max\n"), "cgroup.max.*: 'max' by default, the root has them");
	ok(wr(a, "cgroup.max.descendants", "x") == -EINVAL && wr(a, "cgroup.max.descendants", "-1") == -ERANGE &&
	   wr(a, "cgroup.max.descendants", "2147483648") == -ERANGE && wr(a, "cgroup.max.descendants", "1 2") == -EINVAL &&
	   is(a, "cgroup.max.descendants", "max\n"), "junk EINVAL, negative or past INT_MAX ERANGE, nothing changed");
	ok(wr(a, "cgroup.max.descendants", " 0x1\n") == 0 && is(a, "cgroup.max.descendants", "1\n"),
	   "whitespace stripped, C bases");
	struct cgroup *b = mk(a, "b");
	ok(cg_create(a, "c", &cg) == -EAGAIN && cg_create(b, "c", &cg) == -EAGAIN, "max.descendants 1: EAGAIN, deeper too");
	ok(wr(a, "cgroup.max.descendants", "max") == 0 && wr(a, "cgroup.max.depth", "1") == 0 &&
	   cg_create(b, "c", &cg) == -EAGAIN && cg_create(a, "c", &cg) == 0, "max.depth 1: a grandchild EAGAIN, a child fine");
	ok(wr(a, "cgroup.max.depth", "0") == 0 && cg_destroy(cg) == 0, "lowering below the count is accepted");
	ok(cg_destroy(b) == 0 && cg_destroy(a) == 0, "removed");
}

/* ---- files ---- */

static void test_files(void)
{
	struct cgroup *a = mk(&cg_root, "a");
	ok(!cgfs_cft_find(&cg_root, "cgroup.events") && !cgfs_cft_find(&cg_root, "cgroup.freeze") &&
	   !cgfs_cft_find(&cg_root, "cgroup.kill") && !cgfs_cft_find(&cg_root, "cgroup.type") &&
	   cgfs_cft_find(&cg_root, "cgroup.threads") && cgfs_cft_find(&cg_root, "cgroup.procs"),
	   "the root has no events, freeze, kill or type file");
	const char *names[] = { "cgroup.controllers", "cgroup.events", "cgroup.freeze", "cgroup.kill",
				"cgroup.max.depth", "cgroup.max.descendants", "cgroup.pressure", "cgroup.procs",
				"cgroup.stat", "cgroup.subtree_control", "cgroup.threads", "cgroup.type",
				"memory.pressure", "memory.stat" };
	const uint16_t modes[] = { 0444, 0444, 0644, 0200, 0644, 0644, 0644, 0644, 0444, 0644, 0644, 0644, 0644, 0444 };
	bool all = true;
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
		const struct cftype *f = cgfs_cft_at(a, i);
		all &= f && strcmp(f->name, names[i]) == 0 && f->mode == modes[i];
	}
	ok(all && !cgfs_cft_at(a, ARRAY_SIZE(names)), "a child's files, in order, with Linux's modes");
	ok(is(&cg_root, "cgroup.controllers", "pids memory\n") && is(a, "cgroup.controllers", "") &&
	   is(a, "cgroup.subtree_control", ""), "controllers: all at the root; empty lists read as 0 bytes");
	ok(is(a, "cgroup.events", "populated 0\nfrozen 0\n") && is(a, "cgroup.freeze", "0\n") &&
	   is(a, "cgroup.type", "domain\n"), "events, freeze and type of a new cgroup");
	ok(is(a, "cgroup.pressure", "1\n") && is(a, "memory.pressure", "core (a)\n") && wr(a, "cgroup.pressure", "2") == -ERANGE &&
	   wr(a, "cgroup.pressure", "x") == -EINVAL && wr(a, "cgroup.pressure", "0") == 0 &&
	   !cgfs_cft_find(a, "memory.pressure") && !cgfs_cft_at(a, 13) && cgfs_cft_find(a, "memory.stat") &&
	   is(a, "cgroup.pressure", "0\n") && wr(a, "cgroup.pressure", "1") == 0 && cgfs_cft_find(a, "memory.pressure"),
	   "cgroup.pressure 0 hides the pressure files, 1 shows them; 2 ERANGE, junk EINVAL");
	ok(is(a, "memory.stat", "core (a)\n") && is(&cg_root, "memory.stat", "core ()\n") &&
	   is(&cg_root, "memory.pressure", "core ()\n") && !cgfs_cft_find(a, "memory.stats") &&
	   !cgfs_cft_find(a, "memory.max"),
	   "a controller's core files are in every cgroup (the root too), enabled or not");
	ok(is(a, "cgroup.kill", "<-22>") && wr(a, "cgroup.stat", "1") == -EINVAL &&
	   wr(a, "cgroup.events", "") == 0, "reading write-only, writing read-only: EINVAL; zero-length writes: 0");
	char nul[] = "12\0x";
	ok(cgfs_write(a, cgfs_cft_find(a, "cgroup.procs"), nul, 4, &root_writer, NULL) == -EINVAL,
	   "a NUL inside a write: EINVAL");
	ok(wr(a, "cgroup.procs", "abc") == -EINVAL && wr(a, "cgroup.procs", "-1") == -EINVAL &&
	   wr(a, "cgroup.procs", "2147483648") == -EINVAL && wr(a, "cgroup.procs", "99999999999999999999") == -EINVAL &&
	   wr(a, "cgroup.procs", "1 2") == -EINVAL && last_pid == -1, "cgroup.procs: junk, negative, too large, two pids: EINVAL");
	task_cg = a; /* a thread moves only inside its domain */
	ok(wr(a, "cgroup.procs", " 42\n") == 0 && last_pid == 42 && wr(a, "cgroup.threads", "0") == 0 && last_pid == 0,
	   "cgroup.procs and cgroup.threads take one id (0: the writer)");
	task_cg = &cg_root;
	ok(wr(a, "cgroup.freeze", "2") == -ERANGE && wr(a, "cgroup.freeze", "x") == -EINVAL && froze == 0 &&
	   wr(a, "cgroup.freeze", "1") == 0 && froze == 1 && is(a, "cgroup.freeze", "1\n") && wr(a, "cgroup.freeze", "0") == 0,
	   "cgroup.freeze: 0 or 1, ERANGE for other integers, EINVAL for junk");
	ok(wr(a, "cgroup.kill", "2") == -ERANGE && wr(a, "cgroup.kill", "y") == -EINVAL && killed == 0 &&
	   wr(a, "cgroup.kill", "1") == 0 && killed == 1 && last_killed == a, "cgroup.kill: only 1");
	ok(wr(a, "cgroup.type", "domain") == -EINVAL && wr(a, "cgroup.type", "threadedx") == -EINVAL &&
	   is(a, "cgroup.type", "domain\n"), "cgroup.type: only 'threaded' (EINVAL)");
	ok(cg_destroy(a) == 0, "removed");
}

static void test_populated(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b"), *c = mk(b, "c");
	uint64_t sa = a->notify_seq[CG_NOTIFY_EVENTS], sc = c->notify_seq[CG_NOTIFY_EVENTS], sb;
	notified = 0;
	ok(thread_in(c) == 0 && populated(c) && populated(b) && populated(a) && is(a, "cgroup.events", "populated 1\nfrozen 0\n"),
	   "a thread makes its cgroup and every ancestor populated");
	ok(notified == 4 && a->notify_seq[CG_NOTIFY_EVENTS] == sa + 1 && c->notify_seq[CG_NOTIFY_EVENTS] == sc + 1 &&
	   last_which == CG_NOTIFY_EVENTS, "each flip notifies cgroup.events once (root too)");
	sb = b->notify_seq[CG_NOTIFY_EVENTS];
	ok(thread_in(b) == 0 && notified == 4 && b->notify_seq[CG_NOTIFY_EVENTS] == sb, "a second thread flips nothing");
	thread_out(c);
	ok(!populated(c) && populated(b) && populated(a) && notified == 5, "one leaves: only its cgroup flips");
	thread_out(b);
	ok(!populated(b) && !populated(a) && is(a, "cgroup.events", "populated 0\nfrozen 0\n") && notified == 8,
	   "the last one leaves: the flips climb");
	ok(cg_destroy(c) == 0 && cg_destroy(b) == 0 && cg_destroy(a) == 0, "removed");
}

/* "frozen": every live thread below parked (the kernel's freezer parks
 * them and counts nr_parked up the tree; here we count by hand). */
static void test_frozen(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b");
	ok(thread_in(b) == 0 && thread_in(b) == 0, "two threads below");
	cg_lock();
	a->freeze = a->e_freeze = b->e_freeze = true;
	a->nr_parked = b->nr_parked = 1;
	cg_frozen_update_locked(b);
	cg_unlock();
	ok(!a->frozen && !b->frozen && is(a, "cgroup.events", "populated 1\nfrozen 0\n"), "one of two parked: not frozen");
	uint64_t seq = a->notify_seq[CG_NOTIFY_EVENTS];
	thread_out(b);
	ok(a->frozen && b->frozen && is(a, "cgroup.events", "populated 1\nfrozen 1\n") &&
	   a->notify_seq[CG_NOTIFY_EVENTS] == seq + 1, "the other one ends: frozen, and notified");
	ok(thread_in(b) == 0 && !a->frozen && !b->frozen, "a new thread there: not frozen until it parks");
	thread_out(b);
	cg_lock();
	a->nr_parked = b->nr_parked = 0;
	cg_unlock();
	thread_out(b);
	ok(a->frozen && is(b, "cgroup.events", "populated 0\nfrozen 1\n"), "an empty freezing cgroup is frozen");
	cg_lock();
	a->freeze = a->e_freeze = b->e_freeze = false;
	cg_frozen_update_locked(b);
	cg_unlock();
	ok(!a->frozen && !b->frozen && cg_destroy(b) == 0 && cg_destroy(a) == 0, "thawed; removed");
}

/* ---- subtree_control and the no-internal-process rule ---- */

static void test_subtree_control(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b");
	ok(wr(a, "cgroup.subtree_control", "+pids") == -ENOENT, "enabling what the parent lacks: ENOENT");
	ok(wr(&cg_root, "cgroup.subtree_control", "+nosuch") == -EINVAL && wr(&cg_root, "cgroup.subtree_control", "pids") == -EINVAL &&
	   wr(&cg_root, "cgroup.subtree_control", "+pids +") == -EINVAL && wr(&cg_root, "cgroup.subtree_control", "+pids +nosuch") == -EINVAL &&
	   wr(&cg_root, "cgroup.subtree_control", "+pids\t+memory") == -EINVAL &&
	   wr(&cg_root, "cgroup.subtree_control", "+pids\n+memory") == -EINVAL &&
	   is(&cg_root, "cgroup.subtree_control", ""), "unknown names, tokens without +/-: EINVAL, all or nothing");
	ok(wr(&cg_root, "cgroup.subtree_control", "  +pids   -pids  +memory +pids\n") == 0 &&
	   is(&cg_root, "cgroup.subtree_control", "pids memory\n") && is(a, "cgroup.controllers", "pids memory\n"),
	   "the last token per controller wins; extra spaces are fine; shown in registry order");
	ok(wr(&cg_root, "cgroup.subtree_control", "+pids") == 0 && wr(a, "cgroup.subtree_control", "-pids") == 0,
	   "enabling an enabled or disabling a disabled controller: a silent success");
	ok(cgfs_cft_find(a, "pids.max") && !cgfs_cft_find(&cg_root, "pids.max") && !cgfs_cft_find(b, "pids.max"),
	   "controller files appear where the parent enables them (never in the root)");
	bool found = true;
	const struct cftype *f;
	for (unsigned i = 0; (f = cgfs_cft_at(a, i)); i++) {
		const char *prefix = strncmp(f->name, "pids.", 5) == 0 ? "pids." : strncmp(f->name, "cpu.", 4) == 0 ? "cpu." :
				     strncmp(f->name, "memory.", 7) == 0 ? "memory." :
				     strncmp(f->name, "io.", 3) == 0 ? "io." : "cgroup.";
		found &= strncmp(f->name, prefix, strlen(prefix)) == 0 && cgfs_cft_find(a, f->name) == f;
	}
	ok(found && !cgfs_cft_find(a, "cgroup.") && !cgfs_cft_find(a, "cgroup") && !cgfs_cft_find(a, "pids.maxx") &&
	   !cgfs_cft_find(a, "memory.max") && !cgfs_cft_find(a, ".procs") && !cgfs_cft_find(a, "cgroup.procs."),
	   "every file is PREFIX.* and found by name; near misses are not");
	ok(wr(a, "cgroup.subtree_control", "+pids") == 0 && wr(&cg_root, "cgroup.subtree_control", "-pids") == -EBUSY,
	   "disabling what a child still passes on: EBUSY");
	ok(thread_in(a) == 0 && is(a, "cgroup.type", "domain threaded\n") &&
	   wr(a, "cgroup.subtree_control", "+memory") == -EOPNOTSUPP,
	   "threads and a threaded controller make a thread root: no domain controller (EOPNOTSUPP)");
	ok(wr(a, "cgroup.subtree_control", "-pids") == 0 && is(a, "cgroup.type", "domain\n") &&
	   wr(a, "cgroup.subtree_control", "+memory") == -EBUSY, "a domain controller on a cgroup with threads: EBUSY");
	thread_out(a);
	ok(wr(a, "cgroup.subtree_control", "+memory") == 0 && wr(a, "cgroup.procs", "5") == -EBUSY &&
	   wr(a, "cgroup.subtree_control", "+pids") == 0 && wr(a, "cgroup.procs", "5") == -EBUSY,
	   "and the other way round: no process may enter (EBUSY)");
	ok(wr(b, "cgroup.procs", "5") == 0 && wr(&cg_root, "cgroup.procs", "5") == 0,
	   "a leaf takes processes; the root is exempt");
	ok(thread_in(&cg_root) == 0 && wr(&cg_root, "cgroup.subtree_control", "+memory") == 0, "the root may have both");
	thread_out(&cg_root);
	ok(wr(a, "cgroup.subtree_control", "-memory -pids") == 0 && wr(a, "cgroup.subtree_control", "+pids") == 0 &&
	   thread_in(b) == 0 && wr(a, "cgroup.procs", "5") == -EBUSY, "nor with only a threaded one and a populated domain child");
	thread_out(b);
	ok(wr(a, "cgroup.subtree_control", "-pids") == 0 && wr(&cg_root, "cgroup.subtree_control", "-pids -memory") == 0 &&
	   cg_destroy(b) == 0 && cg_destroy(a) == 0, "off again top-down; removed");
}

/* ---- thread mode ---- */

static void test_threaded(void)
{
	struct cgroup *r = mk(&cg_root, "r"), *t = mk(r, "t"), *d = mk(r, "d");
	ok(wr(&cg_root, "cgroup.subtree_control", "+pids +memory") == 0, "both controllers below the root");
	ok(wr(r, "cgroup.subtree_control", "+memory") == 0 && wr(t, "cgroup.type", "threaded") == -EOPNOTSUPP,
	   "a parent with a domain controller cannot be a thread root: EOPNOTSUPP");
	ok(wr(r, "cgroup.subtree_control", "-memory") == 0 && thread_in(d) == 0 && wr(t, "cgroup.type", "threaded") == -EOPNOTSUPP,
	   "nor one with populated domain children");
	thread_out(d);
	ok(thread_in(t) == 0 && wr(t, "cgroup.type", "threaded") == -EOPNOTSUPP, "a populated cgroup cannot turn threaded");
	thread_out(t);
	ok(wr(t, "cgroup.type", "threaded") == 0 && is(t, "cgroup.type", "threaded\n") && t->dom == r &&
	   is(r, "cgroup.type", "domain threaded\n") && is(d, "cgroup.type", "domain invalid\n"),
	   "threaded; its parent is the thread root, a domain sibling invalid");
	ok(wr(r, "cgroup.subtree_control", "+memory") == -EOPNOTSUPP && wr(r, "cgroup.subtree_control", "+pids") == 0,
	   "a thread root enables threaded controllers only (EOPNOTSUPP)");
	ok(wr(d, "cgroup.procs", "7") == -EOPNOTSUPP && wr(d, "cgroup.subtree_control", "+pids") == -EOPNOTSUPP,
	   "a domain invalid cgroup takes no process and no controller: EOPNOTSUPP");
	ok(is(t, "cgroup.controllers", "pids\n") && cgfs_cft_find(t, "pids.max"), "a threaded cgroup sees threaded controllers");
	ok(wr(t, "cgroup.subtree_control", "+memory") == -ENOENT && wr(t, "cgroup.subtree_control", "+pids") == 0,
	   "and can pass on only those");
	struct cgroup *u = mk(t, "u");
	ok(is(u, "cgroup.type", "domain invalid\n") && wr(u, "cgroup.type", "threaded") == 0 && u->dom == r,
	   "below a threaded cgroup: invalid until threaded, then in the same domain");
	ok(wr(u, "cgroup.procs", "7") == 0 && wr(r, "cgroup.procs", "7") == 0, "threaded cgroups and the thread root take processes");
	ok(thread_in(u) == 0 && thread_in(r) == 0 && is(u, "cgroup.procs", "<-95>") && is(r, "cgroup.procs", "procs of r\n"),
	   "cgroup.procs of a threaded cgroup: EOPNOTSUPP");
	ok(wr(u, "cgroup.kill", "1") == -EOPNOTSUPP, "cgroup.kill of a threaded cgroup: EOPNOTSUPP");
	ok(is(t, "pids.current", "1\n") && is(r, "pids.current", "2\n"), "pids counts threads where they are");
	thread_out(u);
	thread_out(r);
	ok(is(r, "cgroup.type", "domain threaded\n"), "a thread root stays one while it has threaded children");
	ok(wr(t, "cgroup.subtree_control", "-pids") == 0 && cg_destroy(u) == 0 && cg_destroy(t) == 0 &&
	   is(r, "cgroup.type", "domain\n") && is(d, "cgroup.type", "domain\n"), "without them it is a plain domain again");
	ok(thread_in(r) == 0 && is(r, "cgroup.type", "domain threaded\n") && is(d, "cgroup.type", "domain invalid\n"),
	   "threads of its own with a threaded controller on also make it a thread root");
	ok(wr(d, "cgroup.type", "threaded") == 0 && is(d, "cgroup.type", "threaded\n"), "which can take threaded children");
	thread_out(r);
	ok(wr(r, "cgroup.subtree_control", "-pids") == 0 && cg_destroy(d) == 0 && cg_destroy(r) == 0, "removed");
	struct cgroup *m = mk(&cg_root, "m"), *mt = mk(&cg_root, "mt");
	ok(thread_in(m) == 0 && wr(mt, "cgroup.type", "threaded") == 0 && is(&cg_root, "cgroup.type", "<-2>") &&
	   is(m, "cgroup.type", "domain\n") && wr(m, "cgroup.procs", "3") == 0, "the root is mixable: domain and threaded children");
	thread_out(m);
	ok(wr(&cg_root, "cgroup.subtree_control", "-pids -memory") == 0 && cg_destroy(m) == 0 && cg_destroy(mt) == 0,
	   "removed");
}

/* ---- pids ---- */

static void test_pids(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b");
	ok(wr(&cg_root, "cgroup.subtree_control", "+pids") == 0 && wr(a, "cgroup.subtree_control", "+pids") == 0 &&
	   is(a, "pids.max", "max\n") && is(b, "pids.current", "0\n"), "pids.max max, pids.current 0");
	ok(wr(a, "pids.max", "x") == -EINVAL && wr(a, "pids.max", "-1") == -EINVAL && wr(a, "pids.max", "4194305") == -EINVAL &&
	   wr(a, "pids.max", "99999999999999999999") == -ERANGE && wr(a, "pids.max", "-99999999999999999999") == -ERANGE &&
	   wr(a, "pids.max", "4194304") == 0 && wr(a, "pids.max", " 2\n") == 0 && is(a, "pids.max", "2\n"),
	   "pids.max: junk, negative, past PID_MAX_LIMIT: EINVAL; past 64 bits: ERANGE");
	ok(thread_in(b) == 0 && thread_in(b) == 0 && a->notify_seq[CG_NOTIFY_PIDS_EVENTS] == 0 && thread_in(b) == -EAGAIN &&
	   thread_in(a) == -EAGAIN, "an ancestor at its limit refuses: EAGAIN, here and below");
	ok(a->notify_seq[CG_NOTIFY_PIDS_EVENTS] == 2 && a->notify_seq[CG_NOTIFY_PIDS_EVENTS_LOCAL] == 2 &&
	   cg_root.notify_seq[CG_NOTIFY_PIDS_EVENTS] >= 2 && b->notify_seq[CG_NOTIFY_PIDS_EVENTS] == 0 &&
	   a->notify_seq[CG_NOTIFY_EVENTS] == 1, "each refusal notifies pids.events up the tree, .local where it was refused");
	ok(is(a, "pids.events", "max 2\n") && is(a, "pids.events.local", "max 2\n") && is(b, "pids.events", "max 0\n") &&
	   is(b, "pids.current", "2\n") && is(a, "pids.current", "2\n"), "the limiting cgroup counts the refusals");
	ok(wr(a, "pids.max", "1") == 0 && is(b, "pids.current", "2\n"), "lowering below the count never fails");
	thread_out(b);
	thread_out(b);
	ok(is(a, "pids.current", "0\n") && is(a, "pids.peak", "2\n"), "uncharged; the peak stays");
	ok(wr(a, "pids.max", "max") == 0 && thread_in(b) == 0, "'max' lifts it");
	thread_out(b);
	ok(wr(a, "cgroup.subtree_control", "-pids") == 0 && wr(&cg_root, "cgroup.subtree_control", "-pids") == 0 &&
	   cg_destroy(b) == 0 && cg_destroy(a) == 0, "removed");
}

/* ---- the controller interface: state and vetoes ---- */

static void test_controller_hooks(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *full = mk(&cg_root, "full");
	ok(*(int *)cg_state(a, &fake_memory) == 42 && *(int *)cg_state(&cg_root, &fake_memory) == 42 &&
	   cg_state(a, &cg_pids) != cg_state(&cg_root, &cg_pids), "every cgroup gets each controller's own state");
	cg_lock();
	int to_a = cg_can_attach(full, a), to_full = cg_can_attach(a, full);
	cg_unlock();
	ok(to_a == 0 && to_full == -ENOSPC, "can_attach vetoes pass through");
	ok(cg_destroy(a) == 0 && cg_destroy(full) == 0, "removed (states freed: ASan would tell)");
}

/* A removed cgroup with pages still charged to it stays (dying) until
 * the last is uncharged, so a page never uncharges freed memory. */
static void test_pinned_by_pages(void)
{
	struct cgroup *a = mk(&cg_root, "a");
	int was_released = released;
	ok(page_counter_try_charge(&a->memory, 3, NULL) && page_counter_read(&cg_root.memory) >= 3,
	   "three pages charged to a (and so to the root: the create hook linked the counters)");
	ok(cg_destroy(a) == 0 && is(&cg_root, "cgroup.stat", "nr_descendants 0\nnr_dying_descendants 1\n"),
	   "rmdir: it is gone from the tree, but dying while its pages are charged");
	page_counter_uncharge(&a->memory, 2);
	fake_uncharged(a);
	ok(is(&cg_root, "cgroup.stat", "nr_descendants 0\nnr_dying_descendants 1\n") && released == was_released,
	   "two of them freed: still dying (kept), not released");
	page_counter_uncharge(&a->memory, 1);
	fake_uncharged(a);
	ok(is(&cg_root, "cgroup.stat", "nr_descendants 0\nnr_dying_descendants 0\n") && released == was_released + 1,
	   "the last one: the keeper lets go, the release hook runs, freed (ASan checks)");
}

/* ---- memory.stat's format (cgroup/controllers/memory_stat.c) ---- */

/* The value after "\nkey " (or at the start) in text, or -1. */
static long long stat_value(const char *text, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text; (p = strstr(p, key)); p++)
		if ((p == text || p[-1] == '\n') && p[k] == ' ')
			return atoll(p + k + 1);
	return -1;
}

static void test_memory_stat(void)
{
	char text[4096];
	struct cgfs_buf out = { text, 0, sizeof(text) };
	int64_t sum[MEMCG_NR_STATS_ALL] = { 0 };
	sum[MEMCG_STAT_ANON] = 10;
	sum[MEMCG_STAT_SHMEM] = 2;
	sum[MEMCG_STAT_KERNEL_STACK] = 8;
	sum[MEMCG_STAT_PAGETABLES] = 3;
	sum[MEMCG_STAT_SLAB] = 5;
	sum[MEMCG_STAT_KERNEL_OTHER] = 4;
	sum[MEMCG_STAT_PERCPU] = 2;
	sum[MEMCG_STAT_PERCPU_B] = 4100;
	sum[MEMCG_STAT_PGFAULT] = 77;
	memcg_stat_format(&out, sum);
	text[out.len] = '\0';
	const char *first = "anon 40960\nfile 8192\nkernel 90112\nkernel_stack 32768\npagetables 12288\n"
			    "sec_pagetables 0\npercpu 4100\nsock 0\nvmalloc 0\nshmem 8192\nzswap 0\n";
	ok(strncmp(text, first, strlen(first)) == 0,
	   "the first keys in Linux's order, in bytes; kernel = stacks + tables + slab + percpu pages + other; "
	   "percpu in bytes");
	ok(stat_value(text, "slab_unreclaimable") == 20480 && stat_value(text, "slab") == 20480 &&
	   stat_value(text, "slab_reclaimable") == 0 && stat_value(text, "unevictable") == 49152,
	   "slab is the unreclaimable heap pages; unevictable = anon + file");
	ok(stat_value(text, "pgfault") == 77 && stat_value(text, "pgmajfault") == 0 && stat_value(text, "pgscan") == 0 &&
	   stat_value(text, "workingset_nodereclaim") == 0 && stat_value(text, "thp_collapse_alloc") == 0,
	   "pgfault is a count; what Arbor lacks is there as 0");
	ok(strstr(text, "slab 20480\nworkingset_refault_anon 0\n") && strstr(text, "pgsteal_direct 0\npgfault 77\n") &&
	   strcmp(text + strlen(text) - 21, "thp_collapse_alloc 0\n") == 0, "slab after the slab lines, events last");
	sum[MEMCG_STAT_ACTIVE_ANON] = 1;
	sum[MEMCG_STAT_INACTIVE_ANON] = 1;
	sum[MEMCG_STAT_INACTIVE_FILE] = 2;
	sum[MEMCG_STAT_ACTIVE_FILE] = 1;
	sum[MEMCG_STAT_FILE_DIRTY] = 2;
	out.len = 0;
	memcg_stat_format(&out, sum);
	text[out.len] = '\0';
	ok(stat_value(text, "file") == 2 * 4096 && stat_value(text, "shmem") == 2 * 4096 &&
	   stat_value(text, "active_anon") == 4096 && stat_value(text, "inactive_anon") == 4096 &&
	   stat_value(text, "inactive_file") == 8192 && stat_value(text, "active_file") == 4096 &&
	   stat_value(text, "file_dirty") == 8192 && stat_value(text, "unevictable") == 40960,
	   "file counts shmem; the LRU lists' lengths; shmem on an LRU list is not unevictable");
	sum[MEMCG_STAT_ANON] = -1; /* a dying cgroup's late change, caught mid-way */
	out.len = 0;
	memcg_stat_format(&out, sum);
	text[out.len] = '\0';
	ok(stat_value(text, "anon") == 0, "a sum caught below 0 reads 0");
	int64_t from[MEMCG_NR_STATS] = { 1, 2, 3 }, to[MEMCG_NR_STATS] = { 10, 0, 0, 0, 0, 0, 5 };
	memcg_stat_move(from, to, MEMCG_NR_STATS);
	ok(from[0] == 0 && from[1] == 0 && from[2] == 0 && to[0] == 11 && to[1] == 2 && to[2] == 3 && to[6] == 5,
	   "a removed cgroup's counts move to its ancestor");
}

/* ---- the migration rules (cgfs_may_migrate), as a write sees them ---- */

static void test_migrate_rules(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *x = mk(a, "x"), *y = mk(a, "y"), *full = mk(&cg_root, "full");
	const struct k_cgwriter user = { .pid = 9, .uid = 1000, .gid = 1000, .tid = 9 };
	const struct cftype *procs = cgfs_cft_find(a, "cgroup.procs");
	task_cg = x;
	ok(cgfs_set_attr(y, cgfs_cft_find(y, "cgroup.procs"), 1000, 1000, -1) == 0 &&
	   cgfs_write(y, cgfs_cft_find(y, "cgroup.procs"), (char[]){ "0" }, 1, &user, NULL) == -EACCES,
	   "a user's move needs write access to the common ancestor's cgroup.procs, not only dst's: EACCES");
	ok(cgfs_set_attr(a, procs, 1000, -1, -1) == 0 &&
	   cgfs_write(y, cgfs_cft_find(y, "cgroup.procs"), (char[]){ "0" }, 1, &user, NULL) == 0,
	   "with the subtree delegated to the user (a's cgroup.procs), the move is allowed");
	ok(cgfs_write(&cg_root, cgfs_cft_find(&cg_root, "cgroup.procs"), (char[]){ "0" }, 1, &user, NULL) == -EACCES,
	   "but not out of the delegated subtree (the root's cgroup.procs): EACCES");
	ok(cgfs_write(full, cgfs_cft_find(full, "cgroup.procs"), (char[]){ "0" }, 1, &root_writer, NULL) == -ENOSPC,
	   "a controller's can_attach veto fails the write (root too)");
	ok(wr(y, "cgroup.threads", "0") == -EOPNOTSUPP, "a thread alone cannot change resource domains: EOPNOTSUPP");
	task_cg = &cg_root;
	ok(cg_destroy(x) == 0 && cg_destroy(y) == 0 && cg_destroy(a) == 0 && cg_destroy(full) == 0, "removed");
}

/* ---- cgroup namespaces: paths from a namespace's root, nsdelegate ---- */

static void test_namespaces(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b"), *c = mk(a, "c"), *d = mk(b, "d");
	char buf[64];
	ok(cgns_rel_path(b, b, buf, sizeof(buf)) == 1 && strcmp(buf, "/") == 0, "a namespace's root is /");
	ok(cgns_rel_path(d, b, buf, sizeof(buf)) == 2 && strcmp(buf, "/d") == 0, "below the root: its path from it");
	ok(cgns_rel_path(c, b, buf, sizeof(buf)) == 5 && strcmp(buf, "/../c") == 0, "a sibling: /../c (Linux's)");
	ok(cgns_rel_path(&cg_root, d, buf, sizeof(buf)) == 9 && strcmp(buf, "/../../..") == 0,
	   "the hierarchy's root from three levels down: /../../..");
	ok(cgns_rel_path(d, &cg_root, buf, sizeof(buf)) == 6 && strcmp(buf, "/a/b/d") == 0,
	   "from the initial namespace: the full path");
	ok(cgns_rel_path(c, d, buf, 4) == 8 && strcmp(buf, "/..") == 0, "cut to the room, the whole length returned");
	uint64_t in_b = cg_dir_ino(b) + 1;
	const struct k_cgwriter inside = { .pid = 1, .uid = 0, .gid = 0, .tid = 1, .ns_root = in_b };
	task_cg = c;
	ok(cgfs_write(d, cgfs_cft_find(d, "cgroup.procs"), (char[]){ "0" }, 1, &inside, NULL) == 0,
	   "without nsdelegate a namespace is no boundary: a move from outside it is allowed");
	cgns_set_nsdelegate(true);
	task_cg = c;
	ok(cgfs_write(d, cgfs_cft_find(d, "cgroup.procs"), (char[]){ "0" }, 1, &inside, NULL) == -ENOENT,
	   "nsdelegate: a move from outside the writer's namespace: ENOENT");
	task_cg = d;
	ok(cgfs_write(c, cgfs_cft_find(c, "cgroup.procs"), (char[]){ "0" }, 1, &inside, NULL) == -ENOENT,
	   "nsdelegate: a move out of it: ENOENT");
	ok(cgfs_write(b, cgfs_cft_find(b, "cgroup.procs"), (char[]){ "0" }, 1, &inside, NULL) == 0,
	   "nsdelegate: within it, into its root's own cgroup.procs (delegatable): allowed");
	ok(cgfs_write(b, cgfs_cft_find(b, "cgroup.max.depth"), (char[]){ "5" }, 1, &inside, NULL) == -EPERM,
	   "nsdelegate: the root's own cgroup.max.depth from inside: EPERM");
	ok(cgfs_write(d, cgfs_cft_find(d, "cgroup.max.depth"), (char[]){ "5" }, 1, &inside, NULL) == 0,
	   "nsdelegate: a cgroup below the root: writable");
	ok(cgfs_write(b, cgfs_cft_find(b, "cgroup.max.depth"), (char[]){ "5" }, 1, &root_writer, NULL) == 0,
	   "nsdelegate: the same file from the initial namespace: writable");
	char del[256];
	struct cgfs_buf out = { .buf = del, .cap = sizeof(del) };
	cgfs_delegatable(&out);
	del[out.len] = '\0';
	ok(strcmp(del, "cgroup.procs\ncgroup.threads\ncgroup.subtree_control\n") == 0,
	   "the delegatable core files, in Linux's order (this registry has no memory controller)");
	cgns_set_nsdelegate(false);
	task_cg = &cg_root;
	ok(cgfs_write(&cg_root, cgfs_cft_find(&cg_root, "cgroup.procs"), (char[]){ "0" }, 1, &root_writer, NULL) == 0 &&
	   cg_destroy(d) == 0 && cg_destroy(c) == 0 && cg_destroy(b) == 0 && cg_destroy(a) == 0, "removed");
}

/* ---- ownership ---- */

static void test_attrs(void)
{
	struct cgroup *a = mk(&cg_root, "a");
	const struct cftype *procs = cgfs_cft_find(a, "cgroup.procs"), *max = cgfs_cft_find(a, "cgroup.max.depth");
	ok(cgfs_may_write(a, procs, 0, 0) && !cgfs_may_write(a, procs, 1000, 1000), "root may write; others may not");
	ok(cgfs_set_attr(a, procs, 1000, -1, -1) == 0 && cgfs_may_write(a, procs, 1000, 5) && !cgfs_may_write(a, max, 1000, 5),
	   "chown of one file gives that file only");
	ok(cgfs_set_attr(a, max, -1, 50, 0664) == 0 && cgfs_may_write(a, max, 7, 50) && !cgfs_may_write(a, max, 7, 51),
	   "chgrp and chmod g+w");
	uint32_t uid, gid;
	uint16_t mode;
	cg_lock();
	cgfs_cft_attr(a, max, &uid, &gid, &mode);
	cg_unlock();
	ok(uid == 0 && gid == 50 && mode == 0664, "stat shows the changed owner and mode");
	ok(cgfs_set_attr(a, NULL, 1000, 1000, 0700) == 0 && a->uid == 1000 && a->mode == 0700, "the directory's own");
	ok(cg_destroy(a) == 0, "removed (its attributes freed)");
}

int main(void)
{
	cg_init(&test_hooks);
	test_tree();
	test_limits();
	test_files();
	test_populated();
	test_frozen();
	test_subtree_control();
	test_threaded();
	test_pids();
	test_controller_hooks();
	test_pinned_by_pages();
	test_attrs();
	test_migrate_rules();
	test_namespaces();
	test_memory_stat();
	ok(cg_root.nr_descendants == 0 && cg_root.nr_dying_descendants == 0 && cg_root.nr_threads_tree == 0,
	   "nothing left over");
	return tap_done();
}
