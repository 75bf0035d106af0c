/* Starting the other CPUs and talking to them: the MADT's processors,
 * INIT-SIPI-SIPI through the trampoline in smp_boot.S, each CPU's own
 * set-up (smp_ap_main), cross-CPU function calls, and the panic path's
 * NMI stop. Contracts in smp.h; the design in docs/smp.md. */
#include "smp.h"
#include "sched.h"
#include "abi/errno.h"
#include "acpi.h"
#include "arch/smp_boot.h"
#include "arch/x86.h"
#include "bootinfo.h"
#include "dev.h"
#include "fpu.h"
#include "kstring.h"
#include "lapic.h"
#include "panic.h"
#include "percpu.h"
#include "percpu_alloc.h"
#include "pmm.h"
#include "printk.h"
#include "proc.h"
#include "spinlock.h"
#include "syscall.h"
#include "timer.h"
#include "trap.h"
#include "vm.h"

#define SMP_INIT_WAIT_NS  10000000ull	/* INIT to the first SIPI (MP spec: 10 ms) */
#define SMP_SIPI_WAIT_NS  200000ull	/* before the second SIPI */
/* Under TCG a new vCPU thread can take a while to run its first code. */
#define SMP_START_WAIT_NS 1000000000ull
/* A stopped CPU's dump: its vCPU thread may wait that long for a host
 * core when the host is loaded (100 ms was missed once, 4 vCPUs on 2). */
#define SMP_DUMP_WAIT_NS  1000000000ull

extern const char smp_tramp_start[], smp_tramp_end[];
extern const char smp_tramp_cr3[], smp_tramp_entry[];
extern char early_pml4[];
void smp_ap_entry(void);
__noreturn void smp_ap_main(unsigned id);

static void smp_call_irq(struct trap_frame *tf);
static void smp_resched_irq(struct trap_frame *tf);
static void smp_nmi(struct trap_frame *tf);

/* What smp_ap_entry reads: one CPU starts at a time. */
uint64_t smp_ap_cr3, smp_ap_stack, smp_ap_gs;
uint32_t smp_ap_id;

static unsigned smp_nr_possible = 1;
static uint8_t smp_apic_ids[MAX_CPUS];	/* by CPU id; [0] the boot CPU's */
static void *smp_ap_stacks[MAX_CPUS];	/* by CPU id: the stack it starts on */
static uint32_t smp_online_mask = 1;	/* bit per CPU id; atomic */
bool smp_active;

unsigned smp_possible(void)
{
	return smp_nr_possible;
}

unsigned smp_online(void)
{
	uint32_t mask = __atomic_load_n(&smp_online_mask, __ATOMIC_ACQUIRE);
	unsigned n = 0;
	for (; mask; mask &= mask - 1) /* no popcnt on the baseline CPU, no libgcc */
		n++;
	return n;
}

bool smp_cpu_online(unsigned id)
{
	return id < MAX_CPUS && (__atomic_load_n(&smp_online_mask, __ATOMIC_ACQUIRE) & (1u << id));
}

void smp_discover(void)
{
	const struct acpi_madt_info *m = irq_madt();
	uint32_t r[4], self;
	unsigned skipped = 0;

	trap_register(VECTOR_IPI_CALL, smp_call_irq);
	trap_register(VECTOR_IPI_RESCHED, smp_resched_irq);
	trap_register(TRAP_NMI, smp_nmi);
	cpuid(1, 0, r);
	self = r[1] >> 24; /* the initial APIC ID: the LAPIC is not mapped yet */
	smp_apic_ids[0] = (uint8_t)self;
	if (!m)
		return;
	for (unsigned i = 0; i < m->nr_cpus; i++) {
		if (!m->cpu_enabled[i] || m->cpu_apic_ids[i] == self)
			continue;
		if (smp_nr_possible == MAX_CPUS) {
			skipped++;
			continue;
		}
		smp_apic_ids[smp_nr_possible++] = m->cpu_apic_ids[i];
	}
	if (skipped || m->cpus_dropped)
		printk("smp: %u more CPUs than the %d Arbor supports; not started\n",
		       skipped + m->cpus_dropped, MAX_CPUS);
}

/* ---- starting a CPU ---- */

/* The trampoline's page must be RAM the firmware calls usable and no
 * boot module may sit there (the loader put them where it liked). */
static bool smp_tramp_page_free(void)
{
	const struct boot_info *bi = &boot_info;
	paddr_t lo = SMP_TRAMP_BASE, hi = SMP_TRAMP_BASE + PAGE_SIZE;
	bool usable = false;

	for (uint32_t i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == 1 && bi->mem[i].base <= lo && bi->mem[i].base + bi->mem[i].len >= hi)
			usable = true;
	for (uint32_t i = 0; i < bi->nr_mods; i++)
		if (bi->mods[i].start < hi && bi->mods[i].start + bi->mods[i].size > lo)
			usable = false;
	return usable;
}

static void smp_tramp_install(void)
{
	char *page = phys_to_virt(SMP_TRAMP_BASE);
	uint64_t cr3 = virt_to_phys(early_pml4), entry = (uint64_t)smp_ap_entry;

	memcpy(page, smp_tramp_start, (size_t)(smp_tramp_end - smp_tramp_start));
	memcpy(page + (smp_tramp_cr3 - smp_tramp_start), &cr3, sizeof(cr3));
	memcpy(page + (smp_tramp_entry - smp_tramp_start), &entry, sizeof(entry));
}

static bool smp_wait_online(unsigned id, uint64_t ns)
{
	uint64_t end = clock_ns() + ns;
	while (!smp_cpu_online(id)) {
		if (clock_ns() >= end)
			return false;
		cpu_pause();
	}
	return true;
}

/* INIT, then up to two SIPIs (Intel SDM vol. 3, "MP initialization"). */
static bool smp_boot_cpu(unsigned id)
{
	struct page *stack = pmm_alloc(KSTACK_ORDER);
	uint32_t apic = smp_apic_ids[id];

	if (!stack) {
		printk("smp: no memory for CPU %u's stack; not started\n", id);
		return false;
	}
	struct cpu *c = cpu_get(id);
	c->self = c; /* what %gs reaches before percpu_init_cpu */
	c->id = id;
	smp_ap_gs = (uint64_t)c;
	smp_ap_id = id;
	smp_ap_cr3 = vm_kernel_root();
	smp_ap_stacks[id] = page_to_virt(stack);
	smp_ap_stack = (uint64_t)page_to_virt(stack) + KSTACK_SIZE;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	lapic_ipi(apic, ICR_INIT | ICR_ASSERT);
	clock_delay_ns(SMP_INIT_WAIT_NS);
	for (int sipi = 0; sipi < 2; sipi++) {
		lapic_ipi(apic, ICR_STARTUP | (SMP_TRAMP_BASE >> 12));
		if (smp_wait_online(id, SMP_SIPI_WAIT_NS))
			return true;
	}
	if (smp_wait_online(id, SMP_START_WAIT_NS))
		return true;
	printk("smp: CPU %u (APIC id %u) did not start\n", id, apic);
	return false; /* its stack stays: the CPU may still be on its way */
}

void smp_start(void)
{
	unsigned started = 1;

	if (smp_nr_possible == 1)
		return;
	if (!smp_tramp_page_free()) {
		printk("smp: the trampoline's page %#x is not free RAM; other CPUs not started\n",
		       SMP_TRAMP_BASE);
		return;
	}
	smp_tramp_install();
	char v[4];
	/* every CPU schedules unless smp_sched=0: the boot CPU alone then, the
	 * others started and waiting (how Arbor ran before issue 23) */
	sched_smp_enabled = !(cmdline_get(boot_info.cmdline, "smp_sched", v, sizeof(v)) && v[0] == '0');
	for (unsigned id = 1; id < smp_nr_possible; id++) {
		if (!smp_boot_cpu(id))
			continue;
		started++;
		printk("smp: CPU %u online (APIC id %u)\n", id, smp_apic_ids[id]);
	}
	printk("smp: %u of %u CPUs online\n", started, smp_nr_possible);
	smp_active = started > 1;
}

/* Parked: interrupts on, halted until an IPI. `sti; hlt` as one sequence,
 * so an IPI between the two still ends the halt. */
static __noreturn void smp_park(void)
{
	for (;;)
		__asm__ volatile("sti; hlt; cli" ::: "memory");
}

__noreturn void smp_ap_main(unsigned id)
{
	percpu_init_cpu(id);
	percpu_alloc_cpu_init();
	idt_load();
	fpu_cpu_init();
	syscall_init();
	write_cr4(read_cr4() | CR4_PGE);
	lapic_cpu_init();
	if (lapic_id() != smp_apic_ids[id])
		panic("smp: CPU %u runs with APIC id %u, the MADT says %u", id, lapic_id(),
		      smp_apic_ids[id]);
	__atomic_fetch_or(&smp_online_mask, 1u << id, __ATOMIC_RELEASE);
	if (sched_smp_enabled) /* this stack becomes its idle thread's */
		sched_cpu_start(smp_ap_stacks[id], (uint64_t)smp_ap_stacks[id] + KSTACK_SIZE);
	smp_park();
}

/* Nothing to do here: the sender set need_resched, and trap_dispatch's
 * return path (sched_preempt_irq) or the idle loop acts on it. */
static void smp_resched_irq(struct trap_frame *tf)
{
	(void)tf;
	lapic_eoi();
}

void smp_resched(unsigned id)
{
	lapic_ipi(smp_apic_ids[id], ICR_FIXED | ICR_ASSERT | VECTOR_IPI_RESCHED);
}

/* ---- cross-CPU calls ---- */

enum { CALL_IDLE, CALL_CLAIMED, CALL_POSTED, CALL_RUNNING, CALL_DONE };

/* One call at a time per target: a caller claims it (IDLE -> CLAIMED),
 * fills it, posts it; the target runs it (POSTED -> RUNNING -> DONE); the
 * caller sees DONE and frees it. */
struct smp_mailbox {
	uint32_t state;
	void (*fn)(void *);
	void *arg;
} __attribute__((aligned(64)));

static struct smp_mailbox smp_mailbox[MAX_CPUS];

/* Runs the call posted to this CPU, if any. The compare-and-swap makes
 * the IPI handler and a waiting caller on this CPU run it once. */
static void smp_call_poll(void)
{
	struct smp_mailbox *m = &smp_mailbox[this_cpu()->id];
	uint32_t posted = CALL_POSTED;

	if (!__atomic_compare_exchange_n(&m->state, &posted, CALL_RUNNING, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return;
	m->fn(m->arg);
	__atomic_store_n(&m->state, CALL_DONE, __ATOMIC_RELEASE);
}

static void smp_call_irq(struct trap_frame *tf)
{
	(void)tf;
	lapic_eoi();
	smp_call_poll();
}

int smp_call(unsigned id, void (*fn)(void *), void *arg)
{
	if (!smp_cpu_online(id))
		return -ENXIO;
	uint64_t f = irq_save();
	if (id == this_cpu()->id) {
		fn(arg);
		irq_restore(f);
		return 0;
	}
	struct smp_mailbox *m = &smp_mailbox[id];
	uint32_t idle = CALL_IDLE;
	while (!__atomic_compare_exchange_n(&m->state, &idle, CALL_CLAIMED, false, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		idle = CALL_IDLE;
		smp_call_poll();
		cpu_pause();
	}
	m->fn = fn;
	m->arg = arg;
	__atomic_store_n(&m->state, CALL_POSTED, __ATOMIC_RELEASE);
	lapic_ipi(smp_apic_ids[id], ICR_FIXED | ICR_ASSERT | VECTOR_IPI_CALL);
	while (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != CALL_DONE) {
		smp_call_poll();
		cpu_pause();
	}
	__atomic_store_n(&m->state, CALL_IDLE, __ATOMIC_RELEASE);
	irq_restore(f);
	return 0;
}

unsigned smp_call_others(void (*fn)(void *), void *arg)
{
	unsigned ran = 0;
	uint64_t f = irq_save(); /* this CPU stays this CPU */
	unsigned self = this_cpu()->id;

	for (unsigned id = 0; id < smp_nr_possible; id++)
		if (id != self && smp_call(id, fn, arg) == 0)
			ran++;
	irq_restore(f);
	return ran;
}

/* ---- the panic path ---- */

static volatile int smp_dump_cpu = -1;	/* the CPU asked to print itself */
static volatile int smp_dump_done;

static void smp_nmi(struct trap_frame *tf)
{
	unsigned self = this_cpu()->id;

	if (!panic_in_progress())
		panic_trap(tf, "non-maskable interrupt (vector 2) in %s mode",
			   trap_from_user(tf) ? "user" : "kernel");
	if (smp_dump_cpu == (int)self) {
		printk_panic("CPU %u (stopped by the panic):\n", self);
		panic_dump_cpu(tf);
		__atomic_store_n(&smp_dump_done, 1, __ATOMIC_RELEASE);
	}
	for (;;) /* for good: NMIs are blocked until an iret, and none comes */
		__asm__ volatile("cli; hlt" ::: "memory");
}

void smp_panic_stop(void)
{
	uint32_t online = __atomic_load_n(&smp_online_mask, __ATOMIC_ACQUIRE);
	if (online == 1)
		return; /* the boot CPU alone (maybe before %gs is set up) */
	unsigned self = this_cpu()->id;

	for (unsigned id = 0; id < smp_nr_possible; id++) {
		if (id == self || !(online & (1u << id)))
			continue;
		smp_dump_done = 0;
		__atomic_store_n(&smp_dump_cpu, (int)id, __ATOMIC_RELEASE);
		lapic_ipi(smp_apic_ids[id], ICR_NMI | ICR_ASSERT);
		uint64_t end = clock_ns() + SMP_DUMP_WAIT_NS;
		while (!__atomic_load_n(&smp_dump_done, __ATOMIC_ACQUIRE) && clock_ns() < end)
			cpu_pause();
		if (!smp_dump_done)
			printk_panic("CPU %u: no answer to the stop NMI\n", id);
	}
}
