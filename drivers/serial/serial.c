/* The serial console driver: a user-space process that owns COM1.
 *
 * It publishes the "console" endpoint (abi/console.h). Writes are sent to
 * the UART; reads wait for input, which arrives on IRQ 4 as a notification
 * and goes through a small line discipline (echo, backspace, a line at a
 * time, Ctrl-C/Ctrl-\\ to the foreground process group, Ctrl-D) into a ring
 * buffer. No byte is dropped for want of room: when the ring cannot take
 * what the next byte may add (a whole line, in cooked mode), the driver
 * stops reading the UART and turns its receive interrupt off, so the byte
 * waits in the UART and the sender is held back (QEMU's serial backend
 * delivers only while the UART has room); a read that makes room turns it
 * on again. A read that finds no input is deferred (ipc_defer): the reader
 * waits parked, holding no server thread, and the interrupt thread answers
 * it when input comes; a parked reader that is interrupted or killed is
 * dropped at once (the kernel's IPC_LABEL_ABANDONED). So any number of
 * readers can wait while writers are served by the serving threads. The
 * console's readiness (poll) and status flags are published to the kernel
 * (ipc_fstate), which answers fd_poll and fd_flags itself. (The kernel
 * keeps its own direct path to COM1 for its messages and panics.) */
#include "arbor/user.h"

#define COM1 0x3f8
#define IRQ_COM1 4
#define RING 8192		/* more than a whole line (LINE_CAP) */
#define LINE_CAP 4096		/* a line's bytes, its newline included (Linux's N_TTY_BUF_SIZE) */
#define IER_RX 0x01		/* the UART's interrupt on received data */
#define SERVERS 4		/* threads serving calls (none waits for input) */
#define PARKED_MAX 192		/* deferred reads (each holds a reply handle) */
#define PARKED_PER_USER 32	/* a non-root user's share: no one user takes every place */
#define POLL_IN 0x41		/* POLLIN | POLLRDNORM */
#define POLL_OUT 0x104		/* POLLOUT | POLLWRNORM */
#define O_RDWR_FLAG 2

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static int endpoint, irq_notif;
static ulock_t ring_lock;
static char ring[RING];
static unsigned ring_head, ring_tail;	/* head: next to read; tail: next to write */
static ulock_t tx_lock;
/* Line discipline (under ring_lock). */
static char line[LINE_CAP];
static unsigned line_len;
static int rx_stopped;			/* the ring is too full: the UART is not read */
static int eof_pending;			/* Ctrl-D on an empty line: a read returns 0 */
static volatile int fg_pgid;		/* gets SIGINT/SIGQUIT/SIGTSTP from Ctrl-C/Ctrl-\/Ctrl-Z */
static volatile int raw_mode;
/* Readers waiting for input, oldest first (under ring_lock). */
static struct parked {
	int reply;			/* the reply handle */
	uint64_t cookie;
	unsigned max;			/* bytes it asked for */
	uint32_t uid;			/* the reader's real uid (kernel-attested) */
} parked[PARKED_MAX];
static unsigned nparked;
static uint64_t next_cookie = 1;

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

/* Up to max bytes from the ring, not yet taken (ring_lock held). */
static unsigned ring_peek(char *buf, unsigned max)
{
	unsigned n = 0, at = ring_head;
	while (at != ring_tail && n < max) {
		buf[n++] = ring[at];
		at = (at + 1) % RING;
	}
	return n;
}

static unsigned ring_free(void)
{
	return RING - 1 - (ring_tail + RING - ring_head) % RING;
}

/* Whether the ring can take whatever one more input byte may add to it:
 * the line so far and the byte, in cooked mode (ring_lock held). */
static int ring_can_take_byte(void)
{
	return ring_free() >= (raw_mode ? 1 : line_len + 1);
}

/* A reader took n bytes: if the UART was left unread for want of room,
 * and there is room now, its interrupt goes on again (at once, when it
 * holds a byte) so the interrupt thread reads on (ring_lock held). */
static void ring_consume(unsigned n)
{
	ring_head = (ring_head + n) % RING;
	if (rx_stopped && ring_can_take_byte()) {
		rx_stopped = 0;
		outb(COM1 + 1, IER_RX);
	}
}

/* Tells the kernel what poll answers now (ring_lock held). */
static void publish_state(void)
{
	unsigned ev = POLL_OUT | (ring_head != ring_tail || eof_pending ? POLL_IN : 0);
	sys_ipc_fstate(endpoint, 0, ev, O_RDWR_FLAG, 0);
}

/* Input for the caller now: bytes written to its buffer through write_fn
 * (0 for end of file), or -1 if there is none yet (ring_lock held). */
static long input_now(unsigned max, long (*write_fn)(int, const char *, unsigned), int reply)
{
	char buf[256];
	if (max > sizeof(buf))
		max = sizeof(buf);
	unsigned n = ring_peek(buf, max);
	/* Cooked, a read ends at a line's end, as Linux's canonical mode:
	 * `head -n 1` takes its line and leaves the next to the shell. */
	for (unsigned i = 0; !raw_mode && i < n; i++) {
		if (buf[i] == '\n') {
			n = i + 1;
			break;
		}
	}
	if (n || !max) {
		long w = write_fn(reply, buf, n);
		if (w > 0)
			ring_consume((unsigned)w);
		publish_state();
		return w;
	}
	if (eof_pending > 0) {
		eof_pending--;
		publish_state();
		return 0;
	}
	return -1;
}

static long to_current_caller(int reply, const char *buf, unsigned n)
{
	(void)reply;
	return sys_ipc_write(0, buf, n);
}

static long to_parked(int reply, const char *buf, unsigned n)
{
	return sys_ipc_reply_copy(reply, 0, (void *)buf, n, 1);
}

/* May a reader of real uid park? Root always (while there is room);
 * others while they hold fewer than PARKED_PER_USER places (ring_lock). */
static int parked_room(uint32_t uid)
{
	unsigned mine = 0;
	for (unsigned i = 0; i < nparked; i++)
		mine += parked[i].uid == uid;
	return nparked < PARKED_MAX && (uid == 0 || mine < PARKED_PER_USER);
}

/* A read: answered now if there is input, else parked (deferred). Returns
 * 1 if the call was deferred (nothing to reply now). */
static int handle_read(struct ipc_msg *m, const struct ipc_info *info)
{
	unsigned max = info->rcv_len < 256 ? (unsigned)info->rcv_len : 256;
	ulock(&ring_lock);
	long r = input_now(max, to_current_caller, -1);
	if (r < 0 && parked_room(info->uid)) {
		uint64_t cookie = next_cookie++;
		long h = sys_ipc_defer(endpoint, cookie);
		if (h >= 0) {
			parked[nparked++] = (struct parked){ (int)h, cookie, max, info->uid };
			uunlock(&ring_lock);
			return 1;
		}
	}
	uunlock(&ring_lock);
	/* No room to park it (PARKED_MAX readers wait, or this user's share
	 * does): try again later. */
	m->label = (uint64_t)(r < 0 ? -EAGAIN : 0);
	m->w[0] = r < 0 ? 0 : (uint64_t)r;
	return 0;
}

/* Answers parked readers while there is input for them (ring_lock held). */
static void serve_parked(void)
{
	while (nparked) {
		struct parked p = parked[0];
		long r = input_now(p.max, to_parked, p.reply);
		if (r == -1)
			return; /* no input left */
		for (unsigned i = 1; i < nparked; i++)
			parked[i - 1] = parked[i];
		nparked--;
		struct ipc_msg m = { .label = r < 0 ? (uint64_t)r : 0, .w = { r < 0 ? 0 : (uint64_t)r } };
		sys_ipc_reply_to(p.reply, &m); /* -ESRCH: it went meanwhile */
	}
}

/* The kernel says a parked reader went (signal, kill, exit): drop it. */
static void drop_parked(uint64_t cookie)
{
	ulock(&ring_lock);
	for (unsigned i = 0; i < nparked; i++) {
		if (parked[i].cookie != cookie)
			continue;
		sys_handle_close(parked[i].reply);
		for (unsigned j = i + 1; j < nparked; j++)
			parked[j - 1] = parked[j];
		nparked--;
		break;
	}
	uunlock(&ring_lock);
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
		if (m.label == IPC_LABEL_ABANDONED && info.pid == 0) {
			drop_parked(m.w[0]);
			m.label = 0;
			r = sys_ipc_reply_recv(endpoint, &m, &info); /* nobody to answer */
			continue;
		}
		if (m.label == CONSOLE_WRITE) {
			res = handle_write(&m, &info);
		} else if (m.label == CONSOLE_READ) {
			if (handle_read(&m, &info)) {
				r = sys_ipc_recv(endpoint, &m, &info); /* deferred: nothing to answer */
				continue;
			}
			res = (long)m.label;
		} else if (m.label == FILE_FSTAT)
			res = handle_fstat();
		else if (m.label == FILE_POLL)
			m.w[0] = (ring_head != ring_tail || eof_pending ? (m.w[0] & POLL_IN) : 0) | (m.w[0] & POLL_OUT);
		else if (m.label == CONSOLE_SETPGRP)
			fg_pgid = (int)m.w[0];
		else if (m.label == FILE_GETDENTS)
			res = -ENOTDIR; /* a terminal, as Linux */
		else if (m.label == CONSOLE_GETPGRP)
			m.w[0] = (uint64_t)fg_pgid;
		else if (m.label == CONSOLE_SETRAW)
			raw_mode = m.w[0] == 1;
		else if (m.label == FILE_GETFL || m.label == FILE_SETFL)
			m.w[0] = O_RDWR_FLAG;
		else
			res = -EINVAL;
		m.label = (uint64_t)res;	/* 0 or -errno; results are in w[0] */
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return r;
}

/* One byte into the ring; the caller made sure there is room
 * (ring_can_take_byte before each input byte). */
static void ring_put(char c)
{
	unsigned next = (ring_tail + 1) % RING;
	if (next != ring_head) {
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
		/* A full line keeps its last place for the newline; more is
		 * dropped, as Linux's n_tty does in canonical mode. */
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
		while (!rx_stopped && (inb(COM1 + 5) & 0x01)) {
			if (!ring_can_take_byte()) {
				/* Leave the byte in the UART: no more are sent
				 * until a reader makes room (ring_consume). */
				rx_stopped = 1;
				outb(COM1 + 1, 0);
				break;
			}
			input_byte((char)inb(COM1));
		}
		uunlock(&tx_lock);
		serve_parked();
		publish_state();
		uunlock(&ring_lock);
		sys_irq_ack(IRQ_COM1);
	}
	return 0;
}

int main(void)
{
	long ep = sys_ep_create(), irq = sys_notif_create();
	if (ep < 0 || irq < 0 || sys_ioport_grant(COM1, 8) ||
	    sys_irq_bind(IRQ_COM1, (int)irq, 1)) {
		printf("serial: cannot set up COM1\n");
		return 1;
	}
	endpoint = (int)ep;
	irq_notif = (int)irq;
	/* Input that came before this driver waits in the UART (the kernel
	 * neither reads nor clears it): the interrupt comes at once. */
	outb(COM1 + 1, IER_RX);		/* interrupt on received data */
	outb(COM1 + 4, 0x0b);		/* DTR, RTS, OUT2 (routes the IRQ) */
	publish_state();
	if (thread_start(irq_thread, NULL) < 0)
		return 1;
	for (int i = 1; i < SERVERS; i++)
		if (thread_start(serve, NULL) < 0)
			return 1;
	if (sys_ns_register(CONSOLE_NAME, endpoint)) {
		printf("serial: the console name is taken\n");
		return 1;
	}
	return (int)serve(NULL);
}
