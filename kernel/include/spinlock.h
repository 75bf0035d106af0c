/* Spinlocks. Every CPU schedules (smp.h) and every piece of shared
 * kernel state is guarded by a lock (lock order: docs/locking.md).
 * Holding a spinlock disables preemption: the holder must not be switched
 * out while another thread on this CPU could spin on the same lock. The
 * irqsave variants also keep interrupt handlers that take the same lock
 * from deadlocking on this CPU. Inline: they sit on every hot path (IPC,
 * scheduling, allocation); a lock found taken goes out of line, where its
 * wait is counted (/proc/lock_stat). */
#ifndef ARBOR_SPINLOCK_H
#define ARBOR_SPINLOCK_H

#include "arch/x86.h"
#include "types.h"
#include "percpu_off.h"

struct spinlock {
	volatile uint32_t locked;
	const char *name;
#ifdef CONFIG_LOCKDEP
	uint16_t ld_class;	/* the checker's class, found by name at first use */
	int16_t ld_owner;	/* the holding CPU's id + 1; 0: free */
#endif
};

#ifdef CONFIG_LOCKDEP
#include "panic.h"
/* The debug kernel's lock-order checker (kernel/debug/lockdep.c; make
 * kcov builds it). acquire: before spinning, so an order that could
 * deadlock is reported even when it does not (it panics with both
 * stacks); acquired: once held; release: before letting go (panics if
 * this CPU does not hold it). irq_enter/exit bracket interrupt handlers
 * (trap_dispatch). held: whether this CPU holds l. */
void lockdep_init(void);
/* lockdep=warn on the command line: report each finding and go on. */
void lockdep_setup(const char *cmdline);
void lockdep_acquire(struct spinlock *l);
void lockdep_acquired(struct spinlock *l);
void lockdep_release(struct spinlock *l);
bool lockdep_held(const struct spinlock *l);
void lockdep_irq_enter(void);
void lockdep_irq_exit(void);
#define LOCKDEP_ACQUIRE(l) lockdep_acquire(l)
#define LOCKDEP_ACQUIRED(l) lockdep_acquired(l)
#define LOCKDEP_RELEASE(l) lockdep_release(l)
#define LOCKDEP_IRQ_ENTER() lockdep_irq_enter()
#define LOCKDEP_IRQ_EXIT() lockdep_irq_exit()
#else
#define LOCKDEP_ACQUIRE(l) do { } while (0)
#define LOCKDEP_ACQUIRED(l) do { } while (0)
#define LOCKDEP_RELEASE(l) do { } while (0)
#define LOCKDEP_IRQ_ENTER() do { } while (0)
#define LOCKDEP_IRQ_EXIT() do { } while (0)
#endif

#define SPINLOCK_INIT(n) { .locked = 0, .name = (n) }

/* struct cpu's preempt_count, reached through %gs (see percpu.h). */
#define SPINLOCK_PREEMPT_OFF PERCPU_OFF_PREEMPT

static inline void spin_preempt_inc(void)
{
	__asm__ volatile("incl %%gs:%c0" ::"i"(SPINLOCK_PREEMPT_OFF) : "memory");
}

static inline void spin_preempt_dec(void)
{
	__asm__ volatile("decl %%gs:%c0" ::"i"(SPINLOCK_PREEMPT_OFF) : "memory");
}

/* This CPU's preempt_count, read in one instruction. Preemptible code
 * must use this, not this_cpu()->preempt_count: a switch between finding
 * the CPU and reading its count may move the thread, which then reads the
 * count of a CPU it left (nonzero while that one holds a spinlock). One
 * instruction reads the count of the CPU running it at that moment. */
static inline int spin_preempt_count(void)
{
	int n;
	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(n) : "i"(SPINLOCK_PREEMPT_OFF) : "memory");
	return n;
}

/* Spins until l is taken, then counts the wait under l's name for
 * /proc/lock_stat (kernel/debug/lockstat.c): spin_lock's way when the
 * lock was not free at once, out of line. Preemption off. */
void spin_lock_contended(struct spinlock *l);

static inline void spin_lock(struct spinlock *l)
{
	spin_preempt_inc();
	LOCKDEP_ACQUIRE(l);
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		spin_lock_contended(l);
	LOCKDEP_ACQUIRED(l);
}

static inline void spin_unlock(struct spinlock *l)
{
	LOCKDEP_RELEASE(l);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	spin_preempt_dec();
}

static inline bool spin_held(const struct spinlock *l)
{
	return l->locked != 0;
}

/* That this CPU holds l: checked in the debug kernel (a panic if not),
 * nothing in others. For functions whose contract says "l held". */
#ifdef CONFIG_LOCKDEP
#define spin_assert_held(l)                                                       \
	do {                                                                      \
		if (!lockdep_held(l))                                             \
			panic("lock \"%s\" not held by this CPU at %s:%d", (l)->name, \
			      __FILE__, __LINE__);                                \
	} while (0)
#else
#define spin_assert_held(l) do { (void)(l); } while (0)
#endif

#ifdef CONFIG_KCOV
/* The debug kernel's interrupts-off tracer (kernel/debug/irqoff.c), on
 * with lockup_warn_ms=N (sched_latency_warn_ns): the outermost irqsave
 * begins a stretch, its irqrestore ends it. */
extern uint64_t sched_latency_warn_ns;
void irqoff_begin(const struct spinlock *l, void *where);
void irqoff_end(void);
#define SPIN_IRQOFF_BEGIN(f, l)                                                  \
	do {                                                                     \
		if (unlikely(sched_latency_warn_ns) && ((f) & RFLAGS_IF))        \
			irqoff_begin((l), ({ __label__ here; here: &&here; }));  \
	} while (0)
#define SPIN_IRQOFF_END(f)                                                       \
	do {                                                                     \
		if (unlikely(sched_latency_warn_ns) && ((f) & RFLAGS_IF))        \
			irqoff_end();                                            \
	} while (0)
#else
#define SPIN_IRQOFF_BEGIN(f, l) do { } while (0)
#define SPIN_IRQOFF_END(f) do { } while (0)
#endif

static inline uint64_t spin_lock_irqsave(struct spinlock *l)
{
	uint64_t f = irq_save();
	spin_lock(l);
	SPIN_IRQOFF_BEGIN(f, l);
	return f;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags)
{
	SPIN_IRQOFF_END(flags);
	spin_unlock(l);
	irq_restore(flags);
}

#endif
