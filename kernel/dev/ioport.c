/* I/O port grants. Each driver process has its own permission bitmap; the
 * CPU's TSS holds the bitmap of the process it runs, and a process without
 * one gets no ports at all. Each grant gives the process's bitmap a number
 * unique in the system (io_gen); a CPU copies the bitmap when the number
 * differs from the one its copy has, on a switch, or on a general
 * protection fault of the process's code (a grant made by a thread on
 * another CPU while one ran here: its next port access faults once, and
 * runs again with the copy made then). Numbers, not owners: a copy of an
 * ended process's bitmap is never taken for a new process's at the same
 * address. Ports the kernel drives itself (PICs, PIT, PCI configuration,
 * QEMU's exit port) are never granted. */
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

static struct spinlock ioport_lock = SPINLOCK_INIT("ioport"); /* grants' bitmap changes */
static uint64_t ioport_gens;	/* the last number given (ioport_lock) */

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
	uint64_t gen = __atomic_load_n(&p->io_gen, __ATOMIC_ACQUIRE);
	if (!gen) { /* no grant yet (a bitmap being made has none) */
		c->tss_io.tss.iomap_base = IOMAP_DISABLED;
		return;
	}
	if (c->io_gen != gen) {
		/* a grant meanwhile only adds ports, and a new number: at
		 * worst one more fault and copy */
		memcpy(c->tss_io.bitmap, p->io_bitmap, IO_BITMAP_BYTES);
		c->io_gen = gen;
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
	uint8_t *fresh = NULL;
	if (!__atomic_load_n(&p->io_bitmap, __ATOMIC_ACQUIRE)) {
		/* Charged like any other kernel memory the process causes. */
		if (mem_charge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER))
			return -ENOMEM;
		fresh = kmalloc(IO_BITMAP_BYTES);
		if (!fresh) {
			mem_uncharge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER);
			return -ENOMEM;
		}
		memset(fresh, 0xff, IO_BITMAP_BYTES);
	}
	uint64_t f = spin_lock_irqsave(&ioport_lock);
	if (!p->io_bitmap) { /* (another thread of p may have made it meanwhile) */
		__atomic_store_n(&p->io_bitmap, fresh, __ATOMIC_RELEASE);
		fresh = NULL;
	}
	for (uint32_t port = first; port < first + count; port++)
		p->io_bitmap[port / 8] &= (uint8_t)~(1u << (port % 8));
	__atomic_store_n(&p->io_gen, ++ioport_gens, __ATOMIC_RELEASE);
	ioport_switch_slow(p); /* this CPU now; the others on a switch or a fault */
	spin_unlock_irqrestore(&ioport_lock, f);
	if (fresh) {
		kfree(fresh);
		mem_uncharge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER);
	}
	return 0;
}

bool ioport_fault_refresh(struct proc *p)
{
	bool stale = false;
	uint64_t f = irq_save();
	uint64_t gen = __atomic_load_n(&p->io_gen, __ATOMIC_ACQUIRE);
	if (gen && this_cpu()->io_gen != gen) {
		ioport_switch_slow(p);
		stale = true;
	}
	irq_restore(f);
	return stale;
}

bool ioport_granted(const struct proc *p, uint16_t port)
{
	return p->io_bitmap && !(p->io_bitmap[port / 8] & (1u << (port % 8)));
}

void ioport_proc_exit(struct proc *p)
{
	if (!p->io_bitmap)
		return;
	__atomic_store_n(&p->io_gen, 0, __ATOMIC_RELEASE);
	kfree(p->io_bitmap);
	p->io_bitmap = NULL;
	mem_uncharge(p->cgroup, IO_BITMAP_BYTES / PAGE_SIZE, MEMCG_STAT_KERNEL_OTHER);
}
