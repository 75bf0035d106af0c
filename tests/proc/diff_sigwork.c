/* Differential test: calls that do work are not cut by signals. Under a
 * stream of SIGALRM (a 500 us interval timer, a handler installed without
 * SA_RESTART), writes to standard output and file operations (mkdir, open,
 * write, fstat, rename, unlink, rmdir) succeed whole, as on Linux, where
 * only a call that waits (a read with no input) ends in EINTR. Arbor's
 * console and file systems are servers: a signal used to cut a call the
 * server had already done, so write() said EINTR with its bytes written
 * and newlib's unbuffered stdout then printed nothing more. Prints counts,
 * so its output compares with Linux byte for byte. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;

static void on_alrm(int sig)
{
	(void)sig;
	alarms++;
}

/* One round of file operations in dir: the number that failed. */
static int file_round(const char *dir, int i)
{
	char a[96], b[96], sub[96];
	int bad = 0;
	snprintf(sub, sizeof(sub), "%s/d%d", dir, i);
	snprintf(a, sizeof(a), "%s/f%d", dir, i);
	snprintf(b, sizeof(b), "%s/g%d", dir, i);
	bad += mkdir(sub, 0700) != 0;
	int fd = open(a, O_CREAT | O_RDWR | O_TRUNC, 0600);
	bad += fd < 0;
	if (fd >= 0) {
		struct stat st;
		bad += write(fd, "0123456789", 10) != 10;
		bad += fstat(fd, &st) != 0 || st.st_size != 10;
		bad += close(fd) != 0;
	}
	bad += rename(a, b) != 0;
	bad += unlink(b) != 0;
	bad += rmdir(sub) != 0;
	return bad;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alrm }; /* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/sigwork.%d", (int)getpid());
	if (mkdir(dir, 0700) != 0) {
		perror("mkdir");
		return 1;
	}
	struct itimerval it = { { 0, 500 }, { 0, 500 } };
	setitimer(ITIMER_REAL, &it, NULL);

	/* Unbuffered stdout: each line is one write. */
	setvbuf(stdout, NULL, _IONBF, 0);
	int short_writes = 0, eintr = 0;
	char line[64];
	for (int i = 0; i < 400; i++) {
		int n = snprintf(line, sizeof(line), "line %03d of the stream under signals\n", i);
		ssize_t w = write(1, line, (size_t)n);
		short_writes += w != n;
		eintr += w < 0 && errno == EINTR;
	}
	printf("400 writes to stdout: %d short or failed, %d EINTR\n", short_writes, eintr);
	int failed = 0;
	for (int i = 0; i < 200; i++)
		failed += file_round(dir, i);
	printf("200 rounds of file operations: %d failed\n", failed);
	for (int i = 0; i < 100; i++)
		printf("printf %03d under signals\n", i);

	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("signals came: %d\n", alarms > 0);
	printf("stdout's error flag: %d\n", ferror(stdout) != 0);
	return rmdir(dir) != 0;
}
