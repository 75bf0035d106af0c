/* Open cgroup interface files as kernel objects. The cgfs server opens
 * a file for a client (cgfs_open: the checks of the open are the
 * server's) and hands it the handle; from then on read, write, pread,
 * lseek, fstat and poll on that descriptor are served here, without a
 * server in between, like a pipe's. The object holds its cgroup, so a
 * file of a removed cgroup still answers (reads work, writes fail with
 * ENODEV, as on Linux), and the opener's ids, which writes to
 * cgroup.procs are checked with. */
#include "cgfs_file.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "cgfs.h"
#include "cgns.h"
#include "heap.h"
#include "kstring.h"
#include "memcg.h"
#include "poll.h"
#include "proc.h"
#include "syscall.h"

#define CGFS_FILE_TEXT_MAX 65536

struct cgfs_file {
	struct kobj obj;
	struct cgroup *cg;		/* a reference */
	const struct cftype *cft;
	uint32_t uid, gid;		/* the opener's effective ids */
	struct cg_ns *ns;		/* the opener's cgroup namespace (a reference;
					 * NULL: the initial one), as Linux's
					 * cgroup_file_ctx keeps it for nsdelegate */
	int flags;			/* O_ACCMODE | O_APPEND | O_NONBLOCK */
	struct spinlock lock;		/* off, text, len */
	uint64_t off;
	uint64_t seen_seq;		/* its cg->notify_seq when last read from the start */
	uint64_t text_seq;		/* its cg->notify_seq when text was formatted */
	char *text;			/* formatted by the last read at offset 0 */
	size_t len, text_cap;
	void *state;			/* its own (cft->open), or NULL */
};

static void cgfs_file_release(struct kobj *o)
{
	struct cgfs_file *f = container_of(o, struct cgfs_file, obj);
	if (f->state)
		f->cft->open->release(f->cg, f->state);
	kfree(f->text);
	cgns_put(f->ns);
	cg_put(f->cg);
}

/* The change count of f's file (0 for files that never notify). */
static uint64_t cgfs_file_seq(const struct cgfs_file *f)
{
	if (!(f->cft->flags & CFT_NOTIFY))
		return 0;
	return __atomic_load_n(&f->cg->notify_seq[CFT_NOTIFY_FILE(f->cft)], __ATOMIC_ACQUIRE);
}

struct pollq cgfs_pollq = POLLQ_INIT(cgfs_pollq);

struct pollq *cgfs_file_pollq(struct cgfs_file *f)
{
	return f->cft->open && f->cft->open->poll ? &psi_trigger_pollq : &cgfs_pollq;
}

struct cgfs_file *cgfs_file_of(struct kobj *o)
{
	return o && o->type == KOBJ_CGFS_FILE ? container_of(o, struct cgfs_file, obj) : NULL;
}

int cgfs_file_create(struct cgroup *cg, const struct cftype *cft, int flags, uint32_t uid, uint32_t gid,
		     struct cg_ns *ns)
{
	struct proc *self = current_thread()->proc;
	/* charged to the opener, though the VFS may open it on its behalf */
	struct cgroup *payer = memcg_requester();
	struct cgfs_file *f = kobj_alloc(sizeof(*f), KOBJ_CGFS_FILE, payer, cgfs_file_release);
	cg_put(payer);
	if (!f)
		return -ENOMEM;
	cg_get(cg);
	f->cg = cg;
	f->cft = cft;
	f->uid = uid;
	f->gid = gid;
	cgns_get(ns);
	f->ns = ns;
	f->flags = flags;
	f->lock = (struct spinlock)SPINLOCK_INIT("cgfs file");
	f->seen_seq = cgfs_file_seq(f); /* opening counts as having looked */
	int acc = flags & O_ACCMODE; /* the open mode, as rights */
	uint32_t rights = HANDLE_RIGHTS_BASIC | (acc != O_WRONLY ? HANDLE_RIGHT_READ : 0) |
			  (acc != O_RDONLY ? HANDLE_RIGHT_WRITE : 0);
	int h = handle_install(self, &f->obj, rights);
	kobj_put(&f->obj);
	return h;
}

#define CGFS_FILE_SMALL 256	/* most files: formatted and copied on the stack */

/* The file's text as this open file sees it (its own state, if any). */
static int cgfs_file_show(struct cgfs_file *f, struct cgfs_buf *out)
{
	const struct cft_open_ops *open = f->cft->open;
	if (open && open->show)
		return open->show(f->cg, __atomic_load_n(&f->state, __ATOMIC_ACQUIRE), out);
	return f->cft->show(f->cg, out);
}

/* A file that notifies its changes (cgroup.events, pids.events) bumps its
 * cg->notify_seq with each: while it is still seq, the text formatted at
 * seq is what a format would give. A copy of it in small (its length), or -1 if the file
 * must be formatted. */
static long cgfs_file_text_unchanged(struct cgfs_file *f, uint64_t seq, char *small)
{
	if (!(f->cft->flags & CFT_NOTIFY))
		return -1;
	spin_lock(&f->lock);
	long len = f->text && f->text_seq == seq && f->len <= CGFS_FILE_SMALL ? (long)f->len : -1;
	if (len > 0)
		memcpy(small, f->text, (size_t)len);
	spin_unlock(&f->lock);
	return len;
}

/* Formats the file anew into f->text (outside f->lock: show takes the
 * cgroup lock), unless it is unchanged. Small texts reuse the buffer; the
 * old text is freed. A small text is also left in small (CGFS_FILE_SMALL
 * bytes: *in_small). The text's length, or -errno. */
static long cgfs_file_format(struct cgfs_file *f, char *small, bool *in_small)
{
	uint64_t seq = cgfs_file_seq(f);
	f->seen_seq = seq;
	long same = cgfs_file_text_unchanged(f, seq, small);
	if (same >= 0) {
		*in_small = true;
		return same;
	}
	struct cgfs_buf out = { .buf = small, .cap = CGFS_FILE_SMALL };
	long err = cgfs_file_show(f, &out);
	/* cgfs_printf keeps a byte for its NUL: a text fits if len < cap */
	while (!err && out.len >= out.cap && out.cap <= CGFS_FILE_TEXT_MAX) {
		if (out.buf != small)
			kfree(out.buf);
		out.cap = MIN(out.len + 1, (size_t)CGFS_FILE_TEXT_MAX + 1);
		out.len = 0;
		out.buf = kmalloc(out.cap);
		err = out.buf ? cgfs_file_show(f, &out) : -ENOMEM;
	}
	if (err) {
		if (out.buf != small)
			kfree(out.buf);
		return err;
	}
	size_t len = MIN(out.len, out.cap - 1);
	char *fresh = out.buf != small ? out.buf : !f->text ? kmalloc(CGFS_FILE_SMALL) : NULL;
	char *old = NULL;
	if (out.buf == small && !f->text && !fresh)
		return -ENOMEM;
	spin_lock(&f->lock);
	if (fresh) { /* a large text, or the first small one */
		old = f->text;
		f->text = fresh;
		f->text_cap = fresh == out.buf ? out.cap : CGFS_FILE_SMALL;
	}
	if (out.buf == small)
		memcpy(f->text, small, len); /* every buffer holds CGFS_FILE_SMALL */
	f->len = len;
	f->text_seq = seq;
	spin_unlock(&f->lock);
	if (old)
		kfree(old);
	*in_small = out.buf == small;
	return (long)len;
}

/* A read at offset at of the text in f->text (advance: the file offset
 * moves past what was read), through chunk_small (CGFS_FILE_SMALL bytes)
 * when it fits. */
static long cgfs_file_read_text(struct cgfs_file *f, void *ubuf, size_t len, uint64_t at, bool advance,
			     char *chunk_small)
{
	size_t want = MIN(len, (size_t)CGFS_FILE_TEXT_MAX);
	char *chunk = want <= CGFS_FILE_SMALL ? chunk_small : kmalloc(want);
	if (!chunk)
		return -ENOMEM;
	spin_lock(&f->lock);
	size_t n = at < f->len ? MIN(f->len - at, want) : 0;
	memcpy(chunk, f->text + (n ? at : 0), n);
	if (advance)
		f->off = at + n;
	spin_unlock(&f->lock);
	long r = n && copy_to_user(ubuf, chunk, n) ? -EFAULT : (long)n;
	if (chunk != chunk_small)
		kfree(chunk);
	return r;
}

long cgfs_file_read(struct cgfs_file *f, void *ubuf, size_t len, int64_t pos)
{
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (!f->cft->show)
		return -EINVAL;
	if (!user_range_ok((uint64_t)ubuf, len))
		return -EFAULT;
	if (__atomic_load_n(&f->cg->dead, __ATOMIC_RELAXED))
		return -ENODEV;	/* Linux: kernfs refuses every file of a removed cgroup */
	char small[CGFS_FILE_SMALL];
	uint64_t at = pos >= 0 ? (uint64_t)pos : f->off;
	if (at == 0 || !f->text) { /* a read from the start sees the state now */
		bool in_small = false;
		long r = cgfs_file_format(f, small, &in_small);
		if (r < 0)
			return r;
		/* The usual read, of a small file from its start: the text
		 * goes out from where it was formatted, not through f->text. */
		if (at == 0 && in_small) {
			size_t n = MIN((size_t)r, len);
			if (pos < 0) {
				spin_lock(&f->lock);
				f->off = n;
				spin_unlock(&f->lock);
			}
			return n && copy_to_user(ubuf, small, n) ? -EFAULT : (long)n;
		}
	}
	return cgfs_file_read_text(f, ubuf, len, at, pos < 0, small);
}

/* Installs the state a write made, unless a racing write made one first:
 * then the new one goes (and a second trigger is EBUSY). The state is
 * made outside f->lock, a leaf lock. */
static long cgfs_file_keep_state(struct cgfs_file *f, void *state)
{
	spin_lock(&f->lock);
	bool first = !f->state;
	if (first)
		__atomic_store_n(&f->state, state, __ATOMIC_RELEASE);
	spin_unlock(&f->lock);
	if (!first)
		f->cft->open->release(f->cg, state);
	return first || !f->cft->open->once ? 0 : -EBUSY;
}

#define CGFS_SMALL_WRITE 128

long cgfs_file_write(struct cgfs_file *f, const void *ubuf, size_t len)
{
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (len > PAGE_SIZE)
		return -E2BIG;
	if (len == 0)
		return 0;
	const struct cft_open_ops *open = f->cft->open;
	if (!f->cft->write && !(open && open->write))
		return -EINVAL;
	/* a short write (a pid, a limit: nearly all) is copied to the stack:
	 * the heap's kmalloc and kfree cost it about 110 guest instructions,
	 * more than cgroup.procs' whole added cost of the poll queues */
	char small[CGFS_SMALL_WRITE];
	char *text = len < sizeof(small) ? small : kmalloc(len + 1);
	if (!text)
		return -ENOMEM;
	long err = copy_from_user(text, ubuf, len);
	text[len] = '\0';
	struct thread *self = current_thread();
	struct k_cgwriter w = { .pid = self->proc->pid, .tid = self->tid, .uid = f->uid, .gid = f->gid,
				.ns_root = cgns_writer_root(f->ns) };
	void *had = open ? __atomic_load_n(&f->state, __ATOMIC_ACQUIRE) : NULL, *state = had;
	if (!err && had && open->once)
		err = -EBUSY; /* one trigger per open file, as Linux */
	if (!err)
		err = cgfs_write(f->cg, f->cft, text, len, &w, open ? &state : NULL);
	if (state != had)
		err = cgfs_file_keep_state(f, state);
	if (text != small)
		kfree(text);
	return err < 0 ? err : (long)len;
}

long cgfs_file_seek(struct cgfs_file *f, int64_t off, int whence)
{
	spin_lock(&f->lock);
	int64_t base = whence == 0 ? 0 : whence == 1 ? (int64_t)f->off : whence == 2 ? (int64_t)f->len : -1;
	long r = base < 0 || base + off < 0 ? -EINVAL : (long)(f->off = (uint64_t)(base + off));
	spin_unlock(&f->lock);
	return r;
}

long cgfs_file_poll(struct cgfs_file *f, int events)
{
	long r = events & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	if (__atomic_load_n(&f->cg->dead, __ATOMIC_RELAXED))
		return r | (events & POLLPRI) | POLLERR; /* removed: as kernfs */
	if ((f->cft->flags & CFT_NOTIFY) && cgfs_file_seq(f) != f->seen_seq)
		r |= (events & POLLPRI) | POLLERR; /* POLLERR always */
	if (f->cft->open && f->cft->open->poll)
		r |= f->cft->open->poll(__atomic_load_n(&f->state, __ATOMIC_ACQUIRE)) & (events | POLLERR);
	return r;
}

void cgfs_file_target(struct cgfs_file *f, struct cgroup **cg, const struct cftype **cft)
{
	*cg = f->cg;
	*cft = f->cft;
}

long cgfs_file_flags(struct cgfs_file *f, int set)
{
	if (set >= 0)
		f->flags = (f->flags & O_ACCMODE) | (set & ~O_ACCMODE);
	return f->flags;
}

void cgfs_file_node(struct cgfs_file *f, struct k_cgnode *n)
{
	unsigned i = 0;
	while (cgfs_cft_at(f->cg, i) && cgfs_cft_at(f->cg, i) != f->cft)
		i++;
	uint16_t mode;
	memset(n, 0, sizeof(*n));
	n->kind = CGFS_FILE;
	cg_lock();
	cgfs_cft_attr(f->cg, f->cft, &n->uid, &n->gid, &mode);
	cg_unlock();
	n->mode = mode;
	n->ino = cg_dir_ino(f->cg) | (i + 1);
	strlcpy(n->name, f->cft->name, sizeof(n->name));
}

long sys_cgfs_fstat(int h, struct k_cgnode *unode)
{
	struct kobj *o = handle_get(current_thread()->proc, h, KOBJ_CGFS_FILE);
	if (!o)
		return -EBADF;
	struct k_cgnode *n = kmalloc(sizeof(*n));
	long r = n ? 0 : -ENOMEM;
	if (n) {
		cgfs_file_node(cgfs_file_of(o), n);
		r = copy_to_user(unode, n, sizeof(*n)) ? -EFAULT : 0;
	}
	kfree(n);
	kobj_put(o);
	return r;
}
