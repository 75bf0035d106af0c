/* The VFS server's internals: open files (named by their channel's badge)
 * and the devices it serves itself. One big lock serialises the server's
 * state. (Pipes are kernel objects: kernel/ipc/pipe.c.) */
#ifndef ARBOR_VFS_H
#define ARBOR_VFS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "abi/ipc.h"
#include "tmpfs.h"

enum ofile_kind { OF_TMPFS, OF_NULL, OF_ZERO, OF_URANDOM };

struct ofile {
	uint64_t badge;
	enum ofile_kind kind;
	int flags;			/* O_ACCMODE | O_APPEND | O_NONBLOCK */
	uint64_t offset;
	struct tmpfs_inode *ino;	/* OF_TMPFS */
	struct ofile *next;		/* hash chain */
	int busy;			/* workers using it right now */
	bool dead;			/* released while busy: freed when idle */
};

extern struct tmpfs *vfs_root;

void vfs_lock(void);
void vfs_unlock(void);
uint64_t vfs_now(void);

struct ofile *ofile_new(enum ofile_kind kind, int flags);
struct ofile *ofile_find(uint64_t badge);
void ofile_release(uint64_t badge);	/* the last handle to it is gone */
/* Gives the caller a descriptor for of: the caller's handle, or -errno. */
long ofile_give(struct ofile *of);

/* File-channel requests; the reply goes in m. */
void file_request(struct ofile *of, struct ipc_msg *m, const struct ipc_info *info);
/* Path requests on the VFS endpoint. */
void path_request(struct ipc_msg *m, const struct ipc_info *info);


#endif
