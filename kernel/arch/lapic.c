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
