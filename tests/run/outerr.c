/* For tools/arbor-run's channels (run-tests.py, test_tools): writes known
 * bytes to stdout and to stderr, interleaved, lines and a part line, then
 * dies of SIGSEGV. On the host its stdout must be exactly OUT, its stderr
 * exactly ERR, its status 139, and the kernel's fault report in --klog.
 * Its stderr is a descriptor as any other first: fcntl(F_GETFL) gives a
 * mode that writes and /proc/self/fd/2 names it (else a line on stdout
 * says which failed, and stdout is no longer OUT). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int *volatile bad = (int *)8;	/* volatile: no compile-time warning */

int main(void)
{
	static const char out1[] = "stdout line 1\n", err1[] = "stderr line 1\n";
	static const char out2[] = "stdout tail without newline", err2[] = "stderr\ttail";
	int fl = fcntl(2, F_GETFL);
	char link[64];
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
		printf("fcntl(2, F_GETFL): %d\n", fl);
	if (readlink("/proc/self/fd/2", link, sizeof(link)) <= 0)
		printf("readlink /proc/self/fd/2 failed\n");
	fflush(stdout);
	write(1, out1, sizeof(out1) - 1);
	write(2, err1, sizeof(err1) - 1);
	printf("%s", out2);
	fflush(stdout);
	fprintf(stderr, "%s", err2);
	*bad = 1;
	return 0;
}
