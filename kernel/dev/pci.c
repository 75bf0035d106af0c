/* PCI configuration space (mechanism #1, ports 0xcf8/0xcfc), for drivers
 * to enumerate and configure devices. The kernel keeps the ports so that
 * the address/data pair is never interleaved between two processes. */
#include "abi/errno.h"
#include "arch/x86.h"
#include "dev.h"
#include "proc.h"
#include "spinlock.h"

static struct spinlock pci_lock = SPINLOCK_INIT("pci");

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

long sys_pci_cfg_write(uint32_t bdf, uint32_t off, uint32_t size, uint32_t value)
{
	if (!(current_thread()->proc->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (!pci_args_ok(bdf, off, size) || (size < 4 && value >> (8 * size)))
		return -EINVAL;
	uint64_t f = spin_lock_irqsave(&pci_lock);
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
