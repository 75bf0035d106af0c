/* Dies by the CPU exception named in argv[1]; the kernel must kill only
 * this process, with the matching signal. */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	volatile int zero = 0;

	if (strcmp(what, "segv") == 0)
		*(volatile int *)0 = 1;
	else if (strcmp(what, "kernel") == 0)
		*(volatile int *)0xffffffff80100000ull = 1;
	else if (strcmp(what, "ud") == 0)
		__asm__ volatile("ud2");
	else if (strcmp(what, "de") == 0) {
		int q, divisor = zero;	/* an explicit idiv: 1/x is optimised away */
		__asm__ volatile("cltd; idivl %1" : "=a"(q) : "r"(divisor), "a"(7) : "edx");
		printf("%d\n", q);
	}
	else if (strcmp(what, "io") == 0) {	/* a port nobody granted */
		uint8_t v;
		__asm__ volatile("inb $0x71, %0" : "=a"(v));
	} else if (strcmp(what, "gp") == 0)
		__asm__ volatile("hlt");	/* privileged */
	else if (strcmp(what, "exec") == 0)
		((void (*)(void))(uintptr_t)&zero)(); /* the stack is not executable */
	else if (strcmp(what, "stack") == 0)	/* below the 8 MiB stack area */
		*((volatile char *)__builtin_frame_address(0) - (16 << 20)) = 1;
	printf("# fault: '%s' did not fault\n", what);
	return 0;
}
