/* Local APIC access (xAPIC MMIO through the direct map). */
#ifndef ARBOR_LAPIC_H
#define ARBOR_LAPIC_H

#include "types.h"

#define LAPIC_ID        0x020
#define LAPIC_EOI       0x0b0
#define LAPIC_SVR       0x0f0
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR  0x390
#define LAPIC_TIMER_DIV  0x3e0

#define LAPIC_LVT_MASKED   (1u << 16)
#define LAPIC_TIMER_PERIODIC (1u << 17)

void lapic_init(void);
uint32_t lapic_read(uint32_t reg);
void lapic_write(uint32_t reg, uint32_t v);
void lapic_eoi(void);

#endif
