/* The skeleton every file-system server shares (abi/fs.h, "file-system
 * server protocol"): the endpoint published as fs.TYPE, worker threads,
 * mount instances, open files named by their channel's badge, and the
 * decoding of requests the VFS forwards. A file system supplies a struct
 * fs_type; its callbacks run one at a time under the server's lock. */
#ifndef ARBOR_FSSRV_H
#define ARBOR_FSSRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "abi/fs.h"
#include "abi/ipc.h"

struct statfs;

/* An open file description: its channel's badge names it. */
struct fs_file {
	uint64_t badge;
	int flags;		/* O_ACCMODE | O_APPEND | O_NONBLOCK (| O_DIRECT: fs_type.direct) */
	uint64_t offset;
	void *inst;		/* the mount instance it was opened on */
	void *node;		/* the file system's own (an inode, a device) */
	int kind;		/* the file system's own */
	char *data;		/* a snapshot taken at open (free()d with the file) */
	uint64_t pcache;	/* its page cache object's id (the endpoint's), or 0 */
	size_t len;
	struct fs_file *next;	/* hash chain */
	int busy;		/* requests on it in progress */
	uint32_t inst_id;	/* the mount it was opened on (its instance id) */
	char *dirpath;		/* a directory opened with O_DIRECTORY on a file system
				   without a dirpath callback: its path in the mount */
	bool dead;		/* released while busy: freed when idle */
};

/* A path request forwarded by the VFS, decoded. */
struct fs_req {
	void *inst;
	const char *path;	/* from the instance's root: "/", "/a/b" */
	const char *path2;	/* VFS_RENAME's target, else NULL */
	uint32_t uid, gid;	/* the caller's effective ids */
	uint32_t ruid, rgid;	/* its real ids (access) */
	int32_t pid;		/* its process */
	int32_t tid;		/* its thread, in a direct call (the kernel's word);
				   0 when the VFS forwarded it (not known) */
	uint64_t walk;		/* FS_WALK_* (abi/fs.h) */
	uint32_t inst_id;	/* the instance's id (fssrv_statfs_write) */
};

/* What a path callback returns, with m->w[] set, when the walk needs the
 * VFS (a symlink to follow, a ".." to resolve above): FS_HANDBACK. */
#define FSSRV_HANDBACK 1
/* What an open returns, with m->w[0] the handle given, for a FIFO's end:
 * the reply says FS_OPEN_FIFO. */
#define FSSRV_OPEN_FIFO 2
/* ... for a copy of a descriptor from /proc/PID/fd (procfs): FS_OPEN_MAGIC. */
#define FSSRV_OPEN_MAGIC 3

struct fs_type {
	const char *name;	/* published as FS_NAME_PREFIX + name */
	/* A new instance for a mount: 0 or -errno. */
	int (*mount)(const char *source, const char *data, uint64_t flags, void **inst);
	/* Unmounting: 0, or -EBUSY to keep it. Files still open on it are
	 * refused (the skeleton checks that first). */
	int (*umount)(void *inst);
	/* VFS_* requests: 0 or -errno; sets m->w[0] for VFS_OPEN (a handle
	 * from fssrv_file_give). */
	long (*path)(const struct fs_req *r, struct ipc_msg *m);
	/* FILE_* requests but GETFL and SETFL (the skeleton keeps the
	 * status flags): the result (w0 for READ, WRITE, SEEK, POLL,
	 * GETDENTS) or
	 * -errno (GETDENTS: fssrv_getdents). */
	long (*file)(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info);
	/* The last descriptor of f is gone; the skeleton frees f itself. */
	void (*release)(struct fs_file *f);
	/* Optional: the path of directory f from the mount's root ("/",
	 * "/a"), its length or -ENOTDIR / -ENOENT (FILE_GETPATH). Without it
	 * only directories opened with O_DIRECTORY have one (as opened). */
	long (*dirpath)(struct fs_file *f, char *buf, size_t cap);
	/* Optional: the same for any open file f, as Linux's d_path shows it
	 * in /proc/PID/fd (" (deleted)" after an unlinked file's path):
	 * FILE_GETPATH with FILE_GETPATH_ANY. Without it a file that is no
	 * directory has none (-ENOTDIR). */
	long (*filepath)(struct fs_file *f, char *buf, size_t cap);
	/* The server walks paths as written: links and ".." hand back
	 * (FS_MNT_WALKS). */
	bool walks;
	long magic;		/* statfs's f_type (Linux's number for the kind) */
	/* Optional: statfs's counts for instance inst (blocks in f_bsize
	 * units, inodes); the skeleton fills the rest. Without it they are
	 * 0, as Linux's pseudo file systems show. */
	void (*statfs)(void *inst, struct statfs *st);
	/* Optional: the object id of instance inst's root directory in the
	 * server's table (an attribute-only object): the skeleton publishes
	 * it, and the mount table's generation, to the kernel's name cache
	 * (ncache_setup), whose names the file system installs itself. */
	uint64_t (*root_obj)(void *inst);
	/* Optional, with root_obj: the node of object id in instance inst, for
	 * a request on a descriptor the kernel opened itself (ncache_open:
	 * its badge is NCACHE_KBADGE), or NULL; and the last such descriptor
	 * of a file the file system kept for them closed. */
	void *(*kfile)(void *inst, uint64_t id);
	void (*kclosed)(void *inst, uint64_t id);
	/* Optional: the body of the file system's pager threads (docs/fs.md
	 * "The pager protocol"), pagers of them started once the endpoint
	 * exists (fssrv_endpoint), with no lock held: they take the kernel's
	 * requests for its PCACHE_BACKED objects (pcache_pager_wait). */
	long (*pager)(void *arg);
	int pagers;
	/* FILE_FSYNC goes to file() (a disk file system); else it is 0. */
	bool syncs;
	/* The file system honours O_DIRECT: a descriptor keeps it (open,
	 * fcntl on one without a page cache object) in f->flags. Else it is
	 * dropped, as before. */
	bool direct;
	/* Optional: everything of instance inst to stable storage (sync(2)
	 * through the VFS's FS_SYNC, syncfs(2) as FILE_SYNCFS): 0 or
	 * -errno. Called under the skeleton's lock, like every callback.
	 * Without it both are 0 (nothing kept for a disk). */
	int (*sync)(void *inst);
	/* The kernel learns the mount table's generation (ncache_setup) even
	 * without root_obj: cgroup2, whose paths the C library's direct
	 * calls take to the kernel itself (cgfs_direct) with that generation. */
	bool kgen;
	/* Optional, with root_obj: the kernel may rename a file within its
	 * directory itself in instance inst's writable mounts (ncache_rename:
	 * docs/vfs.md, "Renames without a round trip"); the skeleton hands
	 * each such rename to this, in order, before it serves anything else:
	 * from and to are paths inside the mount, id the file's object, now
	 * the change's time, which the kernel gave the directory's mtime and
	 * ctime and the file's ctime. The file system makes the same change
	 * without telling the kernel (it knows) and without failing (the
	 * kernel chose a rename that needs no memory: a name no longer than
	 * the old); 0, or -errno if its tree disagrees (a bug: it then
	 * makes the kernel forget what it can). */
	int (*renamed)(void *inst, const char *from, const char *to, uint64_t id, uint64_t now);
	/* Optional, with renamed: an unlink of a regular file (dir false) or
	 * an rmdir of an empty directory (dir true) the kernel made itself
	 * (ncache_unlink: docs/vfs.md, "Unlink and rmdir without a round
	 * trip"), handed over as renames are: path inside the mount, id the
	 * removed inode's object, now the directory's new mtime and ctime and
	 * the inode's ctime. The kernel already holds the attributes the
	 * change gives (the directory's size and nlink, the inode's nlink):
	 * the file system pushes nothing; 0, or -errno if its tree disagrees. */
	int (*removed)(void *inst, const char *path, bool dir, uint64_t id, uint64_t now);
	/* Optional: linkat(fd, "", ..., AT_EMPTY_PATH) of open file f
	 * (FILE_LINKAT, the caller root and the mount f's: the skeleton
	 * checked): a name for it at path inside the mount, whose
	 * directories hold no link and no "." or "..". 0 or -errno. Without
	 * it: EPERM. */
	long (*linkat)(struct fs_file *f, const char *path, const struct ipc_info *info);
	/* Optional: FILE_REOPEN of open file f with open flags, for the
	 * caller info names: a new descriptor of the same file given to it
	 * (fssrv_file_give), or -errno. Without it -ENXIO. */
	long (*reopen)(struct fs_file *f, int flags, const struct ipc_info *info);
	/* Optional: FS_MOUNT's reply w3 for instance inst (cgroup2: the
	 * mount's root cgroup, abi/fs.h); without it 0. */
	uint64_t (*mount_word)(void *inst);
};

/* The server's lock, which every callback runs under. A file system
 * whose work waits for a disk may let go of it inside a callback (and
 * must take it back before returning), keeping its own lock instead:
 * the skeleton's state (files, instances) is touched only under it, and
 * a file being served stays (busy) meanwhile. The request's own state
 * (its path, the file given to its caller) is kept for it while other
 * requests are served. */
void fssrv_lock(void);
void fssrv_unlock(void);

/* statfs of instance id into the caller's receive buffer (VFS_STATFS,
 * FILE_STATFS): 0 or -errno. */
long fssrv_statfs_write(uint32_t id);

/* Serves t forever; returns 1 only if the server cannot start. */
int fssrv_main(const struct fs_type *t);

struct fs_file *fssrv_file_new(void *inst, int flags);
/* The same for a file system that let go of the lock during the request
 * (the request's own instance id and path: fs_req's inst_id and path). */
struct fs_file *fssrv_file_new_at(void *inst, int flags, uint32_t inst_id, const char *path);
/* A descriptor for f to the current caller: its handle, or -errno (f is
 * then freed). With f->pcache set, the kernel serves the descriptor's
 * read, write, pread, pwrite, lseek and fstat from that object. */
long fssrv_file_give(struct fs_file *f);
/* A FIFO's open of node (the file's fifo_create handle) for flags: a file
 * for the FIFO's inode (f, made by the file system with its node and the
 * open's access mode) on a channel the end keeps (fifo_open's file: the
 * kernel passes it only fstat, fstatfs, fchmod, fchown and futimens of
 * the end, never data), the end given to the current caller. Its handle,
 * or -errno (f is then freed). The file system releases f, as any file,
 * when the end's last descriptor is gone. */
long fssrv_fifo_give(struct fs_file *f, int node, int flags);
/* Where instance inst_id is mounted ("/proc"), or NULL if not known. */
const char *fssrv_target(uint32_t inst_id);
/* The open file whose channel has badge, or NULL (under the lock). */
struct fs_file *fssrv_file_find(uint64_t badge);
/* "Now" for file times: the time of day cut to FS_TIME_GRAN_NS (abi/fs.h). */
uint64_t fssrv_now(void);
/* Whether gid is one of process pid's supplementary groups (the kernel's
 * word: getgroups of the caller, which is blocked in its call meanwhile);
 * false if it has none or is gone. For the permission checks' group
 * class (tmpfs_cred.member, ext2's e2_permission). */
bool fssrv_in_group(int32_t pid, uint32_t gid);
/* The server's endpoint (its page cache objects' table). */
int fssrv_endpoint(void);

/* In fs_type.mount: the process that asked for the mount (the VFS names
 * it), or 0 if not known. */
int32_t fssrv_mount_pid(void);

/* A mount callback for file systems that take no options and show the
 * same thing on every mount (one instance). */
int fssrv_mount_single(const char *source, const char *data, uint64_t flags, void **inst);

/* Helpers for files whose content is f->data (a snapshot). */
long fssrv_data_read(struct fs_file *f, const struct ipc_msg *m, const struct ipc_info *info);
long fssrv_data_seek(struct fs_file *f, int64_t off, int whence);
/* A FILE_GETDENTS reply being built: records staged in buf, written to
 * the caller's receive buffer when buf fills and at the end. */
struct fssrv_dents {
	uint64_t cap;		/* the caller's buffer */
	uint64_t done;		/* bytes already written there */
	uint64_t pos;		/* the cookie after the last entry added */
	size_t used;		/* bytes staged */
	bool full;		/* an entry did not fit: the reply ends before it */
	long err;		/* -EFAULT: the caller's buffer is bad */
	char buf[4096];
};
/* Adds the entry whose successor is at cookie next (its d_off): 1 when
 * added, 0 when the reply is full or failed (the filler stops; the
 * listing resumes at this entry). */
int fssrv_dent(struct fssrv_dents *b, uint64_t ino, unsigned type, const char *name, uint64_t next);
/* Serves FILE_GETDENTS on f from its offset (the position cookie): fill
 * adds the entries at and after cookie pos with fssrv_dent until that
 * returns 0 or the directory ends, and returns 0 or -errno (-ENOTDIR).
 * The offset moves past what was sent; m->w[1] = 1 if the reply reached
 * the end. Returns the bytes written, 0 at the end, -EINVAL if the first
 * entry does not fit, -EFAULT. */
long fssrv_getdents(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info,
		    long (*fill)(struct fs_file *f, uint64_t pos, struct fssrv_dents *b));
/* open(O_TMPFILE)'s flags (abi/fcntl.h K_O_TMPFILE_BIT): -EINVAL
 * unless it comes with O_DIRECTORY, without O_CREAT, for writing (Linux's
 * build_open_flags); else 0. */
long fssrv_tmpfile_flags(int flags);
/* open(O_TMPFILE) on a file system that makes no unnamed files, of the
 * node the path named (mode, owner): Linux's errors in order: the flags'
 * EINVAL, ENOTDIR for a non-directory, EACCES without write and search
 * permission on it, else EOPNOTSUPP. */
long fssrv_no_tmpfile(int flags, uint32_t mode, uint32_t uid, uint32_t gid, const struct fs_req *r);
/* The caller may open a file of this mode and owner for flags
 * (generic_permission; root passes). */
bool fssrv_may(uint32_t mode, uint32_t uid, uint32_t gid, const struct fs_req *r, int want);

#endif
