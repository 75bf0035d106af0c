/* Differential test: POSIX regular expressions (regcomp, regexec with
 * sub-matches and flags, regerror's codes), fnmatch with its flags, and
 * glob over a small tree made under /tmp (sorted, GLOB_MARK, GLOB_NOCHECK,
 * GLOB_NOMATCH, GLOB_APPEND). What each prints is the result, never only
 * pass or fail. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void re(const char *pat, int cflags, const char *subject, int eflags)
{
	regex_t r;
	int e = regcomp(&r, pat, cflags);
	if (e) {
		/* the codes are POSIX's; the message texts differ by library */
		printf("regcomp(\"%s\") fails: %s\n", pat,
		       e == REG_EPAREN ? "REG_EPAREN" : e == REG_EBRACK ? "REG_EBRACK" :
		       e == REG_BADRPT ? "REG_BADRPT" : e == REG_EBRACE ? "REG_EBRACE" :
		       e == REG_EESCAPE ? "REG_EESCAPE" : e == REG_BADBR ? "REG_BADBR" : "other");
		char buf[8];
		size_t need = regerror(e, &r, buf, sizeof(buf));
		printf("  regerror truncates to %zu bytes: %s\n", strlen(buf), need > sizeof(buf) ? "yes" : "no");
		return;
	}
	regmatch_t m[4];
	e = regexec(&r, subject, 4, m, eflags);
	printf("\"%s\" ~ \"%s\": ", subject, pat);
	if (e == REG_NOMATCH) {
		printf("no match\n");
	} else {
		printf("nsub %zu", r.re_nsub);
		for (int i = 0; i < 4; i++)
			if (m[i].rm_so >= 0)
				printf(" [%d]=%d-%d '%.*s'", i, (int)m[i].rm_so, (int)m[i].rm_eo,
				       (int)(m[i].rm_eo - m[i].rm_so), subject + m[i].rm_so);
		printf("\n");
	}
	regfree(&r);
}

/* The flags' values differ between C libraries: their names are printed. */
#define fm(pat, s, flags) fm_(pat, s, flags, #flags)
#define gl(pat, flags) gl_(pat, flags, #flags)

static void fm_(const char *pat, const char *s, int flags, const char *fname)
{
	int r = fnmatch(pat, s, flags);
	printf("fnmatch(\"%s\", \"%s\", %s) = %s\n", pat, s, fname,
	       r == 0 ? "match" : r == FNM_NOMATCH ? "FNM_NOMATCH" : "error");
}

static void gl_(const char *pat, int flags, const char *fname)
{
	glob_t g;
	memset(&g, 0, sizeof(g));
	int r = glob(pat, flags, NULL, &g);
	printf("glob(\"%s\", %s) = %s:", pat, fname,
	       r == 0 ? "0" : r == GLOB_NOMATCH ? "GLOB_NOMATCH" : r == GLOB_ABORTED ? "GLOB_ABORTED" : "other");
	for (size_t i = 0; i < g.gl_pathc; i++)
		printf(" %s", g.gl_pathv[i]);
	printf("\n");
	globfree(&g);
}

int main(void)
{
	re("a(b*)c", REG_EXTENDED, "xxabbbcyy", 0);
	re("^([0-9]+)-([0-9]+)$", REG_EXTENDED, "12-345", 0);
	re("^([0-9]+)-([0-9]+)$", REG_EXTENDED, "12-34a", 0);
	re("\\(ab\\)*c", 0, "ababc", 0);
	re("HELLO", REG_ICASE, "say hello", 0);
	re("hello", REG_NOSUB, "say hello", 0);
	re("^foo", REG_EXTENDED, "foo", REG_NOTBOL);
	re("o$", REG_EXTENDED | REG_NEWLINE, "fo\nbar", 0);
	re("[[:digit:]]+", REG_EXTENDED, "abc 2024 def", 0);
	re("x{2,3}", REG_EXTENDED, "axxxxb", 0);
	re("(a|b)+", REG_EXTENDED, "cabbad", 0);
	re("a(b", REG_EXTENDED, "", 0);
	re("[abc", REG_EXTENDED, "", 0);
	re("a{2", REG_EXTENDED, "", 0);
	re("a\\", REG_EXTENDED, "", 0);

	fm("*.c", "main.c", 0);
	fm("*.c", "dir/main.c", 0);
	fm("*.c", "dir/main.c", FNM_PATHNAME);
	fm("*", ".hidden", FNM_PERIOD);
	fm("?idden", ".idden", FNM_PERIOD);
	fm("[a-c]x", "bx", 0);
	fm("[!a-c]x", "bx", 0);
	fm("\\*", "*", 0);
	fm("\\*", "\\*", FNM_NOESCAPE);
	fm("a/*/c", "a/b/c", FNM_PATHNAME);

	char base[] = "/tmp/globXXXXXX";
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	if (chdir(base) < 0)
		return 1;
	const char *files[] = { "a.c", "b.c", "c.h", ".hidden.c", "sub/x.c", "sub/y.txt" };
	mkdir("sub", 0755);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		close(open(files[i], O_CREAT | O_WRONLY, 0644));
	gl("*.c", 0);
	gl("*", GLOB_MARK);
	gl("*/*.c", 0);
	gl("[ab].c", 0);
	gl("*.nothing", 0);
	gl("*.nothing", GLOB_NOCHECK);
	gl(".*.c", 0);
	glob_t g;
	memset(&g, 0, sizeof(g));
	glob("*.h", 0, NULL, &g);
	glob("sub/*", GLOB_APPEND, NULL, &g);
	printf("GLOB_APPEND: %zu paths:", g.gl_pathc);
	for (size_t i = 0; i < g.gl_pathc; i++)
		printf(" %s", g.gl_pathv[i]);
	printf("\n");
	globfree(&g);
	for (size_t i = sizeof(files) / sizeof(files[0]); i-- > 0;)
		unlink(files[i]);
	rmdir("sub");
	chdir("/");
	printf("cleanup: %s\n", rmdir(base) == 0 ? "ok" : strerror(errno));
	return 0;
}
