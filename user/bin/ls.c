/* ls [-1aAdln] [FILE]...: list files and directory contents, sorted by name
   (byte order, as GNU ls in the C locale), one name per line.
     -a  include names starting with '.' (including . and ..)
     -A  like -a but without . and ..
     -d  list directories themselves, not their contents
     -l  long format: mode string, link count, owner and group ids (always
         numeric), size, modification time, name (a symbolic link's as
         "name -> target"); "total N" (1 KiB blocks) heads each directory
         listing
     -n  same as -l (ids are always numeric)
     -1  one name per line (always the case)
   Options and operands may be mixed; "--" ends the options. File operands
   are listed first, then each directory operand (with a "NAME:" header
   when there is more than one operand). Exit status: 0 if all went well,
   1 if a directory's entry could not be examined, 2 if an operand could not
   be accessed (as GNU ls). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/tool.h"

struct entry {
	char *name;	/* as printed */
	char *path;	/* as passed to stat/opendir */
	struct stat st;
	char *target;	/* a link's text, read with its lstat (NULL: read when printed) */
};

static int opt_all, opt_almost, opt_dir, opt_long;
static int status;
static time_t now;

/* GNU ls's message: "ls: WHAT 'PATH': error". */
static void fail(int level, const char *what, const char *path)
{
	fflush(stdout);
	fprintf(stderr, "ls: %s '%s': %s\n", what, path, strerror(errno));
	if (status < level)
		status = level;
}

static void *xmalloc(size_t n)
{
	return tool_xrealloc("ls", 2, NULL, n);
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void mode_string(mode_t m, char *out)
{
	char t = '?';
	if (S_ISREG(m))
		t = '-';
	else if (S_ISDIR(m))
		t = 'd';
	else if (S_ISLNK(m))
		t = 'l';
	else if (S_ISCHR(m))
		t = 'c';
	else if (S_ISBLK(m))
		t = 'b';
	else if (S_ISFIFO(m))
		t = 'p';
	else if (S_ISSOCK(m))
		t = 's';
	out[0] = t;
	out[1] = m & S_IRUSR ? 'r' : '-';
	out[2] = m & S_IWUSR ? 'w' : '-';
	out[3] = m & S_ISUID ? (m & S_IXUSR ? 's' : 'S') : (m & S_IXUSR ? 'x' : '-');
	out[4] = m & S_IRGRP ? 'r' : '-';
	out[5] = m & S_IWGRP ? 'w' : '-';
	out[6] = m & S_ISGID ? (m & S_IXGRP ? 's' : 'S') : (m & S_IXGRP ? 'x' : '-');
	out[7] = m & S_IROTH ? 'r' : '-';
	out[8] = m & S_IWOTH ? 'w' : '-';
	out[9] = m & S_ISVTX ? (m & S_IXOTH ? 't' : 'T') : (m & S_IXOTH ? 'x' : '-');
	out[10] = '\0';
}

/* Linux's encoding of small device numbers (Arbor's st_rdev). */
#define DEV_MAJOR(d) ((unsigned long long)(d) >> 8 & 0xfff)
#define DEV_MINOR(d) (((unsigned long long)(d) & 0xff) | ((unsigned long long)(d) >> 12 & ~0xffull))

static int digits(unsigned long long v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Prints n entries; the column widths fit the nw entries at w (GNU ls
   sizes the columns of the operand list by all operands, directories too). */
static void print_entries(struct entry *e, size_t n, int total, struct entry *w, size_t nw)
{
	if (!opt_long) {
		for (size_t i = 0; i < n; i++)
			puts(e[i].name);
		return;
	}
	int wl = 1, wu = 1, wg = 1, ws = 1, wmaj = 0, wmin = 0;
	unsigned long long blocks = 0;
	for (size_t i = 0; i < nw; i++) {
		const struct stat *st = &w[i].st;
		if (digits((unsigned long long)st->st_nlink) > wl)
			wl = digits((unsigned long long)st->st_nlink);
		if (digits((unsigned long long)st->st_uid) > wu)
			wu = digits((unsigned long long)st->st_uid);
		if (digits((unsigned long long)st->st_gid) > wg)
			wg = digits((unsigned long long)st->st_gid);
		if (digits((unsigned long long)st->st_size) > ws)
			ws = digits((unsigned long long)st->st_size);
		if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
			if (digits(DEV_MAJOR(st->st_rdev)) > wmaj)
				wmaj = digits(DEV_MAJOR(st->st_rdev));
			if (digits(DEV_MINOR(st->st_rdev)) > wmin)
				wmin = digits(DEV_MINOR(st->st_rdev));
			if (wmaj + 2 + wmin > ws)
				ws = wmaj + 2 + wmin;
		}
	}
	for (size_t i = 0; i < n; i++)
		blocks += (unsigned long long)e[i].st.st_blocks;
	if (total)
		printf("total %llu\n", (blocks * 512 + 1023) / 1024);
	for (size_t i = 0; i < n; i++) {
		const struct stat *st = &e[i].st;
		char mode[11], date[32];
		struct tm tm;
		time_t t = st->st_mtime;
		mode_string(st->st_mode, mode);
		/* Recent (within six months, not in the future): time of day;
		   otherwise the year. */
		const char *fmt = t > now - 31556952 / 2 && t <= now ? "%b %e %H:%M" : "%b %e  %Y";
		if (!localtime_r(&t, &tm) || strftime(date, sizeof(date), fmt, &tm) == 0)
			snprintf(date, sizeof(date), "%lld", (long long)t);
		printf("%s %*llu %*llu %*llu ", mode,
		       wl, (unsigned long long)st->st_nlink,
		       wu, (unsigned long long)st->st_uid,
		       wg, (unsigned long long)st->st_gid);
		if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))	/* "MAJ, MIN" as GNU ls */
			printf("%*llu, %*llu", ws - 2 - wmin, DEV_MAJOR(st->st_rdev), wmin, DEV_MINOR(st->st_rdev));
		else
			printf("%*llu", ws, (unsigned long long)st->st_size);
		printf(" %s %s", date, e[i].name);
		if (S_ISLNK(st->st_mode)) { /* "name -> target", as GNU ls -l */
			char target[4096];
			ssize_t n = e[i].target ? 0 : readlink(e[i].path, target, sizeof(target) - 1);
			if (e[i].target)
				printf(" -> %s", e[i].target);
			else if (n >= 0)
				printf(" -> %.*s", (int)n, target);
		}
		printf("\n");
	}
}

static void list_dir(const char *path)
{
	DIR *d = opendir(path);
	if (!d) {
		fail(2, "cannot open directory", path);
		return;
	}
	size_t n = 0, cap = 16;
	struct entry *e = xmalloc(cap * sizeof(*e));
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		if (nm[0] == '.') {
			int dots = nm[1] == '\0' || (nm[1] == '.' && nm[2] == '\0');
			if (!opt_all && !(opt_almost && !dots))
				continue;
		}
		if (n == cap) {
			cap *= 2;
			e = realloc(e, cap * sizeof(*e));
			if (!e) {
				fprintf(stderr, "ls: %s\n", strerror(ENOMEM));
				exit(2);
			}
		}
		e[n].name = xstrdup(nm);
		e[n].path = NULL;
		e[n].target = NULL;
		if (opt_long) {
			e[n].path = tool_join(path, nm, strlen(nm));
			if (lstat(e[n].path, &e[n].st) < 0) {
				fail(1, "cannot access", e[n].path);
				free(e[n].name);
				free(e[n].path);
				errno = 0;
				continue;
			}
			if (S_ISLNK(e[n].st.st_mode)) {
				/* now, while the directory is open, as GNU ls:
				 * /proc/self/fd's link to it goes with it */
				char target[4096];
				ssize_t k = readlink(e[n].path, target, sizeof(target) - 1);
				if (k >= 0) {
					target[k] = '\0';
					e[n].target = xstrdup(target);
				}
			}
		}
		n++;
		errno = 0;
	}
	if (errno)
		fail(2, "reading directory", path);
	closedir(d);
	qsort(e, n, sizeof(*e), by_name);
	print_entries(e, n, 1, e, n);
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
		free(e[i].target);
	}
	free(e);
}

static int ls_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'a': opt_all = 1; break;
	case 'A': opt_almost = 1; break;
	case 'd': opt_dir = 1; break;
	case 'l': case 'n': opt_long = 1; break;
	case '1': break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "ls", .usage = "ls [-1aAdln] [FILE]...", .flag = ls_flag };
	char **ops;
	int i, nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 2;
	if (nops == 0)
		ops[nops++] = ".";
	now = time(NULL);

	/* Operands: files (and, with -d, directories) first, then directories. */
	struct entry *all = xmalloc(sizeof(*all) * (size_t)nops);
	struct entry *files = xmalloc(sizeof(*files) * (size_t)nops);
	struct entry *dirs = xmalloc(sizeof(*dirs) * (size_t)nops);
	size_t nf = 0, nd = 0, na = 0;
	for (i = 0; i < nops; i++) {
		struct stat st;
		/* As GNU ls: -l and -d show a symbolic link operand itself. */
		int r = opt_long || opt_dir ? lstat(ops[i], &st) : stat(ops[i], &st);
		if (r < 0 && lstat(ops[i], &st) < 0) {
			fail(2, "cannot access", ops[i]);
			continue;
		}
		struct entry *e = !opt_dir && S_ISDIR(st.st_mode) ? &dirs[nd++] : &files[nf++];
		e->name = ops[i];
		e->path = ops[i];
		e->target = NULL;
		e->st = st;
		all[na++] = *e;
	}
	qsort(files, nf, sizeof(*files), by_name);
	qsort(dirs, nd, sizeof(*dirs), by_name);
	print_entries(files, nf, 0, all, na);
	for (size_t k = 0; k < nd; k++) {
		if (nops > 1 || nf > 0 || status) {
			if (nf > 0 || k > 0)
				putchar('\n');
			printf("%s:\n", dirs[k].name);
		}
		list_dir(dirs[k].path);
	}
	return tool_flush("ls", status, 2);
}
