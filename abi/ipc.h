/* IPC between processes: synchronous call/receive/reply on endpoints.
 *
 * A message is a label and five words, copied by the kernel. A call may
 * also offer two buffers of any size: one the server may read from
 * (ipc_read) and one it may write into (ipc_write) while it handles the
 * call. The kernel tells the server who is calling (struct ipc_info):
 * identity comes from the kernel, never from the client.
 *
 * Channels: a server may mint handles to its endpoint that carry a badge
 * (chan_create), one per client object (an open file, say). Calls through
 * a channel tell the server its badge; when the last handle to a channel
 * goes (close, exit, exec with close-on-exec), the server receives an
 * IPC_LABEL_CLOSED message. Handles are inherited by fork, so these are
 * file descriptors with the right lifetime. */
#ifndef ARBOR_ABI_IPC_H
#define ARBOR_ABI_IPC_H

#include <stdint.h>

#define IPC_WORDS 5
/* A send buffer this small travels with the call: a server that named an
 * inbox (ipc_inbox) finds it there on receipt, no ipc_read needed. */
#define IPC_INLINE_MAX 128

struct ipc_msg {
	uint64_t label;
	uint64_t w[IPC_WORDS];
};

struct ipc_info {
	int32_t pid;		/* the calling process */
	int32_t tid;		/* the calling thread */
	uint32_t uid, gid;	/* real ids */
	uint32_t euid, egid;	/* effective ids */
	uint64_t cgroup_id;	/* the caller's cgroup (ids are never reused) */
	uint64_t snd_len;	/* bytes the server may read with ipc_read */
	uint64_t rcv_len;	/* bytes the server may write with ipc_write */
	uint64_t badge;		/* the channel called through (0: the endpoint) */
	int32_t ppid;		/* the calling process's parent */
	uint32_t snd_inline;	/* 1: the whole send buffer is in the inbox */
	/* On whose behalf the call is made (IPC_CALL_FOR): the process and
	 * cgroup that work for it (io, say) is to be charged to. The caller's
	 * own pid and cgroup unless a server made the call for the client it
	 * serves; then that client's (transitively), attested by the kernel. */
	int32_t for_pid;
	uint32_t flags;		/* IPC_INFO_* */
	uint64_t for_cgroup_id;
};

/* ipc_info.flags: renames the kernel made in the server's name cache wait
 * to be taken (ncache_log_take) before the server serves this. */
#define IPC_INFO_NCLOG 0x1

/* Or'ed into ipc_call's handle (h >= 0; a negative h stays EBADF): on behalf of the call
 * the calling thread is serving now (its caller's for_pid/for_cgroup_id
 * go to the server called, in place of ours). A thread serving no call
 * gets -ESRCH: it cannot name anyone. */
#define IPC_CALL_FOR 0x40000000

/* Or'ed into ipc_call's handle (h >= 0), with or without IPC_CALL_FOR: a
 * file operation, which a signal with a handler does not cut once it is
 * queued or taken: the call completes and the handler runs after, as
 * Linux's file system calls never end in EINTR with their work done (FUSE
 * waits so for a request its server has). A deferred call (ipc_defer:
 * waiting for input) is still cut, and a fatal signal cuts any call. The
 * C library's file calls and the kernel's own (read, write) carry it. */
#define IPC_CALL_WHOLE 0x20000000

/* A message the kernel itself sends to a server (info.pid is 0, there is
 * nobody to reply to): the last handle to the channel with this badge is
 * gone (closed, or its process ended). w[0] = the badge. */
#define IPC_LABEL_CLOSED 0xffffffffffffff01ull
/* A kernel message: the caller of a deferred call (ipc_defer) is gone
 * before the reply (a signal, a kill, its exit, the freezer): w[0] = the
 * cookie the server gave ipc_defer, w[1] = the reply handle. The server
 * drops the request and closes the handle. */
#define IPC_LABEL_ABANDONED 0xffffffffffffff02ull

/* What a server publishes about a file it serves (ipc_fstate), so that the
 * kernel answers fd_poll, fd_flags and fd_seek itself, without a call. */
#define IPC_FST_SEEKABLE 0x1	/* fd_seek goes to the server (else -ESPIPE) */

/* Handle flags (handle_dup, handle_dup2, handle_flags). */
#define HANDLE_CLOEXEC 0x1

/* Handle rights (handle_rights; docs/security.md). Every handle carries a
 * mask of what its holder may do with the object; each system call that
 * takes a handle checks the right it needs: -EBADF for no handle or the
 * wrong kind, -EPERM for a missing right (-EBADF for a descriptor not open
 * for reading or writing, as Linux). Rights are never added: duplicates
 * (handle_dup, handle_dup2, fork, exec) keep them, ipc_give passes them
 * as they are, handle_rights can only take some away. */
#define HANDLE_RIGHT_CALL	0x001	/* ipc_call and descriptor calls through an endpoint/channel */
#define HANDLE_RIGHT_RECV	0x002	/* ipc_recv, ipc_reply_recv (and so reply, ipc_read/write) */
#define HANDLE_RIGHT_MANAGE	0x004	/* chan_create, ns_register, ipc_mark_io; inotify watches */
#define HANDLE_RIGHT_DUP	0x008	/* handle_dup, handle_dup2 */
#define HANDLE_RIGHT_TRANSFER	0x010	/* ipc_give */
#define HANDLE_RIGHT_READ	0x020	/* fd_read/fd_pread; shm_map for reading */
#define HANDLE_RIGHT_WRITE	0x040	/* fd_write/fd_pwrite; shm_map for writing */
#define HANDLE_RIGHT_MAP	0x080	/* shm_map */
#define HANDLE_RIGHT_SIGNAL	0x100	/* notif_signal, irq_bind */
#define HANDLE_RIGHT_WAIT	0x200	/* notif_wait */
#define HANDLE_RIGHTS_ALL	0x3ff

/* What each kind of handle carries when it is made (by its creator). */
#define HANDLE_RIGHTS_BASIC	(HANDLE_RIGHT_DUP | HANDLE_RIGHT_TRANSFER)
#define HANDLE_RIGHTS_ENDPOINT	(HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_CALL | HANDLE_RIGHT_RECV | HANDLE_RIGHT_MANAGE)
/* ns_lookup's handles, channels (chan_create): calling only */
#define HANDLE_RIGHTS_CLIENT	(HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_CALL)
#define HANDLE_RIGHTS_NOTIF	(HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_SIGNAL | HANDLE_RIGHT_WAIT)
#define HANDLE_RIGHTS_SHM	(HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ | HANDLE_RIGHT_WRITE | HANDLE_RIGHT_MAP)
/* a pipe's read end READ, its write end WRITE; a cgroup file by its open
 * mode; an inotify instance READ and MANAGE (its watches) */

/* What handle_type answers: the kind of object behind a handle. */
#define HANDLE_ENDPOINT 1
#define HANDLE_NOTIFICATION 2
#define HANDLE_SHM 3
#define HANDLE_CHANNEL 4
#define HANDLE_PIPE 5		/* one end of a kernel pipe */
#define HANDLE_CGFS_FILE 6		/* an open cgroup interface file */
#define HANDLE_INOTIFY 7	/* an inotify instance */
#define HANDLE_REPLY 8		/* a deferred call's reply capability (ipc_defer) */
#define HANDLE_EVENTFD 9	/* an eventfd counter */
#define HANDLE_EPOLL 10		/* an epoll instance */
#define HANDLE_TIMERFD 11	/* a timerfd timer */
#define HANDLE_SIGNALFD 12	/* a signalfd */
#define HANDLE_SOCKET 13	/* a Unix-domain socket (sock_create) */
#define HANDLE_PIDFD 14		/* a process (pidfd_open): readable once it has ended */
#define HANDLE_CGNS 15		/* a cgroup namespace (open of /proc/PID/ns/cgroup): setns */

#endif
