/* Path arithmetic for the mount table. Pure logic (host-tested in
 * tests/host/test_vfs_path.c). */
#include <string.h>
#include "vfs.h"

size_t vfs_normalize(const char *in, char *out)
{
	size_t n = 0;
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
	return plen >= tlen && (p[tlen] == '\0' || p[tlen] == '/') && memcmp(p, t, tlen) == 0;
}
