/* The serial console driver: a user-space process that owns COM1.
 *
 * It publishes the "console" endpoint (abi/console.h). Writes go to the
 * UART through the kernel (console_tx, serialized with the kernel's own
 * lines); reads wait for input, which arrives on IRQ 4 as a notification
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
#define COM3 0x3e8		/* console.stderr=ttyS2: the run= program's stderr */
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
#define O_WRONLY_FLAG 1

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static int endpoint, irq_notif;
static ulock_t ring_lock;
static char ring[RING];
/* Per ring byte: RF_DELIM ends a line (a canonical read stops after it);
 * RF_EOF marks the VEOF key, which ends a line and is not delivered. */
static uint8_t ring_flag[RING];
#define RF_DELIM 1
#define RF_EOF 2
static unsigned ring_head, ring_tail;	/* head: next to read; tail: next to write */
static ulock_t tx_lock;
/* Line discipline (under ring_lock; the output flags are read without it). */
static char line[LINE_CAP];
static unsigned line_len;
static int lnext;			/* VLNEXT typed: the next byte is literal */
static int rx_stopped;			/* the ring is too full: the UART is not read */
static volatile int fg_pgid;		/* gets SIGINT/SIGQUIT/SIGTSTP from Ctrl-C/Ctrl-\/Ctrl-Z */
static struct console_termios tio;	/* the terminal's state, Linux's flags */
static uint16_t winsz[4];		/* struct winsize: rows, cols, x and y pixels */
#define NOTIF_IRQ 1			/* the UART interrupted */
#define NOTIF_TIMER 2			/* a reader with a VTIME deadline parked */
/* Readers waiting for input, oldest first (under ring_lock). */
static struct parked {
	int reply;			/* the reply handle */
	uint64_t cookie;
	unsigned max;			/* bytes it asked for */
	uint32_t uid;			/* the reader's real uid (kernel-attested) */
	uint64_t deadline;		/* VTIME expiry (clock_ns), 0: none */
} parked[PARKED_MAX];
static unsigned nparked;
static uint64_t next_cookie = 1;

/* Linux's values of the flags the line discipline honours (the same as
 * <termios.h>; the driver is on the small runtime, without it). */
#define T_IGNCR 0000200
#define T_ICRNL 0000400
#define T_INLCR 0000100
#define T_ISTRIP 0000040
#define T_IXON 0002000
#define T_OPOST 0000001
#define T_ONLCR 0000004
#define T_OCRNL 0000010
#define T_ISIG 0000001
#define T_ICANON 0000002
#define T_ECHO 0000010
#define T_ECHOE 0000020
#define T_ECHOK 0000040
#define T_ECHONL 0000100
#define T_NOFLSH 0000200
#define T_ECHOCTL 0001000
#define T_ECHOKE 0004000
#define T_IEXTEN 0100000
#define T_CBAUD 0010017
#define T_B115200 0010002
#define T_CS8 0000060
#define T_CREAD 0000200
#define T_HUPCL 0002000
enum { V_INTR, V_QUIT, V_ERASE, V_KILL, V_EOF, V_TIME, V_MIN, V_SWTC, V_START, V_STOP,
       V_SUSP, V_EOL, V_REPRINT, V_DISCARD, V_WERASE, V_LNEXT, V_EOL2 };

/* Linux's sane settings (stty sane), at 115200 baud as the UART runs. */
static void tio_sane(struct console_termios *t)
{
	static const uint8_t cc[CONSOLE_NCCS] = {
		[V_INTR] = 0x03, [V_QUIT] = 0x1c, [V_ERASE] = 0x7f, [V_KILL] = 0x15, [V_EOF] = 0x04,
		[V_TIME] = 0, [V_MIN] = 1, [V_START] = 0x11, [V_STOP] = 0x13, [V_SUSP] = 0x1a,
		[V_REPRINT] = 0x12, [V_DISCARD] = 0x0f, [V_WERASE] = 0x17, [V_LNEXT] = 0x16,
	};
	t->iflag = T_ICRNL | T_IXON;
	t->oflag = T_OPOST | T_ONLCR;
	t->cflag = T_B115200 | T_CS8 | T_CREAD | T_HUPCL;
	t->lflag = T_ISIG | T_ICANON | T_ECHO | T_ECHOE | T_ECHOK | T_ECHOCTL | T_ECHOKE | T_IEXTEN;
	t->line = 0;
	for (int i = 0; i < CONSOLE_NCCS; i++)
		t->cc[i] = cc[i];
}

/* Output waits here (tx_lock held) and leaves through the kernel
 * (console_tx), which writes it under the lock of its own console lines:
 * on several CPUs a kernel message and a program's output would otherwise
 * mix byte by byte on the one line. */
static char tx_buf[512];
static unsigned tx_len;

static void tx_flush(void)
{
	unsigned off = 0;
	while (off < tx_len) {
		long n = sys_console_tx(tx_buf + off, tx_len - off);
		if (n <= 0)
			break;
		off += (unsigned)n;
	}
	tx_len = 0;
}

static void uart_putc(char c)
{
	if (tx_len == sizeof(tx_buf))
		tx_flush();
	tx_buf[tx_len++] = c;
}

static void tx_unlock(void)
{
	tx_flush();
	uunlock(&tx_lock);
}

/* One byte of output through OPOST (tx_lock held). */
static void opost_putc(char c)
{
	uint32_t of = tio.oflag;
	if (of & T_OPOST) {
		if (c == '\n' && (of & T_ONLCR))
			uart_putc('\r');
		else if (c == '\r' && (of & T_OCRNL))
			c = '\n';
	}
	uart_putc(c);
}

static void uart_write(const char *s, long n)
{
	ulock(&tx_lock);
	for (long i = 0; i < n; i++)
		opost_putc(s[i]);
	tx_unlock();
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

static unsigned ring_count(void)
{
	return (ring_tail + RING - ring_head) % RING;
}

/* What a read may take now (ring_lock held): in canonical mode up to and
 * including the first line end, whose flags *flag gets; in raw mode all
 * of it. Fills buf with up to max bytes; returns how many ring places
 * that uses (an RF_EOF place counts but is not copied: *copied). */
static unsigned ring_take(char *buf, unsigned max, unsigned *copied)
{
	unsigned n = 0, used = 0, at = ring_head;
	int canon = (tio.lflag & T_ICANON) != 0;
	while (at != ring_tail && n < max) {
		uint8_t f = ring_flag[at];
		char c = ring[at];
		used++;
		at = (at + 1) % RING;
		if (canon && (f & RF_EOF))
			break;
		buf[n++] = c;
		if (canon && (f & RF_DELIM))
			break;
	}
	*copied = n;
	return used;
}

static unsigned ring_free(void)
{
	return RING - 1 - (ring_tail + RING - ring_head) % RING;
}

/* Whether the ring can take whatever one more input byte may add to it:
 * the line so far and the byte, in cooked mode (ring_lock held). */
static int ring_can_take_byte(void)
{
	return ring_free() >= ((tio.lflag & T_ICANON) ? line_len + 1 : 1);
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
	unsigned ev = POLL_OUT | (ring_head != ring_tail ? POLL_IN : 0);
	sys_ipc_fstate(endpoint, 0, ev, O_RDWR_FLAG, 0);
}

/* Bytes a non-canonical read waits for before it returns (VMIN, at most
 * what it asked for; 0: none). */
static unsigned raw_need(unsigned max)
{
	unsigned min = tio.cc[V_MIN];
	return min < max ? min : max;
}

/* Input for the caller now: bytes written to its buffer through write_fn
 * (0 for end of file, or a VMIN 0 read that found nothing), or -1 if it
 * must wait. timed_out: its VTIME expired (ring_lock held). */
static long input_now(unsigned max, long (*write_fn)(int, const char *, unsigned), int reply,
		      int timed_out)
{
	char buf[256];
	if (max > sizeof(buf))
		max = sizeof(buf);
	unsigned avail = ring_count();
	if (!(tio.lflag & T_ICANON) && max) {
		unsigned need = raw_need(max);
		if (avail < need && !timed_out)
			return -1; /* VMIN not reached, or the inter-byte timer runs */
		if (!avail && need == 0 && tio.cc[V_TIME] && !timed_out)
			return -1; /* VMIN 0, VTIME > 0: wait up to VTIME */
		if (!avail && need > 0)
			return -1; /* the inter-byte timer starts with the first byte */
	} else if (!avail && max) {
		return -1;
	}
	unsigned copied;
	unsigned used = ring_take(buf, max, &copied);
	long w = write_fn(reply, buf, copied);
	if (w >= 0)
		ring_consume(used);
	publish_state();
	return w;
}

static long to_current_caller(int reply, const char *buf, unsigned n)
{
	(void)reply;
	return n ? sys_ipc_write(0, buf, n) : 0;
}

static long to_parked(int reply, const char *buf, unsigned n)
{
	return n ? sys_ipc_reply_copy(reply, 0, (void *)buf, n, 1) : 0;
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

static uint64_t vtime_ns(void)
{
	return (uint64_t)tio.cc[V_TIME] * 100000000ull;
}

/* The VTIME deadline of a reader parking now: VMIN 0 waits VTIME for
 * the first byte; VMIN > 0 with VTIME restarts the timer per byte, from
 * the first (ring_lock held). */
static uint64_t park_deadline(void)
{
	if ((tio.lflag & T_ICANON) || !tio.cc[V_TIME])
		return 0;
	if (!tio.cc[V_MIN] || ring_count())
		return (uint64_t)sys_clock_ns() + vtime_ns();
	return 0;
}

/* A read: answered now if there is input, else parked (deferred). Returns
 * 1 if the call was deferred (nothing to reply now). */
static int handle_read(struct ipc_msg *m, const struct ipc_info *info)
{
	unsigned max = info->rcv_len < 256 ? (unsigned)info->rcv_len : 256;
	ulock(&ring_lock);
	long r = input_now(max, to_current_caller, -1, 0);
	if (r == -1 && parked_room(info->uid)) {
		uint64_t cookie = next_cookie++;
		long h = sys_ipc_defer(endpoint, cookie);
		if (h >= 0) {
			uint64_t deadline = park_deadline();
			parked[nparked++] = (struct parked){ (int)h, cookie, max, info->uid, deadline };
			uunlock(&ring_lock);
			if (deadline)
				sys_notif_signal(irq_notif, NOTIF_TIMER);
			return 1;
		}
	}
	uunlock(&ring_lock);
	/* No room to park it (PARKED_MAX readers wait, or this user's share
	 * does): try again later. */
	m->label = (uint64_t)(r == -1 ? -EAGAIN : r < 0 ? r : 0);
	m->w[0] = r < 0 ? 0 : (uint64_t)r;
	return 0;
}

static void unpark(unsigned i)
{
	for (unsigned j = i + 1; j < nparked; j++)
		parked[j - 1] = parked[j];
	nparked--;
}

/* Answers parked reader i if it can be now; 1 if it was (ring_lock held). */
static int serve_one(unsigned i, uint64_t now)
{
	struct parked p = parked[i];
	long r = input_now(p.max, to_parked, p.reply, p.deadline && now >= p.deadline);
	if (r == -1)
		return 0;
	unpark(i);
	struct ipc_msg m = { .label = r < 0 ? (uint64_t)r : 0, .w = { r < 0 ? 0 : (uint64_t)r } };
	sys_ipc_reply_to(p.reply, &m); /* -ESRCH: it went meanwhile */
	return 1;
}

/* Answers parked readers while there is input for them, and those whose
 * VTIME expired (ring_lock held). */
static void serve_parked(void)
{
	uint64_t now = (uint64_t)sys_clock_ns();
	while (nparked && serve_one(0, now))
		;
	for (unsigned i = 0; i < nparked;)
		if (!(parked[i].deadline && now >= parked[i].deadline && serve_one(i, now)))
			i++;
}

/* Input arrived: a waiting VMIN > 0 reader's inter-byte timer restarts
 * (ring_lock held). */
static void restart_timers(void)
{
	if ((tio.lflag & T_ICANON) || !tio.cc[V_TIME] || !tio.cc[V_MIN] || !ring_count())
		return;
	uint64_t deadline = (uint64_t)sys_clock_ns() + vtime_ns();
	for (unsigned i = 0; i < nparked; i++)
		parked[i].deadline = deadline;
}

/* The nearest VTIME deadline of a parked reader, 0 if none (ring_lock). */
static uint64_t next_deadline(void)
{
	uint64_t d = 0;
	for (unsigned i = 0; i < nparked; i++)
		if (parked[i].deadline && (!d || parked[i].deadline < d))
			d = parked[i].deadline;
	return d;
}

/* The kernel says a parked reader went (signal, kill, exit): drop it. */
static void drop_parked(uint64_t cookie)
{
	ulock(&ring_lock);
	for (unsigned i = 0; i < nparked; i++) {
		if (parked[i].cookie != cookie)
			continue;
		sys_handle_close(parked[i].reply);
		unpark(i);
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

/* Discards what was typed: the line being edited and the ring (a UART
 * left unread for want of room is read again). */
static void input_flush(void)
{
	line_len = 0;
	lnext = 0;
	ring_consume(ring_count());
}

static void ring_put(char c, uint8_t flag);

/* New settings (ring_lock held). Leaving canonical mode makes the line
 * being typed readable, as Linux; readers waiting see the new VMIN/VTIME. */
static void tio_set(const struct console_termios *t)
{
	int was_canon = (tio.lflag & T_ICANON) != 0;
	tio = *t;
	if (was_canon && !(tio.lflag & T_ICANON)) {
		for (unsigned i = 0; i < line_len; i++)
			ring_put(line[i], 0);
		line_len = 0;
	}
	uint64_t deadline = park_deadline();
	for (unsigned i = 0; i < nparked; i++)
		parked[i].deadline = deadline;
	serve_parked();
	publish_state();
	sys_notif_signal(irq_notif, NOTIF_TIMER);
}

/* Bytes a FIONREAD sees: those a read could take (ring_lock held). */
static unsigned readable_bytes(void)
{
	unsigned n = 0;
	for (unsigned at = ring_head; at != ring_tail; at = (at + 1) % RING)
		n += !(ring_flag[at] & RF_EOF) || !(tio.lflag & T_ICANON);
	return n;
}

/* A send-buffer argument of exactly len bytes (EFAULT if the caller's
 * pointer is bad: the kernel's copy fails). */
static long arg_in(const struct ipc_info *info, void *buf, unsigned len)
{
	if (info->snd_len < len)
		return -EFAULT;
	return sys_ipc_read(0, buf, len) == (long)len ? 0 : -EFAULT;
}

static long arg_out(const struct ipc_info *info, const void *buf, unsigned len)
{
	if (info->rcv_len < len)
		return -EFAULT;
	return sys_ipc_write(0, buf, len) == (long)len ? 0 : -EFAULT;
}

/* TCGETS: 36 bytes, or glibc's 60 with the speeds (see abi/console.h). */
static long ioctl_tcgets(const struct ipc_info *info)
{
	struct console_termios_full f = { 0 };
	ulock(&ring_lock);
	f.k = tio;
	uunlock(&ring_lock);
	f.ispeed = f.ospeed = f.k.cflag & T_CBAUD;
	return arg_out(info, &f, info->rcv_len >= sizeof(f) ? sizeof(f) : sizeof(f.k));
}

static long ioctl_tcsets(const struct ipc_info *info, uint64_t req)
{
	struct console_termios t;
	long e = arg_in(info, &t, sizeof(t));
	if (e)
		return e;
	t.iflag &= ~020000000000u; /* glibc's private IBAUD0: never the terminal's */
	ulock(&ring_lock);
	/* TCSETSW, TCSETSF: output is written to the UART before a write
	 * returns, so it has drained already. */
	if (req == CONSOLE_TCSETSF)
		input_flush();
	tio_set(&t);
	uunlock(&ring_lock);
	return 0;
}

/* TIOCSPGRP: Linux's checks (a negative group EINVAL, one with no
 * process ESRCH). */
static long ioctl_setpgrp(const struct ipc_info *info)
{
	int32_t pg;
	long e = arg_in(info, &pg, sizeof(pg));
	if (e)
		return e;
	if (pg < 0)
		return -EINVAL;
	if (pg == 0 || sys_kill(-pg, 0) == -ESRCH)
		return -ESRCH;
	fg_pgid = pg;
	return 0;
}

/* TIOCSWINSZ: a changed size is SIGWINCH for the foreground group, sent
 * once the caller has its answer (*sig), so its own call is not EINTR. */
static long ioctl_setwinsz(const struct ipc_info *info, int *sig)
{
	uint16_t w[4];
	long e = arg_in(info, w, sizeof(w));
	if (e)
		return e;
	ulock(&ring_lock);
	int changed = w[0] != winsz[0] || w[1] != winsz[1] || w[2] != winsz[2] || w[3] != winsz[3];
	for (int i = 0; i < 4; i++)
		winsz[i] = w[i];
	uunlock(&ring_lock);
	if (changed && fg_pgid > 0)
		*sig = SIGWINCH;
	return 0;
}

/* A quarter second of zero bits (LCR bit 6), as Linux's tcsendbreak(fd, 0). */
static void uart_break(void)
{
	ulock(&tx_lock);
	uint8_t lcr = inb(COM1 + 3);
	outb(COM1 + 3, lcr | 0x40);
	sys_sleep_ns(250000000);
	outb(COM1 + 3, lcr);
	uunlock(&tx_lock);
}

/* A terminal ioctl (CONSOLE_IOCTL): 0 or -errno; *sig: a signal for the
 * foreground group once it is answered. */
static long handle_ioctl(const struct ipc_msg *m, const struct ipc_info *info, int *sig)
{
	uint64_t req = m->w[0];
	long arg = (long)m->w[1];
	int32_t v;
	switch (req) {
	case CONSOLE_TCGETS:
		return ioctl_tcgets(info);
	case CONSOLE_TCSETS:
	case CONSOLE_TCSETSW:
	case CONSOLE_TCSETSF:
		return ioctl_tcsets(info, req);
	case CONSOLE_TCSBRK:
		if (arg == 0)
			uart_break();
		return 0; /* nonzero: drain, done (writes are synchronous) */
	case CONSOLE_TCFLSH:
		if (arg < 0 || arg > 2)
			return -EINVAL;
		if (arg != 1) { /* TCIFLUSH, TCIOFLUSH; no output is queued */
			ulock(&ring_lock);
			input_flush();
			publish_state();
			uunlock(&ring_lock);
		}
		return 0;
	case CONSOLE_TIOCGPGRP:
		v = fg_pgid;
		return arg_out(info, &v, sizeof(v));
	case CONSOLE_TIOCSPGRP:
		return ioctl_setpgrp(info);
	case CONSOLE_TIOCOUTQ:
		v = 0; /* nothing waits: a write returns once the UART has it */
		return arg_out(info, &v, sizeof(v));
	case CONSOLE_TIOCGWINSZ: {
		uint16_t w[4];
		ulock(&ring_lock);
		for (int i = 0; i < 4; i++)
			w[i] = winsz[i];
		uunlock(&ring_lock);
		return arg_out(info, w, sizeof(w));
	}
	case CONSOLE_TIOCSWINSZ:
		return ioctl_setwinsz(info, sig);
	case CONSOLE_FIONREAD:
		ulock(&ring_lock);
		v = (int32_t)readable_bytes();
		uunlock(&ring_lock);
		return arg_out(info, &v, sizeof(v));
	}
	return -ENOTTY;
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
			m.w[0] = (ring_head != ring_tail ? (m.w[0] & POLL_IN) : 0) | (m.w[0] & POLL_OUT);
		else if (m.label == CONSOLE_IOCTL) {
			int sig = 0;
			res = handle_ioctl(&m, &info, &sig);
			m.w[0] = 0; /* ioctl's result; values travel in the buffers */
			if (sig) {
				m.label = (uint64_t)res;
				sys_ipc_reply(&m);
				sys_kill(-fg_pgid, sig);
				r = sys_ipc_recv(endpoint, &m, &info);
				continue;
			}
		}
		else if (m.label == FILE_GETDENTS)
			res = -ENOTDIR; /* a terminal, as Linux */
		else if (m.label == FILE_GETFL || m.label == FILE_SETFL)
			m.w[0] = O_RDWR_FLAG;
		else
			res = -EINVAL;
		m.label = (uint64_t)res;	/* 0 or -errno; results are in w[0] */
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return r;
}

/* The stderr channel (CONSOLE_ERR_NAME): writes go to COM3 byte for
 * byte; it is not a terminal (no reads, no ioctls) and has no state. */
static int err_endpoint;
static ulock_t err_lock;

static void com3_write(const char *s, long n)
{
	ulock(&err_lock);
	for (long i = 0; i < n; i++) {
		while (!(inb(COM3 + 5) & 0x20))
			__asm__ volatile("pause");
		outb(COM3, (uint8_t)s[i]);
	}
	uunlock(&err_lock);
}

static long serve_err(void *arg)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	char buf[512];
	(void)arg;
	long r = sys_ipc_recv(err_endpoint, &m, &info);
	while (r == 0) {
		long res = 0;
		if (m.label == FILE_WRITE) {
			uint64_t off = 0;
			while (off < info.snd_len) {
				long n = sys_ipc_read(off, buf, sizeof(buf));
				if (n <= 0)
					break;
				com3_write(buf, n);
				off += (uint64_t)n;
			}
			m.w[0] = off;
		} else if (m.label == FILE_POLL)
			m.w[0] &= POLL_OUT;
		else if (m.label == FILE_FSTAT)
			res = handle_fstat();
		else if (m.label == FILE_GETFL || m.label == FILE_SETFL)
			m.w[0] = O_WRONLY_FLAG;
		else if (m.label == FILE_READ)
			res = -EBADF;	/* write-only, as a descriptor opened so */
		else if (m.label == CONSOLE_IOCTL)
			res = -ENOTTY;
		else if (m.label == FILE_GETDENTS)
			res = -ENOTDIR;
		else if (m.label == IPC_LABEL_ABANDONED && info.pid == 0) {
			r = sys_ipc_recv(err_endpoint, &m, &info);	/* nothing to answer */
			continue;
		} else
			res = -EINVAL;
		m.label = (uint64_t)res;
		r = sys_ipc_reply_recv(err_endpoint, &m, &info);
	}
	return r;
}

/* Publishes the stderr channel if the command line asks for it; before
 * the console's name, so init, which waits for that, finds both. */
static int start_err_channel(void)
{
	static char cmdline[512];
	if (sys_cmdline(cmdline, sizeof(cmdline)) < 0 || !cmdline_has(cmdline, CONSOLE_ERR_OPTION))
		return 0;
	long ep = sys_ep_create();
	if (ep < 0 || sys_ioport_grant(COM3, 8))
		return -1;
	err_endpoint = (int)ep;
	outb(COM3 + 1, 0x00);	/* no interrupts: output only, polled */
	outb(COM3 + 3, 0x80);
	outb(COM3 + 0, 0x01);	/* 115200 baud */
	outb(COM3 + 1, 0x00);
	outb(COM3 + 3, 0x03);	/* 8N1 */
	/* a file to the kernel, as the console's endpoint: fcntl(F_GETFL),
	 * poll and /proc/PID/fd answer for it (always writable, write-only,
	 * no flag a client may change) */
	if (sys_ipc_fstate(err_endpoint, 0, POLL_OUT, O_WRONLY_FLAG, 0) < 0)
		return -1;
	if (thread_start(serve_err, NULL) < 0 || sys_ns_register(CONSOLE_ERR_NAME, err_endpoint))
		return -1;
	return 0;
}

/* One byte into the ring; the caller made sure there is room
 * (ring_can_take_byte before each input byte). */
static void ring_put(char c, uint8_t flag)
{
	unsigned next = (ring_tail + 1) % RING;
	if (next != ring_head) {
		ring[ring_tail] = c;
		ring_flag[ring_tail] = flag;
		ring_tail = next;
	}
}

static int is_ctl(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* Echo of one input byte: ECHOCTL shows a control character as ^X (but
 * tab and newline as themselves). tx_lock held. */
static void echo_char(char c)
{
	if ((tio.lflag & T_ECHOCTL) && is_ctl(c) && c != '\t' && c != '\n') {
		opost_putc('^');
		opost_putc(c == 0x7f ? '?' : (char)(c ^ 0x40));
	} else {
		opost_putc(c);
	}
}

/* Takes the last character of the line back, and its echo (ECHOE:
 * "\b \b" per column it took). */
static void erase_one(void)
{
	char c = line[--line_len];
	if (!(tio.lflag & T_ECHO))
		return;
	int cols = (tio.lflag & T_ECHOCTL) && is_ctl(c) && c != '\t' ? 2 : 1;
	for (int i = 0; i < cols; i++) {
		opost_putc('\b');
		opost_putc(' ');
		opost_putc('\b');
	}
}

/* VERASE, VWERASE (back to the start of a word) and VKILL (the line). */
static void erase(char c, int what)
{
	if (!line_len)
		return;
	if (!(tio.lflag & T_ECHOE) || (what == V_KILL && !(tio.lflag & T_ECHOKE))) {
		/* no visual erase: echo the key (and a newline after VKILL
		 * with ECHOK), dropping the characters */
		if (what == V_ERASE)
			line_len--;
		else if (what == V_WERASE) {
			while (line_len && (line[line_len - 1] == ' ' || line[line_len - 1] == '\t'))
				line_len--;
			while (line_len && line[line_len - 1] != ' ' && line[line_len - 1] != '\t')
				line_len--;
		} else
			line_len = 0;
		if (tio.lflag & T_ECHO) {
			echo_char(c);
			if (what == V_KILL && (tio.lflag & T_ECHOK))
				opost_putc('\n');
		}
		return;
	}
	if (what == V_ERASE) {
		erase_one();
	} else if (what == V_WERASE) {
		while (line_len && (line[line_len - 1] == ' ' || line[line_len - 1] == '\t'))
			erase_one();
		while (line_len && line[line_len - 1] != ' ' && line[line_len - 1] != '\t')
			erase_one();
	} else {
		while (line_len)
			erase_one();
	}
}

/* The typed line becomes readable; flag marks its last byte (a line end),
 * or with RF_EOF a VEOF place is added after it. */
static void line_flush(int eof)
{
	for (unsigned i = 0; i < line_len; i++)
		ring_put(line[i], !eof && i + 1 == line_len ? RF_DELIM : 0);
	if (eof)
		ring_put(tio.cc[V_EOF], RF_DELIM | RF_EOF);
	line_len = 0;
}

/* ISIG: the key's signal to the foreground process group. The input is
 * discarded (unless NOFLSH); the echoed key ends the line (Arbor's echo
 * adds a newline after "^C", where Linux leaves the cursor after it, so
 * that the shell's next prompt starts a line). */
static void signal_foreground(int sig, char c)
{
	if (!(tio.lflag & T_NOFLSH))
		input_flush();
	if (tio.lflag & T_ECHO) {
		echo_char(c);
		opost_putc('\n');
	}
	if (fg_pgid > 0)
		sys_kill(-fg_pgid, sig);
}

static int is_cc(char c, int idx)
{
	return tio.cc[idx] && (uint8_t)c == tio.cc[idx];
}

/* Canonical mode: editing keys, and a line at a time (VEOL, VEOL2 and
 * newline end one, VEOF ends one without itself). */
static void canon_byte(char c)
{
	uint32_t lf = tio.lflag;
	int ext = (lf & T_IEXTEN) != 0;
	if (is_cc(c, V_ERASE) || (ext && is_cc(c, V_WERASE)) || is_cc(c, V_KILL)) {
		erase(c, is_cc(c, V_ERASE) ? V_ERASE : is_cc(c, V_KILL) ? V_KILL : V_WERASE);
		return;
	}
	if (ext && is_cc(c, V_LNEXT)) {
		lnext = 1;
		if (lf & T_ECHO) {
			opost_putc('^');
			opost_putc('\b');
		}
		return;
	}
	if (ext && is_cc(c, V_REPRINT)) {
		if (lf & T_ECHO) {
			echo_char(c);
			opost_putc('\n');
			for (unsigned i = 0; i < line_len; i++)
				echo_char(line[i]);
		}
		return;
	}
	if (is_cc(c, V_EOF)) {
		line_flush(1);
		return;
	}
	if (c == '\n' || is_cc(c, V_EOL) || is_cc(c, V_EOL2)) {
		line[line_len++] = c;
		if ((lf & T_ECHO) || (c == '\n' && (lf & T_ECHONL)))
			echo_char(c);
		line_flush(0);
		return;
	}
	if (line_len < sizeof(line) - 1) { /* the last place is for the line end */
		line[line_len++] = c;
		if (lf & T_ECHO)
			echo_char(c);
	}
}

/* One received byte through the line discipline (ring_lock, tx_lock). */
static void input_byte(char c)
{
	uint32_t inf = tio.iflag, lf = tio.lflag;
	if (inf & T_ISTRIP)
		c &= 0x7f;
	if (lnext) { /* the byte after VLNEXT: itself, no special meaning */
		lnext = 0;	/* its echo overwrites the "^" shown */
		if (line_len < sizeof(line) - 1) {
			line[line_len++] = c;
			if (lf & T_ECHO)
				echo_char(c);
		}
		return;
	}
	if (c == '\r') {
		if (inf & T_IGNCR)
			return;
		if (inf & T_ICRNL)
			c = '\n';
	} else if (c == '\n' && (inf & T_INLCR)) {
		c = '\r';
	}
	if (lf & T_ISIG) {
		if (is_cc(c, V_INTR) || is_cc(c, V_QUIT) || is_cc(c, V_SUSP)) {
			signal_foreground(is_cc(c, V_INTR) ? SIGINT : is_cc(c, V_QUIT) ? SIGQUIT : SIGTSTP, c);
			return;
		}
	}
	if (lf & T_ICANON) {
		canon_byte(c);
		return;
	}
	ring_put(c, 0);
	if (lf & T_ECHO)
		echo_char(c);
	else if (c == '\n' && (lf & T_ECHONL))
		opost_putc('\n');
}

/* Moves received bytes through the line discipline, wakes readers, and
 * answers those whose VTIME expired. */
static long irq_thread(void *arg)
{
	(void)arg;
	for (;;) {
		ulock(&ring_lock);
		uint64_t d = next_deadline(), now = (uint64_t)sys_clock_ns();
		uunlock(&ring_lock);
		long bits = d && d <= now ? 0 : sys_notif_wait(irq_notif, d ? d - now : 0);
		ulock(&tx_lock);
		ulock(&ring_lock);
		int got = 0;
		while (!rx_stopped && (inb(COM1 + 5) & 0x01)) {
			if (!ring_can_take_byte()) {
				/* Leave the byte in the UART: no more are sent
				 * until a reader makes room (ring_consume). */
				rx_stopped = 1;
				outb(COM1 + 1, 0);
				break;
			}
			input_byte((char)inb(COM1));
			got = 1;
		}
		tx_unlock();
		if (got)
			restart_timers();
		serve_parked();
		publish_state();
		uunlock(&ring_lock);
		if (bits > 0 && (bits & NOTIF_IRQ))
			sys_irq_ack(IRQ_COM1);
	}
	return 0;
}

int main(void)
{
	long ep = sys_ep_create(), irq = sys_notif_create();
	if (ep < 0 || irq < 0 || sys_ioport_grant(COM1, 8) ||
	    sys_irq_bind(IRQ_COM1, (int)irq, NOTIF_IRQ)) {
		printf("serial: cannot set up COM1\n");
		return 1;
	}
	endpoint = (int)ep;
	irq_notif = (int)irq;
	tio_sane(&tio);
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
	if (start_err_channel()) {
		printf("serial: cannot set up COM3 for stderr\n");
		return 1;
	}
	if (sys_ns_register(CONSOLE_NAME, endpoint)) {
		printf("serial: the console name is taken\n");
		return 1;
	}
	return (int)serve(NULL);
}
