/* The options head and tail share (tool.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

int tool_parse_count(const char *s, unsigned long long *n, int *sign)
{
	*sign = *s == '+' || *s == '-' ? *s : 0;
	if (*sign)
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	*n = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* One -n/-c value: the count and its unit. */
static int count_value(const char *name, char opt, const char *v, struct tool_count *c)
{
	if (!v) {
		fprintf(stderr, "%s: option requires an argument -- '%c'\n", name, opt);
		return -1;
	}
	c->bytes = opt == 'c';
	if (tool_parse_count(v, &c->n, &c->sign) < 0) {
		fprintf(stderr, "%s: invalid number of %s: '%s'\n", name, c->bytes ? "bytes" : "lines", v);
		return -1;
	}
	return 0;
}

int tool_count_options(int argc, char **argv, const char *name, const char *usage, int allow_follow,
		       struct tool_count *c, char ***out)
{
	char **files = malloc(sizeof(char *) * (size_t)(argc + 1));
	int nfiles = 0, dashdash = 0;
	*c = (struct tool_count){ .n = 10, .headers = -1 };
	if (!files)
		return -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || a[1] == '\0') {
			files[nfiles++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (isdigit((unsigned char)a[1])) { /* the old -N form */
			if (count_value(name, 'n', a + 1, c) < 0)
				goto fail;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'q' || *p == 'v') {
				c->headers = *p == 'v';
			} else if (*p == 'f' && allow_follow) {
				c->follow = 1;
			} else if (*p == 'n' || *p == 'c') {
				if (count_value(name, *p, p[1] ? p + 1 : i + 1 < argc ? argv[++i] : NULL, c) < 0)
					goto fail;
				break;
			} else {
				fprintf(stderr, "%s: invalid option -- '%c'\n", name, *p);
				fprintf(stderr, "usage: %s\n", usage);
				goto fail;
			}
		}
	}
	if (nfiles == 0)
		files[nfiles++] = "-";
	if (c->headers < 0)
		c->headers = nfiles > 1;
	*out = files;
	return nfiles;
fail:
	free(files);
	return -1;
}
