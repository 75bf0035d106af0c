/* stat [-L] [-c FORMAT] FILE...: show file status in GNU coreutils' default format:
       File: NAME (-> TARGET for a symbolic link)
       Size: N         	Blocks: N          IO Block: N      TYPE
     Device: MAJ,MIN	Inode: N           Links: N     (Device type: MAJ,MIN)
     Access: (0644/-rw-r--r--)  Uid: (    0/    root)   Gid: (    0/    root)
     Access/Modify/Change: YYYY-MM-DD HH:MM:SS.NNNNNNNNN +0000;  Birth: -
     -L  follow links (the default shows a link itself)
     -c FORMAT  only FORMAT and a newline for each FILE: %a (octal mode) %A
         (drwxr-xr-x) %b %B %d %D %f %F (file type) %g %G %h %i %n %N
         ('F' -> 'TARGET') %o %s %t %T %u %U %w %W %x %X %y %Y %z %Z %%
   Arbor keeps no user database: ids other than 0 show as UNKNOWN, as GNU
   stat shows an id without a name. "stat: cannot statx 'F': ..." and
   status 1 for a file that cannot be examined. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/tool.h"

#define DEV_MAJOR(d) (((d) >> 8) & 0xfff)
#define DEV_MINOR(d) (((d) & 0xff) | (((d) >> 12) & 0xfff00))

static int opt_follow;
static const char *opt_format;

static const char *type_name(const struct stat *st)
{
	mode_t m = st->st_mode;
	if (S_ISREG(m))
		return st->st_size ? "regular file" : "regular empty file";
	if (S_ISDIR(m))
		return "directory";
	if (S_ISLNK(m))
		return "symbolic link";
	if (S_ISCHR(m))
		return "character special file";
	if (S_ISBLK(m))
		return "block special file";
	if (S_ISFIFO(m))
		return "fifo";
	return S_ISSOCK(m) ? "socket" : "weird file";
}

static void mode_string(mode_t m, char *out)
{
	const char *rwx = "rwxrwxrwx";
	out[0] = S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b' :
		 S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : '-';
	for (int i = 0; i < 9; i++)
		out[1 + i] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[3] = m & S_IXUSR ? 's' : 'S';
	if (m & S_ISGID)
		out[6] = m & S_IXGRP ? 's' : 'S';
	if (m & S_ISVTX)
		out[9] = m & S_IXOTH ? 't' : 'T';
	out[10] = '\0';
}

static void print_time(const char *what, const struct timespec *t)
{
	char buf[64];
	struct tm tm;
	time_t s = t->tv_sec;
	if (!gmtime_r(&s, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, sizeof(buf), "%lld", (long long)s);
	printf("%s: %s.%09ld +0000\n", what, buf, t->tv_nsec);
}

static const char *user_name(uid_t id)
{
	return id == 0 ? "root" : "UNKNOWN";
}

/* One -c conversion c of path's st. */
static void conversion(char c, const char *path, const struct stat *st)
{
	char mode[11], target[4096];
	switch (c) {
	case 'a': printf("%o", (unsigned)(st->st_mode & 07777)); break;
	case 'A': mode_string(st->st_mode, mode); fputs(mode, stdout); break;
	case 'b': printf("%lld", (long long)st->st_blocks); break;
	case 'B': printf("512"); break;
	case 'd': printf("%llu", (unsigned long long)st->st_dev); break;
	case 'D': printf("%llx", (unsigned long long)st->st_dev); break;
	case 'f': printf("%x", (unsigned)st->st_mode); break;
	case 'F': fputs(type_name(st), stdout); break;
	case 'g': printf("%u", (unsigned)st->st_gid); break;
	case 'G': fputs(user_name(st->st_gid), stdout); break;
	case 'h': printf("%lu", (unsigned long)st->st_nlink); break;
	case 'i': printf("%llu", (unsigned long long)st->st_ino); break;
	case 'n': fputs(path, stdout); break;
	case 'N': {
		ssize_t n = S_ISLNK(st->st_mode) ? readlink(path, target, sizeof(target) - 1) : -1;
		printf("'%s'", path);
		if (n >= 0)
			printf(" -> '%.*s'", (int)n, target);
		break;
	}
	case 'o': printf("%ld", (long)st->st_blksize); break;
	case 's': printf("%lld", (long long)st->st_size); break;
	case 't': printf("%llx", (unsigned long long)DEV_MAJOR(st->st_rdev)); break;
	case 'T': printf("%llx", (unsigned long long)DEV_MINOR(st->st_rdev)); break;
	case 'u': printf("%u", (unsigned)st->st_uid); break;
	case 'U': fputs(user_name(st->st_uid), stdout); break;
	case 'w': fputs("-", stdout); break;
	case 'W': fputs("0", stdout); break;
	case 'x': case 'y': case 'z': {
		const struct timespec *t = c == 'x' ? &st->st_atim : c == 'y' ? &st->st_mtim : &st->st_ctim;
		char buf[64];
		struct tm tm;
		time_t secs = t->tv_sec;
		gmtime_r(&secs, &tm);
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
		printf("%s.%09ld +0000", buf, t->tv_nsec);
		break;
	}
	case 'X': printf("%lld", (long long)st->st_atim.tv_sec); break;
	case 'Y': printf("%lld", (long long)st->st_mtim.tv_sec); break;
	case 'Z': printf("%lld", (long long)st->st_ctim.tv_sec); break;
	case '%': putchar('%'); break;
	default: printf("?"); break;
	}
}

static void show_format(const char *path, const struct stat *st)
{
	for (const char *p = opt_format; *p; p++) {
		if (*p != '%' || !p[1]) {
			putchar(*p);
			continue;
		}
		conversion(*++p, path, st);
	}
	putchar('\n');
}

static int show(const char *path)
{
	struct stat st;
	char mode[11], target[4096];
	if ((opt_follow ? stat(path, &st) : lstat(path, &st)) < 0) {
		fflush(stdout);
		fprintf(stderr, "stat: cannot statx '%s': %s\n", path, strerror(errno));
		return 1;
	}
	if (opt_format) {
		show_format(path, &st);
		return 0;
	}
	printf("  File: %s", path);
	ssize_t n = S_ISLNK(st.st_mode) ? readlink(path, target, sizeof(target) - 1) : -1;
	if (n >= 0)
		printf(" -> %.*s", (int)n, target);
	printf("\n  Size: %-10lld\tBlocks: %-10lld IO Block: %-6ld %s\n", (long long)st.st_size,
	       (long long)st.st_blocks, (long)st.st_blksize, type_name(&st));
	printf("Device: %llu,%llu\tInode: %-11llu Links: ", (unsigned long long)DEV_MAJOR(st.st_dev),
	       (unsigned long long)DEV_MINOR(st.st_dev), (unsigned long long)st.st_ino);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) /* padded only when more follows */
		printf("%-5lu Device type: %llu,%llu", (unsigned long)st.st_nlink,
		       (unsigned long long)DEV_MAJOR(st.st_rdev), (unsigned long long)DEV_MINOR(st.st_rdev));
	else
		printf("%lu", (unsigned long)st.st_nlink);
	mode_string(st.st_mode, mode);
	printf("\nAccess: (%04o/%s)  Uid: (%5u/%8s)   Gid: (%5u/%8s)\n", (unsigned)(st.st_mode & 07777), mode,
	       (unsigned)st.st_uid, st.st_uid == 0 ? "root" : "UNKNOWN", (unsigned)st.st_gid,
	       st.st_gid == 0 ? "root" : "UNKNOWN");
	print_time("Access", &st.st_atim);
	print_time("Modify", &st.st_mtim);
	print_time("Change", &st.st_ctim);
	printf(" Birth: -\n");
	return 0;
}

static int stat_flag(int c, const char *arg)
{
	switch (c) {
	case 'L': opt_follow = 1; return 0;
	case 'c': opt_format = arg; return 0;
	default: return TOOL_OPT_BAD;
	}
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "stat", .with_arg = "c", .gnu_try = 1, .flag = stat_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "stat: missing operand\nTry 'stat --help' for more information.\n");
		return 1;
	}
	for (int i = 0; i < nops; i++)
		status |= show(ops[i]);
	return tool_flush("stat", status, 1);
}
