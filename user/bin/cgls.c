/* cgls [CGROUP]: the cgroup tree with the processes in each cgroup, as
   systemd-cgls draws it. CGROUP is a directory of the cgroup2 mount
   (default /sys/fs/cgroup). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The command line of pid, arguments joined by spaces, into buf. */
static void command_of(const char *pid, char *buf, size_t cap)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, cap - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(buf, cap, "?");
		return;
	}
	buf[n] = '\0';
	for (ssize_t i = 0; i < n - 1; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The child cgroups of dir, sorted (a NULL-terminated array to free). */
static char **children_of(const char *dir)
{
	DIR *d = opendir(dir);
	char **names = calloc(1, sizeof(char *));
	size_t n = 0;
	struct dirent *e;
	while (d && names && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		char **more = realloc(names, (n + 2) * sizeof(char *));
		if (!more)
			break;
		names = more;
		names[n++] = strdup(e->d_name);
		names[n] = NULL;
	}
	if (d)
		closedir(d);
	if (names)
		qsort(names, n, sizeof(char *), cmp);
	return names;
}

static void show(const char *dir, const char *prefix)
{
	char path[4096], line[64], cmd[256], sub[512];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	FILE *f = fopen(path, "r");
	char **kids = children_of(dir);
	int nkids = 0;
	while (kids && kids[nkids])
		nkids++;
	char *pids[1024];
	int npids = 0;
	while (f && npids < 1024 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		pids[npids++] = strdup(line);
	}
	if (f)
		fclose(f);
	for (int i = 0; i < npids; i++) {
		command_of(pids[i], cmd, sizeof(cmd));
		printf("%s%s%s %s\n", prefix, i + 1 < npids || nkids ? "\u251c\u2500" : "\u2514\u2500", pids[i], cmd);
		free(pids[i]);
	}
	for (int i = 0; i < nkids; i++) {
		int last = i + 1 == nkids;
		printf("%s%s%s\n", prefix, last ? "\u2514\u2500" : "\u251c\u2500", kids[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, kids[i]);
		snprintf(sub, sizeof(sub), "%s%s", prefix, last ? "  " : "\u2502 ");
		show(path, sub);
		free(kids[i]);
	}
	free(kids);
}

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "/sys/fs/cgroup";
	struct stat st;
	char probe[4096];
	snprintf(probe, sizeof(probe), "%s/cgroup.procs", root);
	if (argc > 2 || stat(probe, &st) != 0) {
		fprintf(stderr, argc > 2 ? "usage: cgls [CGROUP]\n" : "cgls: %s: not a cgroup\n", root);
		return 1;
	}
	printf("%s\n", root);
	show(root, "");
	return 0;
}
