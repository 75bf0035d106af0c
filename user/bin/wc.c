/* wc [-clmwL] [FILE]...: count newlines, words (runs of printable
   non-space characters) and bytes of each FILE ("-" or none: standard
   input), plus a total line when there is more than one FILE. -l lines,
   -w words, -c bytes, -m characters (bytes: there is no multibyte
   locale), -L longest line length; the default is -lwc. Columns are
   padded as GNU wc pads them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

struct counts {
	unsigned long long lines, words, bytes, maxline;
};

static int opt_l, opt_w, opt_c, opt_m, opt_L;
static char buf[65536];

static int count(int fd, struct counts *c)
{
	int in_word = 0;
	unsigned long long col = 0;
	memset(c, 0, sizeof(*c));
	for (;;) {
		ssize_t r = tool_read(fd, buf, sizeof(buf));
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		c->bytes += (unsigned long long)r;
		for (ssize_t i = 0; i < r; i++) {
			unsigned char ch = (unsigned char)buf[i];
			switch (ch) {
			case '\n':
				c->lines++;
				/* fall through */
			case '\r': case '\f':
				if (col > c->maxline)
					c->maxline = col;
				col = 0;
				in_word = 0;
				break;
			case '\t':
				col = (col + 8) & ~7ULL;
				in_word = 0;
				break;
			case ' ': case '\v':
				col += ch == ' ';
				in_word = 0;
				break;
			default:
				/* As GNU wc 9 in the C locale: other control and
				   non-ASCII bytes neither start nor end a word. */
				if (ch > 0x20 && ch < 0x7f) {
					col++;
					if (!in_word) {
						c->words++;
						in_word = 1;
					}
				}
			}
		}
	}
	if (col > c->maxline)
		c->maxline = col;
	return 0;
}

static void print(const struct counts *c, int width, const char *name)
{
	const char *sep = "";
	if (opt_l) {
		printf("%s%*llu", sep, width, c->lines);
		sep = " ";
	}
	if (opt_w) {
		printf("%s%*llu", sep, width, c->words);
		sep = " ";
	}
	if (opt_m) {
		printf("%s%*llu", sep, width, c->bytes);
		sep = " ";
	}
	if (opt_c) {
		printf("%s%*llu", sep, width, c->bytes);
		sep = " ";
	}
	if (opt_L)
		printf("%s%*llu", sep, width, c->maxline);
	if (name)
		printf(" %s", name);
	putchar('\n');
}

static int wc_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'l': opt_l = 1; break;
	case 'w': opt_w = 1; break;
	case 'c': opt_c = 1; break;
	case 'm': opt_m = 1; break;
	case 'L': opt_L = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "wc", .usage = "wc [-clmwL] [FILE]...", .flag = wc_flag };
	char **files;
	int status = 0, nfiles = tool_options(argc, argv, &o, &files);

	if (nfiles < 0)
		return 1;
	if (!(opt_l || opt_w || opt_c || opt_m || opt_L))
		opt_l = opt_w = opt_c = 1;
	int named = nfiles > 0;
	if (nfiles == 0)
		files[nfiles++] = "-";

	/* Width: enough for the total size of the regular files; at least 7
	   if any input is something else; 1 for one count of one input. */
	int width = 1;
	if (!(nfiles == 1 && opt_l + opt_w + opt_c + opt_m + opt_L == 1)) {
		unsigned long long size = 0;
		int minimum = 1;
		for (int i = 0; i < nfiles; i++) {
			struct stat st;
			int r = strcmp(files[i], "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(files[i], &st);
			if (r < 0) {
				if (i == 0)
					break;
				continue;
			}
			if (S_ISREG(st.st_mode))
				size += (unsigned long long)st.st_size;
			else
				minimum = 7;
		}
		for (; size >= 10; size /= 10)
			width++;
		if (width < minimum)
			width = minimum;
	}

	struct counts total = { 0, 0, 0, 0 };
	for (int i = 0; i < nfiles; i++) {
		const char *name = files[i];
		int fd = STDIN_FILENO;
		struct counts c;
		if (strcmp(name, "-") != 0 && (fd = open(name, O_RDONLY)) < 0) {
			fprintf(stderr, "wc: %s: %s\n", name, strerror(errno));
			status = 1;
			continue;
		}
		if (count(fd, &c) < 0) {
			fprintf(stderr, "wc: %s: %s\n", name, strerror(errno));
			status = 1;
		}
		if (fd != STDIN_FILENO)
			close(fd);
		print(&c, width, named ? name : NULL);
		total.lines += c.lines;
		total.words += c.words;
		total.bytes += c.bytes;
		if (c.maxline > total.maxline)
			total.maxline = c.maxline;
	}
	if (nfiles > 1)
		print(&total, width, "total");
	return tool_flush("wc", status, 1);
}
