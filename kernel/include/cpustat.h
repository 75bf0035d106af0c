/* Per-CPU time and event accounting for /proc/stat (kernel/sched/cpustat.c):
 * the scheduler's clock counts each CPU's busy, idle and iowait time
 * (core.c), the trap path the interrupts and the time in their handlers
 * (trap.c), and each CPU's tick folds them into the times /proc/stat
 * shows; meminfo reports them. */
#ifndef ARBOR_CPUSTAT_H
#define ARBOR_CPUSTAT_H

#include "types.h"
#include "percpu.h"

struct k_meminfo;

/* An interrupt of vector (>= IRQ_VECTOR_BASE) begins on this CPU, before
 * its handler: counts it. Interrupts off. Returns its start (clock_ns)
 * for cpustat_irq_exit. */
uint64_t cpustat_irq_enter(uint64_t vector);
/* Its handler returned: the time since start is this CPU's irq time.
 * Interrupts off. */
void cpustat_irq_exit(uint64_t start);

/* The tick on this CPU (sched_lock held, after the scheduler's clock was
 * brought up to now): folds the busy, idle, iowait and irq time since
 * the last tick into st->out[], the busy time as sample says (user, nice
 * or system; CPUSTAT_IDLE: as the last tick's), the interrupts' time
 * taken out of what they interrupted. So every out[] only grows, as
 * Linux's, and they add up to the time the CPU scheduled until this tick. */
void cpustat_tick(struct cpu_stat *st, enum cpustat_kind sample);

/* Fills k's CPU fields: cpus_possible, cpus_sched, tsc_hz, nr_running,
 * nr_iowait, irqs and cpus[] (each CPU that schedules: its times as of
 * its last tick). Lock-free. */
void cpustat_read(struct k_meminfo *k);

#endif
