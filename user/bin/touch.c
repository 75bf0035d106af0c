/* touch [-acmh] [-d DATE | -r FILE | -t STAMP] FILE...: set a file's
   access and modification times (to now unless told), creating it (empty,
   mode 0666 less the umask) if it does not exist, as GNU touch.
     -a  only the access time      -m  only the modification time
     -c  do not create missing files (quietly)
     -h  change a symbolic link itself (never creates)
     -d DATE   that time: @SECONDS, YYYY-MM-DD[ HH:MM[:SS]] (UTC)
     -r FILE   FILE's times       -t STAMP  [[CC]YY]MMDDhhmm[.ss] (UTC)
   "touch: cannot touch 'F': ..." and status 1 when it fails;
   "touch: invalid date format 'X'" for a bad DATE or STAMP. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_access, opt_modify, opt_no_create, opt_no_follow, have_time;
static struct timespec times[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };

static int touch(const char *path)
{
	struct timespec t[2] = { times[0], times[1] };
	if (opt_access && !opt_modify)
		t[1].tv_nsec = UTIME_OMIT;
	if (opt_modify && !opt_access)
		t[0].tv_nsec = UTIME_OMIT;
	if (utimensat(AT_FDCWD, path, t, opt_no_follow ? AT_SYMLINK_NOFOLLOW : 0) == 0)
		return 0;
	if (errno == ENOENT && (opt_no_create || opt_no_follow))
		return 0;
	if (errno == ENOENT) {
		int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK, 0666);
		if (fd >= 0) {
			close(fd); /* a new file has its times set to now */
			if (!have_time || utimensat(AT_FDCWD, path, t, 0) == 0)
				return 0;
		}
	}
	fprintf(stderr, "touch: cannot touch '%s': %s\n", path, strerror(errno));
	return 1;
}

static int set_both(int r, const char *arg)
{
	if (r < 0) {
		fprintf(stderr, "touch: invalid date format '%s'\n", arg);
		return TOOL_OPT_TOLD;
	}
	times[1] = times[0];
	have_time = 1;
	return 0;
}

static int touch_flag(int c, const char *arg)
{
	switch (c) {
	case 'a': opt_access = 1; break;
	case 'm': opt_modify = 1; break;
	case 'c': opt_no_create = 1; break;
	case 'h': opt_no_follow = 1; break;
	case 'd': return set_both(tool_parse_date(arg, &times[0]), arg);
	case 't': return set_both(tool_parse_stamp(arg, &times[0]), arg);
	case 'r': {
		struct stat st;
		if (stat(arg, &st) < 0) {
			fprintf(stderr, "touch: failed to get attributes of '%s': %s\n", arg, strerror(errno));
			return TOOL_OPT_TOLD;
		}
		times[0] = st.st_atim;
		times[1] = st.st_mtim;
		have_time = 1;
		break;
	}
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "touch", .with_arg = "drt", .gnu_try = 1, .flag = touch_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "touch: missing file operand\nTry 'touch --help' for more information.\n");
		return 1;
	}
	for (int i = 0; i < nops; i++)
		status |= touch(ops[i]);
	return status;
}
