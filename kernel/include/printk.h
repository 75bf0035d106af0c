/* Kernel console output (printf syntax, see format.h). */
#ifndef ARBOR_PRINTK_H
#define ARBOR_PRINTK_H

#include "types.h"

int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintk(const char *fmt, va_list ap);
/* Raw bytes to the console, not interleaved with other output. */
void console_write(const char *s, size_t n);
/* Lock-free variant for the panic path, which may interrupt a printk. */
int printk_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
