/* Kernel console output and the kernel log.
 *
 * printk formats under one lock, so lines from different CPUs or
 * interrupts do not interleave. Each line becomes a record of the log
 * ring (its level, the monotonic time its first byte came, its text),
 * which klog(2) reads; the line's bytes go to the console as they come
 * (a hang mid-line still shows what came) if its level is below the
 * console loglevel. printk_panic skips the lock, since a panic may
 * interrupt a printk that holds it, and always reaches the console. */
#include "printk.h"
#include "bootinfo.h"
#include "abi/klog.h"
#include "errno.h"
#include "format.h"
#include "proc.h"
#include "serial.h"
#include "spinlock.h"
#include "syscall.h"
#include "kstring.h"
#include "timer.h"

#define KLOG_SLOTS 512		/* records kept; the oldest goes first */
#define KLOG_TEXT 224		/* bytes of a line kept; the rest is cut */

struct klog_rec {
	uint64_t seq;		/* 0: never written */
	uint64_t ts_ns;
	uint16_t len;
	uint8_t level;
	char text[KLOG_TEXT];
};

static struct spinlock printk_lock = SPINLOCK_INIT("printk");
/* All under printk_lock. */
static struct klog_rec klog_ring[KLOG_SLOTS];
static uint64_t klog_next_seq = 1;	/* the seq the open line gets */
static uint64_t klog_clear_seq = 1;	/* klog CLEAR: reads start here */
static bool klog_line_open;		/* klog_ring[slot(next)] is being filled */
static int console_loglevel = KLOG_CONSOLE_DEFAULT;
static int console_saved_level;		/* CONSOLE_OFF keeps it for CONSOLE_ON */

static struct klog_rec *klog_slot(uint64_t seq)
{
	return &klog_ring[seq % KLOG_SLOTS];
}

static bool klog_open_shown(void)
{
	return klog_slot(klog_next_seq)->level < console_loglevel;
}

/* Ends the open line: it becomes readable. */
static void klog_commit(void)
{
	klog_slot(klog_next_seq)->seq = klog_next_seq;
	klog_next_seq++;
	klog_line_open = false;
}

static void printk_sink(char c, void *ctx)
{
	int level = *(int *)ctx;
	struct klog_rec *r = klog_slot(klog_next_seq);
	if (!klog_line_open) {
		r->seq = 0;	/* not readable until committed */
		r->ts_ns = clock_ns();
		r->len = 0;
		r->level = (uint8_t)level;
		klog_line_open = true;
	}
	if (klog_open_shown())
		serial_putc(c);
	if (c == '\n')
		klog_commit();
	else if (r->len < KLOG_TEXT)
		r->text[r->len++] = c;
}

/* The level a format's prefix names (its length in *skip), or -1 for
 * KERN_CONT, or the default. */
static int printk_level(const char *fmt, int *skip)
{
	*skip = 0;
	if (fmt[0] != KERN_SOH[0])
		return KLOG_DEFAULT_LEVEL;
	*skip = 2;
	if (fmt[1] >= '0' && fmt[1] <= '7')
		return fmt[1] - '0';
	if (fmt[1] == 'c')
		return -1;
	*skip = 1;
	return KLOG_DEFAULT_LEVEL;
}

int vprintk(const char *fmt, va_list ap)
{
	int skip;
	int level = printk_level(fmt, &skip);
	uint64_t f = spin_lock_irqsave(&printk_lock);
	/* A line left open by a printk without "\n" goes on (Linux would
	 * need KERN_CONT) unless this one names its own level. */
	if (klog_line_open && level >= 0 && skip) {
		if (klog_open_shown())
			serial_putc('\n');
		klog_commit();
	}
	if (level < 0)
		level = KLOG_DEFAULT_LEVEL;
	int n = fmt_vformat(printk_sink, &level, fmt + skip, ap);
	spin_unlock_irqrestore(&printk_lock, f);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

static void panic_sink(char c, void *ctx)
{
	(void)ctx;
	serial_putc(c);
}

int printk_panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_vformat(panic_sink, NULL, fmt, ap);
	va_end(ap);
	return n;
}

void console_write(const char *s, size_t n)
{
	uint64_t f = spin_lock_irqsave(&printk_lock);
	serial_write(s, n);
	spin_unlock_irqrestore(&printk_lock, f);
}

void console_tx(const char *s, size_t n)
{
	uint64_t f = spin_lock_irqsave(&printk_lock);
	serial_com1_raw(s, n);
	spin_unlock_irqrestore(&printk_lock, f);
}

void printk_setup(const char *cmdline)
{
	char v[8];
	if (cmdline_get(cmdline, "console", v, sizeof(v)) && !strcmp(v, "ttyS1"))
		serial_use_com2();
	if (!cmdline_get(cmdline, "loglevel", v, sizeof(v)) || v[0] < '0' || v[0] > '9')
		return;
	int level = 0;
	for (const char *p = v; *p >= '0' && *p <= '9' && level < 100; p++)
		level = level * 10 + (*p - '0');
	/* Linux clamps to 1 (CONSOLE_LOGLEVEL_MIN): emergencies always show. */
	console_loglevel = level < 1 ? 1 : level;
}

/* Formats record r as klog(2) gives it ("<L>[ssss.uuuuuu] text\n", as
 * Linux's syslog(2)) into buf (KLOG_LINE_MAX bytes); returns its length. */
#define KLOG_LINE_MAX (KLOG_TEXT + 32)
static size_t klog_format(const struct klog_rec *r, char *buf)
{
	uint64_t us = r->ts_ns / 1000;
	int n = fmt_snprintf(buf, KLOG_LINE_MAX, "<%u>[%5lu.%06lu] %.*s\n", r->level,
			     (unsigned long)(us / 1000000), (unsigned long)(us % 1000000), (int)r->len,
			     r->text);
	return n < KLOG_LINE_MAX ? (size_t)n : KLOG_LINE_MAX - 1;
}

/* The oldest readable seq at or after from (the ring drops old ones). */
static uint64_t klog_first(uint64_t from)
{
	uint64_t oldest = klog_next_seq > KLOG_SLOTS ? klog_next_seq - KLOG_SLOTS : 1;
	return from > oldest ? from : oldest;
}

/* READ_ALL / READ_CLEAR: the newest records since the last clear that fit
 * in len bytes, oldest first. Formats one record at a time under the lock
 * and copies it out without. */
static long klog_read_all(char *ubuf, size_t len, bool clear)
{
	char line[KLOG_LINE_MAX];
	uint64_t f = spin_lock_irqsave(&printk_lock);
	uint64_t first = klog_first(klog_clear_seq), end = klog_next_seq, seq = end;
	size_t total = 0;
	while (seq > first) {	/* from the newest back: what fits */
		size_t n = klog_format(klog_slot(seq - 1), line);
		if (total + n > len)
			break;
		total += n;
		seq--;
	}
	if (clear)
		klog_clear_seq = end;
	spin_unlock_irqrestore(&printk_lock, f);
	size_t done = 0;
	for (; seq < end; seq++) {
		f = spin_lock_irqsave(&printk_lock);
		struct klog_rec *r = klog_slot(seq);
		size_t n = r->seq == seq ? klog_format(r, line) : 0; /* overwritten meanwhile */
		spin_unlock_irqrestore(&printk_lock, f);
		if (done + n > len)
			break;
		if (n && copy_to_user(ubuf + done, line, n))
			return -EFAULT;
		done += n;
	}
	return (long)done;
}

/* SIZE_UNREAD: the bytes READ_ALL would give with room for everything. */
static long klog_size_unread(void)
{
	char line[KLOG_LINE_MAX];
	uint64_t f = spin_lock_irqsave(&printk_lock);
	long total = 0;
	for (uint64_t seq = klog_first(klog_clear_seq); seq < klog_next_seq; seq++)
		total += (long)klog_format(klog_slot(seq), line);
	spin_unlock_irqrestore(&printk_lock, f);
	return total;
}

static long klog_console(int type, int level)
{
	uint64_t f = spin_lock_irqsave(&printk_lock);
	if (type == KLOG_ACTION_CONSOLE_OFF) {
		if (!console_saved_level)
			console_saved_level = console_loglevel;
		console_loglevel = 1;	/* CONSOLE_LOGLEVEL_MIN */
	} else if (type == KLOG_ACTION_CONSOLE_ON) {
		if (console_saved_level)
			console_loglevel = console_saved_level;
		console_saved_level = 0;
	} else {
		console_loglevel = level < 1 ? 1 : level;
		console_saved_level = 0;
	}
	spin_unlock_irqrestore(&printk_lock, f);
	return 0;
}

long sys_klog(int type, char *buf, size_t len)
{
	bool root = current_thread()->proc->cred.euid == 0;
	switch (type) {
	case KLOG_ACTION_CLOSE:
	case KLOG_ACTION_OPEN:
		return 0;
	case KLOG_ACTION_READ_ALL:
	case KLOG_ACTION_READ_CLEAR:
		if (type == KLOG_ACTION_READ_CLEAR && !root)
			return -EPERM;
		if (!buf || len > 0x7fffffff)
			return -EINVAL;
		if (!user_range_ok((uint64_t)buf, len))
			return -EFAULT;
		return klog_read_all(buf, len, type == KLOG_ACTION_READ_CLEAR);
	case KLOG_ACTION_CLEAR: {
		if (!root)
			return -EPERM;
		uint64_t f = spin_lock_irqsave(&printk_lock);
		klog_clear_seq = klog_next_seq;
		spin_unlock_irqrestore(&printk_lock, f);
		return 0;
	}
	case KLOG_ACTION_CONSOLE_OFF:
	case KLOG_ACTION_CONSOLE_ON:
	case KLOG_ACTION_CONSOLE_LEVEL:
		if (!root)
			return -EPERM;
		if (type == KLOG_ACTION_CONSOLE_LEVEL && (len < 1 || len > 8))
			return -EINVAL;
		return klog_console(type, (int)len);
	case KLOG_ACTION_SIZE_UNREAD:
		return klog_size_unread();
	case KLOG_ACTION_SIZE_BUFFER:
		return (long)KLOG_SLOTS * KLOG_LINE_MAX;
	default:
		return -EINVAL;
	}
}
