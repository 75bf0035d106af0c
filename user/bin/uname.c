/* uname [-asnrvm]: print system information from uname(2).
     -s kernel name (the default)  -n node name  -r release  -v version
     -m machine  -a all of them, in that order */
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int want = 0, c; /* bits: s n r v m */
	while ((c = getopt(argc, argv, "asnrvm")) != -1) {
		switch (c) {
		case 'a': want |= 31; break;
		case 's': want |= 1; break;
		case 'n': want |= 2; break;
		case 'r': want |= 4; break;
		case 'v': want |= 8; break;
		case 'm': want |= 16; break;
		default:
			fprintf(stderr, "usage: uname [-asnrvm]\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "uname: extra operand '%s'\n", argv[optind]);
		return 1;
	}
	struct utsname u;
	if (uname(&u) != 0) {
		perror("uname");
		return 1;
	}
	const char *field[] = { u.sysname, u.nodename, u.release, u.version, u.machine };
	int first = 1;
	for (int i = 0; i < 5; i++)
		if ((want ? want : 1) & (1 << i)) {
			printf("%s%s", first ? "" : " ", field[i]);
			first = 0;
		}
	putchar('\n');
	return 0;
}
