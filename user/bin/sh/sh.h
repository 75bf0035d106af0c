/*
 * sh.h: what the files of Arbor's shell (user/bin/sh/) share: the syntax
 * tree, the variables, jobs and input sources, the state each file owns
 * (one struct per owner, defined in that file) and the functions one file
 * calls in another, grouped by the file that defines them.
 *
 * How a command flows through the files: input.c reads lines, lex.c cuts
 * them into tokens, parse.c builds a tree (in an arena), exec.c walks it,
 * expanding words with expand.c (which uses pattern.c and arith.c),
 * applying redirections with redir.c, running programs with program.c and
 * builtins with builtins.c and builtin_*.c; jobs.c waits for children and
 * keeps the job table, trap.c the signal dispositions and traps, vars.c
 * the variables, parameters and functions; main.c starts it all. On a
 * terminal input.c reads through the line editor, lineterm.c, built on
 * the I/O-free lineedit.c and history.c (lineedit.h).
 */
#ifndef SH_H
#define SH_H

#include <stdbool.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC F_DUPFD
#endif
#ifndef WCOREDUMP
#define WCOREDUMP(s) 0
#endif
#define MAXSIG 65

/* Arbor (whose C library is newlib: the Makefile's build does not define
 * __arbor__, tools/arbor-cc's does) has its own console line discipline. */
#if defined(__arbor__) || defined(__NEWLIB__)
#define ARBOR_CONSOLE 1
#endif

/* Arbor's console echoes Ctrl-C as "^C" and a newline; other terminals
 * leave the cursor after "^C". */
#ifdef ARBOR_CONSOLE
#define INTR_NEWLINE ""
#else
#define INTR_NEWLINE "\n"
#endif
#define NORETURN __attribute__((noreturn))
#define PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Flags of exec_node and run_command. */
#define EX_NOFORK 1		/* a forked child: the last command may exec */
#define EX_COND 2		/* the status is tested: set -e does not apply */

/* -- the types ----------------------------------------------------------- */

/* A growing string. */
struct str {
	char *s;
	size_t n, cap;
};

/* A NULL-terminated vector of malloc'd strings. */
struct vec {
	char **v;
	size_t n, cap;
};

struct ablock {
	struct ablock *next;
	size_t used, cap, pad;
	char data[];
};

struct arena {
	struct ablock *head;
	int pinned;		/* holds a function definition: kept forever */
};
#define V_EXPORT 1
#define V_RO 2
#define NBUCKET 64

struct var {
	struct var *next;
	char *name;
	char *val;		/* NULL: unset (but maybe exported or readonly) */
	int flags;
};
/* Function call frames: the caller's parameters and the locals to restore. */
struct saved_var {
	struct saved_var *next;
	char *name, *val;
	int existed, flags;
};

struct frame {
	struct frame *up;
	char **pp;
	int npp;
	struct saved_var *locals;
};
struct func {
	struct func *next;
	char *name;
	struct node *body;
};
struct source {
	int fd;			/* -1: the string str */
	const char *str;
	size_t spos;
	int buffered;		/* a private descriptor: read ahead freely */
	int seekable;		/* a shared regular file: read ahead, then seek back */
	int interactive;
	int intr;		/* the read was interrupted by Ctrl-C */
	const char *prompt;	/* line editing: the prompt it draws (lex.c) */
	char buf[1024];
	size_t blen, bpos;
};
enum { T_WORD, T_NL, T_EOF, T_SEMI, T_DSEMI, T_AMP, T_AND, T_PIPE, T_OR, T_LPAR, T_RPAR, T_REDIR };
enum { R_IN, R_OUT, R_CLOB, R_APP, R_RDWR, R_DUPIN, R_DUPOUT, R_HERE, R_HERESTRIP };
struct token {
	int type;
	char *text;		/* T_WORD: the word as written (quotes kept) */
	int op, fd;		/* T_REDIR: R_*, the explicit fd or -1 */
};

struct redir {
	struct redir *next;
	int op, fd;
	char *word;		/* target, or here-document delimiter */
	char *here;		/* here-document body */
	int quoted;		/* quoted delimiter: the body is not expanded */
};

struct lexer {
	struct source *src;
	char *line;
	size_t pos;
	int eof;
	int prompt;		/* the next line read prompts with PS1 (1) or PS2 (2) */
	struct redir *hd[32];	/* here-documents whose bodies follow this line */
	int nhd;
};
/* Inside $( ... ) a case pattern's ')' does not close: this follows the
 * words "case" and "esac" (at the start of words) to tell. */
struct casetrack {
	int depth;		/* open case commands */
	char word[8];
	int len;		/* -1: not in a word that could be a keyword */
	int boundary;		/* the previous character ended a word */
};

enum { N_SIMPLE, N_PIPE, N_AND, N_OR, N_LIST, N_BG, N_SUB, N_BRACE, N_IF, N_WHILE,
       N_UNTIL, N_FOR, N_CASE, N_FUNC };

struct caseitem {
	struct caseitem *next;
	char **pats;
	int npats;
	struct node *body;
};

struct node {
	int type;
	int bang;		/* N_PIPE: ! pipeline */
	int has_in;		/* N_FOR: an explicit word list */
	struct node *a, *b, *c;
	struct node **kids;	/* N_PIPE, N_LIST */
	int nkids;
	char **words;		/* N_SIMPLE arguments, N_FOR word list */
	int nwords;
	char **assigns;		/* N_SIMPLE */
	int nassigns;
	struct redir *redirs;
	char *name;		/* N_FOR variable, N_FUNC name, N_CASE word */
	struct caseitem *items;
};
struct parser {
	struct lexer *lx;
	int have;
	struct token t;
};
typedef long long arint;
/* Expansion builds text with a flag per character. */
#define F_Q 1			/* quoted: literal for patterns, never split */
#define F_SPLIT 2		/* from an unquoted expansion: split at $IFS */
#define F_BRK 4			/* a field break from "$@" */
#define F_SBRK 8		/* a field break from unquoted $@ or $* */

struct xb {
	char *s;
	unsigned char *f;
	size_t n, cap;
	int quoted;		/* the word had quotes: it makes a field even if empty */
	int at_empty;		/* "$@" with no parameters */
};

/* Contexts: unquoted, "in double quotes", a here-document, and the word
 * of a "${name:-word}" (double-quoted, but "..." in it are quotes). */
enum { C_NONE, C_DQ, C_HERE, C_DQW };
struct job {
	struct job *next;
	int id;			/* in the job table; 0 while in the foreground */
	pid_t pgid;
	int n;
	pid_t *pids;
	int *st;		/* wait statuses */
	char *done;
	int stopped, changed;
	char *cmd;
};
struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	int special;		/* assignments before it stay */
};

/* -- the state, one struct per owner ------------------------------------ */

/* The shell process (main.c). */
struct sh_state {
	int last_status;	/* $? */
	int interactive;	/* commands come from a terminal */
	int jobctl;		/* process groups and the terminal are ours */
	int tty_fd;		/* the terminal, when jobctl; -1 before */
	pid_t pgid;		/* the shell's process group */
	pid_t pid;		/* $$ (subshells keep the parent's) */
	pid_t last_bg;		/* $! */
	int opt_e, opt_x, opt_u, opt_f, opt_n;	/* set -e -x -u -f -n */
	jmp_buf *top_jmp;	/* where errors abandon the current command */
};
extern struct sh_state sh;

/* Variables, parameters and functions (vars.c). */
struct sh_vars {
	struct var *tab[NBUCKET];	/* by hash of the name */
	char *arg0;		/* $0 */
	char **pp;		/* $1... */
	int npp;
	struct frame *frames;	/* function calls, innermost first */
	struct func *funcs;
};
extern struct sh_vars vars;

/* Where execution stands (exec.c). */
struct sh_flow {
	int loop_depth, pend_break, pend_cont;	/* loops and pending break/continue */
	int scope_depth, ret_pending;	/* functions and . scripts; pending return */
	int subst_ran, subst_status;	/* the last command substitution's status */
	int errexit_off;	/* inside a function or builtin whose status is tested */
};
extern struct sh_flow flow;

/* Signals and traps (trap.c); the handlers write the volatile members. */
struct sh_signals {
	char *trap[MAXSIG];	/* actions; [0] is EXIT; "" ignores */
	volatile sig_atomic_t pending[MAXSIG], any_pending;
	int in_trap;		/* running a trap's action */
	volatile sig_atomic_t got_sigint;	/* Ctrl-C (2: wait_fg already ended the line) */
};
extern struct sh_signals sigs;

/* The signals the shell knows by name (trap.c). */
struct signame {
	const char *name;
	int num;
	const char *desc;
};
extern const struct signame sigtab[];
extern const size_t nsigtab;

/* Descriptors saved while a builtin, function or compound command runs
 * with redirections (redir.c): restored newest first down to a mark,
 * the n of the moment it started. */
struct saved_fd {
	int fd, copy;		/* copy -1: fd was closed */
};
struct sh_fdsave {
	struct saved_fd *v;
	size_t n, cap;
};
extern struct sh_fdsave fdsave;

/* The job table (jobs.c): background and stopped jobs, newest first. */
extern struct job *jobs;

/* The arena new syntax trees go to (parse.c); NULL between commands. */
extern struct arena *cur_arena;

/* -- the functions files call in each other, by the file that has them - */

/* -- main.c ---------------------------------------------------------------- */

/* Reads, parses and runs the commands of src until its end (or exit);
 * the status of the last one. */
int run_source(struct source *src);

/* run_source over a string: eval, traps, -c. */
int run_string(const char *code);
/* Runs the EXIT trap and exits with status. */
void exit_shell(int status) NORETURN;

/* -- util.c ---------------------------------------------------------------- */

/* malloc, realloc and strdup that end the shell (status 2) when memory
 * runs out, with write(2) only. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
char *xstrdup(const char *s);

/* Appends to a growing string (kept NUL-terminated). */
void s_addn(struct str *b, const char *s, size_t n);
void s_addc(struct str *b, char c);
void s_adds(struct str *b, const char *s);

/* The string (malloc'd, "" if empty), leaving b empty. */
char *s_take(struct str *b);
const char *s_cstr(const struct str *b);

/* Appends s (owned by v from now on), keeping v->v NULL-terminated. */
void v_push(struct vec *v, char *s);
void v_free(struct vec *v);

/* qsort order of char * by strcmp. */
int cmp_str(const void *a, const void *b);

/* Writes all of s to fd (again after EINTR); errors are dropped. */
void xwrite(int fd, const char *s, size_t n);
void fdputs(int fd, const char *s);
void fdprintf(int fd, const char *fmt, ...) PRINTF(2, 3);

/* "sh: message" on stderr. */
void warn(const char *fmt, ...) PRINTF(1, 2);

/* Abandons the command being run (an interactive shell reads the next
 * one, others exit). */
void sh_abort(int status) NORETURN;

/* warn(), then sh_abort(2). */
void sh_error(const char *fmt, ...) PRINTF(1, 2) NORETURN;
int is_name_start(int c);
int is_name_char(int c);

/* A shell variable name: [A-Za-z_][A-Za-z0-9_]*. */
int is_name(const char *s);

/* Single-quotes s for reuse as shell input. */
void sq_append(struct str *b, const char *s);

/* Appends s, single-quoted only if it needs quotes to be read back. */
void maybe_quote(struct str *b, const char *s);

/* Moves fd to 10 or above, close-on-exec: the shell's own descriptors. */
int move_high(int fd);

/* -- parse.c --------------------------------------------------------------- */

/* A copy of s in cur_arena. */
char *astrdup(const char *s);

/* Frees a command's syntax tree, unless it holds a function definition
 * (pinned). */
void arena_release(struct arena *a);

/* A reserved word (if then ... { } !)? */
int is_reserved(const char *w);

/* NAME=... ? */
int is_assignment(const char *w);

/* One complete command: a line's worth (more if a construct continues).
 * Stops right after the newline so an interactive shell does not read on. */
struct node *parse_top(struct parser *P, int *eof);

/* A command as text (malloc'd), for job listings. */
char *node_str(struct node *n);

/* -- vars.c ---------------------------------------------------------------- */

/* The variable, or NULL. */
struct var *vfind(const char *name);

/* Its value, or NULL if unset. */
const char *getvar(const char *name);
/* The next candidate for program name along $PATH ("/bin" if unset; an
 * empty entry is the current directory): *pos starts NULL, full gets the
 * path (the caller frees full->s). False when the entries are done. */
bool path_next(const char **pos, const char *name, struct str *full);

/* Sets (val non-NULL) and/or adds flags; -1 for a readonly variable. */
int setvar(const char *name, const char *val, int flags);

/* Removes a variable, even readonly. */
void var_drop(const char *name);

/* unset: 0, or -1 (told) for a readonly variable. */
int unsetvar(const char *name);

/* Puts a variable back as it was (existed, val, flags). */
void var_restore(const char *name, int existed, const char *val, int flags);

/* "NAME=value" */
int set_assignment(const char *a, int flags);

/* All variables sorted by name, in a malloc'd array of *count. */
struct var **sorted_vars(size_t *count);

/* The environment for a program: the exported set variables as
 * "NAME=value" (malloc'd, NULL-terminated). */
char **build_env(void);

/* Sets $1... to copies of v[0..n). */
void set_params(char **v, int n);

/* A function call: saves $1... and gives argv as the new ones;
 * frame_pop puts back the caller's and the variables made local. */
void frame_push(char **argv, int argc);
void frame_pop(void);

/* local NAME in the innermost frame: its value is put back at frame_pop. */
void make_local(const char *name);

/* The function table: find, define (body in a pinned arena) and unset. */
struct func *find_func(const char *name);
void define_func(const char *name, struct node *body);
int unset_func(const char *name);

/* -- trap.c ---------------------------------------------------------------- */

/* A signal by name (INT, SIGINT, int) or number; 0 is EXIT; -1 unknown. */
int sig_num(const char *s);

/* The name without SIG ("EXIT" for 0) and the description of a signal;
 * NULL if unknown. */
const char *sig_name(int n);
const char *sig_desc(int n);

/* SIGINT handler of an interactive shell: sets sigs.got_sigint. */
void on_sigint(int sig);

/* sigaction without SA_RESTART (reads see EINTR). */
void set_handler(int sig, void (*fn)(int));

/* What an untrapped signal does in this shell. */
void default_disposition(int sig);

/* trap ACTION SIG: NULL resets to the default disposition, "" ignores;
 * sig 0 is EXIT. */
void set_trap(int sig, const char *action);

/* Runs the actions of trapped signals that arrived (not from a trap);
 * $? is kept. */
void run_pending_traps(void);

/* Abandons the command on Ctrl-C in an interactive shell. */
void check_interrupt(void);

/* -- input.c --------------------------------------------------------------- */

/* The next line (with its '\n' unless at the end), or NULL at the end.
 * Shared descriptors are read a byte at a time (or seeked back), so that
 * commands see the input after the line that started them. */
char *src_readline(struct source *s);

/* -- lex.c ----------------------------------------------------------------- */

/* "syntax error: ...", then sh_abort(2). */
void syntax_error(const char *fmt, ...) PRINTF(1, 2) NORETURN;

/* Feeds one character; 1 if a ')' here ends a case pattern. */
int case_track(struct casetrack *t, int c);

/* The next token; reads more lines (and here-document bodies after a
 * newline) as needed. */
struct token lex(struct lexer *lx);

/* -- pattern.c ------------------------------------------------------------- */

/* Does s match the pattern p (* ? [...], backslash quotes)? */
int pmatch(const char *p, const char *s);

/* Is there a * ? or [...] in the pattern? */
int has_magic(const char *p);

/* Appends the paths matching pat, in directory order (callers sort);
 * none if nothing matches. */
void glob_expand(const char *pat, struct vec *out);

/* -- arith.c --------------------------------------------------------------- */

/* The value of an arithmetic expression (already expanded); errors
 * abandon the command. */
arint arith_eval(const char *s);

/* -- expand.c -------------------------------------------------------------- */

/* Appends a character with its F_* flags; xb_free frees x's text. */
void xb_add(struct xb *x, char c, unsigned char fl);
void xb_free(struct xb *x);

/* $IFS, or " \t\n" if unset. */
const char *ifs_chars(void);

/* A word without field splitting or pathname expansion. */
char *expand_str(const char *w);

/* A word as a pattern: its quoted characters backslash-escaped. */
char *expand_pattern(const char *w);

/* A here-document body with $ and ` expanded. */
char *expand_here(const char *body);

/* A word's fields: expansion, field splitting, pathname expansion. */
void expand_fields(const char *w, struct vec *out);

/* -- redir.c --------------------------------------------------------------- */

/* Puts back the descriptors saved since fdsave.n was mark. */
void restore_fds(size_t mark);

/* Applies redirections; with save they can be undone with restore_fds.
 * -1 (after a message) if one failed. */
int apply_redirs(struct redir *r, int save);

/* -- jobs.c ---------------------------------------------------------------- */

/* A job of n processes running cmd (owned by the job); job_add puts it
 * in the table with the next free number, job_remove takes it out,
 * job_free frees it. */
struct job *job_new(int n, char *cmd);
void job_free(struct job *j);
void job_add(struct job *j);
void job_remove(struct job *j);

/* Have all its processes ended? */
int job_done(const struct job *j);

/* A wait status as $?: the exit code, or 128 + the signal. */
int decode_status(int st);

/* Collects the children that ended (or stopped) without waiting. */
void reap_jobs(void);

/* "Running", "Stopped", "Done", "Done(N)", or the description of the
 * signal that ended it ("Signal N" in buf if it has none). */
const char *job_state(const struct job *j, char *buf, size_t size);

/* %+: the newest stopped job, else the newest; NULL if none. */
struct job *current_job(void);

/* Before a prompt: tells about jobs that ended or stopped. Scripts keep
 * ended jobs for wait, a limited number of them. */
void notify_jobs(void);

/* Waits for a foreground job; its status, or 128+SIGTSTP when it stopped
 * (it then joins the job table). */
int wait_fg(struct job *j);

/* Waits for a background job to end (wait builtin); -1-sig if a trapped
 * signal interrupted. */
int wait_bg(struct job *j);

/* In a new child: its process group and, in the foreground, the terminal;
 * then the state of a subshell. */
void child_setup(pid_t pgid, int fg);

/* In the shell after fork: records child idx of j and, with job
 * control, puts it in the job's group (given the terminal if fg). */
void parent_setup(struct job *j, int idx, pid_t pid, int fg);

/* A forked child's shell state: not interactive, no job control or job
 * table, the default signal actions back, traps with an action reset
 * (ignored signals stay ignored). */
void become_subshell(void);

/* -- program.c ------------------------------------------------------------- */

/* Runs a program (argv[0] with '/', else from $PATH) in place of the
 * shell, with build_env(); exits 126 or 127 after a message if it cannot. */
void exec_prog(char **argv) NORETURN;

/* -- exec.c ---------------------------------------------------------------- */

/* The words joined by spaces (malloc'd). */
char *join_args(int argc, char **argv);

/* A command's words are expanded; now run it. */
int run_command(int argc, char **argv, struct vec *asg, struct redir *redirs, int flags,
		       int nofunc);

/* Runs a syntax tree with EX_* flags; its status (also in $?). */
int exec_node(struct node *n, int flags);

/* -- builtins.c ------------------------------------------------------------ */

/* A whole decimal int: 0, or -1. */
int parse_int(const char *s, int *out);
int bi_exec(int argc, char **argv);

/* The builtin called name, or NULL. */
const struct builtin *find_builtin(const char *name);
/* The name of builtin i (0, 1, ...), NULL past the last (completion). */
const char *builtin_name(int i);

/* -- login.c: a login shell ---------------------------------------------- */

/* As a login shell (argv[0] "-sh"): HOME, unless set, becomes the user's
 * home from /etc/passwd if it is a directory, else /root (for root) if it
 * exists, else "/"; exported. */
void login_setup(void);

/* -- lineterm.c: line editing on a terminal (lineedit.h) ------------------- */

/* Turns line editing on if standard input and error are a terminal, and
 * loads $HOME/.sh_history (kept open to append, when writable). */
void le_setup(void);
/* Does source s read its lines with the line editor? */
int le_enabled(const struct source *s);
/* One line edited on the terminal, prompting with s->prompt: the line
 * with its newline (malloc'd), or NULL at end of input, or NULL with
 * s->intr set for Ctrl-C. */
char *le_readline(struct source *s);
/* The history builtin: history [N]. */
int bi_history(int argc, char **argv);

/* -- builtin_vars.c -------------------------------------------------------- */

/* The builtins, each as argc/argv with its exit status (the table is in
 * builtins.c). */
int bi_export(int argc, char **argv);
int bi_readonly(int argc, char **argv);
int bi_unset(int argc, char **argv);

/* set -o NAME or the letter: 0, or -1 if unknown. */
int set_option(const char *name, int on);
int bi_set(int argc, char **argv);
int bi_local(int argc, char **argv);
int bi_read(int argc, char **argv);

/* -- builtin_test.c -------------------------------------------------------- */

int bi_test(int argc, char **argv);

/* -- builtin_printf.c ------------------------------------------------------ */

int bi_printf(int argc, char **argv);

/* -- builtin_jobs.c -------------------------------------------------------- */

int bi_wait(int argc, char **argv);
int bi_jobs(int argc, char **argv);
int bi_fg(int argc, char **argv);
int bi_bg(int argc, char **argv);
int bi_kill(int argc, char **argv);
int bi_trap(int argc, char **argv);

#endif
