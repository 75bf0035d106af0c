/* What the shell does as a login shell (argv[0] starting with '-', as
   init starts the console's shell and as login(1) would): it sets HOME
   when the environment has none, so that cd, ~ and the history file
   ($HOME/.sh_history) have a home. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sh.h"

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The home field of uid's line of /etc/passwd (NAME:PW:UID:GID:GECOS:
   HOME:SHELL) into home; 0 if there is none. */
static int passwd_home(uid_t uid, char *home, size_t size)
{
	FILE *f = fopen("/etc/passwd", "r");
	if (!f)
		return 0;
	char line[512];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *field[7];
		int n = 0;
		char *p = line;
		line[strcspn(line, "\n")] = '\0';
		while (n < 7) {
			field[n++] = p;
			p = strchr(p, ':');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (n < 6 || !field[2][0])
			continue;
		char *end;
		unsigned long id = strtoul(field[2], &end, 10);
		if (*end || id != (unsigned long)uid || !field[5][0] || strlen(field[5]) >= size)
			continue;
		strcpy(home, field[5]);
		found = 1;
	}
	fclose(f);
	return found;
}

void login_setup(void)
{
	const char *have = getvar("HOME");
	if (have && *have)
		return;
	char home[256];
	const char *dir = "/";
	if (passwd_home(getuid(), home, sizeof(home)) && is_dir(home))
		dir = home;
	else if (getuid() == 0 && is_dir("/root"))
		dir = "/root";
	setvar("HOME", dir, V_EXPORT);
}
