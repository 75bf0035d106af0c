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
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void try_help(void)
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int all = 0, c;
	unsigned long ignore = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = 1;
			break;
		case 'i':
			ignore = parse_ignore(optarg);
			break;
		case 'h':
			printf("Usage: nproc [OPTION]...\nPrint the number of processing units available to the "
			       "current process,\nwhich may be less than the number of online processors\n\n"
			       "      --all      print the number of installed processors\n"
			       "      --ignore=N  if possible, exclude N processing units\n"
			       "      --help        display this help and exit\n"
			       "      --version     output version information and exit\n");
			return 0;
		case 'v':
			printf("nproc (Arbor)\n");
			return 0;
		default:
			try_help();
		}
	}
	if (optind < argc) {
		fprintf(stderr, "nproc: extra operand '%s'\n", argv[optind]);
		try_help();
	}
	unsigned long n = nproc_count(all);
	printf("%lu\n", ignore < n ? n - ignore : 1);
	return 0;
}
