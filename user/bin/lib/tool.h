/* Helpers shared by the small tools of /bin (the files of user/bin/lib, linked
   into every tool). */
#ifndef TOOL_H
#define TOOL_H

#include <sys/types.h>
#include <sys/stat.h>
#include <time.h>

/* Applies MODE, octal or symbolic (chmod's syntax: [ugoa]*([-+=]([rwxXst]*|[ugo]))+
   clauses separated by commas), to old. A clause without [ugoa] does not
   touch the bits set in umask_bits. Returns -1 if MODE is invalid. */
int tool_parse_mode(const char *s, mode_t old, int is_dir, mode_t umask_bits, mode_t *out);

/* execvp(argv[0], argv); a file that is found but is not a program
   (ENOEXEC) is run by /bin/sh. Returns only on failure, with errno set. */
void tool_execvp(char **argv);

/* -- options (options.c) -- */

/* What a tool's flag() returns besides 0 (taken). */
#define TOOL_OPT_BAD -1		/* not an option of this tool */
#define TOOL_OPT_TOLD -2	/* a bad argument: flag() said why */

/* The options a tool takes. */
struct tool_opts {
	const char *name;	/* the tool, for messages */
	const char *usage;	/* "usage: USAGE" after "invalid option"; NULL: none */
	const char *with_arg;	/* the letters that take an argument (NULL: none) */
	int posix;		/* options end at the first operand (else GNU-style) */
	int gnu_try;		/* after a bad option: "Try 'NAME --help' for more information." */
	/* Takes letter c, with its argument for a with_arg letter (else NULL):
	   0, TOOL_OPT_BAD or TOOL_OPT_TOLD. */
	int (*flag)(int c, const char *arg);
	/* If given: 1 if arg, which starts with '-', is an operand (chmod's
	   "-w"); nops counts the operands so far. */
	int (*claim)(const char *arg, int nops);
	/* If given: sees each option word before its letters; 1 if it took the
	   whole word (head's "-5"), TOOL_OPT_TOLD if it was bad (said why), 0 to
	   go on with the letters. */
	int (*word)(const char *arg);
};

/* Reads argv's options with o: letters grouped ("-rf"), a letter's
   argument as the rest of the word or the next one, "--" ending them, "-"
   an operand. Stores the operands in a new NULL-terminated array *ops
   with room for one more, and returns their number; -1 after telling
   "NAME: invalid option -- 'c'" and the usage, or "NAME: option requires
   an argument -- 'c'". */
int tool_options(int argc, char **argv, const struct tool_opts *o, char ***ops);

/* -- memory (memory.c), ids (ids.c) -- */

/* realloc(p, n), n 0 counting as 1; when memory is out, tells "TOOL:
   Cannot allocate memory" and exits with status. */
void *tool_xrealloc(const char *tool, int status, void *p, size_t n);

/* A numeric user or group id (or "root") from s[0..n): 0 to 2^31-2, or -1
   if it is not one. */
long tool_parse_id(const char *s, size_t n);

/* -- files (files.c, walk.c) -- */

/* dir + "/" + the nlen bytes of name (no doubled slash); exits when out
   of memory. */
char *tool_join(const char *dir, const char *name, size_t nlen);
/* read(2), again when a signal interrupted it. */
ssize_t tool_read(int fd, void *buf, size_t n);
/* write(2) until all n bytes are out: 0, or -1 with errno. */
int tool_write_all(int fd, const char *p, size_t n);
/* All of fd into a new buffer, its length in *len; NULL with errno. */
char *tool_read_all(int fd, size_t *len);
/* fn(DIR/NAME) for each entry of directory path but . and ..; the OR of
   its results, 1 (told as "TOOL: PATH: error" unless silent) if the
   directory cannot be read. */
int tool_for_each_entry(const char *tool, const char *path, int silent, int (*fn)(const char *path));
/* The last component of path (trailing slashes ignored): its start, its
   length in *len. */
const char *tool_base_name(const char *path, size_t *len);
/* cp's and mv's operands SOURCE... DEST: the OR of fn(SOURCE, DEST) for
   each SOURCE, or of fn(SOURCE, DEST/its base name) when DEST is a
   directory. 1 after "TOOL: missing file operand", "TOOL: missing
   destination file operand after 'SOURCE'" or, for several SOURCEs when
   DEST is not a directory, "TOOL: target 'DEST': Not a directory". */
int tool_to_dest(const char *tool, char **ops, int nops, int (*fn)(const char *src, const char *dst));
/* Copies in to out until the end of in: 0, -1 on a read error, -2 on a
   write error (errno set). */
int tool_copy_fd(int in, int out);
/* Flushes standard output: status, or fail after "TOOL: write error: ..."
   if something written to it did not get out. */
int tool_flush(const char *tool, int status, int fail);
/* apply(path, its stat, 1) (stat: a link given is followed); with
   recursive, for a directory then apply(entry, its lstat, 0) for each one
   below it. A path that cannot be examined counts 1, told as "TOOL: PATH:
   error" unless silent. The OR of it all. */
int tool_walk(const char *tool, const char *path, int recursive, int silent,
	      int (*apply)(const char *path, const struct stat *st, int top));

/* path with every link followed and "." and ".." resolved into out
   (PATH_MAX bytes): 0, or -1 with errno. Unless all_exist, the last
   component may be missing (not a dangling link: that must lead to an
   existing directory, as GNU readlink -f). (canon.c) */
int tool_canonical(const char *path, int all_exist, char *out);

/* -- head and tail (count.c): "-n N", "-c N", "-N", -q, -v and (tail) -f -- */
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

/* -- dates (when.c); Arbor keeps UTC only -- */

/* Days since 1970-01-01 of a proleptic Gregorian date (m 1..12). */
long long tool_days_from_civil(long long y, int m, int d);
/* date -d's DATE: @SECONDS[.FRACTION], YYYY-MM-DD[ HH:MM[:SS]] (or a T
   for the space), "now" or empty: 0 and *t, or -1. */
int tool_parse_date(const char *s, struct timespec *t);
/* touch -t's [[CC]YY]MMDDhhmm[.ss]: 0 and *t, or -1. */
int tool_parse_stamp(const char *s, struct timespec *t);

/* -- patterns (match.c) -- */

/* 1 if s matches the shell pattern p (* ? [...] [!...] and \ quoting; a
   '/' is an ordinary character), ignoring case if fold. */
int tool_match(const char *p, const char *s, int fold);

/* -- test (test.c) -- */

/* test ARG... or [ ARG... ] (argv[0] names which; "[" wants "]" last):
   0 true, 1 false, 2 after "PREFIXtest: syntax error", "PREFIX[: missing
   ']'" or "PREFIXtest: invalid integer 'X'" on standard error. */
int tool_test(const char *prefix, int argc, char **argv);

/* -- printf (format.c) -- */

/* printf(1) of fmt with the nargs args (GNU printf's escapes, conversions
   diouxXfFeEgGcsb%, flags, widths, precisions, '*'; the format again while
   arguments remain; \c ends the output) onto fd, written out before each
   message and at the end. 0, or 1 after telling "TOOL: 'ARG': expected a
   numeric value", another bad argument or conversion, or a write error;
   0 after a \c whatever came before (as GNU printf). Arguments in
   messages are quoted as GNU's ('a\\b'). */
int tool_format(const char *tool, const char *fmt, int nargs, char **args, int fd);

#endif
