/* touch [-acm] FILE...: set a file's access and modification times to
   now, creating it (empty, mode 0666 less the umask) if it does not exist.
     -a  only the access time      -m  only the modification time
     -c  do not create missing files (quietly)
   "touch: cannot touch 'F': ..." and status 1 when it fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_access, opt_modify, opt_no_create;

static int touch(const char *path)
{
	struct timespec t[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	if (opt_access && !opt_modify)
		t[1].tv_nsec = UTIME_OMIT;
	if (opt_modify && !opt_access)
		t[0].tv_nsec = UTIME_OMIT;
	if (utimensat(AT_FDCWD, path, t, 0) == 0)
		return 0;
	if (errno == ENOENT && opt_no_create)
		return 0;
	if (errno == ENOENT) {
		int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK, 0666);
		if (fd >= 0) {
			close(fd); /* a new file has its times set to now */
			return 0;
		}
	}
	fprintf(stderr, "touch: cannot touch '%s': %s\n", path, strerror(errno));
	return 1;
}

static int touch_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'a': opt_access = 1; break;
	case 'm': opt_modify = 1; break;
	case 'c': opt_no_create = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "touch", .usage = "touch [-acm] FILE...", .flag = touch_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "touch: missing file operand\n");
		return 1;
	}
	for (int i = 0; i < nops; i++)
		status |= touch(ops[i]);
	return status;
}
