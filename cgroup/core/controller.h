/* Controllers: each is one file (cgroup/controllers/NAME.c) with one struct
 * cg_controller: its interface files, the state it keeps per cgroup and
 * the callbacks the core calls. The registry (cgroup/controllers/registry.c) lists
 * them in Linux's subsystem order, which is the order cgroup.controllers
 * shows. A controller's files appear in a cgroup when the controller is in
 * its parent's cgroup.subtree_control. (The parts of a cgroup that the
 * scheduler and the page allocator reach on every switch and every page
 * are embedded in struct cgroup itself; the controller that is their
 * interface sets them up in its create hook.) */
#ifndef ARBOR_CG_CONTROLLER_H
#define ARBOR_CG_CONTROLLER_H

#include "cgfs.h"

struct cg_controller {
	const char *name;
	uint32_t bit;			/* CG_BIT(its index in the registry), set by cg_init */
	bool threaded;			/* allowed inside threaded subtrees */
	const struct cftype *files;
	unsigned nfiles;
	/* Files every cgroup has, whether or not the controller is enabled
	 * (Linux's cpu.stat and the *.pressure files, which the cpu
	 * controller, the scheduler's interface, serves). Listed after the
	 * core's cgroup.* files, in registry order. */
	const struct cftype *core_files;
	unsigned ncore_files;
	/* Its state in every cgroup: state_size zeroed bytes (0: none) that
	 * state_init (optional) fills in: 0, or -ENOMEM for what it could
	 * not allocate (the cgroup is not made; state_free still runs);
	 * freed with the cgroup. */
	size_t state_size;
	int (*state_init)(void *state);
	/* Frees what the state points to (optional), before the state goes. */
	void (*state_free)(void *state);
	/* cg was just made (the root too), its state allocated, cg->parent
	 * set and linked, not yet visible to lookups: set up the controller's
	 * owner's part embedded in struct cgroup (cg_lock held; must not
	 * sleep or fail). Optional. */
	void (*create)(struct cgroup *cg);
	/* What a child's state of this controller costs its parent while the
	 * parent passes the controller on to it: Linux charges a new memory
	 * cgroup's state to the parent (a mkdir or a subtree_control write
	 * the parent cannot pay for is ENOMEM). child_bytes (0: nothing)
	 * and charge_parent, which charges parent bytes (> 0: 0 or
	 * -ENOMEM; may reclaim, so no spinlock held) or uncharges -bytes
	 * (< 0: never fails). At most one controller has them
	 * (cg_registry_init refuses a second). Optional. */
	uint64_t child_bytes;
	int (*charge_parent)(struct cgroup *parent, int64_t bytes);
	/* cg lost its last reference: whether the controller keeps it
	 * (dying, in the tree's counts) a while longer, as memory does for
	 * pages still charged to it; if so it calls cg_unkept(cg) exactly
	 * once when done. At most one controller has this hook (a second
	 * would need a count: cg_registry_init refuses it). Optional. */
	bool (*keep)(struct cgroup *cg);
	/* cg is being freed, before its state goes: let go of what the
	 * state holds on to. Optional. */
	void (*release)(struct cgroup *cg);
	/* cg was removed (rmdir): let go of what must not outlive that. */
	void (*offline)(struct cgroup *cg);
	/* The parent stopped passing the controller on to cg: its knobs go
	 * back to their defaults (cg_lock held; must not sleep). */
	void (*disable)(struct cgroup *cg);
	/* Whether threads may move from src into dst: 0 or -errno, before
	 * anything moves (cg_lock held). Optional: none vetoes today. */
	int (*can_attach)(struct cgroup *src, struct cgroup *dst);
	/* A new thread in cg (fork, thread creation): 0 or -EAGAIN etc.
	 * (cg_lock held); undone by thread_uncharge when the thread is gone,
	 * which runs without cg_lock (from the scheduler): it must be atomic. */
	int (*thread_charge)(struct cgroup *cg);
	void (*thread_uncharge)(struct cgroup *cg);
	/* A thread moves from src to dst (migration never fails). cg_lock held. */
	void (*thread_move)(struct cgroup *src, struct cgroup *dst);
	/* The parent stopped passing the controller on, but another it
	 * passes on depends on it: the state stays, its files go, and its
	 * limits go back to their defaults (Linux's css_reset). Optional. */
	void (*reset)(struct cgroup *cg);
	/* The controller whose state a cgroup has wherever this one is
	 * passed on, files or not (Linux's depends_on: io needs memory for
	 * cgroup writeback), by name; NULL: none. */
	const char *depends_on;
};

extern struct cg_controller *const cg_controllers[];
extern const unsigned cg_nr_controllers;

/* The bit of controller c in subtree_control masks. */
#define CG_BIT(i) (1u << (i))

/* Controller c's state in cg. */
static inline void *cg_state(const struct cgroup *cg, const struct cg_controller *c)
{
	return cg->cstate[__builtin_ctz(c->bit)];
}

/* Numbers the registry's controllers (their bits); cg_init calls it. */
void cg_registry_init(void);
/* Every controller's state for a new cgroup: 0 or -ENOMEM (nothing left
 * allocated); freed with it. */
int cg_states_alloc(struct cgroup *cg);
void cg_states_free(struct cgroup *cg);
/* Every controller's create hook, for a cgroup just made. cg_lock held
 * (not for the root, at boot). */
void cg_controllers_create(struct cgroup *cg);
/* Whether a controller keeps cg past its last reference (keep hooks). */
bool cg_controllers_keep(struct cgroup *cg);
/* Every controller's release hook, for a cgroup being freed. */
void cg_controllers_release(struct cgroup *cg);
/* Every controller's offline hook, for a cgroup just removed. */
void cg_controllers_offline(struct cgroup *cg);
/* The disable hooks of the controllers in mask, for each child of
 * parent (which just stopped passing them on). cg_lock held. */
void cg_controllers_disable(struct cgroup *parent, uint32_t mask);
/* The reset hooks of the controllers in mask, for each child of parent.
 * cg_lock held. */
void cg_controllers_reset(struct cgroup *parent, uint32_t mask);
/* mask with the controllers its controllers depend on (depends_on):
 * those whose state children keep, as Linux's subtree_ss_mask. */
uint32_t cg_controllers_effective(uint32_t mask);
/* The parent's charge for its children's states (child_bytes above),
 * kept so that a parent pays exactly for the children it passes the
 * controller on to (cgroup.parent_paid). cg_lock held for the _locked
 * ones. cg_parent_owed_locked: the bytes child's parent must still be
 * charged (> 0) or would get back (< 0) if its subtree_control were
 * mask. cg_parent_settle_locked: records child as paid for (or not) per
 * mask, taking what that costs from *prepaid (bytes already charged to
 * the parent) or adding the refund to it; the caller charges before
 * (cg_parent_charge, with the lock dropped) and gives back what is left
 * of *prepaid after unlocking. cg_new_child_owed_locked: what a new
 * child of parent will cost it. cg_parent_charge: the charge itself
 * (bytes > 0: 0 or -ENOMEM; < 0: an uncharge); no lock held. */
int64_t cg_parent_owed_locked(const struct cgroup *child, uint32_t mask);
void cg_parent_settle_locked(struct cgroup *child, uint32_t mask, int64_t *prepaid);
int64_t cg_new_child_owed_locked(const struct cgroup *parent);
int cg_parent_charge(struct cgroup *parent, int64_t bytes);
/* cg is being freed: its parent's charge for it goes. */
void cg_parent_release(struct cgroup *cg);
/* Every controller's can_attach, src to dst: 0 or the first veto. */
int cg_can_attach(struct cgroup *src, struct cgroup *dst);

/* Controllers available in cg (cgroup.controllers): all at the root, the
 * parent's subtree_control elsewhere (its threaded ones in a threaded
 * cgroup). */
uint32_t cg_available(const struct cgroup *cg);
/* The controllers that are not threaded (no-internal-process rule), and
 * the ones that are. */
uint32_t cg_domain_mask(void);
uint32_t cg_threaded_mask(void);

/* Hooks for the kernel: charge a new thread to every controller (undone
 * in full if one refuses), release it, move one. */
int cg_thread_charge(struct cgroup *cg);
void cg_thread_uncharge(struct cgroup *cg);
void cg_thread_move(struct cgroup *src, struct cgroup *dst);

#endif
