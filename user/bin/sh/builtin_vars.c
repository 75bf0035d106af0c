/*
 * builtin_vars.c: the builtins about variables and options: export
 * readonly unset set local read.
 */
#include "sh.h"

static void list_vars(int flag, const char *prefix)
{
	size_t n;
	struct var **a = sorted_vars(&n);
	struct str b = {0};
	for (size_t i = 0; i < n; i++) {
		if (flag && !(a[i]->flags & flag))
			continue;
		if (!flag && !a[i]->val)
			continue;
		s_adds(&b, prefix);
		s_adds(&b, a[i]->name);
		if (a[i]->val) {
			s_addc(&b, '=');
			sq_append(&b, a[i]->val);
		}
		s_addc(&b, '\n');
	}
	if (b.n)
		xwrite(1, b.s, b.n);
	free(b.s);
	free(a);
}

static int export_or_readonly(int argc, char **argv, int flag)
{
	int i = 1, status = 0;
	if (i < argc && !strcmp(argv[i], "-p"))
		i++;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		list_vars(flag, flag == V_EXPORT ? "export " : "readonly ");
		return 0;
	}
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *name = eq ? xstrndup(argv[i], (size_t)(eq - argv[i])) : xstrdup(argv[i]);
		if (!is_name(name)) {
			warn("%s: %s: bad variable name", argv[0], name);
			status = 1;
		} else if (setvar(name, eq ? eq + 1 : NULL, flag) < 0) {
			status = 1;
		}
		free(name);
	}
	return status;
}

int bi_export(int argc, char **argv)
{
	return export_or_readonly(argc, argv, V_EXPORT);
}

int bi_readonly(int argc, char **argv)
{
	return export_or_readonly(argc, argv, V_RO);
}

int bi_unset(int argc, char **argv)
{
	int i = 1, fn = 0, status = 0;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-f"))
			fn = 1;
		else if (!strcmp(argv[i], "-v"))
			fn = 0;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			warn("unset: bad option %s", argv[i]);
			return 2;
		}
	}
	for (; i < argc; i++) {
		if (fn)
			unset_func(argv[i]);
		else if (unsetvar(argv[i]) < 0)
			status = 1;
	}
	return status;
}

int set_option(const char *name, int on)
{
	static const struct {
		const char *name;
		char letter;
		int *var;
	} opts[] = {
		{ "errexit", 'e', &sh.opt_e }, { "noglob", 'f', &sh.opt_f }, { "noexec", 'n', &sh.opt_n },
		{ "nounset", 'u', &sh.opt_u }, { "xtrace", 'x', &sh.opt_x },
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if ((name[1] == 0 && name[0] == opts[i].letter) || !strcmp(name, opts[i].name)) {
			*opts[i].var = on;
			return 0;
		}
	}
	if (!strcmp(name, "m") || !strcmp(name, "monitor") || !strcmp(name, "C") ||
	    !strcmp(name, "noclobber") || !strcmp(name, "v") || !strcmp(name, "verbose") ||
	    !strcmp(name, "h") || !strcmp(name, "b") || !strcmp(name, "notify"))
		return 0;	/* accepted, not implemented */
	return -1;
}

int bi_set(int argc, char **argv)
{
	if (argc == 1) {
		list_vars(0, "");
		return 0;
	}
	int i = 1;
	for (; i < argc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			set_params(argv + i, argc - i);
			return 0;
		}
		if ((a[0] != '-' && a[0] != '+') || !a[1])
			break;
		int on = a[0] == '-';
		if (a[1] == 'o' && !a[2]) {
			if (i + 1 >= argc) {
				fdprintf(1, "errexit\t%s\nnoglob\t%s\nnounset\t%s\nxtrace\t%s\n",
					 sh.opt_e ? "on" : "off", sh.opt_f ? "on" : "off", sh.opt_u ? "on" : "off",
					 sh.opt_x ? "on" : "off");
				continue;
			}
			if (set_option(argv[++i], on) < 0) {
				warn("set: %s: bad option name", argv[i]);
				return 2;
			}
			continue;
		}
		for (int j = 1; a[j]; j++) {
			char name[2] = { a[j], 0 };
			if (set_option(name, on) < 0) {
				warn("set: %c%c: bad option", a[0], a[j]);
				return 2;
			}
		}
	}
	if (i < argc)
		set_params(argv + i, argc - i);
	return 0;
}

int bi_local(int argc, char **argv)
{
	if (!vars.frames) {
		warn("local: not in a function");
		return 1;
	}
	int status = 0;
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *name = eq ? xstrndup(argv[i], (size_t)(eq - argv[i])) : xstrdup(argv[i]);
		if (!is_name(name)) {
			warn("local: %s: bad variable name", name);
			status = 1;
		} else {
			make_local(name);
			if (eq && setvar(name, eq + 1, 0) < 0)
				status = 1;
		}
		free(name);
	}
	return status;
}

int bi_read(int argc, char **argv)
{
	int raw = 0, i = 1;
	const char *prompt = NULL;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-r")) {
			raw = 1;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			prompt = argv[++i];
		} else {
			warn("read: bad option %s", argv[i]);
			return 2;
		}
	}
	if (prompt)
		fdputs(2, prompt);
	struct xb line = {0};
	int eof = 0;
	for (;;) {
		char c;
		ssize_t r = read(0, &c, 1);
		if (r < 0 && errno == EINTR) {
			if (sigs.got_sigint && sh.interactive) {
				xb_free(&line);
				check_interrupt();
			}
			continue;
		}
		if (r <= 0) {
			eof = 1;
			break;
		}
		if (c == '\n')
			break;
		if (c == '\\' && !raw) {
			r = read(0, &c, 1);
			if (r <= 0) {
				eof = 1;
				break;
			}
			if (c != '\n')
				xb_add(&line, c, F_Q);
			continue;
		}
		xb_add(&line, c, 0);
	}
	const char *ifs = ifs_chars();
	char *defname[] = { "REPLY", NULL };
	char **names = i < argc ? argv + i : defname;
	int nnames = i < argc ? argc - i : 1;
	size_t p = 0;
	int status = eof ? 1 : 0;
#define IS_IFS(k) (!(line.f[k] & F_Q) && line.s[k] && strchr(ifs, line.s[k]))
#define IS_IFSWS(k) (IS_IFS(k) && strchr(" \t\n", line.s[k]))
	for (int k = 0; k < nnames; k++) {
		while (p < line.n && IS_IFSWS(p))
			p++;
		struct str v = {0};
		if (k == nnames - 1) {
			size_t end = line.n;
			while (end > p && IS_IFSWS(end - 1))
				end--;
			for (; p < end; p++)
				s_addc(&v, line.s[p]);
		} else {
			for (; p < line.n && !IS_IFS(p); p++)
				s_addc(&v, line.s[p]);
			while (p < line.n && IS_IFSWS(p))
				p++;
			if (p < line.n && IS_IFS(p))
				p++;
		}
		if (setvar(names[k], s_cstr(&v), 0) < 0)
			status = 2;
		free(v.s);
	}
#undef IS_IFS
#undef IS_IFSWS
	xb_free(&line);
	return status;
}

/* test / [ */
