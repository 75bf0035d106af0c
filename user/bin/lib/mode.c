/* The file-mode parser of chmod and mkdir -m. */
#include <sys/stat.h>
#include <sys/types.h>

#include "tool.h"

/* Applies MODE, octal or symbolic (chmod's syntax: [ugoa]*([-+=]([rwxXst]*|[ugo]))+
   clauses separated by commas), to old. A clause without [ugoa] does not
   touch the bits set in umask_bits. Returns -1 if MODE is invalid. */
int tool_parse_mode(const char *s, mode_t old, int is_dir, mode_t umask_bits, mode_t *out)
{
	mode_t cur = old & 07777;
	if (*s >= '0' && *s <= '7') {
		unsigned long v = 0;
		for (const char *p = s; *p; p++) {
			if (*p < '0' || *p > '7')
				return -1;
			v = v * 8 + (unsigned long)(*p - '0');
			if (v > 07777)
				return -1;
		}
		*out = (mode_t)v;
		return 0;
	}
	for (;;) {
		mode_t who = 0, mask = 07777;
		for (;; s++) {
			if (*s == 'u')
				who |= S_ISUID | S_IRWXU;
			else if (*s == 'g')
				who |= S_ISGID | S_IRWXG;
			else if (*s == 'o')
				who |= S_ISVTX | S_IRWXO;
			else if (*s == 'a')
				who |= 07777;
			else
				break;
		}
		if (who == 0) {
			who = 07777;
			mask = (mode_t)~umask_bits & 07777;
		}
		if (*s != '+' && *s != '-' && *s != '=')
			return -1;
		while (*s == '+' || *s == '-' || *s == '=') {
			char op = *s++;
			mode_t perm = 0;
			if (*s == 'u' || *s == 'g' || *s == 'o') {
				int shift = *s == 'u' ? 6 : *s == 'g' ? 3 : 0;
				perm = (mode_t)(((cur >> shift) & 7) * 0111);
				s++;
			} else {
				for (;; s++) {
					if (*s == 'r')
						perm |= 0444;
					else if (*s == 'w')
						perm |= 0222;
					else if (*s == 'x')
						perm |= 0111;
					else if (*s == 'X')
						perm |= is_dir || (old & 0111) ? 0111 : 0;
					else if (*s == 's')
						perm |= S_ISUID | S_ISGID;
					else if (*s == 't')
						perm |= S_ISVTX;
					else
						break;
				}
			}
			perm &= who & mask;
			if (op == '+')
				cur |= perm;
			else if (op == '-')
				cur &= ~perm;
			else
				cur = (cur & ~who) | perm;
		}
		if (*s == '\0')
			break;
		if (*s++ != ',')
			return -1;
	}
	*out = cur;
	return 0;
}
