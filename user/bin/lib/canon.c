/* Canonical paths for readlink -f and realpath. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tool.h"

static int canonical(const char *path, int all_exist, char *out, int depth)
{
	char dir[PATH_MAX];
	if (realpath(path, out))
		return 0;
	struct stat st;
	if (all_exist || errno != ENOENT)
		return -1;
	if (lstat(path, &st) == 0) { /* a dangling link: where its text leads */
		char target[PATH_MAX];
		ssize_t t = S_ISLNK(st.st_mode) ? readlink(path, target, sizeof(target) - 1) : -1;
		if (t < 0 || depth >= 40) {
			errno = t < 0 ? ENOENT : ELOOP;
			return -1;
		}
		target[t] = '\0';
		if (target[0] != '/') { /* relative to the link's directory */
			size_t blen;
			const char *b = tool_base_name(path, &blen);
			size_t dlen = (size_t)(b - path);
			if (dlen + (size_t)t >= sizeof(dir)) {
				errno = ENAMETOOLONG;
				return -1;
			}
			memcpy(dir, path, dlen);
			memcpy(dir + dlen, target, (size_t)t + 1);
			return canonical(dir, all_exist, out, depth + 1);
		}
		return canonical(target, all_exist, out, depth + 1);
	}
	size_t blen, n = strlen(path);
	const char *b = tool_base_name(path, &blen);
	if (blen == 0 || (blen == 1 && b[0] == '.') || (blen == 2 && b[0] == '.' && b[1] == '.'))
		return -1;
	size_t dlen = (size_t)(b - path);
	if (dlen >= sizeof(dir) || n >= PATH_MAX)
		return -1;
	memcpy(dir, path, dlen);
	dir[dlen] = '\0';
	if (!realpath(dlen ? dir : ".", out))
		return -1;
	size_t o = strlen(out);
	if (o + 1 + blen >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (o > 1)
		out[o++] = '/';
	memcpy(out + o, b, blen);
	out[o + blen] = '\0';
	return 0;
}


int tool_canonical(const char *path, int all_exist, char *out)
{
	return canonical(path, all_exist, out, 0);
}
