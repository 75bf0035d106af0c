/* POSIX message queues (<mqueue.h>) in the library, over shared memory.
 *
 * Why not the kernel: a queue is memory shared by the processes that open
 * it plus blocking with timeouts, which the C library already has in full
 * (a tmpfs file under /dev/shm mapped shared, a process-shared mutex and
 * futexes keyed on the shared page), as named semaphores are. A queue
 * lives, as on Linux, until it is unlinked and closed (or the machine
 * stops). What this gives up: an mqd_t is not a file descriptor (no
 * poll/select on it), and a process killed while it holds a queue's lock
 * leaves the queue locked (no robust mutexes yet), which a kernel queue
 * would not.
 *
 * The file /dev/shm/mq.NAME holds a header (attributes, the lock, the
 * futex words blocked senders and receivers sleep on, the mq_notify
 * registration) and mq_maxmsg slots; queued messages are a list in
 * priority order, highest first and oldest first within one priority;
 * free slots are another list. Errors are Linux's.
 *
 * mq_notify (Linux's semantics: one registration per queue, fired and
 * removed when a message arrives on an empty queue no receiver waits on):
 * who is registered must be known to every process, must die with its
 * process and must not be forgeable through the shared file. The kernel's
 * record locks give that: the registered process holds a read lock on one
 * byte of its own range of the queue file (MQ_NOTE_BASE + pid * 128, past
 * the end), whose offset in the range says how to notify (the signal
 * number, 0 for SIGEV_NONE, MQ_NOTE_THREAD); a lock dies when its process
 * exits, execs or closes the queue (any descriptor of it, as Linux's
 * registration does), and F_GETLK's l_pid is the kernel's word. The sender
 * of the message that fires it reads that lock and sends the signal with
 * sigqueue's SI_MESGQ code: the kernel checks that the sender may signal
 * the registered process (kill's rule) and writes the sender's own pid and
 * uid into the siginfo (docs/security.md). SIGEV_THREAD is the registered
 * process's own: a thread it started at mq_notify waits on the header's
 * futex word and calls the function in the process when the sender says
 * so (glibc's helper thread does the same with a netlink socket). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

#define MQ_DIR "/dev/shm/"
#define MQ_MAGIC 0x4d515250u
#define MQ_DEF_MAXMSG 10	/* Linux's /proc/sys/fs/mqueue defaults */
#define MQ_DEF_MSGSIZE 8192
#define MQ_USER_MAXMSG 10	/* Linux's msg_max and msgsize_max: the bounds */
#define MQ_USER_MSGSIZE 8192	/* of a caller without CAP_SYS_RESOURCE */
#define MQ_HARD_MAXMSG 65536	/* Linux's HARD_MSGMAX */
#define MQ_HARD_MSGSIZE (16 << 20)
#define MQ_MAX_BYTES (64ull << 20)
#define MQ_NONE UINT32_MAX
#define MQ_OPEN_MAX 64

/* The registration locks: process pid's range is MQ_NOTE_SPAN bytes at
 * MQ_NOTE_BASE + pid * MQ_NOTE_SPAN (far past any queue's end); the byte
 * it locks says how: a signal number 1..64 (SIGEV_SIGNAL), 0 (SIGEV_NONE,
 * or SIGEV_SIGNAL with signal 0: nothing is sent), MQ_NOTE_THREAD. */
#define MQ_NOTE_BASE (1ll << 40)
#define MQ_NOTE_SPAN 128
#define MQ_NOTE_THREAD 65

struct mq_slot {
	uint32_t next;
	uint32_t prio;
	uint64_t len;
	char data[];
};

struct mq_file {
	uint32_t magic;
	uint32_t head;		/* the first queued slot (highest priority) */
	uint32_t free;		/* the first free slot */
	uint32_t pad;
	int64_t maxmsg, msgsize, curmsgs;
	uint64_t slot_size;
	pthread_mutex_t lock;
	/* futex words, bumped when a message arrives (recv_seq) or a slot
	 * frees (send_seq), and the threads asleep on each */
	uint32_t recv_seq, send_seq;
	uint32_t recv_waiters, send_waiters;
	/* the registration: notify_pid 0 none; its lock (above) is the
	 * truth, these say which range to look at and the sigev_value */
	int32_t notify_pid;
	uint32_t notify_gen;	/* bumped by each registration */
	uint64_t notify_value;
	uint32_t note_seq;	/* futex word of SIGEV_THREAD's helper: bumped when a */
	uint32_t fired_gen;	/* registration fired (the last one: fired_gen) or went */
	/* slots follow, slot_size bytes each */
};

static struct {
	struct mq_file *q;
	size_t maplen;
	int fd;			/* the queue file, kept open: its record locks */
	int flags;		/* O_ACCMODE bits and O_NONBLOCK */
	dev_t dev;
	ino_t ino;
	bool used;
} mqds[MQ_OPEN_MAX];
static pthread_mutex_t mqds_lock = PTHREAD_MUTEX_INITIALIZER;

struct mq_helper;

/* This process's registrations: the queue (dev, ino) and the generation
 * it registered as (a fork's child and an exec'd program have none). */
static struct {
	dev_t dev;
	ino_t ino;
	uint32_t gen;
	pid_t pid;
	int how;		/* the byte it locked */
	struct mq_helper *helper; /* SIGEV_THREAD's (a reference) */
	bool used;
} mq_notes[MQ_OPEN_MAX];

static int mq_fail(int e)
{
	errno = e;
	return -1;
}

static struct mq_slot *mq_slot(struct mq_file *q, uint32_t i)
{
	return (struct mq_slot *)((char *)(q + 1) + (uint64_t)i * q->slot_size);
}

/* "/NAME" to /dev/shm/mq.NAME: 0, EINVAL (no leading slash), ENOENT (no
 * name), EACCES (a slash inside, as Linux), ENAMETOOLONG. */
static int mq_path(const char *name, char *path, size_t cap)
{
	if (name[0] != '/')
		return EINVAL;
	name++;
	size_t n = strlen(name);
	if (n == 0)
		return ENOENT;
	if (strchr(name, '/'))
		return EACCES;
	if (n + 3 > NAME_MAX)
		return ENAMETOOLONG;
	snprintf(path, cap, MQ_DIR "mq.%s", name);
	return 0;
}

/* A new queue file with the attributes, linked at path: its descriptor
 * or -errno (-EEXIST if path exists). Made under a temporary name so no
 * one opens it half made. */
static int mq_create(const char *path, mode_t mode, long maxmsg, long msgsize)
{
	uint64_t slot_size = (sizeof(struct mq_slot) + (uint64_t)msgsize + 7) & ~7ull;
	uint64_t size = sizeof(struct mq_file) + slot_size * (uint64_t)maxmsg;
	char tmp[64];
	static unsigned seq;
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		snprintf(tmp, sizeof(tmp), MQ_DIR "mq.tmp%d.%u", getpid(),
			 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	int e = ftruncate(fd, (off_t)size) == 0 ? 0 : errno;
	struct mq_file *q = e ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!e && q == MAP_FAILED)
		e = errno;
	if (!e) {
		q->maxmsg = maxmsg;
		q->msgsize = msgsize;
		q->slot_size = slot_size;
		q->head = MQ_NONE;
		for (uint32_t i = 0; i < (uint32_t)maxmsg; i++)
			mq_slot(q, i)->next = i + 1 < (uint32_t)maxmsg ? i + 1 : MQ_NONE;
		q->free = 0;
		pthread_mutexattr_t ma;
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
		pthread_mutex_init(&q->lock, &ma);
		q->magic = MQ_MAGIC;
		munmap(q, size);
		if (link(tmp, path) != 0)
			e = errno;
	}
	unlink(tmp);
	if (e) {
		close(fd);
		return -e;
	}
	return fd;
}

/* A queue file's header agrees with its size and the bounds, so that no
 * slot index this process computes from it falls outside the mapping
 * (the file is anyone's with write permission on it). */
static bool mq_header_ok(const struct mq_file *q, size_t len)
{
	if (q->magic != MQ_MAGIC || q->maxmsg <= 0 || q->maxmsg > MQ_HARD_MAXMSG || q->msgsize <= 0 ||
	    q->msgsize > MQ_HARD_MSGSIZE)
		return false;
	uint64_t slot_size = (sizeof(struct mq_slot) + (uint64_t)q->msgsize + 7) & ~7ull;
	return q->slot_size == slot_size && sizeof(struct mq_file) + slot_size * (uint64_t)q->maxmsg <= len;
}

mqd_t mq_open(const char *name, int oflag, ...)
{
	char path[NAME_MAX + 16];
	mode_t mode = 0;
	const struct mq_attr *attr = NULL;
	int e = mq_path(name, path, sizeof(path));
	if (e)
		return mq_fail(e);
	if ((oflag & O_ACCMODE) == O_ACCMODE)
		return mq_fail(EINVAL);
	if (oflag & O_CREAT) {
		va_list ap;
		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, int);
		attr = va_arg(ap, const struct mq_attr *);
		va_end(ap);
		/* Linux's mq_attr_ok: a user without privilege gets at most
		 * msg_max messages of msgsize_max bytes, root the hard bounds */
		bool root = geteuid() == 0;
		if (attr && (attr->mq_maxmsg <= 0 || attr->mq_msgsize <= 0 ||
			     attr->mq_maxmsg > (root ? MQ_HARD_MAXMSG : MQ_USER_MAXMSG) ||
			     attr->mq_msgsize > (root ? MQ_HARD_MSGSIZE : MQ_USER_MSGSIZE) ||
			     (uint64_t)attr->mq_maxmsg * (uint64_t)attr->mq_msgsize > MQ_MAX_BYTES))
			return mq_fail(EINVAL);
	}
	bool excl = (oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 10; tries++) {
		if (!excl) {
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd >= 0 || errno != ENOENT || !(oflag & O_CREAT))
				break;
		}
		fd = mq_create(path, mode, attr ? attr->mq_maxmsg : MQ_DEF_MAXMSG,
			       attr ? attr->mq_msgsize : MQ_DEF_MSGSIZE);
		if (fd == -EEXIST && !excl)
			continue; /* made meanwhile by another: open that one */
		if (fd < 0)
			return mq_fail(-fd);
	}
	if (fd < 0)
		return -1;
	struct stat st;
	struct mq_file *q = MAP_FAILED;
	size_t len = 0;
	if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct mq_file)) {
		len = (size_t)st.st_size;
		q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	e = q == MAP_FAILED ? (errno ? errno : EINVAL) : !mq_header_ok(q, len) ? EINVAL : 0;
	if (e) {
		close(fd);
		if (q != MAP_FAILED)
			munmap(q, len);
		return mq_fail(e);
	}
	pthread_mutex_lock(&mqds_lock);
	int d = 0;
	while (d < MQ_OPEN_MAX && mqds[d].used)
		d++;
	if (d == MQ_OPEN_MAX) {
		pthread_mutex_unlock(&mqds_lock);
		munmap(q, len);
		close(fd);
		return mq_fail(EMFILE);
	}
	mqds[d].q = q;
	mqds[d].maplen = len;
	mqds[d].fd = fd;
	mqds[d].flags = oflag & (O_ACCMODE | O_NONBLOCK);
	mqds[d].dev = st.st_dev;
	mqds[d].ino = st.st_ino;
	mqds[d].used = true;
	pthread_mutex_unlock(&mqds_lock);
	return d;
}

static struct mq_file *mq_get(mqd_t d, int *flags)
{
	if (d < 0 || d >= MQ_OPEN_MAX || !mqds[d].used)
		return NULL;
	*flags = mqds[d].flags;
	return mqds[d].q;
}

/* --- mq_notify --- */

/* This process's registration on descriptor d's queue, or -1. */
static int mq_note_find(mqd_t d)
{
	for (int i = 0; i < MQ_OPEN_MAX; i++)
		if (mq_notes[i].used && mq_notes[i].dev == mqds[d].dev && mq_notes[i].ino == mqds[d].ino)
			return i;
	return -1;
}

/* Whether this process holds q's registration (under q's lock). */
static bool mq_note_mine(mqd_t d, struct mq_file *q)
{
	int i = mq_note_find(d);
	pid_t self = getpid();
	return i >= 0 && mq_notes[i].pid == self && q->notify_pid == self && q->notify_gen == mq_notes[i].gen;
}

/* Sets (type F_RDLCK) or clears (F_UNLCK) this process's registration
 * lock on the queue at byte `how` of its range (F_UNLCK: all of it). */
static int mq_note_lock(int fd, short type, int how)
{
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = MQ_NOTE_BASE + (off_t)getpid() * MQ_NOTE_SPAN + (type == F_UNLCK ? 0 : how),
		.l_len = type == F_UNLCK ? MQ_NOTE_SPAN : 1,
	};
	return fcntl(fd, F_SETLK, &fl) == 0 ? 0 : errno;
}

/* How the live registration of another process pid on the queue open as
 * fd asks to be told (a byte of its range it holds locked, the kernel's
 * word), or -1 if pid holds none: it exited, exec'd or closed the queue. */
static int mq_note_how(int fd, pid_t pid)
{
	off_t base = MQ_NOTE_BASE + (off_t)pid * MQ_NOTE_SPAN;
	off_t at = base;
	while (at < base + MQ_NOTE_SPAN) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = at,
				    .l_len = base + MQ_NOTE_SPAN - at };
		if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK)
			return -1;
		if (fl.l_pid == pid)
			return fl.l_start < base ? 0 : (int)(fl.l_start - base);
		/* someone else's lock in pid's range: look past it */
		at = fl.l_len == 0 ? base + MQ_NOTE_SPAN : fl.l_start + fl.l_len;
	}
	return -1;
}

/* Under q's lock: whether q has a live registration (a dead one is
 * dropped); *how gets its byte (see above). */
static bool mq_note_live(mqd_t d, struct mq_file *q, int *how)
{
	pid_t pid = q->notify_pid;
	*how = -1;
	if (pid <= 0)
		return false;
	if (pid == getpid()) {
		if (mq_note_mine(d, q)) {
			*how = mq_notes[mq_note_find(d)].how;
			return true;
		}
	} else if ((*how = mq_note_how(mqds[d].fd, pid)) >= 0) {
		return true;
	}
	q->notify_pid = 0;
	return false;
}

/* Under q's lock: ends q's registration and wakes a SIGEV_THREAD helper
 * (fired: it calls its function; else it goes away). */
static void mq_note_end(struct mq_file *q, bool fired)
{
	if (fired)
		q->fired_gen = q->notify_gen;
	q->notify_pid = 0;
	__atomic_add_fetch(&q->note_seq, 1, __ATOMIC_RELEASE);
	sys_futex_wake(&q->note_seq, INT_MAX);
}

/* Under q's lock, a message having come to the empty queue with no
 * receiver waiting: fire the registration, if there is one, and remove
 * it (Linux's __do_notify). The signal is the kernel's sigqueue with
 * SI_MESGQ: sent only if this process may signal the registered one,
 * with this process's pid and uid in it. */
static void mq_note_fire(mqd_t d, struct mq_file *q)
{
	int how;
	pid_t pid = q->notify_pid;
	if (!mq_note_live(d, q, &how))
		return;
	uint64_t value = q->notify_value;
	mq_note_end(q, how == MQ_NOTE_THREAD);
	if (how > 0 && how < MQ_NOTE_THREAD)
		sys_sigqueue(pid, how, value, SI_MESGQ);
}

/* SIGEV_THREAD's helper: waits, on a mapping of its own (the descriptor
 * may be closed meanwhile), for its registration to fire, then calls the
 * function as the notification's thread. It ends without calling it if
 * this process takes the registration back (mq_notify(NULL), mq_close:
 * cancelled) or it went otherwise. Fired means fired_gen reached its
 * generation: a later registration of this process may fire too before
 * the helper runs. Shared by the helper and this process's mq_notes
 * entry (refs). */
struct mq_helper {
	struct mq_file *q;
	size_t maplen;
	uint32_t gen;
	void (*fn)(union sigval);
	union sigval value;
	int refs, cancelled;
};

static void mq_helper_put(struct mq_helper *h)
{
	if (h && __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(h);
}

static void *mq_helper_main(void *arg)
{
	struct mq_helper *h = arg;
	struct mq_file *q = h->q;
	pid_t self = getpid();
	bool fired = false;
	for (;;) {
		uint32_t seq = __atomic_load_n(&q->note_seq, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&h->cancelled, __ATOMIC_ACQUIRE))
			break;
		if ((int32_t)(__atomic_load_n(&q->fired_gen, __ATOMIC_ACQUIRE) - h->gen) >= 0) {
			fired = true;
			break;
		}
		if (__atomic_load_n(&q->notify_gen, __ATOMIC_ACQUIRE) != h->gen ||
		    __atomic_load_n(&q->notify_pid, __ATOMIC_ACQUIRE) != self)
			break;
		sys_futex_wait(&q->note_seq, seq, 0, 0);
	}
	munmap(q, h->maplen);
	void (*fn)(union sigval) = h->fn;
	union sigval value = h->value;
	mq_helper_put(h);
	if (fired)
		fn(value);
	return NULL;
}

/* Starts the helper of registration gen on descriptor d: 0 (*out the
 * helper) or an errno. */
static int mq_helper_start(mqd_t d, uint32_t gen, const struct sigevent *ev, struct mq_helper **out)
{
	struct mq_helper *h = malloc(sizeof(*h));
	if (!h)
		return ENOMEM;
	h->refs = 2; /* the thread's and the mq_notes entry's */
	h->cancelled = 0;
	h->maplen = mqds[d].maplen;
	h->q = mmap(NULL, h->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, mqds[d].fd, 0);
	if (h->q == MAP_FAILED) {
		free(h);
		return errno;
	}
	h->gen = gen;
	h->fn = ev->sigev_notify_function;
	h->value = ev->sigev_value;
	/* the caller's attributes, detached as glibc makes them */
	pthread_attr_t a;
	if (ev->sigev_notify_attributes)
		a = *ev->sigev_notify_attributes;
	else
		pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	int e = pthread_create(&t, &a, mq_helper_main, h);
	if (e) {
		munmap(h->q, h->maplen);
		free(h);
		h = NULL;
	}
	*out = h;
	return e;
}

/* Drops this process's registration on descriptor d's queue if it has
 * one (under q's lock); the kernel's lock goes with close, or here. */
static void mq_note_drop(mqd_t d, struct mq_file *q, bool unlock)
{
	int i = mq_note_find(d);
	if (i < 0)
		return;
	struct mq_helper *h = mq_notes[i].helper;
	if (mq_note_mine(d, q)) {
		/* still registered: taken back (one that fired already
		 * keeps its helper going) */
		if (h)
			__atomic_store_n(&h->cancelled, 1, __ATOMIC_RELEASE);
		mq_note_end(q, false);
	}
	mq_helper_put(h);
	mq_notes[i].helper = NULL;
	mq_notes[i].used = false;
	if (unlock)
		mq_note_lock(mqds[d].fd, F_UNLCK, 0);
}

int mq_notify(mqd_t d, const struct sigevent *ev)
{
	/* Linux checks the notification first, then the descriptor */
	if (ev && ev->sigev_notify != SIGEV_NONE && ev->sigev_notify != SIGEV_SIGNAL &&
	    ev->sigev_notify != SIGEV_THREAD)
		return mq_fail(EINVAL);
	if (ev && ev->sigev_notify == SIGEV_SIGNAL && (unsigned)ev->sigev_signo > 64)
		return mq_fail(EINVAL);
	int flags;
	pthread_mutex_lock(&mqds_lock);
	struct mq_file *q = mq_get(d, &flags);
	if (!q) {
		pthread_mutex_unlock(&mqds_lock);
		return mq_fail(EBADF);
	}
	pthread_mutex_lock(&q->lock);
	int how, e = 0;
	if (!ev) {
		/* only the registered process removes it; others: 0 */
		if (mq_note_live(d, q, &how) && q->notify_pid == getpid())
			mq_note_drop(d, q, true);
	} else if (mq_note_live(d, q, &how)) {
		e = EBUSY;
	} else {
		how = ev->sigev_notify == SIGEV_THREAD ? MQ_NOTE_THREAD
		      : ev->sigev_notify == SIGEV_SIGNAL ? ev->sigev_signo : 0;
		int i = mq_note_find(d);
		if (i >= 0)
			mq_note_drop(d, q, true); /* an old one that fired */
		for (i = 0; i < MQ_OPEN_MAX && mq_notes[i].used; i++)
			;
		e = i == MQ_OPEN_MAX ? ENOMEM : mq_note_lock(mqds[d].fd, F_RDLCK, how);
		uint32_t gen = q->notify_gen + 1;
		struct mq_helper *h = NULL;
		if (!e && how == MQ_NOTE_THREAD) {
			q->notify_gen = gen; /* before the helper looks */
			q->notify_pid = getpid();
			e = mq_helper_start(d, gen, ev, &h);
			if (e) {
				q->notify_pid = 0;
				mq_note_lock(mqds[d].fd, F_UNLCK, 0);
			}
		}
		if (!e) {
			mq_notes[i].dev = mqds[d].dev;
			mq_notes[i].ino = mqds[d].ino;
			mq_notes[i].gen = gen;
			mq_notes[i].pid = getpid();
			mq_notes[i].how = how;
			mq_notes[i].helper = h;
			mq_notes[i].used = true;
			q->notify_value = (uint64_t)(uintptr_t)ev->sigev_value.sival_ptr;
			q->notify_gen = gen;
			__atomic_store_n(&q->notify_pid, getpid(), __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&q->lock);
	pthread_mutex_unlock(&mqds_lock);
	return e ? mq_fail(e) : 0;
}

int mq_close(mqd_t d)
{
	pthread_mutex_lock(&mqds_lock);
	if (d < 0 || d >= MQ_OPEN_MAX || !mqds[d].used) {
		pthread_mutex_unlock(&mqds_lock);
		return mq_fail(EBADF);
	}
	/* closing any descriptor of the queue ends this process's
	 * registration on it, as Linux's (and its lock, with the close) */
	struct mq_file *q = mqds[d].q;
	pthread_mutex_lock(&q->lock);
	mq_note_drop(d, q, false);
	pthread_mutex_unlock(&q->lock);
	munmap(q, mqds[d].maplen);
	close(mqds[d].fd);
	mqds[d].used = false;
	pthread_mutex_unlock(&mqds_lock);
	return 0;
}

int mq_unlink(const char *name)
{
	char path[NAME_MAX + 16];
	int e = mq_path(name, path, sizeof(path));
	return e ? mq_fail(e) : unlink(path);
}

/* --- sending and receiving --- */

struct mq_waiting {
	uint32_t *seq, *waiters;
};

/* A cancelled waiter is no longer one, and passes on a wake-up it may
 * have taken. */
static void mq_wait_cancelled(void *arg)
{
	struct mq_waiting *w = arg;
	__atomic_sub_fetch(w->waiters, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(w->seq, 1, __ATOMIC_RELEASE);
	sys_futex_wake(w->seq, 1);
}

/* Sleeps (q's lock let go meanwhile, held again at the end) on futex
 * word seq, counted in *waiters, until ready(q): 0; ETIMEDOUT at abstime;
 * EINTR when a signal's handler ran (one installed with SA_RESTART
 * restarts the wait in the kernel: Linux restarts mq_* under SA_RESTART).
 * A cancellation point: a cancelled waiter holds no lock. */
static int mq_wait(struct mq_file *q, uint32_t *seq, uint32_t *waiters, bool (*ready)(const struct mq_file *),
		   const struct timespec *abstime)
{
	while (!ready(q)) {
		uint64_t ns = 0;
		uint32_t fl = 0;
		int e = abstime ? __pthread_timeout(CLOCK_REALTIME, abstime, &ns, &fl) : 0;
		if (e)
			return e;
		uint32_t s = __atomic_load_n(seq, __ATOMIC_ACQUIRE);
		__atomic_add_fetch(waiters, 1, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&q->lock);
		struct mq_waiting w = { seq, waiters };
		long r;
		pthread_cleanup_push(mq_wait_cancelled, &w);
		int cp = __pthread_cp_begin();
		/* Linux restarts mq_timed* after an SA_RESTART handler (with
		 * the same absolute deadline): so does this wait */
		r = sys_futex_wait(seq, s, ns, fl | (abstime ? K_FUTEX_RESTART : 0));
		__pthread_cp_end(cp);
		pthread_cleanup_pop(0);
		pthread_mutex_lock(&q->lock);
		__atomic_sub_fetch(waiters, 1, __ATOMIC_SEQ_CST);
		if (r == -EINTR && !ready(q))
			return EINTR;
	}
	return 0;
}

/* Wakes one thread asleep on seq (under q's lock). */
static void mq_wake(uint32_t *seq, const uint32_t *waiters)
{
	__atomic_add_fetch(seq, 1, __ATOMIC_RELEASE);
	if (__atomic_load_n(waiters, __ATOMIC_SEQ_CST))
		sys_futex_wake(seq, 1);
}

static bool mq_has_room(const struct mq_file *q) { return q->curmsgs < q->maxmsg; }
static bool mq_has_msg(const struct mq_file *q) { return q->curmsgs > 0; }

static bool mq_bad_time(const struct timespec *t)
{
	return t && (t->tv_sec < 0 || t->tv_nsec < 0 || t->tv_nsec >= 1000000000L);
}

int mq_timedsend(mqd_t d, const char *msg, size_t len, unsigned prio, const struct timespec *abstime)
{
	int flags;
	if (mq_bad_time(abstime) || prio >= MQ_PRIO_MAX)
		return mq_fail(EINVAL);
	struct mq_file *q = mq_get(d, &flags);
	if (!q || (flags & O_ACCMODE) == O_RDONLY)
		return mq_fail(EBADF);
	if (len > (size_t)q->msgsize)
		return mq_fail(EMSGSIZE);
	pthread_mutex_lock(&q->lock);
	int e = mq_has_room(q) ? 0
		: (flags & O_NONBLOCK) ? EAGAIN
		: mq_wait(q, &q->send_seq, &q->send_waiters, mq_has_room, abstime);
	if (e) {
		pthread_mutex_unlock(&q->lock);
		return mq_fail(e);
	}
	uint32_t i = q->free;
	struct mq_slot *s = mq_slot(q, i);
	q->free = s->next;
	s->prio = prio;
	s->len = len;
	memcpy(s->data, msg, len);
	/* after every message of a higher or equal priority */
	uint32_t *at = &q->head;
	while (*at != MQ_NONE && mq_slot(q, *at)->prio >= prio)
		at = &mq_slot(q, *at)->next;
	s->next = *at;
	*at = i;
	q->curmsgs++;
	if (__atomic_load_n(&q->recv_waiters, __ATOMIC_SEQ_CST))
		mq_wake(&q->recv_seq, &q->recv_waiters);
	else if (q->curmsgs == 1 && q->notify_pid)
		mq_note_fire(d, q);
	pthread_mutex_unlock(&q->lock);
	return 0;
}
int mq_send(mqd_t d, const char *msg, size_t len, unsigned prio)
{
	return mq_timedsend(d, msg, len, prio, NULL);
}

ssize_t mq_timedreceive(mqd_t d, char *msg, size_t len, unsigned *prio, const struct timespec *abstime)
{
	int flags;
	if (mq_bad_time(abstime))
		return mq_fail(EINVAL);
	struct mq_file *q = mq_get(d, &flags);
	if (!q || (flags & O_ACCMODE) == O_WRONLY)
		return mq_fail(EBADF);
	if (len < (size_t)q->msgsize)
		return mq_fail(EMSGSIZE);
	pthread_mutex_lock(&q->lock);
	int e = mq_has_msg(q) ? 0
		: (flags & O_NONBLOCK) ? EAGAIN
		: mq_wait(q, &q->recv_seq, &q->recv_waiters, mq_has_msg, abstime);
	if (e) {
		pthread_mutex_unlock(&q->lock);
		return mq_fail(e);
	}
	uint32_t i = q->head;
	struct mq_slot *s = mq_slot(q, i);
	q->head = s->next;
	ssize_t n = (ssize_t)s->len;
	memcpy(msg, s->data, s->len);
	if (prio)
		*prio = s->prio;
	s->next = q->free;
	q->free = i;
	q->curmsgs--;
	mq_wake(&q->send_seq, &q->send_waiters);
	pthread_mutex_unlock(&q->lock);
	return n;
}

ssize_t mq_receive(mqd_t d, char *msg, size_t len, unsigned *prio)
{
	return mq_timedreceive(d, msg, len, prio, NULL);
}

int mq_getattr(mqd_t d, struct mq_attr *attr)
{
	int flags;
	struct mq_file *q = mq_get(d, &flags);
	if (!q)
		return mq_fail(EBADF);
	memset(attr, 0, sizeof(*attr));
	attr->mq_flags = flags & O_NONBLOCK;
	attr->mq_maxmsg = q->maxmsg;
	attr->mq_msgsize = q->msgsize;
	attr->mq_curmsgs = __atomic_load_n(&q->curmsgs, __ATOMIC_RELAXED);
	return 0;
}

/* Only O_NONBLOCK may change (the rest of mq_flags: EINVAL, as Linux). */
int mq_setattr(mqd_t d, const struct mq_attr *new_attr, struct mq_attr *old_attr)
{
	int flags;
	if (!mq_get(d, &flags))
		return mq_fail(EBADF);
	if (new_attr && (new_attr->mq_flags & ~(long)O_NONBLOCK))
		return mq_fail(EINVAL);
	if (old_attr)
		mq_getattr(d, old_attr);
	if (new_attr)
		mqds[d].flags = (flags & ~O_NONBLOCK) | (int)(new_attr->mq_flags & O_NONBLOCK);
	return 0;
}
