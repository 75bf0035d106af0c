/* Per-CPU data, reached through %gs. Other CPUs are started (smp.h) and
 * schedule unless booted with smp_sched=0 (docs/smp.md). The first fields
 * are read by assembly (offsets fixed). */
#ifndef ARBOR_PERCPU_H
#define ARBOR_PERCPU_H

#include "types.h"
#include "charge_stock.h"
#include "percpu_off.h"

#define MAX_CPUS 8
#define IST_STACK_SIZE 8192

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __packed;

struct thread;
struct runqueue;

/* The TSS followed by its I/O permission bitmap (one bit per port, 0 =
 * allowed) and the 0xff byte the CPU requires after it. A process granted
 * ports has its bitmap copied here when it runs (see ioport.c). */
#define IO_BITMAP_BYTES 8192
struct tss_io {
	struct tss tss;
	uint8_t bitmap[IO_BITMAP_BYTES];
	uint8_t end;
} __packed;

#define IOMAP_ENABLED  ((uint16_t)offsetof(struct tss_io, bitmap))
#define IOMAP_DISABLED ((uint16_t)sizeof(struct tss_io)) /* past the limit: no ports */

struct proc;
struct addrspace;

/* The I/O APIC inputs whose interrupts are counted one by one (abi's
 * K_IRQ_LINES: /proc/stat's intr columns). */
#define CPU_IRQ_LINES 24

/* /proc/stat's times of a CPU (cpu_stat.out's indices, abi's k_cpustat order). */
enum cpustat_kind { CPUSTAT_USER, CPUSTAT_NICE, CPUSTAT_SYSTEM, CPUSTAT_IDLE, CPUSTAT_IOWAIT, CPUSTAT_IRQ,
		    CPUSTAT_NR };

/* What this CPU did since it began to schedule (/proc/stat's cpuN line,
 * kernel/sched/cpustat.c). Written only by this CPU but the scheduler's
 * times (by any CPU, under sched_lock); other CPUs read out[], intr, ctxt
 * and irqs racily (each word whole: 64-bit aligned), and each of those
 * only grows. */
struct cpu_stat {
	/* raw times: the scheduler's clock (sched_lock) */
	uint64_t busy_ns;	/* a thread's entity ran (sched_update_curr) */
	uint64_t idle_ns;	/* the idle thread ran, no thread waiting for a disk */
	uint64_t iowait_ns;	/* the idle thread ran, a thread waiting for a disk */
	/* raw times: in interrupt handlers (this CPU, interrupts off) */
	uint64_t irq_ns;	/* all of them (inside the three above) */
	uint64_t irq_idle_ns;	/* those that interrupted the idle thread */
	/* how much of each raw time the tick has folded into out[] */
	uint64_t busy_done, idle_done, iowait_done, irq_done, irq_idle_done;
	enum cpustat_kind last;	/* the last tick's sample of busy time */
	uint64_t out[CPUSTAT_NR]; /* ns: what /proc/stat shows (the tick's fold) */
	uint64_t intr;		/* interrupts taken: devices, the timer, IPIs */
	uint64_t ctxt;		/* switches from one thread to another */
	uint64_t irqs[CPU_IRQ_LINES]; /* of intr, those of each I/O APIC input */
};

struct cpu {
	struct cpu *self;	/* %gs:0 */
	uint64_t user_rsp;	/* %gs:8: scratch for the syscall entry */
	struct thread *current;	/* %gs:16: the running thread */
	uint32_t need_resched;	/* %gs:24: switch at the next safe point */
	uint32_t id;
	int preempt_count;	/* %gs:32: > 0: no involuntary switch (spinlock held) */
	uint64_t ticks;		/* timer ticks taken on this CPU */
	uint64_t timer_next_tick;	/* clock_ns of the next periodic tick */
	uint64_t timer_event;	/* the scheduler's next event (timer_event) */
	uint64_t timer_armed;	/* what the LAPIC timer is armed for */
	struct runqueue *rq;
	struct charge_stock stock;	/* memory charges cached for one cgroup */
	uint64_t gdt[8];
	uint64_t io_gen;	/* the grant generation tss_io.bitmap holds (0: none) */
	uint64_t softlockup_stamp; /* clock_ns of the last chance to schedule */
	uint32_t softlockup_ticks; /* ticks taken since then (the CPU really ran) */
	uint32_t stock_drain;	   /* another CPU asks for stock's drain (mem_drain_stock) */
	uint64_t last_tick;	   /* lockup_warn_ms: clock_ns of the last timer tick */
	uint64_t resched_since;	   /* lockup_warn_ms: when a tick first saw need_resched */
	uint64_t softlockup_warned; /* the resched_since last reported */
	struct tss_io tss_io;
	uint8_t ist_stacks[3][IST_STACK_SIZE] __attribute__((aligned(16)));
	struct addrspace *as;	/* loaded in CR3 (NULL: the kernel's tables; vm_switch_to) */
	struct cpu_stat stat;	/* /proc/stat's times and counts (past tss_io: asm's offsets) */
	/* this CPU's copy of a per-CPU object is the object's address plus
	 * this (id * PCPU_UNIT_SIZE: percpu_alloc.h); last, so the offsets
	 * assembly reads stay put */
	uint64_t pcpu_off;
};

#define IST_DOUBLE_FAULT 1
#define IST_NMI          2
#define IST_MACHINE_CHECK 3

#define GDT_KERNEL_CODE 0x08
#define GDT_KERNEL_DATA 0x10
#define GDT_USER_DATA   0x20
#define GDT_USER_CODE   0x28
#define GDT_TSS         0x30

static inline struct cpu *this_cpu(void)
{
	struct cpu *c;
	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c;
}


static inline struct thread *current_thread(void)
{
	struct thread *t;
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(t) : "i"(PERCPU_OFF_CURRENT));
	return t;
}

void percpu_init_boot_cpu(void);
/* CPU id's block: GDT, TSS (with its IST stacks), %gs. Runs on that CPU. */
void percpu_init_cpu(unsigned id);

/* The kernel stack top of the thread c now runs: the TSS's rsp0, where
 * an interrupt from user mode and the syscall entry both start. */
static inline void cpu_set_kernel_stack(struct cpu *c, uint64_t rsp0)
{
	c->tss_io.tss.rsp[0] = rsp0;
}

#endif
