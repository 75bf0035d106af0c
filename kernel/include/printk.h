/* Kernel console output (printf syntax, see format.h) and the kernel log:
 * every printk line is kept, with its level and time, in a ring that
 * klog(2) reads (dmesg); the console shows a line only if its level is
 * below the console loglevel (docs/klog.md). */
#ifndef ARBOR_PRINTK_H
#define ARBOR_PRINTK_H

#include "types.h"

/* Level prefixes, Linux's: a format may start with one. Lower is more
 * urgent; a line without one is KLOG_DEFAULT_LEVEL. KERN_CONT continues
 * the open line. */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"
#define KLOG_DEFAULT_LEVEL 4	/* Linux's MESSAGE_LOGLEVEL_DEFAULT */
/* Arbor's default console loglevel: lines of level < 6 reach the console,
 * so KERN_INFO (user programs' fault reports) stays in the log and out of
 * the programs' output. loglevel=N on the command line sets it (Linux's
 * meaning: levels below N are shown). */
#define KLOG_CONSOLE_DEFAULT 6

int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintk(const char *fmt, va_list ap);
/* Raw bytes to the console, not interleaved with other output. */
void console_write(const char *s, size_t n);
/* The console driver's bytes to COM1, as they are, under the same lock:
 * on several CPUs a kernel line and a program's output would otherwise
 * mix byte by byte on the one serial line. */
void console_tx(const char *s, size_t n);
/* Lock-free variant for the panic path, which may interrupt a printk: it
 * always reaches the console, whatever the loglevel. */
int printk_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads loglevel= and console= (ttyS1: the kernel console on COM2) from
 * the command line (after the boot info is parsed). */
void printk_setup(const char *cmdline);

#endif
