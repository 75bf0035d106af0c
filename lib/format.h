/* Freestanding printf-style formatter. No libc dependency, so it serves
 * both the kernel (printk, panic messages) and host unit tests.
 *
 * Supported: %d %i %u %x %X %o %c %s %p %%, length modifiers hh h l ll z t j,
 * flags '-' '0' ' ' '+' '#', width and precision (digits or '*').
 * Semantics follow glibc printf, with these deliberate differences:
 *  - %p always prints "0x" plus exactly 16 lowercase hex digits;
 *  - an unknown conversion is echoed literally, e.g. "%q" -> "%q";
 *  - %n is not supported (treated as unknown) so format strings can never
 *    write to memory. */
#ifndef ARBOR_FORMAT_H
#define ARBOR_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* Output sink: called once per emitted character. */
typedef void (*fmt_putc_fn)(char c, void *ctx);

/* Streams the formatted text to out(); returns the number of characters
 * emitted. */
int fmt_vformat(fmt_putc_fn out, void *ctx, const char *fmt, va_list ap);

/* C99 snprintf semantics: writes at most size-1 characters plus a NUL
 * (when size > 0) and returns the full length the output would have had. */
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
