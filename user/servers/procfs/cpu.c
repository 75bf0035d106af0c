/* procfs's CPU files, as Linux 6.1 shows them (so programs that parse
 * Linux's files work):
 *
 *   /proc/stat      the kernel's per-CPU times (kernel/sched/cpustat.c,
 *                   through meminfo) in USER_HZ ticks; Linux's softirq,
 *                   steal, guest and guest_nice read 0 (Arbor has no
 *                   softirqs, reads no steal time from a hypervisor and
 *                   runs no guests); intr's columns are the I/O APIC's
 *                   24 inputs
 *   /proc/cpuinfo   CPUID's facts, run on each CPU that schedules (procfs
 *                   moves itself there with sched_setaffinity), the
 *                   kernel's calibrated TSC frequency for cpu MHz and
 *                   bogomips (Linux's figure from it: lpj = tsc_khz * 1000
 *                   / HZ); flags are the CPUID bits Linux names (not its
 *                   own synthetic ones: constant_tsc, nopl, ...), bugs is
 *                   empty (Linux's come from its tables of models and
 *                   MSRs), microcode is left out (its MSR is the kernel's
 *                   to read, and Arbor does not), as Linux does when it
 *                   does not know it
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arbor_sys.h"
#include "procfs.h"

#define USER_HZ 100
#define NS_PER_TICK (1000000000ull / USER_HZ)
#define LINUX_HZ 250	/* the kernel tick bogomips is counted in (Arbor's TIMER_HZ) */

/* ---- /proc/stat ---- */

/* One cpu line's ten fields (name "cpu " for the sum, as Linux's two
 * spaces, or "cpuN"). */
static void stat_cpu_line(struct text *t, const char *name, const struct k_cpustat *c)
{
	put(t, "%s %llu %llu %llu %llu %llu %llu 0 0 0 0\n", name,
	    (unsigned long long)(c->user_ns / NS_PER_TICK), (unsigned long long)(c->nice_ns / NS_PER_TICK),
	    (unsigned long long)(c->system_ns / NS_PER_TICK), (unsigned long long)(c->idle_ns / NS_PER_TICK),
	    (unsigned long long)(c->iowait_ns / NS_PER_TICK), (unsigned long long)(c->irq_ns / NS_PER_TICK));
}

/* The sum of every CPU's times and counts (Linux sums in ns, then
 * converts: so may the cpu line be a tick or two above the lines' sum). */
static struct k_cpustat stat_sum(const struct k_meminfo *mi)
{
	struct k_cpustat s = { 0 };
	for (int i = 0; i < K_CPUS_MAX; i++) {
		if (!(mi->cpus_sched & (1u << i)))
			continue;
		const struct k_cpustat *c = &mi->cpus[i];
		s.user_ns += c->user_ns;
		s.nice_ns += c->nice_ns;
		s.system_ns += c->system_ns;
		s.idle_ns += c->idle_ns;
		s.iowait_ns += c->iowait_ns;
		s.irq_ns += c->irq_ns;
		s.intr += c->intr;
		s.ctxt += c->ctxt;
	}
	return s;
}

/* The time of boot in seconds since the epoch: now less the time since. */
static unsigned long long stat_btime(void)
{
	struct timespec r;
	clock_gettime(CLOCK_REALTIME, &r);
	uint64_t real = (uint64_t)r.tv_sec * 1000000000ull + (uint64_t)r.tv_nsec, up = (uint64_t)sys_clock_ns();
	return real > up ? (real - up) / 1000000000ull : 0;
}

void procfs_text_stat(struct text *t, const struct k_meminfo *mi)
{
	struct k_cpustat sum = stat_sum(mi);
	stat_cpu_line(t, "cpu ", &sum);
	for (int i = 0; i < K_CPUS_MAX; i++) {
		if (mi->cpus_sched & (1u << i)) {
			char name[8];
			snprintf(name, sizeof(name), "cpu%d", i);
			stat_cpu_line(t, name, &mi->cpus[i]);
		}
	}
	put(t, "intr %llu", (unsigned long long)sum.intr);
	for (int l = 0; l < K_IRQ_LINES; l++)
		put(t, " %llu", (unsigned long long)mi->irqs[l]);
	put(t, "\nctxt %llu\nbtime %llu\nprocesses %llu\nprocs_running %llu\nprocs_blocked %llu\n",
	    (unsigned long long)sum.ctxt, stat_btime(), (unsigned long long)mi->forks,
	    (unsigned long long)mi->nr_running, (unsigned long long)mi->nr_iowait);
	/* total, then HI TIMER NET_TX NET_RX BLOCK IRQ_POLL TASKLET SCHED HRTIMER RCU */
	put(t, "softirq 0 0 0 0 0 0 0 0 0 0 0\n");
}

/* ---- /proc/cpuinfo ---- */

struct cpuid_regs {
	uint32_t a, b, c, d;
};

static struct cpuid_regs cpuid(uint32_t leaf, uint32_t sub)
{
	struct cpuid_regs r;
	__asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d) : "a"(leaf), "c"(sub));
	return r;
}

/* Linux's names of CPUID bits (arch/x86/include/asm/cpufeatures.h), by
 * its capability word; NULL for a bit it does not name or shows not. */
struct cap_word {
	uint32_t leaf, sub;
	char reg;		/* 'a', 'b', 'c' or 'd' */
	const char *names[32];
};
static const struct cap_word cap_words[] = {
	/* word 0 */
	{ 1, 0, 'd', { "fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", NULL, "sep", "mtrr",
		       "pge", "mca", "cmov", "pat", "pse36", "pn", "clflush", NULL, "dts", "acpi", "mmx", "fxsr",
		       "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe" } },
	/* word 1 */
	{ 0x80000001, 0, 'd', { [11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
				[26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow" } },
	/* word 4 */
	{ 1, 0, 'c', { "pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est", "tm2", "ssse3",
		       "cid", "sdbg", "fma", "cx16", "xtpr", "pdcm", NULL, "pcid", "dca", "sse4_1", "sse4_2",
		       "x2apic", "movbe", "popcnt", "tsc_deadline_timer", "aes", "xsave", NULL, "avx", "f16c",
		       "rdrand", "hypervisor" } },
	/* word 6 */
	{ 0x80000001, 0, 'c', { "lahf_lm", "cmp_legacy", "svm", "extapic", "cr8_legacy", "abm", "sse4a",
				"misalignsse", "3dnowprefetch", "osvw", "ibs", "xop", "skinit", "wdt", NULL, "lwp",
				"fma4", "tce", NULL, "nodeid_msr", NULL, "tbm", "topoext", "perfctr_core",
				"perfctr_nb", NULL, "bpext", "ptsc", "perfctr_llc", "mwaitx" } },
	/* word 9 */
	{ 7, 0, 'b', { "fsgsbase", "tsc_adjust", "sgx", "bmi1", "hle", "avx2", NULL, "smep", "bmi2", "erms",
		       "invpcid", "rtm", "cqm", NULL, "mpx", "rdt_a", "avx512f", "avx512dq", "rdseed", "adx",
		       "smap", "avx512ifma", NULL, "clflushopt", "clwb", "intel_pt", "avx512pf", "avx512er",
		       "avx512cd", "sha_ni", "avx512bw", "avx512vl" } },
	/* word 10 */
	{ 0xd, 1, 'a', { "xsaveopt", "xsavec", "xgetbv1", "xsaves" } },
	/* word 12 */
	{ 7, 1, 'a', { [4] = "avx_vnni", [5] = "avx512_bf16" } },
	/* word 13 */
	{ 0x80000008, 0, 'b', { [0] = "clzero", [1] = "irperf", [2] = "xsaveerptr", [4] = "rdpru",
				[9] = "wbnoinvd", [23] = "amd_ppin", [25] = "virt_ssbd", [27] = "cppc",
				[31] = "brs" } },
	/* word 14 */
	{ 6, 0, 'a', { [0] = "dtherm", [1] = "ida", [2] = "arat", [4] = "pln", [6] = "pts", [7] = "hwp",
		       [8] = "hwp_notify", [9] = "hwp_act_window", [10] = "hwp_epp", [11] = "hwp_pkg_req",
		       [19] = "hfi" } },
	/* word 16 */
	{ 7, 0, 'c', { [1] = "avx512vbmi", [2] = "umip", [3] = "pku", [4] = "ospke", [5] = "waitpkg",
		       [6] = "avx512_vbmi2", [8] = "gfni", [9] = "vaes", [10] = "vpclmulqdq",
		       [11] = "avx512_vnni", [12] = "avx512_bitalg", [13] = "tme", [14] = "avx512_vpopcntdq",
		       [16] = "la57", [22] = "rdpid", [24] = "bus_lock_detect", [25] = "cldemote",
		       [27] = "movdiri", [28] = "movdir64b", [29] = "enqcmd", [30] = "sgx_lc" } },
	/* word 18 */
	{ 7, 0, 'd', { [2] = "avx512_4vnniw", [3] = "avx512_4fmaps", [4] = "fsrm", [8] = "avx512_vp2intersect",
		       [10] = "md_clear", [14] = "serialize", [16] = "tsxldtrk", [18] = "pconfig",
		       [19] = "arch_lbr", [20] = "ibt", [22] = "amx_bf16", [23] = "avx512_fp16",
		       [24] = "amx_tile", [25] = "amx_int8", [28] = "flush_l1d", [29] = "arch_capabilities" } },
};

/* CPUID 0x80000007's EDX: Linux's x86_power_flags ("" shown as nothing). */
static const char *const power_names[] = {
	"ts", "fid", "vid", "ttp", "tm", "stc", "100mhzsteps", "hwpstate", "", "cpb", "eff_freq_ro",
	"proc_feedback", "acc_power",
};

/* What one CPU's CPUID says (struct cpuinfo_x86's fields that are shown). */
struct cpu_facts {
	int cpu;
	uint32_t max_leaf, max_ext;
	char vendor[13], model_name[49];
	unsigned family, model, stepping;
	unsigned cache_kb;
	unsigned apicid, initial_apicid, phys_id, core_id;
	unsigned clflush, phys_bits, virt_bits;
	uint32_t power;
	char flags[1024];
};

static uint32_t reg_of(struct cpuid_regs r, char reg)
{
	return reg == 'a' ? r.a : reg == 'b' ? r.b : reg == 'c' ? r.c : r.d;
}

/* The flags line's names, in Linux's order (its capability words). */
static void cpu_flags(struct cpu_facts *f)
{
	size_t len = 0;
	f->flags[0] = '\0';
	for (size_t w = 0; w < sizeof(cap_words) / sizeof(cap_words[0]); w++) {
		const struct cap_word *cw = &cap_words[w];
		if (cw->leaf < 0x80000000 ? cw->leaf > f->max_leaf : cw->leaf > f->max_ext)
			continue;
		uint32_t bits = reg_of(cpuid(cw->leaf, cw->sub), cw->reg);
		for (int b = 0; b < 32; b++)
			if ((bits & (1u << b)) && cw->names[b] && len + strlen(cw->names[b]) + 2 < sizeof(f->flags))
				len += (size_t)snprintf(f->flags + len, sizeof(f->flags) - len, " %s", cw->names[b]);
	}
}

/* The brand string, blanks trimmed at both ends as Linux's get_model_name. */
static void cpu_model_name(struct cpu_facts *f)
{
	char s[49] = { 0 };
	if (f->max_ext < 0x80000004) {
		strcpy(f->model_name, "unknown");
		return;
	}
	for (uint32_t i = 0; i < 3; i++) {
		struct cpuid_regs r = cpuid(0x80000002 + i, 0);
		memcpy(s + 16 * i, &r, 16);
	}
	char *p = s;
	while (*p == ' ')
		p++;
	size_t n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	memcpy(f->model_name, p, n);
	f->model_name[n] = '\0';
}

/* Linux's x86_cache_size in KiB: Intel's from leaf 4 (the last level's:
 * L3, else L2, else L1i + L1d), others' L2 from 0x80000006. */
static unsigned cpu_cache_kb(const struct cpu_facts *f)
{
	if (strcmp(f->vendor, "GenuineIntel") == 0 && f->max_leaf >= 4) {
		unsigned size[4] = { 0 };
		for (uint32_t i = 0; i < 32; i++) {
			struct cpuid_regs r = cpuid(4, i);
			unsigned type = r.a & 31, level = (r.a >> 5) & 7;
			if (!type)
				break;
			if (level > 3)
				continue;
			size[level] += ((r.b >> 22) + 1) * (((r.b >> 12) & 0x3ff) + 1) * ((r.b & 0xfff) + 1) *
				       (r.c + 1) / 1024;
		}
		return size[3] ? size[3] : size[2] ? size[2] : size[1];
	}
	return f->max_ext >= 0x80000006 ? cpuid(0x80000006, 0).c >> 16 : 0;
}

/* The package and core of this CPU's APIC id: leaf 0xb's shifts (SMT and
 * core levels) when it has them, else leaf 1's logical count over the
 * cores of leaf 4 (Intel) or 0x80000008 (others), as Linux's detect_ht. */
static void cpu_topology(struct cpu_facts *f)
{
	struct cpuid_regs r1 = cpuid(1, 0);
	unsigned smt_shift = 0, pkg_shift = 0;
	if (f->max_leaf >= 0xb && cpuid(0xb, 0).b) {
		for (uint32_t sub = 0; sub < 8; sub++) {
			struct cpuid_regs r = cpuid(0xb, sub);
			unsigned type = (r.c >> 8) & 0xff;
			if (!type)
				break;
			if (type == 1)
				smt_shift = r.a & 31;
			pkg_shift = r.a & 31;
			f->apicid = r.d;
		}
	} else if (r1.d & (1u << 28)) { /* HTT: leaf 1 counts the package's logical CPUs */
		unsigned logical = (r1.b >> 16) & 0xff, cores = 1;
		if (strcmp(f->vendor, "GenuineIntel") == 0 && f->max_leaf >= 4)
			cores = (cpuid(4, 0).a >> 26) + 1;
		else if (f->max_ext >= 0x80000008)
			cores = (cpuid(0x80000008, 0).c & 0xff) + 1;
		while ((1u << pkg_shift) < logical)
			pkg_shift++;
		while (cores && (1u << smt_shift) * cores < logical)
			smt_shift++;
	}
	f->phys_id = f->apicid >> pkg_shift;
	f->core_id = (f->apicid >> smt_shift) & ((1u << (pkg_shift - smt_shift)) - 1);
}

/* CPUID on the CPU this thread runs on now. */
static void cpu_probe(struct cpu_facts *f)
{
	struct cpuid_regs r0 = cpuid(0, 0), r1 = cpuid(1, 0);
	f->max_leaf = r0.a;
	memcpy(f->vendor, &r0.b, 4);
	memcpy(f->vendor + 4, &r0.d, 4);
	memcpy(f->vendor + 8, &r0.c, 4);
	f->vendor[12] = '\0';
	f->max_ext = cpuid(0x80000000, 0).a;
	if (f->max_ext < 0x80000000)
		f->max_ext = 0;
	f->family = (r1.a >> 8) & 0xf;
	f->model = (r1.a >> 4) & 0xf;
	if (f->family == 0xf)
		f->family += (r1.a >> 20) & 0xff;
	if (f->family >= 6)
		f->model += ((r1.a >> 16) & 0xf) << 4;
	f->stepping = r1.a & 0xf;
	f->initial_apicid = f->apicid = r1.b >> 24;
	f->clflush = ((r1.b >> 8) & 0xff) * 8;
	struct cpuid_regs r8 = f->max_ext >= 0x80000008 ? cpuid(0x80000008, 0) : (struct cpuid_regs){ 0 };
	f->phys_bits = r8.a ? r8.a & 0xff : 36;
	f->virt_bits = r8.a ? (r8.a >> 8) & 0xff : 48;
	f->power = f->max_ext >= 0x80000007 ? cpuid(0x80000007, 0).d : 0;
	cpu_model_name(f);
	f->cache_kb = cpu_cache_kb(f);
	cpu_topology(f);
	cpu_flags(f);
}

/* Moves this thread to cpu: whether it runs there now. */
static bool cpu_move_to(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		return false;
	for (int tries = 0; tries < 100 && sched_getcpu() != cpu; tries++)
		sched_yield();
	return sched_getcpu() == cpu;
}

/* One processor's block. */
static void cpuinfo_block(struct text *t, const struct cpu_facts *f, const struct cpu_facts *all, int n,
			  uint64_t tsc_khz)
{
	unsigned siblings = 0, cores = 0;
	for (int i = 0; i < n; i++) {
		if (all[i].phys_id != f->phys_id)
			continue;
		siblings++;
		bool first = true; /* the first of its package with this core id */
		for (int j = 0; j < i; j++)
			first &= !(all[j].phys_id == f->phys_id && all[j].core_id == all[i].core_id);
		cores += first;
	}
	put(t, "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\nmodel name\t: %s\n"
	    "stepping\t: %u\n", f->cpu, f->vendor, f->family, f->model, f->model_name, f->stepping);
	if (tsc_khz)
		put(t, "cpu MHz\t\t: %u.%03u\n", (unsigned)(tsc_khz / 1000), (unsigned)(tsc_khz % 1000));
	if (f->cache_kb)
		put(t, "cache size\t: %u KB\n", f->cache_kb);
	put(t, "physical id\t: %u\nsiblings\t: %u\ncore id\t\t: %u\ncpu cores\t: %u\napicid\t\t: %u\n"
	    "initial apicid\t: %u\n", f->phys_id, siblings, f->core_id, cores, f->apicid, f->initial_apicid);
	put(t, "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: %u\nwp\t\t: yes\nflags\t\t:%s\nbugs\t\t:\n",
	    f->max_leaf, f->flags);
	uint64_t lpj = tsc_khz * 1000 / LINUX_HZ;
	put(t, "bogomips\t: %llu.%02llu\n", (unsigned long long)(lpj / (500000 / LINUX_HZ)),
	    (unsigned long long)((lpj / (5000 / LINUX_HZ)) % 100));
	put(t, "clflush size\t: %u\ncache_alignment\t: %u\naddress sizes\t: %u bits physical, %u bits virtual\n",
	    f->clflush, f->clflush, f->phys_bits, f->virt_bits);
	put(t, "power management:");
	for (unsigned i = 0; i < 32; i++) {
		if (!(f->power & (1u << i)))
			continue;
		if (i < sizeof(power_names) / sizeof(power_names[0]))
			put(t, "%s%s", power_names[i][0] ? " " : "", power_names[i]);
		else
			put(t, " [%u]", i);
	}
	put(t, "\n\n");
}

long procfs_text_cpuinfo(struct text *t, const struct k_meminfo *mi)
{
	/* made without the server's lock (procfs_open): its own facts */
	struct cpu_facts *facts = calloc(K_CPUS_MAX, sizeof(*facts));
	if (!facts)
		return -ENOMEM;
	cpu_set_t old;
	bool restore = sched_getaffinity(0, sizeof(old), &old) == 0;
	int n = 0;
	for (int i = 0; i < K_CPUS_MAX; i++) {
		if (!(mi->cpus_sched & (1u << i)))
			continue;
		memset(&facts[n], 0, sizeof(facts[n]));
		facts[n].cpu = i;
		/* where it cannot move (no such CPU any more), the one it is
		 * on answers: under QEMU every CPU's CPUID is alike but the
		 * APIC ids */
		cpu_move_to(i);
		cpu_probe(&facts[n++]);
	}
	if (restore)
		sched_setaffinity(0, sizeof(old), &old);
	for (int i = 0; i < n; i++)
		cpuinfo_block(t, &facts[i], facts, n, mi->tsc_hz / 1000);
	free(facts);
	return 0;
}
