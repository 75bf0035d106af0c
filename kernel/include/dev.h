/* Hardware access for user-space drivers: processes with the driver
 * capability (PROC_CAP_DRIVER) may be granted I/O ports, map device
 * memory, allocate DMA buffers, receive interrupts as notifications and
 * read/write PCI configuration space. Everything else is refused -EPERM. */
#ifndef ARBOR_DEV_H
#define ARBOR_DEV_H

#include "types.h"

struct proc;

#include "percpu.h"
#include "proc.h"

void ioport_switch_slow(struct proc *p);

/* Loads p's I/O permission bitmap into this CPU's TSS (context switch).
 * Inline: most switches are between processes with no ports at all. */
static inline void ioport_switch_to(struct proc *p)
{
	if (p->io_bitmap || this_cpu()->tss_io.tss.iomap_base != IOMAP_DISABLED)
		ioport_switch_slow(p);
}
/* Forgets p's ports and interrupts (process exit). */
void dev_proc_exit(struct proc *p);

void ioport_proc_exit(struct proc *p);
/* A general protection fault in p's user code: if this CPU's copy of p's
 * bitmap predates a grant made on another CPU, it is reloaded and true
 * returned (the instruction runs again); false if the fault is p's own. */
bool ioport_fault_refresh(struct proc *p);
/* May p use port (ioport_grant gave it)? */
bool ioport_granted(const struct proc *p, uint16_t port);

/* Interrupt routing (IOAPIC). */
void irq_init(void);
struct acpi_madt_info;
/* ACPI's MADT (processors, I/O APICs, overrides), read on the first call
 * (after vm_init); NULL when the firmware has none or it is malformed. */
const struct acpi_madt_info *irq_madt(void);
struct kobj;
/* Binds ISA line irq to notification o (the reference is taken: kept
 * while bound, dropped on failure) for p: 0, -EINVAL, or -EBUSY (p has it
 * already; an edge-triggered line someone has). Level-triggered lines are
 * shared: each interrupt signals every binder and the line is unmasked
 * once all have acked (irq_release) since. */
long irq_bind(uint32_t irq, struct kobj *o, uint64_t bits, struct proc *p);
/* p's ack (unbind false) or unbind of irq: 0, -EINVAL or -EPERM. */
long irq_release(uint32_t irq, struct proc *p, bool unbind);
/* The line's state in the I/O APIC and its trigger mode (for the tests). */
bool irq_masked(uint32_t irq);
bool irq_level(uint32_t irq);

/* A PCI function with these ids is on buses 0-7 (the self-tests use it
 * to know whether a disk is attached). */
bool pci_present(uint16_t vendor, uint16_t device);
void pci_proc_exit(struct proc *p);

#endif
