/* The small user runtime (libarbor.a) for programs without the C library
 * (init, the test and benchmark programs the Makefile's SMALL_RUNTIME_PROGS
 * names, the serial driver): program start, exit, console I/O through the console driver or the kernel, printf on lib/'s
 * formatter, TAP helpers, threads, signal handlers and clocks
 * (arbor/user.h). */
#include "arbor/user.h"
#include "format.h"
#include "arbor/thread_start.h"

int main(int argc, char **argv);
void __arbor_start(uint64_t *sp);

void __arbor_start(uint64_t *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	exit(main(argc, argv));
}

__attribute__((noreturn)) void exit(int code)
{
	for (;;)
		sys_exit(code);
}

long thread_start(long (*fn)(void *), void *arg)
{
	return arbor_thread_start(fn, arg, 64 * 1024);
}

/* Output goes to the console driver when it runs, else straight to the
 * kernel's console (early boot, tests without the driver). */
static long console_handle = -ENOENT;

/* 1 if the kernel's console has a serial line of its own (console=ttyS1,
 * as tools/arbor-run boots): then the servers' and init's messages go
 * there, with the kernel's, and never into a program's output on the
 * console driver's line. Worked out once; threads racing compute the same. */
static int system_line = -1;

static bool on_system_line(void)
{
	if (system_line < 0) {
		char cmdline[512];
		system_line = sys_cmdline(cmdline, sizeof(cmdline)) >= 0 &&
			      cmdline_has(cmdline, "console=ttyS1");
	}
	return system_line;
}

long console_write(const char *buf, size_t len)
{
	if (on_system_line())
		return sys_debug_write(buf, len);
	if (console_handle < 0)
		console_handle = sys_ns_lookup(CONSOLE_NAME);
	if (console_handle >= 0) {
		struct ipc_msg m = { .label = CONSOLE_WRITE };
		long r = sys_ipc_call((int)console_handle, &m, buf, len, NULL, 0);
		if (r == 0)
			return (long)m.w[0];
		sys_handle_close((int)console_handle); /* the driver is gone */
		console_handle = -ENOENT;
	}
	return sys_debug_write(buf, len);
}

long console_read(char *buf, size_t len)
{
	if (console_handle < 0)
		console_handle = sys_ns_lookup(CONSOLE_NAME);
	if (console_handle < 0)
		return console_handle;
	struct ipc_msg m = { .label = CONSOLE_READ };
	long r = sys_ipc_call((int)console_handle, &m, NULL, 0, buf, len);
	return r ? r : (long)m.w[0];
}

/* Output is buffered per call so one printf is one write. */
struct out_buf {
	char data[512];
	size_t len;
};

static void out_flush(struct out_buf *b)
{
	if (b->len)
		console_write(b->data, b->len);
	b->len = 0;
}

static void out_putc(char c, void *ctx)
{
	struct out_buf *b = ctx;
	if (b->len == sizeof(b->data))
		out_flush(b);
	b->data[b->len++] = c;
}

int printf(const char *fmt, ...)
{
	struct out_buf b = { .len = 0 };
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_vformat(out_putc, &b, fmt, ap);
	va_end(ap);
	out_flush(&b);
	return n;
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = fmt_vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

int puts(const char *s)
{
	return printf("%s\n", s);
}

char *strcpy_simple(char *dst, const char *src)
{
	char *d = dst;
	while ((*d++ = *src++))
		;
	return dst;
}

char *strstr_simple(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n == 0 ? (char *)hay : NULL;
}

bool cmdline_has(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = cmdline; *p;) {
		while (*p == ' ')
			p++;
		if (strncmp(p, "run=", 4) == 0)
			return false;	/* the rest is the program's arguments */
		if (strncmp(p, word, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return true;
		while (*p && *p != ' ')
			p++;
	}
	return false;
}

long strtol_simple(const char *s)
{
	long v = 0, sign = 1;
	if (*s == '-') {
		sign = -1;
		s++;
	}
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v * sign;
}

static int tap_n, tap_failed;

bool tap_check(const char *name, bool cond)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
	return cond;
}

bool tap_check_eq(const char *name, long got, long want)
{
	if (got != want)
		printf("# %s: got %ld, want %ld\n", name, got, want);
	return tap_check(name, got == want);
}

int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

void __arbor_sigreturn(void);

long set_handler(int sig, void *handler, uint64_t flags, uint64_t mask)
{
	struct k_sigaction act = {
		.handler = (uint64_t)handler, .mask = mask,
		.flags = flags | SA_RESTORER, .restorer = (uint64_t)__arbor_sigreturn,
	};
	return sys_sigaction(sig, &act, NULL);
}

uint64_t now_ns(void)
{
	return (uint64_t)sys_clock_ns();
}

/* Looks at the clock only every few hundred pauses, so the time spent
 * spinning is user time, as a CPU-bound program's would be. */
void busy_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	/* Plain arithmetic between clock reads, not pause: under QEMU's TCG
	 * each pause leaves the translated code (slow, and very slow under
	 * -icount, where make bench spins for seconds of guest time). */
	while (now_ns() < end)
		for (volatile int i = 0; i < 256; i++)
			;
}
