/* id [-u|-g|-G] [-nr]: print the real and effective user and group ids,
   as "uid=0(root) gid=0(root) groups=0(root)"; euid= and egid= appear
   when they differ from the real ids. There is no user database yet, so 0
   is named "root" and other ids are shown as bare numbers.
     -u  only the effective user id   (-r: the real one)
     -g  only the effective group id  (-r: the real one)
     -G  all group ids: effective, real (if different), supplementary
     -n  with -u, -g or -G: names instead of numbers ("root", or the number) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_id(const char *label, unsigned long id)
{
	printf("%s=%lu", label, id);
	if (id == 0)
		fputs("(root)", stdout);
}

static void put_bare(unsigned long id, int names)
{
	if (names && id == 0)
		fputs("root", stdout);
	else
		printf("%lu", id);
}

int main(int argc, char **argv)
{
	int opt_u = 0, opt_g = 0, opt_G = 0, opt_n = 0, opt_r = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 && i == argc - 1)
			break;
		if (a[0] != '-' || a[1] == '\0') {
			fprintf(stderr, "id: %s: users other than the caller are not supported\n", a);
			return 1;
		}
		for (const char *p = a + 1; *p; p++) {
			switch (*p) {
			case 'u': opt_u = 1; break;
			case 'g': opt_g = 1; break;
			case 'G': opt_G = 1; break;
			case 'n': opt_n = 1; break;
			case 'r': opt_r = 1; break;
			default:
				fprintf(stderr, "id: invalid option -- '%c'\n", *p);
				fprintf(stderr, "usage: id [-u|-g|-G] [-nr]\n");
				return 1;
			}
		}
	}
	if (opt_u + opt_g + opt_G > 1) {
		fprintf(stderr, "id: cannot print \"only\" of more than one choice\n");
		return 1;
	}
	if ((opt_n || opt_r) && !(opt_u || opt_g || opt_G)) {
		fprintf(stderr, "id: cannot print only names or real IDs in default format\n");
		return 1;
	}
	uid_t ruid = getuid(), euid = geteuid();
	gid_t rgid = getgid(), egid = getegid();
	int n = getgroups(0, NULL);
	gid_t *groups = NULL;
	if (n > 0) {
		groups = malloc(sizeof(gid_t) * (size_t)n);
		if (!groups || (n = getgroups(n, groups)) < 0) {
			fprintf(stderr, "id: cannot get groups: %s\n", strerror(errno));
			return 1;
		}
	} else if (n < 0) {
		fprintf(stderr, "id: cannot get groups: %s\n", strerror(errno));
		return 1;
	}
	if (opt_u || opt_g) {
		unsigned long v = opt_u ? (opt_r ? ruid : euid) : (opt_r ? rgid : egid);
		put_bare(v, opt_n);
		putchar('\n');
	} else if (opt_G) {
		put_bare(egid, opt_n);
		if (rgid != egid) {
			putchar(' ');
			put_bare(rgid, opt_n);
		}
		for (int i = 0; i < n; i++) {
			if (groups[i] != egid && groups[i] != rgid) {
				putchar(' ');
				put_bare(groups[i], opt_n);
			}
		}
		putchar('\n');
	} else {
		put_id("uid", ruid);
		putchar(' ');
		put_id("gid", rgid);
		if (euid != ruid) {
			putchar(' ');
			put_id("euid", euid);
		}
		if (egid != rgid) {
			putchar(' ');
			put_id("egid", egid);
		}
		putchar(' ');
		put_id("groups", rgid);
		if (egid != rgid) {
			putchar(',');
			printf("%lu%s", (unsigned long)egid, egid == 0 ? "(root)" : "");
		}
		for (int i = 0; i < n; i++) {
			if (groups[i] != egid && groups[i] != rgid)
				printf(",%lu%s", (unsigned long)groups[i], groups[i] == 0 ? "(root)" : "");
		}
		putchar('\n');
	}
	free(groups);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "id: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
