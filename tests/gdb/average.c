/* docs/debugging.md's example of debugging a user program in gdb: prints
 * the average of its arguments, and has a bug on purpose (the sum skips
 * the first value), which the session there finds. Not run by the tests:
 * fixing it would change the walk-through. */
#include <stdio.h>
#include <stdlib.h>

#define AVG_MAX 16

/* The sum of v[0..n). */
static long avg_sum(const long *v, int n)
{
	long s = 0;
	for (int i = 1; i < n; i++)	/* the bug: from 1 */
		s += v[i];
	return s;
}

int main(int argc, char **argv)
{
	long v[AVG_MAX];
	int n = 0;
	for (int i = 1; i < argc && n < AVG_MAX; i++)
		v[n++] = strtol(argv[i], NULL, 10);
	if (n == 0) {
		fprintf(stderr, "usage: average NUMBER...\n");
		return 2;
	}
	long total = avg_sum(v, n);
	printf("average of %d numbers: %ld\n", n, total / n);
	return 0;
}
