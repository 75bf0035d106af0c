/* The soft-lockup detector: a CPU that stays in the kernel for more than
 * SOFTLOCKUP_NS without a chance to schedule (every timer tick found it
 * non-preemptible: a spinlock held, interrupts on) panics with the stuck
 * code's registers and backtrace, so a hang becomes a report instead of a
 * silent timeout. Linux's watchdog does the same with a per-CPU thread
 * that must get to run; here the tick itself asks whether the interrupted
 * code could have been switched away from. Spinning with interrupts off
 * (a hard lockup) stops the tick too and is not seen.
 *
 * With lockup_warn_ms=N on the command line it also reports, without
 * stopping, a switch that is due but waits more than N ms, longer than
 * any reported before (once, with where the CPU is): with the wake-up
 * latency tracer (latency.c) and the debug kernel's interrupts-off tracer
 * (kernel/debug/irqoff.c), how a researcher finds what delays a woken
 * thread (make bench's fuzz_probe_worst_delay). */
#include "bootinfo.h"
#include "panic.h"
#include "percpu.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "timer.h"
#include "trap.h"

static uint64_t softlockup_warn_ns;	/* 0: no warnings */
static uint64_t softlockup_warned_ns;	/* the longest wait reported */

void softlockup_init(void)
{
	char v[16];
	if (cmdline_get(boot_info.cmdline, "lockup_warn_ms", v, sizeof(v)))
		for (const char *p = v; *p >= '0' && *p <= '9'; p++)
			softlockup_warn_ns = softlockup_warn_ns * 10 + (uint64_t)(*p - '0') * 1000000ull;
	sched_latency_warn_ns = softlockup_warn_ns;
}

/* With warnings on, from every tick: a switch that is due (need_resched)
 * but has waited more than softlockup_warn_ns, longer than any reported
 * before, is reported once with where the CPU is (code that holds
 * preemption off, or keeps interrupts off, delays everything queued). */
static void softlockup_resched_check(struct trap_frame *tf, uint64_t now)
{
	struct cpu *cpu = this_cpu();
	if (!cpu->need_resched || !cpu->resched_since) {
		cpu->resched_since = cpu->need_resched ? now : 0;
		return;
	}
	uint64_t waited = now - cpu->resched_since;
	uint64_t seen = __atomic_load_n(&softlockup_warned_ns, __ATOMIC_RELAXED);
	if (waited <= softlockup_warn_ns || cpu->softlockup_warned == cpu->resched_since || waited <= seen ||
	    !__atomic_compare_exchange_n(&softlockup_warned_ns, &seen, waited, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	cpu->softlockup_warned = cpu->resched_since;
	struct thread *t = cpu->current;
	printk_panic("lockup warning: CPU %u: a due switch has waited %lu us (thread %s, pid %d, %s, "
		     "preempt_count %d)\n", cpu->id, waited / 1000, t ? t->name : "?",
		     t && t->proc ? t->proc->pid : -1, trap_from_user(tf) ? "user mode" : "kernel",
		     cpu->preempt_count);
	backtrace_print(tf->rbp, tf->rip);
}

/* With warnings on: a tick that comes more than softlockup_warn_ns after
 * the one before (longer than any reported) shows that interrupts were
 * off that long, however they were turned off; tf is where they came
 * back on. The idle loop's halt does not count (it stops no tick). */
static void softlockup_tick_gap(struct trap_frame *tf, uint64_t now)
{
	static uint64_t reported;
	struct cpu *cpu = this_cpu();
	uint64_t gap = cpu->last_tick ? now - cpu->last_tick : 0;
	cpu->last_tick = now;
	if (gap <= softlockup_warn_ns || gap <= reported)
		return;
	reported = gap;
	struct thread *t = cpu->current;
	printk_panic("lockup warning: CPU %u: no timer tick for %lu us (interrupts off; thread %s, pid %d, "
		     "%s)\n", cpu->id, gap / 1000, t ? t->name : "?", t && t->proc ? t->proc->pid : -1,
		     trap_from_user(tf) ? "back in user mode" : "back on in the kernel");
	backtrace_print(tf->rbp, tf->rip);
}

void softlockup_tick(struct trap_frame *tf, bool idle)
{
	struct cpu *cpu = this_cpu();
	uint64_t now = clock_ns();
	if (softlockup_warn_ns) {
		softlockup_tick_gap(tf, now);
		softlockup_resched_check(tf, now);
	}
	/* User mode, the idle loop and preemptible kernel code are fine: a
	 * switch could happen right here (and does if one is due). */
	if (trap_from_user(tf) || idle || cpu->preempt_count == 0 || !cpu->softlockup_stamp) {
		cpu->softlockup_stamp = now;
		cpu->softlockup_ticks = 0;
		return;
	}
	uint64_t stuck = now - cpu->softlockup_stamp;
	if (++cpu->softlockup_ticks >= SOFTLOCKUP_TICKS && stuck > SOFTLOCKUP_NS) {
		struct thread *t = cpu->current;
		panic_trap(tf, "soft lockup: CPU %u stuck in the kernel for %lu ms without scheduling "
			   "(thread %s, pid %d, preempt_count %d)", cpu->id, stuck / 1000000,
			   t ? t->name : "?", t && t->proc ? t->proc->pid : -1, cpu->preempt_count);
	}
}
