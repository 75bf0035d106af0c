/* Host unit tests of the cpuset controller (cgroup/controllers/cpuset.c)
 * on the real cgroup core: Linux's list syntax and errnos, the files
 * each cgroup has, effective CPUs down the tree, the partition rules
 * and their invalid states (Linux 6.1's texts), the ENOSPC rules, and
 * the masks pushed to the threads (the hooks' cpus_changed_locked).
 * Prints TAP.
 *
 * The registry is this test's own: cpuset and pids. The CPUs that
 * schedule are the test's (online); threads are simulated as in
 * test_cgroup.c, by what the kernel does when one joins or leaves. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "controller.h"
#include "hooks.h"
#include "tap.h"

extern struct cg_controller cg_cpuset, cg_pids;
struct cg_controller *const cg_controllers[] = { &cg_cpuset, &cg_pids };
const unsigned cg_nr_controllers = ARRAY_SIZE(cg_controllers);

/* ---- the kernel around the core ---- */

static uint32_t online = 0xf; /* four CPUs schedule */
static int partition_notes;
static struct cgroup *pushed_cg; /* the last cpus_changed_locked */
static uint32_t pushed_cpus;
static int pushes;
static struct cgroup *task_cg = &cg_root; /* where a moved task comes from */

static void hook_notify_locked(struct cgroup *cg, unsigned which)
{
	(void)cg;
	if (which == CG_NOTIFY_CPUSET_PARTITION)
		partition_notes++;
}

static int hook_show(struct cgroup *cg, struct cgfs_buf *out)
{
	(void)cg;
	(void)out;
	return 0;
}

static int hook_move(struct cgroup *dst, int64_t pid, const struct k_cgwriter *w)
{
	(void)pid;
	return cgfs_may_migrate(task_cg, dst, w, false);
}

static void hook_kill(struct cgroup *cg)
{
	(void)cg;
}

static void hook_freeze(struct cgroup *cg, bool on)
{
	cg->freeze = on;
}

static uint32_t hook_cpus_online(void)
{
	return online;
}

static void hook_cpus_changed_locked(struct cgroup *cg, uint32_t cpus)
{
	pushed_cg = cg;
	pushed_cpus = cpus;
	pushes++;
}

static const struct cg_hooks test_hooks = {
	.show_procs = hook_show, .show_threads = hook_show, .move_proc = hook_move, .move_thread = hook_move,
	.kill_subtree = hook_kill, .freeze = hook_freeze, .notify_locked = hook_notify_locked,
	.cpus_online = hook_cpus_online, .cpus_changed_locked = hook_cpus_changed_locked,
};

/* ---- helpers ---- */

#include "cg_files.h"

static void thread_in(struct cgroup *cg, int delta)
{
	cg_lock();
	cg_threads_changed_locked(cg, delta);
	cg_unlock();
}

static bool eff(struct cgroup *cg, const char *want)
{
	return is(cg, "cpuset.cpus.effective", want);
}

/* Writing text to cpuset.cpus of cg: err, then the file reads want. */
static bool cpus_write(struct cgroup *cg, const char *text, int err, const char *want)
{
	int got = wr(cg, "cpuset.cpus", text);
	if (got != err)
		tap_diag("cpuset.cpus '%s': %d, want %d", text, got, err);
	return got == err && is(cg, "cpuset.cpus", want);
}

/* ---- the tests ---- */

static void test_files(void)
{
	ok(is(&cg_root, "cgroup.controllers", "cpuset pids\n"), "the root offers cpuset first (Linux's order)");
	ok(eff(&cg_root, "0-3\n") && is(&cg_root, "cpuset.mems.effective", "0\n") &&
	   !cgfs_cft_find(&cg_root, "cpuset.cpus") && !cgfs_cft_find(&cg_root, "cpuset.mems") &&
	   !cgfs_cft_find(&cg_root, "cpuset.cpus.partition"),
	   "the root has only cpuset.cpus.effective and cpuset.mems.effective");
	struct cgroup *a = mk(&cg_root, "a");
	ok(!cgfs_cft_find(a, "cpuset.cpus"), "no cpuset files while the parent does not pass it on");
	ok(wr(&cg_root, "cgroup.subtree_control", "+cpuset") == 0 && is(&cg_root, "cgroup.subtree_control", "cpuset\n"),
	   "+cpuset in the root's subtree_control");
	ok(is(a, "cpuset.cpus", "\n") && eff(a, "0-3\n") && is(a, "cpuset.mems", "\n") &&
	   is(a, "cpuset.mems.effective", "0\n") && is(a, "cpuset.cpus.partition", "member\n"),
	   "a child: empty lists (inherit), the parent's effective CPUs, member");
	ok(wr(a, "cpuset.cpus.effective", "0") == -EINVAL, "cpuset.cpus.effective is read-only");
	cg_destroy(a);
}

static void test_lists(void)
{
	struct cgroup *a = mk(&cg_root, "a");
	ok(cpus_write(a, "1-2", 0, "1-2\n") && eff(a, "1-2\n"), "a range");
	ok(cpus_write(a, "0,2-3", 0, "0,2-3\n") && cpus_write(a, "3,1", 0, "1,3\n") &&
	   cpus_write(a, " 3 , 1 ", 0, "1,3\n") && cpus_write(a, "1,,2", 0, "1-2\n") &&
	   cpus_write(a, ",0 1\t2", 0, "0-2\n") && cpus_write(a, "2,1,0,3", 0, "0-3\n"),
	   "commas and blanks separate, ranges are merged on output");
	ok(cpus_write(a, "0-3:1/2", 0, "0,2\n") && cpus_write(a, "N", 0, "3\n") && cpus_write(a, "1-N", 0, "1-3\n") &&
	   cpus_write(a, "all", 0, "0-3\n") && cpus_write(a, "0-3:2/2", 0, "0-3\n"),
	   "Linux's groups (RANGE:USED/GROUP), N (the last CPU) and all");
	ok(cpus_write(a, "0\n1", 0, "0\n"), "a newline ends the list");
	ok(cpus_write(a, "3-1", -EINVAL, "0\n") && cpus_write(a, "x", -EINVAL, "0\n") &&
	   cpus_write(a, "1-", -EINVAL, "0\n") && cpus_write(a, "-1", -EINVAL, "0\n") &&
	   cpus_write(a, "0x1", -EINVAL, "0\n") && cpus_write(a, "+1", -EINVAL, "0\n") &&
	   cpus_write(a, "1:1/2", -EINVAL, "0\n") && cpus_write(a, "0-3:0/0", -EINVAL, "0\n") &&
	   cpus_write(a, "0-3:3/2", -EINVAL, "0\n") && cpus_write(a, "0-1:1", -EINVAL, "0\n") &&
	   cpus_write(a, "1 2 x", -EINVAL, "0\n") && cpus_write(a, "1.5", -EINVAL, "0\n"),
	   "malformed lists: EINVAL, nothing changes");
	ok(cpus_write(a, "4", -ERANGE, "0\n") && cpus_write(a, "1-4", -ERANGE, "0\n") &&
	   cpus_write(a, "31", -ERANGE, "0\n") && cpus_write(a, "4,x", -ERANGE, "0\n"),
	   "a CPU past the possible ones: ERANGE (Linux 6.1's cpulist_parse)");
	ok(cpus_write(a, "4294967296", -EOVERFLOW, "0\n") && cpus_write(a, "99999999999999999999999", -EOVERFLOW, "0\n"),
	   "a number past 32 bits: EOVERFLOW");
	ok(cpus_write(a, "x,4", -EINVAL, "0\n"), "the first bad region's error");
	ok(cpus_write(a, "\n", 0, "\n") && eff(a, "0-3\n"), "an empty list: the parent's CPUs");
	ok(wr(a, "cpuset.mems", "0") == 0 && is(a, "cpuset.mems", "0\n") && wr(a, "cpuset.mems", "1") == -EINVAL &&
	   wr(a, "cpuset.mems", "0-1") == -EINVAL && wr(a, "cpuset.mems", "100") == -EINVAL &&
	   wr(a, "cpuset.mems", "1024") == -ERANGE && wr(a, "cpuset.mems", "x") == -EINVAL &&
	   is(a, "cpuset.mems", "0\n") && wr(a, "cpuset.mems", "\n") == 0 && is(a, "cpuset.mems", "\n") &&
	   is(a, "cpuset.mems.effective", "0\n"),
	   "cpuset.mems: node 0 only (EINVAL), MAX_NUMNODES bits (ERANGE)");
	cg_destroy(a);
}

static void test_effective(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *b = mk(a, "b");
	ok(wr(a, "cgroup.subtree_control", "+cpuset") == 0, "+cpuset in a");
	pushes = 0;
	ok(cpus_write(a, "1-2", 0, "1-2\n") && eff(a, "1-2\n") && eff(b, "1-2\n"), "b inherits a's CPUs");
	ok(pushes == 2 && pushed_cg == b && pushed_cpus == 0x6, "the threads of a and b are told");
	ok(cpus_write(b, "0-1", 0, "0-1\n") && eff(b, "1\n"), "b gets its CPUs within a's");
	ok(cpus_write(b, "0", 0, "0\n") && eff(b, "1-2\n"), "none of them: a's (v2 never leaves nothing)");
	ok(cpus_write(a, "0-3", 0, "0-3\n") && eff(b, "0\n"), "a widened: b recomputed");
	pushes = 0;
	ok(cpus_write(a, "0-3", 0, "0-3\n") && pushes == 0, "an unchanged list tells nobody");
	thread_in(b, 1);
	ok(cpus_write(b, "\n", -ENOSPC, "0\n") && wr(b, "cpuset.mems", "0") == 0 && wr(b, "cpuset.mems", "\n") == -ENOSPC &&
	   cpus_write(a, "\n", -ENOSPC, "0-3\n"),
	   "emptying the list of a populated cgroup: ENOSPC");
	thread_in(b, -1);
	ok(cpus_write(b, "\n", 0, "\n") && cpus_write(a, "\n", 0, "\n") && wr(b, "cpuset.mems", "\n") == 0, "without threads: allowed");
	ok(cpus_write(b, "2", 0, "2\n") && wr(a, "cgroup.subtree_control", "-cpuset") == 0 && eff(a, "0-3\n") &&
	   !cgfs_cft_find(b, "cpuset.cpus"),
	   "-cpuset: b's files go");
	ok(wr(a, "cgroup.subtree_control", "+cpuset") == 0 && is(b, "cpuset.cpus", "\n") && eff(b, "0-3\n"),
	   "+cpuset again: b's list is back to empty (Linux makes a new cpuset)");
	cg_destroy(b);
	cg_destroy(a);
}

/* cpuset is threaded: enabling it where threads are is allowed (the
 * cgroup becomes a thread root), and threaded children have its files. */
static void test_threaded(void)
{
	struct cgroup *a = mk(&cg_root, "a");
	thread_in(a, 1);
	ok(wr(&cg_root, "cgroup.subtree_control", "+pids") == 0 && wr(a, "cgroup.subtree_control", "+cpuset") == 0 &&
	   wr(a, "cgroup.subtree_control", "+pids") == 0,
	   "+cpuset (and +pids) in a cgroup with a thread: threaded controllers are allowed");
	struct cgroup *t = mk(a, "t");
	ok(wr(t, "cgroup.type", "threaded") == 0 && is(a, "cgroup.type", "domain threaded\n") &&
	   is(t, "cgroup.controllers", "cpuset pids\n") && cpus_write(t, "2", 0, "2\n") && eff(t, "2\n"),
	   "a threaded child has cpuset's files and its own CPUs");
	thread_in(t, 1);
	ok(cpus_write(t, "\n", -ENOSPC, "2\n"), "its threads keep it from emptying its list");
	thread_in(t, -1);
	thread_in(a, -1);
	cg_destroy(t);
	cg_destroy(a);
	wr(&cg_root, "cgroup.subtree_control", "-pids");
}

static void test_partitions(void)
{
	struct cgroup *a = mk(&cg_root, "a"), *c = mk(&cg_root, "c"), *d = mk(&cg_root, "d");
	thread_in(&cg_root, 1); /* the root has tasks, as on Linux */
	ok(wr(c, "cpuset.cpus.partition", "bogus") == -EINVAL && wr(c, "cpuset.cpus.partition", "Root") == -EINVAL,
	   "only member, root, isolated: EINVAL");
	ok(wr(c, "cpuset.cpus.partition", "root") == 0 && is(c, "cpuset.cpus.partition", "root invalid (cpuset.cpus is empty)\n"),
	   "root with an empty cpuset.cpus: invalid, with Linux 6.1's reason");
	ok(wr(c, "cpuset.cpus.partition", "isolated") == 0 &&
	   is(c, "cpuset.cpus.partition", "isolated invalid (cpuset.cpus is empty)\n"),
	   "an invalid one written isolated stays invalid");
	ok(wr(c, "cpuset.cpus.partition", "member") == 0 && is(c, "cpuset.cpus.partition", "member\n"), "back to member");
	ok(cpus_write(a, "0-2", 0, "0-2\n") && cpus_write(c, "2-3", 0, "2-3\n"), "a 0-2, c 2-3");
	ok(wr(c, "cpuset.cpus.partition", "root") == 0 &&
	   is(c, "cpuset.cpus.partition", "root invalid (Cpu list in cpuset.cpus not exclusive)\n"),
	   "overlapping a sibling's list: not exclusive");
	ok(cpus_write(a, "0-1", 0, "0-1\n") && wr(c, "cpuset.cpus.partition", "member") == 0, "a 0-1");
	partition_notes = 0;
	pushes = 0;
	ok(wr(c, "cpuset.cpus.partition", " root\n") == 0 && is(c, "cpuset.cpus.partition", "root\n") && partition_notes == 1,
	   "root: valid, and the file notifies");
	ok(eff(&cg_root, "0-1\n") && eff(c, "2-3\n") && eff(d, "0-1\n") && eff(a, "0-1\n"),
	   "c's CPUs leave the root's and its other children's effective CPUs");
	ok(pushes >= 2, "the threads of the root and d are told");
	ok(wr(c, "cpuset.cpus.partition", "isolated") == 0 && is(c, "cpuset.cpus.partition", "isolated\n") &&
	   eff(c, "2-3\n") && eff(&cg_root, "0-1\n"),
	   "isolated: as root for the CPUs");
	ok(wr(c, "cgroup.subtree_control", "+cpuset") == 0, "+cpuset in c");
	struct cgroup *e = mk(c, "e"), *f = mk(a, "f");
	ok(wr(a, "cgroup.subtree_control", "+cpuset") == 0 && cpus_write(f, "1", 0, "1\n") &&
	   wr(f, "cpuset.cpus.partition", "root") == 0 &&
	   is(f, "cpuset.cpus.partition", "root invalid (Parent is not a partition root)\n"),
	   "under a member: not a partition root");
	ok(cpus_write(e, "0", 0, "0\n") && eff(e, "2-3\n") && wr(e, "cpuset.cpus.partition", "root") == 0 &&
	   is(e, "cpuset.cpus.partition", "root invalid (Invalid cpu list in cpuset.cpus)\n"),
	   "no CPU of the parent's list: invalid cpu list");
	ok(cpus_write(e, "3", 0, "3\n") && is(e, "cpuset.cpus.partition", "root\n") && eff(e, "3\n") && eff(c, "2\n"),
	   "its list changed to one of c's CPUs: valid again, c keeps 2");
	ok(cpus_write(e, "2-3", 0, "2-3\n") && is(e, "cpuset.cpus.partition", "root\n") && eff(e, "2-3\n") && eff(c, "\n"),
	   "c without threads gives every CPU away: its effective CPUs are empty");
	task_cg = d;
	ok(wr(c, "cgroup.procs", "5") == -ENOSPC, "moving a task into c: ENOSPC");
	task_cg = &cg_root;
	ok(wr(e, "cpuset.cpus.partition", "member") == 0 && eff(c, "2-3\n") && eff(e, "2-3\n"), "e member: c has its CPUs back");
	thread_in(c, 1);
	ok(wr(e, "cpuset.cpus.partition", "root") == 0 &&
	   is(e, "cpuset.cpus.partition", "root invalid (Parent unable to distribute cpu downstream)\n") && eff(c, "2-3\n"),
	   "c with a thread keeps a CPU: e invalid");
	thread_in(c, -1);
	ok(wr(e, "cpuset.cpus.partition", "member") == 0 && cpus_write(e, "3", 0, "3\n") &&
	   wr(e, "cpuset.cpus.partition", "root") == 0 && is(e, "cpuset.cpus.partition", "root\n"), "e root on 3");
	ok(wr(c, "cpuset.cpus.partition", "member") == 0 &&
	   is(e, "cpuset.cpus.partition", "root invalid (Parent is not a partition root)\n") && eff(&cg_root, "0-3\n") &&
	   eff(c, "2-3\n") && eff(e, "3\n") && eff(d, "0-3\n"),
	   "c member: e invalid, every CPU back in the root");
	ok(wr(c, "cpuset.cpus.partition", "root") == 0 && is(c, "cpuset.cpus.partition", "root\n") &&
	   is(e, "cpuset.cpus.partition", "root\n") && eff(c, "2\n") && eff(&cg_root, "0-1\n"),
	   "c root again: e (below the change) valid again");
	ok(cpus_write(a, "1-2", 0, "1-2\n") && is(c, "cpuset.cpus.partition", "root invalid (Cpu list in cpuset.cpus not exclusive)\n") &&
	   is(e, "cpuset.cpus.partition", "root invalid (Parent is an invalid partition root)\n") && eff(&cg_root, "0-3\n"),
	   "a sibling's list overlapping c's is allowed and invalidates c, and e below it");
	ok(cpus_write(a, "0-1", 0, "0-1\n") && is(c, "cpuset.cpus.partition", "root invalid (Cpu list in cpuset.cpus not exclusive)\n"),
	   "the overlap gone, c stays invalid (Linux re-examines only below a change)");
	ok(wr(c, "cpuset.cpus.partition", "member") == 0 && wr(c, "cpuset.cpus.partition", "root") == 0 &&
	   is(c, "cpuset.cpus.partition", "root\n") && is(e, "cpuset.cpus.partition", "root\n"),
	   "member then root: valid");
	ok(cpus_write(e, "\n", 0, "\n") && is(e, "cpuset.cpus.partition", "root invalid (cpuset.cpus is empty)\n") &&
	   eff(c, "2-3\n") && eff(e, "2-3\n"),
	   "emptying a valid partition's list: invalid, its CPU back to the parent (docs: where 6.1 differs)");
	ok(cpus_write(e, "3", 0, "3\n") && is(e, "cpuset.cpus.partition", "root\n") && eff(c, "2\n"), "a list again: valid");
	cg_destroy(e);
	ok(eff(c, "2-3\n"), "rmdir of a partition: its CPUs go back to its parent");
	cg_destroy(f);
	cg_destroy(c);
	ok(eff(&cg_root, "0-3\n") && eff(d, "0-3\n"), "and from the root's child to the root");
	thread_in(&cg_root, -1);
	cg_destroy(d);
	cg_destroy(a);
}

static void test_one_cpu(void)
{
	online = 1;
	struct cgroup *a = mk(&cg_root, "a");
	thread_in(&cg_root, 1);
	ok(eff(&cg_root, "0\n") && eff(a, "0\n") && cpus_write(a, "1", -ERANGE, "\n") && cpus_write(a, "0", 0, "0\n"),
	   "one CPU: CPU 1 is past the possible ones");
	ok(wr(a, "cpuset.cpus.partition", "root") == 0 &&
	   is(a, "cpuset.cpus.partition", "root invalid (Parent unable to distribute cpu downstream)\n") && eff(&cg_root, "0\n"),
	   "the root, with tasks, keeps its only CPU");
	thread_in(&cg_root, -1);
	cg_destroy(a);
	online = 0xf;
}

/* ---- Linux 6.1's own partition matrix ----
 * The rows of tools/testing/selftests/cgroup/test_cpuset_prs.sh's
 * TEST_MATRIX without CPU hotplug (Arbor's CPUs do not go offline), run
 * the way its run_state_test runs them, on 8 CPUs: the cgroup "test" has
 * cpuset.cpus 0-6 and is a partition root, A1/A2/A3 and B1 below it; a
 * column is a sequence of S+/S- (subtree_control), C<list>, P<state>
 * and T (the shell moves in); then the number of failed columns, the
 * effective CPUs and the partition states (P-1: "root invalid ...").
 * SETUP_A123_PARTITIONS is expanded. */
#define SETUP_A123 "C1-3:P1:S+ C2-3:P1:S+ C3:P1"
static const char *const prs_matrix[] = {
	"  S+    C0-1     .      .    C2-3    S+    C4-5     .      .     0 A2:0-1",
	"  S+    C0-1     .      .    C2-3    P1      .      .      .     0 ",
	"  S+    C0-1     .      .    C2-3   P1:S+ C0-1:P1   .      .     0 ",
	"  S+    C0-1     .      .    C2-3   P1:S+  C1:P1    .      .     0 ",
	"  S+   C0-1:S+   .      .    C2-3     .      .      .     P1     0 ",
	"  S+   C0-1:P1   .      .    C2-3    S+     C1      .      .     0 ",
	"  S+   C0-1:P1   .      .    C2-3    S+    C1:P1    .      .     0 ",
	"  S+   C0-1:P1   .      .    C2-3    S+    C1:P1    .     P1     0 ",
	"  S+   C0-1:P1   .      .    C2-3   C4-5     .      .      .     0 A1:4-5",
	"  S+   C0-1:P1   .      .    C2-3  S+:C4-5   .      .      .     0 A1:4-5",
	"  S+    C0-1     .      .   C2-3:P1   .      .      .     C2     0 ",
	"  S+    C0-1     .      .   C2-3:P1   .      .      .    C4-5    0 B1:4-5",
	"  S+ C0-3:P1:S+ C2-3:P1 .      .      .      .      .      .     0 A1:0-1,A2:2-3",
	"  S+ C0-3:P1:S+ C2-3:P1 .      .     C1-3    .      .      .     0 A1:1,A2:2-3",
	"  S+ C2-3:P1:S+  C3:P1  .      .     C3      .      .      .     0 A1:,A2:3 A1:P1,A2:P1",
	"  S+ C2-3:P1:S+  C3:P1  .      .     C3      P0     .      .     0 A1:3,A2:3 A1:P1,A2:P0",
	"  S+ C2-3:P1:S+  C2:P1  .      .     C2-4    .      .      .     0 A1:3-4,A2:2",
	"  S+ C2-3:P1:S+  C3:P1  .      .     C3      .      .     C0-2   0 A1:,B1:0-2 A1:P1,A2:P1",
	"  S+ " SETUP_A123 "    .     C2-3    .      .      .     0 A1:,A2:2,A3:3 A1:P1,A2:P1,A3:P1",
	"  S+ C2-3:P1:S+ C3:P1   .      .      .     C2-4    .      .     0 A1:,A2:2-3 A1:P1,A2:P1",
	"  S+ C2-3:P1:S+  C3:P1  .      .      T     C2-3    .      .     0 A1:2-3,A2:2-3 A1:P1,A2:P-1",
	"  S+  C3:P1:S+    C3    .      .      T      P1     .      .     0 A1:3,A2:3 A1:P1,A2:P-1",
	"  S+ " SETUP_A123 "    .    T:C2-3   .      .      .     0 A1:2-3,A2:2-3,A3:3 A1:P1,A2:P-1,A3:P-1",
	"  S+ " SETUP_A123 "    . T:C2-3:C1-3 .      .      .     0 A1:1,A2:2,A3:3 A1:P1,A2:P1,A3:P1",
	"  S+ C2-3:P1:S+  C3:P1  .      .      P0     .      .      .     0 A1:2-3,A2:3 A1:P0,A2:P-1",
	"  S+ " SETUP_A123 "    .     C2-3    P0     .      .     0 A1:2-3,A2:2-3,A3:3 A1:P1,A2:P0,A3:P-1",
	"  S+ C2-3:P1:S+  .      .      .      .   C3-4:P1   .      .     0 A1:2,A2:3 A1:P1,A2:P1",
	"  S+ C0-1:P1:S+ C1      .    C2-3   C4-5     .      .      .     0 A1:4-5,A2:4-5",
	"  S+   C0-1:P1   .      .    C2-3    S+   C4-5:P1   .      .     0 A1:0-1,A2:0-1 A1:P1,A2:P-1",
	"  S+   C0-1:S+  C1      .    C2-3    P1      .      .      .     0 A1:0-1,A2:1 A1:P1",
	"  S+   C0-1:S+  C1      .    C2-3     .      P2     .      .     0 A1:0-1,A2:1 A1:P0,A2:P-2",
	"  S+   C0-1:S+ C1:P2    .    C2-3     P1     .      .      .     0 A1:0,A2:1 A1:P1,A2:P2",
	"  S+   C0-1:P1   .      .    C2-3   C0-2     .      .      .     0 A1:0-2,B1:2-3 A1:P-1,B1:P0",
	"  S+   C0-1:P1   .      .  P1:C2-3  C0-2   .      .      .     0 A1:0-2,B1:2-3 A1:P-1,B1:P-1",
	"  S+    C0-1     .      .  P1:C2-3  C0-2   .      .      .     0 A1:0-2,B1:2-3 A1:P0,B1:P-1",
};

static struct cgroup *prs_test, *prs_cg[4]; /* A1, A2, A3, B1 */
static struct cgroup *shell_cg;

/* One column's commands on cg: 0, or 1 if one failed (as set_ctrl_state). */
static int prs_apply(struct cgroup *cg, const char *state)
{
	char buf[64], *save = NULL;
	int failed = 0;
	snprintf(buf, sizeof(buf), "%s", state);
	if (!strcmp(buf, "."))
		return 0;
	for (char *cmd = strtok_r(buf, ":", &save); cmd; cmd = strtok_r(NULL, ":", &save)) {
		int err = 0;
		char text[32];
		if (cmd[0] == 'S') {
			snprintf(text, sizeof(text), "%ccpuset\n", cmd[1]);
			err = wr(cg, "cgroup.subtree_control", text);
		} else if (cmd[0] == 'C') {
			snprintf(text, sizeof(text), "%s\n", cmd + 1);
			err = wr(cg, "cpuset.cpus", text);
		} else if (cmd[0] == 'P') {
			static const char *const word[] = { "member\n", "root\n", "isolated\n" };
			err = wr(cg, "cpuset.cpus.partition", word[cmd[1] - '0']);
		} else if (cmd[0] == 'T') {
			err = cgfs_may_migrate(shell_cg, cg, &root_writer, false);
			if (!err) {
				thread_in(cg, 1);
				thread_in(shell_cg, -1);
				shell_cg = cg;
			}
		}
		failed |= err != 0;
	}
	return failed;
}

static struct cgroup *prs_named(const char *name)
{
	static const char *const names[] = { "A1", "A2", "A3", "B1" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, names[i]))
			return prs_cg[i];
	return NULL;
}

/* "A1:0-1,A2:" against the cgroups' effective CPUs. */
static bool prs_check_cpus(const char *want)
{
	char buf[128], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", want);
	for (char *chk = strtok_r(buf, ",", &save); chk; chk = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(chk, ':'), text[32];
		*colon = '\0';
		snprintf(text, sizeof(text), "%s\n", colon + 1);
		if (!eff(prs_named(chk), text))
			return false;
	}
	return true;
}

/* "A1:P1,A2:P-1" against cpuset.cpus.partition (invalid: any reason). */
static bool prs_check_states(const char *want)
{
	char buf[128], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", want);
	for (char *chk = strtok_r(buf, ",", &save); chk; chk = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(chk, ':');
		*colon = '\0';
		int v = atoi(colon + 2);
		const char *got = rd(prs_named(chk), "cpuset.cpus.partition");
		static const char *const prefix[] = { "isolated invalid", "root invalid", "member", "root", "isolated" };
		if (strncmp(got, prefix[v + 2], strlen(prefix[v + 2])) != 0 || (v > 0 && strchr(got, ' '))) {
			tap_diag("%s: '%s', want P%d", chk, got, v);
			return false;
		}
	}
	return true;
}

static void prs_reset(void)
{
	thread_in(shell_cg, -1);
	thread_in(&cg_root, 1);
	shell_cg = &cg_root;
	static const int order[] = { 2, 1, 0, 3 }; /* A3, A2, A1, B1 */
	for (int i = 0; i < 4; i++)
		if (prs_cg[order[i]] && cg_destroy(prs_cg[order[i]]))
			tap_bail("rmdir %s", prs_cg[order[i]]->name);
	memset(prs_cg, 0, sizeof(prs_cg));
	wr(prs_test, "cgroup.subtree_control", "-cpuset");
}

static void test_prs_matrix(void)
{
	online = 0xff;
	shell_cg = &cg_root;
	thread_in(&cg_root, 1); /* the shell; the root has tasks */
	prs_test = mk(&cg_root, "test");
	ok(wr(prs_test, "cpuset.cpus", "0-6") == 0 && wr(prs_test, "cpuset.cpus.partition", "root") == 0 &&
	   is(prs_test, "cpuset.cpus.partition", "root\n") && eff(&cg_root, "7\n"),
	   "test_cpuset_prs.sh's setup: test is a partition root on 0-6");
	for (unsigned row = 0; row < ARRAY_SIZE(prs_matrix); row++) {
		char buf[256], *f[12] = { 0 }, *save = NULL;
		int nf = 0;
		snprintf(buf, sizeof(buf), "%s", prs_matrix[row]);
		for (char *w = strtok_r(buf, " ", &save); w && nf < 12; w = strtok_r(NULL, " ", &save))
			f[nf++] = w;
		prs_apply(prs_test, f[0]);
		prs_cg[0] = mk(prs_test, "A1");
		prs_apply(prs_cg[0], f[1]);
		prs_cg[1] = mk(prs_cg[0], "A2");
		prs_apply(prs_cg[1], f[2]);
		prs_cg[2] = mk(prs_cg[1], "A3");
		prs_apply(prs_cg[2], f[3]);
		prs_cg[3] = mk(prs_test, "B1");
		prs_apply(prs_cg[3], f[4]);
		int failed = 0;
		for (int i = 0; i < 4; i++)
			failed += prs_apply(prs_cg[i], f[5 + i]);
		bool good = failed == atoi(f[9]) && (!f[10] || !strcmp(f[10], ".") || prs_check_cpus(f[10])) &&
			    (!f[11] || prs_check_states(f[11]));
		ok(good, "test_cpuset_prs.sh TEST_MATRIX row: %s", prs_matrix[row]);
		prs_reset();
		if (!eff(prs_test, "0-6\n"))
			tap_diag("after the row, test's effective CPUs changed");
	}
	cg_destroy(prs_test);
	thread_in(&cg_root, -1);
	online = 0xf;
}

int main(void)
{
	cg_init(&test_hooks);
	test_files();
	test_lists();
	test_effective();
	test_threaded();
	test_partitions();
	test_one_cpu();
	test_prs_matrix();
	ok(cg_root.nr_descendants == 0 && cg_root.nr_threads_tree == 0, "nothing left over");
	return tap_done();
}
