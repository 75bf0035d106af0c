/*
 * util.c: the shell's small helpers: allocation that exits when memory
 * runs out, growing strings (struct str) and string vectors (struct vec),
 * output to a descriptor, error messages and the jump back to the command
 * loop, names and quoting.
 */
#include "sh.h"

static void nomem(void) NORETURN;
static void nomem(void)
{
	static const char m[] = "sh: out of memory\n";
	if (write(2, m, sizeof(m) - 1) < 0)
		_exit(2);
	_exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		nomem();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		nomem();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void s_addn(struct str *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2 + 16;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void s_addc(struct str *b, char c)
{
	s_addn(b, &c, 1);
}

void s_adds(struct str *b, const char *s)
{
	s_addn(b, s, strlen(s));
}

char *s_take(struct str *b)
{
	char *r = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->n = b->cap = 0;
	return r;
}

const char *s_cstr(const struct str *b)
{
	return b->s ? b->s : "";
}

void v_push(struct vec *v, char *s)
{
	if (v->n + 2 > v->cap) {
		v->cap = v->cap * 2 + 8;
		v->v = xrealloc(v->v, v->cap * sizeof(char *));
	}
	v->v[v->n++] = s;
	v->v[v->n] = NULL;
}

void v_free(struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void xwrite(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

void fdputs(int fd, const char *s)
{
	xwrite(fd, s, strlen(s));
}

static void vfdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[512];
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof(buf)) {
		char *p = xmalloc((size_t)n + 1);
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
		xwrite(fd, p, (size_t)n);
		free(p);
	} else if (n > 0) {
		xwrite(fd, buf, (size_t)n);
	}
	va_end(ap2);
}

void fdprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfdprintf(fd, fmt, ap);
	va_end(ap);
}

void warn(const char *fmt, ...)
{
	struct str b = {0};
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s_adds(&b, "sh: ");
	s_adds(&b, buf);
	s_addc(&b, '\n');
	xwrite(2, b.s, b.n);
	free(b.s);
}

void sh_abort(int status)
{
	sh.last_status = status;
	longjmp(*sh.top_jmp, 1);
}

void sh_error(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	warn("%s", buf);
	sh_abort(2);
}

int is_name_start(int c)
{
	return isalpha(c) || c == '_';
}

int is_name_char(int c)
{
	return isalnum(c) || c == '_';
}

int is_name(const char *s)
{
	if (!is_name_start((unsigned char)*s))
		return 0;
	while (*++s)
		if (!is_name_char((unsigned char)*s))
			return 0;
	return 1;
}

void sq_append(struct str *b, const char *s)
{
	s_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			s_adds(b, "'\\''");
		else
			s_addc(b, *s);
	}
	s_addc(b, '\'');
}

void maybe_quote(struct str *b, const char *s)
{
	const char *p = s;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("@%+=:,./-_", *p))
			break;
	if (*p || !*s)
		sq_append(b, s);
	else
		s_adds(b, s);
}

int move_high(int fd)
{
	int n = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (n < 0)
		return fd;
	close(fd);
	return n;
}

bool path_next(const char **pos, const char *name, struct str *full)
{
	const char *p = *pos;
	if (!p) {
		p = getvar("PATH");
		p = p ? p : "/bin";
	} else if (*p != ':') {
		return false; /* the last entry was done */
	} else {
		p++;
	}
	const char *c = strchr(p, ':');
	size_t n = c ? (size_t)(c - p) : strlen(p);
	*full = (struct str){ 0 };
	if (n) {
		s_addn(full, p, n);
		s_addc(full, '/');
	} else {
		s_adds(full, "./");
	}
	s_adds(full, name);
	*pos = p + n; /* at the ':' before the next entry, or the end */
	return true;
}
