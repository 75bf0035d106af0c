/* GNU-style option reading shared by the tools (tool.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

int tool_options(int argc, char **argv, const char *name, const char *usage, int (*flag)(int c),
		 int (*claim)(const char *arg, int nops), char ***out)
{
	char **ops = malloc(sizeof(char *) * (size_t)argc);
	int nops = 0, dashdash = 0;
	if (!ops)
		return -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || a[1] == '\0' || (claim && claim(a, nops))) {
			ops[nops++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			if (flag(*p) != 0) {
				fprintf(stderr, "%s: invalid option -- '%c'\n", name, *p);
				fprintf(stderr, "usage: %s\n", usage);
				free(ops);
				return -1;
			}
		}
	}
	*out = ops;
	return nops;
}
