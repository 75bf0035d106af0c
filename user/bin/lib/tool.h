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

#endif
