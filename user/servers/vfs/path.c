/* Path arithmetic for the mount table. Pure logic (host-tested in
 * tests/host/test_vfs_path.c). */
#include <string.h>
#include "vfs.h"

void vfs_normalize(const char *in, char *out)
{
	size_t n = 0;
	while (*in) {
		while (*in == '/')
			in++;
		size_t len = strcspn(in, "/");
		if (len == 0 || (len == 1 && in[0] == '.')) {
			in += len;
			continue;
		}
		if (len == 2 && in[0] == '.' && in[1] == '.') {
			while (n > 0 && out[--n] != '/')
				;
		} else if (n + 1 + len < VFS_PATH_MAX) {
			out[n++] = '/';
			memcpy(out + n, in, len);
			n += len;
		}
		in += len;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
}

bool vfs_path_under(const char *p, const char *t, size_t tlen)
{
	if (tlen == 1)
		return true; /* "/" */
	return strncmp(p, t, tlen) == 0 && (p[tlen] == '\0' || p[tlen] == '/');
}
