/* The serial console driver: a user-space process that owns COM1.
 *
 * It publishes the "console" endpoint (abi/console.h). Writes are sent to
 * the UART; reads wait for input, which arrives on IRQ 4 as a notification
 * and goes through a small line discipline (echo, backspace, a line at a
 * time, Ctrl-C/Ctrl-\\ to the foreground process group, Ctrl-D) into a ring
 * buffer. Two threads serve the endpoint, so that a reader waiting for
 * input never holds up writers; a third takes the interrupts. (The kernel keeps its own direct path to COM1 for its
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
/* Line discipline (under ring_lock). */
static char line[256];
static unsigned line_len;
static int eof_pending;			/* Ctrl-D on an empty line: a read returns 0 */
static volatile int fg_pgid;		/* gets SIGINT/SIGQUIT/SIGTSTP from Ctrl-C/Ctrl-\/Ctrl-Z */
static volatile int raw_mode;

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

static bool take_eof(void)
{
	ulock(&ring_lock);
	bool eof = eof_pending > 0 && ring_head == ring_tail;
	if (eof)
		eof_pending--;
	uunlock(&ring_lock);
	return eof;
}

static long handle_read(struct ipc_msg *m, const struct ipc_info *info)
{
	char buf[256];
	unsigned max = info->rcv_len < sizeof(buf) ? (unsigned)info->rcv_len : sizeof(buf);
	unsigned n = 0;
	while (max && (n = ring_take(buf, max)) == 0) {
		if (take_eof())
			break;
		if (sys_notif_wait(input_notif, 0) == -EINTR)
			return -EINTR;
	}
	m->w[0] = (uint64_t)sys_ipc_write(0, buf, n);
	return 0;
}

/* The console is a terminal: what fstat and isatty expect. */
static long handle_fstat(void)
{
	uint64_t st[18] = { 0 };	/* struct stat, Linux x86_64 layout (144 bytes) */
	st[0] = 5;			/* st_dev */
	st[3] = 020620;			/* st_mode: S_IFCHR | 0620 (low 32 bits) */
	st[5] = (5 << 8) | 1;		/* st_rdev: 5:1, /dev/console */
	st[7] = 1024;			/* st_blksize */
	return sys_ipc_write(0, st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
}

static long serve(void *arg)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	(void)arg;
	long r = sys_ipc_recv(endpoint, &m, &info);
	while (r == 0) {
		long res = 0;
		if (m.label == CONSOLE_WRITE)
			res = handle_write(&m, &info);
		else if (m.label == CONSOLE_READ)
			res = handle_read(&m, &info);
		else if (m.label == FILE_FSTAT)
			res = handle_fstat();
		else if (m.label == FILE_POLL)
			m.w[0] = (ring_head != ring_tail || eof_pending ? (m.w[0] & 0x41) : 0) | (m.w[0] & 0x104);
		else if (m.label == CONSOLE_SETPGRP)
			fg_pgid = (int)m.w[0];
		else if (m.label == CONSOLE_GETPGRP)
			m.w[0] = (uint64_t)fg_pgid;
		else if (m.label == CONSOLE_SETRAW)
			raw_mode = m.w[0] == 1;
		else if (m.label == FILE_GETFL || m.label == FILE_SETFL)
			m.w[0] = 2; /* O_RDWR */
		else
			res = -EINVAL;
		m.label = (uint64_t)res;	/* 0 or -errno; results are in w[0] */
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return r;
}

static void ring_put(char c)
{
	unsigned next = (ring_tail + 1) % RING;
	if (next != ring_head) {	/* full: drop, as a UART would */
		ring[ring_tail] = c;
		ring_tail = next;
	}
}

static void echo(const char *s, long n)
{
	for (long i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

static void line_flush(void)
{
	for (unsigned i = 0; i < line_len; i++)
		ring_put(line[i]);
	line_len = 0;
}

static void signal_foreground(int sig, const char *shown)
{
	echo(shown, 3);
	line_len = 0;
	if (fg_pgid > 0)
		sys_kill(-fg_pgid, sig);
}

/* Cooked input: echo, editing, line at a time, signal keys. */
static void input_byte(char c)
{
	if (raw_mode) {
		ring_put(c);
		return;
	}
	switch (c) {
	case 0x03:
		signal_foreground(SIGINT, "^C\n");
		break;
	case 0x1c:
		signal_foreground(SIGQUIT, "^\\\n");
		break;
	case 0x1a:
		signal_foreground(SIGTSTP, "^Z\n");
		break;
	case 0x04:
		if (line_len == 0)
			eof_pending++;
		line_flush();
		break;
	case 0x7f:
	case 0x08:
		if (line_len) {
			line_len--;
			echo("\b \b", 3);
		}
		break;
	case '\r':
	case '\n':
		line[line_len++] = '\n';
		echo("\n", 1);
		line_flush();
		break;
	default:
		if (line_len < sizeof(line) - 1) {
			line[line_len++] = c;
			echo(&c, 1);
		}
	}
}

/* Moves received bytes through the line discipline and wakes readers. */
static long irq_thread(void *arg)
{
	(void)arg;
	for (;;) {
		sys_notif_wait(irq_notif, 0);
		ulock(&tx_lock);
		ulock(&ring_lock);
		while (inb(COM1 + 5) & 0x01)
			input_byte((char)inb(COM1));
		uunlock(&ring_lock);
		uunlock(&tx_lock);
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
