/* The load average (sysinfo(2)'s loads, docs/abi.md): every 5 seconds
 * a kernel thread counts the threads that are runnable (running, queued,
 * or running a server in an IPC call) and folds the count into three
 * exponentially decaying averages over 1, 5 and 15 minutes, in Linux's
 * fixed point (calc_load: 11 fraction bits, its EXP_1/5/15 constants). */
#include "percpu.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "timer.h"

#define LOAD_FSHIFT 11
#define LOAD_FIXED_1 (1u << LOAD_FSHIFT)
#define LOAD_PERIOD_NS 5000000000ull
static const uint64_t load_exp[3] = { 1884, 2014, 2037 };	/* 2^11 / e^(5s/1, 5, 15 min) */

static uint64_t avenrun[3];	/* written by the sampler only */
static struct thread *sampler;

/* Runnable threads but the sampler, and all threads. */
static void loadavg_count(uint64_t *runnable, uint64_t *all)
{
	uint64_t r = 0, n = 0;
	spin_lock(&proc_lock);
	for (struct proc *p = proc_iter_first_locked(); p; p = proc_iter_next_locked(p)) {
		struct list_head *pos;
		list_for_each(pos, &p->threads) {
			struct thread *t = list_entry(pos, struct thread, proc_link);
			n++;
			if (t != sampler && (t->state == THREAD_RUNNABLE || t->state == THREAD_DONATING))
				r++;
		}
	}
	spin_unlock(&proc_lock);
	*runnable = r;
	*all = n;
}

static long loadavg_thread(void *arg)
{
	(void)arg;
	uint64_t next = clock_ns();
	for (;;) {
		next += LOAD_PERIOD_NS;
		sched_sleep_until(next);
		uint64_t r, n;
		loadavg_count(&r, &n);
		for (int i = 0; i < 3; i++) {
			uint64_t a = avenrun[i] * load_exp[i] + r * LOAD_FIXED_1 * (LOAD_FIXED_1 - load_exp[i]);
			__atomic_store_n(&avenrun[i], (a + LOAD_FIXED_1 / 2) >> LOAD_FSHIFT, __ATOMIC_RELAXED);
		}
	}
	return 0;
}

void loadavg_start(void)
{
	int err;
	sampler = kthread_create("loadavg", loadavg_thread, NULL, NULL, &err);
	if (!sampler)
		printk("loadavg: no sampler thread (%d): the load average stays 0\n", err);
}

void loadavg_get(uint64_t loads[3], uint64_t *threads)
{
	for (int i = 0; i < 3; i++) /* sysinfo's SI_LOAD_SHIFT is 16 */
		loads[i] = __atomic_load_n(&avenrun[i], __ATOMIC_RELAXED) << (16 - LOAD_FSHIFT);
	uint64_t r;
	loadavg_count(&r, threads);
}
