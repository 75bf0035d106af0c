/* nproc [--all] [--ignore=N]: the number of processing units, as
   coreutils' (gnulib's num_processors):
     (default)    the CPUs this process may run on (sched_getaffinity's
                  count; sysconf(_SC_NPROCESSORS_ONLN) if that fails), or
                  OMP_NUM_THREADS's first number when it is set and
                  positive; at most OMP_THREAD_LIMIT when that is set
     --all        the CPUs there are: sysconf(_SC_NPROCESSORS_CONF), the
                  CPUs the firmware lists, parked ones too (as Linux's
                  count includes offline CPUs)
     --ignore=N   N fewer, but at least 1 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static __attribute__((noreturn)) void try_help(void)
{
	fprintf(stderr, "Try 'nproc --help' for more information.\n");
	exit(1);
}

/* An OpenMP variable's value: its first decimal number (blanks around
   it, a comma or the end after it), or 0 when unset or not that. */
static unsigned long omp_threads(const char *s)
{
	if (!s)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0' || *end == ',' ? v : 0;
}

/* The CPUs this process may run on, or the online count if it cannot ask. */
static unsigned long nproc_current(void)
{
	cpu_set_t s;
	if (sched_getaffinity(0, sizeof(s), &s) == 0 && CPU_COUNT(&s) > 0)
		return (unsigned long)CPU_COUNT(&s);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned long)n : 1;
}

static unsigned long nproc_count(int all)
{
	unsigned long limit = omp_threads(getenv("OMP_THREAD_LIMIT"));
	if (!limit)
		limit = ULONG_MAX;
	if (!all) {
		unsigned long omp = omp_threads(getenv("OMP_NUM_THREADS"));
		if (omp)
			return omp < limit ? omp : limit;
	}
	long conf = all ? sysconf(_SC_NPROCESSORS_CONF) : 0;
	unsigned long n = all ? (conf > 0 ? (unsigned long)conf : 1) : nproc_current();
	return n < limit ? n : limit;
}

/* --ignore's N: decimal digits only (blanks before them), else the
   message coreutils gives and status 1. */
static unsigned long parse_ignore(const char *s)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	char *end;
	unsigned long v = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
	if (!isdigit((unsigned char)*p) || *end) {
		fprintf(stderr, "nproc: invalid number: '%s'\n", s);
		exit(1);
	}
	return v;
}

/* A long option's word ("--all", "--ign=3": GNU's unambiguous
   abbreviations): its name's index in names, or -1. */
static int long_option(const char *word, const char *const *names, int n)
{
	size_t len = strcspn(word + 2, "=");
	int found = -1;
	for (int i = 0; i < n; i++) {
		if (strncmp(word + 2, names[i], len) != 0)
			continue;
		if (strlen(names[i]) == len)
			return i; /* exact */
		found = found == -1 ? i : -2;
	}
	return found;
}

static __attribute__((noreturn)) void usage(void)
{
	printf("Usage: nproc [OPTION]...\nPrint the number of processing units available to the "
	       "current process,\nwhich may be less than the number of online processors\n\n"
	       "      --all      print the number of installed processors\n"
	       "      --ignore=N  if possible, exclude N processing units\n"
	       "      --help        display this help and exit\n"
	       "      --version     output version information and exit\n");
	exit(0);
}

/* Takes the option word argv[*i] (its argument may be the next word):
   sets *all or *ignore, or exits (--help, --version, a bad option). */
static void take_option(int argc, char **argv, int *i, int *all, unsigned long *ignore)
{
	static const char *const names[] = { "all", "ignore", "help", "version" };
	const char *w = argv[*i];
	if (w[1] != '-') {
		fprintf(stderr, "nproc: invalid option -- '%c'\n", w[1]);
		try_help();
	}
	int o = long_option(w, names, 4);
	const char *eq = strchr(w, '=');
	if (o == -2)
		fprintf(stderr, "nproc: option '%s' is ambiguous\n", w);
	else if (o == -1)
		fprintf(stderr, "nproc: unrecognized option '%s'\n", w);
	else if (eq && o != 1)
		fprintf(stderr, "nproc: option '--%s' doesn't allow an argument\n", names[o]);
	else if (o == 1 && !eq && *i + 1 >= argc)
		fprintf(stderr, "nproc: option '--ignore' requires an argument\n");
	if (o < 0 || (eq && o != 1) || (o == 1 && !eq && *i + 1 >= argc))
		try_help();
	if (o == 0)
		*all = 1;
	else if (o == 1)
		*ignore = parse_ignore(eq ? eq + 1 : argv[++*i]);
	else if (o == 2)
		usage();
	else {
		printf("nproc (Arbor)\n");
		exit(0);
	}
}

int main(int argc, char **argv)
{
	int all = 0;
	const char *operand = NULL; /* the first: GNU takes options anywhere */
	unsigned long ignore = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			if (!operand && i + 1 < argc)
				operand = argv[i + 1];
			break;
		}
		if (argv[i][0] != '-' || argv[i][1] == '\0')
			operand = operand ? operand : argv[i];
		else
			take_option(argc, argv, &i, &all, &ignore);
	}
	if (operand) {
		fprintf(stderr, "nproc: extra operand '%s'\n", operand);
		try_help();
	}
	unsigned long n = nproc_count(all);
	printf("%lu\n", ignore < n ? n - ignore : 1);
	return 0;
}
