/* For the gdb test (tools/run-tests.py, test_gdb_user): two processes run
 * the same code at the same user addresses and with the same stack. After
 * the fork both run main's loop, calling twin_work() then usleep(): the
 * child from n = 1000 on, forever; the parent, once the child has made
 * 20 calls, three times from n = 7. A breakpoint on twin_work set in the
 * parent's gdb session must stop only in the parent (n is 7, the result
 * 50), however often the child passes it first; a `next` over usleep()
 * must come back in the parent, although the child returns from its own
 * usleep() at the same address, in a frame with the same stack address,
 * meanwhile (gdb's own next stops there, in the child).
 * First it moves itself into a cgroup of its own, /twins (cpu.weight 50,
 * memory.max 64 MiB, pids.max 50), for `arbor ps` and `arbor cgroup` to
 * show. Exits 0 when the parent's total is 50 + 65 + 82, 1 otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TWIN_CG "/sys/fs/cgroup/twins"

volatile long twin_sink;	/* keeps the work from being optimised away */

/* Names the kernel uses too (its per-CPU array, its thread and process
 * structures): gdb resolves a name from the program first, so the gdb
 * extension must read the kernel's from the kernel's files, and the test
 * fails if it does not. */
struct thread { int twin; } twin_thread = { 1 };
struct proc { char twin; } twin_proc = { 2 };
int cpus = 3;

/* n squared plus one, the square added to twin_sink. */
__attribute__((noinline)) int twin_work(int n)
{
	int square = n * n;
	twin_sink += square;
	return square + 1;
}

/* Writes text to the cgroup file path: 0, or -1. */
static int twin_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* /twins with its limits, the caller in it: 0, or -1. */
static int twin_cgroup(void)
{
	if (mkdir(TWIN_CG, 0755) && errno != EEXIST)
		return -1;
	if (twin_write("/sys/fs/cgroup/cgroup.subtree_control", "+cpu +memory +pids") ||
	    twin_write(TWIN_CG "/cpu.weight", "50") ||
	    twin_write(TWIN_CG "/memory.max", "67108864") ||
	    twin_write(TWIN_CG "/pids.max", "50"))
		return -1;
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return twin_write(TWIN_CG "/cgroup.procs", pid);
}

int main(void)
{
	int fds[2];
	char c;
	if (twin_cgroup()) {
		perror("twins: " TWIN_CG);
		return 2;
	}
	if (pipe(fds))
		return 2;
	pid_t child = fork();
	if (child < 0)
		return 2;
	int base = child == 0 ? 1000 : 7;
	int rounds = child == 0 ? 1000000 : 3;
	if (child != 0 && read(fds[0], &c, 1) != 1)	/* the child is well under way */
		return 2;
	long total = 0;
	for (int i = 0; i < rounds; i++) {
		total += twin_work(base + i);
		if (child == 0 && i == 19 && write(fds[1], "x", 1) != 1)
			_exit(3);
		usleep(5000);
	}
	if (child == 0)
		_exit(0);
	printf("total %ld\n", total);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return total == 50 + 65 + 82 ? 0 : 1;
}
