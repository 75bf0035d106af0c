/* yes [STRING]...: write the arguments separated by spaces (or "y"), then a
   newline, again and again until writing fails. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = 0;
	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (argc < 2)
		len = 2;
	/* One copy of the line, repeated to fill a buffer for fewer writes. */
	size_t cap = len > 4096 ? len : 4096 / len * len;
	char *buf = malloc(cap);
	if (!buf) {
		fprintf(stderr, "yes: %s\n", strerror(errno));
		return 1;
	}
	if (argc < 2) {
		memcpy(buf, "y\n", 2);
	} else {
		size_t off = 0;
		for (int i = 1; i < argc; i++) {
			size_t n = strlen(argv[i]);
			memcpy(buf + off, argv[i], n);
			off += n;
			buf[off++] = i == argc - 1 ? '\n' : ' ';
		}
	}
	for (size_t off = len; off + len <= cap; off += len)
		memcpy(buf + off, buf, len);
	for (;;) {
		size_t done = 0;
		while (done < cap) {
			ssize_t w = write(STDOUT_FILENO, buf + done, cap - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				if (errno != EPIPE)
					fprintf(stderr, "yes: standard output: %s\n", strerror(errno));
				return 1;
			}
			done += (size_t)w;
		}
	}
}
