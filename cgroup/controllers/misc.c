/* The misc controller: scalar resources of a fixed capacity that a
 * subsystem hands out one by one, counted per cgroup and limited per
 * cgroup, as Linux's kernel/cgroup/misc.c (which counts AMD SEV address
 * space ids and the like). Arbor's one resource is "ipc_names", the
 * slots of the kernel's table of published IPC names (IPC_NAMES_MAX):
 * a cgroup at its misc.max cannot take the names every client looks up
 * ("vfs", "console", ...) away from the rest of the system.
 *
 * Files (docs/cgroups.md, "misc"), as Linux 6.10's: misc.capacity (the
 * root only), misc.current and misc.peak (the root too), misc.max,
 * misc.events and misc.events.local (not on the root); a resource is
 * listed when its capacity is not 0 (reads list it also when its count
 * is not 0, as Linux). A charge goes to the holder's nearest cgroup the
 * controller is enabled in and up (misc.h); a cgroup where it is not
 * enabled counts nothing, as Linux has no css there. misc.max applies
 * whether or not children pass the controller on. Charges stay where they
 * were made when their holder moves (Linux: the same). */
#include "controller.h"
#include "misc.h"
#include "abi/errno.h"
#include "ipc.h"
#include "kstring.h"

#define MISC_MAX UINT64_MAX	/* "max": no limit (Linux's MAX_NUM, ULONG_MAX) */

extern struct cg_controller cg_misc;

/* Per resource and cgroup: units charged here and below, the limit, the
 * highest usage seen, charges refused here or below / here. */
struct misc_res {
	uint64_t usage, max, peak;
	uint64_t events, events_local;
};

struct misc_state {
	struct misc_res res[MISC_CG_RES_TYPES];
};

static int misc_state_init(void *state)
{
	struct misc_state *m = state;
	for (int i = 0; i < MISC_CG_RES_TYPES; i++)
		m->res[i].max = MISC_MAX;
	return 0;
}

/* LAB 04 BEGIN */
static const char *const misc_res_name[MISC_CG_RES_TYPES] = {
	[MISC_CG_RES_IPC_NAMES] = "ipc_names",
};

static struct misc_state *misc_of(const struct cgroup *cg)
{
	return cg_state(cg, &cg_misc);
}

/* The system's capacity of each resource; 0: not on this machine (its
 * files do not list it). */
static const uint64_t misc_res_capacity[MISC_CG_RES_TYPES] = {
	[MISC_CG_RES_IPC_NAMES] = IPC_NAMES_MAX,
};

/* The cgroup a process of cg charges: the nearest one the controller is
 * enabled in (its parent passes it on), or the root. cg_lock held. */
static struct cgroup *misc_effective(struct cgroup *cg)
{
	while (cg->parent && !(cg->parent->subtree_control & cg_misc.bit))
		cg = cg->parent;
	return cg;
}

static void misc_cancel(enum misc_res_type type, struct cgroup *from, struct cgroup *upto, uint64_t amount)
{
	for (struct cgroup *c = from; c != upto; c = c->parent)
		__atomic_sub_fetch(&misc_of(c)->res[type].usage, amount, __ATOMIC_RELAXED);
}

int misc_cg_try_charge(enum misc_res_type type, struct cgroup *cg, uint64_t amount, struct cgroup **charged)
{
	if ((unsigned)type >= MISC_CG_RES_TYPES)
		return -EINVAL;
	cg_lock();
	struct cgroup *eff = misc_effective(cg);
	for (struct cgroup *c = eff; c; c = c->parent) {
		struct misc_res *r = &misc_of(c)->res[type];
		uint64_t now = __atomic_add_fetch(&r->usage, amount, __ATOMIC_RELAXED);
		if (now > r->max || now > misc_res_capacity[type]) {
			/* Linux's order: events up from the one refusing, then the
			 * charges so far taken back (peaks below it stay raised) */
			r->events_local++;
			cg_notify_locked(c, CG_NOTIFY_MISC_EVENTS_LOCAL);
			for (struct cgroup *a = c; a; a = a->parent) {
				misc_of(a)->res[type].events++;
				cg_notify_locked(a, CG_NOTIFY_MISC_EVENTS);
			}
			misc_cancel(type, eff, c->parent, amount);
			cg_unlock();
			return -EBUSY;
		}
		if (now > r->peak)
			r->peak = now;
	}
	cg_get(eff);
	cg_unlock();
	*charged = eff;
	return 0;
}

void misc_cg_uncharge(enum misc_res_type type, struct cgroup *charged, uint64_t amount)
{
	misc_cancel(type, charged, NULL, amount);
	cg_put(charged);
}

/* Whether file texts list resource i of cg: its capacity is not 0, or
 * the count shown is not (as Linux). */
static bool misc_listed(int i, uint64_t shown)
{
	return misc_res_capacity[i] || shown;
}

static int misc_show_max(struct cgroup *cg, struct cgfs_buf *out)
{
	for (int i = 0; i < MISC_CG_RES_TYPES; i++) {
		uint64_t max = misc_of(cg)->res[i].max;
		if (!misc_res_capacity[i])
			continue;
		if (max == MISC_MAX)
			cgfs_printf(out, "%s max\n", misc_res_name[i]);
		else
			cgfs_printf(out, "%s %llu\n", misc_res_name[i], (unsigned long long)max);
	}
	return 0;
}

/* "NAME max" or "NAME N" (N as kstrtoul reads it, base 0), the text
 * stripped: Linux's misc_cg_max_write. The name is checked before the
 * number. */
static int misc_write_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)w;
	char *value = strchr(text, ' ');
	if (!value)
		return -EINVAL;
	*value++ = '\0';
	int type = -1;
	for (int i = 0; i < MISC_CG_RES_TYPES; i++)
		if (strcmp(misc_res_name[i], text) == 0)
			type = i;
	if (type < 0)
		return -EINVAL;
	uint64_t max = MISC_MAX;
	if (strcmp(value, "max") != 0) {
		int err = cgfs_parse_u64(value, &max);
		if (err)
			return err; /* -EINVAL junk (a second blank too), -ERANGE past 64 bits */
	}
	if (!misc_res_capacity[type])
		return -EINVAL;
	cg_lock();
	misc_of(cg)->res[type].max = max;
	cg_unlock();
	return 0;
}

/* Prints "NAME N" for each listed resource, N the field at offset off of
 * its struct misc_res; suffix after the name (".max" for the events). */
static void misc_show_field(struct cgroup *cg, struct cgfs_buf *out, size_t off, const char *suffix)
{
	for (int i = 0; i < MISC_CG_RES_TYPES; i++) {
		const uint64_t *f = (const uint64_t *)((const char *)&misc_of(cg)->res[i] + off);
		uint64_t v = __atomic_load_n(f, __ATOMIC_RELAXED);
		if (misc_listed(i, v))
			cgfs_printf(out, "%s%s %llu\n", misc_res_name[i], suffix, (unsigned long long)v);
	}
}

static int misc_show_current(struct cgroup *cg, struct cgfs_buf *out)
{
	misc_show_field(cg, out, offsetof(struct misc_res, usage), "");
	return 0;
}

static int misc_show_peak(struct cgroup *cg, struct cgfs_buf *out)
{
	misc_show_field(cg, out, offsetof(struct misc_res, peak), "");
	return 0;
}

static int misc_show_events(struct cgroup *cg, struct cgfs_buf *out)
{
	misc_show_field(cg, out, offsetof(struct misc_res, events), ".max");
	return 0;
}

static int misc_show_events_local(struct cgroup *cg, struct cgfs_buf *out)
{
	misc_show_field(cg, out, offsetof(struct misc_res, events_local), ".max");
	return 0;
}

static int misc_show_capacity(struct cgroup *cg, struct cgfs_buf *out)
{
	(void)cg;
	for (int i = 0; i < MISC_CG_RES_TYPES; i++)
		if (misc_res_capacity[i])
			cgfs_printf(out, "%s %llu\n", misc_res_name[i], (unsigned long long)misc_res_capacity[i]);
	return 0;
}

/* The parent stopped passing misc on: Linux frees that css, and a new one
 * starts at "max"; charges made there stay until given back. */
static void misc_disable(struct cgroup *cg)
{
	for (int i = 0; i < MISC_CG_RES_TYPES; i++)
		misc_of(cg)->res[i].max = MISC_MAX;
}

/* Linux's order (kernel/cgroup/misc.c's misc_cg_files) */
static const struct cftype misc_files[] = {
	{ .name = "misc.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT, .show = misc_show_max, .write = misc_write_max },
	{ .name = "misc.current", .mode = 0444, .show = misc_show_current },
	{ .name = "misc.peak", .mode = 0444, .show = misc_show_peak },
	{ .name = "misc.capacity", .mode = 0444, .flags = CFT_ONLY_ON_ROOT, .show = misc_show_capacity },
	{ .name = "misc.events", .mode = 0444, .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_MISC_EVENTS),
	  .show = misc_show_events },
	{ .name = "misc.events.local", .mode = 0444,
	  .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_MISC_EVENTS_LOCAL), .show = misc_show_events_local },
};

struct cg_controller cg_misc = {
	.name = "misc",
	.files = misc_files,
	.nfiles = ARRAY_SIZE(misc_files),
	.state_size = sizeof(struct misc_state),
	.state_init = misc_state_init,
	.disable = misc_disable,
};
/* LAB 04 STUB
int misc_cg_try_charge(enum misc_res_type type, struct cgroup *cg, uint64_t amount, struct cgroup **charged)
{
	(void)type;
	(void)amount;
	cg_get(cg);
	*charged = cg;
	return 0;
}

void misc_cg_uncharge(enum misc_res_type type, struct cgroup *charged, uint64_t amount)
{
	(void)type;
	(void)amount;
	cg_put(charged);
}

struct cg_controller cg_misc = {
	.name = "misc",
	.state_size = sizeof(struct misc_state),
	.state_init = misc_state_init,
};
LAB 04 END */
