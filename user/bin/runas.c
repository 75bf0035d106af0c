/* runas UID[:GID] COMMAND [ARG]...: run COMMAND with the given user and
   group ids (numbers, or "root" for 0; GID defaults to UID). Calls
   setgid() then setuid(), so only root may use it to become another user,
   then execve()s COMMAND. A COMMAND without '/' is looked up in the
   directories of $PATH (/bin if PATH is unset); a file that is not a
   program (ENOEXEC) is run by /bin/sh.
   Exit status: COMMAND's, or 125 if runas itself failed, 126 if COMMAND
   was found but could not be run, 127 if it was not found. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static long parse_id(const char *s, size_t n)
{
	if (n == 4 && strncmp(s, "root", 4) == 0)
		return 0;
	if (n == 0 || n > 10)
		return -1;
	long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v < 0x7fffffffL ? v : -1;
}

/* execve(), or /bin/sh for a file that is not a program. */
static void try_exec(const char *path, char **argv)
{
	execve(path, argv, environ);
	if (errno == ENOEXEC) {
		int n = 0;
		while (argv[n])
			n++;
		char **sh = malloc(sizeof(char *) * (size_t)(n + 2));
		if (!sh)
			return;
		sh[0] = "sh";
		sh[1] = (char *)path;
		for (int i = 1; i <= n; i++)
			sh[i + 1] = argv[i];
		execve("/bin/sh", sh, environ);
		free(sh);
		errno = ENOEXEC;
	}
}

/* Runs argv[0] as execvp() would; returns only on failure (126 or 127). */
static int run(char **argv)
{
	const char *cmd = argv[0];
	if (strchr(cmd, '/')) {
		try_exec(cmd, argv);
		fprintf(stderr, "runas: %s: %s\n", cmd, strerror(errno));
		return errno == ENOENT ? 127 : 126;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin";
	int seen_eacces = 0;
	size_t clen = strlen(cmd);
	for (const char *p = path;; p++) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);
		char *full = malloc(dlen + clen + 2);
		if (!full) {
			fprintf(stderr, "runas: %s\n", strerror(ENOMEM));
			return 125;
		}
		if (dlen == 0) {
			memcpy(full, cmd, clen + 1); /* empty entry: the working directory */
		} else {
			memcpy(full, p, dlen);
			full[dlen] = '/';
			memcpy(full + dlen + 1, cmd, clen + 1);
		}
		try_exec(full, argv);
		int e = errno;
		free(full);
		if (e == EACCES)
			seen_eacces = 1;
		else if (e != ENOENT && e != ENOTDIR) {
			fprintf(stderr, "runas: %s: %s\n", cmd, strerror(e));
			return 126;
		}
		if (!end)
			break;
		p = end;
	}
	if (seen_eacces) {
		fprintf(stderr, "runas: %s: %s\n", cmd, strerror(EACCES));
		return 126;
	}
	fprintf(stderr, "runas: %s: command not found\n", cmd);
	return 127;
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
	long uid = parse_id(spec, colon ? (size_t)(colon - spec) : strlen(spec));
	long gid = colon ? parse_id(colon + 1, strlen(colon + 1)) : uid;
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
