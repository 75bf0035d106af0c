/* POSIX message queues (<mqueue.h>) in the library, over shared memory.
 *
 * Why not the kernel: a queue is memory shared by the processes that open
 * it plus blocking with timeouts, which the C library already has in full
 * (a tmpfs file under /dev/shm mapped shared, process-shared mutexes and
 * condition variables on futexes keyed on the shared page), as named
 * semaphores are. Nothing new crosses the kernel boundary, so there is no
 * new system call to secure or fuzz; a queue lives, as on Linux, until it
 * is unlinked and closed (or the machine stops). What this gives up:
 * an mqd_t is not a file descriptor (no poll/select on it, no mq_notify),
 * and a process killed while it holds a queue's lock leaves the queue
 * locked (no robust mutexes yet), which a kernel queue would not.
 *
 * The file /dev/shm/mq.NAME holds a header (attributes, the lock, two
 * condition variables, the count) and mq_maxmsg slots; queued messages are
 * a list in priority order, highest first and oldest first within one
 * priority; free slots are another list. Errors are Linux's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

#define MQ_DIR "/dev/shm/"
#define MQ_MAGIC 0x4d51524fu
#define MQ_DEF_MAXMSG 10	/* Linux's /proc/sys/fs/mqueue defaults */
#define MQ_DEF_MSGSIZE 8192
#define MQ_USER_MAXMSG 10	/* Linux's msg_max and msgsize_max: the bounds */
#define MQ_USER_MSGSIZE 8192	/* of a caller without CAP_SYS_RESOURCE */
#define MQ_HARD_MAXMSG 65536	/* Linux's HARD_MSGMAX */
#define MQ_HARD_MSGSIZE (16 << 20)
#define MQ_MAX_BYTES (64ull << 20)
#define MQ_NONE UINT32_MAX
#define MQ_OPEN_MAX 64

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
	pthread_cond_t not_empty, not_full;
	/* slots follow, slot_size bytes each */
};

static struct {
	struct mq_file *q;
	size_t maplen;
	int flags;		/* O_ACCMODE bits and O_NONBLOCK */
	bool used;
} mqds[MQ_OPEN_MAX];
static pthread_mutex_t mqds_lock = PTHREAD_MUTEX_INITIALIZER;

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
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL, mode);
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
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
		pthread_cond_init(&q->not_empty, &ca);
		pthread_cond_init(&q->not_full, &ca);
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
			fd = open(path, O_RDWR);
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
	close(fd);
	if (e) {
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
		return mq_fail(EMFILE);
	}
	mqds[d].q = q;
	mqds[d].maplen = len;
	mqds[d].flags = oflag & (O_ACCMODE | O_NONBLOCK);
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

int mq_close(mqd_t d)
{
	pthread_mutex_lock(&mqds_lock);
	if (d < 0 || d >= MQ_OPEN_MAX || !mqds[d].used) {
		pthread_mutex_unlock(&mqds_lock);
		return mq_fail(EBADF);
	}
	munmap(mqds[d].q, mqds[d].maplen);
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

static void mq_unlock_cleanup(void *q)
{
	pthread_mutex_unlock(&((struct mq_file *)q)->lock);
}

/* Waits on cv under q's lock until ready() or abstime: 0, ETIMEDOUT. A
 * cancellation point: a cancelled waiter lets the lock go. */
static int mq_wait(struct mq_file *q, pthread_cond_t *cv, bool (*ready)(const struct mq_file *),
		   const struct timespec *abstime)
{
	int e = 0;
	pthread_cleanup_push(mq_unlock_cleanup, q);
	while (!ready(q) && e == 0)
		e = abstime ? pthread_cond_timedwait(cv, &q->lock, abstime) : pthread_cond_wait(cv, &q->lock);
	pthread_cleanup_pop(0);
	return ready(q) ? 0 : e;
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
	int e = mq_has_room(q) ? 0 : (flags & O_NONBLOCK) ? EAGAIN : mq_wait(q, &q->not_full, mq_has_room, abstime);
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
	pthread_cond_signal(&q->not_empty);
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
	int e = mq_has_msg(q) ? 0 : (flags & O_NONBLOCK) ? EAGAIN : mq_wait(q, &q->not_empty, mq_has_msg, abstime);
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
	pthread_cond_signal(&q->not_full);
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
