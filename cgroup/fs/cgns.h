/* Cgroup namespaces (Linux's CLONE_NEWCGROUP) and the hierarchy's mount
 * options (nsdelegate): cgroup/fs/cgns.c, docs/cgroups.md "Namespaces". */
#ifndef ARBOR_CGNS_H
#define ARBOR_CGNS_H

#include "types.h"

struct cgroup;
struct proc;
struct cgfs_buf;

/* A namespace: its root cgroup (a reference), counted by the processes
 * and open cgroup files that hold it. A process's NULL is the initial
 * namespace, whose root is cg_root. */
struct cg_ns {
	uint32_t refs;
	uint32_t ino;		/* its inode number (/proc/PID/ns/cgroup) */
	struct cgroup *root;
};

struct kobj;
struct pcache_attr;
/* fstat of a namespace descriptor (KOBJ_CGNS, Linux's nsfs inode) into a. */
void cgns_fd_stat(const struct kobj *o, struct pcache_attr *a);


/* Another holder of ns (NULL-safe: the initial namespace is not counted). */
void cgns_get(struct cg_ns *ns);
/* A holder lets go; the last frees it and its root's reference. Any lock
 * that allows cg_put may be held. */
void cgns_put(struct cg_ns *ns);
/* The namespace process p is in, with a reference for the caller
 * (NULL: the initial one). proc_lock held. */
struct cg_ns *cgns_of_locked(struct proc *p);
/* What a k_cgwriter's ns_root says for ns: 0 the initial namespace, else
 * its root's directory inode number + 1. */
uint64_t cgns_writer_root(const struct cg_ns *ns);

/* The hierarchy's nsdelegate option (Linux's CGRP_ROOT_NS_DELEGATE): set
 * and cleared by cgroup2 mounts made from the initial namespace. */
bool cgns_nsdelegate(void);
void cgns_set_nsdelegate(bool on);
/* With nsdelegate, Linux's rule for a migration by a writer of namespace
 * ns_root (a k_cgwriter's): src and dst must both be inside its root, else
 * -ENOENT; 0 when allowed. cg_lock held. */
int cgns_may_migrate_locked(const struct cgroup *src, const struct cgroup *dst, uint64_t ns_root);
/* With nsdelegate, a writer of a namespace other than the initial one may
 * not write the files of its namespace's root cgroup but the delegatable
 * ones (CFT_NS_DELEGATABLE): -EPERM, else 0. */
int cgns_may_write(const struct cgroup *cg, uint16_t cft_flags, uint64_t ns_root);

/* Linux's kernfs_path_from_node: cg's path seen from root, "/.." for each
 * level from root up to their common ancestor, then the names down to cg;
 * "/" if they are the same. Its length; buf holds what fits (NUL-ended).
 * Names and parents must not change meanwhile (a reference or a lock). */
size_t cgns_rel_path(const struct cgroup *cg, const struct cgroup *root, char *buf, size_t len);

#endif
