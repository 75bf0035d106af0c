/* In-kernel self-tests, run when the command line says test=NAME|all.
 * Each prints TAP; the host runner (tools/run-tests.py) reads it. */
#ifndef ARBOR_KTEST_H
#define ARBOR_KTEST_H

#include "types.h"

struct ktest {
	const char *name;
	void (*fn)(void);
};

#define KTEST(n)                                                              \
	static void ktest_fn_##n(void);                                       \
	static const struct ktest ktest_##n                                   \
		__attribute__((section(".ktests"), used, aligned(8))) = { #n, ktest_fn_##n }; \
	static void ktest_fn_##n(void)

void ktest_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Pins the calling test thread to CPU cpu (a test that reads this CPU's
 * own state, or measures one CPU's split, when every CPU schedules;
 * what it starts inherits the pin). Returns the mask kt_unpin gives back. */
uint32_t kt_pin(unsigned cpu);
void kt_unpin(uint32_t mask);

#define KT_EXPECT(cond)                                                       \
	do {                                                                  \
		if (!(cond))                                                  \
			ktest_fail(__FILE__, __LINE__, "%s", #cond);          \
	} while (0)

#define KT_EXPECT_EQ(a, b)                                                    \
	do {                                                                  \
		uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);              \
		if (_a != _b)                                                 \
			ktest_fail(__FILE__, __LINE__, "%s == %s (0x%lx != 0x%lx)", #a, #b, _a, _b); \
	} while (0)

/* Micro-benchmarks, run when the command line says bench=NAME|all. fn
 * performs `iters` operations; the harness times it with clock_ns() and
 * prints "bench NAME NS_PER_OP_TIMES_100". Under QEMU's
 * -icount shift=0 guest time is one nanosecond per instruction, so the
 * same figure then counts guest instructions. */
struct kbench {
	const char *name;
	void (*fn)(uint64_t iters);
	uint64_t iters;
};

#define KBENCH(n, count)                                                      \
	static void kbench_fn_##n(uint64_t iters);                            \
	static const struct kbench kbench_##n                                 \
		__attribute__((section(".kbench"), used, aligned(8))) = { #n, kbench_fn_##n, count }; \
	static void kbench_fn_##n(uint64_t iters)

__noreturn void kbench_main(const char *filter);
bool ktest_selected(const char *filter, const char *name);

/* Runs the tests the filter names ("all" or a comma-separated list) and
 * exits QEMU; "fault" instead provokes a deliberate kernel fault. */
__noreturn void ktest_main(const char *filter);

#endif
