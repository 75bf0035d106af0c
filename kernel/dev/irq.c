/* Device interrupts for user-space drivers. The I/O APIC (found through
 * the ACPI MADT, with its ISA overrides) routes ISA IRQ n to vector
 * IRQ_VECTOR_BASE + n on this CPU, masked until a driver binds it to a
 * notification. The kernel's handler signals that notification; for a
 * level-triggered line it also masks the line until the driver, having
 * serviced the device, calls irq_ack.
 *
 * A level-triggered line may be shared: PCI devices' INTx pins meet on a
 * few ISA lines (10 and 11 on QEMU's i440FX), each device with its own
 * driver process. Each driver binds the line (up to IRQ_BINDERS); the
 * handler masks the line and signals every binder, and the line is
 * unmasked when every binder has acknowledged since (one that unbinds or
 * exits counts as having done so). A driver whose device did not raise
 * the line finds nothing to do and acknowledges. Edge-triggered lines
 * stay exclusive: an edge shared would be lost by whoever missed it. */
#include "dev.h"
#include "abi/errno.h"
#include "acpi.h"
#include "bootinfo.h"
#include "lapic.h"
#include "notif.h"
#include "printk.h"
#include "proc.h"
#include "spinlock.h"
#include "trap.h"
#include "vm.h"

#define IOAPIC_DEFAULT 0xfec00000u
#define IOREDTBL(n) (0x10 + 2 * (n))
#define RED_MASKED (1u << 16)
#define RED_LEVEL  (1u << 15)
#define RED_LOW    (1u << 13)
#define IRQ_LINES 16
#define IRQ_BINDERS 8	/* drivers sharing one level-triggered line */

struct irq_binder {
	struct notification *notif;	/* a reference while bound; NULL: a free slot */
	uint64_t bits;
	struct proc *owner;
	bool unacked;			/* signalled, irq_ack not called since */
};

struct irq_line {
	uint32_t gsi;
	bool level, active_low;
	struct irq_binder b[IRQ_BINDERS];	/* only b[0] on an edge-triggered line */
};

static struct acpi_madt_info madt; /* irq_madt's */
static bool madt_ok;
static volatile uint32_t *ioapic;
static uint32_t ioapic_gsi_base, ioapic_lines;
static struct irq_line irq_lines[IRQ_LINES];
static struct spinlock irq_lock = SPINLOCK_INIT("irq");

static uint32_t ioapic_read(uint32_t reg)
{
	ioapic[0] = reg;
	return ioapic[4];
}

static void ioapic_write(uint32_t reg, uint32_t v)
{
	ioapic[0] = reg;
	ioapic[4] = v;
}

static void ioapic_set(const struct irq_line *l, unsigned irq, bool masked)
{
	uint32_t pin = l->gsi - ioapic_gsi_base;
	uint32_t lo = (IRQ_VECTOR_BASE + irq) | (l->level ? RED_LEVEL : 0) |
		      (l->active_low ? RED_LOW : 0) | (masked ? RED_MASKED : 0);
	ioapic_write(IOREDTBL(pin) + 1, lapic_read(LAPIC_ID) & 0xff000000u); /* this CPU */
	ioapic_write(IOREDTBL(pin), lo);
}

static const void *irq_phys(uint64_t pa, uint64_t len)
{
	(void)len;
	return pa < (4ull << 30) ? phys_to_virt(pa) : NULL;
}

/* Signals every binder (under irq_lock, so none is unbound and its
 * notification freed meanwhile; notif_signal takes only the scheduler's
 * lock). A level-triggered line stays masked until all have acked. */
static void irq_handler(struct trap_frame *tf)
{
	unsigned irq = (unsigned)(tf->vector - IRQ_VECTOR_BASE);
	struct irq_line *l = &irq_lines[irq];

	spin_lock(&irq_lock);
	if (l->level)
		ioapic_set(l, irq, true); /* until the drivers acknowledge */
	for (int i = 0; i < IRQ_BINDERS; i++) {
		struct irq_binder *b = &l->b[i];
		if (!b->notif)
			continue;
		b->unacked = l->level;
		notif_signal(b->notif, b->bits);
	}
	spin_unlock(&irq_lock);
	lapic_eoi();
}

const struct acpi_madt_info *irq_madt(void)
{
	static bool loaded;
	if (loaded)
		return madt_ok ? &madt : NULL;
	loaded = true;
	uint64_t rsdp = boot_info.rsdp ? boot_info.rsdp : acpi_find_rsdp_legacy(irq_phys);
	uint64_t table = rsdp ? acpi_find_table(irq_phys, rsdp, "APIC") : 0;
	madt_ok = table && acpi_parse_madt(irq_phys, table, &madt) == 0;
	if (!madt_ok) /* what the rest of the kernel assumes without one */
		acpi_madt_defaults(&madt);
	return madt_ok ? &madt : NULL;
}

void irq_init(void)
{
	uint32_t base = IOAPIC_DEFAULT;

	if (irq_madt() && madt.nr_ioapics) {
		base = madt.ioapics[0].addr;
		ioapic_gsi_base = madt.ioapics[0].gsi_base;
	} else {
		printk("irq: no usable ACPI MADT; assuming an I/O APIC at %#x\n", base);
	}
	ioapic = phys_to_virt(base);
	ioapic_lines = ((ioapic_read(1) >> 16) & 0xff) + 1;
	for (uint32_t pin = 0; pin < ioapic_lines; pin++)
		ioapic_write(IOREDTBL(pin), RED_MASKED);
	for (unsigned irq = 0; irq < IRQ_LINES; irq++) {
		struct irq_line *l = &irq_lines[irq];
		l->gsi = madt.isa_gsi[irq];
		l->level = acpi_isa_level_triggered(&madt, irq);
		l->active_low = acpi_isa_active_low(&madt, irq);
		trap_register((uint8_t)(IRQ_VECTOR_BASE + irq), irq_handler);
	}
}

static bool irq_usable(uint32_t irq)
{
	/* 0 is the PIT and 2 the cascade: the kernel's, or nobody's. */
	return irq < IRQ_LINES && irq != 0 && irq != 2 &&
	       irq_lines[irq].gsi >= ioapic_gsi_base && irq_lines[irq].gsi - ioapic_gsi_base < ioapic_lines;
}

/* Whether line l has a binder, and whether one has not acked. */
static bool irq_bound(const struct irq_line *l, bool *unacked)
{
	bool bound = false;
	*unacked = false;
	for (int i = 0; i < IRQ_BINDERS; i++) {
		bound |= l->b[i].notif != NULL;
		*unacked |= l->b[i].notif && l->b[i].unacked;
	}
	return bound;
}

/* After a bind, ack or unbind: the line is unmasked while bound and no
 * binder owes an ack, masked otherwise. */
static void irq_update(struct irq_line *l, unsigned irq)
{
	bool unacked;
	bool bound = irq_bound(l, &unacked);
	ioapic_set(l, irq, !bound || unacked);
}

static struct irq_binder *irq_binder_of(struct irq_line *l, struct proc *p)
{
	for (int i = 0; i < IRQ_BINDERS; i++)
		if (l->b[i].notif && l->b[i].owner == p)
			return &l->b[i];
	return NULL;
}

long irq_bind(uint32_t irq, struct kobj *o, uint64_t bits, struct proc *p)
{
	if (!irq_usable(irq) || bits == 0) {
		kobj_put(o);
		return -EINVAL;
	}
	uint64_t f = spin_lock_irqsave(&irq_lock);
	struct irq_line *l = &irq_lines[irq];
	bool unacked;
	struct irq_binder *b = NULL;
	/* One binding per process; an edge-triggered line has one in all. */
	if (!irq_binder_of(l, p) && (l->level || !irq_bound(l, &unacked)))
		for (int i = 0; i < IRQ_BINDERS && !b; i++)
			if (!l->b[i].notif)
				b = &l->b[i];
	if (!b) {
		spin_unlock_irqrestore(&irq_lock, f);
		kobj_put(o);
		return -EBUSY;
	}
	*b = (struct irq_binder){ container_of(o, struct notification, obj), bits, p, false };
	irq_update(l, irq);	/* stays masked while the others owe an ack */
	spin_unlock_irqrestore(&irq_lock, f);
	return 0;
}

long sys_irq_bind(uint32_t irq, int h, uint64_t bits)
{
	struct proc *p = current_thread()->proc;
	if (!(p->caps & PROC_CAP_DRIVER))
		return -EPERM;
	if (!irq_usable(irq) || bits == 0)
		return -EINVAL;
	long err; /* the kernel signals it on the driver's behalf */
	struct kobj *o = handle_get_rights(p, h, KOBJ_KIND(KOBJ_NOTIFICATION), HANDLE_RIGHT_SIGNAL, &err);
	if (!o)
		return err;
	return irq_bind(irq, o, bits, p);
}

long irq_release(uint32_t irq, struct proc *p, bool unbind)
{
	if (!irq_usable(irq))
		return -EINVAL;
	struct kobj *drop = NULL;
	uint64_t f = spin_lock_irqsave(&irq_lock);
	struct irq_line *l = &irq_lines[irq];
	struct irq_binder *b = irq_binder_of(l, p);
	if (!b) {
		spin_unlock_irqrestore(&irq_lock, f);
		return -EPERM;
	}
	b->unacked = false;
	if (unbind) {
		drop = &b->notif->obj;
		*b = (struct irq_binder){ NULL, 0, NULL, false };
	}
	irq_update(l, irq);
	spin_unlock_irqrestore(&irq_lock, f);
	if (drop)
		kobj_put(drop);
	return 0;
}

bool irq_masked(uint32_t irq)
{
	if (!irq_usable(irq))
		return true;
	uint64_t f = spin_lock_irqsave(&irq_lock);
	bool masked = ioapic_read(IOREDTBL(irq_lines[irq].gsi - ioapic_gsi_base)) & RED_MASKED;
	spin_unlock_irqrestore(&irq_lock, f);
	return masked;
}

bool irq_level(uint32_t irq)
{
	return irq_usable(irq) && irq_lines[irq].level;
}

long sys_irq_ack(uint32_t irq)
{
	return irq_release(irq, current_thread()->proc, false);
}

long sys_irq_unbind(uint32_t irq)
{
	return irq_release(irq, current_thread()->proc, true);
}

void dev_proc_exit(struct proc *p)
{
	pci_proc_exit(p);	/* first: no DMA into what its exit frees */
	for (uint32_t irq = 0; irq < IRQ_LINES; irq++)
		(void)irq_release(irq, p, true);	/* counts as its ack: the line may unmask */
	ioport_proc_exit(p);
}
