/* cgrun [-c] CGROUP COMMAND [ARGS...]: run COMMAND in CGROUP (a path below
   /sys/fs/cgroup, or a full path in the cgroup2 mount), as cgexec does.
     -c  create CGROUP (and the cgroups above it) if missing */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

#define CGROOT "/sys/fs/cgroup"

/* mkdir -p of path (below CGROOT). */
static int make_path(char *path)
{
	for (char *p = path + strlen(CGROOT) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		int r = mkdir(path, 0755);
		*p = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

int main(int argc, char **argv)
{
	int create = 0, i = 1;
	char path[4096], procs[4200];
	if (i < argc && strcmp(argv[i], "-c") == 0)
		create = 1, i++;
	if (argc - i < 2) {
		fprintf(stderr, "usage: cgrun [-c] CGROUP COMMAND [ARGS...]\n");
		return 125;
	}
	const char *cg = argv[i];
	if (strncmp(cg, CGROOT "/", strlen(CGROOT) + 1) == 0 || strcmp(cg, CGROOT) == 0)
		snprintf(path, sizeof(path), "%s", cg);
	else
		snprintf(path, sizeof(path), "%s/%s", CGROOT, cg[0] == '/' ? cg + 1 : cg);
	size_t n = strlen(path);
	while (n > strlen(CGROOT) && path[n - 1] == '/')
		path[--n] = '\0';
	if (create && make_path(path) != 0) {
		fprintf(stderr, "cgrun: %s: %s\n", path, strerror(errno));
		return 125;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	int fd = open(procs, O_WRONLY);
	if (fd < 0 || write(fd, "0", 1) != 1) {
		fprintf(stderr, "cgrun: %s: %s\n", procs, strerror(errno));
		return 125;
	}
	close(fd);
	tool_execvp(argv + i + 1);
	fprintf(stderr, "cgrun: %s: %s\n", argv[i + 1], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
