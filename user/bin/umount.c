/* umount TARGET...: unmount the file systems mounted on each TARGET. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	int status = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: umount TARGET...\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (umount(argv[i]) != 0) {
			fprintf(stderr, "umount: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
}
