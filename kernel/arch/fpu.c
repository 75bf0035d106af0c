/* The FPU and SSE: switched on at boot (user programs' C library uses
 * SSE), with the clean FXSAVE image every new thread starts from, and the
 * MXCSR sanitising that makes a state coming back from user memory (a
 * signal frame) safe to restore. */
#include "fpu.h"
#include "arch/x86.h"
#include "kstring.h"
#include "panic.h"

static struct fpu_state fpu_initial;

void fpu_init(void)
{
	fpu_cpu_init();
	fpu_save(&fpu_initial);
}

void fpu_cpu_init(void)
{
	uint32_t r[4];
	cpuid(1, 0, r);
	if (!(r[3] & (1u << 25)) || !(r[3] & (1u << 24)))
		panic("fpu: CPU lacks SSE or FXSAVE");
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	__asm__ volatile("fninit");
	uint32_t mxcsr = 0x1f80; /* all SIMD exceptions masked, round to nearest */
	__asm__ volatile("ldmxcsr %0" ::"m"(mxcsr));
}

/* Bytes 24..27 of the FXSAVE image are MXCSR, 28..31 the mask of its
 * writable bits: a value with others set would fault fxrstor in the kernel. */
void fpu_sanitize(struct fpu_state *s)
{
	uint32_t mxcsr, mask;
	memcpy(&mxcsr, s->area + 24, 4);
	memcpy(&mask, fpu_initial.area + 28, 4);
	if (mask == 0)
		mask = 0xffbf; /* the default when the CPU reports none */
	mxcsr &= mask;
	memcpy(s->area + 24, &mxcsr, 4);
}

void fpu_state_init(struct fpu_state *s)
{
	memcpy(s, &fpu_initial, sizeof(*s));
}
