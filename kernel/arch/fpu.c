#include "fpu.h"
#include "arch/x86.h"
#include "kstring.h"
#include "panic.h"

static struct fpu_state fpu_initial;

void fpu_init(void)
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
	fpu_save(&fpu_initial);
}

void fpu_state_init(struct fpu_state *s)
{
	memcpy(s, &fpu_initial, sizeof(*s));
}
