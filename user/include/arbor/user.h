/* Arbor's minimal user runtime, for the programs that do not link the C
 * library (init, the Makefile's SMALL_RUNTIME_PROGS, the serial driver): program
 * start-up, console output and TAP helpers for test programs. System calls
 * are the generated stubs in <arbor/syscalls.h>: sys_NAME(...) returns the
 * result or a negative errno. */
#ifndef ARBOR_USER_H
#define ARBOR_USER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/errno.h"
#include "abi/wait.h"
#include "abi/spawn.h"
#include "abi/ipc.h"
#include "abi/console.h"
#include "abi/signal.h"
#include "arbor/syscalls.h"


__attribute__((noreturn)) void exit(int code);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int puts(const char *s);

void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
long strtol_simple(const char *s);	/* decimal, optional '-' */
char *strcpy_simple(char *dst, const char *src);
char *strstr_simple(const char *hay, const char *needle);
/* True if word is one of the kernel command line's space-separated words
 * before "run=" (whose words are the program's). */
bool cmdline_has(const char *cmdline, const char *word);

/* TAP: tap_check("name", cond) prints "ok N - name" or "not ok N - name";
 * tap_done() prints the plan and returns the exit status (1 if any failed). */
bool tap_check(const char *name, bool cond);
bool tap_check_eq(const char *name, long got, long want);
int tap_done(void);

/* Console I/O: through the console driver if it runs, else the kernel. */
long console_write(const char *buf, size_t len);
long console_read(char *buf, size_t len);

/* A new thread running fn(arg) on a 64 KiB stack; returns its tid. */
long thread_start(long (*fn)(void *), void *arg);

/* A lock for threads of one process (spins, yielding the CPU). */
typedef struct { volatile int locked; } ulock_t;
static inline void ulock(ulock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		sys_yield();
}
static inline void uunlock(ulock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* Installs a signal handler (SA_SIGINFO style when flags has it). */
long set_handler(int sig, void *handler, uint64_t flags, uint64_t mask);

uint64_t now_ns(void);
void busy_ns(uint64_t ns);	/* spins on the CPU for ns */

#endif
