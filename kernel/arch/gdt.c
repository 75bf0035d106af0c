/* GDT, TSS and the per-CPU block. The selector layout is what
 * syscall/sysret require: kernel code, kernel data, then (from STAR's user
 * base 0x18) user data at +8 and 64-bit user code at +16. */
#include "percpu.h"
#include "arch/x86.h"
#include "spinlock.h"
#include "smp.h"

static struct cpu cpus[MAX_CPUS];

static void gdt_set_tss(struct cpu *c)
{
	uint64_t base = (uint64_t)&c->tss_io;
	uint64_t limit = sizeof(c->tss_io) - 1;

	c->gdt[6] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) |
		    (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	c->gdt[7] = base >> 32;
}

static void gdt_load(struct cpu *c)
{
	struct { uint16_t limit; uint64_t base; } __packed ptr = {
		sizeof(c->gdt) - 1, (uint64_t)c->gdt,
	};

	__asm__ volatile(
		"lgdt %0\n\t"
		"movw %w1, %%ds\n\t"
		"movw %w1, %%es\n\t"
		"movw %w1, %%ss\n\t"
		"pushq %2\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:"
		:: "m"(ptr), "r"((uint64_t)GDT_KERNEL_DATA), "i"(GDT_KERNEL_CODE)
		: "rax", "memory");
	__asm__ volatile("ltr %w0" :: "r"((uint16_t)GDT_TSS));
}

struct cpu *cpu_get(unsigned id)
{
	return id < MAX_CPUS ? &cpus[id] : NULL;
}

void percpu_init_boot_cpu(void)
{
	percpu_init_cpu(0);
#ifdef CONFIG_LOCKDEP
	lockdep_init(); /* it finds each CPU's state through %gs */
#endif
}

void percpu_init_cpu(unsigned id)
{
	struct cpu *c = &cpus[id];

	c->self = c;
	c->id = id;
	c->gdt[0] = 0;
	c->gdt[1] = 0x00af9a000000ffffull; /* kernel code, 64-bit */
	c->gdt[2] = 0x00cf92000000ffffull; /* kernel data */
	c->gdt[3] = 0;                     /* unused (32-bit user code) */
	c->gdt[4] = 0x00cff2000000ffffull; /* user data, DPL 3 */
	c->gdt[5] = 0x00affa000000ffffull; /* user code, 64-bit, DPL 3 */
	for (int i = 0; i < 3; i++)
		c->tss_io.tss.ist[i] = (uint64_t)&c->ist_stacks[i][IST_STACK_SIZE];
	c->tss_io.tss.iomap_base = IOMAP_DISABLED; /* user code gets no ports */
	c->tss_io.end = 0xff;
	gdt_set_tss(c);
	gdt_load(c);
	wrmsr(MSR_GS_BASE, (uint64_t)c);
	wrmsr(MSR_KERNEL_GS, 0);
}

_Static_assert(offsetof(struct cpu, user_rsp) == PERCPU_OFF_USER_RSP, "asm offset");
_Static_assert(offsetof(struct cpu, current) == PERCPU_OFF_CURRENT, "asm offset");
_Static_assert(offsetof(struct cpu, need_resched) == PERCPU_OFF_NEED_RESCHED, "asm offset");
_Static_assert(offsetof(struct cpu, preempt_count) == PERCPU_OFF_PREEMPT, "asm offset");
_Static_assert(offsetof(struct cpu, tss_io.tss.rsp[0]) == PERCPU_OFF_TSS_RSP0, "asm offset");
