/*
 * vars.c: shell variables (the hash table, exported and readonly flags,
 * the environment given to programs), the positional parameters, function
 * call frames with their local variables, and the table of functions.
 */
#include "sh.h"

struct sh_vars vars;

static unsigned vhash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NBUCKET;
}

struct var *vfind(const char *name)
{
	for (struct var *v = vars.tab[vhash(name)]; v; v = v->next)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

static struct var *vmake(const char *name)
{
	struct var *v = vfind(name);
	if (!v) {
		unsigned h = vhash(name);
		v = xmalloc(sizeof(*v));
		v->name = xstrdup(name);
		v->val = NULL;
		v->flags = 0;
		v->next = vars.tab[h];
		vars.tab[h] = v;
	}
	return v;
}

const char *getvar(const char *name)
{
	struct var *v = vfind(name);
	return v ? v->val : NULL;
}

int setvar(const char *name, const char *val, int flags)
{
	struct var *v = vmake(name);
	if (val && (v->flags & V_RO)) {
		warn("%s: is read only", name);
		return -1;
	}
	if (val) {
		char *nv = xstrdup(val);
		free(v->val);
		v->val = nv;
	}
	v->flags |= flags;
	return 0;
}

void var_drop(const char *name)
{
	struct var **pv = &vars.tab[vhash(name)];
	for (; *pv; pv = &(*pv)->next) {
		if (!strcmp((*pv)->name, name)) {
			struct var *v = *pv;
			*pv = v->next;
			free(v->name);
			free(v->val);
			free(v);
			return;
		}
	}
}

int unsetvar(const char *name)
{
	struct var *v = vfind(name);
	if (v && (v->flags & V_RO)) {
		warn("%s: is read only", name);
		return -1;
	}
	var_drop(name);
	return 0;
}

void var_restore(const char *name, int existed, const char *val, int flags)
{
	if (!existed) {
		var_drop(name);
		return;
	}
	struct var *v = vmake(name);
	free(v->val);
	v->val = val ? xstrdup(val) : NULL;
	v->flags = flags;
}

int set_assignment(const char *a, int flags)
{
	const char *eq = strchr(a, '=');
	char *name = xstrndup(a, (size_t)(eq - a));
	int r = setvar(name, eq + 1, flags);
	free(name);
	return r;
}

struct var **sorted_vars(size_t *count)
{
	size_t n = 0;
	for (int i = 0; i < NBUCKET; i++)
		for (struct var *v = vars.tab[i]; v; v = v->next)
			n++;
	struct var **a = xmalloc((n + 1) * sizeof(*a));
	n = 0;
	for (int i = 0; i < NBUCKET; i++)
		for (struct var *v = vars.tab[i]; v; v = v->next)
			a[n++] = v;
	for (size_t i = 1; i < n; i++) {	/* insertion sort by name */
		struct var *x = a[i];
		size_t j = i;
		for (; j > 0 && strcmp(a[j - 1]->name, x->name) > 0; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
	*count = n;
	return a;
}

char **build_env(void)
{
	struct vec e = {0};
	for (int i = 0; i < NBUCKET; i++) {
		for (struct var *v = vars.tab[i]; v; v = v->next) {
			if (!(v->flags & V_EXPORT) || !v->val)
				continue;
			struct str b = {0};
			s_adds(&b, v->name);
			s_addc(&b, '=');
			s_adds(&b, v->val);
			v_push(&e, s_take(&b));
		}
	}
	if (!e.v)
		v_push(&e, NULL);
	return e.v;
}

static char **dup_strv(char **v, int n)
{
	char **r = xmalloc(((size_t)n + 1) * sizeof(char *));
	for (int i = 0; i < n; i++)
		r[i] = xstrdup(v[i]);
	r[n] = NULL;
	return r;
}

static void free_strv(char **v, int n)
{
	if (!v)
		return;
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void set_params(char **v, int n)
{
	char **nv = dup_strv(v, n);
	free_strv(vars.pp, vars.npp);
	vars.pp = nv;
	vars.npp = n;
}

void frame_push(char **argv, int argc)
{
	struct frame *f = xmalloc(sizeof(*f));
	f->up = vars.frames;
	f->pp = vars.pp;
	f->npp = vars.npp;
	f->locals = NULL;
	vars.frames = f;
	vars.pp = dup_strv(argv, argc);
	vars.npp = argc;
}

void frame_pop(void)
{
	struct frame *f = vars.frames;
	while (f->locals) {
		struct saved_var *s = f->locals;
		f->locals = s->next;
		var_restore(s->name, s->existed, s->val, s->flags);
		free(s->name);
		free(s->val);
		free(s);
	}
	free_strv(vars.pp, vars.npp);
	vars.pp = f->pp;
	vars.npp = f->npp;
	vars.frames = f->up;
	free(f);
}

void make_local(const char *name)
{
	for (struct saved_var *s = vars.frames->locals; s; s = s->next)
		if (!strcmp(s->name, name))
			return;
	struct saved_var *s = xmalloc(sizeof(*s));
	struct var *v = vfind(name);
	s->name = xstrdup(name);
	s->existed = v != NULL;
	s->val = v && v->val ? xstrdup(v->val) : NULL;
	s->flags = v ? v->flags : 0;
	s->next = vars.frames->locals;
	vars.frames->locals = s;
}

struct func *find_func(const char *name)
{
	for (struct func *f = vars.funcs; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

void define_func(const char *name, struct node *body)
{
	struct func *f = find_func(name);
	if (!f) {
		f = xmalloc(sizeof(*f));
		f->name = xstrdup(name);
		f->next = vars.funcs;
		vars.funcs = f;
	}
	f->body = body;
}

int unset_func(const char *name)
{
	for (struct func **pf = &vars.funcs; *pf; pf = &(*pf)->next) {
		if (!strcmp((*pf)->name, name)) {
			struct func *f = *pf;
			*pf = f->next;
			free(f->name);
			free(f);
			return 0;
		}
	}
	return 0;
}
