/* PCI configuration space (mechanism #1, ports 0xcf8/0xcfc), for drivers
 * to enumerate and configure devices. The kernel keeps the ports so that
 * the address/data pair is never interleaved between two processes. */
#include "abi/errno.h"
#include "arch/x86.h"
#include "dev.h"
#include "printk.h"
#include "proc.h"
#include "spinlock.h"

#define PCI_COMMAND 0x04
#define PCI_CMD_MASTER 0x4
#define PCI_MASTERS 16

static struct spinlock pci_lock = SPINLOCK_INIT("pci");

/* The functions a driver let master the bus (DMA): when the driver dies
 * its DMA buffers are freed, so the device must stop first or it would
 * go on writing into pages that belong to someone else by then. */
static struct pci_master {
	struct proc *owner;
	uint32_t bdf;
} pci_masters[PCI_MASTERS];

/* bdf: bus << 8 | device << 3 | function; off: register offset. */
static bool pci_args_ok(uint32_t bdf, uint32_t off, uint32_t size)
{
	return bdf <= 0xffff && off < 256 && (size == 1 || size == 2 || size == 4) &&
	       (off & (size - 1)) == 0;
}

static uint16_t pci_select(uint32_t bdf, uint32_t off)
{
	outl(0xcf8, 0x80000000u | (bdf << 8) | (off & 0xfc));
	return (uint16_t)(0xcfc + (off & 3));
}

long sys_pci_cfg_read(uint32_t bdf, uint32_t off, uint32_t size)
{
	if (!(current_thread()->proc->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (!pci_args_ok(bdf, off, size))
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&pci_lock);
	uint16_t port = pci_select(bdf, off);
	uint32_t v = size == 1 ? inb(port) : size == 2 ? inw(port) : inl(port);
	spin_unlock_irqrestore(&pci_lock, f);
	return (long)v;
}

/* Records that p turned bus mastering on for bdf: false if the table is
 * full. Called with pci_lock. */
static bool pci_master_note(struct proc *p, uint32_t bdf)
{
	struct pci_master *free = NULL;
	for (int i = 0; i < PCI_MASTERS; i++) {
		if (pci_masters[i].owner == p && pci_masters[i].bdf == bdf)
			return true;
		if (!pci_masters[i].owner && !free)
			free = &pci_masters[i];
	}
	if (free)
		*free = (struct pci_master){ p, bdf };
	return free != NULL;
}

long sys_pci_cfg_write(uint32_t bdf, uint32_t off, uint32_t size, uint32_t value)
{
	struct proc *p = current_thread()->proc;
	if (!(p->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (!pci_args_ok(bdf, off, size) || (size < 4 && value >> (8 * size)))
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&pci_lock);
	if (off == PCI_COMMAND && (value & PCI_CMD_MASTER) && !pci_master_note(p, bdf)) {
		spin_unlock_irqrestore(&pci_lock, f);
		return -ENOSPC;
	}
	uint16_t port = pci_select(bdf, off);
	if (size == 1)
		outb(port, (uint8_t)value);
	else if (size == 2)
		outw(port, (uint16_t)value);
	else
		outl(port, value);
	spin_unlock_irqrestore(&pci_lock, f);
	return 0;
}

/* p is exiting: every function it let master the bus stops now, before
 * its DMA buffers go back to the allocator. */
void pci_proc_exit(struct proc *p)
{
	if (!(p->caps & PROC_CAP_DRIVER))
		return;
	uint64_t f = spin_lock_irqsave(&pci_lock);
	for (int i = 0; i < PCI_MASTERS; i++) {
		struct pci_master *m = &pci_masters[i];
		if (m->owner != p)
			continue;
		uint16_t cmd = inw(pci_select(m->bdf, PCI_COMMAND));
		outw(pci_select(m->bdf, PCI_COMMAND), (uint16_t)(cmd & ~PCI_CMD_MASTER));
		printk("pci %02x:%02x.%x: bus mastering off: its driver (pid %d) exited\n",
		       m->bdf >> 8, (m->bdf >> 3) & 31, m->bdf & 7, p->pid);
		m->owner = NULL;
	}
	spin_unlock_irqrestore(&pci_lock, f);
}

bool pci_present(uint16_t vendor, uint16_t device)
{
	uint32_t want = (uint32_t)device << 16 | vendor;
	for (uint32_t bdf = 0; bdf < 8 * 256; bdf += 8) { /* function 0 of each slot */
		uint64_t f = spin_lock_irqsave(&pci_lock);
		outl(0xcf8, 0x80000000u | (bdf << 8));
		uint32_t id = inl(0xcfc);
		spin_unlock_irqrestore(&pci_lock, f);
		if (id == want)
			return true;
	}
	return false;
}
