/* The OOM killer, as Linux's: when a charge cannot be made (a cgroup's
 * memory.max, or the machine itself out of pages), a process inside the
 * domain that ran out dies so the others can go on.
 *
 * Policy. Candidates are the live processes in the domain's subtree, but
 * never init or a process with oom_score_adj -1000. Each scores its
 * footprint (resident pages plus page tables) plus oom_score_adj
 * thousandths of the domain's size (its memory.max, or all of memory);
 * the highest score dies. If a cgroup between the victim's and the domain
 * (both included) has memory.oom.group set, the highest such cgroup's
 * whole subtree dies with it (but not its -1000 processes), and as on
 * Linux the victim counts twice in oom_kill (alone, then with its group). In a global
 * OOM, processes whose cgroups are within their memory.min are taken only
 * if nobody else can be, then those within memory.low. While an earlier
 * victim in the domain is still freeing its memory, nobody else is
 * killed: the caller waits. A victim gets SIGKILL, which ends its threads
 * wherever they block; its memory is freed as its last thread ends. */
#include "memcg.h"
#include "abi/errno.h"
#include "abi/procinfo.h"
#include "abi/signal.h"
#include "cgroup.h"
#include "addrspace.h"
#include "pmm.h"
#include "proc.h"
#include "syscall.h"

struct oom_pick {
	struct proc *victim;
	int64_t points;
	int tier;	/* 0: unprotected, 1: within memory.low, 2: within memory.min */
	bool waiting;	/* an earlier victim is still freeing */
};

/* How protected p's memory is from a global OOM: the strongest of its
 * cgroup's levels (below the root) whose usage is within min or low. */
static int oom_tier(const struct proc *p, const struct cgroup *domain)
{
	int tier = 0;
	if (domain->parent)
		return 0; /* protection guards against others' pressure only */
	for (const struct cgroup *a = p->cgroup; a && a->parent; a = a->parent) {
		uint64_t usage = page_counter_read(&a->memory);
		if (a->memory.min && usage <= a->memory.min)
			return 2;
		if (a->memory.low && usage <= a->memory.low)
			tier = 1;
	}
	return tier;
}

static int64_t oom_footprint(const struct proc *p)
{
	const struct addrspace *as = p->as;
	return (int64_t)(__atomic_load_n(&as->resident, __ATOMIC_RELAXED) + as->table_pages);
}

static int64_t oom_points(const struct proc *p, uint64_t domain_pages)
{
	return oom_footprint(p) + (int64_t)p->oom_score_adj * (int64_t)(domain_pages / 1000);
}

static bool oom_eligible(const struct proc *p)
{
	return p->state == PROC_ALIVE && !p->exiting && p->as && p != init_proc && p->pid > 1 &&
	       p->oom_score_adj != OOM_SCORE_ADJ_MIN;
}

static void oom_consider(struct oom_pick *pick, struct proc *p, const struct cgroup *domain, uint64_t pages)
{
	if (p->oom_victim && p->state == PROC_ALIVE)
		pick->waiting = true;
	if (!oom_eligible(p))
		return;
	int tier = oom_tier(p, domain);
	int64_t points = oom_points(p, pages);
	if (!pick->victim || tier < pick->tier || (tier == pick->tier && points > pick->points)) {
		pick->victim = p;
		pick->points = points;
		pick->tier = tier;
	}
}

static void oom_kill_locked(struct proc *p)
{
	p->oom_victim = true;
	signal_send_locked(p, SIGKILL);
	memcg_event_locked(p->cgroup, MEMCG_OOM_KILL);
}

/* The highest cgroup from the victim's up to the domain with oom.group. */
static struct cgroup *oom_group_of(struct proc *victim, struct cgroup *domain)
{
	struct cgroup *group = NULL;
	for (struct cgroup *a = victim->cgroup; a; a = a->parent) {
		if (memcg_oom_group(a))
			group = a;
		if (a == domain)
			break;
	}
	return group;
}

/* Linux's oom_kill_process: the victim is killed on its own first, then
 * every member of the group, the victim again among them, so its cgroup's
 * oom_kill counts the victim twice (test_memcg_oom_group_score_events
 * expects 3 for a victim and one other member). */
static void oom_kill_group_locked(struct cgroup *group, struct proc *victim)
{
	oom_kill_locked(victim);
	memcg_event_locked(group, MEMCG_OOM_GROUP_KILL);
	for (struct cgroup *c = group; c; c = cg_next_pre(c, group)) {
		struct list_head *pos;
		list_for_each(pos, &c->procs) {
			struct proc *p = list_entry(pos, struct proc, cg_link);
			if (p == victim || oom_eligible(p))
				oom_kill_locked(p);
		}
	}
}

int oom_kill_in(struct cgroup *domain)
{
	uint64_t max = __atomic_load_n(&domain->memory.max, __ATOMIC_RELAXED);
	uint64_t pages = domain->parent && max < PAGE_COUNTER_MAX ? max : pmm_managed_pages();
	struct oom_pick pick = { 0 };
	spin_lock(&proc_lock);
	cg_lock();
	for (struct cgroup *c = domain; c; c = cg_next_pre(c, domain)) {
		struct list_head *pos;
		list_for_each(pos, &c->procs)
			oom_consider(&pick, list_entry(pos, struct proc, cg_link), domain, pages);
	}
	int r = pick.waiting ? 0 : pick.victim ? 1 : -ESRCH;
	if (r == 1) {
		struct cgroup *group = oom_group_of(pick.victim, domain);
		if (group)
			oom_kill_group_locked(group, pick.victim);
		else
			oom_kill_locked(pick.victim);
	}
	cg_unlock();
	spin_unlock(&proc_lock);
	return r;
}

uint32_t oom_score_locked(const struct proc *p)
{
	if (!oom_eligible(p))
		return 0;
	int64_t total = (int64_t)pmm_managed_pages();
	int64_t badness = oom_points(p, (uint64_t)total);
	/* Linux's scale: the old 0..1000 range shifted by 1000, times 2/3 */
	int64_t points = (1000 + badness * 1000 / (total ? total : 1)) * 2 / 3;
	return (uint32_t)(points < 0 ? 0 : points);
}

/* Linux's rules (__set_oom_adj): anyone who may write the file may raise
 * the value, or lower it down to the last value root set; going lower
 * takes root, whose writes also set that floor. */
long sys_proc_oom_adj(int pid, int adj, uint32_t writer_euid)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM; /* only procfs speaks for a writer */
	if (adj < OOM_SCORE_ADJ_MIN || adj > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	long r = !p || p == &kernel_proc ? -ESRCH : adj < p->oom_score_adj_min && writer_euid != 0 ? -EACCES : 0;
	if (r == 0) {
		p->oom_score_adj = (int16_t)adj;
		if (writer_euid == 0)
			p->oom_score_adj_min = (int16_t)adj;
	}
	spin_unlock(&proc_lock);
	return r;
}
