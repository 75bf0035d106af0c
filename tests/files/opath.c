/* O_PATH descriptors (docs/vfs.md "O_PATH descriptors") where Linux's
 * permission rules matter, as uid 1000: a file it may not read opens with
 * O_PATH given search permission on the way (fstat works, read is EBADF),
 * a directory it may not search does not let O_PATH through (EACCES), and
 * fchdir to a directory opened O_PATH still needs search permission on
 * it. (What an O_PATH descriptor does and does not do is compared with
 * Linux byte for byte by tests/files/diff_opath.c.) Prints TAP. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>
#include "check.h"

#define DIR_OK "/tmp/opath.search"	/* 0711: others may search, not list */
#define DIR_NO "/tmp/opath.closed"	/* 0700: others may not search */

/* Runs as uid 1000; exit status: the number of failed checks. */
static int as_user(void)
{
	struct stat st;
	char buf[8];
	int bad = 0;
	if (setgid(1000) || setuid(1000))
		return 100;
	bad += !fails(open(DIR_OK "/secret", O_RDONLY), EACCES);
	int fd = open(DIR_OK "/secret", O_PATH);
	bad += fd < 0;
	bad += fstat(fd, &st) != 0 || (st.st_mode & 07777) != 0 || st.st_size != 6;
	bad += !fails((int)read(fd, buf, sizeof(buf)), EBADF);
	bad += mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) != MAP_FAILED || errno != EBADF;
	close(fd);
	bad += !fails(open(DIR_NO "/file", O_PATH), EACCES);
	int d = open(DIR_OK "/sub", O_PATH | O_DIRECTORY);
	bad += d < 0;
	bad += !fails(fchdir(d), EACCES);
	close(d);
	return bad;
}

int main(void)
{
	mkdir(DIR_OK, 0711);
	mkdir(DIR_NO, 0700);
	mkdir(DIR_OK "/sub", 0);
	chmod(DIR_OK, 0711);
	chmod(DIR_OK "/sub", 0);
	check(put_new(DIR_OK "/secret", "secret") == 0 && chmod(DIR_OK "/secret", 0) == 0 &&
	      put_new(DIR_NO "/file", "x") == 0, "root makes a file of mode 0 and a closed directory");
	pid_t p = fork();
	if (p == 0)
		_exit(as_user());
	int st = wait_bounded(p, 20);
	if (st)
		printf("# %d checks failed as uid 1000\n", st);
	check(st == 0, "uid 1000: open(O_RDONLY) of a mode 0 file EACCES, open(O_PATH) works, fstat shows it, "
		       "read and mmap EBADF; O_PATH through a closed directory EACCES; fchdir to an O_PATH "
		       "directory without search permission EACCES");
	int fd = open(DIR_OK "/secret", O_PATH);
	check(fd >= 0 && fcntl(fd, F_GETFL) == O_PATH, "as root: F_GETFL is O_PATH (with O_RDONLY)");
	check_errno(lseek(fd, 0, SEEK_END), EBADF, "lseek of an O_PATH descriptor: EBADF");
	check_errno(fcntl(fd, F_SETFL, O_NONBLOCK), EBADF, "fcntl(F_SETFL) of it: EBADF");
	close(fd);
	unlink(DIR_OK "/secret");
	unlink(DIR_NO "/file");
	rmdir(DIR_OK "/sub");
	rmdir(DIR_OK);
	rmdir(DIR_NO);
	printf("1..%d\n", n);
	return failed != 0;
}
