/* The cgroup object: one node of Arbor's single unified hierarchy.
 *
 * The scheduler and the page allocator are built around it: each cgroup
 * embeds the scheduler's part (its group: entity, run queue, weight,
 * limit, pressure; sched_group.h) and the memory code's (its hierarchical
 * page counter; page_counter.h), which only their owners touch. Every
 * process is in exactly one cgroup; children are born in their parent's.
 * This header is the kernel-side core; the cgroup file system (cgfs,
 * cgroup/fs) translates to it. Builds for the host as well. */
#ifndef ARBOR_CGROUP_H
#define ARBOR_CGROUP_H

#include "list.h"
#include "page_counter.h"
#include "rbtree.h"
#include "sched_group.h"
#include "types.h"

#define CG_NAME_MAX 255
#define CG_NAME_INLINE 64
#define CG_WEIGHT_DEFAULT 100
#define CG_WEIGHT_MIN 1
#define CG_WEIGHT_MAX 10000
#define CG_MAX_UNLIMITED 0x7fffffffu	/* INT_MAX: "max" */
#define CG_CONTROLLERS_MAX 8		/* room in the registry */

/* The files that notify a change (poll wakes with POLLPRI|POLLERR,
 * inotify reports IN_MODIFY): each has its own change count. */
enum cg_notify_file {
	CG_NOTIFY_EVENTS,		/* cgroup.events */
	CG_NOTIFY_PIDS_EVENTS,		/* pids.events */
	CG_NOTIFY_PIDS_EVENTS_LOCAL,	/* pids.events.local */
	CG_NOTIFY_MEMORY_EVENTS,	/* memory.events */
	CG_NOTIFY_MEMORY_EVENTS_LOCAL,	/* memory.events.local */
	CG_NOTIFY_MISC_EVENTS,		/* misc.events */
	CG_NOTIFY_MISC_EVENTS_LOCAL,	/* misc.events.local */
	CG_NOTIFY_CPUSET_PARTITION,	/* cpuset.cpus.partition */
	CG_NOTIFY_FILES
};

/* An interface file whose owner or mode was changed (chown/chmod). */
struct cg_file_attr {
	struct cg_file_attr *next;
	const void *cft;		/* which file (its struct cftype) */
	uint32_t uid, gid;
	uint16_t mode;
};

struct memcg_pcache;
struct memcg_stats_pcpu;

struct cgroup {
	struct cgroup *parent;
	struct list_head children;	/* child cgroups, in creation (id) order */
	struct list_head sibling;	/* in parent->children */
	struct rb_root children_by_name;	/* the same, for lookups by name */
	struct rb_node name_node;	/* in parent->children_by_name */
	struct rb_root children_by_id;	/* and by id, for listings that resume */
	struct rb_node id_node;		/* in parent->children_by_id */
	struct list_head watches;	/* inotify watches on its files */
	struct list_head procs;		/* processes whose resource domain this is */
	struct list_head threads;	/* live threads in this cgroup */
	uint32_t nr_threads;		/* their number: "has tasks" */
	/* children with a live thread in their subtree, domain and threaded */
	uint32_t nr_populated_domain_children, nr_populated_threaded_children;
	/* thread mode: the resource domain (itself unless threaded; then the
	 * nearest domain ancestor, the thread root) and threaded children */
	uint32_t nr_threaded_children;
	struct cgroup *dom;
	/* bumped when a file that notifies changes (poll, inotify) */
	uint64_t notify_seq[CG_NOTIFY_FILES];
	uint32_t nr_children;
	uint32_t level;			/* root is 0 */
	uint32_t refcount;		/* the tree's reference + lookups in flight */
	uint64_t id;
	bool dead;			/* removed; waiting for its last reference */
	bool pressure_off;		/* cgroup.pressure 0: no *.pressure files */
	char *name;			/* "" for the root; name_buf or kmalloc'd */

	/* cgroup.stat and the cgroup.max.* limits (CG_MAX_UNLIMITED: "max") */
	uint32_t nr_descendants, nr_dying_descendants;
	uint32_t max_depth, max_descendants;
	/* owner of its directory (delegation); its files belong to whoever
	 * made it (file_uid, file_gid) unless chown/chmod changed one, which
	 * attrs records */
	uint32_t uid, gid;
	uint16_t mode;			/* its directory's permission bits */
	uint32_t file_uid, file_gid;
	struct cg_file_attr *attrs;
	/* Linux makes a controller's files when the parent's subtree_control
	 * enables it, owned by that writer: bit i of ctl_owned says
	 * ctl_owner[i] owns controller i's files here */
	uint32_t ctl_owned;
	struct { uint32_t uid, gid; } ctl_owner[CG_CONTROLLERS_MAX];
	/* controllers enabled for its children (cgroup.subtree_control) */
	uint32_t subtree_control;
	/* controllers whose state here the parent is charged for
	 * (controller.h: child_bytes; memory's, as Linux's memcg) */
	uint32_t parent_paid;

	/* freezer: its own cgroup.freeze, whether it or an ancestor freezes,
	 * whether every thread below is parked (cgroup.events "frozen"), and
	 * how many threads below are parked */
	bool freeze, e_freeze, frozen;
	uint64_t nr_parked;

	/* live threads here and below (what "frozen" waits for) */
	uint64_t nr_threads_tree;

	/* each controller's own state (cg_state), by registry index */
	void *cstate[CG_CONTROLLERS_MAX];
	/* a name shorter than this stays in place (no allocation); the
	 * struct still fits one 1 KiB heap object */
	char name_buf[CG_NAME_INLINE];

	void *state_block;		/* the block of the controllers' states (cg_states_alloc) */

	/* The owners' parts, embedded because their hot paths (a page
	 * charge, a context switch) reach them from the cgroup without a
	 * pointer hop; only each owner reads or writes inside its part, and
	 * a controller's create hook sets it up (controller.h). */
	/* the memory code's (memcg.h): pages charged by this subtree, and
	 * whether it keeps the cgroup past its last reference for them */
	struct page_counter memory;
	bool mem_kept;
	/* the page cache's LRU lists and counts here, made with the first
	 * page cache page (memcg_pcache_of) and freed with the cgroup */
	struct memcg_pcache *mem_pcache;
	/* its memory.stat counters (per CPU: memory_state.stats, copied here
	 * by the create hook so a charge reaches them in one load) */
	struct memcg_stats_pcpu *mem_stats;
	struct sched_group sched;	/* the scheduler's: entity, queue, weight, cpu.max, pressure (sched_group.h) */
};

extern struct cgroup cg_root;

struct cg_hooks;
/* What the core asks of the kernel around it (hooks.h), set by cg_init. */
extern const struct cg_hooks *cg_hooks;

/* Sets up the root cgroup and the controllers' registry; hooks (never
 * NULL, nor any of its functions) is how the core reaches the tasks and
 * the files' watchers from then on. */
void cg_init(const struct cg_hooks *hooks);
/* New child of parent named name: 0, -EEXIST, -EINVAL (bad name), -ENOMEM,
 * -ENODEV (parent removed), -EAGAIN (an ancestor's cgroup.max.depth or
 * cgroup.max.descendants would be exceeded). */
int cg_create(struct cgroup *parent, const char *name, struct cgroup **out);
/* Remove an empty cgroup: 0, -EBUSY (has processes or children), -EINVAL
 * (root). The memory is freed with its last reference. */
int cg_destroy(struct cgroup *cg);
/* cg_destroy in two halves, for a caller that must hold an outer lock
 * while cg is checked and marked removed (cgfs's rmdir: proc_lock, as
 * migrations check their destination under it) but not while its
 * controllers let go of it: begin returns what cg_destroy would and, on
 * 0, leaves cg out of the tree; end (only after a begin gave 0, without
 * that lock) takes its controllers offline and drops the tree's
 * reference. */
int cg_destroy_begin(struct cgroup *cg);
void cg_destroy_end(struct cgroup *cg);
struct cgroup *cg_find_child(struct cgroup *parent, const char *name);
/* Whether every ancestor A of a new child of parent (parent included)
 * allows one more descendant, at a depth below A of the child's level -
 * A's level (cgroup.max.descendants, cgroup.max.depth). cg_lock held. */
bool cg_room_for_child_locked(const struct cgroup *parent);
/* The child of parent with the smallest id >= from, or NULL. cg_lock held. */
struct cgroup *cg_child_from(struct cgroup *parent, uint64_t from);
void cg_get(struct cgroup *cg);
void cg_put(struct cgroup *cg);
/* A controller whose keep hook kept cg alive past its last reference
 * (controller.h) lets it go: cg is freed. */
void cg_unkept(struct cgroup *cg);
/* Whether a live thread is in cg or below (cgroup.events "populated").
 * cg_lock held. */
bool cg_populated_locked(const struct cgroup *cg);
/* A live thread joins (+1) or leaves (-1) cg: keeps "populated" up to
 * date up the tree and marks cgroup.events changed where it flips.
 * cg_lock held. */
void cg_threads_changed_locked(struct cgroup *cg, int delta);
/* A new thread (fork, a new thread of a process) joins cg: as +1 above,
 * but a frozen cg stays "frozen" until then, since the thread parks
 * before it first reaches user mode (Linux's cgroup_post_fork avoids the
 * transient switch: test_cgfreezer_mkdir). cg_lock held. */
void cg_thread_born_locked(struct cgroup *cg);

/* Thread mode (cgroup/core/threaded.c; cg_lock held for all). */
/* The inode number of cg's directory in cgroupfs (stat's st_ino; its
 * files are this plus 1, 2, ...). */
static inline uint64_t cg_dir_ino(const struct cgroup *cg)
{
	return cg->id << 8;
}

static inline bool cg_is_threaded(const struct cgroup *cg)
{
	return cg->dom != cg;
}
/* A domain with threaded children, or with threads and threaded
 * controllers enabled ("domain threaded"). */
bool cg_is_thread_root(const struct cgroup *cg);
/* A domain that can host resources: no threaded or (non-root) thread
 * root ancestor ("domain invalid" otherwise). */
bool cg_is_valid_domain(const struct cgroup *cg);
bool cg_can_be_thread_root(const struct cgroup *cg);
/* cgroup.type: "domain", "domain threaded", "domain invalid", "threaded". */
const char *cg_type_name(const struct cgroup *cg);
/* Writing "threaded": 0 or -EOPNOTSUPP. */
int cg_make_threaded(struct cgroup *cg);
/* Whether enable may be added to cg's subtree_control: 0, -EOPNOTSUPP,
 * -EBUSY (no internal processes). */
int cg_vet_subtree_enable(const struct cgroup *cg, uint32_t enable);
/* Whether threads may migrate into dst: 0, -EOPNOTSUPP, -EBUSY. */
int cg_vet_migrate_dst(const struct cgroup *dst);
/* Recomputes "frozen" (every live thread below parked, and freezing) for
 * cg and its ancestors; notifies each flip. cg_lock held. */
void cg_frozen_update_locked(struct cgroup *cg);
/* File which of cg changed: its change count goes up and its watchers
 * are told. cg_lock held. */
void cg_notify_locked(struct cgroup *cg, enum cg_notify_file which);
/* Path from the root ("/" for the root itself) into buf; its length. */
size_t cg_path(const struct cgroup *cg, char *buf, size_t len);

/* The CPUs the threads of cg may run on (its cpuset's effective CPUs,
 * cgroup/controllers/cpuset.c), bit per CPU; it may have bits of CPUs
 * that do not schedule (all 32 where no cpuset limits cg). cg_lock held. */
uint32_t cpuset_cpus_locked(const struct cgroup *cg);

/* The cgroup whose cpuset state governs cg: cg where its parent's
 * subtree_control enables cpuset, else the nearest such ancestor, the
 * root at last (Linux's css of the controller, which /proc/PID/cpuset
 * names). cg's ancestors must be pinned (proc_lock or cg_lock). */
struct cgroup *cpuset_home(struct cgroup *cg);

/* Locking: cg_lock guards the tree shape and membership lists. */
void cg_lock(void);
void cg_unlock(void);
/* The next cgroup after pos in a pre-order walk of root's subtree (root
 * first), NULL at the end. The children lists must not change meanwhile:
 * hold cg_lock. */
struct cgroup *cg_next_pre(struct cgroup *pos, struct cgroup *root);

#endif
