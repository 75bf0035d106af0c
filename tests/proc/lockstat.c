/* /proc/lock_stat and lockstat(2) (kernel/debug/lockstat.c,
 * docs/locking.md "Contention"): root's file (0600), Linux's header,
 * writing "0" clears; two threads on two CPUs setting and reading the
 * host name meet on the kernel's "uts" lock, which the file then lists
 * with the places that met it; uid 1000 may neither open the file
 * (EACCES) nor call lockstat (EPERM); a bad op is EINVAL. Prints TAP. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include "abi/lockstat.h"
#include "arbor/syscalls.h"
#include "check.h"

static char text[65536];

/* /proc/lock_stat's text, read whole; its length or -1. */
static long read_lock_stat(void)
{
	int fd = open("/proc/lock_stat", O_RDONLY);
	if (fd < 0)
		return -1;
	long len = 0, r;
	while ((r = read(fd, text + len, sizeof(text) - 1 - (size_t)len)) > 0)
		len += r;
	close(fd);
	text[len] = '\0';
	return r < 0 ? -1 : len;
}

/* The contentions column of class name's line ("   NAME:   N ..."), or -1. */
static long class_count(const char *name)
{
	char key[64];
	snprintf(key, sizeof(key), " %s: ", name);
	const char *at = strstr(text, key);
	return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

static volatile int stop;

static char host[65];

/* Sets (to what it was) or reads the host name on CPU (long)arg until
 * told to stop. */
static void *uts_worker(void *arg)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET((int)(long)arg, &one);
	sched_setaffinity(0, sizeof(one), &one);
	char name[65];
	while (!stop) {
		if ((long)arg)
			gethostname(name, sizeof(name));
		else
			sethostname(host, strlen(host));
	}
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct stat st;
	check(stat("/proc/lock_stat", &st) == 0 && st.st_mode == (S_IFREG | 0600) && st.st_uid == 0,
	      "/proc/lock_stat: a regular file, root's, 0600");
	long len = read_lock_stat();
	check(len > 0 && !strncmp(text, "lock_stat version 0.4", 21) && strstr(text, "class name") &&
		      strstr(text, "contentions") && strstr(text, "waittime-total"),
	      "its first line and header are Linux's");
	int fd = open("/proc/lock_stat", O_WRONLY);
	check(fd >= 0 && write(fd, "0\n", 2) == 2 && write(fd, "x", 1) == 1 && close(fd) == 0,
	      "writing \"0\" (clear) and anything else is taken");
	check(sys_lockstat(99, NULL, 0) == -EINVAL, "lockstat: an unknown op is EINVAL");

	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus >= 2) {
		gethostname(host, sizeof(host));
		pthread_t t[2];
		for (long i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, uts_worker, (void *)i);
		usleep(500000);
		stop = 1;
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		len = read_lock_stat();
		long uts = class_count("uts");
		printf("# uts: %ld contentions in 0.5 s of two CPUs\n", uts);
		check(uts > 0, "two CPUs on the host name: the \"uts\" lock's contentions are listed");
		const char *site = strstr(text, " uts ");
		if (site)
			printf("# %.*s\n", (int)strcspn(site, "\n"), site);
		check(site && (strstr(text, " [<sys_hostname+0x") || strstr(text, " [<uts_set+0x") ||
			       strstr(text, " [<uts_get+0x")),
		      "with the places that met them (sys_hostname, or its uts_set and uts_get)");
		struct lockstat_class *recs = calloc(256, sizeof(*recs));
		long k = sys_lockstat(LOCKSTAT_READ, (char *)recs, 256 * sizeof(*recs));
		long found = -1;
		for (long i = 0; i < k && i < 256; i++)
			if (!strcmp(recs[i].name, "uts"))
				found = i;
		check(k > 0 && found >= 0 && recs[found].contentions > 0 &&
			      recs[found].wait_max_ns <= recs[found].wait_ns,
		      "lockstat(2) gives the same class, its longest wait within its total");
		check(sys_lockstat(LOCKSTAT_READ, (char *)recs, sizeof(*recs) - 1) >= 1,
		      "a buffer too small for one record: the count alone");
		check(sys_lockstat(LOCKSTAT_READ, (char *)1, 256 * sizeof(*recs)) == -EFAULT,
		      "a bad buffer: EFAULT");
		free(recs);
		fd = open("/proc/lock_stat", O_WRONLY);
		check(fd >= 0 && write(fd, "0", 1) == 1 && close(fd) == 0 && read_lock_stat() > 0 &&
			      class_count("uts") == -1,
		      "after \"0\": the class is gone from the file");
	} else {
		printf("# one CPU: no contention to make\n");
	}

	pid_t pid = fork();
	if (pid == 0) {
		int ok = setuid(1000) == 0 && open("/proc/lock_stat", O_RDONLY) == -1 && errno == EACCES &&
			 sys_lockstat(LOCKSTAT_READ, NULL, 0) == -EPERM && sys_lockstat(LOCKSTAT_CLEAR, NULL, 0) == -EPERM;
		_exit(ok ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "uid 1000: open is EACCES, lockstat EPERM (read and clear)");
	printf("1..%d\n", n);
	return failed != 0;
}
