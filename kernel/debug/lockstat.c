/* Lock contention statistics (/proc/lock_stat, docs/locking.md
 * "Contention"), always on: a spin_lock that finds its lock free takes it
 * inline and is never seen here; one that finds it taken comes here to
 * spin, and the wait is counted under the lock's name (its class), with
 * the first LOCKSTAT_SITES places in the kernel that met contention on
 * it (the callers of spin_lock, which is inline: the function that wants
 * the lock). Nothing here takes a lock: the table is filled with atomics,
 * a class's slot claimed once by its name and never given back, so a
 * spinning CPU can always count. Counts read while others add may be a
 * moment apart from each other; clearing races with adds the same way. */
#include "abi/errno.h"
#include "arch/x86.h"
#include "kstring.h"
#include "ksyms.h"
#include "lockstat.h"
#include "format.h"
#include "proc.h"
#include "spinlock.h"
#include "syscall.h"
#include "timer.h"

#define LOCKSTAT_SLOTS 256	/* classes (distinct names): about 100 today */

struct lockstat_slot {
	const char *name;	/* NULL: free; claimed once, by CAS (a lock's own
				   name: a string literal, as every SPINLOCK_INIT's) */
	uint64_t contentions;
	uint64_t wait_cycles;	/* TSC cycles: converted when read */
	uint64_t wait_max;
	uint64_t site[LOCKSTAT_SITES];		/* a caller's address; 0: free */
	uint64_t site_count[LOCKSTAT_SITES];
};

static struct lockstat_slot lockstat_table[LOCKSTAT_SLOTS];

static uint32_t lockstat_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/* The class of name: its slot, claimed if it has none yet; NULL when the
 * table is full. Two CPUs claiming one name probe the same slots in the
 * same order, so the first CAS wins and the other finds it there. */
static struct lockstat_slot *lockstat_class(const char *name)
{
	uint32_t i = lockstat_hash(name) % LOCKSTAT_SLOTS;
	for (uint32_t n = 0; n < LOCKSTAT_SLOTS; n++, i = (i + 1) % LOCKSTAT_SLOTS) {
		struct lockstat_slot *s = &lockstat_table[i];
		const char *cur = __atomic_load_n(&s->name, __ATOMIC_ACQUIRE);
		if (!cur && __atomic_compare_exchange_n(&s->name, &cur, name, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
			return s;
		if (cur == name || !strcmp(cur, name))
			return s;
	}
	return NULL;
}

/* One contention at site: its count, in the first free or matching one
 * of the class's places (none left: the class's total still counts). */
static void lockstat_site(struct lockstat_slot *s, uint64_t site)
{
	for (int i = 0; i < LOCKSTAT_SITES; i++) {
		uint64_t cur = __atomic_load_n(&s->site[i], __ATOMIC_ACQUIRE);
		if (!cur && __atomic_compare_exchange_n(&s->site[i], &cur, site, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
			cur = site;
		if (cur == site) {
			__atomic_add_fetch(&s->site_count[i], 1, __ATOMIC_RELAXED);
			return;
		}
	}
}

static void lockstat_note(const char *name, uint64_t site, uint64_t cycles)
{
	struct lockstat_slot *s = lockstat_class(name ? name : "(unnamed)");
	if (!s)
		return; /* more classes than slots: this one goes uncounted */
	__atomic_add_fetch(&s->contentions, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->wait_cycles, cycles, __ATOMIC_RELAXED);
	uint64_t max = __atomic_load_n(&s->wait_max, __ATOMIC_RELAXED);
	while (cycles > max &&
	       !__atomic_compare_exchange_n(&s->wait_max, &max, cycles, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	lockstat_site(s, site);
}

void spin_lock_contended(struct spinlock *l)
{
	uint64_t site = (uint64_t)__builtin_return_address(0);
	uint64_t t0 = rdtsc();
	do {
		while (l->locked)
			cpu_pause();
	} while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE));
	lockstat_note(l->name, site, rdtsc() - t0);
}

static uint64_t lockstat_ns(uint64_t cycles)
{
	uint64_t hz = clock_tsc_hz();
	/* in two parts, each within 64 bits (the remainder is below hz,
	 * a few 10^9) */
	return hz ? cycles / hz * 1000000000u + cycles % hz * 1000000000u / hz : 0;
}

/* slot s as the ABI's record (its counts as they are now). */
static void lockstat_record(const struct lockstat_slot *s, struct lockstat_class *out)
{
	memset(out, 0, sizeof(*out));
	strlcpy(out->name, s->name, sizeof(out->name));
	out->contentions = __atomic_load_n(&s->contentions, __ATOMIC_RELAXED);
	out->wait_ns = lockstat_ns(__atomic_load_n(&s->wait_cycles, __ATOMIC_RELAXED));
	out->wait_max_ns = lockstat_ns(__atomic_load_n(&s->wait_max, __ATOMIC_RELAXED));
	for (int i = 0; i < LOCKSTAT_SITES; i++) {
		uint64_t at = __atomic_load_n(&s->site[i], __ATOMIC_ACQUIRE), off = 0;
		uint64_t n = __atomic_load_n(&s->site_count[i], __ATOMIC_RELAXED);
		if (!at || !n)
			continue;
		const char *fn = ksyms_lookup(at, &off);
		if (fn)
			fmt_snprintf(out->sites[i].where, LOCKSTAT_WHERE, "%s+0x%lx", fn, off);
		else
			fmt_snprintf(out->sites[i].where, LOCKSTAT_WHERE, "%p", (void *)at);
		out->sites[i].contentions = n;
	}
}

/* The records of the classes with a contention, as many as fit in len
 * bytes (one at a time through a kernel copy: no lock is held); how many
 * there are. */
static long lockstat_read(char *ubuf, size_t len)
{
	struct lockstat_class rec;
	long n = 0;
	for (int i = 0; i < LOCKSTAT_SLOTS; i++) {
		const struct lockstat_slot *s = &lockstat_table[i];
		if (!__atomic_load_n(&s->name, __ATOMIC_ACQUIRE) || !__atomic_load_n(&s->contentions, __ATOMIC_RELAXED))
			continue;
		if ((uint64_t)(n + 1) * sizeof(rec) <= len) {
			lockstat_record(s, &rec);
			if (copy_to_user(ubuf + (size_t)n * sizeof(rec), &rec, sizeof(rec)))
				return -EFAULT;
		}
		n++;
	}
	return n;
}

void lockstat_clear(void)
{
	for (int i = 0; i < LOCKSTAT_SLOTS; i++) {
		struct lockstat_slot *s = &lockstat_table[i];
		__atomic_store_n(&s->contentions, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->wait_cycles, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->wait_max, 0, __ATOMIC_RELAXED);
		for (int k = 0; k < LOCKSTAT_SITES; k++) {
			__atomic_store_n(&s->site_count[k], 0, __ATOMIC_RELAXED);
			__atomic_store_n(&s->site[k], 0, __ATOMIC_RELEASE);
		}
	}
}

bool lockstat_find(const char *name, struct lockstat_class *out)
{
	for (int i = 0; i < LOCKSTAT_SLOTS; i++) {
		const struct lockstat_slot *s = &lockstat_table[i];
		const char *n = __atomic_load_n(&s->name, __ATOMIC_ACQUIRE);
		if (n && !strcmp(n, name) && __atomic_load_n(&s->contentions, __ATOMIC_RELAXED)) {
			lockstat_record(s, out);
			return true;
		}
	}
	return false;
}

long sys_lockstat(int op, char *ubuf, size_t len)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM; /* Linux's /proc/lock_stat is root's (0600) */
	switch (op) {
	case LOCKSTAT_READ:
		return lockstat_read(ubuf, len);
	case LOCKSTAT_CLEAR:
		lockstat_clear();
		return 0;
	default:
		return -EINVAL;
	}
}
