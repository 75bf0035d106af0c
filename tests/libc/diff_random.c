/* Differential test: getrandom(2), getentropy, /dev/urandom and
 * /dev/random, and sysinfo(2) with the CPU counts — what a program can
 * check of them without depending on the values: lengths, errors,
 * that two reads differ, that the bytes look uniform, that the memory
 * figures agree with each other. The host's output is the reference. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	default: return "another errno";
	}
}

static void show(const char *what, long r)
{
	printf("%-36s %ld %s\n", what, r, r < 0 ? ename(errno) : "");
	fflush(stdout);
}

static unsigned char big[1 << 16];
static void *volatile nowhere; /* NULL, unknown to the compiler */

/* Every byte value between half and twice its expected count. */
static int uniform(const unsigned char *b, size_t n)
{
	unsigned count[256] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[b[i]]++;
	for (int v = 0; v < 256; v++)
		if (count[v] < n / 512 || count[v] > n / 128)
			return 0;
	return 1;
}

int main(void)
{
	unsigned char a[64], b[64];
	show("getrandom 64", getrandom(a, sizeof(a), 0));
	show("getrandom 64 GRND_NONBLOCK", getrandom(b, sizeof(b), GRND_NONBLOCK));
	printf("two reads differ: %s\n", memcmp(a, b, sizeof(a)) ? "yes" : "no");
	show("getrandom GRND_RANDOM", getrandom(b, 16, GRND_RANDOM));
	show("getrandom 0 bytes", getrandom(b, 0, 0));
	show("getrandom flags 8", getrandom(b, 16, 8));
	show("getrandom RANDOM|INSECURE", getrandom(b, 16, GRND_RANDOM | GRND_INSECURE));
	show("getrandom NULL", getrandom(nowhere, 16, 0));
	show("getrandom 64 KiB", getrandom(big, sizeof(big), 0));
	printf("64 KiB uniform: %s\n", uniform(big, sizeof(big)) ? "yes" : "no");
	show("syscall(SYS_getrandom)", syscall(SYS_getrandom, a, 32, 0));
	show("getentropy 256", getentropy(a, 0) + getentropy(big, 256));
	show("getentropy 257", getentropy(big, 257));

	const char *devs[] = { "/dev/urandom", "/dev/random" };
	for (int i = 0; i < 2; i++) {
		int fd = open(devs[i], O_RDONLY);
		size_t got = 0;
		while (fd >= 0 && got < sizeof(big)) {
			ssize_t n = read(fd, big + got, sizeof(big) - got);
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		printf("%s: %zu bytes, uniform: %s\n", devs[i], got, uniform(big, got) ? "yes" : "no");
		if (fd >= 0)
			close(fd);
	}

	struct sysinfo si;
	show("sysinfo", sysinfo(&si));
	long page = sysconf(_SC_PAGESIZE);
	printf("mem_unit 1: %s\n", si.mem_unit == 1 ? "yes" : "no");
	printf("0 < freeram < totalram: %s\n", si.freeram > 0 && si.freeram < si.totalram ? "yes" : "no");
	printf("totalram = get_phys_pages pages: %s\n",
	       si.totalram / (unsigned long)page == (unsigned long)get_phys_pages() ? "yes" : "no");
	printf("uptime > 0, procs > 0: %s\n", si.uptime > 0 && si.procs > 0 ? "yes" : "no");
	printf("loads below 1000: %s\n",
	       si.loads[0] < (1000ul << SI_LOAD_SHIFT) && si.loads[2] < (1000ul << SI_LOAD_SHIFT) ? "yes" : "no");
	printf("get_nprocs >= 1, <= conf: %s\n", get_nprocs() >= 1 && get_nprocs() <= get_nprocs_conf() ? "yes" : "no");
	show("syscall(SYS_sysinfo)", syscall(SYS_sysinfo, &si));
	show("sysinfo NULL", sysinfo(nowhere));
	return 0;
}
