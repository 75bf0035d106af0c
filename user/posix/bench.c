/* POSIX costs through the C library and the servers: getppid, a pipe
 * round trip between two processes, open+read+close of a small file, and
 * stat. Prints "bench NAME VALUE ns" lines. */
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void report(const char *name, uint64_t ns, int n)
{
	uint64_t x100 = ns * 100 / (uint64_t)n;
	printf("bench %s %llu.%02llu ns\n", name, (unsigned long long)(x100 / 100),
	       (unsigned long long)(x100 % 100));
}

int main(void)
{
	enum { N = 200000, P = 2000, F = 2000 };
	for (int i = 0; i < N / 10; i++)
		getppid(); /* warm up, as the kernel's benchmarks do */
	uint64_t t0 = now();
	for (int i = 0; i < N; i++)
		getppid();
	report("posix_getppid", now() - t0, N);

	int a[2], b[2];
	char c = 'x';
	pipe(a);
	pipe(b);
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < P; i++) {
			read(a[0], &c, 1);
			write(b[1], &c, 1);
		}
		_exit(0);
	}
	t0 = now();
	for (int i = 0; i < P; i++) {
		write(a[1], &c, 1);
		read(b[0], &c, 1);
	}
	report("pipe_round_trip", now() - t0, P);
	waitpid(pid, NULL, 0);

	int fd = open("/tmp/bench.txt", O_CREAT | O_WRONLY, 0644);
	write(fd, "a small file\n", 13);
	close(fd);
	char buf[64];
	t0 = now();
	for (int i = 0; i < F; i++) {
		fd = open("/tmp/bench.txt", O_RDONLY);
		read(fd, buf, sizeof(buf));
		close(fd);
	}
	report("open_read_close", now() - t0, F);
	struct stat st;
	t0 = now();
	for (int i = 0; i < F; i++)
		stat("/tmp/bench.txt", &st);
	report("stat", now() - t0, F);
	return 0;
}
