/* Host unit test for user/libc/vfs_path.c: lexical path normalization,
 * the mount-prefix rule and what a read-only mount refuses. Prints TAP. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "abi/fs.h"

#include "../../user/servers/vfs/vfs.h"
#include "tap.h"

static char out[VFS_PATH_MAX];

static void norm(const char *in, const char *want)
{
	vfs_normalize(in, out);
	ok(strcmp(out, want) == 0, "normalize '%s' -> '%s' (got '%s')", in, want, out);
}

static void prefix(const char *in, const char *want, bool dotdot)
{
	bool dd;
	vfs_lexical_prefix(in, out, &dd);
	ok(strcmp(out, want) == 0 && dd == dotdot, "lexical prefix of '%s' -> '%s'%s (got '%s')", in, want,
	   dotdot ? ", stopped at .." : "", out);
}

static void join(const char *base, const char *rest, const char *want)
{
	long n = vfs_join(base, rest, out);
	ok(n == (long)strlen(want) && strcmp(out, want) == 0, "join '%s' + '%s' -> '%s' (got '%s')", base, rest,
	   want, out);
}

static void inner(const char *in, const char *want, long rest)
{
	size_t r = 0;
	long n = vfs_inner_normalize(in, out, &r);
	if (rest >= 0)
		ok(n == -1 && (long)r == rest, "inner '%s' climbs out; the rest at %ld (got %ld, %zu)", in, rest, n, r);
	else
		ok(n >= 0 && strcmp(out, want) == 0, "inner '%s' -> '%s' (got '%s')", in, want, out);
}

static void normal(const char *in, bool want)
{
	size_t len = 0;
	bool is = vfs_path_normal(in, &len);
	ok(is == want && (!is || len == strlen(in)), "'%s' is%s normal", in, want ? "" : " not");
}

/* vfs_path_normal, which lets the library use a path as its own lexical
 * prefix and inner path (no copy): every way a path can be other. */
static void normal_paths(void)
{
	normal("/", true);
	normal("/tmp", true);
	normal("/tmp/fileops/newdir", true);
	normal("/a.b/c-d/e f/.x/..y/x./x../\xc3\xa9t\xc3\xa9", true);
	normal("/...", true);
	normal("", false);
	normal("tmp/x", false);
	normal("//tmp", false);
	normal("/tmp//x", false);
	normal("/tmp/", false);
	normal("/tmp/.", false);
	normal("/tmp/./x", false);
	normal("/tmp/..", false);
	normal("/tmp/../x", false);
	normal("/.", false);
	normal("/..", false);
	static char longp[VFS_PATH_MAX + 2];
	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[VFS_PATH_MAX] = '\0'; /* VFS_PATH_MAX bytes: too long */
	normal(longp, false);
	longp[VFS_PATH_MAX - 1] = '\0';
	normal(longp, true);
}

static void walk_arithmetic(void)
{
	/* the mount is chosen by what comes before the first ".." */
	prefix("/", "/", false);
	prefix("/proc/self/status", "/proc/self/status", false);
	prefix("//proc/./self//", "/proc/self", false);
	prefix("/tmp/l/../proc/x", "/tmp/l", true);
	prefix("/..", "/", true);
	ok(vfs_prefix_end("/proc/self", 5) == 5, "prefix end of /proc in /proc/self: 5");
	ok(vfs_prefix_end("//./proc/", 5) == 8, "prefix end of /proc in //./proc/: 8");
	ok(vfs_prefix_end("/a/b", 1) == 0, "the root's inner path is the whole path");
	/* a physical base: leading "." and ".." of the rest resolve against it */
	join("/tmp/deep/x", "/../marker", "/tmp/deep/marker");
	join("/tmp", "/../../../proc/self", "/proc/self");
	join("/", "/proc/self/..", "/proc/self/..");
	join("/a/b", "/./c/../d", "/a/b/c/../d");
	join("/a/b", "..", "/a");
	join("/a", "/../", "/");
	join("/", "", "/");
	join("/a", "/x/", "/a/x/");
	/* file systems that do not walk: resolved here, or handed up */
	inner("/self/../1/stat", "/1/stat", -1);
	inner("/a/./b/", "/a/b/", -1);
	inner("/", "/", -1);
	inner("/..", NULL, 3);
	inner("/a/../../tmp/x", NULL, 8);
	strcpy(out, "/a/b");
	ok(vfs_parent(out, 4) == 2 && !strcmp(out, "/a"), "parent of /a/b is /a");
	strcpy(out, "/a");
	ok(vfs_parent(out, 2) == 1 && !strcmp(out, "/"), "parent of /a is /");
	strcpy(out, "/");
	ok(vfs_parent(out, 1) == 1 && !strcmp(out, "/"), "parent of / is /");
}

int main(void)
{
	walk_arithmetic();
	normal_paths();
	norm("/", "/");
	norm("//", "/");
	norm("/a/b", "/a/b");
	norm("/a//b/", "/a/b");
	norm("/a/./b/.", "/a/b");
	norm("/a/../b", "/b");
	norm("/..", "/");
	norm("/../../x", "/x");
	norm("/a/b/../../..", "/");
	norm("/.../x", "/.../x");
	norm("/a/..b/c", "/a/..b/c");
	norm("/proc/self/../1", "/proc/1");

	/* A path longer than VFS_PATH_MAX is cut at a component, never overrun. */
	static char big[3 * VFS_PATH_MAX];
	for (size_t i = 0; i + 2 < sizeof(big); i += 2)
		big[i] = '/', big[i + 1] = 'x';
	vfs_normalize(big, out);
	ok(strlen(out) < VFS_PATH_MAX && out[0] == '/', "an overlong path stays within VFS_PATH_MAX");

	/* "." and ".." components: walked by the VFS on a mount that does not walk */
	ok(vfs_has_dot_component("/null/../null") && vfs_has_dot_component("/self/cgroup/.") &&
	   vfs_has_dot_component("..") && vfs_has_dot_component("/a//./"),
	   "a \".\" or \"..\" component is found anywhere");
	ok(!vfs_has_dot_component("/a/..b/.c/...") && !vfs_has_dot_component("/") &&
	   !vfs_has_dot_component("/a/b/") && !vfs_has_dot_component(""),
	   "names that only start with dots are not \".\" or \"..\"");

	ok(vfs_path_under("/anything", 9, "/", 1), "everything lies under /");
	ok(vfs_path_under("/dev", 4, "/dev", 4), "a mount point lies under itself");
	ok(vfs_path_under("/dev/null", 9, "/dev", 4), "/dev/null lies under /dev");
	ok(!vfs_path_under("/devices", 8, "/dev", 4), "/devices does not lie under /dev");
	ok(!vfs_path_under("/de", 3, "/dev", 4), "/de does not lie under /dev");

	/* What a read-only mount refuses (EROFS), for the VFS and direct calls */
	ok(!vfs_changes_fs(VFS_OPEN, O_RDONLY, true) && vfs_changes_fs(VFS_OPEN, O_WRONLY, false) &&
	   vfs_changes_fs(VFS_OPEN, O_RDONLY | O_TRUNC, false), "open changes the file system to write or truncate");
	ok(vfs_changes_fs(VFS_OPEN, O_RDONLY | O_CREAT, true) && !vfs_changes_fs(VFS_OPEN, O_RDONLY | O_CREAT, false),
	   "O_CREAT counts for a direct call, not for the VFS, which walks first");
	ok(vfs_changes_fs(VFS_ACCESS, W_OK, true) && !vfs_changes_fs(VFS_ACCESS, R_OK | X_OK, true) &&
	   !vfs_changes_fs(VFS_STAT, 0, true) && vfs_changes_fs(VFS_MKDIR, 0755, false),
	   "access W_OK and mkdir change it; stat and access R_OK do not");
	return tap_done();
}
