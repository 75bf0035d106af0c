/* The in-kernel test runner: runs the KTEST()s the command line selects
 * (test=NAME, a prefix, or all), prints TAP for tools/run-tests.py and
 * exits QEMU with its status; also the boots that must end badly (fault,
 * hang, softlockup, triple) that prove the runner notices. */
#include "ktest.h"
#include "percpu.h"
#include "sched.h"
#include "proc.h"
#include "spinlock.h"
#include "abi/qemu_exit.h"
#include "arch/x86.h"
#include "format.h"
#include "kstring.h"
#include "panic.h"
#include "printk.h"
#include "smp.h"
#include "abi/errno.h"

extern const struct ktest __ktests_start[], __ktests_end[];

static int ktest_failures;

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("# FAIL %s:%d: %s\n", file, line, msg);
	ktest_failures++;
}

bool ktest_selected(const char *filter, const char *name)
{
	size_t n = strlen(name);
	if (strcmp(filter, "all") == 0)
		return true;
	for (const char *p = filter; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && strncmp(p, name, n) == 0)
			return true;
		p += len + (comma ? 1 : 0);
	}
	return false;
}

/* Three named frames deep, so the runner can check that the backtrace
 * of the fault names each of them. */
static __attribute__((noinline)) void ktest_fault_inner(volatile uint64_t *p)
{
	*p = 0xdead;
	printk("# not reached: the write did not fault\n"); /* also: not a leaf */
}

static volatile uint64_t ktest_fault_address = 0x10; /* unmapped: low memory */

static __attribute__((noinline)) void ktest_fault_outer(void)
{
	ktest_fault_inner((volatile uint64_t *)ktest_fault_address);
	__asm__ volatile("" ::: "memory");
}

/* Spins with a spinlock held and interrupts on: the soft-lockup
 * detector must panic and name this function. */
static __attribute__((noinline)) void ktest_softlockup_spin(void)
{
	static struct spinlock lock = SPINLOCK_INIT("ktest_softlockup");
	spin_lock(&lock);
	cpu_sti();
	for (;;)
		cpu_pause();
}

/* Faults on another CPU, in a cross-CPU call: that CPU panics and the
 * boot CPU, waiting in smp_call, is stopped and prints its own state. */
static __attribute__((noinline)) void ktest_fault_ap(void *arg)
{
	(void)arg;
	ktest_fault_inner((volatile uint64_t *)ktest_fault_address);
}

#ifdef CONFIG_LOCKDEP
/* Two locks taken in both orders, one after the other: no deadlock this
 * time, but the checker must report the one that could happen. */
static struct spinlock ktest_ld_a = SPINLOCK_INIT("ktest_lockdep_a");
static struct spinlock ktest_ld_b = SPINLOCK_INIT("ktest_lockdep_b");
static struct spinlock ktest_ld_c = SPINLOCK_INIT("ktest_lockdep_c");

static __attribute__((noinline)) void ktest_lockdep_ab(void)
{
	spin_lock(&ktest_ld_a);
	spin_lock(&ktest_ld_b);
	spin_unlock(&ktest_ld_b);
	spin_unlock(&ktest_ld_a);
}

static __attribute__((noinline)) void ktest_lockdep_bc(void)
{
	spin_lock(&ktest_ld_b);
	spin_lock(&ktest_ld_c);
	spin_unlock(&ktest_ld_c);
	spin_unlock(&ktest_ld_b);
}

/* c then a closes a -> b -> c -> a */
static __attribute__((noinline)) void ktest_lockdep_ca(void)
{
	spin_lock(&ktest_ld_c);
	spin_lock(&ktest_ld_a);
	spin_unlock(&ktest_ld_a);
	spin_unlock(&ktest_ld_c);
}

/* Taken in an interrupt handler (a cross-CPU call: this CPU's own runs
 * directly, so it needs a second CPU) and here with interrupts on. */
static void ktest_lockdep_in_irq(void *arg)
{
	spin_lock((struct spinlock *)arg);
	spin_unlock((struct spinlock *)arg);
}

/* irq-safe held while irq-unsafe is taken: no cycle, no class both ways,
 * but CPU A holding "unsafe" (interrupts on) can take an interrupt whose
 * handler spins on "safe" while CPU B holds "safe" and waits for "unsafe". */
static struct spinlock ktest_ld_safe = SPINLOCK_INIT("ktest_lockdep_irqsafe");
static struct spinlock ktest_ld_unsafe = SPINLOCK_INIT("ktest_lockdep_irqunsafe");

static __attribute__((noinline)) void ktest_lockdep_safe_then_unsafe(void)
{
	uint64_t f = spin_lock_irqsave(&ktest_ld_safe);
	spin_lock(&ktest_ld_unsafe);
	spin_unlock(&ktest_ld_unsafe);
	spin_unlock_irqrestore(&ktest_ld_safe, f);
}
#endif

/* Boots that must end badly, to prove the host runner notices. */
static void ktest_crash_modes(const char *filter)
{
	if (strcmp(filter, "fault") == 0) {
		printk("# run fault\n# deliberately writing to an unmapped address\n");
		kt_pin(0); /* the panic on CPU 0, which every CPU may have run this on */
		ktest_fault_outer();
		panic("ktest: the deliberate fault did not fault");
	}
	if (strcmp(filter, "fault_ap") == 0) {
		printk("# run fault_ap\n# faulting on CPU 1 in a cross-CPU call\n");
		kt_pin(0); /* as lockdep_safe: CPU 1's own call would run directly */
		if (smp_call(1, ktest_fault_ap, NULL) == -ENXIO)
			printk("# fault_ap needs a second CPU (--smp 2)\n");
		qemu_exit(QEMU_EXIT_FAILURE);
	}
#ifdef CONFIG_LOCKDEP
	if (strcmp(filter, "lockdep") == 0) {
		printk("# run lockdep\n# a -> b, b -> c, then c -> a\n");
		ktest_lockdep_ab();
		ktest_lockdep_bc();
		ktest_lockdep_ca();
		printk("# not reported\n");
		qemu_exit(QEMU_EXIT_FAILURE);
	}
	if (strcmp(filter, "lockdep_safe") == 0) {
		printk("# run lockdep_safe\n# an irq-safe lock held while an irq-unsafe one is taken\n");
		kt_pin(0); /* with smp_sched=1 this thread may be on CPU 1, whose call runs directly */
		if (smp_call(1, ktest_lockdep_in_irq, &ktest_ld_safe) == -ENXIO)
			printk("# lockdep_safe needs a second CPU (--smp 2)\n");
		cpu_sti();
		spin_lock(&ktest_ld_unsafe); /* with interrupts on */
		spin_unlock(&ktest_ld_unsafe);
		ktest_lockdep_safe_then_unsafe();
		printk("# not reported\n");
		qemu_exit(QEMU_EXIT_FAILURE);
	}
	if (strcmp(filter, "lockdep_irq") == 0) {
		printk("# run lockdep_irq\n# a lock taken in a handler, then with interrupts on\n");
		kt_pin(0); /* as lockdep_safe */
		if (smp_call(1, ktest_lockdep_in_irq, &ktest_ld_a) == -ENXIO)
			printk("# lockdep_irq needs a second CPU (--smp 2)\n");
		cpu_sti();
		spin_lock(&ktest_ld_a);
		spin_unlock(&ktest_ld_a);
		printk("# not reported\n");
		qemu_exit(QEMU_EXIT_FAILURE);
	}
#endif
	if (strcmp(filter, "hang") == 0) {
		printk("# run hang\n");
		for (;;) {
			cpu_cli();
			cpu_hlt();
		}
	}
	if (strcmp(filter, "softlockup") == 0) {
		printk("# run softlockup\n# spinning with a spinlock held, interrupts on\n");
		ktest_softlockup_spin();
	}
	if (strcmp(filter, "triple") == 0) {
		struct { uint16_t limit; uint64_t base; } __packed empty = { 0, 0 };
		printk("# run triple\n");
		__asm__ volatile("lidt %0; int3" ::"m"(empty));
	}
}

__noreturn void ktest_main(const char *filter)
{
	int n = 0, failed = 0;

	ktest_crash_modes(filter);
	for (const struct ktest *t = __ktests_start; t < __ktests_end; t++) {
		if (!ktest_selected(filter, t->name))
			continue;
		/* soak tests run long, icount tests want QEMU's -icount (exact
		 * guest time): only when named, in boots of their own */
		if (strcmp(filter, "all") == 0 &&
		    (strncmp(t->name, "soak_", 5) == 0 || strncmp(t->name, "icount_", 7) == 0))
			continue;
		printk("# run %s\n", t->name);
		ktest_failures = 0;
		t->fn();
		n++;
		if (ktest_failures)
			failed++;
		printk("%sok %d - %s\n", ktest_failures ? "not " : "", n, t->name);
	}
	printk("1..%d\n", n);
	if (n == 0)
		printk("# no test matches '%s'\n", filter);
	qemu_exit(failed || n == 0 ? QEMU_EXIT_FAILURE : QEMU_EXIT_SUCCESS);
}

uint32_t kt_pin(unsigned cpu)
{
	struct thread *self = current_thread();
	uint32_t mask = self->cpus_requested;
	if (sched_set_affinity(self, 1u << cpu, UINT32_MAX))
		return mask; /* that CPU does not schedule: nothing pinned */
	while (this_cpu()->id != cpu) /* the move is at the next switch: take it now */
		schedule();
	return mask;
}

void kt_unpin(uint32_t mask)
{
	sched_set_affinity(current_thread(), mask, UINT32_MAX);
}
