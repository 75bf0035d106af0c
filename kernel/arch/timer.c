/* Calibration: PIT channel 2 counts a fixed interval (its gate is
 * software-controlled through port 0x61 and it needs no interrupt) while we
 * watch how far the TSC and the LAPIC timer move. */
#include "timer.h"
#include "proc.h"
#include "arch/x86.h"
#include "lapic.h"
#include "panic.h"
#include "percpu.h"
#include "sched.h"
#include "trap.h"

#define PIT_HZ          1193182u
#define CALIBRATE_MS    20u
#define LAPIC_DIV_16    0x3

static uint64_t tsc_hz, lapic_hz, tsc_boot;
static uint64_t ns_mult; /* ns = (tsc delta * ns_mult) >> 32 */
static uint64_t lapic_per_ns; /* LAPIC counts = (ns * lapic_per_ns) >> 32 */

static void pit_oneshot_start(uint16_t count)
{
	outb(0x61, (inb(0x61) & ~0x02) | 0x01); /* gate on, speaker off */
	outb(0x43, 0xb0);			/* channel 2, lo/hi, mode 0 */
	outb(0x42, count & 0xff);
	outb(0x42, count >> 8);
	uint8_t g = inb(0x61);
	outb(0x61, g & ~0x01);			/* restart the count... */
	outb(0x61, g | 0x01);			/* ...on a rising gate edge */
}

static bool pit_oneshot_done(void)
{
	return inb(0x61) & 0x20; /* OUT2 goes high at terminal count */
}

static void timer_calibrate(void)
{
	uint16_t count = (uint16_t)(PIT_HZ * CALIBRATE_MS / 1000);

	lapic_write(LAPIC_TIMER_DIV, LAPIC_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED);
	pit_oneshot_start(count);
	lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
	uint64_t t0 = rdtsc();
	while (!pit_oneshot_done())
		cpu_pause();
	uint64_t t1 = rdtsc();
	uint32_t elapsed = 0xffffffff - lapic_read(LAPIC_TIMER_CUR);
	lapic_write(LAPIC_TIMER_INIT, 0);

	tsc_hz = (t1 - t0) * 1000 / CALIBRATE_MS;
	lapic_hz = (uint64_t)elapsed * 1000 / CALIBRATE_MS;
	if (tsc_hz == 0 || lapic_hz == 0)
		panic("timer: calibration failed (tsc %lu Hz, lapic %lu Hz)", tsc_hz, lapic_hz);
	ns_mult = (1000000000ull << 32) / tsc_hz;
	lapic_per_ns = (lapic_hz << 32) / 1000000000ull;
}

#define TICK_NS (1000000000ull / TIMER_HZ)
/* An event closer than this is taken now: programming the LAPIC for it
 * would cost more than the wait. */
#define TIMER_MIN_NS 20000ull

/* The LAPIC timer runs one-shot, armed for the earlier of the next
 * periodic tick and the scheduler's next event (timer_event). Called with
 * interrupts off. */
static void timer_arm(uint64_t now)
{
	struct cpu *cpu = this_cpu();
	uint64_t at = MIN(cpu->timer_next_tick, cpu->timer_event);
	uint64_t wait = at > now + TIMER_MIN_NS ? at - now : TIMER_MIN_NS;
	uint64_t count = (uint64_t)(((unsigned __int128)wait * lapic_per_ns) >> 32);
	cpu->timer_armed = now + wait;
	lapic_write(LAPIC_TIMER_INIT, (uint32_t)MIN(MAX(count, 1u), 0xffffffffull));
}

void timer_event(uint64_t at)
{
	struct cpu *cpu = this_cpu();
	cpu->timer_event = at;
	if (at < cpu->timer_armed)
		timer_arm(clock_ns());
}

static void timer_tick(struct trap_frame *tf)
{
	struct cpu *cpu = this_cpu();
	uint64_t now = clock_ns();
	lapic_eoi();
	/* An interrupt for the scheduler's event only (a deadline between
	 * ticks): it settles that, and the tick keeps its own pace. */
	bool tick = now + TIMER_MIN_NS >= cpu->timer_next_tick;
	if (tick) {
		cpu->ticks++;
		cpu->timer_next_tick += TICK_NS;
		if (cpu->timer_next_tick <= now) /* ticks lost (a starved vCPU): on from now */
			cpu->timer_next_tick = now + TICK_NS;
	}
	cpu->timer_event = UINT64_MAX;
	if (cpu->rq) {
		if (tick) {
#ifdef CONFIG_KCOV
			irqoff_tick();
#endif
			softlockup_tick(tf, sched_idle_running());
			if (cpu->id == 0)
				loadavg_tick(); /* the system's, once per tick */
			sched_tick(trap_from_user(tf));
		} else {
			sched_timer_event(trap_from_user(tf));
		}
	}
	timer_arm(clock_ns());
}

void timer_init(void)
{
	tsc_boot = rdtsc();
	lapic_init();
	timer_calibrate();
	trap_register(VECTOR_LAPIC_TIMER, timer_tick);
	timer_cpu_init();
	rtc_init();
}

void timer_cpu_init(void)
{
	lapic_write(LAPIC_TIMER_DIV, LAPIC_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, VECTOR_LAPIC_TIMER); /* one-shot */
	struct cpu *cpu = this_cpu();
	cpu->timer_event = UINT64_MAX;
	cpu->timer_armed = UINT64_MAX;
	cpu->timer_next_tick = clock_ns() + TICK_NS;
	timer_arm(clock_ns());
}

uint64_t clock_ns(void)
{
	uint64_t delta = rdtsc() - tsc_boot;
	return (uint64_t)(((unsigned __int128)delta * ns_mult) >> 32);
}

uint64_t timer_ticks(void)
{
	return this_cpu()->ticks;
}

uint64_t clock_tsc_hz(void)
{
	return tsc_hz;
}

uint64_t timer_lapic_hz(void)
{
	return lapic_hz;
}

void clock_delay_ns(uint64_t ns)
{
	uint64_t end = clock_ns() + ns;
	while (clock_ns() < end)
		cpu_pause();
}
