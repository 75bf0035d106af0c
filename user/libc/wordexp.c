/* POSIX wordexp and wordfree: the words are expanded by the shell, as
 * POSIX describes them (tilde, parameter, command and arithmetic
 * expansion, field splitting, pathname expansion, quote removal): /bin/sh
 * runs "set -- WORDS" and prints each resulting field NUL-terminated
 * through a pipe. Before that the string is checked as glibc checks it:
 * an unquoted | & ; < > ( ) { } or newline is WRDE_BADCHAR, and with
 * WRDE_NOCMD a command substitution is WRDE_CMDSUB. (newlib's own
 * wordexp needs bash's --wordexp option.) */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

extern char **environ;

/* WRDE_BADCHAR, WRDE_CMDSUB (only with nocmd), WRDE_SYNTAX (an open
 * quote) or 0, from a scan of s with the shell's quoting: the parentheses
 * and braces of $(...), $((...)) and ${...} are theirs, not bad chars. */
static int we_scan(const char *s, int nocmd)
{
	int sq = 0, dq = 0, paren = 0, brace = 0;
	for (; *s; s++) {
		char c = *s;
		if (sq) {
			sq = c != '\'';
			continue;
		}
		if (c == '\\') {
			if (!s[1])
				return WRDE_SYNTAX;
			s++;
			continue;
		}
		if (c == '\'' && !dq) {
			sq = 1;
			continue;
		}
		if (c == '"') {
			dq = !dq;
			continue;
		}
		if (c == '`' || (c == '$' && s[1] == '(' && s[2] != '(')) {
			if (nocmd)
				return WRDE_CMDSUB;
		}
		if (c == '$' && s[1] == '(') {
			paren++;
			s++;
			continue;
		}
		if (c == '$' && s[1] == '{') {
			brace++;
			s++;
			continue;
		}
		if (paren && (c == '(' || c == ')')) {
			paren += c == '(' ? 1 : -1;
			continue;
		}
		if (brace && c == '}') {
			brace--;
			continue;
		}
		if (!dq && !paren && strchr("|&;<>(){}\n", c))
			return WRDE_BADCHAR;
	}
	return sq || dq || paren || brace ? WRDE_SYNTAX : 0;
}

/* Runs the shell on words: its output (NUL-separated fields) in *out
 * (malloc'd, *len bytes) and its wait status in *status; 0 or WRDE_NOSPACE. */
static int we_run(const char *words, int flags, char **out, size_t *len, int *status)
{
	static const char pre[] = "set -- ", post[] = "\n[ $# -eq 0 ] || printf '%s\\0' \"$@\"";
	size_t wl = strlen(words);
	char *script = malloc(sizeof("set -u; ") + sizeof(pre) + wl + sizeof(post));
	if (!script)
		return WRDE_NOSPACE;
	strcpy(script, (flags & WRDE_UNDEF) ? "set -u; " : "");
	strcat(script, pre);
	strcat(script, words);
	strcat(script, post);
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(script);
		return WRDE_NOSPACE;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!(flags & WRDE_SHOWERR))
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = { "sh", "-c", script, NULL };
	pid_t pid;
	int err = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	free(script);
	if (err) {
		close(p[0]);
		return WRDE_NOSPACE;
	}
	size_t cap = 256, n = 0;
	char *buf = malloc(cap);
	ssize_t r = 0;
	while (buf) {
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		r = read(p[0], buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(p[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (!buf)
		return WRDE_NOSPACE;
	*out = buf;
	*len = n;
	return 0;
}

int wordexp(const char *restrict words, wordexp_t *restrict we, int flags)
{
	if (!words || !we)
		return WRDE_NOSYS;
	if (flags & WRDE_REUSE)
		wordfree(we);
	int e = we_scan(words, flags & WRDE_NOCMD);
	if (e)
		return e;
	char *out;
	size_t len;
	int status;
	if ((e = we_run(words, flags, &out, &len, &status)))
		return e;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out);
		return (flags & WRDE_UNDEF) ? WRDE_BADVAL : WRDE_SYNTAX;
	}
	size_t nw = 0;
	for (size_t i = 0; i < len; i++)
		nw += out[i] == 0;
	size_t offs = (flags & WRDE_DOOFFS) ? we->we_offs : 0;
	size_t have = (flags & WRDE_APPEND) ? we->we_wordc : 0;
	char **v = realloc((flags & WRDE_APPEND) ? we->we_wordv : NULL,
			   (offs + have + nw + 1) * sizeof(char *));
	if (!v) {
		free(out);
		return WRDE_NOSPACE;
	}
	if (!(flags & WRDE_APPEND))
		for (size_t i = 0; i < offs; i++)
			v[i] = NULL;
	for (size_t i = 0, at = 0; i < nw; i++) {
		v[offs + have + i] = strdup(out + at);
		at += strlen(out + at) + 1;
		if (!v[offs + have + i]) {
			we->we_wordv = v;
			we->we_wordc = have + i;
			v[offs + have + i] = NULL;
			free(out);
			return WRDE_NOSPACE;
		}
	}
	v[offs + have + nw] = NULL;
	free(out);
	we->we_wordv = v;
	we->we_wordc = have + nw;
	if (!(flags & WRDE_APPEND) && !(flags & WRDE_DOOFFS))
		we->we_offs = 0;
	return 0;
}

void wordfree(wordexp_t *we)
{
	if (!we || !we->we_wordv)
		return;
	for (size_t i = 0; i < we->we_wordc; i++)
		free(we->we_wordv[we->we_offs + i]);
	free(we->we_wordv);
	we->we_wordv = NULL;
	we->we_wordc = 0;
}
