/* IDT set-up and the C side of every interrupt and exception. */
#include "trap.h"
#include "cpustat.h"
#include "panic.h"
#include "percpu.h"
#include "printk.h"
#include "format.h"
#include "abi/errno.h"
#include "abi/wait.h"
#include "proc.h"
#include "addrspace.h"
#include "syscall.h"
#include "arch/x86.h"
#include "sched.h"
#include "memcg.h"
#include "random.h"
#include "dev.h"

struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t zero;
} __packed;

extern const uint64_t isr_stub_table[256];

static struct idt_gate idt[256] __attribute__((aligned(16)));
static trap_handler_fn trap_handlers[256];

static const char *const exception_names[TRAP_NR_EXCEPTIONS] = {
	"divide error", "debug", "non-maskable interrupt", "breakpoint",
	"overflow", "bound range exceeded", "invalid opcode", "device not available",
	"double fault", "coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack-segment fault", "general protection fault", "page fault", "reserved (15)",
	"x87 floating-point error", "alignment check", "machine check", "SIMD floating-point exception",
	"virtualization exception", "control protection exception", "reserved (22)", "reserved (23)",
	"reserved (24)", "reserved (25)", "reserved (26)", "reserved (27)",
	"hypervisor injection exception", "VMM communication exception", "security exception", "reserved (31)",
};

const char *trap_name(uint64_t vector)
{
	if (vector < TRAP_NR_EXCEPTIONS)
		return exception_names[vector];
	return "interrupt";
}

static void idt_set_gate(int vec, uint64_t handler, uint8_t ist, uint8_t dpl)
{
	idt[vec] = (struct idt_gate){
		.offset_lo = handler & 0xffff,
		.selector = GDT_KERNEL_CODE,
		.ist = ist,
		.type_attr = (uint8_t)(0x8e | (dpl << 5)), /* present interrupt gate */
		.offset_mid = (handler >> 16) & 0xffff,
		.offset_hi = (uint32_t)(handler >> 32),
	};
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		idt_set_gate(v, isr_stub_table[v], 0, 0);
	idt_set_gate(TRAP_DF, isr_stub_table[TRAP_DF], IST_DOUBLE_FAULT, 0);
	idt_set_gate(TRAP_NMI, isr_stub_table[TRAP_NMI], IST_NMI, 0);
	idt_set_gate(TRAP_MC, isr_stub_table[TRAP_MC], IST_MACHINE_CHECK, 0);
	idt_set_gate(TRAP_BP, isr_stub_table[TRAP_BP], 0, 3); /* int3 from user */
	idt_load();
}

void idt_load(void)
{
	struct { uint16_t limit; uint64_t base; } __packed ptr = { sizeof(idt) - 1, (uint64_t)idt };
	__asm__ volatile("lidt %0" ::"m"(ptr));
}

void trap_register(uint8_t vector, trap_handler_fn fn)
{
	trap_handlers[vector] = fn;
}

bool trap_from_user(const struct trap_frame *tf)
{
	return (tf->cs & 3) == 3;
}

/* The signal Linux sends for each CPU exception raised by user code. */
static int trap_signal(uint64_t vector)
{
	switch (vector) {
	case TRAP_DE: case 16: case TRAP_XM: return SIGFPE;
	case TRAP_UD: return SIGILL;
	case TRAP_BP: case TRAP_DB: return SIGTRAP;
	case 12: case 17: return SIGBUS;	/* stack segment, alignment check */
	default: return SIGSEGV;
	}
}

/* A user thread caused an exception: a handler for the signal Linux would
 * send runs, or the process dies of it (its parent sees the signal). */
static void trap_user_exception(struct trap_frame *tf, int sig, uint64_t addr)
{
	if (ufault_fixup_apply(tf, sig))
		return; /* the C library's copy returns -EFAULT instead */
	cpu_sti();
	signal_fault(tf, sig, addr);
	proc_user_return_work(tf);
}

static void trap_page_fault(struct trap_frame *tf)
{
	uint64_t addr = read_cr2();
	struct thread *t = current_thread();
	bool write = tf->error & 2, exec = tf->error & 16;

	/* Demand paging: first touch of anonymous memory, from user mode or
	 * from a kernel copy to or from user memory. */
	int sig = SIGSEGV;
	if (addr < USER_TOP && t && t->proc->as) {
		if (tf->rflags & RFLAGS_IF)
			cpu_sti();
		int r = vm_fault(t->proc->as, addr, write, exec);
		/* Out of memory: the OOM killer, then the access again (not
		 * with a spinlock held: a kernel copy under one gets -EFAULT) */
		while (r == -ENOMEM && (tf->rflags & RFLAGS_IF) && !spin_preempt_count() &&
		       memcg_fault_oom(t))
			r = vm_fault(t->proc->as, addr, write, exec);
		cpu_cli();
		if (r == 0 || ((r == -ENOMEM || r == -EINTR) && trap_from_user(tf)))
			return; /* mapped, or this process is being killed (a kill
				   ended the wait for a file page, too) */
		if (r == -EIO)
			sig = SIGBUS; /* a file mapping past the file's end (Linux) */
	}
	if (trap_from_user(tf)) {
		trap_user_exception(tf, sig, addr);
		return;
	}
	uint64_t fixup = extable_fixup(tf->rip);
	if (fixup) {
		tf->rip = fixup;
		return;
	}
	panic_trap(tf, "page fault at %p (error code 0x%lx: %s, %s) in kernel mode",
		   (void *)addr, tf->error, tf->error & 1 ? "protection" : "not present",
		   write ? "write" : "read");
}

void trap_dispatch(struct trap_frame *tf)
{
	trap_handler_fn fn = trap_handlers[tf->vector];

	if (tf->vector == TRAP_PF && !fn) {
		trap_page_fault(tf);
		if (trap_from_user(tf))
			proc_user_return_work(tf);
		return;
	}
	if (fn) {
		if (tf->vector >= IRQ_VECTOR_BASE && tf->vector < VECTOR_IPI_FIRST)
			random_irq_mix(tf->vector); /* its arrival time, into the pool */
		bool irq = tf->vector >= IRQ_VECTOR_BASE;
		uint64_t start = irq ? cpustat_irq_enter(tf->vector) : 0; /* /proc/stat */
		if (irq)
			LOCKDEP_IRQ_ENTER();
		fn(tf);
		if (irq) {
			LOCKDEP_IRQ_EXIT();
			cpustat_irq_exit(start);
		}
		/* An interrupt may have made a thread runnable or used up the
		 * running one's slice: switch now if the interrupted code could
		 * be interrupted (no spinlock, interrupts were on). */
		if (irq && (tf->rflags & RFLAGS_IF)) {
			mem_drain_serve(); /* another CPU's request (memcg.h) */
			sched_preempt_irq();
		}
		if (trap_from_user(tf))
			proc_user_return_work(tf);
		return;
	}
	if (tf->vector == VECTOR_SPURIOUS)
		return;
	if (tf->vector < TRAP_NR_EXCEPTIONS && trap_from_user(tf)) {
		if (tf->vector == TRAP_GP && ioport_fault_refresh(current_thread()->proc))
			return; /* a grant made on another CPU: run it again */
		trap_user_exception(tf, trap_signal(tf->vector), 0);
		return;
	}
	if (tf->vector < TRAP_NR_EXCEPTIONS)
		panic_trap(tf, "%s (vector %lu, error code 0x%lx) in %s mode",
			   trap_name(tf->vector), tf->vector, tf->error,
			   trap_from_user(tf) ? "user" : "kernel");
	printk("trap: unexpected interrupt vector %lu\n", tf->vector);
}
