/* Self-tests of CPU bring-up and cross-CPU calls (kernel/arch/smp.c).
 * They hold on any number of CPUs; tools/run-tests.py boots them with
 * --smp 1, 2 and 4 and checks the "smp: N of M CPUs online" line. */
#include "abi/errno.h"
#include "arch/x86.h"
#include "ktest.h"
#include "timer.h"
#include "spinlock.h"
#include "sched.h"
#include "proc.h"
#include "lapic.h"
#include "percpu.h"
#include "printk.h"
#include "smp.h"
#include "addrspace.h"
#include "cgroup.h"
#include "memcg.h"
#include "pmm.h"
#include "kstring.h"
#include "lockstat.h"

#define MS 1000000ull

KTEST(smp_online)
{
	KT_EXPECT(smp_possible() >= 1 && smp_possible() <= MAX_CPUS);
	KT_EXPECT_EQ(smp_online(), smp_possible());
	KT_EXPECT(smp_cpu_online(0));
	KT_EXPECT(!smp_cpu_online(smp_possible()) && !smp_cpu_online(1000));
	for (unsigned id = 0; id < smp_possible(); id++) {
		struct cpu *c = cpu_get(id);
		KT_EXPECT(c != NULL && c->self == c && c->id == id);
	}
	KT_EXPECT(cpu_get(MAX_CPUS) == NULL);
	printk("# %u CPUs online\n", smp_online());
}

struct smp_seen {
	uint32_t cpu, apic, gs_self_ok, irqs_off;
	uint64_t cr4;
};

static void smp_record(void *arg)
{
	struct smp_seen *s = arg;
	s->cpu = this_cpu()->id;
	s->apic = lapic_id();
	s->gs_self_ok = this_cpu()->self == cpu_get(s->cpu);
	s->irqs_off = !(read_rflags() & RFLAGS_IF);
	s->cr4 = read_cr4();
}

static void smp_count(void *arg)
{
	__atomic_fetch_add((uint32_t *)arg, 1, __ATOMIC_RELAXED);
}

/* Each CPU runs the call itself, in its own per-CPU context, with
 * interrupts off, and with the control bits the boot CPU has. */
KTEST(smp_call_each)
{
	uint64_t cr4 = read_cr4();
	for (unsigned id = 0; id < smp_possible(); id++) {
		struct smp_seen s = { .cpu = 99 };
		KT_EXPECT_EQ(smp_call(id, smp_record, &s), 0);
		KT_EXPECT_EQ(s.cpu, id);
		KT_EXPECT(s.gs_self_ok && s.irqs_off);
		KT_EXPECT_EQ(s.cr4, cr4);
		for (unsigned j = 0; j < id; j++) { /* distinct APIC IDs */
			struct smp_seen o;
			smp_call(j, smp_record, &o);
			KT_EXPECT(o.apic != s.apic);
		}
	}
	KT_EXPECT_EQ(smp_call(smp_possible(), smp_count, NULL), -ENXIO);
	uint32_t n = 0;
	KT_EXPECT_EQ(smp_call_others(smp_count, &n), smp_possible() - 1);
	KT_EXPECT_EQ(n, smp_possible() - 1);
}

/* A called CPU that calls back the caller, which waits for it with
 * interrupts off: the waiting caller answers, so neither deadlocks. */
static void smp_call_back(void *arg)
{
	smp_call(0, smp_count, arg);
}

KTEST(smp_call_nested)
{
	uint32_t n = 0;
	for (unsigned id = 1; id < smp_possible(); id++)
		KT_EXPECT_EQ(smp_call(id, smp_call_back, &n), 0);
	KT_EXPECT_EQ(n, smp_possible() - 1);
}

/* Many calls in a row, and chains of calls made from the called CPUs
 * (each calls the next one while its own caller waits). */
static void smp_call_next(void *arg)
{
	unsigned next = (this_cpu()->id + 1) % smp_possible();
	for (int i = 0; i < 100; i++)
		smp_call(next, smp_count, arg);
}

KTEST(smp_call_many)
{
	uint32_t n = 0;
	for (int i = 0; i < 2000; i++)
		smp_call((unsigned)i % smp_possible(), smp_count, &n);
	KT_EXPECT_EQ(n, 2000);
	n = 0;
	smp_call_others(smp_call_next, &n);
	smp_call_next(&n);
	KT_EXPECT_EQ(n, 100 * smp_possible());
}

/* TLB shootdown (kernel/mm/tlb.c): CPU 1 loads an address space and reads
 * a page of it through its TLB; CPU 0 unmaps the page and maps another
 * frame there. CPU 1 must read the new frame: without the shootdown its
 * TLB would still name the old one (freed by then). */
struct tlb_probe {
	struct addrspace *as;
	vaddr_t va;
	uint64_t seen;
};

static void tlb_probe_load(void *arg)
{
	struct tlb_probe *p = arg;
	vm_switch_to(p->as);
	p->seen = *(volatile uint64_t *)p->va;
}

static void tlb_probe_read(void *arg)
{
	struct tlb_probe *p = arg;
	p->seen = *(volatile uint64_t *)p->va;
}

static void tlb_probe_unload(void *arg)
{
	(void)arg;
	vm_switch_to(NULL);
}

/* When every CPU schedules, CPU 1 runs threads: an address space loaded
 * there from an interrupt would be the one the interrupted thread went
 * on with. So a kernel thread holds CPU 1 (pinned, preemption off,
 * interrupts on: it answers the calls) for as long as the probe is loaded.
 * 0: not there yet, 1: holding, 2: let go. */
static volatile int tlb_hold;

static long tlb_holder(void *arg)
{
	struct spinlock l = SPINLOCK_INIT("tlb_hold");
	(void)arg;
	for (;;) { /* its pin moves it to CPU 1; no switch once the lock is held */
		spin_lock(&l);
		if (this_cpu()->id == 1)
			break;
		spin_unlock(&l);
		sched_sleep_until(clock_ns() + MS);
	}
	__atomic_store_n(&tlb_hold, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&tlb_hold, __ATOMIC_ACQUIRE) != 2)
		cpu_pause();
	spin_unlock(&l);
	return 0;
}

/* Holds CPU 1 when it schedules; false if the holder did not get there. */
static bool tlb_hold_cpu1(void)
{
	int err = 0;
	__atomic_store_n(&tlb_hold, 0, __ATOMIC_RELEASE);
	if (!sched_smp_enabled)
		return true;
	struct thread *t = kthread_create("tlb_hold", tlb_holder, NULL, NULL, &err);
	if (!t || sched_set_affinity(t, 1u << 1, UINT32_MAX))
		return false;
	for (int i = 0; i < 500 && !__atomic_load_n(&tlb_hold, __ATOMIC_ACQUIRE); i++)
		sched_sleep_until(clock_ns() + 10 * MS);
	return __atomic_load_n(&tlb_hold, __ATOMIC_ACQUIRE) == 1;
}

static struct page *tlb_test_page(uint64_t value)
{
	struct page *pg = mem_alloc_pages(&cg_root, 0, MEMCG_STAT_KERNEL_OTHER);
	if (pg)
		*(uint64_t *)page_to_virt(pg) = value;
	return pg;
}

KTEST(smp_tlb_shootdown)
{
	int err = 0;
	struct addrspace *as = vm_as_create(&cg_root, &err);
	KT_EXPECT(as != NULL);
	if (!as)
		return;
	KT_EXPECT_EQ(as->cpus, 0);
	vaddr_t va = vm_find_free(as, 0x10000000, PAGE_SIZE);
	struct page *a = tlb_test_page(0xaaaa), *b = tlb_test_page(0xbbbb);
	KT_EXPECT(va && a && b);
	KT_EXPECT_EQ(vm_area_add_dma(as, va, a, 0), 0);
	if (smp_possible() < 2) {
		printk("# one CPU: no other TLB to shoot down\n");
		vm_area_remove(as, va, PAGE_SIZE);
		mem_free_pages(b, 0);
		vm_as_destroy(as);
		return;
	}
	struct tlb_probe p = { as, va, 0 };
	bool held = tlb_hold_cpu1();
	KT_EXPECT(held);
	if (!held) { /* the holder stays spinning until told: let it go */
		__atomic_store_n(&tlb_hold, 2, __ATOMIC_RELEASE);
		return;
	}
	KT_EXPECT_EQ(smp_call(1, tlb_probe_load, &p), 0);
	KT_EXPECT_EQ(p.seen, 0xaaaa);
	KT_EXPECT_EQ(as->cpus, 1u << 1);
	uint64_t sent = tlb_remote_flushes();
	KT_EXPECT_EQ(vm_area_remove(as, va, PAGE_SIZE), 0); /* frees a */
	KT_EXPECT(tlb_remote_flushes() > sent);
	KT_EXPECT_EQ(vm_area_add_dma(as, va, b, 0), 0);
	KT_EXPECT_EQ(smp_call(1, tlb_probe_read, &p), 0);
	KT_EXPECT_EQ(p.seen, 0xbbbb);
	KT_EXPECT_EQ(smp_call(1, tlb_probe_unload, NULL), 0);
	__atomic_store_n(&tlb_hold, 2, __ATOMIC_RELEASE); /* CPU 1 schedules again */
	KT_EXPECT_EQ(as->cpus, 0);
	/* loaded nowhere else: nothing sent */
	sent = tlb_remote_flushes();
	KT_EXPECT_EQ(vm_area_remove(as, va, PAGE_SIZE), 0);
	KT_EXPECT_EQ(tlb_remote_flushes(), sent);
	vm_as_destroy(as);
}

/* /proc/lock_stat's counts (kernel/debug/lockstat.c): a kernel thread on
 * another CPU holds a lock while this one asks for it, so this spin_lock
 * finds it taken: one contention under the lock's name, its wait timed,
 * its place this function; a clear forgets it. The holder lets go 50 ms
 * after this thread says it is about to ask (state 2), long after its
 * exchange found the lock taken. */
static struct spinlock lockstat_test_lock = SPINLOCK_INIT("ktest_lockstat");
static int lockstat_test_state; /* 1: held, 2: about to ask, 3: let go */

static long lockstat_holder(void *arg)
{
	(void)arg;
	spin_lock(&lockstat_test_lock);
	int idle = 0;
	if (!__atomic_compare_exchange_n(&lockstat_test_state, &idle, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		spin_unlock(&lockstat_test_lock); /* the test gave up waiting for it */
		return 0;
	}
	while (__atomic_load_n(&lockstat_test_state, __ATOMIC_ACQUIRE) != 2)
		cpu_pause();
	uint64_t until = clock_ns() + 50 * MS;
	while (clock_ns() < until)
		cpu_pause();
	spin_unlock(&lockstat_test_lock);
	__atomic_store_n(&lockstat_test_state, 3, __ATOMIC_RELEASE);
	return 0;
}

KTEST(smp_lockstat_counts_contention)
{
	struct lockstat_class c;
	lockstat_clear();
	KT_EXPECT(!lockstat_find("ktest_lockstat", &c));
	if (smp_online() < 2 || !sched_smp_enabled) {
		printk("# one CPU schedules: no lock to contend for\n");
		return;
	}
	int err = 0;
	__atomic_store_n(&lockstat_test_state, 0, __ATOMIC_RELEASE);
	struct thread *t = kthread_create("lockstat_hold", lockstat_holder, NULL, NULL, &err);
	KT_EXPECT(t != NULL);
	if (!t)
		return;
	/* the holder runs on another CPU (this one runs the test) */
	for (int i = 0; i < 500 && __atomic_load_n(&lockstat_test_state, __ATOMIC_ACQUIRE) != 1; i++)
		sched_sleep_until(clock_ns() + MS);
	bool held = __atomic_load_n(&lockstat_test_state, __ATOMIC_ACQUIRE) == 1;
	KT_EXPECT(held);
	__atomic_store_n(&lockstat_test_state, 2, __ATOMIC_RELEASE); /* (a holder that never ran: it gives up) */
	if (!held)
		return;
	spin_lock(&lockstat_test_lock);
	spin_unlock(&lockstat_test_lock);
	while (__atomic_load_n(&lockstat_test_state, __ATOMIC_ACQUIRE) != 3)
		sched_sleep_until(clock_ns() + MS);
	bool found = lockstat_find("ktest_lockstat", &c);
	KT_EXPECT(found);
	if (!found)
		return;
	printk("# ktest_lockstat: %lu contention(s), %lu ns waited (longest %lu), at %s x%lu\n", c.contentions,
	       c.wait_ns, c.wait_max_ns, c.sites[0].where, c.sites[0].contentions);
	KT_EXPECT_EQ(c.contentions, 1);
	KT_EXPECT(c.wait_ns > 0 && c.wait_max_ns == c.wait_ns);
	static const char here[] = "ktest_fn_smp_lockstat_counts_contention+0x";
	KT_EXPECT(!strncmp(c.sites[0].where, here, sizeof(here) - 1));
	KT_EXPECT_EQ(c.sites[0].contentions, 1);
	KT_EXPECT(!c.sites[1].where[0]);
	lockstat_clear();
	KT_EXPECT(!lockstat_find("ktest_lockstat", &c));
}
