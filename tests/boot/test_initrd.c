/* Host unit test for lib/initrd.c (newc cpio reader). Prints TAP.
 *
 * Archives come from a small C writer below, which mirrors the format of
 * tools/mkinitrd.py byte for byte, and from mkinitrd.py itself run on a
 * temporary tree (the test must run from the repository root; argv[1], if
 * given, is the directory to create that tree in, else /tmp). Every parse
 * runs on an exactly sized heap copy, so ASan reports any read past the
 * archive. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "initrd.h"
#include "tap.h"

/* ---------------------------------------------------------------- writer */

#define HDR_LEN 110
#define F_MODE 1
#define F_FILESIZE 6
#define F_NAMESIZE 11

struct ent {
	const char *name;
	uint32_t mode;
	const char *data; /* NULL for directories */
	uint32_t uid, gid;
};

struct arc {
	uint8_t b[1 << 16];
	size_t len;
	size_t hdr[32]; /* offset of each entry's header, trailer last */
	unsigned n;
};

static void pad4(struct arc *a)
{
	while (a->len % 4)
		a->b[a->len++] = 0;
}

static void put(struct arc *a, const void *p, size_t n)
{
	memcpy(a->b + a->len, p, n);
	a->len += n;
}

static void w_entry(struct arc *a, uint32_t ino, uint32_t mode, uint32_t uid,
		    uint32_t gid, uint32_t nlink, const char *name,
		    const void *data, size_t size)
{
	char h[HDR_LEN + 1];

	snprintf(h, sizeof(h),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ino, mode, uid, gid, nlink, 0u, (uint32_t)size, 0u, 0u, 0u, 0u,
		 (uint32_t)strlen(name) + 1, 0u);
	a->hdr[a->n++] = a->len;
	put(a, h, HDR_LEN);
	put(a, name, strlen(name) + 1);
	pad4(a);
	put(a, data, size);
	pad4(a);
}

/* Same layout as mkinitrd.py: ino from 1, nlink 2 for dirs, trailer ino 0. */
static void w_archive(struct arc *a, const struct ent *e, unsigned n)
{
	a->len = 0;
	a->n = 0;
	for (unsigned i = 0; i < n; i++) {
		bool dir = (e[i].mode & INITRD_S_IFMT) == INITRD_S_IFDIR;
		const char *d = e[i].data ? e[i].data : "";
		w_entry(a, i + 1, e[i].mode, e[i].uid, e[i].gid, dir ? 2 : 1,
			e[i].name, d, strlen(d));
	}
	w_entry(a, 0, 0, 0, 0, 1, "TRAILER!!!", "", 0);
}

/* Overwrites header field idx of entry k with an 8-char string. */
static void set_field(struct arc *a, unsigned k, unsigned idx, const char *s8)
{
	memcpy(a->b + a->hdr[k] + 6 + idx * 8, s8, 8);
}

static void set_field_u32(struct arc *a, unsigned k, unsigned idx, uint32_t v)
{
	char s[9];
	snprintf(s, sizeof(s), "%08X", v);
	set_field(a, k, idx, s);
}

/* --------------------------------------------------------------- parsing */

struct result {
	unsigned n;        /* entries returned */
	bool error, done;
	bool all_match;    /* every entry equal to the expectation, in order */
	bool in_bounds;    /* every name/data range inside the buffer */
};

static bool range_in(const uint8_t *buf, size_t len, const void *p, uint64_t n)
{
	const uint8_t *q = p;
	return q >= buf && (size_t)(q - buf) <= len && n <= len - (size_t)(q - buf);
}

static bool entry_matches(const struct initrd_file *f, const struct ent *e)
{
	const char *d = e->data ? e->data : "";
	return f->name_len == strlen(e->name) &&
	       memcmp(f->name, e->name, f->name_len) == 0 &&
	       f->name[f->name_len] == 0 && f->mode == e->mode &&
	       f->uid == e->uid && f->gid == e->gid && f->size == strlen(d) &&
	       memcmp(f->data, d, f->size) == 0;
}

/* Parses the first len bytes of src from an exactly sized heap copy. */
static struct result parse(const uint8_t *src, size_t len,
			   const struct ent *want, unsigned nwant)
{
	struct result r = { .all_match = true, .in_bounds = true };
	uint8_t *buf = len ? xmalloc(len) : NULL;
	struct initrd_iter it;
	struct initrd_file f;

	if (len)
		memcpy(buf, src, len);
	initrd_iter_init(&it, buf, len);
	while (initrd_next(&it, &f)) {
		if (!range_in(buf, len, f.name, f.name_len + 1) ||
		    !range_in(buf, len, f.data, f.size)) {
			r.in_bounds = false;
			break;
		}
		if (!want || r.n >= nwant || !entry_matches(&f, &want[r.n]))
			r.all_match = false;
		r.n++;
	}
	r.error = it.error;
	r.done = it.done;
	/* A finished iterator stays finished. */
	if (initrd_next(&it, &f))
		r.in_bounds = false;
	free(buf);
	return r;
}

static bool parses_ok(const struct arc *a, const struct ent *e, unsigned n)
{
	struct result r = parse(a->b, a->len, e, n);
	return r.done && !r.error && r.n == n && r.all_match && r.in_bounds;
}

static bool parse_fails(const struct arc *a)
{
	struct result r = parse(a->b, a->len, NULL, 0);
	return r.done && r.error && r.in_bounds;
}

/* initrd_find on a heap copy; when found, the data must be in bounds and,
 * if want is given, equal to it. f->name/data dangle afterwards. */
static bool find(const struct arc *a, const char *path, struct initrd_file *f,
		 const char *want)
{
	uint8_t *buf = xmalloc(a->len);
	bool found;

	memcpy(buf, a->b, a->len);
	found = initrd_find(buf, a->len, path, f) &&
		range_in(buf, a->len, f->data, f->size) &&
		(!want || (f->size == strlen(want) &&
			   memcmp(f->data, want, f->size) == 0));
	free(buf);
	return found;
}

/* ----------------------------------------------------------------- data */

static const struct ent sample[] = {
	{ "bin", 0040755, NULL, 0, 0 },
	{ "bin/init", 0100755, "\x7f" "ELF init program", 0, 0 },
	{ "e", 0100644, "", 0, 0 },                 /* empty file */
	{ "etc", 0040700, NULL, 0, 0 },
	{ "etc/motd", 0100600, "hello", 7, 9 },     /* odd size, odd ids */
	{ "etc/ab", 0100444, "abc", 0xFFFFFFFFu, 0x12345678u },
	{ "abcd", 0100644, "abcdefgh", 0, 0 },      /* name+NUL = 5 */
};
#define NSAMPLE ((unsigned)(sizeof(sample) / sizeof(sample[0])))

static struct arc A, B;

static void build_sample(struct arc *a)
{
	w_archive(a, sample, NSAMPLE);
}

/* ---------------------------------------------------------------- tests */

static void test_valid(void)
{
	struct result r;
	struct initrd_file f;

	build_sample(&A);
	ok(parses_ok(&A, sample, NSAMPLE),
	   "sample archive: names, sizes, contents, modes, ids, dirs, empty file");

	ok(find(&A, "bin/init", &f, "\x7f" "ELF init program") && f.size == 17 && initrd_is_reg(&f) &&
	   f.mode == 0100755, "find bin/init");
	ok(find(&A, "e", &f, NULL) && f.size == 0, "find empty file");
	ok(find(&A, "etc/motd", &f, "hello") && f.uid == 7 && f.gid == 9 && f.size == 5,
	   "find etc/motd with its uid/gid");
	ok(!find(&A, "bin", &f, NULL), "find refuses a directory");
	ok(!find(&A, "bin/ini", &f, NULL) && !find(&A, "bin/init2", &f, NULL) &&
	   !find(&A, "/bin/init", &f, NULL) && !find(&A, "./bin/init", &f, NULL) &&
	   !find(&A, "", &f, NULL) && !find(&A, "missing", &f, NULL),
	   "find: prefix, longer, slash, ./, empty and absent paths miss");
	ok(!find(&A, "TRAILER!!!", &f, NULL), "find never returns the trailer");

	/* Nothing after the trailer is looked at (cpio pads to 512). */
	memset(A.b + A.len, 0xA5, 512);
	A.len += 512;
	ok(parses_ok(&A, sample, NSAMPLE), "bytes after the trailer are ignored");

	w_archive(&A, NULL, 0);
	r = parse(A.b, A.len, NULL, 0);
	ok(r.done && !r.error && r.n == 0 && A.len == 124,
	   "trailer-only archive: no entries, no error");
	ok(!find(&A, "x", &f, NULL), "find in trailer-only archive misses");

	/* Lowercase hex is valid. */
	build_sample(&A);
	set_field(&A, 1, F_MODE, "000081ed");
	ok(parses_ok(&A, sample, NSAMPLE), "lowercase hex digits accepted");
}

static void test_duplicates(void)
{
	static const struct ent dup[] = {
		{ "f", 0100644, "first", 0, 0 },
		{ "f", 0100644, "second", 0, 0 },
		{ "g", 0100644, "file", 0, 0 },
		{ "g", 0040755, NULL, 0, 0 },
	};
	struct initrd_file f;

	w_archive(&A, dup, 4);
	ok(find(&A, "f", &f, "second"), "duplicate path: last entry wins");
	ok(!find(&A, "g", &f, NULL), "duplicate path: later directory hides the file");
}

static void test_empty_and_truncated(void)
{
	struct result r = parse(NULL, 0, NULL, 0);
	struct initrd_file f;

	ok(r.done && r.error && r.n == 0, "0-byte archive is malformed (no trailer)");
	ok(!initrd_find(NULL, 0, "x", &f), "find in 0-byte archive fails");

	build_sample(&A);
	r = parse(A.b, 50, NULL, 0);
	ok(r.error && r.n == 0, "truncated header");
	r = parse(A.b, HDR_LEN + 2, NULL, 0);
	ok(r.error && r.n == 0, "truncated name");
	/* bin/init: 17 data bytes, then 3 padding bytes, then hdr[2]. */
	r = parse(A.b, A.hdr[2] - 4, sample, NSAMPLE);
	ok(r.error && r.n == 1 && r.all_match, "truncated data");
	r = parse(A.b, A.hdr[2] - 3, sample, NSAMPLE);
	ok(r.error && r.n == 2 && r.all_match,
	   "data complete but padding cut: entry returned, then error");

	/* Drop the trailer: all entries come back, then the error. */
	A.len = A.hdr[NSAMPLE];
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == NSAMPLE && r.all_match, "missing trailer is an error");
	ok(!find(&A, "bin/init", &f, NULL), "find fails when the trailer is missing");
}

static void test_every_prefix(void)
{
	bool good = true;
	size_t bad_len = 0;

	build_sample(&A);
	for (size_t n = 0; n < A.len && good; n++) {
		struct result r = parse(A.b, n, sample, NSAMPLE);
		struct initrd_file f;
		uint8_t *buf = n ? xmalloc(n) : NULL;

		if (n)
			memcpy(buf, A.b, n);
		good = r.done && r.error && r.all_match && r.in_bounds &&
		       r.n <= NSAMPLE && !initrd_find(buf, n, "abcd", &f);
		free(buf);
		bad_len = n;
	}
	ok(good, "every proper prefix (0..%zu bytes) fails cleanly%s", A.len - 1,
	   good ? "" : " -- failed at a length, see below");
	if (!good)
		tap_diag("first bad prefix length %zu", bad_len);
	ok(parses_ok(&A, sample, NSAMPLE), "full length parses");
}

static void test_bad_headers(void)
{
	static const char *const magics[] = { "070702", "070707", "070700", "170701" };
	static const char *const bad_hex[] = {
		"0000000g", " 0000001", "0x000001", "-0000001", "0000000\0",
	};
	bool all = true;

	for (unsigned i = 0; i < 4; i++) {
		build_sample(&A);
		memcpy(A.b + A.hdr[1], magics[i], 6);
		struct result r = parse(A.b, A.len, sample, NSAMPLE);
		all &= r.error && r.n == 1 && r.all_match;
	}
	ok(all, "bad magic (070702 crc, 070707 odc, ...) rejected");

	all = true;
	for (unsigned fld = 0; fld < 13; fld++)
		for (unsigned i = 0; i < 5; i++) {
			build_sample(&A);
			set_field(&A, 0, fld, bad_hex[i]);
			all &= parse_fails(&A);
		}
	ok(all, "a non-hex character in any of the 13 fields is rejected");
}

static void test_bad_names(void)
{
	struct result r;

	build_sample(&A);
	set_field_u32(&A, 0, F_NAMESIZE, 0);
	ok(parse_fails(&A), "namesize 0 rejected");

	/* namesize 1 is the empty name "": an entry with no path. */
	A.len = 0, A.n = 0;
	w_entry(&A, 1, 0100644, 0, 0, 1, "", "", 0);
	w_entry(&A, 0, 0, 0, 0, 1, "TRAILER!!!", "", 0);
	ok(parse_fails(&A), "empty name (namesize 1) rejected");

	/* namesize one short: the last counted byte is not the NUL. */
	build_sample(&A);
	set_field_u32(&A, 1, F_NAMESIZE, 8);
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == 1, "name without its NUL rejected");

	build_sample(&A);
	A.b[A.hdr[1] + HDR_LEN + 3] = 0; /* "bin\0init" */
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == 1, "name with an embedded NUL rejected");

	build_sample(&A);
	A.b[A.hdr[1] + HDR_LEN + 7] = 0; /* "bin/ini\0\0" */
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == 1, "name with a NUL just before its terminator rejected");

	build_sample(&A);
	set_field_u32(&A, 0, F_NAMESIZE, 0xFFFFFFFFu);
	ok(parse_fails(&A), "namesize 0xFFFFFFFF rejected");

	build_sample(&A);
	set_field_u32(&A, NSAMPLE - 1, F_NAMESIZE,
		      (uint32_t)(A.len - A.hdr[NSAMPLE - 1] - HDR_LEN + 1));
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == NSAMPLE - 1, "namesize one past the end rejected");
}

static void test_bad_sizes(void)
{
	struct result r;
	uint32_t room;

	build_sample(&A);
	set_field_u32(&A, 1, F_FILESIZE, 0xFFFFFFFFu);
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == 1, "filesize 0xFFFFFFFF rejected");

	/* bin/init's data starts at hdr + 110 + 9 + 1 pad = hdr + 120. */
	build_sample(&A);
	room = (uint32_t)(A.len - A.hdr[1] - 120);
	set_field_u32(&A, 1, F_FILESIZE, room + 1);
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == 1, "filesize one byte past the end rejected");

	/* Exactly to the end is in bounds, but then the trailer is gone. */
	set_field_u32(&A, 1, F_FILESIZE, room);
	r = parse(A.b, A.len, NULL, 0);
	ok(r.error && r.n == 2 && r.in_bounds, "filesize to the very end: entry, then missing trailer");

	/* The trailer itself must be a complete entry. */
	build_sample(&A);
	set_field_u32(&A, NSAMPLE, F_FILESIZE, 1);
	r = parse(A.b, A.len, sample, NSAMPLE);
	ok(r.error && r.n == NSAMPLE, "trailer with data past the end rejected");
}

/* Single-byte corruption anywhere: any outcome, but never out of bounds
 * (a corrupted trailer name turns the trailer into an 8th entry). */
static void test_corruption(void)
{
	static const uint8_t vals[] = { 0, '0', '7', '9', 'F', 'f', 0xff, '!' };
	bool good = true;

	build_sample(&B);
	for (size_t i = 0; i < B.len && good; i++)
		for (unsigned v = 0; v < sizeof(vals); v++) {
			A = B;
			A.b[i] = vals[v];
			struct result r = parse(A.b, A.len, NULL, 0);
			if (!(r.done && r.in_bounds && r.n <= NSAMPLE + 1)) {
				tap_diag("byte %zu = %#x: done %d in_bounds %d n %u",
				         i, vals[v], r.done, r.in_bounds, r.n);
				good = false;
			}
		}
	ok(good, "single-byte corruptions parse without running out of bounds");
}

/* ------------------------------------------------------- real mkinitrd.py */

static char tmpdir[1024];

static bool write_file(const char *rel, const char *data, mode_t mode)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tree/%s", tmpdir, rel);
	f = fopen(path, "wb");
	if (!f)
		return false;
	fwrite(data, 1, strlen(data), f);
	fclose(f);
	return chmod(path, mode) == 0;
}

static bool make_dir(const char *rel, mode_t mode)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/tree%s%s", tmpdir, *rel ? "/" : "", rel);
	return mkdir(path, 0700) == 0 && chmod(path, mode) == 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Sorted, each directory before its contents; the symlink is skipped. */
static const struct ent tree[] = {
	{ "a", 0100640, "top-level file\n", 0, 0 },
	{ "bin", 0040755, NULL, 0, 0 },
	{ "bin/init", 0100755, "\x7f" "ELF pretend\n", 0, 0 },
	{ "etc", 0040750, NULL, 0, 0 },
	{ "etc/empty", 0100600, "", 0, 0 },
	{ "etc/motd", 0100644, "welcome to arbor", 0, 0 },
	{ "zz", 0040711, NULL, 0, 0 },
	{ "zz/a", 0040755, NULL, 0, 0 },
	{ "zz/a/b", 0100400, "xyz", 0, 0 },
};
#define NTREE ((unsigned)(sizeof(tree) / sizeof(tree[0])))

static bool make_tree(void)
{
	char path[4096];
	bool good = make_dir("", 0755);

	/* Files in reverse order, so sorting is mkinitrd's doing; directory
	 * modes last, once their contents exist. */
	for (unsigned i = 0; i < NTREE && good; i++)
		if (!tree[i].data)
			good = make_dir(tree[i].name, 0755);
	for (int i = (int)NTREE - 1; i >= 0 && good; i--)
		if (tree[i].data)
			good = write_file(tree[i].name, tree[i].data, tree[i].mode & 07777);
	for (unsigned i = 0; i < NTREE && good; i++)
		if (!tree[i].data) {
			snprintf(path, sizeof(path), "%s/tree/%s", tmpdir, tree[i].name);
			good = chmod(path, tree[i].mode & 07777) == 0;
		}
	snprintf(path, sizeof(path), "%s/tree/etc/link", tmpdir);
	return good && symlink("motd", path) == 0;
}

static bool set_mtime(const char *rel)
{
	char path[4096];
	struct utimbuf t = { .actime = 981158400, .modtime = 981158400 };

	snprintf(path, sizeof(path), "%s/tree/%s", tmpdir, rel);
	return utime(path, &t) == 0;
}

static bool run_mkinitrd(const char *out)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "python3 tools/mkinitrd.py '%s/%s' '%s/tree' 2>/dev/null",
		 tmpdir, out, tmpdir);
	return system(cmd) == 0;
}

static void test_mkinitrd(const char *parent)
{
	char path[4096];
	uint8_t *real, *again;
	size_t len, len2;
	struct result r;
	struct initrd_file f;

	int n = snprintf(tmpdir, sizeof(tmpdir), "%s/arbor-initrd-XXXXXX", parent);

	if (!ok(n > 0 && (size_t)n < sizeof(tmpdir) && mkdtemp(tmpdir) != NULL,
		"create temp dir under %s", parent))
		return;
	if (!ok(access("tools/mkinitrd.py", R_OK) == 0,
		"tools/mkinitrd.py found (run from the repo root)"))
		goto out;
	ok(make_tree(), "build sample tree");
	if (!ok(run_mkinitrd("out.cpio"), "mkinitrd.py succeeds"))
		goto out;
	snprintf(path, sizeof(path), "%s/out.cpio", tmpdir);
	real = slurp(path, &len);
	if (!ok(real != NULL, "read mkinitrd output"))
		goto out;

	r = parse(real, len, tree, NTREE);
	ok(r.done && !r.error && r.n == NTREE && r.all_match && r.in_bounds,
	   "mkinitrd archive: sorted, dirs first, modes, contents, no symlink");
	w_archive(&A, tree, NTREE);
	ok(len == A.len && memcmp(real, A.b, len) == 0,
	   "mkinitrd output equals the C writer's byte for byte (ino, mtime 0, ids 0)");
	ok(initrd_find(real, len, "zz/a/b", &f) && f.size == 3 &&
	   memcmp(f.data, "xyz", 3) == 0 && f.mode == 0100400,
	   "find a nested file in the mkinitrd archive");

	/* Reproducible: new mtimes, same bytes. */
	ok(set_mtime("a") && set_mtime("bin") && run_mkinitrd("again.cpio"),
	   "mkinitrd.py reruns after mtime changes");
	snprintf(path, sizeof(path), "%s/again.cpio", tmpdir);
	again = slurp(path, &len2);
	ok(again && len2 == len && memcmp(again, real, len) == 0,
	   "output is reproducible across mtime changes");
	free(again);
	free(real);
out:
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpdir);
	if (system(path) != 0)
		tap_diag("could not remove %s", tmpdir);
}

int main(int argc, char **argv)
{
	test_valid();
	test_duplicates();
	test_empty_and_truncated();
	test_every_prefix();
	test_bad_headers();
	test_bad_names();
	test_bad_sizes();
	test_corruption();
	test_mkinitrd(argc > 1 ? argv[1] : "/tmp");
	return tap_done();
}
