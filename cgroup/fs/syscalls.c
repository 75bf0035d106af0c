/* The cgfs_* system calls: the cgroup tree and its interface files
 * (cgroup/fs/cgfs.h) for the cgfs server, which serves them as a file
 * system. Paths are inside the hierarchy ("/", "/a/b", "/a/cgroup.procs").
 * Only root may call them (the server runs as root and passes on the
 * credentials of whoever opened a file, for the kernel's own checks),
 * but cgfs_direct: mkdir and rmdir by the C library for the caller
 * itself (docs/vfs.md, "Direct calls"). */
#include "abi/cgroup.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/signal.h"
#include "cgfs.h"
#include "cgfs_file.h"
#include "cgns.h"
#include "controller.h"
#include "freezer.h"
#include "heap.h"
#include "hooks.h"
#include "inotify.h"
#include "kstring.h"
#include "memcg.h"
#include "poll.h"
#include "pcache.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

#define CGFS_PATH_MAX 4096
#define CGFS_FILE_POS 256	/* readdir positions below: files; above: children by id */

#define CGFS_PATH_SHORT 256	/* most paths: kept on the stack */

/* A path copied in: short ones stay in small, longer ones are kmalloc'd. */
struct cgfs_path {
	char small[CGFS_PATH_SHORT];
	char *heap;
	/* the server's "@ID/..." form: the id of the cgroup the path starts
	 * from (a cgroup2 mount made inside a cgroup namespace has that
	 * namespace's root as its root); 0: the hierarchy's root */
	uint64_t root_id;
};

/* "@ID" at the start of path: the id into *id and what follows; NULL if
 * no decimal id, or no '/' after it. */
static char *cgfs_root_prefix(char *path, uint64_t *id)
{
	char *p = path + 1;
	uint64_t v = 0;
	for (; *p >= '0' && *p <= '9' && v < (1ull << 58); p++)
		v = v * 10 + (uint64_t)(*p - '0');
	*id = v;
	return p > path + 1 && v && *p == '/' ? p : NULL;
}

/* A cgroup path copied in (cgfs_path_done releases it): what follows
 * the root prefix, which rooted allows (the server's calls; pp->root_id);
 * NULL with *err set: -EFAULT, -ENAMETOOLONG, -EINVAL. Any caller
 * (cgfs_direct, not rooted). */
static char *cgfs_path_copy(const char *upath, struct cgfs_path *pp, long *err, bool rooted)
{
	char *path = pp->small;
	pp->heap = NULL;
	pp->root_id = 0;
	long n = copy_string_from_user(pp->small, upath, sizeof(pp->small));
	if (n == -ENAMETOOLONG) {
		path = pp->heap = kmalloc(CGFS_PATH_MAX);
		n = path ? copy_string_from_user(path, upath, CGFS_PATH_MAX) : -ENOMEM;
	}
	if (n >= 0 && rooted && path[0] == '@')
		path = cgfs_root_prefix(path, &pp->root_id);
	*err = n < 0 ? n : !path || path[0] != '/' ? -EINVAL : 0;
	if (*err) {
		kfree(pp->heap);
		pp->heap = NULL;
		return NULL;
	}
	return path;
}

/* As cgfs_path_copy, and -EPERM for non-root callers (the server's calls). */
static char *cgfs_path_in(const char *upath, struct cgfs_path *pp, long *err)
{
	pp->heap = NULL;
	if (current_thread()->proc->cred.euid != 0) {
		*err = -EPERM;
		return NULL;
	}
	return cgfs_path_copy(upath, pp, err, true);
}

/* Releases what cgfs_path_in kept, whether or not it succeeded. */
static void cgfs_path_done(struct cgfs_path *pp)
{
	kfree(pp->heap);
}

/* The live cgroup whose id is id, or NULL. Ids only grow, so a child
 * made after the one sought (a larger id: children are kept in id order)
 * cannot have it below; the walk skips those subtrees. cg_lock held. */
static struct cgroup *cgfs_find_id_locked(uint64_t id)
{
	struct cgroup *cg = &cg_root;
	while (cg && cg->id != id) {
		struct cgroup *next = NULL;
		if (!list_empty(&cg->children)) {
			struct cgroup *c = list_entry(cg->children.next, struct cgroup, sibling);
			if (c->id <= id)
				next = c;
		}
		for (struct cgroup *pos = cg; !next && pos != &cg_root; pos = pos->parent) {
			if (pos->sibling.next == &pos->parent->children)
				continue;
			struct cgroup *s = list_entry(pos->sibling.next, struct cgroup, sibling);
			if (s->id <= id)
				next = s;
		}
		cg = next;
	}
	return cg;
}

/* Whether uid:gid may search cgroup directory cg (root: always). */
static bool cgfs_dir_searchable(const struct cgroup *cg, uint32_t uid, uint32_t gid)
{
	unsigned bits = uid == 0 ? 7 : uid == cg->uid ? cg->mode >> 6 : gid == cg->gid ? cg->mode >> 3 : cg->mode;
	return bits & 1;
}

/* The cgroup (a reference) and, if the path names one of its files, the
 * file, as uid:gid's walk finds it; the path starts at the cgroup whose
 * id is root_id (0: the root). -ENOENT (also when that cgroup is gone),
 * -ENOTDIR (a path through a file), -EACCES (a directory on the way it
 * may not search, checked before each step as Linux's link_path_walk). */
static int cgfs_resolve_as(uint64_t root_id, char *path, struct cgroup **out, const struct cftype **file,
			   uint32_t uid, uint32_t gid)
{
	*file = NULL;
	cg_lock();
	struct cgroup *cg = root_id ? cgfs_find_id_locked(root_id) : &cg_root;
	if (!cg) {
		cg_unlock();
		return -ENOENT;
	}
	for (char *p = path; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		if (!*file && !cgfs_dir_searchable(cg, uid, gid)) {
			cg_unlock();
			return -EACCES;
		}
		char *end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		char saved = *end;
		*end = '\0';
		struct cgroup *child = *file ? NULL : cg_find_child(cg, p);
		const struct cftype *f = *file || child ? NULL : cgfs_cft_find(cg, p);
		bool through_file = *file != NULL;
		*end = saved;
		if (through_file || (!child && !f)) {
			cg_unlock();
			return through_file ? -ENOTDIR : -ENOENT;
		}
		if (child)
			cg = child;
		*file = f;
		p = end;
	}
	cg_get(cg);
	cg_unlock();
	*out = cg;
	return 0;
}

/* cgfs_resolve_as for a caller that searches anything (the VFS walked). */
static int cgfs_resolve(uint64_t root_id, char *path, struct cgroup **out, const struct cftype **file)
{
	return cgfs_resolve_as(root_id, path, out, file, 0, 0);
}

/* cgfs_path_in and cgfs_resolve in one: the cgroup (a reference) and
 * the file the user path names. */
static long cgfs_lookup(const char *upath, struct cgroup **cg, const struct cftype **f)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	if (path)
		err = cgfs_resolve(pp.root_id, path, cg, f);
	cgfs_path_done(&pp);
	return err;
}

static void cgfs_node_of(const struct cgroup *cg, const struct cftype *f, unsigned idx,
			 struct k_cgnode *n)
{
	memset(n, 0, sizeof(*n));
	n->kind = f ? CGFS_FILE : CGFS_DIR;
	n->mode = cg->mode;
	n->uid = cg->uid;
	n->gid = cg->gid;
	if (f) {
		uint16_t mode;
		cg_lock();
		cgfs_cft_attr(cg, f, &n->uid, &n->gid, &mode);
		cg_unlock();
		n->mode = mode;
	}
	n->ino = cg_dir_ino(cg) | (f ? idx + 1 : 0);
	strlcpy(n->name, f ? f->name : cg->name, sizeof(n->name));
}

static unsigned cgfs_cft_index(const struct cgroup *cg, const struct cftype *f)
{
	unsigned i = 0;
	while (cgfs_cft_at(cg, i) != f)
		i++;
	return i;
}

long sys_cgfs_stat(const char *upath, struct k_cgnode *unode)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	struct cgroup *cg;
	const struct cftype *f;
	struct k_cgnode *n = path ? kmalloc(sizeof(*n)) : NULL;
	if (path && !n)
		err = -ENOMEM;
	if (n && !(err = cgfs_resolve(pp.root_id, path, &cg, &f))) {
		cgfs_node_of(cg, f, f ? cgfs_cft_index(cg, f) : 0, n);
		cg_put(cg);
		err = copy_to_user(unode, n, sizeof(*n));
	}
	kfree(n);
	cgfs_path_done(&pp);
	return err;
}

/* The entry of directory cg at position pos into n: the position after
 * it, or 0 at the end. */
static uint64_t cgfs_entry_at(struct cgroup *cg, uint64_t pos, struct k_cgnode *n)
{
	uint64_t next = 0;
	const struct cftype *file = pos >= CGFS_FILE_POS ? NULL : cgfs_cft_at(cg, (unsigned)pos);
	if (file) {
		cgfs_node_of(cg, file, (unsigned)pos, n);
		next = pos + 1;
	} else {
		cg_lock();
		struct cgroup *c = cg_child_from(cg, pos < CGFS_FILE_POS ? 0 : pos - CGFS_FILE_POS);
		if (c) {
			cgfs_node_of(c, NULL, 0, n);
			next = CGFS_FILE_POS + c->id + 1;
		}
		cg_unlock();
	}
	n->next = next;
	return next;
}

/* One path lookup for up to CGFS_READDIR_MAX entries (bounded work): a
 * listing costs one call per batch, not one per entry. */
long sys_cgfs_readdir(const char *upath, uint64_t pos, struct k_cgnode *unodes, size_t count)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	struct cgroup *cg;
	const struct cftype *f;
	struct k_cgnode *n = path ? kmalloc(sizeof(*n)) : NULL;
	if (path && !n)
		err = -ENOMEM;
	if (count > CGFS_READDIR_MAX)
		count = CGFS_READDIR_MAX;
	if (n && !(err = cgfs_resolve(pp.root_id, path, &cg, &f))) {
		size_t got = 0;
		if (f)
			err = -ENOTDIR;
		while (!err && got < count && cgfs_entry_at(cg, pos, n)) {
			if (copy_to_user(&unodes[got], n, sizeof(*n)))
				err = -EFAULT;
			pos = n->next;
			got++;
		}
		cg_put(cg);
		if (!err)
			err = (long)got; /* 0: the end */
	}
	kfree(n);
	cgfs_path_done(&pp);
	return err;
}

/* Splits "/a/b/name" into the parent's path (in place) and name, whose
 * length goes to *len. */
static char *cgfs_split_last(char *path, size_t *len)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	size_t end = n;
	while (n > 0 && path[n - 1] != '/') /* the path starts with '/' */
		n--;
	path[n - 1] = '\0';
	*len = end - n;
	return path + n;
}

/* uid:gid may add or remove entries of directory cg (write and search;
 * root may). cg_lock not needed: owners and modes are words. */
static bool cgfs_dir_writable(const struct cgroup *cg, uint32_t uid, uint32_t gid)
{
	unsigned bits = uid == 0 ? 7 : uid == cg->uid ? cg->mode >> 6 : gid == cg->gid ? cg->mode >> 3 : cg->mode;
	return (bits & 3) == 3;
}

/* The bytes of slab a new cgroup whose name is len bytes costs its creator: its node
 * in the file system (the struct cgroup, and its name where it does not
 * fit inline), as Linux charges the directory's dentry and inode to the
 * task that makes it. Its controllers' states are not charged (Linux's
 * css structures and struct mem_cgroup are not accounted) but for the
 * memory counters' per-CPU object, which the parent pays for. */
static uint64_t cgfs_node_bytes(size_t len)
{
	return sizeof(struct cgroup) + (len < CG_NAME_INLINE ? 0 : len + 1);
}

/* cg_create with its file-system node (cgfs_node_bytes) charged to the
 * payer until the cgroup is freed, and the state
 * its parent pays for (its memory counters, as Linux charges a new
 * memcg's per-CPU statistics to the parent: cg_parent_owed_locked) charged to the parent:
 * before the cgroup is made with what the parent's subtree_control says
 * now, settled once it is linked (a subtree_control write in between may
 * change what is owed: a shortfall is charged then, and a cgroup that
 * cannot be paid for goes again, ENOMEM). */
static long cgfs_create_charged(struct cgroup *parent, const char *name, size_t len, struct cgroup **cg)
{
	/* Linux checks the hierarchy's limits before it allocates */
	cg_lock();
	long err = parent->dead ? -ENODEV : !cg_room_for_child_locked(parent) ? -EAGAIN : 0;
	int64_t prepaid = 0, owed = cg_new_child_owed_locked(parent);
	cg_unlock();
	if (err)
		return err;
	struct cgroup *payer = memcg_requester();
	uint64_t node = cgfs_node_bytes(len);
	if (!(err = memcg_slab_charge_bytes(payer, node))) {
		if (!(err = cg_parent_charge(parent, owed)))
			prepaid = owed;
		if (!err)
			err = cg_create(parent, name, cg);
		if (err)
			memcg_slab_uncharge_bytes(payer, node);
		else
			memcg_set_charged(*cg, payer, node); /* the charge keeps payer alive */
	}
	while (!err) {
		cg_lock();
		int64_t more = cg_parent_owed_locked(*cg, parent->subtree_control) - prepaid;
		if (more <= 0)
			cg_parent_settle_locked(*cg, parent->subtree_control, &prepaid);
		cg_unlock();
		if (more <= 0)
			break;
		if ((err = cg_parent_charge(parent, more))) {
			/* raced with a +memory it cannot pay for: undone,
			 * unless it is in use already (then it stays unpaid) */
			spin_lock(&proc_lock);
			if (cg_destroy(*cg))
				err = 0;
			spin_unlock(&proc_lock);
			break;
		}
		prepaid += more;
	}
	if (prepaid > 0)
		cg_parent_charge(parent, -prepaid);
	cg_put(payer);
	return err;
}

/* mkdir of cgroup path (copied in, from the cgroup of id root_id) for
 * uid:gid. */
static long cgfs_mkdir_at(uint64_t root_id, char *path, uint32_t uid, uint32_t gid)
{
	long err;
	struct cgroup *parent, *cg;
	const struct cftype *f;
	size_t len;
	char *name = cgfs_split_last(path, &len);
	if (!*name)
		return -EEXIST; /* the root */
	if ((err = cgfs_resolve_as(root_id, path, &parent, &f, uid, gid)))
		return err;
	cg_lock();
	bool taken = !f && (cg_find_child(parent, name) || cgfs_cft_find(parent, name));
	cg_unlock();
	/* the walk searches the parent too, for the name (EACCES before EEXIST) */
	err = f ? -ENOTDIR : !cgfs_dir_searchable(parent, uid, gid) ? -EACCES : taken ? -EEXIST :
	      !cgfs_dir_writable(parent, uid, gid) ? -EACCES :
	      cgfs_create_charged(parent, name, len, &cg);
	if (!err) { /* the creator's, files and all */
		cg->uid = cg->file_uid = uid;
		cg->gid = cg->file_gid = gid;
	}
	cg_put(parent);
	return err;
}

long sys_cgfs_mkdir(const char *upath, uint32_t uid, uint32_t gid)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	if (!path)
		return err;
	err = cgfs_mkdir_at(pp.root_id, path, uid, gid);
	cgfs_path_done(&pp);
	return err;
}

long sys_cgfs_setattr(const char *upath, int64_t uid, int64_t gid, int32_t mode)
{
	struct cgroup *cg;
	const struct cftype *f;
	long err = cgfs_lookup(upath, &cg, &f);
	if (!err) {
		err = cgfs_set_attr(cg, f, uid, gid, mode);
		cg_put(cg);
	}
	return err;
}

/* rmdir of cgroup path (copied in, from the cgroup of id root_id) for
 * uid:gid. A mount's root is EBUSY, as the hierarchy's. */
static long cgfs_rmdir_at(uint64_t root_id, char *path, uint32_t uid, uint32_t gid)
{
	struct cgroup *cg;
	const struct cftype *f;
	long err = cgfs_resolve_as(root_id, path, &cg, &f, uid, gid);
	if (!err) {
		err = f ? -ENOTDIR : cg == &cg_root || cg->id == root_id ? -EBUSY : !cgfs_dir_writable(cg->parent, uid, gid) ? -EACCES : 0;
		if (!err) {
			/* Checked and marked removed under proc_lock, as
			 * migrations are: one that checked its destination alive
			 * finds it so until it is done. Its controllers let go of
			 * it after (proc_lock is fork's and exit's too). */
			spin_lock(&proc_lock);
			err = cg_destroy_begin(cg);
			spin_unlock(&proc_lock);
			if (!err)
				cg_destroy_end(cg);
			if (!err) { /* its open files now poll POLLERR */
				pollq_wake(&cgfs_pollq);
				pollq_wake(&psi_trigger_pollq);
			}
		}
		cg_put(cg);
	}
	return err;
}

long sys_cgfs_rmdir(const char *upath, uint32_t uid, uint32_t gid)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	if (!path)
		return err;
	err = cgfs_rmdir_at(pp.root_id, path, uid, gid);
	cgfs_path_done(&pp);
	return err;
}

long sys_cgfs_direct(int fs, uint32_t gen, const char *upath, uint32_t op)
{
	long err;
	struct cgfs_path pp;
	if (op != CGFS_DIRECT_MKDIR && op != CGFS_DIRECT_RMDIR)
		return -EINVAL;
	/* the mount the library chose is still there (else it asks the VFS) */
	if ((err = ncache_gen_check(fs, gen)))
		return err;
	char *path = cgfs_path_copy(upath, &pp, &err, false);
	if (!path)
		return err;
	const struct cred *c = &current_thread()->proc->cred;
	err = op == CGFS_DIRECT_MKDIR ? cgfs_mkdir_at(0, path, c->euid, c->egid) :
					cgfs_rmdir_at(0, path, c->euid, c->egid);
	cgfs_path_done(&pp);
	return err;
}

/* Pressure triggers are written by root only, as Linux asks
 * CAP_SYS_RESOURCE to open them for writing. */
static bool cgfs_write_refused(const struct cftype *f, uint32_t uid)
{
	return f->open && f->open->root_writes && uid != 0;
}

long sys_cgfs_open(const char *upath, int flags, uint32_t uid, uint32_t gid, int pid)
{
	struct cgroup *cg;
	const struct cftype *f;
	long err = cgfs_lookup(upath, &cg, &f);
	if (!err) {
		/* the client's cgroup namespace, which the file keeps */
		spin_lock(&proc_lock);
		struct proc *client = pid > 0 ? proc_find_locked(pid) : pid == 0 ? current_thread()->proc : NULL;
		struct cg_ns *ns = client ? cgns_of_locked(client) : NULL;
		spin_unlock(&proc_lock);
		bool writing = (flags & O_ACCMODE) != O_RDONLY;
		err = !client ? -ESRCH : !f ? -EISDIR : writing && cgfs_write_refused(f, uid) ? -EPERM :
		      cgfs_file_create(cg, f, flags, uid, gid, ns);
		cgns_put(ns);
		cg_put(cg);
	}
	return err;
}

long sys_cgfs_read(const char *upath, char *ubuf, size_t len)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	struct cgroup *cg;
	const struct cftype *f;
	if (path && !(err = cgfs_resolve(pp.root_id, path, &cg, &f))) {
		struct cgfs_buf out = { .cap = MIN(len, (size_t)65536) };
		out.buf = out.cap ? kmalloc(out.cap) : NULL;
		err = !f ? -EISDIR : !f->show ? -EINVAL : out.cap && !out.buf ? -ENOMEM : f->show(cg, &out);
		if (!err && copy_to_user(ubuf, out.buf, MIN(out.len, out.cap)))
			err = -EFAULT;
		if (!err)
			err = (long)out.len;
		kfree(out.buf);
		cg_put(cg);
	}
	cgfs_path_done(&pp);
	return err;
}

long sys_cgfs_write(const char *upath, const char *ubuf, size_t len, const struct k_cgwriter *uw)
{
	long err;
	struct cgfs_path pp;
	char *path = cgfs_path_in(upath, &pp, &err);
	struct cgroup *cg;
	const struct cftype *f;
	struct k_cgwriter w;
	char *text = NULL;
	if (!path)
		return err;
	if (len > PAGE_SIZE)
		err = -E2BIG;
	else if (copy_from_user(&w, uw, sizeof(w)))
		err = -EFAULT;
	else if (!(text = kmalloc(len + 1)))
		err = -ENOMEM;
	else if (copy_from_user(text, ubuf, len))
		err = -EFAULT;
	if (!err && !(err = cgfs_resolve(pp.root_id, path, &cg, &f))) {
		text[len] = '\0';
		err = !f ? -EISDIR : cgfs_write_refused(f, w.uid) ? -EPERM : cgfs_write(cg, f, text, len, &w, NULL);
		cg_put(cg);
	}
	kfree(text);
	cgfs_path_done(&pp);
	return err < 0 ? err : (long)len;
}

/* ---- the process side of the core's files (cg_hooks, hooks.h) ---- */

static int cgfs_show_procs(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	struct list_head *pos;
	list_for_each(pos, &cg->procs) {
		struct proc *p = list_entry(pos, struct proc, cg_link);
		if (p->pid > 0)
			cgfs_printf(out, "%d\n", p->pid);
	}
	cg_unlock();
	return 0;
}

static void cgfs_kill_locked(struct cgroup *cg)
{
	struct list_head *pos;
	list_for_each(pos, &cg->procs) {
		struct proc *p = list_entry(pos, struct proc, cg_link);
		if (p->pid > 0)
			signal_send_locked(p, SIGKILL);
	}
	list_for_each(pos, &cg->children)
		cgfs_kill_locked(list_entry(pos, struct cgroup, sibling));
}

static void cgfs_kill_subtree(struct cgroup *cg)
{
	spin_lock(&proc_lock); /* fork places children under it too */
	cg_lock();
	cgfs_kill_locked(cg);
	cg_unlock();
	spin_unlock(&proc_lock);
}

/* A pid, or (as Linux) the tid of one of its threads, moves the process. */
static struct proc *cgfs_find_proc_locked(int id)
{
	struct proc *p = proc_find_locked(id);
	struct thread *t = p ? NULL : thread_find_locked(id);
	return p ? p : t ? t->proc : NULL;
}

static int cgfs_move_proc(struct cgroup *cg, int64_t pid, const struct k_cgwriter *w)
{
	spin_lock(&proc_lock);
	struct proc *p = cgfs_find_proc_locked(pid ? (int)pid : w->pid);
	/* A zombie is still found, as Linux's pid lookup finds it until it is
	 * reaped: the checks apply, then it is skipped (the write succeeds). */
	int err = !p ? -ESRCH : p->pid == 0 ? -EINVAL : 0; /* the kernel's stay */
	if (!err)
		err = cgfs_may_migrate(proc_main_cgroup_locked(p), cg, w, false);
	if (!err)
		err = proc_migrate_locked(p, cg);
	spin_unlock(&proc_lock);
	return err;
}

static int cgfs_show_threads(struct cgroup *cg, struct cgfs_buf *out)
{
	cg_lock();
	struct list_head *pos;
	list_for_each(pos, &cg->threads) {
		struct thread *t = list_entry(pos, struct thread, cg_link);
		if (t->proc->pid > 0)
			cgfs_printf(out, "%d\n", t->tid);
	}
	cg_unlock();
	return 0;
}

/* One thread moves, and only inside its resource domain (EOPNOTSUPP
 * between two domains: that would split a process's resources). */
static int cgfs_move_thread(struct cgroup *cg, int64_t tid, const struct k_cgwriter *w)
{
	spin_lock(&proc_lock);
	struct thread *t = thread_find_locked(tid ? (int)tid : w->tid);
	int err = !t ? -ESRCH : t->proc->pid == 0 ? -EINVAL : 0;
	if (!err)
		err = cgfs_may_migrate(t->cgroup, cg, w, true);
	if (!err)
		err = proc_migrate_thread_locked(t, cg);
	spin_unlock(&proc_lock);
	return err;
}

/* Every thread of cg runs within its cpuset's new CPUs. cg_lock held
 * (it keeps cg->threads as it is). */
static void cgfs_cpus_changed_locked(struct cgroup *cg, uint32_t cpus)
{
	struct list_head *pos;
	list_for_each(pos, &cg->threads)
		sched_set_cpuset(list_entry(pos, struct thread, cg_link), cpus);
}

const struct cg_hooks cgfs_kernel_hooks = {
	.show_procs = cgfs_show_procs,
	.show_threads = cgfs_show_threads,
	.move_proc = cgfs_move_proc,
	.move_thread = cgfs_move_thread,
	.kill_subtree = cgfs_kill_subtree,
	.freeze = freezer_set,
	.notify_locked = cgfs_notify_locked,
	.cpus_online = sched_cpus_mask,
	.cpus_changed_locked = cgfs_cpus_changed_locked,
};
