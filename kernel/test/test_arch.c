/* Self-tests of traps, the timer, the clock, SSE and the symbol table. */
#include "arch/x86.h"
#include "format.h"
#include "fpu.h"
#include "ksyms.h"
#include "kstring.h"
#include "ktest.h"
#include "timer.h"
#include "trap.h"

void kmain(uint32_t loader, uint32_t info);

static volatile int bp_hits;
static volatile uint64_t bp_vector;

static void bp_handler(struct trap_frame *tf)
{
	bp_hits++;
	bp_vector = tf->vector;
}

KTEST(trap_breakpoint_returns)
{
	trap_register(TRAP_BP, bp_handler);
	__asm__ volatile("int3");
	__asm__ volatile("int3");
	trap_register(TRAP_BP, NULL);
	KT_EXPECT_EQ(bp_hits, 2);
	KT_EXPECT_EQ(bp_vector, TRAP_BP);
	KT_EXPECT(strcmp(trap_name(TRAP_PF), "page fault") == 0);
}

KTEST(timer_ticks_advance)
{
	KT_EXPECT(read_rflags() & RFLAGS_IF);
	uint64_t t0 = timer_ticks(), c0 = clock_ns();
	clock_delay_ns(200 * 1000 * 1000ull);
	uint64_t ticks = timer_ticks() - t0, ns = clock_ns() - c0;
	/* 200 ms at TIMER_HZ is 50 ticks; the bounds are only a sanity check. */
	KT_EXPECT(ticks >= 10 && ticks <= 200);
	KT_EXPECT(ns >= 200 * 1000 * 1000ull);
}

KTEST(clock_monotonic)
{
	uint64_t prev = clock_ns();
	for (int i = 0; i < 100000; i++) {
		uint64_t now = clock_ns();
		if (now < prev) {
			KT_EXPECT(now >= prev);
			return;
		}
		prev = now;
	}
	KT_EXPECT(clock_tsc_hz() > 1000000);
}

KTEST(sse_state_saved)
{
	static struct fpu_state saved;
	uint64_t in[2] __attribute__((aligned(16))) = { 0x0123456789abcdefull, 0xfedcba9876543210ull };
	uint64_t out[2] __attribute__((aligned(16))) = { 0, 0 };

	KT_EXPECT(read_cr4() & CR4_OSFXSR);
	KT_EXPECT(!(read_cr0() & CR0_EM));
	/* One asm block: the kernel is built without SSE, so the compiler
	 * can neither use nor be told about xmm registers. */
	__asm__ volatile("movdqa %1, %%xmm0\n\t"
			 "fxsaveq %2\n\t"
			 "pxor %%xmm0, %%xmm0\n\t"
			 "fxrstorq %2\n\t"
			 "movdqa %%xmm0, %0"
			 : "=m"(out) : "m"(in), "m"(saved) : "memory");
	KT_EXPECT_EQ(out[0], in[0]);
	KT_EXPECT_EQ(out[1], in[1]);
}

KTEST(ksyms_names_functions)
{
	uint64_t off = 0;
	const char *name = ksyms_lookup((uint64_t)kmain + 3, &off);

	KT_EXPECT(name && strcmp(name, "kmain") == 0);
	KT_EXPECT_EQ(off, 3);
	KT_EXPECT_EQ(ksyms_find("ksyms_lookup"), (uint64_t)ksyms_lookup);
	KT_EXPECT(ksyms_lookup(0x1000, NULL) == NULL);
	KT_EXPECT(ksyms_count() > 100);
}

KTEST(format_in_kernel)
{
	char buf[64];
	int n = fmt_snprintf(buf, sizeof(buf), "%d|%5s|%-4x|%lu|%p", -42, "ab", 0xfu,
			     18446744073709551615ul, (void *)0x1000);
	KT_EXPECT(strcmp(buf, "-42|   ab|f   |18446744073709551615|0x0000000000001000") == 0);
	KT_EXPECT_EQ(n, strlen(buf));
	KT_EXPECT_EQ(fmt_snprintf(buf, 4, "%s", "truncated"), 9);
	KT_EXPECT(strcmp(buf, "tru") == 0);
}
