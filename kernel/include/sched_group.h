/* The scheduler's part of a cgroup: a group of threads and child groups
 * that competes as one entity in its parent group's queue (cpu.weight),
 * with a CPU limit (cpu.max), CPU-time samples (cpu.stat) and pressure
 * accounting (cpu/memory/io.pressure).
 *
 * struct cgroup embeds one (cgroup/core/cgroup.h: the switch path reaches
 * the run queue and the entity without a pointer hop), but only the
 * scheduler (kernel/sched) reads or writes inside it: the cgroup side,
 * the cpu controller (cgroup/controllers/cpu.c), goes through the
 * functions below. The groups form a tree of their own (children,
 * sibling), changed under sched_lock, since a throttle walks the subtree
 * below it (cpu.stat.local). */
#ifndef ARBOR_SCHED_GROUP_H
#define ARBOR_SCHED_GROUP_H

#include "list.h"
#include "sched_fair.h"
#include "types.h"

/* The period a new group's cpu.max starts with: 100 ms, Linux's default. */
#define SCHED_PERIOD_DEFAULT_NS 100000000ull

struct sched_group {
	struct sched_entity se;		/* the group in its parent's queue (unused at the root) */
	struct sched_queue rq;		/* the queue its threads and child groups compete in */
	uint32_t weight;		/* its weight as set (cpu.weight, scaled: sched_weight_from_cpu_weight) */
	bool idle;			/* cpu.idle: it runs at SCHED_IDLE_WEIGHT meanwhile */
	struct sched_bandwidth bw;	/* cpu.max, cpu.max.burst and their statistics */
	struct sched_psi *psi;		/* pressure: memory given by sched_group_init */
	struct list_head children;	/* child groups (sched_lock) */
	struct list_head sibling;	/* in the parent's children */
	/* tick samples over the whole subtree: user, system, and user time of
	 * threads with nice > 0 (cpu.stat nice_usec) */
	uint64_t user_ticks, system_ticks, nice_ticks;
};

/* The root group (the root cgroup's): set by its sched_group_init. */
extern struct sched_group *sched_root;

/* Pre: g is zeroed; parent is an initialised group (NULL: g is the root,
 * done once, before sched_init); psi is zeroed memory that lives as long
 * as g (the cpu controller's per-cgroup state). Post: g is a group with
 * no runnable entity, the default weight (cpu.weight 100), no limit and
 * a 100 ms period, linked below parent. Takes sched_lock; never fails. */
void sched_group_init(struct sched_group *g, struct sched_group *parent, struct sched_psi *psi);
/* The cgroup was removed: g's limit goes and g leaves its parent's
 * children (no throttle reaches it any more); its entity stays valid
 * while threads that ended in it switch away. Idempotent. */
void sched_group_offline(struct sched_group *g);

/* A new weight (an entity weight: from cpu.weight or cpu.weight.nice;
 * clamped to >= 1): 0, or -EINVAL for the root or an idle group. */
int sched_group_set_weight(struct sched_group *g, uint32_t weight);
/* The weight set (what cpu.weight shows) and whether it is idle. */
uint32_t sched_group_weight(const struct sched_group *g);
bool sched_group_idle(const struct sched_group *g);
/* cpu.idle: the group runs at SCHED_IDLE_WEIGHT while set; leaving idle
 * sets the weight to cpu.weight 100 (as Linux). 0, or -EINVAL for the root. */
int sched_group_set_idle(struct sched_group *g, bool idle);
/* cpu.max (kernel/sched/bandwidth.c), in ns: quota (SCHED_QUOTA_MAX: no
 * limit) per period, burst; validated by the caller. 0 or -EINVAL (root). */
int sched_group_set_max(struct sched_group *g, uint64_t quota, uint64_t period, uint64_t burst);
/* A copy of g's limit and statistics, the current throttled stretches
 * included (cpu.max, cpu.stat, cpu.stat.local). */
void sched_group_bandwidth(const struct sched_group *g, struct sched_bandwidth *out);
/* g's pressure: totals up to now (ns) and averages (kernel/sched/psi.c). */
struct sched_pressure {
	uint64_t total[PSI_KINDS];
	uint32_t avg[PSI_KINDS][3];
};
void sched_group_pressure(const struct sched_group *g, struct sched_pressure *out);
/* Total CPU time of g's subtree in ns, its user/system split, and the
 * user time of niced threads (cpu.stat). */
uint64_t sched_group_usage_ns(const struct sched_group *g);
void sched_group_cputime(const struct sched_group *g, uint64_t *user_ns, uint64_t *sys_ns);
uint64_t sched_group_nice_ns(const struct sched_group *g);

/* Pressure triggers (kernel/sched/psi_trigger.c): one fires when g's
 * stall of kind grew by stall_ns within a window_ns (validated by the
 * caller); fired reports (and forgets) a firing. new: NULL without memory.
 * The tick checks them, with sched_lock held. */
struct psi_trigger;
struct psi_trigger *sched_psi_trigger_new(const struct sched_group *g, int kind, uint64_t stall_ns,
					  uint64_t window_ns);
void sched_psi_trigger_free(struct psi_trigger *t);
bool sched_psi_trigger_fired(struct psi_trigger *t);
void sched_psi_trigger_tick(uint64_t now);

/* The group whose queue q is, and the group above g (NULL at the root). */
static inline struct sched_group *sched_group_of_queue(struct sched_queue *q)
{
	return container_of(q, struct sched_group, rq);
}

static inline struct sched_group *sched_group_of_entity(struct sched_entity *group_se)
{
	return container_of(group_se, struct sched_group, se);
}

#endif
