/* Differential test: wordexp and wordfree, the shell's word expansions
 * (field splitting, quotes, parameters, arithmetic, command substitution,
 * pathnames, tilde) and the errors (WRDE_BADCHAR, WRDE_CMDSUB with
 * WRDE_NOCMD, WRDE_BADVAL with WRDE_UNDEF, WRDE_SYNTAX), with
 * WRDE_DOOFFS and WRDE_APPEND. The environment is the program's own. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

static const char *wname(int e)
{
	switch (e) {
	case 0: return "0";
	case WRDE_BADCHAR: return "WRDE_BADCHAR";
	case WRDE_BADVAL: return "WRDE_BADVAL";
	case WRDE_CMDSUB: return "WRDE_CMDSUB";
	case WRDE_NOSPACE: return "WRDE_NOSPACE";
	case WRDE_SYNTAX: return "WRDE_SYNTAX";
	default: return "other";
	}
}

#define we(words, flags) we_(words, flags, #flags)

static void we_(const char *words, int flags, const char *fname)
{
	wordexp_t w;
	memset(&w, 0, sizeof(w));
	int e = wordexp(words, &w, flags);
	printf("wordexp(\"%s\", %s) = %s", words, fname, wname(e));
	if (e == 0) {
		printf(", %zu words:", w.we_wordc);
		for (size_t i = 0; i < w.we_wordc; i++)
			printf(" [%s]", w.we_wordv[i]);
		wordfree(&w);
	}
	printf("\n");
}

int main(void)
{
	setenv("WE_VAR", "x y", 1);
	setenv("HOME", "/tmp", 1);
	unsetenv("WE_UNSET");
	we("one two  three", 0);
	we("'single quoted' \"double $WE_VAR\"", 0);
	we("$WE_VAR", 0);
	we("${WE_VAR}z", 0);
	we("\\$WE_VAR 'a\"b'", 0);
	we("$((1+2*3))", 0);
	we("$(echo sub stitution)", 0);
	we("$(echo sub)", WRDE_NOCMD);
	we("`echo bq`", WRDE_NOCMD);
	we("'$(echo quoted)'", WRDE_NOCMD);
	we("a|b", 0);
	we("a;b", 0);
	we("(x)", 0);
	we("x > y", 0);
	we("\"a|b\" 'c;d'", 0);
	we("open\"quote", 0);
	we("$WE_UNSET", 0);
	we("$WE_UNSET", WRDE_UNDEF);
	we("", 0);
	we("~", 0);
	we("~/sub", 0);

	wordexp_t w;
	w.we_offs = 2;
	int e = wordexp("first second", &w, WRDE_DOOFFS);
	printf("WRDE_DOOFFS 2: %s, wordc %zu, v[0] %s v[1] %s v[2] %s\n", wname(e), w.we_wordc,
	       w.we_wordv[0] ? "set" : "NULL", w.we_wordv[1] ? "set" : "NULL", w.we_wordv[2]);
	e = wordexp("third", &w, WRDE_DOOFFS | WRDE_APPEND);
	printf("WRDE_APPEND: %s, wordc %zu, v[4] %s, v[5] %s\n", wname(e), w.we_wordc, w.we_wordv[4],
	       w.we_wordv[5] ? "set" : "NULL");
	e = wordexp("fourth", &w, WRDE_DOOFFS | WRDE_REUSE);
	printf("WRDE_REUSE: %s, wordc %zu, v[2] %s\n", wname(e), w.we_wordc, w.we_wordv[2]);
	wordfree(&w);

	char dir[] = "/tmp/wordexpXXXXXX";
	if (!mkdtemp(dir) || chdir(dir))
		return 1;
	close(open("b.c", O_CREAT | O_WRONLY, 0644));
	close(open("a.c", O_CREAT | O_WRONLY, 0644));
	close(open("c.h", O_CREAT | O_WRONLY, 0644));
	we("*.c", 0);
	we("*.none", 0);
	we("[ab].c c.?", 0);
	unlink("a.c");
	unlink("b.c");
	unlink("c.h");
	chdir("/");
	rmdir(dir);
	return 0;
}
