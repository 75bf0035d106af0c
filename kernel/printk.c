/* Kernel console output: printk (format.h's formatter) and raw writes to
 * the serial port under one lock, so lines from different CPUs or
 * interrupts do not interleave; printk_panic skips the lock, since a
 * panic may interrupt a printk that holds it. */
#include "printk.h"
#include "format.h"
#include "serial.h"
#include "spinlock.h"

static struct spinlock printk_lock = SPINLOCK_INIT("printk");

static void printk_sink(char c, void *ctx)
{
	(void)ctx;
	serial_putc(c);
}

int vprintk(const char *fmt, va_list ap)
{
	uint64_t f = spin_lock_irqsave(&printk_lock);
	int n = fmt_vformat(printk_sink, NULL, fmt, ap);
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

int printk_panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_vformat(printk_sink, NULL, fmt, ap);
	va_end(ap);
	return n;
}

void console_write(const char *s, size_t n)
{
	uint64_t f = spin_lock_irqsave(&printk_lock);
	serial_write(s, n);
	spin_unlock_irqrestore(&printk_lock, f);
}
