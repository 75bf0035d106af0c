/* Hierarchical weighted fair queueing (the CFS algorithm), pure logic.
 *
 * Model. The run queue is a tree of queues mirroring the cgroup tree, one
 * for all CPUs. Each queue holds scheduling entities: threads (leaves) and groups
 * (an entity that stands for a whole child cgroup and owns a child queue,
 * my_q). Siblings in one queue share the CPU time granted to that queue in
 * proportion to their weights; only runnable entities count, so the scheme
 * is work-conserving. A group entity is runnable exactly when its queue
 * holds at least one runnable entity; it is never returned by pick_next.
 *
 * Virtual runtime. Running for d ns advances an entity's vruntime by
 * d * SCHED_NICE0_WEIGHT / weight; charging a thread also charges every ancestor group
 * entity, each at its own weight. Each queue runs its entity with the
 * smallest vruntime, so over time vruntimes of siblings stay together and
 * CPU time splits by weight. A queue's min_vruntime is a monotonic floor
 * tracking its smallest runnable vruntime; an entity becoming runnable is
 * raised to at least min_vruntime - SCHED_SLEEPER_BONUS_NS, so sleeping
 * earns at most a small bounded credit and never a CPU monopoly.
 * vruntimes are compared modulo 2^64 (signed difference), so wrapping is
 * harmless as long as related entities stay within 2^63 of each other.
 *
 * Running chains. A running thread and each of its ancestor group entities
 * form its CPU's running chain; there is one chain per CPU that runs a
 * thread, and chains share their upper entities (a group whose threads run
 * on two CPUs is on both chains: nr_running 2). Running entities stay in
 * their timelines, counted in nr_queued and load like waiting ones. An
 * entity is busy when there is nothing in it to pick: a running thread, or
 * a group whose queued entities are all busy. pick_next takes the leftmost
 * entity that is not busy at each level, and the preemption checks compare
 * a chain's entity with the leftmost one that is not busy besides it. So
 * on one CPU (nothing busy but the chain being judged) this is CFS, and on
 * several CPUs vruntime order is global: weights split the time of all
 * CPUs, and cpu.max's throttle takes a group out of every CPU at once.
 *
 * Typical use, all under the run-queue lock, on a CPU whose chain ends
 * at cur:
 *   timer tick:  sched_account(cur, ran); if (sched_should_preempt(cur, now))
 *                cur = sched_pick_next(root, cur, now);
 *   block/exit:  sched_account(cur, ran); sched_dequeue(cur);
 *                cur = sched_pick_next(root, cur, now);
 *   wakeup:      sched_enqueue(t); if (sched_should_preempt(cur, now)) resched
 *
 * No allocation, no locking, no libc: the caller embeds the structures,
 * holds the lock, and supplies time in nanoseconds. */
#ifndef ARBOR_SCHED_FAIR_H
#define ARBOR_SCHED_FAIR_H

#include "types.h"
#include "list.h"
#include "rbtree.h"

/* Entity weights carry 10 fraction bits (Linux's scale_load on 64-bit):
 * nice 0 is 1024 << 10, so cpu.weight converts without rounding away the
 * ratio between small weights (cpu.weight 1 : 10 is 10486 : 104858, not
 * Linux's 10 : 102, which would give 8.93% instead of 9.09%). */
#define SCHED_LOAD_SHIFT   10
#define SCHED_NICE0_WEIGHT (1024u << SCHED_LOAD_SHIFT)
#define SCHED_NICE_MIN     (-20)
#define SCHED_NICE_MAX     19

/* Tunables, in ns of run time. */
#define SCHED_LATENCY_NS       6000000ull  /* period in which a queue's runnable
					      entities should each run once */
#define SCHED_MIN_GRAN_NS      750000ull   /* no tick preemption before a thread
					      ran this long since being picked */
#define SCHED_WAKEUP_GRAN_NS   1000000ull  /* lead (in curr's own run time) a
					      waiting entity needs to preempt
					      curr before curr's slice is used */
#define SCHED_SLEEPER_BONUS_NS (SCHED_LATENCY_NS / 2) /* max credit, in vruntime,
						  for having slept */

/* Linux's nice-to-weight table (unscaled): index nice + 20; each nice step
 * is ~1.25x. */
extern const uint32_t sched_nice_to_weight[40];

/* Weight (scaled) for a nice value (clamped to -20..19). */
uint32_t sched_weight_from_nice(int nice);

/* cgroup v2 cpu.weight (clamped to 1..10000; 100 = nice 0) to an entity
 * weight: cpu_weight * SCHED_NICE0_WEIGHT / 100, rounded. */
uint32_t sched_weight_from_cpu_weight(uint32_t cpu_weight);
/* Back: the cpu.weight a scheduler weight shows (rounded), and the nice
 * value whose weight is nearest (cpu.weight.nice). */
uint32_t sched_cpu_weight_from_weight(uint32_t weight);
int sched_nice_from_weight(uint32_t weight);
/* The weight of an idle group (cpu.idle), Linux's SCHED_IDLE weight. */
#define SCHED_IDLE_WEIGHT (3u << SCHED_LOAD_SHIFT)

struct sched_queue;
struct sched_entity;

/* CPU, memory and io pressure of a group (kernel/sched/psi.c), kept per
 * CPU as Linux's: each thread below it counts on one CPU (the one it last
 * ran on, where Linux keeps it on a run queue) as queued (runnable:
 * waiting or running), stalled on memory or waiting for a disk, and each
 * CPU counts the threads below it running there; each CPU's stall state
 * follows. ncpus counts the CPUs in each state (PSI_NONIDLE: non-idle
 * ones) since state_start; the group stalls at each moment by the share
 * of its non-idle CPUs that stall, so that three busy threads on two CPUs
 * are "some" half of the time, not all of it. total: the stalled time up
 * to state_start in ns, and the rest in ns / 840 (exact for 1 to 8
 * CPUs); then the decaying
 * averages over 10, 60 and 300 s (percent, fixed point 1/2048), updated
 * every 2 s window, for each kind (PSI_CPU_SOME ... PSI_IO_FULL).
 * nr_queued and nr_iowait sum all CPUs' (the root's: /proc/stat's
 * procs_running, the load average). */
enum { PSI_CPU_SOME, PSI_CPU_FULL, PSI_MEM_SOME, PSI_MEM_FULL, PSI_IO_SOME, PSI_IO_FULL, PSI_KINDS };
#define PSI_NONIDLE PSI_KINDS	/* a state bit and ncpus[] slot beside the kinds */
#define SCHED_PSI_CPUS 8	/* MAX_CPUS (psi.c checks) */
struct sched_psi_cpu {
	uint32_t nr_queued, running, nr_memstall, nr_iowait;
	uint32_t state;
};
struct sched_psi {
	uint32_t nr_queued, nr_iowait;
	uint8_t ncpus[PSI_KINDS + 1];
	uint64_t state_start;
	uint64_t total[PSI_KINDS];
	uint16_t rest[PSI_KINDS];
	uint64_t win_end, win_base[PSI_KINDS];
	uint32_t avg[PSI_KINDS][3];
	struct sched_psi_cpu cpu[SCHED_PSI_CPUS];
};

/* A thread entity joins (+1) or leaves (-1) a queue: the kernel counts
 * it for CPU pressure (psi.c; the host tests stub it). */
void sched_psi_queued(struct sched_entity *se, int delta);

/* cpu.max of a group (kernel/sched/bandwidth.c), all in ns: a quota of run
 * time per period (SCHED_QUOTA_MAX: no limit), the unused time a period
 * may carry over (burst), the time left in this period (below 0 after an
 * overrun, which the next period pays back), and the statistics. */
#define SCHED_QUOTA_MAX UINT64_MAX
struct sched_bandwidth {
	uint64_t quota, period, burst;
	int64_t runtime;
	uint64_t period_end, used, throttled_at;
	uint64_t nr_periods, nr_throttled, throttled_ns, nr_bursts, burst_ns;
	/* cpu.stat.local: time this group could not run because it or an
	 * ancestor was throttled. path_throttled counts the throttled groups
	 * on its path (itself included), since local_at if > 0. */
	uint32_t path_throttled;
	/* Dying threads in the subtree (sched_set_dying): while any, the
	 * group is not throttled; what they run is charged all the same. */
	uint32_t dying;
	uint64_t local_at, local_ns;
	struct list_head link;	/* in the list of limited groups */
};

struct sched_entity {
	struct rb_node node;        /* in parent->timeline while runnable */
	uint64_t vruntime;          /* weighted run time, in parent's time base */
	uint32_t weight;            /* >= 1 */
	bool on_rq;                 /* runnable: queued in parent (running or not) */
	bool busy;                  /* nothing to pick in it (see the model) */
	uint32_t nr_running;        /* running chains through it (threads: 0 or 1) */
	struct sched_queue *parent; /* the queue it competes in */
	struct sched_queue *my_q;   /* groups: their children's queue; threads: NULL */
	uint64_t exec_start;        /* clock when last picked (sched_pick_next) */
	uint64_t sum_exec;          /* ns run in total (groups: whole subtree) */
	bool throttled;             /* groups: kept out of the parent's queue (cpu.max) */
};

struct sched_queue {
	struct rb_root_cached timeline; /* runnable entities, by vruntime */
	uint64_t min_vruntime;          /* monotonic floor for placing wakers */
	uint32_t nr_queued;             /* runnable entities, running ones too */
	uint32_t nr_busy;               /* of those, the busy ones */
	uint64_t load;                  /* their summed weights */
	struct sched_entity *owner;     /* group entity owning this queue; NULL: root */
};

static inline bool sched_entity_is_group(const struct sched_entity *se)
{
	return se->my_q != NULL;
}

/* True iff se is on some CPU's running chain. */
static inline bool sched_entity_running(const struct sched_entity *se)
{
	return se->nr_running > 0;
}

/* Is there an entity in q (a root) that pick_next would take? */
bool sched_queue_pickable(const struct sched_queue *q);

/* An empty queue. owner is the group entity whose my_q this is (NULL for
 * the root queue). */
void sched_queue_init(struct sched_queue *q, struct sched_entity *owner);

/* A not-runnable entity competing in `parent` (never NULL). Groups pass
 * their child queue as my_q (initialise it with this entity as owner);
 * threads pass NULL. weight 0 is treated as 1. vruntime starts at the
 * parent's current min_vruntime, so a new entity gets no sleeper credit
 * beyond the bonus. */
void sched_entity_init(struct sched_entity *se, struct sched_queue *parent,
		       struct sched_queue *my_q, uint32_t weight);

/* Thread se becomes runnable (wakeup or new): place it (vruntime raised to
 * at least min_vruntime - SCHED_SLEEPER_BONUS_NS) and queue it, then do the
 * same for each ancestor group entity that was not runnable. Ignored for
 * group entities and already-runnable threads. Does not preempt: the caller
 * asks sched_should_preempt about the running thread. */
void sched_enqueue(struct sched_entity *se);

/* Thread se stops being runnable (block, exit, migration): remove it, and
 * every ancestor group entity whose queue becomes empty. If se was running,
 * its running chain is put back first, so afterwards its CPU runs nothing
 * and must sched_pick_next (account the elapsed time before dequeueing).
 * Ignored if se is not runnable. */
void sched_dequeue(struct sched_entity *se);

/* Charge delta_ns of run time to thread `leaf` and every ancestor group
 * entity: sum_exec += delta; vruntime += delta * 1024 / weight; each
 * queue's min_vruntime is advanced. Meant for the running thread; if leaf
 * is queued but not running, its tree positions are fixed up. */
void sched_account(struct sched_entity *leaf, uint64_t delta_ns);

/* Choose the next thread for a CPU whose running chain ended at prev
 * (NULL: none): prev's chain is put back first (as by sched_put_prev), so
 * prev competes too; then descend from the root, taking each queue's
 * leftmost (smallest vruntime, FIFO among ties) entity that is not busy,
 * stamping exec_start = now_ns, and count the chain running. NULL if
 * nothing is pickable (everything runnable runs on other CPUs). */
struct sched_entity *sched_pick_next(struct sched_queue *root, struct sched_entity *prev, uint64_t now_ns);

/* The running thread stops running but stays runnable (preempted,
 * yielding): its CPU's running chain is counted off. Harmless if leaf is
 * not running (already dequeued, or waiting). */
void sched_put_prev(struct sched_entity *leaf);

/* Should the running thread `leaf` give up the CPU now? Always true if leaf
 * is not running, else false before it has run SCHED_MIN_GRAN_NS since it
 * was picked. Otherwise true iff at some level of the running chain the
 * leftmost pickable entity (not busy, not the chain's) has a vruntime below
 * the chain entity's by more than a granularity G: while the leaf is within
 * its slice, G is SCHED_WAKEUP_GRAN_NS of the chain entity's run time in
 * its vruntime;
 * once the slice is used up, G = 0 (switch to anyone who is behind). The
 * slice is SCHED_LATENCY_NS times the leaf's share of the CPU (product of
 * weight/queue load along the chain), but at least SCHED_MIN_GRAN_NS. */
bool sched_should_preempt(struct sched_entity *leaf, uint64_t now_ns);
/* Linux's wakeup preemption (check_preempt_wakeup): does the just woken
 * thread `woken` take the CPU from the running thread `curr`? At the level
 * where their chains meet (siblings in one queue), true iff curr's entity
 * is ahead of woken's by more than SCHED_WAKEUP_GRAN_NS of the woken's run
 * time in vruntime; no minimum run time applies (that is the tick's rule).
 * False if woken sits under a throttled group or inside curr's own group
 * entity at every level. pending_ns: what curr has run since it was last
 * accounted (sched_account), counted at that level without accounting. */
bool sched_wakeup_preempts(struct sched_entity *curr, struct sched_entity *woken, uint64_t pending_ns);
/* The same question with neither the minimum run time nor a granularity:
 * is anyone on leaf's chain behind it at all? For a thread sent to the
 * freezer's park point, which runs only to stop there: if it is behind it
 * goes now, so a thread moved into a frozen cgroup parks before its mover
 * reads "frozen". leaf's vruntime must be current (accounted up to now). */
bool sched_behind_now(struct sched_entity *leaf);
/* The slice sched_should_preempt gives leaf, queued or not (if not, as if
 * it were): SCHED_LATENCY_NS times its share along the chain, at least
 * SCHED_MIN_GRAN_NS (sched_rr_get_interval). sched_lock held. */
uint64_t sched_slice_ns(const struct sched_entity *leaf);

/* Bandwidth control (cpu.max): a throttled group leaves its parent's
 * queue even though its own queue may hold runnable entities, and stays
 * out (wake-ups below it stop at it) until unthrottled, when it comes back
 * if anything below is runnable (placed as a waking entity). Chains
 * running below a group it throttles stay counted until their CPUs put
 * them back: each such CPU must sched_pick_next (its thread still reads as
 * running until then). Both are idempotent. */
void sched_throttle(struct sched_entity *group);
void sched_unthrottle(struct sched_entity *group);

/* New weight (nice or cpu.weight change; 0 is treated as 1) for any
 * entity, queued, running or not. The queue load follows; vruntime is
 * kept, only its future rate changes. */
void sched_set_weight(struct sched_entity *se, uint32_t weight);

/* Move thread se to queue `to` (cgroup migration). A runnable thread is
 * dequeued and re-enqueued; vruntime keeps its offset from min_vruntime
 * (se->vruntime - from->min_vruntime + to->min_vruntime), then the usual
 * wakeup floor applies. A running thread stays running: its new chain
 * is counted running (exec_start kept), so the caller needs no reschedule, though
 * sched_should_preempt may now say yes; unless the new queue is under a
 * throttled group: then it only waits there (not running any more: the
 * caller must reschedule). Ignored for group entities. */
void sched_move(struct sched_entity *se, struct sched_queue *to);

/* The running thread yields: at the lowest level of its running chain where
 * another entity waits, its entity moves just behind that waiter. */
void sched_yield_entity(struct sched_entity *leaf);

#endif
