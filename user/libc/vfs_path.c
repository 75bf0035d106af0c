/* Path arithmetic for the mount table and the walk, shared by the VFS and
 * the C library (arbor/vfs_path.h). Pure logic (host-tested in
 * tests/files/test_vfs_path.c). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "../../abi/fs.h"
#include "../include/arbor/vfs_path.h"
#include "../include/arbor/hot.h"

/* One pass: most paths are normal, and then a copy (or nothing) is all
 * normalizing takes. Bytes above '/' (letters, digits) cost one compare:
 * this scan is on every path call's way. */
ARBOR_HOT bool vfs_path_normal(const char *path, size_t *len)
{
	const unsigned char *p = (const unsigned char *)path;
	if (*p != '/')
		return false;
	if (!p[1]) {
		*len = 1;
		return true;
	}
	while (*p == '/') {
		const unsigned char *c = ++p;
		unsigned char ch;
		for (;;) {
			while ((ch = *p) > '/')
				p++;
			if (ch == '/' || ch == '\0')
				break;
			p++; /* '.', '-', ' ' and the like */
		}
		size_t n = (size_t)(p - c);
		if (n == 0 || (c[0] == '.' && (n == 1 || (n == 2 && c[1] == '.'))))
			return false;
	}
	*len = (size_t)(p - (const unsigned char *)path);
	return *len < VFS_PATH_MAX;
}

size_t vfs_normalize(const char *in, char *out)
{
	size_t n = 0, len;
	if (vfs_path_normal(in, &len)) {
		memcpy(out, in, len + 1);
		return len;
	}
	while (*in) {
		while (*in == '/')
			in++;
		const char *c = in;
		while (*in && *in != '/')
			in++;
		size_t len = (size_t)(in - c);
		if (len == 0 || (len == 1 && c[0] == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			while (n > 0 && out[--n] != '/')
				;
		} else if (n + 1 + len < VFS_PATH_MAX) {
			out[n++] = '/';
			for (size_t i = 0; i < len; i++) /* components are short: no call */
				out[n++] = c[i];
		}
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return n;
}

ARBOR_HOT bool vfs_path_under(const char *p, size_t plen, const char *t, size_t tlen)
{
	if (tlen == 1)
		return true; /* "/" */
	/* the boundary first: it rules out most mounts without a compare */
	if (plen < tlen || (p[tlen] != '\0' && p[tlen] != '/'))
		return false;
	return vfs_path_starts(p, t, tlen);
}

/* ---- the walk's path arithmetic (docs/vfs.md, "Links") ---- */

/* The component at p (after any slashes): its start in *c, its length
 * returned; p moves past it. 0 at the end. */
static size_t next_comp(const char **p, const char **c)
{
	while (**p == '/')
		(*p)++;
	*c = *p;
	while (**p && **p != '/')
		(*p)++;
	return (size_t)(*p - *c);
}

static bool is_dot(const char *c, size_t n)
{
	return n == 1 && c[0] == '.';
}

static bool is_dotdot(const char *c, size_t n)
{
	return n == 2 && c[0] == '.' && c[1] == '.';
}

size_t vfs_lexical_prefix(const char *p, char *out, bool *dotdot)
{
	size_t n = 0, len;
	const char *c;
	*dotdot = false;
	if (vfs_path_normal(p, &len)) { /* most paths: one copy */
		memcpy(out, p, len + 1);
		return len;
	}
	while ((len = next_comp(&p, &c))) {
		if (is_dot(c, len))
			continue;
		if (is_dotdot(c, len)) {
			*dotdot = true;
			break;
		}
		if (n + 1 + len >= VFS_PATH_MAX)
			break; /* too long to be a mount's: the file system says ENAMETOOLONG */
		out[n++] = '/';
		memcpy(out + n, c, len);
		n += len;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return n;
}

size_t vfs_prefix_end(const char *p, size_t tlen)
{
	size_t n = 0, len;
	const char *c, *at = p;
	if (tlen <= 1)
		return 0;
	while (n < tlen && (len = next_comp(&at, &c))) {
		if (is_dot(c, len))
			continue;
		n += 1 + len;
	}
	return (size_t)(at - p);
}

long vfs_inner_normalize(const char *in, char *out, size_t *rest)
{
	size_t n = 0, len;
	const char *c, *p = in;
	while ((len = next_comp(&p, &c))) {
		if (is_dot(c, len))
			continue;
		if (is_dotdot(c, len)) {
			if (n == 0) { /* above the mount's root */
				*rest = (size_t)(p - in);
				return -1;
			}
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		if (n + 1 + len + 2 >= VFS_PATH_MAX)
			return -2;
		out[n++] = '/';
		memcpy(out + n, c, len);
		n += len;
	}
	size_t l = strlen(in);
	if (n > 0 && l && in[l - 1] == '/')
		out[n++] = '/'; /* a trailing slash still asks for a directory */
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return (long)n;
}

long vfs_join(const char *base, const char *rest, char *out)
{
	size_t n = strlen(base), len;
	const char *c, *p = rest;
	if (n >= VFS_PATH_MAX)
		return -1;
	memmove(out, base, n + 1);
	if (n == 1)
		n = 0; /* "/" */
	while ((len = next_comp(&p, &c))) {
		if (is_dot(c, len))
			continue;
		if (is_dotdot(c, len)) {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		size_t tail = strlen(c);
		if (n + 1 + tail >= VFS_PATH_MAX)
			return -1;
		out[n++] = '/';
		memmove(out + n, c, tail + 1);
		return (long)(n + tail);
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return (long)n;
}

bool vfs_has_dot_component(const char *p)
{
	while (*p) {
		while (*p == '/')
			p++;
		const char *c = p;
		while (*p && *p != '/')
			p++;
		size_t n = (size_t)(p - c);
		if (n && c[0] == '.' && (n == 1 || (n == 2 && c[1] == '.')))
			return true;
	}
	return false;
}

size_t vfs_parent(char *p, size_t len)
{
	while (len > 1 && p[len - 1] != '/')
		len--;
	if (len > 1)
		len--; /* the slash */
	p[len] = '\0';
	return len;
}

long vfs_handback_path(const char *target, const char *inner, size_t off, size_t clen,
		       const char *link, size_t linklen, char *out, char *scratch)
{
	char *base = scratch, *rest = scratch + VFS_PATH_MAX;
	const char *tail = inner + off + clen;
	size_t tl = strlen(tail), t = strlen(target);
	if (t == 1)
		t = 0; /* "/" + "/a" */
	if (t + off >= VFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (link && link[0] == '/') {
		strcpy(base, "/");
	} else { /* the physical directory the component lies in */
		memcpy(rest, target, t);
		memcpy(rest + t, inner, off);
		rest[t + off] = '\0';
		if (t + off == 0)
			strcpy(rest, "/");
		vfs_normalize(rest, base);
	}
	if (!link) { /* "..": on from the directory's parent */
		vfs_parent(base, strlen(base));
		if (tl + 1 >= VFS_PATH_MAX)
			return -ENAMETOOLONG;
		memmove(rest, tail, tl + 1);
	} else {
		if (1 + linklen + tl >= VFS_PATH_MAX)
			return -ENAMETOOLONG;
		memmove(rest + 1 + linklen, tail, tl + 1); /* tail may lie in out, never in scratch */
		rest[0] = '/';
		memcpy(rest + 1, link, linklen);
	}
	long n = vfs_join(base, rest, out);
	return n < 0 ? -ENAMETOOLONG : n;
}

bool vfs_changes_fs(uint64_t label, uint64_t w0, bool creat)
{
	switch (label) {
	case VFS_OPEN:
		return ((int)w0 & O_ACCMODE) != O_RDONLY || (w0 & (O_TRUNC | (creat ? O_CREAT : 0)));
	case VFS_ACCESS:
		return w0 & W_OK;
	case VFS_STAT: case VFS_READLINK: case VFS_REALPATH: case VFS_STATFS:
		return false;
	default:
		return true;
	}
}
