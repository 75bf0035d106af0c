/* The cgroup interface files: one table per owner (the core's here;
 * controllers add theirs), each file with Linux's name, mode, read format
 * and write syntax. A write is parsed and validated completely before
 * anything changes. The cgfs server reaches them through the cgfs_*
 * system calls (cgroup/fs/syscalls.c). */
#ifndef ARBOR_CGFS_H
#define ARBOR_CGFS_H

#include "abi/cgroup.h"
#include "cgroup.h"
#include "types.h"

/* What a read produces: text appended with cgfs_printf (cut at cap, len
 * still counts everything, so the caller can ask again with more room). */
struct cgfs_buf {
	char *buf;
	size_t len, cap;
};

void cgfs_printf(struct cgfs_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends n bytes of s, cut exactly as cgfs_printf cuts: for texts that
 * need no formatting. */
void cgfs_put(struct cgfs_buf *b, const char *s, size_t n);
void cgfs_put_u64_line(struct cgfs_buf *b, uint64_t v);

#define CFT_NOT_ON_ROOT  1
#define CFT_ONLY_ON_ROOT 2
/* poll reports POLLPRI|POLLERR after a change: every change of the text
 * bumps the file's cg->notify_seq (which also lets an open file reuse its
 * text while it is unchanged) */
#define CFT_NOTIFY       4
/* A file that notifies: which of cg->notify_seq counts its changes. */
#define CFT_NOTIFIES(which) (CFT_NOTIFY | ((which) << 8))
#define CFT_NOTIFY_FILE(f) ((unsigned)(f)->flags >> 8)
#define CFT_PRESSURE    16	/* a *.pressure file: hidden while cgroup.pressure is 0 */
/* Linux parses it with kstrtoull/kstrtoll on the text as written (its
 * write_u64/write_s64 files): no whitespace but one trailing newline */
#define CFT_KSTRTO      32
/* Its write gets the text as written, not stripped (Linux's io.max and
 * io.weight read it with sscanf, where a blank stands matters) */
#define CFT_RAW         64
/* Its write is allowed in a namespace's own root under nsdelegate (Linux's
 * CFTYPE_NS_DELEGATABLE): listed in /sys/kernel/cgroup/delegate */
#define CFT_NS_DELEGATABLE 128
struct cftype;

/* A file whose open descriptors each keep a state of their own, made by
 * a write and living as long as the open file (a pressure trigger, a
 * memory.peak reset). The open file (cgroup/fs/file.c) keeps the
 * state and calls these. */
struct cft_open_ops {
	/* Replaces cftype.write: *state is the open file's state (NULL until
	 * a write makes one, which it stores there); state itself is NULL for
	 * a write by path, which no open file keeps (only checked). */
	int (*write)(struct cgroup *cg, const struct cftype *f, char *text, void **state);
	/* If set, reads of an open file use it: state may be NULL. */
	int (*show)(struct cgroup *cg, void *state, struct cgfs_buf *out);
	/* If set, poll's events for the open file's state (NULL: none yet). */
	int (*poll)(void *state);
	/* The open file closes: its state (never NULL) goes. */
	void (*release)(struct cgroup *cg, void *state);
	bool once;		/* a second write on one open file: EBUSY */
	bool nul_ends;		/* the text may end at a NUL (Linux's triggers) */
	bool root_writes;	/* opening for writing needs root (Linux:
				 * CAP_SYS_RESOURCE), else EPERM */
};

struct cftype {
	const char *name;
	uint16_t mode;		/* 0444, 0644 or 0200 */
	uint16_t flags;		/* CFT_* */
	/* Read: 0 or -errno. */
	int (*show)(struct cgroup *cg, struct cgfs_buf *out);
	/* Write of text (whitespace stripped, NUL-terminated): 0 or -errno. */
	int (*write)(struct cgroup *cg, char *text, const struct k_cgwriter *w);
	const struct cft_open_ops *open;	/* per-open-file state, or NULL */
};

/* The i-th file cg has (NULL past the last), and the file called name.
 * Files are named PREFIX.REST: "cgroup.*" and the few core files named
 * after a controller (cpu.stat) are the core's, "NAME.*" a controller's
 * (the lookup relies on it; the host tests check it). */
const struct cftype *cgfs_cft_at(const struct cgroup *cg, unsigned i);
const struct cftype *cgfs_cft_find(const struct cgroup *cg, const char *name);

/* A write of len bytes of text (NUL at text[len]) to file f of cg: 0 (a
 * zero-length write does nothing), -EINVAL (read-only file, a NUL in the
 * text), -ENODEV or -ENOENT (cg removed: which one is the file's), or the
 * file's own parse and rule errors. state: the open file's (f->open),
 * NULL for a write by path. */
int cgfs_write(struct cgroup *cg, const struct cftype *f, char *text, size_t len, const struct k_cgwriter *w,
	       void **state);

/* The owner and mode file f of cg has now. cg_lock held. */
void cgfs_cft_attr(const struct cgroup *cg, const struct cftype *f, uint32_t *uid, uint32_t *gid,
		    uint16_t *mode);
/* chown/chmod of file f (NULL: the directory): uid/gid -1 and mode -1
 * leave that part. 0 or -ENOMEM. */
int cgfs_set_attr(struct cgroup *cg, const struct cftype *f, int64_t uid, int64_t gid, int32_t mode);
/* Whether uid:gid may write file f of cg (its owner and mode; root may). */
bool cgfs_may_write(const struct cgroup *cg, const struct cftype *f, uint32_t uid, uint32_t gid);

/* Parsing (host-tested): text is one token. */
/* "max" or a decimal/0x/0 integer in [0, max_value]: -EINVAL, -ERANGE. */
int cgfs_parse_max(const char *text, uint64_t max_value, uint64_t *out);
/* A signed integer (C base-0 rules): -EINVAL for anything else, -ERANGE
 * past 64 bits. */
int cgfs_parse_s64(const char *text, int64_t *out);
bool cgfs_kstrto_shape(const char *text, size_t len);
/* An unsigned integer as Linux's kstrtoull reads it (C base-0 rules, a
 * '+' but no '-'): -EINVAL for anything else, -ERANGE past 64 bits. */
int cgfs_parse_u64(const char *text, uint64_t *out);
/* An integer in [min, max] (C base-0 rules): -EINVAL for anything that
 * is no integer, -ERANGE for one outside (or past 64 bits). */
int cgfs_parse_range(const char *text, int64_t min, int64_t max, int64_t *out);
/* A size in bytes, as Linux's memparse: an unsigned integer (C base-0
 * rules; no digit at all is 0, as there) with an optional K, M, G, T, P
 * or E (either case, powers of 1024). -ERANGE past 2^64 (where Linux
 * wraps: docs/cgroups.md says why), -EINVAL for anything else. */
int cgfs_parse_size(const char *text, uint64_t *bytes);
/* A pressure trigger, "some|full STALL_US WINDOW_US" (Linux's): kind 0
 * (some) or 1 (full); a window of 500 ms..10 s and a stall of 1 µs..the
 * window, else -EINVAL. */
#define CGFS_TRIGGER_WINDOW_MIN_US 500000u
#define CGFS_TRIGGER_WINDOW_MAX_US 10000000u
int cgfs_parse_trigger(const char *text, int *kind, uint64_t *stall_us, uint64_t *window_us);
/* Strips leading and trailing whitespace in place; returns the start. */
char *cgfs_strip(char *text);

/* The migration rules, in Linux's order, for a task moving from src to
 * dst (the process side asks, cg_hooks->move_proc and move_thread): the
 * writer w needs write access (its ids) to the cgroup.procs of the
 * nearest cgroup holding both (-EACCES; root always has it), with
 * nsdelegate both ends inside w's namespace (-ENOENT), dst must
 * take tasks (cg_vet_migrate_dst's errors), every controller must let
 * them in (cg_can_attach's), and a thread alone (thread true) stays in
 * its resource domain (-EOPNOTSUPP). cg_lock not held; takes it. */
int cgfs_may_migrate(struct cgroup *src, struct cgroup *dst, const struct k_cgwriter *w, bool thread);

/* /sys/kernel/cgroup/delegate: the files marked CFT_NS_DELEGATABLE, one a
 * line, the core's in Linux's order of its base files, then each
 * controller's in registry order. */
void cgfs_delegatable(struct cgfs_buf *out);

#endif
