/* The host tests' way to the cgroup files (tests/cgroup/test_cgroup.c,
 * test_cpuset.c): make a cgroup, write and read a file as the kernel's
 * cgroupfs does, by root. Included once by each test, after tap.h. */
#ifndef TESTS_CGROUP_CG_FILES_H
#define TESTS_CGROUP_CG_FILES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "tap.h"

static const struct k_cgwriter root_writer = { .pid = 1, .uid = 0, .gid = 0, .tid = 1 };

static struct cgroup *mk(struct cgroup *parent, const char *name)
{
	struct cgroup *cg = NULL;
	int err = cg_create(parent, name, &cg);
	if (err)
		tap_bail("cg_create %s: %d", name, err);
	return cg;
}

/* Writes text to file name of cg as the kernel does: 0 or -errno;
 * -ENOENT if cg has no such file. */
static int wr(struct cgroup *cg, const char *name, const char *text)
{
	const struct cftype *f = cgfs_cft_find(cg, name);
	if (!f)
		return -ENOENT;
	size_t len = strlen(text);
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len + 1);
	int err = cgfs_write(cg, f, copy, len, &root_writer, NULL);
	free(copy);
	return err;
}

/* The text of file name of cg; "<ENOENT>" and the like for errors. */
static const char *rd(struct cgroup *cg, const char *name)
{
	static char buf[512];
	const struct cftype *f = cgfs_cft_find(cg, name);
	struct cgfs_buf out = { .buf = buf, .cap = sizeof(buf) - 1 };
	int err = !f ? -ENOENT : !f->show ? -EINVAL : f->show(cg, &out);
	if (err)
		snprintf(buf, sizeof(buf), "<%d>", err);
	else
		buf[out.len < out.cap ? out.len : out.cap] = '\0';
	return buf;
}

static bool is(struct cgroup *cg, const char *name, const char *want)
{
	const char *got = rd(cg, name);
	if (strcmp(got, want) != 0) {
		tap_diag("%s/%s: got '%s', want '%s'", cg->name, name, got, want);
		return false;
	}
	return true;
}

#endif
