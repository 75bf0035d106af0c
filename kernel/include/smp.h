/* The other CPUs (application processors): found in ACPI's MADT, started
 * with INIT-SIPI-SIPI through a real-mode trampoline below 1 MiB, and
 * reached through inter-processor interrupts. Until the scheduler runs on
 * them (issue #23), a started CPU parks: it halts with interrupts on and
 * wakes only for an IPI. kernel/arch/smp.c; docs/smp.md. */
#ifndef ARBOR_SMP_H
#define ARBOR_SMP_H

#include "types.h"

struct cpu;

/* Pre: vm_init ran (the direct map reads the ACPI tables).
 * Post: smp_possible() is the number of CPUs the MADT lists as enabled
 * (at least 1, at most MAX_CPUS; more are ignored with a message), the
 * boot CPU first. Does not start any. */
void smp_discover(void);
unsigned smp_possible(void);

/* Pre: the boot CPU's timer, IDT and heap are up; interrupts may be off.
 * Post: every possible CPU that answered within its timeout is online and
 * parked; each prints "smp: CPU n online (APIC id a)", and the last line
 * is "smp: N of M CPUs online". */
void smp_start(void);

/* Whether more than one CPU is online: set by smp_start, before any user
 * address space exists, and never cleared (no CPU goes offline). Lets one
 * CPU skip what only another CPU needs (vm_switch_to's masks). */
extern bool smp_active;

/* CPUs online now (the boot CPU included), and whether CPU id is one. */
unsigned smp_online(void);
bool smp_cpu_online(unsigned id);

/* CPU id's block (id < MAX_CPUS; its fields are only valid once it is
 * online). */
struct cpu *cpu_get(unsigned id);

/* Runs fn(arg) on CPU id, in its interrupt context with interrupts off,
 * and returns when fn has returned there. On this CPU, it calls fn
 * directly. fn must not sleep or take a lock the caller holds. May be
 * called with interrupts off: while it waits it answers calls made to
 * this CPU, so two CPUs calling each other do not deadlock.
 * Returns 0, or -ENXIO if id is not online. */
int smp_call(unsigned id, void (*fn)(void *), void *arg);

/* smp_call on every online CPU but this one; returns how many ran fn. */
unsigned smp_call_others(void (*fn)(void *), void *arg);

/* The reschedule IPI to CPU id (online, not this one): it interrupts
 * whatever id runs, and the interrupt's return path switches if the
 * sender set id's need_resched first (sched_kick). */
void smp_resched(unsigned id);

/* The panic path: asks every other online CPU, one at a time, to print
 * its registers and backtrace through NMI and stop for good; waits up to
 * 100 ms for each. Lock-free; safe from any context. */
void smp_panic_stop(void);

#endif
