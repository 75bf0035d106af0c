/* /proc/lock_stat: the kernel's lock contention statistics (lockstat(2),
 * kernel/debug/lockstat.c, docs/locking.md "Contention"), laid out as
 * Linux's CONFIG_LOCK_STAT file is, with the columns Arbor counts: a
 * class's contentions and the time spent spinning on it (longest, in all,
 * on average, in microseconds with two decimals, as Linux's), the classes
 * most contended first, each followed by the places in the kernel that met
 * its contention (the first four, as Linux's "contention points").
 * Arbor counts only contended acquisitions (the uncontended path stays a
 * single exchange), so Linux's acquisitions, bounces and hold times are
 * not there. Root's file (0600, as Linux's); writing "0" clears. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "abi/lockstat.h"
#include "arbor_sys.h"
#include "procfs.h"

static int lockstat_cmp(const void *a, const void *b)
{
	const struct lockstat_class *x = a, *y = b;
	if (x->contentions != y->contentions)
		return x->contentions < y->contentions ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* ns as Linux's lock_stat prints times: microseconds, two decimals. */
static void lockstat_time(struct text *t, uint64_t ns)
{
	put(t, " %11llu.%02llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000 / 10));
}

static const char lockstat_rule[] =
	"-----------------------------------------------------------------------------------------------\n";

long procfs_text_lockstat(struct text *t)
{
	long n = sys_lockstat(LOCKSTAT_READ, NULL, 0);
	struct lockstat_class *c = NULL;
	size_t room = 0;
	/* more classes may meet contention between the two calls: room for
	 * some, and what did not fit waits for the next open */
	for (int tries = 0; n >= 0 && tries < 4; tries++) {
		room = (size_t)n + 16;
		free(c);
		if (!(c = calloc(room, sizeof(*c))))
			return -ENOMEM;
		n = sys_lockstat(LOCKSTAT_READ, (char *)c, room * sizeof(*c));
		if (n >= 0 && (size_t)n <= room)
			break;
	}
	if (n < 0) {
		free(c);
		return n;
	}
	if ((size_t)n > room)
		n = (long)room; /* the kernel copied only what fit */
	qsort(c, (size_t)n, sizeof(*c), lockstat_cmp);
	put(t, "lock_stat version 0.4 (arbor: contended acquisitions only)\n%s", lockstat_rule);
	put(t, "%40s %14s %14s %14s %14s\n%s", "class name", "contentions", "waittime-max", "waittime-total",
	    "waittime-avg", lockstat_rule);
	for (long i = 0; i < n; i++) {
		const struct lockstat_class *k = &c[i];
		if (!k->contentions)
			continue; /* cleared since the kernel listed it */
		char label[LOCKSTAT_NAME + 1];
		strcpy(label, k->name);
		strcat(label, ":");
		put(t, "%40s %14llu", label, (unsigned long long)k->contentions);
		lockstat_time(t, k->wait_max_ns);
		lockstat_time(t, k->wait_ns);
		lockstat_time(t, k->wait_ns / k->contentions);
		put(t, "\n%40s\n", "---------------");
		for (int s = 0; s < LOCKSTAT_SITES; s++)
			if (k->sites[s].where[0])
				put(t, "%40s %14llu  [<%s>]\n", k->name, (unsigned long long)k->sites[s].contentions,
				    k->sites[s].where);
		put(t, "\n");
	}
	free(c);
	return 0;
}

long procfs_lockstat_write(const char *buf, size_t len)
{
	/* Linux's lock_stat_write: a first byte '0' clears, anything else
	 * is taken and does nothing */
	if (len && buf[0] == '0') {
		long e = sys_lockstat(LOCKSTAT_CLEAR, NULL, 0);
		if (e < 0)
			return e;
	}
	return (long)len;
}
