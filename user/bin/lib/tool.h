/* Helpers shared by the small tools of /bin (the files of user/bin/lib, linked
   into every tool). */
#ifndef TOOL_H
#define TOOL_H

#include <sys/types.h>

/* Applies MODE, octal or symbolic (chmod's syntax: [ugoa]*([-+=]([rwxXst]*|[ugo]))+
   clauses separated by commas), to old. A clause without [ugoa] does not
   touch the bits set in umask_bits. Returns -1 if MODE is invalid. */
int tool_parse_mode(const char *s, mode_t old, int is_dir, mode_t umask_bits, mode_t *out);

/* execvp(argv[0], argv); a file that is found but is not a program
   (ENOEXEC) is run by /bin/sh. Returns only on failure, with errno set. */
void tool_execvp(char **argv);

/* Reads options GNU-style: anywhere among the operands, letters grouped
   ("-rf"), "--" ending them. Each letter goes to flag(), which returns 0 if
   the tool takes it. claim(arg, operands so far), if given, may take an
   argument that starts with '-' as an operand (chmod's "-w"). Stores the
   operands in a new array *ops and returns their number; -1 after telling
   "NAME: invalid option" and "usage: USAGE". */
int tool_options(int argc, char **argv, const char *name, const char *usage, int (*flag)(int c),
		 int (*claim)(const char *arg, int nops), char ***ops);

/* head and tail: "-n N", "-c N", "-N", -q, -v and (tail) -f. */
struct tool_count {
	unsigned long long n;	/* 10 unless given */
	int sign;		/* '+', '-' or 0, as N was written */
	int bytes;		/* -c: N counts bytes */
	int headers;		/* print "==> FILE <==" lines */
	int follow;		/* -f */
};
/* N with an optional sign: -1 if it is not a number. */
int tool_parse_count(const char *s, unsigned long long *n, int *sign);
/* Reads them; the files (at least "-") into a new array *files; their
   number, or -1 after a message. */
int tool_count_options(int argc, char **argv, const char *name, const char *usage, int allow_follow,
		       struct tool_count *c, char ***files);

#endif
