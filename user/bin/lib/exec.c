/* Running a command for env and runas: execvp, and /bin/sh for a file
   that is not a program. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

void tool_execvp(char **argv)
{
	execvp(argv[0], argv);
	if (errno != ENOEXEC)
		return;
	/* Found but not a program: a script for /bin/sh. A name with '/'
	   is its path; one without is found again by the shell's own PATH
	   search (which also runs scripts), as "sh -c 'exec "$@"' sh ARGV". */
	int n = 0;
	while (argv[n])
		n++;
	char **sh = malloc(sizeof(char *) * (size_t)(n + 5)); /* 4 + argv + NULL */
	if (!sh) {
		errno = ENOEXEC;
		return;
	}
	int k = 0;
	sh[k++] = "sh";
	if (!strchr(argv[0], '/')) {
		sh[k++] = "-c";
		sh[k++] = "exec \"$@\"";
		sh[k++] = "sh";
	}
	for (int i = 0; i <= n; i++)
		sh[k + i] = argv[i];
	execv("/bin/sh", sh);
	free(sh);
	errno = ENOEXEC;
}
