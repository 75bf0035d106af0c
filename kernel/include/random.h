/* The kernel's random numbers (kernel/dev/random.c): getrandom(2), and
 * through it /dev/urandom and /dev/random. */
#ifndef ARBOR_RANDOM_H
#define ARBOR_RANDOM_H

#include "types.h"

/* Seeds the pool: RDRAND when the CPU has it, the TSC, the real-time
 * clock (after timer_init and rtc_init). */
void random_init(void);
/* Folds an interrupt's arrival time into the pool (any context, cheap). */
void random_irq_mix(uint64_t vector);
/* n bytes of the generator's output into buf (kernel memory). */
void random_bytes(void *buf, size_t n);

#endif
