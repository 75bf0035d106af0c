/* The walk chmod -R and chown -R share (tool.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "tool.h"

/* The walk in progress (tool_for_each_entry's callback takes a path only). */
static struct {
	const char *tool;
	int recursive, silent;
	int (*apply)(const char *path, const struct stat *st, int top);
} walk;

static int walk_path(const char *path, int top);

/* An entry below a directory being walked. */
static int walk_below(const char *path)
{
	return walk_path(path, 0);
}

static int walk_path(const char *path, int top)
{
	struct stat st;
	if ((top ? stat(path, &st) : lstat(path, &st)) < 0) {
		if (!walk.silent)
			fprintf(stderr, "%s: %s: %s\n", walk.tool, path, strerror(errno));
		return 1;
	}
	int status = walk.apply(path, &st, top);
	if (!walk.recursive || !S_ISDIR(st.st_mode))
		return status;
	return status | tool_for_each_entry(walk.tool, path, walk.silent, walk_below);
}

int tool_walk(const char *tool, const char *path, int recursive, int silent,
	      int (*apply)(const char *path, const struct stat *st, int top))
{
	walk.tool = tool;
	walk.recursive = recursive;
	walk.silent = silent;
	walk.apply = apply;
	return walk_path(path, 1);
}
