/* The micro-benchmark harness and the early kernel's benchmarks. */
#include "abi/qemu_exit.h"
#include "format.h"
#include "bootinfo.h"
#include "cgroup.h"
#include "dev.h"
#include "initrd.h"
#include "ipc.h"
#include "abi/wait.h"
#include "kstring.h"
#include "memcg.h"
#include "proc.h"
#include "sched.h"
#include "vm.h"
#include "arch/x86.h"
#include "heap.h"
#include "ktest.h"
#include "userspace.h"
#include "panic.h"
#include "pmm.h"
#include "printk.h"
#include "smp.h"
#include "timer.h"
#include "trap.h"

extern const struct kbench __kbench_start[], __kbench_end[];

/* Programs under bench/ in the boot archive print their own lines. */
static int kbench_user_programs(const char *filter)
{
	struct initrd_iter it;
	struct initrd_file f;
	int n = 0;

	if (boot_info.nr_mods == 0)
		return 0;
	initrd_iter_init(&it, phys_to_virt(boot_info.mods[0].start), boot_info.mods[0].size);
	while (initrd_next(&it, &f)) {
		char path[64];
		if (!initrd_is_reg(&f) || f.name_len >= sizeof(path) || f.name_len < 7 ||
		    memcmp(f.name, "bench/", 6) != 0)
			continue;
		memcpy(path, f.name, f.name_len);
		path[f.name_len] = '\0';
		if (!ktest_selected(filter, path + 6) && strcmp(filter, "all") != 0)
			continue;
		const char *const argv[] = { path, NULL };
		int status, pid = proc_spawn(path, argv, &cg_root, &kernel_proc, 0);
		if (pid > 0 && proc_wait(&kernel_proc, pid, &status, 0, 0) == pid && status == 0)
			n++;
		else
			printk("bench: %s failed\n", path);
	}
	return n;
}

/* posix/bench and posix/membench need the console driver, the VFS and
 * the file systems. */
static void kbench_posix(const char *prog)
{
	const char *const bargv[] = { prog, NULL };
	struct userspace u;
	int status;
	if (userspace_start(&cg_root, &u) == 0) {
		struct kobj *console = ipc_name_get("console");
		int bp = proc_spawn_stdio(prog, bargv, &cg_root, &kernel_proc, 0, console);
		if (bp > 0)
			proc_wait(&kernel_proc, bp, &status, 0, 0);
		if (console)
			kobj_put(console);
	}
	userspace_stop(&u);
}

int kbench_cpu(const char *filter); /* kbench_cpu.c: how many ran */

static void kbench_smp_noop(void *arg)
{
	(void)arg;
}

/* A cross-CPU call to CPU 1 and back (smp_call: IPI, the handler, the
 * caller's poll for DONE): what a wake-up or a TLB shootdown on another
 * CPU costs at least. Plain TCG only (make bench boots it with --smp 2):
 * under -icount QEMU runs the CPUs in turn. */
static int kbench_smp(void)
{
	if (smp_online() < 2) {
		printk("# bench smp_call_remote: one CPU (boot with --smp 2)\n");
		return 0;
	}
	const uint64_t iters = 2000;
	for (uint64_t i = 0; i < iters / 10; i++)
		smp_call(1, kbench_smp_noop, NULL);
	uint64_t t0 = clock_ns();
	for (uint64_t i = 0; i < iters; i++)
		smp_call(1, kbench_smp_noop, NULL);
	uint64_t x100 = (clock_ns() - t0) * 100 / iters;
	printk("bench smp_call_remote %lu.%02lu ns\n", x100 / 100, x100 % 100);
	return 1;
}

__noreturn void kbench_main(const char *filter)
{
	int n = 0;

	for (const struct kbench *b = __kbench_start; b < __kbench_end; b++) {
		if (!ktest_selected(filter, b->name))
			continue;
		b->fn(b->iters / 10); /* warm caches and the TLB */
		uint64_t t0 = clock_ns();
		b->fn(b->iters);
		uint64_t ns = clock_ns() - t0;
		uint64_t x100 = ns * 100 / b->iters;
		printk("bench %s %lu.%02lu ns\n", b->name, x100 / 100, x100 % 100);
		n++;
	}
	n += kbench_user_programs(filter);
	n += kbench_cpu(filter);
	if (ktest_selected(filter, "smp"))
		n += kbench_smp();
	if (ktest_selected(filter, "posix")) {
		kbench_posix("posix/bench");
		n++;
	}
	/* the file operations compared with Linux (tools/bench.py) */
	if (ktest_selected(filter, "fileops")) {
		kbench_posix("posix/fileops");
		n++;
	}
	/* poll's wake-up latency, compared with Linux (tools/bench.py) */
	if (ktest_selected(filter, "pollwake")) {
		kbench_posix("posix/pollwake");
		n++;
	}
	if (ktest_selected(filter, "memory")) {
		kbench_posix("posix/membench");
		n++;
	}
	if (ktest_selected(filter, "containment")) {
		kbench_posix("posix/contain");
		n++;
	}
	/* kernel memory contained (issue 27 item 2), compared with Linux */
	if (ktest_selected(filter, "kcontain")) {
		kbench_posix("posix/kcontain");
		n++;
	}
	/* /dev/vda's throughput, when a virtio-blk disk is attached */
	if (ktest_selected(filter, "blk") && (pci_present(0x1af4, 0x1001) || pci_present(0x1af4, 0x1042))) {
		kbench_posix("posix/blkbench");
		n++;
	}
	qemu_exit(n ? QEMU_EXIT_SUCCESS : QEMU_EXIT_FAILURE);
}

KBENCH(page_alloc_free, 200000)
{
	for (uint64_t i = 0; i < iters; i++)
		pmm_free(pmm_alloc(0), 0);
}

KBENCH(kmalloc_kfree_64, 200000)
{
	for (uint64_t i = 0; i < iters; i++)
		kfree(kmalloc(64));
}

KBENCH(clock_read, 200000)
{
	for (uint64_t i = 0; i < iters; i++)
		(void)clock_ns();
}

#define KBENCH_VECTOR 0x80

static void kbench_noop(struct trap_frame *tf)
{
	(void)tf;
}

/* Interrupt entry and exit: a software interrupt to an empty handler. */
KBENCH(trap_roundtrip, 200000)
{
	trap_register(KBENCH_VECTOR, kbench_noop);
	for (uint64_t i = 0; i < iters; i++)
		__asm__ volatile("int $0x80" ::: "memory");
	trap_register(KBENCH_VECTOR, NULL);
}

/* Charging a page: the hierarchy walk happens once per batch (the per-CPU
 * stock), so depth 10 should cost about what depth 1 does. */
static struct cgroup *kbench_nested(int depth)
{
	static struct cgroup *made[11];
	if (made[depth])
		return made[depth];
	struct cgroup *cg = &cg_root;
	char name[16];
	for (int i = 0; i < depth; i++) {
		fmt_snprintf(name, sizeof(name), "d%d_%d", depth, i);
		if (cg_create(cg, name, &cg))
			panic("bench: cannot create cgroup %s", name);
	}
	return made[depth] = cg;
}

static void kbench_charge_pages(struct cgroup *cg, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		mem_free_pages(mem_alloc_pages(cg, 0, MEMCG_STAT_ANON), 0);
}

KBENCH(page_alloc_charged_depth1, 200000)
{
	kbench_charge_pages(kbench_nested(1), iters);
}

KBENCH(page_alloc_charged_depth10, 200000)
{
	kbench_charge_pages(kbench_nested(10), iters);
}

static void kbench_charge_only(struct cgroup *cg, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		mem_charge(cg, 1, MEMCG_STAT_ANON);
		mem_uncharge(cg, 1, MEMCG_STAT_ANON);
	}
}

KBENCH(page_charge_depth1, 200000)
{
	kbench_charge_only(kbench_nested(1), iters);
}

KBENCH(page_charge_depth10, 200000)
{
	kbench_charge_only(kbench_nested(10), iters);
}
