/* For the gdb test (tools/run-tests.py, test_gdb_user): two processes run
 * the same code at the same user addresses. A child forked first calls
 * twin_work() over and over (n = 1000, 1001, ...); only once it has done
 * so 20 times does the parent call twin_work(7) itself. A breakpoint on
 * twin_work set in the parent's gdb session must stop only in the parent
 * (n is 7, the result 50), however often the child passes it first.
 * Exits 0 when the parent's result is right, 1 otherwise. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long twin_sink;	/* keeps the work from being optimised away */

/* n squared plus one, the square added to twin_sink. */
__attribute__((noinline)) int twin_work(int n)
{
	int square = n * n;
	twin_sink += square;
	return square + 1;
}

/* The child: twin_work forever, a byte on fd after the 20th call. */
static void twin_child(int fd)
{
	for (int i = 1000;; i++) {
		twin_work(i);
		if (i == 1019 && write(fd, "x", 1) != 1)
			_exit(3);
		usleep(2000);
	}
}

int main(void)
{
	int fds[2];
	if (pipe(fds))
		return 2;
	pid_t child = fork();
	if (child < 0)
		return 2;
	if (child == 0)
		twin_child(fds[1]);
	char c;
	if (read(fds[0], &c, 1) != 1)	/* the child is well under way */
		return 2;
	int result = twin_work(7);
	printf("twin_work(7) = %d\n", result);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return result == 50 ? 0 : 1;
}
