/* Lab 01's grader: sethostname(2) through a new system call, and uname's
 * node name from the kernel (kernel/proc/uts.c, user/libc/).
 *
 * set_and_uname: root's sethostname("lab-host", 8) returns 0; uname and
 *   gethostname then say "lab-host".
 * every_process: a child forked afterwards, and /bin/uname -n, say it too.
 * exact_bytes: the name is len bytes: sethostname("abcdef", 3) gives "abc".
 * length_limit: 64 bytes are fine; 65 and (size_t)-1 are EINVAL and
 *   change nothing.
 * root_only: uid 1000 gets EPERM, also with a length of 100 (EPERM is
 *   checked first, as Linux), and the name stays.
 * bad_pointer: sethostname((char *)8, 4) is EFAULT, not a crash. */
#include "../grade.h"
#include <sys/utsname.h>
#include <sys/wait.h>

static int name_is(const char *want)
{
	struct utsname u;
	char got[128];
	return uname(&u) == 0 && strcmp(u.nodename, want) == 0 && gethostname(got, sizeof(got)) == 0 &&
	       strcmp(got, want) == 0;
}

static const char *name_now(void)
{
	static struct utsname u;
	return uname(&u) == 0 ? u.nodename : "(uname failed)";
}

/* The errno of sethostname(name, len) (0: it succeeded). */
static int set_errno(const char *name, size_t len)
{
	errno = 0;
	return sethostname(name, len) == 0 ? 0 : errno;
}

/* /bin/uname -n's output, newline cut, into buf. */
static void uname_n(char *buf, size_t len)
{
	int p[2];
	buf[0] = '\0';
	if (pipe(p) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		execl("/bin/uname", "uname", "-n", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	ssize_t n = read(p[0], buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	close(p[0]);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	int e = set_errno("lab-host", 8);
	grade_check("set_and_uname", e == 0 && name_is("lab-host"), "sethostname: %s; uname says \"%s\"",
		    e ? strerror(e) : "0", name_now());

	int st = 0;
	pid_t pid = fork();
	if (pid == 0)
		_exit(name_is("lab-host") ? 0 : 1);
	waitpid(pid, &st, 0);
	char out[128];
	uname_n(out, sizeof(out));
	grade_check("every_process", WIFEXITED(st) && WEXITSTATUS(st) == 0 && strcmp(out, "lab-host") == 0,
		    "a child %s; /bin/uname -n says \"%s\"", WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "agrees" : "does not agree", out);

	e = set_errno("abcdef", 3);
	grade_check("exact_bytes", e == 0 && name_is("abc"), "sethostname(\"abcdef\", 3): %s, then \"%s\"",
		    e ? strerror(e) : "0", name_now());

	char max[80];
	memset(max, 'x', sizeof(max));
	int e65 = set_errno(max, 65), ewrap = set_errno("y", (size_t)-1);
	int same = name_is("abc");
	int e64 = set_errno(max, 64);
	max[64] = '\0';
	grade_check("length_limit", e65 == EINVAL && ewrap == EINVAL && same && e64 == 0 && name_is(max),
		    "65 bytes: %s; (size_t)-1: %s; 64 bytes: %s", e65 ? strerror(e65) : "0",
		    ewrap ? strerror(ewrap) : "0", e64 ? strerror(e64) : "0");

	set_errno("lab-host", 8);
	pid = fork();
	if (pid == 0) {
		if (setuid(1000) < 0)
			_exit(3);
		int a = set_errno("z", 1), b = set_errno("z", 100);
		_exit(a == EPERM && b == EPERM && name_is("lab-host") ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	grade_check("root_only", WIFEXITED(st) && WEXITSTATUS(st) == 0, "uid 1000's sethostname %s",
		    WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "refused (EPERM)" : "not refused as Linux");

	e = set_errno((const char *)8, 4);
	grade_check("bad_pointer", e == EFAULT && name_is("lab-host"), "sethostname((char *)8, 4): %s",
		    e ? strerror(e) : "0");
	set_errno("arbor", 5);
	return 0;
}
