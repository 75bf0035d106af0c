/* The in-kernel test runner: runs the KTEST()s the command line selects
 * (test=NAME, a prefix, or all), prints TAP for tools/run-tests.py and
 * exits QEMU with its status; also the boots that must end badly (fault,
 * hang, softlockup, triple) that prove the runner notices. */
#include "ktest.h"
#include "spinlock.h"
#include "abi/qemu_exit.h"
#include "arch/x86.h"
#include "format.h"
#include "kstring.h"
#include "panic.h"
#include "printk.h"

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

/* Boots that must end badly, to prove the host runner notices. */
static void ktest_crash_modes(const char *filter)
{
	if (strcmp(filter, "fault") == 0) {
		printk("# run fault\n# deliberately writing to an unmapped address\n");
		ktest_fault_outer();
		panic("ktest: the deliberate fault did not fault");
	}
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
