/*
 * lineterm.c: line editing on the terminal (the logic is lineedit.c and
 * history.c). When standard input is a terminal, the interactive shell
 * reads each command line key by key with the terminal in non-canonical
 * mode without echo: it echoes and redraws the line itself, recalls
 * history (Up/Down, !! and !N), completes command names and paths (Tab),
 * and keeps the history in $HOME/.sh_history when it can write there. The
 * terminal's own settings are put back before the line runs. A piped or
 * redirected standard input is read as is (input.c). A redraw returns to
 * the start of the screen row (CR): a line longer than the terminal is
 * wide is not redrawn right (a serial line does not say its width).
 */
#include "sh.h"
#include "lineedit.h"
#include <dirent.h>
#include <sys/ioctl.h>
#include <termios.h>

static struct le_hist hist = { .max = 500 };
static int hist_fd = -1;	/* $HOME/.sh_history, open to append; -1: none */
static int editing;		/* line editing is on (le_setup) */
/* Input the terminal holds, in order, as runs of bytes that were echoed
 * already (they came while the terminal was in canonical mode between two
 * lines: its own echo showed them) or not (they came while the editor
 * read without echo and were left for the next line, which echoes them). */
#define RUNS 16
static struct run {
	size_t len;
	int echoed;
} runs[RUNS];
static int nruns;

static size_t runs_total(void)
{
	size_t n = 0;
	for (int i = 0; i < nruns; i++)
		n += runs[i].len;
	return n;
}

/* Adds a run of n bytes at the end (merged with a last one alike). */
static void runs_add(size_t n, int echoed)
{
	if (!n)
		return;
	if (nruns && runs[nruns - 1].echoed == echoed) {
		runs[nruns - 1].len += n;
	} else if (nruns < RUNS) {
		runs[nruns++] = (struct run){ n, echoed };
	} else {
		runs[nruns - 1].len += n; /* out of places: an approximation */
	}
}

/* The next byte read: was it echoed already? (And takes it off.) */
static int runs_take(void)
{
	if (!nruns)
		return 0;
	int e = runs[0].echoed;
	if (--runs[0].len == 0) {
		memmove(runs, runs + 1, (size_t)(nruns - 1) * sizeof(runs[0]));
		nruns--;
	}
	return e;
}

/* What the terminal holds now: a count that went down (input discarded)
 * drops what is known, one that went up adds the new bytes as a run. */
static void runs_sync(size_t pending, int echoed)
{
	size_t known = runs_total();
	if (pending < known)
		nruns = 0, known = 0;
	runs_add(pending - known, echoed);
}

/* Output of one redraw, written at once. */
struct out {
	char b[1024];
	size_t n;
};

static void out_flush(struct out *o)
{
	size_t off = 0;
	while (off < o->n) {
		ssize_t w = write(2, o->b + off, o->n - off);
		if (w <= 0 && errno != EINTR)
			break;
		if (w > 0)
			off += (size_t)w;
	}
	o->n = 0;
}

static void out_add(struct out *o, const char *s, size_t n)
{
	while (n) {
		if (o->n == sizeof(o->b))
			out_flush(o);
		size_t k = sizeof(o->b) - o->n < n ? sizeof(o->b) - o->n : n;
		memcpy(o->b + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
	}
}

static void out_str(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* The prompt's last line: what a redraw starts with. */
static const char *prompt_tail(const char *p)
{
	const char *nl = strrchr(p, '\n');
	return nl ? nl + 1 : p;
}

/* Draws the prompt and the line again, the cursor in its place. */
static void refresh(struct out *o, const char *prompt, const struct le_line *l)
{
	out_str(o, "\r");
	out_str(o, prompt_tail(prompt));
	out_add(o, l->s ? l->s : "", l->len);
	out_str(o, "\x1b[K");
	if (l->len > l->pos) {
		char mv[24];
		snprintf(mv, sizeof(mv), "\x1b[%zuD", l->len - l->pos);
		out_str(o, mv);
	}
	out_flush(o);
}

void le_setup(void)
{
	editing = isatty(0) && isatty(2);
	if (!editing)
		return;
	const char *home = getvar("HOME");
	if (!home || !*home)
		return;
	char path[512];
	snprintf(path, sizeof(path), "%s/.sh_history", home);
	FILE *f = fopen(path, "r");
	if (f) {
		char line[1024];
		while (fgets(line, sizeof(line), f))
			le_hist_add(&hist, line);
		fclose(f);
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		hist_fd = move_high(fd);
}

int le_enabled(const struct source *s)
{
	/* still a terminal: `exec < file` makes it a script to read as is */
	return editing && s->interactive && s->fd == 0 && isatty(0);
}

/* Keeps a line typed in the history (and its file). */
static void remember(const char *line)
{
	if (!le_hist_add(&hist, line) || hist_fd < 0)
		return;
	const char *last = le_hist_get(&hist, le_hist_last(&hist));
	struct out o = { .n = 0 };
	out_str(&o, last);
	out_str(&o, "\n");
	if (write(hist_fd, o.b, o.n) < 0) {
		close(hist_fd); /* a full or read-only disk: history in memory only */
		hist_fd = -1;
	}
}

/* -- completion ------------------------------------------------------- */

struct names {
	char **v;
	int n, cap;
};

static void names_add(struct names *ns, const char *name, const char *suffix)
{
	for (int i = 0; i < ns->n; i++)
		if (!strncmp(ns->v[i], name, strlen(name)) && !strcmp(ns->v[i] + strlen(name), suffix))
			return;
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 16;
		char **v = realloc(ns->v, (size_t)ns->cap * sizeof(char *));
		if (!v)
			return;
		ns->v = v;
	}
	size_t a = strlen(name), b = strlen(suffix);
	char *s = xmalloc(a + b + 1);
	memcpy(s, name, a);
	memcpy(s + a, suffix, b + 1);
	ns->v[ns->n++] = s;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir starting with prefix (dot files only for a dot
 * prefix), directories with a '/'; executables only if exe. */
static void names_in_dir(struct names *ns, const char *dir, const char *prefix, size_t plen, int exe)
{
	DIR *d = opendir(*dir ? dir : ".");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, plen) || (e->d_name[0] == '.' && (plen == 0 || prefix[0] != '.')))
			continue;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char path[1024];
		snprintf(path, sizeof(path), "%s%s%s", dir, *dir && dir[strlen(dir) - 1] != '/' ? "/" : "",
			 e->d_name);
		struct stat st;
		int isdir = stat(*dir ? path : e->d_name, &st) == 0 && S_ISDIR(st.st_mode);
		if (exe && (isdir || access(path, X_OK) != 0))
			continue;
		names_add(ns, e->d_name, isdir ? "/" : "");
	}
	closedir(d);
}

/* Candidates for word (len bytes): commands (builtins and $PATH) in
 * command position without a '/', else paths. *base: where the part
 * the candidates replace starts in word. */
static void candidates(struct names *ns, const char *word, size_t len, int command, size_t *base)
{
	char w[512];
	if (len >= sizeof(w))
		len = sizeof(w) - 1;
	memcpy(w, word, len);
	w[len] = 0;
	char *slash = strrchr(w, '/');
	if (command && !slash) {
		*base = 0;
		for (int i = 0; builtin_name(i); i++)
			if (!strncmp(builtin_name(i), w, len))
				names_add(ns, builtin_name(i), "");
		const char *path = getvar("PATH");
		char dirs[1024];
		snprintf(dirs, sizeof(dirs), "%s", path ? path : "/bin");
		for (char *dir = strtok(dirs, ":"); dir; dir = strtok(NULL, ":"))
			names_in_dir(ns, dir, w, len, 1);
	} else {
		*base = slash ? (size_t)(slash - w) + 1 : 0;
		char dir[512];
		if (slash) {
			size_t dl = (size_t)(slash - w) + 1;
			memcpy(dir, w, dl);
			dir[dl] = 0;
		} else {
			dir[0] = 0;
		}
		names_in_dir(ns, dir, w + *base, strlen(w + *base), 0);
	}
	qsort(ns->v, (size_t)ns->n, sizeof(char *), cmp_names);
}

/* Tab: completes the word before the cursor as far as it is unique; a
 * second Tab in a row lists the candidates. */
static void complete(struct out *o, const char *prompt, struct le_line *l, int again)
{
	int command;
	size_t start = le_word_start(l->s ? l->s : "", l->pos, &command), base;
	struct names ns = { 0 };
	candidates(&ns, l->s + start, l->pos - start, command, &base);
	size_t have = l->pos - start - base;
	if (ns.n == 0) {
		out_str(o, "\a");
	} else if (ns.n == 1) {
		const char *c = ns.v[0];
		le_insert(l, c + have, strlen(c) - have);
		if (c[strlen(c) - 1] != '/')
			le_insert(l, " ", 1);
	} else {
		size_t common = le_common_prefix(ns.v, ns.n);
		if (common > have) {
			le_insert(l, ns.v[0] + have, common - have);
		} else if (again) {
			out_str(o, "\n");
			for (int i = 0; i < ns.n; i++) {
				out_str(o, ns.v[i]);
				out_str(o, i + 1 < ns.n ? "  " : "\n");
			}
		} else {
			out_str(o, "\a");
		}
	}
	refresh(o, prompt, l);
	for (int i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
}

/* -- reading a line --------------------------------------------------- */

/* Up and Down: *at is the history line shown (last + 1: the new one,
 * kept in *draft meanwhile). */
static void recall(struct le_line *l, int *at, int dir, char **draft)
{
	int first = le_hist_last(&hist) - hist.n + 1, last = le_hist_last(&hist);
	int to = *at + dir;
	if (to < first || to > last + 1 || hist.n == 0)
		return;
	if (*at == last + 1) {
		free(*draft);
		*draft = xstrdup(l->s ? l->s : "");
	}
	*at = to;
	le_set(l, to == last + 1 ? *draft : le_hist_get(&hist, to));
}

/* The edited line, on Enter: history expanded (and shown, as bash), kept;
 * NULL for an event not found (said). */
static char *finish(struct out *o, struct le_line *l)
{
	char *line = xstrdup(l->s ? l->s : ""), *expanded;
	int r = strchr(line, '!') ? le_hist_expand(&hist, line, &expanded) : 0;
	if (r < 0) {
		out_str(o, "sh: ");
		out_str(o, expanded ? expanded : "!");
		out_str(o, ": event not found\n");
		out_flush(o);
		free(expanded);
		free(line);
		return NULL;
	}
	if (r > 0) {
		free(line);
		line = expanded;
		out_str(o, line);
		out_str(o, "\n");
		out_flush(o);
	}
	remember(line);
	size_t n = strlen(line);
	char *withnl = xmalloc(n + 2);
	memcpy(withnl, line, n);
	memcpy(withnl + n, "\n", 2);
	free(line);
	return withnl;
}

/* One key on the line; returns 1 when the line is done (*result: the
 * line, NULL at end of input), 0 to go on. */
static int key(struct out *o, const char *prompt, struct le_line *l, enum le_key k, char ch,
	       int *hist_at, char **draft, int again, char **result, int *intr)
{
	switch (k) {
	case LE_CHAR:
		if (l->pos == l->len) { /* at the end: just the byte, as a terminal echoes */
			le_insert(l, &ch, 1);
			out_add(o, &ch, 1);
			out_flush(o);
			return 0;
		}
		le_insert(l, &ch, 1);
		break;
	case LE_ENTER:
		out_str(o, "\n");
		out_flush(o);
		*result = finish(o, l);
		if (!*result)
			*result = xstrdup("\n");
		return 1;
	case LE_INTR:
		out_str(o, "^C\n");
		out_flush(o);
		*intr = 1;
		*result = NULL;
		return 1;
	case LE_EOF:
		if (l->len == 0) {
			*result = NULL;
			return 1;
		}
		le_delete_range(l, l->pos, l->pos + 1); /* on a line: as Delete */
		break;
	case LE_DELETE:
		le_delete_range(l, l->pos, l->pos + 1);
		break;
	case LE_BACKSPACE:
		if (!l->pos)
			return 0;
		if (l->pos == l->len) {
			le_delete_range(l, l->pos - 1, l->pos);
			out_str(o, "\b \b");
			out_flush(o);
			return 0;
		}
		le_delete_range(l, l->pos - 1, l->pos);
		break;
	case LE_LEFT: if (l->pos) l->pos--; break;
	case LE_RIGHT: if (l->pos < l->len) l->pos++; break;
	case LE_HOME: l->pos = 0; break;
	case LE_END: l->pos = l->len; break;
	case LE_KILL_END: le_delete_range(l, l->pos, l->len); break;
	case LE_KILL_START: le_delete_range(l, 0, l->pos); break;
	case LE_KILL_WORD: le_delete_range(l, le_word_back(l), l->pos); break;
	case LE_UP: recall(l, hist_at, -1, draft); break;
	case LE_DOWN: recall(l, hist_at, 1, draft); break;
	case LE_CLEAR: out_str(o, "\x1b[H\x1b[2J"); break;
	case LE_TRANSPOSE:
		if (l->pos && l->len >= 2) {
			size_t p = l->pos == l->len ? l->pos - 1 : l->pos;
			char t = l->s[p];
			l->s[p] = l->s[p - 1];
			l->s[p - 1] = t;
			l->pos = p + 1;
		}
		break;
	case LE_TAB:
		complete(o, prompt, l, again);
		return 0;
	case LE_NONE:
		return 0;
	}
	refresh(o, prompt, l);
	return 0;
}

char *le_readline(struct source *s)
{
	const char *prompt = s->prompt ? s->prompt : "";
	struct termios saved, raw;
	if (tcgetattr(0, &saved) != 0)
		return NULL;
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
	raw.c_iflag |= ICRNL;
	raw.c_oflag |= OPOST | ONLCR; /* the editor writes "\n" for a new line */
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(0, TCSANOW, &raw);
	/* What came since the last line was read came in canonical mode,
	 * echoed by the terminal. */
	int pending = 0;
	ioctl(0, FIONREAD, &pending);
	runs_sync((size_t)(pending > 0 ? pending : 0), 1);
	struct out o = { .n = 0 };
	out_str(&o, prompt);
	out_flush(&o);
	struct le_line l = { 0 };
	struct le_keys keys = { 0 };
	int hist_at = le_hist_last(&hist) + 1, intr = 0, last_tab = 0;
	char *draft = NULL, *result = NULL;
	for (;;) {
		unsigned char c;
		ssize_t r = read(0, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			result = NULL;
			break;
		}
		if (runs_take()) { /* echoed already: take it as typed, quietly */
			if (c == '\n' || c == '\r') {
				result = finish(&o, &l);
				if (!result)
					result = xstrdup("\n");
				break;
			}
			if (c != 0x04)
				le_insert(&l, (const char *)&c, 1);
			continue;
		}
		enum le_key k = le_key_feed(&keys, c);
		int done = key(&o, prompt, &l, k, (char)c, &hist_at, &draft, last_tab, &result, &intr);
		last_tab = k == LE_TAB;
		if (done)
			break;
	}
	/* What came meanwhile, unread, came without echo. */
	pending = 0;
	ioctl(0, FIONREAD, &pending);
	runs_sync((size_t)(pending > 0 ? pending : 0), 0);
	tcsetattr(0, TCSANOW, &saved);
	le_free(&l);
	free(draft);
	if (intr)
		s->intr = 1;
	return result;
}

/* history [N]: the history, numbered, or its last N lines. */
int bi_history(int argc, char **argv)
{
	int from = le_hist_last(&hist) - hist.n + 1, last = le_hist_last(&hist);
	if (argc > 2) {
		warn("history: too many arguments");
		return 2;
	}
	if (argc == 2) {
		char *end;
		long n = strtol(argv[1], &end, 10);
		if (*end || n < 0 || !*argv[1]) {
			warn("history: %s: numeric argument required", argv[1]);
			return 2;
		}
		if (last - n + 1 > from)
			from = last - (int)n + 1;
	}
	for (int i = from; i <= last; i++)
		fdprintf(1, "%5d  %s\n", i, le_hist_get(&hist, i));
	return 0;
}
