/* File helpers shared by the tools (tool.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"

char *tool_join(const char *dir, const char *name, size_t nlen)
{
	size_t a = strlen(dir);
	char *p = malloc(a + nlen + 2);
	if (!p) {
		fprintf(stderr, "%s\n", strerror(ENOMEM));
		exit(1);
	}
	memcpy(p, dir, a);
	if (a == 0 || dir[a - 1] != '/')
		p[a++] = '/';
	memcpy(p + a, name, nlen);
	p[a + nlen] = '\0';
	return p;
}

int tool_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

char *tool_read_all(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *p = malloc(cap);
	if (!p)
		return NULL;
	for (;;) {
		if (n == cap) {
			char *q = realloc(p, cap *= 2);
			if (!q) {
				free(p);
				errno = ENOMEM;
				return NULL;
			}
			p = q;
		}
		ssize_t r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(p);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return p;
}

int tool_for_each_entry(const char *tool, const char *path, int silent, int (*fn)(const char *path))
{
	int status = 0;
	DIR *d = opendir(path);
	if (!d) {
		if (!silent)
			fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
		return 1;
	}
	struct dirent *de;
	while ((errno = 0, de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
			continue;
		char *p = tool_join(path, nm, strlen(nm));
		status |= fn(p);
		free(p);
	}
	if (errno) {
		if (!silent)
			fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
		status = 1;
	}
	closedir(d);
	return status;
}
