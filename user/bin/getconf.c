/* getconf [-v SPEC] VAR | getconf [-v SPEC] PATH_VAR PATH | getconf -a [PATH]:
   the system's configuration values under glibc getconf's names, from
   sysconf, pathconf and confstr (user/libc/sysconf.c says where each
   value comes from). As glibc's: a value with no fixed limit prints
   "undefined" (an empty value with -a, which lists every name with PATH,
   default "/", for the path values); an unknown name is "Unrecognized
   variable" and status 2, as is a path value without PATH (the usage).
   -v SPEC names a programming environment: there is one
   (POSIX_V7_LP64_OFF64), and as glibc's any name is taken. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* <limits.h>'s XSI values newlib leaves out: LP64's, and Linux's nice range */
#ifndef LONG_BIT
#define LONG_BIT 64
#endif
#ifndef WORD_BIT
#define WORD_BIT 32
#endif
#ifndef SSIZE_MAX
#define SSIZE_MAX LONG_MAX
#endif
#ifndef NZERO
#define NZERO 20
#endif

enum kind { SC, PC, CS, CONST };
struct var {
	const char *name;
	enum kind kind;
	long id;	/* the _SC_, _PC_ or _CS_ name, or CONST's value */
};

#define S(n, id) { n, SC, id }
#define P(n, id) { n, PC, id }
#define C(n, id) { n, CS, id }
#define K(n, v) { n, CONST, v }
static const struct var vars[] = {
	S("ARG_MAX", _SC_ARG_MAX), S("BC_BASE_MAX", _SC_BC_BASE_MAX), S("BC_DIM_MAX", _SC_BC_DIM_MAX),
	S("BC_SCALE_MAX", _SC_BC_SCALE_MAX), S("BC_STRING_MAX", _SC_BC_STRING_MAX), K("CHAR_BIT", CHAR_BIT),
	S("CHILD_MAX", _SC_CHILD_MAX), S("CLK_TCK", _SC_CLK_TCK), S("COLL_WEIGHTS_MAX", _SC_COLL_WEIGHTS_MAX),
	S("DELAYTIMER_MAX", _SC_DELAYTIMER_MAX), S("EXPR_NEST_MAX", _SC_EXPR_NEST_MAX),
	S("GETGR_R_SIZE_MAX", _SC_GETGR_R_SIZE_MAX), S("GETPW_R_SIZE_MAX", _SC_GETPW_R_SIZE_MAX),
	S("HOST_NAME_MAX", _SC_HOST_NAME_MAX), K("INT_MAX", INT_MAX), S("IOV_MAX", _SC_IOV_MAX),
	S("LINE_MAX", _SC_LINE_MAX), S("LOGIN_NAME_MAX", _SC_LOGIN_NAME_MAX), K("LONG_BIT", LONG_BIT),
	S("MQ_OPEN_MAX", _SC_MQ_OPEN_MAX), S("MQ_PRIO_MAX", _SC_MQ_PRIO_MAX), S("NGROUPS_MAX", _SC_NGROUPS_MAX),
	K("NZERO", NZERO), S("OPEN_MAX", _SC_OPEN_MAX), S("PAGESIZE", _SC_PAGESIZE), S("PAGE_SIZE", _SC_PAGESIZE),
	S("PTHREAD_DESTRUCTOR_ITERATIONS", _SC_THREAD_DESTRUCTOR_ITERATIONS),
	S("PTHREAD_KEYS_MAX", _SC_THREAD_KEYS_MAX), S("PTHREAD_STACK_MIN", _SC_THREAD_STACK_MIN),
	S("PTHREAD_THREADS_MAX", _SC_THREAD_THREADS_MAX), S("RE_DUP_MAX", _SC_RE_DUP_MAX),
	S("RTSIG_MAX", _SC_RTSIG_MAX), S("SEM_NSEMS_MAX", _SC_SEM_NSEMS_MAX), S("SEM_VALUE_MAX", _SC_SEM_VALUE_MAX),
	S("SIGQUEUE_MAX", _SC_SIGQUEUE_MAX), K("SSIZE_MAX", SSIZE_MAX), S("STREAM_MAX", _SC_STREAM_MAX),
	S("SYMLOOP_MAX", _SC_SYMLOOP_MAX), S("TIMER_MAX", _SC_TIMER_MAX), S("TTY_NAME_MAX", _SC_TTY_NAME_MAX),
	S("TZNAME_MAX", _SC_TZNAME_MAX), K("WORD_BIT", WORD_BIT),
	S("_AVPHYS_PAGES", _SC_AVPHYS_PAGES), S("_NPROCESSORS_CONF", _SC_NPROCESSORS_CONF),
	S("_NPROCESSORS_ONLN", _SC_NPROCESSORS_ONLN), S("_PHYS_PAGES", _SC_PHYS_PAGES),
	S("_POSIX_ADVISORY_INFO", _SC_ADVISORY_INFO), S("_POSIX_ASYNCHRONOUS_IO", _SC_ASYNCHRONOUS_IO),
	S("_POSIX_BARRIERS", _SC_BARRIERS), S("_POSIX_CLOCK_SELECTION", _SC_CLOCK_SELECTION),
	S("_POSIX_CPUTIME", _SC_CPUTIME), S("_POSIX_FSYNC", _SC_FSYNC), S("_POSIX_IPV6", _SC_IPV6),
	S("_POSIX_JOB_CONTROL", _SC_JOB_CONTROL), S("_POSIX_MAPPED_FILES", _SC_MAPPED_FILES),
	S("_POSIX_MEMLOCK", _SC_MEMLOCK), S("_POSIX_MEMLOCK_RANGE", _SC_MEMLOCK_RANGE),
	S("_POSIX_MEMORY_PROTECTION", _SC_MEMORY_PROTECTION), S("_POSIX_MESSAGE_PASSING", _SC_MESSAGE_PASSING),
	S("_POSIX_MONOTONIC_CLOCK", _SC_MONOTONIC_CLOCK), S("_POSIX_PRIORITIZED_IO", _SC_PRIORITIZED_IO),
	S("_POSIX_RAW_SOCKETS", _SC_RAW_SOCKETS), S("_POSIX_READER_WRITER_LOCKS", _SC_READER_WRITER_LOCKS),
	S("_POSIX_REALTIME_SIGNALS", _SC_REALTIME_SIGNALS), S("_POSIX_REGEXP", _SC_REGEXP),
	S("_POSIX_SAVED_IDS", _SC_SAVED_IDS), S("_POSIX_SEMAPHORES", _SC_SEMAPHORES),
	S("_POSIX_SHARED_MEMORY_OBJECTS", _SC_SHARED_MEMORY_OBJECTS), S("_POSIX_SHELL", _SC_SHELL),
	S("_POSIX_SPAWN", _SC_SPAWN), S("_POSIX_SPIN_LOCKS", _SC_SPIN_LOCKS),
	S("_POSIX_SYNCHRONIZED_IO", _SC_SYNCHRONIZED_IO), S("_POSIX_THREADS", _SC_THREADS),
	S("_POSIX_THREAD_ATTR_STACKADDR", _SC_THREAD_ATTR_STACKADDR),
	S("_POSIX_THREAD_ATTR_STACKSIZE", _SC_THREAD_ATTR_STACKSIZE),
	S("_POSIX_THREAD_CPUTIME", _SC_THREAD_CPUTIME), S("_POSIX_THREAD_PRIO_INHERIT", _SC_THREAD_PRIO_INHERIT),
	S("_POSIX_THREAD_PRIO_PROTECT", _SC_THREAD_PRIO_PROTECT),
	S("_POSIX_THREAD_PRIORITY_SCHEDULING", _SC_THREAD_PRIORITY_SCHEDULING),
	S("_POSIX_THREAD_PROCESS_SHARED", _SC_THREAD_PROCESS_SHARED),
	S("_POSIX_THREAD_SAFE_FUNCTIONS", _SC_THREAD_SAFE_FUNCTIONS), S("_POSIX_TIMEOUTS", _SC_TIMEOUTS),
	S("_POSIX_TIMERS", _SC_TIMERS), S("_POSIX_TRACE", _SC_TRACE),
	S("_POSIX_TRACE_EVENT_FILTER", _SC_TRACE_EVENT_FILTER), S("_POSIX_TRACE_INHERIT", _SC_TRACE_INHERIT),
	S("_POSIX_TRACE_LOG", _SC_TRACE_LOG), S("_POSIX_TYPED_MEMORY_OBJECTS", _SC_TYPED_MEMORY_OBJECTS),
	S("_POSIX_SPORADIC_SERVER", _SC_SPORADIC_SERVER),
	S("_POSIX_THREAD_SPORADIC_SERVER", _SC_THREAD_SPORADIC_SERVER),
	S("POSIX2_PBS", _SC_2_PBS), S("POSIX2_PBS_ACCOUNTING", _SC_2_PBS_ACCOUNTING),
	S("POSIX2_PBS_CHECKPOINT", _SC_2_PBS_CHECKPOINT), S("POSIX2_PBS_LOCATE", _SC_2_PBS_LOCATE),
	S("POSIX2_PBS_MESSAGE", _SC_2_PBS_MESSAGE), S("POSIX2_PBS_TRACK", _SC_2_PBS_TRACK), S("_POSIX_VERSION", _SC_VERSION), S("POSIX2_VERSION", _SC_2_VERSION),
	S("POSIX2_C_BIND", _SC_2_C_BIND), S("POSIX2_C_DEV", _SC_2_C_DEV), S("POSIX2_CHAR_TERM", _SC_2_CHAR_TERM),
	S("POSIX2_FORT_DEV", _SC_2_FORT_DEV), S("POSIX2_FORT_RUN", _SC_2_FORT_RUN),
	S("POSIX2_LOCALEDEF", _SC_2_LOCALEDEF), S("POSIX2_SW_DEV", _SC_2_SW_DEV), S("POSIX2_UPE", _SC_2_UPE),
	S("_XOPEN_VERSION", _SC_XOPEN_VERSION), S("_XOPEN_UNIX", _SC_XOPEN_UNIX),
	S("_XOPEN_CRYPT", _SC_XOPEN_CRYPT), S("_XOPEN_ENH_I18N", _SC_XOPEN_ENH_I18N),
	S("_XOPEN_LEGACY", _SC_XOPEN_LEGACY), S("_XOPEN_REALTIME", _SC_XOPEN_REALTIME),
	S("_XOPEN_REALTIME_THREADS", _SC_XOPEN_REALTIME_THREADS), S("_XOPEN_SHM", _SC_XOPEN_SHM),
	S("POSIX_V7_ILP32_OFF32", _SC_V7_ILP32_OFF32), S("POSIX_V7_ILP32_OFFBIG", _SC_V7_ILP32_OFFBIG),
	S("POSIX_V7_LP64_OFF64", _SC_V7_LP64_OFF64), S("POSIX_V7_LPBIG_OFFBIG", _SC_V7_LPBIG_OFFBIG),
	S("LEVEL1_ICACHE_SIZE", _SC_LEVEL1_ICACHE_SIZE), S("LEVEL1_ICACHE_ASSOC", _SC_LEVEL1_ICACHE_ASSOC),
	S("LEVEL1_ICACHE_LINESIZE", _SC_LEVEL1_ICACHE_LINESIZE), S("LEVEL1_DCACHE_SIZE", _SC_LEVEL1_DCACHE_SIZE),
	S("LEVEL1_DCACHE_ASSOC", _SC_LEVEL1_DCACHE_ASSOC), S("LEVEL1_DCACHE_LINESIZE", _SC_LEVEL1_DCACHE_LINESIZE),
	S("LEVEL2_CACHE_SIZE", _SC_LEVEL2_CACHE_SIZE), S("LEVEL2_CACHE_ASSOC", _SC_LEVEL2_CACHE_ASSOC),
	S("LEVEL2_CACHE_LINESIZE", _SC_LEVEL2_CACHE_LINESIZE), S("LEVEL3_CACHE_SIZE", _SC_LEVEL3_CACHE_SIZE),
	S("LEVEL3_CACHE_ASSOC", _SC_LEVEL3_CACHE_ASSOC), S("LEVEL3_CACHE_LINESIZE", _SC_LEVEL3_CACHE_LINESIZE),
	S("LEVEL4_CACHE_SIZE", _SC_LEVEL4_CACHE_SIZE), S("LEVEL4_CACHE_ASSOC", _SC_LEVEL4_CACHE_ASSOC),
	S("LEVEL4_CACHE_LINESIZE", _SC_LEVEL4_CACHE_LINESIZE),
	P("LINK_MAX", _PC_LINK_MAX), P("MAX_CANON", _PC_MAX_CANON), P("MAX_INPUT", _PC_MAX_INPUT),
	P("NAME_MAX", _PC_NAME_MAX), P("PATH_MAX", _PC_PATH_MAX), P("PIPE_BUF", _PC_PIPE_BUF),
	P("SYMLINK_MAX", _PC_SYMLINK_MAX), P("FILESIZEBITS", _PC_FILESIZEBITS), P("POSIX2_SYMLINKS", _PC_2_SYMLINKS),
	P("_POSIX_CHOWN_RESTRICTED", _PC_CHOWN_RESTRICTED), P("_POSIX_NO_TRUNC", _PC_NO_TRUNC),
	P("_POSIX_VDISABLE", _PC_VDISABLE), P("_POSIX_ASYNC_IO", _PC_ASYNC_IO), P("_POSIX_PRIO_IO", _PC_PRIO_IO),
	P("_POSIX_SYNC_IO", _PC_SYNC_IO), P("POSIX_ALLOC_SIZE_MIN", _PC_ALLOC_SIZE_MIN),
	P("POSIX_REC_INCR_XFER_SIZE", _PC_REC_INCR_XFER_SIZE), P("POSIX_REC_MAX_XFER_SIZE", _PC_REC_MAX_XFER_SIZE),
	P("POSIX_REC_MIN_XFER_SIZE", _PC_REC_MIN_XFER_SIZE), P("POSIX_REC_XFER_ALIGN", _PC_REC_XFER_ALIGN),
	C("PATH", _CS_PATH), C("CS_PATH", _CS_PATH), C("LFS_CFLAGS", _CS_LFS_CFLAGS),
	C("LFS_LDFLAGS", _CS_LFS_LDFLAGS), C("LFS_LIBS", _CS_LFS_LIBS), C("LFS_LINTFLAGS", _CS_LFS_LINTFLAGS),
	C("POSIX_V7_LP64_OFF64_CFLAGS", _CS_POSIX_V7_LP64_OFF64_CFLAGS),
	C("POSIX_V7_LP64_OFF64_LDFLAGS", _CS_POSIX_V7_LP64_OFF64_LDFLAGS),
	C("POSIX_V7_LP64_OFF64_LIBS", _CS_POSIX_V7_LP64_OFF64_LIBS),
	C("POSIX_V7_THREADS_CFLAGS", _CS_POSIX_V7_THREADS_CFLAGS),
	C("POSIX_V7_THREADS_LDFLAGS", _CS_POSIX_V7_THREADS_LDFLAGS),
	C("POSIX_V7_WIDTH_RESTRICTED_ENVS", _CS_POSIX_V7_WIDTH_RESTRICTED_ENVS), C("V7_ENV", _CS_V7_ENV),
};

static __attribute__((noreturn)) void usage(void)
{
	fprintf(stderr, "Usage: getconf [-v specification] variable_name [pathname]\n"
			"       getconf -a [pathname]\n");
	exit(2);
}

static const struct var *find(const char *name)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (strcmp(vars[i].name, name) == 0)
			return &vars[i];
	return NULL;
}

/* v's value into out (empty for none); -1 if pathconf failed with errno. */
static int value_of(const struct var *v, const char *path, char *out, size_t cap)
{
	long n = 0;
	errno = 0;
	switch (v->kind) {
	case CONST:
		n = v->id;
		break;
	case SC:
		n = sysconf((int)v->id);
		break;
	case PC:
		n = pathconf(path, (int)v->id);
		if (n == -1 && errno)
			return -1;
		break;
	case CS: {
		size_t len = confstr((int)v->id, out, cap);
		if (len == 0)
			out[0] = '\0';
		return 0;
	}
	}
	if (n == -1)
		out[0] = '\0';
	else
		snprintf(out, cap, "%ld", n);
	return 0;
}

/* -a: every name, its value after column 35. */
static int print_all(const char *path)
{
	char buf[512];
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (value_of(&vars[i], path, buf, sizeof(buf)) < 0)
			buf[0] = '\0';
		printf("%-35s%s\n", vars[i].name, buf);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int ai = 1;
	if (ai < argc && strcmp(argv[ai], "-v") == 0) { /* the specification: there is one */
		if (ai + 1 >= argc)
			usage();
		ai += 2;
	} else if (ai < argc && strncmp(argv[ai], "-v", 2) == 0) {
		ai++;
	}
	if (ai < argc && strcmp(argv[ai], "-a") == 0)
		return ai + 2 < argc ? (usage(), 2) : print_all(ai + 1 < argc ? argv[ai + 1] : "/");
	if (ai >= argc)
		usage();
	const struct var *v = find(argv[ai]);
	if (!v) {
		fprintf(stderr, "getconf: Unrecognized variable `%s'\n", argv[ai]);
		return 2;
	}
	if (v->kind == PC ? argc - ai != 2 : argc - ai != 1)
		usage();
	char buf[512];
	if (value_of(v, argv[ai + 1], buf, sizeof(buf)) < 0) {
		fprintf(stderr, "getconf: pathconf: %s: %s\n", argv[ai + 1], strerror(errno));
		return 3;
	}
	puts(v->kind == CS || buf[0] ? buf : "undefined");
	return 0;
}
