/* cmp [-b] [-l | -s] [-i SKIP] [-n LIMIT] FILE1 [FILE2]: compare two files
   byte by byte, as GNU cmp (diffutils 3.8); FILE2 (or "-") is standard
   input when missing.
     (default)  "F1 F2 differ: char N, line L" at the first difference
     -b  also show the differing bytes ("byte N, line L is 145 e 105 E")
     -l  every difference: "N OCT1 OCT2" (-b: with the bytes as cat -v)
     -s  print nothing: only the status
     -i SKIP  skip SKIP bytes of both      -n LIMIT  compare LIMIT bytes at most
   A shorter file: "cmp: EOF on F after byte N, line L" (or "F which is
   empty"). Status 0 same, 1 different, 2 trouble ("cmp: F: ..."). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_bytes, opt_list, opt_silent;
static unsigned long long opt_skip, opt_limit = ~0ULL;

static int number(const char *arg, unsigned long long *out)
{
	char *end;
	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (end == arg || *end || errno || *arg == '-') {
		fprintf(stderr, "cmp: invalid --%s value '%s'\n", out == &opt_skip ? "ignore-initial" :
			"bytes", arg);
		return TOOL_OPT_TOLD;
	}
	return 0;
}

static int cmp_flag(int c, const char *arg)
{
	switch (c) {
	case 'b': opt_bytes = 1; return 0;
	case 'l': opt_list = 1; return 0;
	case 's': opt_silent = 1; return 0;
	case 'i': return number(arg, &opt_skip);
	case 'n': return number(arg, &opt_limit);
	default: return TOOL_OPT_BAD;
	}
}

/* A byte as cat -v shows it: ^J, M-a, M-^?. */
static const char *shown(unsigned char c, char *buf)
{
	char *p = buf;
	if (c >= 128) {
		*p++ = 'M';
		*p++ = '-';
		c -= 128;
	}
	if (c < 32 || c == 127) {
		*p++ = '^';
		*p++ = c == 127 ? '?' : (char)(c + 64);
	} else {
		*p++ = (char)c;
	}
	*p = '\0';
	return buf;
}

/* A buffered reader of one file. */
struct cmp_in {
	const char *name;
	int fd;
	unsigned char buf[32768];
	ssize_t have, at;
};

static int next(struct cmp_in *in)
{
	if (in->at == in->have) {
		in->have = tool_read(in->fd, in->buf, sizeof(in->buf));
		in->at = 0;
		if (in->have < 0) {
			fprintf(stderr, "cmp: %s: %s\n", in->name, strerror(errno));
			exit(2);
		}
		if (in->have == 0)
			return -1;
	}
	return in->buf[in->at++];
}

static struct cmp_in in1, in2;

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "cmp", .with_arg = "in", .gnu_try = 1, .flag = cmp_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 2;
	if (nops == 0 || nops > 2) {
		if (nops)
			fprintf(stderr, "cmp: extra operand '%s'\n", ops[2]);
		else
			fprintf(stderr, "cmp: missing operand after 'cmp'\n");
		fprintf(stderr, "cmp: Try 'cmp --help' for more information.\n");
		return 2;
	}
	if (opt_list && opt_silent) {
		fprintf(stderr, "cmp: options -l and -s are incompatible\n"
			"cmp: Try 'cmp --help' for more information.\n");
		return 2;
	}
	struct cmp_in *in[2] = { &in1, &in2 };
	unsigned long long width_max = opt_limit;
	for (int i = 0; i < 2; i++) {
		in[i]->name = i < nops ? ops[i] : "-";
		in[i]->fd = strcmp(in[i]->name, "-") ? open(in[i]->name, O_RDONLY) : STDIN_FILENO;
		struct stat st;
		if (in[i]->fd < 0) {
			fprintf(stderr, "cmp: %s: %s\n", in[i]->name, strerror(errno));
			return 2;
		}
		if (fstat(in[i]->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (unsigned long long)st.st_size < width_max)
			width_max = (unsigned long long)st.st_size;
	}
	for (int i = 0; i < 2; i++) /* each file on its own: one may end first */
		for (unsigned long long k = 0; k < opt_skip && next(in[i]) >= 0; k++)
			;
	int width = snprintf(NULL, 0, "%llu", width_max == ~0ULL ? ~0ULL : width_max);
	unsigned long long byte = 0, line = 1;
	int status = 0, last = -1;
	char s1[8], s2[8];
	while (byte < opt_limit) {
		int a = next(&in1), b = next(&in2);
		if (a < 0 || b < 0) {
			if (a < 0 && b < 0)
				break;
			struct cmp_in *eof = a < 0 ? &in1 : &in2;
			if (!opt_silent) { /* not after what -l printed: as GNU cmp */
				if (byte == 0)
					fprintf(stderr, "cmp: EOF on %s which is empty\n", eof->name);
				else if (opt_list)
					fprintf(stderr, "cmp: EOF on %s after byte %llu\n", eof->name, byte);
				else
					fprintf(stderr, "cmp: EOF on %s after byte %llu, %sline %llu\n", eof->name,
						byte, last == '\n' ? "" : "in ", line - (last == '\n'));
			}
			status = 1;
			break;
		}
		byte++;
		if (a != b) {
			status = 1;
			if (opt_silent)
				break;
			if (!opt_list) {
				printf("%s %s differ: %s %llu, line %llu", in1.name, in2.name,
				       opt_bytes ? "byte" : "char", byte, line);
				if (opt_bytes)
					printf(" is %3o %s %3o %s", a, shown((unsigned char)a, s1), b,
					       shown((unsigned char)b, s2));
				putchar('\n');
				break;
			}
			if (opt_bytes)
				printf("%*llu %3o %-4s %3o %s\n", width, byte, a, shown((unsigned char)a, s1), b,
				       shown((unsigned char)b, s2));
			else
				printf("%*llu %3o %3o\n", width, byte, a, b);
		}
		if (a == '\n')
			line++;
		last = a;
	}
	return tool_flush("cmp", status, 2);
}
