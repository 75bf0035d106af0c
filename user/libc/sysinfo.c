/* Linux's system figures and random numbers: sysinfo(2) and the CPU
 * counts (<sys/sysinfo.h>), getrandom(2) and getentropy (<sys/random.h>),
 * from the kernel's meminfo and getrandom calls (docs/abi.md). */
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sysinfo.h>
#include "abi/random.h"
#include "abi/sched.h"
#include "arbor_sys.h"
#include "ufault.h"

_Static_assert(GRND_NONBLOCK == 1 && GRND_RANDOM == 2 && GRND_INSECURE == 4, "<sys/random.h> is abi/random.h");

int sysinfo(struct sysinfo *info)
{
	struct k_meminfo m;
	long r = sys_meminfo(&m);
	if (r < 0)
		return (int)__sys_ret(r);
	if (__arbor_uwrite(info, sizeof(*info)))
		return (int)__sys_ret(-EFAULT);
	uint64_t ns = (uint64_t)sys_clock_ns();
	memset(info, 0, sizeof(*info));
	info->uptime = (long)(ns / 1000000000u + (ns % 1000000000u != 0)); /* Linux rounds up */
	for (int i = 0; i < 3; i++)
		info->loads[i] = (unsigned long)m.loads[i];
	info->totalram = m.total_pages * m.page_size;
	info->freeram = m.free_pages * m.page_size;
	/* no swap; shared and buffer memory are not counted apart (0) */
	info->procs = (unsigned short)(m.nr_threads > 0xffff ? 0xffff : m.nr_threads);
	info->mem_unit = 1;
	return 0;
}

/* The CPUs that run threads: the boot CPU, and unless smp_sched=0 every
 * started one (docs/smp.md); a CPU that is only started is parked. */
int get_nprocs(void)
{
	long m = sys_sched_policy(SCHED_OP_ONLINE, 0, 0, NULL);
	return m > 0 ? __builtin_popcountl((unsigned long)m) : 1;
}

/* The CPUs the firmware lists (the kernel's smp_possible), parked or
 * not: glibc counts the CPUs Linux's sysfs lists, online or not. */
int get_nprocs_conf(void)
{
	struct k_meminfo m;
	int on = get_nprocs();
	if (sys_meminfo(&m) < 0)
		return on;
	return (int)m.cpus_possible > on ? (int)m.cpus_possible : on;
}

long get_phys_pages(void)
{
	struct k_meminfo m;
	return sys_meminfo(&m) < 0 ? -1 : (long)m.total_pages;
}

long get_avphys_pages(void)
{
	struct k_meminfo m;
	return sys_meminfo(&m) < 0 ? -1 : (long)m.free_pages;
}

ssize_t getrandom(void *buf, size_t count, unsigned int flags)
{
	return (ssize_t)__sys_ret(sys_getrandom(buf, count, flags));
}

int getentropy(void *buf, size_t count)
{
	if (count > 256)
		return (int)__sys_ret(-EIO);
	for (size_t done = 0; done < count;) {
		long r = sys_getrandom((char *)buf + done, count - done, 0);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return (int)__sys_ret(r);
		done += (size_t)r;
	}
	return 0;
}
