/* FPU/SSE: enabled at boot so user programs (newlib's printf uses SSE) can
 * run; each thread keeps its own 512-byte FXSAVE area. */
#ifndef ARBOR_FPU_H
#define ARBOR_FPU_H

#include "types.h"

struct fpu_state {
	uint8_t area[512];
} __attribute__((aligned(16)));

void fpu_init(void);
/* This CPU's FPU/SSE control bits and MXCSR (fpu_init does it on the boot
 * CPU, then saves the image new threads start from). */
void fpu_cpu_init(void);
void fpu_state_init(struct fpu_state *s); /* the state of a fresh thread */
/* Makes a state that came from user memory safe to load. */
void fpu_sanitize(struct fpu_state *s);
static inline void fpu_save(struct fpu_state *s)
{
	__asm__ volatile("fxsaveq %0" : "=m"(*s));
}
static inline void fpu_restore(const struct fpu_state *s)
{
	__asm__ volatile("fxrstorq %0" ::"m"(*s));
}

#endif
