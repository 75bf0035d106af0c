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

/* dir + "/" + the nlen bytes of name (no doubled slash); exits when out
   of memory. */
char *tool_join(const char *dir, const char *name, size_t nlen);
/* write(2) until all n bytes are out: 0, or -1 with errno. */
int tool_write_all(int fd, const char *p, size_t n);
/* All of fd into a new buffer, its length in *len; NULL with errno. */
char *tool_read_all(int fd, size_t *len);
/* fn(DIR/NAME) for each entry of directory path but . and ..; the OR of
   its results, 1 (told as "TOOL: PATH: error" unless silent) if the
   directory cannot be read. */
int tool_for_each_entry(const char *tool, const char *path, int silent, int (*fn)(const char *path));

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
