/* Hardware access for user-space drivers: processes with the driver
 * capability (PROC_CAP_DRIVER) may be granted I/O ports, map device
 * memory, allocate DMA buffers, receive interrupts as notifications and
 * read/write PCI configuration space. Everything else is refused -EPERM. */
#ifndef ARBOR_DEV_H
#define ARBOR_DEV_H

#include "types.h"

struct proc;

/* Loads p's I/O permission bitmap into this CPU's TSS (context switch). */
void ioport_switch_to(struct proc *p);
/* Forgets p's ports and interrupts (process exit). */
void dev_proc_exit(struct proc *p);

void ioport_proc_exit(struct proc *p);

/* Interrupt routing (IOAPIC). */
void irq_init(void);

#endif
