/* A user-space driver's view of the hardware: ports, an interrupt
 * delivered as a notification (the RTC's periodic interrupt, IRQ 8), PCI
 * configuration space, DMA memory, and the limits around them; a port
 * granted by one thread while another runs on another CPU. Runs with the
 * driver capability. */
#include "arbor/user.h"
#include "abi/sched.h"

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static uint8_t cmos_read(uint8_t reg) { outb(0x70, reg); return inb(0x71); }
static void cmos_write(uint8_t reg, uint8_t v) { outb(0x70, reg); outb(0x71, v); }

static void test_rtc_irq(void)
{
	long n = sys_notif_create();
	tap_check("notification created", n >= 0);
	tap_check_eq("grant the RTC ports", sys_ioport_grant(0x70, 2), 0);
	tap_check_eq("bind IRQ 8", sys_irq_bind(8, (int)n, 0x4), 0);
	tap_check_eq("a bound IRQ cannot be bound twice", sys_irq_bind(8, (int)n, 1), -EBUSY);
	/* Periodic interrupt at 1024 Hz (rate 6), PIE on. */
	cmos_write(0x8a, (uint8_t)((cmos_read(0x8a) & 0xf0) | 6));
	cmos_write(0x8b, (uint8_t)(cmos_read(0x8b) | 0x40));
	cmos_read(0x0c);	/* clear a pending flag */
	int got = 0;
	for (int i = 0; i < 5; i++) {
		long bits = sys_notif_wait((int)n, 2000000000ull);
		if (bits == 0x4)
			got++;
		cmos_read(0x0c);	/* acknowledge the RTC, or it stops */
		sys_irq_ack(8);
	}
	cmos_write(0x8b, (uint8_t)(cmos_read(0x8b) & ~0x40));
	tap_check_eq("five RTC interrupts arrive as notification bits", got, 5);
	tap_check_eq("unbind", sys_irq_unbind(8), 0);
	tap_check_eq("ack of an IRQ we do not own", sys_irq_ack(8), -EPERM);
	tap_check_eq("IRQ 0 is the kernel's", sys_irq_bind(0, (int)n, 1), -EINVAL);
	tap_check_eq("IRQ 16 does not exist", sys_irq_bind(16, (int)n, 1), -EINVAL);
	tap_check_eq("bind to a bad handle", sys_irq_bind(8, 99, 1), -EBADF);
	long nosig = sys_handle_dup((int)n, 0, 0);
	sys_handle_rights((int)nosig, HANDLE_RIGHT_WAIT);
	tap_check_eq("rights.irq_bind: bind to a notification without SIGNAL: EPERM", sys_irq_bind(8, (int)nosig, 1),
		     -EPERM);
	sys_handle_close((int)nosig);
	long ep = sys_ep_create();
	long nomanage = sys_handle_dup((int)ep, 0, 0);
	sys_handle_rights((int)nomanage, HANDLE_RIGHT_CALL | HANDLE_RIGHT_RECV);
	tap_check_eq("rights.mark_io: ipc_mark_io without MANAGE: EPERM", sys_ipc_mark_io((int)nomanage), -EPERM);
	tap_check_eq("rights.mark_io_ok: ipc_mark_io of our own endpoint", sys_ipc_mark_io((int)ep), 0);
	tap_check_eq("rights.mark_io_kind: ipc_mark_io of a notification: EBADF", sys_ipc_mark_io((int)n), -EBADF);
	sys_handle_close((int)nomanage);
	sys_handle_close((int)ep);
	tap_check_eq("wait times out", sys_notif_wait((int)n, 1000000), -ETIMEDOUT);
	tap_check_eq("signal then wait", sys_notif_signal((int)n, 0x30), 0);
	tap_check_eq("the bits come back", sys_notif_wait((int)n, 0), 0x30);
}

static void test_pci(void)
{
	int devices = 0, host_bridge = 0;
	for (uint32_t dev = 0; dev < 32; dev++) {
		long id = sys_pci_cfg_read(dev << 3, 0, 4);
		if (id < 0 || (id & 0xffff) == 0xffff)
			continue;
		devices++;
		if (id == 0x12378086)
			host_bridge = 1;
	}
	tap_check("PCI bus 0 has devices", devices >= 2);
	tap_check("the i440FX host bridge (8086:1237) is found", host_bridge);
	tap_check_eq("vendor id as a 2-byte read", sys_pci_cfg_read(0, 0, 2), 0x8086);
	tap_check_eq("misaligned PCI read", sys_pci_cfg_read(0, 1, 2), -EINVAL);
	tap_check_eq("PCI offset past 255", sys_pci_cfg_read(0, 256, 1), -EINVAL);
	tap_check_eq("PCI write value too wide", sys_pci_cfg_write(0, 4, 1, 0x100), -EINVAL);
}

static void test_memory(void)
{
	uint64_t phys = 0;
	long va = sys_dma_alloc(8192, &phys);
	tap_check("DMA buffer allocated", va > 0);
	tap_check("its physical address is page aligned", phys && (phys & 0xfff) == 0);
	volatile uint64_t *b = (volatile uint64_t *)va;
	tap_check("DMA memory starts zeroed", b[0] == 0 && b[1023] == 0);
	b[1023] = 0x1234;
	tap_check("DMA memory is writable", b[1023] == 0x1234);
	tap_check_eq("a DMA buffer is not cut in part", sys_mem_unmap((uint64_t)va, 4096), -EINVAL);
	tap_check_eq("a DMA buffer is freed whole", sys_mem_unmap((uint64_t)va, 8192), 0);
	tap_check_eq("DMA larger than 4 MiB", sys_dma_alloc(8ul << 20, &phys), -EINVAL);
	tap_check_eq("DMA with a bad phys pointer", sys_dma_alloc(4096, (uint64_t *)8), -EFAULT);
	tap_check_eq("RAM is not device memory", sys_mmio_map(0x100000, 4096), -EPERM);
	tap_check_eq("the local APIC is the kernel's", sys_mmio_map(0xfee00000, 4096), -EPERM);
	tap_check_eq("unaligned MMIO", sys_mmio_map(0xfeb00001, 4096), -EINVAL);
	long m = sys_mmio_map(0xfed00000, 4096);	/* the HPET page */
	tap_check("device memory maps", m > 0);
	if (m > 0)
		tap_check_eq("and unmaps", sys_mem_unmap((uint64_t)m, 4096), 0);
	tap_check_eq("ports the kernel keeps", sys_ioport_grant(0x20, 2), -EPERM);
	tap_check_eq("PCI configuration ports", sys_ioport_grant(0xcf8, 8), -EPERM);
	tap_check_eq("past port 0xffff", sys_ioport_grant(0xffff, 2), -EINVAL);
	/* zero-copy fills (docs/fs.md): a driver asks for its caller's grant */
	struct pcache_dma_seg segs[4];
	tap_check_eq("ipc_dma_grant serving no call: ESRCH", sys_ipc_dma_grant(0, 4096, segs, 4, 0), -ESRCH);
	tap_check_eq("ipc_dma_grant for a write, serving no call: ESRCH", sys_ipc_dma_grant(0, 4096, segs, 4, 1), -ESRCH);
	tap_check_eq("ipc_dma_grant of a range not in sectors: EINVAL", sys_ipc_dma_grant(0, 100, segs, 4, 0), -EINVAL);
	tap_check_eq("ipc_dma_grant into no pieces: EINVAL", sys_ipc_dma_grant(0, 4096, segs, 0, 0), -EINVAL);
	tap_check_eq("ipc_dma_grant with a direction not 0 or 1: EINVAL", sys_ipc_dma_grant(0, 4096, segs, 4, 2), -EINVAL);
	tap_check_eq("ipc_dma_grant into a kernel address: EFAULT",
		     sys_ipc_dma_grant(0, 4096, (void *)0xffff800000000000ull, 4, 0), -EFAULT);
	tap_check_eq("ipc_dma_grant unpins with nothing pinned: 0", sys_ipc_dma_grant(0, 0, NULL, 0, 0), 0);
	tap_check_eq("ipc_dma_grant's unpin takes no range: EINVAL", sys_ipc_dma_grant(0, 4096, NULL, 0, 0), -EINVAL);
}

/* A grant made on CPU 0 while a thread of ours runs on CPU 1 with the
 * bitmap it had (the serial driver's stderr thread died so, of a general
 * protection fault, on several CPUs). One CPU: the same, interleaved. */
static volatile int port_go, port_done;

static long port_user(void *arg)
{
	(void)arg;
	long online = sys_sched_policy(SCHED_OP_ONLINE, 0, 0, NULL);
	if (online > 0 && (online & 2))
		sys_sched_policy(SCHED_OP_SETAFFINITY, 0, 2, NULL); /* CPU 1 */
	cmos_read(0x0c); /* the bitmap with the RTC's ports, loaded here */
	while (!port_go)
		__asm__ volatile("pause");
	outb(0x80, 0); /* granted meanwhile, on the other CPU */
	(void)inb(0x80);
	port_done = 1;
	return 0;
}

static void test_ports_across_cpus(void)
{
	sys_sched_policy(SCHED_OP_SETAFFINITY, 0, 1, NULL); /* CPU 0 */
	tap_check("a thread that uses ports starts", thread_start(port_user, NULL) > 0);
	sys_sleep_ns(50000000); /* it is on its CPU, spinning */
	tap_check_eq("grant port 0x80 while it runs", sys_ioport_grant(0x80, 1), 0);
	port_go = 1;
	for (int i = 0; i < 2000 && !port_done; i++)
		sys_sleep_ns(1000000);
	tap_check("the other thread uses it at once (no fault on its CPU's older copy)", port_done);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "nocap") == 0) {
		long n = sys_notif_create();
		uint64_t phys;
		tap_check_eq("no capability: ioport_grant", sys_ioport_grant(0x70, 2), -EPERM);
		tap_check_eq("no capability: irq_bind", sys_irq_bind(8, (int)n, 1), -EPERM);
		tap_check_eq("no capability: pci_cfg_read", sys_pci_cfg_read(0, 0, 4), -EPERM);
		tap_check_eq("no capability: mmio_map", sys_mmio_map(0xfeb00000, 4096), -EPERM);
		tap_check_eq("no capability: dma_alloc", sys_dma_alloc(4096, &phys), -EPERM);
		return tap_done();
	}
	test_rtc_irq();
	test_ports_across_cpus();
	test_pci();
	test_memory();
	return tap_done();
}
