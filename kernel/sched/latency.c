/* The wake-up latency tracer (a debugging aid, off unless the command line
 * has lockup_warn_ms=N): each CPU keeps a ring of its last switches, and a
 * thread that first runs more than N ms after its wake-up, later than any
 * reported before, is reported with what the CPU ran in the meantime. With
 * the soft-lockup detector's warnings (softlockup.c, same option) it
 * answers "why was this thread late": a kernel stretch without a chance to
 * schedule shows there, a scheduling decision here. */
#include "percpu.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"

#define LAT_RING 32

struct lat_switch {
	uint64_t ns;		/* when it started to run */
	int pid, tid;
	char name[16];
};

static struct {
	struct lat_switch ring[LAT_RING];
	unsigned next;
} lat_cpu[MAX_CPUS];

uint64_t sched_latency_warn_ns;
static uint64_t lat_reported_ns;

/* Prints the switches of cpu's ring since `since` (oldest first). */
static void lat_print_since(unsigned cpu, uint64_t since, uint64_t now)
{
	unsigned n = lat_cpu[cpu].next;
	for (unsigned i = 0; i < LAT_RING; i++) {
		const struct lat_switch *s = &lat_cpu[cpu].ring[(n + i) % LAT_RING];
		const struct lat_switch *after = &lat_cpu[cpu].ring[(n + i + 1) % LAT_RING];
		uint64_t end = i + 1 < LAT_RING ? after->ns : now;
		if (!s->ns || end < since || end < s->ns)
			continue;
		printk_panic("  %8lu us  %s (pid %d, tid %d)\n", (end - s->ns) / 1000, s->name, s->pid, s->tid);
	}
}

void sched_latency_switch(struct thread *next, uint64_t now)
{
	unsigned cpu = this_cpu()->id;
	uint64_t late = next->woken_at && next->lat_seen != next->woken_at ? now - next->woken_at : 0;
	next->lat_seen = next->woken_at;
	if (late > sched_latency_warn_ns) {
		uint64_t seen = __atomic_load_n(&lat_reported_ns, __ATOMIC_RELAXED);
		if (late > seen && __atomic_compare_exchange_n(&lat_reported_ns, &seen, late, false,
							       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			printk_panic("wake latency: %s (pid %d, tid %d) ran %lu us after its wake-up; CPU %u "
				     "ran meanwhile:\n", next->name, next->proc ? next->proc->pid : -1,
				     next->tid, late / 1000, cpu);
			lat_print_since(cpu, next->woken_at, now);
		}
	}
	struct lat_switch *s = &lat_cpu[cpu].ring[lat_cpu[cpu].next++ % LAT_RING];
	s->ns = now;
	s->pid = next->proc ? next->proc->pid : -1;
	s->tid = next->tid;
	size_t i = 0;
	for (; i + 1 < sizeof(s->name) && next->name[i]; i++)
		s->name[i] = next->name[i];
	s->name[i] = '\0';
}
