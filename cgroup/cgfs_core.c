/* The core interface files (cgroup.*), Linux's formats and errors. No
 * controller is registered yet, so cgroup.controllers and
 * cgroup.subtree_control list nothing and every controller name written to
 * subtree_control is unknown (EINVAL). */
#include "cgfs.h"
#include "abi/errno.h"
#include "format.h"
#include "kstring.h"

void cgfs_printf(struct cgfs_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = b->len < b->cap ? b->cap - b->len : 0;
	int n = fmt_vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

static int show_nothing(struct cgroup *cg, struct cgfs_buf *out)
{
	(void)cg;
	(void)out;
	return 0; /* an empty list is an empty file */
}

/* "+name" / "-name" tokens: all-or-nothing; no controller exists yet. */
static int write_subtree_control(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)cg;
	(void)w;
	for (char *p = text; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		return -EINVAL; /* "+x"/"-x" of an unknown controller, or no sign */
	}
	return 0;
}

static int show_events(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	bool populated = cg_populated_locked(cg);
	cg_unlock();
	cgfs_printf(out, "populated %d\nfrozen %d\n", populated, 0);
	return 0;
}

static void show_max(struct cgfs_buf *out, uint32_t v)
{
	if (v == CG_MAX_UNLIMITED)
		cgfs_printf(out, "max\n");
	else
		cgfs_printf(out, "%u\n", v);
}

static int show_max_depth(struct cgroup *cg, struct cgfs_buf *out)
{
	show_max(out, cg->max_depth);
	return 0;
}

static int show_max_descendants(struct cgroup *cg, struct cgfs_buf *out)
{
	show_max(out, cg->max_descendants);
	return 0;
}

static int write_max(uint32_t *field, const char *text)
{
	uint64_t v;
	int err = cgfs_parse_max(text, CG_MAX_UNLIMITED, &v);
	if (err)
		return err;
	cg_lock();
	*field = (uint32_t)v; /* lowering below the count refuses only future mkdir */
	cg_unlock();
	return 0;
}

static int write_max_depth(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)w;
	return write_max(&cg->max_depth, text);
}

static int write_max_descendants(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)w;
	return write_max(&cg->max_descendants, text);
}

static int show_stat(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	uint32_t live = cg->nr_descendants, dying = cg->nr_dying_descendants;
	cg_unlock();
	cgfs_printf(out, "nr_descendants %u\nnr_dying_descendants %u\n", live, dying);
	return 0;
}

static int write_procs(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t pid;
	int err = cgfs_parse_s64(text, &pid);
	if (err == -ERANGE || (!err && (pid < 0 || pid > INT32_MAX)))
		return -EINVAL;
	return err ? err : cgfs_write_procs(cg, pid, w);
}

static const struct cftype cgfs_core_files[] = {
	{ "cgroup.controllers", 0444, 0, show_nothing, NULL },
	{ "cgroup.events", 0444, CFT_NOT_ON_ROOT, show_events, NULL },
	{ "cgroup.max.depth", 0644, 0, show_max_depth, write_max_depth },
	{ "cgroup.max.descendants", 0644, 0, show_max_descendants, write_max_descendants },
	{ "cgroup.procs", 0644, 0, cgfs_show_procs, write_procs },
	{ "cgroup.stat", 0444, 0, show_stat, NULL },
	{ "cgroup.subtree_control", 0644, 0, show_nothing, write_subtree_control },
};

static bool cgfs_file_present(const struct cgroup *cg, const struct cftype *f)
{
	bool root = cg->parent == NULL;
	return !((f->flags & CFT_NOT_ON_ROOT) && root) && !((f->flags & CFT_ONLY_ON_ROOT) && !root);
}

const struct cftype *cgfs_file_at(const struct cgroup *cg, unsigned i)
{
	for (unsigned k = 0; k < ARRAY_SIZE(cgfs_core_files); k++)
		if (cgfs_file_present(cg, &cgfs_core_files[k]) && i-- == 0)
			return &cgfs_core_files[k];
	return NULL;
}

const struct cftype *cgfs_file_find(const struct cgroup *cg, const char *name)
{
	for (unsigned k = 0; k < ARRAY_SIZE(cgfs_core_files); k++)
		if (cgfs_file_present(cg, &cgfs_core_files[k]) && strcmp(cgfs_core_files[k].name, name) == 0)
			return &cgfs_core_files[k];
	return NULL;
}
