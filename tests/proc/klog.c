/* The kernel log (klog(2), docs/klog.md): a user program's fault report
 * goes there as a KERN_INFO record with a timestamp, readable by anyone;
 * clearing and the console loglevel are root's; Linux's errors. With
 * argument "segv" it only writes a line to stdout and one to stderr, then
 * dies of SIGSEGV (the shell and arbor-run tests). Run in /posix_klog. */
#include "abi/klog.h"
#include "arbor/syscalls.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failed;
static char logbuf[256 * 1024];

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

static int *volatile bad_ptr = (int *)8;	/* volatile: no compile-time warning */

static void segv(void)
{
	*bad_ptr = 1;
}

/* A child that dies of SIGSEGV; returns its pid. */
static pid_t fault_child(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		segv();
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "the child died of SIGSEGV");
	return pid;
}

/* The record naming pid's fault in the log, or NULL. */
static const char *fault_record(pid_t pid)
{
	long got = sys_klog(KLOG_ACTION_READ_ALL, logbuf, sizeof(logbuf) - 1);
	if (got < 0)
		return NULL;
	logbuf[got] = 0;
	char want[64];
	snprintf(want, sizeof(want), "] arbor: pid %d (", (int)pid);
	const char *p = strstr(logbuf, want);
	while (p && p > logbuf && p[-1] != '\n')
		p--;
	return p;
}

/* needle is in the line r..eol (strstr's NULL is not). */
static int in_line(const char *r, const char *eol, const char *needle)
{
	const char *p = strstr(r, needle);
	return p && p < eol;
}

/* "<6>[SSSSS.UUUUUU] arbor: pid N (...): page fault at ip ... (address
 * 0x0000000000000008, write, not present): killed by signal 11" */

static int record_ok(const char *r)
{
	unsigned long s, us;
	int level, len = 0;
	if (!r || sscanf(r, "<%d>[%lu.%lu]%n", &level, &s, &us, &len) != 3 || len == 0)
		return 0;
	const char *eol = strchr(r, '\n');
	return level == 6 && r[len - 8] == '.' && eol && in_line(r, eol, ": page fault at ip ") &&
	       in_line(r, eol, " (address 0x0000000000000008, write, not present): ") &&
	       strstr(r, ": killed by signal 11\n") == eol - strlen(": killed by signal 11");
}

static void as_user(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		int ok = setuid(1000) == 0 && sys_klog(KLOG_ACTION_CLEAR, NULL, 0) == -EPERM &&
			 sys_klog(KLOG_ACTION_READ_CLEAR, logbuf, 100) == -EPERM &&
			 sys_klog(KLOG_ACTION_CONSOLE_LEVEL, NULL, 7) == -EPERM &&
			 sys_klog(KLOG_ACTION_CONSOLE_OFF, NULL, 0) == -EPERM &&
			 sys_klog(KLOG_ACTION_READ_ALL, logbuf, sizeof(logbuf)) > 0;
		_exit(ok ? 0 : 1);
	}
	int st = 1;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a user reads the log; clear and console level: EPERM");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "segv")) {
		printf("to stdout\n");
		fflush(stdout);
		fprintf(stderr, "to stderr\n");
		segv();
		return 0;
	}
	pid_t pid = fault_child();
	const char *r = fault_record(pid);
	check(r != NULL, "the fault report is in the log");
	check(record_ok(r), "it is a KERN_INFO record: <6>[seconds.micros] ... killed by signal 11");

	long size = sys_klog(KLOG_ACTION_SIZE_BUFFER, NULL, 0);
	long unread = sys_klog(KLOG_ACTION_SIZE_UNREAD, NULL, 0);
	long all = sys_klog(KLOG_ACTION_READ_ALL, logbuf, sizeof(logbuf));
	check(size > 0 && (size_t)size <= sizeof(logbuf) && all > 0 && unread >= all && all <= size,
	      "SIZE_BUFFER, SIZE_UNREAD and READ_ALL agree");
	long small = sys_klog(KLOG_ACTION_READ_ALL, logbuf, 300);
	check(small > 0 && small <= 300 && logbuf[small - 1] == '\n' && logbuf[0] == '<',
	      "READ_ALL into 300 bytes: whole records that fit");
	check(sys_klog(KLOG_ACTION_READ_ALL, logbuf, 0) == 0, "READ_ALL of 0 bytes: 0");

	check(sys_klog(KLOG_ACTION_READ_ALL, (char *)0xffff800000000000ull, 4096) == -EFAULT &&
	      sys_klog(KLOG_ACTION_READ_ALL, (char *)8, 4096) == -EFAULT,
	      "READ_ALL to a kernel or unmapped address: EFAULT");
	as_user();
	check(sys_klog(KLOG_ACTION_CLEAR, NULL, 0) == 0, "CLEAR as root");
	check(fault_record(pid) == NULL, "after CLEAR the old report is not read");
	pid_t pid2 = fault_child();
	check(record_ok(fault_record(pid2)), "a new fault after CLEAR is read");
	long rc = sys_klog(KLOG_ACTION_READ_CLEAR, logbuf, sizeof(logbuf));
	check(rc > 0 && sys_klog(KLOG_ACTION_READ_ALL, logbuf, sizeof(logbuf)) < rc,
	      "READ_CLEAR gives the records, then clears");

	check(sys_klog(2, logbuf, 100) == -EINVAL, "READ (blocking, not offered): EINVAL");
	check(sys_klog(11, NULL, 0) == -EINVAL && sys_klog(-1, NULL, 0) == -EINVAL,
	      "an unknown action: EINVAL");
	check(sys_klog(KLOG_ACTION_READ_ALL, NULL, 10) == -EINVAL, "READ_ALL to NULL: EINVAL");
	check(sys_klog(KLOG_ACTION_READ_ALL, logbuf, (size_t)1 << 40) == -EINVAL,
	      "READ_ALL of more than INT_MAX bytes: EINVAL");
	check(sys_klog(KLOG_ACTION_CONSOLE_LEVEL, NULL, 0) == -EINVAL &&
	      sys_klog(KLOG_ACTION_CONSOLE_LEVEL, NULL, 9) == -EINVAL,
	      "console loglevel outside 1..8: EINVAL");
	check(sys_klog(KLOG_ACTION_CONSOLE_OFF, NULL, 0) == 0 && sys_klog(KLOG_ACTION_CONSOLE_ON, NULL, 0) == 0 &&
	      sys_klog(KLOG_ACTION_CONSOLE_LEVEL, NULL, 6) == 0, "CONSOLE_OFF, CONSOLE_ON, CONSOLE_LEVEL as root");
	printf("# %d of %d failed\n", failed, n);
	return failed ? 1 : 0;
}
