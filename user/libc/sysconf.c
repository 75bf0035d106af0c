/* sysconf, pathconf/fpathconf and confstr: what this system and its C
 * library support, as values a program can trust. An option's answer is
 * its _POSIX_* macro in <unistd.h> (so the two never disagree: an option
 * the headers do not advertise is -1); a limit is the value the kernel or
 * the library really has (the figures' sources are named below), or -1
 * with errno unchanged where there is no fixed limit, as glibc. A name
 * this file does not know is EINVAL. */
#define _GNU_SOURCE 1 /* every _SC_, _PC_ and _CS_ name newlib defines */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

/* Limits of Arbor's kernel and C library (where they come from). */
#define ARBOR_ARG_MAX 16384	  /* kernel/proc/exec.c: EXEC_STRING_BYTES, arguments + environment */
#define ARBOR_CLK_TCK 100	  /* times(): user/libc/proc.c */
#define ARBOR_PAGE_SIZE 4096
#define ARBOR_SYMLOOP_MAX 40	  /* user/libc/direct.c: MAXSYMLINKS, as the VFS */
#define ARBOR_PIPE_BUF 4096	  /* kernel/ipc/pipe.c: PIPE_BUF, atomic pipe writes */
#define ARBOR_PW_LINE 4096	  /* user/libc/pwd.c: PWD_LINE_MAX */
#define ARBOR_HOST_NAME_MAX 64	  /* struct utsname's nodename, as Linux */
#define ARBOR_LOGIN_NAME_MAX 256
#define ARBOR_TTY_NAME_MAX 32
#define ARBOR_LINE_MAX 2048	  /* the POSIX.2 utilities' line (_POSIX2_LINE_MAX) */
#define ARBOR_FILESIZEBITS 64

int __fd_limit(void); /* io.c: RLIMIT_NOFILE's soft limit, at most OPEN_MAX (200) */

/* The value of an option macro: defined and not -1 is supported. */
#define OPT(m) ((long)(m) > 0 ? (long)(m) : -1L)

/* MemTotal or MemAvailable of /proc/meminfo in pages: -1 if unreadable. */
static long sysconf_meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	char line[128];
	size_t klen = strlen(key);
	long pages = -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			pages = (long)(strtoull(line + klen + 1, NULL, 10) * 1024 / ARBOR_PAGE_SIZE);
			break;
		}
	}
	fclose(f);
	return pages;
}

/* A cache's size, associativity or line size from CPUID leaf 4
 * (deterministic cache parameters), as glibc reads it on x86: level 1-3,
 * type 1 data, 2 instruction, 3 unified (0: data or unified). 0 when the
 * processor has no such cache. */
static long sysconf_cache(int level, int type, int what)
{
	unsigned a, b, c, d, max;
	__asm__ volatile("cpuid" : "=a"(max), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	if (max < 4)
		return 0;
	for (unsigned i = 0; i < 32; i++) {
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(4), "c"(i));
		int ctype = (int)(a & 31), clevel = (int)((a >> 5) & 7);
		if (ctype == 0)
			break;
		if (clevel != level || (type ? ctype != type : ctype == 2))
			continue;
		long line = (long)(b & 0xfff) + 1, parts = (long)((b >> 12) & 0x3ff) + 1;
		long ways = (long)((b >> 22) & 0x3ff) + 1, sets = (long)c + 1;
		switch (what) {
		case 0:
			return ways * parts * line * sets;
		case 1:
			return (d & 2) ? 0 : ways; /* fully associative: 0, as glibc */
		default:
			return line;
		}
	}
	return 0;
}

/* Limits with no fixed value on Arbor: -1, errno unchanged. */
static long sysconf_limit(int name)
{
	switch (name) {
	case _SC_ARG_MAX:
		return ARBOR_ARG_MAX;
	case _SC_CLK_TCK:
		return ARBOR_CLK_TCK;
	case _SC_OPEN_MAX:
		return __fd_limit(); /* RLIMIT_NOFILE's soft limit, as glibc */
	case _SC_PAGESIZE:
		return ARBOR_PAGE_SIZE;
	case _SC_NPROCESSORS_CONF:
		return get_nprocs_conf(); /* the CPUs the firmware lists (sysinfo.c) */
	case _SC_NPROCESSORS_ONLN:
		return get_nprocs(); /* the CPUs that schedule (sysinfo.c) */
	case _SC_PHYS_PAGES:
		return sysconf_meminfo("MemTotal");
	case _SC_AVPHYS_PAGES:
		return sysconf_meminfo("MemAvailable");
	case _SC_GETPW_R_SIZE_MAX:
		return ARBOR_PW_LINE;
	case _SC_GETGR_R_SIZE_MAX:
		/* a line's strings and its member pointers (one per two bytes) */
		return ARBOR_PW_LINE + (ARBOR_PW_LINE / 2 + 2) * (long)sizeof(char *);
	case _SC_LOGIN_NAME_MAX:
		return ARBOR_LOGIN_NAME_MAX;
	case _SC_HOST_NAME_MAX:
		return ARBOR_HOST_NAME_MAX;
	case _SC_TTY_NAME_MAX:
		return ARBOR_TTY_NAME_MAX;
	case _SC_SYMLOOP_MAX:
		return ARBOR_SYMLOOP_MAX;
	case _SC_IOV_MAX:
		return IOV_MAX;
	case _SC_LINE_MAX:
		return ARBOR_LINE_MAX;
	case _SC_RE_DUP_MAX:
		return RE_DUP_MAX;
	case _SC_STREAM_MAX:
		return FOPEN_MAX;
	case _SC_BC_BASE_MAX:
		return BC_BASE_MAX;
	case _SC_BC_DIM_MAX:
		return BC_DIM_MAX;
	case _SC_BC_SCALE_MAX:
		return BC_SCALE_MAX;
	case _SC_BC_STRING_MAX:
		return BC_STRING_MAX;
	case _SC_COLL_WEIGHTS_MAX:
		return COLL_WEIGHTS_MAX;
	case _SC_EXPR_NEST_MAX:
		return EXPR_NEST_MAX;
	case _SC_V7_LP64_OFF64:
		return 1; /* the only programming environment: LP64, 64-bit off_t */
	case _SC_V7_ILP32_OFF32:
	case _SC_V7_ILP32_OFFBIG:
	case _SC_V7_LPBIG_OFFBIG:
		return -1;
	case _SC_LEVEL1_ICACHE_SIZE:
	case _SC_LEVEL1_ICACHE_ASSOC:
	case _SC_LEVEL1_ICACHE_LINESIZE:
		return sysconf_cache(1, 2, name - _SC_LEVEL1_ICACHE_SIZE);
	case _SC_LEVEL1_DCACHE_SIZE:
	case _SC_LEVEL1_DCACHE_ASSOC:
	case _SC_LEVEL1_DCACHE_LINESIZE:
		return sysconf_cache(1, 1, name - _SC_LEVEL1_DCACHE_SIZE);
	case _SC_LEVEL2_CACHE_SIZE:
	case _SC_LEVEL2_CACHE_ASSOC:
	case _SC_LEVEL2_CACHE_LINESIZE:
		return sysconf_cache(2, 0, name - _SC_LEVEL2_CACHE_SIZE);
	case _SC_LEVEL3_CACHE_SIZE:
	case _SC_LEVEL3_CACHE_ASSOC:
	case _SC_LEVEL3_CACHE_LINESIZE:
		return sysconf_cache(3, 0, name - _SC_LEVEL3_CACHE_SIZE);
	case _SC_LEVEL4_CACHE_SIZE:
	case _SC_LEVEL4_CACHE_ASSOC:
	case _SC_LEVEL4_CACHE_LINESIZE:
		return 0;
	default:
		return -2;
	}
}

/* The facilities other parts of the library define the limits of: the
 * header's macro when it has one, else no fixed limit. */
static long sysconf_other(int name)
{
	switch (name) {
	case _SC_NGROUPS_MAX:
#ifdef NGROUPS_MAX
		return NGROUPS_MAX;
#else
		return -1;
#endif
	case _SC_THREAD_KEYS_MAX:
#ifdef PTHREAD_KEYS_MAX
		return PTHREAD_KEYS_MAX;
#else
		return -1;
#endif
	case _SC_THREAD_STACK_MIN:
#ifdef PTHREAD_STACK_MIN
		return PTHREAD_STACK_MIN;
#else
		return -1;
#endif
	case _SC_THREAD_DESTRUCTOR_ITERATIONS:
#ifdef PTHREAD_DESTRUCTOR_ITERATIONS
		return PTHREAD_DESTRUCTOR_ITERATIONS;
#else
		return -1;
#endif
	case _SC_SEM_VALUE_MAX:
#ifdef SEM_VALUE_MAX
		return SEM_VALUE_MAX;
#else
		return -1;
#endif
	case _SC_RTSIG_MAX:
#ifdef SIGRTMAX
		return SIGRTMAX - SIGRTMIN + 1;
#else
		return -1;
#endif
	case _SC_AIO_LISTIO_MAX:	/* user/libc/aio.c's bounds (<limits.h>) */
		return AIO_LISTIO_MAX;
	case _SC_AIO_MAX:
		return AIO_MAX;
	case _SC_AIO_PRIO_DELTA_MAX:
		return AIO_PRIO_DELTA_MAX;
	case _SC_MQ_PRIO_MAX:
#ifdef MQ_PRIO_MAX
		return MQ_PRIO_MAX;
#else
		return -1;
#endif
	case _SC_CHILD_MAX:	/* no per-user process limit (the pids controller is per cgroup) */
	case _SC_MQ_OPEN_MAX:
	case _SC_SEM_NSEMS_MAX:
	case _SC_SIGQUEUE_MAX:
	case _SC_TIMER_MAX:
	case _SC_DELAYTIMER_MAX:
	case _SC_THREAD_THREADS_MAX:
	case _SC_ATEXIT_MAX:
	case _SC_TZNAME_MAX:
	case _SC_SS_REPL_MAX:
	case _SC_TRACE_EVENT_NAME_MAX:
	case _SC_TRACE_NAME_MAX:
	case _SC_TRACE_SYS_MAX:
	case _SC_TRACE_USER_EVENT_MAX:
		return -1;
	default:
		return -2;
	}
}

/* The options: each one's macro, as <unistd.h> defines it. */
static long sysconf_option(int name)
{
	switch (name) {
	case _SC_VERSION: return _POSIX_VERSION;
	case _SC_2_VERSION: return _POSIX2_VERSION;
	case _SC_JOB_CONTROL: return OPT(_POSIX_JOB_CONTROL);
	case _SC_SAVED_IDS: return OPT(_POSIX_SAVED_IDS);
#define OPTION(sc, macro) case sc: return OPT(macro);
#define NO_OPTION(sc) case sc: return -1;
#ifdef _POSIX_ASYNCHRONOUS_IO
	OPTION(_SC_ASYNCHRONOUS_IO, _POSIX_ASYNCHRONOUS_IO)
#else
	NO_OPTION(_SC_ASYNCHRONOUS_IO)
#endif
#ifdef _POSIX_FSYNC
	OPTION(_SC_FSYNC, _POSIX_FSYNC)
#else
	NO_OPTION(_SC_FSYNC)
#endif
#ifdef _POSIX_MAPPED_FILES
	OPTION(_SC_MAPPED_FILES, _POSIX_MAPPED_FILES)
#else
	NO_OPTION(_SC_MAPPED_FILES)
#endif
#ifdef _POSIX_MEMLOCK
	OPTION(_SC_MEMLOCK, _POSIX_MEMLOCK)
#else
	NO_OPTION(_SC_MEMLOCK)
#endif
#ifdef _POSIX_MEMLOCK_RANGE
	OPTION(_SC_MEMLOCK_RANGE, _POSIX_MEMLOCK_RANGE)
#else
	NO_OPTION(_SC_MEMLOCK_RANGE)
#endif
#ifdef _POSIX_MEMORY_PROTECTION
	OPTION(_SC_MEMORY_PROTECTION, _POSIX_MEMORY_PROTECTION)
#else
	NO_OPTION(_SC_MEMORY_PROTECTION)
#endif
#ifdef _POSIX_MESSAGE_PASSING
	OPTION(_SC_MESSAGE_PASSING, _POSIX_MESSAGE_PASSING)
#else
	NO_OPTION(_SC_MESSAGE_PASSING)
#endif
#ifdef _POSIX_PRIORITIZED_IO
	OPTION(_SC_PRIORITIZED_IO, _POSIX_PRIORITIZED_IO)
#else
	NO_OPTION(_SC_PRIORITIZED_IO)
#endif
#ifdef _POSIX_REALTIME_SIGNALS
	OPTION(_SC_REALTIME_SIGNALS, _POSIX_REALTIME_SIGNALS)
#else
	NO_OPTION(_SC_REALTIME_SIGNALS)
#endif
#ifdef _POSIX_SEMAPHORES
	OPTION(_SC_SEMAPHORES, _POSIX_SEMAPHORES)
#else
	NO_OPTION(_SC_SEMAPHORES)
#endif
#ifdef _POSIX_SHARED_MEMORY_OBJECTS
	OPTION(_SC_SHARED_MEMORY_OBJECTS, _POSIX_SHARED_MEMORY_OBJECTS)
#else
	NO_OPTION(_SC_SHARED_MEMORY_OBJECTS)
#endif
#ifdef _POSIX_SYNCHRONIZED_IO
	OPTION(_SC_SYNCHRONIZED_IO, _POSIX_SYNCHRONIZED_IO)
#else
	NO_OPTION(_SC_SYNCHRONIZED_IO)
#endif
#ifdef _POSIX_TIMERS
	OPTION(_SC_TIMERS, _POSIX_TIMERS)
#else
	NO_OPTION(_SC_TIMERS)
#endif
#ifdef _POSIX_THREADS
	OPTION(_SC_THREADS, _POSIX_THREADS)
#else
	NO_OPTION(_SC_THREADS)
#endif
#ifdef _POSIX_THREAD_ATTR_STACKADDR
	OPTION(_SC_THREAD_ATTR_STACKADDR, _POSIX_THREAD_ATTR_STACKADDR)
#else
	NO_OPTION(_SC_THREAD_ATTR_STACKADDR)
#endif
#ifdef _POSIX_THREAD_ATTR_STACKSIZE
	OPTION(_SC_THREAD_ATTR_STACKSIZE, _POSIX_THREAD_ATTR_STACKSIZE)
#else
	NO_OPTION(_SC_THREAD_ATTR_STACKSIZE)
#endif
#ifdef _POSIX_THREAD_PRIORITY_SCHEDULING
	OPTION(_SC_THREAD_PRIORITY_SCHEDULING, _POSIX_THREAD_PRIORITY_SCHEDULING)
#else
	NO_OPTION(_SC_THREAD_PRIORITY_SCHEDULING)
#endif
#ifdef _POSIX_THREAD_PRIO_INHERIT
	OPTION(_SC_THREAD_PRIO_INHERIT, _POSIX_THREAD_PRIO_INHERIT)
#else
	NO_OPTION(_SC_THREAD_PRIO_INHERIT)
#endif
#ifdef _POSIX_THREAD_PRIO_PROTECT
	OPTION(_SC_THREAD_PRIO_PROTECT, _POSIX_THREAD_PRIO_PROTECT)
#else
	NO_OPTION(_SC_THREAD_PRIO_PROTECT)
#endif
#ifdef _POSIX_THREAD_PROCESS_SHARED
	OPTION(_SC_THREAD_PROCESS_SHARED, _POSIX_THREAD_PROCESS_SHARED)
#else
	NO_OPTION(_SC_THREAD_PROCESS_SHARED)
#endif
#ifdef _POSIX_THREAD_SAFE_FUNCTIONS
	OPTION(_SC_THREAD_SAFE_FUNCTIONS, _POSIX_THREAD_SAFE_FUNCTIONS)
#else
	NO_OPTION(_SC_THREAD_SAFE_FUNCTIONS)
#endif
#ifdef _POSIX_ADVISORY_INFO
	OPTION(_SC_ADVISORY_INFO, _POSIX_ADVISORY_INFO)
#else
	NO_OPTION(_SC_ADVISORY_INFO)
#endif
#ifdef _POSIX_BARRIERS
	OPTION(_SC_BARRIERS, _POSIX_BARRIERS)
#else
	NO_OPTION(_SC_BARRIERS)
#endif
#ifdef _POSIX_CLOCK_SELECTION
	OPTION(_SC_CLOCK_SELECTION, _POSIX_CLOCK_SELECTION)
#else
	NO_OPTION(_SC_CLOCK_SELECTION)
#endif
#ifdef _POSIX_CPUTIME
	OPTION(_SC_CPUTIME, _POSIX_CPUTIME)
#else
	NO_OPTION(_SC_CPUTIME)
#endif
#ifdef _POSIX_IPV6
	OPTION(_SC_IPV6, _POSIX_IPV6)
#else
	NO_OPTION(_SC_IPV6)
#endif
#ifdef _POSIX_MONOTONIC_CLOCK
	OPTION(_SC_MONOTONIC_CLOCK, _POSIX_MONOTONIC_CLOCK)
#else
	NO_OPTION(_SC_MONOTONIC_CLOCK)
#endif
#ifdef _POSIX_RAW_SOCKETS
	OPTION(_SC_RAW_SOCKETS, _POSIX_RAW_SOCKETS)
#else
	NO_OPTION(_SC_RAW_SOCKETS)
#endif
#ifdef _POSIX_READER_WRITER_LOCKS
	OPTION(_SC_READER_WRITER_LOCKS, _POSIX_READER_WRITER_LOCKS)
#else
	NO_OPTION(_SC_READER_WRITER_LOCKS)
#endif
#ifdef _POSIX_REGEXP
	OPTION(_SC_REGEXP, _POSIX_REGEXP)
#else
	NO_OPTION(_SC_REGEXP)
#endif
#ifdef _POSIX_SHELL
	OPTION(_SC_SHELL, _POSIX_SHELL)
#else
	NO_OPTION(_SC_SHELL)
#endif
#ifdef _POSIX_SPAWN
	OPTION(_SC_SPAWN, _POSIX_SPAWN)
#else
	NO_OPTION(_SC_SPAWN)
#endif
#ifdef _POSIX_SPIN_LOCKS
	OPTION(_SC_SPIN_LOCKS, _POSIX_SPIN_LOCKS)
#else
	NO_OPTION(_SC_SPIN_LOCKS)
#endif
#ifdef _POSIX_SPORADIC_SERVER
	OPTION(_SC_SPORADIC_SERVER, _POSIX_SPORADIC_SERVER)
#else
	NO_OPTION(_SC_SPORADIC_SERVER)
#endif
#ifdef _POSIX_THREAD_CPUTIME
	OPTION(_SC_THREAD_CPUTIME, _POSIX_THREAD_CPUTIME)
#else
	NO_OPTION(_SC_THREAD_CPUTIME)
#endif
#ifdef _POSIX_THREAD_SPORADIC_SERVER
	OPTION(_SC_THREAD_SPORADIC_SERVER, _POSIX_THREAD_SPORADIC_SERVER)
#else
	NO_OPTION(_SC_THREAD_SPORADIC_SERVER)
#endif
#ifdef _POSIX_TIMEOUTS
	OPTION(_SC_TIMEOUTS, _POSIX_TIMEOUTS)
#else
	NO_OPTION(_SC_TIMEOUTS)
#endif
#ifdef _POSIX_TRACE
	OPTION(_SC_TRACE, _POSIX_TRACE)
#else
	NO_OPTION(_SC_TRACE)
#endif
#ifdef _POSIX_TRACE_EVENT_FILTER
	OPTION(_SC_TRACE_EVENT_FILTER, _POSIX_TRACE_EVENT_FILTER)
#else
	NO_OPTION(_SC_TRACE_EVENT_FILTER)
#endif
#ifdef _POSIX_TRACE_INHERIT
	OPTION(_SC_TRACE_INHERIT, _POSIX_TRACE_INHERIT)
#else
	NO_OPTION(_SC_TRACE_INHERIT)
#endif
#ifdef _POSIX_TRACE_LOG
	OPTION(_SC_TRACE_LOG, _POSIX_TRACE_LOG)
#else
	NO_OPTION(_SC_TRACE_LOG)
#endif
#ifdef _POSIX_TYPED_MEMORY_OBJECTS
	OPTION(_SC_TYPED_MEMORY_OBJECTS, _POSIX_TYPED_MEMORY_OBJECTS)
#else
	NO_OPTION(_SC_TYPED_MEMORY_OBJECTS)
#endif
#ifdef _POSIX_THREAD_ROBUST_PRIO_INHERIT
	OPTION(_SC_THREAD_ROBUST_PRIO_INHERIT, _POSIX_THREAD_ROBUST_PRIO_INHERIT)
#else
	NO_OPTION(_SC_THREAD_ROBUST_PRIO_INHERIT)
#endif
#ifdef _POSIX_THREAD_ROBUST_PRIO_PROTECT
	OPTION(_SC_THREAD_ROBUST_PRIO_PROTECT, _POSIX_THREAD_ROBUST_PRIO_PROTECT)
#else
	NO_OPTION(_SC_THREAD_ROBUST_PRIO_PROTECT)
#endif
#ifdef _POSIX2_CHAR_TERM
	OPTION(_SC_2_CHAR_TERM, _POSIX2_CHAR_TERM)
#else
	NO_OPTION(_SC_2_CHAR_TERM)
#endif
#ifdef _POSIX2_C_BIND
	OPTION(_SC_2_C_BIND, _POSIX2_C_BIND)
#else
	NO_OPTION(_SC_2_C_BIND)
#endif
#ifdef _POSIX2_C_DEV
	OPTION(_SC_2_C_DEV, _POSIX2_C_DEV)
#else
	NO_OPTION(_SC_2_C_DEV)
#endif
#ifdef _POSIX2_FORT_DEV
	OPTION(_SC_2_FORT_DEV, _POSIX2_FORT_DEV)
#else
	NO_OPTION(_SC_2_FORT_DEV)
#endif
#ifdef _POSIX2_FORT_RUN
	OPTION(_SC_2_FORT_RUN, _POSIX2_FORT_RUN)
#else
	NO_OPTION(_SC_2_FORT_RUN)
#endif
#ifdef _POSIX2_LOCALEDEF
	OPTION(_SC_2_LOCALEDEF, _POSIX2_LOCALEDEF)
#else
	NO_OPTION(_SC_2_LOCALEDEF)
#endif
#ifdef _POSIX2_PBS
	OPTION(_SC_2_PBS, _POSIX2_PBS)
#else
	NO_OPTION(_SC_2_PBS)
#endif
#ifdef _POSIX2_PBS_ACCOUNTING
	OPTION(_SC_2_PBS_ACCOUNTING, _POSIX2_PBS_ACCOUNTING)
#else
	NO_OPTION(_SC_2_PBS_ACCOUNTING)
#endif
#ifdef _POSIX2_PBS_CHECKPOINT
	OPTION(_SC_2_PBS_CHECKPOINT, _POSIX2_PBS_CHECKPOINT)
#else
	NO_OPTION(_SC_2_PBS_CHECKPOINT)
#endif
#ifdef _POSIX2_PBS_LOCATE
	OPTION(_SC_2_PBS_LOCATE, _POSIX2_PBS_LOCATE)
#else
	NO_OPTION(_SC_2_PBS_LOCATE)
#endif
#ifdef _POSIX2_PBS_MESSAGE
	OPTION(_SC_2_PBS_MESSAGE, _POSIX2_PBS_MESSAGE)
#else
	NO_OPTION(_SC_2_PBS_MESSAGE)
#endif
#ifdef _POSIX2_PBS_TRACK
	OPTION(_SC_2_PBS_TRACK, _POSIX2_PBS_TRACK)
#else
	NO_OPTION(_SC_2_PBS_TRACK)
#endif
#ifdef _POSIX2_SW_DEV
	OPTION(_SC_2_SW_DEV, _POSIX2_SW_DEV)
#else
	NO_OPTION(_SC_2_SW_DEV)
#endif
#ifdef _POSIX2_UPE
	OPTION(_SC_2_UPE, _POSIX2_UPE)
#else
	NO_OPTION(_SC_2_UPE)
#endif
#if defined(_XOPEN_VERSION) && defined(_XOPEN_UNIX)
	OPTION(_SC_XOPEN_VERSION, _XOPEN_VERSION)
#else
	NO_OPTION(_SC_XOPEN_VERSION)
#endif
#ifdef _XOPEN_UNIX
	OPTION(_SC_XOPEN_UNIX, _XOPEN_UNIX)
#else
	NO_OPTION(_SC_XOPEN_UNIX)
#endif
#ifdef _XOPEN_CRYPT
	OPTION(_SC_XOPEN_CRYPT, _XOPEN_CRYPT)
#else
	NO_OPTION(_SC_XOPEN_CRYPT)
#endif
#ifdef _XOPEN_ENH_I18N
	OPTION(_SC_XOPEN_ENH_I18N, _XOPEN_ENH_I18N)
#else
	NO_OPTION(_SC_XOPEN_ENH_I18N)
#endif
#ifdef _XOPEN_LEGACY
	OPTION(_SC_XOPEN_LEGACY, _XOPEN_LEGACY)
#else
	NO_OPTION(_SC_XOPEN_LEGACY)
#endif
#ifdef _XOPEN_REALTIME
	OPTION(_SC_XOPEN_REALTIME, _XOPEN_REALTIME)
#else
	NO_OPTION(_SC_XOPEN_REALTIME)
#endif
#ifdef _XOPEN_REALTIME_THREADS
	OPTION(_SC_XOPEN_REALTIME_THREADS, _XOPEN_REALTIME_THREADS)
#else
	NO_OPTION(_SC_XOPEN_REALTIME_THREADS)
#endif
#ifdef _XOPEN_SHM
	OPTION(_SC_XOPEN_SHM, _XOPEN_SHM)
#else
	NO_OPTION(_SC_XOPEN_SHM)
#endif
#ifdef _XOPEN_STREAMS
	OPTION(_SC_XOPEN_STREAMS, _XOPEN_STREAMS)
#else
	NO_OPTION(_SC_XOPEN_STREAMS)
#endif
	NO_OPTION(_SC_XOPEN_UUCP)
	NO_OPTION(_SC_POSIX_26_VERSION)
#undef OPTION
#undef NO_OPTION
	default:
		return -2;
	}
}

long sysconf(int name)
{
	long v = sysconf_limit(name);
	if (v == -2)
		v = sysconf_other(name);
	if (v == -2)
		v = sysconf_option(name);
	if (v == -2) {
		errno = EINVAL;
		return -1;
	}
	return v;
}

#define EXT2_MAGIC 0xEF53
#define TMPFS_MAGIC 0x01021994

/* pathconf's answer for a file of mode m on a file system fs (statfs;
 * NULL if it could not be asked). */
static long pathconf_value(int name, mode_t m, const struct statfs *fs)
{
	long namelen = fs && fs->f_namelen ? (long)fs->f_namelen : NAME_MAX;
	switch (name) {
	case _PC_LINK_MAX:
		/* the servers' own limits: ext2's 32000 (as Linux), tmpfs's
		 * 32-bit count; the others have no hard links to count */
		if (fs && fs->f_type == EXT2_MAGIC)
			return 32000;
		if (fs && fs->f_type == TMPFS_MAGIC)
			return 4294967295L;
		return -1;
	case _PC_MAX_CANON:
		return MAX_CANON;
	case _PC_MAX_INPUT:
		return MAX_INPUT;
	case _PC_NAME_MAX:
		return namelen;
	case _PC_PATH_MAX:
		return PATH_MAX;
	case _PC_PIPE_BUF:
		return ARBOR_PIPE_BUF;
	case _PC_CHOWN_RESTRICTED:
		return _POSIX_CHOWN_RESTRICTED;
	case _PC_NO_TRUNC:
		return _POSIX_NO_TRUNC;
	case _PC_VDISABLE:
		return _POSIX_VDISABLE;
	case _PC_FILESIZEBITS:
		return ARBOR_FILESIZEBITS;
	case _PC_2_SYMLINKS:
		return 1;
	case _PC_SYMLINK_MAX:
	case _PC_ASYNC_IO:
	case _PC_PRIO_IO:
	case _PC_SYNC_IO:
	case _PC_REC_INCR_XFER_SIZE:
	case _PC_REC_MAX_XFER_SIZE:
	case _PC_REC_MIN_XFER_SIZE:
	case _PC_REC_XFER_ALIGN:
	case _PC_ALLOC_SIZE_MIN:
		return -1; /* no fixed value (Linux says the same of these) */
	case _PC_TIMESTAMP_RESOLUTION:
		return 1; /* nanoseconds */
	default:
		(void)m;
		errno = EINVAL;
		return -1;
	}
}

long fpathconf(int fd, int name)
{
	struct stat st;
	struct statfs fs;
	if (fstat(fd, &st) < 0)
		return -1;
	return pathconf_value(name, st.st_mode, fstatfs(fd, &fs) == 0 ? &fs : NULL);
}

long pathconf(const char *path, int name)
{
	struct stat st;
	struct statfs fs;
	if (stat(path, &st) < 0)
		return -1;
	return pathconf_value(name, st.st_mode, statfs(path, &fs) == 0 ? &fs : NULL);
}

/* confstr's strings: the default PATH the exec family searches
 * (user/libc/exec.c), and the one programming environment's flags. */
static const char *confstr_value(int name)
{
	switch (name) {
	case _CS_PATH:
		return "/bin:/usr/bin";
	case _CS_POSIX_V7_LP64_OFF64_CFLAGS:
		return "-m64";
	case _CS_POSIX_V7_LP64_OFF64_LDFLAGS:
		return "-m64";
	case _CS_POSIX_V7_LP64_OFF64_LIBS:
	case _CS_XBS5_LP64_OFF64_LINTFLAGS:
	case _CS_POSIX_V7_THREADS_CFLAGS:
	case _CS_POSIX_V7_THREADS_LDFLAGS:
	case _CS_V7_ENV:
	case _CS_LFS_CFLAGS:
	case _CS_LFS_LDFLAGS:
	case _CS_LFS_LIBS:
	case _CS_LFS_LINTFLAGS:
		return "";
	case _CS_POSIX_V7_WIDTH_RESTRICTED_ENVS:
		return "POSIX_V7_LP64_OFF64";
	case _CS_POSIX_V7_ILP32_OFF32_CFLAGS:
	case _CS_POSIX_V7_ILP32_OFF32_LDFLAGS:
	case _CS_POSIX_V7_ILP32_OFF32_LIBS:
	case _CS_XBS5_ILP32_OFF32_LINTFLAGS:
	case _CS_POSIX_V7_ILP32_OFFBIG_CFLAGS:
	case _CS_POSIX_V7_ILP32_OFFBIG_LDFLAGS:
	case _CS_POSIX_V7_ILP32_OFFBIG_LIBS:
	case _CS_XBS5_ILP32_OFFBIG_LINTFLAGS:
	case _CS_POSIX_V7_LPBIG_OFFBIG_CFLAGS:
	case _CS_POSIX_V7_LPBIG_OFFBIG_LDFLAGS:
	case _CS_POSIX_V7_LPBIG_OFFBIG_LIBS:
	case _CS_XBS5_LPBIG_OFFBIG_LINTFLAGS:
		return ""; /* environments that are not supported: empty, as glibc */
	default:
		return NULL;
	}
}

size_t confstr(int name, char *buf, size_t len)
{
	const char *v = confstr_value(name);
	if (!v) {
		errno = EINVAL;
		return 0;
	}
	size_t n = strlen(v) + 1;
	if (buf && len) {
		size_t k = n < len ? n : len;
		memcpy(buf, v, k - 1);
		buf[k - 1] = 0;
	}
	return n;
}
