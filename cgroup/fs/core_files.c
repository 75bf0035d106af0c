/* The core interface files (cgroup.*), Linux's formats and errors, and
 * the lookup of every file a cgroup has (core and controllers'). */
#include "cgfs.h"
#include "cgns.h"
#include "controller.h"
#include "hooks.h"
#include "abi/errno.h"
#include "format.h"
#include "heap.h"
#include "kstring.h"

/* The length of the token at p (up to a space or the end). */
static size_t token_len(const char *p)
{
	size_t n = 0;
	while (p[n] && p[n] != ' ')
		n++;
	return n;
}

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

void cgfs_put(struct cgfs_buf *b, const char *s, size_t n)
{
	size_t room = b->len < b->cap ? b->cap - b->len : 0;
	if (room) { /* as fmt_vsnprintf: at most room - 1 bytes, then a NUL */
		size_t c = MIN(n, room - 1);
		memcpy(b->buf + b->len, s, c);
		b->buf[b->len + c] = '\0';
	}
	b->len += n;
}

/* v in decimal and a newline: the usual one-number file, without the
 * cost of a format string (memory.current is read in tight loops). */
void cgfs_put_u64_line(struct cgfs_buf *b, uint64_t v)
{
	char d[24];
	size_t i = sizeof(d);
	d[--i] = '\n';
	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	cgfs_put(b, d + i, sizeof(d) - i);
}

/* The registry index of the controller whose file f is, or -1 (a core file). */
static int cg_controller_of_file(const struct cftype *f)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++)
		if (f >= cg_controllers[i]->files && f < cg_controllers[i]->files + cg_controllers[i]->nfiles)
			return (int)i;
	return -1;
}

/* The files of the controllers subtree_control enabled or disabled in
 * child's parent are made anew (Linux removes and creates them): the
 * enabled ones belong to the writer, and chown/chmod records of both go
 * (returned on the list gone, to free outside cg_lock). */
static struct cg_file_attr *cg_files_remade(struct cgroup *child, uint32_t enable, uint32_t disable,
					    const struct k_cgwriter *w, struct cg_file_attr *gone)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		uint32_t bit = cg_controllers[i]->bit;
		if (!((enable | disable) & bit))
			continue;
		child->ctl_owned &= ~(1u << i);
		if (enable & bit) {
			child->ctl_owned |= 1u << i;
			child->ctl_owner[i].uid = w ? w->uid : 0;
			child->ctl_owner[i].gid = w ? w->gid : 0;
		}
		for (struct cg_file_attr **a = &child->attrs; *a;) {
			if (cg_controller_of_file((*a)->cft) == (int)i) {
				struct cg_file_attr *drop = *a;
				*a = drop->next;
				drop->next = gone;
				gone = drop;
			} else {
				a = &(*a)->next;
			}
		}
	}
	return gone;
}

/* Controller names of mask, space-separated, one "\n" (empty: 0 bytes). */
static void show_mask(struct cgfs_buf *out, uint32_t mask)
{
	const char *sep = "";
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		if (mask & cg_controllers[i]->bit) {
			cgfs_printf(out, "%s%s", sep, cg_controllers[i]->name);
			sep = " ";
		}
	}
	if (*sep)
		cgfs_printf(out, "\n");
}

static int show_controllers(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	uint32_t mask = cg_available(cg);
	cg_unlock();
	show_mask(out, mask);
	return 0;
}

static int show_subtree_control(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	uint32_t mask = cg->subtree_control;
	cg_unlock();
	show_mask(out, mask);
	return 0;
}

static const struct cg_controller *controller_named(const char *name, size_t len)
{
	for (unsigned i = 0; i < cg_nr_controllers; i++)
		if (strlen(cg_controllers[i]->name) == len && memcmp(cg_controllers[i]->name, name, len) == 0)
			return cg_controllers[i];
	return NULL;
}

/* "+name" / "-name" tokens separated by spaces (only spaces, as Linux's
 * strsep: a tab or newline inside makes an unknown name), the last one
 * per controller wins; checked whole, then applied at once. Only real changes are vetted: enabling an
 * enabled controller or disabling a disabled one is a silent success. */
static int write_subtree_control(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint32_t enable = 0, disable = 0;
	for (char *p = text; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t len = token_len(p);
		const struct cg_controller *c = (*p == '+' || *p == '-') ? controller_named(p + 1, len - 1) : NULL;
		if (!c)
			return -EINVAL;
		if (*p == '+')
			enable |= c->bit, disable &= ~c->bit;
		else
			disable |= c->bit, enable &= ~c->bit;
		p += len;
	}
	/* The parent pays for the states of the children it passes memory
	 * on to (Linux's new memcgs): charged first with the lock dropped
	 * (the charge may reclaim), then settled child by child under it;
	 * what is left over (a child went meanwhile, or a refund) goes back
	 * after. */
	int64_t prepaid = 0;
	int err;
	struct cg_file_attr *gone = NULL;
	for (;;) {
		cg_lock();
		uint32_t en = enable & ~cg->subtree_control, dis = disable & cg->subtree_control;
		err = cg->dead ? -ENODEV : (en & ~cg_available(cg)) ? -ENOENT : 0;
		struct list_head *pos;
		list_for_each(pos, &cg->children)
			if (!err && (list_entry(pos, struct cgroup, sibling)->subtree_control & dis))
				err = -EBUSY; /* a child still passes it on */
		if (!err)
			err = cg_vet_subtree_enable(cg, en);
		uint32_t mask = (cg->subtree_control | en) & ~dis;
		int64_t owed = 0;
		list_for_each(pos, &cg->children) {
			int64_t o = err ? 0 : cg_parent_owed_locked(list_entry(pos, struct cgroup, sibling), mask);
			owed += o > 0 ? o : 0;
		}
		if (owed > prepaid) {
			cg_unlock();
			if ((err = cg_parent_charge(cg, owed - prepaid)))
				break; /* ENOMEM: nothing changed */
			prepaid = owed;
			continue;
		}
		if (!err) {
			/* a state goes when no passed-on controller needs it */
			uint32_t gone_state = cg_controllers_effective(cg->subtree_control) &
					      ~cg_controllers_effective(mask);
			cg->subtree_control = mask;
			cg_controllers_disable(cg, gone_state);
			cg_controllers_reset(cg, dis & ~gone_state); /* hidden, kept */
			list_for_each(pos, &cg->children) {
				struct cgroup *child = list_entry(pos, struct cgroup, sibling);
				cg_parent_settle_locked(child, mask, &prepaid);
				gone = cg_files_remade(child, en, dis, w, gone);
			}
		}
		cg_unlock();
		break;
	}
	if (prepaid > 0)
		cg_parent_charge(cg, -prepaid);
	while (gone) {
		struct cg_file_attr *next = gone->next;
		kfree(gone);
		gone = next;
	}
	return err;
}

static int show_type(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	cgfs_printf(out, "%s\n", cg_type_name(cg));
	cg_unlock();
	return 0;
}

/* Only "threaded": a cgroup never goes back to being a domain. */
static int write_type(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)w;
	if (strcmp(text, "threaded") != 0)
		return -EINVAL;
	cg_lock();
	int err = cg->dead ? -ENODEV : cg_make_threaded(cg);
	/* a threaded cgroup has no domain controller (memory) of its own
	 * any more: its parent stops paying for that state */
	int64_t refund = 0;
	if (!err)
		cg_parent_settle_locked(cg, cg->parent->subtree_control, &refund);
	cg_unlock();
	if (refund > 0)
		cg_parent_charge(cg->parent, -refund);
	return err;
}

/* cgroup.events is what waiters poll and reread: its four possible texts
 * are constants, which costs a copy instead of a printf. */
static const char events_text[2][2][sizeof("populated 0\nfrozen 0\n")] = {
	{ "populated 0\nfrozen 0\n", "populated 0\nfrozen 1\n" },
	{ "populated 1\nfrozen 0\n", "populated 1\nfrozen 1\n" },
};

static int show_events(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	bool populated = cg_populated_locked(cg);
	cg_unlock();
	cgfs_put(out, events_text[populated][cg->frozen], sizeof(events_text[0][0]) - 1);
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
	uint32_t live = cg->nr_descendants, dying = __atomic_load_n(&cg->nr_dying_descendants, __ATOMIC_RELAXED);
	cg_unlock();
	cgfs_printf(out, "nr_descendants %u\nnr_dying_descendants %u\n", live, dying);
	return 0;
}

void cgfs_cft_attr(const struct cgroup *cg, const struct cftype *f, uint32_t *uid, uint32_t *gid,
		    uint16_t *mode)
{
	int c = cg_controller_of_file(f);
	bool enabler = c >= 0 && (cg->ctl_owned & (1u << c));
	*uid = enabler ? cg->ctl_owner[c].uid : cg->file_uid;
	*gid = enabler ? cg->ctl_owner[c].gid : cg->file_gid;
	*mode = f->mode;
	for (const struct cg_file_attr *a = cg->attrs; a; a = a->next) {
		if (a->cft == f) {
			*uid = a->uid;
			*gid = a->gid;
			*mode = a->mode;
		}
	}
}

int cgfs_set_attr(struct cgroup *cg, const struct cftype *f, int64_t uid, int64_t gid, int32_t mode)
{
	struct cg_file_attr *fresh = f ? kzalloc(sizeof(*fresh)) : NULL;
	if (f && !fresh)
		return -ENOMEM;
	cg_lock();
	if (!f) {
		if (uid >= 0)
			cg->uid = (uint32_t)uid;
		if (gid >= 0)
			cg->gid = (uint32_t)gid;
		if (mode >= 0)
			cg->mode = (uint16_t)(mode & 07777);
		cg_unlock();
		return 0;
	}
	struct cg_file_attr *a = cg->attrs;
	while (a && a->cft != f)
		a = a->next;
	if (!a) {
		a = fresh;
		fresh = NULL;
		a->cft = f;
		cgfs_cft_attr(cg, f, &a->uid, &a->gid, &a->mode);
		a->next = cg->attrs;
		cg->attrs = a;
	}
	if (uid >= 0)
		a->uid = (uint32_t)uid;
	if (gid >= 0)
		a->gid = (uint32_t)gid;
	if (mode >= 0)
		a->mode = (uint16_t)(mode & 07777);
	cg_unlock();
	kfree(fresh);
	return 0;
}

bool cgfs_may_write(const struct cgroup *cg, const struct cftype *f, uint32_t uid, uint32_t gid)
{
	uint32_t o_uid, o_gid;
	uint16_t mode;
	if (uid == 0)
		return true;
	cgfs_cft_attr(cg, f, &o_uid, &o_gid, &mode);
	return uid == o_uid ? (mode & 0200) : gid == o_gid ? (mode & 0020) : (mode & 0002);
}

/* The nearest cgroup that holds both a and b. */
static struct cgroup *cgfs_common_ancestor(struct cgroup *a, struct cgroup *b)
{
	while (a->level > b->level)
		a = a->parent;
	while (b->level > a->level)
		b = b->parent;
	while (a != b)
		a = a->parent, b = b->parent;
	return a;
}

int cgfs_may_migrate(struct cgroup *src, struct cgroup *dst, const struct k_cgwriter *w, bool thread)
{
	int err = 0;
	cg_lock();
	if (w->uid != 0) {
		struct cgroup *a = cgfs_common_ancestor(src, dst);
		if (!cgfs_may_write(a, cgfs_cft_find(a, "cgroup.procs"), w->uid, w->gid))
			err = -EACCES;
	}
	if (!err) /* nsdelegate: both ends inside the opener's namespace */
		err = cgns_may_migrate_locked(src, dst, w->ns_root);
	if (!err)
		err = cg_vet_migrate_dst(dst);
	if (!err)
		err = cg_can_attach(src, dst); /* the controllers' vetoes */
	/* a thread alone never leaves its domain: that would split a
	 * process's resources */
	if (!err && thread && src->dom != dst->dom)
		err = -EOPNOTSUPP;
	cg_unlock();
	return err;
}

/* One pid (or tid) per write: -EINVAL for anything else. */
static int parse_id(const char *text, int64_t *id)
{
	int err = cgfs_parse_s64(text, id);
	return err || *id < 0 || *id > INT32_MAX ? -EINVAL : 0;
}

/* A threaded cgroup's processes belong to its thread root. */
static int show_procs(struct cgroup *cg, struct cgfs_buf *out)
{
	return cg_is_threaded(cg) ? -EOPNOTSUPP : cg_hooks->show_procs(cg, out);
}

static int write_procs(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t pid;
	int err = parse_id(text, &pid);
	return err ? err : cg_hooks->move_proc(cg, pid, w);
}

static int write_threads(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t tid;
	int err = parse_id(text, &tid);
	return err ? err : cg_hooks->move_thread(cg, tid, w);
}

static int show_threads(struct cgroup *cg, struct cgfs_buf *out)
{
	return cg_hooks->show_threads(cg, out);
}

/* Only "1": SIGKILL to everything in the subtree, race-free against fork
 * (a fork that has not yet placed its child fails once its parent has the
 * SIGKILL). */
static int write_kill(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v;
	(void)w;
	int err = cgfs_parse_range(text, 1, 1, &v);
	if (err)
		return err;
	if (cg_is_threaded(cg))
		return -EOPNOTSUPP; /* processes live in the thread root */
	cg_hooks->kill_subtree(cg);
	return 0;
}

static int show_freeze(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%d\n", cg->freeze);
	return 0;
}

/* 0 or 1: EINVAL for anything but an integer, ERANGE for other ones. */
static int write_freeze(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v;
	(void)w;
	int err = cgfs_parse_range(text, 0, 1, &v);
	if (!err)
		cg_hooks->freeze(cg, v == 1);
	return err;
}

static int show_pressure(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%d\n", !cg->pressure_off);
	return 0;
}

/* 0 hides this cgroup's *.pressure files, 1 shows them (not inherited). */
static int write_pressure(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v;
	(void)w;
	int err = cgfs_parse_range(text, 0, 1, &v);
	if (!err)
		__atomic_store_n(&cg->pressure_off, v == 0, __ATOMIC_RELAXED);
	return err;
}

static const struct cftype cgfs_core_files[] = {
	{ .name = "cgroup.controllers", .mode = 0444, .show = show_controllers },
	{ .name = "cgroup.events", .mode = 0444, .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_EVENTS),
	  .show = show_events },
	{ .name = "cgroup.freeze", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = show_freeze, .write = write_freeze },
	{ .name = "cgroup.kill", .mode = 0200, .flags = CFT_NOT_ON_ROOT,
	  .write = write_kill },
	{ .name = "cgroup.max.depth", .mode = 0644,
	  .show = show_max_depth, .write = write_max_depth },
	{ .name = "cgroup.max.descendants", .mode = 0644,
	  .show = show_max_descendants, .write = write_max_descendants },
	{ .name = "cgroup.pressure", .mode = 0644, .show = show_pressure, .write = write_pressure },
	{ .name = "cgroup.procs", .mode = 0644, .flags = CFT_NS_DELEGATABLE, .show = show_procs,
	  .write = write_procs },
	{ .name = "cgroup.stat", .mode = 0444, .show = show_stat },
	{ .name = "cgroup.subtree_control", .mode = 0644, .flags = CFT_NS_DELEGATABLE,
	  .show = show_subtree_control, .write = write_subtree_control },
	{ .name = "cgroup.threads", .mode = 0644, .flags = CFT_NS_DELEGATABLE, .show = show_threads,
	  .write = write_threads },
	{ .name = "cgroup.type", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = show_type, .write = write_type },
};

int cgfs_write(struct cgroup *cg, const struct cftype *f, char *text, size_t len, const struct k_cgwriter *w,
	       void **state)
{
	if (len == 0)
		return 0;
	const struct cft_open_ops *open = f->open && f->open->write ? f->open : NULL;
	if (!f->write && !open)
		return -EINVAL;
	if (strlen(text) != len && !(open && open->nul_ends))
		return -EINVAL; /* a NUL inside (a trigger may end at one, as Linux's) */
	if (cg->dead) /* Linux: kernfs refuses every file of a removed cgroup */
		return -ENODEV;
	int err = cgns_may_write(cg, f->flags, w ? w->ns_root : 0);
	if (err)
		return err;
	if ((f->flags & CFT_KSTRTO) && !cgfs_kstrto_shape(text, len))
		return -EINVAL;
	if (open)
		return open->write(cg, f, cgfs_strip(text), state);
	return f->write(cg, (f->flags & CFT_RAW) ? text : cgfs_strip(text), w);
}

void cgfs_delegatable(struct cgfs_buf *out)
{
	/* Linux's cgroup_base_files order; the flags say which are listed */
	static const char *const base_order[] = { "cgroup.type", "cgroup.procs", "cgroup.threads",
		"cgroup.controllers", "cgroup.subtree_control", "cgroup.events", "cgroup.max.descendants",
		"cgroup.max.depth", "cgroup.stat", "cgroup.freeze", "cgroup.kill", "cgroup.pressure" };
	_Static_assert(ARRAY_SIZE(base_order) == ARRAY_SIZE(cgfs_core_files), "every core file has its place");
	for (unsigned i = 0; i < ARRAY_SIZE(base_order); i++)
		for (unsigned k = 0; k < ARRAY_SIZE(cgfs_core_files); k++)
			if (strcmp(cgfs_core_files[k].name, base_order[i]) == 0 &&
			    (cgfs_core_files[k].flags & CFT_NS_DELEGATABLE))
				cgfs_printf(out, "%s\n", base_order[i]);
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		for (unsigned k = 0; k < c->ncore_files; k++)
			if (c->core_files[k].flags & CFT_NS_DELEGATABLE)
				cgfs_printf(out, "%s\n", c->core_files[k].name);
		for (unsigned k = 0; k < c->nfiles; k++)
			if (c->files[k].flags & CFT_NS_DELEGATABLE)
				cgfs_printf(out, "%s\n", c->files[k].name);
	}
}

static bool cgfs_cft_present(const struct cgroup *cg, const struct cftype *f)
{
	bool root = cg->parent == NULL;
	if ((f->flags & CFT_PRESSURE) && __atomic_load_n(&cg->pressure_off, __ATOMIC_RELAXED))
		return false;
	return !((f->flags & CFT_NOT_ON_ROOT) && root) && !((f->flags & CFT_ONLY_ON_ROOT) && !root);
}

/* Calls fn for each file cg has, in order (core files, the controllers'
 * core files, then each available controller's), until it returns true;
 * that file or NULL. */
static const struct cftype *cgfs_files_until(const struct cgroup *cg,
					     bool (*fn)(const struct cftype *f, void *arg), void *arg)
{
	for (unsigned k = 0; k < ARRAY_SIZE(cgfs_core_files); k++)
		if (cgfs_cft_present(cg, &cgfs_core_files[k]) && fn(&cgfs_core_files[k], arg))
			return &cgfs_core_files[k];
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		for (unsigned k = 0; k < c->ncore_files; k++)
			if (cgfs_cft_present(cg, &c->core_files[k]) && fn(&c->core_files[k], arg))
				return &c->core_files[k];
	}
	uint32_t avail = cg_available(cg);
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		for (unsigned k = 0; (avail & c->bit) && k < c->nfiles; k++)
			if (cgfs_cft_present(cg, &c->files[k]) && fn(&c->files[k], arg))
				return &c->files[k];
	}
	return NULL;
}

static bool count_down(const struct cftype *f, void *arg)
{
	(void)f;
	return (*(unsigned *)arg)-- == 0;
}

const struct cftype *cgfs_cft_at(const struct cgroup *cg, unsigned i)
{
	return cgfs_files_until(cg, count_down, &i);
}

/* The file called name among n files that all start with name's first
 * plen bytes (their common "PREFIX."): only the rest is compared. */
static const struct cftype *find_in(const struct cgroup *cg, const struct cftype *files, unsigned n,
				    const char *name, size_t plen)
{
	const char *rest = name + plen;
	for (unsigned k = 0; k < n; k++) {
		const char *r = files[k].name + plen;
		if (r[0] == rest[0] && strcmp(r, rest) == 0)
			return cgfs_cft_present(cg, &files[k]) ? &files[k] : NULL;
	}
	return NULL;
}

/* By prefix first ("cgroup." or an available controller's "NAME."), so
 * a lookup costs a few compares however many files there are: lookups
 * run on every path the cgroup file system resolves. */
const struct cftype *cgfs_cft_find(const struct cgroup *cg, const char *name)
{
	const char *dot = strchr(name, '.');
	if (!dot)
		return NULL;
	size_t plen = (size_t)(dot - name) + 1;
	if (plen == 7 && memcmp(name, "cgroup.", 7) == 0)
		return find_in(cg, cgfs_core_files, ARRAY_SIZE(cgfs_core_files), name, plen);
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		for (unsigned k = 0; k < c->ncore_files; k++)
			if (strcmp(c->core_files[k].name, name) == 0)
				return cgfs_cft_present(cg, &c->core_files[k]) ? &c->core_files[k] : NULL;
	}
	uint32_t avail = cg_available(cg);
	for (unsigned i = 0; i < cg_nr_controllers; i++) {
		const struct cg_controller *c = cg_controllers[i];
		if ((avail & c->bit) && strlen(c->name) == plen - 1 && memcmp(c->name, name, plen - 1) == 0)
			return find_in(cg, c->files, c->nfiles, name, plen);
	}
	return NULL;
}
