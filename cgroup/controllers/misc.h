/* The misc controller's interface for the kernel (cgroup/controllers/misc.c):
 * scalar resources of a fixed, system-wide capacity, counted per cgroup
 * and limited by misc.max, as Linux's kernel/cgroup/misc.c. A subsystem
 * charges each unit it hands out and uncharges it from the same cgroup
 * when it is given back, wherever its holder has moved since. */
#ifndef ARBOR_CG_MISC_H
#define ARBOR_CG_MISC_H

#include "types.h"

struct cgroup;

/* The resources, and their names in the misc.* files. */
enum misc_res_type {
	MISC_CG_RES_IPC_NAMES,	/* "ipc_names": published IPC names (kernel/ipc/names.c) */
	MISC_CG_RES_TYPES
};

/* Charges amount units of type for a process of cgroup cg: to the
 * nearest of cg and its ancestors the controller is enabled in (the root
 * if none, as Linux charges a task's misc css) and every ancestor of
 * that one. 0, with *charged that cgroup (a reference: hand it to
 * misc_cg_uncharge); -EBUSY if a cgroup on the way would go over its
 * misc.max or the capacity (nothing charged; misc.events of that one and
 * each ancestor count one, misc.events.local of that one); -EINVAL for
 * an unknown type. Takes cg_lock. */
int misc_cg_try_charge(enum misc_res_type type, struct cgroup *cg, uint64_t amount, struct cgroup **charged);

/* Gives back amount units of type charged to charged (and its
 * ancestors) by misc_cg_try_charge, and its reference. Lock-free: any
 * context where cg_put may run. */
void misc_cg_uncharge(enum misc_res_type type, struct cgroup *charged, uint64_t amount);

#endif
