/* /proc/stat, /proc/cpuinfo, nproc and getconf in Arbor's boot archive
 * (/posix/cpustat, KTEST posix_cpustat: make test's boots of 2 CPUs, and
 * the 4-CPU one): the differential test itself, which tools/run-tests.py also
 * runs on the host and in Arbor to compare (diff_cpustat.c). */
#include "diff_cpustat.c"
