/* CPU pressure triggers (a write of "some|full STALL WINDOW" to a
 * cpu.pressure file), as Linux's PSI monitors.
 *
 * A trigger fires when the cgroup's stall time of its kind grew by at
 * least `stall` ns within any `window` ns. The window moves with time:
 * it is tracked as the growth since the current window began plus the
 * previous window's growth, weighted by the part of the previous window
 * still inside the moving one (Linux's estimate). Triggers are checked
 * every tick, only when the stall grew since the last check, and fire at
 * most once per window; the open file's poll reports POLLPRI once per
 * firing. The list is empty on most systems: the tick then costs one
 * test. All under sched_lock. */
#include "sched.h"
#include "heap.h"
#include "poll.h"
#include "timer.h"

struct psi_trigger {
	struct list_head link;
	struct sched_psi *psi;		/* the group's; the open file holds its cgroup */
	int kind;			/* 0: some, 1: full */
	uint64_t stall, window;		/* ns */
	uint64_t win_start, win_value;	/* when the window began, the total then */
	uint64_t prev_growth;		/* the growth in the window before */
	uint64_t last_total;		/* at the last check */
	uint64_t last_event;		/* when it last fired (0: never) */
	bool event;			/* fired, not yet seen by poll */
};

static struct list_head psi_triggers = LIST_HEAD_INIT(psi_triggers);

struct psi_trigger *sched_psi_trigger_new(const struct sched_group *g, int kind, uint64_t stall_ns,
					  uint64_t window_ns)
{
	struct psi_trigger *t = kzalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->psi = g->psi;
	t->kind = kind;
	t->stall = stall_ns;
	t->window = window_ns;
	uint64_t f = spin_lock_irqsave(&sched_lock);
	t->win_start = clock_ns();
	t->win_value = t->last_total = sched_psi_total_locked(t->psi, kind, t->win_start);
	list_add_tail(&t->link, &psi_triggers);
	spin_unlock_irqrestore(&sched_lock, f);
	return t;
}

void sched_psi_trigger_free(struct psi_trigger *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	list_del(&t->link);
	spin_unlock_irqrestore(&sched_lock, f);
	kfree(t);
}

bool sched_psi_trigger_fired(struct psi_trigger *t)
{
	uint64_t f = spin_lock_irqsave(&sched_lock);
	bool fired = t->event;
	t->event = false;
	spin_unlock_irqrestore(&sched_lock, f);
	return fired;
}

/* The stall growth within the window ending now (in µs for the product:
 * windows up to 10 s keep it far from overflow). */
static uint64_t trigger_growth(struct psi_trigger *t, uint64_t total, uint64_t now)
{
	uint64_t elapsed = now - t->win_start;
	if (elapsed >= t->window) {
		/* a window that ended over a window ago left no growth inside */
		t->prev_growth = elapsed < 2 * t->window ? total - t->win_value : 0;
		t->win_start = now;
		t->win_value = total;
		elapsed = 0;
	}
	uint64_t left_us = (t->window - elapsed) / 1000, window_us = t->window / 1000;
	return total - t->win_value + t->prev_growth / 1000 * left_us / window_us * 1000;
}

static void trigger_check(struct psi_trigger *t, uint64_t now)
{
	uint64_t total = sched_psi_total_locked(t->psi, t->kind, now);
	bool grew = total != t->last_total;
	t->last_total = total;
	uint64_t growth = trigger_growth(t, total, now);
	if (!grew || growth < t->stall)
		return;
	if (t->last_event && now - t->last_event < t->window)
		return;
	t->event = true;
	t->last_event = now;
	pollq_wake_locked(&psi_trigger_pollq); /* sched_lock held: the tick */
}

void sched_psi_trigger_tick(uint64_t now)
{
	struct list_head *pos;
	list_for_each(pos, &psi_triggers)
		trigger_check(list_entry(pos, struct psi_trigger, link), now);
}
