/* dmesg [-r] [-c | -C] [-n LEVEL]: the kernel log (klog(2), docs/klog.md).
     (none) print the records since the last clear, "[SECONDS.MICROS] text"
     -r     raw: keep each record's "<LEVEL>" prefix
     -c     print, then clear (root)   -C  clear only (root)
     -n L   set the console loglevel (root): lines of a level below L reach
            the console; L is 1..8 or a name (emerg .. debug, as L+1) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "abi/klog.h"
#include "arbor/syscalls.h"

static const char *const level_names[] = { "emerg", "alert", "crit", "err",
					   "warn", "notice", "info", "debug" };

/* -n's argument as the console loglevel, or -1. */
static int parse_level(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s && !*end)
		return v >= 1 && v <= 8 ? (int)v : -1;
	for (int i = 0; i < 8; i++)
		if (!strcmp(s, level_names[i]))
			return i + 1;	/* util-linux: "-n emerg" shows emergencies only */
	return -1;
}

static int fail(const char *what, long r)
{
	fprintf(stderr, "dmesg: %s: %s\n", what, strerror((int)-r));
	return 1;
}

/* Writes the records in buf[0, n), without their "<L>" unless raw. */
static void print_log(const char *buf, long n, int raw)
{
	for (long i = 0; i < n;) {
		const char *nl = memchr(buf + i, '\n', (size_t)(n - i));
		long end = nl ? nl - buf + 1 : n;
		long s = i;
		if (!raw && buf[s] == '<') {
			const char *gt = memchr(buf + s, '>', (size_t)(end - s));
			if (gt)
				s = gt - buf + 1;
		}
		fwrite(buf + s, 1, (size_t)(end - s), stdout);
		i = end;
	}
}

int main(int argc, char **argv)
{
	int raw = 0, clear = 0, only_clear = 0, level = 0, c;
	while ((c = getopt(argc, argv, "rcCn:")) != -1) {
		switch (c) {
		case 'r': raw = 1; break;
		case 'c': clear = 1; break;
		case 'C': only_clear = 1; break;
		case 'n':
			level = parse_level(optarg);
			if (level < 0) {
				fprintf(stderr, "dmesg: unknown level '%s'\n", optarg);
				return 1;
			}
			break;
		default:
			fprintf(stderr, "usage: dmesg [-r] [-c | -C] [-n LEVEL]\n");
			return 1;
		}
	}
	if (level) {
		long r = sys_klog(KLOG_ACTION_CONSOLE_LEVEL, NULL, (size_t)level);
		return r < 0 ? fail("setting the console loglevel", r) : 0;
	}
	if (only_clear) {
		long r = sys_klog(KLOG_ACTION_CLEAR, NULL, 0);
		return r < 0 ? fail("clearing the log", r) : 0;
	}
	long size = sys_klog(KLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size < 0)
		return fail("reading the log size", size);
	char *buf = malloc((size_t)size);
	if (!buf)
		return fail("reading the log", -ENOMEM);
	long n = sys_klog(clear ? KLOG_ACTION_READ_CLEAR : KLOG_ACTION_READ_ALL, buf, (size_t)size);
	if (n < 0)
		return fail("reading the log", n);
	print_log(buf, n, raw);
	free(buf);
	return 0;
}
