/* Differential test: the user and group databases (getpwnam & co. over
 * /etc/passwd and /etc/group). Only root's entries are printed (both
 * systems have them alike: name, ids, home; the shells differ), and what
 * each call answers for users and groups that do not exist, for buffers
 * too small (ERANGE), and the enumeration's first entry after a rewind. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void show_pw(const char *what, const struct passwd *p)
{
	if (!p)
		printf("%s: none\n", what);
	else
		printf("%s: %s uid %u gid %u home %s\n", what, p->pw_name, (unsigned)p->pw_uid,
		       (unsigned)p->pw_gid, p->pw_dir);
}

static void show_gr(const char *what, const struct group *g)
{
	if (!g) {
		printf("%s: none\n", what);
		return;
	}
	int n = 0;
	while (g->gr_mem[n])
		n++;
	printf("%s: %s gid %u, %d members\n", what, g->gr_name, (unsigned)g->gr_gid, n);
}

int main(void)
{
	show_pw("getpwnam(root)", getpwnam("root"));
	show_pw("getpwuid(0)", getpwuid(0));
	errno = 0;
	struct passwd *p = getpwnam("no-such-user");
	printf("getpwnam(no-such-user): %s, errno %d\n", p ? "found" : "NULL", errno);
	errno = 0;
	p = getpwuid(424242);
	printf("getpwuid(424242): %s, errno %d\n", p ? "found" : "NULL", errno);

	struct passwd pw, *res = &pw;
	char small[4], big[2048];
	int e = getpwnam_r("root", &pw, small, sizeof(small), &res);
	printf("getpwnam_r(root, 4-byte buffer): %s, result %s\n", e == ERANGE ? "ERANGE" : strerror(e),
	       res ? "set" : "NULL");
	e = getpwuid_r(0, &pw, big, sizeof(big), &res);
	printf("getpwuid_r(0): %d, ", e);
	show_pw("result", res);
	e = getpwnam_r("no-such-user", &pw, big, sizeof(big), &res);
	printf("getpwnam_r(no-such-user): %d, result %s\n", e, res ? "set" : "NULL");

	show_gr("getgrgid(0)", getgrgid(0));
	show_gr("getgrnam(root)", getgrnam("root"));
	errno = 0;
	struct group *g = getgrnam("no-such-group");
	printf("getgrnam(no-such-group): %s, errno %d\n", g ? "found" : "NULL", errno);
	struct group gr, *gres = &gr;
	e = getgrgid_r(0, &gr, small, sizeof(small), &gres);
	printf("getgrgid_r(0, 4-byte buffer): %s, result %s\n", e == ERANGE ? "ERANGE" : strerror(e),
	       gres ? "set" : "NULL");
	e = getgrnam_r("root", &gr, big, sizeof(big), &gres);
	printf("getgrnam_r(root): %d, ", e);
	show_gr("result", gres);

	/* The enumerations: root is the first line of both files here and
	 * on Linux; a rewind starts over. */
	int n = 0, saw_root = 0;
	setpwent();
	while ((p = getpwent())) {
		n++;
		saw_root |= p->pw_uid == 0 && strcmp(p->pw_name, "root") == 0;
	}
	printf("getpwent: %s entries, root %s\n", n > 0 ? "some" : "no", saw_root ? "among them" : "missing");
	setpwent();
	show_pw("getpwent after setpwent", getpwent());
	endpwent();
	setgrent();
	show_gr("getgrent", getgrent());
	endgrent();
	return 0;
}
