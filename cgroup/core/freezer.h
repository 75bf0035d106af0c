/* The cgroup freezer (cgroup/core/freezer.c). */
#ifndef ARBOR_FREEZER_H
#define ARBOR_FREEZER_H

#include "cgroup.h"

struct thread;
struct trap_frame;

/* On the way back to user mode: stop here while the thread's cgroup is
 * frozen (SIGKILL still ends it). */
void freezer_park(struct thread *t, struct trap_frame *tf);
/* A ptrace-stop counts as frozen (Linux's cgroup_enter_frozen in
 * ptrace_stop): enter counts t parked in its cgroup (proc_lock may be
 * held); leave, on resumption (no lock), keeps t parked while its cgroup
 * is frozen, then uncounts it. */
void freezer_stop_enter(struct thread *t);
void freezer_stop_leave(struct thread *t);
/* t, counted parked in was (or not), moves to dst: its count moves with
 * it before the membership changes, so neither side flickers "frozen"
 * (Linux's cgroup_freezer_migrate_task). Returns the reference on was to
 * drop once cg_lock is released, or NULL. cg_lock held. */
struct cgroup *freezer_migrate_locked(struct thread *t, struct cgroup *was, struct cgroup *dst);
/* Sends t to the park point: at its next way back to user mode, and out
 * of a wait it is blocked in. proc_lock held. */
void freezer_kick(struct thread *t);
/* Parked threads look again (after a thaw or a migration). */
void freezer_thaw_wake(void);
/* cgroup.freeze of cg set to on: the threads below stop at their next
 * safe point, or go on (the kernel's cg_hooks->freeze). The same value
 * again does nothing; a change an ancestor's freeze overrides notifies
 * cg's cgroup.events all the same (Linux). */
void freezer_set(struct cgroup *cg, bool on);

#endif
