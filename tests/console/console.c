/* Output through the user-space serial driver (and, with argv[1] "read",
 * a line of input typed on the serial line). */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	long h = -ENOENT;
	for (int i = 0; i < 500 && h < 0; i++)
		if ((h = sys_ns_lookup(CONSOLE_NAME)) < 0)
			sys_sleep_ns(2000000);
	tap_check("the console driver is published", h >= 0);
	struct ipc_msg m = { .label = CONSOLE_WRITE };
	const char text[] = "# console: written by the driver\n";
	tap_check_eq("a write through the driver", sys_ipc_call((int)h, &m, text, sizeof(text) - 1, NULL, 0), 0);
	tap_check_eq("reports every byte written", (long)m.w[0], (long)sizeof(text) - 1);
	m.label = 77;
	tap_check_eq("unknown requests are refused", sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) == 0 &&
		     (long)m.label == -EINVAL, 1);
	if (argc > 1 && strcmp(argv[1], "read") == 0) {
		char line[64];
		size_t n = 0;
		printf("# console: waiting for input\n");
		while (n < sizeof(line) - 1) {
			long r = console_read(line + n, sizeof(line) - 1 - n);
			if (r <= 0)
				break;
			n += (size_t)r;
			if (line[n - 1] == '\n')
				break;
		}
		line[n] = '\0';
		tap_check("a typed line arrives through IRQ 4 and the driver",
			  strcmp(line, "arbor-input-test\n") == 0);
	}
	return tap_done();
}
