/* Host unit test for user/servers/vfs/path.c: lexical path normalization
 * and the mount-prefix rule. Prints TAP. */
#include <string.h>

#include "../../user/servers/vfs/vfs.h"
#include "tap.h"

static char out[VFS_PATH_MAX];

static void norm(const char *in, const char *want)
{
	vfs_normalize(in, out);
	ok(strcmp(out, want) == 0, "normalize '%s' -> '%s' (got '%s')", in, want, out);
}

int main(void)
{
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

	ok(vfs_path_under("/anything", 9, "/", 1), "everything lies under /");
	ok(vfs_path_under("/dev", 4, "/dev", 4), "a mount point lies under itself");
	ok(vfs_path_under("/dev/null", 9, "/dev", 4), "/dev/null lies under /dev");
	ok(!vfs_path_under("/devices", 8, "/dev", 4), "/devices does not lie under /dev");
	ok(!vfs_path_under("/de", 3, "/dev", 4), "/de does not lie under /dev");
	return tap_done();
}
