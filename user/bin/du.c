/* du [-abchkms] [-d N] [FILE]...: disk usage, as GNU du: for each
   directory (below each FILE, deepest first) "SIZE<TAB>PATH", SIZE in 1
   KiB blocks from st_blocks (rounded up); a file given as an operand gets
   its own line. Links are not followed, and a file with several hard
   links counts once.
     -s  only a total for each FILE       -a  a line for files too
     -c  a last line "SIZE<TAB>total" for all the FILEs
     -d N  lines only N directories deep at most (the totals count all)
     -b  apparent sizes (st_size) in bytes; -k KiB (the default), -m MiB
     -h  sizes as 4.0K, 12K, 1.5M (powers of 1024, rounded up as GNU)
   Without FILE: ".". "du: cannot access 'F': ..." and status 1. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/tool.h"

static int opt_summary, opt_human, opt_all, opt_total, opt_apparent, status;
static long opt_max_depth = -1;
static unsigned long long opt_unit = 1024;	/* -b 1, -k 1024, -m 1 MiB */

/* Inodes seen with more than one link: each counts once. */
static struct seen { dev_t dev; ino_t ino; } *seen;
static size_t nseen, capseen;

static int seen_before(const struct stat *st)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].dev == st->st_dev && seen[i].ino == st->st_ino)
			return 1;
	if (nseen == capseen) {
		capseen = capseen ? capseen * 2 : 64;
		seen = tool_xrealloc("du", 1, seen, capseen * sizeof(*seen));
	}
	seen[nseen++] = (struct seen){ st->st_dev, st->st_ino };
	return 0;
}

static void print_size(unsigned long long bytes, const char *path)
{
	if (!opt_human) {
		printf("%llu\t%s\n", (bytes + opt_unit - 1) / opt_unit, path);
		return;
	}
	const char *units = "KMGTPE";
	if (bytes < 1024) {
		printf("%llu\t%s\n", bytes, path);
		return;
	}
	double v = (double)bytes / 1024;
	int u = 0;
	while (v >= 1024 && units[u + 1]) {
		v /= 1024;
		u++;
	}
	if (v < 10) { /* one decimal, rounded up */
		unsigned long long tenths = (unsigned long long)(v * 10);
		if ((double)tenths < v * 10)
			tenths++;
		if (tenths >= 100)
			printf("%llu%c\t%s\n", tenths / 10, units[u], path);
		else
			printf("%llu.%llu%c\t%s\n", tenths / 10, tenths % 10, units[u], path);
	} else {
		unsigned long long w = (unsigned long long)v;
		if ((double)w < v)
			w++;
		printf("%llu%c\t%s\n", w, units[u], path);
	}
}

/* The bytes below and at path (whose lstat is st, depth levels below an
   operand), printing directories (-a: all files) down to the depth asked. */
static unsigned long long walk(const char *path, const struct stat *st, long depth)
{
	unsigned long long total = st->st_nlink > 1 && !S_ISDIR(st->st_mode) && seen_before(st) ? 0 :
				   opt_apparent ? (unsigned long long)st->st_size :
				   (unsigned long long)st->st_blocks * 512;
	if (S_ISDIR(st->st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		if (!d) {
			fprintf(stderr, "du: cannot read directory '%s': %s\n", path, strerror(errno));
			status = 1;
		}
		while (d && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *sub = tool_join(path, e->d_name, strlen(e->d_name));
			struct stat sst;
			if (lstat(sub, &sst) < 0) {
				fprintf(stderr, "du: cannot access '%s': %s\n", sub, strerror(errno));
				status = 1;
			} else {
				total += walk(sub, &sst, depth + 1);
			}
			free(sub);
		}
		if (d)
			closedir(d);
	}
	if (depth == 0 || ((S_ISDIR(st->st_mode) || opt_all) && !opt_summary &&
			   (opt_max_depth < 0 || depth <= opt_max_depth)))
		print_size(total, path);
	return total;
}

static int du_flag(int c, const char *arg)
{
	switch (c) {
	case 's': opt_summary = 1; break;
	case 'h': opt_human = 1; break;
	case 'a': opt_all = 1; break;
	case 'c': opt_total = 1; break;
	case 'b': opt_apparent = 1; opt_unit = 1; opt_human = 0; break; /* the last size option wins */
	case 'k': opt_unit = 1024; opt_human = 0; break;
	case 'm': opt_unit = 1048576; opt_human = 0; break;
	case 'd': {
		char *end;
		opt_max_depth = strtol(arg, &end, 10);
		if (end == arg || *end || opt_max_depth < 0) {
			fprintf(stderr, "du: invalid maximum depth '%s'\nTry 'du --help' for more information.\n", arg);
			return TOOL_OPT_TOLD;
		}
		break;
	}
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "du", .with_arg = "d", .gnu_try = 1, .flag = du_flag };
	char **ops, *dot[] = { ".", NULL };
	unsigned long long grand = 0;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops == 0) {
		ops = dot;
		nops = 1;
	}
	for (int i = 0; i < nops; i++) {
		struct stat st;
		if (lstat(ops[i], &st) < 0) {
			fprintf(stderr, "du: cannot access '%s': %s\n", ops[i], strerror(errno));
			status = 1;
			continue;
		}
		if (S_ISDIR(st.st_mode) && seen_before(&st))
			continue; /* a directory given twice counts once, as GNU du */
		grand += walk(ops[i], &st, 0);
	}
	if (opt_total)
		print_size(grand, "total");
	return tool_flush("du", status, 1);
}
