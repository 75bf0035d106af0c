/* Minimal TAP (Test Anything Protocol) output shared by the host unit tests
 * (tests/SUBJECT/test_NAME.c). Header-only: each test is a single translation unit, so
 * the counters below are private to it.
 *
 *   ok(cond, fmt, ...)   prints "ok N - desc" or "not ok N - desc" and
 *                        returns cond
 *   tap_diag(fmt, ...)   prints a "# ..." diagnostic line
 *   tap_bail(fmt, ...)   prints "Bail out! ..." and exits with status 1
 *   xmalloc(n)           malloc that bails out when memory runs out
 *   tap_done()           prints the plan "1..N" (at the end, as TAP
 *                        allows) and returns main's exit status: 0 if every
 *                        result was ok, else 1
 *
 * Each call writes its line with stdout locked, so results and diagnostics
 * from several threads never interleave or share a number. */
#ifndef TESTS_HOST_TAP_H
#define TESTS_HOST_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_ntests, tap_nfailed;

static inline __attribute__((format(printf, 2, 0)))
bool tap_vok(bool cond, const char *fmt, va_list ap)
{
	flockfile(stdout);
	printf("%sok %d - ", cond ? "" : "not ", ++tap_ntests);
	vprintf(fmt, ap);
	putchar('\n');
	if (!cond)
		tap_nfailed++;
	funlockfile(stdout);
	return cond;
}

static inline __attribute__((format(printf, 2, 3)))
bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vok(cond, fmt, ap);
	va_end(ap);
	return cond;
}

static inline __attribute__((format(printf, 1, 0)))
void tap_vdiag(const char *fmt, va_list ap)
{
	flockfile(stdout);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	funlockfile(stdout);
}

static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

static inline __attribute__((format(printf, 1, 2), noreturn))
void tap_bail(const char *fmt, ...)
{
	va_list ap;

	flockfile(stdout);
	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	funlockfile(stdout);
	exit(1);
}

/* malloc(0) may return NULL, so ask for at least one byte: NULL then
 * always means out of memory. */
static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		tap_bail("out of memory");
	return p;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_ntests);
	return tap_nfailed ? 1 : 0;
}

#endif /* TESTS_HOST_TAP_H */
