/* Host unit tests for the VFS server's in-memory file system
 * (user/servers/tmpfs/tmpfs.c). Prints TAP.
 *
 * Errors are checked as exact Linux errno values. The allocator below
 * counts live blocks and bytes and can be told to fail, which checks
 * tmpfs_bytes_used, -ENOSPC paths and (with ASan) that tmpfs_destroy
 * frees everything. A randomized run compares tmpfs against a small
 * independent model of the tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi/errno.h"
#include "../../user/servers/tmpfs/tmpfs.h"
#include "tap.h"

#define S_IFMT   TMPFS_S_IFMT
#define S_IFREG  TMPFS_S_IFREG
#define S_IFDIR  TMPFS_S_IFDIR
#define S_IFCHR  TMPFS_S_IFCHR
#define S_IFIFO  0010000
#define S_ISUID  TMPFS_S_ISUID
#define S_ISGID  TMPFS_S_ISGID
#define S_ISVTX  TMPFS_S_ISVTX
#define PAGE     4096

/* ---- counting, failure-injecting allocator ---- */

struct hdr { size_t size; size_t pad; };

static long live_blocks;
static uint64_t live_bytes;
static long fail_after = -1;    /* allocations left before failing; -1: never */

static void *t_alloc(size_t n)
{
	struct hdr *h;

	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	h = xmalloc(sizeof(*h) + n);
	h->size = n;
	live_blocks++;
	live_bytes += n;
	return h + 1;
}

static void t_free(void *p)
{
	struct hdr *h = (struct hdr *)p - 1;

	live_blocks--;
	live_bytes -= h->size;
	free(h);
}

static const struct tmpfs_ops ops = { .alloc = t_alloc, .free = t_free };

/* ---- identities ---- */

static const uint32_t alice_groups[] = { 100 };
static const uint32_t bob_groups[] = { 100, 500 };
static const struct tmpfs_cred root = { .uid = 0, .gid = 0 };
static const struct tmpfs_cred alice = { .uid = 1000, .gid = 1000, .ngroups = 1, .groups = alice_groups };
static const struct tmpfs_cred bob = { .uid = 1001, .gid = 1001, .ngroups = 2, .groups = bob_groups };
static const struct tmpfs_cred carol = { .uid = 1002, .gid = 1002 };

/* A server's member hook (the kernel's getgroups of the caller): pid 77
 * is in group 700; every question is counted. */
static int member_asked;

static bool member_77_in_700(int32_t pid, uint32_t gid)
{
	member_asked++;
	return pid == 77 && gid == 700;
}

static const struct tmpfs_cred dave = { .uid = 1003, .gid = 1003, .pid = 77, .member = member_77_in_700 };

/* ---- helpers ---- */

static struct tmpfs *fs;
static uint64_t fs_overhead;    /* live_bytes - bytes_used: the struct tmpfs */
static uint64_t clock_ns = 1000;

static uint64_t tick(void)
{
	return clock_ns += 10;
}

static bool check_eq(long got, long want, const char *what, int line)
{
	return ok(got == want, "line %d: %s == %ld (got %ld)", line, what, want, got);
}
#define CHECK(expr, want) check_eq((long)(expr), (long)(want), #expr, __LINE__)

static void fs_new(uint32_t root_mode)
{
	uint64_t before = live_bytes;

	fs = tmpfs_create(&ops, root_mode, 0, 0);
	if (!fs)
		tap_bail("tmpfs_create failed");
	fs_overhead = live_bytes - before - tmpfs_bytes_used(fs);
}

static bool accounting_ok(void)
{
	return live_bytes - tmpfs_bytes_used(fs) == fs_overhead;
}

static void fs_end(const char *what)
{
	ok(accounting_ok(), "%s: bytes_used matches the allocator", what);
	tmpfs_destroy(fs);
	fs = NULL;
	ok(live_blocks == 0 && live_bytes == 0,
	   "%s: destroy frees everything (%ld blocks left)", what, live_blocks);
}

static struct tmpfs_inode *L(const char *path)
{
	struct tmpfs_inode *ino = NULL;

	return tmpfs_lookup(fs, path, &root, &ino) ? NULL : ino;
}

static int lk_in(struct tmpfs *f, const char *path)
{
	struct tmpfs_inode *ino;

	return tmpfs_lookup(f, path, &root, &ino);
}

static uint64_t tmpfs_ctime_of(const struct tmpfs_inode *ino)
{
	struct tmpfs_stat st;

	tmpfs_stat(ino, &st);
	return st.ctime;
}

static int lk(const char *path, const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;

	return tmpfs_lookup(fs, path, c, &ino);
}

static struct tmpfs_stat ST(const char *path)
{
	struct tmpfs_stat st = { 0 };
	struct tmpfs_inode *ino = L(path);

	if (ino)
		tmpfs_stat(ino, &st);
	return st;
}

static struct tmpfs_stat STI(const struct tmpfs_inode *ino)
{
	struct tmpfs_stat st;

	tmpfs_stat(ino, &st);
	return st;
}

static int mkf(const char *path, uint32_t perm, const struct tmpfs_cred *c)
{
	return tmpfs_create_node(fs, path, S_IFREG | perm, 0, c, tick(), true, NULL);
}

static int mkd(const char *path, uint32_t perm, const struct tmpfs_cred *c)
{
	return tmpfs_mkdir(fs, path, perm, c, tick());
}

/* mkdir as root, then give it to uid:gid with the exact mode. */
static void mkd_owned(const char *path, uint32_t mode, uint32_t uid, uint32_t gid)
{
	struct tmpfs_inode *d;

	if (mkd(path, 0755, &root) || !(d = L(path)) ||
	    tmpfs_chown(d, uid, gid, &root, tick()) ||
	    tmpfs_chmod(d, mode, &root, tick()))
		tap_bail("setup of %s failed", path);
}

static void mkf_owned(const char *path, uint32_t mode, uint32_t uid, uint32_t gid)
{
	struct tmpfs_inode *f;

	if (mkf(path, 0644, &root) != 1 || !(f = L(path)) ||
	    tmpfs_chown(f, uid, gid, &root, tick()) ||
	    tmpfs_chmod(f, mode, &root, tick()))
		tap_bail("setup of %s failed", path);
}

static long wr(const char *path, uint64_t off, const char *s)
{
	return tmpfs_write(L(path), off, s, strlen(s), tick());
}

static uint64_t ino_of(const char *path)
{
	struct tmpfs_inode *i = L(path);

	return i ? tmpfs_ino(i) : 0;
}

/* ---- basics and path resolution ---- */

static void test_root(void)
{
	struct tmpfs_stat st;

	fs_new(0755);
	tmpfs_stat(tmpfs_root(fs), &st);
	CHECK(st.mode, S_IFDIR | 0755);
	CHECK(st.nlink, 2);
	CHECK(st.uid, 0);
	CHECK(tmpfs_inodes_used(fs), 1);
	CHECK(L("/") == tmpfs_root(fs), 1);
	CHECK(tmpfs_mode(tmpfs_root(fs)), S_IFDIR | 0755);
	fs_end("root");
}

static void test_paths(void)
{
	char name[256], longname[300], path[5000];
	struct tmpfs_inode *dir = NULL;

	fs_new(0755);
	CHECK(mkd("/a", 0755, &root), 0);
	CHECK(mkd("/a/b", 0755, &root), 0);
	CHECK(mkf("/a/b/f", 0644, &root), 1);
	struct tmpfs_inode *f = L("/a/b/f"), *b = L("/a/b");
	ok(f && b, "setup lookups");

	CHECK(L("/a/b/../b/f") == f, 1);
	CHECK(L("//a/./b//f") == f, 1);
	CHECK(L("/a/b/") == b, 1);
	CHECK(L("/a/b//.//") == b, 1);
	CHECK(L("/..") == tmpfs_root(fs), 1);
	CHECK(L("/../../a/..") == tmpfs_root(fs), 1);
	CHECK(L("///") == tmpfs_root(fs), 1);
	CHECK(lk("/a/b/f/", &root), -ENOTDIR);
	CHECK(lk("/a/b/f/.", &root), -ENOTDIR);
	CHECK(lk("/a/b/f/..", &root), -ENOTDIR);
	CHECK(lk("/a/b/f/x", &root), -ENOTDIR);
	CHECK(lk("/nope", &root), -ENOENT);
	CHECK(lk("/nope/x", &root), -ENOENT);
	CHECK(lk("/nope/..", &root), -ENOENT);
	CHECK(lk("", &root), -ENOENT);
	CHECK(lk("a/b", &root), -EINVAL);

	memset(longname, 'x', sizeof(longname));
	longname[255] = '\0';
	snprintf(path, sizeof(path), "/%s", longname);
	CHECK(lk(path, &root), -ENOENT);            /* 255 is allowed */
	CHECK(mkf(path, 0644, &root), 1);
	CHECK(lk(path, &root), 0);
	longname[255] = 'x';
	longname[256] = '\0';
	snprintf(path, sizeof(path), "/%s", longname);
	CHECK(lk(path, &root), -ENAMETOOLONG);
	CHECK(mkf(path, 0644, &root), -ENAMETOOLONG);
	CHECK(mkd(path, 0755, &root), -ENAMETOOLONG);
	snprintf(path, sizeof(path), "/%s/x", longname);
	CHECK(lk(path, &root), -ENAMETOOLONG);

	/* 4095 bytes is the longest path; 4096 is too long. */
	memset(path, '/', 4095);
	path[4095] = '\0';
	memcpy(path + 4093, "/a", 2);
	CHECK(L(path) == L("/a"), 1);
	memset(path, '/', 4096);
	path[4096] = '\0';
	CHECK(lk(path, &root), -ENAMETOOLONG);

	CHECK(tmpfs_lookup_parent(fs, "/a/b/f", &root, &dir, name), 0);
	ok(dir == b && !strcmp(name, "f"), "lookup_parent /a/b/f -> b, \"f\"");
	CHECK(tmpfs_lookup_parent(fs, "/a/b/", &root, &dir, name), 1);
	ok(dir == L("/a") && !strcmp(name, "b"), "lookup_parent /a/b/ -> a, \"b\", slash");
	CHECK(tmpfs_lookup_parent(fs, "/", &root, &dir, name), 0);
	ok(dir == tmpfs_root(fs) && !strcmp(name, ""), "lookup_parent / -> root, \"\"");
	CHECK(tmpfs_lookup_parent(fs, "/a/.", &root, &dir, name), 0);
	ok(dir == L("/a") && !strcmp(name, "."), "lookup_parent /a/. -> a, \".\"");
	CHECK(tmpfs_lookup_parent(fs, "/a/..", &root, &dir, name), 0);
	ok(dir == L("/a") && !strcmp(name, ".."), "lookup_parent /a/.. -> a, \"..\"");
	CHECK(tmpfs_lookup_parent(fs, "/x/y", &root, &dir, name), -ENOENT);
	CHECK(tmpfs_lookup_parent(fs, "/a/b/f/y", &root, &dir, name), -ENOTDIR);
	CHECK(tmpfs_lookup_parent(fs, "/a/new", &root, &dir, name), 0);
	fs_end("paths");
}

/* ---- permissions ---- */

static int acc(const char *path, int mask, const struct tmpfs_cred *c)
{
	return tmpfs_access(L(path), mask, c);
}

static void test_access(void)
{
	fs_new(0755);
	mkf_owned("/f640", 0640, 1000, 100);
	CHECK(acc("/f640", 4, &alice), 0);
	CHECK(acc("/f640", 2, &alice), 0);
	CHECK(acc("/f640", 6, &alice), 0);
	CHECK(acc("/f640", 1, &alice), -EACCES);
	CHECK(acc("/f640", 4, &bob), 0);            /* supplementary group 100 */
	CHECK(acc("/f640", 2, &bob), -EACCES);
	CHECK(acc("/f640", 4, &carol), -EACCES);
	CHECK(acc("/f640", 0, &carol), 0);
	CHECK(acc("/f640", 8, &alice), -EINVAL);

	/* The owner class applies alone, even when it grants less. */
	mkf_owned("/f077", 0077, 1000, 100);
	CHECK(acc("/f077", 4, &alice), -EACCES);
	CHECK(acc("/f077", 7, &bob), 0);
	CHECK(acc("/f077", 7, &carol), 0);
	/* So does the group class, primary gid or supplementary. */
	mkf_owned("/f607", 0607, 1000, 1002);
	CHECK(acc("/f607", 4, &carol), -EACCES);    /* primary gid 1002 */
	mkf_owned("/f607b", 0607, 1000, 500);
	CHECK(acc("/f607b", 4, &bob), -EACCES);     /* second supplementary */
	CHECK(acc("/f607b", 7, &carol), 0);

	/* The groups a server's hook knows (setgroups): asked only when the
	 * group's bits and the others' differ for the mask. */
	mkf_owned("/f640d", 0640, 1000, 700);
	member_asked = 0;
	CHECK(acc("/f640d", 4, &dave), 0);          /* 700 through the hook */
	CHECK(acc("/f640d", 2, &dave), -EACCES);   /* no w for either class: not asked */
	CHECK(member_asked, 1);
	mkf_owned("/f644d", 0644, 1000, 701);
	member_asked = 0;
	CHECK(acc("/f644d", 4, &dave), 0);          /* r for group and others: no question */
	CHECK(member_asked, 0);
	mkf_owned("/f640e", 0640, 1000, 701);
	CHECK(acc("/f640e", 4, &dave), -EACCES);    /* not a member of 701 */

	/* Root: read/write always; execute only with some x bit; search
	 * directories always. */
	mkf_owned("/f000", 0000, 1000, 1000);
	CHECK(acc("/f000", 6, &root), 0);
	CHECK(acc("/f000", 1, &root), -EACCES);
	CHECK(acc("/f000", 5, &root), -EACCES);
	mkf_owned("/f001", 0001, 1000, 1000);
	CHECK(acc("/f001", 7, &root), 0);
	CHECK(acc("/f001", 1, &alice), -EACCES);    /* owner class: --- */
	mkf_owned("/r000", 0000, 0, 0);             /* root as owner too */
	CHECK(acc("/r000", 6, &root), 0);
	mkd_owned("/d000", 0000, 1000, 1000);
	CHECK(acc("/d000", 7, &root), 0);
	CHECK(acc("/d000", 1, &alice), -EACCES);

	/* Search permission on every directory walked through. */
	mkd_owned("/p", 0700, 1000, 1000);
	mkf_owned("/p/x", 0644, 1000, 1000);
	CHECK(lk("/p/x", &alice), 0);
	CHECK(lk("/p/x", &bob), -EACCES);
	CHECK(lk("/p/nope", &bob), -EACCES);        /* EACCES before ENOENT */
	CHECK(lk("/p", &bob), 0);
	CHECK(lk("/p/", &bob), 0);
	CHECK(lk("/p/.", &bob), -EACCES);
	CHECK(lk("/p/..", &bob), -EACCES);
	CHECK(lk("/p/x", &root), 0);
	mkd_owned("/p/q", 0777, 1000, 1000);
	CHECK(mkf("/p/q/new", 0644, &bob), -EACCES);
	mkd_owned("/s", 0711, 1000, 1000);          /* search without read */
	mkf_owned("/s/x", 0644, 1000, 1000);
	CHECK(lk("/s/x", &carol), 0);
	mkd_owned("/g", 0750, 1000, 100);           /* group search */
	mkf_owned("/g/x", 0644, 1000, 1000);
	CHECK(lk("/g/x", &bob), 0);
	CHECK(lk("/g/x", &carol), -EACCES);

	/* Creating needs write and search on the parent. */
	mkd_owned("/w", 0755, 1000, 1000);
	CHECK(mkf("/w/x", 0644, &bob), -EACCES);
	CHECK(mkd("/w/x", 0755, &bob), -EACCES);
	CHECK(mkf("/w/x", 0644, &alice), 1);
	mkd_owned("/wx", 0666, 1000, 1000);         /* write without search */
	CHECK(mkf("/wx/x", 0644, &alice), -EACCES);
	CHECK(mkf("/d000/x", 0644, &root), 1);
	fs_end("access");
}

/* ---- creating files and device nodes ---- */

static void test_create(void)
{
	struct tmpfs_inode *f = NULL, *g = NULL;
	struct tmpfs_stat st;
	uint64_t t;

	fs_new(0755);
	mkd_owned("/a", 0777, 0, 0);
	t = tick();
	CHECK(tmpfs_create_node(fs, "/a/f", S_IFREG | 0640, 0, &alice, t, false, &f), 1);
	st = STI(f);
	CHECK(st.mode, S_IFREG | 0640);
	CHECK(st.uid, 1000);
	CHECK(st.gid, 1000);
	CHECK(st.nlink, 1);
	CHECK(st.size, 0);
	ok(st.atime == t && st.mtime == t && st.ctime == t, "new file times = now");
	st = ST("/a");
	ok(st.mtime == t && st.ctime == t, "parent mtime/ctime = now on create");
	CHECK(tmpfs_create_node(fs, "/a/f", S_IFREG | 0600, 0, &bob, tick(), false, &g), 0);
	CHECK(g == f, 1);
	CHECK(STI(f).mode, S_IFREG | 0640);         /* existing file unchanged */
	CHECK(tmpfs_create_node(fs, "/a/f", S_IFREG | 0600, 0, &bob, tick(), true, &g), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/g", 0644, 0, &bob, tick(), true, &g), 1);
	CHECK(STI(g).mode, S_IFREG | 0644);         /* type 0 means regular */

	/* Directories: EEXIST if exclusive, else EISDIR. */
	CHECK(tmpfs_create_node(fs, "/a", S_IFREG | 0644, 0, &root, tick(), false, NULL), -EISDIR);
	CHECK(tmpfs_create_node(fs, "/a", S_IFREG | 0644, 0, &root, tick(), true, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/", S_IFREG | 0644, 0, &root, tick(), false, NULL), -EISDIR);
	CHECK(tmpfs_create_node(fs, "/", S_IFREG | 0644, 0, &root, tick(), true, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/.", S_IFREG | 0644, 0, &root, tick(), false, NULL), -EISDIR);
	CHECK(tmpfs_create_node(fs, "/a/..", S_IFREG | 0644, 0, &root, tick(), true, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/new/", S_IFREG | 0644, 0, &root, tick(), false, NULL), -EISDIR);
	CHECK(tmpfs_create_node(fs, "/a/f/", S_IFREG | 0644, 0, &root, tick(), false, NULL), -EISDIR);
	CHECK(tmpfs_create_node(fs, "/a/f/x", S_IFREG | 0644, 0, &root, tick(), false, NULL), -ENOTDIR);
	CHECK(tmpfs_create_node(fs, "/b/x", S_IFREG | 0644, 0, &root, tick(), false, NULL), -ENOENT);
	CHECK(tmpfs_create_node(fs, "/a/d", S_IFDIR | 0755, 0, &root, tick(), false, NULL), -EPERM);
	CHECK(tmpfs_create_node(fs, "/a/p", 0150000 | 0644, 0, &root, tick(), false, NULL), -EINVAL); /* no such type */
	/* mkfifo: anyone who may write the directory; exclusive */
	CHECK(tmpfs_create_node(fs, "/a/p", S_IFIFO | 0644, 0, &root, tick(), false, NULL), 1);
	CHECK(tmpfs_create_node(fs, "/a/p", S_IFIFO | 0644, 0, &root, tick(), false, NULL), -EEXIST);
	CHECK(lk("/a/d", &root), -ENOENT);

	/* No write permission needed to open an existing file. */
	mkd_owned("/ro", 0555, 0, 0);
	CHECK(tmpfs_create_node(fs, "/ro/x", S_IFREG | 0644, 0, &root, tick(), true, NULL), 1);
	CHECK(tmpfs_create_node(fs, "/ro/x", S_IFREG | 0644, 0, &alice, tick(), false, NULL), 0);
	CHECK(tmpfs_create_node(fs, "/ro/x", S_IFREG | 0644, 0, &alice, tick(), true, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/ro/y", S_IFREG | 0644, 0, &alice, tick(), false, NULL), -EACCES);

	/* mknod of character devices: root only, always exclusive. */
	CHECK(tmpfs_create_node(fs, "/a/null", S_IFCHR | 0666, 0x103, &root, tick(), false, &g), 1);
	st = STI(g);
	CHECK(st.mode, S_IFCHR | 0666);
	CHECK(st.rdev, 0x103);
	CHECK(tmpfs_create_node(fs, "/a/null", S_IFCHR | 0666, 1, &root, tick(), false, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/f", S_IFCHR | 0666, 1, &root, tick(), false, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/null/", S_IFCHR | 0666, 1, &root, tick(), false, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/zero/", S_IFCHR | 0666, 1, &root, tick(), false, NULL), -ENOENT);
	CHECK(tmpfs_create_node(fs, "/", S_IFCHR | 0666, 1, &root, tick(), false, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/..", S_IFCHR | 0666, 1, &root, tick(), false, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/a/zero", S_IFCHR | 0666, 1, &alice, tick(), false, NULL), -EPERM);
	CHECK(tmpfs_create_node(fs, "/ro/zero", S_IFCHR | 0666, 1, &alice, tick(), false, NULL), -EACCES);
	CHECK(tmpfs_create_node(fs, "/a/blk", 0060000 | 0600, 0x700, &alice, tick(), false, NULL), -EPERM);
	CHECK(tmpfs_create_node(fs, "/a/blk", 0060000 | 0600, 0x700, &root, tick(), false, &g), 1);
	CHECK(STI(g).rdev, 0x700);

	/* setgid directories pass on their group, and setgid to subdirs. */
	mkd_owned("/sg", 02777, 0, 500);
	CHECK(mkf("/sg/f", 0644, &alice), 1);
	CHECK(ST("/sg/f").gid, 500);
	CHECK(mkd("/sg/d", 0755, &alice), 0);
	CHECK(ST("/sg/d").gid, 500);
	CHECK(ST("/sg/d").mode, S_IFDIR | S_ISGID | 0755);
	CHECK(mkf("/sg/x1", 02755, &alice), 1);     /* alice is not in 500 */
	CHECK(ST("/sg/x1").mode, S_IFREG | 0755);
	CHECK(mkf("/sg/x2", 02755, &bob), 1);       /* bob is */
	CHECK(ST("/sg/x2").mode, S_IFREG | S_ISGID | 0755);
	CHECK(mkf("/sg/x3", 02745, &alice), 1);     /* not group-executable */
	CHECK(ST("/sg/x3").mode, S_IFREG | S_ISGID | 0745);
	CHECK(mkf("/a/x4", 02755, &alice), 1);      /* parent not setgid */
	CHECK(ST("/a/x4").mode, S_IFREG | S_ISGID | 0755);
	fs_end("create");
}

/* ---- mkdir, rmdir, unlink ---- */

static void test_mkdir_rmdir(void)
{
	uint64_t t;

	fs_new(0755);
	CHECK(mkd("/a", 0755, &root), 0);
	CHECK(ST("/a").nlink, 2);
	CHECK(ST("/").nlink, 3);
	CHECK(ST("/a").mode, S_IFDIR | 0755);
	CHECK(mkd("/a", 0755, &root), -EEXIST);
	CHECK(mkd("/", 0755, &root), -EEXIST);
	CHECK(mkd("/a/.", 0755, &root), -EEXIST);
	CHECK(mkd("/a/..", 0755, &root), -EEXIST);
	CHECK(mkd("/a/b/", 0755, &root), 0);        /* trailing slash is fine */
	CHECK(ST("/a").nlink, 3);
	CHECK(mkf("/a/f", 0644, &root), 1);
	CHECK(mkd("/a/f", 0755, &root), -EEXIST);
	CHECK(mkd("/a/f/x", 0755, &root), -ENOTDIR);
	CHECK(mkd("/m/x", 0755, &root), -ENOENT);
	CHECK(mkd("/big", 07777, &root), 0);        /* setuid/setgid dropped */
	CHECK(ST("/big").mode, S_IFDIR | 01777);
	CHECK(mkd("/big/x", 0700, &root), 0);
	CHECK(mkd("/a/f/", 0755, &alice), -EEXIST); /* EEXIST before EACCES */
	CHECK(mkd("/a/new", 0755, &alice), -EACCES);

	CHECK(tmpfs_rmdir(fs, "/", &root, tick()), -EBUSY);
	CHECK(tmpfs_rmdir(fs, "///", &root, tick()), -EBUSY);
	CHECK(tmpfs_rmdir(fs, "/a/.", &root, tick()), -EINVAL);
	CHECK(tmpfs_rmdir(fs, "/a/b/..", &root, tick()), -ENOTEMPTY);
	CHECK(tmpfs_rmdir(fs, "/a/nope", &root, tick()), -ENOENT);
	CHECK(tmpfs_rmdir(fs, "/nope/x", &root, tick()), -ENOENT);
	CHECK(tmpfs_rmdir(fs, "/a/f", &root, tick()), -ENOTDIR);
	CHECK(tmpfs_rmdir(fs, "/a/f/", &root, tick()), -ENOTDIR);
	CHECK(tmpfs_rmdir(fs, "/a/f/x", &root, tick()), -ENOTDIR);
	CHECK(tmpfs_rmdir(fs, "/a", &root, tick()), -ENOTEMPTY);
	CHECK(tmpfs_rmdir(fs, "/a/b", &alice, tick()), -EACCES);
	t = tick();
	CHECK(tmpfs_rmdir(fs, "/a/b/", &root, t), 0);
	CHECK(lk("/a/b", &root), -ENOENT);
	CHECK(ST("/a").nlink, 2);
	ok(ST("/a").mtime == t && ST("/a").ctime == t, "rmdir sets parent mtime/ctime");
	CHECK(tmpfs_unlink(fs, "/a/f", &root, tick()), 0);
	CHECK(tmpfs_rmdir(fs, "/a", &root, tick()), 0);
	CHECK(ST("/").nlink, 3);                    /* /big remains */
	CHECK(tmpfs_rmdir(fs, "/big", &root, tick()), -ENOTEMPTY);
	CHECK(tmpfs_rmdir(fs, "/big/x", &root, tick()), 0);
	CHECK(tmpfs_rmdir(fs, "/big", &root, tick()), 0);
	CHECK(ST("/").nlink, 2);
	CHECK(tmpfs_inodes_used(fs), 1);
	fs_end("mkdir/rmdir");
}

static void test_unlink(void)
{
	struct tmpfs_inode *f;
	uint64_t t;

	fs_new(0755);
	CHECK(mkd("/d", 0755, &root), 0);
	CHECK(mkf("/d/f", 0644, &root), 1);
	CHECK(mkf("/d/g", 0644, &root), 1);
	CHECK(tmpfs_unlink(fs, "/d", &root, tick()), -EISDIR);
	CHECK(tmpfs_unlink(fs, "/d/", &root, tick()), -EISDIR);
	CHECK(tmpfs_unlink(fs, "/", &root, tick()), -EISDIR);
	CHECK(tmpfs_unlink(fs, "/d/.", &root, tick()), -EISDIR);
	CHECK(tmpfs_unlink(fs, "/d/..", &root, tick()), -EISDIR);
	CHECK(tmpfs_unlink(fs, "/d/nope", &root, tick()), -ENOENT);
	CHECK(tmpfs_unlink(fs, "/d/nope/", &root, tick()), -ENOENT);
	CHECK(tmpfs_unlink(fs, "/nope/f", &root, tick()), -ENOENT);
	CHECK(tmpfs_unlink(fs, "/d/f/", &root, tick()), -ENOTDIR);
	CHECK(tmpfs_unlink(fs, "/d/f/x", &root, tick()), -ENOTDIR);
	CHECK(tmpfs_unlink(fs, "/d/f", &alice, tick()), -EACCES);
	f = L("/d/g");
	tmpfs_open_ref(f);
	t = tick();
	CHECK(tmpfs_unlink(fs, "/d/g", &root, t), 0);
	ok(ST("/d").mtime == t && ST("/d").ctime == t, "unlink sets parent mtime/ctime");
	CHECK(STI(f).ctime, t);
	CHECK(STI(f).nlink, 0);
	tmpfs_close_ref(f);
	CHECK(tmpfs_unlink(fs, "/d/f", &root, tick()), 0);
	CHECK(lk("/d/f", &root), -ENOENT);
	CHECK(tmpfs_inodes_used(fs), 2);
	fs_end("unlink");
}

/* ---- sticky directories ---- */

static void test_sticky(void)
{
	fs_new(0755);
	mkd_owned("/tmp", 01777, 0, 0);
	CHECK(mkf("/tmp/af", 0644, &alice), 1);
	CHECK(mkf("/tmp/af2", 0644, &alice), 1);
	CHECK(mkf("/tmp/bf", 0644, &bob), 1);
	CHECK(mkd("/tmp/ad", 0755, &alice), 0);
	CHECK(tmpfs_unlink(fs, "/tmp/af", &bob, tick()), -EPERM);
	CHECK(tmpfs_rmdir(fs, "/tmp/ad", &bob, tick()), -EPERM);
	CHECK(tmpfs_rename(fs, "/tmp/af", "/tmp/z", &bob, tick()), -EPERM);
	CHECK(tmpfs_rename(fs, "/tmp/bf", "/tmp/af", &bob, tick()), -EPERM);
	CHECK(tmpfs_rename(fs, "/tmp/af2", "/tmp/bf", &alice, tick()), -EPERM);
	CHECK(tmpfs_rename(fs, "/tmp/bf", "/tmp/bf2", &bob, tick()), 0);
	CHECK(tmpfs_unlink(fs, "/tmp/af", &alice, tick()), 0);
	CHECK(tmpfs_unlink(fs, "/tmp/bf2", &root, tick()), 0);
	CHECK(tmpfs_rmdir(fs, "/tmp/ad", &alice, tick()), 0);
	/* The directory's owner may remove anything in it. */
	mkd_owned("/cd", 01777, 1002, 1002);
	CHECK(mkf("/cd/af", 0644, &alice), 1);
	CHECK(mkf("/cd/af2", 0644, &alice), 1);
	CHECK(tmpfs_unlink(fs, "/cd/af", &bob, tick()), -EPERM);
	CHECK(tmpfs_unlink(fs, "/cd/af", &carol, tick()), 0);
	CHECK(tmpfs_rename(fs, "/cd/af2", "/cd/c", &carol, tick()), 0);
	/* Without the sticky bit anyone with write access may. */
	mkd_owned("/open", 0777, 0, 0);
	CHECK(mkf("/open/af", 0644, &alice), 1);
	CHECK(tmpfs_unlink(fs, "/open/af", &bob, tick()), 0);
	fs_end("sticky");
}

/* ---- rename ---- */

static int rn(const char *a, const char *b)
{
	return tmpfs_rename(fs, a, b, &root, tick());
}

static uint64_t dotdot_ino(const char *path)
{
	struct tmpfs_dirent de;
	uint64_t pos = 1;

	return tmpfs_readdir(L(path), &pos, &de) == 1 ? de.ino : 0;
}

static void test_rename(void)
{
	uint64_t ino, t, used;
	struct tmpfs_inode *v;
	char buf[8] = { 0 };

	fs_new(0755);
	CHECK(mkd("/a", 0755, &root), 0);
	CHECK(mkd("/a/b", 0755, &root), 0);
	CHECK(mkd("/a/b/c", 0755, &root), 0);
	CHECK(mkd("/e", 0755, &root), 0);
	CHECK(mkd("/full", 0755, &root), 0);
	CHECK(mkf("/full/x", 0644, &root), 1);
	CHECK(mkf("/f", 0644, &root), 1);
	CHECK(mkf("/g", 0644, &root), 1);
	CHECK(wr("/g", 0, "gdata"), 5);

	/* A file to a new name, then over another file. */
	ino = ino_of("/f");
	t = tick();
	CHECK(tmpfs_rename(fs, "/f", "/f2", &root, t), 0);
	CHECK(lk("/f", &root), -ENOENT);
	CHECK(ino_of("/f2"), ino);
	ok(ST("/").mtime == t && ST("/").ctime == t && ST("/f2").ctime == t,
	   "rename sets dir mtime/ctime and the inode's ctime");
	used = tmpfs_inodes_used(fs);
	v = L("/g");
	tmpfs_open_ref(v);
	CHECK(rn("/f2", "/g"), 0);
	CHECK(ino_of("/g"), ino);
	CHECK(lk("/f2", &root), -ENOENT);
	CHECK(STI(v).nlink, 0);
	CHECK(tmpfs_read(v, 0, buf, sizeof(buf), tick()), 5);
	ok(!memcmp(buf, "gdata", 5), "replaced file still readable while open");
	CHECK(tmpfs_inodes_used(fs), used);
	tmpfs_close_ref(v);
	CHECK(tmpfs_inodes_used(fs), used - 1);

	/* Across directories. */
	CHECK(rn("/g", "/a/b/g"), 0);
	CHECK(ino_of("/a/b/g"), ino);
	CHECK(rn("/a/b/g", "/g"), 0);

	/* Directories: nlink of both parents and "..". */
	CHECK(ST("/").nlink, 5);
	CHECK(ST("/e").nlink, 2);
	CHECK(rn("/a/b/c", "/e/c"), 0);
	CHECK(ST("/a/b").nlink, 2);
	CHECK(ST("/e").nlink, 3);
	CHECK(dotdot_ino("/e/c"), ino_of("/e"));
	CHECK(rn("/e/c", "/e/c2/"), 0);             /* a dir may take a slash */
	CHECK(ST("/e").nlink, 3);

	/* Directory over an empty directory, over a non-empty one, over a
	 * file; a file over a directory. */
	CHECK(mkd("/empty", 0755, &root), 0);
	ino = ino_of("/e/c2");
	CHECK(rn("/e/c2", "/empty"), 0);
	CHECK(ino_of("/empty"), ino);
	CHECK(ST("/e").nlink, 2);
	CHECK(ST("/").nlink, 6);                    /* a, e, full, empty */
	CHECK(dotdot_ino("/empty"), ino_of("/"));
	CHECK(rn("/empty", "/full"), -ENOTEMPTY);
	CHECK(rn("/empty", "/g"), -ENOTDIR);
	CHECK(rn("/g", "/empty"), -EISDIR);
	CHECK(rn("/g", "/full/"), -ENOTDIR);        /* file with a slash */
	CHECK(rn("/g/", "/h"), -ENOTDIR);
	CHECK(rn("/g", "/h/"), -ENOTDIR);

	/* Loops. */
	CHECK(rn("/a", "/a/b/x"), -EINVAL);
	CHECK(rn("/a", "/a/x"), -EINVAL);
	CHECK(rn("/a/b", "/a/b/x"), -EINVAL);
	CHECK(rn("/a/b", "/a"), -ENOTEMPTY);
	CHECK(mkd("/a/b/d", 0755, &root), 0);
	CHECK(rn("/a/b/d", "/a"), -ENOTEMPTY);

	/* Same inode: a no-op that changes no time. */
	t = ST("/").mtime;
	CHECK(rn("/g", "/g"), 0);
	CHECK(rn("/a", "/a/"), 0);
	CHECK(rn("/a", "//a/b/.."), -EBUSY);
	CHECK(ST("/").mtime, t);
	CHECK(lk("/g", &root), 0);

	/* ".", ".." and "/" can't be renamed or replaced. */
	CHECK(rn("/", "/x"), -EBUSY);
	CHECK(rn("/a/.", "/x"), -EBUSY);
	CHECK(rn("/a/b/..", "/x"), -EBUSY);
	CHECK(rn("/g", "/a/."), -EBUSY);
	CHECK(rn("/g", "/"), -EBUSY);
	CHECK(rn("/nope", "/x"), -ENOENT);
	CHECK(rn("/g", "/nope/x"), -ENOENT);
	CHECK(rn("/nope/a", "/x"), -ENOENT);
	CHECK(rn("/g/a", "/x"), -ENOTDIR);
	CHECK(rn("/g", "/g/a"), -ENOTDIR);
	fs_end("rename");
}

/* A rename to a name that fits the entry's room moves the entry itself
 * (no allocation: it works with no memory to be had); a longer one makes
 * a new entry. Either way the name
 * goes to the end of the directory's order, as a new entry would, and
 * the directory it left is tidied: the only entry of one renamed within it
 * (its slot array must survive), or moved out (the array goes back). */
static int list(const char *path, char names[][256], uint64_t *inos, int max);

static void test_rename_in_place(void)
{
	static char names[8][256];
	uint64_t inos[8], ino, blocks;
	int n;

	fs_new(0755);
	CHECK(mkd("/s", 0755, &root), 0);
	CHECK(mkd("/t", 0755, &root), 0);
	CHECK(mkf("/s/abcdef", 0644, &root), 1);
	ino = ino_of("/s/abcdef");
	blocks = live_blocks;
	fail_after = 0;                             /* no memory to be had */
	CHECK(rn("/s/abcdef", "/s/ab"), 0);         /* the only entry, shorter */
	fail_after = -1;
	CHECK(live_blocks, blocks);
	CHECK(ino_of("/s/ab"), ino);
	CHECK(lk("/s/abcdef", &root), -ENOENT);
	CHECK(rn("/s/ab", "/s/abcdeg"), 0);         /* back within its room */
	CHECK(live_blocks, blocks);
	CHECK(ino_of("/s/abcdeg"), ino);
	ok(accounting_ok(), "in-place renames keep bytes_used exact");
	CHECK(rn("/s/abcdeg", "/s/abcdefgh"), 0);   /* longer: a new entry */
	CHECK(ino_of("/s/abcdefgh"), ino);
	CHECK(lk("/s/ab", &root), -ENOENT);
	ok(accounting_ok(), "a longer name keeps bytes_used exact");
	CHECK(mkf("/s/m", 0644, &root), 1);
	CHECK(mkf("/s/z", 0644, &root), 1);
	CHECK(rn("/s/abcdefgh", "/s/a"), 0);        /* moves to the end */
	n = list("/s", names, inos, 8);
	CHECK(n, 5);
	ok(n == 5 && !strcmp(names[2], "m") && !strcmp(names[3], "z") && !strcmp(names[4], "a") &&
	   inos[4] == ino, "a renamed entry comes last, as a new one");
	CHECK(rn("/s/m", "/t/m"), 0);               /* across, in place */
	CHECK(rn("/s/z", "/t/z"), 0);
	CHECK(rn("/s/a", "/t/a"), 0);               /* /s left empty */
	CHECK(list("/s", names, inos, 8), 2);
	n = list("/t", names, inos, 8);
	ok(n == 5 && !strcmp(names[2], "m") && !strcmp(names[3], "z") && !strcmp(names[4], "a"),
	   "entries moved across keep their order of arrival");
	CHECK(rn("/t/a", "/s/a"), 0);               /* into the empty one */
	CHECK(ino_of("/s/a"), ino);
	CHECK(tmpfs_rmdir(fs, "/t", &root, tick()), -ENOTEMPTY);
	CHECK(tmpfs_unlink(fs, "/t/m", &root, tick()), 0);
	CHECK(tmpfs_unlink(fs, "/t/z", &root, tick()), 0);
	CHECK(tmpfs_rmdir(fs, "/t", &root, tick()), 0);
	fs_end("rename in place");
}

static void test_rename_perms(void)
{
	fs_new(0755);
	mkd_owned("/src", 0755, 1000, 1000);        /* alice's */
	mkd_owned("/dst", 0777, 0, 0);
	mkd_owned("/ro", 0755, 0, 0);
	mkf_owned("/src/f", 0644, 1000, 1000);
	mkf_owned("/ro/f", 0644, 1000, 1000);
	mkd_owned("/src/mine", 0755, 1000, 1000);
	mkd_owned("/src/rod", 0555, 1000, 1000);    /* alice can't write it */
	CHECK(tmpfs_rename(fs, "/src/f", "/dst/f", &bob, tick()), -EACCES);
	CHECK(tmpfs_rename(fs, "/ro/f", "/dst/f", &alice, tick()), -EACCES);
	CHECK(tmpfs_rename(fs, "/src/f", "/ro/f2", &alice, tick()), -EACCES);
	CHECK(tmpfs_rename(fs, "/src/f", "/ro/f", &alice, tick()), -EACCES);
	CHECK(tmpfs_rename(fs, "/src/f", "/dst/f", &alice, tick()), 0);
	/* Moving a directory to a new parent rewrites its "..": needs write
	 * permission on it; within one parent it doesn't. */
	CHECK(tmpfs_rename(fs, "/src/rod", "/dst/rod", &alice, tick()), -EACCES);
	CHECK(tmpfs_rename(fs, "/src/rod", "/src/rod2", &alice, tick()), 0);
	CHECK(tmpfs_rename(fs, "/src/mine", "/dst/mine", &alice, tick()), 0);
	CHECK(tmpfs_rename(fs, "/src/rod2", "/dst/rod", &root, tick()), 0);
	/* Search permission on the way. */
	mkd_owned("/hidden", 0700, 0, 0);
	CHECK(tmpfs_rename(fs, "/dst/f", "/hidden/f", &alice, tick()), -EACCES);
	CHECK(tmpfs_rename(fs, "/hidden/x", "/dst/g", &alice, tick()), -EACCES);
	fs_end("rename permissions");
}

/* ---- chmod and chown ---- */

static void test_chmod_chown(void)
{
	struct tmpfs_inode *f, *d;
	uint64_t t;

	fs_new(0755);
	mkf_owned("/f", 0644, 1000, 1000);
	f = L("/f");
	t = tick();
	CHECK(tmpfs_chmod(f, 0600, &alice, t), 0);
	CHECK(STI(f).mode, S_IFREG | 0600);
	CHECK(STI(f).ctime, t);
	CHECK(tmpfs_chmod(f, 0777, &bob, tick()), -EPERM);
	CHECK(tmpfs_chmod(f, 0777 | S_IFDIR, &root, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 0777);         /* type bits kept */
	CHECK(tmpfs_chmod(f, 07755, &alice, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 07755);        /* alice is in group 1000 */
	CHECK(tmpfs_chown(f, -1, 500, &root, tick()), 0);
	CHECK(tmpfs_chmod(f, 02755, &alice, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 0755);         /* not in group 500 */
	CHECK(tmpfs_chmod(f, 02755, &root, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 02755);
	CHECK(tmpfs_chown(f, -1, 1000, &root, tick()), 0);

	/* chown: only root gives files away; the owner may pick one of its
	 * groups. */
	CHECK(tmpfs_chmod(f, 0644, &root, tick()), 0);
	CHECK(tmpfs_chown(f, 1001, -1, &alice, tick()), -EPERM);
	CHECK(tmpfs_chown(f, 1000, -1, &alice, tick()), 0);
	CHECK(tmpfs_chown(f, -1, 100, &alice, tick()), 0);
	CHECK(STI(f).gid, 100);
	CHECK(tmpfs_chown(f, -1, 1000, &alice, tick()), 0);
	CHECK(tmpfs_chown(f, -1, 500, &alice, tick()), -EPERM);
	CHECK(tmpfs_chown(f, -1, 100, &bob, tick()), -EPERM);
	CHECK(tmpfs_chown(f, 1000, 1000, &bob, tick()), -EPERM);
	CHECK(tmpfs_chown(f, -1, -1, &bob, tick()), 0);
	CHECK(tmpfs_chown(f, 4294967295LL, -1, &root, tick()), -EINVAL);
	CHECK(tmpfs_chown(f, -2, -1, &root, tick()), -EINVAL);
	t = tick();
	CHECK(tmpfs_chown(f, 1001, 1001, &root, t), 0);
	CHECK(STI(f).uid, 1001);
	CHECK(STI(f).gid, 1001);
	CHECK(STI(f).ctime, t);

	/* Changing a file's owner clears setuid, even for root, and setgid
	 * when group-executable. */
	CHECK(tmpfs_chmod(f, 06755, &root, tick()), 0);
	CHECK(tmpfs_chown(f, 1000, -1, &root, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 0755);
	CHECK(tmpfs_chmod(f, 06745, &root, tick()), 0);
	CHECK(tmpfs_chown(f, -1, 1000, &root, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 02745);
	CHECK(tmpfs_chown(f, -1, 100, &alice, tick()), 0);  /* in old group 1000 */
	CHECK(STI(f).mode, S_IFREG | 02745);
	CHECK(tmpfs_chown(f, -1, 500, &root, tick()), 0);
	CHECK(tmpfs_chown(f, -1, 100, &alice, tick()), 0);  /* alice not in 500 */
	CHECK(STI(f).mode, S_IFREG | 0745);
	CHECK(tmpfs_chmod(f, 04755, &root, tick()), 0);
	CHECK(tmpfs_chown(f, -1, -1, &bob, tick()), -EPERM);
	CHECK(STI(f).mode, S_IFREG | 04755);
	CHECK(tmpfs_chown(f, -1, -1, &alice, tick()), 0);
	CHECK(STI(f).mode, S_IFREG | 0755);
	mkd_owned("/d", 06755, 1000, 1000);         /* directories keep them */
	d = L("/d");
	CHECK(tmpfs_chown(d, 1001, 1001, &root, tick()), 0);
	CHECK(STI(d).mode, S_IFDIR | 06755);
	fs_end("chmod/chown");
}

/* ---- file data ---- */

static void test_io(void)
{
	struct tmpfs_inode *f, *d, *c;
	char buf[3 * PAGE], zero[3 * PAGE] = { 0 };
	uint64_t t;

	fs_new(0755);
	CHECK(mkf("/f", 0644, &root), 1);
	f = L("/f");
	t = tick();
	CHECK(tmpfs_write(f, 0, "hello", 5, t), 5);
	CHECK(STI(f).size, 5);
	ok(STI(f).mtime == t && STI(f).ctime == t && STI(f).atime != t,
	   "write sets mtime/ctime, not atime");
	CHECK(STI(f).blocks, 8);
	t = tick();
	CHECK(tmpfs_read(f, 0, buf, sizeof(buf), t), 5);
	CHECK(STI(f).atime, t);
	ok(!memcmp(buf, "hello", 5), "read back");
	CHECK(tmpfs_read(f, 3, buf, 100, tick()), 2);
	ok(!memcmp(buf, "lo", 2), "read from an offset");
	CHECK(tmpfs_read(f, 5, buf, 100, tick()), 0);
	CHECK(tmpfs_read(f, 1000, buf, 100, tick()), 0);
	t = STI(f).mtime;
	CHECK(tmpfs_write(f, 0, "", 0, tick()), 0);
	CHECK(STI(f).mtime, t);

	/* A write past EOF leaves zeros behind it, across pages. */
	CHECK(tmpfs_write(f, 2 * PAGE + 10, "xyz", 3, tick()), 3);
	CHECK(STI(f).size, 2 * PAGE + 13);
	CHECK(STI(f).blocks, 16);                   /* the middle page is a hole */
	memset(buf, 0x55, sizeof(buf));
	CHECK(tmpfs_read(f, 0, buf, sizeof(buf), tick()), 2 * PAGE + 13);
	ok(!memcmp(buf, "hello", 5) && !memcmp(buf + 5, zero, 2 * PAGE + 5) &&
	   !memcmp(buf + 2 * PAGE + 10, "xyz", 3), "gap reads as zeros");

	/* Truncate: shrink, then extend: the cut bytes come back as zeros. */
	t = tick();
	CHECK(tmpfs_truncate(f, 3, t), 0);
	ok(STI(f).size == 3 && STI(f).mtime == t && STI(f).ctime == t,
	   "truncate sets size, mtime, ctime");
	CHECK(STI(f).blocks, 8);
	CHECK(tmpfs_truncate(f, PAGE + 100, tick()), 0);
	CHECK(STI(f).blocks, 8);                    /* extending allocates nothing */
	memset(buf, 0x55, sizeof(buf));
	CHECK(tmpfs_read(f, 0, buf, sizeof(buf), tick()), PAGE + 100);
	ok(!memcmp(buf, "hel", 3) && !memcmp(buf + 3, zero, PAGE + 97),
	   "extension reads as zeros");
	CHECK(tmpfs_write(f, PAGE + 200, "q", 1, tick()), 1);
	CHECK(tmpfs_read(f, PAGE + 100, buf, 200, tick()), 101);
	ok(!memcmp(buf, zero, 100) && buf[100] == 'q', "write past a truncate-extended end");
	CHECK(tmpfs_truncate(f, 0, tick()), 0);
	CHECK(STI(f).blocks, 0);
	CHECK(tmpfs_truncate(f, TMPFS_MAX_FILE + 1, tick()), -EFBIG);
	CHECK(tmpfs_truncate(f, TMPFS_MAX_FILE, tick()), 0);
	CHECK(STI(f).size, TMPFS_MAX_FILE);
	CHECK(tmpfs_read(f, TMPFS_MAX_FILE - 10, buf, 100, tick()), 10);
	CHECK(tmpfs_write(f, TMPFS_MAX_FILE, "a", 1, tick()), -EFBIG);
	CHECK(tmpfs_write(f, TMPFS_MAX_FILE + 5000, "a", 1, tick()), -EFBIG);
	CHECK(tmpfs_write(f, TMPFS_MAX_FILE - 2, "abcd", 4, tick()), 2);
	CHECK(tmpfs_read(f, TMPFS_MAX_FILE - 2, buf, 10, tick()), 2);
	ok(!memcmp(buf, "ab", 2), "short write at the size limit");
	CHECK(tmpfs_truncate(f, 1, tick()), 0);
	CHECK(STI(f).blocks, 0);

	/* Wrong types. */
	CHECK(mkd("/d", 0755, &root), 0);
	d = L("/d");
	CHECK(tmpfs_read(d, 0, buf, 10, tick()), -EISDIR);
	CHECK(tmpfs_write(d, 0, buf, 10, tick()), -EISDIR);
	CHECK(tmpfs_truncate(d, 0, tick()), -EISDIR);
	CHECK(tmpfs_create_node(fs, "/c", S_IFCHR | 0600, 5, &root, tick(), false, &c), 1);
	CHECK(tmpfs_read(c, 0, buf, 10, tick()), -EINVAL);
	CHECK(tmpfs_write(c, 0, buf, 10, tick()), -EINVAL);
	CHECK(tmpfs_truncate(c, 0, tick()), -EINVAL);
	fs_end("io");
}

/* Random writes, reads and truncates against a plain buffer. */
static void test_io_random(void)
{
	enum { MAXSZ = 40000 };
	static unsigned char model[MAXSZ], buf[MAXSZ], src[MAXSZ];
	struct tmpfs_inode *f;
	uint64_t size = 0;
	int bad = 0;

	srand(7);
	fs_new(0755);
	mkf("/f", 0644, &root);
	f = L("/f");
	for (int i = 0; i < 3000 && !bad; i++) {
		uint64_t off = (uint64_t)rand() % (MAXSZ / 2), len = (uint64_t)rand() % (MAXSZ / 2);
		int op = rand() % 4;

		if (op == 0) {
			if (tmpfs_truncate(f, off, tick()))
				bad = 1;
			if (off < size)
				memset(model + off, 0, size - off);
			size = off;
		} else if (op == 1) {
			for (uint64_t k = 0; k < len; k++)
				src[k] = (unsigned char)rand();
			if (tmpfs_write(f, off, src, len, tick()) != (long)len && len)
				bad = 2;
			memcpy(model + off, src, len);
			if (off + len > size && len)
				size = off + len;
		} else {
			long want = off >= size ? 0 : (long)(size - off < len ? size - off : len);

			if (tmpfs_read(f, off, buf, len, tick()) != want ||
			    memcmp(buf, model + off, (size_t)want))
				bad = 3;
		}
		if (STI(f).size != size)
			bad = 4;
	}
	if (!bad && (tmpfs_read(f, 0, buf, MAXSZ, tick()) != (long)size ||
		     memcmp(buf, model, size)))
		bad = 5;
	ok(!bad, "3000 random writes/reads/truncates match a buffer (%d)", bad);
	fs_end("io random");
}

/* ---- out of memory ---- */

static void test_enospc(void)
{
	struct tmpfs_inode *f;
	uint64_t used;
	char page[3 * PAGE];
	int k, rc = 0;

	fs_new(0755);
	CHECK(mkd("/d", 0755, &root), 0);
	for (int i = 0; i < 7; i++) {               /* fill the first slot array */
		char p[16];
		snprintf(p, sizeof(p), "/d/%d", i);
		mkf(p, 0644, &root);
	}
	used = tmpfs_inodes_used(fs);
	for (k = 0; k < 10; k++) {
		fail_after = k;
		rc = mkf("/d/new", 0644, &root);
		fail_after = -1;
		if (rc != -ENOSPC)
			break;
		if (lk("/d/new", &root) != -ENOENT || tmpfs_inodes_used(fs) != used ||
		    !accounting_ok())
			break;
	}
	ok(k > 0 && rc == 1, "create: -ENOSPC with no trace until %d allocations succeed", k);
	CHECK(tmpfs_inodes_used(fs), used + 1);
	for (k = 0; k < 10; k++) {
		fail_after = k;
		rc = mkd("/d/newdir", 0755, &root);
		fail_after = -1;
		if (rc != -ENOSPC || lk("/d/newdir", &root) != -ENOENT ||
		    ST("/d").nlink != 2)
			break;
	}
	ok(k > 0 && rc == 0, "mkdir: -ENOSPC with no trace until %d allocations succeed", k);
	for (k = 0; k < 10; k++) {
		fail_after = k;
		rc = rn("/d/new", "/newname");
		fail_after = -1;
		if (rc != -ENOSPC || lk("/d/new", &root) || lk("/newname", &root) != -ENOENT)
			break;
	}
	ok(k > 0 && rc == 0, "rename: -ENOSPC with no trace until %d allocations succeed", k);
	CHECK(ST("/d").nlink, 3);

	f = L("/newname");
	memset(page, 'p', sizeof(page));
	fail_after = 0;
	CHECK(tmpfs_write(f, 0, page, sizeof(page), tick()), -ENOSPC);
	CHECK(STI(f).size, 0);
	fail_after = 2;                             /* page array + 1 page */
	CHECK(tmpfs_write(f, 0, page, sizeof(page), tick()), PAGE);
	fail_after = -1;
	CHECK(STI(f).size, PAGE);
	CHECK(tmpfs_write(f, PAGE, page, sizeof(page), tick()), sizeof(page));
	CHECK(STI(f).size, 4 * PAGE);
	fail_after = 0;
	CHECK(tmpfs_truncate(f, 10, tick()), 0);    /* shrinking needs no memory */
	CHECK(tmpfs_truncate(f, 100000, tick()), 0);
	fail_after = -1;
	fs_end("enospc");
}

/* ---- open references ---- */

static void test_open_unlinked(void)
{
	struct tmpfs_inode *f, *d;
	struct tmpfs_dirent de;
	uint64_t pos = 0, bytes;
	char buf[16];

	fs_new(0755);
	CHECK(mkf("/f", 0644, &root), 1);
	f = L("/f");
	CHECK(tmpfs_write(f, 0, "data", 4, tick()), 4);
	bytes = tmpfs_bytes_used(fs);
	tmpfs_open_ref(f);
	tmpfs_open_ref(f);
	CHECK(tmpfs_unlink(fs, "/f", &root, tick()), 0);
	CHECK(lk("/f", &root), -ENOENT);
	CHECK(STI(f).nlink, 0);
	CHECK(tmpfs_inodes_used(fs), 2);
	CHECK(tmpfs_write(f, 4, "more", 4, tick()), 4);
	CHECK(tmpfs_read(f, 0, buf, sizeof(buf), tick()), 8);
	ok(!memcmp(buf, "datamore", 8), "unlinked open file keeps its data");
	CHECK(mkf("/f", 0644, &root), 1);           /* the name is free again */
	ok(ino_of("/f") != tmpfs_ino(f), "new inode number");
	tmpfs_close_ref(f);
	CHECK(tmpfs_inodes_used(fs), 3);
	tmpfs_close_ref(f);
	CHECK(tmpfs_inodes_used(fs), 2);
	ok(tmpfs_bytes_used(fs) < bytes, "last close frees the data");

	/* A linked file survives its last close. */
	f = L("/f");
	tmpfs_open_ref(f);
	tmpfs_close_ref(f);
	CHECK(lk("/f", &root), 0);

	/* A removed directory stays valid while open but lists nothing. */
	CHECK(mkd("/d", 0755, &root), 0);
	d = L("/d");
	tmpfs_open_ref(d);
	CHECK(tmpfs_rmdir(fs, "/d", &root, tick()), 0);
	CHECK(STI(d).nlink, 0);
	CHECK(tmpfs_readdir(d, &pos, &de), -ENOENT);
	CHECK(tmpfs_inodes_used(fs), 3);
	tmpfs_close_ref(d);
	CHECK(tmpfs_inodes_used(fs), 2);

	/* destroy frees unlinked files still open. */
	CHECK(mkf("/g", 0644, &root), 1);
	f = L("/g");
	CHECK(tmpfs_write(f, 0, "x", 1, tick()), 1);
	tmpfs_open_ref(f);
	CHECK(tmpfs_unlink(fs, "/g", &root, tick()), 0);
	fs_end("open unlinked");
}

/* ---- readdir ---- */

static int list(const char *path, char names[][256], uint64_t *inos, int max)
{
	struct tmpfs_dirent de;
	uint64_t pos = 0;
	int n = 0, rc;

	while ((rc = tmpfs_readdir(L(path), &pos, &de)) == 1 && n < max) {
		strcpy(names[n], de.name);
		inos[n++] = de.ino;
	}
	return rc < 0 ? rc : n;
}

static void test_readdir(void)
{
	static char names[300][256];
	uint64_t inos[300], pos = 0;
	struct tmpfs_dirent de;
	int n;

	fs_new(0755);
	CHECK(mkd("/d", 0755, &root), 0);
	CHECK(mkf("/d/z", 0644, &root), 1);
	CHECK(mkd("/d/a", 0755, &root), 0);
	CHECK(tmpfs_create_node(fs, "/d/c", S_IFCHR | 0600, 1, &root, tick(), false, NULL), 1);
	n = list("/d", names, inos, 300);
	CHECK(n, 5);
	ok(!strcmp(names[0], ".") && inos[0] == ino_of("/d"), "\".\" first, own ino");
	ok(!strcmp(names[1], "..") && inos[1] == ino_of("/"), "\"..\" second, parent's ino");
	ok(!strcmp(names[2], "z") && !strcmp(names[3], "a") && !strcmp(names[4], "c"),
	   "creation order");
	ok(inos[2] == ino_of("/d/z") && inos[3] == ino_of("/d/a"), "entry inos");
	n = list("/", names, inos, 300);
	ok(n == 3 && inos[0] == inos[1] && inos[0] == ino_of("/"), "root's \"..\" is itself");
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 1);
	CHECK(de.type, TMPFS_DT_DIR);
	pos = 2;
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 1);
	CHECK(de.type, TMPFS_DT_REG);
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 1);
	CHECK(de.type, TMPFS_DT_DIR);
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 1);
	CHECK(de.type, TMPFS_DT_CHR);
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 0);
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 0);
	CHECK(mkf("/d/late", 0644, &root), 1);      /* appears at the end */
	CHECK(tmpfs_readdir(L("/d"), &pos, &de), 1);
	ok(!strcmp(de.name, "late"), "an entry added after the end is found");
	CHECK(tmpfs_readdir(L("/d/z"), &pos, &de), -ENOTDIR);
	CHECK(rn("/d/z", "/d/z2"), 0);
	n = list("/d", names, inos, 300);
	ok(n == 6 && !strcmp(names[5], "z2"), "a renamed entry moves to the end");
	fs_end("readdir");
}

/* Entries that stay for the whole listing are seen exactly once, while
 * others come and go: midway, seen and unseen entries and the current one
 * are removed (enough to compact the slot array) and new ones added. */
static bool mut_removed(int k)
{
	return k % 4 != 0 && k < 160;
}

static void test_readdir_mutation(void)
{
	enum { N = 200 };
	int seen[N] = { 0 }, extra = 0, bad = 0, got = 0, i;
	struct tmpfs_dirent de;
	uint64_t pos = 0;
	char p[64];

	fs_new(0755);
	CHECK(mkd("/d", 0755, &root), 0);
	for (int k = 0; k < N; k++) {
		snprintf(p, sizeof(p), "/d/e%d", k);
		mkf(p, 0644, &root);
	}
	while (tmpfs_readdir(L("/d"), &pos, &de) == 1 && got < 2 * N) {
		if (de.name[0] == '.')
			continue;
		if (de.name[0] == 'n')
			extra++;
		else if (sscanf(de.name, "e%d", &i) == 1 && i >= 0 && i < N && seen[i]++)
			bad = 1;
		if (++got != 50)
			continue;
		ok(!strcmp(de.name, "e49"), "midway at e49");
		for (int k = 0; k < N; k++) {
			snprintf(p, sizeof(p), "/d/e%d", k);
			if (mut_removed(k) && tmpfs_unlink(fs, p, &root, tick()))
				bad = 2;
		}
		for (int k = 0; k < 5; k++) {
			snprintf(p, sizeof(p), "/d/n%d", k);
			mkf(p, 0644, &root);
		}
	}
	for (int k = 0; k < N; k++)
		if (!mut_removed(k) && seen[k] != 1)
			bad = 3;
	ok(!bad, "kept entries listed exactly once while others changed (%d)", bad);
	CHECK(extra, 5);
	fs_end("readdir mutation");
}

/* Big directories stay fast: hash lookups, binary-searched listing. */
static void test_big_dir(void)
{
	enum { N = 10000 };
	static int order[N];
	struct tmpfs_dirent de;
	uint64_t pos = 0;
	clock_t t0 = clock();
	int n = 0, bad = 0;
	char p[64];

	fs_new(0755);
	CHECK(mkd("/big", 0755, &root), 0);
	for (int i = 0; i < N; i++) {
		snprintf(p, sizeof(p), "/big/f%05d", i);
		if (mkf(p, 0644, &root) != 1)
			bad = 1;
		order[i] = i;
	}
	for (int i = 0; i < N; i++) {
		snprintf(p, sizeof(p), "/big/f%05d", i);
		if (lk(p, &root))
			bad = 2;
	}
	while (tmpfs_readdir(L("/big"), &pos, &de) == 1 && n < N + 10) {
		snprintf(p, sizeof(p), "f%05d", n - 2);
		if (n >= 2 && strcmp(de.name, p))
			bad = 3;
		n++;
	}
	ok(!bad && n == N + 2, "%d files created, found and listed in order (%d)", N, bad);
	srand(11);
	for (int i = N - 1; i > 0; i--) {
		int j = rand() % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < N; i++) {
		snprintf(p, sizeof(p), "/big/f%05d", order[i]);
		if (tmpfs_unlink(fs, p, &root, tick()))
			bad = 4;
		if (i == N / 2) {
			n = 0;
			pos = 0;
			while (tmpfs_readdir(L("/big"), &pos, &de) == 1 && n < N)
				n++;
			if (n != N - N / 2 - 1 + 2)
				bad = 5;
		}
	}
	ok(!bad, "unlinked in random order, listing consistent midway (%d)", bad);
	CHECK(tmpfs_inodes_used(fs), 2);
	tap_diag("big directory: %.2f s", (double)(clock() - t0) / CLOCKS_PER_SEC);
	fs_end("big dir");
}

/* ---- directory link counts and timestamps ---- */

static void test_timestamps(void)
{
	uint64_t t1, t2, t3;
	struct tmpfs_stat st;

	fs_new(0755);
	t1 = tick();
	CHECK(tmpfs_mkdir(fs, "/d", 0755, &root, t1), 0);
	st = ST("/d");
	ok(st.atime == t1 && st.mtime == t1 && st.ctime == t1, "mkdir: new dir times");
	ok(ST("/").mtime == t1 && ST("/").ctime == t1, "mkdir: parent times");
	CHECK(mkd("/e", 0755, &root), 0);
	CHECK(mkf("/d/f", 0644, &root), 1);
	t2 = tick();
	CHECK(tmpfs_rename(fs, "/d/f", "/e/f", &root, t2), 0);
	ok(ST("/d").mtime == t2 && ST("/e").mtime == t2 && ST("/e/f").ctime == t2 &&
	   ST("/").mtime < t2, "rename: both dirs and the inode, not the grandparent");
	t3 = tick();
	CHECK(tmpfs_chmod(L("/e/f"), 0600, &root, t3), 0);
	ok(ST("/e/f").ctime == t3 && ST("/e/f").mtime < t3, "chmod: ctime only");
	CHECK(tmpfs_read(L("/e/f"), 0, &st, 0, tick()), 0);
	ok(ST("/e/f").atime < t3, "zero-length read leaves atime");
	fs_end("timestamps");
}

/* ---- randomized comparison with a model ---- */

#define NAMES   5
#define MDEPTH  3
#define MNODES  1024
#define MDATA   6000
#define NHANDLE 4
#define MPATH   4096    /* renames can nest directories deeply */

struct mnode {
	bool used, linked, dir;
	int parent, opens;
	char name[8];
	uint64_t ino;
	unsigned char *data;
	uint64_t size;
};

static struct mnode mn[MNODES];
static int handles[NHANDLE];            /* model index, -1 if none */
static struct tmpfs_inode *hino[NHANDLE];
static const char *const pool[NAMES] = { "a", "b", "c", "dd", "e" };
static long mismatches;

static void mismatch(int op, const char *what, long got, long want)
{
	if (mismatches++ < 10)
		tap_diag("stress op %d: %s: got %ld, want %ld", op, what, got, want);
}

static int m_child(int dir, const char *name)
{
	for (int i = 1; i < MNODES; i++)
		if (mn[i].used && mn[i].linked && mn[i].parent == dir &&
		    !strcmp(mn[i].name, name))
			return i;
	return -1;
}

static bool m_has_children(int dir)
{
	for (int i = 1; i < MNODES; i++)
		if (mn[i].used && mn[i].linked && mn[i].parent == dir)
			return true;
	return false;
}

/* A random path of 1..MDEPTH pool names; comps gets the names. */
static int random_path(char *path, const char *comps[MDEPTH])
{
	int depth = 1 + rand() % MDEPTH;

	path[0] = '\0';
	for (int i = 0; i < depth; i++) {
		comps[i] = pool[rand() % NAMES];
		strcat(path, "/");
		strcat(path, comps[i]);
	}
	return depth;
}

/* The model's parent resolution: the parent's index, or -errno. */
static int m_parent(const char *const comps[], int depth)
{
	int dir = 0;

	for (int i = 0; i < depth - 1; i++) {
		int c = m_child(dir, comps[i]);

		if (c < 0)
			return -ENOENT;
		if (!mn[c].dir)
			return -ENOTDIR;
		dir = c;
	}
	return dir;
}

static int m_new(int parent, const char *name, bool dir, uint64_t ino)
{
	for (int i = 1; i < MNODES; i++) {
		if (mn[i].used)
			continue;
		mn[i] = (struct mnode){ .used = true, .linked = true, .dir = dir,
					.parent = parent, .ino = ino };
		strcpy(mn[i].name, name);
		return i;
	}
	tap_bail("model full");
}

static void m_put(int i)
{
	if (mn[i].linked || mn[i].opens)
		return;
	free(mn[i].data);
	mn[i] = (struct mnode){ 0 };
}

static void m_unlink(int i)
{
	mn[i].linked = false;
	m_put(i);
}

static bool m_is_ancestor(int anc, int node)
{
	for (;;) {
		if (node == anc)
			return true;
		if (node == 0)
			return false;
		node = mn[node].parent;
	}
}

static void s_create(int op)
{
	char path[64];
	const char *comps[MDEPTH];
	int depth = random_path(path, comps), dir = m_parent(comps, depth), want, c;
	bool excl = rand() % 2;
	struct tmpfs_inode *ino = NULL;
	int rc = tmpfs_create_node(fs, path, S_IFREG | 0644, 0, &root, tick(), excl, &ino);

	if (dir < 0) {
		want = dir;
	} else if ((c = m_child(dir, comps[depth - 1])) >= 0) {
		want = excl ? -EEXIST : mn[c].dir ? -EISDIR : 0;
		if (!want && !rc && tmpfs_ino(ino) != mn[c].ino)
			mismatch(op, "create: existing ino", (long)tmpfs_ino(ino), (long)mn[c].ino);
	} else {
		want = 1;
	}
	if (rc != want)
		mismatch(op, "create", rc, want);
	if (rc == 1)
		m_new(dir, comps[depth - 1], false, tmpfs_ino(ino));
}

static void s_mkdir(int op)
{
	char path[64];
	const char *comps[MDEPTH];
	int depth = random_path(path, comps), dir = m_parent(comps, depth), want;
	int rc = mkd(path, 0755, &root);

	want = dir < 0 ? dir : m_child(dir, comps[depth - 1]) >= 0 ? -EEXIST : 0;
	if (rc != want)
		mismatch(op, "mkdir", rc, want);
	if (!rc)
		m_new(dir, comps[depth - 1], true, ino_of(path));
}

static void s_remove(int op, bool isdir)
{
	char path[64];
	const char *comps[MDEPTH];
	int depth = random_path(path, comps), dir = m_parent(comps, depth), want, c = -1;
	int rc = isdir ? tmpfs_rmdir(fs, path, &root, tick()) :
			 tmpfs_unlink(fs, path, &root, tick());

	if (dir < 0)
		want = dir;
	else if ((c = m_child(dir, comps[depth - 1])) < 0)
		want = -ENOENT;
	else if (isdir)
		want = !mn[c].dir ? -ENOTDIR : m_has_children(c) ? -ENOTEMPTY : 0;
	else
		want = mn[c].dir ? -EISDIR : 0;
	if (rc != want)
		mismatch(op, isdir ? "rmdir" : "unlink", rc, want);
	if (!rc)
		m_unlink(c);
}

static int m_rename_want(int od, int src, int nd, int dst)
{
	if (nd < 0)
		return nd;
	if (src < 0)
		return -ENOENT;
	if (m_is_ancestor(src, nd))
		return -EINVAL;
	if (dst >= 0 && m_is_ancestor(dst, od))
		return -ENOTEMPTY;
	if (dst == src)
		return 0;
	if (dst < 0)
		return 0;
	if (mn[src].dir && !mn[dst].dir)
		return -ENOTDIR;
	if (!mn[src].dir && mn[dst].dir)
		return -EISDIR;
	return mn[dst].dir && m_has_children(dst) ? -ENOTEMPTY : 0;
}

static void s_rename(int op)
{
	char from[64], to[64];
	const char *fc[MDEPTH], *tc[MDEPTH];
	int fd = random_path(from, fc), td = random_path(to, tc);
	int od = m_parent(fc, fd), nd = m_parent(tc, td), src = -1, dst = -1, want;
	int rc = rn(from, to);

	if (od >= 0)
		src = m_child(od, fc[fd - 1]);
	if (nd >= 0)
		dst = m_child(nd, tc[td - 1]);
	want = od < 0 ? od : m_rename_want(od, src, nd, dst);
	if (rc != want)
		mismatch(op, "rename", rc, want);
	if (rc || src == dst)
		return;
	if (dst >= 0)
		m_unlink(dst);
	mn[src].parent = nd;
	strcpy(mn[src].name, tc[td - 1]);
}

/* A random linked regular file, or -1. */
static int m_random_file(void)
{
	int start = rand() % MNODES;

	for (int k = 0; k < MNODES; k++) {
		int i = (start + k) % MNODES;

		if (i && mn[i].used && mn[i].linked && !mn[i].dir)
			return i;
	}
	return -1;
}

/* tmpfs's inode for model node i, found through its path. */
static struct tmpfs_inode *m_lookup(int i, char path[MPATH])
{
	char tmp[MPATH];
	struct tmpfs_inode *ino;

	path[0] = '\0';
	for (int n = i; n; n = mn[n].parent) {
		if (snprintf(tmp, MPATH, "/%s%s", mn[n].name, path) >= MPATH)
			tap_bail("model path too long");
		strcpy(path, tmp);
	}
	ino = L(path);
	return ino && tmpfs_ino(ino) == mn[i].ino ? ino : NULL;
}

static void m_write(int i, uint64_t off, const unsigned char *src, uint64_t len)
{
	if (off + len > mn[i].size) {
		mn[i].data = realloc(mn[i].data, off + len);
		if (!mn[i].data)
			tap_bail("out of memory");
		memset(mn[i].data + mn[i].size, 0, off + len - mn[i].size);
		mn[i].size = off + len;
	}
	memcpy(mn[i].data + off, src, len);
}

/* Writes or truncates a random file, found by path or through a handle
 * (which may be unlinked). */
static void s_data(int op)
{
	static unsigned char src[MDATA];
	uint64_t off = (uint64_t)rand() % MDATA, len = (uint64_t)rand() % (MDATA / 2);
	int h = rand() % NHANDLE, i;
	struct tmpfs_inode *ino;
	char path[MPATH];
	long rc;

	if (handles[h] >= 0 && rand() % 2) {
		i = handles[h];
		ino = hino[h];
	} else {
		if ((i = m_random_file()) < 0)
			return;
		if (!(ino = m_lookup(i, path)))
			tap_bail("model path %s does not match", path);
	}
	if (rand() % 4 == 0) {
		rc = tmpfs_truncate(ino, off, tick());
		if (rc)
			mismatch(op, "truncate", rc, 0);
		if (off < mn[i].size)
			mn[i].size = off;
		else
			m_write(i, off, src, 0);
		return;
	}
	for (uint64_t k = 0; k < len; k++)
		src[k] = (unsigned char)rand();
	rc = tmpfs_write(ino, off, src, len, tick());
	if (rc != (long)len)
		mismatch(op, "write", rc, (long)len);
	if (len)
		m_write(i, off, src, len);
}

static void s_open_close(void)
{
	int h = rand() % NHANDLE, i;
	char path[MPATH];

	if (handles[h] >= 0) {
		i = handles[h];
		tmpfs_close_ref(hino[h]);
		handles[h] = -1;
		mn[i].opens--;
		m_put(i);
		return;
	}
	if ((i = m_random_file()) < 0)
		return;
	if (!(hino[h] = m_lookup(i, path)))
		tap_bail("model path %s does not match", path);
	tmpfs_open_ref(hino[h]);
	handles[h] = i;
	mn[i].opens++;
}

static bool check_file(struct tmpfs_inode *ino, int i)
{
	static unsigned char buf[3 * MDATA];
	long n = tmpfs_read(ino, 0, buf, sizeof(buf), tick());

	return n == (long)mn[i].size &&
	       (!n || !memcmp(buf, mn[i].data, mn[i].size));
}

/* Walks the model and checks every node's ino, type, nlink, size, data
 * and every directory's listing; the inode count must match too. */
static void verify_tree(int op)
{
	long live = 1;

	for (int i = 1; i < MNODES; i++) {
		if (!mn[i].used)
			continue;
		live++;
		if (!mn[i].linked)
			continue;
		char path[MPATH];
		struct tmpfs_inode *ino = m_lookup(i, path);
		if (!ino) {
			mismatch(op, path, 0, (long)mn[i].ino);
			continue;
		}
		struct tmpfs_stat st = STI(ino);
		long subdirs = 0, entries = 0;
		for (int k = 1; k < MNODES; k++)
			if (mn[k].used && mn[k].linked && mn[k].parent == i) {
				entries++;
				subdirs += mn[k].dir;
			}
		if (mn[i].dir != ((st.mode & S_IFMT) == S_IFDIR))
			mismatch(op, "type", st.mode, mn[i].dir);
		else if (mn[i].dir && st.nlink != (uint64_t)(2 + subdirs))
			mismatch(op, "dir nlink", (long)st.nlink, 2 + subdirs);
		else if (!mn[i].dir && (st.nlink != 1 || !check_file(ino, i)))
			mismatch(op, "file nlink/data", (long)st.nlink, 1);
		if (mn[i].dir) {
			struct tmpfs_dirent de;
			uint64_t pos = 2;
			long n = 0;
			while (tmpfs_readdir(ino, &pos, &de) == 1 && n <= entries) {
				int c = m_child(i, de.name);
				if (c < 0 || mn[c].ino != de.ino)
					mismatch(op, "listed entry", (long)de.ino, c);
				n++;
			}
			if (n != entries)
				mismatch(op, "entry count", n, entries);
		}
	}
	for (int h = 0; h < NHANDLE; h++)
		if (handles[h] >= 0 && !check_file(hino[h], handles[h]))
			mismatch(op, "open file data", h, handles[h]);
	if ((long)tmpfs_inodes_used(fs) != live)
		mismatch(op, "inodes used", (long)tmpfs_inodes_used(fs), live);
	if (!accounting_ok())
		mismatch(op, "bytes used", (long)tmpfs_bytes_used(fs), 0);
}

static void test_stress(void)
{
	enum { OPS = 20000 };
	long counts[7] = { 0 };

	srand(12345);
	fs_new(0755);
	memset(mn, 0, sizeof(mn));
	mn[0] = (struct mnode){ .used = true, .linked = true, .dir = true,
				.ino = tmpfs_ino(tmpfs_root(fs)) };
	for (int h = 0; h < NHANDLE; h++)
		handles[h] = -1;
	for (int op = 0; op < OPS; op++) {
		int kind = rand() % 7;

		counts[kind]++;
		switch (kind) {
		case 0: s_create(op); break;
		case 1: s_mkdir(op); break;
		case 2: s_remove(op, false); break;
		case 3: s_remove(op, true); break;
		case 4: s_rename(op); break;
		case 5: s_data(op); break;
		default: s_open_close(); break;
		}
		if (op % 500 == 499)
			verify_tree(op);
	}
	verify_tree(OPS);
	ok(mismatches == 0, "%d random ops match the model (%ld mismatches)", OPS, mismatches);
	tap_diag("stress: %ld creates, %ld mkdirs, %ld unlinks, %ld rmdirs, %ld renames, "
		 "%ld data ops, %ld open/close; %llu inodes at the end",
		 counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6],
		 (unsigned long long)tmpfs_inodes_used(fs));
	fs_end("stress");               /* with handles still open */
	for (int i = 0; i < MNODES; i++)
		free(mn[i].data);
}


/* ---- an external data store (tmpfs_ops.data), as the server's page
 * cache objects: a fake that records what the core asks of it ---- */

#define FAKE_FILES 8
struct fake_file {
	bool live;
	char data[64];
	uint64_t size, mtime;
	struct tmpfs_stat pushed;   /* the last attr */
	int pushes, full_pushes, names_pushes;
	bool meta;                  /* a directory's (create_meta) */
	bool busy;                  /* destroy refuses: -EBUSY */
};
static struct fake_file fake[FAKE_FILES + 1];   /* ids 1..FAKE_FILES */

static int fake_create(void *ctx, uint64_t *id)
{
	(void)ctx;
	for (uint64_t i = 1; i <= FAKE_FILES; i++)
		if (!fake[i].live) {
			memset(&fake[i], 0, sizeof(fake[i]));
			fake[i].live = true;
			*id = i;
			return 0;
		}
	return -ENOSPC;
}

static int fake_destroy(void *ctx, uint64_t id)
{
	(void)ctx;
	if (fake[id].busy)
		return -EBUSY; /* as the kernel with descriptors it opened */
	fake[id].live = false;
	return 0;
}

static long fake_read(void *ctx, uint64_t id, uint64_t off, void *buf, size_t len)
{
	(void)ctx;
	if (off >= fake[id].size)
		return 0;
	if (len > fake[id].size - off)
		len = fake[id].size - off;
	memcpy(buf, fake[id].data + off, len);
	return (long)len;
}

static long fake_write(void *ctx, uint64_t id, uint64_t off, const void *buf, size_t len)
{
	(void)ctx;
	if (off + len > sizeof(fake[id].data))
		return -EFBIG;
	memcpy(fake[id].data + off, buf, len);
	if (off + len > fake[id].size)
		fake[id].size = off + len;
	fake[id].mtime = 777;
	return (long)len;
}

static int fake_truncate(void *ctx, uint64_t id, uint64_t size)
{
	(void)ctx;
	fake[id].size = size;
	return 0;
}

static void fake_stat(void *ctx, uint64_t id, struct tmpfs_stat *st)
{
	(void)ctx;
	st->size = fake[id].size;
	st->blocks = 8;
	st->mtime = fake[id].mtime;
}

static void fake_attr(void *ctx, uint64_t id, const struct tmpfs_stat *st, unsigned what)
{
	(void)ctx;
	fake[id].pushed = *st;
	fake[id].pushes++;
	fake[id].full_pushes += (what & TMPFS_ATTR_TIMES) != 0;
	fake[id].names_pushes += (what & TMPFS_ATTR_NAMES) != 0;
}

static int fake_create_meta(void *ctx, uint64_t *id)
{
	int r = fake_create(ctx, id);
	if (r == 0)
		fake[*id].meta = true;
	return r;
}

static const struct tmpfs_data_ops fake_ops = {
	.create = fake_create, .destroy = fake_destroy, .read = fake_read, .write = fake_write,
	.truncate = fake_truncate, .stat = fake_stat, .attr = fake_attr,
};

/* A FIFO's handle goes to ops.fifo_drop when its inode goes (its last
 * name unlinked), and only then. */
static int64_t dropped = -1;
static void fifo_drop(int64_t h)
{
	dropped = h;
}

static void test_fifo(void)
{
	struct tmpfs_ops o = { .alloc = t_alloc, .free = t_free, .fifo_drop = fifo_drop };
	struct tmpfs *f = tmpfs_create(&o, TMPFS_S_IFDIR | 0777, 0, 0);
	struct tmpfs_inode *p = NULL;
	CHECK(tmpfs_create_node(f, "/p", S_IFIFO | 0640, 0, &alice, tick(), true, &p), 1);
	CHECK(STI(p).mode, S_IFIFO | 0640);
	CHECK(tmpfs_fifo_get(p), -1);
	tmpfs_fifo_set(p, 42);
	CHECK(tmpfs_fifo_get(p), 42);
	CHECK(tmpfs_link(f, "/p", "/q", false, &alice, tick()), 0);
	CHECK(tmpfs_unlink(f, "/p", &alice, tick()), 0);
	ok(dropped == -1, "a FIFO with a name left keeps its handle");
	CHECK(tmpfs_unlink(f, "/q", &alice, tick()), 0);
	ok(dropped == 42, "its last name gone: the handle goes to fifo_drop");
	struct tmpfs_inode *q = NULL;
	dropped = -1;
	CHECK(tmpfs_create_node(f, "/r", S_IFIFO | 0600, 0, &alice, tick(), true, &q), 1);
	CHECK(tmpfs_unlink(f, "/r", &alice, tick()), 0);
	ok(dropped == -1, "one never opened has none to drop");
	tmpfs_destroy(f);
}

/* The core hands regular files' data to the store, and tells it each
 * metadata change, so that the kernel can answer fstat alone. */
static void test_data_store(void)
{
	struct tmpfs_ops o = { .alloc = t_alloc, .free = t_free, .data = &fake_ops };
	struct tmpfs *f = tmpfs_create(&o, TMPFS_S_IFDIR | 0777, 0, 0);
	struct tmpfs_inode *a = NULL, *d = NULL;
	char buf[16];

	CHECK(tmpfs_create_node(f, "/a", 0640, 0, &alice, tick(), true, &a), 1);
	uint64_t id = tmpfs_data_id(a);
	ok(id >= 1 && id <= FAKE_FILES && fake[id].live, "a new regular file gets a store");
	ok(fake[id].full_pushes == 1 && fake[id].pushed.uid == 1000 && fake[id].pushed.nlink == 1 &&
	   fake[id].pushed.mode == (TMPFS_S_IFREG | 0640) && fake[id].pushed.ino == tmpfs_ino(a),
	   "with its inode, owner, link count and mode");
	CHECK(tmpfs_write(a, 2, "xyz", 3, tick()), 3);
	ok(fake[id].size == 5, "write goes to the store");
	CHECK(tmpfs_read(a, 0, buf, sizeof(buf), tick()), 5);
	ok(memcmp(buf + 2, "xyz", 3) == 0, "read comes from it");
	struct tmpfs_stat st;
	tmpfs_stat(a, &st);
	ok(st.size == 5 && st.blocks == 8 && st.mtime == 777 && st.uid == 1000,
	   "stat: size, blocks and times from the store, the rest from the inode");
	CHECK(tmpfs_truncate(a, 1, tick()), 0);
	ok(fake[id].size == 1, "truncate goes to the store");
	CHECK(tmpfs_truncate(a, TMPFS_MAX_FILE + 1, tick()), -EFBIG);
	CHECK(tmpfs_chmod(a, 0600, &alice, tick()), 0);
	ok(fake[id].pushed.mode == (TMPFS_S_IFREG | 0600) && fake[id].full_pushes == 1,
	   "chmod pushes the new mode (not the times)");
	CHECK(tmpfs_chown(a, -1, 100, &alice, tick()), 0);
	ok(fake[id].pushed.gid == 100, "chown pushes the new group");
	CHECK(tmpfs_rename(f, "/a", "/b", &alice, tick()), 0);
	ok(fake[id].pushed.ctime == tmpfs_ctime_of(a), "rename pushes the new ctime");
	tmpfs_open_ref(a);
	CHECK(tmpfs_unlink(f, "/b", &alice, tick()), 0);
	ok(fake[id].live && fake[id].pushed.nlink == 0, "unlink of an open file: nlink 0 pushed, store kept");
	tmpfs_close_ref(a);
	ok(!fake[id].live, "the last close frees the store");
	CHECK(tmpfs_mkdir(f, "/dir", 0755, &root, tick()), 0);
	CHECK(tmpfs_lookup(f, "/dir", &root, &d), 0);
	ok(tmpfs_data_id(d) == 0, "a directory has no store");
	for (int i = 0; i < FAKE_FILES; i++) {
		char name[8] = { '/', 'f', (char)('0' + i), 0 };
		tmpfs_create_node(f, name, 0644, 0, &root, tick(), true, NULL);
	}
	CHECK(tmpfs_create_node(f, "/full", 0644, 0, &root, tick(), true, NULL), -ENOSPC);
	CHECK(lk_in(f, "/full"), -ENOENT);
	tmpfs_destroy(f);
	int live = 0;
	for (int i = 1; i <= FAKE_FILES; i++)
		live += fake[i].live;
	ok(live == 0 && live_blocks == 0, "a store that cannot make one more: -ENOSPC, no entry; destroy frees all");
}

static const struct tmpfs_data_ops fake_meta_ops = {
	.create = fake_create, .create_meta = fake_create_meta, .destroy = fake_destroy, .read = fake_read,
	.write = fake_write, .truncate = fake_truncate, .stat = fake_stat, .attr = fake_attr,
};

/* Directories get attribute-only objects (the kernel's name cache): each
 * change of a directory's names pushes TMPFS_ATTR_NAMES with its new size
 * and times, and lookups record the names they meet (the trail). */
static void test_dir_objects(void)
{
	struct tmpfs_ops o = { .alloc = t_alloc, .free = t_free, .data = &fake_meta_ops };
	struct tmpfs *f = tmpfs_create(&o, TMPFS_S_IFDIR | 0777, 0, 0);
	struct tmpfs_inode *r = tmpfs_root(f), *d = NULL, *a = NULL;
	const struct tmpfs_trail_step *t;
	uint64_t rid = tmpfs_obj_id(r);

	ok(rid && fake[rid].meta && fake[rid].full_pushes == 1 &&
	   fake[rid].pushed.mode == (TMPFS_S_IFDIR | 0777) && fake[rid].pushed.size == 40,
	   "the root directory has an object, with its mode and size");
	CHECK(tmpfs_mkdir(f, "/d", 0700, &alice, tick()), 0);
	CHECK(tmpfs_lookup(f, "/d", &root, &d), 0);
	ok(tmpfs_obj_id(d) == 0, "mkdir: no object yet (nobody looked it up through the cache)");
	tmpfs_trail_start(f);
	CHECK(lk_in(f, "/d/x"), -ENOENT);
	tmpfs_trail_take(f, &t);
	uint64_t did = tmpfs_obj_id(d);
	ok(did && fake[did].meta && fake[did].pushed.uid == 1000 && fake[did].pushed.nlink == 2 &&
	   fake[did].full_pushes == 1, "a lookup recording it makes its object, with its attributes");
	ok(fake[rid].names_pushes == 1 && fake[rid].pushed.nlink == 3 && fake[rid].pushed.size == 60 &&
	   fake[rid].pushed.mtime == tmpfs_ctime_of(r), "mkdir: the parent's names, nlink, size and mtime pushed");
	CHECK(tmpfs_create_node(f, "/d/a", 0644, 0, &alice, tick(), true, &a), 1);
	ok(fake[did].names_pushes == 1, "create pushes the directory's names");
	CHECK(tmpfs_link(f, "/d/a", "/d/b", false, &alice, tick()), 0);
	ok(fake[did].names_pushes == 1 && fake[tmpfs_obj_id(a)].pushed.nlink == 2,
	   "link right after: the directory is out of date already (no push); the file's nlink pushed");
	tmpfs_trail_start(f);
	CHECK(lk_in(f, "/d/b"), 0);
	tmpfs_trail_take(f, &t);
	ok(fake[did].full_pushes == 2 && fake[did].pushed.size == 80 && fake[rid].full_pushes == 2,
	   "a lookup recording them pushes the out-of-date directories whole again");
	CHECK(tmpfs_rename(f, "/d/b", "/c", &alice, tick()), 0);
	ok(fake[did].names_pushes == 2 && fake[rid].names_pushes == 2, "rename pushes both directories");
	CHECK(tmpfs_unlink(f, "/c", &alice, tick()), 0);
	ok(fake[rid].names_pushes == 2, "unlink right after pushes nothing more");
	CHECK(tmpfs_chmod(d, 0755, &alice, tick()), 0);
	ok(fake[did].pushed.mode == (TMPFS_S_IFDIR | 0755) && fake[did].names_pushes == 2,
	   "chmod of a directory pushes its mode, not its names");

	tmpfs_trail_start(f);
	CHECK(lk_in(f, "/d/a"), 0);
	uint32_t n = tmpfs_trail_take(f, &t);
	ok(n == 2 && t[0].dir == rid && t[0].child == did && t[0].len == 1 && t[0].name[0] == 'd' &&
	   t[1].dir == did && t[1].child == tmpfs_obj_id(a) && t[1].name[0] == 'a',
	   "the trail: each name met, directory and child objects");
	tmpfs_trail_start(f);
	CHECK(lk_in(f, "/d/nope"), -ENOENT);
	n = tmpfs_trail_take(f, &t);
	ok(n == 2 && t[1].dir == did && t[1].child == 0 && t[1].len == 4, "a missing name: a negative step");
	CHECK(tmpfs_symlink(f, "/d", "/l", &root, tick()), 0);
	tmpfs_trail_start(f);
	tmpfs_lookup_nofollow(f, "/l", &root, &a);
	ok(tmpfs_trail_take(f, &t) == 0, "a link is never recorded (it has no object)");
	CHECK(lk_in(f, "/d/a"), 0);
	ok(tmpfs_trail_take(f, &t) == 0, "nothing is recorded outside start and take");
	CHECK(tmpfs_rmdir(f, "/d", &alice, tick()), -ENOTEMPTY);
	CHECK(tmpfs_unlink(f, "/d/a", &alice, tick()), 0);
	CHECK(tmpfs_rmdir(f, "/d", &alice, tick()), 0);
	ok(fake[did].live, "rmdir keeps the directory's object for the next directory");
	struct tmpfs_inode *e = NULL;
	CHECK(tmpfs_mkdir(f, "/e", 0711, &root, tick()), 0);
	CHECK(tmpfs_lookup(f, "/e", &root, &e), 0);
	int enames = fake[did].names_pushes;
	tmpfs_trail_start(f);
	CHECK(lk_in(f, "/e/x"), -ENOENT);
	tmpfs_trail_take(f, &t);
	ok(tmpfs_obj_id(e) == did && fake[did].names_pushes == enames + 1 && fake[did].pushed.mode == (TMPFS_S_IFDIR | 0711) &&
	   fake[did].pushed.uid == 0 && fake[did].pushed.size == 40,
	   "the next directory looked up gets it: its old names dropped, its attributes this one's");
	CHECK(tmpfs_rmdir(f, "/e", &root, tick()), 0);
	/* a file the kernel holds open (destroy: -EBUSY) outlives its name */
	struct tmpfs_inode *k = NULL;
	CHECK(tmpfs_create_node(f, "/k", 0644, 0, &root, tick(), true, &k), 1);
	uint64_t kid = tmpfs_obj_id(k);
	fake[kid].busy = true;
	CHECK(tmpfs_unlink(f, "/k", &root, tick()), 0);
	ok(fake[kid].live && tmpfs_inode_by_obj(f, kid) == k && fake[kid].pushed.nlink == 0,
	   "unlink of a file the kernel holds: kept, found by its object, nlink 0 pushed");
	CHECK(tmpfs_truncate(k, 1, tick()), 0);
	tmpfs_kclosed(f, kid + 100);
	fake[kid].busy = false;
	tmpfs_kclosed(f, kid);
	ok(!fake[kid].live && tmpfs_inode_by_obj(f, kid) == NULL, "the kernel's last close frees it");
	tmpfs_destroy(f);
	int live = 0;
	for (int i = 1; i <= FAKE_FILES; i++)
		live += fake[i].live;
	ok(live == 0, "destroy frees every object, directories' too");
}

/* A create, mkdir, unlink or rmdir with the trail on records its name
 * for the kernel (the new object, or a negative step) and pushes the
 * directory whole instead of dropping its names; the kernel's own unlinks
 * and rmdirs (tmpfs_removed) are made as tmpfs_unlink and tmpfs_rmdir
 * make them, pushing nothing, and a disagreeing tree is -ESTALE. */
static void test_kernel_removals(void)
{
	struct tmpfs_ops o = { .alloc = t_alloc, .free = t_free, .data = &fake_meta_ops };
	struct tmpfs *f = tmpfs_create(&o, TMPFS_S_IFDIR | 0777, 0, 0);
	struct tmpfs_inode *r = tmpfs_root(f), *a = NULL, *d = NULL, *b = NULL;
	const struct tmpfs_trail_step *t;
	uint64_t rid = tmpfs_obj_id(r);
	uint32_t n;

	int np = fake[rid].names_pushes, fp = fake[rid].full_pushes;
	tmpfs_trail_start(f);
	CHECK(tmpfs_create_node(f, "/a", 0644, 0, &alice, tick(), true, &a), 1);
	n = tmpfs_trail_take(f, &t);
	ok(n == 1 && t[0].dir == rid && t[0].child == tmpfs_obj_id(a) && t[0].len == 1 && t[0].name[0] == 'a' &&
	   fake[rid].names_pushes == np && fake[rid].full_pushes == fp + 1 && fake[rid].pushed.size == 60,
	   "create with the trail on: the new name recorded, the directory pushed whole, its names kept");
	tmpfs_trail_start(f);
	CHECK(tmpfs_mkdir(f, "/d", 0755, &alice, tick()), 0);
	n = tmpfs_trail_take(f, &t);
	CHECK(tmpfs_lookup(f, "/d", &root, &d), 0);
	uint64_t did = tmpfs_obj_id(d);
	ok(n == 1 && did && fake[did].meta && t[0].child == did && fake[did].pushed.size == 40 &&
	   fake[did].pushed.nlink == 2 && fake[rid].names_pushes == np && fake[rid].pushed.nlink == 3 &&
	   fake[rid].pushed.size == 80, "mkdir with the trail on: the new directory's object made and recorded");
	tmpfs_trail_start(f);
	CHECK(tmpfs_create_node(f, "/b", 0644, 0, &alice, tick(), true, &b), 1);
	tmpfs_trail_take(f, &t);
	uint64_t bid = tmpfs_obj_id(b);
	CHECK(tmpfs_link(f, "/b", "/b2", false, &alice, tick()), 0);
	np = fake[rid].names_pushes;
	tmpfs_trail_start(f);
	CHECK(tmpfs_unlink(f, "/b2", &alice, tick()), 0);
	n = tmpfs_trail_take(f, &t);
	ok(n == 1 && t[0].dir == rid && t[0].child == 0 && t[0].len == 2 && fake[rid].names_pushes == np &&
	   fake[rid].pushed.size == 100 && fake[bid].pushed.nlink == 1,
	   "unlink with the trail on: a negative step, the directory pushed whole");

	/* the kernel's own: nothing pushed */
	int pa = fake[rid].pushes, pb = fake[bid].pushes;
	uint64_t now = tick();
	CHECK(tmpfs_removed(f, "/b", false, bid, now), 0);
	ok(!fake[bid].live && fake[rid].pushes == pa && fake[bid].pushes == pb && lk_in(f, "/b") == -ENOENT &&
	   tmpfs_ctime_of(r) == now, "tmpfs_removed of a file: its entry gone, the inode freed, nothing pushed");
	CHECK(tmpfs_create_node(f, "/d/x", 0644, 0, &alice, tick(), true, NULL), 1);
	CHECK(tmpfs_removed(f, "/d", true, did, tick()), -ESTALE);
	ok(fake[did].live && lk_in(f, "/d") == 0 && fake[rid].names_pushes == np + 1,
	   "a directory that is not empty: -ESTALE, kept, the kernel told to forget the names");
	CHECK(tmpfs_unlink(f, "/d/x", &alice, tick()), 0);
	CHECK(tmpfs_removed(f, "/a", false, tmpfs_obj_id(a) + 1, tick()), -ESTALE);
	CHECK(tmpfs_removed(f, "/d", false, did, tick()), -ESTALE);
	CHECK(tmpfs_removed(f, "/a", true, tmpfs_obj_id(a), tick()), -ESTALE);
	CHECK(tmpfs_removed(f, "/none", false, 1, tick()), -ESTALE);
	struct tmpfs_stat st;
	tmpfs_stat(r, &st);
	uint32_t nl = st.nlink;
	pa = fake[rid].pushes;
	int pd = fake[did].pushes;
	now = tick();
	CHECK(tmpfs_removed(f, "/d", true, did, now), 0);
	tmpfs_stat(r, &st);
	ok(lk_in(f, "/d") == -ENOENT && st.nlink == nl - 1 && st.size == 60 && st.mtime == now && fake[rid].pushes == pa &&
	   fake[did].pushes == pd, "tmpfs_removed of an empty directory: gone, the parent's nlink, size and mtime, nothing pushed");
	tmpfs_destroy(f);
	int live = 0;
	for (int i = 1; i <= FAKE_FILES; i++)
		live += fake[i].live;
	ok(live == 0, "nothing left");
}

/* ---- symbolic links, hard links, hand-backs ---- */

/* The hand-back of the last call: kind, which path, the component. */
static bool hb_is(int kind, uint32_t which, const char *path, const char *comp, const char *target)
{
	const struct tmpfs_handback *hb = tmpfs_handback(fs);
	size_t cl = strlen(comp);

	if (hb->kind != kind || hb->which != which || hb->len != cl ||
	    strncmp(path + hb->off, comp, cl) != 0)
		return false;
	if (!target)
		return hb->target == NULL;
	return hb->tlen == strlen(target) && memcmp(hb->target, target, hb->tlen) == 0;
}

static struct tmpfs_inode *LN(const char *path)
{
	struct tmpfs_inode *ino = NULL;

	return tmpfs_lookup_nofollow(fs, path, &root, &ino) ? NULL : ino;
}

static void test_symlinks(void)
{
	struct tmpfs_inode *ino;
	struct tmpfs_stat st;
	char buf[64];
	static char big[TMPFS_PATH_MAX + 1];

	fs_new(0755);
	CHECK(mkd("/d", 0755, &root), 0);
	CHECK(mkf("/d/f", 0644, &root), 1);
	CHECK(tmpfs_symlink(fs, "f", "/d/l", &root, tick()), 0);
	ino = LN("/d/l");
	ok(ino != NULL, "lookup_nofollow finds the link itself");
	st = STI(ino);
	ok((st.mode & S_IFMT) == TMPFS_S_IFLNK && (st.mode & 07777) == 0777 && st.size == 1 && st.nlink == 1 &&
	   st.blocks == 0, "S_IFLNK 0777, size 1, nlink 1, no blocks (short)");
	CHECK(tmpfs_readlink(ino, buf, sizeof(buf)), 1);
	ok(buf[0] == 'f', "readlink: the text");
	CHECK(tmpfs_readlink(L("/d/f"), buf, sizeof(buf)), -EINVAL);
	CHECK(tmpfs_readlink(L("/d"), buf, sizeof(buf)), -EINVAL);
	/* following: the core hands back */
	CHECK(lk("/d/l", &root), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 0, "/d/l", "l", "f"), "a final link hands back: component 'l', text 'f'");
	CHECK(lk("/d/l/x/y", &root), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 0, "/d/l/x/y", "l", "f"), "a link in the middle hands back at it");
	CHECK(tmpfs_lookup_nofollow(fs, "/d/l/", &root, &ino), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 0, "/d/l/", "l", "f"), "a trailing slash follows even without follow");
	/* creating */
	CHECK(tmpfs_symlink(fs, "x", "/d/f", &root, tick()), -EEXIST);
	CHECK(tmpfs_symlink(fs, "x", "/d/l", &root, tick()), -EEXIST);
	CHECK(tmpfs_symlink(fs, "x", "/nope/l", &root, tick()), -ENOENT);
	CHECK(tmpfs_symlink(fs, "", "/d/e", &root, tick()), -ENOENT);
	CHECK(tmpfs_symlink(fs, "x", "/d/..", &root, tick()), -EEXIST);
	CHECK(tmpfs_symlink(fs, "x", "/d/new/", &root, tick()), -ENOENT);
	memset(big, 'a', TMPFS_PATH_MAX);
	CHECK(tmpfs_symlink(fs, big, "/d/big", &root, tick()), -ENAMETOOLONG);
	big[200] = '\0';
	CHECK(tmpfs_symlink(fs, big, "/d/long", &root, tick()), 0);
	st = STI(LN("/d/long"));
	ok(st.size == 200 && st.blocks == 8, "a 200-byte target: size 200, a page of blocks (Linux shmem)");
	CHECK(mkd("/ro", 0555, &root), 0);
	CHECK(tmpfs_symlink(fs, "x", "/ro/l", &alice, tick()), -EACCES);
	/* open(O_CREAT) and a final link */
	CHECK(tmpfs_create_node(fs, "/d/l", S_IFREG | 0644, 0, &root, tick(), TMPFS_EXCL, NULL), -EEXIST);
	CHECK(tmpfs_create_node(fs, "/d/l", S_IFREG | 0644, 0, &root, tick(), TMPFS_NOFOLLOW, NULL), -ELOOP);
	CHECK(tmpfs_create_node(fs, "/d/l", S_IFREG | 0644, 0, &root, tick(), 0, NULL), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 0, "/d/l", "l", "f"), "O_CREAT without O_EXCL follows the link");
	/* removing and renaming work on the link */
	CHECK(tmpfs_rmdir(fs, "/d/l", &root, tick()), -ENOTDIR);
	CHECK(tmpfs_mkdir(fs, "/d/l", 0755, &root, tick()), -EEXIST);
	CHECK(rn("/d/l", "/d/l2"), 0);
	ok(LN("/d/l2") == ino && LN("/d/l") == NULL, "rename moves the link");
	CHECK(tmpfs_unlink(fs, "/d/l2", &root, tick()), 0);
	ok(L("/d/f") != NULL, "unlink of the link keeps the target");
	CHECK(tmpfs_unlink(fs, "/d/long", &root, tick()), 0);
	fs_end("symlinks");
}

static void test_dotdot_handback(void)
{
	struct tmpfs_inode *ino;

	fs_new(0755);
	CHECK(mkd("/a", 0755, &root), 0);
	CHECK(mkd("/a/b", 0755, &root), 0);
	ok(L("/a/b/..") == L("/a"), "by default .. is walked here");
	tmpfs_set_walk(fs, TMPFS_WALK_DOTDOT_ROOT);
	ok(L("/a/b/..") == L("/a"), "DOTDOT_ROOT: below the root still here");
	CHECK(lk("/..", &root), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_DOTDOT, 0, "/..", "..", NULL), "DOTDOT_ROOT: /.. hands back");
	CHECK(lk("/a/../../x", &root), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_DOTDOT, 0, "/a/../../x", "..", NULL) && tmpfs_handback(fs)->off == 6,
	   "... the second .. of /a/../../x (offset 6)");
	tmpfs_set_walk(fs, TMPFS_WALK_DOTDOT_ALL);
	CHECK(lk("/a/b/..", &root), TMPFS_HANDBACK);
	ok(tmpfs_handback(fs)->off == 5, "DOTDOT_ALL: every .. hands back (offset 5)");
	CHECK(lk("/a/f/..", &root), -ENOENT);
	CHECK(mkf("/a/f", 0644, &root), 1);
	CHECK(lk("/a/f/../b", &root), -ENOTDIR);
	CHECK(mkd("/a/nox", 0700, &root), 0);
	CHECK(lk("/a/nox/..", &alice), -EACCES);
	CHECK(tmpfs_rmdir(fs, "/a/b/..", &root, tick()), -ENOTEMPTY);
	CHECK(tmpfs_mkdir(fs, "/a/..", 0755, &root, tick()), -EEXIST);
	CHECK(tmpfs_unlink(fs, "/a/..", &root, tick()), -EISDIR);
	CHECK(tmpfs_rename(fs, "/a/f", "/a/b/../g", &root, tick()), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_DOTDOT, 1, "/a/b/../g", "..", NULL), "rename: a hand-back about the second path says so");
	ino = NULL;
	CHECK(tmpfs_lookup_nofollow(fs, "/a/b", &root, &ino), 0);
	tmpfs_set_walk(fs, 0);
	fs_end("dotdot hand-back");
}

static void test_hard_links(void)
{
	struct tmpfs_inode *f;
	char buf[8];

	fs_new(0755);
	CHECK(mkd("/d", 0777, &root), 0);
	CHECK(mkf("/d/f", 0644, &root), 1);
	f = L("/d/f");
	CHECK(tmpfs_write(f, 0, "data", 4, tick()), 4);
	CHECK(tmpfs_link(fs, "/d/f", "/d/g", false, &root, tick()), 0);
	ok(L("/d/g") == f && STI(f).nlink == 2, "link: one inode, nlink 2");
	CHECK(tmpfs_link(fs, "/d/f", "/h", false, &root, tick()), 0);
	CHECK(STI(f).nlink, 3);
	CHECK(tmpfs_link(fs, "/d/f", "/h", false, &root, tick()), -EEXIST);
	CHECK(tmpfs_link(fs, "/d", "/d2", false, &root, tick()), -EPERM);
	CHECK(tmpfs_link(fs, "/none", "/x", false, &root, tick()), -ENOENT);
	CHECK(tmpfs_link(fs, "/d/f", "/none/x", false, &root, tick()), -ENOENT);
	CHECK(tmpfs_link(fs, "/d/f", "/d/new/", false, &root, tick()), -ENOENT);
	CHECK(tmpfs_unlink(fs, "/d/f", &root, tick()), 0);
	CHECK(tmpfs_read(L("/d/g"), 0, buf, 4, tick()), 4);
	ok(!memcmp(buf, "data", 4) && STI(f).nlink == 2, "unlink of one name keeps the data, nlink 2");
	CHECK(tmpfs_unlink(fs, "/h", &root, tick()), 0);
	CHECK(tmpfs_rename(fs, "/d/g", "/d/g", &root, tick()), 0);
	/* links to symlinks, and following */
	CHECK(tmpfs_symlink(fs, "g", "/d/s", &root, tick()), 0);
	CHECK(tmpfs_link(fs, "/d/s", "/d/s2", false, &root, tick()), 0);
	ok(LN("/d/s2") == LN("/d/s") && STI(LN("/d/s")).nlink == 2, "link of a symlink links the symlink");
	CHECK(tmpfs_link(fs, "/d/s", "/d/s3", true, &root, tick()), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 0, "/d/s", "s", "g"), "AT_SYMLINK_FOLLOW: the first path hands back");
	CHECK(tmpfs_link(fs, "/d/g", "/d/s/x", false, &root, tick()), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 1, "/d/s/x", "s", "g"), "a link in the second path: which = 1");
	/* protected_hardlinks */
	CHECK(mkf("/d/secret", 0600, &root), 1);
	CHECK(tmpfs_link(fs, "/d/secret", "/d/mine", false, &alice, tick()), -EPERM);
	CHECK(mkf("/d/open", 0666, &root), 1);
	CHECK(tmpfs_link(fs, "/d/open", "/d/mine", false, &alice, tick()), 0);
	CHECK(tmpfs_chmod(L("/d/open"), 04666, &root, tick()), 0);
	CHECK(tmpfs_link(fs, "/d/open", "/d/mine2", false, &alice, tick()), -EPERM);
	CHECK(mkd("/ro", 0555, &root), 0);
	CHECK(tmpfs_link(fs, "/d/g", "/ro/x", false, &alice, tick()), -EACCES);
	/* directories: 2 + subdirectories */
	CHECK(mkd("/d/s1", 0755, &root), 0);
	CHECK(mkd("/d/s4", 0755, &root), 0);
	CHECK(STI(L("/d")).nlink, 4);
	fs_end("hard links");
}

/* O_TMPFILE: an unnamed file (nlink 0, in no directory) that linkat
 * AT_EMPTY_PATH names unless it was exclusive, freed with its last
 * reference; the directory's errors. */
static void test_tmpfile(void)
{
	struct tmpfs_inode *f, *x;
	char buf[8];
	uint64_t bytes;

	fs_new(0755);
	CHECK(mkd("/d", 0777, &root), 0);
	CHECK(mkd("/ro", 0555, &root), 0);
	CHECK(mkf("/d/file", 0644, &root), 1);
	CHECK(tmpfs_symlink(fs, "d", "/l", &root, tick()), 0);
	uint64_t inodes = tmpfs_inodes_used(fs);
	CHECK(tmpfs_tmpfile(fs, "/d", 0640, 0, &alice, tick(), &f), 0);
	tmpfs_open_ref(f);
	ok((STI(f).mode & TMPFS_S_IFMT) == TMPFS_S_IFREG && (STI(f).mode & 07777) == 0640 && STI(f).nlink == 0 && STI(f).uid == 1000,
	   "tmpfile: regular, the mode given, nlink 0, the caller's");
	char names[4][256];
	uint64_t inos[4];
	CHECK(list("/d", names, inos, 4), 3); /* ".", "..", file */
	CHECK(tmpfs_inodes_used(fs), inodes + 1);
	bytes = tmpfs_bytes_used(fs);
	CHECK(tmpfs_write(f, 0, "data", 4, tick()), 4);
	CHECK(tmpfs_link_inode(fs, f, "/d/named", &alice, tick()), 0);
	ok(L("/d/named") == f && STI(f).nlink == 1, "linkat AT_EMPTY_PATH names it");
	CHECK(tmpfs_read(L("/d/named"), 0, buf, 4, tick()), 4);
	CHECK(tmpfs_link_inode(fs, f, "/d/named", &alice, tick()), -EEXIST);
	CHECK(tmpfs_link_inode(fs, f, "/ro/x", &alice, tick()), -EACCES);
	CHECK(tmpfs_link_inode(fs, f, "/none/x", &alice, tick()), -ENOENT);
	CHECK(tmpfs_link_inode(fs, f, "/d/file/x", &alice, tick()), -ENOTDIR);
	CHECK(tmpfs_link_inode(fs, f, "/l/y", &alice, tick()), TMPFS_HANDBACK);
	ok(hb_is(TMPFS_HB_LINK, 0, "/l/y", "l", "d"), "a link on the way hands back (which = 0)");
	CHECK(tmpfs_link_inode(fs, f, "/d/two", &alice, tick()), 0);
	CHECK(STI(f).nlink, 2);
	CHECK(tmpfs_unlink(fs, "/d/named", &alice, tick()), 0);
	CHECK(tmpfs_unlink(fs, "/d/two", &alice, tick()), 0);
	CHECK(tmpfs_link_inode(fs, f, "/d/again", &alice, tick()), -ENOENT); /* named once: no longer linkable */
	tmpfs_close_ref(f);
	CHECK(tmpfs_inodes_used(fs), inodes);
	ok(tmpfs_bytes_used(fs) <= bytes, "the last close frees it and its data");
	/* O_EXCL: never a name; freed unnamed */
	CHECK(tmpfs_tmpfile(fs, "/l", 0600, TMPFS_EXCL, &root, tick(), &x), TMPFS_HANDBACK);
	CHECK(tmpfs_tmpfile(fs, "/d", 0600, TMPFS_EXCL, &root, tick(), &x), 0);
	tmpfs_open_ref(x);
	CHECK(tmpfs_link_inode(fs, x, "/d/x", &root, tick()), -ENOENT);
	tmpfs_close_ref(x);
	CHECK(tmpfs_inodes_used(fs), inodes);
	/* the directory's errors */
	CHECK(tmpfs_tmpfile(fs, "/ro", 0600, 0, &alice, tick(), &x), -EACCES);
	CHECK(tmpfs_tmpfile(fs, "/ro", 0600, 0, &root, tick(), &x), 0);
	tmpfs_open_ref(x);
	tmpfs_close_ref(x);
	CHECK(tmpfs_tmpfile(fs, "/d/file", 0600, 0, &root, tick(), &x), -ENOTDIR);
	CHECK(tmpfs_tmpfile(fs, "/none", 0600, 0, &root, tick(), &x), -ENOENT);
	CHECK(tmpfs_tmpfile(fs, "/l", 0600, TMPFS_NOFOLLOW, &root, tick(), &x), -ENOTDIR);
	CHECK(tmpfs_inodes_used(fs), inodes);
	fs_end("tmpfile");
}

static void test_utimes_dirpath(void)
{
	char buf[64];
	struct tmpfs_inode *f;

	fs_new(0755);
	CHECK(mkd("/a", 0777, &root), 0);
	CHECK(mkd("/a/bb", 0755, &root), 0);
	CHECK(mkf("/a/f", 0644, &root), 1);
	f = L("/a/f");
	CHECK(tmpfs_utimes(f, 5, 6, &root, 100), 0);
	ok(STI(f).atime == 5 && STI(f).mtime == 6 && STI(f).ctime == 100, "explicit times; ctime now");
	CHECK(tmpfs_utimes(f, TMPFS_UTIME_OMIT, TMPFS_UTIME_NOW, &root, 200), 0);
	ok(STI(f).atime == 5 && STI(f).mtime == 200, "OMIT keeps, NOW sets now");
	CHECK(tmpfs_utimes(f, TMPFS_UTIME_OMIT, TMPFS_UTIME_OMIT, &alice, 300), 0);
	ok(STI(f).ctime == 200, "both omitted: nothing changes, no check");
	CHECK(tmpfs_utimes(f, 1, 1, &alice, 300), -EPERM);
	CHECK(tmpfs_utimes(f, TMPFS_UTIME_NOW, TMPFS_UTIME_NOW, &alice, 300), -EACCES);
	CHECK(tmpfs_chmod(f, 0666, &root, tick()), 0);
	CHECK(tmpfs_utimes(f, TMPFS_UTIME_NOW, TMPFS_UTIME_NOW, &alice, 300), 0);
	CHECK(tmpfs_dir_path(L("/a/bb"), buf, sizeof(buf)), 5);
	ok(!strcmp(buf, "/a/bb"), "dir_path /a/bb");
	CHECK(tmpfs_dir_path(L("/"), buf, sizeof(buf)), 1);
	ok(!strcmp(buf, "/"), "dir_path /");
	CHECK(tmpfs_dir_path(f, buf, sizeof(buf)), -ENOTDIR);
	CHECK(tmpfs_dir_path(L("/a/bb"), buf, 4), -ENAMETOOLONG);
	CHECK(rn("/a/bb", "/cc"), 0);
	CHECK(tmpfs_dir_path(L("/cc"), buf, sizeof(buf)), 3);
	ok(!strcmp(buf, "/cc"), "dir_path follows a rename");
	struct tmpfs_inode *cc = L("/cc");
	tmpfs_open_ref(cc);
	CHECK(tmpfs_rmdir(fs, "/cc", &root, tick()), 0);
	CHECK(tmpfs_dir_path(cc, buf, sizeof(buf)), -ENOENT);
	tmpfs_close_ref(cc);
	fs_end("utimes and dir_path");
}

int main(void)
{
	test_root();
	test_paths();
	test_access();
	test_create();
	test_mkdir_rmdir();
	test_unlink();
	test_sticky();
	test_rename();
	test_rename_in_place();
	test_rename_perms();
	test_chmod_chown();
	test_io();
	test_io_random();
	test_enospc();
	test_open_unlinked();
	test_readdir();
	test_readdir_mutation();
	test_big_dir();
	test_timestamps();
	test_symlinks();
	test_dotdot_handback();
	test_hard_links();
	test_tmpfile();
	test_utimes_dirpath();
	test_stress();
	test_data_store();
	test_fifo();
	test_dir_objects();
	test_kernel_removals();
	return tap_done();
}
