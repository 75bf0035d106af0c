/* Decoding the keys a terminal sends (term.h): plain bytes, control keys
   and the ANSI/VT escape sequences of the cursor and page keys. Pure, so
   the host test checks it byte by byte. */
#include "term.h"

/* Completes ESC [ ... or ESC O ...: the key it names, TK_NONE if none. */
static enum tk_key tk_sequence(const unsigned char *s, int n)
{
	unsigned char last = s[n - 1];
	if (n == 3) {
		switch (last) {
		case 'A': return TK_UP;
		case 'B': return TK_DOWN;
		case 'C': return TK_RIGHT;
		case 'D': return TK_LEFT;
		case 'H': return TK_HOME;
		case 'F': return TK_END;
		default: return TK_NONE;
		}
	}
	if (last == '~' && s[1] == '[' && n == 4) {
		switch (s[2]) {
		case '1': case '7': return TK_HOME;
		case '4': case '8': return TK_END;
		case '3': return TK_DELETE;
		case '5': return TK_PGUP;
		case '6': return TK_PGDN;
		default: return TK_NONE;
		}
	}
	return TK_NONE;
}

enum tk_key tk_feed(struct tk_state *t, unsigned char c)
{
	if (t->n == 0) {
		if (c == 0x1b) {
			t->seq[t->n++] = c;
			return TK_NONE;
		}
		if (c == '\r' || c == '\n')
			return TK_ENTER;
		if (c == 0x7f || c == 0x08)
			return TK_BACKSPACE;
		if (c == '\t' || c >= 0x20)
			return TK_CHAR;
		t->ctrl = c + 'a' - 1;
		return TK_CTRL;
	}
	if (t->n == 1) {
		if (c == '[' || c == 'O') {
			t->seq[t->n++] = c;
			return TK_NONE;
		}
		t->n = 0;
		return TK_ESC;
	}
	t->seq[t->n++] = c;
	/* A sequence ends at its final byte (0x40-0x7e) after ESC [ or
	   ESC O; parameters (digits, ';') go on. */
	if ((c >= 0x40 && c <= 0x7e) || t->n == (int)sizeof(t->seq)) {
		enum tk_key k = (c >= 0x40 && c <= 0x7e) ? tk_sequence(t->seq, t->n) : TK_NONE;
		t->n = 0;
		return k;
	}
	return TK_NONE;
}
