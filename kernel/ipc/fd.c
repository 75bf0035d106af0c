/* The descriptor system calls (read, write, pread, pwrite, lseek, poll,
 * status flags). The kernel serves its own file objects, pipe ends, open
 * cgroup files, inotify instances and channels with a page cache object
 * attached (kernel/pcache/fdops.c), itself; for every other descriptor (a channel to a
 * file server, the console's endpoint) it makes the file protocol's call for
 * reads and writes, and answers poll, status flags and (but for a seekable
 * file's offset) seek from the state the server published (ipc_fstate):
 * those never wait for a server. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/fs.h"
#include "abi/poll.h"
#include "cgfs_file.h"
#include "inotify.h"
#include "ipc.h"
#include "kfile.h"
#include "pcache.h"
#include "proc.h"
#include "syscall.h"
#include "unixsock.h"

/* The file protocol's call for a descriptor that is a channel. */
static long fd_ipc3(int h, uint64_t label, uint64_t w0, uint64_t w1, uint64_t w2, const void *snd,
		    size_t snd_len, void *rcv, size_t rcv_len)
{
	struct ipc_msg m = { .label = label, .w = { w0, w1, w2 } };
	long r = ipc_call_kernel(h, &m, snd, snd_len, rcv, rcv_len);
	if (r < 0)
		return r;
	return (long)m.label < 0 ? (long)m.label : (long)m.w[0];
}

static long fd_ipc(int h, uint64_t label, uint64_t w0, uint64_t w1, const void *snd, size_t snd_len,
		   void *rcv, size_t rcv_len)
{
	return fd_ipc3(h, label, w0, w1, 0, snd, snd_len, rcv, rcv_len);
}

/* The status flags the kernel keeps for channel h (fd_flags), for the
 * server with each read and write in w3; 0 if it keeps none. */
static uint64_t fd_w3_flags(int h)
{
	struct kobj *o = handle_get(current_thread()->proc, h, KOBJ_CHANNEL);
	if (!o)
		return 0;
	struct ipc_fstate *s = ipc_fstate_of(o);
	uint64_t w3 = s->set ? FILE_W3_FLAGS | __atomic_load_n(&s->flags, __ATOMIC_RELAXED) : 0;
	kobj_put(o);
	return w3;
}

/* A read or write: w2 is where in its page the caller's buffer starts
 * (FILE_READ's word), for O_DIRECT's alignment rule; no more of the
 * address goes to the server. w3: the status flags the kernel keeps. */
static long fd_ipc_rw(int h, uint64_t label, uint64_t off, uint64_t at, const void *buf, size_t len)
{
	struct ipc_msg m = { .label = label, .w = { off, at, (uint64_t)buf & (PAGE_SIZE - 1), fd_w3_flags(h) } };
	long r = label == FILE_READ ? ipc_call_kernel(h, &m, NULL, 0, (void *)buf, len)
				    : ipc_call_kernel(h, &m, buf, len, NULL, 0);
	if (r < 0)
		return r;
	return (long)m.label < 0 ? (long)m.label : (long)m.w[0];
}

/* The file state a server published for endpoint or channel h (a copy):
 * 0, -EBADF if h is no handle or not a file (nothing published: the
 * caller's own endpoint, another process's, a notification...); -EPERM
 * for a handle without HANDLE_RIGHT_CALL. */
#define FD_SERVED_KINDS (KOBJ_KIND(KOBJ_ENDPOINT) | KOBJ_KIND(KOBJ_CHANNEL))

static long fd_published(int h, struct ipc_fstate *out)
{
	long r;
	/* CALL, as the call it stands for would need (EPERM without) */
	struct kobj *o = handle_get_rights(current_thread()->proc, h, FD_SERVED_KINDS, HANDLE_RIGHT_CALL, &r);
	if (!o)
		return r;
	struct ipc_fstate *s = ipc_fstate_of(o);
	r = s && s->set ? 0 : -EBADF;
	if (r == 0) {
		uint64_t f = sched_lock_ipc();
		*out = *s;
		sched_unlock_ipc(f);
	}
	kobj_put(o);
	return r;
}

/* fcntl(F_SETFL) on a published channel: the kernel's copy changes (the
 * server sees it with the next read or write). An endpoint is one file
 * for everyone who holds it (the console): a client may not change its
 * flags for all, so the request is taken and changes nothing, as before. */
static long fd_published_setfl(int h, int set)
{
	long r;
	struct kobj *o = handle_get_rights(current_thread()->proc, h, FD_SERVED_KINDS, HANDLE_RIGHT_CALL, &r);
	if (!o)
		return r;
	struct ipc_fstate *s = ipc_fstate_of(o);
	r = s && s->set ? 0 : -EBADF;
	if (r == 0 && (__atomic_load_n(&s->flags, __ATOMIC_RELAXED) & O_PATH))
		r = -EBADF; /* fcntl(F_SETFL) of an O_PATH descriptor, as Linux */
	if (r == 0 && o->type == KOBJ_CHANNEL) {
		uint64_t f = sched_lock_ipc();
		s->flags = (s->flags & ~s->settable) | ((uint32_t)set & s->settable);
		sched_unlock_ipc(f);
	}
	kobj_put(o);
	return r;
}

#define FD_KFILE_KINDS (KOBJ_KIND(KOBJ_EVENTFD) | KOBJ_KIND(KOBJ_EPOLL) | KOBJ_KIND(KOBJ_TIMERFD) | \
			KOBJ_KIND(KOBJ_SIGNALFD) | KOBJ_KIND(KOBJ_CGNS))
#define FD_KERNEL_KINDS (KOBJ_KIND(KOBJ_PIPE) | KOBJ_KIND(KOBJ_CGFS_FILE) | KOBJ_KIND(KOBJ_INOTIFY) | KOBJ_KIND(KOBJ_SOCKET) | \
			 FD_KFILE_KINDS)

static const struct kfile_ops *const fd_kfile_ops[16] = {
	[KOBJ_EVENTFD] = &eventfd_ops,
	[KOBJ_EPOLL] = &epoll_ops,
	[KOBJ_TIMERFD] = &timerfd_ops,
	[KOBJ_SIGNALFD] = &signalfd_ops,
	[KOBJ_CGNS] = &cgns_fd_ops,
};

const struct kfile_ops *kfile_ops_of(const struct kobj *o)
{
	return (unsigned)o->type < 16 ? fd_kfile_ops[o->type] : NULL;
}

int kfile_install(struct kobj *o, uint32_t rights, bool cloexec)
{
	struct proc *p = current_thread()->proc;
	int h = handle_install(p, o, rights);
	if (h >= 0 && cloexec) {
		uint64_t f = spin_lock_irqsave(&p->handles.lock);
		p->handles.flags[h] |= HANDLE_CLOEXEC;
		spin_unlock_irqrestore(&p->handles.lock, f);
	}
	return h;
}

/* The object behind h (a reference) if it is a kernel file object and the
 * handle has right need (HANDLE_RIGHT_READ, _WRITE or none): else NULL,
 * with *err -EBADF for no handle or a kernel file without the right (as
 * Linux, for a descriptor not open for reading or writing), or 0 for a
 * channel (or anything else: the IPC call then answers for it, and checks
 * HANDLE_RIGHT_CALL). A channel with a page cache object is the kernel's
 * too, under the right its IPC call needs (CALL: -EPERM without); its
 * open mode is checked by the page cache (fdops.c). */
static inline struct kobj *fd_kernel_file(int h, uint32_t need, long *err)
{
	uint32_t have;
	struct kobj *o = handle_get_rights_of(current_thread()->proc, h, KOBJ_KINDS_ANY, 0, err, &have);
	if (!o)
		return NULL;
	if (o->type == KOBJ_CHANNEL && __atomic_load_n(&container_of(o, struct channel, obj)->pc, __ATOMIC_ACQUIRE)) {
		if (have & HANDLE_RIGHT_CALL)
			return o;
		*err = -EPERM;
		kobj_put(o);
		return NULL;
	}
	bool kernel = FD_KERNEL_KINDS & KOBJ_KIND(o->type);
	if (kernel && !(need & ~have))
		return o;
	*err = kernel ? -EBADF : 0;
	kobj_put(o);
	return NULL;
}

/* The channel behind a kernel file object, if it is one (page cache). */
static inline struct channel *fd_pcache(struct kobj *o)
{
	return o->type == KOBJ_CHANNEL ? container_of(o, struct channel, obj) : NULL;
}

long sys_fd_read(int h, void *buf, size_t len)
{
	long err;
	struct kobj *o = fd_kernel_file(h, HANDLE_RIGHT_READ, &err);
	if (!o)
		return err ? err : fd_ipc_rw(h, FILE_READ, 0, 0, buf, len);
	/* the kinds in the order of their traffic: files, pipes and cgroup
	 * files before the table's kinds (looking there first cost every
	 * pipe and file read 6 guest instructions) */
	long r = fd_pcache(o) ? pcache_fd_read(fd_pcache(o), buf, len, -1) : o->type == KOBJ_PIPE ? pipe_fd_read(o, buf, len) :
		 o->type == KOBJ_CGFS_FILE ? cgfs_file_read(cgfs_file_of(o), buf, len, -1) :
		 o->type == KOBJ_SOCKET ? usock_fd_read(o, buf, len) : o->type == KOBJ_INOTIFY ? inotify_read(o, buf, len) :
		 kfile_ops_of(o)->read(o, buf, len); /* FD_KFILE_KINDS: fd_kernel_file let nothing else by */
	kobj_put(o);
	return r;
}

long sys_fd_write(int h, const void *buf, size_t len)
{
	long err;
	struct kobj *o = fd_kernel_file(h, HANDLE_RIGHT_WRITE, &err);
	if (!o)
		return err ? err : fd_ipc_rw(h, FILE_WRITE, 0, 0, buf, len);
	/* as sys_fd_read's order */
	long r = fd_pcache(o) ? pcache_fd_write(fd_pcache(o), buf, len, -1) : o->type == KOBJ_PIPE ? pipe_fd_write(o, buf, len) :
		 o->type == KOBJ_CGFS_FILE ? cgfs_file_write(cgfs_file_of(o), buf, len) :
		 o->type == KOBJ_SOCKET ? usock_fd_write(o, buf, len) : o->type == KOBJ_INOTIFY ? -EINVAL :
		 kfile_ops_of(o)->write(o, buf, len); /* FD_KFILE_KINDS */
	kobj_put(o);
	return r;
}

long sys_fd_pread(int h, void *buf, size_t len, int64_t off)
{
	long err;
	if (off < 0)
		return -EINVAL;
	struct kobj *o = fd_kernel_file(h, HANDLE_RIGHT_READ, &err);
	if (!o)
		return err ? err : fd_ipc_rw(h, FILE_READ, (uint64_t)off, 1, buf, len);
	long r = fd_pcache(o) ? pcache_fd_read(fd_pcache(o), buf, len, off) :
		 o->type != KOBJ_CGFS_FILE ? -ESPIPE : cgfs_file_read(cgfs_file_of(o), buf, len, off);
	kobj_put(o);
	return r;
}

long sys_fd_pwrite(int h, const void *buf, size_t len, int64_t off)
{
	long err;
	if (off < 0)
		return -EINVAL;
	struct kobj *o = fd_kernel_file(h, HANDLE_RIGHT_WRITE, &err);
	if (!o)
		return err ? err : fd_ipc_rw(h, FILE_WRITE, (uint64_t)off, 1, buf, len);
	/* A cgroup file takes a write whatever the offset, as on Linux. */
	long r = fd_pcache(o) ? pcache_fd_write(fd_pcache(o), buf, len, off) :
		 o->type != KOBJ_CGFS_FILE ? -ESPIPE : cgfs_file_write(cgfs_file_of(o), buf, len);
	kobj_put(o);
	return r;
}

long sys_fd_seek(int h, int64_t off, int whence)
{
	long err;
	if (whence < 0 || whence > 2)
		return -EINVAL;
	struct kobj *o = fd_kernel_file(h, 0, &err);
	if (!o) {
		struct ipc_fstate st;
		if (err)
			return err;
		/* A file whose server keeps an offset: its answer is immediate
		 * (servers never wait to answer one); anything else has none. */
		err = fd_published(h, &st);
		if (err == 0 && !(st.fst & IPC_FST_SEEKABLE))
			err = -ESPIPE;
		return err ? err : fd_ipc(h, FILE_SEEK, (uint64_t)off, (uint64_t)whence, NULL, 0, NULL, 0);
	}
	long r = fd_pcache(o) ? pcache_fd_seek(fd_pcache(o), off, whence) :
		 o->type != KOBJ_CGFS_FILE ? -ESPIPE : cgfs_file_seek(cgfs_file_of(o), off, whence);
	kobj_put(o);
	return r;
}

long sys_fd_flags(int h, int set)
{
	long err;
	struct kobj *o = fd_kernel_file(h, 0, &err);
	if (o && fd_pcache(o)) { /* a page cache file: its published state */
		kobj_put(o);
		o = NULL;
	}
	if (!o) {
		struct ipc_fstate st;
		if (err)
			return err;
		if (set >= 0)
			return fd_published_setfl(h, set);
		err = fd_published(h, &st);
		return err ? err : (long)st.flags;
	}
	const struct kfile_ops *k = kfile_ops_of(o);
	long r = k ? k->flags(o, set) : o->type == KOBJ_PIPE ? pipe_fd_flags(o, set) : o->type == KOBJ_SOCKET ? usock_fd_flags(o, set) : o->type == KOBJ_INOTIFY ? inotify_flags(o, set) :
		 cgfs_file_flags(cgfs_file_of(o), set);
	kobj_put(o);
	return r;
}

long sys_handle_type(int h)
{
	struct kobj *o = handle_get(current_thread()->proc, h, KOBJ_ANY);
	if (!o)
		return -EBADF;
	long t = o->type;
	kobj_put(o);
	return t;
}
