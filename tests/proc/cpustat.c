/* /proc/stat, /proc/cpuinfo, nproc and getconf in Arbor's boot archive
 * (/posix/cpustat, KTEST posix_cpustat: the default boot and smp_sched=1
 * on 2 CPUs): the differential test itself, which tools/run-tests.py also
 * runs on the host and in Arbor to compare (diff_cpustat.c). */
#include "diff_cpustat.c"
