/* C entry: bring the machine up in dependency order, print the banner,
 * then run self-tests or idle. */
#include "../boot/boot.h"
#include "arch/x86.h"
#include "bootinfo.h"
#include "abi/errno.h"
#include "dev.h"
#include "cgroup.h"
#include "hooks.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "fpu.h"
#include "heap.h"
#include "ktest.h"
#include "panic.h"
#include "percpu.h"
#include "percpu_alloc.h"
#include "memcg.h"
#include "kcov.h"
#include "pmm.h"
#include "printk.h"
#include "serial.h"
#include "smp.h"
#include "timer.h"
#include "random.h"
#include "trap.h"
#include "vm.h"

#define ARBOR_VERSION "0.1"

struct boot_info boot_info;

static const void *boot_phys(paddr_t pa, size_t len)
{
	(void)len; /* the boot tables map all of the low 4 GiB */
	return phys_to_virt(pa);
}

static void boot_parse(uint32_t loader, uint32_t info)
{
	int err = -1;

	if (loader == LOADER_MULTIBOOT2)
		err = bootinfo_parse_mb2(&boot_info, info, boot_phys);
	else if (loader == LOADER_PVH)
		err = bootinfo_parse_pvh(&boot_info, info, boot_phys);
	else
		panic("boot: unknown loader (not multiboot2, not PVH); cannot find memory");
	if (err || boot_info.nr_mem == 0)
		panic("boot: the %s boot information is malformed or has no memory map",
		      boot_info.loader_name);
}

static void banner(void)
{
	const struct boot_info *bi = &boot_info;

	printk("Arbor %s (x86_64) booted by %s\n", ARBOR_VERSION, bi->loader_name);
	printk("memory: %lu MiB usable in %u ranges, top 0x%lx; %lu pages managed\n",
	       bootinfo_usable_bytes(bi) >> 20, bi->nr_mem, bootinfo_usable_top(bi), pmm_managed_pages());
	printk("command line: '%s'\n", bi->cmdline);
	for (uint32_t i = 0; i < bi->nr_mods; i++)
		printk("module %u: '%s' at 0x%lx, %lu bytes\n", i, bi->mods[i].name,
		       bi->mods[i].start, bi->mods[i].size);
	printk("timer: TSC %lu MHz, LAPIC timer %lu kHz, tick %d Hz\n",
	       clock_tsc_hz() / 1000000, timer_lapic_hz() / 1000, TIMER_HZ);
}

/* The first thread: whatever needs a thread context to start. */
static long kinit(void *arg)
{
	char test[BOOT_CMDLINE_MAX];
	(void)arg;

	if (cmdline_get(boot_info.cmdline, "test", test, sizeof(test)))
		ktest_main(test);
	if (cmdline_get(boot_info.cmdline, "bench", test, sizeof(test)))
		kbench_main(test);
	/* init gets pid 1 and the driver capability, which it hands on to
	 * the drivers it starts. */
	const char *const argv[] = { "bin/init", NULL };
	int pid = proc_spawn("bin/init", argv, &cg_root, &kernel_proc, PROC_CAP_DRIVER);
	if (pid < 0)
		panic("cannot start bin/init from the boot archive (error %d)", pid);
	init_proc = proc_find(pid);
	for (;;) { /* orphans of a dead init land here */
		int status;
		if (proc_wait(&kernel_proc, -1, &status, 0, 0) == -ECHILD)
			sched_sleep_until(clock_ns() + 1000000000ull);
	}
	return 0;
}

void kmain(uint32_t loader, uint32_t info)
{
	int err;

	serial_init();
	percpu_init_boot_cpu();
	kcov_init();
	idt_init();
	boot_parse(loader, info);
	printk_setup(boot_info.cmdline);
#ifdef CONFIG_LOCKDEP
	lockdep_setup(boot_info.cmdline);
#endif
	fpu_init();
	pmm_init(&boot_info);
	heap_debug_init();
	vm_init(bootinfo_usable_top(&boot_info));
	smp_discover();
	percpu_alloc_init(smp_possible());
	memcg_init();
	cg_init(&cgfs_kernel_hooks);
	proc_init();
	sched_init();
	softlockup_init();
	syscall_init();
	timer_init();
	irq_init();
	banner();
	random_init(); /* after the clocks it seeds from (and the banner: arbor-run's first line) */
	smp_start();
	if (!kthread_create("kinit", kinit, NULL, NULL, &err))
		panic("cannot create the first thread (%d)", err);
	cpu_sti();
	sched_idle_loop();
}
