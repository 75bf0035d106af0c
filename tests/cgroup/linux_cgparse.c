/* What each cgroup v2 interface file does with odd input: the errno of
 * the write, then what the file reads back. Run as root with cgroup2 at
 * /sys/fs/cgroup; the same program on Linux 6.1 (in QEMU, linux-run) and
 * on Arbor must print the same: tests/cgroup/linux_cgparse.out, recorded
 * on Linux by tools/record-linux.sh, is what make test compares with. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup/cgparse"

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	default: return "E?";
	}
}

static void show(const char *file, const char *in)
{
	char path[128], buf[512];
	snprintf(path, sizeof(path), CG "/%s", file);
	int fd = open(path, O_WRONLY);
	int err = 0;
	if (fd < 0) {
		err = errno;
	} else {
		if (write(fd, in, strlen(in)) < 0)
			err = errno;
		close(fd);
	}
	fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = '|';
	printf("%-16s %-28s -> %-8s %s\n", file, in, ename(err), buf);
}

int main(void)
{
	mkdir(CG, 0755);
	int fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, "+cpu +memory +pids +io", 22);
		close(fd);
	}
	static const char *const cpu_max[] = { "50000 abc", "50000abc", "abc", "max", "max 2000", "1000 1000",
		"999 1000", "1000 999", "-5", "0", "50000 100000 7", " 50000", "50000  20000", "18446744073709551615",
		"max 1000001", "100000", NULL };
	for (int i = 0; cpu_max[i]; i++)
		show("cpu.max", cpu_max[i]);
	static const char *const weight[] = { "0", "1", "10000", "10001", "100x", " 100", "100\n", "-1", "0x10",
		"default 50", "50", NULL };
	for (int i = 0; weight[i]; i++)
		show("cpu.weight", weight[i]);
	static const char *const nice[] = { "-20", "19", "20", "-21", "5x", "0", NULL };
	for (int i = 0; nice[i]; i++)
		show("cpu.weight.nice", nice[i]);
	static const char *const burst[] = { "1000", "100001", "-1", "abc", "0", NULL };
	for (int i = 0; burst[i]; i++)
		show("cpu.max.burst", burst[i]);
	static const char *const mem[] = { "max", "1M", "1m", "1G", "4097", "12345678", "1 2", "abc", "-1", "1k",
		"0x1000", " 4096", "4096 ", "18446744073709551615", "max\n", "", NULL };
	static const char *const memfiles[] = { "memory.max", "memory.high", "memory.low", "memory.min", NULL };
	for (int f = 0; memfiles[f]; f++)
		for (int i = 0; mem[i]; i++)
			show(memfiles[f], mem[i]);
	static const char *const group[] = { "1", "0", "2", "-1", "x", NULL };
	for (int i = 0; group[i]; i++)
		show("memory.oom.group", group[i]);
	static const char *const pids[] = { "max", "10", "0", "-1", "10x", " 10", "2147483648", "max\n", NULL };
	for (int i = 0; pids[i]; i++)
		show("pids.max", pids[i]);
	static const char *const depth[] = { "max", "3", "-1", "x", "2147483648", NULL };
	for (int i = 0; depth[i]; i++)
		show("cgroup.max.depth", depth[i]);
	for (int i = 0; depth[i]; i++)
		show("cgroup.max.descendants", depth[i]);
	static const char *const freeze[] = { "1", "0", "2", "-1", "x", " 1", "01", NULL };
	for (int i = 0; freeze[i]; i++)
		show("cgroup.freeze", freeze[i]);
	static const char *const stc[] = { "+cpu", "cpu", "+nosuch", "-cpu +cpu", "+cpu -cpu", "", "  +pids  ",
		"+memory\n", NULL };
	for (int i = 0; stc[i]; i++)
		show("cgroup.subtree_control", stc[i]);
	/* what the differential fuzzer (cgfuzz.c) found: kstrtoull's shape for
	 * cpu.max.burst, memparse's empty number, blkg_conf_prep's blank after
	 * MAJ:MIN; and signs kstrto* and sscanf take */
	static const char *const more[][2] = { { "cpu.max", "50000 100000" }, { "cpu.max.burst", "1000 " },
		{ "cpu.max.burst", "+1000" }, { "cpu.max.burst", "2000\n" }, { "cpu.max.burst", " 3000" },
		{ "cpu.weight", "+3" }, { "cpu.weight.nice", "+5" }, { "cpu.idle", "+1" }, { "cpu.idle", "0" },
		{ "memory.max", "M" }, { "memory.max", "max" }, { "memory.max", "\t" }, { "memory.high", "k" },
		{ "memory.high", "max" }, { "memory.low", "G" }, { "memory.min", "E" }, { "memory.max", "MM" },
		{ "memory.max", "0x" }, { "memory.max", "15E" }, { "memory.max", "max" }, { "memory.reclaim", "M" },
		{ "memory.reclaim", "0" }, { "memory.reclaim", "\t" }, { "io.max", "8:0" }, { "io.max", "8:0\n" },
		{ "io.max", " 8:0 rbps=1" }, { "io.max", "8:0\trbps=1" }, { "io.max", "8:0 rbps=+5" }, { "io.max", "8:0x" },
		{ "io.weight", "8:0" }, { "io.weight", "8:0\n" }, { "io.weight", "8:0 50" }, { "io.weight", "default 50" },
		{ "io.weight", " default 60" }, { "io.weight", "+70" }, { "io.weight", "defaultx 5" },
		{ "io.weight", "default\n80" }, { "io.weight", "90 junk" }, { "pids.max", "+5" }, { "pids.max", "max" },
		{ "cgroup.max.depth", "+2" }, { "cgroup.max.depth", "max" }, { "cgroup.freeze", "+1" },
		{ "cgroup.freeze", "0" }, { "cpu.max.burst", "18446744073709551616" }, { "cpu.max.burst", "18446744073709551615" },
		{ "cpu.max.burst", "9223372036854775808" }, { "cpu.weight", "18446744073709551615" }, { "cpu.max", "max" },
		{ "cpu.weight", "300" }, { "cpu.idle", "1" }, { "cpu.weight.nice", "0" }, { "cpu.weight", "50" },
		{ "cpu.idle", "0" }, { "cpu.weight.nice", "x" }, { "cpu.weight", "x" }, { "cpu.weight.nice", "7" },
		{ "cpu.idle", "1" }, { "cpu.idle", "0" }, { "cpu.weight.nice", "x" } };
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		show(more[i][0], more[i][1]);
	show("cgroup.type", "threaded");
	show("cgroup.type", "domain");
	rmdir(CG);
	return 0;
}
