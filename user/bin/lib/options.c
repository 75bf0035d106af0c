/* The option reader shared by the tools (tool.h): GNU-style (options
   anywhere among the operands) or POSIX-style (up to the first operand),
   letters grouped, some taking an argument, "--" ending them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

/* Reads the letters of one option word argv[*i] (past its '-'): 0, or -1
   after a message. A letter that takes an argument ends the word; its
   argument is the rest of it or the next word (then *i moves on). */
static int read_letters(int argc, char **argv, int *i, const struct tool_opts *o)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		int takes = o->with_arg && strchr(o->with_arg, *p);
		const char *arg = NULL;
		if (takes) {
			arg = p[1] ? p + 1 : *i + 1 < argc ? argv[++*i] : NULL;
			if (!arg) {
				fprintf(stderr, "%s: option requires an argument -- '%c'\n", o->name, *p);
				if (o->gnu_try)
					fprintf(stderr, "Try '%s --help' for more information.\n", o->name);
				return -1;
			}
		}
		int r = o->flag(*p, arg);
		if (r == TOOL_OPT_BAD) {
			fprintf(stderr, "%s: invalid option -- '%c'\n", o->name, *p);
			if (o->usage)
				fprintf(stderr, "usage: %s\n", o->usage);
			if (o->gnu_try)
				fprintf(stderr, "Try '%s --help' for more information.\n", o->name);
			return -1;
		}
		if (r < 0)
			return -1;
		if (takes)
			break;
	}
	return 0;
}

int tool_options(int argc, char **argv, const struct tool_opts *o, char ***out)
{
	char **ops = tool_xrealloc(o->name, 1, NULL, sizeof(char *) * ((size_t)argc + 1));
	int nops = 0, ended = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (ended || a[0] != '-' || a[1] == '\0' || (o->claim && o->claim(a, nops))) {
			ops[nops++] = argv[i];
			ended |= o->posix;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			ended = 1;
			continue;
		}
		int whole = o->word ? o->word(a) : 0;
		if (whole < 0 || (!whole && read_letters(argc, argv, &i, o) < 0)) {
			free(ops);
			return -1;
		}
	}
	ops[nops] = NULL;
	*out = ops;
	return nops;
}
