/* Arbor overlay: <sys/sysinfo.h>, which newlib lacks: Linux's struct
   sysinfo (x86_64 layout) and the CPU counts.  */
#ifndef _SYS_SYSINFO_H_
#define _SYS_SYSINFO_H_

#include <sys/cdefs.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	SI_LOAD_SHIFT	16

struct sysinfo {
	long uptime;			/* seconds since boot */
	unsigned long loads[3];		/* 1, 5, 15 minute load averages, << SI_LOAD_SHIFT */
	unsigned long totalram;		/* memory, in mem_unit units */
	unsigned long freeram;
	unsigned long sharedram;
	unsigned long bufferram;
	unsigned long totalswap;
	unsigned long freeswap;
	unsigned short procs;		/* processes */
	unsigned short pad;
	unsigned long totalhigh;
	unsigned long freehigh;
	unsigned int mem_unit;		/* bytes */
	char _f[20 - 2 * sizeof(long) - sizeof(int)];
};

int	sysinfo(struct sysinfo *__info);
int	get_nprocs(void);
int	get_nprocs_conf(void);
long	get_phys_pages(void);
long	get_avphys_pages(void);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_SYSINFO_H_ */
