/* df [-ahkT] [FILE]...: file-system space, as GNU df:
     Filesystem     1K-blocks  Used Available Use% Mounted on
   one line per mount of /proc/mounts (statfs of its target), or per mount
   holding each FILE. Use% is Used / (Used + Available), rounded up; "-"
   for a file system of no size.
     -a  also the pseudo file systems of no size (proc, cgroup2, devfs)
     -h  sizes as 4.0K, 12M (powers of 1024): columns Size Used Avail
     -T  a Type column after Filesystem      -k  1K blocks (the default)
   "df: F: ..." and status 1 for a FILE that cannot be examined. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include "lib/tool.h"

#define MAX_MOUNTS 64

static int opt_all, opt_human, opt_type;

struct row {
	char *cell[7];		/* source, type, size, used, avail, use%, target */
};

static struct row rows[MAX_MOUNTS + 1];
static int nrows;

struct mnt {
	char source[256], target[PATH_MAX], type[64];
};

/* /proc/mounts's "\040" escapes back into bytes, in place. */
static void unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static int read_mounts(struct mnt *m)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[2 * PATH_MAX];
	int n = 0;
	if (!f)
		return -1;
	while (n < MAX_MOUNTS && fgets(line, sizeof(line), f)) {
		char *src = strtok(line, " "), *tgt = strtok(NULL, " "), *type = strtok(NULL, " ");
		if (!src || !tgt || !type)
			continue;
		unescape(src);
		unescape(tgt);
		snprintf(m[n].source, sizeof(m[n].source), "%s", src);
		snprintf(m[n].target, sizeof(m[n].target), "%s", tgt);
		snprintf(m[n].type, sizeof(m[n].type), "%s", type);
		n++;
	}
	fclose(f);
	return n;
}

static char *dup_text(const char *s)
{
	char *p = tool_xrealloc("df", 1, NULL, strlen(s) + 1);
	strcpy(p, s);
	return p;
}

/* kib KiB as GNU's -h shows it. */
static char *human(unsigned long long kib)
{
	char buf[32];
	const char *units = "KMGTPE";
	if (kib == 0)
		return dup_text("0");
	double v = (double)kib;
	int u = 0;
	while (v >= 1024 && units[u + 1]) {
		v /= 1024;
		u++;
	}
	if (v < 10) {
		unsigned long long tenths = (unsigned long long)(v * 10);
		if ((double)tenths < v * 10)
			tenths++;
		if (tenths >= 100)
			snprintf(buf, sizeof(buf), "%llu%c", tenths / 10, units[u]);
		else
			snprintf(buf, sizeof(buf), "%llu.%llu%c", tenths / 10, tenths % 10, units[u]);
	} else {
		unsigned long long w = (unsigned long long)v;
		if ((double)w < v)
			w++;
		snprintf(buf, sizeof(buf), "%llu%c", w, units[u]);
	}
	return dup_text(buf);
}

static char *number(unsigned long long kib)
{
	char buf[32];
	if (opt_human)
		return human(kib);
	snprintf(buf, sizeof(buf), "%llu", kib);
	return dup_text(buf);
}

static int add_row(const struct mnt *m, int given)
{
	struct statfs st;
	if (statfs(m->target, &st) < 0) {
		fprintf(stderr, "df: %s: %s\n", m->target, strerror(errno));
		return 1;
	}
	if (st.f_blocks == 0 && !opt_all && !given)
		return 0;
	unsigned long long unit = (unsigned long long)(st.f_frsize ? st.f_frsize : st.f_bsize);
	unsigned long long size = st.f_blocks * unit / 1024, avail = st.f_bavail * unit / 1024;
	unsigned long long used = (st.f_blocks - st.f_bfree) * unit / 1024;
	char pct[8];
	if (used + avail == 0)
		strcpy(pct, "-");
	else
		snprintf(pct, sizeof(pct), "%llu%%", (used * 100 + used + avail - 1) / (used + avail));
	struct row *r = &rows[nrows++];
	r->cell[0] = dup_text(m->source[0] ? m->source : "none");
	r->cell[1] = dup_text(m->type);
	r->cell[2] = number(size);
	r->cell[3] = number(used);
	r->cell[4] = number(avail);
	r->cell[5] = dup_text(pct);
	r->cell[6] = dup_text(m->target);
	return 0;
}

/* The mount holding path: the longest target that is a prefix of its
 * canonical path. */
static const struct mnt *holder(const struct mnt *m, int n, const char *path)
{
	char real[PATH_MAX];
	const struct mnt *best = NULL;
	size_t bl = 0;
	if (tool_canonical(path, 1, real) < 0)
		return NULL;
	for (int i = 0; i < n; i++) {
		size_t t = strlen(m[i].target);
		int under = t == 1 || (strncmp(real, m[i].target, t) == 0 && (real[t] == '/' || !real[t]));
		if (under && t >= bl) {
			best = &m[i];
			bl = t;
		}
	}
	return best;
}

static void print_rows(void)
{
	static const int min[7] = { 14, 0, 5, 5, 5, 4, 0 };
	int w[7];
	for (int c = 0; c < 7; c++) {
		w[c] = min[c];
		for (int i = 0; i < nrows; i++)
			if ((int)strlen(rows[i].cell[c]) > w[c])
				w[c] = (int)strlen(rows[i].cell[c]);
	}
	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		printf("%-*s", w[0], r->cell[0]);
		if (opt_type)
			printf(" %-*s", w[1], r->cell[1]);
		printf(" %*s %*s %*s %*s %s\n", w[2], r->cell[2], w[3], r->cell[3], w[4], r->cell[4], w[5],
		       r->cell[5], r->cell[6]);
	}
}

static int df_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'a': opt_all = 1; break;
	case 'h': opt_human = 1; break;
	case 'T': opt_type = 1; break;
	case 'k': opt_human = 0; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "df", .gnu_try = 1, .flag = df_flag };
	static struct mnt m[MAX_MOUNTS];
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	int n = read_mounts(m);
	if (n < 0) {
		fprintf(stderr, "df: /proc/mounts: %s\n", strerror(errno));
		return 1;
	}
	rows[nrows++] = (struct row){ { "Filesystem", "Type", opt_human ? "Size" : "1K-blocks", "Used",
					opt_human ? "Avail" : "Available", "Use%", "Mounted on" } };
	for (int i = 0; i < nops; i++) {
		const struct mnt *h = holder(m, n, ops[i]);
		if (!h) {
			fprintf(stderr, "df: %s: %s\n", ops[i], strerror(errno ? errno : ENOENT));
			status = 1;
			continue;
		}
		status |= add_row(h, 1);
	}
	for (int i = 0; nops == 0 && i < n; i++)
		status |= add_row(&m[i], 0);
	if (nrows > 1) /* as GNU df: no header when no FILE could be shown */
		print_rows();
	return tool_flush("df", status, 1);
}
