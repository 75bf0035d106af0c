/* The path arithmetic of the walk (docs/vfs.md, "Links"), shared by the
 * VFS server and the C library, which resolves the mount of a path itself
 * and calls the file system directly (docs/vfs.md, "Direct calls"). Pure
 * logic: user/libc/vfs_path.c, host-tested in tests/files/test_vfs_path.c. */
#ifndef ARBOR_VFS_PATH_H
#define ARBOR_VFS_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define VFS_PATH_MAX 4096

/* Lexically resolves ".", ".." and repeated slashes of the absolute path
 * in into out (at least VFS_PATH_MAX bytes): "/" or "/a/b". */
size_t vfs_normalize(const char *in, char *out);
/* Whether path is already normal ("/" or "/a/b": absolute, no empty,
 * "." or ".." component, no trailing slash, shorter than VFS_PATH_MAX);
 * its length in *len if so. Such a path is its own lexical prefix. */
bool vfs_path_normal(const char *path, size_t *len);
/* Whether normalized path p (of length plen) is mount target t (of
 * length tlen) or lies below it. */
bool vfs_path_under(const char *p, size_t plen, const char *t, size_t tlen);
/* Whether the first tlen bytes of p are t's: vfs_path_under's compare,
 * inline for a caller that tested the boundary (p[tlen] is '\0' or '/')
 * itself (the library's route search: no call for the mount it finds). */
static inline bool vfs_path_starts(const char *p, const char *t, size_t tlen)
{
	size_t i = 0;
	for (; i + 8 <= tlen; i += 8) { /* 8 bytes at a time: targets are short */
		uint64_t a, b;
		memcpy(&a, p + i, 8);
		memcpy(&b, t + i, 8);
		if (a != b)
			return false;
	}
	for (; i < tlen; i++)
		if (p[i] != t[i])
			return false;
	return true;
}

/* The walk (docs/vfs.md, "Links"). Paths are absolute, VFS_PATH_MAX at
 * most.
 *
 * The components of p before its first ".." (none of "" and ".") as a
 * normal path into out; *dotdot says whether a ".." stopped it. Returns
 * its length. The mount that holds it is the one the walk starts in: a
 * ".." must be walked (a symlink may precede it), so nothing past one
 * can choose a mount. */
size_t vfs_lexical_prefix(const char *p, char *out, bool *dotdot);
/* The offset in p just past the components that make up the first tlen
 * bytes of its lexical prefix: where the path inside a mount of target
 * length tlen starts (0 for "/"). */
size_t vfs_prefix_end(const char *p, size_t tlen);
/* For file systems that do not walk ".." (FS_MNT_WALKS unset): the path
 * inside the mount in with "." and ".." resolved into out (a trailing
 * slash kept); its length, or -1 if a ".." climbs above the mount's root
 * (*rest: the offset in `in` just past that ".."), -2 if too long. */
long vfs_inner_normalize(const char *in, char *out, size_t *rest);
/* Whether path p has a "." or ".." component. A file system that does
 * not walk gets its paths normalized, which would resolve "a/.." without
 * the walk Linux makes (a must be a directory the caller may search):
 * such paths go to the VFS, which checks that walk first. */
bool vfs_has_dot_component(const char *p);
/* out = base (a physical directory: normal, no links) joined with rest,
 * whose leading "", "." and ".." components are resolved against base
 * (safe: base has no links) and the rest of which is kept as written.
 * out may not overlap rest. Its length, or -1 if too long. */
long vfs_join(const char *base, const char *rest, char *out);
/* Whether path request label (abi/fs.h; w0 its first word: open's flags,
 * access's mode) would change the file system, so that a read-only mount
 * refuses it with EROFS. creat: O_CREAT counts (a direct call, which cannot
 * know whether the file exists; the VFS walks first and lets an open with
 * O_CREAT of an existing file through). */
bool vfs_changes_fs(uint64_t label, uint64_t w0, bool creat);
/* Cuts normal path p (of length len) to its parent ("/" stays); the new
 * length. */
size_t vfs_parent(char *p, size_t len);

/* The path a file system's hand-back (FS_HANDBACK) leads to, into out
 * (VFS_PATH_MAX): the walk of inner (the path inside the mount whose
 * target is target) stopped at the component at off, of length clen,
 * which is a symlink whose text is link (linklen bytes) or, with link
 * NULL, a "..". It is the directory reached (target + inner up to the
 * component: physical, the walk followed no link to get there), then the
 * link's text (from "/" if absolute) or that directory's parent, then the
 * rest of inner. scratch: 2 * VFS_PATH_MAX bytes, overlapping none of the
 * others (inner may lie in out). The length, or -ENAMETOOLONG. */
long vfs_handback_path(const char *target, const char *inner, size_t off, size_t clen,
		       const char *link, size_t linklen, char *out, char *scratch);

#endif
