/* Finding a virtio-blk device on PCI and mapping its virtio structures
 * (configuration space through the kernel's pci_cfg_read/write). */
#include <errno.h>
#include "arbor/syscalls.h"
#include "virtio.h"

#define PCI_COMMAND 0x04
#define PCI_CMD_MEMORY 0x2
#define PCI_CMD_MASTER 0x4
#define PCI_CMD_INTX_OFF 0x400
#define PCI_STATUS 0x06
#define PCI_STATUS_CAPS 0x10
#define PCI_CAP_PTR 0x34
#define PCI_HEADER_TYPE 0x0e
#define PCI_BAR0 0x10
#define PCI_INT_LINE 0x3c
#define PCI_INT_PIN 0x3d
#define PAGE 4096ull

static long cfg(uint32_t bdf, uint32_t off, uint32_t size)
{
	return sys_pci_cfg_read(bdf, off, size);
}

/* The index-th virtio-blk function (from 0) on buses 0-7, in the order
 * of bus, device and function numbers (QEMU puts them on bus 0). */
long vpci_find(unsigned index, uint32_t *bdf)
{
	for (uint32_t b = 0; b < 8 * 256; b++) {
		long id = cfg(b, 0, 4);
		if (id < 0)
			return id;
		uint32_t at = b;
		/* Functions 1-7 only of a multi-function device (header type bit 7). */
		if ((b & 7) == 0 && ((id & 0xffff) == 0xffff || !(cfg(b, PCI_HEADER_TYPE, 1) & 0x80)))
			b += 7;
		if ((id & 0xffff) != VIRTIO_VENDOR)
			continue;
		uint32_t dev = (uint32_t)id >> 16;
		if ((dev == VIRTIO_BLK_MODERN || dev == VIRTIO_BLK_TRANSITIONAL) && index-- == 0) {
			*bdf = at;
			return 0;
		}
	}
	return -ENODEV;
}

/* The physical address of memory BAR n (32 or 64 bits). */
static uint64_t bar_phys(uint32_t bdf, unsigned n)
{
	uint32_t lo = (uint32_t)cfg(bdf, PCI_BAR0 + 4 * n, 4);
	if (lo & 1)
		return 0;	/* an I/O BAR: the modern interface is in memory */
	uint64_t pa = lo & ~0xfull;
	if ((lo & 6) == 4 && n < 5)
		pa |= (uint64_t)(uint32_t)cfg(bdf, PCI_BAR0 + 4 * (n + 1), 4) << 32;
	return pa;
}

/* Maps the region a virtio capability describes. */
static volatile uint8_t *cap_map(uint32_t bdf, uint32_t cap)
{
	unsigned bar = (unsigned)cfg(bdf, cap + 4, 1);
	uint64_t off = (uint32_t)cfg(bdf, cap + 8, 4), len = (uint32_t)cfg(bdf, cap + 12, 4);
	uint64_t pa = bar < 6 ? bar_phys(bdf, bar) : 0;
	if (!pa || !len)
		return NULL;
	pa += off;
	uint64_t base = pa & ~(PAGE - 1), span = (pa + len - base + PAGE - 1) & ~(PAGE - 1);
	long va = sys_mmio_map(base, span);
	return va < 0 ? NULL : (volatile uint8_t *)(va + (long)(pa - base));
}

int vpci_map(struct vpci *v, uint32_t bdf)
{
	v->bdf = bdf;
	if (!(cfg(bdf, PCI_STATUS, 2) & PCI_STATUS_CAPS))
		return -ENODEV;
	long cmd = cfg(bdf, PCI_COMMAND, 2);
	/* Memory decoding and bus mastering (DMA) on, INTx not disabled. */
	sys_pci_cfg_write(bdf, PCI_COMMAND, 2,
			  (uint32_t)((cmd | PCI_CMD_MEMORY | PCI_CMD_MASTER) & ~PCI_CMD_INTX_OFF));
	for (uint32_t cap = (uint32_t)cfg(bdf, PCI_CAP_PTR, 1) & 0xfc; cap; cap = (uint32_t)cfg(bdf, cap + 1, 1) & 0xfc) {
		if (cfg(bdf, cap, 1) != PCI_CAP_VENDOR)
			continue;
		long type = cfg(bdf, cap + 3, 1);
		volatile uint8_t **slot = type == VIRTIO_CAP_COMMON ? &v->common : type == VIRTIO_CAP_ISR ? &v->isr :
					  type == VIRTIO_CAP_DEVICE ? &v->device : type == VIRTIO_CAP_NOTIFY ? &v->notify : NULL;
		if (!slot || *slot)
			continue;	/* the first of each kind is the preferred one */
		*slot = cap_map(bdf, cap);
		if (type == VIRTIO_CAP_NOTIFY)
			v->notify_mult = (uint32_t)cfg(bdf, cap + 16, 4);
	}
	if (!v->common || !v->isr || !v->device || !v->notify)
		return -ENODEV;	/* a legacy-only device */
	/* INTx: the line the firmware routed the pin to (an ISA IRQ here). */
	if (cfg(bdf, PCI_INT_PIN, 1) == 0)
		return -ENODEV;
	v->irq = (unsigned)cfg(bdf, PCI_INT_LINE, 1);
	return 0;
}
