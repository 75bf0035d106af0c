/* The fuzzer's worker: one process that runs one program (a list of call
 * seeds, fuzz.h) and reports each call and the kernel code it reached.
 *
 * Arguments come from the generated descriptions (fuzz_desc.h): each
 * kind has its edge cases (kernel-half, unmapped and unaligned pointers,
 * huge lengths, wrong-kind and bad handles, random flags) and its good
 * values, taken from what earlier calls built (handles by kind, mapped
 * areas, children). Root mode is confined to its own cgroup subtree, its
 * own /tmp directory and its own processes: see fz_root_* below. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/kcov.h"
#include "arbor/syscalls.h"
#include "fuzz.h"

#define SCRATCH_SIZE (64 * 1024)
#define NSTACKS 8
#define STACK_SIZE (16 * 1024)
#define MAX_HANDLES 64
#define MAX_AREAS 16
#define MAX_PIDS 16

static const struct fz_env *env;
static struct fz_shared *shared;
static uint64_t rng;

/* What the program built so far. */
static struct { int h; int kind; bool foreign; } handles[MAX_HANDLES];
static int nhandles;
static struct { uint64_t addr, len; } areas[MAX_AREAS];
static int nareas;
static int pids[MAX_PIDS], npids;
static bool is_child;	/* a fork of the worker: runs on, reports nothing */

static uint8_t scratch[SCRATCH_SIZE] __attribute__((aligned(4096)));
static uint8_t stacks[NSTACKS][STACK_SIZE] __attribute__((aligned(16)));
static int next_stack;
static const uint8_t zeros[4096];
static uint32_t covbuf[KCOV_ENTRIES];

#define cgfiles (env->cgfiles)
#define ncgfiles (env->ncgfiles)

static uint64_t rnd(uint64_t n)
{
	return n ? fz_next(&rng) % n : 0;
}

static long fz_syscall(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	long ret;
	register uint64_t r10 __asm__("r10") = a3;
	register uint64_t r8 __asm__("r8") = a4;
	register uint64_t r9 __asm__("r9") = a5;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

const char *fz_call_name(int nr)
{
	static const char *const pseudo[FZ_NPSEUDO] = { "OPEN", "CGWRITE", "CGMKDIR", "FILEOP", "SERVE" };
	if (nr >= 0 && nr < SYSCALL_COUNT)
		return fz_calls[nr].name;
	if (nr >= SYSCALL_COUNT && nr < FZ_P_COUNT)
		return pseudo[nr - SYSCALL_COUNT];
	return "?";
}

/* -- coverage --------------------------------------------------------- */

/* PCs this program reached, so each goes to the supervisor once. */
#define SEEN_SIZE (1u << 17)
static uint32_t seen[SEEN_SIZE];

static void cov_collect(void)
{
	if (!env->kcov || is_child)
		return;
	long n = sys_kcov(KCOV_COLLECT, 0, covbuf, KCOV_ENTRIES);
	for (long i = 0; i < n; i++) {
		uint32_t pc = covbuf[i] | 0x80000000u;	/* never 0: 0 marks an empty slot */
		uint32_t at = (pc * 2654435761u) & (SEEN_SIZE - 1);
		while (seen[at] && seen[at] != pc)
			at = (at + 1) & (SEEN_SIZE - 1);
		if (seen[at])
			continue;
		seen[at] = pc;
		uint32_t k = shared->ncov;
		if (k < FZ_COVMAX) {
			shared->cov[k] = covbuf[i];
			shared->ncov = k + 1;
		}
	}
}

/* -- what the program holds ------------------------------------------- */

static void add_handle(int h, bool foreign)
{
	if (h < 0 || nhandles >= MAX_HANDLES)
		return;
	long kind = sys_handle_type(h);
	if (kind < 0)
		return;
	for (int i = 0; i < nhandles; i++) {
		if (handles[i].h == h) {
			handles[i].kind = (int)kind;
			handles[i].foreign = foreign;
			return;
		}
	}
	handles[nhandles].h = h;
	handles[nhandles].kind = (int)kind;
	handles[nhandles].foreign = foreign;
	nhandles++;
}

static void forget_handle(int h)
{
	for (int i = 0; i < nhandles; i++)
		if (handles[i].h == h)
			handles[i] = handles[--nhandles];
}

static bool handle_foreign(int h)
{
	for (int i = 0; i < nhandles; i++)
		if (handles[i].h == h)
			return handles[i].foreign;
	return false;
}

static bool handle_known(int h)
{
	for (int i = 0; i < nhandles; i++)
		if (handles[i].h == h)
			return true;
	return false;
}

static bool kind_fits(int want, int kind)
{
	switch (want) {
	case FZ_H_ANY: return true;
	case FZ_H_ENDPOINT: return kind == HANDLE_ENDPOINT || kind == HANDLE_CHANNEL;
	case FZ_H_NOTIF: return kind == HANDLE_NOTIFICATION;
	case FZ_H_SHM: return kind == HANDLE_SHM;
	case FZ_H_CHANNEL: return kind == HANDLE_CHANNEL;
	case FZ_H_PIPE: /* anything a descriptor call takes */
		return kind == HANDLE_PIPE || kind == HANDLE_CHANNEL || kind == HANDLE_CGFS_FILE ||
		       kind == HANDLE_INOTIFY;
	case FZ_H_CGFS_FILE: return kind == HANDLE_CGFS_FILE;
	case FZ_H_INOTIFY: return kind == HANDLE_INOTIFY;
	}
	return false;
}

/* A handle number for a call wanting kind want. Root mode never names a
 * service it looked up (the VFS, the file systems: as root their protocol
 * can change any file) nor a number it does not know (it might be one):
 * a number it does not hold becomes an invalid one. */
static int pick_handle(int want)
{
	uint64_t c = rnd(100);
	int h = -1;
	if (c < 75) {
		int cand[MAX_HANDLES], n = 0;
		for (int i = 0; i < nhandles; i++)
			if (kind_fits(want, handles[i].kind))
				cand[n++] = handles[i].h;
		if (n)
			h = cand[rnd((uint64_t)n)];
		else if (nhandles)
			h = handles[rnd((uint64_t)nhandles)].h;
		else
			h = (int)rnd(8);
	} else if (c < 88) {
		h = nhandles ? handles[rnd((uint64_t)nhandles)].h : 0;
	} else if (c < 96) {
		h = (int)rnd(48);
	} else {
		static const int bad[] = { -1, 0x7fffffff, 1 << 20, -2147483647 - 1, 4096 };
		h = bad[rnd(5)];
	}
	bool foreign = handle_foreign(h) || (!handle_known(h) && h >= 0 && h < 4096);
	if (env->mode == FZ_ROOT && foreign)
		return -1;
	return h;
}

static void add_area(uint64_t addr, uint64_t len)
{
	if (nareas < MAX_AREAS) {
		areas[nareas].addr = addr;
		areas[nareas].len = len;
		nareas++;
	} else {
		areas[rnd(MAX_AREAS)].addr = addr;
	}
}

/* -- values by kind --------------------------------------------------- */

static uint64_t v_int(void)
{
	static const uint64_t edge[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 4095, 4096,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
		0x8000000000000000ull, ~0ull, ~0ull - 1 };
	switch (rnd(4)) {
	case 0: return edge[rnd(sizeof(edge) / sizeof(edge[0]))];
	case 1: return rnd(64);
	case 2: return (uint64_t)-(int64_t)rnd(64);
	default: return fz_next(&rng);
	}
}

static uint64_t v_flags(void)
{
	switch (rnd(6)) {
	case 0: return 0;
	case 1: return 1ull << rnd(32);
	case 2: return rnd(16);
	case 3: return (1ull << rnd(32)) | (1ull << rnd(32));
	case 4: return ~0ull;
	default: return fz_next(&rng) & 0xffffffff;
	}
}

static uint64_t v_len(void)
{
	switch (rnd(10)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return rnd(64);
	case 3: case 4: return rnd(4097);
	case 5: return 4096 * (1 + rnd(16));
	case 6: return rnd(SCRATCH_SIZE + 1);
	case 7: return 1ull << (20 + rnd(12));	/* 1 MiB .. 2 GiB */
	case 8: return ~0ull - rnd(4096);
	default: return 0x7fffffff;
	}
}

/* A bad pointer: NULL, kernel half, non-canonical, unmapped, the top of
 * user space, or an unaligned one near them. */
static uint64_t v_badptr(void)
{
	static const uint64_t bad[] = { 0, 8, 0xffff800000000000ull, 0xffffffff80000000ull,
		0xffffffff80100000ull, 0x0000800000000000ull, 0x00007ffffffff000ull, 0x00007fffffffffffull,
		0x10000000000ull, 0xdead000, ~0ull - 7, 0x400000 /* the program's text */ };
	return bad[rnd(sizeof(bad) / sizeof(bad[0]))] + (rnd(4) ? 0 : rnd(4096));
}

static uint64_t v_ptr(uint64_t len)
{
	uint64_t c = rnd(100);
	if (c < 80) {
		if (len > SCRATCH_SIZE)
			len = 0;
		uint64_t off = rnd(SCRATCH_SIZE - len + 1);
		return (uint64_t)scratch + (rnd(4) ? off & ~7ull : off);
	}
	if (c < 88 && nareas) {
		int i = (int)rnd((uint64_t)nareas);
		return areas[i].addr + (rnd(2) ? 0 : rnd(areas[i].len + 1));
	}
	return v_badptr();
}

static uint64_t v_time(int nr)
{
	switch (rnd(8)) {
	case 0: return nr == SYS_sleep_ns || rnd(4) ? 1 : 0;	/* 0 is "forever" for waits */
	case 1: return rnd(1000);
	default: return rnd(10 * 1000 * 1000);
	}
}

static uint64_t v_pid(void)
{
	int self = (int)sys_getpid();
	if (env->mode == FZ_ROOT) {
		/* Root may signal, regroup, renice anyone: only its own. */
		switch (rnd(4)) {
		case 0: return (uint64_t)self;
		case 1: return npids ? (uint64_t)pids[rnd((uint64_t)npids)] : (uint64_t)self;
		case 2: return 0;	/* itself / its own group (the worker leads one) */
		default: return (uint64_t)(int64_t)-self;
		}
	}
	switch (rnd(10)) {
	case 0: return (uint64_t)self;
	case 1: return (uint64_t)sys_getppid();
	case 2: case 3: return npids ? (uint64_t)pids[rnd((uint64_t)npids)] : 0;
	case 4: return 1;
	case 5: return 0;
	case 6: return (uint64_t)-1;
	case 7: return (uint64_t)(int64_t)-self;
	case 8: return rnd(128);
	default: return rnd(2) ? 0x7fffffff : (uint64_t)(int64_t)(-2147483647 - 1);
	}
}

static uint64_t v_id(void)
{
	static const uint64_t ids[] = { 0, 1000, 1001, 65534, 0xffffffff, 0xfffffffe, 1 };
	return rnd(5) ? ids[rnd(7)] : fz_next(&rng) & 0xffffffff;
}

static uint64_t v_offset(void)
{
	static const uint64_t off[] = { 0, 1, 4095, 4096, 1ull << 31, 1ull << 40, ~0ull, 0x8000000000000000ull,
		0x7fffffffffffffffull };
	return rnd(3) ? rnd(8192) : off[rnd(9)];
}

/* A string in scratch (the last 4 KiB are strings' space). */
static char *strspace(size_t n)
{
	static size_t at;
	if (at + n > 4096)
		at = 0;
	char *s = (char *)scratch + SCRATCH_SIZE - 4096 + at;
	at += n;
	return s;
}

static uint64_t v_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = strspace(n);
	memcpy(p, s, n);
	return (uint64_t)p;
}

static uint64_t v_garbage_string(void)
{
	switch (rnd(4)) {
	case 0: return v_badptr();
	case 1: {
		char *p = strspace(300);
		memset(p, 'a' + (int)rnd(26), 299);
		p[299] = 0;
		return (uint64_t)p;
	}
	case 2: {
		char *p = strspace(40);
		for (int i = 0; i < 39; i++)
			p[i] = (char)(1 + rnd(255));
		p[39] = 0;
		return (uint64_t)p;
	}
	default: /* unterminated, running into an unmapped page would be best: the scratch end */
		memset(scratch + SCRATCH_SIZE - 64, 'x', 64);
		return (uint64_t)(scratch + SCRATCH_SIZE - 64);
	}
}

static uint64_t v_path(void)
{
	if (rnd(8) == 0)
		return v_garbage_string();
	static const char *const fixed[] = { "/", "/tmp", "/proc/self", "/dev", "/sys/fs/cgroup", "", "rel/dir",
		"/tmp/../tmp/./", "//", "/nonexistent/x" };
	if (rnd(2))
		return v_string(fixed[rnd(10)]);
	char buf[128];
	snprintf(buf, sizeof(buf), "%s/%c", env->tmpdir, 'a' + (int)rnd(3));
	return v_string(buf);
}

static const char *const cg_leaf_names[] = { "self", "g0", "g1", "g0/h" };

static bool moves_processes(const char *file)
{
	return strstr(file, "cgroup.procs") || strstr(file, "cgroup.threads");
}

/* An interface file's name. Root could move any process with bytes that
 * happen to read as its pid in a cgroup.procs or cgroup.threads: those
 * get only CGWRITE's own-pid writes in root mode, never random bytes. */
static const char *cg_file(void)
{
	for (int tries = 0; tries < 8; tries++) {
		const char *f = ncgfiles ? cgfiles[rnd((uint64_t)ncgfiles)] : "cgroup.events";
		if (env->mode != FZ_ROOT || !moves_processes(f))
			return f;
	}
	return "cgroup.events";
}

/* A cgroup path for the root-only cgfs_* calls: under its own subtree
 * in root mode (a root caller may change any cgroup), anywhere in the
 * other (they are refused). No "..": it would climb out. */
static uint64_t v_cgpath(void)
{
	char buf[192];
	if (env->mode != FZ_ROOT && rnd(4) == 0)
		return rnd(2) ? v_garbage_string() : v_string(rnd(2) ? "/" : "/fuzz-root/../..");
	const char *leaf = cg_leaf_names[rnd(4)];
	switch (rnd(3)) {
	case 0:
		snprintf(buf, sizeof(buf), "%s", env->cgrel);
		break;
	case 1:
		snprintf(buf, sizeof(buf), "%s/%s", env->cgrel, leaf);
		break;
	default:
		snprintf(buf, sizeof(buf), "%s/%s/%s", env->cgrel, rnd(4) ? leaf : ".", cg_file());
	}
	return v_string(buf);
}

static uint64_t v_prog(void)
{
	/* Not tests/fuzz itself: a fuzzer started by a fuzzer fuzzes on. */
	static const char *const progs[] = { "bin/false", "bin/true", "bin/echo", "bin/sh", "nonexistent", "",
		"bin", "etc/motd" };
	return rnd(8) ? v_string(progs[rnd(8)]) : v_garbage_string();
}

static uint64_t v_name(int nr)
{
	/* EXCLUDED: "console". Its protocol writes to the serial line, which
	 * the test runner reads: garbage there could hide or fake the results
	 * (its stalls are fixed: posix_console_readers_never_stall). */
	static const char *const names[] = { "vfs", "fuzz.c", "fs.tmpfs", "fs.devfs", "fs.proc", "fs.cgroup2", "fs.sysfs",
		"fs.ext2", "blk.vda", "fuzz.a", "fuzz.b", "" };
	if (nr == SYS_ns_register && env->mode == FZ_ROOT)	/* root claims only its own names */
		return v_string(rnd(2) ? "fuzz.a" : "fuzz.b");
	if (rnd(8) == 0)
		return v_garbage_string();
	return v_string(names[rnd(sizeof(names) / sizeof(names[0]))]);
}

static uint64_t v_argv(void)
{
	uint64_t *v = (uint64_t *)strspace(8 * 8);
	switch (rnd(5)) {
	case 0: return 0;
	case 1: return v_badptr();
	case 2:
		v[0] = 0;
		return (uint64_t)v;
	case 3:
		v[0] = v_string("x");
		v[1] = v_badptr();
		v[2] = 0;
		return (uint64_t)v;
	default:
		v[0] = v_string("arg0");
		v[1] = v_string("--help");
		v[2] = 0;
		return (uint64_t)v;
	}
}

/* A thread the fuzzer starts (thread_create): it calls the endpoint it
 * was given once, then ends. Raw system calls only (no C library state). */
static void fz_thread_entry(uint64_t h)
{
	struct ipc_msg m = { .label = h & 7 };
	sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	sys_exit_thread(0);
}

/* A thread serving endpoint h: takes up to 4 calls and answers each with
 * an error, then ends (FZ_P_SERVE: an endpoint, then serve it). */
static void fz_serve_entry(uint64_t h)
{
	struct ipc_msg m;
	struct ipc_info info;
	for (int i = 0; i < 4; i++) {
		if (sys_ipc_recv((int)h, &m, &info) < 0)
			break;
		m.label = (uint64_t)-38;
		sys_ipc_reply(&m);
	}
	sys_exit_thread(0);
}

static uint64_t v_stack(void)
{
	if (rnd(10) == 0)
		return v_badptr() & ~15ull;
	next_stack = (next_stack + 1) % NSTACKS;
	return (uint64_t)(stacks[next_stack] + STACK_SIZE);
}

static uint64_t v_uword(void)
{
	if (rnd(10) == 0)
		return v_badptr();
	uint64_t p = (uint64_t)scratch + rnd(SCRATCH_SIZE / 4) * 4;
	return rnd(10) ? p : p + 1;
}

/* Fills a buffer the call reads; a structure's first word is often a
 * selector (a label, a handler), so it is small half the time. */
static void fill(uint64_t p, uint64_t len, bool structure)
{
	if (p < (uint64_t)scratch || p >= (uint64_t)scratch + SCRATCH_SIZE)
		return;
	uint64_t room = (uint64_t)scratch + SCRATCH_SIZE - p;
	if (len > room)
		len = room;
	if (len > 512)
		len = 512;
	for (uint64_t i = 0; i < len; i++)
		((uint8_t *)p)[i] = (uint8_t)fz_next(&rng);
	if (structure && len >= 8 && rnd(2))
		*(uint64_t *)p = rnd(32);
}

/* One argument of kind k (description d) for call nr; a[] holds those
 * already made (a buffer's length is made with its buffer). */
static uint64_t gen_arg(int nr, const struct fz_arg *d, uint64_t *a, int i)
{
	switch (d->kind) {
	case FZ_INT: return v_int();
	case FZ_FLAGS: return v_flags();
	case FZ_ENUM: return rnd(8) ? rnd(5) : (rnd(2) ? (uint64_t)-1 : v_int());
	case FZ_COUNT: return rnd(6) ? rnd(65) : v_int();
	case FZ_TIME: return v_time(nr);
	case FZ_OFFSET: return v_offset();
	case FZ_ID: return v_id();
	case FZ_PID: return v_pid();
	case FZ_SIG: {
		uint64_t sig = rnd(8) ? 1 + rnd(31) : rnd(70);
		return sig;
	}
	case FZ_EXITCODE: return rnd(4) ? rnd(256) : v_int();
	case FZ_HANDLE: return (uint64_t)(int64_t)pick_handle(d->aux);
	case FZ_ADDR:
		if (nr == SYS_brk) {
			/* Near the break mostly; now and then far above it (a TiB
			 * break is walked by page tables, not pages). */
			uint64_t cur = (uint64_t)sys_brk(0);
			if (rnd(8) == 0)
				return cur + (rnd(2) ? 1ull << 40 : v_len());
			return rnd(4) == 0 ? v_badptr() | 0xffff800000000000ull : cur + rnd(1ull << 30) - (1ull << 20);
		}
		if (rnd(4) == 0 || !nareas)
			return rnd(3) ? 0 : v_badptr() & ~4095ull;
		return v_ptr(0) & ~4095ull;
	case FZ_ALEN: {
		uint64_t l = v_len();
		return rnd(4) ? l & ~4095ull : l;
	}
	case FZ_LEN: {
		if (d->aux >= 0 && d->aux < i) {
			uint64_t p = a[d->aux];
			if (p == (uint64_t)zeros)	/* only so many zero bytes */
				return rnd(8) ? rnd(rnd(8) ? 16 : sizeof(zeros) + 1) : ~0ull;
			if (p >= (uint64_t)scratch && p < (uint64_t)scratch + SCRATCH_SIZE && rnd(4))
				return rnd((uint64_t)scratch + SCRATCH_SIZE - p + 1);
		}
		return v_len();
	}
	case FZ_BUF_IN: case FZ_BUF_OUT: case FZ_STRUCT_IN: case FZ_STRUCT_OUT: case FZ_WORDS_IN:
	case FZ_WORDS_OUT: {
		uint64_t want = d->size ? d->size : 64;
		uint64_t p = v_ptr(want);
		if (d->kind != FZ_BUF_OUT && d->kind != FZ_WORDS_OUT)
			fill(p, want, d->kind == FZ_STRUCT_IN || d->kind == FZ_STRUCT_OUT);
		return p;
	}
	case FZ_ZEROS: return (uint64_t)zeros;
	case FZ_UWORD: return v_uword();
	case FZ_PATH: return v_path();
	case FZ_CGPATH: return v_cgpath();
	case FZ_PROG: return v_prog();
	case FZ_NAME: return v_name(nr);
	case FZ_ARGV: return v_argv();
	case FZ_CODE: return rnd(8) ? (uint64_t)fz_thread_entry : v_badptr();
	case FZ_STACK: return v_stack();
	case FZ_PHYS: return rnd(2) ? rnd(1ull << 32) & ~4095ull : v_int();
	case FZ_CGID: return rnd(4) ? rnd(64) : v_int();
	}
	return 0;
}

/* -- pseudo-calls: state through the C library ------------------------ */

static const char *const garbage_words[] = { "0", "1", "-1", "max", "max max", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999", "+pids +memory +cpu +io", "-pids -memory",
	"+bogus", "1 2", "0x10", " 1", "1\n", "", "threaded", "domain", "64M", "1k", "10000 100000",
	"max 100000", "some 150000 1000000", "8:0 rbps=1 wbps=max", "default 100", "253:0 100",
	"-1000", "1000", "frozen", "1 0 0 0", "\n", "+", "-", "nan", "4294967296", "0 0" };

static void cg_name(char *out, size_t cap)
{
	snprintf(out, cap, "%s/%s", env->cgdir, cg_leaf_names[rnd(4)]);
}

/* Garbage into one interface file of its own cgroups. Root could move
 * any process by writing its pid to a cgroup.procs or cgroup.threads of
 * its own: there it writes only its own pid, 0 (itself) or non-numbers. */
static long p_cgwrite(struct fz_log *l)
{
	char path[224], text[96];
	const char *dir = rnd(3) ? cg_leaf_names[rnd(4)] : ".";
	const char *file = ncgfiles ? cgfiles[rnd((uint64_t)ncgfiles)] : "cgroup.procs";
	snprintf(path, sizeof(path), "%s/%s/%s", env->cgdir, dir, file);
	switch (rnd(4)) {
	case 0:
		snprintf(text, sizeof(text), "%llu", (unsigned long long)v_int());
		break;
	case 1:
		for (int i = 0; i < 16; i++)
			text[i] = (char)(1 + rnd(255));
		text[16] = 0;
		break;
	default:
		snprintf(text, sizeof(text), "%s", garbage_words[rnd(sizeof(garbage_words) / sizeof(char *))]);
	}
	if (env->mode == FZ_ROOT && moves_processes(file)) {
		static const char *const safe[] = { "0", "x", "", "-", "0 0" };
		if (rnd(2))
			snprintf(text, sizeof(text), "%ld", sys_getpid());
		else
			snprintf(text, sizeof(text), "%s", safe[rnd(5)]);
	}
	snprintf(l->note, sizeof(l->note), "%s <- %.20s", file, text);
	shared->dirty = 1;
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	long r = write(fd, text, strlen(text));
	r = r < 0 ? -errno : r;
	close(fd);
	return r;
}

static long p_open(struct fz_log *l)
{
	char path[224];
	int flags = O_RDONLY;
	switch (rnd(6)) {
	case 0: case 1:
		snprintf(path, sizeof(path), "%s/%c", env->tmpdir, 'a' + (int)rnd(3));
		flags = (int)rnd(3) | (rnd(2) ? O_CREAT : 0) | (rnd(4) ? 0 : O_TRUNC) | (rnd(4) ? 0 : O_APPEND) |
			(rnd(4) ? 0 : O_NONBLOCK);
		break;
	case 2: {
		static const char *const ro[] = { "/dev/null", "/dev/zero", "/proc/self/stat", "/proc/1/status",
			"/proc/meminfo", "/", "/tmp", "/etc/motd", "/proc/pressure/cpu", "/dev/vda" };
		snprintf(path, sizeof(path), "%s", ro[rnd(10)]);
		flags = rnd(4) ? O_RDONLY : O_NONBLOCK;
		break;
	}
	default:
		shared->dirty = 1;	/* a cgroup file, maybe written through its handle */
		cg_name(path, sizeof(path));
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", cg_file());
		flags = (int)rnd(3) | (rnd(4) ? 0 : O_NONBLOCK);
	}
	snprintf(l->note, sizeof(l->note), "%.40s %#x", path + (strlen(path) > 40 ? strlen(path) - 40 : 0), flags);
	int fd = open(path, flags, 0644);
	if (fd < 0)
		return -errno;
	add_handle(fd, false);
	return fd;
}

static long p_cgmkdir(struct fz_log *l)
{
	char path[224];
	static const char *const leaves[] = { "g0", "g1", "g0/h" };
	snprintf(path, sizeof(path), "%s/%s", env->cgdir, leaves[rnd(3)]);
	snprintf(l->note, sizeof(l->note), "%.40s", path + strlen(env->cgdir));
	shared->dirty = 1;
	long r = rnd(3) ? mkdir(path, 0755) : rmdir(path);
	return r < 0 ? -errno : r;
}

static long p_fileop(struct fz_log *l)
{
	char a[128], b[128];
	snprintf(a, sizeof(a), "%s/%c", env->tmpdir, 'a' + (int)rnd(3));
	snprintf(b, sizeof(b), "%s/%c%s", env->tmpdir, 'a' + (int)rnd(3), rnd(2) ? "" : "/x");
	long r;
	switch (rnd(7)) {
	case 5: {
		static const uint64_t sizes[] = { 0, 1, 4096, 1ull << 20, 1ull << 40, ~0ull >> 1, ~0ull };
		uint64_t size = sizes[rnd(7)];
		r = truncate(a, (off_t)size);
		snprintf(l->note, sizeof(l->note), "truncate %s %llx", a + strlen(env->tmpdir), (unsigned long long)size);
		break;
	}
	case 6: {
		static const char *const dirs[] = { "/proc", "/proc/self", "/dev", "/tmp", "/sys/fs/cgroup" };
		const char *dir = rnd(3) ? dirs[rnd(5)] : rnd(2) ? env->tmpdir : env->cgdir;
		DIR *d = opendir(dir);
		r = d ? 0 : -errno;
		while (d && readdir(d) && r < 200)
			r++;
		if (d)
			closedir(d);
		snprintf(l->note, sizeof(l->note), "readdir %.36s", dir);
		return r;
	}
	case 0: r = mkdir(a, 0755); snprintf(l->note, sizeof(l->note), "mkdir %s", a + strlen(env->tmpdir)); break;
	case 1: r = unlink(a); snprintf(l->note, sizeof(l->note), "unlink %s", a + strlen(env->tmpdir)); break;
	case 2: r = rmdir(a); snprintf(l->note, sizeof(l->note), "rmdir %s", a + strlen(env->tmpdir)); break;
	case 3:
		r = rename(a, b);
		snprintf(l->note, sizeof(l->note), "rename %s %s", a + strlen(env->tmpdir), b + strlen(env->tmpdir));
		break;
	default: {
		struct stat st;
		r = stat(b, &st);
		snprintf(l->note, sizeof(l->note), "stat %s", b + strlen(env->tmpdir));
	}
	}
	return r < 0 ? -errno : r;
}

static long p_serve(struct fz_log *l)
{
	int h = -1;
	for (int i = 0; i < nhandles; i++)
		if (handles[i].kind == HANDLE_ENDPOINT && !handles[i].foreign && rnd(2))
			h = handles[i].h;
	if (h < 0) {
		h = (int)sys_ep_create();
		add_handle(h, false);
	}
	snprintf(l->note, sizeof(l->note), "endpoint %d", h);
	return sys_thread_create((uint64_t)fz_serve_entry, v_stack(), (uint64_t)h, NULL);
}

/* cgfs_write's writer: its pid names the process "0" moves, so root
 * names only itself. */
static void root_writer(uint64_t w)
{
	if (w >= (uint64_t)scratch && w + sizeof(struct k_cgwriter) <= (uint64_t)scratch + SCRATCH_SIZE)
		((struct k_cgwriter *)w)->pid = (int32_t)sys_getpid();
}

/* -- running a program ------------------------------------------------ */

/* Picks the call a seed names: skipped calls, rare ones mostly, root's
 * excluded ones and 'last' ones not at the end are drawn again. */
static int pick_call(bool last)
{
	for (int tries = 0; tries < 64; tries++) {
		int nr = (int)rnd(SYSCALL_COUNT + 3 * FZ_NPSEUDO);
		if (nr >= SYSCALL_COUNT)
			return SYSCALL_COUNT + (nr - SYSCALL_COUNT) % FZ_NPSEUDO;
		int f = fz_calls[nr].flags;
		if ((f & FZ_F_SKIP) || ((f & FZ_F_RARE) && rnd(16)) || ((f & FZ_F_NOROOT) && env->mode == FZ_ROOT) ||
		    ((f & FZ_F_LAST) && !last))
			continue;
		return nr;
	}
	return SYS_getpid;
}

/* After a call: what it built, for the calls that follow. */
static void note_result(int nr, const uint64_t *a, long r)
{
	if (r < 0)
		return;
	switch (nr) {
	case SYS_ep_create: case SYS_notif_create: case SYS_shm_create: case SYS_chan_create:
	case SYS_inotify_init1: case SYS_cgfs_open: case SYS_sock_create: case SYS_sock_accept:
	case SYS_eventfd: case SYS_epoll_create: case SYS_timerfd_create: case SYS_signalfd:
	case SYS_pidfd_open:
		add_handle((int)r, false);
		break;
	case SYS_sock_pair:
		if (a[3] >= (uint64_t)scratch && a[3] < (uint64_t)scratch + SCRATCH_SIZE - 8) {
			add_handle(((int *)a[3])[0], false);
			add_handle(((int *)a[3])[1], false);
		}
		break;
	case SYS_handle_dup: /* a copy is as foreign as its original */
		add_handle((int)r, handle_foreign((int)a[0]) || !handle_known((int)a[0]));
		break;
	case SYS_ns_lookup:
		add_handle((int)r, true);
		break;
	case SYS_handle_dup2:
		add_handle((int)a[1], handle_foreign((int)a[0]) || !handle_known((int)a[0]));
		break;
	case SYS_handle_close:
		forget_handle((int)a[0]);
		break;
	case SYS_pipe:
		if (a[0] >= (uint64_t)scratch && a[0] < (uint64_t)scratch + SCRATCH_SIZE - 8) {
			add_handle(((int *)a[0])[0], false);
			add_handle(((int *)a[0])[1], false);
		}
		break;
	case SYS_mem_map: case SYS_shm_map:
		add_area((uint64_t)r, nr == SYS_mem_map ? a[1] : 4096);
		break;
	case SYS_fork: case SYS_spawn:
		if (r > 0 && npids < MAX_PIDS)
			pids[npids++] = (int)r;
		break;
	}
}

static void run_call(int i, uint32_t seed, bool last)
{
	struct fz_log *l = &shared->log[i];
	uint64_t a[6] = { 0 };
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	int nr = pick_call(last);
	if (nr < SYSCALL_COUNT && strncmp(fz_calls[nr].name, "cgfs_", 5) == 0)
		shared->dirty = 1;
	if (nr == SYS_cgfs_write && env->mode == FZ_ROOT)
		root_writer(a[3]);
	if (nr < SYSCALL_COUNT) {
		const struct fz_call *c = &fz_calls[nr];
		for (int k = 0; k < c->nargs; k++)
			a[k] = gen_arg(nr, &c->args[k], a, k);
	}
	if (!is_child) {
		l->nr = nr;
		memcpy(l->a, a, sizeof(a));
		l->note[0] = 0;
		/* A string argument in its memory goes into the log as text. */
		for (int k = 0; nr < SYSCALL_COUNT && k < fz_calls[nr].nargs; k++) {
			int kind = fz_calls[nr].args[k].kind;
			if ((kind == FZ_PATH || kind == FZ_CGPATH || kind == FZ_PROG || kind == FZ_NAME) &&
			    a[k] >= (uint64_t)scratch && a[k] < (uint64_t)scratch + SCRATCH_SIZE - 64) {
				snprintf(l->note, sizeof(l->note), " \"%.40s\"", (const char *)a[k]);
				break;
			}
		}
		l->state = 1;
	}
	struct fz_log dummy;
	struct fz_log *nl = is_child ? &dummy : l;
	long r;
	switch (nr) {
	case FZ_P_OPEN: r = p_open(nl); break;
	case FZ_P_CGWRITE: r = p_cgwrite(nl); break;
	case FZ_P_CGMKDIR: r = p_cgmkdir(nl); break;
	case FZ_P_FILEOP: r = p_fileop(nl); break;
	case FZ_P_SERVE: r = p_serve(nl); break;
	default: r = fz_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	if (nr == SYS_fork && r == 0) {
		is_child = true;	/* the child runs on, silently */
		npids = 0;
		return;
	}
	note_result(nr, a, r);
	if (!is_child) {
		l->ret = r;
		l->state = 2;
		cov_collect();
		shared->progress++;
		shared->calls++;
	}
}

void fz_worker(const struct fz_env *e, struct fz_shared *sh)
{
	env = e;
	shared = sh;
	/* Only handles it made: none of the supervisor's, /dev/null for 0-2
	 * (the C library keeps its own from 200 up: the VFS, the console). */
	for (int h = 0; h < 200; h++)
		sys_handle_close(h);
	for (int fd = 0; fd < 3; fd++)
		if (open("/dev/null", O_RDWR) != fd)
			_exit(90);
	for (int fd = 0; fd < 3; fd++)
		add_handle(fd, false);
	add_area((uint64_t)scratch, SCRATCH_SIZE);
	long kr = env->kcov ? sys_kcov(KCOV_ENABLE, 0, NULL, 0) : 0;
	/* the other slot's program may hold most of the memory for a moment
	 * (a 256 MiB shm_create, preemptible, on a 256 MiB machine): its
	 * buffer's 32 pages come once that one is refused or done */
	for (int i = 0; kr == -ENOMEM && i < 200; i++) {
		usleep(10000);
		kr = sys_kcov(KCOV_ENABLE, 0, NULL, 0);
	}
	if (kr < 0)
		_exit(kr == -EBUSY ? 92 : kr == -ENOMEM ? 93 : 91);
	cov_collect();
	shared->ncov = 0;
	for (int i = 0; i < sh->nseeds; i++)
		run_call(i, sh->seeds[i], i == sh->nseeds - 1);
	_exit(0);
}
