/* free [-k|-m]: memory in procps's columns (total, used, free, shared,
   buff/cache, available), read from /proc/meminfo as procps does; KiB by
   default, -m for MiB. used = total - free - buff/cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kB value of "Key:" in meminfo, or 0. */
static unsigned long long meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	unsigned long long div = 1;
	if (argc == 2 && strcmp(argv[1], "-m") == 0)
		div = 1024;
	else if (argc > 2 || (argc == 2 && strcmp(argv[1], "-k") != 0)) {
		fprintf(stderr, "usage: free [-k|-m]\n");
		return 1;
	}
	char text[2048];
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	if (!n) {
		fprintf(stderr, "free: cannot read /proc/meminfo\n");
		return 1;
	}
	text[n] = '\0';
	unsigned long long total = meminfo_kb(text, "MemTotal:"), freek = meminfo_kb(text, "MemFree:");
	unsigned long long cache = meminfo_kb(text, "Buffers:") + meminfo_kb(text, "Cached:") +
				   meminfo_kb(text, "SReclaimable:");
	unsigned long long used = total > freek + cache ? total - freek - cache : 0;
	printf("%15s %11s %11s %11s %11s %11s\n", "total", "used", "free", "shared", "buff/cache", "available");
	printf("Mem:   %11llu %11llu %11llu %11llu %11llu %11llu\n", total / div, used / div, freek / div,
	       meminfo_kb(text, "Shmem:") / div, cache / div, meminfo_kb(text, "MemAvailable:") / div);
	printf("Swap:  %11llu %11llu %11llu\n", meminfo_kb(text, "SwapTotal:") / div, 0ull,
	       meminfo_kb(text, "SwapFree:") / div);
	return 0;
}
