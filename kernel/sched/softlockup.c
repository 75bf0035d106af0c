/* The soft-lockup detector: a CPU that stays in the kernel for more than
 * SOFTLOCKUP_NS without a chance to schedule (every timer tick found it
 * non-preemptible: a spinlock held, interrupts on) panics with the stuck
 * code's registers and backtrace, so a hang becomes a report instead of a
 * silent timeout. Linux's watchdog does the same with a per-CPU thread
 * that must get to run; here the tick itself asks whether the interrupted
 * code could have been switched away from. Spinning with interrupts off
 * (a hard lockup) stops the tick too and is not seen. */
#include "panic.h"
#include "percpu.h"
#include "proc.h"
#include "sched.h"
#include "timer.h"
#include "trap.h"

void softlockup_touch(void)
{
	this_cpu()->softlockup_stamp = clock_ns();
}

void softlockup_tick(struct trap_frame *tf, bool idle)
{
	struct cpu *cpu = this_cpu();
	uint64_t now = clock_ns();
	/* User mode, the idle loop and preemptible kernel code are fine: a
	 * switch could happen right here (and does if one is due). */
	if (trap_from_user(tf) || idle || cpu->preempt_count == 0 || !cpu->softlockup_stamp) {
		cpu->softlockup_stamp = now;
		return;
	}
	uint64_t stuck = now - cpu->softlockup_stamp;
	if (stuck > SOFTLOCKUP_NS) {
		struct thread *t = cpu->current;
		panic_trap(tf, "soft lockup: CPU %u stuck in the kernel for %lu ms without scheduling "
			   "(thread %s, pid %d, preempt_count %d)", cpu->id, stuck / 1000000,
			   t ? t->name : "?", t && t->proc ? t->proc->pid : -1, cpu->preempt_count);
	}
}
