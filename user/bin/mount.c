/* mount [-r] [-t TYPE] [-o OPTIONS] SOURCE TARGET: mount a file system.
   mount with no operand lists the mounts (/proc/mounts).
     -t TYPE     tmpfs, devfs or proc (the servers of user/servers)
     -o OPTIONS  comma-separated: ro, rw, nosuid, suid, nodev, dev, noexec,
                 exec set flags; any other option goes to the file system
                 (tmpfs: mode=OCTAL, uid=N, gid=N)
     -r          the same as -o ro */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int list_mounts(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[512];
	if (!f) {
		perror("mount: /proc/mounts");
		return 1;
	}
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
	return 0;
}

/* Splits OPTIONS into mount flags and the file system's own data. */
static int parse_options(char *opts, unsigned long *flags, char *data, size_t cap)
{
	static const struct { const char *name; unsigned long set, clear; } known[] = {
		{ "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY }, { "nosuid", MS_NOSUID, 0 },
		{ "suid", 0, MS_NOSUID }, { "nodev", MS_NODEV, 0 }, { "dev", 0, MS_NODEV },
		{ "noexec", MS_NOEXEC, 0 }, { "exec", 0, MS_NOEXEC }, { "defaults", 0, 0 },
	};
	for (char *o = strtok(opts, ","); o; o = strtok(NULL, ",")) {
		size_t i = 0;
		while (i < sizeof(known) / sizeof(known[0]) && strcmp(o, known[i].name) != 0)
			i++;
		if (i < sizeof(known) / sizeof(known[0])) {
			*flags = (*flags | known[i].set) & ~known[i].clear;
			continue;
		}
		size_t used = strlen(data);
		if (used + strlen(o) + 2 > cap)
			return -1;
		if (used)
			strcat(data, ",");
		strcat(data, o);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *type = NULL;
	unsigned long flags = 0;
	char data[256] = "";
	int c;
	while ((c = getopt(argc, argv, "rt:o:")) != -1) {
		switch (c) {
		case 'r':
			flags |= MS_RDONLY;
			break;
		case 't':
			type = optarg;
			break;
		case 'o':
			if (parse_options(optarg, &flags, data, sizeof(data)) == 0)
				break;
			fprintf(stderr, "mount: options too long\n");
			return 1;
		default:
			fprintf(stderr, "usage: mount [-r] [-t TYPE] [-o OPTIONS] SOURCE TARGET\n");
			return 1;
		}
	}
	if (optind == argc && !type)
		return list_mounts();
	if (argc - optind != 2 || !type) {
		fprintf(stderr, "usage: mount [-r] [-t TYPE] [-o OPTIONS] SOURCE TARGET\n");
		return 1;
	}
	if (mount(argv[optind], argv[optind + 1], type, flags, data) != 0) {
		fprintf(stderr, "mount: %s on %s: %s\n", type, argv[optind + 1], strerror(errno));
		return 1;
	}
	return 0;
}
