/* The cgroup tree. Semantics (Linux cgroup v2, the parts the kernel core
 * needs now): one root; every cgroup has a name unique among its siblings;
 * a cgroup can be removed only when it has no live threads and no children;
 * a removed cgroup lives on while references remain (for example a zombie
 * that still points at it) but takes no new members. The parts other
 * owners keep in it (the scheduler's group, the page counter) are set up
 * by the controllers' create hooks (controller.h), not here. */
#include "cgroup.h"
#include "cgfs.h"
#include "controller.h"
#include "hooks.h"
#include "abi/errno.h"
#include "heap.h"
#include "kstring.h"
#include "panic.h"
#include "spinlock.h"

struct cgroup cg_root;
_Static_assert(sizeof(struct cgroup) <= 1024, "a cgroup is one 1 KiB heap object (<= 2 KiB each, with its states)");
static struct spinlock cg_tree_lock = SPINLOCK_INIT("cgroup");
static uint64_t cg_next_id = 1;

void cg_lock(void)
{
	spin_lock(&cg_tree_lock);
}

void cg_unlock(void)
{
	spin_unlock(&cg_tree_lock);
}

struct cgroup *cg_next_pre(struct cgroup *pos, struct cgroup *root)
{
	if (!list_empty(&pos->children))
		return list_entry(pos->children.next, struct cgroup, sibling);
	for (; pos != root; pos = pos->parent)
		if (pos->sibling.next != &pos->parent->children)
			return list_entry(pos->sibling.next, struct cgroup, sibling);
	return NULL;
}

static void cg_init_common(struct cgroup *cg, struct cgroup *parent)
{
	list_init(&cg->children);
	list_init(&cg->sibling);
	cg->children_by_name.node = NULL;
	cg->children_by_id.node = NULL;
	list_init(&cg->watches);
	list_init(&cg->procs);
	list_init(&cg->threads);
	cg->dom = cg; /* a domain; "domain invalid" below a thread root */
	cg->parent = parent;
	cg->level = parent ? parent->level + 1 : 0;
	cg->refcount = 1;
	cg->id = cg_next_id++;
	cg->max_depth = cg->max_descendants = CG_MAX_UNLIMITED;
	cg->mode = 0755;
	/* A child of a frozen cgroup starts frozen (empty, so frozen at once). */
	cg->e_freeze = cg->frozen = parent && parent->e_freeze;
}

const struct cg_hooks *cg_hooks;

void cg_init(const struct cg_hooks *hooks)
{
	static char root_name[] = "";
	cg_hooks = hooks;
	cg_init_common(&cg_root, NULL);
	cg_root.name = root_name;
	cg_registry_init();
	if (cg_states_alloc(&cg_root))
		panic("no memory for the root cgroup's controller state");
	cg_controllers_create(&cg_root);
}

/* The length of a valid name (one pass), 0 for an invalid one: empty,
 * ".", "..", too long, or with '/' or a newline. */
static size_t cg_name_len(const char *name)
{
	size_t n = 0;
	for (; name[n]; n++)
		if (name[n] == '/' || name[n] == '\n' || n == CG_NAME_MAX)
			return 0;
	if (name[0] == '.' && (n == 1 || (n == 2 && name[1] == '.')))
		return 0;
	return n;
}

/* Children are found by name in a tree, so a lookup costs the same with
 * ten siblings or ten thousand. */
struct cgroup *cg_find_child(struct cgroup *parent, const char *name)
{
	struct rb_node *n = parent->children_by_name.node;
	while (n) {
		struct cgroup *c = rb_entry(n, struct cgroup, name_node);
		int d = strcmp(name, c->name);
		if (d == 0)
			return c;
		n = d < 0 ? n->left : n->right;
	}
	return NULL;
}

struct cgroup *cg_child_from(struct cgroup *parent, uint64_t from)
{
	struct rb_node *n = parent->children_by_id.node;
	struct cgroup *best = NULL;
	while (n) {
		struct cgroup *c = rb_entry(n, struct cgroup, id_node);
		if (c->id >= from) {
			best = c;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}

static bool cg_id_less(const struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct cgroup, id_node)->id < rb_entry(b, struct cgroup, id_node)->id;
}

static bool cg_name_less(const struct rb_node *a, const struct rb_node *b)
{
	return strcmp(rb_entry(a, struct cgroup, name_node)->name,
		      rb_entry(b, struct cgroup, name_node)->name) < 0;
}

bool cg_room_for_child_locked(const struct cgroup *parent)
{
	uint32_t level = parent->level + 1;
	for (const struct cgroup *a = parent; a; a = a->parent)
		if (a->nr_descendants >= a->max_descendants || level - a->level > a->max_depth)
			return false;
	return true;
}

bool cg_populated_locked(const struct cgroup *cg)
{
	return cg->nr_threads || cg->nr_populated_domain_children || cg->nr_populated_threaded_children;
}

static void cg_threads_count_locked(struct cgroup *cg, int delta, bool born)
{
	bool was = cg_populated_locked(cg);
	cg->nr_threads = (uint32_t)((int)cg->nr_threads + delta);
	for (struct cgroup *a = cg; a; a = a->parent)
		a->nr_threads_tree += (uint64_t)(int64_t)delta;
	if (cg->e_freeze && !born) /* one more to wait for, or one less */
		cg_frozen_update_locked(cg);
	bool now = cg_populated_locked(cg);
	while (was != now) { /* the flip climbs while it flips parents too */
		cg_notify_locked(cg, CG_NOTIFY_EVENTS);
		struct cgroup *parent = cg->parent;
		if (!parent)
			break;
		/* a populated cgroup never changes type, so the count it
		 * joined is the one it leaves */
		uint32_t *count = cg_is_threaded(cg) ? &parent->nr_populated_threaded_children :
						       &parent->nr_populated_domain_children;
		was = cg_populated_locked(parent);
		*count += now ? 1 : (uint32_t)-1;
		now = cg_populated_locked(parent);
		cg = parent;
	}
}

void cg_threads_changed_locked(struct cgroup *cg, int delta)
{
	cg_threads_count_locked(cg, delta, false);
}

void cg_thread_born_locked(struct cgroup *cg)
{
	cg_threads_count_locked(cg, 1, true);
}

void cg_frozen_update_locked(struct cgroup *cg)
{
	for (; cg && cg->parent; cg = cg->parent) {
		bool frozen = cg->e_freeze && cg->nr_parked >= cg->nr_threads_tree;
		if (frozen != cg->frozen) {
			cg->frozen = frozen;
			cg_notify_locked(cg, CG_NOTIFY_EVENTS);
		}
	}
}

void cg_notify_locked(struct cgroup *cg, enum cg_notify_file which)
{
	__atomic_add_fetch(&cg->notify_seq[which], 1, __ATOMIC_RELEASE); /* poll reads it unlocked */
	cg_hooks->notify_locked(cg, which);
}

int cg_create(struct cgroup *parent, const char *name, struct cgroup **out)
{
	size_t len = cg_name_len(name);
	if (!len)
		return -EINVAL;
	struct cgroup *cg = kzalloc(sizeof(*cg));
	char *copy = !cg ? NULL : len < CG_NAME_INLINE ? cg->name_buf : kmalloc(len + 1);
	if (!copy || cg_states_alloc(cg)) {
		if (cg) {
			cg_states_free(cg);
			if (copy != cg->name_buf)
				kfree(copy);
		}
		kfree(cg);
		return -ENOMEM;
	}
	memcpy(copy, name, len + 1);
	cg_lock();
	int err = parent->dead ? -ENODEV : cg_find_child(parent, name) ? -EEXIST :
		  !cg_room_for_child_locked(parent) ? -EAGAIN : 0;
	if (!err) {
		cg_init_common(cg, parent);
		cg->name = copy;
		list_add_tail(&cg->sibling, &parent->children);
		cg_controllers_create(cg);
		rb_insert(&parent->children_by_name, &cg->name_node, cg_name_less);
		rb_insert(&parent->children_by_id, &cg->id_node, cg_id_less);
		parent->nr_children++;
		cg_get(parent); /* atomic: cg_put drops references without cg_lock,
				 * on any CPU (a plain ++ lost one: a parent
				 * left dying for good) */
		for (struct cgroup *a = parent; a; a = a->parent)
			a->nr_descendants++;
	}
	cg_unlock();
	if (err) {
		cg_states_free(cg);
		if (copy != cg->name_buf)
			kfree(copy);
		kfree(cg);
		return err;
	}
	*out = cg;
	return 0;
}

int cg_destroy_begin(struct cgroup *cg)
{
	if (cg == &cg_root)
		return -EINVAL;
	cg_lock();
	/* A thread that has ended may still be on the run queue until it
	 * switches away for the last time: its reference keeps cg alive. */
	int err = cg->dead ? -ENOENT : (cg->nr_threads || cg->nr_children) ? -EBUSY : 0;
	if (!err) {
		cg->dead = true;
		list_del(&cg->sibling);
		rb_erase(&cg->parent->children_by_name, &cg->name_node);
		rb_erase(&cg->parent->children_by_id, &cg->id_node);
		cg->parent->nr_children--;
		if (cg_is_threaded(cg))
			cg->parent->nr_threaded_children--;
		for (struct cgroup *a = cg->parent; a; a = a->parent) {
			a->nr_descendants--;
			__atomic_add_fetch(&a->nr_dying_descendants, 1, __ATOMIC_RELAXED); /* until freed */
		}
	}
	cg_unlock();
	return err;
}

void cg_destroy_end(struct cgroup *cg)
{
	cg_controllers_offline(cg);
	cg_put(cg);
}

int cg_destroy(struct cgroup *cg)
{
	int err = cg_destroy_begin(cg);
	if (!err)
		cg_destroy_end(cg);
	return err;
}

void cg_get(struct cgroup *cg)
{
	__atomic_add_fetch(&cg->refcount, 1, __ATOMIC_RELAXED);
}

/* The memory of a cgroup nothing refers to any more; returns its parent,
 * which loses the reference the child held. */
static struct cgroup *cg_free(struct cgroup *cg)
{
	struct cgroup *parent = cg->parent;
	while (cg->attrs) {
		struct cg_file_attr *a = cg->attrs;
		cg->attrs = a->next;
		kfree(a);
	}
	/* Atomically, not under cg_lock: the last reference may go
	 * anywhere, the scheduler's thread reaping included. */
	for (struct cgroup *a = parent; a; a = a->parent)
		__atomic_sub_fetch(&a->nr_dying_descendants, 1, __ATOMIC_RELAXED);
	cg_parent_release(cg);
	cg_controllers_release(cg);
	cg_states_free(cg);
	if (cg->name != cg->name_buf)
		kfree(cg->name);
	kfree(cg);
	return parent;
}

void cg_put(struct cgroup *cg)
{
	while (cg && cg != &cg_root && __atomic_sub_fetch(&cg->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
		if (cg_controllers_keep(cg))
			return; /* dying until the keeper calls cg_unkept */
		cg = cg_free(cg); /* a child held a reference on its parent */
	}
}

void cg_unkept(struct cgroup *cg)
{
	cg_put(cg_free(cg));
}

static void cg_path_put(char *buf, size_t len, size_t pos, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pos + i + 1 < len)
			buf[pos + i] = s[i];
}

/* Fills the path from its end, so no depth limit and no recursion. */
size_t cg_path(const struct cgroup *cg, char *buf, size_t len)
{
	size_t total = 0;
	for (const struct cgroup *c = cg; c->parent; c = c->parent)
		total += 1 + strlen(c->name);
	if (total == 0) {
		cg_path_put(buf, len, 0, "/", 1);
		total = 1;
	}
	size_t pos = total;
	for (const struct cgroup *c = cg; c->parent; c = c->parent) {
		size_t n = strlen(c->name);
		pos -= n;
		cg_path_put(buf, len, pos, c->name, n);
		cg_path_put(buf, len, --pos, "/", 1);
	}
	if (len)
		buf[total < len ? total : len - 1] = '\0';
	return total;
}
