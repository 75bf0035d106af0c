/* File helpers shared by the tools (tool.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

ssize_t tool_read(int fd, void *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);
		if (r >= 0 || errno != EINTR)
			return r;
	}
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
		ssize_t r = tool_read(fd, p + n, cap - n);
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

int tool_copy_fd(int in, int out)
{
	static char buf[65536];
	for (;;) {
		ssize_t r = tool_read(in, buf, sizeof(buf));
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		if (tool_write_all(out, buf, (size_t)r) < 0)
			return -2;
	}
}

int tool_flush(const char *tool, int status, int fail)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", tool, strerror(errno));
		return fail;
	}
	return status;
}

const char *tool_base_name(const char *path, size_t *len)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && path[b - 1] != '/')
		b--;
	*len = n - b;
	return path + b;
}

int tool_to_dest(const char *tool, char **ops, int nops, int (*fn)(const char *src, const char *dst))
{
	if (nops < 2) {
		if (nops)
			fprintf(stderr, "%s: missing destination file operand after '%s'\n", tool, ops[0]);
		else
			fprintf(stderr, "%s: missing file operand\n", tool);
		return 1;
	}
	const char *dest = ops[nops - 1];
	struct stat st;
	int dest_dir = stat(dest, &st) == 0 && S_ISDIR(st.st_mode);
	if (nops > 2 && !dest_dir) {
		fprintf(stderr, "%s: target '%s': %s\n", tool, dest, strerror(ENOTDIR));
		return 1;
	}
	int status = 0;
	for (int i = 0; i < nops - 1; i++) {
		if (!dest_dir) {
			status |= fn(ops[i], dest);
			continue;
		}
		size_t blen;
		const char *b = tool_base_name(ops[i], &blen);
		char *target = tool_join(dest, b, blen);
		status |= fn(ops[i], target);
		free(target);
	}
	return status;
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
