/* I/O port grants. Each driver process has its own permission bitmap; the
 * CPU's TSS holds the bitmap of the process it runs (copied only when the
 * owner changes), and a process without one gets no ports at all. Ports the
 * kernel drives itself (PICs, PIT, PCI configuration, QEMU's exit port)
 * are never granted. */
#include "dev.h"
#include "abi/errno.h"
#include "heap.h"
#include "kstring.h"
#include "memcg.h"
#include "percpu.h"
#include "proc.h"

static const struct { uint16_t first, last; } ioport_kernel_only[] = {
	{ 0x20, 0x21 }, { 0xa0, 0xa1 },	/* 8259 PICs */
	{ 0x40, 0x43 }, { 0x61, 0x61 },	/* PIT, its gate */
	{ 0xcf8, 0xcff },		/* PCI configuration: pci_cfg_* syscalls */
	{ 0xf4, 0xf7 },			/* isa-debug-exit */
};

static bool ioport_reserved(uint32_t first, uint32_t last)
{
	for (size_t i = 0; i < ARRAY_SIZE(ioport_kernel_only); i++)
		if (first <= ioport_kernel_only[i].last && ioport_kernel_only[i].first <= last)
			return true;
	return false;
}

void ioport_switch_slow(struct proc *p)
{
	struct cpu *c = this_cpu();
	if (!p->io_bitmap) {
		c->tss_io.tss.iomap_base = IOMAP_DISABLED;
		return;
	}
	if (c->io_owner != p) {
		memcpy(c->tss_io.bitmap, p->io_bitmap, IO_BITMAP_BYTES);
		c->io_owner = p;
	}
	c->tss_io.tss.iomap_base = IOMAP_ENABLED;
}

long sys_ioport_grant(uint32_t first, uint32_t count)
{
	struct proc *p = current_thread()->proc;
	if (!(p->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (count == 0 || first > 0xffff || count > 0x10000 - first)
		return -EINVAL;
	if (ioport_reserved(first, first + count - 1))
		return -EPERM;
	if (!p->io_bitmap) {
		/* Charged like any other kernel memory the process causes. */
		if (mem_charge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER))
			return -ENOMEM;
		p->io_bitmap = kmalloc(IO_BITMAP_BYTES);
		if (!p->io_bitmap) {
			mem_uncharge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER);
			return -ENOMEM;
		}
		memset(p->io_bitmap, 0xff, IO_BITMAP_BYTES);
	}
	for (uint32_t port = first; port < first + count; port++)
		p->io_bitmap[port / 8] &= (uint8_t)~(1u << (port % 8));
	uint64_t f = irq_save();
	this_cpu()->io_owner = NULL; /* reload on the next line */
	ioport_switch_slow(p);
	irq_restore(f);
	return 0;
}

bool ioport_granted(const struct proc *p, uint16_t port)
{
	return p->io_bitmap && !(p->io_bitmap[port / 8] & (1u << (port % 8)));
}

void ioport_proc_exit(struct proc *p)
{
	if (!p->io_bitmap)
		return;
	uint64_t f = irq_save();
	if (this_cpu()->io_owner == p)
		this_cpu()->io_owner = NULL;
	irq_restore(f);
	kfree(p->io_bitmap);
	p->io_bitmap = NULL;
	mem_uncharge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER);
}
