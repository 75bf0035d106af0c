/* Time: the LAPIC timer drives a periodic tick (one-shot, re-armed for
 * the earlier of the next tick and the scheduler's next event); the TSC, calibrated against
 * the PIT at boot, gives a monotonic clock in nanoseconds. */
#ifndef ARBOR_TIMER_H
#define ARBOR_TIMER_H

#include "types.h"

#define TIMER_HZ 250

void timer_init(void);
/* This CPU's LAPIC timer, as timer_init set the boot CPU's (another CPU,
 * once it schedules: its ticks and events). */
void timer_cpu_init(void);
uint64_t clock_ns(void);	/* monotonic, since boot */
/* Reads the CMOS real-time clock (after timer_init). */
void rtc_init(void);
/* The time of day in ns since the epoch: the RTC at boot plus clock_ns,
 * plus root's steps and slews since (file times, CLOCK_REALTIME). */
uint64_t clock_real_ns(void);
/* "Now" for a file's times: clock_real_ns cut to FS_TIME_GRAN_NS
 * (abi/fs.h), as every file server's. */
uint64_t clock_file_ns(void);
/* Steps the wall clock to ns (the caller checked the privilege), and
 * tells the absolute CLOCK_REALTIME waits: ptimer_clock_was_set,
 * timerfd_clock_was_set, futex_clock_was_set, clock_real_wait_step's
 * sleepers. */
void clock_real_set(uint64_t ns);
/* How many times the wall clock was stepped. */
uint64_t clock_real_gen(void);
/* Sleeps until deadline (clock_ns; 0 none) unless the wall clock was
 * stepped since gen (clock_real_gen): 0 woken by a step (or it already
 * was), -ETIMEDOUT, -EINTR for a signal. */
int clock_real_wait_step(uint64_t gen, uint64_t deadline);
/* The wall clock stepped by delta ns: an armed absolute CLOCK_REALTIME
 * POSIX timer keeps its real-time deadline (kernel/proc/ptimer.c). */
void ptimer_clock_was_set(int64_t delta);
/* The same for timerfds; TFD_TIMER_CANCEL_ON_SET ones are cancelled
 * (kernel/ipc/timerfd.c). */
void timerfd_clock_was_set(int64_t delta);
/* The same for futex waits with an absolute CLOCK_REALTIME deadline
 * (K_FUTEX_REALTIME): each wakes to look at it again (kernel/ipc/futex.c). */
void futex_clock_was_set(void);
uint64_t timer_ticks(void);	/* ticks taken on this CPU */
/* The scheduler's next deadline on this CPU (a sleep's end, a cgroup's
 * quota running out, a throttled cgroup's new period): the timer
 * interrupts then, between its ticks, and calls sched_timer_event; one
 * event at a time, each call replacing the last. UINT64_MAX: none.
 * Interrupts off (sched_lock held). */
void timer_event(uint64_t at_ns);
uint64_t clock_tsc_hz(void);
uint64_t timer_lapic_hz(void);
/* Busy-waits ns nanoseconds (calibration, short device delays). */
void clock_delay_ns(uint64_t ns);

#endif
