/* A program with 1 MiB of read-only data, for tests/proc/execmap.c: run
 * from the page cache its text and rodata are the cache's own frames,
 * shared by every copy running. It checks what execve must give it (its
 * initialised data as the file has it: stores of an earlier run never
 * reach the file; its bss zero, the part in the data segment's last file
 * page included), reads the whole blob, says "ready" on stdout and waits
 * for end-of-file on stdin, then reads the blob again. With argument
 * "fork" it forks first and the parent exits at once: the child keeps the
 * program running. Exit 0, or 3..6 for what was wrong. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOB (1u << 20)

static const unsigned char blob[BLOB] = { [0 ... BLOB - 1] = 0x5a };
int data_word = 7;
/* moves the end of .data into the middle of a page, so that bss_arr, the
 * first bss of this file, starts in the data segment's last file page */
int data_pad[300] = { 1 };
static char bss_arr[8192];

/* The blob's byte sum through a volatile pointer: every page is read. */
static unsigned long blob_sum(void)
{
	const volatile unsigned char *p = blob;
	unsigned long sum = 0;
	for (unsigned i = 0; i < BLOB; i++)
		sum += p[i];
	return sum;
}

int main(int argc, char **argv)
{
	if (data_word != 7 || data_pad[0] != 1)
		return 3;
	for (size_t i = 0; i < sizeof(bss_arr); i++)
		if (bss_arr[i])
			return 4;
	data_word = (int)getpid();
	memset(bss_arr, 1, sizeof(bss_arr));
	if (blob_sum() != 0x5aul * BLOB)
		return 5;
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		pid_t p = fork();
		if (p < 0)
			return 6;
		if (p > 0)
			return 0;
	}
	if (write(1, "ready\n", 6) != 6)
		return 6;
	char c;
	while (read(0, &c, 1) > 0)
		;
	return blob_sum() == 0x5aul * BLOB ? 0 : 5;
}
