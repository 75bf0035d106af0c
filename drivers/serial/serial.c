/* The serial console driver: a user-space process that owns COM1.
 *
 * It publishes the "console" endpoint (abi/console.h). Writes are sent to
 * the UART; reads wait for input, which arrives on IRQ 4 as a notification
 * and is kept in a ring buffer. Two threads serve the endpoint, so that a
 * reader waiting for input never holds up writers; a third takes the
 * interrupts. (The kernel keeps its own direct path to COM1 for its
 * messages and panics.) */
#include "arbor/user.h"

#define COM1 0x3f8
#define IRQ_COM1 4
#define RING 1024

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static int endpoint, irq_notif, input_notif;
static ulock_t ring_lock;
static char ring[RING];
static unsigned ring_head, ring_tail;	/* head: next to read; tail: next to write */
static ulock_t tx_lock;

static void uart_putc(char c)
{
	while (!(inb(COM1 + 5) & 0x20))
		__asm__ volatile("pause");
	outb(COM1, (uint8_t)c);
}

static void uart_write(const char *s, long n)
{
	ulock(&tx_lock);
	for (long i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
	uunlock(&tx_lock);
}

static long handle_write(struct ipc_msg *m, const struct ipc_info *info)
{
	char buf[512];
	uint64_t off = 0;
	while (off < info->snd_len) {
		long n = sys_ipc_read(off, buf, sizeof(buf));
		if (n <= 0)
			break;
		uart_write(buf, n);
		off += (uint64_t)n;
	}
	m->w[0] = off;
	return 0;
}

static unsigned ring_take(char *buf, unsigned max)
{
	unsigned n = 0;
	ulock(&ring_lock);
	while (ring_head != ring_tail && n < max) {
		buf[n++] = ring[ring_head];
		ring_head = (ring_head + 1) % RING;
	}
	uunlock(&ring_lock);
	return n;
}

static long handle_read(struct ipc_msg *m, const struct ipc_info *info)
{
	char buf[256];
	unsigned max = info->rcv_len < sizeof(buf) ? (unsigned)info->rcv_len : sizeof(buf);
	unsigned n = 0;
	while (max && (n = ring_take(buf, max)) == 0)
		sys_notif_wait(input_notif, 0);
	m->w[0] = (uint64_t)sys_ipc_write(0, buf, n);
	return 0;
}

static long serve(void *arg)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	(void)arg;
	long r = sys_ipc_recv(endpoint, &m, &info);
	while (r == 0) {
		if (m.label == CONSOLE_WRITE)
			handle_write(&m, &info);
		else if (m.label == CONSOLE_READ)
			handle_read(&m, &info);
		else
			m.label = (uint64_t)-EINVAL;
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return r;
}

/* Moves received bytes into the ring and wakes readers. */
static long irq_thread(void *arg)
{
	(void)arg;
	for (;;) {
		sys_notif_wait(irq_notif, 0);
		ulock(&ring_lock);
		while (inb(COM1 + 5) & 0x01) {
			char c = (char)inb(COM1);
			unsigned next = (ring_tail + 1) % RING;
			if (next != ring_head) {	/* full: drop, as a UART would */
				ring[ring_tail] = c == '\r' ? '\n' : c;
				ring_tail = next;
			}
		}
		uunlock(&ring_lock);
		sys_irq_ack(IRQ_COM1);
		sys_notif_signal(input_notif, 1);
	}
	return 0;
}

int main(void)
{
	long ep = sys_ep_create(), irq = sys_notif_create(), in = sys_notif_create();
	if (ep < 0 || irq < 0 || in < 0 || sys_ioport_grant(COM1, 8) ||
	    sys_irq_bind(IRQ_COM1, (int)irq, 1)) {
		printf("serial: cannot set up COM1\n");
		return 1;
	}
	endpoint = (int)ep;
	irq_notif = (int)irq;
	input_notif = (int)in;
	outb(COM1 + 1, 0x01);		/* interrupt on received data */
	outb(COM1 + 4, 0x0b);		/* DTR, RTS, OUT2 (routes the IRQ) */
	if (thread_start(irq_thread, NULL) < 0 || thread_start(serve, NULL) < 0)
		return 1;
	if (sys_ns_register(CONSOLE_NAME, endpoint)) {
		printf("serial: the console name is taken\n");
		return 1;
	}
	return (int)serve(NULL);
}
