/* Self-tests that run user programs from the boot archive, each in a
 * cgroup of its own. A user test prints its own TAP lines (the runner
 * counts them); here we check how it ended. */
#include "abi/errno.h"
#include "abi/wait.h"
#include "addrspace.h"
#include "bootinfo.h"
#include "heap.h"
#include "pmm.h"
#include "cgroup.h"
#include "dev.h"
#include "ktest.h"
#include "memcg.h"
#include "notif.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "sched_fair.h"
#include "timer.h"
#include "trap.h"
#include "format.h"
#include "ipc.h"
#include "userspace.h"

#define MS 1000000ul

static struct cgroup *user_cg(const char *name)
{
	struct cgroup *cg = NULL;
	KT_EXPECT_EQ(cg_create(&cg_root, name, &cg), 0);
	return cg;
}

/* Spawns path in cg and waits for it (timeout_ms; killed after that).
 * Returns its wait status, or -1 if it could not start. */
static int run_user(const char *path, const char *const argv[], struct cgroup *cg,
		    uint64_t timeout_ms)
{
	int status = -1;
	int pid = proc_spawn(path, argv, cg, &kernel_proc, 0);
	if (pid < 0) {
		ktest_fail(__FILE__, __LINE__, "spawn %s: %d", path, pid);
		return -1;
	}
	int r = proc_wait(&kernel_proc, pid, &status, 0, clock_ns() + timeout_ms * MS);
	if (r == -ETIMEDOUT) {
		ktest_fail(__FILE__, __LINE__, "%s timed out after %lu ms", path, timeout_ms);
		proc_dump(proc_find(pid));
		proc_kill(proc_find(pid), SIGKILL);
		proc_wait(&kernel_proc, pid, &status, 0, 0);
	}
	return status;
}

/* What is still in a test's cgroup that should be empty (a diagnosis). */
static void user_cg_dump_leftovers(struct cgroup *cg)
{
	spin_lock(&proc_lock);
	cg_lock();
	struct list_head *pos;
	list_for_each(pos, &cg->procs) {
		struct proc *p = list_entry(pos, struct proc, cg_link);
		printk("# left in %s: pid %d (%s), parent %d, state %d, exiting %d, %u threads, %lu pages resident\n",
		       cg->name, p->pid, p->name, p->parent ? p->parent->pid : 0, p->state, p->exiting, p->nr_threads,
		       p->as ? p->as->resident : 0);
	}
	cg_unlock();
	spin_unlock(&proc_lock);
}

/* A test's cgroup at the end: no charge left behind, and removable. */
static void user_cg_done(struct cgroup *cg)
{
	/* A thread's stack is uncharged when the scheduler reaps it, a moment
	 * after its process became a zombie; an orphan still exiting (a
	 * grandchild that reported and then _exit()ed) becomes one only
	 * later, and there is no init here to collect it: reaped on each
	 * round. Up to 10 s: generous for a loaded host (a bound, not a
	 * timing). */
	for (int i = 0; i < 1000; i++) {
		proc_reap_orphans();
		mem_drain_stock(cg);
		if (!mem_usage_pages(cg))
			break;
		sched_sleep_until(clock_ns() + 10 * MS);
	}
	KT_EXPECT_EQ(mem_usage_pages(cg), 0);
	user_cg_dump_leftovers(cg);
	/* and every cgroup removed below it is gone (none pinned, none leaked) */
	for (int i = 0; i < 100 && __atomic_load_n(&cg->nr_dying_descendants, __ATOMIC_RELAXED); i++)
		sched_sleep_until(clock_ns() + 10 * MS);
	KT_EXPECT_EQ(cg->nr_dying_descendants, 0);
	KT_EXPECT_EQ(cg_destroy(cg), 0);
}

/* Waits for a background process started by a test and checks it exited 0. */
static void wait_exit0(int pid)
{
	int status = -1;
	KT_EXPECT_EQ(proc_wait(&kernel_proc, pid, &status, 0, clock_ns() + 5000 * MS), pid);
	KT_EXPECT_EQ(status, W_EXITCODE(0));
}

static void user_test(const char *name, const char *const argv[])
{
	struct cgroup *cg = user_cg(name + 6); /* "tests/xyz" -> cgroup "xyz" */
	if (!cg)
		return;
	KT_EXPECT_EQ(run_user(name, argv, cg, 10000), W_EXITCODE(0));
	user_cg_done(cg);
}

KTEST(user_mode_entry)
{
	const char *const argv[] = { "tests/hello", "one", "two", NULL };
	user_test("tests/hello", argv);
}

KTEST(user_bad_pointers_efault)
{
	const char *const argv[] = { "tests/efault", NULL };
	user_test("tests/efault", argv);
}

/* Each CPU exception kills the faulting process alone, with the signal
 * Linux would send; a sibling running meanwhile is unaffected. */
KTEST(user_fault_kills_only_that_process)
{
	static const struct { const char *what; int sig; } cases[] = {
		{ "segv", SIGSEGV }, { "kernel", SIGSEGV }, { "ud", SIGILL },
		{ "de", SIGFPE }, { "gp", SIGSEGV }, { "exec", SIGSEGV }, { "stack", SIGSEGV },
		{ "io", SIGSEGV },
	};
	struct cgroup *cg = user_cg("fault");
	if (!cg)
		return;
	const char *const spin_argv[] = { "tests/spin", "300", NULL };
	int sibling = proc_spawn("tests/spin", spin_argv, cg, &kernel_proc, 0);
	KT_EXPECT(sibling > 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *const argv[] = { "tests/fault", cases[i].what, NULL };
		int status = run_user("tests/fault", argv, cg, 5000);
		if (status != W_SIGNALED(cases[i].sig))
			ktest_fail(__FILE__, __LINE__, "fault %s: status 0x%x, want signal %d",
				   cases[i].what, status, cases[i].sig);
	}
	int status = -1;
	KT_EXPECT_EQ(proc_wait(&kernel_proc, sibling, &status, 0, 0), sibling);
	KT_EXPECT_EQ(status, W_EXITCODE(0));
	user_cg_done(cg);
}

/* Two CPU-bound processes in sibling cgroups with cpu.weight 100 and 300
 * both progress and split the CPU about 1:3 (a sanity bound; `make bench`
 * measures the split). */
KTEST(user_cpu_split_by_cgroup_weight)
{
	struct cgroup *a = user_cg("w100"), *b = user_cg("w300");
	if (!a || !b)
		return;
	KT_EXPECT_EQ(sched_group_set_weight(&b->sched, sched_weight_from_cpu_weight(300)), 0);
	const char *const argv[] = { "tests/spin", "600", NULL };
	uint32_t mask = kt_pin(0); /* one CPU's split: the children inherit the pin */
	int pa = proc_spawn("tests/spin", argv, a, &kernel_proc, 0);
	int pb = proc_spawn("tests/spin", argv, b, &kernel_proc, 0);
	kt_unpin(mask);
	int sa = -1, sb = -1;
	KT_EXPECT(pa > 0 && pb > 0);
	KT_EXPECT_EQ(proc_wait(&kernel_proc, pa, &sa, 0, 0), pa);
	KT_EXPECT_EQ(proc_wait(&kernel_proc, pb, &sb, 0, 0), pb);
	KT_EXPECT(sa == 0 && sb == 0);
	uint64_t ua = sched_group_usage_ns(&a->sched), ub = sched_group_usage_ns(&b->sched);
	printk("# cpu: w100 %lu ms, w300 %lu ms\n", ua / MS, ub / MS);
	KT_EXPECT(ua > 50 * MS);
	KT_EXPECT(ub >= 2 * ua && ub <= 4 * ua); /* between 1:2 and 1:4 */
	uint64_t user_ns, sys_ns;
	sched_group_cputime(&b->sched, &user_ns, &sys_ns);
	KT_EXPECT(user_ns > sys_ns); /* spinning in user mode */
	KT_EXPECT_EQ(cg_destroy(a), 0);
	KT_EXPECT_EQ(cg_destroy(b), 0);
}

/* A server checks the identity the kernel attaches to each call; buffers
 * move both ways; a dying server gives its callers an error. */
KTEST(ipc_call_reply_identity)
{
	struct cgroup *s = user_cg("ipc_srv"), *c = user_cg("ipc_cli");
	if (!s || !c)
		return;
	const char *const sargv[] = { "tests/ipc_server", "kt_ipc", NULL };
	const char *const cargv[] = { "tests/ipc_client", "kt_ipc", NULL };
	int sp = proc_spawn("tests/ipc_server", sargv, s, &kernel_proc, 0);
	KT_EXPECT(sp > 0);
	KT_EXPECT_EQ(run_user("tests/ipc_client", cargv, c, 10000), W_EXITCODE(0));
	wait_exit0(sp);
	user_cg_done(s);
	user_cg_done(c);
}

/* Work a server does for a client is charged to the client's cgroup. */
KTEST(ipc_server_time_charged_to_caller)
{
	struct cgroup *s = user_cg("burn_srv"), *c = user_cg("burn_cli");
	if (!s || !c)
		return;
	const char *const sargv[] = { "tests/ipc_server", "kt_burn", NULL };
	const char *const cargv[] = { "tests/ipc_burn", "kt_burn", "50", "6", "stop", NULL };
	int sp = proc_spawn("tests/ipc_server", sargv, s, &kernel_proc, 0);
	KT_EXPECT(sp > 0);
	KT_EXPECT_EQ(run_user("tests/ipc_burn", cargv, c, 10000), W_EXITCODE(0));
	int status = -1;
	KT_EXPECT_EQ(proc_wait(&kernel_proc, sp, &status, 0, clock_ns() + 5000 * MS), sp);
	uint64_t us = sched_group_usage_ns(&s->sched), uc = sched_group_usage_ns(&c->sched);
	printk("# server cgroup %lu ms, client cgroup %lu ms\n", us / MS, uc / MS);
	KT_EXPECT(uc >= 280 * MS);	/* 6 x 50 ms burnt by the server */
	KT_EXPECT(us < 30 * MS);	/* only its own start-up and exit */
	KT_EXPECT_EQ(cg_destroy(s), 0);
	KT_EXPECT_EQ(cg_destroy(c), 0);
}

/* The same, with cpu.max 20 ms per 100 ms on the client: the server's
 * work for it is throttled by the client's limit (it burns by the clock,
 * 6 x 50 ms, and gets no more than about 20% of the CPU meanwhile), so a
 * cgroup cannot escape its limit through a server. */
KTEST(ipc_server_time_throttled_by_callers_cpu_max)
{
	struct cgroup *s = user_cg("thr_srv"), *c = user_cg("thr_cli");
	if (!s || !c)
		return;
	KT_EXPECT_EQ(sched_group_set_max(&c->sched, 20 * MS, 100 * MS, 0), 0);
	const char *const sargv[] = { "tests/ipc_server", "kt_thr", NULL };
	const char *const cargv[] = { "tests/ipc_burn", "kt_thr", "50", "6", "stop", NULL };
	int sp = proc_spawn("tests/ipc_server", sargv, s, &kernel_proc, 0);
	KT_EXPECT(sp > 0);
	uint64_t t0 = clock_ns();
	KT_EXPECT_EQ(run_user("tests/ipc_burn", cargv, c, 20000), W_EXITCODE(0));
	uint64_t wall = clock_ns() - t0;
	int status = -1;
	KT_EXPECT_EQ(proc_wait(&kernel_proc, sp, &status, 0, clock_ns() + 5000 * MS), sp);
	struct sched_bandwidth b;
	sched_group_bandwidth(&c->sched, &b);
	printk("# client cgroup %lu ms in %lu ms of wall time, throttled %lu times\n",
	       sched_group_usage_ns(&c->sched) / MS, wall / MS, b.nr_throttled);
	KT_EXPECT(wall >= 300 * MS);
	KT_EXPECT(sched_group_usage_ns(&c->sched) * 10 <= wall * 3); /* at most 30% (generous bound) */
	KT_EXPECT(b.nr_throttled >= 3);
	KT_EXPECT(sched_group_usage_ns(&s->sched) < 30 * MS);
	KT_EXPECT_EQ(cg_destroy(s), 0);
	KT_EXPECT_EQ(cg_destroy(c), 0);
}

/* A caller waiting on a busy server lends it its context (docs/scheduler.md,
 * "Waiting behind a busy server"): a one-thread server is kept busy by a
 * caller at cpu.weight 1 whose calls spin in the server, beside 8 CPU hogs
 * in that caller's cgroup; a probe at cpu.weight 10000 calls the server 40
 * times at scattered moments and waits less than twice the spinning call's
 * length (2 exceptions allowed: host noise; tests/ipc/ipc_lend.c). Without
 * lending the spinning call runs at a ninth of the weight-1 cgroup's time
 * and the probe waits up to 9 times that length (13 of 40 waits over). */
#define LEND_HOGS 8
static void lend_run(const char *probe_mode, int lows, const char *n)
{
	uint64_t strays = sched_stray_waiters(); /* (other tests make some on purpose) */
	struct cgroup *s = user_cg("lend_srv"), *lo = user_cg("lend_low"), *hi = user_cg("lend_high");
	if (!s || !lo || !hi)
		return;
	KT_EXPECT_EQ(sched_group_set_weight(&lo->sched, sched_weight_from_cpu_weight(1)), 0);
	KT_EXPECT_EQ(sched_group_set_weight(&hi->sched, sched_weight_from_cpu_weight(10000)), 0);
	const char *const sargv[] = { "tests/ipc_lend", "server", "kt_lend", NULL };
	const char *const largv[] = { "tests/ipc_lend", "low", "kt_lend", "4000000", "20000", NULL };
	const char *const hargv[] = { "tests/spin", "20000", NULL };
	/* behind's bound: 6 rounds of work on one CPU, 8 with more (ipc_lend.c) */
	uint32_t cpus = sched_cpus_mask();
	const char *bound = cpus & (cpus - 1) ? "8" : "6"; /* more than one CPU schedules */
	const char *const pargv[] = { "tests/ipc_lend", probe_mode, "kt_lend", "4000000", n, bound, NULL };
	int sp = proc_spawn("tests/ipc_lend", sargv, s, &kernel_proc, 0);
	int lp[3];
	for (int i = 0; i < lows; i++) {
		lp[i] = proc_spawn("tests/ipc_lend", largv, lo, &kernel_proc, 0);
		KT_EXPECT(lp[i] > 0);
	}
	int hogs[LEND_HOGS];
	for (int i = 0; i < LEND_HOGS; i++)
		hogs[i] = proc_spawn("tests/spin", hargv, lo, &kernel_proc, 0);
	KT_EXPECT(sp > 0);
	KT_EXPECT_EQ(run_user("tests/ipc_lend", pargv, hi, 60000), W_EXITCODE(0));
	wait_exit0(sp);
	for (int i = 0; i < lows; i++)
		if (lp[i] > 0)
			wait_exit0(lp[i]); /* its next call found the server gone */
	for (int i = 0; i < LEND_HOGS; i++) {
		int status = -1;
		if (hogs[i] <= 0)
			continue;
		proc_kill(proc_find(hogs[i]), SIGKILL);
		KT_EXPECT_EQ(proc_wait(&kernel_proc, hogs[i], &status, 0, clock_ns() + 5000 * MS), hogs[i]);
	}
	KT_EXPECT_EQ(sched_stray_waiters(), strays); /* a lending's blocked end is no stray */
	user_cg_done(s);
	user_cg_done(lo);
	user_cg_done(hi);
}

KTEST(ipc_waiter_lends_to_busy_server)
{
	lend_run("probe", 1, "40");
}

/* The waiter found no call to push when it queued (the one in progress
 * is its own cgroup's: helper thread), and 3 weight-1 callers queued
 * before it: it pushes the next call the server takes, and is taken
 * after it, so it waits less than 6 times the work on one CPU, 8 on more
 * (the helper's long call is 3; ipc_lend.c says why more CPUs add about
 * one); without that, behind 3 calls at a ninth of their cgroup's time
 * each. */
KTEST(ipc_queued_waiter_pushes_next_call)
{
	lend_run("behind", 3, "5");
}

/* A driver process: ports, an interrupt delivered as a notification, PCI
 * configuration, DMA and device memory; without the capability, -EPERM. */
KTEST(driver_irq_ports_pci_dma)
{
	struct cgroup *cg = user_cg("driver");
	if (!cg)
		return;
	const char *const argv[] = { "tests/driver", NULL };
	int pid = proc_spawn("tests/driver", argv, cg, &kernel_proc, PROC_CAP_DRIVER);
	KT_EXPECT(pid > 0);
	wait_exit0(pid);
	const char *const nocap[] = { "tests/driver", "nocap", NULL };
	KT_EXPECT_EQ(run_user("tests/driver", nocap, cg, 5000), W_EXITCODE(0));
	user_cg_done(cg);
}

/* A level-triggered line shared by two binders (the kernel's side of two
 * PCI devices' drivers on one ISA line): an interrupt, raised here with
 * `int`, signals both and masks the line until both have acked; an unbind
 * counts as an ack (process exit unbinds the same way); an
 * edge-triggered line has one binder at most. */
static struct proc irq_other_owner;	/* a second owner: only its address is used */

static struct notification *irq_test_notif(void)
{
	int h = notif_create(&kernel_proc);
	struct kobj *o = h >= 0 ? handle_get(&kernel_proc, h, KOBJ_NOTIFICATION) : NULL;
	if (h >= 0)
		handle_close(&kernel_proc, h);
	return o ? container_of(o, struct notification, obj) : NULL;
}

static void irq_test_raise(uint32_t irq)
{
	if (irq == 5)
		__asm__ volatile("int %0" ::"i"(IRQ_VECTOR_BASE + 5));
	else
		__asm__ volatile("int %0" ::"i"(IRQ_VECTOR_BASE + 9));
}

static uint64_t irq_test_take(struct notification *n)
{
	return __atomic_exchange_n(&n->pending, 0, __ATOMIC_RELAXED);
}

KTEST(irq_level_line_shared)
{
	uint32_t irq = irq_level(5) && irq_masked(5) ? 5 : irq_level(9) && irq_masked(9) ? 9 : 0;
	if (!irq) {
		printk("# no free level-triggered ISA line (5 or 9): skipped\n");
		return;
	}
	struct notification *a = irq_test_notif(), *b = irq_test_notif();
	struct proc *pa = &kernel_proc, *pb = &irq_other_owner;
	KT_EXPECT(a && b);
	if (!a || !b)
		return;
	/* irq_bind takes a reference (keeps it while bound, drops it on
	 * failure); ours is dropped at the end. */
	kobj_get(&a->obj);
	KT_EXPECT_EQ(irq_bind(irq, &a->obj, 1, pa), 0);
	KT_EXPECT(!irq_masked(irq));
	kobj_get(&a->obj);
	KT_EXPECT_EQ(irq_bind(irq, &a->obj, 4, pa), -EBUSY);	/* one binding per process */
	kobj_get(&b->obj);
	KT_EXPECT_EQ(irq_bind(irq, &b->obj, 2, pb), 0);
	KT_EXPECT(!irq_masked(irq));

	irq_test_raise(irq);
	KT_EXPECT_EQ(irq_test_take(a), 1);
	KT_EXPECT_EQ(irq_test_take(b), 2);
	KT_EXPECT(irq_masked(irq));
	KT_EXPECT_EQ(irq_release(irq, pa, false), 0);
	KT_EXPECT(irq_masked(irq));	/* b has not acked */
	KT_EXPECT_EQ(irq_release(irq, pa, false), 0);
	KT_EXPECT(irq_masked(irq));	/* acking twice does not count for b */
	KT_EXPECT_EQ(irq_release(irq, pb, false), 0);
	KT_EXPECT(!irq_masked(irq));

	irq_test_raise(irq);
	KT_EXPECT(irq_test_take(a) == 1 && irq_test_take(b) == 2);
	KT_EXPECT(irq_masked(irq));
	KT_EXPECT_EQ(irq_release(irq, pb, false), 0);
	KT_EXPECT(irq_masked(irq));
	KT_EXPECT_EQ(irq_release(irq, pa, true), 0);	/* a unbinds without acking */
	KT_EXPECT(!irq_masked(irq));
	KT_EXPECT_EQ(irq_release(irq, pa, false), -EPERM);

	irq_test_raise(irq);
	KT_EXPECT_EQ(irq_test_take(a), 0);
	KT_EXPECT_EQ(irq_test_take(b), 2);
	KT_EXPECT(irq_masked(irq));
	KT_EXPECT_EQ(irq_release(irq, pb, true), 0);
	KT_EXPECT(irq_masked(irq));	/* nobody bound: masked */

	/* IRQ 1 (the keyboard, nobody's here) is edge-triggered on QEMU. */
	if (!irq_level(1) && irq_masked(1)) {
		kobj_get(&a->obj);
		kobj_get(&b->obj);
		KT_EXPECT_EQ(irq_bind(1, &a->obj, 1, pa), 0);
		KT_EXPECT_EQ(irq_bind(1, &b->obj, 1, pb), -EBUSY);
		KT_EXPECT_EQ(irq_release(1, pa, true), 0);
		KT_EXPECT(irq_masked(1));
	}
	kobj_put(&a->obj);
	kobj_put(&b->obj);
}

/* Starts the serial console driver with the driver capability. */
static int start_console_driver(struct cgroup *cg)
{
	const char *const argv[] = { "drivers/serial", NULL };
	int pid = proc_spawn("drivers/serial", argv, cg, &kernel_proc, PROC_CAP_DRIVER);
	KT_EXPECT(pid > 0);
	return pid;
}

static void stop_console_driver(int pid)
{
	int status = -1;
	proc_kill(proc_find(pid), SIGKILL);
	int r = proc_wait(&kernel_proc, pid, &status, 0, clock_ns() + 5000 * MS);
	if (r != pid)
		proc_dump(proc_find(pid));
	KT_EXPECT_EQ(r, pid);
	KT_EXPECT_EQ(status, W_SIGNALED(SIGKILL));
}

/* User output flows through the user-space serial driver: the lines of
 * this test's TAP are written by it. */
KTEST(console_driver_output)
{
	struct cgroup *d = user_cg("console_drv"), *c = user_cg("console_cli");
	if (!d || !c)
		return;
	int drv = start_console_driver(d);
	const char *const argv[] = { "tests/console", NULL };
	KT_EXPECT_EQ(run_user("tests/console", argv, c, 10000), W_EXITCODE(0));
	stop_console_driver(drv);
	user_cg_done(d);
	user_cg_done(c);
}

/* Input typed on the serial line (the test runner types it) reaches a
 * reader through IRQ 4, the driver's notification and IPC. */
KTEST(console_driver_input)
{
	struct cgroup *d = user_cg("console_drv"), *c = user_cg("console_cli");
	if (!d || !c)
		return;
	int drv = start_console_driver(d);
	const char *const argv[] = { "tests/console", "read", NULL };
	KT_EXPECT_EQ(run_user("tests/console", argv, c, 20000), W_EXITCODE(0));
	stop_console_driver(drv);
	user_cg_done(d);
	user_cg_done(c);
}

/* Past a cgroup's page limit a process's requests fail with ENOMEM; the
 * refusals are counted, and the charge returns to zero afterwards. */
KTEST(memcg_limit_seen_by_user_process)
{
	struct cgroup *cg = user_cg("memlimit");
	if (!cg)
		return;
	page_counter_set_max(&cg->memory, 120);
	const char *const argv[] = { "tests/memlimit", NULL };
	KT_EXPECT_EQ(run_user("tests/memlimit", argv, cg, 10000), W_EXITCODE(0));
	KT_EXPECT(cg->memory.failcnt > 0);
	KT_EXPECT(cg->memory.peak <= 120);
	user_cg_done(cg);
}

/* Shared pages between processes, handed over as a handle through IPC;
 * the memory is charged to the creator and freed with the last mapping. */
KTEST(shm_shared_between_processes)
{
	struct cgroup *a = user_cg("shm_creator"), *b = user_cg("shm_mapper");
	if (!a || !b)
		return;
	const char *const cargv[] = { "tests/shm", "creator", NULL };
	const char *const margv[] = { "tests/shm", NULL };
	int cp = proc_spawn("tests/shm", cargv, a, &kernel_proc, 0);
	KT_EXPECT(cp > 0);
	KT_EXPECT_EQ(run_user("tests/shm", margv, b, 10000), W_EXITCODE(0));
	wait_exit0(cp);
	user_cg_done(a);
	user_cg_done(b);
}

KTEST(user_fork_copy_on_write)
{
	const char *const argv[] = { "tests/fork", NULL };
	user_test("tests/fork", argv);
}

KTEST(user_execve)
{
	const char *const argv[] = { "tests/exec", NULL };
	user_test("tests/exec", argv);
}

KTEST(user_signals)
{
	const char *const argv[] = { "tests/signal", NULL };
	user_test("tests/signal", argv);
}

/* A POSIX program built against the C library (newlib with Arbor's port). */
KTEST(posix_basics_newlib)
{
	const char *const argv[] = { "posix/basics", NULL };
	struct cgroup *cg = user_cg("posix_basics");
	if (!cg)
		return;
	KT_EXPECT_EQ(run_user("posix/basics", argv, cg, 10000), W_EXITCODE(0));
	user_cg_done(cg);
}

KTEST(user_channels_and_handles)
{
	const char *const argv[] = { "tests/channel", NULL };
	user_test("tests/channel", argv);
}

/* Deferred replies: held calls, abandoned events, the handle's owner. */
KTEST(user_ipc_deferred_replies)
{
	const char *const argv[] = { "tests/defer", NULL };
	user_test("tests/defer", argv);
}

/* A server thread that sleeps while serving a call answers that call's
 * caller only, with the caller's data; callers interrupted or killed
 * during the sleep get no other call's reply; a reply_recv woken by an
 * event gets the event. */
KTEST(user_ipc_server_sleeps_mid_call)
{
	const char *const argv[] = { "tests/ipc_sleep", NULL };
	user_test("tests/ipc_sleep", argv);
}

/* A server whose last thread exits mid-call: reaped, its caller told. */
KTEST(user_ipc_server_exits_mid_call)
{
	const char *const argv[] = { "tests/server_exit", NULL };
	user_test("tests/server_exit", argv);
}

/* A server that exits holding no handle to its endpoint: the endpoint
 * dies with it (clients' calls get EHOSTDOWN). */
KTEST(user_ipc_endpoint_dies_with_owner)
{
	const char *const argv[] = { "tests/owner_exit", NULL };
	user_test("tests/owner_exit", argv);
}

/* Runs argv with descriptors 0-2 on the console, as init would, killed
 * after timeout_ms. */
static int run_posix_argv_for(const char *const *argv, struct cgroup *cg, uint64_t timeout_ms)
{
	const char *path = argv[0];
	int status = -1;
	struct kobj *console = ipc_name_get("console");
	int pid = proc_spawn_stdio(path, argv, cg, &kernel_proc, 0, console);
	if (console)
		kobj_put(console);
	if (pid < 0 || proc_wait(&kernel_proc, pid, &status, 0, clock_ns() + timeout_ms * MS) != pid) {
		ktest_fail(__FILE__, __LINE__, "%s did not finish", path);
		proc_dump(proc_find(pid));
		proc_kill(proc_find(pid), SIGKILL);
		proc_wait(&kernel_proc, pid, &status, 0, 0);
	}
	return status;
}

static int run_posix_argv(const char *const *argv, struct cgroup *cg)
{
	return run_posix_argv_for(argv, cg, 20000);
}

static int run_posix(const char *path, struct cgroup *cg)
{
	const char *const argv[] = { path, NULL };
	return run_posix_argv(argv, cg);
}

/* Runs argv (descriptors 0-2 on the console) in cgroup cgname, with the
 * servers (console, VFS, file systems) up in a cgroup "servers_NAME"; it must
 * exit 0. */
static void run_with_servers_for(const char *const *argv, const char *cgname, uint64_t timeout_ms)
{
	/* The servers' cgroup is named after the test, so that one test's
	 * leftovers cannot fail the ones after it. */
	char sname[48];
	fmt_snprintf(sname, sizeof(sname), "servers_%s", cgname);
	struct cgroup *s = user_cg(sname), *c = user_cg(cgname);
	struct userspace u;
	if (!s || !c)
		return;
	KT_EXPECT_EQ(userspace_start(s, &u), 0);
	KT_EXPECT_EQ(run_posix_argv_for(argv, c, timeout_ms), W_EXITCODE(0));
	userspace_stop(&u);
	user_cg_done(c);
	user_cg_done(s);
}

static void run_with_servers(const char *const *argv, const char *cgname)
{
	run_with_servers_for(argv, cgname, 20000);
}

/* Files, directories, pipes and devices through the VFS server. */
KTEST(posix_files_vfs)
{
	const char *const argv[] = { "posix/files", NULL };
	run_with_servers(argv, "posix_files");
}

/* poll, ppoll, select and pselect sleep in the kernel until an event, a
 * signal or the timeout (tests/ipc/poll.c, kernel/ipc/poll.c); epoll,
 * eventfd, timerfd, signalfd: Arbor's bounds and lifetimes
 * (tests/ipc/epoll.c). One start of the servers for both. */
KTEST(posix_poll)
{
	const char *const poll_argv[] = { "posix/poll", NULL };
	const char *const epoll_argv[] = { "posix/epoll", NULL };
	struct cgroup *s = user_cg("servers_posix_poll"), *c = user_cg("posix_poll");
	struct userspace u;
	if (!s || !c)
		return;
	KT_EXPECT_EQ(userspace_start(s, &u), 0);
	KT_EXPECT_EQ(run_posix_argv_for(poll_argv, c, 20000), W_EXITCODE(0));
	KT_EXPECT_EQ(run_posix_argv_for(epoll_argv, c, 20000), W_EXITCODE(0));
	userspace_stop(&u);
	user_cg_done(c);
	user_cg_done(s);
}

/* The page cache: tmpfs files served by the kernel without the server
 * (kernel/pcache, user/posix/pcache.c). */
KTEST(posix_pcache)
{
	const char *const argv[] = { "posix/pcache", NULL };
	run_with_servers(argv, "posix_pcache");
}

/* The C library's asynchronous I/O where its answers are Arbor's own:
 * AIO_MAX and AIO_LISTIO_MAX, helper threads ending once idle, a forked
 * child's requests, exit and exec with requests pending (tests/files/aio.c;
 * the rest is compared with Linux by diff_aio.c). */
KTEST(posix_aio)
{
	const char *const argv[] = { "posix/aio", NULL };
	run_with_servers_for(argv, "posix_aio", 60000);
}

/* O_PATH descriptors under Linux's permission rules (tests/files/opath.c). */
KTEST(posix_opath)
{
	const char *const argv[] = { "posix/opath", NULL };
	run_with_servers(argv, "posix_opath");
}

/* The C library's answers checked against the system: sysconf, pathconf
 * and confstr against what it does, initgroups against /etc/group
 * (tests/libc/libc.c). */
KTEST(posix_libc)
{
	const char *const argv[] = { "posix/libc", NULL };
	run_with_servers(argv, "posix_libc");
}

/* The kernel's name cache: stat and access answered without the tmpfs
 * server, always its answer (tests/files/ncache.c). */
KTEST(posix_ncache)
{
	const char *const argv[] = { "posix/ncache", NULL };
	run_with_servers_for(argv, "posix_ncache", 120000);
}

/* mmap of files on the page cache: shared and private mappings, SIGBUS
 * past the end, growth and truncation under mappings, msync and mmap's
 * errno, charging and file_mapped, a dead server (tests/memory/fmmap.c). */
KTEST(posix_fmmap)
{
	const char *const argv[] = { "posix/fmmap", NULL };
	run_with_servers(argv, "posix_fmmap");
}

/* The pager: missing pages of a backed object asked of its server (one
 * request per range, readahead, fill errors, killed readers, a dead
 * server's EIO and SIGBUS, the calls' rights; tests/memory/pager.c). */
KTEST(posix_pager)
{
	const char *const argv[] = { "posix/pager", NULL };
	run_with_servers(argv, "posix_pager");
}

/* Directory listing in batches: getdents64 and readdir on it, on every
 * file server (issue 18 item 4). Its 10,000-entry directory takes a few
 * seconds of creates and unlinks. */
KTEST(posix_dirents)
{
	const char *const argv[] = { "posix/dirents", NULL };
	run_with_servers_for(argv, "posix_dirents", 60000);
}

/* Handle rights and the credential checks (docs/security.md), starting
 * with issue 16's finding 1: a uid-1000 process that looked up "vfs"
 * could receive and answer root's calls. */
KTEST(posix_handle_rights)
{
	const char *const argv[] = { "posix/rights", NULL };
	run_with_servers(argv, "posix_rights");
}

/* Trust between users in the newer calls: socket files' permission and
 * binding checked by the kernel, raw calls as well as the C library's
 * (tests/security/trust.c). */
KTEST(posix_trust)
{
	const char *const argv[] = { "posix/trust", NULL };
	run_with_servers(argv, "posix_trust");
}

/* POSIX threads on kernel threads and futexes. */
KTEST(posix_threads)
{
	struct cgroup *c = user_cg("posix_threads");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/threads", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* pthreads between processes and the thread_cancel system call's bounds
 * (tests/proc/pthreads.c; the rest is in diff_pthread.c, diff_pcancel.c). */
KTEST(posix_pthreads)
{
	const char *const argv[] = { "posix/pthreads", NULL };
	run_with_servers(argv, "posix_pthreads");
}

/* FIFOs' system calls and the cancellation points that wait on
 * descriptors (tests/ipc/fifo.c; diff_fifo.c compares FIFOs with Linux). */
KTEST(posix_fifo)
{
	const char *const argv[] = { "posix/fifo", NULL };
	run_with_servers(argv, "posix_fifo");
}

/* Setting the wall clock and what follows it; sched_rr_get_interval
 * (tests/proc/clockset.c). */
KTEST(posix_clockset)
{
	const char *const argv[] = { "posix/clockset", NULL };
	run_with_servers(argv, "posix_clockset");
}

/* execve from the page cache: running copies share the text, ETXTBSY
 * for a running program's file (tests/proc/execmap.c). */
KTEST(posix_execmap)
{
	const char *const argv[] = { "posix/execmap", NULL };
	run_with_servers(argv, "posix_execmap");
}

/* The kernel log: fault reports as KERN_INFO records, klog(2)'s actions,
 * rights and errors (tests/proc/klog.c). */
KTEST(posix_klog)
{
	struct cgroup *c = user_cg("posix_klog");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/klog", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* /proc/lock_stat and lockstat(2): the file's rights and header, a
 * contended kernel lock listed with its places, clearing, a user's
 * EACCES and EPERM (tests/proc/lockstat.c). */
KTEST(posix_lockstat)
{
	const char *const argv[] = { "posix/lockstat", NULL };
	run_with_servers(argv, "posix_lockstat");
}

/* Unix-domain sockets: EFAULT, rights over SCM_RIGHTS, credentials,
 * memory.stat sock, waits (tests/ipc/sockets.c; tests/ipc/diff_unix.c
 * compares the rest with Linux). */
KTEST(posix_sockets)
{
	const char *const argv[] = { "posix/sockets", NULL };
	run_with_servers(argv, "posix_sockets"); /* /proc, /sys/fs/cgroup */
}

/* The C library's fault fixups: EFAULT from its copy routines, SIGSEGV
 * elsewhere, the registration's checks (tests/libc/ufault.c). */
KTEST(posix_ufault)
{
	struct cgroup *c = user_cg("posix_ufault");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/ufault", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* getrandom's checks: flags, bad buffers, a partial copy, distinct
 * output (tests/libc/random.c). */
KTEST(posix_random)
{
	struct cgroup *c = user_cg("posix_random");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/random", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* sethostname and uname's node name: root only, Linux's errors
 * (tests/proc/hostname.c). */
KTEST(posix_hostname)
{
	struct cgroup *c = user_cg("posix_hostname");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/hostname", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* pidfd_open and pidfd_send_signal: kill's rule, the handle's kind,
 * reaped processes, poll (tests/proc/pidfd.c). */
KTEST(posix_pidfd)
{
	struct cgroup *c = user_cg("posix_pidfd");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/pidfd", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* ptrace: each request, the permission rule, syscall stops, tracer
 * deaths (tests/proc/ptrace.c). */
KTEST(posix_ptrace)
{
	struct cgroup *c = user_cg("posix_ptrace");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/ptrace", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* Process and memory reports (the data of ps and free). */
KTEST(posix_procinfo)
{
	struct cgroup *c = user_cg("posix_procinfo");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/procinfo", c), W_EXITCODE(0));
	user_cg_done(c);
}

/* What bounds the number of threads: the cgroup's pids.max (EAGAIN) and
 * memory, not the C library; 1000 threads' kernel stacks in memory.stat
 * (tests/proc/threadlimits.c; diff_manythreads.c compares with glibc). */
KTEST(posix_threadlimits)
{
	const char *const argv[] = { "posix/threadlimits", NULL };
	run_with_servers_for(argv, "posix_threadlimits", 60000);
}

/* Threads in /proc: thread-self, task/TID, a thread's own cgroup. */
KTEST(posix_threadself)
{
	const char *const argv[] = { "posix/threadself", NULL };
	run_with_servers(argv, "posix_threadself");
}

/* Symbolic and hard links, the walk through them (ELOOP, "..", other
 * mounts) and the *at calls. */
KTEST(posix_links_at)
{
	const char *const argv[] = { "posix/links", NULL };
	run_with_servers(argv, "posix_links");
}

/* Mounts, procfs and devfs through the file-system servers. */
KTEST(posix_mounts_procfs_devfs)
{
	const char *const argv[] = { "posix/mounts", "one", "two words", NULL };
	run_with_servers(argv, "posix_mounts");
}

/* cgroup2 at /sys/fs/cgroup: the tree, the core files, migration. */
KTEST(posix_cgfs_core)
{
	const char *const argv[] = { "posix/cgroups", NULL };
	run_with_servers(argv, "posix_cgroups");
}

/* The misc controller and its ipc_names resource (tests/cgroup/misc.c):
 * the root passes misc on to the test's cgroup. */
KTEST(posix_cgroup_misc)
{
	const char *const argv[] = { "posix/misc", NULL };
	run_with_servers(argv, "posix_misc");
}

/* A new memory cgroup's state charged to its parent: mkdir and
 * subtree_control ENOMEM under memory.max (tests/cgroup/kmem.c). */
KTEST(posix_cgroup_kmem)
{
	const char *const argv[] = { "posix/kmem", NULL };
	run_with_servers(argv, "posix_kmem");
}

/* Kernel memory contained (tests/cgroup/kcontain.c): a uid-1000 subtree
 * under memory.max 8M that makes cgroups, processes, full pipes, threads
 * and sparse 1 TiB mappings until each loop ends (an OOM kill of the
 * looper, as on Linux 6.1) stays within 8M; a bystander's work within a
 * generous 3x (make bench has the figures); the subtree removed, the
 * free memory back. About 10 s. */
KTEST(posix_cgroup_kcontain)
{
	const char *const argv[] = { "posix/kcontain", "--test", NULL };
	run_with_servers_for(argv, "posix_kcontain", 180000);
}

/* clone3 with CLONE_INTO_CGROUP (tests/cgroup/clone3.c). */
KTEST(posix_clone3)
{
	const char *const argv[] = { "posix/clone3", NULL };
	run_with_servers(argv, "posix_clone3");
}

/* Cgroup namespaces and /sys/kernel/cgroup (tests/cgroup/cgns.c; the
 * comparison with Linux is linux_cgns.c, in run-tests.py). */
KTEST(posix_cgns)
{
	const char *const argv[] = { "posix/cgns", NULL };
	run_with_servers(argv, "posix_cgns");
}

/* Timer events between ticks: sleeps and cpu.max quotas end on time
 * (tests/sched/timerev.c). Under -icount, in a boot of its own
 * (tools/run-tests.py): guest time is then exact, where a host that
 * stalls QEMU would stretch a quota's run past its event. */
KTEST(icount_timer_events)
{
	const char *const argv[] = { "posix/timerev", NULL };
	run_with_servers(argv, "icount_timer_events");
}

/* The memory controller: files, OOM kills inside a cgroup, oom.group,
 * memory.high throttling, memory.max lowered below usage. */
KTEST(posix_memory)
{
	const char *const argv[] = { "posix/memory", NULL };
	run_with_servers(argv, "posix_memory");
}

/* Forks, exits and migrations racing mkdir, rmdir and controller
 * toggles; then every counter must be exact (and, in user_cg_done, every
 * page uncharged). */
KTEST(posix_cgroup_stress)
{
	const char *const argv[] = { "posix/cgstress", NULL };
	run_with_servers(argv, "posix_cgstress");
}

/* The kernel's memory as a leak check sees it: pages in use outside the
 * heap, and the heap's bytes and pages. */
struct churn_mem {
	uint64_t other_pages, heap_bytes, heap_pages;
};

static void churn_mem_now(struct churn_mem *m)
{
	uint64_t f = irq_save();
	m->heap_bytes = heap_bytes_in_use();
	m->heap_pages = heap_pages_held();
	m->other_pages = pmm_managed_pages() - pmm_free_pages() - m->heap_pages;
	irq_restore(f);
}

/* Waits (up to 2 s) until two looks 50 ms apart agree: the last threads
 * and cgroups of a run are freed a moment after it ends. */
static void churn_mem_settled(struct churn_mem *m)
{
	struct churn_mem prev;
	churn_mem_now(&prev);
	for (int i = 0; i < 40; i++) {
		sched_sleep_until(clock_ns() + 50 * MS);
		churn_mem_now(m);
		if (m->other_pages == prev.other_pages && m->heap_bytes == prev.heap_bytes)
			return;
		prev = *m;
	}
}

/* Churn leaves nothing behind (posix/churn: fork/exit, migration,
 * mkdir/rmdir, controller toggles, freeze/thaw, cgroup.kill and limit
 * changes, for churn=SECONDS of the command line, 20 by default), checked
 * by the program (every counter exact, free memory back) and here, with
 * the servers stopped and every cgroup gone: the kernel's pages outside
 * the heap and its heap bytes exactly as after a warm-up run. A soak test:
 * not part of test=all (tools/run-tests.py boots it on its own; make
 * soak SECONDS=N runs it longer). */
/* Plays init for the soak: reaps orphans (killed victims' children) as
 * init would, so that their zombies do not hold their one page each. */
static volatile bool churn_reaping, churn_reaper_running;

static long churn_reaper(void *arg)
{
	(void)arg;
	while (churn_reaping) {
		proc_reap_orphans();
		sched_sleep_until(clock_ns() + 5 * MS);
	}
	churn_reaper_running = false;
	thread_exit(0);
}

KTEST(soak_churn)
{
	int err;
	churn_reaping = churn_reaper_running = true;
	if (!kthread_create("churn-reaper", churn_reaper, NULL, NULL, &err)) {
		ktest_fail(__FILE__, __LINE__, "no reaper thread: %d", err);
		return;
	}
	char secs[16] = "20";
	cmdline_get(boot_info.cmdline, "churn", secs, sizeof(secs));
	uint64_t n = 0;
	for (const char *p = secs; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (uint64_t)(*p - '0');
	const char *const warm[] = { "posix/churn", "2", NULL };
	run_with_servers_for(warm, "posix_churn", 60000);
	struct churn_mem a, b;
	churn_mem_settled(&a);
	const char *const argv[] = { "posix/churn", secs, NULL };
	run_with_servers_for(argv, "posix_churn", (n * 12 / 10 + 60) * 1000);
	churn_mem_settled(&b);
	printk("# churn: pages outside the heap %lu -> %lu, heap %lu -> %lu bytes in %lu -> %lu pages\n",
	       a.other_pages, b.other_pages, a.heap_bytes, b.heap_bytes, a.heap_pages, b.heap_pages);
	KT_EXPECT_EQ(b.other_pages, a.other_pages);
	KT_EXPECT_EQ(b.heap_bytes, a.heap_bytes);
	/* the heap may keep an empty slab per size class, and partial slabs
	 * fill in another order: a few pages either way, not a leak's */
	KT_EXPECT(b.heap_pages <= a.heap_pages + 16);
	churn_reaping = false;
	while (churn_reaper_running)
		sched_sleep_until(clock_ns() + 5 * MS);
}

/* Pipe end release races (tests/ipc/piperace.c): both ends of many pipes
 * closed from two threads or processes at once, through exec's
 * close-on-exec and kills of blocked waiters. Booted with soak_churn and
 * heap_poison=1 (a walk of a freed wait queue faults at once), not in
 * test=all; no thread may be left on a wait list. */
KTEST(soak_pipe_race)
{
	uint64_t stray = sched_stray_waiters();
	const char *const argv[] = { "posix/piperace", "4", NULL };
	run_with_servers_for(argv, "posix_piperace", 60000);
	KT_EXPECT_EQ(sched_stray_waiters(), stray);
}

/* Fork racing kills (tests/cgroup/forkrace.c): forkers killed mid-fork,
 * over and over for 8 s, with cgroup.kill and kill(-pgid). A kill that woke a
 * child before fork did let it end and be freed before fork's wake-up
 * (proc_start_first_thread). Booted with soak_churn and heap_poison=1 (the
 * wake-up of a freed thread faults at once), not in test=all; no thread
 * may be left on a wait list. */
KTEST(soak_fork_race)
{
	uint64_t stray = sched_stray_waiters();
	int err;
	/* The killed forkers' children are orphans by the thousand: reaped
	 * as init would, or their zombies fill memory and the pid space. */
	churn_reaping = churn_reaper_running = true;
	if (!kthread_create("forkrace-reaper", churn_reaper, NULL, NULL, &err)) {
		ktest_fail(__FILE__, __LINE__, "no reaper thread: %d", err);
		return;
	}
	char secs[16] = "8"; /* forkrace=SECONDS on the command line: longer */
	cmdline_get(boot_info.cmdline, "forkrace", secs, sizeof(secs));
	const char *const argv[] = { "posix/forkrace", secs, NULL };
	run_with_servers_for(argv, "posix_forkrace", 600000);
	KT_EXPECT_EQ(sched_stray_waiters(), stray);
	churn_reaping = false;
	while (churn_reaper_running)
		sched_sleep_until(clock_ns() + 5 * MS);
}

/* Containment (posix/contain --test): a fork bomb under pids.max 50, a
 * memory hog under memory.max 32M and 64 threads under cpu.max 10 % kill
 * nothing outside their cgroup, and a bystander's work finishes in less
 * than 3x its time alone (make bench prints the slowdowns). About 15 s:
 * booted with soak_churn, not in test=all. */
KTEST(soak_containment)
{
	const char *const argv[] = { "posix/contain", "--test", NULL };
	run_with_servers_for(argv, "posix_contain", 40000);
}

/* Ctrl-C and Ctrl-Z typed on the console signal the foreground group. */
KTEST(posix_console_signal_keys)
{
	const char *const argv[] = { "posix/tty", NULL };
	run_with_servers(argv, "posix_tty");
}

/* The terminal interface: termios round trips, errno, window size,
 * VMIN/VTIME, state kept by the terminal (tests/console/termios.c). */
KTEST(posix_console_termios)
{
	const char *const argv[] = { "posix/termios", NULL };
	run_with_servers(argv, "posix_termios");
}

/* Readers waiting on the console never hold up writers, queries or the
 * console itself once they are killed (issue 16, findings 3 and 5). */
KTEST(posix_console_readers_never_stall)
{
	const char *const argv[] = { "posix/stall", "console", NULL };
	run_with_servers(argv, "posix_stall_console");
}

/* A client of the file servers that is frozen, stopped, killed or floods
 * does not hold up another client's requests. */
KTEST(posix_file_servers_never_stall)
{
	const char *const argv[] = { "posix/stall", "files", NULL };
	/* Five phases of thousands of rounds each: 20 s was not generous on a
	 * loaded host (the work itself is bounded by the test's own checks). */
	run_with_servers_for(argv, "posix_stall_files", 90000);
}

/* The shell scripts of tests/sh, run by /bin/sh from the VFS: the shell's
 * language (basic.sh) and the /bin tools (tools.sh). Each script exits
 * with its number of failures. */
static void run_shell_script(const char *script, const char *cgname)
{
	const char *const argv[] = { "bin/sh", script, NULL };
	run_with_servers(argv, cgname);
}

KTEST(posix_shell_script)
{
	run_shell_script("/tests/sh/basic.sh", "posix_shell");
}

KTEST(posix_tools_script)
{
	run_shell_script("/tests/sh/tools.sh", "posix_tools");
}

/* /dev/vda: the virtio-blk driver and the block layer (the runner attaches
 * a fresh scratch disk to the self-test boot). Without a virtio-blk
 * device the test says so and passes. */
static void run_disk_test(const char *const *argv, const char *cgname)
{
	if (!pci_present(0x1af4, 0x1001) && !pci_present(0x1af4, 0x1042)) {
		printk("# no virtio-blk disk attached: %s skipped\n", argv[0]);
		return;
	}
	run_with_servers(argv, cgname);
}

/* One cgroup's calls held by io.max do not take the disk server's
 * workers from another cgroup's (each cgroup's share; the rest deferred). */
KTEST(posix_disk_server_never_stalls)
{
	const char *const argv[] = { "posix/stall", "disk", NULL };
	run_disk_test(argv, "posix_stall_disk");
}

KTEST(posix_block_vda)
{
	const char *const argv[] = { "posix/blockdev", NULL };
	run_disk_test(argv, "posix_blockdev");
}

/* /dev/vdb beside /dev/vda, a driver process each (the runner attaches a
 * second, small scratch disk): the nodes, /proc/partitions, writes to one
 * never reaching the other, io.stat/io.max/io.weight per device. Without
 * a second disk the program skips. */
KTEST(posix_block_multidisk)
{
	const char *const argv[] = { "posix/multidisk", NULL };
	run_disk_test(argv, "posix_multidisk");
}

/* The io controller on /dev/vda: io.stat, io.max (format, errors,
 * throttling along the path, work-conserving), io.weight. */
KTEST(posix_io_cgroup)
{
	const char *const argv[] = { "posix/iocg", NULL };
	run_disk_test(argv, "posix_iocg");
}


/* Bounded kernel work (issue 16): terabyte mmap/mprotect/munmap/brk and
 * exit stay quick while another process's sleeps stay on time; Linux's
 * limits (max_map_count, RLIMIT_AS, ARG_MAX, PATH_MAX, IOV_MAX). */
KTEST(posix_bounded_work)
{
	const char *const argv[] = { "posix/bounded", NULL };
	run_with_servers(argv, "posix_bounded");
}

/* Scheduler races (issue 16, findings 2 and 6): a server exiting while it
 * serves its own process's call; a fork/exit/wait/kill stress. No thread
 * may have been found queued or on a wait list while not runnable. */
/* sched_setaffinity, sched_getcpu and the CPU count (tests/sched/affinity.c):
 * on make test's 2 CPUs, and on 4 in tools/run-tests.py's smp boots. */
KTEST(posix_affinity)
{
	const char *const argv[] = { "posix/affinity", NULL };
	run_with_servers(argv, "posix_affinity");
}

/* cpu.pressure across the CPUs that schedule (tests/sched/psi.c): one
 * waiting spinner stalls one CPU of N, not the group. On make test's 2
 * CPUs, and on 4 in tools/run-tests.py's smp boots. */
KTEST(posix_psi)
{
	const char *const argv[] = { "posix/psi", NULL };
	run_with_servers(argv, "posix_psi");
}

/* /proc/stat, /proc/cpuinfo, nproc and getconf (tests/proc/cpustat.c, the
 * differential test diff_cpustat.c): on make test's 2 CPUs, and on 4 in
 * tools/run-tests.py's smp boots. */
KTEST(posix_cpustat)
{
	const char *const argv[] = { "posix/cpustat", NULL };
	run_with_servers(argv, "posix_cpustat");
}

/* The cpuset controller (tests/cgroup/cpuset.c): on make test's 2 CPUs,
 * and on 4 in tools/run-tests.py's smp boots. */
KTEST(posix_cpuset)
{
	const char *const argv[] = { "posix/cpuset", NULL };
	run_with_servers(argv, "posix_cpuset");
}

KTEST(posix_sched_races)
{
	uint64_t stray = sched_stray_waiters();
	const char *const argv[] = { "posix/schedrace", NULL };
	run_with_servers(argv, "posix_schedrace");
	KT_EXPECT_EQ(sched_stray_waiters(), stray);
}

/* The real-time class (tests/sched/rtsched.c): SCHED_FIFO before a nice
 * -20 spinner, RR alternation, the 95 % throttle keeping a SCHED_OTHER
 * process and the file servers going beside a FIFO spinner, priority
 * inheritance through a PTHREAD_PRIO_INHERIT mutex. */
KTEST(posix_rtsched)
{
	const char *const argv[] = { "posix/rtsched", NULL };
	run_with_servers(argv, "posix_rtsched");
}

/* Signals with threads, bounds and rights: frames per thread, queued
 * real-time signals against RLIMIT_SIGPENDING, sigqueue/tgkill rights,
 * pthread_kill, thread timers (tests/proc/sigrt.c). */
KTEST(posix_sigrt)
{
	struct cgroup *c = user_cg("posix_sigrt");
	if (!c)
		return;
	KT_EXPECT_EQ(run_posix("posix/sigrt", c), W_EXITCODE(0));
	user_cg_done(c);
}
