/* chown [-fRv] OWNER[:GROUP] FILE...: change the owner and/or group of
   files. OWNER and GROUP are numbers ("root" is accepted for 0; there is
   no user database yet). Forms: UID, UID:GID, UID.GID, :GID (group only).
   "UID:" changes only the owner (GNU chown would also set the user's login
   group, which needs a user database).
     -R  also change the contents of directories, recursively
     -f  do not report files that could not be changed
     -v  say "changed ownership of 'FILE' from root:root to 5:5" (or
         "ownership of 'FILE' retained as 5:5") for each file */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_recursive, opt_silent, opt_verbose;
static uid_t new_uid = (uid_t)-1;
static gid_t new_gid = (gid_t)-1;

static int parse_spec(const char *s)
{
	const char *sep = strchr(s, ':');
	if (!sep)
		sep = strchr(s, '.');
	size_t ulen = sep ? (size_t)(sep - s) : strlen(s);
	if (ulen > 0) {
		long u = tool_parse_id(s, ulen);
		if (u < 0)
			return -1;
		new_uid = (uid_t)u;
	}
	if (sep && sep[1]) {
		long g = tool_parse_id(sep + 1, strlen(sep + 1));
		if (g < 0)
			return -1;
		new_gid = (gid_t)g;
	}
	return ulen > 0 || (sep && sep[1]) ? 0 : -1;
}

/* "uid:gid", naming 0 "root" (as id does). */
static void id_pair(char *buf, size_t size, unsigned long u, unsigned long g)
{
	char us[16] = "root", gs[16] = "root";
	if (u)
		snprintf(us, sizeof(us), "%lu", u);
	if (g)
		snprintf(gs, sizeof(gs), "%lu", g);
	snprintf(buf, size, "%s:%s", us, gs);
}

/* One file of the walk (tool_walk): a link below a directory is changed
   itself. */
static int change(const char *path, const struct stat *stp, int top)
{
	const struct stat st = *stp;
	int status = 0;
	int r = top ? chown(path, new_uid, new_gid) : lchown(path, new_uid, new_gid);
	if (r < 0) {
		if (!opt_silent)
			fprintf(stderr, "chown: %s: %s\n", path, strerror(errno));
		status = 1;
	} else if (opt_verbose) {
		unsigned long u = new_uid == (uid_t)-1 ? (unsigned long)st.st_uid : (unsigned long)new_uid;
		unsigned long g = new_gid == (gid_t)-1 ? (unsigned long)st.st_gid : (unsigned long)new_gid;
		char old[32], now[32];
		id_pair(old, sizeof(old), st.st_uid, st.st_gid);
		id_pair(now, sizeof(now), u, g);
		if (u == (unsigned long)st.st_uid && g == (unsigned long)st.st_gid)
			printf("ownership of '%s' retained as %s\n", path, now);
		else
			printf("changed ownership of '%s' from %s to %s\n", path, old, now);
	}
	return status;
}

static int chown_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'R': opt_recursive = 1; break;
	case 'f': opt_silent = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char **ops;
	int status = 0;
	const struct tool_opts o = { .name = "chown", .usage = "chown [-fRv] OWNER[:GROUP] FILE...",
				     .flag = chown_flag };
	int nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 1;
	if (nops < 2) {
		if (nops)
			fprintf(stderr, "chown: missing operand after '%s'\n", ops[0]);
		else
			fprintf(stderr, "chown: missing operand\n");
		return 1;
	}
	if (parse_spec(ops[0]) < 0) {
		fprintf(stderr, "chown: invalid owner: '%s'\n", ops[0]);
		return 1;
	}
	for (int i = 1; i < nops; i++)
		status |= tool_walk("chown", ops[i], opt_recursive, opt_silent, change);
	return tool_flush("chown", status, 1);
}
