/* Per-CPU time and event accounting for /proc/stat (kernel/sched/cpustat.c):
 * the scheduler counts busy, idle and iowait time and the tick's user,
 * nice and system samples (core.c), the trap path the interrupts and the
 * time spent in their handlers (trap.c); meminfo reports them. */
#ifndef ARBOR_CPUSTAT_H
#define ARBOR_CPUSTAT_H

#include "types.h"

struct k_meminfo;

/* An interrupt of vector (>= IRQ_VECTOR_BASE) begins on this CPU, before
 * its handler: counts it. Interrupts off. Returns its start (clock_ns)
 * for cpustat_irq_exit. */
uint64_t cpustat_irq_enter(uint64_t vector);
/* Its handler returned: the time since start is this CPU's irq time,
 * taken out of the busy or idle time it interrupted. Interrupts off. */
void cpustat_irq_exit(uint64_t start);

/* Fills k's CPU fields: cpus_possible, cpus_sched, tsc_hz, nr_running,
 * nr_iowait, irqs and cpus[] (each CPU that schedules: its busy time
 * split into user, nice and system as the tick's samples fell, less the
 * interrupts' time, which is irq_ns). May take sched_lock. */
void cpustat_read(struct k_meminfo *k);

#endif
