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
#define LAPIC_ICR_LOW   0x300
#define LAPIC_ICR_HIGH  0x310

#define LAPIC_LVT_MASKED   (1u << 16)
#define LAPIC_TIMER_PERIODIC (1u << 17)

/* Interrupt command register: delivery modes and flags (Intel SDM vol. 3,
 * "Local APIC": ICR). */
#define ICR_FIXED        0x000u
#define ICR_NMI          0x400u
#define ICR_INIT         0x500u
#define ICR_STARTUP      0x600u
#define ICR_PENDING      (1u << 12) /* delivery status: not yet accepted */
#define ICR_ASSERT       (1u << 14)

/* The boot CPU: finds the LAPIC, masks the 8259s, enables its LAPIC. */
void lapic_init(void);
/* Any other CPU: enables its own LAPIC (lapic_init ran on the boot CPU). */
void lapic_cpu_init(void);
/* This CPU's APIC ID. */
uint32_t lapic_id(void);
/* Sends an IPI with ICR low word `icr` (ICR_* | vector) to APIC ID dest.
 * Waits (bounded) until the previous one was accepted; lock-free, so the
 * caller keeps two CPUs of its own from sending at once, or accepts that
 * one of two racing sends may be lost (the panic path). Interrupts off. */
void lapic_ipi(uint32_t dest, uint32_t icr);
uint32_t lapic_read(uint32_t reg);
void lapic_write(uint32_t reg, uint32_t v);
void lapic_eoi(void);

#endif
