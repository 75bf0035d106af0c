/* runas UID[:GID] COMMAND [ARG]...: run COMMAND with the given user and
   group ids (numbers, or "root" for 0; GID defaults to UID). Calls
   setgid() then setuid(), so only root may use it to become another user,
   then execvp()s COMMAND. A COMMAND without '/' is looked up in the
   directories of $PATH (/bin:/usr/bin if PATH is unset); a file that is not a
   program (ENOEXEC) is run by /bin/sh.
   Exit status: COMMAND's, or 125 if runas itself failed, 126 if COMMAND
   was found but could not be run, 127 if it was not found. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/tool.h"

/* Runs argv[0] as execvp() would; returns only on failure (126 or 127). */
static int run(char **argv)
{
	tool_execvp(argv);
	int e = errno;
	if (e == ENOENT) {
		fprintf(stderr, "runas: %s: command not found\n", argv[0]);
		return 127;
	}
	fprintf(stderr, "runas: %s: %s\n", argv[0], strerror(e));
	return 126;
}

int main(int argc, char **argv)
{
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (argc - i < 2) {
		fprintf(stderr, "usage: runas UID[:GID] COMMAND [ARG]...\n");
		return 125;
	}
	const char *spec = argv[i];
	const char *colon = strchr(spec, ':');
	long uid = tool_parse_id(spec, colon ? (size_t)(colon - spec) : strlen(spec));
	long gid = colon ? tool_parse_id(colon + 1, strlen(colon + 1)) : uid;
	if (uid < 0 || gid < 0) {
		fprintf(stderr, "runas: invalid user or group: '%s'\n", spec);
		return 125;
	}
	if (setgid((gid_t)gid) < 0) {
		fprintf(stderr, "runas: setgid %ld: %s\n", gid, strerror(errno));
		return 125;
	}
	if (setuid((uid_t)uid) < 0) {
		fprintf(stderr, "runas: setuid %ld: %s\n", uid, strerror(errno));
		return 125;
	}
	return run(argv + i + 1);
}
