/* The local APIC: found through its MSR and reached through the direct
 * map; the legacy 8259 PICs are remapped and masked so only the APIC
 * delivers interrupts. Register access and end-of-interrupt for the timer
 * (kernel/arch/timer.c) and the trap code. */
#include "lapic.h"
#include "arch/x86.h"
#include "trap.h"
#include "vm.h"

static volatile uint32_t *lapic_base;

uint32_t lapic_read(uint32_t reg)
{
	return lapic_base[reg / 4];
}

void lapic_write(uint32_t reg, uint32_t v)
{
	lapic_base[reg / 4] = v;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

/* The legacy 8259 PICs would deliver on vectors that collide with CPU
 * exceptions: remap them out of the way, then mask every line. */
static void pic_disable(void)
{
	outb(0x20, 0x11); outb(0xa0, 0x11);	/* ICW1: init, expect ICW4 */
	outb(0x21, 0x20); outb(0xa1, 0x28);	/* ICW2: vector bases */
	outb(0x21, 0x04); outb(0xa1, 0x02);	/* ICW3: cascade on IRQ2 */
	outb(0x21, 0x01); outb(0xa1, 0x01);	/* ICW4: 8086 mode */
	outb(0x21, 0xff); outb(0xa1, 0xff);	/* mask all */
}

void lapic_init(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	pic_disable();
	wrmsr(MSR_APIC_BASE, base | (1u << 11)); /* global enable */
	lapic_base = phys_to_virt(base & 0xfffff000);
	lapic_write(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
}

void lapic_cpu_init(void)
{
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | (1u << 11));
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

/* A delivery takes a few microseconds; this many polls (well over a
 * millisecond even under TCG) means the APIC is wedged: go on regardless. */
#define LAPIC_ICR_POLLS 1000000

static void lapic_icr_wait(void)
{
	for (int i = 0; i < LAPIC_ICR_POLLS && (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING); i++)
		cpu_pause();
}

void lapic_ipi(uint32_t dest, uint32_t icr)
{
	lapic_icr_wait();
	lapic_write(LAPIC_ICR_HIGH, dest << 24);
	lapic_write(LAPIC_ICR_LOW, icr);
	lapic_icr_wait();
}
