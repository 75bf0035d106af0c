/* Path arithmetic for the mount table. Pure logic (host-tested in
 * tests/files/test_vfs_path.c). */
#include <string.h>
#include "vfs.h"

/* Whether path is already normal ("/" or "/a/b": no empty, "." or ".."
 * component, no trailing slash); its length in *len if so. One pass:
 * most paths are, and then a copy is all normalizing takes. */
static bool vfs_is_normal(const char *path, size_t *len)
{
	const char *p = path;
	if (*p != '/')
		return false;
	if (!p[1]) {
		*len = 1;
		return true;
	}
	while (*p == '/') {
		const char *c = ++p;
		while (*p && *p != '/')
			p++;
		size_t n = (size_t)(p - c);
		if (n == 0 || (c[0] == '.' && (n == 1 || (n == 2 && c[1] == '.'))))
			return false;
	}
	*len = (size_t)(p - path);
	return *len < VFS_PATH_MAX;
}

size_t vfs_normalize(const char *in, char *out)
{
	size_t n = 0, len;
	if (vfs_is_normal(in, &len)) {
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

bool vfs_path_under(const char *p, size_t plen, const char *t, size_t tlen)
{
	if (tlen == 1)
		return true; /* "/" */
	/* the boundary first: it rules out most mounts without a compare */
	if (plen < tlen || (p[tlen] != '\0' && p[tlen] != '/'))
		return false;
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
