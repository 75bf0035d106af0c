/* The hooks that run every registered controller (cgroup/controllers/registry.c). */
#include "controller.h"
#include "abi/errno.h"
#include "heap.h"
#include "kstring.h"
#include "panic.h"

_Static_assert(CG_CONTROLLERS_MAX <= 32, "controller bits fit a word");

/* The hooks that run at every mkdir, rmdir and free, gathered at boot in
 * registry order, so those paths call them without visiting the
 * controllers that have none. */
typedef void (*cg_hook_fn)(struct cgroup *cg);
static cg_hook_fn cg_create_fns[CG_CONTROLLERS_MAX], cg_release_fns[CG_CONTROLLERS_MAX],
	cg_offline_fns[CG_CONTROLLERS_MAX];
static unsigned cg_nr_create, cg_nr_release, cg_nr_offline;
static bool (*cg_keep_fn)(struct cgroup *cg);
static const struct cg_controller *cg_payer; /* the one with child_bytes, if any */
/* Where each controller's state sits in a cgroup's block of states, and
 * the block's size: laid out once, at boot, not at every mkdir. */
static size_t cg_state_off[CG_CONTROLLERS_MAX], cg_states_size;
static void cg_states_layout(void);

void cg_registry_init(void)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		struct cg_controller *c = cg_controllers[i];
		c->bit = CG_BIT(i);
		if (c->create)
			cg_create_fns[cg_nr_create++] = c->create;
		if (c->release)
			cg_release_fns[cg_nr_release++] = c->release;
		if (c->offline)
			cg_offline_fns[cg_nr_offline++] = c->offline;
		if (c->keep && cg_keep_fn)
			panic("two controllers keep cgroups: keep needs a count");
		if (c->keep)
			cg_keep_fn = c->keep;
		if (c->child_bytes && cg_payer)
			panic("two controllers charge parents: cg_parent_* needs a balance each");
		if (c->child_bytes)
			cg_payer = c;
	}
	cg_states_layout();
}

#define CG_STATE_ALIGN 16

static size_t cg_state_span(const struct cg_controller *c)
{
	return (c->state_size + CG_STATE_ALIGN - 1) & ~(size_t)(CG_STATE_ALIGN - 1);
}

static void cg_states_layout(void)
{
	cg_states_size = 0;
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		cg_state_off[i] = cg_states_size;
		cg_states_size += cg_state_span(cg_controllers[i]);
	}
}

/* Every controller's state, in one block: one allocation per mkdir, not
 * one per controller. */
int cg_states_alloc(struct cgroup *cg)
{
	char *block = cg_states_size ? kzalloc(cg_states_size) : NULL;
	if (cg_states_size && !block)
		return -ENOMEM;
	cg->state_block = block;
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		if (!c->state_size)
			continue;
		cg->cstate[i] = block + cg_state_off[i];
		if (c->state_init && c->state_init(cg->cstate[i]))
			return -ENOMEM; /* the caller's cg_states_free undoes it */
	}
	return 0;
}

void cg_states_free(struct cgroup *cg)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		if (cg->cstate[i] && cg_controllers[i]->state_free)
			cg_controllers[i]->state_free(cg->cstate[i]);
		cg->cstate[i] = NULL;
	}
	kfree(cg->state_block);
	cg->state_block = NULL;
}

void cg_controllers_create(struct cgroup *cg)
{
	for (unsigned i = 0; i < cg_nr_create; i++)
		cg_create_fns[i](cg);
}

bool cg_controllers_keep(struct cgroup *cg)
{
	return cg_keep_fn && cg_keep_fn(cg);
}

void cg_controllers_release(struct cgroup *cg)
{
	for (unsigned i = 0; i < cg_nr_release; i++)
		cg_release_fns[i](cg);
}

void cg_controllers_offline(struct cgroup *cg)
{
	for (unsigned i = 0; i < cg_nr_offline; i++)
		cg_offline_fns[i](cg);
}

void cg_controllers_disable(struct cgroup *parent, uint32_t mask)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		if (!(mask & c->bit) || !c->disable)
			continue;
		struct list_head *pos;
		list_for_each(pos, &parent->children)
			c->disable(list_entry(pos, struct cgroup, sibling));
	}
}

void cg_controllers_reset(struct cgroup *parent, uint32_t mask)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		if (!(mask & c->bit) || !c->reset)
			continue;
		struct list_head *pos;
		list_for_each(pos, &parent->children)
			c->reset(list_entry(pos, struct cgroup, sibling));
	}
}

uint32_t cg_controllers_effective(uint32_t mask)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		if (!(mask & c->bit) || !c->depends_on)
			continue;
		for (unsigned j = 0; j < cg_nr_controllers; j++)
			if (!strcmp(cg_controllers[j]->name, c->depends_on))
				mask |= cg_controllers[j]->bit;
	}
	return mask;
}

int64_t cg_parent_owed_locked(const struct cgroup *child, uint32_t mask)
{
	const struct cg_controller *c = cg_payer;
	if (!c)
		return 0;
	/* as cg_available, with mask for the parent's subtree_control */
	bool want = (cg_is_threaded(child) ? mask & cg_threaded_mask() : mask) & c->bit;
	bool paid = child->parent_paid & c->bit;
	return want == paid ? 0 : want ? (int64_t)c->child_bytes : -(int64_t)c->child_bytes;
}

void cg_parent_settle_locked(struct cgroup *child, uint32_t mask, int64_t *prepaid)
{
	int64_t owed = cg_parent_owed_locked(child, mask);
	if (!owed)
		return;
	*prepaid -= owed;
	child->parent_paid ^= cg_payer->bit;
}

int64_t cg_new_child_owed_locked(const struct cgroup *parent)
{
	/* a new child is a domain (cg_init_common) */
	return cg_payer && (parent->subtree_control & cg_payer->bit) ? (int64_t)cg_payer->child_bytes : 0;
}

int cg_parent_charge(struct cgroup *parent, int64_t bytes)
{
	return bytes ? cg_payer->charge_parent(parent, bytes) : 0;
}

void cg_parent_release(struct cgroup *cg)
{
	/* freed: no lock needed, nothing else reaches cg */
	if (cg_payer && (cg->parent_paid & cg_payer->bit)) {
		cg->parent_paid &= ~cg_payer->bit;
		cg_payer->charge_parent(cg->parent, -(int64_t)cg_payer->child_bytes);
	}
}

int cg_can_attach(struct cgroup *src, struct cgroup *dst)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		int err = c->can_attach ? c->can_attach(src, dst) : 0;
		if (err)
			return err;
	}
	return 0;
}

uint32_t cg_domain_mask(void)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < cg_nr_controllers; i++)
		if (!cg_controllers[i]->threaded)
			m |= cg_controllers[i]->bit;
	return m;
}

uint32_t cg_threaded_mask(void)
{
	return ~cg_domain_mask() & (CG_BIT(cg_nr_controllers) - 1);
}

uint32_t cg_available(const struct cgroup *cg)
{
	uint32_t avail = cg->parent ? cg->parent->subtree_control : CG_BIT(cg_nr_controllers) - 1;
	return cg_is_threaded(cg) ? avail & cg_threaded_mask() : avail;
}

int cg_thread_charge(struct cgroup *cg)
{
	cg_lock();
	unsigned i = 0;
	int err = 0;
	for (; i < cg_nr_controllers && !err; i++)
		if (cg_controllers[i]->thread_charge)
			err = cg_controllers[i]->thread_charge(cg);
	cg_unlock();
	if (err) /* undo the ones that took it; i - 1 refused */
		for (unsigned k = 0; k + 1 < i; k++)
			if (cg_controllers[k]->thread_uncharge)
				cg_controllers[k]->thread_uncharge(cg);
	return err;
}

void cg_thread_uncharge(struct cgroup *cg)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) /* lock-free: see controller.h */
		if (cg_controllers[i]->thread_uncharge)
			cg_controllers[i]->thread_uncharge(cg);
}

void cg_thread_move(struct cgroup *src, struct cgroup *dst)
{
	cg_lock();
	for (unsigned i = 0; i < cg_nr_controllers; i++)
		if (cg_controllers[i]->thread_move)
			cg_controllers[i]->thread_move(src, dst);
	cg_unlock();
}
