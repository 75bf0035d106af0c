/* The system-call fuzzer: what the supervisor (fuzz.c) and the worker
 * that runs one program (worker.c) share. docs/testing.md describes it.
 *
 * A program is a list of 32-bit call seeds. Each seed decides one call:
 * which system call (or pseudo-call that builds state through the C
 * library: an open file, a cgroup, garbage into a cgroup file, a serving
 * thread) and each argument, drawn for its kind from the descriptions
 * tools/gen-syscalls.py generates from syscalls.tbl (fuzz_desc.h) and from
 * what the worker holds so far (handles, mappings, children). So a
 * program's text is its seeds, short enough for a kernel command line,
 * and replaying them replays the calls. */
#ifndef ARBOR_FUZZ_H
#define ARBOR_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include "fuzz_desc.h"

#define FZ_MAXCALLS 24		/* calls in one program */
#define FZ_COVMAX   65536	/* new kernel PCs one program may report */
#define FZ_SLOTS    2		/* workers at a time */

/* Pseudo-calls, numbered after the system calls. */
enum {
	FZ_P_OPEN = SYSCALL_COUNT,	/* open a file (own /tmp dir, /dev, /proc, own cgroups) */
	FZ_P_CGWRITE,			/* garbage into an interface file of its own cgroups */
	FZ_P_CGMKDIR,			/* a cgroup below its own, or remove one */
	FZ_P_FILEOP,			/* mkdir/unlink/rename/rmdir in its own /tmp dir */
	FZ_P_SERVE,			/* a thread serving one of its endpoints */
	FZ_P_COUNT
};
#define FZ_NPSEUDO (FZ_P_COUNT - SYSCALL_COUNT)

enum fz_mode { FZ_UNPRIV, FZ_ROOT };

/* One call as the worker made it (for the log printed on a failure). */
struct fz_log {
	int32_t nr;
	int32_t state;		/* 0 not yet, 1 in progress, 2 returned */
	int64_t ret;
	uint64_t a[6];
	char note[48];		/* a pseudo-call's path or garbage */
};

/* A program and where its worker reports, in memory the supervisor and
 * the worker share (MAP_SHARED). */
struct fz_shared {
	uint64_t seed;			/* the program's seed (the supervisor's) */
	int pid;			/* its worker */
	int nseeds;
	uint32_t seeds[FZ_MAXCALLS];
	volatile uint64_t progress;	/* calls returned */
	volatile int dirty;		/* it may have changed its cgroups: make them anew */
	volatile uint64_t calls;	/* calls made (all programs of this slot) */
	struct fz_log log[FZ_MAXCALLS];
	volatile uint32_t ncov;
	uint32_t cov[FZ_COVMAX];	/* kernel PCs (KCOV_BASE offsets) new to this program */
};

/* What a worker needs to know about where it runs. */
struct fz_env {
	enum fz_mode mode;
	int slot;
	bool kcov;		/* coverage recording works (KCOV kernel) */
	char cgdir[96];		/* its delegated cgroup, /sys/fs/cgroup/fuzz-MODE/wN */
	char cgrel[96];		/* the same below the cgroup root: /fuzz-MODE/wN */
	char tmpdir[64];	/* its own directory under /tmp */
	int ncgfiles;		/* the interface files of a cgroup (the supervisor reads them once) */
	char cgfiles[96][32];
};

/* Runs the program in sh (already in its cgroup, with its credentials)
 * and exits. */
__attribute__((noreturn)) void fz_worker(const struct fz_env *env, struct fz_shared *sh);

/* Printable name of call nr (a system call or a pseudo-call). */
const char *fz_call_name(int nr);

/* splitmix64: the generator every choice comes from. */
static inline uint64_t fz_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
