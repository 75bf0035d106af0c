/* For the gdb test (tools/run-tests.py, test_gdb_user): a store through a
 * null pointer two calls down from main. Under `tools/arbor-run --gdb`,
 * gdb stops at the fault, before the kernel kills the program with
 * SIGSEGV, and bt shows crash_store <- crash_fill <- main. */
#include <stdio.h>

/* Stores value at *p (NULL here: the fault). */
__attribute__((noinline)) static void crash_store(int *p, int value)
{
	*p = value;
}

/* Fills n slots of v with squares; v is NULL, so the first store faults. */
__attribute__((noinline)) static void crash_fill(int *v, int n)
{
	for (int i = 0; i < n; i++)
		crash_store(v ? v + i : NULL, i * i);
}

int main(void)
{
	int *slots = NULL;	/* the bug: never allocated */
	printf("filling\n");
	fflush(stdout);
	crash_fill(slots, 4);
	printf("not reached\n");
	return 0;
}
