/* The VFS server: paths, open files and pipes for every process. It owns
 * the root file system (tmpfs, filled from the boot archive at start),
 * serves /dev/null, /dev/zero and /dev/urandom itself and hands out the
 * console driver for /dev/console and /dev/tty (pipes are the kernel's).
 * Callers are known by the
 * identity the kernel attaches to each call; their descriptors are
 * channels to this server, so fork, dup and exit need no message to us:
 * the kernel tells us when an open file's last descriptor is gone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abi/fs.h"
#include "arbor_sys.h"
#include "vfs.h"

#define WORKERS 6
#define OFILE_HASH 256

long __arbor_thread_start(long (*fn)(void *), void *arg);

struct tmpfs *vfs_root;
static int endpoint;
static volatile int big_lock;
static struct ofile *ofiles[OFILE_HASH];
static uint64_t next_badge = 1;

void vfs_lock(void)
{
	while (__atomic_exchange_n(&big_lock, 1, __ATOMIC_ACQUIRE))
		sys_yield();
}

void vfs_unlock(void)
{
	__atomic_store_n(&big_lock, 0, __ATOMIC_RELEASE);
}

uint64_t vfs_now(void)
{
	return (uint64_t)sys_clock_ns();
}

struct ofile *ofile_new(enum ofile_kind kind, int flags)
{
	struct ofile *of = calloc(1, sizeof(*of));
	if (!of)
		return NULL;
	of->badge = next_badge++;
	of->kind = kind;
	of->flags = flags;
	of->next = ofiles[of->badge % OFILE_HASH];
	ofiles[of->badge % OFILE_HASH] = of;
	return of;
}

struct ofile *ofile_find(uint64_t badge)
{
	for (struct ofile *of = ofiles[badge % OFILE_HASH]; of; of = of->next)
		if (of->badge == badge)
			return of;
	return NULL;
}

static void ofile_free(struct ofile *of)
{
	if (of->kind == OF_TMPFS)
		tmpfs_close_ref(of->ino);
	free(of);
}

/* A worker inside a request still uses the open file: it is freed when
 * that worker is done. */
void ofile_release(uint64_t badge)
{
	struct ofile **pp = &ofiles[badge % OFILE_HASH];
	for (; *pp; pp = &(*pp)->next) {
		struct ofile *of = *pp;
		if (of->badge != badge)
			continue;
		*pp = of->next;
		if (of->busy)
			of->dead = true;
		else
			ofile_free(of);
		return;
	}
}

long ofile_give(struct ofile *of)
{
	long ch = sys_chan_create(endpoint, of->badge);
	if (ch < 0)
		return ch;
	long h = sys_ipc_give((int)ch);
	sys_handle_close((int)ch); /* the caller's handle keeps it */
	return h;
}

static long worker(void *arg)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	(void)arg;
	long r = sys_ipc_recv(endpoint, &m, &info);
	for (;;) {
		if (r == 0) {
			vfs_lock();
			if (m.label == IPC_LABEL_CLOSED) {
				/* info.badge: a client can only close its own */
				ofile_release(info.badge);
				m.label = 0;
			} else if (info.badge) {
				struct ofile *of = ofile_find(info.badge);
				if (of) {
					of->busy++;
					file_request(of, &m, &info);
					if (--of->busy == 0 && of->dead)
						ofile_free(of);
				} else {
					m.label = (uint64_t)-EBADF;
				}
			} else {
				path_request(&m, &info);
			}
			vfs_unlock();
		}
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return 0;
}

static void *vfs_alloc(size_t n) { return malloc(n); }
static void vfs_free(void *p) { free(p); }
static const struct tmpfs_ops vfs_ops = { vfs_alloc, vfs_free };

void vfs_populate(void);

int main(void)
{
	vfs_root = tmpfs_create(&vfs_ops, TMPFS_S_IFDIR | 0755, 0, 0);
	long ep = sys_ep_create();
	if (!vfs_root || ep < 0) {
		printf("vfs: cannot start\n");
		return 1;
	}
	/* Our own handles stay out of the way of descriptor numbers. */
	endpoint = (int)sys_handle_dup((int)ep, 200, HANDLE_CLOEXEC);
	sys_handle_close((int)ep);
	vfs_populate();
	for (int i = 1; i < WORKERS; i++)
		__arbor_thread_start(worker, NULL);
	if (sys_ns_register(VFS_NAME, endpoint)) {
		printf("vfs: the name is taken\n");
		return 1;
	}
	worker(NULL);
	return 0;
}
