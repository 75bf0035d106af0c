/* The kernel's last words. Everything here avoids locks and allocation:
 * it may run from any context, including a fault inside printk. */
#include "panic.h"
#include "abi/qemu_exit.h"
#include "arch/x86.h"
#include "format.h"
#include "ksyms.h"
#include "printk.h"
#include "smp.h"
#include "percpu.h"
#include "trap.h"

#define BACKTRACE_MAX_FRAMES 32

static volatile int panic_depth;
static volatile int panic_cpu = -1; /* the CPU that panicked first */

__noreturn void qemu_exit(uint32_t code)
{
	outl(QEMU_EXIT_PORT, code);
	/* Not under QEMU (or no isa-debug-exit device): stop here. */
	for (;;) {
		cpu_cli();
		cpu_hlt();
	}
}

/* guess: the address came from a heuristic, not the frame chain. */
static void backtrace_print_pc(uint64_t pc, bool guess)
{
	uint64_t off = 0;
	const char *name = ksyms_lookup(pc, &off);
	if (name)
		printk_panic("  [<%p>] %s%s+0x%lx\n", (void *)pc, guess ? "? " : "", name, off);
	else
		printk_panic("  [<%p>] ?\n", (void *)pc);
}

static bool backtrace_frame_ok(uint64_t rbp)
{
	/* Kernel frames live in the higher half and are 8-byte aligned. */
	return rbp >= 0xffff800000000000ull && (rbp & 7) == 0;
}

/* Walks the frame-pointer chain (the kernel builds with
 * -fno-omit-frame-pointer; the entry code ends the chain with rbp = 0). */
static void backtrace_walk(uint64_t rbp)
{
	for (int i = 0; i < BACKTRACE_MAX_FRAMES && backtrace_frame_ok(rbp); i++) {
		const uint64_t *frame = (const uint64_t *)rbp;
		uint64_t ret = frame[1];
		if (ret == 0)
			break;
		/* ret points after the call; -1 names the calling function. */
		backtrace_print_pc(ret - 1, false);
		if (frame[0] <= rbp)
			break; /* stacks grow down: a caller's frame is higher */
		rbp = frame[0];
	}
}

void backtrace_print(uint64_t rbp, uint64_t rip)
{
	printk_panic("Backtrace:\n");
	backtrace_print_pc(rip, false);
	backtrace_walk(rbp);
}

/* A fault may hit before the function pushed its frame (or in a leaf that
 * never does): the word at the stack pointer may then be the only trace of
 * the caller. Print it marked "?" as a guess, as Linux does. */
static void backtrace_print_trap(const struct trap_frame *tf)
{
	printk_panic("Backtrace:\n");
	backtrace_print_pc(tf->rip, false);
	if (!trap_from_user(tf) && backtrace_frame_ok(tf->rsp)) {
		uint64_t ret = *(const uint64_t *)tf->rsp;
		uint64_t caller_ret = backtrace_frame_ok(tf->rbp) ? ((const uint64_t *)tf->rbp)[1] : 0;
		if (ret != caller_ret && ksyms_lookup(ret - 1, NULL)) {
			backtrace_print_pc(ret - 1, true);
		}
	}
	backtrace_walk(tf->rbp);
}

static void panic_dump_regs(const struct trap_frame *tf)
{
	printk_panic("RIP: %04lx:%p RFLAGS: %016lx\n", tf->cs, (void *)tf->rip, tf->rflags);
	printk_panic("RSP: %04lx:%p\n", tf->ss, (void *)tf->rsp);
	printk_panic("RAX: %016lx RBX: %016lx RCX: %016lx\n", tf->rax, tf->rbx, tf->rcx);
	printk_panic("RDX: %016lx RSI: %016lx RDI: %016lx\n", tf->rdx, tf->rsi, tf->rdi);
	printk_panic("RBP: %016lx R8:  %016lx R9:  %016lx\n", tf->rbp, tf->r8, tf->r9);
	printk_panic("R10: %016lx R11: %016lx R12: %016lx\n", tf->r10, tf->r11, tf->r12);
	printk_panic("R13: %016lx R14: %016lx R15: %016lx\n", tf->r13, tf->r14, tf->r15);
	printk_panic("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
		     read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

/* Before per-CPU data is set up (%gs base 0), the boot CPU runs alone. */
static int panic_this_cpu(void)
{
	return rdmsr(MSR_GS_BASE) ? (int)this_cpu()->id : 0;
}

bool panic_in_progress(void)
{
	return __atomic_load_n(&panic_depth, __ATOMIC_ACQUIRE) > 0;
}

void panic_dump_cpu(const struct trap_frame *tf)
{
	panic_dump_regs(tf);
	backtrace_print_trap(tf);
}

static void panic_begin(void)
{
	int self = panic_this_cpu(), first = -1;

	cpu_cli();
	if (!__atomic_compare_exchange_n(&panic_cpu, &first, self, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST) && first != self) {
		/* Another CPU panics: it prints this one's state (its stop
		 * NMI finds it here) and ends the run. */
		for (;;)
			cpu_hlt();
	}
	if (__atomic_fetch_add(&panic_depth, 1, __ATOMIC_SEQ_CST) > 0) {
		printk_panic("\nnested panic\n");
		qemu_exit(QEMU_EXIT_PANIC);
	}
	printk_panic("\n---[ KERNEL PANIC ]---\n");
}

static __noreturn void panic_end(void)
{
	smp_panic_stop();
	printk_panic("---[ end of panic ]---\n");
	qemu_exit(QEMU_EXIT_PANIC);
}

static inline uint64_t current_pc(void)
{
	uint64_t pc;
	__asm__ volatile("leaq (%%rip), %0" : "=r"(pc));
	return pc;
}

static void panic_message(const char *fmt, va_list ap)
{
	char msg[256];
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	printk_panic("panic: %s\n", msg);
}

__noreturn void panic(const char *fmt, ...)
{
	va_list ap;

	panic_begin();
	va_start(ap, fmt);
	panic_message(fmt, ap);
	va_end(ap);
	backtrace_print((uint64_t)__builtin_frame_address(0), current_pc());
	panic_end();
}

__noreturn void panic_report(void (*print)(void *), void *arg, const char *fmt, ...)
{
	va_list ap;

	panic_begin();
	va_start(ap, fmt);
	panic_message(fmt, ap);
	va_end(ap);
	print(arg);
	backtrace_print((uint64_t)__builtin_frame_address(0), current_pc());
	panic_end();
}

__noreturn void panic_trap(struct trap_frame *tf, const char *fmt, ...)
{
	va_list ap;

	panic_begin();
	va_start(ap, fmt);
	panic_message(fmt, ap);
	va_end(ap);
	panic_dump_regs(tf);
	backtrace_print_trap(tf);
	panic_end();
}
