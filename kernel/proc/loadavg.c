/* The load average (sysinfo(2)'s loads, docs/abi.md): every 5 seconds
 * the timer tick folds the number of runnable threads (queued or running,
 * the root cgroup's pressure count, which the scheduler keeps) plus those
 * waiting for a disk into three exponentially decaying averages over 1, 5
 * and 15 minutes, in Linux's fixed point (calc_load: 11 fraction bits, its
 * EXP_1/5/15 constants). No lock: the tick reads the counts as Linux's
 * calc_global_load does, racily. */
#include "cgroup.h"
#include "percpu.h"
#include "proc.h"
#include "sched.h"
#include "sched_fair.h"
#include "sched_group.h"
#include "timer.h"

#define LOAD_FSHIFT 11
#define LOAD_FIXED_1 (1u << LOAD_FSHIFT)
#define LOAD_PERIOD_TICKS (5 * TIMER_HZ)
static const uint64_t load_exp[3] = { 1884, 2014, 2037 };	/* 2^11 / e^(5s/1, 5, 15 min) */

static uint64_t avenrun[3];	/* written by the tick only */

void loadavg_tick(void)
{
	if (this_cpu()->ticks % LOAD_PERIOD_TICKS)
		return;
	const struct sched_psi *ps = cg_root.sched.psi;
	uint64_t r = __atomic_load_n(&ps->nr_queued, __ATOMIC_RELAXED) +
		     __atomic_load_n(&ps->nr_iowait, __ATOMIC_RELAXED);
	for (int i = 0; i < 3; i++) {
		uint64_t a = avenrun[i] * load_exp[i] + r * LOAD_FIXED_1 * (LOAD_FIXED_1 - load_exp[i]);
		__atomic_store_n(&avenrun[i], (a + LOAD_FIXED_1 / 2) >> LOAD_FSHIFT, __ATOMIC_RELAXED);
	}
}

void loadavg_get(uint64_t loads[3], uint64_t *threads)
{
	for (int i = 0; i < 3; i++) /* sysinfo's SI_LOAD_SHIFT is 16 */
		loads[i] = __atomic_load_n(&avenrun[i], __ATOMIC_RELAXED) << (16 - LOAD_FSHIFT);
	uint64_t n = 0;
	spin_lock(&proc_lock);
	for (struct proc *p = proc_iter_first_locked(); p; p = proc_iter_next_locked(p)) {
		struct list_head *pos;
		list_for_each(pos, &p->threads)
			n++;
	}
	spin_unlock(&proc_lock);
	*threads = n;
}
