/*
 * pattern.c: shell patterns (* ? [...] with classes), used by case,
 * ${NAME%pattern} and the like, and pathname expansion (globbing).
 */
#include "sh.h"

static int class_match(const char *name, size_t n, int c)
{
	static const struct {
		const char *name;
		int (*fn)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank }, { "cntrl", iscntrl },
		{ "digit", isdigit }, { "graph", isgraph }, { "lower", islower }, { "print", isprint },
		{ "punct", ispunct }, { "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i].name) == n && !strncmp(classes[i].name, name, n))
			return classes[i].fn(c) != 0;
	return 0;
}

/* A bracket expression after its '[': 1 match, 0 none, -1 not one. */
static int bracket(const char *p, unsigned char c, const char **endp)
{
	int neg = 0, ok = 0;
	if (*p == '!' || *p == '^') {
		neg = 1;
		p++;
	}
	const char *start = p;
	while (*p && (*p != ']' || p == start)) {
		if (p[0] == '[' && p[1] == ':') {
			const char *e = strstr(p + 2, ":]");
			if (e) {
				if (class_match(p + 2, (size_t)(e - p - 2), c))
					ok = 1;
				p = e + 2;
				continue;
			}
		}
		if (*p == '\\' && p[1])
			p++;
		unsigned char lo = (unsigned char)*p++, hi = lo;
		if (p[0] == '-' && p[1] && p[1] != ']') {
			p++;
			if (*p == '\\' && p[1])
				p++;
			hi = (unsigned char)*p++;
		}
		if (lo <= c && c <= hi)
			ok = 1;
	}
	if (*p != ']')
		return -1;
	*endp = p + 1;
	return ok != neg;
}

int pmatch(const char *p, const char *s)
{
	for (;;) {
		char c = *p;
		if (!c)
			return !*s;
		if (c == '*') {
			while (*p == '*')
				p++;
			if (!*p)
				return 1;
			for (;; s++) {
				if (pmatch(p, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (!*s)
			return 0;
		if (c == '?') {
			p++;
			s++;
			continue;
		}
		if (c == '[') {
			const char *e;
			int r = bracket(p + 1, (unsigned char)*s, &e);
			if (r >= 0) {
				if (!r)
					return 0;
				p = e;
				s++;
				continue;
			}
		}
		if (c == '\\' && p[1])
			c = *++p;
		if (c != *s)
			return 0;
		p++;
		s++;
	}
}

int has_magic(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '*' || *p == '?') {
			return 1;
		} else if (*p == '[') {
			const char *e;
			if (bracket(p + 1, 0, &e) >= 0)
				return 1;
		}
	}
	return 0;
}

static char *unescape(const char *p)
{
	struct str b = {0};
	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		s_addc(&b, *p);
	}
	return s_take(&b);
}

static char *concat3(const char *a, const char *b, const char *c)
{
	struct str s = {0};
	s_adds(&s, a);
	s_adds(&s, b);
	s_adds(&s, c);
	return s_take(&s);
}

/* Pathname expansion: dir is the prefix so far ("" or ending in '/'),
 * pat the rest of the pattern. */
static void glob_rec(const char *dir, const char *pat, struct vec *out)
{
	const char *slash = strchr(pat, '/');
	size_t clen = slash ? (size_t)(slash - pat) : strlen(pat);
	char *comp = xstrndup(pat, clen);
	const char *rest = slash;
	while (rest && *rest == '/')
		rest++;
	if (!has_magic(comp)) {
		char *lit = unescape(comp);
		char *path = concat3(dir, lit, "");
		struct stat st;
		if (rest && *rest) {
			char *nd = concat3(path, "/", "");
			glob_rec(nd, rest, out);
			free(nd);
		} else if (lstat(path, &st) == 0 && (!rest || S_ISDIR(st.st_mode))) {
			v_push(out, rest ? concat3(path, "/", "") : xstrdup(path));
		}
		free(path);
		free(lit);
		free(comp);
		return;
	}
	DIR *d = opendir(*dir ? dir : ".");
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			const char *nm = e->d_name;
			if (nm[0] == '.' && comp[0] != '.')
				continue;
			if (!pmatch(comp, nm))
				continue;
			char *path = concat3(dir, nm, "");
			if (rest && *rest) {
				char *nd = concat3(path, "/", "");
				glob_rec(nd, rest, out);
				free(nd);
			} else if (rest) {
				struct stat st;
				if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
					v_push(out, concat3(path, "/", ""));
			} else {
				v_push(out, xstrdup(path));
			}
			free(path);
		}
		closedir(d);
	}
	free(comp);
}

void glob_expand(const char *pat, struct vec *out)
{
	if (*pat == '/') {
		while (*pat == '/')
			pat++;
		glob_rec("/", pat, out);
	} else {
		glob_rec("", pat, out);
	}
}
