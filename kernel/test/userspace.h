/* The user-space servers a POSIX program expects (the console driver, the
 * VFS and the file systems, mounted as init mounts them), for the tests
 * and benchmarks that run such programs without init. */
#ifndef ARBOR_TEST_USERSPACE_H
#define ARBOR_TEST_USERSPACE_H

struct cgroup;

#define USERSPACE_SERVERS 8
#define USERSPACE_DISKS 8	/* BLK_MAX_DISKS */

struct userspace {
	int pids[USERSPACE_SERVERS];
	int disks[USERSPACE_DISKS];	/* disk driver i's pid while it runs, else 0 */
};

/* Starts them in cg; 0, or -1 if one did not come up (reported). */
int userspace_start(struct cgroup *cg, struct userspace *u);
/* Kills and collects them. */
void userspace_stop(struct userspace *u);

#endif
