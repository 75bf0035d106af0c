/* pwd [-L|-P]: print the working directory. Both options are accepted;
   the physical directory from getcwd() is always printed (Arbor has no
   symbolic links, so -L and -P agree). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

int main(int argc, char **argv)
{
	char buf[PATH_MAX];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-L") == 0 || strcmp(argv[i], "-P") == 0)
			continue;
		if (strcmp(argv[i], "--") == 0 && i == argc - 1)
			break;
		fprintf(stderr, "pwd: invalid argument '%s'\n", argv[i]);
		return 1;
	}
	if (!getcwd(buf, sizeof(buf))) {
		fprintf(stderr, "pwd: %s\n", strerror(errno));
		return 1;
	}
	if (puts(buf) == EOF || fflush(stdout) != 0) {
		fprintf(stderr, "pwd: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
